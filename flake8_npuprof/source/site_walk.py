"""The sites walk: iterative, in source order, numbering every node it reaches. The leaves and the
expressions nothing is recorded for are walked in `_walk`'s loop; each kind of node something is
recorded for has its own function (`_KIND_WALKS`): calls, assignments and the other binding statements,
functions, classes, branches (`if`/`while` and the conditional expression), except handlers and a try's
else body. The expression of a plain statement is deferred when the lines it is on allow it
(`_blocked_lines`): it keeps the positions the whole walk would give it (a gap of `_GAP` after its
statement) and is walked when a question needs it (sites.py).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Type, Union

from .site_bindings import _record_assign, _record_import, _target_keys
from .site_entries import Entry, _config_base, _is_custom_optimizers
from .site_records import CallSite, Guard, Scope, _new_tuple, call_name, dotted

if TYPE_CHECKING:                  # the sites these functions fill in (sites.py imports this module)
    from .sites import Sites


class _Later:
    """On the walk's stack after an assignment's targets: its value is deferred from there."""

    __slots__ = ("value", "lines")

    def __init__(self, value: ast.AST, lines: Tuple[int, int]):
        self.value, self.lines = value, lines


# Node types the walk treats specially; every other node is only numbered and descended into.
_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef})
_BRANCHES = frozenset({ast.If, ast.While, ast.IfExp, ast.Global, ast.ExceptHandler})
_SPECIAL = _SCOPES | _BRANCHES | {_Later}
_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)      # TryStar: 3.11+
# the kinds whose walk records what they bind or return (site_bindings), each with a walk of its own (_KIND_WALKS)
_RECORDED = frozenset({ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor,
                       ast.comprehension, ast.With, ast.AsyncWith, ast.NamedExpr, ast.Return,
                       ast.Delete})   # calls: _walk_call


# Fields that never hold a child worth walking: names and flags (strings, ints), Load/Store
# contexts and operators. Constant.value is a Python value, never a node. Not "name": it is a
# string almost everywhere, but a node in TypeAlias (3.12+).
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "kind", "level", "module", "type_comment",
                          "is_async", "conversion", "simple", "tag"})
_CHILD_FIELDS: Dict[Type[ast.AST], Tuple[str, ...]] = {ast.Constant: ()}     # kind -> its fields that hold children


def _fields_of(kind: Type[ast.AST]) -> Tuple[str, ...]:
    """_CHILD_FIELDS[kind], worked out on first use (the walks read the dict and call this on a miss)."""
    _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    return _CHILD_FIELDS[kind]


# kind -> _CHILD_FIELDS[kind] last first: the walk pushes each field's children in reverse, so that they come off its
# stack in source order, without gathering them in a list first
_REVERSED_FIELDS: Dict[Type[ast.AST], Tuple[str, ...]] = {ast.Constant: ()}


def _reversed_fields_of(kind: Type[ast.AST]) -> Tuple[str, ...]:
    fields = _CHILD_FIELDS.get(kind)
    _REVERSED_FIELDS[kind] = (fields if fields is not None else _fields_of(kind))[::-1]
    return _REVERSED_FIELDS[kind]


def child_nodes(node: ast.AST) -> List[ast.AST]:
    """ast.iter_child_nodes without the shared Load/Store and operator leaves, as a list."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    kids: List[ast.AST] = []
    for field in fields if fields is not None else _fields_of(kind):
        value = getattr(node, field, None)
        if type(value) is list:
            kids += [v for v in value if isinstance(v, ast.AST)]
        elif isinstance(value, ast.AST):
            kids.append(value)
    return kids


# Positions a deferred expression's nodes take, after its statement's: more than a file within the work
# budget (source/prefilter.py, a million words) can hold in one statement.
_GAP = 1 << 24


