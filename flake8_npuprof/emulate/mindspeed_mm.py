"""A launch of a MindSpeed-MM training script (Ascend/MindSpeed-MM: pretrain_vlm.py, pretrain_sora.py,
pretrain_transformers.py, ...): its profiling is MindSpeed-MM's Profiler, which train() builds from the JSON (or
YAML `tool:`) file the launch names with `--mm-tool`. What that code does (read at 57069cd, the same in v26.0.0 and
v26.1.0, and v2.3.0's, run with python 3.11 on copies against stub torch and torch_npu modules: data/sources.json
mindspeed_mm.*; v2.3.0 json.loads every file whatever its name, and its Profiler reads no analyse_flag):

- `--mm-tool` (default "", argparse: the last one given wins) is read by MMConfig in merge_mm_args, called by
  pretrain(): "" is skipped (then `args.mm.tool` raises AttributeError where pretrain() or train() first reads it);
  the path is taken from the process's folder (os.path.realpath); one ending in `.json` is json.loads'ed, `.yaml`
  is yaml.safe_load'ed and indexed by `tool`; any error (a missing file, JSON that does not parse, neither suffix)
  makes MMConfig raise RuntimeError after printing it. Each dict becomes an object whose attributes are its keys.
- pretrain() then raises ValueError where Megatron's --save-interval, --log-interval or --eval-interval is 0, before
  it reads any tool key, and calls train() only `if args.do_train and args.train_iters > 0` (a --train-iters of 0
  builds no Profiler; Megatron core_v0.12.1 stops such a job earlier, in its optimizer's scheduler).
- train() builds `Profiler(args.mm.tool.profile)` and calls start(), step() each iteration and stop(), unless
  OOTB_OPTIMIZER_PROFILING is TRUE. Profiler.__init__ reads every key first (a missing one: AttributeError), then for
  profile_type "static" raises ValueError for a level other than level0/1/2 or an aic_metrics_type other than
  PipeUtilization/ArithmeticUtilization, and builds torch_npu.profiler.profile with schedule(wait=0, warmup=0,
  active=end_step-start_step, repeat=1, skip_first=start_step); "dynamic" takes torch_npu's dynamic_profile; any
  other profile_type raises ValueError. All this whether `enable` is true or not. start() and step() run the profiler
  only when `enable` is true (Python's truth: the string "false" is true) and `ranks` is [-1] or holds the process's
  rank (`[]` holds none: no process, however many nodes the job has).
- train()'s loop runs from args.iteration, which Megatron's setup_model_and_optimizer sets: 0 where no checkpoint
  is loaded or for a --finetune run, else the checkpoint's (not read here: the window is then unknown).
- train() is wrapped by train_decorator, which builds a profiler of its own from Megatron's --profile: a launch that
  passes a word beginning `--prof`, or words not known, is left to the answer given before.

Only code whose parts have the digests read (SHAPES; their syntax with strings other than KEEP, docstrings and print
calls left out: values/yaml_config.digest) is answered for; a modified copy gets the answer it had before. Where the
launch's values leave the outcome open (the run's length, a value torch_npu would reset), the answer says so.
"""

from __future__ import annotations

import ast
import json
import os
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from ..values.ops import C, U
from ..values.yaml_config import digest

FACTS = ("mindspeed_mm.tool_config", "mindspeed_mm.profiler", "mindspeed_mm.training", "global_args.arguments")

# the digests of the parts read and run (Ascend/MindSpeed-MM at 57069cd, the same in v26.0.0 and v26.1.0; v2.3.0's
# Profiler reads no analyse_flag and its MMConfig reads every file as JSON), by file under the project's root
SHAPES = {
    ("mindspeed_mm/tools/profiler.py", "Profiler"): {"4142b769554ce77e", "4d9390895c9b4b56"},
    ("mindspeed_mm/configs/config.py", "ConfigReader.__init__"): {"1f7e535e3ce46959"},
    ("mindspeed_mm/configs/config.py", "MMConfig"): {"d82997723aafae2b", "86904962c08a84aa"},
    ("mindspeed_mm/configs/config.py", "_add_mm_args"): {"a490eb70c11717b8"},
    ("mindspeed_mm/configs/config.py", "merge_mm_args"): {"713d3bcf32ef8b32"},
    # train(): its decorators and its `if`s on OOTB_OPTIMIZER_PROFILING
    ("mindspeed_mm/training.py", "train"): {"012dd494adf6cb02"},
}
KEEP = ("static", "dynamic", "level0", "level1", "level2", "PipeUtilization", "ArithmeticUtilization", ".json",
        ".yaml", "", "r", "dtype", "--mm-data", "--mm-model", "--mm-tool", "mm", "model", "data", "tool",
        "OOTB_OPTIMIZER_PROFILING", "FALSE", "TRUE")
