"""Computed values: evaluate the expressions that build a profiling setting, as Python would.

The evaluator works on the ast with the bindings the sites stage recorded, and keeps the
position map of every literal piece it uses, so a finding inside a computed options string
still points into the literal that holds the offending key or value. It knows `+`, `%`,
`.format`, f-strings, `str.join`, `os.path.join`, `json.dumps` (serialised here, never
through the stdlib), names across scopes and if/else branches (several candidates), class
attributes, absl/tf.app flags and argparse defaults (noted as "the default of --x"),
function parameters whose call sites agree, and small local functions. What it cannot know
(environment reads, flags without defaults, parameters) becomes a hole; anything else falls
back to astroid, kept inside the file and bounded, and otherwise is unknown.
"""

from __future__ import annotations

import ast
import builtins
import os
import unicodedata
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple

from ..source.sites import LAST_POS, Binding, Scope, Sites, call_name, dotted
from ..source.text import SourceText, StrBuilder, StrValue, decode_piece, literal_value, scan_pieces, LiteralError
from .flag_def import FlagDef
from .held_args import holds_parse_result
from .passed_args import parameter_of, passes_parse_result, returned_parse_result
from .reader import BUDGET_REASON, BYTES_WRAPPERS, STR_WRAPPERS, Scalars, Strings
from .ops import MAX_CANDIDATES, C, D, L, Opaque, S, U, add_chain, append_formatted, arith, combos, convert, dedupe, json_dumps, str_format, kw_combos, limit, one, pathjoin, percent, products, stringify, strjoin, subscript, to_kind, with_note

if TYPE_CHECKING:
    from .astroid_fallback import Fallback

_PY_NAMES: Dict[type, str] = {str: "str", bytes: "bytes"}

# Budgets, counted in work. Real training scripts stay far below them (the largest model-zoo
# scripts need under 50 steps, depth 6 and 7 astroid calls); running out is reported (NPP191).
MAX_DEPTH = 40              # nested evaluation depth
MAX_STEPS = 20000           # evaluation steps per file, plus STEPS_PER_NODE for each node of it
STEPS_PER_NODE = 4          # so a file of many setups gets a budget that grows with it
DENYLIST = {"tensorflow", "npu_bridge", "npu_device", "json", "os", "absl", "argparse", "sys", "subprocess",
            "numpy", "torch", "hccl", "moxing", "horovod", "keras", "tf_keras", "posixpath", "pathlib"}

_BUILTIN_NAMES = frozenset(dir(builtins))

FLAGS_OBJECTS = {"FLAGS", "flags.FLAGS", "tf.flags.FLAGS", "tf.app.flags.FLAGS", "absl.flags.FLAGS",
                 "tf.compat.v1.flags.FLAGS", "tf.compat.v1.app.flags.FLAGS"}
DEFINE_TYPES = {"string": str, "enum": str, "bool": bool, "boolean": bool, "integer": int, "float": float,
                "list": list, "multi_string": list, "multi_integer": list, "enum_class": str}


_new_tuple = tuple.__new__        # a FlagDef without the namedtuple's own __new__ or _replace (see _collect_flags)


