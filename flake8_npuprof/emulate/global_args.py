"""A launch whose script has no profiler of its own, but imports a project module whose torch_npu profiler reads its
settings through a global accessor (Megatron-style: `args = get_args()` in `get_profiler()`, `is_profile_enabled()`):
that module's profiler replayed (torch_run.py) with the namespace this launch makes (values/global_args.py).

The namespace's options are the argparse definitions of every project module the script's imports reach (functions
that take a parser or a group and call `add_argument`), and, for the options of a framework that is not on disk, the
kind its own parser gives them (data/global_args.json); the launch's words are bound to them as argparse reads them.
A test on the way to the profiler that calls one of the module's own predicates (`if is_profile_enabled():`) is
decided here where its values are known, rank by rank for `torch.distributed.get_rank() in args.profile_ranks`.
Anything else stays as torch_run.py says it: what is not known is unknown, never guessed.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, List, Optional, Tuple

from ..knowledge import global_args as K
from ..source.prefilter import code_only, names_torch_npu
from ..values.global_args import AccessorLookup, Namespace, definition_shape, framework_flag, list_values
from ..values.launch_args import OPEN
from ..source.text import HOLE
from ..values.project import Module, for_file, load
from .message import opening_in_file
from ..values.resolve import FlagDef
from .pinned import pin

# the facts this module's claims rest on (data/sources.json; tests/test_audit.py holds them)
FACTS = ("global_args.accessors", "global_args.arguments", "global_args.set_at_run_time", "global_args.adapters",
         "global_args.pins", "global_args.choices_added")
MAX_MODULES = 512           # project modules read for the options they register (the script's imports, transitively)
OTHER_RANK = -(10 ** 9)     # a rank no option names: what every rank not listed does


def follow(w, launch, ls, target, environ):
    """imported.Followed for the launch, or None where no imported module profiles through an accessor."""
    from .imported import Followed
    lookup = for_file(ls.ctx.filename, ls.ctx.tree)
    if lookup is None:
        return None
    modules = _reached(lookup)
    hits = [m for m in modules if names_torch_npu(code_only(m.src.text))]
    frameworks = {f for m in hits for f in _frameworks(m)}
    if len(hits) != 1 or not (frameworks or _reads_own_accessor(lookup, hits[0])):
        return None
    module = hits[0]
    namespace = _namespace(launch, ls, [m for m in modules if m.may_define_flags], frameworks, w.root)
    if namespace is None:
        return None
    uses = tuple(sorted({parts[0] for m in [load(launch.script)] + modules if m is not None
                         for level, parts in m.refs if not level and parts}))
    if len(frameworks) == 1:            # the release the project pins decides the defaults the launch does not pass
        namespace.pin = pin(next(iter(frameworks)), launch.script, uses)
    where = os.path.relpath(module.path, os.path.dirname(launch.script)).replace(os.sep, "/")
    script = os.path.basename(launch.script)
    refused = "" if _unheld(frameworks, uses, lookup, launch.script) else _refused(namespace, launch, modules)
    if refused:
        return Followed("no profiling", f"{where}, which {script} imports, builds torch_npu's profiler, but {refused}",
                        False, None, ())
    adapted = _adapter(namespace)
    if adapted is not None and adapted[1]:
        return Followed("unknown", f"{where}, which {script} imports, builds torch_npu's profiler, but {adapted[0]}",
                        None, None, ())
    replayed = _replay(module, namespace, launch, target, environ, ls)
    if replayed is None:
        return None
    verdict, why, profiles, decided = replayed
    if adapted is not None:             # it may be the adapter's: the lines are torch_npu's, the answer not decided
        decided = [f"{adapted[0]}: these lines are torch_npu's (--ai-framework pytorch)"] + list(decided)
        if verdict != "unknown":
            verdict, why, profiles = "unknown", f"{why}; but {adapted[0]}", None
    # (the replay's lines are the module's: the one it opens with is named so, after the script's name)
    why = opening_in_file(why, os.path.basename(module.path))
    return Followed(verdict, f"{where}, which {script} imports: {why}", profiles, None, tuple(decided))


def _adapter(namespace: Namespace) -> Optional[Tuple[str, bool]]:
    """(why, certain) where torch_npu's profiler is, or may be, another framework's adapter of it in this launch
    (data/global_args.json `adapters`: MindSpeed-LLM's --ai-framework mindspore runs over MindSpore's msadapter):
    certain when the option's value is the adapter's; None where the launch keeps torch_npu (the option is not the
    project's, or its value is known and another)."""
    for dest, a in K.adapters().items():
        own = namespace.defs.get(dest, [])
        if not own:
            continue
        over = f"runs training over {a['adapter']}, whose code is not held here"
        g = namespace.given.get(dest)
        if g is not None and g.text is not None and HOLE not in g.text:
            if g.text == a["value"]:
                return f"{a['option']} {a['value']} ({g.where}) {over}: what it collects is not known", True
            continue
        if g is not None:
            return f"{a['option']} from {g.where} is not known statically, and {a['option']} {a['value']} {over}", \
                False
        if OPEN in namespace.given:
            return f"the unknown arguments at {namespace.given[OPEN].where} may pass {a['option']} {a['value']}, " \
                   f"which {over}", False
        defaults = {_default_text(f) for _, f in own}
        if len(defaults) != 1 or None in defaults:
            return f"{a['option']} is not passed and its default is not read here; {a['option']} {a['value']} " \
                   f"{over}", False
        if defaults == {a["value"]}:
            return f"{a['option']}'s default, {a['value']}, {over}: what it collects is not known", True
    return None


def _unheld(frameworks, uses: Tuple[str, ...], lookup, script: str) -> bool:
    """Whether the project imports a package that registers options into the framework's parser (data/global_args.json
    pins: MindSpeed) whose code it does not hold: such a package adds choices to the project's options at start-up
    (MindSpeed 028de58c: add_parser_argument_choices_value, `action.choices = ...`) and defines some again, so no
    refusal of a value is certain without it."""
    packages = {part["package"] for fw in frameworks for part in K.pins(fw).values() if part.get("package")}
    return any(lookup.module(script, 0, [p]) is None for p in packages if p in uses)


def _named_elsewhere(own, modules: List[Module]) -> bool:
    """Whether a place of the project other than the option's definitions names one of its option strings as a string
    (`self.add_parser_argument_choices_value(parser, "--context-parallel-algo", "mamba_cp_algo")`, MindSpeed-LLM
    c77308a1), or reaches an Action's choices (`act.choices`, `parser._actions`): its choices, or the option itself,
    may be changed there."""
    import re
    from ..values.argv_words import ACTION_ATTRS
    reach = re.compile(r"\.(?:%s)\b(?![ \t]*\()" % "|".join(ACTION_ATTRS))    # (not `random.choices(x)`)
    if any(reach.search(m.src.text) for m in modules):
        return True             # (`for act in parser._actions: ... act.choices.append(x)`: any option's may change)
    strings = {a.value for _, f in own for a in f.call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
               and a.value.startswith("-")}
    for option in strings:
        pattern = re.compile(r"""(['"])%s\1""" % re.escape(option))
        written = sum(len(pattern.findall(m.src.text)) for m in {id(m): m for m in modules}.values())
        if written > sum(1 for _, f in own if any(isinstance(a, ast.Constant) and a.value == option
                                                  for a in f.call.args)):
            return True
    return False


def _refused(namespace: Namespace, launch, modules: List[Module]) -> str:
    """Why argparse stops the job on a value the launch gives an option the project defines (once, or alike), which
    its definition refuses (launch_args.given_values: a choices= that does not hold it, a type= that raises on it),
    where every word before it is known and none is `--`: the parser the namespace comes from reads the launch's
    words in order and meets it whatever else it reads (parse_args and parse_known_args alike: python 3.9.18-3.13.0
    exit with status 2 at an invalid choice, tests/data/argparse_runs.json); "" where none does. A choices= name
    another module of the project names may be changed there: not said."""
    import re
    from ..values.argv_words import choices_node
    from ..values.ops import U
    from ..shell.parse import without_redirections
    words = list(without_redirections(launch.args))
    at = {id(w): k for k, w in enumerate(words)}
    script = load(launch.script)
    searched = modules + [script] if script is not None else modules
    found = []
    for dest, own in namespace.defs.items():
        g = namespace.given.get(dest)
        # (definitions whose choices= differ: which one the parser keeps is not known here)
        if g is None or id(g.word) not in at or own[0][1].kind != "argparse" or \
                len({(definition_shape(f), ast.dump(choices_node(f) or ast.Constant(None))) for _, f in own}) > 1:
            continue
        k = at[id(g.word)]
        if any(HOLE in w.text or w.text == "--" for w in words[:k]):
            continue
        module, flag = own[0]
        named = next((n.value.id for n in flag.call.keywords if n.arg == "choices" and isinstance(n.value, ast.Name)
                      and choices_node(flag) is not n.value), None)
        if named and any(m is not module and re.search(rf"\b{re.escape(named)}\b", m.src.text) for m in modules):
            continue
        module.resolver.steps, module.resolver.exhausted, module.resolver.given = 0, False, namespace.given
        try:
            values = module.resolver._flag_value(flag, 0, False)
        finally:
            module.resolver.given = None
        stops = next((v.stops for v in values if isinstance(v, U) and v.stops), "")
        if stops and not _named_elsewhere(own, searched):     # (the texts searched only for a value refused)
            found.append((k, stops))
    return min(found)[1] if found else ""


def _default_text(flag: FlagDef) -> Optional[str]:
    """A definition's default when it is a literal ("" for none, argparse's None), else None."""
    if not flag.has_default:
        return ""
    d = flag.default
    return d.value if isinstance(d, ast.Constant) and isinstance(d.value, str) else \
        "" if isinstance(d, ast.Constant) and d.value is None else None


def _reached(lookup) -> List[Module]:
    """The project modules the script imports, transitively, breadth first (more than values/project.py follows
    for absl flags: a Megatron-style project registers its options in modules far from the script)."""
    return lookup.imported_modules(MAX_MODULES)


def _frameworks(module: Module) -> List[str]:
    """The frameworks whose accessor the module imports (data/global_args.json)."""
    out = []
    for level, parts in module.refs:
        found = K.framework_of(".".join(parts)) if not level else None
        if found is not None:
            out.append(found)
    return out


def _reads_own_accessor(lookup, module: Module) -> bool:
    """Whether the module imports an accessor of the project's own (values/global_args.accessor)."""
    from ..values.global_args import accessor
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name != "*" and accessor(lookup, node, a.asname or a.name, []) is not None:
                    return True
    return False


def _namespace(launch, ls, modules: List[Module], frameworks, root: str) -> Optional[Namespace]:
    """The launch's namespace: its words bound to the project's definitions and the framework's options."""
    from ..checks.launch_setup import bind
    from ..values.project import load
    script = load(launch.script)
    if script is None:
        return None
    defs: Dict[str, list] = {}
    for module in [script] + modules:
        for f in module.resolver.flags if module is script or module.may_define_flags else ():
            if f.kind == "argparse":
                defs.setdefault(f.dest, []).append((module, f))
    theirs = {dest: framework_flag(dest, a["option"], a["kind"]) for fw in sorted(frameworks)
              for dest, a in K.arguments(fw).items() if dest not in defs}
    table: Dict[str, FlagDef] = {}
    for dest, found in defs.items():
        for a in found[0][1].call.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("-"):
                table.setdefault(a.value, found[0][1])
    for f in theirs.values():
        table.setdefault(f.option, f)
    given, _ = bind(launch, table, root)
    lists: Dict[str, list] = {}
    words = [x.text for x in launch.args]
    for f in {id(f): f for f in table.values()}.values():
        if not _takes_list(f) or f.dest not in given:
            continue
        option = given[f.dest].option              # the last time it is given, as argparse keeps it
        at = [i for i, x in enumerate(words) if x == option or x.startswith(option + "=")]
        if not at:
            continue
        if words[at[-1]] != option:
            items = [words[at[-1]][len(option) + 1:]]       # --x=v: one value
        else:
            items = []
            for x in words[at[-1] + 1:]:
                if x.startswith("-") and not x[1:].isdigit():
                    break
                items.append(x)
        if items and all(HOLE not in x for x in items):
            lists[f.dest] = list_values(f, items, given[f.dest].where)
    return Namespace(defs, given, lists, theirs)


def _takes_list(f) -> bool:
    return any(k.arg == "nargs" for k in f.call.keywords)


def _replay(module: Module, namespace: Namespace, launch, target, environ, ls):
    """(verdict, why, profiles, lines) of the module's torch_npu profiler replayed with the namespace."""
    from ..checks import run_all
    from ..checks.analysis import Context, Settings
    from ..source.text import SourceText
    from .framework_render import finish
    from .torch_run import replay
    from .replay import changes_directory
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    if changes_directory(ls.ctx.sites) or changes_directory(module.sites):
        cwd = None                      # the script or the module moves itself (os.chdir): where is not known
    namespace.cwd = cwd                 # where a relative --load is read from

    def context(tree):
        ctx = Context(SourceText(module.src.text), tree, module.path, Settings(target=target, cwd=cwd))
        ctx.resolver._project = AccessorLookup(module.path, tree, namespace)
        return ctx
    lines: List[str] = []
    tree, raised = _decided_tree(context(module.tree), lines)
    ctx = context(tree)
    run_all(ctx)
    profilers = replay(ctx, target, cwd, environ)
    if not profilers:
        return None
    holders = {f.name: (f.lineno, f.end_lineno or f.lineno) for f in ctx.tree.body if isinstance(f, ast.FunctionDef)}
    profilers = [_raised_before(p._replace(data=dict(p.data, _holder=next(
        (name for name, (a, b) in holders.items() if a <= p.line <= b), None))), raised,
        os.path.basename(module.path)) for p in profilers]
    profilers = [p._replace(data={k: v for k, v in p.data.items() if k != "_holder"}) for p in profilers]
    profilers = [_ranks(ctx, p, lines) for p in profilers]
    rep = finish(module.path, "torch_npu", profilers, target, cwd, environ is not None)
    name = os.path.basename(module.path)
    for p in profilers:
        lines.extend(f"{name}:{p.line} profile: {d}" for d in p.details
                     if d.startswith(("activities:", "schedule:", "steps recorded:", "output directory:")))
        lines.extend(f"{name}:{p.line} profile: {why}" for why in _unknown_schedule(ctx, p))
        lines.extend(f"{name}:{p.line} profile: {said}" for said in _finite_schedule(p))
        # what torch_npu resets or drops in this launch (the checks' findings on the values the launch gives: an
        # aic_metrics at the level --profile-level picks, a skip_first of -1), as `emulate SCRIPT` shows them
        lines.extend(f"{name}:{p.line} profile: ! {c}" for c in p.caveats)
    if rep["usable"] is True:
        return "collects", rep["why"] or f"torch_npu's profiler collects ({_headline(profilers)})", True, lines
    if rep["usable"] is None:
        return "unknown", rep["why"], None, lines
    verdicts = {p.verdict for p in profilers}
    if verdicts <= {"off"}:
        return "no profiling", rep["why"], False, lines
    return ("fails" if "fails" in verdicts else "collects nothing"), rep["why"], True, lines


def _finite_schedule(p) -> List[str]:
    """For a schedule that ends (repeat >= 1) stepped by a loop of unknown length: the steps it records and the traces
    it saves when the loop runs long enough (schedule_run.py), and how long that is."""
    from . import schedule_run as S
    data = p.data or {}
    sched = data.get("schedule")
    if not isinstance(sched, dict) or sched.get("repeat", 0) < 1 or data.get("loop_steps") is not None or \
            data.get("stepped") is not True:
        return []
    cycle = sched["wait"] + sched.get("warmup", 0) + sched["active"]
    bound = sched.get("skip_first", 0) + sched["wait"] + cycle * sched["repeat"]     # past its last active step
    last = max((k for k in range(bound) if S.action(sched, k) != S.NONE), default=None)
    if last is None or last >= S.MAX_STEPS:
        return []
    run = S.replay(sched, last + 1, True)
    if not run.recorded:
        return []
    saved = len(run.traces)
    return [f"steps recorded when the loop runs {last + 1} steps or more: {S.spans(run.recorded)} ({saved} trace"
            f"{'s' if saved != 1 else ''} saved)"]


def _unknown_schedule(ctx, p) -> List[str]:
    """Why the schedule's values are not known: each argument whose value is not, with the resolver's reason."""
    if (p.data or {}).get("schedule") is not None:
        return []
    call = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and n.lineno == p.line and
                 n.col_offset + 1 == p.column), None)
    sched = next((k.value for k in call.keywords if k.arg == "schedule"), None) if call is not None else None
    if not isinstance(sched, ast.Call):
        return []
    out: List[str] = []
    for k in sched.keywords:
        why = _reason(ctx, k.value, 0)
        if why:
            out.append(f"schedule's {k.arg} is not known: {why}")
    return out


