"""A launch whose script has no profiling setup of its own, followed into the project modules it imports: the
setups of such a module (GNMT: nmt.py imports estimator.py, whose train_fn builds the ProfilingConfig) replayed
with the launch's flags and environment, as far as the code shows.

Where a module is found: first on the launch's own sys.path, as Python builds it (sys_path.py), for the script's
imports and for those of the modules it imports alike; then where values/project.py looks for any file.

What is followed (the sibling modules values/project.py finds, as the script imports them when launched):
- the flags: absl's registry is one per process, so `FLAGS.profiling` in the module is the flag the script (or a
  module it imports) defines, with the value the launch passes; an argparse namespace handed to a function is the
  script's flags only where the script's calls are the function's only ones in the launch and each hands it
  parse_args()'s result (values/passed_args.py), else a parameter whose tests stay conditions, said with why;
- whether the setup's code runs: a setup at the module's top level runs when the script imports the module at its
  own top level; one in a top-level function, or a method of a top-level class, runs when code of the script that
  its entry point reaches names that function or class (setups/reach.py's rule, inside one file), under the `if`s
  on the way, which the launch's flags decide where they can. Anything else (a function the module's own code
  calls, a module imported through another) is not followed: whether it runs stays unknown, never "no".
"""

from __future__ import annotations

import ast
import os
import re
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..source.prefilter import PROFILING_WORDS
from ..values.project import Module, load
from .sys_path import LaunchLookup, launch_lookup

# profiling a module may do that the TF replay does not model (torch / torch_npu / MindSpore profilers, msprof
# through a subprocess, the model zoo's Profile): a module naming one is not answered for here
OTHER_ROUTES = re.compile(r"torch[\w.]*\.profiler|torch\.npu\.profile|autograd\.profiler|npu\.profile\(|"
                          r"(?:from|import)\s+[\w.]*profiler\b|mindspore|msprof|E2E_PROF|prof_type|PROF_CONFIG_PATH|"
                          r"MS_PROFILER_OPTIONS|torch_npu")
MAX_FOLLOWED = 4            # imported modules naming profiling whose setups are replayed for one launch
FACTS = ("python.absl_flags_unparsed",)    # data/sources.json (tests/test_audit.py)


class Followed(NamedTuple):
    verdict: str            # as sequence.Run: collects, fails, collects nothing, no profiling, unknown
    why: str
    profiles: Optional[bool]
    report: Optional[dict] = None   # the module's replay (replay.finish), when one module decides
    decided: Tuple[str, ...] = ()   # how the launch's flags decided the module's `if`s, for the launch's lines


class _LaunchLookup(LaunchLookup):
    """The imported module's lookup, which also sees the absl flags the launched script and its imports define
    (absl keeps one registry per process: a flag defined in nmt.py is FLAGS.x in estimator.py too)."""

    def __init__(self, filename: str, tree: ast.AST, launched: str, launched_tree: ast.AST, sys_path: Tuple[str, ...]):
        super().__init__(filename, tree, sys_path)
        self.launched = (launched, launched_tree)
        self._theirs: Optional[list] = None         # the launched script's module and the modules it imports

    # (function, parameter) -> why it is not shown to hold the launched script's parse_args() result, or "": set by
    # _module, for `def session_config(args): if args.profiling:` called by the script as session_config(args)
    handed: Optional[Callable[[ast.AST, str], str]] = None

    def value_of(self, resolver, node: ast.AST, scope, pos: int, switch: bool, binding=None) -> Optional[list]:
        found = super().value_of(resolver, node, scope, pos, switch, binding)
        if found is not None or self.handed is None or resolver.given is None:
            return found
        return self._handed_flag(resolver, node, scope, pos, switch)

    def _handed_flag(self, resolver, node: ast.AST, scope, pos: int, switch: bool) -> Optional[list]:
        """`args.x` where `args` is a parameter the launched script hands its parse_args() result: its flag `x` as
        the launch passes it, where the script defines it and assigns no `.x` (values/passed_args.py)."""
        from ..values.passed_args import parameter_of
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return None
        found = parameter_of(resolver, node.value, scope, pos)
        handed = self.handed
        if found is None or handed is None or handed(*found):
            return None
        script = load(self.launched[0])
        defs = [f for f in script.resolver.flags if f.dest == node.attr and f.kind == "argparse"] if script else []
        if script is None or not defs or any(
                isinstance(n, ast.Attribute) and n.attr == node.attr and not isinstance(n.ctx, ast.Load) or
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("setattr", "vars")
                for n in ast.walk(self.launched[1])):
            return None             # (a flag the script assigns is not the launch's: launch_setup.scalars)
        self.given = resolver.given
        return self._flag_values(script, defs[0], (resolver.src.node_start(node), resolver.src.node_end(node)),
                                 switch)

    def flag_def(self, dest: str, kind: Optional[str] = None):
        found = super().flag_def(dest, kind)
        if found is not None:
            return found
        if self._theirs is None:
            script = load(self.launched[0])
            self._theirs = ([script] if script is not None else []) + \
                LaunchLookup(*self.launched, self.sys_path).imported_modules()
        for module in self._theirs:
            if module.path == self.filename or not module.may_define_flags:
                continue
            for f in module.resolver.flags:
                if f.dest == dest and (kind is None or f.kind == kind):
                    return module, f
        return None


