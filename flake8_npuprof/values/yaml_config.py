"""mindspore-ai/models' configuration module (`model_utils/config.py`, 220 copies in that repository): a YAML file
read with `yaml.load_all` (the configuration, then optional help and choices documents), an argparse flag `--KEY`
made for each top-level key whose value is neither a list nor a dict (`type=ast.literal_eval` for a bool, else
`type=type(value)`, the YAML's value its default, its choices from the third document), `parse_args()`, and every
flag copied over the YAML's value; `config = get_config()` at the module's top level. The file is `--config_path`
(parsed first, with parse_known_args), by default a path joined to the module's own folder.

So `config.need_profiler` in a launch is what the launch passes as `--need_profiler` converted as that type, else
the YAML's value (python 3.11 ran a copy of the module: data/sources.json python.yaml_config_module). Only a module
whose five parts (Config, parse_yaml, parse_cli_to_yaml, merge, get_config) are one of the shapes read is
recognised, by the digest of their syntax with strings and print calls left out (SHAPES); anything else, a YAML
that does not load with yaml.SafeLoader as a mapping of str keys, a `--config_path` not known, or option words the
launch passes that the parser may take as an abbreviation, leaves the value as it was (not known here).

The centernet family's module also runs an extra_operations(cfg) of its own and reads parts of the configuration
into module-level names: recognised where extra_operations only assigns literals, lambdas or paths of cfg to paths
of cfg under `if`s testing paths of cfg (_extra), the keys it may set are left not known, and the YAML holds every
path read (holds: else the import raises AttributeError); an `if __name__ == '__main__':` after it never runs.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..source.files import rel_path
from .flag_def import FlagDef

FACTS = ("python.yaml_config_module",)      # data/sources.json

# The digests (_digest) of the parts' shapes read and run, and how many of mindspore-ai/models' 220 copies at eab643f
# have each: Config 210, parse_yaml 199, parse_cli_to_yaml 200, merge 219, get_config 137 (its default a literal) and
# 20 (a module-level name bound to one, CRNN's `_config_path`); the whole module is recognised in 130 copies
# The centernet family's (centernet, centernet_det, centernet_resnet101, centernet_resnet50_v1, run with python 3.11 on
# a copy, numpy stubbed): its Config makes a str value `np.array([...], dtype=np.float32)` an array (ARRAYS), and its
# get_config calls extra_operations(config_obj) before returning it (EXTRA), a function read here (_extra)
ARRAYS = "50f293d9bae5dd6c"
EXTRA = "e3f1ac3bf61aafd8"
SHAPES = {
    "Config": {"67535fb26a39f5c4", ARRAYS},
    "parse_yaml": {"f09d17f2b6c51fae"},
    "parse_cli_to_yaml": {"624d7a5a44abdf89"},
    "merge": {"ab5899eb825ae2eb"},
    "get_config": {"9d4aee5131ab852a", "531fc2f9845b5e18", EXTRA},
}
KEEP = ("--", "--config_path", "r", "np.array(", "dtype=np.float32)", "]")   # the strings that decide what the code
                                                                            # does


class Shape(NamedTuple):
    default: str            # the YAML path get_config joins to the module's folder ("../default_config.yaml")
    name: str               # the module-level name bound to get_config() ("config")
    stored: frozenset = frozenset()     # the top-level keys extra_operations may set (their values not known here)
    paths: tuple = ()       # (attribute path, a mapping) the module reads at import: the YAML must hold each
    arrays: bool = False    # Config makes an `np.array(...)` string an array


class Key(NamedTuple):
    value: Any              # the YAML's value (a scalar: _keys keeps no list or dict)
    line: int               # 1-based line of its key
    choices: Optional[list]


class Loaded(NamedTuple):
    path: str
    keys: Dict[str, Key]    # the scalar keys, the flags made from them
    doc: Any = None         # the first document


def _digest(node: ast.AST) -> str:
    return digest(node, KEEP)


def digest(node: ast.AST, keep: Tuple[str, ...]) -> str:
    """The part's syntax with docstrings, print()/pprint() calls and strings other than those kept left out (the
    strings that decide what the code does are kept: `keep`)."""
    import copy
    import hashlib          # (here, for a module with every part: importing it costs 11.7M instructions)
    node = copy.deepcopy(node)
    for n in ast.walk(node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(n, field, None)
            if not isinstance(block, list):
                continue
            kept = [s for s in block if not (isinstance(s, ast.Expr) and (
                isinstance(s.value, ast.Constant) and isinstance(s.value.value, str) or
                isinstance(s.value, ast.Call) and getattr(s.value.func, "id", "") in ("print", "pprint")))]
            setattr(n, field, kept or [ast.Pass()])
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value not in keep:
            n.value = "S"
    return hashlib.sha256(_canon(node).encode()).hexdigest()[:16]


def _canon(node) -> str:
    """The tree as text the same on python 3.9-3.13: ast.dump's fields differ between them (3.13 leaves out None
    and empty lists, 3.12 adds type_params), so those, contexts, kinds and type comments are left out here."""
    if isinstance(node, list):
        return "[" + ",".join(_canon(x) for x in node) + "]"
    if not isinstance(node, ast.AST):
        return repr(node)
    fields = [f"{f}={_canon(v)}" for f, v in ast.iter_fields(node)
              if v is not None and v != [] and f not in ("ctx", "kind", "type_comment", "type_params")]
    return f"{type(node).__name__}({','.join(fields)})"


def shape_of(tree: ast.AST) -> Optional[Shape]:
    """The module's shape when it is one of those read; else None."""
    parts: Dict[str, ast.AST] = {}
    top: List[ast.stmt] = []
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            if stmt.name in parts:
                return None
            parts[stmt.name] = stmt
        elif not isinstance(stmt, (ast.Import, ast.ImportFrom)) and not (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            top.append(stmt)
    if not all(name in parts for name in SHAPES) or \
            any(_digest(parts[name]) not in digests for name, digests in SHAPES.items()):
        return None             # (every part's name first: a module with a `class Config` alone is common)
    made = next((k for k, stmt in enumerate(top) if isinstance(stmt, ast.Assign) and isinstance(
        stmt.value, ast.Call) and getattr(stmt.value.func, "id", "") == "get_config"), len(top))
    literals: Dict[str, str] = {}
    for stmt in top[:made]:                 # `_config_path = "../../default_config.yaml"` (CRNN)
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
            return None
        literals[stmt.targets[0].id] = stmt.value.value
    last = top[made] if made < len(top) else None
    if not (isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name) and
            isinstance(last.value, ast.Call) and getattr(last.value.func, "id", "") == "get_config" and
            not last.value.args and not last.value.keywords) or last.targets[0].id in parts:
        return None
    name = last.targets[0].id
    stored: frozenset = frozenset()
    paths: List[Tuple[Tuple[str, ...], bool]] = []
    if _digest(parts["get_config"]) == EXTRA:
        extra = _extra(parts.get("extra_operations"))
        if extra is None:
            return None
        stored, paths = extra[0], list(extra[1])
    for stmt in top[made + 1:]:             # `net_config = config.net_config` (centernet), `if __name__ == ...`
        read = _path(stmt.value, name) if isinstance(stmt, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id not in (name, "get_config") for t in stmt.targets) else None
        if read is not None:
            paths.append((read, False))
        elif not _main_guard(stmt):
            return None
    default = _default(parts["get_config"], literals)
    return None if default is None else Shape(default, name, stored, tuple(paths),
                                              _digest(parts["Config"]) == ARRAYS)