def _reason(ctx, node, depth: int) -> str:
    """The first reason, inside an expression and the bindings of the names it reads, why its value is unknown."""
    from ..values.ops import U
    if depth > 4 or not isinstance(node, ast.expr):
        return ""
    scope = ctx.sites.scope_of.at(node, ctx.sites.module)
    unknown = [v.reason for v in ctx.resolver.eval(node, scope, ctx.pos(node), 0, None, False) if isinstance(v, U)]
    if not unknown:
        return ""
    said = [r for r in unknown if r not in ("computed value", "computed by +")]
    if said and not isinstance(node, ast.Name):
        return said[0]
    inner = [node] if not isinstance(node, ast.Name) else [
        b.value for b in ctx.resolver._bindings(node.id, scope, ctx.pos(node)) if b.value is not None]
    for part in inner:
        for child in ([part] if part is not node else []) + list(ast.iter_child_nodes(part)):
            found = _reason(ctx, child, depth + 1)
            if found:
                return found
    return said[0] if said else ""


def _headline(profilers) -> str:
    p = profilers[0]
    return f"line {p.line}: {p.why}"


# ---------------------------------------------------------------- the `if`s the namespace decides

def _decided_tree(ctx, lines: List[str]):
    """A copy of the module's tree with each `if` whose test the namespace decides (on every rank) replaced by the
    branch that runs, and `x = [a]` then `x.append(b)` in one body folded into `x = [a, b]`; and the `raise`s left
    at a function's top level, each with the tests that led there: {function name: (line, exception, why)}."""
    import copy
    truths: Dict[int, Tuple[bool, str]] = {}
    funcs = {id(f): f for f in ast.walk(ctx.tree) if isinstance(f, ast.FunctionDef)}
    owner: Dict[int, ast.FunctionDef] = {}
    for f in funcs.values():
        for n in ast.walk(f):
            owner.setdefault(id(n), f)
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.If) and id(node) in owner and _reads_namespace_only(ctx, owner[id(node)], node.test):
            truth = _truth(ctx, owner[id(node)], node.test, None)
            if truth is not None:
                truths[id(node)] = (truth, ast.get_source_segment(ctx.src.text, node.test) or "the test")
    tree = copy.deepcopy(ctx.tree)
    # the copy's nodes in the same order as the original's
    twins = {id(a): b for a, b in zip(ast.walk(ctx.tree), ast.walk(tree))}
    decided = {id(twins[k]): v for k, v in truths.items() if k in twins}
    raised: Dict[str, Tuple[int, str, str]] = {}
    for f in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Module))]:  # type: ignore[assignment]
        led: Dict[int, Tuple[str, ...]] = {}
        f.body = _pruned(f.body, decided, led)
        for stmt in f.body if isinstance(f, ast.FunctionDef) else ():
            if isinstance(stmt, ast.Raise):
                exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
                raised.setdefault(f.name, (stmt.lineno, ast.unparse(exc) if exc is not None else "an exception",
                                           "; ".join(led.get(id(stmt), ()))))
    return tree, raised