def follow(w, launch, ls, target, base, environ, judge) -> Optional[Followed]:
    """The launch's answer from the setups of the project modules its script imports; None where those modules
    cannot be named (too many imports) or none of them has a setup emulate models. judge: sequence.py's
    (verdict of a launch's report, cause of one result), handed in (sequence.py imports this module)."""
    lookup = launch_lookup(ls)
    if lookup is None:
        return None
    hits = [m for m in lookup.imported_modules() if PROFILING_WORDS.search(m.src.text)]
    if not hits or len(hits) > MAX_FOLLOWED:
        return None
    script = os.path.basename(launch.script)
    answers: List[Tuple[Module, Followed]] = []
    for module in hits:
        answer = _module(w, launch, ls, module, lookup, target, base, environ, judge)
        if answer is None:
            return None                 # it names profiling emulate does not model: as before, unknown
        answers.append((module, answer))
    where = lambda m: os.path.relpath(m.path, os.path.dirname(launch.script)).replace(os.sep, "/")  # noqa: E731
    live = [(m, a) for m, a in answers if a.verdict != "no profiling"]
    if not live:
        return Followed("no profiling", "; ".join(f"{where(m)}, which {script} imports: {_own(a.why, m)}"
                                                  for m, a in answers),
                        False, answers[0][1].report if len(answers) == 1 else None,
                        tuple(d for _, a in answers for d in a.decided))
    if len(live) > 1:
        return Followed("unknown", f"{script} imports {len(live)} modules with profiling setups ("
                        f"{', '.join(where(m) for m, _ in live)}): which of them runs is not settled here", None)
    m, a = live[0]
    return a._replace(why=f"{where(m)}, which {script} imports: {_own(a.why, m)}")


def _own(why: str, module: Module) -> str:
    """A module's answer after the script's name: the line it opens with named as the module's (message.py)."""
    from .message import opening_in_file
    return opening_in_file(why, os.path.basename(module.path))


