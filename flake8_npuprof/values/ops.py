"""Values the resolver computes with, and the Python operations on them.

A value is a string with its position map (S), a constant (C), a dict or list of values (D, L),
a switch chosen at launch (Opaque), or unknown (U). The operations (`+`, `%`, `.format`,
f-string fields, `str.join`, `os.path.join`, `json.dumps`) build new strings from the pieces
of the old ones, so every character still knows where it came from; an unknown piece
becomes a hole.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

from ..source.text import HOLE, SourceText, StrBuilder, StrValue

MAX_CANDIDATES = 8          # more distinct values than this: unknown
MAX_TEXT = 1 << 20          # longer computed strings are not built


# ---------------------------------------------------------------- values

class U(NamedTuple):
    """Unknown; py_type when at least the Python type is known (a str flag without default); stops: why the script
    stops before this value is ever read (argparse exits on what a launch gives its flag), else ""."""
    reason: str = "computed value"
    py_type: Optional[type] = None
    stops: str = ""


class C(NamedTuple):
    """A constant: bool, int, float, None (node: the literal it was written as, if any)."""
    value: Any              # the Python value (operations on it are tried: a TypeError means unknown)
    node: Optional[ast.expr] = None
    note: str = ""          # where it came from, when a message should say so (a flag's default)


class S(NamedTuple):
    """A string (holes allowed) with its position map."""
    value: StrValue
    is_bytes: bool = False


class D(NamedTuple):
    items: tuple            # ((key Val, value Val), ...)


class L(NamedTuple):
    items: tuple


class Opaque(NamedTuple):
    """A switch whose value is chosen at launch (a flag): only its type is known."""
    py_type: type
    flag: str



# ---------------------------------------------------------------- operations on values

def one(types) -> Optional[str]:
    types = {t for t in types if t}
    return types.pop() if len(types) == 1 else None


def dedupe(texts: List[StrValue]) -> List[StrValue]:
    seen, out = set(), []
    for t in texts:
        if t.text not in seen:
            seen.add(t.text)
            out.append(t)
    return out


def limit(vals: List) -> List:
    if len(vals) <= MAX_CANDIDATES:
        return vals
    distinct: List = []
    for v in vals:
        key = v.value.text if isinstance(v, S) else v
        if all((d.value.text if isinstance(d, S) else d) != key for d in distinct):
            distinct.append(v)
        if len(distinct) > MAX_CANDIDATES:
            return [U("too many possible values")]
    return distinct


def combos(lists: List[List]) -> List[tuple]:
    out: List[tuple] = [()]
    for options in lists:
        out = [prev + (o,) for prev in out for o in options]
        if len(out) > MAX_CANDIDATES:
            return [tuple(U("too many possible values") for _ in lists)]
    return out


def kw_combos(kwargs: Dict[str, List]) -> List[Dict]:
    names = list(kwargs)
    return [dict(zip(names, combo)) for combo in combos([kwargs[n] for n in names])]


def products(lists, make) -> List:
    return [make(list(combo)) for combo in combos(lists)]


def _anchor(node, src: SourceText) -> Tuple[int, int]:
    return src.node_start(node), src.node_end(node)


def with_note(value: StrValue, note: str) -> StrValue:
    return StrValue(value.text, value.runs, value.anchor, value.anchor_end, value.pieces, value.is_bytes,
                    value.origin, value.notes + ((0, len(value.text), note),))


NONE_NOTE = "with a Python None formatted as text"


def _constant_text(value, note: str = "") -> StrValue:
    """str() of a constant; a None is marked, so a "None" directory can be told from a real one."""
    notes = ((0, len(str(value)), note),) if note else ()
    if value is None:
        return StrValue("None", [], 0, 0, notes=((0, 4, NONE_NOTE),) + notes)
    return StrValue(str(value), [], 0, 0, notes=notes)


def _as_text(v) -> Optional[StrValue]:
    """The str() of a value as a StrValue (None when it is not known)."""
    if isinstance(v, S):
        return v.value
    if isinstance(v, C):
        return _constant_text(v.value, v.note)
    return None


def _append(b: StrBuilder, v) -> None:
    text = _as_text(v)
    if text is None:
        b.add_hole()
    else:
        b.add_value(text)


def add(a, b, node, src) -> object:
    if isinstance(a, C) and isinstance(b, C):
        try:
            return C(a.value + b.value)
        except TypeError:
            return U("unsupported +")
    if isinstance(a, (S, U)) and isinstance(b, (S, U)) and (isinstance(a, S) or isinstance(b, S)):
        builder = StrBuilder()
        _append(builder, a)
        _append(builder, b)
        is_bytes = (a.is_bytes if isinstance(a, S) else isinstance(b, S) and b.is_bytes)
        return _checked(S(builder.build(*_anchor(node, src), is_bytes), is_bytes))
    return U("computed by +")


class _Open(NamedTuple):
    """A string a `+` chain is still building: extended in place while each step has one candidate."""
    builder: StrBuilder
    is_bytes: bool


def add_chain(first: List, rights: Iterable[List], node, src) -> List:
    """`a + b + c + ...` (the candidates of `a`, then of each right operand in turn), as left-to-right `add`s:
    one builder per candidate grows by each operand, so a chain of n operands costs O(n), where building
    every intermediate string costs O(n^2). Where a step has several candidates, each pairing is built."""
    acc = list(first)
    for right in rights:
        if len(acc) == 1 and len(right) == 1:
            acc = [_add_open(acc[0], right[0], node, src)]
        else:
            acc = limit([add(_closed(a, node, src), b, node, src) for a in acc for b in right])
    return [_closed(a, node, src) for a in acc]


def _add_open(a, b, node, src):
    """add(a, b), leaving a string open for the next operand."""
    if isinstance(a, _Open):
        if not isinstance(b, (S, U)):
            return U("computed by +")
        _append(a.builder, b)
    elif isinstance(a, (S, U)) and isinstance(b, (S, U)) and (isinstance(a, S) or isinstance(b, S)):
        builder = StrBuilder()
        _append(builder, a)
        _append(builder, b)
        a = _Open(builder, a.is_bytes if isinstance(a, S) else isinstance(b, S) and b.is_bytes)
    else:
        return add(a, b, node, src)
    return a if a.builder.t <= MAX_TEXT else U("too long to build")


def _closed(v, node, src):
    if isinstance(v, _Open):
        return S(v.builder.build(*_anchor(node, src), v.is_bytes), v.is_bytes)
    return v


def _checked(v):
    if isinstance(v, S) and len(v.value.text) > MAX_TEXT:
        return U("too long to build")
    return v


def arith(a, b, op) -> object:
    if isinstance(a, C) and isinstance(b, C):
        try:
            if isinstance(op, ast.Mult) and isinstance(a.value, (int, float)) and isinstance(b.value, (int, float)):
                return C(a.value * b.value)
            if isinstance(op, ast.Sub) and type(a.value) in (int, float) and type(b.value) in (int, float):
                return C(a.value - b.value)     # (not bool: True - 1 is an int, but not a number written so)
        except Exception:
            pass
    return U("computed value")


# a %-conversion: zeros go to the flags (a width never starts with 0) and keys are bounded: no backtracking
# (compiled once: re's own cache of patterns turns over on a dense file, and compiling it again cost more
# than the formatting)
_PERCENT_SPEC = re.compile(r"%(\(([^)]{0,256})\))?([#0\- +]*)([1-9]\d*|\*)?(\.\d+)?[hlL]?([diouxXeEfFgGcrsa%])")


def percent(fmt, arg, node, src) -> object:
    """`'...%s...' % arg` (tuple, dict or single operand)."""
    if not isinstance(fmt, S):
        if isinstance(fmt, C) and isinstance(arg, C):
            try:
                return C(fmt.value % arg.value)
            except Exception:
                return U("computed by %")
        return U("computed by %")
    text = fmt.value.text
    if isinstance(arg, L):
        args, mapping = list(arg.items), None
    elif isinstance(arg, D):
        args, mapping = None, {k.value.text: v for k, v in arg.items if isinstance(k, S)}
    else:
        args, mapping = [arg], None
    b = StrBuilder()
    i = last = 0
    n = len(text)
    k = 0
    while i < n:
        j = text.find("%", i)
        if j < 0:
            break
        m = _PERCENT_SPEC.match(text, j)
        if not m:
            return U("a % format we cannot read")
        b.add_value(fmt.value, last, j)
        conv = m.group(6)
        if conv == "%":
            b.add_text("%")
        else:
            if m.group(2) is not None:
                value = mapping.get(m.group(2)) if mapping is not None else None
                if mapping is None or m.group(2) not in mapping:
                    return U("% format key missing")
            else:
                if args is None or k >= len(args):
                    return U("% format arguments do not match")
                value = args[k]
                k += 1
            flags, width, prec = m.group(3) or "", m.group(4) or "", m.group(5) or ""
            if conv in "sr" and isinstance(value, S) and not (flags or width or prec):
                if conv == "s" and not value.is_bytes:
                    b.add_value(value.value)
                elif conv == "s":
                    b.add_text(str(value.value.text.encode("latin-1", "replace")))
                else:
                    b.add_text(repr(value.value.text)) if HOLE not in value.value.text else b.add_hole()
            elif isinstance(value, C) and value.value is None and conv == "s" and not (flags or width or prec):
                b.add_value(_constant_text(None, value.note))
            elif isinstance(value, C):
                try:
                    b.add_text(("%" + flags + width + prec + conv) % (value.value,))
                except Exception:
                    return U("% format type mismatch")
            else:
                b.add_hole()
        i = last = m.end()
    if args is not None and k != len(args):
        return U("% format arguments do not match")
    b.add_value(fmt.value, last)
    return _checked(S(b.build(*_anchor(node, src), fmt.is_bytes), fmt.is_bytes))


def str_format(template, args, kwargs, node, src) -> object:
    """`'...{}...{name}...'.format(...)` with {{ }} escapes."""
    if not isinstance(template, S):
        return U("computed by .format")
    text = template.value.text
    b = StrBuilder()
    i = last = 0
    auto = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in "{}" and text.startswith(c * 2, i):
            b.add_value(template.value, last, i)
            b.add_text(c)
            i += 2
            last = i
            continue
        if c == "}":
            return U("a lone } in .format")
        if c == "{":
            close = text.find("}", i)
            if close < 0:
                return U("an unclosed { in .format")
            b.add_value(template.value, last, i)
            field = text[i + 1:close]
            name, _, spec = field.partition(":")
            name, _, conv = name.partition("!")
            key: Union[int, str]
            if name == "":
                key = auto
                auto += 1
            elif name.isdigit():
                key = int(name)
            else:
                key = name
            if isinstance(key, int):
                value = args[key] if key < len(args) else None
            else:
                value = kwargs.get(key)
            if value is None:
                return U(".format field not given")
            if spec or conv:
                if isinstance(value, C):
                    try:
                        b.add_text(format(repr(value.value) if conv == "r" else value.value, spec))
                    except Exception:
                        return U(".format spec")
                else:
                    b.add_hole()
            else:
                _append(b, value)
            i = last = close + 1
            continue
        i += 1
    b.add_value(template.value, last)
    return _checked(S(b.build(*_anchor(node, src), template.is_bytes), template.is_bytes))


def append_formatted(b: StrBuilder, value, field: ast.FormattedValue, src) -> None:
    spec = None
    if isinstance(field.format_spec, ast.JoinedStr):      # (the spec, when there is one, is a JoinedStr)
        if all(isinstance(v, ast.Constant) for v in field.format_spec.values):
            spec = "".join(str(v.value) for v in field.format_spec.values if isinstance(v, ast.Constant))
        else:
            b.add_hole()
            return
    conv = field.conversion
    if spec or conv in (ord("r"), ord("a")):
        if isinstance(value, C):
            try:
                shown = repr(value.value) if conv in (ord("r"), ord("a")) else value.value
                b.add_text(format(shown, spec or ""))
                return
            except Exception:
                pass
        b.add_hole()
        return
    _append(b, value)


def strjoin(sep, items, node, src) -> object:
    if not isinstance(sep, S) or not isinstance(items, L):
        return U("computed by join")
    b = StrBuilder()
    for k, item in enumerate(items.items):
        if k:
            b.add_value(sep.value)
        if isinstance(item, S):
            b.add_value(item.value)
        elif isinstance(item, U):
            b.add_hole()
        else:
            return U("join over non-strings")
    return _checked(S(b.build(*_anchor(node, src), sep.is_bytes), sep.is_bytes))


def pathjoin(parts, node, src) -> object:
    """posixpath.join over known parts; an unknown part is taken as a relative piece."""
    if len(parts) == 1 and isinstance(parts[0], L):
        parts = list(parts[0].items)
    start = 0
    for k, p in enumerate(parts):
        if isinstance(p, S) and p.value.text.startswith("/"):
            start = k
        elif not isinstance(p, (S, U)):
            return U("path.join over non-strings")
    b = StrBuilder()
    for k, p in enumerate(parts[start:]):
        if k:
            prev = b.parts[-1] if b.parts else ""
            if not prev.endswith("/") and prev:
                b.add_text("/")
        if isinstance(p, S):
            b.add_value(p.value)
        else:
            b.add_hole()
    return _checked(S(b.build(*_anchor(node, src)), False))


def stringify(v) -> object:
    if isinstance(v, S):
        return v if not v.is_bytes else U("str() of bytes")
    if isinstance(v, C):
        return S(_constant_text(v.value, v.note))
    if isinstance(v, U):
        return U(v.reason, str)
    return U("str() of a container")


def convert(v, name) -> object:
    if isinstance(v, C):
        try:
            return C({"bool": bool, "int": int, "float": float}[name](v.value))
        except Exception:
            return U(f"{name}()")
    if isinstance(v, S) and name == "bool":
        return C(bool(v.value.text)) if HOLE not in v.value.text else U("bool() of a computed string")
    if isinstance(v, Opaque):
        return Opaque({"bool": bool, "int": int, "float": float}[name], v.flag)
    return U(f"{name}()")


def to_kind(v, to_bytes: bool) -> object:
    if isinstance(v, S):
        return S(v.value, to_bytes)
    if isinstance(v, U):
        return U(v.reason, bytes if to_bytes else str)
    return U("not a string")


def subscript(base, index) -> object:
    if isinstance(base, D) and isinstance(index, S):
        for k, v in reversed(base.items):
            if isinstance(k, S) and k.value.text == index.value.text:
                return v
    if isinstance(base, L) and isinstance(index, C) and isinstance(index.value, int):
        try:
            return base.items[index.value]
        except IndexError:
            pass
    return U("subscript")


# ---------------------------------------------------------------- json.dumps, serialised here

def json_dumps(value, kwargs, node, src) -> object:
    opts = {}
    for key in ("indent", "sort_keys", "ensure_ascii", "separators"):
        if key in kwargs:
            vals = kwargs[key]
            if len(vals) != 1:
                return U("json.dumps options vary")
            v = vals[0]
            if isinstance(v, C):
                opts[key] = v.value
            elif isinstance(v, L) and all(isinstance(x, S) for x in v.items):
                opts[key] = tuple(x.value.text for x in v.items)
            elif isinstance(v, S):
                opts[key] = v.value.text
            else:
                return U("json.dumps options are computed")
    indent = opts.get("indent")
    seps = opts.get("separators") or ((", ", ": ") if indent is None else (",", ": "))
    b = StrBuilder()
    try:
        _dump(b, value, src, opts.get("ensure_ascii", True), indent, seps, bool(opts.get("sort_keys")), 0)
    except _NotJson as exc:
        return U(str(exc))
    return _checked(S(b.build(*_anchor(node, src), False, "json.dumps"), False))


class _NotJson(Exception):
    pass



def _dump(b: StrBuilder, v, src: SourceText, ascii_only, indent, seps, sort_keys, level) -> None:
    if isinstance(v, D):
        items = list(v.items)
        if sort_keys:
            if not all(isinstance(k, S) and HOLE not in k.value.text for k, _ in items):
                raise _NotJson("sort_keys over computed keys")
            items.sort(key=lambda kv: kv[0].value.text)
        b.add_text("{")
        for k, (key, val) in enumerate(items):
            if k:
                b.add_text(seps[0])
            _newline(b, indent, level + 1)
            if isinstance(key, S):
                _dump_str(b, key.value, ascii_only)
            elif isinstance(key, C) and not isinstance(key.value, (list, dict)):
                b.add_text(json.dumps(str(key.value) if not isinstance(key.value, bool) and key.value is not None
                                      else json.dumps(key.value)))
            else:
                b.add_hole()
            b.add_text(seps[1])
            _dump(b, val, src, ascii_only, indent, seps, sort_keys, level + 1)
        if items:
            _newline(b, indent, level)
        b.add_text("}")
        return
    if isinstance(v, L):
        b.add_text("[")
        for k, item in enumerate(v.items):
            if k:
                b.add_text(seps[0])
            _newline(b, indent, level + 1)
            _dump(b, item, src, ascii_only, indent, seps, sort_keys, level + 1)
        if v.items:
            _newline(b, indent, level)
        b.add_text("]")
        return
    if isinstance(v, S):
        if v.is_bytes:
            raise _NotJson("bytes are not JSON serialisable")
        _dump_str(b, v.value, ascii_only)
        return
    if isinstance(v, C):
        try:
            text = json.dumps(v.value)
        except (TypeError, ValueError):
            raise _NotJson("value not JSON serialisable")
        if v.node is not None and getattr(v.node, "end_col_offset", None) is not None:
            b.add_mapped(text, src.node_start(v.node), src.node_end(v.node))
        else:
            b.add_text(text)
        return
    if isinstance(v, U) and v.py_type is str:
        b.add_text('"')
        b.add_hole()
        b.add_text('"')
        return
    b.add_hole()


def _newline(b: StrBuilder, indent, level) -> None:
    if indent is None:
        return
    unit = " " * indent if isinstance(indent, int) else str(indent)
    b.add_text("\n" + unit * level)


def _dump_str(b: StrBuilder, value: StrValue, ascii_only: bool) -> None:
    """A JSON string literal; characters that need no escape keep their source positions."""
    text = value.text
    b.add_text('"')
    start = 0
    for k, ch in enumerate(text):
        if ch == HOLE:
            continue
        escaped = json.dumps(ch, ensure_ascii=ascii_only)[1:-1]
        if escaped != ch:
            b.add_value(value, start, k)
            b.add_text(escaped)
            start = k + 1
    b.add_value(value, start)
    b.add_text('"')