def _pruned(body: list, decided, led: Dict[int, Tuple[str, ...]]) -> list:
    """The statements that run; led: id(statement) -> the decided tests on the way to it."""
    out: list = []
    for stmt in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                setattr(stmt, field, _pruned(inner, decided, led) or ([ast.Pass()] if field == "body" else []))
        if isinstance(stmt, ast.If) and id(stmt) in decided:
            truth, text = decided[id(stmt)]
            taken = [s for s in (stmt.body if truth else stmt.orelse) if not isinstance(s, ast.Pass)]
            for s in taken:
                led[id(s)] = (f"`{text}` is {'true' if truth else 'false'}",) + led.get(id(s), ())
            out.extend(taken)
            continue
        out.append(stmt)
    return _folded(out)


def _folded(body: list) -> list:
    """`x = [a]` then `x.append(b)` (statements of one body, x not bound again between) as `x = [a, b]`."""
    out: list = []
    lists: Dict[str, ast.List] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            lists.pop(name, None)
            if isinstance(stmt.value, ast.List):
                lists[name] = stmt.value
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
                isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "append" and \
                isinstance(stmt.value.func.value, ast.Name) and stmt.value.func.value.id in lists and \
                len(stmt.value.args) == 1 and not stmt.value.keywords:
            lists[stmt.value.func.value.id].elts.append(stmt.value.args[0])
            continue
        else:
            lists = {k: v for k, v in lists.items() if not any(
                isinstance(n, ast.Name) and n.id == k for n in ast.walk(stmt))}
        out.append(stmt)
    return out


