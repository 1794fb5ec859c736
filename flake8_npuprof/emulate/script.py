"""`npuprof emulate`: what a profiling run of this script would do, without an NPU.

For each profiling setup of the script (every route), the runtime pipeline is replayed in order
(inventory.py finds the setups and the order GE meets them, runtime.py replays the adapter, GE
and the collector, layout.py predicts the PROF_* tree): which setup GE actually reads, script
vs environment, default options, the checks the runtime makes (with its own messages), what
the product drops or remaps, where the data lands, the preflight of this machine (NPP901-903)
and, with --against, what a real collection directory lacks and why. Only the code that runs from
the script's entry point decides (setups/reach.py); a shell launcher is followed launch by launch
(sequence.py). The reports are written by render.py.

Default targets (`--cann any --soc any`): every supported (version, product) pair is emulated
and nothing is claimed beyond what all of them agree on. When they agree, the verdict is
theirs; when they do not, the verdict is "unknown" and the first message names, per verdict,
the versions and products it holds for ("depends on the target: collects on ...; fails on
..."), with the messages of each group tagged by where they apply. `collected` lists what is
collected on every target that collects; `dropped` names where each drop happens.

The environment: without --env, PROFILING_MODE / PROFILING_OPTIONS are taken as unset apart from
what the script itself sets, and ASCEND_WORK_PATH is unknown (8.5+ without "output": collects into
it if set, fails otherwise, so the verdict is "unknown" with that condition); with --env they are
read from the current environment (the script's own assignments, when they run before GE starts,
still win).

Unknown pieces of values (source.HOLE) are kept as HOLE characters inside the emulation and
written "<unknown>" in every rendered string (text and JSON); output_dir is null then. `usable`
is None (text "usable data: unknown (why)") when the outcome hangs on such a value.

Exit codes: 0 when every setup GE would read collects data, preflight passes and (with
--against) the directory has every predicted file family and nothing unexpected; 1 otherwise
(also when the script has no profiling setup); 2 on usage or internal error.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from .runtime import Env
from ..knowledge.targets import Target
from ..shell.launches import TYPED
from ..shell.words import MAX_LAUNCHER
from ..source.fence import fenced, root
from .replay import EXIT_PROBLEM, UsageError, emulate_text, finish, run_dir, starts_python
from .render import (HEADLINE_WIDTH, _conditions, _display, headline, render_json, render_text,  # noqa: F401
                     not_replayed, report_json, result_json, target_line, unknown_reasons)

# vLLM's profiler is named, not modelled: a script calling it is "unknown" (data/sources.json)
FACTS = ("runtime.vllm_profiler", "shell.dash")


# ---------------------------------------------------------------- the emulation

def base_env(use_env: bool, environ) -> Env:
    """Without --env, PROFILING_MODE/PROFILING_OPTIONS are taken as unset (the emulation is of what the script
    configures) but ASCEND_WORK_PATH is unknown: on 8.5+ it decides whether a setup without "output" collects."""
    if not use_env:
        return Env(label="the environment (taken as empty without --env)", work_path_known=False)
    return Env(environ.get("PROFILING_MODE"), environ.get("PROFILING_OPTIONS"), "the environment (--env)",
               environ.get("ASCEND_WORK_PATH") or None, True)


def _import_fails(text: str) -> Optional[str]:
    import ast
    from .mindspore_run import import_fails
    try:
        return import_fails(ast.parse(text))
    except (SyntaxError, ValueError):
        return None


def emulate_path(path: str, target: Target, cwd: Optional[str] = None, use_env: bool = False,
                 graph: Optional[str] = None, against: Optional[str] = None, environ=None,
                 inside: Optional[str] = None, launcher_args=None, typed: Optional[str] = None) -> dict:
    """launcher_args: what a shell launcher is started with (`emulate run.sh -- --profiling=True`), None: not
    known (each `$1` is then a value not known statically); typed: its path as typed at the prompt (its `$0`);
    inside: the project's root under --no-outside, outside which nothing is read (source/fence.py)."""
    with fenced(inside):
        return _emulate_path(path, target, cwd, use_env, graph, against, environ, launcher_args, typed)


