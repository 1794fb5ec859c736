"""What torch_npu's profiler checks share (checks/torch_npu.py, torch_npu_config.py, torch_npu_loop.py): the
file's names for torch_npu, how a finding names what each release does (`report`, per release where they
differ), the keyword checks of every call (NPP303), and the building blocks of the pages' examples.

torch_npu never stops on a bad profiling setting: a bad value is reset to a default with a warning
printed on rank 0 only, and a profiler that never reaches its active steps collects nothing and says
nothing. Each message says what torch_npu does, per release where releases differ; the target's
torch_npu release (`--npuprof-torch-npu`, default any) decides what is reported, as the CANN target
does for the options checks. The knowledge is data/torch_npu.json (knowledge/torch_npu.py).
"""

from __future__ import annotations

import ast
from typing import Dict, List, Mapping, NamedTuple, Optional, Union

from ..knowledge import torch_npu as K
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.model import Edit, Fix
from ..source.said import Part, Said, Text, aside, clause, said
from ..source.suggest import close_matches
from .framework_values import EnumRef, Names as FrameworkNames

PROFILER = "torch_npu.profiler"
PROFILE = PROFILER + ".profile"
EXPERIMENTAL = PROFILER + "._ExperimentalConfig"
SCHEDULE = PROFILER + ".schedule"
HANDLER = PROFILER + ".tensorboard_trace_handler"
ENUMS = {PROFILER + ".ProfilerLevel": "profiler_level", PROFILER + ".AiCMetrics": "aic_metrics",
         PROFILER + ".ExportType": "export_type", PROFILER + ".ProfilerActivity": "activities"}
RANK0 = "with a warning on rank 0 only"
# The one 5.0 build recorded (5.0.rc3) validates none of these values: it keeps them as written, silently;
# the final 5.0 was not recorded (its wheels are not served), so for 5.0 a reset is not claimed
BUILD_50_LEVEL0 = clause("depends on the build", aside("5.0.rc3 keeps the value as written, with a warning that AI "
                                                       "Core metrics need Level1 or Level2; later 5.0 builds were not "
                                                       "recorded"))
EXPERIMENTAL_50 = clause("ignores it, with a Python warning", aside("5.0.rc3; later 5.0 builds were not recorded"))
PROFILE_BOOL_50 = clause("depends on the build", aside('5.0.rc3 does not check its type: record_shapes="True" raised '
                                                       'TypeError there, profile_memory=1 and with_modules="yes" were '
                                                       "kept; later 5.0 builds were not recorded"))
ACTIVE0_50 = clause("depends on the build", aside("5.0.rc3 keeps active=0 without a warning, then raises "
                                                  "ZeroDivisionError at prof.step(); later 5.0 builds were not "
                                                  "recorded"))
BUILD_50 = clause("depends on the build", aside("5.0.rc3 keeps the value as written, without a warning; later 5.0 "
                                                "builds were not recorded"))
EVERY = "every"                         # a reaction shared by every release
BUILD = "depends on the build"          # some builds of a release do it, others not: no failure of the release


class Warns(NamedTuple):
    """A reaction torch_npu 6.0+ gives `with a warning on rank 0 only` (`warns("resets it to Level0")`): its words
    per release are the record's. 6.0.rc1 prints its warnings on every rank (the record's env.RANK_1 case; 6.0.rc3
    on, rank 0 only), said where the target holds 6.0; the one 5.0 build recorded validates nothing (BUILD_50)."""

    action: Text                # what it does: "resets it to Level0"
    after: Union[Text, Part] = ""   # what follows the warning: aside("op attributes are exported only to the db")

    def on(self, release: str, target: str) -> Text:
        """The reaction as `release`'s builds show it, under a target of torch_npu `target`: the 6.0.rc1 aside only
        on the 6.0 line, whose build it is (compose keeps it on a group of releases that holds 6.0)."""
        if release == "5.0":
            return BUILD_50
        every_rank = aside("6.0.rc1: on every rank") if release == "6.0" and target in ("any", "portable", "6.0") \
            else ""
        return clause(self.action, " " + RANK0, every_rank, self.after)


