"""Op names of a graph dump, for checking fp_point / bp_point (NPP903).

Two text formats are read, both protobuf text format:
  - a TensorFlow GraphDef written by `tf.io.write_graph(..., as_text=True)`: `node { name: "..." }`;
  - a GE build dump `ge_proto_*_Build.txt`: `op { name: "..." }`, plus the pre-fusion names GE
    records on fused ops (attributes such as `_datadump_original_op_names`), which GE also
    matches when it looks for the trace points.
The reader is a small tokenizer, not a protobuf parser: it only tracks which block a field is
in, so it accepts dumps of any size and never needs the .proto files.
"""

from __future__ import annotations

import codecs
import os
import re
from functools import lru_cache
from typing import FrozenSet, Iterator, List, NamedTuple, Tuple

# Blocks whose direct `name:` field is an op name.
OP_BLOCKS = ("node", "op")
# Attribute keys under which GE keeps the names an op had before fusion.
ORIGINAL_NAMES = re.compile(r"original_op_names?$")

_TOKEN = re.compile(r'\s+|#[^\n]*|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[{}:<>\[\],;]|[^\s{}:<>\[\],;"\']+')


class GraphError(Exception):
    pass


class Graph(NamedTuple):
    path: str
    kind: str                       # "GraphDef" or "GE dump"
    names: FrozenSet[str]           # node / op names
    original: FrozenSet[str]        # pre-fusion names recorded by GE

    def has(self, name: str) -> bool:
        return name in self.names or name in self.original

    def close(self, name: str, n: int = 3) -> List[str]:
        import difflib
        pool = sorted(self.names | self.original)
        if len(pool) > 20000:           # difflib is quadratic in the worst case: narrow by suffix
            tail = name.rsplit("/", 1)[-1]
            pool = [p for p in pool if p.endswith(tail)] or pool[:20000]
        return difflib.get_close_matches(name, pool, n=n, cutoff=0.75)


def _unquote(token: str) -> str:
    body = token[1:-1]
    if "\\" not in body:
        return body
    try:
        # typeshed says escape_decode returns str; it returns bytes (CPython's Modules/_codecsmodule.c)
        return codecs.escape_decode(body.encode("utf-8"))[0].decode("utf-8", "replace")  # type: ignore[attr-defined]
    except (ValueError, UnicodeDecodeError):
        return body


def _tokens(text: str) -> Iterator[str]:
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok[0].isspace() or tok[0] == "#":
            continue
        yield tok


def parse(text: str, path: str = "<graph>") -> Graph:
    """Names of a GraphDef or GE dump in protobuf text format."""
    names, original = set(), set()
    stack: List[str] = []           # block field names, outermost first
    attr_key: List[str] = []        # the `key:` of the attr block being read, per attr depth
    field = None                    # last field name seen (before `:` or `{`)
    expect_value = False
    saw_op_block = False
    for tok in _tokens(text):
        if tok in ("{", "<"):
            stack.append(field or "")
            if field == "attr":
                attr_key.append("")
            saw_op_block = saw_op_block or field in OP_BLOCKS
            field, expect_value = None, False
        elif tok in ("}", ">"):
            if not stack:
                raise GraphError("unbalanced '}'")
            if stack.pop() == "attr" and attr_key:
                attr_key.pop()
            field, expect_value = None, False
        elif tok == ":":
            expect_value = True
        elif tok[0] in "\"'" and expect_value:
            value = _unquote(tok)
            if field == "name" and stack and stack[-1] in OP_BLOCKS:
                names.add(value)
            elif field == "key" and stack and stack[-1] == "attr" and attr_key:
                attr_key[-1] = value
            elif field == "s" and attr_key and ORIGINAL_NAMES.search(attr_key[-1]):
                original.add(value)
            # a repeated string field keeps `s: "a" s: "b"`: the next `s` token resets expect_value
        elif tok in (",", ";", "[", "]"):
            continue
        else:
            field, expect_value = tok, False
    if stack:
        raise GraphError("unbalanced '{'")
    if not saw_op_block:
        raise GraphError("no `node { name: ... }` or `op { name: ... }` entries: not a GraphDef pbtxt or GE dump")
    kind = "GE dump" if "op" in _blocks_seen(text) else "GraphDef"
    return Graph(path, kind, frozenset(names), frozenset(original))


def _blocks_seen(text: str) -> Tuple[str, ...]:
    return tuple(sorted(set(re.findall(r"^\s*(op|node)\s*\{", text, re.M))))


@lru_cache(maxsize=8)
def _load(path: str, mtime: float, size: int) -> Graph:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise GraphError(f"cannot read: {exc.strerror or exc}") from None
    return parse(text, path)


def load(path: str) -> Graph:
    """The graph at path, parsed once per version of the file (flake8 checks many files)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise GraphError(f"cannot read: {exc.strerror or exc}") from None
    if os.path.isdir(path):
        raise GraphError("is a directory")
    return _load(os.path.abspath(path), st.st_mtime, st.st_size)