def _path(node, root: str) -> Optional[Tuple[str, ...]]:
    """`root.a.b` as ("a", "b"); None for anything else."""
    names: List[str] = []
    while isinstance(node, ast.Attribute):
        names.insert(0, node.attr)
        node = node.value
    return tuple(names) if names and isinstance(node, ast.Name) and node.id == root else None


def _main_guard(stmt) -> bool:
    t = getattr(stmt, "test", None)
    return isinstance(stmt, ast.If) and isinstance(t, ast.Compare) and getattr(t.left, "id", "") == "__name__" and \
        len(t.comparators) == 1 and getattr(t.comparators[0], "value", None) == "__main__"


def _extra(func) -> Optional[Tuple[frozenset, tuple]]:
    """(the top-level keys it may set, the (path, a mapping) it reads) of an extra_operations(cfg) that does nothing
    else: assignments of a literal, a lambda or a path of cfg to a path of cfg, under `if`s testing a path of cfg
    (`if cfg.export_name:`), so that it raises only where the YAML lacks a path it reads (checked when it is loaded:
    holds); None for any other body (a call, a subscript, cfg itself handed on or bound again)."""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list or len(func.args.args) != 1 or any(
            (func.args.vararg, func.args.kwarg, func.args.kwonlyargs, func.args.posonlyargs, func.args.defaults)):
        return None
    cfg = func.args.args[0].arg
    stored: set = set()
    paths: List[Tuple[Tuple[str, ...], bool]] = []

    def test(e) -> bool:
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return test(e.operand)
        read = _path(e, cfg)
        if read is not None:
            paths.append((read, False))
        return read is not None

    def ok(stmt) -> bool:
        if isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return True
        if isinstance(stmt, ast.If):
            return test(stmt.test) and all(ok(s) for s in stmt.body + stmt.orelse)
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            return False
        target, value = _path(stmt.targets[0], cfg), stmt.value
        if target is None or not (isinstance(value, (ast.Constant, ast.Lambda)) or test(value)):
            return False
        if isinstance(value, ast.Lambda) and any(isinstance(n, ast.Name) and n.id == cfg for n in ast.walk(value)):
            return False
        if len(target) == 1:
            stored.add(target[0])
        else:
            paths.append((target[:-1], True))
        return True

    if not all(ok(s) for s in func.body) or any(p[0][0] in stored for p in paths):
        return None             # (a key it sets that a path goes through: `cfg.a = 1` then `cfg.a.b = 2` raises)
    return frozenset(stored), tuple(paths)


