"""Literal decoding and the map back to source characters."""

import ast

import pytest

from flake8_npuprof.source.text import SourceText, literal_value


def _value(code):
    src = SourceText(code)
    tree = ast.parse(code)
    node = tree.body[0].value
    return src, literal_value(src, node)


@pytest.mark.parametrize("code", [
    "x = 'abc'",
    "x = 'a\\nb\\tc\\\\d'",
    "x = b'\\x41\\101'",
    "x = r'a\\nb'",
    "x = ('a'  # comment\n     \"b\"\n     '''c\nd''')",
    "x = 'a' \\\n    'b'",
    "x = '\\N{BULLET}\\u00e9\\U0001F600'",
    "x = f'plain' 'more'",
    "x = f'{{braces}}'",
    "x = '中文' '和\\x41'",
    "x = 'line\\\ncontinued'",
    "x = 'line\\\r\ncontinued'",
    "x = \"\"\"tri\r\nple\"\"\"",
])
def test_decoded_text_matches_python(code):
    src, value = _value(code)
    expected = ast.literal_eval(code.split("=", 1)[1].strip()) if "f'" not in code else \
        eval(code.split("=", 1)[1].strip())  # noqa: S307 - test input
    if isinstance(expected, bytes):
        expected = expected.decode("latin-1")
    assert value.text == expected
    assert value.runs or value.text == ""


def test_every_character_maps_to_its_source():
    code = "x = ('{\"a\":' \\\n  '\"\\u00e9\"}')  # 中文\n"
    src, value = _value(code)
    assert value.text == '{"a":"\u00e9"}'
    # the escape \u00e9 decodes to one character whose source is the 6-char escape
    i = value.text.index("\u00e9")
    a, b = value.src(i), value.src_end(i)
    assert code[a:b] == "\\u00e9"
    for k, ch in enumerate(value.text):
        if ch != "\u00e9":
            assert code[value.src(k)] == ch


def test_columns_are_characters_not_bytes():
    code = "# 中文\ny = '中文中文' + 'x'\nz = '中文{\"k\": 1}'\n"
    src = SourceText(code)
    tree = ast.parse(code)
    node = tree.body[1].value
    value = literal_value(src, node)
    k = value.text.index("k")
    line, col = src.position(value.src(k))
    assert (line, col) == (3, 9)
    assert code.splitlines()[2][col] == "k"


def test_bytes_with_non_ascii_utf8_keeps_value_but_no_map():
    code = "x = b'\\xe4\\xb8\\xad'"
    src, value = _value(code)
    assert value.text == "中"
    assert value.runs == []


def test_crlf_continuation_inside_a_string_keeps_positions():
    # found on a model-zoo script with CRLF endings: the literal was unreadable, so check pointed at
    # the string's start while flake8 (which hands us \n lines) pointed at the value
    code = "x = '{\"output\": \"%s\", \\\r\n     \"aicpu\": \"on\"}'\r\n"
    src = SourceText(code)
    tree = ast.parse(code.replace("\r\n", "\n"))
    value = literal_value(src, tree.body[0].value)
    assert value.text == '{"output": "%s",      "aicpu": "on"}'
    assert src.position(value.src(value.text.index("%s"))) == (1, 17)
    assert src.position(value.src(value.text.index("aicpu"))) == (2, 6)


def test_crlf_source_positions():
    code = "a = 1\r\nx = ('{\"L2\":' \r\n     '\"on\"}')\r\n"
    src = SourceText(code)
    tree = ast.parse(code.replace("\r\n", "\n"))
    value = literal_value(src, tree.body[1].value)
    i = value.text.index("L2")
    assert src.position(value.src(i)) == (2, 8)



@pytest.mark.parametrize("text", [
    "", "\n", "a", "a\n", "a\nb", "a\nb\n", "a\n\n\nb\n\n", "x = 1\r\ny = 2\n", "a\rb\n",
    "a\x0cb\nc\n",               # a form feed: str.splitlines splits there too, not only after an LF
    "a\x1cb\u2028c\x85d\n", "中文\n# 注释\nx = 'é'\n",
])
def test_line_starts_from_the_lines_are_those_of_the_text(text):
    # the plugin hands flake8's lines over (split after each LF); lines split elsewhere as well are not used
    whole = SourceText(text).line_starts
    if "\r" not in text:
        assert whole == [0] + [k + 1 for k, c in enumerate(text) if c == "\n"]
    for lines in (text.splitlines(True), [text], []):
        if "".join(lines) == text:
            assert SourceText(text, lines).line_starts == whole


@pytest.mark.parametrize("text", [
    "x = 1  # 中文\ny = 2\n", "a = 'é'\nfor k in b: pass\n\nz = '注'", "plain = 1\n", "a\x0cb = '中'\nc = 1\n",
])
def test_flake8s_lines_block_the_lines_the_text_does(text):
    # the sites walk reads the lines outside ASCII from flake8's lines when they are the pieces between LFs
    from flake8_npuprof.source.site_walk import _blocked_lines
    src = SourceText(text, text.splitlines(True))
    assert (src.lf_lines is None) == ("\x0c" in text)
    assert _blocked_lines(text, src.line_starts, pieces=src.lf_lines) == _blocked_lines(text, src.line_starts)
    if "中" in text:
        assert 1 in _blocked_lines(text, src.line_starts, pieces=src.lf_lines)
