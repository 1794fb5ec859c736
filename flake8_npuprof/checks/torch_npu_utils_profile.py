"""torch_npu.utils.profiler.Profile (NPP312-NPP314): the model zoo's step-triggered profiler.

About 75 ModelZoo-PyTorch scripts build it as `Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)),
profile_type=os.getenv("PROFILE_TYPE"))` and call `start()`/`end()` around each training step. It is a
singleton; it switches on only when profile_type is exactly one of its release's types (5.0: TORCH, CANN, GE;
6.0 on: TORCH, ASCEND_PROFILER), hands its extra keywords to the profiler of that type (an unexpected one is a
ValueError), profiles the one step whose start() count equals start_step, and ends the process with
sys.exit() after that step. The release's own code was run for every case (tools/torch_oracle, api
utils_profile); data/torch_npu_utils_profile.json holds what it showed.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..knowledge import utils_profile as K
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.model import Edit, Fix
from ..source.said import Text, aside, clause, so
from ..source.sites import dotted
from .framework_values import known, show
from .torch_npu_report import Names, compose, report as _report, torch_npu_mentioned

CALL = "torch_npu.utils.profiler.Profile"
OFF = clause("never switches on", so("nothing is collected and nothing is said"))
# torch's own profiler refuses the NPU keyword torch_npu's TORCH type passes
USE_NPU = clause("builds torch.autograd.profiler.profile with use_npu=, which torch's profiler does not take",
                 so("it raises TypeError and the job stops"))


def use_npu_on(release: str) -> Text:
    """What the TORCH type does on a release: USE_NPU, or "depends on the build" where some of its builds put
    torch_npu's own profile, which takes use_npu, in torch.autograd.profiler (data/torch_npu.json "legacy")."""
    from ..knowledge.torch_npu import use_npu_builds
    kept = use_npu_builds()
    if release not in kept:
        return USE_NPU
    return clause("depends on the build", aside(f"{kept[release]} take use_npu=; its other builds raise TypeError "
                                                "and the job stops"))
NEVER = "collects nothing and says nothing"


def check(ctx) -> None:
    text = ctx.src.text
    # (a file that does not mention torch_npu at all is known from the other torch_npu checks' question: no pass)
    if not torch_npu_mentioned(ctx) or "torch_npu" not in text or "Profile" not in text:
        return
    names = Names(ctx.tree)
    if not names.aliases:
        return
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and names.of(node.func) == CALL:
            _judge(ctx, names, node)


def _arguments(call: ast.Call) -> Optional[Dict[str, ast.AST]]:
    """{parameter: argument} for the first three positionals and the keywords; None with *args or **kwargs."""
    positional = K.data()["positional"]
    if len(call.args) > len(positional) or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    out = dict(zip(positional, call.args))
    out.update((k.arg, k.value) for k in call.keywords)
    return out


def _judge(ctx, names: Names, call: ast.Call) -> None:
    args = _arguments(call)
    if args is None:
        return
    given = args.get("profile_type")
    if given is None:
        types: Optional[tuple] = (None,)
    else:
        types = known(ctx, names, given)
    if types is not None and len(types) != 1:
        return                          # several values: what each does is not one claim
    kind = types[0] if types else None
    if types is not None and _off(ctx, call, given, kind) and \
            not any(kind in K.types(r) for r in ctx.target.torch_npu_releases):
        return                          # off wherever it is checked: nothing else it does matters
    raised = _raises(ctx, call, args, kind, known_type=types is not None)
    if not raised:
        _start_step(ctx, names, call, args, kind, known_type=types is not None)


# ---------------------------------------------------------------- NPP312: a type that leaves it off