def _module(w, launch, ls, module: Module, lookup, target, base, environ, judge) -> Optional[Followed]:
    from ..checks.launch_setup import decide
    from ..setups.inventory import Inventory
    from .launcher import launch_env
    from .replay import Planner, changes_directory, finish
    _verdict, _cause = judge
    if OTHER_ROUTES.search(module.src.text):
        return None
    made = module_context(ls, module, lookup, target, launch.command.cwd[0])
    if made is None:
        return None
    ctx, project = made
    tree = ctx.tree
    cwd = launch.command.cwd[0]
    inventory = Inventory(ctx)
    if not inventory.setups:
        return None
    setups: list = []
    guarded: list = []
    decided: List[str] = []
    for s in inventory.setups:
        s = _own_conditions(ctx, s)
        s, how, _ = decide(ctx, s, ls.given)
        decided.extend(f"{os.path.basename(module.path)}: {d}" for d in how)
        s = _reached_from(ls, module, lookup, ctx, s)
        s = _never_read_again(ls, module, lookup, tree, s)
        (setups if s.reached is not False else guarded).append(s)
    name = os.path.basename(module.path)
    stopped = _after_a_stop(ls, module, lookup, ctx, setups)
    if stopped:
        return Followed("no profiling", stopped, False, None, tuple(decided))
    if not setups:
        return Followed("no profiling", f"its setup{'s' if len(guarded) > 1 else ''} (line "
                        f"{', '.join(str(s.line) for s in guarded)}) run{'' if len(guarded) > 1 else 's'} only under "
                        f"{name}'s own `if __name__ == \"__main__\":`, which is false when it is imported", False)
    env, _ = launch_env(launch, base, w.root, environ)
    run_cwd = None if changes_directory(ctx.sites) or changes_directory(ls.ctx.sites) else cwd
    results = Planner(setups, inventory.inits, inventory.order, target, run_cwd, env,
                      context=module.src.text).results()
    from .replay import _rel
    report = finish(_rel(module.path, os.getcwd()), results, target, run_cwd, env, None, None, False)
    verdict, why, profiles = _verdict(launch._replace(missing=""), report)
    open_ = [r for r in results if r.read_by_ge is not False and r.verdict != "off" and
             (r.setup.conditions or r.setup.reached is None)]
    if verdict != "no profiling" and open_:
        # whether it runs, or a test the launch's flags do not decide (a parameter, a value computed at run time):
        # never guessed
        r = open_[0]
        when = " and ".join(f"`{c}`" for c in r.setup.conditions)
        cause = _cause(report, r._replace(setup=r.setup._replace(conditions=())))  # (they are said in the sentence)
        outcome = r.verdict.replace("_", " ") + (f" when {when}" if when else "")
        head = f"line {r.setup.line} {r.setup.route}"
        if r.setup.reached is None:
            text = (f"{head}: {r.setup.unknown_reach}, so whether this code runs is not known here (if it runs: "
                    f"{outcome}: {cause})")
        else:
            why = _why_open(ctx, r.setup, project)
            text = f"{head} {outcome} ({cause}); whether that holds in this launch is not known here{why}"
        return Followed("unknown", text, None, report, tuple(decided))
    return Followed(verdict, _placed(results, why, verdict), profiles, report, tuple(decided))


def module_context(ls, module: Module, lookup, target, cwd):
    """(checks.analysis.Context, its project lookup) of an imported module read with the launch's flags: an argparse
    namespace handed to its functions is the script's flags where values/passed_args.py shows it (_handed); None
    where the module does not parse."""
    from ..checks.analysis import Context, Settings
    from ..source.text import SourceText
    try:
        tree = ast.parse(module.src.text, module.path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    ctx = Context(SourceText(module.src.text), tree, module.path, Settings(target=target, cwd=cwd))
    ctx.resolver.given = ls.given
    project = _LaunchLookup(module.path, tree, ls.ctx.filename, ls.ctx.tree, lookup.sys_path)
    kept: Dict[tuple, str] = {}
    project.handed = lambda func, param: kept[(id(func), param)] if (id(func), param) in kept else \
        kept.setdefault((id(func), param), _handed(ls, module, tree, lookup, func, param))
    ctx.resolver.use_project(project)
    return ctx, project


class _Code(NamedTuple):
    """A piece of a module's code, as _reached_from reads a setup."""
    anchor: ast.AST
    condition: str = ""
    conditions: Tuple[str, ...] = ()
    path: tuple = ()
    reached: Optional[bool] = True
    entry: int = 0
    unknown_reach: str = ""


def runs_in_launch(ls, module: Module, lookup, ctx, node: ast.AST) -> Tuple[Optional[bool], Tuple[str, ...], str]:
    """(runs, the conditions left, why) of code of an imported module (a profiler call in a function the script
    calls): True with the tests the launch's flags leave open (why: why one of the script's is not decided, or ""),
    None with why it is not known, False with why where
    the script names the function only in code the launch's flags make not run and nothing else of the job names it
    (the module's own code, the other modules the script imports), which _reached_from alone leaves unknown."""
    from types import SimpleNamespace
    from ..checks.launch_setup import false_in_launch, unsettled_in_launch
    from ..setups.reach import guard_text
    # its own `if`s, which the flags handed to its function decide where the module's values show them
    scope = ctx.sites.scope_of.at(node, ctx.sites.module)
    open_ = []
    for g in ctx.sites.guards_of.at(node, ()):
        if isinstance(g.test, ast.Constant):
            continue
        truth = _truth(SimpleNamespace(ctx=ctx), g.test, scope, ctx.pos(node))
        if truth is None:
            open_.append(g)
        elif truth == g.negated:
            return False, (), (f"`{guard_text((g,))[0]}` ({os.path.basename(module.path)}:{g.test.lineno}) is false "
                               "with this launch's flags")
    s = _Code(node, conditions=guard_text(tuple(open_)), reached=True)
    s = _reached_from(ls, module, lookup, ctx, s)
    holder = scope
    while holder is not None and holder.parent is not None and holder.parent.parent is not None:
        holder = holder.parent
    refs = _references(ls, module, lookup, holder.node.name) if holder is not None and holder.kind == "function" \
        else []
    if s.reached is not None:
        # a test of the script's the launch leaves open: why (`args` not shown to be parse_args()'s result)
        why = next((w for w in (unsettled_in_launch(ls.ctx, n) for n, _ in refs) if w), "") if s.conditions else ""
        return s.reached, s.conditions, why
    if holder is None or holder.kind != "function" or holder is not scope:
        return None, (), s.unknown_reach
    name = holder.node.name
    falses = [false_in_launch(ls.ctx, n) for n, _ in refs]
    if not refs or not all(falses) or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(ctx.tree)):
        return None, (), s.unknown_reach
    word = re.compile(rf"\b{re.escape(name)}\b")
    stem = os.path.splitext(os.path.basename(module.path))[0]
    for other in lookup.imported_modules():
        if other.path != module.path and word.search(other.src.text) and _names(other.tree, name, stem) is not None:
            return None, (), s.unknown_reach
    script = os.path.basename(ls.ctx.filename)
    lines = ", ".join(str(n.lineno) for n, _ in refs)
    return False, (), (f"{script} calls {name}() only at line{'s' if len(refs) > 1 else ''} {lines}, where "
                       f"{falses[0]}")