# A statement on a line holding one of these is walked at once: a setup's words (an entry is made in the
# walk), and what binds a name or opens a scope inside an expression (a comprehension's `for`, `lambda`,
# `:=`), which the walk records as it meets them.
_EAGER_WORDS = ("rofiling", "PROFILING", "custom_optimizers", "parameter_map", "msprof", ":=")
_EAGER_NAMES = ("for", "lambda")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _blocked_lines(text: str, starts: List[int], lines: Optional[Tuple[int, int]] = None,
                   pieces: Optional[List[str]] = None, present: Optional[set] = None) -> set:
    """The lines a deferred statement may not touch: those holding an eager word or name, or a character
    outside ASCII (an identifier may be spelt in a form NFKC turns into the word a question looks for).
    lines: only those among the lines first to last (what a line holds decides, not the lines around it).
    pieces: the text's pieces between LFs, when the caller has them (flake8's lines: not split again).
    present: a set to add the eager words found to (Sites.may_hold answers for them without a search)."""
    lo, hi = 0, len(text)
    if lines is not None:
        lo = starts[lines[0] - 1]
        hi = starts[lines[1]] if lines[1] < len(starts) else len(text)
    blocked = set()
    found = []
    for word in _EAGER_WORDS:
        at = text.find(word, lo, hi)
        if at >= 0 and present is not None:
            present.add(word)
        while at >= 0:
            found.append(at)
            at = text.find(word, at + 1, hi)
    for name in _EAGER_NAMES:
        # not followed by a letter, digit or _, whatever comes before it: `[n*2for n in x]` is Python
        size = len(name)
        at = text.find(name, lo, hi)
        while at >= 0:
            if text[at + size:at + size + 1] not in _IDENTIFIER:
                found.append(at)
            at = text.find(name, at + size, hi)
    for at in found:
        blocked.add(bisect_right(starts, at))
    if lines is not None:
        part = text[lo:hi]
        if not part.isascii():
            blocked.update(bisect_right(starts, lo + m.start()) for m in _NON_ASCII.finditer(part))
    elif not text.isascii():
        if pieces is None and "\r" in text:       # (pieces between LFs: the text holds no CR)
            blocked.update(bisect_right(starts, m.start()) for m in _NON_ASCII.finditer(text))
        else:                           # lines as the line starts count them (LF only), a third of the time
            # (flake8's lines when given: the split made a string per line, 60 % of this loop's instructions)
            split = text.split("\n") if pieces is None else pieces
            blocked.update(k for k, line in enumerate(split, 1) if not line.isascii())
    return blocked


_IDENTIFIER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _deferrable(node, blocked: set) -> Optional[Tuple[int, int]]:
    """The node's first and last line when none of them is blocked, else None."""
    line, end = node.lineno, node.end_lineno
    if line == end:
        return None if line in blocked else (line, end)
    for k in range(line, end + 1):
        if k in blocked:
            return None
    return line, end


def _walk(sites: Sites, stack: list, order: int, blocked: Optional[set]) -> int:
    """Walk from the stack's items in source order, numbering nodes from order + 1; returns the last number.
    blocked: the lines deferral may not touch (None: defer nothing).

    The leaves and the expressions nothing is recorded for, most of the nodes, are walked in this loop. A
    node of a kind something is recorded for goes to the walk of its kind (_KIND_WALKS), which pushes what
    it holds and returns the last number, or None to have its children walked as any node's."""
    pos, walked, raw_loads = sites._pos, sites._walked, sites._raw_loads
    Load, Name, Constant, Attribute, keyword = ast.Load, ast.Name, ast.Constant, ast.Attribute, ast.keyword
    AST = ast.AST
    fields_of, kind_walks = _REVERSED_FIELDS, _KIND_WALKS
    # stack of (node, parent, (scope, guards)); children are pushed reversed to keep source order
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        node, up, context = item
        order += 1
        pos[node] = order
        walked[order] = item
        kind = type(node)
        if kind is Name:                    # the leaves, a third of all nodes: nothing below them
            if type(node.ctx) is Load:
                raw_loads.append((node, context[0]))
            continue
        if kind is Constant:
            continue
        if kind is Attribute or kind is keyword:     # one child, `value`, never None
            if kind is Attribute and type(node.ctx) is Load:
                raw_loads.append((node, context[0]))
            push((node.value, node, context))
            continue
        walk = kind_walks.get(kind)
        if walk is not None:
            last = walk(sites, node, up, context, order, blocked, push)
            if last is not None:
                order = last
                continue
        # the common case, kept lean: most nodes are expressions nothing is recorded for. Their children are
        # pushed last field first, each list reversed: they come off the stack in source order
        fields = fields_of.get(kind)
        if fields is None:
            fields = _reversed_fields_of(kind)
        for field in fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for child in reversed(value):
                    if isinstance(child, AST):
                        push((child, node, context))
            elif isinstance(value, AST):
                push((value, node, context))
    return order


