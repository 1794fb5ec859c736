"""A strict JSON reader (RFC 8259, as nlohmann and the collector parse) that keeps positions.

It is iterative (no recursion limit on nesting, see MAX_DEPTH) and linear in its input (strings are read by
a hand-written loop over runs of plain characters, never a backtracking pattern), reports the
first syntax error with its index, keeps every top-level member in order (duplicates included) with the index of its key
and value, and understands holes: an unknown piece (source.HOLE) inside a string makes that
string's value unknown (and a member whose value holds such a string at any depth, `["$X"]`, is
unknown as a whole: its content is not judged); a hole anywhere else makes the whole document unknown.
"""

from __future__ import annotations

import re
from typing import Any, List, NamedTuple, Optional, Pattern

from .text import HOLE

_WS = re.compile(r"[ \t\n\r]*")
_SPACE = frozenset(" \t\n\r")           # what _WS matches: without one at pos, the run ends there (no match made)
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')      # one character class: cannot backtrack


def _end(pattern: Pattern[str], text: str, pos: int) -> int:
    """Where a run of `pattern` (_WS, _PLAIN: they match the empty string too, so always) from pos ends."""
    m = pattern.match(text, pos)
    assert m is not None
    return m.end()
_HEX = frozenset("0123456789abcdefABCDEF")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_ESC = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# Containers nested deeper are kept empty: real options are flat, and what reads values after us
# (jsonschema, json.dumps) recurses; the type a check sees at each level stays right.
MAX_DEPTH = 32
MAX_CHARS = 1 << 24      # the runtime reads 2047 bytes; past this (above the file size bound) we stop