def holds(shape: Shape, loaded: Loaded) -> bool:
    """Whether the module runs as read with this YAML: each path it reads at import is in it (a mapping where it
    sets a key below it), and each `np.array([...], dtype=np.float32)` string its Config converts is a list of
    numbers or of rows of numbers (python 3.11 ran the conversion; another may raise)."""
    for path, mapping in shape.paths:
        node = loaded.doc
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        if mapping and not isinstance(node, dict):
            return False
    return not shape.arrays or all(_array_ok(v) for v in _strings(loaded.doc))


def is_array(text: str) -> bool:
    """Whether the centernet family's Config makes the string an array."""
    return text[:9] == "np.array(" and text[-17:] == "dtype=np.float32)"


def _array_ok(text: str) -> bool:
    if not is_array(text):
        return True
    try:
        value = ast.literal_eval(text[9:text.rfind("]") + 1])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    rows = value if isinstance(value, list) and value and all(isinstance(x, list) for x in value) else [value]
    return all(isinstance(r, list) and len(r) == len(rows[0]) and all(type(x) in (int, float) for x in r)
               for r in rows)         # numbers, or rows of as many numbers (numpy refuses a ragged list)


def _strings(node):
    """The str values Config reaches: in mappings, and in mappings in lists."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            if isinstance(v, dict):
                yield from _strings(v)


def _default(get_config: ast.AST, literals: Dict[str, str]) -> Optional[str]:
    """The path `--config_path` defaults to: `os.path.join(current_dir, X)`, X a literal or a name the module binds
    once to one (the digest holds the rest)."""
    for n in ast.walk(get_config):
        if isinstance(n, ast.keyword) and n.arg == "default" and isinstance(n.value, ast.Call) and \
                len(n.value.args) == 2:
            x = n.value.args[1]
            if isinstance(x, ast.Constant) and isinstance(x.value, str):
                return x.value
            if isinstance(x, ast.Name) and x.id in literals:
                return literals[x.id]
    return None


def load(module_path: str, shape: Shape, config_path: Optional[str], cwd: Optional[str]) -> Optional[Loaded]:
    """The YAML the module reads: `--config_path` as the launch passes it (relative to the process's folder, cwd),
    else the default beside the module; None where it is not known or not read as the module reads it, or is outside
    the project under --no-outside (source/fence.py)."""
    if config_path is None:
        path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(module_path)), shape.default))
    elif os.path.isabs(config_path):
        path = config_path
    elif cwd is not None:
        path = os.path.normpath(os.path.join(cwd, config_path))
    else:
        return None
    from ..source import fence
    if fence.outside(path):
        return None
    from ..source import observed
    sig = observed.note(path)
    if sig[0] != "file":
        return None
    kept = _read.get(path)
    if kept is None or kept[0] != sig:
        try:
            from ..source.files import read_source
            read = _read_yaml(read_source(path).text)
        except Exception:       # unreadable or undecodable: not known here
            read = None
        kept = _read[path] = (sig, read)
        while len(_read) > MAX_READ:
            del _read[next(iter(_read))]
    return None if kept[1] is None else Loaded(path, kept[1][0], kept[1][1])


MAX_READ = 64               # YAML files kept read (by path, while unchanged): a launch asks for its keys often
_read: Dict[str, tuple] = {}


def _keys(text: str) -> Optional[Dict[str, Key]]:
    """The scalar top-level keys of the first document (1 to 3 documents, as parse_yaml takes), with the third's
    choices; None where SafeLoader does not read it as parse_yaml and parse_cli_to_yaml would go on."""
    read = _read_yaml(text)
    return None if read is None else read[0]


def _read_yaml(text: str) -> Optional[Tuple[Dict[str, Key], Any]]:
    """(_keys, the first document)."""
    import yaml
    try:
        loader = yaml.SafeLoader(text)
        try:
            nodes = []
            while loader.check_node():
                nodes.append(loader.get_node())
            docs = [loader.construct_document(n) for n in nodes]
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None
    if not 1 <= len(docs) <= 3 or not isinstance(docs[0], dict) or not all(isinstance(k, str) for k in docs[0]):
        return None
    choices = docs[2] if len(docs) == 3 else {}
    if not isinstance(choices, dict):
        return None
    lines = {k.value: k.start_mark.line + 1 for k, _ in nodes[0].value if isinstance(k, yaml.ScalarNode)}
    return {k: Key(v, lines.get(k, 0), choices.get(k)) for k, v in docs[0].items()
            if not isinstance(v, (list, dict))}, docs[0]


def type_name(value) -> str:
    """The type argparse converts a given value with: ast.literal_eval for a bool, else the value's type."""
    return "literal_eval" if isinstance(value, bool) else type(value).__name__


def flag_defs(module, shape: Shape, loaded: Loaded) -> List[Tuple[str, FlagDef]]:
    """(option, flag) of each flag the module's parser makes from the YAML, for the launch's words to be bound to."""
    out = []
    scope = module.sites.module
    for k, key in loaded.keys.items():
        option = "--" + k
        at = f"{rel_path(loaded.path, os.path.dirname(module.path))}:{key.line}"
        call = ast.Call(func=ast.Name(id="add_argument"), args=[ast.Constant(option)],
                        keywords=[ast.keyword(arg="yaml", value=ast.Constant(at))], lineno=key.line, col_offset=0)
        kind = type_name(key.value)
        type_node = ast.Attribute(value=ast.Name(id="ast"), attr="literal_eval") if kind == "literal_eval" else \
            ast.Name(id=kind)
        default = ast.Constant(key.value)
        out.append((option, FlagDef(k, option, "argparse", type(key.value), default, True, call, scope, "", type_node)))
    return out


# ---------------------------------------------------------------- the values a script reads

def module_shape(module) -> Optional[Shape]:
    """shape_of a project module (values/project.Module), found once per module read."""
    found = module.__dict__.get("yaml_config_shape", False)
    if found is False:
        found = shape_of(module.tree) if "def parse_cli_to_yaml" in module.src.text else None
        module.__dict__["yaml_config_shape"] = found
    return found


def loaded_for(module, shape: Shape, given) -> Optional[Loaded]:
    """The YAML a launch (given: its flags, values/launch_args.Passed, or None) makes the module read."""
    config_path = None
    cwd = getattr(given, "cwd", None)
    passed = given.get("config_path") if given is not None else None
    if passed is not None:
        from ..source.text import HOLE
        if passed.text is None or HOLE in passed.text:
            return None
        config_path = passed.text
    elif given is not None and "*" in given:        # launch_args.OPEN: more flags may come from the caller
        return None
    if shape.arrays and given is not None and any(is_array(getattr(g, "text", None) or "") for g in given.values()):
        return None             # (a value its Config converts: whether that raises is not read here)
    loaded = load(module.path, shape, config_path, cwd)
    return loaded if loaded is not None and holds(shape, loaded) else None


def yaml_flags(module, given) -> List[Tuple[str, FlagDef]]:
    """The flags a recognised module's parser makes for this launch (flag_defs); none for another module."""
    shape = module_shape(module)
    loaded = loaded_for(module, shape, given) if shape is not None else None
    return flag_defs(module, shape, loaded) if loaded is not None and shape is not None else []


def _unrecognized(lookup, module, loaded: Loaded, words, given) -> str:
    """Why the module's parse_args stops the script on a word of the launch that none of its options reads (nor as
    an abbreviation: values/argv_words.py), when the script imports it; "" where there is none."""
    from .argv_words import matches, unrecognized
    from ..source.text import HOLE
    options = ["--" + k for k in loaded.keys] + ["--config_path"]
    word = next((w for w in words if HOLE not in w.partition("=")[0] and unrecognized(w) and not matches(w, options)),
                None)
    if word is None:
        return ""
    here = os.path.dirname(lookup.filename)
    passed = next((g.where for g in given.values() if getattr(g, "where", "")), "the launch")
    shown = word if HOLE not in word else word.partition("=")[0] + "=..."
    return (f"argparse stops the script in parse_args: {shown} from {passed} is no option "
            f"{rel_path(module.path, here)} makes (the keys of {rel_path(loaded.path, here)} and --config_path), so "
            f"argparse exits with status 2 (\"error: unrecognized arguments\", naming {shown}) when "
            f"{os.path.basename(lookup.filename)} imports it")


def where(flag) -> str:
    """`default_config.yaml:58` for a flag flag_defs made, else ""."""
    kw = next((k for k in getattr(flag.call, "keywords", ()) if k.arg == "yaml"), None)
    return kw.value.value if kw is not None else ""


def value_in(lookup, module, name: str, key: str, anchor, switch: bool) -> Optional[list]:
    """`name.key` where name is the recognised module's configuration: the launch's flag or the YAML's value (values
    as the resolver holds them); None where the module is not one, or the value not known here."""
    shape = module_shape(module)
    if shape is None or name != shape.name:
        return None
    given = lookup.given
    loaded = loaded_for(module, shape, given)
    if loaded is None or key not in loaded.keys or key in shape.stored or \
            shape.arrays and isinstance(loaded.keys[key].value, str) and is_array(loaded.keys[key].value):
        return None             # (a key extra_operations may set, or an array)
    from .launch_args import OPEN, Given, given_values
    from .ops import C, Opaque, S, U
    from ..source.text import StrValue
    k = loaded.keys[key]
    at = f"{rel_path(loaded.path, os.path.dirname(lookup.filename))}:{k.line}"
    defs = dict(flag_defs(module, shape, loaded))
    flag = defs["--" + key]
    option = "--" + key
    if given is not None:
        unbound = [w for w in getattr(given, "unbound", ()) if w.startswith("-") and len(w) > 1]
        # and the words the script's own options read (`--device_id=1` of its parse_known_args): the module's
        # parse_args reads every word (python 3.9-3.13 ran it: "unrecognized arguments: --device_id=1", status 2)
        own = [g.word.text for d, g in given.items() if d != OPEN and isinstance(g, Given) and g.option not in defs]
        stop = _unrecognized(lookup, module, loaded, unbound + own, given)
        if stop:
            return [U("argparse stops the script before it is read", type(k.value), stops=stop)]
        unbound = [w for w in unbound if w.startswith("--")]
        if unbound:
            return [U(f"{unbound[0].split('=')[0]} from {getattr(given, 'where', 'the launch')} is no flag "
                      f"{rel_path(loaded.path, os.path.dirname(lookup.filename))} makes: argparse stops on it unless it is "
                      "an abbreviation of one", type(k.value))]
        passed = given_values(flag, given, defined_at=at)
        if passed is not None:
            if k.choices is not None and any(isinstance(v, (C, S)) and _plain(v) not in k.choices for v in passed):
                # python 3.11 ran the module: argparse exits with status 2 ("invalid choice")
                g = given.get(key)
                spelled = f"{g.option}{'=' if g.value_word is g.word else ' '}{g.text}" if g is not None else ""
                return [U(f"{option} is not one of its choices in {at}", type(k.value),
                          stops=f"argparse stops the script in parse_args: {spelled} from {g.where} is not one of the "
                                f"choices of {option} ({at}), so argparse exits with status 2 (\"invalid choice\")"
                          if g is not None else "")]
            return passed
        note = f"as {key}: {k.value!r} in {at} sets it ({option} not passed)"
    else:
        if switch and not isinstance(k.value, str):
            return [Opaque(type(k.value), option)]      # a switch set from a flag takes whatever the launch passes
        note = f"with the default of {option} ({key} in {at}), used when the flag is not given"
    if isinstance(k.value, str):
        return [S(StrValue(k.value, [], anchor[0], anchor[1], (), False, "imported", ((0, len(k.value), note),)))]
    return [C(k.value, None, note)]


def _plain(v):
    from .ops import C
    return v.value if isinstance(v, C) else v.value.text


def imported_config(resolver):
    """(module, shape) of the one recognised configuration the file imports by its name at its top level
    (`from model_utils.config import config`); None where there is none or more than one. Found once per file."""
    kept = resolver.__dict__.get("yaml_config")
    if kept is None:
        kept = resolver.__dict__["yaml_config"] = (_imported_config(resolver),)
    return kept[0]


def _imported_config(resolver):
    if not any(isinstance(s, ast.ImportFrom) and s.module and "config" in s.module
               for s in getattr(resolver.tree, "body", [])):
        return None
    lookup = resolver.project()
    if lookup is None:
        return None
    found = {}
    for stmt in getattr(resolver.tree, "body", []):
        if isinstance(stmt, ast.ImportFrom) and stmt.module and "config" in stmt.module:
            for alias in stmt.names:
                got = is_config_import(resolver, stmt, alias.asname or alias.name)
                if got is not None:
                    found[got[0].path] = got
    return next(iter(found.values())) if len(found) == 1 else None


def is_config_import(resolver, stmt, local: str):
    """(module, shape) where the import statement binds `local` to a recognised module's configuration."""
    lookup = resolver.project()
    got = lookup.imported_from(stmt, local) if lookup is not None and isinstance(stmt, ast.ImportFrom) else None
    if got is None:
        return None
    shape = module_shape(got[0])
    return (got[0], shape) if shape is not None and got[1] == shape.name else None
