"""Whether a `**name` argument gives a call one keyword: `profile(**prof_kwargs)` where `prof_kwargs` is a dict
built in the same scope (a literal, `dict(k=v)`, keys added by `name["k"] = v`), on every path to the call or on
some branches only. NPP308 (checks/torch_npu.py) and emulate's torch replay (emulate/torch_run.py) read it.

Said only where the code shows it: every other use of the name (passed on, `.update()`, a computed key, `del`, a
nested function that reads it, `global`) leaves the answer unknown (None), since any of them may add or remove the
keyword. The branches a keyword comes from are named only when the way from its binding to the call goes through
`if`s alone.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, List, NamedTuple, Optional, Tuple


class Spread(NamedTuple):
    """Where a `**name` argument gets the keyword."""
    name: str
    every: bool                 # on every path to the call
    lines: Tuple[int, ...]      # the lines that put it in (the dict's, or a `name["k"] = v`)
    when: str = ""              # (not every) the branches that do, as source text: "`a` and `not (b)`"
    ways: Tuple[Tuple[str, ...], ...] = ()     # (not every) each such branch's tests, as source text


def star_keyword(ctx, call: ast.Call, key: str) -> Optional[Tuple[ast.keyword, Spread]]:
    """The `**name` keyword of the call that gives it `key` on some path, with where; None when none does or
    it cannot be told."""
    for kw in call.keywords:
        if kw.arg is None and isinstance(kw.value, ast.Name):
            spread = _spread(ctx, call, kw.value, key)
            if spread is not None:
                return kw, spread
    return None


def _spread(ctx, call: ast.Call, star: ast.Name, key: str) -> Optional[Spread]:
    name = star.id
    sites = ctx.sites
    scope = sites.scope_of.at(star, None)
    if scope is None:
        return None
    binds = ctx.resolver._bindings(name, scope, ctx.pos(star))
    region = ctx.tree if scope.kind == "module" else scope.node
    if not binds or scope.kind not in ("module", "function") or any(b.scope is not scope for b in binds):
        return None
    uses = _uses(region, name, star)
    if uses is None:
        return None
    assigns, stores = uses
    index = _lists(region)
    loops = [n for n in _ancestors(index, call) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]
    reaching = {id(b.stmt) for b in binds}
    if any(id(a) not in reaching and any(_inside(index, a, loop) for loop in loops) for a in assigns):
        return None                     # bound again later in a loop around the call: the next pass reads it
    has: List[Tuple[Any, int]] = []     # (binding, the line that gives the key) for those that give it
    for b in binds:
        keys = _keys(ctx, b, scope)
        if keys is None or id(b.stmt) not in {id(a) for a in assigns}:
            return None
        line = b.stmt.lineno if key in keys else 0
        for s, skey in stores:
            order = _order(index, b.stmt, s, call)
            if order is None:
                return None
            if order == "after" and skey == key:
                line = line or s.lineno
        if line:
            has.append((b, line))
    if not has:
        return None
    lines = tuple(sorted({line for _, line in has}))
    if len(has) == len(binds):
        return Spread(name, True, lines)
    from ..setups.reach import guard_text, is_main_guard
    call_guards = {(id(g.test), g.negated) for g in sites.guards_of.at(call, ())}
    ways = []
    for b, _ in has:
        if not _through_ifs(index, b.stmt, call) or \
                not all(_earlier_or_apart(index, other.stmt, b.stmt) for other in binds if other is not b):
            return None                 # another binding may run after it on the way: its `if`s do not decide
        texts = guard_text(tuple(g for g in b.guards if (id(g.test), g.negated) not in call_guards and
                                 not is_main_guard(g)))
        if not texts:
            return None
        ways.append(texts)
    shown = [" and ".join(f"`{t}`" for t in texts) for texts in ways]
    return Spread(name, False, lines, " or ".join(f"({w})" for w in shown) if len(shown) > 1 else shown[0],
                  tuple(ways))


def _uses(region: ast.AST, name: str, star: ast.Name):
    """(assignments `name = ...`, [(`name["k"] = v` statement, "k")]) when every occurrence of the name in the
    region is one of those or the `**name` itself; None otherwise."""
    parents: Dict[int, ast.AST] = {}
    assigns: List[ast.stmt] = []
    stores: List[Tuple[ast.stmt, str]] = []
    found: List[ast.Name] = []
    for node in ast.walk(region):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Name) and node.id == name:
            found.append(node)
    for n in found:
        if n is star:
            continue
        up = parents.get(id(n))
        if isinstance(up, ast.Assign) and isinstance(n.ctx, ast.Store) and up.targets == [n]:
            assigns.append(up)
            continue
        stmt = parents.get(id(up)) if up is not None else None
        if isinstance(up, ast.Subscript) and up.value is n and isinstance(up.ctx, ast.Store) and \
                isinstance(stmt, ast.Assign) and stmt.targets == [up] and \
                isinstance(up.slice, ast.Constant) and isinstance(up.slice.value, str):
            stores.append((stmt, up.slice.value))
            continue
        return None                     # read, passed on, updated, deleted: what it holds is not followed
    return assigns, stores


def _keys(ctx, b, scope) -> Optional[set]:
    """The keys a binding's dict has: a literal with constant string keys, or `dict(k=v, ...)`."""
    value = b.value
    if not (isinstance(b.stmt, ast.Assign) and value is b.stmt.value):
        return None
    if isinstance(value, ast.Dict):
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return set(keys) if len(keys) == len(value.keys) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and \
            not value.args and all(k.arg for k in value.keywords) and \
            not ctx.resolver._bindings("dict", scope, ctx.pos(value)):
        return {k.arg for k in value.keywords}
    return None