def _reads_namespace_only(ctx, func: ast.FunctionDef, test: ast.AST) -> bool:
    """Whether a test reads nothing but the namespace (`args.x` with `args = get_args()` in the function), constants
    and `...get_rank()`: a local the function changes as it runs (`iteration += 1` in a loop) is never decided."""
    from ..source.sites import dotted
    from ..values.global_args import accessor
    lookup = ctx.resolver._project
    ranks = {id(n.func) for n in ast.walk(test) if isinstance(n, ast.Call) and not n.args and
             (dotted(n.func) or "").endswith("get_rank")}
    for n in ast.walk(test):
        if isinstance(n, ast.Call) and id(n.func) not in ranks:
            return False
        if not isinstance(n, ast.Name) or any(id(n) == r or _inside(n, r, test) for r in ranks):
            continue
        kinds = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr, ast.Global, ast.Nonlocal)
        binds = [b for b in ast.walk(func) if isinstance(b, kinds) and n.id in _bound_names(b)]
        if len(binds) != 1 or not isinstance(binds[0], ast.Assign) or not isinstance(binds[0].value, ast.Call) or \
                binds[0].value.args or not isinstance(binds[0].value.func, ast.Name):
            return False
        head = binds[0].value.func.id
        imports = [st for st in ctx.tree.body if isinstance(st, ast.ImportFrom) and
                   any((a.asname or a.name) == head for a in st.names)]
        if len(imports) != 1 or accessor(lookup, imports[0], head, []) is None:
            return False
    return True