class Resolver:
    def __init__(self, src: SourceText, sites: Sites, tree: ast.AST, filename: str = "<unknown>"):
        self.src = src
        self.sites = sites
        self.tree = tree
        self.filename = filename
        self.steps = 0
        self._max_steps: Optional[int] = None   # max_steps, counted when first needed
        self.active: set = set()
        self._flags: Optional[List[FlagDef]] = None     # flags, found when first asked
        self._fallback: Optional[Fallback] = None   # astroid, built on first need (astroid_fallback.py)
        self.exhausted = False              # a budget ran out during the current evaluation
        # id -> expression whose evaluation a budget cut short (an ast.expr: Any, as the callers hold it as ast.AST)
        self.cut: Dict[int, Any] = {}
        self._def_scopes: Optional[Dict[int, Scope]] = None
        self._project: Any = False          # project.Lookup, made on first use (False: not yet; None: no project)
        self._caught: Optional[int] = None  # the line of a try that may catch what parse_args raises (0: none)
        self._given = None
        # Each value once per expression, scope and position: (id(node), id(scope), switch), pos ->
        # (values, steps it took, how deep it went, the keys its evaluation entered). None: no memo (a
        # sibling module's resolver, which lives on from file to file).
        self.memo: Optional[Dict[tuple, tuple]] = {}
        self._entered: List[tuple] = []     # keys entered since the outermost evaluation began
        self._deepest = 0                   # the deepest depth reached by the evaluations under way
        self._tainted = 0                   # evaluations whose values depend on more than their key
        self.held_args: Dict[tuple, tuple] = {}     # (id(class), attribute, as spelt) -> held_args._holds' answer
        # id(call) -> (the call, whether it calls the file's own function returning parse_args()'s result): each
        # read of `args.x` after `args = parse_args()` asks it, and the answer walks the function's body
        self._parse_fns: Dict[int, Tuple[ast.AST, bool]] = {}
        # id(node) -> (the node, literal_value's answer): a literal is read once, however often it is evaluated
        self._literals: Dict[int, Tuple[ast.AST, Optional[StrValue]]] = {}

    @property
    def flags(self) -> List[FlagDef]:
        """The file's flag definitions (_collect_flags), found when first asked: the search of its calls for them,
        and the walk of the statements that name them, is skipped in a file whose values and rules ask for no
        flag (14 of the 40 files of the setup sample ask none for a value)."""
        if self._flags is None:
            self._flags = _collect_flags(self.sites) if may_define_flags(self.src.text) else []
        return self._flags

    @property
    def given(self):
        """{dest: launcher.Given}: the flags of one launch (launcher.py), or None."""
        return self._given

    @given.setter
    def given(self, value) -> None:
        if value is not self._given and self.memo:
            self.memo = {}                  # the values a flag gives depend on the launch
        self._given = value

    def restart_budget(self) -> None:
        """The same budgets again, for judging the file once more (against another target): what the
        first judgement spent must not cut the second one short."""
        self.steps = 0
        if self._fallback is not None:
            self._fallback.calls, self._fallback.exhausted = 0, False

    def literal(self, node: ast.AST) -> Optional[StrValue]:
        """literal_value(self.src, node), read once per node (a pure reading of the node's source text)."""
        kept = self._literals.get(id(node))
        if kept is not None and kept[0] is node:
            return kept[1]
        lit = literal_value(self.src, node)
        self._literals[id(node)] = (node, lit)      # (the node is kept with it: its id is not reused meanwhile)
        return lit

    # ---- the interface values.Values uses

    def strings(self, node: ast.AST, scope: Scope, pos: int) -> Strings:
        cands = self._top(node, lambda: self.eval(node, scope, pos))
        texts: List[StrValue] = []
        types: Set[Optional[str]] = set()
        for v in cands:
            if isinstance(v, S):
                texts.append(v.value)
                types.add("bytes" if v.is_bytes else "str")
            else:
                reason = v.reason if isinstance(v, U) else "not a string"
                py = v.py_type if isinstance(v, U) else None
                types.add(_PY_NAMES.get(py) if py is not None else None)
                return Strings((), one(types), reason=reason)
        unique = dedupe(texts)
        return Strings(tuple(unique), one(types))

    def scalars(self, node: ast.AST, scope: Scope, pos: int) -> Scalars:
        cands = self._top(node, lambda: self.eval(node, scope, pos, switch=True))
        out = []
        notes = []
        for v in cands:
            if isinstance(v, C):
                out.append(v.value)
            elif isinstance(v, S):
                out.append(v.value.text.encode("latin-1", "replace") if v.is_bytes else v.value.text)
            elif isinstance(v, Opaque):
                out.append(v)
                notes.append(f"the value of {v.flag}")
            else:
                return Scalars((), (), v.stops if isinstance(v, U) else "")
        return Scalars(tuple(out), tuple(notes))

    def _top(self, node: ast.AST, evaluate) -> List:
        """One value a rule asks for; remembered when a budget cut its evaluation short."""
        self.exhausted = False
        cands = evaluate()
        if self.exhausted:
            self.cut[id(node)] = node
        return cands

    # ---- evaluation

    @property
    def max_steps(self) -> int:
        """The file's evaluation budget. Counting its nodes walks every deferred statement of the sites, so
        it is counted only when the evaluation passes MAX_STEPS, which most files never do."""
        if self._max_steps is None:
            self._max_steps = MAX_STEPS + STEPS_PER_NODE * len(self.sites.nodes)
        return self._max_steps

    @max_steps.setter
    def max_steps(self, value: int) -> None:
        self._max_steps = value

    def eval(self, node: ast.AST, scope: Scope, pos: int, depth: int = 0, env=None, switch=False) -> List:
        self.steps += 1
        budget = self._max_steps
        if (self.steps > (MAX_STEPS if budget is None else budget) and self.steps > self.max_steps) or \
                depth > MAX_DEPTH:
            self.exhausted = True
            self._tainted += 1
            return [U(BUDGET_REASON)]
        key = (id(node), id(scope), switch)
        active = self.active
        if key in active:
            self._tainted += 1
            return [U("defined in terms of itself")]
        memo = self.memo if not env else None
        if memo is not None:
            found = memo.get((key, pos))
            # the same evaluation again gives the same values, unless it would now run out of steps or
            # depth, or meet an expression under evaluation ("defined in terms of itself")
            if found is not None and self.steps - 1 + found[1] <= (MAX_STEPS if budget is None else budget) and \
                    depth + found[2] <= MAX_DEPTH and found[3].isdisjoint(active):
                self.steps += found[1] - 1
                self._entered.extend(found[3])
                self._deepest = max(self._deepest, depth + found[2])
                return list(found[0])
        if not active:
            self._entered = []
        entered, tainted, steps, deepest = len(self._entered), self._tainted, self.steps, self._deepest
        self._entered.append(key)
        self._deepest = depth
        active.add(key)
        try:
            out = self._eval(node, scope, pos, depth + 1, env or {}, switch)
        except RecursionError:
            out = [U("too deeply nested")]
            self._tainted += 1
        finally:
            active.discard(key)
        out = limit(out)
        if memo is not None and self._tainted == tainted and not self.exhausted:
            memo[key, pos] = (tuple(out), self.steps - steps + 1, self._deepest - depth,
                              frozenset(self._entered[entered:]))
        self._deepest = max(deepest, self._deepest)
        return out

    def _eval(self, node, scope, pos, depth, env, switch) -> List:
        ev = lambda n, **kw: self.eval(n, scope, pos, depth, env, kw.get("switch", switch))  # noqa: E731
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, bytes)):
                lit = self.literal(node)
                assert lit is not None      # (a str or bytes constant always has one)
                return [S(lit, isinstance(node.value, bytes))]
            return [C(node.value, node)]
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, scope, pos, depth, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            # a long `a + b + c + ...` chain nests to the left: fold it here, not by recursion
            operands: List[ast.expr] = []
            while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and len(operands) < 4096:
                operands.append(node.right)
                node = node.left
            return add_chain(ev(node), (ev(operand) for operand in reversed(operands)), node, self.src)
        if isinstance(node, ast.BinOp):
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Mod):
                return [percent(a, b, node, self.src) for a in left for b in right]
            return [arith(a, b, node.op) for a in left for b in right]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return [C(not v.value) if isinstance(v, C) else U() for v in ev(node.operand)]
        if isinstance(node, ast.IfExp):
            return ev(node.body) + ev(node.orelse)
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                return [U("dict built with ** unpacking")]
            return products([ev(k) for k in node.keys] + [ev(v) for v in node.values],
                             lambda vals: D(tuple(zip(vals[:len(node.keys)], vals[len(node.keys):]))))
        if isinstance(node, (ast.List, ast.Tuple)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return [U("list built with * unpacking")]
            return products([ev(e) for e in node.elts], lambda vals: L(tuple(vals)))
        if isinstance(node, ast.Name):
            return self._name(node, scope, pos, depth, env, switch)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, scope, pos, depth, env, switch)
        if isinstance(node, ast.Call):
            return self._call(node, scope, pos, depth, env, switch)
        if isinstance(node, ast.Subscript):
            base = ev(node.value)
            index = ev(node.slice)          # (3.9+: the index itself, never an ast.Index)
            out = []
            for b in base:
                for i in index:
                    out.append(subscript(b, i))
            if any(isinstance(v, U) for v in out):
                return self._astroid(node, scope, pos) or out
            return out
        return [U()]

    # ---- names and attributes

    def _name(self, node: ast.Name, scope, pos, depth, env, switch) -> List:
        bindings = self._bindings(node.id, scope, pos)
        if not bindings:
            if node.id in ("True", "False", "None"):
                return [C({"True": True, "False": False, "None": None}[node.id])]
            found = self._elsewhere(node, scope, pos, switch) if self.sites.star_imports else None
            return found if found is not None else [U(f"{node.id} is not defined in this file")]
        return self._from_bindings(bindings, node, depth, env, switch)

    def _bindings(self, key: str, scope: Scope, pos: int) -> List[Binding]:
        return self.sites.bindings_at(key, scope, pos)

    def _from_bindings(self, bindings: Sequence[Binding], use, depth, env, switch) -> List:
        out: List = []
        for b in bindings:
            if b.pos == -1 and isinstance(b.stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                name = use.id if isinstance(use, ast.Name) else dotted(use)
                assert name is not None     # (the bindings were looked up by it)
                bound = env.get((id(b.scope), name))
                out.extend(bound if bound is not None else self._parameter(b, name, depth, switch))
                continue
            if isinstance(b.stmt, (ast.Import, ast.ImportFrom)):
                found = self._elsewhere(use, b.scope, b.pos, switch, b) if isinstance(use, ast.Name) else None
                out.extend(found if found is not None else [U(f"{dotted(use)} is imported")])
                continue
            if isinstance(b.stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(U("a function or class, not a value"))
                continue
            if b.value is None:
                out.append(U(f"{dotted(use)} is not assigned a plain value"))
                continue
            out.extend(self.eval(b.value, b.scope, b.pos, depth, env, switch))
        return out

    def _parameter(self, b: Binding, name: str, depth, switch) -> List:
        """A parameter's value: the same at every call site in the file, else unknown."""
        func = b.stmt
        if isinstance(func, ast.Lambda):
            return [U(f"parameter {name}")]
        assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))     # (_from_bindings asks for these)
        params = [a.arg for a in getattr(func.args, "posonlyargs", []) + func.args.args]
        kwonly = [a.arg for a in func.args.kwonlyargs]
        defaults = dict(zip(params[len(params) - len(func.args.defaults):], func.args.defaults))
        defaults.update({a.arg: d for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is not None})
        method = b.scope.self_name is not None
        sites = [c for c in self.sites.calls_named(func.name) if _calls_function(c.name, func.name, method)]
        if not sites:
            return [U(f"parameter {name} of {func.name}()")]
        out = []
        for site in sites:
            call = site.call
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return [U(f"parameter {name} of {func.name}()")]
            offset = 1 if method and isinstance(call.func, ast.Attribute) else 0
            arg = None
            if name in params and params.index(name) - offset < len(call.args) and params.index(name) >= offset:
                arg = call.args[params.index(name) - offset]
            for k in call.keywords:
                if k.arg == name:
                    arg = k.value
            site_pos = self.sites.pos.at(call, 0)
            if arg is not None:
                out.extend(self.eval(arg, site.scope, site_pos, depth, None, switch))
            elif name in defaults:
                out.extend(self.eval(defaults[name], b.scope.parent or b.scope, 0, depth, None, switch))
            elif name in kwonly or name in params:
                return [U(f"parameter {name} of {func.name}()")]
        return out

    def _attribute(self, node: ast.Attribute, scope, pos, depth, env, switch) -> List:
        base = dotted(node.value)
        flag = self._flag_for(node, scope, pos)
        if flag is not None:
            return self._flag_value(flag, depth, switch)
        key = dotted(node)
        if key:
            bindings = self._bindings(key, scope, pos)
            if bindings:
                return self._from_bindings(bindings, node, depth, env, switch)
        found = self._elsewhere(node, scope, pos, switch)
        if found is not None:
            return found
        # instance or class attribute set in a class body / __init__ of this file
        cls = self._class_of(node.value, scope, pos) if base else None
        if cls is not None:
            found = self._class_attribute(cls, node.attr)
            if found:
                return self._from_bindings(found, node, depth, env, switch)
        if isinstance(node.value, ast.Call) or base:
            inferred = self._astroid(node, scope, pos)
            if inferred:
                return inferred
        return [U(f"{key or node.attr} is computed elsewhere")]

    def _class_of(self, expr, scope, pos) -> Optional[ast.ClassDef]:
        if isinstance(expr, ast.Name):
            for b in self._bindings(expr.id, scope, pos):
                if isinstance(b.stmt, ast.ClassDef) and b.value is b.stmt:
                    return b.stmt
                if isinstance(b.value, ast.Call) and isinstance(b.value.func, ast.Name):
                    for cb in self._bindings(b.value.func.id, b.scope, b.pos):
                        if isinstance(cb.stmt, ast.ClassDef):
                            return cb.stmt
        return None

    def _class_attribute(self, cls: ast.ClassDef, attr: str) -> List[Binding]:
        for s in self.sites.scopes:
            if s.node is cls:
                return list(s.bindings.get(attr, [])) or list(s.bindings.get("self." + attr, []))
        return []

    # ---- names other modules of the project define

    def _elsewhere(self, node, scope, pos, switch, binding: Optional[Binding] = None) -> Optional[List]:
        """The value of a flag or name another module of the project defines (project.py), placed on
        this use and saying where it comes from; None when the project does not define it."""
        if self._project is False:
            self._project = self._project_lookup()
        if self._project is None or not hasattr(node, "lineno"):
            return None
        return self._project.value_of(self, node, scope, pos, switch, binding)

    def project(self):
        """The index of the project's other modules (values/project.Lookup), made on first use; None without one."""
        if self._project is False:
            self._project = self._project_lookup()
        return self._project

    def use_project(self, lookup) -> None:
        """Ask this lookup (values/project.Lookup) for the names other modules define: emulate/imported.py's, which
        also sees the flags the launched script defines (absl keeps one registry per process)."""
        self._project = lookup

    def _project_lookup(self):
        """The index of the project's other modules (project.ProjectResolver has one); here none."""
        return None

    # ---- flags

    def _flag_for(self, node: ast.Attribute, scope, pos) -> Optional[FlagDef]:
        if not self.flags:
            return None
        defs = [f for f in self.flags if f.dest == node.attr]
        if not defs:
            return None
        base = dotted(node.value)
        # a name bound to parse_args() is argparse's, whatever it is called (`FLAGS, _ = parser.parse_known_args()`)
        if base and self._is_parse_result(node.value, scope, pos, 0):
            argp = [f for f in defs if f.kind == "argparse"]
            return argp[0] if argp else None
        # `self.args.x` where the attribute can only hold parse_args()'s result (held_args.py)
        if isinstance(node.value, ast.Attribute) and holds_parse_result(self, node.value, scope, node.attr):
            argp = [f for f in defs if f.kind == "argparse"]
            return argp[0] if argp else None
        # in a launch, `def npu_config(FLAGS): FLAGS.profiling` is the launch's flag only where every call hands the
        # function parse_args()'s result (passed_args.py); else it is not known to be the flag
        if self.given is not None and isinstance(node.value, ast.Name) and any(f.kind == "argparse" for f in defs) \
                and parameter_of(self, node.value, scope, pos) is not None:
            if not passes_parse_result(self, node.value, scope, pos):
                return None
            return [f for f in defs if f.kind == "argparse"][0]
        if base in FLAGS_OBJECTS or (base or "").endswith(".FLAGS"):
            absl = [f for f in defs if f.kind == "absl"]
            return absl[0] if absl else None
        if isinstance(node.value, ast.Name):
            binds = self._bindings(node.value.id, scope, pos)
            if binds and all(b.pos == -1 for b in binds) and len({f.kind for f in defs}) == 1:
                return defs[0]          # `def main(args): args.x`: the file defines exactly this flag
            if binds and all(isinstance(b.value, ast.Attribute) and b.value.attr == "FLAGS" for b in binds):
                absl = [f for f in defs if f.kind == "absl"]
                return absl[0] if absl else None
        return None

    def _is_parse_result(self, expr, scope, pos, hops) -> bool:
        if hops > 3:
            return False
        if isinstance(expr, ast.Call):
            # `args = parse_args()`, the file's function returning its result: decided in a launch (emulate, NPP015),
            # where the flags' values are the launch's; in a check the defaults it would bring in cost 30 M
            # instructions on the README's setup sample and changed no finding on the corpora
            if isinstance(expr.func, ast.Name) and self.given is not None:
                kept = self._parse_fns.get(id(expr))
                if kept is None or kept[0] is not expr:
                    kept = self._parse_fns[id(expr)] = (expr, not returned_parse_result(self, expr, scope, pos))
                return kept[1]
            return isinstance(expr.func, ast.Attribute) and expr.func.attr in ("parse_args", "parse_known_args")
        if isinstance(expr, ast.Subscript):
            return self._is_parse_result(expr.value, scope, pos, hops + 1)
        if isinstance(expr, ast.Name):
            for b in self._bindings(expr.id, scope, pos):
                value = b.value
                if value is None and isinstance(b.stmt, ast.Assign):
                    value = b.stmt.value            # args, rest = parser.parse_known_args()
                if value is not None and self._is_parse_result(value, b.scope, b.pos, hops + 1):
                    return True
        return False

    def _parse_caught(self) -> int:
        """The line of the first `try` whose body calls parse_args (or a function of this file, which may) with a
        handler that may catch what it raises (bare, SystemExit, ArgumentError, ValueError, Exception, ...), or of
        an `exit_on_error=` given to a parser; 0 where there is none: a type function's error stops the script."""
        if self._caught is None:
            self._caught = 0
            own = {n.name for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for node in ast.walk(self.tree):
                if isinstance(node, ast.keyword) and node.arg == "exit_on_error":
                    self._caught = getattr(node, "lineno", 0) or 1
                    break
                if _catches_parse(node, own):
                    self._caught = getattr(node, "lineno", 0)
                    break
        return self._caught

    def parse_try(self) -> int:
        """The line of the first `try` whose body calls parse_args (or a function of this file, which may) with a
        handler that may catch what it raises; 0 where there is none (an exit_on_error= is not counted)."""
        own = {n.name for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return next((getattr(n, "lineno", 0) for n in ast.walk(self.tree) if _catches_parse(n, own)), 0)

    def _type_function(self, flag: FlagDef) -> Optional[ast.FunctionDef]:
        """The function a flag's `type=name` names where it is the project's own: defined in this file, or imported
        from a project module (project.Lookup.function); None for another type or where it is not found."""
        node = flag.type_node
        if not isinstance(node, ast.Name) or node.id in _ARG_TYPES:
            return None
        binds = self._bindings(node.id, flag.scope, self.sites.pos.at(flag.call, 0))
        if len(binds) != 1:
            return None
        if isinstance(binds[0].value, ast.FunctionDef):
            return binds[0].value
        if isinstance(binds[0].stmt, ast.ImportFrom):
            if self._project is False:
                self._project = self._project_lookup()
            return None if self._project is None else self._project.function(binds[0].stmt, node.id)
        return None

    def _flag_value(self, flag: FlagDef, depth, switch) -> List:
        if self.given is not None:          # one launch: the value the launcher passes, else the default
            from .launch_args import given_values
            passed = flag.dest in self.given    # (a flag not passed needs no type function looked up)
            function = self._type_function(flag) if passed else None
            # (whether a try may catch argparse's stop: asked only where a word may make it stop)
            stops = function is not None or passed and (flag.action in ("store_true", "store_false") and getattr(
                self.given[flag.dest], "text", None) is not None or _converted(flag) or
                any(k.arg == "choices" for k in flag.call.keywords))
            found = given_values(flag, self.given, function,
                                 f"{os.path.basename(self.filename)}:{flag.call.lineno}" if passed else "",
                                 self._parse_caught() if stops else 0)
            if found is not None:
                return found
            switch = False
        if switch and flag.py_type is not str:
            # a switch set from a flag takes whatever the launcher passes
            return [Opaque(flag.py_type or object, flag.option)]
        if not flag.has_default:
            return [U(f"{flag.option} has no default", flag.py_type)]
        note = f"with the default of {flag.option}, used when the flag is not given"
        if flag.default is None:
            if flag.action in ("store_true", "store_false"):
                return [C(flag.action == "store_false")]
            return [C(None, None, "" if switch else note)]
        vals = self.eval(flag.default, flag.scope, self.sites.pos.at(flag.call, 0), depth, None, False)
        out = []
        for v in vals:
            if isinstance(v, S):
                v = S(with_note(v.value, note), v.is_bytes)
            elif isinstance(v, C) and v.value is None and not switch:
                v = C(None, v.node, note)       # formatted as "None": say it is only the default
            if switch and isinstance(v, (S, C)):
                out.append(Opaque(str, flag.option) if isinstance(v, S) else v)
                continue
            out.append(v)
        return out

    # ---- calls

    def _call(self, node: ast.Call, scope, pos, depth, env, switch) -> List:
        ev = lambda n: self.eval(n, scope, pos, depth, env)  # noqa: E731
        name = call_name(node) or ""
        last = name.rsplit(".", 1)[-1]
        func = node.func
        if last in BYTES_WRAPPERS and node.args:
            return [to_kind(v, True) for v in ev(node.args[0])]
        if last in STR_WRAPPERS and node.args:
            return [to_kind(v, False) for v in ev(node.args[0])]
        if isinstance(func, ast.Attribute) and func.attr == "encode":
            return [to_kind(v, True) for v in ev(func.value)]
        if isinstance(func, ast.Attribute) and func.attr == "decode":
            return [to_kind(v, False) for v in ev(func.value)]
        if name == "str" and len(node.args) == 1:
            return [stringify(v) for v in ev(node.args[0])]
        if name == "bytes" and len(node.args) >= 2:
            return [to_kind(v, True) for v in ev(node.args[0])]
        if name in ("bool", "int", "float") and len(node.args) == 1:
            return [convert(v, name) for v in ev(node.args[0])]
        if name in ("os.getenv", "getenv", "os.environ.get", "environ.get") or \
                (isinstance(func, ast.Attribute) and func.attr == "get" and dotted(func.value) in ("os.environ", "environ")):
            return [U("read from the environment at run time", str)]
        if isinstance(func, ast.Attribute) and func.attr == "format":
            template = ev(func.value)
            args = [ev(a) for a in node.args]
            kwargs = {k.arg: ev(k.value) for k in node.keywords if k.arg}
            if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
                return [U(".format with * or ** arguments")]
            out = []
            for t in template:
                for combo in combos(args):
                    for kcombo in kw_combos(kwargs):
                        out.append(str_format(t, combo, kcombo, node, self.src))
                        if len(out) > MAX_CANDIDATES:
                            return [U("too many combinations")]
            return out
        if isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1:
            if name in ("os.path.join", "path.join", "posixpath.join", "osp.join"):
                return [pathjoin([v], node, self.src) for v in ev(node.args[0])]
            seps = ev(func.value)
            items = ev(node.args[0])
            return [strjoin(s, i, node, self.src) for s in seps for i in items]
        if name in ("os.path.join", "path.join", "posixpath.join", "osp.join", "join") and \
                (name != "join" or self.sites.imports.get("join", "").endswith("path.join")):
            parts = [ev(a) for a in node.args]
            return [pathjoin(list(combo), node, self.src) for combo in combos(parts)]
        if last == "dumps" and (name in ("json.dumps", "dumps") or name.endswith("json.dumps")) and node.args:
            kwargs = {k.arg: ev(k.value) for k in node.keywords if k.arg}
            return [json_dumps(v, kwargs, node, self.src) for v in ev(node.args[0])]
        inlined = self._inline(node, scope, pos, depth, switch)
        if inlined is not None:
            return inlined
        return self._astroid(node, scope, pos) or [U(f"returned by {name or 'a call'}()")]

    def _inline(self, node: ast.Call, scope, pos, depth, switch) -> Optional[List]:
        """A call of a small function defined in this file: evaluate what it returns."""
        if not isinstance(node.func, ast.Name):
            return None
        binds = [b for b in self._bindings(node.func.id, scope, pos)
                 if isinstance(b.stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if len(binds) != 1:
            return None
        func = binds[0].stmt
        assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))     # (binds holds only these)
        inner = next((s for s in self.sites.scopes if s.node is func), None)
        if inner is None or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        returns = [n for n in ast.walk(func) if isinstance(n, ast.Return) and n.value is not None
                   and self.sites.scope_of.at(n) is inner]
        if not returns or len(returns) > 4:
            return None
        params = [a.arg for a in getattr(func.args, "posonlyargs", []) + func.args.args]
        env: Dict = {}
        for p, a in zip(params, node.args):
            env[(id(inner), p)] = self.eval(a, scope, pos, depth)
        for k in node.keywords:
            if k.arg:
                env[(id(inner), k.arg)] = self.eval(k.value, scope, pos, depth)
        defaults = dict(zip(params[len(params) - len(func.args.defaults):], func.args.defaults))
        for p in params:
            if (id(inner), p) not in env:
                env[(id(inner), p)] = self.eval(defaults[p], binds[0].scope, 0, depth) if p in defaults \
                    else [U(f"parameter {p}")]
        out = []
        for r in returns:
            assert r.value is not None      # (returns: those with a value)
            out.extend(self.eval(r.value, inner, self.sites.pos.at(r, 0), depth, env, switch))
        return out

    def _fstring(self, node: ast.JoinedStr, scope, pos, depth, env) -> List:
        lit = self.literal(node)
        if lit is not None:
            return [S(lit)]
        fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
        start, end = self.src.node_start(node), self.src.node_end(node)
        try:
            pieces = scan_pieces(self.src.text, start, end)
        except LiteralError:
            pieces = None
        values = [self.eval(f.value, scope, pos, depth, env) for f in fields]
        out: List = []
        for combo in combos(values):
            b = StrBuilder()
            if pieces is None:
                out.append(U("an f-string we cannot read"))
                continue
            k = 0
            ok = True
            for piece in pieces:
                decoded, runs, slots = decode_piece(self.src.text, piece, 0)
                text_value = StrValue(decoded, runs, piece.start, piece.end, (piece,))
                last = 0
                for slot in slots:
                    b.add_value(text_value, last, slot.t)
                    last = slot.t
                    if k >= len(fields):
                        ok = False
                        break
                    field = fields[k]
                    append_formatted(b, combo[k], field, self.src)
                    k += 1
                b.add_value(text_value, last)
            if not ok or k != len(fields):
                out.append(U("an f-string we cannot read"))
                continue
            out.append(S(b.build(start, end, False, "f-string")))
        return out

    # ---- astroid, only for what the evaluator cannot see

    def _astroid(self, node: ast.expr, scope: Scope, pos: int) -> Optional[List]:
        if not self._astroid_may_answer(node, scope, pos):
            return None                     # decided before astroid parses anything
        self._tainted += 1                  # astroid spends its own budget of calls: not memoized
        if self._fallback is None:
            from .astroid_fallback import Fallback
            deny = set(DENYLIST)
            deny.update(target.lstrip(".").split(".")[0] for target in self.sites.imports.values())
            deny.update(m.lstrip(".").split(".")[0] for m in self.sites.star_imports)
            self._fallback = Fallback(self.src.text, self.filename, deny)
        values = self._fallback.infer((type(node).__name__, node.lineno, node.col_offset,
                                       getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)))
        if self._fallback.exhausted:
            self.exhausted = True
        if values is None or len(values) > MAX_CANDIDATES:
            return None
        start, end = self.src.node_start(node), self.src.node_end(node)
        out: List = []
        for v in values:
            if isinstance(v, str):
                out.append(S(StrValue(v, [], start, end, origin="inferred")))
            elif isinstance(v, bytes):
                out.append(S(StrValue(v.decode("latin-1"), [], start, end, is_bytes=True, origin="inferred"), True))
            else:
                out.append(C(v))
        return out

    def _astroid_may_answer(self, node: ast.AST, scope: Scope, pos: int, hops: int = 0) -> bool:
        """Whether astroid could infer more than unknown, decided before it parses anything.

        astroid is kept inside the file (every imported module is denied), so an expression rooted
        in an imported or undefined name cannot be answered, nor a parameter without a default,
        nor a name bound only to such expressions or to calls of local functions returning them."""
        root, called = node, False
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            if isinstance(root, ast.Call):
                called, root = True, root.func
            else:
                called, root = False, root.value
        if not isinstance(root, ast.Name):
            return True
        bindings = self._bindings(root.id, scope, pos)
        if not bindings:
            return root.id in _BUILTIN_NAMES
        if hops >= 8:
            return True
        return any(self._binding_may_answer(b, root.id, called, hops) for b in bindings)

    def _binding_may_answer(self, b: Binding, name: str, called: bool, hops: int) -> bool:
        stmt = b.stmt
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return False
        if b.pos == -1 and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = stmt.args
            with_default = [a.arg for a in (getattr(args, "posonlyargs", []) + args.args)[::-1][:len(args.defaults)]]
            with_default += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            return name in with_default
        if called and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.value is stmt:
            inner = self._scope_of_def(stmt)
            returns = [(v, s) for v, s in self.sites.returns if s is inner]
            return not returns or any(self._astroid_may_answer(v, s, self.sites.pos.at(v, LAST_POS), hops + 1)
                                      for v, s in returns)
        if b.value is None or b.value is stmt:
            return True
        return self._astroid_may_answer(b.value, b.scope, b.pos, hops + 1)

    def _scope_of_def(self, func: ast.AST) -> Optional[Scope]:
        if self._def_scopes is None:
            self._def_scopes = {id(s.node): s for s in self.sites.scopes}
        return self._def_scopes.get(id(func))


# ---------------------------------------------------------------- flags

_ARG_TYPES = {"int": int, "float": float, "str": str, "bool": bool}      # argparse's type=, by name


def may_define_flags(text: str) -> bool:
    """False when no call of the text can be named `...DEFINE_*` or `...add_argument` (the flag definitions
    _collect_flags reads): call names are identifiers, so one of those words is in the text, or in its NFKC form,
    which is how Python reads identifiers that are not ASCII."""
    if "DEFINE_" in text or "add_argument" in text:
        return True
    if text.isascii():
        return False
    folded = unicodedata.normalize("NFKC", text)
    return "DEFINE_" in folded or "add_argument" in folded


def _collect_flags(sites: Sites) -> List[FlagDef]:
    out = []
    unset = []          # argparse options without default=: None, unless set_defaults or argument_default says else
    opened = False
    reset: Set[Optional[str]] = set()   # the dests a set_defaults call names (None: one given **kwargs)
    chars = _prefix_chars(sites) if sites.may_hold("prefix_chars") else "-"
    for site in sites.named_calls_for(("DEFINE_", "add_argument", "set_defaults", "ArgumentParser")):
        name = site.name
        # most calls name none of the words: four `in` tests cost them less than the method calls below
        if not name or ("DEFINE_" not in name and "add_argument" not in name and "set_defaults" not in name
                        and "ArgumentParser" not in name):
            continue
        if (name.endswith("set_defaults") or name.endswith("ArgumentParser") and any(
                k.arg in ("argument_default", None) for k in site.call.keywords)):
            opened = True
            if name.endswith("set_defaults"):
                reset.update(k.arg for k in site.call.keywords)
            continue
        if "DEFINE_" not in name and not name.endswith("add_argument"):
            continue
        last = name.rsplit(".", 1)[-1]
        if last != "add_argument" and not last.startswith("DEFINE_"):
            continue                        # no keyword table built for them
        call = site.call
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        if last.startswith("DEFINE_"):
            kind = last[len("DEFINE_"):]
            if kind not in DEFINE_TYPES:
                continue
            flag_name = call.args[0] if call.args else kw.get("name")
            dest = flag_name.value if isinstance(flag_name, ast.Constant) and isinstance(flag_name.value, str) else None
            if not dest:
                continue
            default = call.args[1] if len(call.args) > 1 else kw.get("default")
            # (without the namedtuple's own __new__: a Python frame per flag)
            out.append(_new_tuple(FlagDef, (dest, f"--{dest}", "absl", DEFINE_TYPES[kind], default,
                                            len(call.args) > 1 or "default" in kw, call, site.scope, "", None)))
        elif last == "add_argument" and isinstance(call.func, ast.Attribute):
            opts = [a.value for a in call.args if type(a) is ast.Constant and type(a.value) is str]
            if not opts and "dest" not in kw:
                continue
            longs = [o for o in opts if o[:1] in chars and o[1:2] in chars and o[1:2]]
            shorts = [o for o in opts if o[:1] in chars and o[:1] and o not in longs] if len(longs) < len(opts) \
                else []
            dest_node = kw.get("dest")
            if isinstance(dest_node, ast.Constant) and isinstance(dest_node.value, str):
                dest = dest_node.value
            elif longs:
                dest = longs[0].lstrip(chars).replace("-", "_")
            elif shorts:
                dest = shorts[0].lstrip(chars).replace("-", "_")
            elif opts:
                dest = opts[0]              # positional argument
            else:
                continue
            action_node = kw.get("action")
            action = action_node.value if isinstance(action_node, ast.Constant) and isinstance(action_node.value, str) else ""
            type_node = kw.get("type")
            py_type = _ARG_TYPES.get(dotted(type_node) or "") if type_node is not None else None
            if action in ("store_true", "store_false"):
                py_type = bool
            elif type_node is None and action in ("", "store"):
                py_type = str
            has_default = "default" in kw or action in ("store_true", "store_false")
            if not has_default and longs + shorts and "required" not in kw and all(k.arg for k in call.keywords):
                unset.append(len(out))
            out.append(_new_tuple(FlagDef, (dest, (longs or shorts or opts or [dest])[0], "argparse", py_type,
                                            kw.get("default"), has_default, call, site.scope, action, type_node)))
    if not opened:      # (the model zoo's `--profiling` with type=ast.literal_eval and no default: None, so off)
        for k in unset:
            out[k] = _new_tuple(FlagDef, out[k][:5] + (True,) + out[k][6:])     # _replace(has_default=True)
    if reset:           # (set_defaults after add_argument replaces the option's default: python 3.11's argparse)
        for k, f in enumerate(out):
            if f.kind == "argparse" and (f.dest in reset or None in reset):
                out[k] = _new_tuple(FlagDef, out[k][:4] + (None, False) + out[k][6:])   # the default not known
    return out


def _prefix_chars(sites: Sites) -> str:
    """The characters that begin the file's argparse options: the prefix_chars= its ArgumentParsers all give (python
    3.9-3.13 name an option's dest by its first long option string, those characters stripped: `++prof` is prof for
    prefix_chars="+"), where they all give the same one character; else "-"."""
    given = set()
    for site in sites.named_calls_for(("ArgumentParser",)):
        if site.name and site.name.endswith("ArgumentParser"):
            value = next((k.value for k in site.call.keywords if k.arg == "prefix_chars"), None)
            given.add(value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value
                      else "-" if value is None else "")
    chars = given.pop() if len(given) == 1 else "-"
    return chars if len(chars) == 1 else "-"   # (`-+` and the like: not read here, as launch_setup.flag_table)


def _calls_function(call: Optional[str], func: str, method: bool) -> bool:
    if not call:
        return False
    if call == func:
        return True
    return method and call.endswith("." + func)


# what an `except` names that never catches what parse_args raises (SystemExit, or the type function's exception)
_NOT_CAUGHT = ("KeyboardInterrupt", "ImportError", "ModuleNotFoundError", "FileNotFoundError")


def _converted(flag: FlagDef) -> bool:
    """Whether the flag's type may refuse a word (int, float, ast.literal_eval), which stops the script in parse_args
    (values/launch_args._raises)."""
    node = flag.type_node
    return getattr(node, "id", None) in ("int", "float", "literal_eval") or \
        getattr(node, "attr", None) == "literal_eval"


def _catches_parse(node, own) -> bool:
    """Whether node is a `try` whose body calls parse_args, parse_known_args or one of the file's own functions (own)
    with a handler that may catch what it raises."""
    return isinstance(node, ast.Try) and any(_may_catch(h) for h in node.handlers) and any(
        isinstance(c, ast.Call) and (isinstance(c.func, ast.Attribute) and c.func.attr in
                                     ("parse_args", "parse_known_args") or
                                     isinstance(c.func, ast.Name) and c.func.id in own)
        for b in node.body for c in ast.walk(b))


def _may_catch(handler: ast.ExceptHandler) -> bool:
    """Whether an `except` may catch what parse_args raises: bare, or naming anything but _NOT_CAUGHT."""
    if handler.type is None:
        return True
    names = [n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(handler.type)
             if isinstance(n, (ast.Attribute, ast.Name))]
    return any(n not in _NOT_CAUGHT for n in names)