Reaction = Union[Text, Warns]           # what one release does (Warns: worded per release by `Warns.on`)


def mentions_torch_npu(text: str) -> bool:
    """Whether a file may use torch_npu's profiler (cheap, before any walk)."""
    return "torch_npu" in text or "npu.prof" in text or "use_npu" in text


def torch_npu_mentioned(ctx) -> bool:
    """mentions_torch_npu of the analysed file, found once per analysis: two checks ask it (torch_npu's and
    torch_npu_members'), and in a file that names none of the words it is three passes over the whole text."""
    memo = ctx.sites.memo
    found = memo.get(mentions_torch_npu)
    if found is None:
        found = memo[mentions_torch_npu] = mentions_torch_npu(ctx.src.text)
    return bool(found)


def _torch_enum(owner: str, member: str) -> Optional[EnumRef]:
    kind = ENUMS.get(owner)
    if kind is None:
        return None
    table = K.data()["experimental_config"].get(kind, {}) if kind != "activities" else \
        {a: a for a in K.data()["profile"]["activities"]}
    if member not in table:
        return None
    return EnumRef(kind, member, table[member])


class Names(FrameworkNames):
    """The file's names for torch and torch_npu, with the submodules that re-export the profiler's objects."""

    def __init__(self, tree: ast.AST):
        super().__init__(tree, ("torch", "torch_npu"),
                         ((PROFILER + ".profiler.", PROFILER + "."),
                          (PROFILER + ".experimental_config.", PROFILER + "."),
                          (PROFILER + ".scheduler.", PROFILER + ".")), _torch_enum)


# ---------------------------------------------------------------- the module's statements, in the order they run

def _module_statements(tree):
    """The statements that run when the module runs, in order: its top level and the bodies of its `if`s, `try`s
    and `with`s (not functions or classes, which run later or not at all)."""
    stack = list(reversed(getattr(tree, "body", [])))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With)):
            inner = list(stmt.body) + list(getattr(stmt, "orelse", [])) + [
                s for h in getattr(stmt, "handlers", []) for s in h.body] + list(getattr(stmt, "finalbody", []))
            stack.extend(reversed(inner))


def first_import(tree, module: str) -> Optional[ast.stmt]:
    """The first statement of the module's own run that imports `module` (or one of its submodules)."""
    for stmt in _module_statements(tree):
        if isinstance(stmt, ast.Import) and any(a.name == module or a.name.startswith(module + ".")
                                                for a in stmt.names):
            return stmt
        if isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module and \
                (stmt.module == module or stmt.module.startswith(module + ".")):
            return stmt
    return None


def env_assignments(tree, name: str) -> List[tuple]:
    """(statement, value) of each `os.environ["<name>"] = value` the module's own run makes, in order."""
    from ..source.sites import dotted
    out = []
    for stmt in _module_statements(tree):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
            target = stmt.targets[0]
            key = target.slice
            if dotted(target.value) == "os.environ" and isinstance(key, ast.Constant) and key.value == name:
                out.append((stmt, stmt.value))
    return out


# ---------------------------------------------------------------- reporting per release

def every(reaction: Reaction) -> Dict[str, Optional[Reaction]]:
    return {r: reaction for r in TORCH_NPU_RELEASES}


def missing(keyword: str, first: str, table: str) -> Dict[str, Optional[Text]]:
    """The TypeError a keyword gives on the releases before the one that added it (and on the builds of its
    first line before the one that added it: 6.0.rc1 lacks msprof_tx, which 6.0.rc3 has)."""
    out: Dict[str, Optional[Text]] = {r: clause("raises TypeError", aside(f"{table} has no {keyword} before {first}"))
                                      for r in K.releases_before(first)}
    build = K.data().get("first_build", {}).get(table, {}).get(keyword)
    if build:
        out[first] = clause(BUILD,
                            aside(f"{build[0]} raises TypeError: {table} has no {keyword} before {build[1]}"))
    return out