def _inside(node: ast.AST, func_id: int, test: ast.AST) -> bool:
    """Whether node is part of the called function's name (`torch.distributed` of `torch.distributed.get_rank`)."""
    for n in ast.walk(test):
        if id(n) == func_id:
            return any(m is node for m in ast.walk(n))
    return False


def _bound_names(stmt: ast.AST) -> set:
    if isinstance(stmt, (ast.Global, ast.Nonlocal)):
        return set(stmt.names)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)] if not isinstance(
        stmt, ast.With) else [i.optional_vars for i in stmt.items]
    return {n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)}


def _raised_before(p, raised, name: str):
    """A profiler whose function raises, at its top level, before the profiler is made: it fails there (line N of
    the module, name: the answer opens with the line of the launched script that imports it)."""
    for _name, (line, exc, why) in raised.items():
        if _name == p.data.get("_holder") and line < p.line and p.verdict != "off":
            return p._replace(verdict="fails", why=f"line {line} of {name} raises {exc} before the profiler is made"
                              + (f" ({why} in this launch)" if why else ""))
    return p


# ---------------------------------------------------------------- the module's own predicates, rank by rank

def _ranks(ctx, p, lines: List[str]):
    """The profiler with each condition that calls a predicate of the module (`is_profile_enabled()`) decided
    with the namespace: dropped where it holds on every rank, `off` where it holds on none, said per rank where
    it holds on some."""
    kept = []
    for text in p.conditions + _caller_guards(ctx, p):
        func = _predicate(ctx, text)
        if func is None:
            kept.append(text)
            continue
        ranks = _probe_ranks(ctx, func)
        outcome = {r: _run_predicate(ctx, func, r) for r in ranks}
        if None in outcome.values():
            kept.append(text)
            lines.extend(f"`{text}` is not decided in this launch: {why}" for why in _unknown_defaults(ctx, func))
            continue
        if all(outcome.values()):
            lines.append(f"`{text}` is true on every rank in this launch")
            continue
        on = sorted(r for r, v in outcome.items() if v and r != OTHER_RANK)
        if not on:
            said = f"`{text}` is false in this launch{_pinned_defaults(ctx, func)}"
            lines.append(said)
            return p._replace(verdict="off", why=f"not run in this launch: {said}", conditions=())
        said = f"`{text}` holds on rank{'s' if len(on) > 1 else ''} {', '.join(map(str, on))} only"
        lines.append(f"{said} (torch.distributed.get_rank()): the other ranks do not profile")
        kept.append(f"{text}: on rank{'s' if len(on) > 1 else ''} {', '.join(map(str, on))} only")
    return p._replace(conditions=tuple(kept))