JSON_ONLY = {"86904962c08a84aa"}     # MMConfig's shapes that json.loads every file, whatever its name ends in
TRAINING = "mindspeed_mm.training"
SWITCH = "OOTB_OPTIMIZER_PROFILING"
# Megatron's words on which pretrain() skips train() or train()'s loop breaks early, or takes train_iters and
# eval_interval from a retro configuration (--retro-project-dir: core_v0.12.1 arguments.py, 57069cd training.py:281),
# and the switches on which pretrain() returns before training (57069cd training.py), and `--` (the words after it
# are positionals, which Megatron's parse_args refuses): a launch with any is left to the answer given before
ENDS_EARLY = ("--skip-train", "--exit-interval", "--exit-duration-in-mins", "--retro-project-dir")
# Megatron's options that decide args.iteration, where train()'s loop starts (data/global_args.json)
MEGATRON = "Megatron-LM"
STARTS = ("load", "pretrained_checkpoint", "moe_use_upcycling", "finetune")
# pretrain()'s test of the intervals (57069cd training.py:211, the same in v2.1.0-v26.1.0), and Megatron's options
# it tests (type=int; core_v0.12.1 arguments.py, --save-interval's other name too)
INTERVALS = "args.save_interval == 0 or args.log_interval == 0 or args.eval_interval == 0"
INTERVAL_FLAGS = {"--save-interval": "save_interval", "--persistent-save-interval": "save_interval",
                  "--log-interval": "log_interval", "--eval-interval": "eval_interval"}
RETURNS_EARLY = ("OOTB_OPTIMIZER_PARSE_ARGS", "OOTB_OPTIMIZER_PARSE_MODEL")


class Code(NamedTuple):
    """Where the parts are, as the answers name them."""
    training: str           # path of mindspeed_mm/training.py
    profiler: str           # path of mindspeed_mm/tools/profiler.py
    merged: int             # line of `merge_mm_args(args)` in pretrain()
    first_read: Tuple[int, str, str]    # (line, function, key) of the first `args.mm.tool.KEY` pretrain() reaches
    built: int              # line of `prof = Profiler(args.mm.tool.profile)` in train()
    keys: Tuple[Tuple[str, ...], ...]   # what Profiler.__init__ reads of its config, in order
    raises: Tuple[int, int, int]        # lines of its ValueErrors: level, aic_metrics_type, profile_type
    enable_test: int        # line of `if not self.enable:`
    started: int            # line of `prof.start()` in train()
    switch: int             # line of the `if` on OOTB_OPTIMIZER_PROFILING around them
    refused: int            # line of pretrain()'s `raise ValueError` for an interval (save, log, eval) of 0
    guard: int              # line of the `if args.do_train and args.train_iters > 0:` around pretrain()'s train()
    json_only: bool = False     # MMConfig reads every file as JSON (v2.3.0)


def parts_of(tree: ast.AST) -> Dict[str, ast.AST]:
    """A module's functions and classes by name, and each class's methods as `Class.method` (the parts a model of a
    project's code reads and digests: here and emulate/mindspeed_profile.py)."""
    out: Dict[str, ast.AST] = {}
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            out[stmt.name] = stmt
            if isinstance(stmt, ast.ClassDef):
                for sub in stmt.body:
                    if isinstance(sub, ast.FunctionDef):
                        out[f"{stmt.name}.{sub.name}"] = sub
    return out


def shaped_parts(shapes: Dict[Tuple[str, str], Any], digest_of: Callable[[str, ast.AST], str],
                 module_of: Callable[[str], Any]) -> Optional[Dict[str, Dict[str, ast.AST]]]:
    """The parts (parts_of) of each file `shapes` names, by its path under the project; None unless every part it
    names is there with one of the digests it holds (digest_of) and every file is read."""
    parts: Dict[str, Dict[str, ast.AST]] = {}
    for rel in {f for f, _ in shapes}:
        module = module_of(rel)
        if module is None or module.tree is None:
            return None
        parts[rel] = parts_of(module.tree)
    for (rel, name), digests in shapes.items():
        node = parts[rel].get(name)
        if node is None or digest_of(name, node) not in digests:
            return None
    return parts


def _switch_ifs(func: ast.AST) -> List[ast.If]:
    """train()'s `if os.getenv('OOTB_OPTIMIZER_PROFILING', ...)` statements, in order."""
    return sorted((n for n in ast.walk(func) if isinstance(n, ast.If) and any(
        isinstance(c, ast.Constant) and c.value == SWITCH for c in ast.walk(n.test))), key=lambda n: n.lineno)


def part_digest(name: str, node: ast.AST) -> str:
    """The digest of a part as SHAPES holds it."""
    if name == "train":
        assert isinstance(node, ast.FunctionDef)
        kept: List[Any] = list(node.decorator_list) + list(_switch_ifs(node))
        body = ast.Module(body=kept, type_ignores=[])
        return digest(body, KEEP)
    return digest(node, KEEP)


def _imports(tree: ast.AST, module: str, name: str) -> Optional[ast.ImportFrom]:
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, ast.ImportFrom) and stmt.module == module and not stmt.level and \
                any(a.name == name and a.asname is None for a in stmt.names):
            return stmt
    return None


def _calls_pretrain(tree: ast.AST) -> bool:
    """`if __name__ == "__main__": ... pretrain(...)` at the script's top level."""
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and \
                getattr(stmt.test.left, "id", "") == "__name__" and \
                any(isinstance(c, ast.Constant) and c.value == "__main__" for c in stmt.test.comparators):
            return any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and
                       getattr(s.value.func, "id", "") == "pretrain" for s in stmt.body)
    return False


