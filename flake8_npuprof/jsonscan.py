"""A strict JSON reader (RFC 8259, as nlohmann and the collector parse) that keeps positions.

It is iterative (no recursion limit on nesting), reports the first syntax error with its
index, keeps every top-level member in order (duplicates included) with the index of its key
and value, and understands holes: an unknown piece (source.HOLE) inside a string makes that
string's value unknown; a hole anywhere else makes the whole document unknown.
"""

from __future__ import annotations

import re
from typing import Any, List, NamedTuple, Optional

from .source import HOLE

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"((?:[^"\\\x00-\x1f]+|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_ESC = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class Unknown:
    """A JSON string value with a hole: its exact content is not known statically."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Unknown({self.text!r})"


class JsonError(NamedTuple):
    message: str
    index: int
    hint: str = ""


class Member(NamedTuple):
    key: str
    key_start: int      # index of the opening quote of the key
    key_end: int        # index after the closing quote
    value: Any          # python value; Unknown for a string with a hole
    value_start: int
    value_end: int

    @property
    def unknown(self) -> bool:
        return isinstance(self.value, Unknown)


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
    pos = _WS.match(text, 0).end()
    if pos >= n:
        return Doc(JsonError("the options string is empty or blank", pos), None, [], False)
    members: List[Member] = []
    # stack of containers: [kind, container, pending_key, key_start, key_end, value_start]
    stack: List[list] = []
    root_start = pos
    root = None
    state = "value"          # what we expect next
    while True:
        pos = _WS.match(text, pos).end()
        if pos >= n:
            return _error("the JSON text ends before it is complete", pos, text, members, stack)
        c = text[pos]
        if c == HOLE:
            return Doc(None, None, members, True, root_start, n)
        if state == "value":
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
            m = None
            if c == '"':
                m = _STRING.match(text, pos)
                if not m:
                    return _string_error(text, pos, members, stack)
                body = m.group(1)
                value = Unknown(_decode_string(body)) if HOLE in body else _decode_string(body)
                pos = m.end()
            elif c == "-" or c.isdigit():
                m = _NUMBER.match(text, pos)
                if not m or m.end() == pos:
                    return _error("a number is malformed", pos, text, members, stack)
                tok = m.group(0)
                value = float(tok) if (m.group(1) or m.group(2)) else int(tok)
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
            m = _STRING.match(text, pos)
            if not m:
                return _string_error(text, pos, members, stack)
            if HOLE in m.group(1):
                return Doc(None, "object", members, True, root_start, n)
            frame = stack[-1]
            frame[2] = _decode_string(m.group(1))
            frame[3], frame[4] = pos, m.end()
            pos = _WS.match(text, m.end()).end()
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
            nxt = _WS.match(text, pos).end()
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
    pos = _WS.match(text, pos).end()
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
    if frame[0] == "object":
        frame[1][frame[2]] = value
        if len(stack) == 1:
            members.append(Member(frame[2], frame[3], frame[4], value, start, end))
    else:
        frame[1].append(value)
    return False


def _string_error(text, pos, members, stack) -> Doc:
    i = pos + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            break
        if c == "\\":
            if not re.match(r'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})', text[i:i + 6]):
                return _error("invalid escape in a string", i, text, members, stack)
            i += 2
            continue
        if ord(c) < 0x20:
            return _error("control character (a raw newline or tab) inside a string", i, text,
                          members, stack)
        i += 1
    return _error("a string is not terminated", pos, text, members, stack)


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