def _off(ctx, call: ast.Call, given: Optional[ast.AST], kind) -> bool:
    reactions: Dict[str, Optional[Text]] = {}
    fine: Dict[str, str] = {}
    for r in TORCH_NPU_RELEASES:
        allowed = K.types(r)
        if kind in allowed:
            reactions[r] = None
            fine[r] = "switches on with it"
        else:
            reactions[r] = clause(f"knows only {_either(allowed)} and ", OFF)
    head = f"Profile with profile_type {_quote(kind)}" if given is not None else "Profile without a profile_type"
    advice, fix = _advice(ctx, given, kind)
    return _report(ctx, "NPP312", given if given is not None else call.func, head, reactions, advice, fix, fine)


def _either(values) -> str:
    quoted = [f'"{v}"' for v in values]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1] if len(quoted) > 1 else quoted[0]


def _quote(value) -> str:
    """A value as the script writes it (double quotes for a string, as the examples do)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"' if isinstance(value, str) else show(value)


def _advice(ctx, given: Optional[ast.AST], kind) -> Tuple[str, Optional[Fix]]:
    if given is None:
        return 'give profile_type="ASCEND_PROFILER" (torch_npu 6.0+) to profile', None
    if not isinstance(kind, str):
        return "profile_type is compared with strings", None
    spelled = kind.strip().upper().replace("-", "_").replace(" ", "_")
    everywhere = {t for r in TORCH_NPU_RELEASES for t in K.types(r)}
    if spelled in everywhere and spelled != kind:
        fix = None
        if isinstance(given, ast.Constant):
            # switching the profiler on changes what is collected: never a safe fix
            fix = Fix((Edit(ctx.src.node_start(given), ctx.src.node_end(given), f'"{spelled}"'),), False,
                      f'Write "{spelled}"')
        return f'write "{spelled}" (profile_type is compared exactly)', fix
    if kind in ("CANN", "GE"):
        return 'torch_npu 6.0+ profiles the NPU with profile_type="ASCEND_PROFILER"', None
    return "", None


# ---------------------------------------------------------------- NPP313: Profile(...) raises

def _raises(ctx, call: ast.Call, args: Dict[str, ast.AST], kind, known_type: bool) -> bool:
    """NPP313 where Profile(...) raises on a type that switches it on. With an unknown type, the keywords are
    judged for "ASCEND_PROFILER", the one type that profiles on 6.0+, and the message says so."""
    if not known_type:
        kind = "ASCEND_PROFILER"
    if not isinstance(kind, str):
        return False
    reactions: Dict[str, Optional[Text]] = {}
    node: ast.AST = call.func
    what, advice = "", ""
    for r in TORCH_NPU_RELEASES:
        if kind not in K.types(r):
            reactions[r] = None
            continue
        extra = [k for k in args if k not in K.own_keywords(r)]
        bad = [k for k in extra if k not in K.kwargs(kind)]
        twice = [k for k in extra if K.passed_twice(kind, k)]
        if bad:
            taken = list(K.kwargs(kind))
            listed = f"{', '.join(taken[:-1])} and {taken[-1]}" if len(taken) > 1 else taken[0]
            reactions[r] = clause(f"passes on only {listed} with this type",
                                  so("it raises ValueError and the job stops"))
            node, what = _keyword(call, bad[0]) or node, f"{bad[0]}="
        elif twice:
            own = K.passed_twice(kind, twice[0])
            reactions[r] = clause(f"passes {twice[0]} to the profiler itself, from its own {own}=",
                                  so("it raises TypeError and the job stops"))
            node, what = _keyword(call, twice[0]) or node, f"{twice[0]}="
            advice = f"write {own}= instead"
        elif kind == "TORCH":
            reactions[r] = use_npu_on(r)
            node = args.get("profile_type", node)
        else:
            reactions[r] = None
    if not any(reactions.values()):
        return False
    head = f"Profile with profile_type {_quote(kind)}" + (f" and {what}" if what else "")
    if not known_type:
        head = f"Profile with {what}, once profile_type is {_quote(kind)}"
    if kind == "TORCH":
        advice = 'profile with profile_type "ASCEND_PROFILER" (torch_npu 6.0+)'
    if not known_type or kind == "ASCEND_PROFILER":
        fine = {r: "does not switch on with it" for r in TORCH_NPU_RELEASES if kind not in K.types(r)}
    else:
        fine = {}
    return _report(ctx, "NPP313", node, head, reactions, advice, fine_as=fine)


def _keyword(call: ast.Call, name: str) -> Optional[ast.AST]:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


# ---------------------------------------------------------------- NPP314: a step it never reaches

def _start_step(ctx, names: Names, call: ast.Call, args: Dict[str, ast.AST], kind, known_type: bool) -> None:
    """NPP314: Profile counts start() calls from 1 and profiles the call whose count equals start_step."""
    node = args.get("start_step")
    values = known(ctx, names, node) if node is not None else (K.data()["defaults"]["start_step"],)
    if values is None or len(values) != 1:
        return
    step = values[0]
    why = None
    if isinstance(step, str):
        why = f"Profile with start_step {_quote(step)}, a string its start() count never equals"
    elif isinstance(step, bool):
        return
    elif isinstance(step, (int, float)) and (step < 1 or step != int(step)):
        why = f"Profile with start_step={show(step)}, which its start() count from 1 never equals"
    elif isinstance(step, int):
        loop = _loop_calls(ctx, names, call)
        if loop is not None and loop[1] < step:
            shown = f"start_step={step}" if node is not None else f"the default start_step={step}"
            why = (f"Profile with {shown}, but this loop calls {loop[2]}.start() only {loop[1]} "
                   f"time{'s' if loop[1] != 1 else ''}")
            node = loop[0]
    if why is None:
        return
    reactions = {r: (NEVER if (not known_type or kind in K.types(r)) else None) for r in TORCH_NPU_RELEASES}
    head = why if known_type else f"{why}, once switched on"
    _report(ctx, "NPP314", node if node is not None else call.func, head, reactions,
            "profile a step the run reaches (start_step counts from 1)")


def _loop_calls(ctx, names: Names, call: ast.Call):
    """(the range() call, its length, the name) when `name = Profile(...)` is started once per iteration of a
    `for ... in range(N)` loop of known length that is not inside another loop; else None."""
    owner = _assigned_name(ctx.tree, call)
    if owner is None:
        return None
    for loop in ast.walk(ctx.tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) or \
                not isinstance(loop.iter.func, ast.Name) or loop.iter.func.id != "range" or loop.iter.keywords:
            continue
        starts = [n for stmt in loop.body for n in _shallow(stmt) if _is_start(n, owner)]
        if len(starts) != 1 or _nested_start(loop, owner) or _in_loop(ctx.tree, loop):
            continue
        bounds = [known(ctx, names, a) for a in loop.iter.args]
        if not bounds or len(bounds) > 2 or any(
                not b or len(b) != 1 or not isinstance(b[0], int) or isinstance(b[0], bool) for b in bounds):
            continue
        ints = [b[0] for b in bounds if b]     # (every one is: checked above)
        return loop.iter, max(0, ints[-1] - (ints[0] if len(ints) == 2 else 0)), owner
    return None


def _assigned_name(tree, call: ast.Call) -> Optional[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


_NESTED = (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.comprehension)


def _shallow(stmt) -> List[ast.AST]:
    """The nodes of a loop body's statement outside any nested loop, function or comprehension."""
    out, stack = [], [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, _NESTED):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _is_start(node, owner: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "start" and \
        isinstance(node.func.value, ast.Name) and node.func.value.id == owner


def _nested_start(loop, owner: str) -> bool:
    shallow = {id(n) for stmt in loop.body for n in _shallow(stmt)}
    return any(_is_start(n, owner) and id(n) not in shallow for n in ast.walk(loop))


def _in_loop(tree, loop) -> bool:
    return any(outer is not loop and isinstance(outer, (ast.For, ast.While, ast.AsyncFor)) and
               any(n is loop for n in ast.walk(outer)) for outer in ast.walk(tree))


# ---------------------------------------------------------------- what a launch hands it (emulate)

class Site(NamedTuple):
    """A Profile(...) call as a launch meets it: where, and what its profile_type and start_step are made of."""
    path: str
    line: int
    type_env: Optional[str]             # the environment variable profile_type reads (os.getenv, os.environ.get)
    type_value: object                  # else its constant value (None: not given); UNKNOWN: neither
    step_env: Optional[str]             # the variable start_step reads, as the model zoo writes it
    step_value: object                  # else its constant (10 when not given); UNKNOWN: neither
    save_path: object                   # its constant save_path ("./npu_profiling" when not given); UNKNOWN


UNKNOWN = object()


def sites_in(text: str, path: str) -> List[Site]:
    """The Profile(...) calls of one module, read without a resolver: environment reads and constants only."""
    if "Profile" not in text or "torch_npu" not in text:
        return []
    try:
        tree = ast.parse(text, path)
    except (SyntaxError, ValueError):
        return []
    names = Names(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and names.of(node.func) == CALL):
            continue
        args = _arguments(node)
        if args is None:
            continue
        type_env, type_value = _env_or_constant(args.get("profile_type"), None)
        step_env, step_value = _env_or_constant(args.get("start_step"), K.data()["defaults"]["start_step"])
        _, save = _env_or_constant(args.get("save_path"), K.data()["defaults"]["save_path"])
        out.append(Site(path, node.lineno, type_env, type_value, step_env, step_value, save))
    return out


def _env_or_constant(node: Optional[ast.AST], default: object) -> Tuple[Optional[str], object]:
    """(the variable it reads, None) or (None, its constant): os.getenv("X"), os.environ.get("X", d),
    int(os.getenv("X", 10)), a constant, nothing (the default)."""
    if node is None:
        return None, default
    if isinstance(node, ast.Constant):
        return None, node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" and \
            len(node.args) == 1 and not node.keywords:
        return _env_or_constant(node.args[0], default)[0], UNKNOWN
    if isinstance(node, ast.Call) and dotted(node.func) in ("os.getenv", "os.environ.get", "getenv") and \
            node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value, UNKNOWN
    return None, UNKNOWN


MAX_FILES = 2000            # Python files of a script's folder read for a Profile call (a text search first)
MARK = b"utils.profiler"


class Found(NamedTuple):
    """The Profile calls a launched script may run, and what else its project holds."""
    sites: List[Site]
    imported: bool                      # reached through the script's imports (else: found under its folder)
    other: Optional[str]                # a file that names another profiling API (its answer is not Profile's)


def project_sites(filename: str, text: str, tree: Optional[ast.AST] = None) -> Found:
    """The Profile calls a script may run: its own, those of the modules it imports, else those of the Python files
    under its folder (a module reached through a sys.path set at run time)."""
    from ..values.project import for_file
    modules = [(filename, text)]
    if tree is None:
        try:
            tree = ast.parse(text, filename)
        except (SyntaxError, ValueError):
            tree = None
    lookup = for_file(filename, tree) if tree is not None else None
    modules += [(m.path, m.src.text) for m in lookup.imported_modules()] if lookup is not None else []
    found = [site for path, body in modules for site in sites_in(body, path)]
    if found:
        return Found(found, True, _other(modules, found))
    # a module the script imports profiles with another API: that is the script's profiler, not a Profile of some
    # other file under its folder (MindSpeed-MM's pretrain_*.py at the project's top reach torch_npu.profiler through
    # mindspeed_mm.training; the walk found an sdxl example's Profile and said it "stays off")
    other = _other(modules[1:], [])
    if other is not None:
        return Found([], True, other)
    return _folder_sites(os.path.dirname(os.path.abspath(filename)))


def _other(modules, sites: List[Site]) -> Optional[str]:
    """The first module that names another profiling API (checks/launcher_switch.py's words), else None. A module
    with a Profile call is searched too, without the name of Profile's own module: ST-GCN's recognition.py builds
    a Profile and also runs the legacy torch.npu.profile when --profiling is CANN or GE."""
    holding = {s.path for s in sites}
    return next((path for path, body in modules
                 if _names_in_code(_OWN.sub(_blank, body) if path in holding else body)), None)


def names_other_api(body: str) -> bool:
    """Whether a module's text names a profiling API other than the model zoo's Profile where a run can reach it
    (emulate/legacy_api.py asks it of every module a launch's script imports)."""
    return _names_in_code(_OWN.sub(_blank, body))


def _names_in_code(body: str) -> bool:
    """Whether the text names a profiling API or setting where a run can reach it: never in a comment or a bare
    string (a docstring, code parked in one), and in a string literal only a setting's or command's name
    (`os.environ["PROFILING_MODE"]`, `"msprof ..."`), not a dotted API or a call, which a string only mentions
    (a help text: `help="use pytorch_lightning.profiler.AdvancedProfiler"` in Bert-text-classification's vendored
    transformers made its answer unknown). A module imported by its name in a string
    (`importlib.import_module("torch_npu.profiler")`, `__import__("torch.profiler")`) is named as an import names it."""
    from ..source.prefilter import PROFILING_WORDS, code_only, profiler_imports_by_name
    by_name = "profiler" in body and ("import_module" in body or "__import__" in body)
    if not by_name and not PROFILING_WORDS.search(body):
        return False
    code = code_only(body)
    if by_name and profiler_imports_by_name(code):
        return True
    bare = code_only(body, strings=True)
    return any(m.group(0).isidentifier() or bare[m.start():m.end()] == m.group(0)
               for m in PROFILING_WORDS.finditer(code))


# Profile's own names where a Profile is built: its module, and the variable the zoo reads PROFILE_TYPE into
# (`prof_type = os.getenv("PROFILE_TYPE")`); another API there is named by its own words (torch.npu.profile)
_OWN = re.compile(r"torch_npu\.utils\.profiler\b|\bprof_type\b")


def _blank(m: "re.Match[str]") -> str:
    return " " * len(m.group(0))


def _folder_sites(top: str) -> Found:
    """The Profile calls of the Python files under the script's folder (no link leaving it is followed, to a
    folder or a file), and the first other file there that names another profiling API."""
    from ..source.files import ReadError, read_source
    real_top = os.path.realpath(top)
    sites: List[Site] = []
    other: Optional[str] = None
    seen = 0
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                         os.path.realpath(os.path.join(folder, d)).startswith(real_top + os.sep))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or not os.path.realpath(path).startswith(real_top + os.sep):
                continue
            seen += 1
            if seen > MAX_FILES:
                return Found(sites, False, other or f"more than {MAX_FILES} Python files under {top}")
            try:
                with open(path, "rb") as fh:
                    head = fh.read(1 << 20)
                if MARK not in head and (other is not None or b"prof" not in head.lower()):
                    continue
                text = read_source(path).text
            except (OSError, ReadError):
                continue
            here = sites_in(text, path)
            sites += here
            if other is None:
                other = _other([(path, text)], here)
    return Found(sites, False, other)