def _emulate_path(path: str, target: Target, cwd: Optional[str], use_env: bool, graph: Optional[str],
                  against: Optional[str], environ, launcher_args, typed: Optional[str]) -> dict:
    from ..source.files import ReadError, read_source
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory: give one script (npuprof check takes directories)")
    try:
        source = read_source(path)
    except ReadError as exc:
        raise UsageError(f"{path}: {exc}") from None
    given_cwd = os.path.abspath(cwd) if cwd else None       # a launcher starts in its own directory otherwise
    cwd = given_cwd or os.getcwd()
    if graph is not None and not os.path.isfile(graph):
        raise UsageError(f"--graph {graph}: no such file")
    if against is not None and not os.path.isdir(against):
        raise UsageError(f"--against {against}: no such directory")
    env = base_env(use_env, environ if environ is not None else os.environ)
    if launcher_args is not None and (graph is not None or against is not None):
        raise UsageError("arguments after -- are the script's or the launcher's, without --graph or --against")
    if launcher_args is not None and source.kind == "python":
        # `emulate train.py -- ARG...`: the script started with its flags, as `python3 train.py ARG...` is
        script = os.path.relpath(os.path.abspath(path), given_cwd or os.getcwd())
        return emulate_command(["python3", script, *launcher_args], target, given_cwd, use_env, environ, root())
    if source.kind == "shell":
        cwd = given_cwd or os.path.dirname(os.path.abspath(path))     # never the caller's directory
    if source.kind == "shell" and len(source.text) > MAX_LAUNCHER:
        # over the launcher's read bound (check says NPP191): what it runs is not known, never "no profiling"
        why = (f"not read: over {MAX_LAUNCHER // 1024} KiB ({len(source.text):,} characters, over the "
               f"{MAX_LAUNCHER:,} a launcher may have): what it sets and runs is not known here; split the launcher")
        report = finish(path, [], target, cwd, env, None, None, use_env)
        report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [why], "unseen": True},
                      answer={"usable": None, "why": why, "decider": None})
        return report
    if source.kind == "shell" and graph is None and against is None:
        from .sequence import emulate_launcher      # every launch it runs, with its env and flags
        caller = (environ if environ is not None else os.environ) if use_env else None
        launched = emulate_launcher(path, target, given_cwd, env, caller, launcher_args, typed=typed)
        if launched is not None:
            launched["env"] = use_env
            return launched
    cwd = run_dir(source.text, source.kind, cwd)
    results = emulate_text(source.text, source.kind, path, target, cwd, env)
    from .sequence import _ms_env_start
    if source.kind == "python" and all(r.setup.route == "env" for r in results) and use_env and \
            _ms_env_start((environ if environ is not None else os.environ).get("MS_PROFILER_OPTIONS"), source.text):
        # MindSpore's EnvProfiler starts at `import mindspore`, whatever the script sets up: as a launch says
        name = os.path.basename(path)
        why = ("MS_PROFILER_OPTIONS, set in the environment (--env), has \"start\": true: MindSpore starts its "
               f"profiler when {name} imports mindspore (EnvProfiler); when it stops and what it keeps is not "
               "followed here")
        report = finish(path, results, target, cwd, env, graph, against, use_env)
        report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None},
                      launch={"lines": [f"{name}: MindSpore's profiler: unknown: {why}"], "unseen": True})
        return report
    if source.kind == "python" and not results and graph is None and against is None:
        # no setup of its own: the project modules it imports, followed as a launcher's launch of it is
        from .sequence import follow_script
        caller = (environ if environ is not None else os.environ) if use_env else None
        followed = follow_script(path, target, cwd, env, caller)
        if followed is not None:
            followed["env"] = use_env
            return followed
    report = finish(path, results, target, cwd, env, graph, against, use_env)
    spawn = starts_python(source.text) if source.kind == "python" and not results else 0
    if spawn:
        why = f"it starts another Python process at line {spawn}, which emulate does not follow: emulate that script"
        report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [f"no launch followed: {why}"], "unseen": True},
                      answer={"usable": None, "why": why, "decider": None})
    from .environment import Environment
    from .framework_replay import emulate_framework
    # a framework's script: its own profiler, also where it (or --env) sets PROFILING_MODE, which the
    # framework reads (torch_npu 26.1 turns into a no-op) and no GE of this script does
    if source.kind == "python" and all(r.setup.route == "env" for r in results) and not spawn:
        from ..source.prefilter import code_only, names_mindspore, names_torch_npu
        from .torch_run import reads_env_config
        caller = Environment(environ if environ is not None else os.environ)
        for framework, named in (("torch_npu", names_torch_npu), ("mindspore", names_mindspore)):
            replayed = (named(source.text) or (framework == "torch_npu" and use_env and
                                               reads_env_config(source.text, caller))) and \
                emulate_framework(source.text, path, framework, target, cwd, use_env, caller)
            if replayed:
                return replayed
        from ..source.prefilter import PROFILING_WORDS
        from .sequence import GE_NAMES
        code = code_only(source.text)
        for framework, named in (("a torch_npu or torch profiler", names_torch_npu), ("MindSpore's profiler", names_mindspore)):
            # a profiler in a comment or a parked string runs nowhere; nor does a bare `from mindspore import
            # Profiler` never called (mindrlhf's test_actor_inference.py): as a launch of the script decides
            # (launcher.imported_profiling)
            if named(code) and PROFILING_WORDS.search(code):
                fails = _import_fails(source.text) if named is names_mindspore else None
                if fails:               # NPP364: the import of its profiler stops the job
                    report.update(usable=False, exit=EXIT_PROBLEM, answer={"usable": False, "why": fails,
                                                                           "decider": None},
                                  launch={"lines": [f"{os.path.basename(path)}: {framework}: fails: {fails}"],
                                          "unseen": True})
                    break
                # its own profiler, which this replay does not model: never "no profiling setup found"
                why = f"it names {framework}, but no call emulate replays (npuprof check judges it)"
                report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None},
                              launch={"lines": [not_replayed(os.path.basename(path), framework)], "unseen": True})
                break
        else:
            from ..source.prefilter import names_vllm
            if names_vllm(code):
                # the names this file holds (off.py with profiler_config and start_profile() was said to name
                # VLLM_TORCH_PROFILER_DIR too)
                held = ", ".join(n for n in ("start_profile", "VLLM_TORCH_PROFILER_DIR") if n in code)
                why = (f"it names vLLM's profiler ({held}), which emulate does not model: "
                       "what it collects is not known here")
                report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None},
                              launch={"lines": [f"{os.path.basename(path)}: {why}"], "unseen": True})
            elif not results and any(m.group(0) not in GE_NAMES for m in PROFILING_WORDS.finditer(code)):
                # a profiler of the project's own (MindSpeed-MM's training.py: `from mindspeed_mm.tools.profiler
                # import Profiler`, prof.start()/step()/stop()) was "no profiling setup found", "usable data: no";
                # a launch of the script says unknown (sequence._named)
                from .sequence import named_in
                # (GE's names emulate models: where they left no setup, none runs, as in code after a `return`)
                why = named_in(source.text, os.path.basename(path))
                report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None},
                              launch={"lines": [why], "unseen": True})
    if source.kind == "python" and not results:
        from .sequence import ms_env_hint
        report["env_hint"] = ms_env_hint(source.text)
    if source.kind == "shell" and not results and graph is None and against is None:
        report["unmodelled"] = starts_nothing(os.path.basename(path), not source.text.strip(), source.text)
    if source.kind == "shell" and results and report["usable"] is not False:
        # its own PROFILING_* as GE would read them, but no process the walk sees reads them: never "yes"
        why = "the launcher starts no python3 script or msprof run that emulate can follow"
        report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [f"no launch: {why}"], "unseen": True},
                      answer={"usable": None, "why": why, "decider": None})
    return report


