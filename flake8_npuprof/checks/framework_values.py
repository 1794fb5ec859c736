"""What the Python frameworks' profiler checks share (checks/torch_npu.py, checks/mindspore.py): the file's
names for a framework's objects through its imports, and the values an argument can have, followed through the
resolver as the options checks follow them (names, constants, a flag's default), with the profiler's enum
members kept as such (ProfilerLevel.Level1 is not the string "Level1" to MindSpore)."""

from __future__ import annotations

import ast
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..source.said import Part, aside as _aside
from ..source.sites import dotted
from ..source.text import HOLE
from ..values.ops import C, Opaque, S


class EnumRef(NamedTuple):
    """A member of one of the profiler's enums, as written in code (ProfilerLevel.Level1)."""
    kind: str                           # the parameter it is for: profiler_level, aic_metrics, ...
    name: str                           # the member's name: Level1, PipeUtilization, NPU
    value: Optional[str]                # the string it stands for (None: not known here)


class Items(tuple):
    """The values of a list, tuple or set literal (an EnumRef is a tuple too: this tells them apart)."""


class Unknown(Exception):
    pass


def aliases(tree: ast.AST, roots: Tuple[str, ...]) -> Dict[str, str]:
    """{name bound by an import: the dotted path it stands for}, for imports of the given root packages."""
    out: Dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                root = a.name.split(".")[0]
                if root in roots:
                    if a.asname:
                        out[a.asname] = a.name
                    else:
                        out.setdefault(root, root)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] in roots:
                for a in node.names:
                    if a.name != "*":
                        out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


class Names:
    """The dotted paths a file's expressions name. rewrites: (long prefix, short prefix) for the submodules
    that re-export the same objects; enum_of(owner, member): the EnumRef an enum member stands for."""

    def __init__(self, tree: ast.AST, roots: Tuple[str, ...], rewrites: Tuple[Tuple[str, str], ...],
                 enum_of: Callable[[str, str], Optional[EnumRef]]):
        self.aliases = aliases(tree, roots)
        self.rewrites = rewrites
        self.enum_of = enum_of
        self.notes: Dict[int, List[str]] = {}   # id(argument) -> where its value came from (a flag's default)

    def of(self, node: ast.AST) -> Optional[str]:
        name = dotted(node)
        if not name:
            return None
        head, _, rest = name.partition(".")
        full = self.aliases.get(head)
        if full is None:
            return None
        full = full + ("." + rest if rest else "")
        for long, short in self.rewrites:
            if full.startswith(long):
                full = short + full[len(long):]
        return full

    def enum(self, node: ast.AST) -> Optional[EnumRef]:
        full = self.of(node) if isinstance(node, ast.Attribute) else None
        if not full:
            return None
        owner, _, member = full.rpartition(".")
        return self.enum_of(owner, member)


def candidates(ctx, names: Names, node: ast.AST, notes: set) -> tuple:
    """The values an argument can have: constants, EnumRefs, tuples of them for a list; raises Unknown.
    notes: where computed values came from (a flag's default), for the message."""
    ref = names.enum(node)
    if ref is not None:
        return (ref,)
    if isinstance(node, ast.Constant):
        return (node.value,)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [candidates(ctx, names, e, notes) for e in node.elts]
        if any(len(c) != 1 for c in items) or any(isinstance(e, ast.Starred) for e in node.elts):
            raise Unknown()
        return (Items(c[0] for c in items),)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return (-node.operand.value,)
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp, ast.Call, ast.IfExp)):
        if isinstance(node, ast.Name) and node.id in names.aliases:
            raise Unknown()
        scope = ctx.sites.scope_of.at(node, None)
        if scope is None:
            raise Unknown()
        if isinstance(node, ast.Name):
            # `level = ProfilerLevel.Level1` or `acts = [ProfilerActivity.NPU]` above: the members, kept as such
            binds = ctx.resolver._bindings(node.id, scope, ctx.pos(node))
            if binds and all(b.value is not None and (names.enum(b.value) is not None or isinstance(
                    b.value, (ast.List, ast.Tuple))) for b in binds) and not _changed(ctx.tree, node.id):
                return tuple(dict.fromkeys(v for b in binds for v in candidates(ctx, names, b.value, notes)))
        out = []
        # as the options checks read them: a flag's default stands for the flag (the message says so)
        for v in ctx.resolver.eval(node, scope, ctx.pos(node)):
            if isinstance(v, C) and not isinstance(v.value, Opaque):
                out.append(v.value)
                if v.note:
                    notes.add(v.note)
            elif isinstance(v, S) and not v.is_bytes and HOLE not in v.value.text:
                out.append(v.value.text)
                notes.update(note for _, _, note in v.value.notes or ())
            else:
                raise Unknown()
        if not out:
            raise Unknown()
        return tuple(out)
    raise Unknown()


def known(ctx, names: Names, node: Optional[ast.AST]) -> Optional[tuple]:
    """The values an argument can have, or None when one of them cannot be known."""
    if node is None:
        return None
    notes: set = set()
    try:
        values = candidates(ctx, names, node, notes)
    except Unknown:
        return None
    if notes:
        names.notes[id(node)] = sorted(notes)
    return values


def _changed(tree: ast.AST, name: str) -> bool:
    """Whether the file may change what a name holds other than by binding it (`name.append(x)`, `name += ...`,
    `name[0] = ...`): then its bindings alone do not say what it holds."""
    for n in ast.walk(tree):
        if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.value, ast.Name) and n.value.id == name:
            return True
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            return True
    return False


def plain(value):
    """A value as the runtime compares it: an EnumRef becomes its string."""
    return value.value if isinstance(value, EnumRef) else value


def show(value) -> str:
    if isinstance(value, EnumRef):
        return value.name
    if isinstance(value, Items):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)


def aside(names: Names, node: ast.AST) -> "Part | str":
    """Where a reported value came from, for the end of the message (" (the default of --level)")."""
    notes = names.notes.get(id(node))
    return _aside("; ".join(notes)) if notes else ""