# ---------------------------------------------------------------- statement blocks

class _Index(NamedTuple):
    place: Dict[int, Tuple[ast.AST, str, int]]      # id(statement) -> (owner of its block, the block's field, index)
    holder: Dict[int, ast.AST]                      # id(node) -> the innermost statement that holds it


def _lists(region: ast.AST) -> _Index:
    place: Dict[int, Tuple[ast.AST, str, int]] = {}
    holder: Dict[int, ast.AST] = {}
    stack: List[Tuple[ast.AST, Optional[ast.AST]]] = [(region, None)]
    while stack:
        node, stmt = stack.pop()
        if isinstance(node, ast.stmt):
            stmt = node
        if stmt is not None:
            holder[id(node)] = stmt
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i, child in enumerate(block):
                    if isinstance(child, ast.stmt):
                        place[id(child)] = (node, field, i)
        stack.extend((child, stmt) for child in ast.iter_child_nodes(node))
    return _Index(place, holder)


def _chain(index: _Index, node: ast.AST) -> List[Tuple[ast.AST, str, int]]:
    """(owner, field, index) of the statement that holds node, then of each compound around it, outwards."""
    out = []
    cur = index.holder.get(id(node))
    while cur is not None and id(cur) in index.place:
        owner, field, i = index.place[id(cur)]
        out.append((owner, field, i))
        cur = owner
    return out


def _ancestors(index: _Index, node: ast.AST) -> List[ast.AST]:
    return [owner for owner, _, _ in _chain(index, node)]


def _inside(index: _Index, node: ast.AST, compound: ast.AST) -> bool:
    return any(owner is compound for owner in _ancestors(index, node))


def _meet(index: _Index, stmt: ast.AST, call: ast.Call) -> Optional[Tuple[int, int, int]]:
    """(k, the statement's side index, the call's index) at the first block out from the statement that also holds
    the call, when every block below it is an `if`'s (leaving them normally runs what follows); else None."""
    mine = _chain(index, stmt)
    theirs = {(id(owner), field): i for owner, field, i in _chain(index, call)}
    for k, (owner, field, i) in enumerate(mine):
        x = theirs.get((id(owner), field))
        if x is not None:
            return (k, i, x) if i < x else None
        if not isinstance(owner, ast.If):
            return None
    return None


def _order(index: _Index, bound: ast.AST, store: ast.AST, call: ast.Call) -> Optional[str]:
    """Whether `name["k"] = v` (store) always runs between the binding and the call ("after"), or always before
    the binding, which replaces the dict ("before"); None when the blocks do not show which."""
    b, s = index.place.get(id(bound)), index.place.get(id(store))
    met = _meet(index, bound, call)
    if b is None or s is None or met is None or s[0] is not b[0] or s[1] != b[1]:
        return None
    k, _, x = met
    if k == 0 and not (s[2] < x):
        return None
    return "after" if b[2] < s[2] else "before"


def _earlier_or_apart(index: _Index, other: ast.AST, mine: ast.AST) -> bool:
    """Whether `other` never runs after `mine` on one pass: before it in a block that holds both, or in the other
    branch of an `if` that holds both."""
    theirs = _chain(index, other)
    where = {(id(owner), field): k for k, (owner, field, _) in enumerate(theirs)}
    for j, (owner, field, i) in enumerate(_chain(index, mine)):
        k = where.get((id(owner), field))
        if k is None:
            continue
        if theirs[k][2] != i:
            return theirs[k][2] < i
        # both inside the same statement of this block: apart when they sit in its two branches
        return j > 0 and k > 0 and isinstance(theirs[k - 1][0], ast.If) and \
            theirs[k - 1][0] is _chain(index, mine)[j - 1][0] and theirs[k - 1][1] != _chain(index, mine)[j - 1][1]
    return False


def _through_ifs(index: _Index, bound: ast.AST, call: ast.Call) -> bool:
    met = _meet(index, bound, call)
    return met is not None and met[0] > 0
