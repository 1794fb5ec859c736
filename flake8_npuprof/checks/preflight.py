"""NPP9xx: the machine the check runs on — output directory, free space, graph op names.

These look at the local file system, so they run only when asked (`--npuprof-preflight`; NPP903
also needs `--npuprof-graph`) and always in `npuprof emulate`. Relative `output` paths are
resolved against the launch directory (Settings.cwd, else the current directory), as the
collector resolves them against the job's working directory.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..source.jsonscan import Member
from ..source.model import Issue
from ..source.said import ABORT, Said, aside, clause, logged, said, so
from ..source.text import HOLE, StrValue

MB = 1 << 20
_LIMIT = re.compile(r"^([0-9]{1,10})MB$")


class Problem(NamedTuple):
    code: str
    said: Said                  # what it says (source/said.py)

    @property
    def message(self) -> str:
        return self.said.message


def resolve_output(output: str, cwd: Optional[str]) -> str:
    """The absolute directory the collector writes to (a leading ~ is expanded, as collectors
    from 2025 do)."""
    path = os.path.expanduser(output) if output.startswith("~") else output
    return os.path.normpath(os.path.join(cwd or os.getcwd(), path))


def nearest_existing(path: str) -> str:
    cur = path
    while not os.path.lexists(cur):
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    return cur


def output_problem(path: str) -> Optional[Problem]:
    """NPP901 for an absolute output directory, or None when it exists writable or can be created.

    Decided by trying, not by permission bits (which say "writable" to root on /proc, a read-only mount or a
    full disk): the missing directories are created as the collector would, a uniquely named directory and a
    small file are made inside and everything made is removed again."""
    from ..knowledge.collection import data
    # the collectors up to 8.0 log only the last part of the path (Utils::BaseName)
    line = data()["emulation"]["output_not_accessible"].format(name=os.path.basename(path.rstrip("/")) or path)
    # from 8.5 the collector refuses the options (executed: tests/oracle/v*.jsonl, an output below a file)
    # up to 8.0 SetOutputDir fails GetParamFromInputCfg, which MsprofInitGeOptions returns as
    # MSPROF_ERROR_CONFIG_INVALID: the same rejection as any other invalid option of those versions
    consequence = clause("the collector rejects the options", logged(
        f' (from CANN 8.5 "Result path is empty or not accessible, result path: ", up to 8.0 "{line}")'), so(ABORT))
    if os.path.lexists(path) and not os.path.isdir(path):
        return Problem("NPP901", said(f'output "{path}" exists and is not a directory', consequence,
                                      "choose a directory path"))
    base = nearest_existing(path)
    if not os.path.isdir(base):
        return Problem("NPP901", said(f'output directory "{path}" cannot be created: "{base}" is not a directory',
                                      consequence, "choose another path"))
    failure = probe(path)
    if failure is None:
        return None
    where, why = failure
    if where == path and os.path.isdir(path):
        return Problem("NPP901", said(clause(f'output directory "{path}" is not writable', aside(why)), consequence,
                                      "fix its permissions or choose another directory"))
    return Problem("NPP901", said(clause(f'output directory "{path}" cannot be created: '
                                         f'"{os.path.dirname(where) or where}" is not writable', aside(why)),
                                  consequence,
                                  "create it first or choose a writable directory"))


PROBE_PREFIX = ".npuprof-probe-"


def probe(path: str) -> Optional[Tuple[str, str]]:
    """Try making `path` without making it: where it exists, a uniquely named directory and a small file in
    it; where it is missing, the same missing parts below a uniquely named directory in the nearest existing
    one (the same folder and file system, so the same permissions, name limits and free space), and the file
    at the bottom. All of it is removed again. The user's own path is never created: two probes (or a real job)
    at the same time would otherwise meet in it, and the one that did not make it could not tell whether to
    remove it. None when that worked, else (the path that could not be made, the system's reason)."""
    import uuid
    missing: List[str] = []
    cur = path
    while not os.path.lexists(cur):
        missing.append(os.path.basename(cur))
        cur = os.path.dirname(cur)
    unique = os.path.join(cur, f"{PROBE_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}")
    made: List[str] = []
    real = path if not missing else os.path.join(cur, missing[-1])     # what a failure is said of
    try:
        os.mkdir(unique)
        made.append(unique)
        work = unique
        for k, name in enumerate(reversed(missing)):
            work = os.path.join(work, name)
            real = os.path.join(cur, *reversed(missing[len(missing) - k - 1:]))
            os.mkdir(work)
            made.append(work)
        real = path
        with open(os.path.join(work, "probe"), "wb") as fh:
            made.append(os.path.join(work, "probe"))
            fh.write(b"npuprof preflight\n")
            fh.flush()
            os.fsync(fh.fileno())       # a full disk may only refuse the data, not the name
        return None
    except OSError as exc:
        return (real, exc.strerror or type(exc).__name__)
    finally:
        for made_path in reversed(made):
            try:
                (os.rmdir if os.path.isdir(made_path) else os.remove)(made_path)
            except OSError:
                pass


def free_mb(path: str) -> Optional[int]:
    """Free space for this user, in MB, on the file system that holds `path` (or its nearest existing ancestor)."""
    try:
        st = os.statvfs(nearest_existing(path))
    except OSError:
        return None
    return st.f_bavail * st.f_frsize // MB


def storage_problem(limit, path: str) -> Optional[Problem]:
    """NPP902 when a valid storage_limit exceeds the free space where the output directory lives."""
    if not isinstance(limit, str):
        return None
    m = _LIMIT.match(limit)
    if m is None:
        return None                     # an invalid value is NPP107's business
    wanted = int(m.group(1))
    free = free_mb(path)
    if free is None or wanted <= free:
        return None
    return Problem("NPP902", said(f'storage_limit "{limit}" is more than the {free}MB free on the file system of '
                                  f'"{path}"', clause("the collector never ages data out before the disk is full",
                                                      so("a long run can fill it"), aside("checkpoints included")),
                                  "set it below the free space"))


def trace_point_problem(key: str, name, graph) -> Optional[Problem]:
    """NPP903 when fp_point/bp_point names no op of the graph dump ("" asks for the automatic search)."""
    if not isinstance(name, str) or not name or HOLE in name or graph.has(name):
        return None
    from ..knowledge.collection import data
    warning = data()["emulation"]["trace_point_warnings"][key]
    close = graph.close(name)
    hint = f'did you mean "{close[0]}"? ' if close else ""
    return Problem("NPP903", said(clause(f'{key} "{name}" is not an op of {os.path.basename(graph.path)}',
                                         aside(graph.kind)),
                                  f'GE only warns "{warning}" and the step trace has no usable '
                                  f'{"FP start" if key == "fp_point" else "BP end"}',
                                  f'{hint}use a name from the dump, or "" for the automatic search'))


def load_graph(path: str):
    """(graph, None) or (None, why it cannot be used)."""
    from ..source.graphdump import GraphError, load
    try:
        return load(path), None
    except GraphError as exc:
        return None, str(exc)


def options_problems(options: dict, cwd: Optional[str], graph=None, machine: bool = True) -> List[Tuple[str, Problem]]:
    """(JSON key, problem) for one options dict; holes in a value leave that value unchecked."""
    out: List[Tuple[str, Problem]] = []
    output = options.get("output")
    if machine and isinstance(output, str) and output and HOLE not in output:
        path = resolve_output(output, cwd)
        for problem in (output_problem(path), storage_problem(options.get("storage_limit"), path)):
            if problem is not None:
                out.append(("output" if problem.code == "NPP901" else "storage_limit", problem))
    if graph is not None and options.get("training_trace") == "on":
        for key in ("fp_point", "bp_point"):
            problem = trace_point_problem(key, options.get(key), graph)
            if problem is not None:
                out.append((key, problem))
    return out


# ---------------------------------------------------------------- flake8

def check(ctx) -> None:
    settings = ctx.settings
    if not settings.preflight:
        return
    graph, graph_error = (load_graph(settings.graph) if settings.graph else (None, None))
    from ..setups.inventory import Inventory
    from ..source.jsonscan import parse
    reported_graph_error = False
    for setup in Inventory(ctx).setups:
        if setup.mode.state in ("off", "error") or setup.options.state != "given":
            continue
        cands = setup.options.strings.candidates if setup.options.strings else ()
        if not cands:
            continue
        per_candidate: List[Tuple[StrValue, Dict[str, Member], List[Tuple[str, Problem]]]] = []
        for value in cands:
            doc = parse(value.text)
            if not doc.ok:
                per_candidate = []
                break
            members = {m.key: m for m in doc.members}
            found = options_problems(doc.as_dict(), settings.cwd, graph, machine=settings.preflight)
            per_candidate.append((value, members, found))
        if not per_candidate:
            continue
        # several candidate values: report only what every one of them has
        common = set.intersection(*[{(k, p.code) for k, p in found} for _, _, found in per_candidate])
        value, members, found = per_candidate[0]
        for key, problem in found:
            if (key, problem.code) not in common or key not in members:
                continue
            m = members[key]
            ctx.report_issue(Issue(problem.code, m.value_start, m.value_end, problem.said, None, key), value)
        if graph_error and not reported_graph_error:
            point = next((members[k] for k in ("fp_point", "bp_point") if k in members and members[k].value), None)
            if point is not None:
                reported_graph_error = True
                ctx.report_issue(Issue("NPP903", point.value_start, point.value_end,
                                       said(clause(f"the graph dump {settings.graph} cannot be used",
                                                   aside(graph_error)),
                                            "fp_point/bp_point were not checked"), None, point.key), value)


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_COLLECTOR, REF_ENV_OPTIONS, REF_FP_BP, REF_GE_INIT, REF_OPTIONS_80, REF_PROFILING_CONFIG_601,
    Rule, _opts)