def recognise(ls, lookup) -> Optional[Code]:
    """The parts of MindSpeed-MM a launched script reaches, where they are the shapes read; else None."""
    from ..values.project import load
    stmt = _imports(ls.ctx.tree, TRAINING, "pretrain")
    if stmt is None or not _calls_pretrain(ls.ctx.tree):
        return None
    got = lookup.imported_from(stmt, "pretrain")
    if got is None or got[1] != "pretrain" or \
            not got[0].path.replace(os.sep, "/").endswith("/mindspeed_mm/training.py"):
        return None
    training = got[0]
    root = os.path.dirname(os.path.dirname(training.path))
    if _imports(training.tree, "mindspeed_mm.tools.profiler", "Profiler") is None or \
            _imports(training.tree, "mindspeed_mm.configs.config", "merge_mm_args") is None:
        return None
    parts = shaped_parts(SHAPES, part_digest, lambda rel: training if rel.endswith("training.py") else
                         load(os.path.join(root, *rel.split("/"))))
    if parts is None:
        return None
    code = _code(training.path, os.path.join(root, "mindspeed_mm", "tools", "profiler.py"),
                 parts["mindspeed_mm/training.py"], parts["mindspeed_mm/tools/profiler.py"])
    json_only = part_digest("MMConfig", parts["mindspeed_mm/configs/config.py"]["MMConfig"]) in JSON_ONLY
    return code._replace(json_only=json_only) if code is not None else None


def _chain(node: ast.AST) -> Optional[List[str]]:
    names: List[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    return [node.id] + names[::-1] if isinstance(node, ast.Name) else None


def _code(training: str, profiler: str, train_parts, profiler_parts) -> Optional[Code]:
    pretrain, train = train_parts.get("pretrain"), train_parts.get("train")
    if not isinstance(pretrain, ast.FunctionDef) or not isinstance(train, ast.FunctionDef):
        return None
    merged = next((s.lineno for s in pretrain.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and
                   getattr(s.value.func, "id", "") == "merge_mm_args"), 0)
    if not merged:
        return None
    reads = []
    for func, name in ((pretrain, "pretrain"), (train, "train")):
        # (in pretrain(), what its own body runs, not under an `if` or a loop)
        where = func if func is train else ast.Module(body=[s for s in pretrain.body if isinstance(
            s, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign))], type_ignores=[])
        for n in ast.walk(where):
            if not isinstance(n, ast.Attribute):
                continue
            chain = _chain(n)
            if chain and len(chain) == 4 and chain[:3] == ["args", "mm", "tool"] and \
                    (func is train or n.lineno > merged):
                reads.append((n.lineno if func is pretrain else 10 ** 9 + n.lineno, name, chain[3], n.lineno))
    ifs = _switch_ifs(train)
    if not _one_step_an_iteration(train, ifs):
        return None
    built = ifs[0].body[0].lineno if ifs and ifs[0].body else 0
    started = ifs[0].body[1].lineno if ifs and len(ifs[0].body) > 1 else 0
    init, enable = profiler_parts.get("Profiler.__init__"), profiler_parts.get("Profiler._enable_profile")
    if not reads or not built or init is None or enable is None:
        return None
    first = min(reads)
    keys: List[Tuple[str, ...]] = []
    for n in sorted((n for n in ast.walk(init) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)),
                    key=lambda n: (n.lineno, n.col_offset)):
        chain = _chain(n)
        if chain and chain[0] == "config" and tuple(chain[1:]) not in keys and \
                not any(k[:len(chain) - 1] == tuple(chain[1:]) and len(k) > len(chain) - 1 for k in keys):
            keys.append(tuple(chain[1:]))
    # (a chain and its prefix: `config.static_param.level` reads `config.static_param` first, kept as the longer)
    keys = [k for k in keys if not any(len(o) > len(k) and o[:len(k)] == k for o in keys)]
    raises = sorted(n.lineno for n in ast.walk(init) if isinstance(n, ast.Raise))
    tests = [n.lineno for n in ast.walk(enable) if isinstance(n, ast.If)]
    if len(raises) != 3 or not tests:
        return None
    refused, guard = _refused(pretrain), _guard(pretrain)
    if not merged < refused < (first[0] if first[1] == "pretrain" else 10 ** 9) or not guard:
        return None
    return Code(training, profiler, merged, (first[3], first[1], first[2]), built, tuple(keys),
                (raises[0], raises[1], raises[2]), min(tests), started, ifs[0].lineno, refused, guard)


def _same(node: ast.AST, text: str) -> bool:
    return ast.dump(node) == ast.dump(ast.parse(text, mode="eval").body)


def _refused(pretrain: ast.FunctionDef) -> int:
    """The line of pretrain()'s own `if args.save_interval == 0 or ...: raise ValueError(...)`, 0 where it has none."""
    for s in pretrain.body:
        if isinstance(s, ast.If) and _same(s.test, INTERVALS) and len(s.body) == 1 and not s.orelse and \
                isinstance(s.body[0], ast.Raise) and isinstance(s.body[0].exc, ast.Call) and \
                getattr(s.body[0].exc.func, "id", "") == "ValueError":
            return s.body[0].lineno
    return 0