def launcher_words(kind: str, at: str, imported: bool, target):
    """(code, words) for a launcher's PROFILE_TYPE=kind that reaches the Profile at `at`: NPP312 where the target's
    releases leave it off, NPP313 where it raises; None where they switch it on."""
    outcome = launch_outcome(kind, TORCH_NPU_RELEASES)
    code = "NPP313" if kind == "TORCH" else "NPP312"
    if code == "NPP313" and not imported:
        return None                     # a Profile found only under the folder may never be built: no crash claimed
    reactions: Dict[str, Optional[Text]] = {}
    for r, state in outcome.items():
        if state == "off":
            reactions[r] = clause(f"knows only {_either(K.types(r))} and ", OFF)
        elif state in ("raises", "build"):
            reactions[r] = use_npu_on(r)
        else:
            reactions[r] = None
    head = f"PROFILE_TYPE={kind} reaches Profile at {at}" + ("" if imported else ", found under the script's folder")
    advice = 'export PROFILE_TYPE=ASCEND_PROFILER (torch_npu 6.0+)' if code == "NPP313" or kind in ("CANN", "GE") \
        else ""
    spelled = kind.strip().upper().replace("-", "_").replace(" ", "_")
    if spelled != kind and any(spelled in K.types(r) for r in TORCH_NPU_RELEASES):
        advice = f"write {spelled} (profile_type is compared exactly)"
    words = compose(target, head, reactions, advice, {r: "switches on with it" for r in TORCH_NPU_RELEASES})
    return None if words is None else (code, words)