_PREFLIGHT = ("Runs only with --npuprof-preflight (flake8) and always in `npuprof emulate`; it looks at the "
              "machine the check runs on, so run it where the job will run.")


RULES = (
    Rule(
        code="NPP901",
        name="output-dir-not-writable",
        summary="output directory cannot be created or is not writable (resolved against the launch directory)",
        default=False,
        level="error",
        what="An `output` directory that, on this machine, cannot be created or is not writable by the "
             "current user; relative paths are resolved against the launch directory.",
        why="The collector tries to create the directory when GE hands it the options. If that fails it "
            "rejects the options and GE initialisation fails, so the job aborts: from CANN 8.5 the record of "
            "the runtime's own code shows it; up to 8.0 the collector's source reports the path as not "
            "accessible and returns the same error as for any other invalid option.",
        example=_opts('{"output":"/etc/passwd/profiling","training_trace":"on","task_trace":"on",'
                      '"fp_point":"","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: create the directory or choose a writable one.",
        options=_PREFLIGHT,
        references=(REF_OPTIONS_80, REF_PROFILING_CONFIG_601, REF_COLLECTOR),
        group="preflight",
        facts=("collection.emulation.output_not_accessible", "collection.emulation.messages.NPP108",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP902",
        name="storage-limit-exceeds-free-space",
        summary="`storage_limit` larger than the free space of the output file system",
        default=False,
        level="warning",
        what="A `storage_limit` above the space currently free on the file system that holds `output`.",
        why="The limit is meant to make the collector age out old data before the disk fills; set above "
            "the free space it never takes effect, so a long run can fill the disk and take down whatever "
            "else writes there, training checkpoints included.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"4294967295MB"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"1024MB"}'),
        fix_safety="none",
        fix_note="No fix: the right limit depends on the disk the job runs on.",
        options=_PREFLIGHT,
        references=(REF_ENV_OPTIONS, REF_PROFILING_CONFIG_601),
        group="preflight",
        facts=("option_keys.meaning.storage_limit",),
    ),
    Rule(
        code="NPP903",
        name="trace-point-not-in-graph",
        summary="`fp_point`/`bp_point` op name not found in the graph dump given with `--npuprof-graph`",
        default=False,
        level="warning",
        what="A non-empty `fp_point` or `bp_point` that names no node of the graph dump passed with "
             "--npuprof-graph (a `tf.io.write_graph` pbtxt or a GE build dump).",
        why="GE matches the points by exact node name (or a recorded pre-fusion name). For a name it cannot "
            "find it only logs a warning, and the step trace is produced without usable FP/BP marks.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",'
                      '"fp_point":"no_such_op","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: pick the name from the dump, or use `\"\"` for the automatic search.",
        options="Needs a graph dump given with --npuprof-graph (`npuprof check --graph`), which also switches the "
                "other preflight checks on, as --npuprof-preflight does; always in `npuprof emulate`.",
        references=(REF_FP_BP, REF_GE_INIT),
        settings=(("graph", "graph.pbtxt"),),
        group="preflight",
        facts=("collection.emulation.trace_point_warnings",),
    ),
)