class Unknown:
    """A JSON string value with a hole: its exact content is not known statically."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Unknown({self.text!r})"


class JsonError(NamedTuple):
    message: str
    index: int      # type: ignore[assignment]  # (the field shadows tuple.index, which nothing here calls)
    hint: str = ""


_new_tuple = tuple.__new__        # a Member without the namedtuple's own __new__ (a Python frame per member)


class Member(NamedTuple):
    key: str
    key_start: int      # index of the opening quote of the key
    key_end: int        # index after the closing quote
    value: Any          # python value; Unknown for a string with a hole (also inside a list or dict)
    value_start: int
    value_end: int

    @property
    def unknown(self) -> bool:
        """The value is, or holds, a string with a hole."""
        return holds_unknown(self.value)


class Doc(NamedTuple):
    error: Optional[JsonError]
    root_type: Optional[str]        # "object", "array", "string", "number", "boolean", "null"
    members: List[Member]           # top-level object members in source order
    unknown: bool                   # structure depends on a hole
    start: int = 0                  # index of the root value
    end: int = 0                    # index after the root value

    @property
    def ok(self) -> bool:
        return self.error is None and not self.unknown and self.root_type == "object"

    def as_dict(self) -> dict:
        """Known members, the last of duplicate keys winning (as the runtime reads it)."""
        return {m.key: m.value for m in self.members if not m.unknown}

    def unknown_keys(self) -> set:
        return {m.key for m in self.members if m.unknown}


def holds_unknown(value) -> bool:
    """Whether `value` is or contains an Unknown (iteratively: nesting is bounded by MAX_DEPTH anyway)."""
    if not isinstance(value, (list, dict)):
        return isinstance(value, Unknown)
    todo = [value]
    while todo:
        v = todo.pop()
        for item in (v.values() if isinstance(v, dict) else v):
            if isinstance(item, Unknown):
                return True
            if isinstance(item, (list, dict)):
                todo.append(item)
    return False


def with_holes(value):
    """The value with each Unknown replaced by its text (its unknown pieces stay HOLE characters)."""
    if isinstance(value, Unknown):
        return value.text
    if isinstance(value, list):
        return [with_holes(v) for v in value]
    if isinstance(value, dict):
        return {k: with_holes(v) for k, v in value.items()}
    return value


def _type_name(value) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, (str, Unknown)):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _decode_string(body: str) -> str:
    if "\\" not in body:
        return body
    def sub(m):
        e = m.group(1)
        return chr(int(e[1:], 16)) if e[0] == "u" else _SIMPLE[e]
    # \ud83d\ude00 escapes a single character as a surrogate pair
    return _PAIR.sub(lambda m: chr(0x10000 + ((ord(m.group(0)[0]) - 0xD800) << 10)
                                   + ord(m.group(0)[1]) - 0xDC00), _ESC.sub(sub, body))


def parse(text: str) -> Doc:
    """Parse text as a JSON document; never raises."""
    n = len(text)
    if n > MAX_CHARS:
        return Doc(JsonError(f"the text is {n} characters long, too long to be read", 0), None, [], False)
    pos = _end(_WS, text, 0) if text[:1] in _SPACE else 0
    if pos >= n:
        return Doc(JsonError("the options string is empty or blank", pos), None, [], False)
    members: List[Member] = []
    # stack of containers: [kind, container, pending_key, key_start, key_end, value_start]
    stack: List[list] = []
    root_start = pos
    root = None
    state = "value"          # what we expect next
    while True:
        pos = _end(_WS, text, pos) if text[pos:pos + 1] in _SPACE else pos
        if pos >= n:
            return _error("the JSON text ends before it is complete", pos, text, members, stack)
        c = text[pos]
        if c == HOLE:
            return Doc(None, None, members, True, root_start, n)
        if state == "value":
            value: object
            value_start = pos
            if c == "{":
                stack.append(["object", {}, None, 0, 0, pos])
                pos += 1
                state = "key_or_close"
                continue
            if c == "[":
                stack.append(["array", [], None, 0, 0, pos])
                pos += 1
                state = "value_or_close"
                continue
            if c == '"':
                end, problem = _scan_string(text, pos)
                if problem:
                    return _string_problem(problem, text, members, stack, root_start)
                body = text[pos + 1:end - 1]
                value = Unknown(_decode_string(body)) if HOLE in body else _decode_string(body)
                pos = end
            elif c == "-" or c.isdigit():
                m = _NUMBER.match(text, pos)
                if not m or m.end() == pos:
                    return _error("a number is malformed", pos, text, members, stack)
                value = _number(m)
                if value is None:
                    return _error("a number overflows a double, which the runtime's parser rejects",
                                  pos, text, members, stack)
                pos = m.end()
            elif text.startswith("true", pos):
                value, pos = True, pos + 4
            elif text.startswith("false", pos):
                value, pos = False, pos + 5
            elif text.startswith("null", pos):
                value, pos = None, pos + 4
            else:
                return _error("expected a JSON value", pos, text, members, stack)
            done = _store(stack, members, value, value_start, pos)
            if done:
                root = value
                break
            state = "sep"
            continue
        if state in ("key_or_close", "key"):
            if c == "}" and state == "key_or_close":
                pos += 1
                root = _close(stack, members, pos)
                if root is not _OPEN:
                    break
                state = "sep"
                continue
            if c != '"':
                return _error("expected a double-quoted key", pos, text, members, stack)
            end, problem = _scan_string(text, pos)
            if problem:
                return _string_problem(problem, text, members, stack, root_start)
            body = text[pos + 1:end - 1]
            if HOLE in body:
                return Doc(None, "object", members, True, root_start, n)
            frame = stack[-1]
            frame[2] = _decode_string(body)
            frame[3], frame[4] = pos, end
            pos = _end(_WS, text, end) if text[end:end + 1] in _SPACE else end
            if pos < n and text[pos] == HOLE:
                return Doc(None, "object", members, True, root_start, n)
            if pos >= n or text[pos] != ":":
                return _error("expected ':' after the key", pos, text, members, stack)
            pos += 1
            state = "value"
            continue
        if state == "value_or_close":
            if c == "]":
                pos += 1
                root = _close(stack, members, pos)
                if root is not _OPEN:
                    break
                state = "sep"
                continue
            state = "value"
            continue
        # state == "sep": after a value inside a container
        frame = stack[-1]
        closer = "}" if frame[0] == "object" else "]"
        if c == ",":
            pos += 1
            nxt = _end(_WS, text, pos) if text[pos:pos + 1] in _SPACE else pos
            if nxt < n and text[nxt] == closer:
                return _error("trailing comma before '" + closer + "'", pos - 1, text, members, stack,
                              "trailing_comma")
            state = "key" if frame[0] == "object" else "value"
            continue
        if c == closer:
            pos += 1
            root = _close(stack, members, pos)
            if root is not _OPEN:
                break
            state = "sep"
            continue
        return _error(f"expected ',' or '{closer}'", pos, text, members, stack)
    end = pos
    pos = _end(_WS, text, pos) if text[pos:pos + 1] in _SPACE else pos
    if pos < n:
        if text[pos] == HOLE:
            return Doc(None, _type_name(root), members, True, root_start, end)
        return Doc(JsonError("extra text after the JSON value", pos), _type_name(root), members,
                   False, root_start, end)
    return Doc(None, _type_name(root), members, False, root_start, end)


_OPEN = object()         # _close(): the closed container was not the root


def _close(stack, members, end):
    """Close the innermost container; the root value when it was the root, else _OPEN."""
    value = stack[-1][1]
    start = stack.pop()[5]
    return value if _store(stack, members, value, start, end) else _OPEN


def _store(stack, members, value, start, end) -> bool:
    """Put a finished value into its container; True when it was the root."""
    if not stack:
        return True
    frame = stack[-1]
    if len(stack) >= MAX_DEPTH and isinstance(value, (list, dict)):
        value = type(value)()
    if frame[0] == "object":
        frame[1][frame[2]] = value
        if len(stack) == 1:
            members.append(_new_tuple(Member, (frame[2], frame[3], frame[4], value, start, end)))
    else:
        frame[1].append(value)
    return False


_UNTERMINATED = "a string is not terminated"


def _scan_string(text: str, pos: int):
    """Read the string whose opening quote is at pos: (index after its closing quote, None),
    or (index, (message, error index)) for the first problem. Linear: runs of plain characters
    are skipped by a single character class, escapes and the rest looked at one by one."""
    n = len(text)
    i = pos + 1
    while True:
        i = _end(_PLAIN, text, i)
        if i >= n:
            return i, (_UNTERMINATED, pos)
        c = text[i]
        if c == '"':
            return i + 1, None
        if c == "\\":
            e = text[i + 1:i + 2]
            if e == "u" and len(text) >= i + 6 and all(h in _HEX for h in text[i + 2:i + 6]):
                i += 6
                continue
            if e in _SIMPLE:
                i += 2
                continue
            return i, ("invalid escape in a string", i)
        return i, (f"{_control_name(c)} inside a string", i)


_CONTROL_NAMES = {"\n": "newline", "\r": "carriage return", "\t": "tab", "\x00": "NUL"}


def _control_name(c: str) -> str:
    """How a raw control character is named in a message (it cannot be shown as itself)."""
    name = _CONTROL_NAMES.get(c, "control character")
    return f"raw {name} U+{ord(c):04X}"


def _string_problem(problem, text, members, stack, root_start) -> Doc:
    message, index = problem
    if message == _UNTERMINATED and HOLE in text[index:]:
        # the unknown piece may hold the closing quote (or escape the character): not ours to judge
        return Doc(None, "object" if stack else None, members, True, root_start, len(text))
    return _error(message, index, text, members, stack)


def _number(m):
    """A number token's value; None when it overflows a double (nlohmann's "number overflow" parse
    error). float() first: it has no digit limit, and a finite double has at most 309 integer
    digits, well within the int-string limit int() is subject to."""
    tok = m.group(0)
    value = float(tok)
    if value in (float("inf"), float("-inf")):
        return None
    return value if (m.group(1) or m.group(2)) else int(tok)


_LEGACY = re.compile(r"^\s*(training_trace|task_trace|op_trace)(\s*:\s*(training_trace|task_trace|op_trace))*\s*$")


def _error(message, pos, text, members, stack, hint="") -> Doc:
    stripped = text.strip()
    if hint:
        pass
    elif _LEGACY.match(text):
        hint = "legacy"
    elif pos < len(text) and text[pos] == "'":
        hint = "single_quotes"
    elif re.match(r"(True|False|None)\b", text[pos:pos + 5]):
        hint = "python_literal"
    elif stripped and stripped[0] not in "{[\"-0123456789tfn":
        hint = "not_json"
    root_type = "object" if text.lstrip().startswith("{") else None
    return Doc(JsonError(message, pos, hint), root_type, members, False)