def launch_outcome(kind: object, releases: Tuple[str, ...]) -> Dict[str, str]:
    """{release: "on", "off", "raises" or "build" (raises on some of its builds only) for a profile_type on each
    release (the record's outcomes; "build": use_npu_on)."""
    from ..knowledge.torch_npu import use_npu_builds
    out = {}
    for r in releases:
        if kind == "TORCH":
            out[r] = "build" if r in use_npu_builds() else "raises"
        elif kind in K.types(r):
            out[r] = "on"
        else:
            out[r] = "off"
    return out


def knows(release_group) -> str:
    """What the releases switch on for, as a message says it ("TORCH" and "ASCEND_PROFILER")."""
    return _either(K.types(release_group[0]))


# ---------------------------------------------------------------- the rules' pages

from .rule import Rule  # noqa: E402

_HEAD = "import os\nimport torch\nimport torch_npu\nfrom torch_npu.utils.profiler import Profile\n\n"
_LOOP = ("\nfor step, (images, labels) in enumerate(loader):\n    profiler.start()\n    loss = model(images.npu(), "
         "labels.npu())\n    loss.backward()\n    optimizer.step()\n    profiler.end()\n")
REF = "https://gitee.com/ascend/pytorch/blob/master/torch_npu/utils/profiler.py"
FACTS = ("torch_npu.utils_profile.",)