def _after_a_stop(ls, module: Module, lookup, ctx, setups) -> str:
    """Why none of the module's setups runs where the script stops in its parse_args in this launch (given.stop) and
    each is in a module-level function the script calls only after that parse_args (checks/launch_setup.after_parse),
    which no other code of the module or of the modules the script imports names; "" otherwise."""
    from ..checks.launch_setup import after_parse
    given = ls.given
    stop = getattr(given, "stop", "")
    if not setups or not stop or getattr(given, "unsure", False):
        return ""
    functions = {}
    for s in setups:
        if s.anchor is None:
            return ""
        holder = ctx.sites.scope_of.at(s.anchor, ctx.sites.module)
        while holder is not None and holder.parent is not None and holder.parent.parent is not None:
            holder = holder.parent
        if holder is None or holder.kind != "function":
            return ""                   # (module-level code runs at the import, before parse_args)
        functions[holder.node.name] = s
    stem = os.path.splitext(os.path.basename(module.path))[0]
    for fn in functions:
        refs = _references(ls, module, lookup, fn)
        if not refs or not all(after_parse(ls.ctx, n) for n, _ in refs) or \
                any(isinstance(n, ast.Name) and n.id == fn for n in ast.walk(ctx.tree)):
            return ""
        word = re.compile(rf"\b{re.escape(fn)}\b")
        if any(other.path != module.path and word.search(other.src.text) and _names(other.tree, fn, stem) is not None
               for other in lookup.imported_modules()):
            return ""
    lines = ", ".join(str(s.line) for s in setups)
    return (f"line{'s' if len(setups) > 1 else ''} {lines} of {os.path.basename(module.path)}: not run in this launch "
            f"(in {', '.join(f + '()' for f in functions)}, which {os.path.basename(ls.ctx.filename)} calls only "
            f"after its parse_args): {stop}")


def _placed(results, why: str, verdict: str) -> str:
    """The cause with the module's line it comes from (the module's lines are not the script's; an unknown answer's
    reasons name theirs)."""
    read = [r for r in results if r.read_by_ge is not False] or results
    return f"line {read[0].setup.line}: {why}" if read and verdict != "unknown" else why


def _own_conditions(ctx, s):
    """The setup with only its own `if`s as conditions: the module's own entry point does not run on import (its
    main guard is false there), so the way from it is not the way the launch takes."""
    from ..setups.reach import guard_text
    own = guard_text(tuple(g for g in ctx.sites.guards_of.at(s.anchor, ()) if not isinstance(g.test, ast.Constant)))
    conditions = own + ((s.condition,) if s.condition else ())
    return s._replace(conditions=conditions, path=(), reached=True, entry=0, unknown_reach="")