# The walks of the kinds something is recorded for: each takes the node, its parent, its (scope, guards),
# its number, the lines deferral may not touch and the stack's push, and returns the last number given
# (more than the node's after a deferral), or None: walk the node's children as any node's.

def _defer(sites: Sites, value: ast.AST, stmt: ast.AST, context: tuple, order: int, lines: Tuple[int, int]) -> int:
    """Leave value to be walked when a question needs it, its positions after order, and skip them."""
    sites._deferred.append((value, stmt, context, order) + lines)
    return order + _GAP


def _try_defer(sites: Sites, value: ast.AST, stmt: ast.AST, on, context: tuple, order: int,
               blocked: set) -> Optional[int]:
    """_defer(value) when none of the lines of `on` (the statement, or an if's test) is blocked, and return the
    last position it skips; else None (_deferrable and _defer in one call: most statements are deferred)."""
    line, end = on.lineno, on.end_lineno
    if line == end:
        if line in blocked:
            return None
    else:
        for k in range(line, end + 1):
            if k in blocked:
                return None
    sites._deferred.append((value, stmt, context, order, line, end))
    return order + _GAP


def _walk_expr(sites: Sites, node: ast.Expr, up, context: tuple, order: int, blocked, push) -> int:
    """An expression statement: its expression now, or when a question needs it."""
    if blocked is not None:
        last = _try_defer(sites, node.value, node, node, context, order, blocked)
        if last is not None:
            return last
    push((node.value, node, context))
    return order


def _walk_call(sites: Sites, node: ast.Call, up, context: tuple, order: int, blocked, push) -> int:
    """A call, by far the most frequent record: with its name, and an entry for `custom_optimizers.add()`."""
    func = node.func
    # call_name's two common shapes inline, and the record built without the namedtuple's
    # own __new__ (a Python frame per call)
    name: Optional[str]
    if type(func) is ast.Name:
        name = func.id
    elif type(func) is ast.Attribute and type(func.value) is ast.Name:
        name = f"{func.value.id}.{func.attr}"
    else:
        name = call_name(node)
    sites._calls.append(_new_tuple(CallSite, (node, name, context[0], context[1], node)))
    if type(func) is ast.Attribute and func.attr == "add" and _is_custom_optimizers(func.value):
        sites.entries.append(Entry(node, _config_base(func.value), context[0], context[1]))
    if node.keywords:
        for child in reversed(node.keywords):
            push((child, node, context))
    if node.args:
        for arg in reversed(node.args):
            push((arg, node, context))
    push((func, node, context))
    return order


def _walk_assign(sites: Sites, node: ast.Assign, up, context: tuple, order: int, blocked, push) -> Optional[int]:
    """An assignment: its bindings, then its targets and its value, the value now or when a question needs it."""
    targets, value = node.targets, node.value
    target = targets[0]
    if len(targets) == 1 and type(target) is ast.Name:
        # `x = ...`, the commonest statement: _record_assign's first case inline, children too
        # (fields targets, value; type_comment is a string)
        scope = context[0]
        sites.assigns.append((target, value, node, scope, context[1]))
        (sites.module if target.id in scope.globals else scope).bind(target.id, order, value, node, context[1])
        if blocked is not None:
            last = _try_defer(sites, value, node, node, context, order + 1, blocked)
            if last is not None:        # the target now (at order + 1), the value when asked
                sites._pos[target] = order + 1
                sites._walked[order + 1] = (target, node, context)
                return last
        push((value, node, context))
        push((target, node, context))
        return order
    if len(targets) == 1 and type(target) is ast.Attribute and type(target.value) is ast.Name:
        return _walk_attribute_assign(sites, node, target, value, context, order, blocked, push)
    _record_assign(sites, node, context[0], context[1], order)
    lines = None if blocked is None else _deferrable(node, blocked)
    if lines is None:
        return None
    push((_Later(value, lines), node, context))     # the value when asked, after the targets
    for child in reversed(targets):
        push((child, node, context))
    return order


