"""torch_npu's profiler setup (NPP300-NPP310): `torch_npu.profiler.profile`, `_ExperimentalConfig`,
`schedule`, `tensorboard_trace_handler`, the training loop that steps it, the legacy API, and the
environment variables that switch it off.

torch_npu never stops on a bad profiling setting: a bad value is reset to a default with a warning
printed on rank 0 only, and a profiler that never reaches its active steps collects nothing and says
nothing. Each message says what torch_npu does, per release where releases differ; the target's
torch_npu release (`--npuprof-torch-npu`, default any) decides what is reported, as the CANN target
does for the options checks. The knowledge is data/torch_npu.json (knowledge/torch_npu.py).

This module finds the calls and judges `profile()` itself (its activities, switches, where its data goes),
`tensorboard_trace_handler`, the legacy API and the environment; the values of `_ExperimentalConfig` and
`schedule` are judged in checks/torch_npu_config.py, the loop in checks/torch_npu_loop.py, and what they
share is checks/torch_npu_report.py.
"""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from ..knowledge import torch_npu as K
from ..source.said import aside, clause, so
from ..source.sites import dotted
from .framework_values import EnumRef, Items, known as _known, show as _show
from .torch_npu_report import (CHECKED as _CHECKED, GOOD as _GOOD, PROFILE_EXAMPLE as _PROFILE, REF_GUIDE, TORCH as _TORCH,
                               every as _every, keywords as _keywords, raises_on_target as _raises_on_target,
                               report as _report, script as _script)
from .torch_npu_report import (EXPERIMENTAL, EXPERIMENTAL_50, HANDLER, PROFILE, PROFILE_BOOL_50, Warns, SCHEDULE,
                               Names, torch_npu_mentioned)
from .torch_npu_config import experimental as _experimental, schedule as _schedule
from .torch_npu_loop import NEVER as _NEVER, escapes as _escapes, index as _index, lifetime as _lifetime, loops as _loops


# ---------------------------------------------------------------- the checks

def check(ctx) -> None:
    if not torch_npu_mentioned(ctx):
        return
    names = Names(ctx.tree)
    if not names.aliases:
        return
    ctx.torch_npu_notes = names.notes
    calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)]
    profiles = []
    for call in calls:
        full = names.of(call.func)
        if full is None:
            continue
        if full == EXPERIMENTAL:
            _experimental(ctx, names, call)
        elif full == SCHEDULE:
            _schedule(ctx, names, call)
        elif full == PROFILE:
            profiles.append(call)
            _profile(ctx, names, call)
        elif full == HANDLER:
            _handler(ctx, names, call)
        else:
            _legacy(ctx, call, full)
    if profiles:
        _loops(ctx, names, profiles)
        _environment(ctx, names)
    if "PROF_CONFIG_PATH" in ctx.src.text:
        _prof_config_path(ctx, names)



def _handler(ctx, names: Names, call: ast.Call) -> None:
    node = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dir_name"), None)
    values = _known(ctx, names, node)
    if node is None or not values or any(isinstance(v, str) or v is None for v in values):
        return
    reactions = _every(Warns(clause("resets it to its default",
                                    aside("$ASCEND_WORK_PATH/profiling_data, else the working directory"))))
    _report(ctx, "NPP300", node, f"tensorboard_trace_handler's dir_name {_show(values[0])} is not a str",
            reactions, "give the output directory as a string")