def _reached_from(ls, module: Module, lookup, ctx, s):
    """Whether the launched script reaches the setup's code: the top level of the module (imported at the script's
    top), or a top-level function or class the script's reached code names; the conditions on its way, decided by
    the launch's flags where they can be. Not known: reached None, and why."""
    from ..setups.reach import guard_text, is_main_guard, reach_of
    script = os.path.basename(ls.ctx.filename)
    name = os.path.basename(module.path)
    scope = ctx.sites.scope_of.at(s.anchor, ctx.sites.module)
    holder = scope
    while holder is not None and holder.parent is not None and holder.parent.parent is not None:
        holder = holder.parent
    if scope is ctx.sites.module or holder is None:
        if any(is_main_guard(g) for g in ctx.sites.guards_of.at(s.anchor, ())):
            return s._replace(reached=False, entry=1, unknown_reach="")     # its main guard: never on import
        if _imported_at_top(ls, module, lookup):
            return s
        return _not_known(s, f"{script} imports {name} other than at its top level (inside a function, a branch "
                          "or through another module)")
    # a top-level function, or the `__init__` of a top-level class (making an instance runs it)
    init = holder.kind == "class" and scope.parent is holder and scope.kind == "function" and \
        scope.node.name == "__init__"
    if not (holder.kind == "function" and scope is holder) and not init:
        return _not_known(s, f"the setup is inside code of {name} that {script} does not name itself")
    target = holder.node.name
    refs = _references(ls, module, lookup, target)
    if not refs:
        if _called_at_top(ctx.tree, target) and _imported_at_top(ls, module, lookup):
            return s                    # Word2vec's config.py ends with `npu_config()`: importing it runs it
        return _not_known(s, f"{script} does not name {target} of {name} itself (other code may call it)")
    reach = reach_of(ls.ctx.sites)
    ways: List[Tuple[str, ...]] = []
    unknown = False
    for node, node_scope in refs:
        state = reach.of(node)
        if state is None:
            unknown = True
            continue
        if state is False:
            continue
        path = reach.path(node)
        guards = [(g, sc, p) for g, sc, p in path.guards] if path.exact else None
        own = [(g, node_scope, ls.ctx.pos(node)) for g in ls.ctx.sites.guards_of.at(node, ())
               if not is_main_guard(g) and not isinstance(g.test, ast.Constant)]
        if guards is None:
            ways.append(path.texts + guard_text(tuple(g for g, _, _ in own)))
            continue
        truth = _decided(ls, guards + own)
        if truth is False:
            continue
        # the tests the flags leave open (those they decide true are no condition)
        ways.append(() if truth is True else guard_text(tuple(
            g for g, sc, p in guards + own if _truth(ls, g.test, sc, p) != (not g.negated))))
    if any(not way for way in ways):
        return s
    if ways:
        return s._replace(conditions=s.conditions + tuple(f"{script}: {t}" for t in ways[0]))
    if unknown:
        return _not_known(s, f"{script} names {target} of {name}, but whether its entry point reaches that code "
                          "is not known")
    return _not_known(s, f"{script} names {target} of {name} only in code this launch does not run")


# attributes read by a name computed at run time (`getattr(obj, name)`, `getattr(make(), name)`, `vars(obj)`,
# `obj.__dict__`, attrgetter), or code the job loads that is not among the modules it imports
# (`importlib.import_module("reader")`, `__import__`, `exec`, runpy)
_COMPUTED_READ = re.compile(r"getattr\(\s*(?:[^,()]|\([^()]*\))+,\s*[^'\"\s]|(?<![\w.])vars\(|__dict__|attrgetter|"
                            r"getmembers|import_module|__import__|(?<![\w.])exec\(|runpy|spec_from_file_location")