def _walk_attribute_assign(sites: Sites, node: ast.Assign, target: ast.Attribute, value: ast.expr, context: tuple,
                           order: int, blocked, push) -> int:
    """`x.a = ...` (`self.a = ...` in a method: the class's `self.a`), the next commonest: _record_assign's case
    inline, and when the value is deferred, the target and its name numbered here (what the walk of the target
    and of a _Later after it would give them)."""
    scope, guards = context
    name: Any = target.value             # (a Name: the caller checked)
    head = name.id
    sites.assigns.append((target, value, node, scope, guards))
    if scope.kind == "function" and scope.self_name and head == scope.self_name:
        scope.klass.bind("self." + target.attr, order, value, node, guards)
    else:
        (sites.module if head in scope.globals else scope).bind(f"{head}.{target.attr}", order, value, node, guards)
    if blocked is not None:
        last = _try_defer(sites, value, node, node, context, order + 2, blocked)
        if last is not None:
            pos, walked = sites._pos, sites._walked
            pos[target] = order + 1
            walked[order + 1] = (target, node, context)
            pos[name] = order + 2
            walked[order + 2] = (name, target, context)
            if type(name.ctx) is ast.Load:
                sites._raw_loads.append((name, scope))
            return last
    push((value, node, context))
    push((target, node, context))
    return order


def _walk_import(sites: Sites, node: Union[ast.Import, ast.ImportFrom], up, context: tuple, order: int, blocked,
                 push) -> None:
    _record_import(sites, node, context[0], order)


def _walk_loop(sites: Sites, node: Union[ast.For, ast.AsyncFor, ast.comprehension], up, context: tuple, order: int,
               blocked, push) -> None:
    """A for loop or a comprehension's `for`: its target is bound (to no value)."""
    scope, guards = context
    target = node.target
    if type(target) is ast.Name:
        scope.bind(target.id, order, None, node, guards)
        return
    for key in _target_keys(target):
        scope.bind(key, order, None, node, guards)


def _walk_with(sites: Sites, node: Union[ast.With, ast.AsyncWith], up, context: tuple, order: int, blocked,
               push) -> None:
    scope, guards = context
    for item in node.items:
        if item.optional_vars is not None:
            for key in _target_keys(item.optional_vars):
                scope.bind(key, order, None, node, guards)


def _walk_named(sites: Sites, node: ast.NamedExpr, up, context: tuple, order: int, blocked, push) -> None:
    context[0].bind(node.target.id, order, node.value, node, context[1])


def _walk_delete(sites: Sites, node: ast.Delete, up, context: tuple, order: int, blocked, push) -> None:
    scope, guards = context
    sites.deletes.extend((target, node, scope, guards) for target in node.targets)


def _walk_return(sites: Sites, node: ast.Return, up, context: tuple, order: int, blocked, push) -> Optional[int]:
    """A return: its value now, or when a question needs it."""
    value = node.value
    if value is None:
        return None
    sites.returns.append((value, context[0]))
    if blocked is None:
        return None
    return _try_defer(sites, value, node, node, context, order, blocked)


def _walk_augmented(sites: Sites, node: Union[ast.AugAssign, ast.AnnAssign], up, context: tuple, order: int, blocked,
                    push) -> Optional[int]:
    """An augmented or annotated assignment: its binding, then its target (and annotation), the value now or when
    a question needs it."""
    _record_assign(sites, node, context[0], context[1], order)
    if blocked is None or node.value is None:
        return None
    lines = _deferrable(node, blocked)
    if lines is None:
        return None
    push((_Later(node.value, lines), node, context))
    if type(node) is ast.AnnAssign:
        push((node.annotation, node, context))
    push((node.target, node, context))
    return order