# ---------------------------------------------------------------- a command line

COMMAND = TYPED                 # the name a typed command is shown under, as a launcher's file would be


def emulate_command(words, target: Target, cwd: Optional[str] = None, use_env: bool = False, environ=None,
                    inside: Optional[str] = None) -> dict:
    """`npuprof emulate -- COMMAND...`: the job as it is typed at the prompt (`bash test/train_full_1p.sh
    --profiling=True`, `python3 train.py --epochs 1`, `msprof --output=out python3 train.py`, `torchrun ...`),
    started in the current directory (or --cwd), which is where such a command runs. A shell script with its
    arguments is that launcher's emulation (`emulate X.sh -- ARG...` started there); anything else is read as
    a launcher of that one line. inside: the project's root under --no-outside, outside which nothing is read
    (source/fence.py)."""
    with fenced(inside):
        return _command(words, target, cwd, use_env, environ)


def _command(words, target: Target, cwd: Optional[str], use_env: bool, environ) -> dict:
    """emulate_command inside the fence."""
    import shlex
    from ..shell.command_line import SHELLS, _SCRIPT_PATH
    words = list(words)
    if not words:
        raise UsageError("give the command after --, as it is typed (bash train_full_1p.sh --profiling=True)")
    start = os.path.abspath(cwd) if cwd else os.getcwd()
    k = 1 if os.path.basename(words[0]) in SHELLS else 0
    if k < len(words) and _SCRIPT_PATH.fullmatch(words[k]) and (k or "/" in words[k]):
        # `bash x.sh ARG...` / `./x.sh ARG...`: the launcher itself, with its arguments, where it is started
        script = os.path.join(start, os.path.expanduser(words[k]))
        if not os.path.isfile(script):
            raise UsageError(f"{words[k]}: no such launcher in {start}")
        launched = emulate_path(script, target, cwd=start, use_env=use_env, environ=environ, inside=root(),
                                launcher_args=words[k + 1:], typed=os.path.expanduser(words[k]))
        if os.path.basename(words[0]) == "sh":
            launched["sh"] = _dash_note(words[0], words[k], script)
        return launched
    from .sequence import emulate_launcher
    env = base_env(use_env, environ if environ is not None else os.environ)
    caller = (environ if environ is not None else os.environ) if use_env else None
    line = " ".join(shlex.quote(w) for w in words) + "\n"
    report = emulate_launcher(os.path.join(start, COMMAND), target, start, env, caller, text=line)
    if report is None:                  # as for a launcher of that line (emulate_path)
        report = finish(COMMAND, [], target, start, env, None, None, use_env)
        report["unmodelled"] = starts_nothing(COMMAND, False)
    report["env"] = use_env
    return report