def _never_read_again(ls, module: Module, lookup, tree, s):
    """A config a method stores on its object and no code of the job reads again (VGG16's create_session.py:
    `self.profiling_config = ProfilingConfig(...)` in a class with no base from elsewhere, whose name is in no other
    line of the launched script or of the project modules it imports, none of which reads attributes by a computed
    name): nothing hands it to GE (ProfilingConfig's constructor only keeps its arguments). Else the setup as it was
    (the module alone cannot tell, and says so)."""
    if s.delivered != "unknown" or s.unseen or s.route != "ProfilingConfig":
        return s
    found = None
    for klass in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        if any(not (isinstance(b, ast.Name) and b.id == "object") for b in klass.bases) or klass.keywords or \
                klass.decorator_list:
            continue                # a base from elsewhere may read its own attributes (an NPURunConfig subclass)
        for node in (n for f in klass.body if isinstance(f, ast.FunctionDef) for n in ast.walk(f)):
            if isinstance(node, ast.Assign) and node.value is s.anchor and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Attribute) and isinstance(node.targets[0].value, ast.Name) and \
                    node.targets[0].value.id == "self":
                found = node
    if found is None:
        return s
    name = found.targets[0].attr                    # type: ignore[attr-defined]
    from ..values.project import MAX_IMPORTED
    others = lookup.imported_modules()
    if len(others) >= MAX_IMPORTED:
        return s                    # (more modules than are listed: one not listed may read it)
    word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    texts = [ls.ctx.src.text] + [m.src.text for m in others if m.path != module.path]
    if len(word.findall(module.src.text)) != 1 or any(word.search(t) for t in texts) or \
            any(_COMPUTED_READ.search(t) for t in texts + [module.src.text]):
        return s
    script = os.path.basename(ls.ctx.filename)
    n = len(others)
    return s._replace(delivered="replaced", lost=(
        f"stored as `self.{name}`, which no code of the job reads again ({script} and the {n} "
        f"project module{'' if n == 1 else 's'} it imports): nothing hands it to GE"))


def _called_at_top(tree, name: str) -> bool:
    """Whether the module's own top level calls `name()` (`npu_config()`, `x = Setup()`), outside any `if`, loop or
    `try`: a statement that runs whenever the module is imported. Not in a module reading absl's FLAGS: on import,
    before app.run() parses them, reading one raises (UnparsedFlagAccessError)."""
    if any(isinstance(n, ast.Name) and n.id == "FLAGS" or isinstance(n, ast.Attribute) and n.attr == "FLAGS"
           for n in ast.walk(tree)):
        return False
    for stmt in tree.body:
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == name:
            return True
    return False


def _not_known(s, why: str):
    return s._replace(reached=None, entry=1, unknown_reach=why)


def _decided(ls, guards) -> Optional[bool]:
    """All the `if`s hold with this launch's flags (True), one does not (False), or not known (None)."""
    out: Optional[bool] = True
    for g, scope, pos in guards:
        truth = _truth(ls, g.test, scope, pos)
        if truth is None:
            out = None
        elif truth == g.negated:
            return False
    return out


def _truth(ls, test: ast.AST, scope, pos: int) -> Optional[bool]:
    """A test's truth with the launch's flags: a value, `not`, `and`/`or`, and `==`/`!=` against a constant
    (`FLAGS.mode == "train"`); None when a value is not known or not one value."""
    from ..values.ops import Opaque
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(ls, test.operand, scope, pos)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [_truth(ls, v, scope, pos) for v in test.values]
        decisive = isinstance(test.op, ast.Or)          # one true decides `or`, one false decides `and`
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    values: list
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)) and \
            isinstance(test.comparators[0], ast.Constant):
        left = ls.ctx.values.scalars(test.left, scope, pos).candidates
        if not left or any(isinstance(v, Opaque) for v in left):
            return None
        same = {v == test.comparators[0].value for v in left}
        values = [x if isinstance(test.ops[0], ast.Eq) else not x for x in same]
    else:
        values = ls.ctx.values.scalars(test, scope, pos).candidates
    if not values or any(isinstance(v, Opaque) for v in values):
        return None
    truth = {bool(v) for v in values}
    return truth.pop() if len(truth) == 1 else None