def _guard(pretrain: ast.FunctionDef) -> int:
    """The line of `if args.do_train and args.train_iters > 0:`, in `if not args.skip_train:` in pretrain()'s body,
    where train() is called and nowhere else; 0 for another shape."""
    calls = [n for n in ast.walk(pretrain) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "train"]
    for outer in pretrain.body:
        if isinstance(outer, ast.If) and _same(outer.test, "not args.skip_train"):
            for inner in outer.body:
                if isinstance(inner, ast.If) and _same(inner.test, "args.do_train and args.train_iters > 0") and \
                        not inner.orelse and len(inner.body) == 1 and len(calls) == 1 and \
                        isinstance(inner.body[0], (ast.Expr, ast.Assign)) and inner.body[0].value is calls[0]:
                    return inner.lineno
    return 0


def _one_step_an_iteration(train: ast.FunctionDef, ifs: List[ast.If]) -> bool:
    """train()'s body builds and starts the Profiler, then `while iteration < args.train_iters:` calls prof.step()
    in its own body (once an iteration), and stops it after the loop (the `if`s' own code is in the digest)."""
    if len(ifs) != 3 or ifs[0] not in train.body or ifs[2] not in train.body:
        return False
    loop = next((s for s in train.body if isinstance(s, ast.While) and ifs[1] in s.body), None)
    if loop is None or not train.body.index(ifs[0]) < train.body.index(loop) < train.body.index(ifs[2]):
        return False
    test = loop.test
    return isinstance(test, ast.Compare) and getattr(test.left, "id", "") == "iteration" and \
        len(test.ops) == 1 and isinstance(test.ops[0], ast.Lt) and \
        _chain(test.comparators[0]) == ["args", "train_iters"]


# ---------------------------------------------------------------- the tool configuration

class Tool(NamedTuple):
    path: str               # as found (realpath)
    shown: str              # as the answers name it
    value: Any              # what MMConfig keeps: the JSON, or the YAML's `tool`
    lines: Dict[Tuple[str, ...], int]   # line of each key, by its path


class Raises(Exception):
    """MMConfig raises RuntimeError on this file: why."""


class NotKnown(Exception):
    """What the file holds, as MMConfig reads it, is not known here: why."""


def _json_lines(text: str) -> Dict[Tuple[str, ...], int]:
    """The line of each object key of valid JSON, by its path (json's own scanner reads the strings and atoms)."""
    dec = json.JSONDecoder()
    space = re.compile(r"[ \t\n\r]*")
    lines: Dict[Tuple[str, ...], int] = {}

    def skip(i: int) -> int:
        m = space.match(text, i)
        return m.end() if m else i

    def value(i: int, path: Tuple[str, ...]) -> int:
        i = skip(i)
        if text[i:i + 1] != "{":
            return dec.raw_decode(text, i)[1]
        i = skip(i + 1)
        if text[i:i + 1] == "}":
            return i + 1
        while True:
            i = skip(i)
            key, j = dec.raw_decode(text, i)
            lines[path + (key,)] = text.count("\n", 0, i) + 1
            j = skip(value(skip(j) + 1, path + (key,)))     # (after the colon)
            if text[j] != ",":
                return j + 1
            i = j + 1
    value(0, ())
    return lines


# mappings walked in a tool file: an alias is walked again wherever it is named, as ConfigReader does, so aliases of
# aliases double at each level (30 levels: 2 ** 30); past this it is not read (RecursionError, as for one that holds
# itself)
MAX_MAPPINGS = 100_000


def _counted(walked: List[int]) -> None:
    walked[0] += 1
    if walked[0] > MAX_MAPPINGS:
        raise RecursionError(f"more than {MAX_MAPPINGS} mappings")


def _yaml_lines(node, path: Tuple[str, ...], lines: Dict[Tuple[str, ...], int], walked: Optional[List[int]] = None) \
        -> None:
    import yaml
    if isinstance(node, yaml.MappingNode):
        walked = [0] if walked is None else walked
        _counted(walked)
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                lines[path + (k.value,)] = k.start_mark.line + 1
                _yaml_lines(v, path + (k.value,), lines, walked)