def _pinned_defaults(ctx, func) -> str:
    """How the release the project pins gave the framework's options their values in this launch (` (--profile is
    not passed: False by default in Megatron-LM core_v0.12.1 (...))`), or ""."""
    namespace = getattr(getattr(ctx.resolver, "_project", None), "namespace", None)
    pin = getattr(namespace, "pin", None)
    if namespace is None or pin is None:
        return ""
    # (the predicate's body is the one the launch's values pruned: what it read is what the namespace handed out)
    return "".join(f" ({option} is not passed: {pin.defaults[dest]} by default in {pin.said})"
                   for dest, option in namespace.pinned_read.items())


def _unknown_defaults(ctx, func) -> List[str]:
    """Why each of the framework's options the predicate reads (`args.profile`) is not known in this launch: not
    passed, and its default neither the project's nor a pinned release's (values/global_args.Namespace)."""
    lookup = getattr(ctx.resolver, "_project", None)
    namespace = getattr(lookup, "namespace", None)
    if namespace is None:
        return []
    framework = next(iter(set(getattr(lookup, "read", {}).values())), None)
    read = dict.fromkeys(n.attr for n in ast.walk(func) if isinstance(n, ast.Attribute))
    return [why for why in (namespace.unknown_default(dest, framework) for dest in read) if why]