def _walk_try(sites: Sites, node: ast.Try, up, context: tuple, order: int, blocked, push) -> Optional[int]:
    """A try with an else body, which runs under a condition of its own; any other try as any node."""
    if not node.orelse:
        return None
    # the else body runs only when the try body raised nothing: its bindings are conditional, so
    # they do not hide a handler's (`try: ... / except E: cfg = None / else: cfg = X()`)
    otherwise = (context[0], context[1] + (_new_tuple(Guard, (else_test(node), False)),))
    for child in reversed(node.finalbody):
        push((child, node, context))
    for child in reversed(node.orelse):
        push((child, node, otherwise))
    for handler in reversed(node.handlers):
        push((handler, node, context))
    for child in reversed(node.body):
        push((child, node, context))
    return order


def _walk_later(sites: Sites, node: _Later, up, context: tuple, order: int, blocked, push) -> int:
    """The targets are walked: the value's positions start here (the _Later takes none)."""
    del sites._pos[node], sites._walked[order]
    return _defer(sites, node.value, up, context, order - 1, node.lines)


def _walk_function(sites: Sites, node: Any, up, context: tuple, order: int, blocked, push) -> int:
    """A def or a lambda: a scope with its parameters (a method's first one is its `self`); the decorators and
    defaults run in the enclosing scope, the body (up to a statement that always leaves it) in the new one.
    node: a FunctionDef, AsyncFunctionDef or Lambda (Any: told apart by `lam`, which mypy does not follow)."""
    scope, guards = context
    lam = type(node) is ast.Lambda
    inner = Scope(node, "lambda" if lam else "function", scope)
    sites.scopes.append(inner)
    args = node.args
    positional = args.posonlyargs + args.args if args.posonlyargs else args.args
    names = [a.arg for a in positional]
    for a in args.kwonlyargs:
        names.append(a.arg)
    if args.vararg is not None:
        names.append(args.vararg.arg)
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    inner.params = names
    bind = inner.bind
    for name in names:
        bind(name, -1, None, node)
    inside = (inner, guards)
    if lam:
        push((node.body, node, inside))
    else:
        if args.args and scope.kind == "class" and \
                (not node.decorator_list or "staticmethod" not in {dotted(d) for d in node.decorator_list}):
            inner.self_name = positional[0].arg
            inner.klass = scope
        scope.bind(node.name, order, node, node)
        sites.functions.setdefault(node.name, []).append(node)
        for stmt in reversed(_live(node.body)):
            push((stmt, node, inside))
    # pushed last to first: the decorators, the defaults, the keyword-only defaults, then the body
    for d in reversed(args.kw_defaults):
        if d is not None:
            push((d, node, context))
    for d in reversed(args.defaults):
        push((d, node, context))
    if not lam:
        for d in reversed(node.decorator_list):
            push((d, node, context))
    return order


def _walk_class(sites: Sites, node: ast.ClassDef, up, context: tuple, order: int, blocked, push) -> int:
    """A class: its decorators, bases and keywords in the enclosing scope, its body in a scope of its own."""
    inner = Scope(node, "class", context[0])
    sites.scopes.append(inner)
    context[0].bind(node.name, order, node, node)
    inside = (inner, context[1])
    for stmt in reversed(node.body):
        push((stmt, node, inside))
    for k in reversed(node.keywords):
        push((k.value, node, context))
    for d in reversed(node.bases):
        push((d, node, context))
    for d in reversed(node.decorator_list):
        push((d, node, context))
    return order


def _walk_branch(sites: Sites, node: Union[ast.If, ast.While], up, context: tuple, order: int, blocked, push) -> int:
    """An if or a while: its test (now or when a question needs it), each body under the test as a guard; a body
    a constant test never runs is not walked."""
    scope, guards = context
    test = node.test
    kind = type(test)
    verdict = _static_truth(test) if kind is ast.Constant or kind is ast.UnaryOp else None
    last = None if blocked is None else _try_defer(sites, test, node, test, context, order, blocked)
    if verdict is not True and node.orelse:
        otherwise = (scope, guards + (_new_tuple(Guard, (test, True)),))
        for stmt in reversed(node.orelse):
            push((stmt, node, otherwise))
    if verdict is not False:
        inside = (scope, guards + (_new_tuple(Guard, (test, False)),))
        for stmt in reversed(node.body):
            push((stmt, node, inside))
    if last is not None:
        return last
    push((test, node, context))
    return order