def read_tool(given: str, cwd: str, shown_from: str, json_only: bool = False) -> Tool:
    """The tool configuration MMConfig makes of `--mm-tool given` in a process started in cwd (json_only: it reads
    every file as JSON)."""
    from ..source import fence, observed
    path = os.path.realpath(os.path.join(cwd, given))
    shown = os.path.relpath(path, shown_from).replace(os.sep, "/") if os.path.isabs(shown_from) else path
    sig = observed.note(path)
    if sig[0] == "missing":
        raise Raises(f"there is no file {given} in {cwd}")
    if sig[0] != "file":
        raise Raises(f"{given} in {cwd} is not a file")
    if not json_only and not path.endswith((".json", ".yaml")):
        raise Raises(f"{given} ends in neither .json nor .yaml, so MMConfig makes nothing of it")
    try:
        fence.check(path)
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Raises(f"{given} in {cwd} cannot be read ({e.strerror})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotKnown(f"{shown} is not UTF-8: how open() decodes it depends on the locale")
    if json_only or path.endswith(".json"):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as e:
            # (where: json's own message and column differ between Python releases, as the job's may from ours)
            near = f" near line {e.lineno}" if isinstance(e, json.JSONDecodeError) else ""
            raise Raises(f"{shown} is not valid JSON{near}")
        try:
            lines = _json_lines(text) if isinstance(value, dict) else {}
        except RecursionError:
            raise NotKnown(_DEEP.format(shown))
    else:
        import yaml
        try:
            doc = yaml.safe_load(text)
            node = yaml.compose(text, Loader=yaml.SafeLoader)
        except (yaml.YAMLError, RecursionError, ValueError, TypeError) as e:
            raise Raises(f"{shown} is not valid YAML ({str(e).splitlines()[0] if str(e) else type(e).__name__})")
        if not isinstance(doc, dict) or "tool" not in doc:
            raise Raises(f"{shown} has no top-level `tool:` key, which MMConfig indexes")
        value = doc["tool"]
        lines = {}
        try:
            _yaml_lines(node, (), lines)
        except RecursionError:          # (`a: &a {b: *a}`: a mapping that holds itself)
            raise NotKnown(_DEEP.format(shown))
        lines = {k[1:]: v for k, v in lines.items() if k[:1] == ("tool",) and len(k) > 1}
    if not isinstance(value, dict):
        raise Raises(f"{shown} holds a {type(value).__name__}, not a mapping of keys")
    try:
        dtype = _has_dtype(value)
    except RecursionError:
        raise NotKnown(_DEEP.format(shown))
    if dtype:
        raise NotKnown(f"{shown} has a `dtype` key, which MMConfig converts with get_dtype(), not read here")
    return Tool(path, shown, value, lines)


_DEEP = "{} nests its mappings deeper than is read here (or holds itself): what MMConfig makes of it is not followed"


def _has_dtype(value, walked: Optional[List[int]] = None) -> bool:
    if not isinstance(value, dict):
        return False
    walked = [0] if walked is None else walked
    _counted(walked)
    return any(k == "dtype" or _has_dtype(v, walked) for k, v in value.items())


def _get(tool: Tool, path: Tuple[str, ...]) -> Tuple[bool, Any, str]:
    """(found, value, the AttributeError's message where not) of `config.a.b` on the objects MMConfig makes."""
    value: Any = tool.value
    for key in path:
        if isinstance(value, dict):
            if key not in value:
                return False, None, f"'ConfigReader' object has no attribute '{key}'"
            value = value[key]
        else:
            return False, None, f"'{type(value).__name__}' object has no attribute '{key}'"
    return True, value, ""


# ---------------------------------------------------------------- the answer

def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of a MindSpeed-MM training script, None for any other (or a copy modified)."""
    from .imported import Followed
    from .sys_path import launch_lookup
    if launch.msprof is not None or ls is None or ls.ctx.tree is None:
        return None             # (under msprof the collector's own answer decides: msprof_launch.py)
    lookup = launch_lookup(ls)
    code = recognise(ls, lookup) if lookup is not None else None
    if code is None:
        return None
    words = [x.text for x in launch.args]
    from ..shell.parse import without_redirections
    from ..source.text import HOLE
    if any(HOLE in x or x.startswith("--prof") for x in words):
        return None             # Megatron's --profile, which train_decorator reads, or words not known
    if "--" in words or any(x.split("=", 1)[0] in ENDS_EARLY for x in words) or \
            any(n in launch.command.env or (environ is not None and n in environ) for n in RETURNS_EARLY) or \
            any(n in ls.ctx.src.text for n in (SWITCH,) + RETURNS_EARLY):
        return None             # (a script that names them may set them itself: os.getenv reads the process's)
    answer = _answer(w, launch, code, environ)
    if answer is None:
        return None
    verdict, why = answer
    if verdict != "no profiling" and _loose([x.text for x in without_redirections(launch.args)], _switches()):
        return None             # (where Megatron stops at the words, nothing is collected either: "no" holds)
    training = os.path.relpath(code.training, os.path.dirname(launch.script)).replace(os.sep, "/")
    profiles = {"no profiling": False, "unknown": None}.get(verdict, True)
    return Followed(verdict, f"{training}, which {os.path.basename(launch.script)} imports: {why}", profiles)


def _loose(words: List[str], switches=frozenset()) -> bool:
    """Whether a word may be a positional, which Megatron's parse_args refuses (status 2; core_v0.12.1
    arguments.py#L69-84): a first word, a second in a row that is no option (`--save path to x`, an unquoted
    value split), or one after an option of Megatron's that takes no value (switches: `--bf16 x`, python 3.9.18 and
    3.13.0 run). An option may take several (nargs="+"), which is not read here: the answer is left as it was."""
    return any(not x.startswith("-") and (i == 0 or not words[i - 1].startswith("-") or "=" in words[i - 1] or
                                          words[i - 1] in switches) for i, x in enumerate(words))


def _switches() -> frozenset:
    """Megatron-LM's options that take no value, which MindSpeed and MindSpeed-MM do not define again."""
    from ..knowledge import global_args as K
    return frozenset(K.switches(MEGATRON))


