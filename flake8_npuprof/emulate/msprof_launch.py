"""A launch whose script runs as msprof's application: what is collected is msprof's doing.

msprof hands the application its configuration in PROFILER_SAMPLECONFIG, and the collector then
initialises from it in place of what the framework passes (the script's profiling_mode /
profiling_options, or PROFILING_MODE / PROFILING_OPTIONS read by GE): data/msprof_cli.json,
"msprof_cli.precedence". So the script's setups are reported as overridden, and one more result,
for the msprof command line, carries the verdict: msprof's switches (defaults included), its
output directory, the predicted tree, and no export command (msprof exports by itself). A
problem msprof itself refuses (NPP120-NPP127) is a failure before the application starts.

What the collector sources do not show is not claimed: GE checks some options itself before it
calls the collector (NPP100/NPP103/NPP112), so a setup GE would reject stays "unknown" here; one
that fails in the script or the TF adapter, before GE starts, still fails.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from ..source.text import HOLE
from ..knowledge.targets import Target
from ..knowledge.msprof_options import cli
from ..checks.msprof import Call, _SCRIPT, parse_command
from .message import Message

EXPORTS = Message("msprof parses and exports the data itself when the application ends "
                  "(mindstudio_profiler_output/ inside PROF_*): there is no export command to run afterwards")
# PROFILING_MODE values that make the collector take the dynamic path (collector Utils::IsDynProfMode)
DYNAMIC_MODES = ("dynamic", "delay_or_duration")
# problems after which nothing is profiled: msprof refuses the line, or the application it starts exits at once
EXITS = ("exits", "app_exits")


def under_msprof(launch, results: list, target: Target, env, unknown: List[str], root: str, ls=None,
                 table=None) -> list:
    """The script's results marked as overridden, and msprof's own result first (ls: the script, prepared;
    table: its flags)."""
    from .replay import _rel
    from ..checks.msprof_after import EXITS as SCRIPT_EXITS, misplaced_after
    cmd = launch.command
    where = f"{_rel(cmd.path, root)}:{cmd.line}"
    # an msprof option after the script (NPP128): the script may exit on it when it reads its arguments
    after = misplaced_after(launch, ls, table) if ls is not None and launch.script else []
    own = msprof_result(launch, target, env, unknown, where, after)
    exits = own.verdict == "fails"
    # NPP128 alone: msprof starts the application, which exits before the script runs (or as it reads its argv)
    app_only = exits and all(c == "NPP128" for o in own.outcomes.values() for c in o.codes)
    # the script itself exits on an msprof option written after it
    in_script = app_only and any(e == SCRIPT_EXITS for _, _, _, e in after) and not any(
        x.effect in EXITS for x in _check(launch.msprof.call, target))
    outer = launch.msprof.command           # msprof's own line, for a launch inside its shell-script application
    at = f"{_rel(outer.path, root)}:{outer.line}" if outer is not None else where
    return [own] + [_overridden(r, at, exits, app_only, in_script) for r in results]


def timed_out(r, duration: str, signal: str):
    """msprof's own result when it runs under `timeout DURATION` (shell/launches.msprof_timeout): timeout signals msprof
    and its application when DURATION elapses; msprof catches SIGINT alone, and exports after it only from CANN 9.0
    (data/msprof_cli.json "stops_on_sigint_only"). Whether the run ends first is not known."""
    if r.verdict == "fails" or not cli()["stops_on_sigint_only"]:
        return r
    if signal == "INT":
        then = "msprof stops them, and exports what was collected from CANN 9.0, nothing before"
    elif signal in ("TERM", "KILL"):
        then = f"msprof does not catch SIG{signal}, timeout's {'default' if signal == 'TERM' else 'signal'}: it ends " \
            "with them and exports nothing"
    else:
        then = f"what msprof does on SIG{signal} is not read here"
    why = (f"timeout {duration} signals msprof and its application once that time has passed ({then}); whether the "
           "run ends first is not known here")
    return r._replace(verdict="unknown", messages=[Message(why)] + [m for m in r.messages if m != EXPORTS],
                      spread=[], export_command="")


def outlived(r, launch, root: str):
    """msprof's own result for a launch its shell-script application starts in the background and does not `wait`
    for (shell/launches.outlives_msprof): msprof waits for its application's process alone, then exports what is
    there and ends (data/msprof_cli.json "waits_for_app_only"), so what this launch collects by then is not known."""
    from .replay import _rel
    if r.verdict == "fails" or not cli()["waits_for_app_only"]:
        return r                            # msprof refuses its line first
    cmd = launch.command
    why = (f"msprof waits only for its application ({' '.join(launch.msprof.app)}), which starts this launch in the "
           f"background at {_rel(cmd.path, root)}:{cmd.line} and does not `wait` for it: msprof exports what its "
           "output holds when the application ends, and ends, maybe before this launch has collected anything; what "
           "is collected and exported is not known here")
    return r._replace(verdict="unknown", messages=[Message(why)] + [m for m in r.messages if m != EXPORTS],
                      spread=[], export_command="")


def unjoined(r, join: str):
    """msprof's own result when its application is msrun without --join=True (shell/launches.unjoined_msrun): msrun
    returns once its workers are started, and msprof then exports what its output holds and ends."""
    if r.verdict == "fails" or not cli()["waits_for_app_only"]:
        return r                            # msprof refuses its line first
    given = "msrun's --join is not known here" if HOLE in join else \
        f"msrun --join={join}" + (" (its default)" if join == "False" else "")
    why = (f"msprof waits only for its application, and {given} returns once it has started its workers: msprof "
           "exports what its output holds and ends then, maybe before they have collected anything; what is "
           "collected and exported is not known here (msrun --join=True waits for them)")
    return r._replace(verdict="unknown", messages=[Message(why)] + [m for m in r.messages if m != EXPORTS],
                      spread=[], export_command="")


def _check(call, target):
    from ..checks.msprof import check_call
    return check_call(call, target)


def _failure_layer(r) -> str:
    """Where the script's setup may fail whatever msprof configures: "script" (the script, the TF adapter:
    before GE starts), "ge" (a check GE makes before it calls the collector, or options whose JSON is not
    known), or "" (only the collector, which msprof's configuration replaces, or nowhere)."""
    from .runtime import emu
    ge = set(emu()["ge_checks"])
    collector = f'GE: "{emu()["collector_call_failed"]}"'
    layer = ""
    for o in r.outcomes.values():
        if o.verdict == "fails" and set(o.codes) & ge:
            layer = "ge"
        elif o.verdict == "fails" and Message(collector) not in o.messages:
            return "script"
        elif o.verdict == "unknown" and o.options is None and o.text is not None:
            layer = "ge"                # the options' JSON itself is not known
    return layer


def _overridden(r, where: str, exits: bool, app_only: bool = False, in_script: bool = False):
    if r.read_by_ge is False and r.verdict == "off":
        return r                        # never read anyway: its own reason stands
    if exits:
        why = f"not run: msprof at {where} exits before it starts the application, so this setup is never reached"
        if in_script:
            why = (f"not run: the script exits as it reads its arguments, on an msprof option written after it at "
                   f"{where} (NPP128), so this setup is never reached")
        elif app_only:
            why = (f"not run: the application msprof starts at {where} exits before this script runs (NPP128), so "
                   "this setup is never reached")
        return _off(r, why)
    mode = r.setup.mode
    if r.verdict == "off" and mode.state == "off" and mode.skipped:
        # the launch skips the setup: there is nothing of it for msprof to override
        return _off(r, f"{mode.detail}; msprof at {where} decides what is collected")
    layer = _failure_layer(r)
    if layer == "script":
        return r._replace(export_command="", messages=[Message(
            f"under msprof at {where}, but this fails before GE starts, which msprof does not change")] + r.messages)
    if layer == "ge":
        return r._replace(read_by_ge=None, verdict="unknown", spread=[], export_command="", messages=[Message(
            f"under msprof at {where}, whose configuration the collector uses instead of this setup's; but GE "
            "checks these options itself before it calls the collector, and the sources read do not show whether "
            "it still does under msprof")] + [m for m in r.messages if m.code and m.where is None])
    return _off(r, f"overridden by msprof at {where}: the collector takes msprof's configuration "
                   "(PROFILER_SAMPLECONFIG) instead of this setup's profiling options, so msprof's flags decide what "
                   "is collected")


def _off(r, why: str):
    return r._replace(read_by_ge=False, verdict="off", messages=[Message(why)], effective_options=None, source="",
                      collected=[], dropped=[], output_dir=None, layout=[], export_command="", groups=[],
                      outcomes={}, spread=[])


def msprof_result(launch, target: Target, env, unknown: List[str], where: str, after=()):
    """The msprof command line's own result: per targeted (version, product) it fails on a problem msprof
    refuses, or on an msprof option after the script that the script exits on (after: msprof_args'
    (start, end, message, effect) of the launch), else it collects msprof's switches into its output directory."""
    from ..checks.msprof_after import EXITS as SCRIPT_EXITS, UNKNOWN
    from .replay import _rel, summarise
    from ..setups.inventory import Mode, OptionsArg, ScriptSetup
    from ..checks.msprof import check_call
    from ..knowledge.msprof_options import cli
    from .runtime import Outcome
    cmd = launch.msprof.command or launch.command       # msprof's own line, also for a launch in its application
    call = launch.msprof.call
    data = cli()
    given = {o.name: o.value for o in call.options if o.value is not None}
    switches = dict(data["defaults"], **{k: v for k, v in given.items() if k != "application"})
    collected = [k for name, keys in data["collects"].items() if switches.get(name, "off") != "off" for k in keys]
    notes: List[Message] = []
    # a value not known may be one msprof refuses, or switch a collection on or off (the output is free text)
    open_ = next((name for name, v in given.items() if HOLE in v and name not in ("output", "application")), None)
    output, why = _output(launch, given, env, unknown)
    if why:
        notes.append(Message(why))
    mode = env.mode or ""
    condition = label = ""          # what the outcome hangs on, and in a few words
    code = None                     # the finding `condition` is, if any
    if HOLE in mode or mode in DYNAMIC_MODES:
        label = f"PROFILING_MODE is {mode!r} in this launch" if HOLE not in mode else \
            "PROFILING_MODE is not known statically in this launch"
        condition = f"{label}: " + ("the collector then takes its dynamic path" if HOLE not in mode else
                                    "with \"dynamic\" the collector would take its dynamic path")
    elif open_ is not None:
        label = f"--{open_} is not known statically"
        condition = f"{label}: what msprof makes of it is not known"
    elif switches.get("dynamic") == "on":
        label = "--dynamic=on"
        condition = f"{label}: what is collected depends on the commands given to msprof while it runs"
    stops = tuple(Message(m.message, "NPP128") for _, _, m, e in after if e == SCRIPT_EXITS)
    if not condition and any(e == UNKNOWN for _, _, _, e in after):
        condition, code = next(m.message for _, _, m, e in after if e == UNKNOWN), "NPP128"
        label = "whether the script runs with the msprof option written after it is not known (NPP128)"
    whole = [x for x in check_call(call, target) if x.effect in EXITS]
    outcomes: Dict[Tuple[str, str], Outcome] = {}
    for v in target.versions:
        for p in target.products:
            problems = [x for x in check_call(call, Target(v, p)) if x.effect in EXITS]
            missing = "" if problems else _no_application(call, cmd, v, p)
            if missing:
                outcomes[(v, p)] = Outcome("fails", (Message(missing),) + stops, switches, source="msprof",
                                           codes=("NPP128",) * len(stops))
            elif problems or stops:
                shown = whole if whole else problems
                outcomes[(v, p)] = Outcome("fails", tuple(Message(x.message, x.code) for x in shown) + stops,
                                           switches,
                                           source="msprof", codes=tuple(x.code for x in shown) + ("NPP128",) * len(stops))
            elif condition:
                outcomes[(v, p)] = Outcome("unknown", (Message(condition, code),), switches, source="msprof",
                                           condition=label)
            else:
                outcomes[(v, p)] = Outcome("collects", (), switches, source="msprof", collected=tuple(collected),
                                           output=output)
    setup = ScriptSetup("msprof", cmd.line, cmd.column, Mode("on"), OptionsArg("absent"), None, "yes", ())
    lead = [Message("the collection is msprof's: it hands the application its configuration (PROFILER_SAMPLECONFIG), "
                    "which the collector uses instead of the script's profiling options and PROFILING_MODE/"
                    "PROFILING_OPTIONS")]
    exits = all(o.verdict == "fails" for o in outcomes.values())
    if launch.app:
        lead.append(Message(f"the application ({' '.join(launch.app)}) is not a Python script: what it runs is not "
                            "read, and msprof's switches decide what is collected while it runs"))
    r = summarise(setup, True, outcomes, target, cmd.cwd[0] if cmd.cwd else os.getcwd(),
                  lead + notes + ([] if exits else [EXPORTS]))
    from ..shell.launches import TYPED
    # a typed command has no file: its name, wherever it runs (not "scripts/<command line>" under --cwd scripts)
    where = TYPED if os.path.basename(cmd.path) == TYPED else _rel(cmd.path, os.getcwd())
    return r._replace(export_command="", path=where)


def _no_application(call, cmd, version: str, product: str) -> str:
    """msprof's refusal of --application's program or script as this machine holds them, in the directory the
    command runs in ("" when it finds them, or the version's parser is not ported): a program that is not bash, sh,
    python* or pmupload is looked for there, not on PATH (CheckUserCmdValid: RelativePathToAbsolutePath, then
    PreCheckApp), so `--application="torchrun ..."` or `"cd x && ..."` is refused. A static check cannot see the
    disk; emulate looks at the one it runs on, as its preflight does for the output directory."""
    from ..knowledge import msprof_parser as P
    from ..knowledge.msprof_machine import Machine
    cwd = cmd.cwd[0] if cmd.cwd else None
    texts = [w.text for w in call.words]
    value = next((o.value for o in call.options if o.name == "application" and o.value), None)
    head = os.path.basename((value or "").split()[0]) if (value or "").split() else ""
    # only where the directory is settled (typed with --cwd, or `cd "$(dirname "$0")"`), not where the walk took the
    # launcher to be started; an interpreter's script is left to the launch, which looks for it
    if version not in P.versions() or not cmd.settled or not cwd or HOLE in cwd or not value or HOLE in value or \
            not head or \
            head in ("bash", "sh", "pmupload") or head.startswith("python"):
        return ""

    class Here(Machine):
        def file(self, path: str) -> Optional[str]:
            if not os.path.exists(path):
                return "missing"
            return "dir" if os.path.isdir(path) else "exec" if os.access(path, os.X_OK) else "file"

    here = Here()
    here.cwd = cwd
    refused = next((s for s in P.steps(texts, version, product, here)
                    if s.action == P.REJECT and s.kind == "application" and s.line), None)
    if refused is None:
        return ""
    return (f"msprof refuses --application ({refused.line}) and exits before the application starts, so nothing is "
            f"profiled: a program that is not bash, sh or python is looked for in the directory msprof runs in "
            f"({cwd}, as this machine holds it), not on PATH")


def _output(launch, given: Dict[str, Optional[str]], env, unknown: List[str]) -> Tuple[Optional[str], str]:
    """msprof's output directory as given to the collector (HOLE pieces when partly known; None: not known),
    and why it is not known. Without --output: $ASCEND_WORK_PATH/profiling_data when that is set, else the
    current directory, or the script's directory with --application (msprof_cli.output_default)."""
    run = launch.msprof
    own = run.command or launch.command             # msprof's own command (the launch may be inside its application)
    cwd = own.cwd[0] if own.cwd else None
    if "output" in given:
        value = given["output"]
        if cwd is None and value and not value.startswith(("/", "~", HOLE)):
            return None, f"--output={value} is relative to the directory msprof runs in, which is not known here"
        return value, ""
    # the application's first word (a shell, a rank launcher such as torchrun), or the Python script it starts
    app = (run.app[0] if run.app else "") if run.command is not None or run.app else \
        launch.script or (launch.app[0] if launch.app else "")
    if run.application and app:                     # the application's own directory
        fallback = os.path.dirname(app) if os.path.isabs(app) else \
            os.path.normpath(os.path.join(cwd, os.path.dirname(app))) if cwd else None
    else:
        fallback = cwd
    if fallback is None:
        return None, ("no --output: msprof writes to $ASCEND_WORK_PATH/profiling_data when that is set, else to the "
                      "directory it runs in, which is not known here")
    if not env.work_path_known:
        return None, (f"no --output: msprof writes to $ASCEND_WORK_PATH/profiling_data when that is set, else to "
                      f"{fallback}; ASCEND_WORK_PATH is not known here (give --env to use this environment)")
    if env.work_path:
        return env.work_path.rstrip("/") + "/profiling_data", ""
    return fallback, ""


def launch_json(launch, where: str) -> dict:
    """The msprof part of the JSON launch report."""
    run = launch.msprof
    return {"at": where, "application": run.application,
            "options": {o.name: o.value for o in run.call.options if o.name != "application"}}


def launch_lines(launch, where: str) -> List[str]:
    """What the launch report says about msprof."""
    run = launch.msprof
    how = "--application" if run.application else "its application"
    what = f"the script is {how}" if not launch.app else f"its application is {' '.join(launch.app)}"
    if run.app:                 # a shell script or a rank launcher (torchrun) that msprof starts
        what = f"its application ({' '.join(run.app)}) runs this script"
    given = [f"--{o.name}={o.value}" for o in run.call.options if o.value is not None and o.name != "application"]
    return [f"  under msprof ({where}): {what}; msprof's switches decide what is collected"
            + (f" ({' '.join(given)})" if given else " (its defaults)")]


def msprof_overrides(cmdline) -> Optional[dict]:
    """What running under msprof means for the script it starts: msprof's switches are the
    profiling configuration, and the script's own profiling options are not used.

    cmdline: a shell command string or an argv list. None when it does not run msprof."""
    call = parse_command(cmdline) if not isinstance(cmdline, Call) else cmdline
    if call is None:
        return None
    switches = {o.name: o.value for o in call.options if o.value is not None and HOLE not in (o.value or "")}
    script = next((w for w in call.app if _SCRIPT.match(w)), None) if call.complete else None
    note = ("the application runs under msprof, which hands it its own profiling configuration "
            "(PROFILER_SAMPLECONFIG): profiling options set in the script (profiling_mode/profiling_options, "
            "PROFILING_OPTIONS) are not used; msprof's flags decide what is collected")
    return {"application": list(call.app), "script": script, "switches": switches,
            "output": switches.get("output"), "complete": call.complete, "note": note}


def msprof_layout(cmdline, target: Target = Target(), work_path: Optional[str] = None) -> Optional[dict]:
    """What an msprof run leaves behind: the output directory, what it collects (msprof's defaults
    plus its switches), the PROF_* tree predicted for the target products, and that msprof exports
    the data itself once the application ends (no separate `msprof --export` is needed).

    work_path: $ASCEND_WORK_PATH when known (msprof then writes there when --output is absent).
    None when the command line does not run msprof."""
    from .layout import predict
    call = parse_command(cmdline) if not isinstance(cmdline, Call) else cmdline
    if call is None:
        return None
    data = cli()
    given = {o.name: o.value for o in call.options if o.value is not None and HOLE not in o.value}
    switches = dict(data["defaults"], **given)
    output = given.get("output")
    if not output:
        if work_path:
            output = work_path.rstrip("/") + "/profiling_data"
        elif "application" in given:
            output = "<the application's directory>"
        else:
            output = "."
    collected: List[str] = []
    for name, keys in data["collects"].items():
        if switches.get(name, "off") != "off":
            collected += keys
    tree = [f"{output.rstrip('/') or '/'}/{p}" for p in predict(collected, target.products)]
    return {"output": output, "switches": switches, "collects": collected, "tree": tree,
            "exports_itself": data["exports_itself"], "complete": call.complete,
            "note": "msprof parses and exports the data itself when the application ends "
                    "(mindstudio_profiler_output/ inside the PROF_* directory); the script's own profiling "
                    "options are not used"}