def report(ctx, code: str, node: ast.AST, head: Text, reactions: Mapping[str, Optional[Reaction]], advice: str = "",
           fix: Optional[Fix] = None, fine_as: Optional[Mapping[str, Text]] = None, lines: tuple = (),
           condition=None) -> bool:
    """Report `head: torch_npu <reaction>` when the target's releases fail (per release where they differ).
    fine_as: what a release that does not fail does, where "accepts it" would say too little; lines: the other
    lines of the file the words name; condition: the runs it holds in (a said.Condition), None for every run."""
    notes = getattr(ctx, "torch_npu_notes", {}).get(id(node))
    words = compose(ctx.target, head, reactions, advice, fine_as, notes, lines)
    if words is None:
        return False
    if condition is not None:
        words = words.given(condition)
    ctx.report_node(code, node, words, fix)
    return True


def compose(target, head: Text, reactions: Mapping[str, Optional[Reaction]], advice: str = "",
            fine_as: Optional[Mapping[str, Text]] = None, notes: Optional[List[str]] = None,
            lines: tuple = ()) -> Optional[Said]:
    """The words of `head: torch_npu <reaction>` for the target, None when none of its releases fails."""
    bad = {r: x.on(r, target.torch_npu) if isinstance(x, Warns) else x for r, x in reactions.items() if x}
    if not target.torch_npu_fails_on(bad):
        return None
    shown = [r for r in target.torch_npu_releases if r in bad]
    # releases that react alike group together (6.0 too, its 6.0.rc1 aside set apart); a group holding 6.0 says it
    alike = {r: x.on("7.0", target.torch_npu) if isinstance(x, Warns) and r != "5.0" else bad[r]
             for r, x in reactions.items() if x}
    groups: Dict[Text, List[str]] = {}
    for r in shown:
        groups.setdefault(alike[r], []).append(r)
    groups = {bad["6.0"] if "6.0" in rs else bad[rs[0]]: rs for rs in groups.values()}
    others: List[str] = []              # what the other releases do, a clause each
    if target.torch_npu not in ("any", "portable"):
        body = clause(f"torch_npu {target.torch_npu} ", bad[target.torch_npu])
    elif len(groups) == 1 and len(shown) == len(TORCH_NPU_RELEASES):
        body = clause("torch_npu ", bad[shown[0]])
    else:                               # the most releases' reaction first; the others after it
        order = sorted(groups.items(), key=lambda g: -len(g[1]))
        body = clause(f"torch_npu {K.span(order[0][1])} ", order[0][0])
        others += [f"on torch_npu {K.span(rs)} it {x}" for x, rs in order[1:]]
        fine: Dict[Text, List[str]] = {}
        for r in TORCH_NPU_RELEASES:
            if r not in bad:
                fine.setdefault((fine_as or {}).get(r, "accepts it"), []).append(r)
        others += [f"torch_npu {K.span(rs)} {what}" for what, rs in fine.items()]
    closing = aside("; ".join(notes)) if notes else ""
    # fails_on: the releases every build of which fails (emulate's "fails"); a build-dependent one is left out
    sure = tuple(r for r in shown if not _first_words(bad[r]).startswith(BUILD))
    return said(head, body, *others, advice, lines=lines).closed_with(closing)._replace(fails_on=sure)


def _first_words(reaction: Text) -> str:
    return reaction if isinstance(reaction, str) else next((p for p in reaction.parts if isinstance(p, str)), "")


def replace(ctx, node: ast.AST, text: str, safe: bool, title: str) -> Fix:
    return Fix((Edit(ctx.src.node_start(node), ctx.src.node_end(node), text),), safe, title)

def raises_on_target(ctx, call: ast.Call, table: Dict[str, str]) -> bool:
    """Whether the call raises TypeError on the target release (a keyword it lacks): then only that is said."""
    release = ctx.target.torch_npu
    if release in ("any", "portable"):
        return False
    return any(kw.arg and (kw.arg not in table or release in K.releases_before(table[kw.arg]))
               for kw in call.keywords)