def _answer(w, launch, code: Code, environ) -> Optional[Tuple[str, str]]:
    from ..checks.launch_setup import bind
    from ..knowledge import global_args as K
    from ..source import fence
    from ..values.global_args import framework_flag
    from ..values.launch_args import OPEN
    train = os.path.basename(code.training)
    prof = os.path.basename(code.profiler)
    at = lambda line: f"{train}:{line}"       # noqa: E731
    switch = _switch(w, launch, environ)
    if switch is None:
        return None
    # (--save, Megatron's own, so that it is not taken for an abbreviation of --save-interval)
    table = {"--mm-tool": framework_flag("mm_tool", "--mm-tool", "str"),
             "--train-iters": framework_flag("train_iters", "--train-iters", "int"),
             "--save": framework_flag("save", "--save", "str"),
             **{o: framework_flag(d, o, "int") for o, d in INTERVAL_FLAGS.items()},
             **{a["option"]: framework_flag(d, a["option"], a["kind"]) for d, a in K.arguments(MEGATRON).items()
                if d in STARTS}}
    given, _ = bind(launch, table, w.root)
    if OPEN in given or any(d in getattr(given, "abbreviated", {}) for d in ("mm_tool", *INTERVAL_FLAGS.values())):
        return None
    zero = _zero(given)
    if zero is None:
        return None
    g = given.get("mm_tool")

    def refused(unless: str = "") -> Tuple[str, str]:
        # (pretrain() tests the intervals after merge_mm_args, before it reads any tool key)
        return "fails", (f"{zero}: pretrain() refuses a log, save or eval interval of 0 and stops at "
                         f"{at(code.refused)} with ValueError{unless}, before any profiler is built")
    unless = "" if g is None else \
        f" (unless MMConfig raises first on --mm-tool {g.text}, in merge_mm_args at {at(code.merged)})"
    if switch and not zero:
        return "no profiling", (f"{switch}, and train() builds MindSpeed-MM's Profiler only when it is not TRUE "
                                f"({at(code.switch)}): no profiler runs")
    line, func, key = code.first_read
    if zero and (g is None or g.text == ""):
        return refused()
    if g is None or g.text == "":
        passed = "passes no --mm-tool" if g is None else f"passes an empty --mm-tool ({g.where})"
        return "fails", (f"the launch {passed}, so MMConfig (merge_mm_args, {at(code.merged)}) loads no tool "
                         f"configuration and {func}() stops at {at(line)} (`args.mm.tool.{key}`) with AttributeError: "
                         "'MMConfig' object has no attribute 'tool', before any profiler is built")
    if g.text is None:
        return None
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    if cwd is None:
        return refused(unless) if zero else \
            ("unknown", f"--mm-tool {g.text} ({g.where}) is taken from the folder the job runs in, not known here")
    if fence.outside(os.path.join(cwd, g.text)):
        # (--no-outside: a launcher from an untrusted pull request names what is read; its sourced files alike)
        return refused(unless) if zero else \
            ("unknown", f"--mm-tool {g.text} ({g.where}) is outside the project, which --no-outside does not read")
    try:
        tool = read_tool(g.text, cwd, os.path.dirname(launch.script), code.json_only)
    except Raises as e:
        return "fails", (f"--mm-tool {g.text} ({g.where}): {e}, so MMConfig raises RuntimeError (\"One or more "
                         f"config files failed to load\") in merge_mm_args ({at(code.merged)}), before training")
    except NotKnown as e:
        return refused(unless) if zero else ("unknown", str(e))
    if zero:
        return refused()
    where = lambda path: f"{tool.shown}:{tool.lines.get(path, 0)}" if tool.lines.get(path) else tool.shown  # noqa
    found, _, error = _get(tool, (key,))
    if not found:
        return "fails", (f"{func}() stops at {at(line)} (`args.mm.tool.{key}`) with AttributeError: {error} "
                         f"({tool.shown} has no `{key}`), before any profiler is built")
    iters = given.get("train_iters")
    if iters is not None and _int(iters.text) == 0:
        return "collects nothing", (
            f"{_shown(iters)}: pretrain() calls train() only when args.train_iters > 0 ({at(code.guard)}), so "
            "MindSpeed-MM's Profiler is never built: nothing is recorded (with Megatron core_v0.12.1, the release "
            "MindSpeed-MM names, the job stops before that: validate_args with --train-samples, else "
            "get_optimizer_param_scheduler, raises on a train_iters of 0)")
    found, config, error = _get(tool, ("profile",))
    if not found:
        return "fails", (f"train() stops at its start ({at(code.built)}, `Profiler(args.mm.tool.profile)`) with "
                         f"AttributeError: {error} ({tool.shown} has no `profile`)")
    values: Dict[Tuple[str, ...], Any] = {}
    for k in code.keys:
        found, value, error = _get(tool, ("profile",) + k)
        if not found:
            return "fails", (f"train() stops at its start ({at(code.built)}): MindSpeed-MM's Profiler reads "
                             f"`{'.'.join(k)}` of {where(('profile',))} `profile`, which fails with AttributeError: "
                             f"{error}, even with profiling off")
        values[k] = value
    v = lambda *k: values[k]     # noqa: E731
    kind = v("profile_type")
    even = "" if v("enable") else \
        f", even with `\"enable\": {json.dumps(v('enable'))}` ({where(('profile', 'enable'))})"
    if kind == "static":
        if v("static_param", "level") not in ("level0", "level1", "level2"):
            return "fails", (f"{where(('profile', 'static_param', 'level'))} `\"level\": "
                             f"{json.dumps(v('static_param', 'level'))}`: MindSpeed-MM's Profiler takes only level0, "
                             f"level1 or level2, so train() stops at its start ({at(code.built)}) with ValueError "
                             f"({prof}:{code.raises[0]}){even}")
        if v("static_param", "aic_metrics_type") not in ("PipeUtilization", "ArithmeticUtilization"):
            return "fails", (f"{where(('profile', 'static_param', 'aic_metrics_type'))} `\"aic_metrics_type\": "
                             f"{json.dumps(v('static_param', 'aic_metrics_type'))}`: MindSpeed-MM's Profiler takes "
                             f"only PipeUtilization or ArithmeticUtilization, so train() stops at its start "
                             f"({at(code.built)}) with ValueError ({prof}:{code.raises[1]}){even}")
    elif kind != "dynamic":
        return "fails", (f"{where(('profile', 'profile_type'))} `\"profile_type\": {json.dumps(kind)}`: MindSpeed-MM's "
                         f"Profiler takes only static or dynamic, so train() stops at its start ({at(code.built)}) "
                         f"with ValueError ({prof}:{code.raises[2]}){even}")
    odd = _odd(values) if kind == "static" else ""
    if odd:
        return "unknown", (f"{tool.shown} `profile`: {odd}: what MindSpeed-MM's Profiler and torch_npu then do is not "
                           "followed here")
    enable = v("enable")
    if not enable:
        return "no profiling", (f"{where(('profile', 'enable'))} `\"enable\": {json.dumps(enable)}`: MindSpeed-MM's "
                                f"Profiler is built at train()'s start ({at(code.built)}) but starts no profiler "
                                f"({prof}:{code.enable_test}); to profile, set `\"enable\": true` there")
    said = "" if enable is True else \
        f" (`\"enable\": {json.dumps(enable)}` is not false to Python's `not`: profiling is on)"
    ranks = _ranks(launch, v("ranks"), where(("profile", "ranks")))
    if isinstance(ranks, str):
        return "unknown", f"{where(('profile', 'enable'))} switches profiling on{said}, but {ranks}"
    on, of = ranks
    if kind == "dynamic":
        return "unknown", (f"{where(('profile', 'enable'))} switches profiling on{said}, with `\"profile_type\": "
                           f"\"dynamic\"`: train() hands torch_npu's dynamic_profile the folder "
                           f"{json.dumps(v('dynamic_param', 'config_path'))} ({at(code.started)}) on {on}; what it "
                           "collects is set by the configuration there while the job runs, not emulated here")
    if not of:
        return "collects nothing", (f"{where(('profile', 'enable'))} switches profiling on{said}, but {on}: no "
                                    "process starts the profiler")
    return _static(launch, given, values, tool, where, at, code, on, said, cwd)