def _profile(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()
    table = data["profile"]["keywords"]
    _keywords(ctx, call, table, "profile")
    if call.args:
        only = data["profile"]["keyword_only_from"]
        _report(ctx, "NPP303", call.args[0], "profile() given a positional argument",
                {r: clause("raises TypeError", aside("its arguments are keyword-only")) for r in K.releases_from(only)},
                f"name it ({list(table)[0]}=...)")
    if _raises_on_target(ctx, call, table):
        return
    kws = {kw.arg: kw for kw in call.keywords if kw.arg}
    star = any(kw.arg is None for kw in call.keywords)
    activities = _activities(ctx, names, kws.get("activities"))
    if "experimental_config" in kws and activities is not None and "NPU" not in activities:
        _report(ctx, "NPP302", kws["experimental_config"], "experimental_config without ProfilerActivity.NPU in "
                "activities", dict(_every(Warns("ignores it")), **{"5.0": EXPERIMENTAL_50}),
                "it configures the NPU side only: add ProfilerActivity.NPU to activities, or drop experimental_config")
    for name in data["profile"]["bools"]:
        values = _known(ctx, names, kws[name].value) if name in kws else None
        if values and all(not isinstance(v, bool) and v is not None for v in values):
            _report(ctx, "NPP300", kws[name].value, f"{name}={_show(values[0])} is not a bool",
                    dict(_every(Warns("resets it to False")), **{"5.0": PROFILE_BOOL_50}),
                    f"write {name}=True or {name}=False")
    if star or call.args:
        return
    handler = kws.get("on_trace_ready")
    unset = handler is None or (isinstance(handler.value, ast.Constant) and handler.value.value is None)
    if unset and not _exports(ctx, data["profile"]["exports"]) and _kept_here(ctx, call):
        reactions = _every("deletes the data when the profiler object goes away")
        reactions["5.0"] = None         # 5.0 keeps the raw data in the working directory
        _report(ctx, "NPP307", handler.value if handler else call.func,
                "profile() without on_trace_ready or an export call", reactions,
                "the raw data goes to ./export_only_prof_dir and nothing is kept: pass "
                "on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"<dir>\")")


def _kept_here(ctx, call: ast.Call) -> bool:
    """Whether the profiler stays in this file: used by `with`, or bound to a name that is not passed on,
    stored or returned (another module might export its data)."""
    node = _index(ctx.tree).owner.get(id(call))
    if isinstance(node, ast.withitem):
        var = node.optional_vars
        return var is None or (isinstance(var, ast.Name) and not _escapes(ctx.tree, var.id))
    if isinstance(node, ast.Assign):       # (never started: nothing is collected, NPP315 says so)
        return len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            not _escapes(ctx.tree, node.targets[0].id) and _lifetime(ctx, node.targets[0].id, call) != _NEVER
    return False


def _activities(ctx, names: Names, kw: Optional[ast.keyword]) -> Optional[set]:
    """NPP300 for strings in activities; returns the activities in effect (None: unknown)."""
    if kw is None:
        return {"CPU", "NPU"}
    values = _known(ctx, names, kw.value)
    if not values or len(values) != 1:
        return None
    items = values[0]
    if isinstance(items, str):          # activities="NPU": its characters are not activities
        items = Items((items,))
    if not isinstance(items, Items):
        return None
    if not items:                       # empty: profile() takes its default, both
        return {"CPU", "NPU"}
    strings = [v for v in items if isinstance(v, str)]
    if strings:
        name = strings[0]
        _report(ctx, "NPP300", kw.value, f"activities holds the string {name!r}",
                _every(Warns("resets activities to both CPU and NPU")),
                "write ProfilerActivity.CPU / ProfilerActivity.NPU" if name.upper() in ("CPU", "NPU") else
                "only ProfilerActivity.CPU and ProfilerActivity.NPU exist")
        return {"CPU", "NPU"}
    if all(isinstance(v, EnumRef) and v.kind == "activities" for v in items):
        return {v.name for v in items}
    return None


def _exports(ctx, exports: Iterable[str]) -> bool:
    """Whether the file calls an export method (read once per file: a file may hold many profilers)."""
    key = (id(ctx.src), tuple(exports))
    cached = getattr(ctx, "torch_npu_exports", None)
    if cached is None or cached[0] != key:
        ctx.torch_npu_exports = cached = (key, any(e in ctx.src.text for e in exports))
    return cached[1]


def _legacy(ctx, call: ast.Call, full: str) -> None:
    data = K.data()["legacy"]
    module, _, name = full.rpartition(".")
    if module in ("torch.npu", "torch_npu.npu") and name in data["names"]:
        gone = {r: clause("raises AttributeError", aside("the legacy profiler API is gone"))
                for r in K.releases_from(data["last"])[1:]}
        _report(ctx, "NPP308", call.func, clause(f"{full}() is torch_npu's legacy profiler API",
                                                 aside(f"last in {data['last']}")),
                gone, "use torch_npu.profiler.profile with _ExperimentalConfig")
    elif full == "torch.autograd.profiler.profile" and any(k.arg == "use_npu" for k in call.keywords):
        kw = next(k for k in call.keywords if k.arg == "use_npu")
        _report(ctx, "NPP308", kw, clause("torch.autograd.profiler.profile(use_npu=...) needs torch_npu's own profile",
                                          aside(K.USE_NPU_WHERE)),
                _use_npu("runs on a torch without use_npu, which raises TypeError"), "use torch_npu.profiler.profile")
    elif full == "torch.autograd.profiler.profile":
        # `profile(**prof_kwargs)`, the dict built above with use_npu (on every path, or on some branches)
        from .torch_npu_kwargs import star_keyword
        found = star_keyword(ctx, call, "use_npu")
        if found is not None:
            from ..source.said import Condition
            kw, spread = found
            at = ("lines " if len(spread.lines) > 1 else "line ") + ", ".join(str(n) for n in spread.lines)
            # on some branches only: the full tests in the message and the detail, the lines in the short sentence
            branches = "branches" if len(spread.lines) > 1 else "branch"
            only = Condition("when", f"when {spread.when} ({at})", f"on the {branches} of {at}") \
                if not spread.every else None
            _report(ctx, "NPP308", kw, clause(f"**{spread.name} gives profile() use_npu{'' if only else f' ({at})'}, "
                                              "which needs torch_npu's own profile", aside(K.USE_NPU_WHERE)),
                    _use_npu("runs on a torch without it: TypeError"),
                    "use torch_npu.profiler.profile", lines=spread.lines, condition=only)


def _use_npu(raises: str) -> dict:
    """NPP308 on use_npu per release: `raises` where every build has stock torch's profile; "depends on the build"
    where some builds have torch_npu's own (data/torch_npu.json "legacy")."""
    kept = K.use_npu_builds()
    return {r: clause("depends on the build", aside(f"{kept[r]} take it; its other builds raise TypeError"))
            if r in kept else raises for r in K.TORCH_NPU_RELEASES}


# ---------------------------------------------------------------- the environment

def _environment(ctx, names: Names) -> None:
    """NPP310: PROFILING_MODE / PROFILER_SAMPLECONFIG set in a script that profiles with torch_npu."""
    data = K.data()["env_noop"]
    for node in ast.walk(ctx.tree):
        var: Optional[str] = None
        at: Optional[ast.AST] = None
        value: Optional[ast.AST] = None
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and dotted(t.value) in ("os.environ", "environ") and \
                        isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str) and \
                        t.slice.value in data["names"]:
                    var, at, value = t.slice.value, t, node.value
        elif isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and \
                isinstance(node.args[0].value, str) and node.args[0].value in data["names"] and dotted(node.func) in (
                    "os.environ.setdefault", "environ.setdefault"):     # (os.putenv leaves os.environ, read here)
            var, at, value = node.args[0].value, node, node.args[1]
        if var is None or at is None:
            continue
        values = _known(ctx, names, value)      # an empty value is not "set" (os.getenv's "" is false)
        if not values or not all(isinstance(v, str) and v for v in values):
            continue
        reactions = {r: clause("turns every torch_npu profiler call into a no-op",
                               aside("it prints only that the torch_npu profiler api is not effective"))
                     for r in K.releases_from(data["from"])}
        _report(ctx, "NPP310", at, f"{var} is set in a script that profiles with torch_npu.profiler", reactions,
                f"do not set {var} (it belongs to TF/GE or msprof profiling)")