# what dash (/bin/sh on Debian and Ubuntu; dash 0.5.12 run) reads otherwise than bash: `[[` (`[[: not found`, the test
# is false), `((i++))` (`i++: not found`), `for ((` (`Syntax error: Bad for loop variable`: the script ends there),
# `source` (`source: not found`)
_BASH_ONLY = re.compile(r"^[ \t]*(?:if|elif|while|until|!)?[ \t]*(\[\[)[ \t]|\b(for[ \t]*\(\()|^[ \t]*(\(\()|"
                        r"^[ \t]*(source)[ \t]", re.M)


def _dash_note(shell: str, typed: str, script: str) -> Optional[str]:
    """For `sh X.sh`: the first line of X.sh that dash reads otherwise than bash, said as a caveat (None: none)."""
    from ..source.files import ReadError, read_source
    try:
        text = read_source(script).text
    except ReadError:
        return None
    for m in _BASH_ONLY.finditer(text):
        start = m.start(m.lastindex or 0)
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].lstrip().startswith("#"):
            continue                                    # a comment line
        word = re.sub(r"[ \t]+", " ", m.group(m.lastindex or 0))
        line = text.count("\n", 0, start) + 1
        return (f"{shell} runs {typed}, which uses bash's `{word}` (line {line}): this answer is bash's; where /bin/sh "
                "is dash (Debian's and Ubuntu's), `[[` is not a command (its test is false), `((` is not arithmetic, a "
                "`for ((` loop is a syntax error that ends the script there and `source` is not found: start it with "
                f"bash {typed}")
    return None


# `python3 -m MODULE` on a line that is no comment (starts_nothing names the tools that train nothing)
_PY_TOOL = re.compile(r"(?m)^[^#\n]*?\bpython[\d.]*(?:[ \t]+-[A-Za-z]+)*[ \t]+-m[ \t]*([\w.]+)")


def starts_nothing(name: str, empty: bool, text: str = "") -> str:
    """The line for a launcher (or a typed command) in which the walk sees nothing start a process that may profile:
    one that runs a command the walk cannot read, or a program of its own, is unknown instead (sequence.py). One
    that runs the toolkit's msprof.py analysis runs Python, on data collected earlier (shell/launches.py)."""
    import re
    from ..shell.launches import PY_TOOLS
    analysis = re.search(r"(?m)^[^#\n]*\bmsprof\.py[ \t]+(?:import|query|export|analyze)\b", text)
    # `python3 -m build`, `python3 -m pip install`: Python runs, though no training script (launch_truth: bash ran
    # LLaMA-13B upload_pypi.sh's `python3 -m build` and `python3 -m twine upload` where this said "no Python script")
    tools = [f"-m {m.group(1)} (line {text.count(chr(10), 0, m.start(1)) + 1})" for m in _PY_TOOL.finditer(text)
             if m.group(1) in PY_TOOLS]
    what = "is empty" if empty else "runs the toolkit's msprof.py analysis, of data collected earlier, and " \
        "starts no training script or msprof run" if analysis else "starts no training script or msprof run " \
        f"(the Python it names runs only tools that train nothing: {', '.join(tools)})" if tools else \
        "starts no Python script or msprof run"
    return f"{name}: no launch: it {what}, so a run of it collects nothing"