def _int(text: Optional[str]) -> Optional[int]:
    """What argparse's type=int makes of a value (None: it refuses it, or the value is not known)."""
    from ..source.text import HOLE
    if text is None or HOLE in text:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _shown(g) -> str:
    """A flag and its value as the launch gives them, and where."""
    return f"{g.option}={g.text} ({g.where})" if g.value_word is g.word else f"{g.option} {g.text} ({g.where})"


def _zero(given) -> Optional[str]:
    """The interval given as 0 (the first of save, log, eval), said; "" where none is; None where a value given is
    not known or argparse refuses it (then the launch is left to the answer given before)."""
    zero = ""
    for dest in dict.fromkeys(INTERVAL_FLAGS.values()):
        g = given.get(dest)
        if g is None:
            continue
        value = _int(g.text)
        if value is None:
            return None
        if value == 0 and not zero:
            zero = _shown(g)
    return zero


def _switch(w, launch, environ) -> Optional[str]:
    """"" where OOTB_OPTIMIZER_PROFILING is not TRUE in the launch's environment, why where it is, None: not known."""
    from ..source.text import HOLE
    s = launch.command.env.get(SWITCH)
    if s is not None and s.how != "set without export":
        if HOLE in s.value:
            return None
        return f"{SWITCH}={s.value} ({s.where(w.root)})" if s.value == "TRUE" else ""
    if environ is not None and environ.get(SWITCH) == "TRUE":
        return f"{SWITCH}=TRUE (the environment given)"
    return ""


def _odd(values) -> str:
    """A value of a kind the Profiler hands torch_npu that was not run here, said; "" where there is none."""
    for k, want in ((("static_param", "start_step"), int), (("static_param", "end_step"), int),
                    (("static_param", "save_path"), str)):
        if not isinstance(values[k], want) or isinstance(values[k], bool):
            return f"`{k[-1]}` is {json.dumps(values[k])}"
    for k in (("static_param", n) for n in ("with_stack", "with_memory", "record_shapes", "with_cpu",
                                            "data_simplification", "analyse_flag")):
        if k in values and not isinstance(values[k], bool):
            return f"`{k[-1]}` is {json.dumps(values[k])}"
    return ""