def _aliases(ls, module: Module, lookup) -> Tuple[set, set]:
    """(the dotted names the script binds to the module, the names it imports from it), as its imports say."""
    as_module, names = set(), set()
    path = module.path
    filename = ls.ctx.filename
    for node in ast.walk(ls.ctx.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                found = lookup.module(filename, 0, parts)
                if found is not None and found.path == path:
                    as_module.add(a.asname or a.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module.split(".") if node.module else []
            level = node.level or 0
            for a in node.names:
                if a.name == "*":
                    continue
                sub = lookup.module(filename, level, base + [a.name])
                if sub is not None and sub.path == path:
                    as_module.add(a.asname or a.name)
                    continue
                owner = lookup.module(filename, level, base) if base or level else None
                if owner is not None and owner.path == path:
                    names.add((a.asname or a.name, a.name))
    return as_module, names


def _references(ls, module: Module, lookup, target: str) -> list:
    """(node, scope) of each load in the script that names `target` of the module."""
    from ..source.sites import dotted
    as_module, names = _aliases(ls, module, lookup)
    local = {mine for mine, theirs in names if theirs == target}
    lasts = {target} | local
    out: list = []
    for node, scope in ls.ctx.sites.loads_with_last(tuple(lasts)):
        if isinstance(node, ast.Name) and node.id in local:
            out.append((node, scope))
        elif isinstance(node, ast.Attribute) and node.attr == target:
            head = dotted(node.value)
            if head is not None and head in as_module:
                out.append((node, scope))
    return out


def _why_open(ctx, setup, project) -> str:
    """": why" a test of the setup that reads a flag through a parameter (`if args.profiling:` in
    `def session_config(args)`) is not decided: the parameter is not shown to hold the script's flags; else ""."""
    from ..values.passed_args import parameter_of
    scope = ctx.sites.scope_of.at(setup.anchor, ctx.sites.module)
    for g in ctx.sites.guards_of.at(setup.anchor, ()):
        for n in ast.walk(g.test):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                found = parameter_of(ctx.resolver, n.value, scope, ctx.pos(setup.anchor))
                why = project.handed(*found) if found is not None else ""
                if why:
                    return f": {why}"
    return ""


def _handed(ls, module: Module, tree: ast.AST, lookup, func, param: str) -> str:
    """"" where every call of `func` (a function at the top of the module) in this launch is the script's and hands
    `param` the script's parse_args() result; else why not (values/passed_args.py). The module's own code and the
    other modules of the launch must not name it: they may call it with something else."""
    from ..values.passed_args import why_not_handed
    name = os.path.basename(module.path)
    script = os.path.basename(ls.ctx.filename)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func not in getattr(tree, "body", ()):
        return f"{param} is not a parameter of a function at the top of {name}"
    target = func.name
    own = next((n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == target), None)
    if own is not None:
        return f"line {own.lineno} of {name} uses {target} itself"
    word = re.compile(rf"\b{re.escape(target)}\b")
    for other in lookup.imported_modules():
        if other.path == module.path or not word.search(other.src.text):
            continue
        named = _names(other.tree, target, os.path.splitext(os.path.basename(module.path))[0])
        if named is not None:
            return (f"line {getattr(named, 'lineno', 0)} of {os.path.basename(other.path)}, which {script} imports, "
                    f"names {target} too: it may call it")
    refs = _references(ls, module, lookup, target)
    if not refs:
        return f"{script} does not call {target}() of {name} by name"
    calls = []
    for node, _ in refs:
        call = ls.ctx.sites.parent.at(node, None)
        if not (isinstance(call, ast.Call) and call.func is node):
            return f"line {node.lineno} of {script} uses {target} other than by calling it"
        calls.append(call)
    return why_not_handed(ls.ctx.resolver, func, param, calls, script)


def _names(tree: ast.AST, target: str, stem: str) -> Optional[ast.AST]:
    """The first node of a module that may name the function `target` of the module `stem`: the bare name, an import
    of it, or `m.target` where `m` is imported under a name ending in `stem` (`tf.train.X` is not it); else None."""
    held = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
            for a in n.names if a.name.split(".")[-1] == stem}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id == target:
            return n
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any(target in (a.name, a.asname) for a in n.names):
            return n            # the statement, for its line: an alias has none before Python 3.10
        if isinstance(n, ast.Attribute) and n.attr == target:
            head = n.value
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in held:
                return n
    return None


def _imported_at_top(ls, module: Module, lookup) -> bool:
    """Whether a statement at the script's own top level (not in a function, branch or `try`) imports the
    module itself."""
    filename = ls.ctx.filename
    for node in getattr(ls.ctx.tree, "body", []):
        if isinstance(node, ast.Import):
            refs = [(0, a.name.split(".")) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module.split(".") if node.module else []
            refs = [(node.level or 0, base)] + [(node.level or 0, base + [a.name]) for a in node.names]
        else:
            continue
        for level, parts in refs:
            found = lookup.module(filename, level, parts) if parts or level else None
            if found is not None and found.path == module.path:
                return True
    return False