RULES = (
    Rule(
        code="NPP312",
        name="torch-npu-profile-type-off",
        summary="`torch_npu.utils.profiler.Profile` with a profile_type its release does not switch on for "
                "(`\"CANN\"`/`\"GE\"` on 6.0+, a lower-case `\"ascend_profiler\"`, none at all): nothing is "
                "collected and nothing is said",
        default=True,
        level="warning",
        what="A `Profile(...)` call of `torch_npu.utils.profiler` whose `profile_type` (a constant, a name, an "
             "argparse default) is not exactly one of the types the target release switches on for: \"TORCH\", "
             "\"CANN\" or \"GE\" on 5.0; \"TORCH\" or \"ASCEND_PROFILER\" from 6.0 on; or a call without one. In a "
             "launcher: a `PROFILE_TYPE=...` assignment whose value leaves Profile off, where a script the launcher starts "
             "with that variable reaches a `Profile(profile_type=os.getenv(\"PROFILE_TYPE\"))` (in the script, a module "
             "it imports, or a Python file under its folder, as the model zoo's trainers are reached).",
        why="Profile switches on only when profile_type is one of its types, compared exactly; any other value "
            "leaves every start() and end() a no-op, with no warning. The model zoo's scripts read the type from "
            "`PROFILE_TYPE`, and launchers written for 5.0 export `PROFILE_TYPE=CANN`, which 6.0 and later "
            "releases no longer know.",
        example=_HEAD + "profiler = Profile(start_step=10, profile_type=\"ascend_profiler\")" + _LOOP,
        fixed=_HEAD + "profiler = Profile(start_step=10, profile_type=\"ASCEND_PROFILER\")" + _LOOP,
        fix_safety="unsafe",
        fix_note="Only a case or spelling slip is rewritten (`\"ascend_profiler\"` to `\"ASCEND_PROFILER\"`); the "
                 "fix switches profiling on, which changes what the job does, so it needs --unsafe-fixes.",
        references=(REF,),
        group="torch_npu",
        facts=FACTS,
    ),
    Rule(
        code="NPP313",
        name="torch-npu-profile-raises",
        summary="`torch_npu.utils.profiler.Profile(...)` that raises when it switches on: profile_type=\"TORCH\" "
                "(TypeError), a keyword its type does not pass on (ValueError), or record_shapes with "
                "\"ASCEND_PROFILER\" (TypeError)",
        default=True,
        level="error",
        what="A `Profile(...)` call that switches on (or would, with profile_type=\"ASCEND_PROFILER\", when the "
             "type is not known here) and: has profile_type=\"TORCH\"; or passes a keyword of its own that the "
             "type's profiler does not take (ASCEND_PROFILER: activities, schedule, record_shapes, profile_memory, "
             "with_stack; CANN and GE on 5.0: config); or passes record_shapes with ASCEND_PROFILER. In a launcher: "
             "`PROFILE_TYPE=TORCH` where a script it starts reaches such a Profile.",
        why="With \"TORCH\" Profile builds `torch.autograd.profiler.profile(use_npu=...)`, a keyword stock torch "
            "never had: only torch_npu's own profile takes it, which its builds for torch 1.8.1-2.0.1 (5.0, and "
            "6.0.rc1-6.0.rc2.1 for torch 1.11.0) put in `torch.autograd.profiler`, so it raises on 7.0+ and on the "
            "builds for torch 2.1 and later. Other keywords are checked against the type's list and raise ValueError. With ASCEND_PROFILER "
            "Profile already passes `record_shapes=` (from its own `record_shape=`), so a second one is a "
            "TypeError. Each is raised at `Profile(...)`, where the job stops.",
        example=_HEAD + "profiler = Profile(start_step=10, profile_type=os.getenv(\"PROFILE_TYPE\"), "
                        "record_shapes=True)" + _LOOP,
        fixed=_HEAD + "profiler = Profile(start_step=10, profile_type=os.getenv(\"PROFILE_TYPE\"), "
                      "record_shape=True)" + _LOOP,
        fix_safety="none",
        fix_note="Which keyword was meant is the author's choice.",
        settings=(("torch-npu", "7.3"),),
        references=(REF,),
        group="torch_npu",
        facts=FACTS,
    ),
    Rule(
        code="NPP314",
        name="torch-npu-profile-step-never-reached",
        summary="`torch_npu.utils.profiler.Profile` whose start_step its start() calls never reach (0, negative, a "
                "string, or past a `range(N)` loop): nothing is collected and nothing is said",
        default=True,
        level="warning",
        what="A `Profile(...)` whose `start_step` is below 1, not a whole number, or a string; or one bound to a "
             "name whose `start()` is called once per iteration of a `for ... in range(N)` loop with N below "
             "start_step (10 when not given).",
        why="Profile counts its start() calls from 1 and profiles only the call whose count equals start_step "
            "(then ends the job with sys.exit()). A start_step the count never equals leaves it collecting "
            "nothing, silently, and the job runs to its end.",
        example=_HEAD + "profiler = Profile(start_step=0, profile_type=os.getenv(\"PROFILE_TYPE\"))" + _LOOP,
        fixed=_HEAD + "profiler = Profile(start_step=10, profile_type=os.getenv(\"PROFILE_TYPE\"))" + _LOOP,
        fix_safety="none",
        fix_note="Which step to profile is the author's choice.",
        references=(REF,),
        group="torch_npu",
        facts=FACTS,
    ),
)