def keywords(ctx, call: ast.Call, table: Dict[str, str], what: str) -> Dict[str, ast.keyword]:
    """NPP303 for keywords no release has, or the target's release lacks; returns the keywords by name."""
    out = {}
    for kw in call.keywords:
        if kw.arg is None:
            continue
        out[kw.arg] = kw
        first = table.get(kw.arg)
        later = K.after_recorded(what).get(kw.arg)
        if later is not None:
            # every release recorded raises TypeError, but not every torch_npu: not said under `any`
            if ctx.target.torch_npu != "any":
                report(ctx, "NPP303", kw, K.newer_keyword(what, kw.arg, later),
                       every(clause("raises TypeError", aside(f"{what} has no {kw.arg} before {later.split()[0]}"))),
                       "drop it, or run a torch_npu that has it")
        elif first is None:
            guess = close_matches(kw.arg, sorted(table))
            hint = f"; did you mean {guess[0]}=?" if guess else f"; it takes {', '.join(sorted(table))}"
            report(ctx, "NPP303", kw, f"{what} has no keyword {kw.arg}",
                    every(clause("raises TypeError", aside(f"unexpected keyword argument {kw.arg!r}"),
                                 " when the script starts")),
                    hint.lstrip("; "))
        else:
            report(ctx, "NPP303", kw, f"{what}'s keyword {kw.arg} is new in torch_npu {first}",
                    missing(kw.arg, first, what), f"drop it, or target torch_npu {first}+")
    return out



# ---------------------------------------------------------------- the pages' building blocks

from .rule import Rule  # noqa: E402

TORCH = """\
import torch
import torch_npu
from torch_npu.profiler import ProfilerActivity, ProfilerLevel, AiCMetrics, ExportType

"""
PROFILE_EXAMPLE = """\
with torch_npu.profiler.profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        schedule=torch_npu.profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1),
        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"),
        experimental_config=experimental_config) as prof:
    for step in range(10):
        train_one_step()
        prof.step()
"""


def script(config: str, profile: str = PROFILE_EXAMPLE) -> str:
    return TORCH + "experimental_config = torch_npu.profiler._ExperimentalConfig(\n" + config + ")\n" + profile


GOOD = script("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AiCMetrics.PipeUtilization,\n")
REF_GUIDE = ("Ascend PyTorch profiler user guide (Ascend/pytorch docs/zh/developer_notes/"
             "ascend_pytorch_profiler_user_guide.md)")
CHECKED = ("The target's torch_npu release (`--npuprof-torch-npu`, default `any`) decides what is reported: "
            "under `any`, only what every release from 5.0 to 26.1 does wrong (a value 6.0+ reset counts for 5.0 "
            "too, whose one recorded build, 5.0.rc3, keeps it unchecked); a release such as `7.3`, or "
            "`portable` (anything one release does wrong). Where releases differ the message says which does what.")

RULES = (
    Rule(
        code="NPP303",
        name="torch-npu-unknown-keyword",
        summary="a keyword that `_ExperimentalConfig`/`schedule`/`profile` does not have (on the target release), a "
                "positional `profile` argument (6.0+), or a required `schedule` argument missing: TypeError when the "
                "script starts",
        default=True,
        level="error",
        what="A keyword no release of torch_npu has (`aicore_metrics=`, with did-you-mean), one that the target "
             "release lacks (`mstx=` before 7.2, `host_sys=` before 7.1, `export_type=` on 5.0, "
             "`skip_first_wait=` before 26.1, `custom_trace_id_callback=` before 26.1; `execution_trace_observer=`, "
             "which only builds after the releases recorded take, from 26.2.0-beta.1 for torch 2.12 and 2.13: said "
             "for a release or under `portable`, not under `any`), a positional argument to "
             "`profile()` (keyword-only from 6.0), or a `schedule()` without `wait` or `active`.",
        why="These are plain Python signature errors, raised in the user's own code before the profiler's "
            "exception-swallowing wrappers run: the job stops at start-up with a TypeError.",
        example=script("    profiler_level=ProfilerLevel.Level1,\n    aicore_metrics=AiCMetrics.PipeUtilization,\n"),
        fixed=GOOD,
        fix_safety="none",
        fix_note="No fix: the intended keyword is the author's to choose (the message suggests one).",
        options=CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.experimental_config.keywords", "torch_npu.schedule.keywords", "torch_npu.profile.keywords"),
    ),
)