def _walk_ifexp(sites: Sites, node: ast.IfExp, up, context: tuple, order: int, blocked, push) -> int:
    """`a if test else b`: each branch under the test as a guard."""
    scope, guards = context
    test = node.test
    push((node.orelse, node, (scope, guards + (_new_tuple(Guard, (test, True)),))))
    push((node.body, node, (scope, guards + (_new_tuple(Guard, (test, False)),))))
    push((test, node, context))
    return order


def _walk_global(sites: Sites, node: ast.Global, up, context: tuple, order: int, blocked, push) -> int:
    context[0].globals.update(node.names)
    return order


def _walk_handler(sites: Sites, node: ast.ExceptHandler, up, context: tuple, order: int, blocked, push) -> int:
    """An except handler: its body under the condition that the exception is caught."""
    # A handler's body runs only when its try raised: its bindings are conditional, so they do not
    # hide the try body's (`try: cfg = X() / except E: cfg = None` hands over X() or None).
    caught = (context[0], context[1] + (_new_tuple(Guard, (handler_test(node), False)),))
    for stmt in reversed(node.body):
        push((stmt, node, caught))
    if node.type is not None:
        push((node.type, node, context))
    return order


# kind -> its walk: every kind in _SPECIAL (whose walk pushes what it holds), and those the walk records
_KIND_WALKS: Dict[type, Callable[..., Optional[int]]] = {
    ast.Expr: _walk_expr, ast.Call: _walk_call, ast.Assign: _walk_assign,
    ast.Import: _walk_import, ast.ImportFrom: _walk_import, ast.For: _walk_loop, ast.AsyncFor: _walk_loop,
    ast.comprehension: _walk_loop, ast.With: _walk_with, ast.AsyncWith: _walk_with, ast.NamedExpr: _walk_named,
    ast.Return: _walk_return, ast.Delete: _walk_delete, ast.AugAssign: _walk_augmented,
    ast.AnnAssign: _walk_augmented,
    **{kind: _walk_try for kind in _TRIES}, _Later: _walk_later,
    ast.FunctionDef: _walk_function, ast.AsyncFunctionDef: _walk_function, ast.Lambda: _walk_function,
    ast.ClassDef: _walk_class, ast.If: _walk_branch, ast.While: _walk_branch, ast.IfExp: _walk_ifexp,
    ast.Global: _walk_global, ast.ExceptHandler: _walk_handler,
}


def _live(body: list) -> list:
    """A function body up to its first statement that always leaves it (`return`, `raise`, `sys.exit(...)`):
    what follows never runs, and is not walked (as under `if False:`)."""
    for k, stmt in enumerate(body):
        kind = type(stmt)
        if kind is ast.Return or kind is ast.Raise:
            return body[:k + 1]
        if kind is ast.Expr and type(stmt.value) is ast.Call:
            func = stmt.value.func          # `sys.exit(...)`, `os._exit(...)`, tested without building a name
            if type(func) is ast.Attribute and func.attr in _EXITS and type(func.value) is ast.Name and \
                    func.value.id == _EXITS[func.attr]:
                return body[:k + 1]
    return body


_EXITS = {"exit": "sys", "_exit": "os"}


def handler_test(handler: ast.ExceptHandler) -> ast.Name:
    """The condition an except handler's body runs under, as a name no script binds, which reads as what it
    means wherever a condition is shown ("when an exception is caught at line 7") and evaluates to unknown."""
    test = ast.Name(id=f"an exception is caught at line {handler.lineno}", ctx=ast.Load())
    return ast.copy_location(test, handler)


def else_test(node) -> ast.Name:
    """The condition a try's else body runs under, in the same form as handler_test's."""
    test = ast.Name(id=f"no exception is raised in the try at line {node.lineno}", ctx=ast.Load())
    return ast.copy_location(test, node)


def _static_truth(test) -> Optional[bool]:
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _static_truth(test.operand)
        return None if inner is None else not inner
    return None