def _ranks(launch, ranks, where: str):
    """(which processes start the profiler, said; whether any does), or why that is not known."""
    if ranks == [-1]:
        return f"every rank (`\"ranks\": [-1]` at {where})", True
    if not isinstance(ranks, list):
        return f"`\"ranks\": {json.dumps(ranks)}` ({where}) is not a list of ranks, which the Profiler tests " \
               "`torch.distributed.get_rank() in` (not followed here)"
    listed = f"`\"ranks\": {json.dumps(ranks)}` at {where}"
    world, how = _world(launch)
    if world is None and not any(isinstance(r, (int, float)) and not (type(r) is int and r < 0) for r in ranks):
        # (`get_rank() in ranks`: no rank, a whole number from 0, equals a string, null, a list or a number below 0)
        return f"{listed} names no rank of any node (a rank is 0 or more; only [-1] means every rank)", False
    if world is None and launch.ranks > 0 and ranks and all(
            type(r) is int and 0 <= r < launch.ranks for r in ranks):     # (a node's processes: the least it has)
        on = sorted(set(ranks))
        return (f"{'rank' if len(on) == 1 else 'ranks'} {_span(on)} ({listed}; the job has at least the "
                f"{launch.ranks} processes of this node, and {how})"), True
    if world is None:
        return f"the ranks {listed} are profiled where the job has them, and {how}"
    on = [r for r in range(world) if r in ranks]
    if not on:
        return f"{listed} names no rank of the {world} ({how})", False
    shown = f"rank {on[0]}" if len(on) == 1 else f"ranks {_span(on)}"
    return f"{shown} of the {world} ({listed}; {how})", True


def _span(ranks: List[int]) -> str:
    if ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{ranks[0]}-{ranks[-1]}"
    return ", ".join(map(str, ranks))


def _world(launch) -> Tuple[Optional[int], str]:
    """(how many processes the job has, how that is known), or (None, why not)."""
    if launch.wrapper not in ("torchrun", "torch.distributed.run", "torch.distributed.launch") or launch.ranks <= 0:
        return None, "how many processes the job has is not known here"
    from ..shell.launches import option_value
    nnodes = option_value([x.text for x in launch.command.words], "--nnodes")
    if nnodes != "1":
        return None, (f"the job's size is not known here ({launch.wrapper} --nnodes {nnodes}: other nodes' ranks)"
                      if nnodes is not None else f"the job's size is not known here ({launch.wrapper} without "
                      "--nnodes 1)")
    return launch.ranks, f"{launch.wrapper} --nnodes 1 --nproc_per_node {launch.ranks}"


def _static(launch, given, values, tool: Tool, where, at, code: Code, on: str, said: str, cwd: str) \
        -> Tuple[str, str]:
    from . import schedule_run as S
    from ..values.global_args import Namespace
    v = lambda *k: values[k]     # noqa: E731
    start, end = v("static_param", "start_step"), v("static_param", "end_step")
    head = f"{where(('profile', 'enable'))} switches profiling on{said}: torch_npu's profiler starts at train()'s " \
        f"start ({at(code.started)}) on {on}"
    if start < 0 or end - start < 1:
        return "unknown", (f"{head}, with schedule(skip_first={start}, active={end - start}) from start_step {start} "
                           f"and end_step {end} ({where(('profile', 'static_param', 'start_step'))}), values torch_npu "
                           "resets or refuses: what it records is not followed here (see npuprof check)")
    s = {"wait": 0, "warmup": 0, "active": end - start, "repeat": 1, "skip_first": start}
    folder = v("static_param", "save_path")
    saved = f"{folder} (in {cwd})" if cwd and not os.path.isabs(folder) else folder
    level, cpu = v("static_param", "level"), " and CPU" if v("static_param", "with_cpu") else ""
    what = f"level L{level[1:]}, aic_metrics {v('static_param', 'aic_metrics_type')}, activities NPU{cpu}"
    g = given.get("train_iters")
    iters = int(g.text) if g is not None and g.text and g.text.isdigit() else None
    window = f"iteration{'s' if end - start > 1 else ''} {start}{'-' + str(end - 1) if end - start > 1 else ''}"
    sched = f"schedule(skip_first={start}, active={end - start}) from start_step {start} and end_step {end} " \
        f"({where(('profile', 'static_param', 'start_step'))})"
    if iters is None:
        return "unknown", (f"{head}; its {sched} records {window} of train()'s loop (0-based, one prof.step() each), "
                           f"saved to {saved}; how many iterations the run trains (--train-iters) is not known here")
    run = S.replay(s, iters)
    if not run.recorded:
        return "collects nothing", (f"{head}, but its {sched} records from iteration {start}, and the run trains at "
                                    f"most {iters} (--train-iters {g.text}, {g.where}): nothing is recorded")
    # the loop runs from args.iteration, which Megatron's setup_model_and_optimizer sets (0 unless a checkpoint is
    # loaded: data/global_args.json set_at_run_time), so fewer steps where a checkpoint is loaded
    first = Namespace({}, given, {}, {}, cwd).run_time_value(MEGATRON, "iteration") or \
        U("args.iteration is not known here")
    recorded = f"iteration{'s' if len(run.recorded) > 1 else ''} {S.spans(run.recorded)} of {iters}"
    counted = f"0-based, one prof.step() each; --train-iters {g.text}, {g.where}"
    if not isinstance(first, C) or first.value != 0:
        why = first.reason if isinstance(first, U) else f"args.iteration is {first.value}"
        return "unknown", (f"{head}; its {sched} records {recorded} where train()'s loop starts at iteration 0 "
                           f"({counted}), but {why}")
    traces = len(run.traces)
    return "collects", (f"{head}; its {sched} records {recorded} ({counted}; train()'s loop starts at {first.note}), "
                        f"{traces} trace{'s' if traces != 1 else ''} saved to {saved} ({what})")