def _prof_config_path(ctx, names: Names) -> None:
    """NPP316: PROF_CONFIG_PATH set by the script where torch_npu never reads it. torch_npu (6.0.rc3 on) reads it
    once, with os.getenv, when it is imported: set below the module's first `import torch_npu` it is never read;
    above it, 5.0, 6.0.rc1 and 6.0.rc2 do not read it at all. Set between `import torch` and `import torch_npu`,
    a torch that autoloads torch_npu (2.5 and later) reads it first: not claimed."""
    from .torch_npu_report import env_assignments, first_import
    imported = first_import(ctx.tree, "torch_npu")
    if imported is None:
        return
    for node, value in env_assignments(ctx.tree, "PROF_CONFIG_PATH"):
        values = _known(ctx, names, value)
        if not (values and all(v == "" for v in values)):  # an empty value starts nothing anywhere: nothing to say
            _unread(ctx, node, imported)


def _unread(ctx, node: ast.Assign, imported: ast.stmt) -> None:
    info = K.data()["prof_config_path"]
    old, first = info["first_build"]
    not_started = so("dynamic profiling does not start")
    never = clause("never reads PROF_CONFIG_PATH", aside(f"it does from {first} on"), not_started)
    reactions: dict = {r: never for r in K.releases_before(info["from"])}
    after = node.lineno > imported.lineno
    if after:
        read = clause(f"reads it once, when torch_npu is imported (line {imported.lineno}), before this line sets it",
                      not_started)
        reactions.update((r, read) for r in K.releases_from(info["from"]))
        reactions[info["from"]] = clause("depends on the build",
                                         aside(f"{old} and earlier never read it; {first} and later read it once, "
                                               f"when torch_npu is imported, line {imported.lineno}, before this "
                                               "line sets it"), ": dynamic profiling does not start")
        head = f"PROF_CONFIG_PATH is set after `import torch_npu` (line {imported.lineno})"
        advice = "set it above the script's first `import torch` and `import torch_npu`, or export it in the launcher"
    else:
        reactions[info["from"]] = clause("depends on the build", aside(f"{old} and earlier never read it; {first} and "
                                                                       "later do"))
        head = "PROF_CONFIG_PATH is set to start torch_npu's dynamic profiling"
        advice = f"use torch_npu {first} or later"
    _report(ctx, "NPP316", node.targets[0], head, reactions, advice,
            fine_as=None if after else {r: "reads it when torch_npu is imported" for r in K.releases_from("7.0")},
            lines=(imported.lineno,) if after else ())