def _caller_guards(ctx, p) -> Tuple[str, ...]:
    """The tests every call of the profiler's function is under (`if is_profile_enabled(): prof = get_profiler()`),
    where that function is one of the module's top-level ones and the module calls it."""
    from ..setups.reach import guard_text
    holder = next((f for f in ctx.tree.body if isinstance(f, ast.FunctionDef) and
                   f.lineno <= p.line <= (f.end_lineno or f.lineno)), None)
    if holder is None:
        return ()
    calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
             n.func.id == holder.name]
    if not calls:
        return ()
    common = None
    for c in calls:
        tests = set(guard_text(tuple(g for g in ctx.sites.guards_of.at(c, ()) if not isinstance(g.test, ast.Constant))))
        common = tests if common is None else common & tests
    return tuple(t for t in sorted(common or ()) if t not in p.conditions)


def _predicate(ctx, text: str) -> Optional[ast.FunctionDef]:
    """The module's top-level function a condition `name()` calls, when it takes no argument."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args and not node.keywords):
        return None
    found = [n for n in ctx.tree.body if isinstance(n, ast.FunctionDef) and n.name == node.func.id]
    return found[0] if len(found) == 1 and not found[0].args.args else None


def _probe_ranks(ctx, func: ast.FunctionDef) -> List[int]:
    """The ranks worth asking about: those the namespace's lists name, and one they do not."""
    out = {OTHER_RANK}
    for node in ast.walk(func):
        if isinstance(node, ast.Compare):
            for v in _values(ctx, func, node.comparators[0], None) or []:
                if isinstance(v, list):
                    out.update(x for x in v if isinstance(x, int))
    return sorted(out)


def _run_predicate(ctx, func: ast.FunctionDef, rank: int) -> Optional[bool]:
    """What `func()` returns on this rank: its body read as assignments, `if TEST: return CONST` and a last
    `return CONST`; None where a test or a statement is not of that form or not known."""
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue                                    # a docstring
        if isinstance(stmt, ast.Assign):
            continue                                    # `args = get_args()`: read through the resolver
        if isinstance(stmt, ast.Return):
            return _constant(stmt.value)
        if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 and \
                isinstance(stmt.body[0], ast.Return):
            truth = _truth(ctx, func, stmt.test, rank)
            if truth is None:
                return None
            if truth:
                return _constant(stmt.body[0].value)
            continue
        return None
    return None


def _constant(node) -> Optional[bool]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, bool) else None


def _truth(ctx, func, test, rank) -> Optional[bool]:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(ctx, func, test.operand, rank)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [_truth(ctx, func, v, rank) for v in test.values]
        decisive = isinstance(test.op, ast.Or)
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = _values(ctx, func, test.left, rank), _values(ctx, func, test.comparators[0], rank)
        if left is None or right is None or len(left) != 1 or len(right) != 1:
            return None
        a, b, op = left[0], right[0], test.ops[0]
        try:
            if isinstance(op, ast.Eq):
                return bool(a == b)
            if isinstance(op, ast.NotEq):
                return bool(a != b)
            if isinstance(op, ast.In):
                return a in b
            if isinstance(op, ast.NotIn):
                return a not in b
            if isinstance(op, ast.Lt):
                return bool(a < b)
            if isinstance(op, ast.Gt):
                return bool(a > b)
            if isinstance(op, ast.LtE):
                return bool(a <= b)
            if isinstance(op, ast.GtE):
                return bool(a >= b)
        except TypeError:
            return None
        return None
    values = _values(ctx, func, test, rank)
    return bool(values[0]) if values is not None and len(values) == 1 else None


def _values(ctx, func, node, rank) -> Optional[list]:
    """Python values of an expression in func: a rank for `...get_rank()`, a literal, or the resolver's constants
    (a list of them for an option taking a list); None when not known."""
    from ..source.sites import dotted
    from ..values.ops import C, L, S
    if isinstance(node, ast.Call) and (dotted(node.func) or "").endswith("get_rank") and not node.args:
        return None if rank is None else [rank]
    try:
        return [ast.literal_eval(node)]
    except (ValueError, SyntaxError, TypeError):
        pass
    scope = next((s for s in ctx.sites.scopes if s.node is func), ctx.sites.module)
    found = ctx.resolver.eval(node, scope, ctx.pos(node), 0, None, False)
    out = []
    for v in found:
        if isinstance(v, C):
            out.append(v.value)
        elif isinstance(v, S) and not v.is_bytes and HOLE not in v.value.text:
            out.append(v.value.text)
        elif isinstance(v, L) and all(isinstance(x, C) for x in v.items):
            out.append([x.value for x in v.items])
        else:
            return None
    return out or None