from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP307",
        name="torch-npu-data-deleted",
        summary="`profile()` without `on_trace_ready` and without an export call: the data is collected, then "
                "deleted",
        default=True,
        level="warning",
        what="A `torch_npu.profiler.profile(...)` without `on_trace_ready` (or with None) in a file that calls "
             "none of `export_chrome_trace`, `export_stacks`, `export_memory_timeline`.",
        why="Without a trace handler torch_npu (6.0 and later) writes the raw data to a temporary export-only "
            "folder and deletes it when the profiler object goes away, unless an export method is called: the "
            "run profiles and keeps nothing. 5.0 kept the raw data in the working directory, so under the default "
            "target (any) this is reported only with a release target of 6.0 or later.",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n",
                        _PROFILE.replace("        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler"
                                         "(\"./prof\"),\n", "")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: where the data should go is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "7.3"),),
        group="torch_npu",
        facts=("torch_npu.profile.on_trace_ready",),
    ),
    Rule(
        code="NPP308",
        name="torch-npu-legacy-profiler",
        summary="the legacy profiler API (`torch.npu.profile`, `profileConfig`, `prof_init`): AttributeError on "
                "torch_npu 6.0+; `torch.autograd.profiler.profile(use_npu=True)`: TypeError on torch_npu 7.0+ (and on "
                "5.0's and 6.0's builds for torch 2.1 and later)",
        default=True,
        level="error",
        what="Calls of `torch.npu.profile`/`torch_npu.npu.profile`, `profileConfig`, `prof_init`/`prof_start`/"
             "`prof_stop`/`prof_finalize`, and `torch.autograd.profiler.profile(use_npu=...)`, also through "
             "`**kwargs` where the dict is built in the same scope (a literal, `dict(...)`, `kwargs[\"use_npu\"] = "
             "...`): on every path, or on some branches, which the finding names (`when ...`). A dict passed on, "
             "updated or read elsewhere is not followed.",
        why="The legacy API was removed in torch_npu 6.0.RC1, so its calls raise AttributeError on 6.0 and later. "
            "`use_npu` is a keyword of torch_npu's own `profile`, which its builds for torch 1.8.1, 1.11.0 and 2.0.1 "
            "(5.0, and 6.0.rc1-6.0.rc2.1 for torch 1.11.0) put in `torch.autograd.profiler`; stock torch's profile "
            "rejects it with TypeError, so it raises on 7.0+ and on the builds for torch 2.1 and later. Under the "
            "default target (any) the legacy calls are reported only with a release target of 6.0 or later (5.0 "
            "still has them).",
        example=_TORCH + "with torch.npu.profile(\"./prof\"):\n    train_one_step()\n",
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: the new API configures collection differently (levels, metrics, schedule).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "7.3"),),
        group="torch_npu",
        facts=("torch_npu.legacy", "torch_npu.utils_profile.torch"),
    ),
    Rule(
        code="NPP310",
        name="torch-npu-profiler-disabled-by-env",
        summary="`PROFILING_MODE` or `PROFILER_SAMPLECONFIG` set in a script that profiles with torch_npu: the "
                "torch_npu profiler becomes a no-op (26.1)",
        default=True,
        level="warning",
        what="`os.environ[\"PROFILING_MODE\"] = ...` (or `setdefault`; also `PROFILER_SAMPLECONFIG`) in a file that "
             "calls `torch_npu.profiler.profile`. Not `os.putenv`: torch_npu reads the variables with `os.getenv`, "
             "from `os.environ`, which `os.putenv` does not change.",
        why="From torch_npu 26.1, any non-empty `PROFILING_MODE` value (even \"false\") or `PROFILER_SAMPLECONFIG` "
            "(set by msprof) turns every torch_npu profiler call into a no-op, with only a warning on rank 0 that "
            "the torch_npu profiler api is not effective. A variable left over from TF/GE profiling quietly "
            "disables the profiler. (An empty value, or a value the checker cannot read, is not reported.)",
        example=_TORCH + "import os\nos.environ[\"PROFILING_MODE\"] = \"true\"\n" +
        "experimental_config = torch_npu.profiler._ExperimentalConfig(profiler_level=ProfilerLevel.Level1)\n" + _PROFILE,
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: the variable may be meant for another job step.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "26.1"),),
        group="torch_npu",
        facts=("torch_npu.env_noop",),
    ),
    Rule(
        code="NPP316",
        name="torch-npu-prof-config-path-unread",
        summary="`PROF_CONFIG_PATH` set by the script where torch_npu never reads it (below `import torch_npu`, or "
                "on a release before 6.0.rc3): its dynamic profiling does not start",
        default=True,
        level="warning",
        what="`os.environ[\"PROF_CONFIG_PATH\"] = ...` run by the module itself (its top level, `if`, `try` and "
             "`with` bodies) below its first `import torch_npu`; or anywhere in it for a target release that does "
             "not read the variable (5.0; 6.0, whose 6.0.rc1 and 6.0.rc2 builds do not). An empty value is not "
             "reported, nor one set between `import torch` and `import torch_npu` (whether torch imports torch_npu "
             "first depends on the torch: 2.5 and later autoload it).",
        why="PROF_CONFIG_PATH starts torch_npu's dynamic profiling with no code change: torch_npu 6.0.rc3 and later "
            "read it once, with os.getenv, when torch_npu is imported, and then watch "
            "`<dir>/profiler_config.json`. Set after that import, it is never read: nothing is collected and "
            "nothing is said. Releases before 6.0.rc3 do not read it at all.",
        example="import os\nimport torch\nimport torch_npu\n\nos.environ[\"PROF_CONFIG_PATH\"] = \"./dp_config\"\n",
        fixed="import os\n\nos.environ[\"PROF_CONFIG_PATH\"] = \"./dp_config\"\nimport torch\nimport torch_npu\n",
        fix_safety="none",
        fix_note="No fix: moving the line above the imports starts profiling, which changes what the job does.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.prof_config_path",),
    ),
)
