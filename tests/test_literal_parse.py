"""source/literal_parse.py: a large file of data literals is proven to parse without its tree, and never when
it does not parse (NPP192 is never lost, and is the parser's own)."""

from __future__ import annotations

import ast
import random
import symtable

import pytest

from flake8_npuprof.checks import analysis
from flake8_npuprof.source import literal_parse
from flake8_npuprof.source.literal_parse import _value_end, parses

HEADER = "# word vectors\n#\n"


def vectors(words: int = 400, width: int = 50, seed: int = 1) -> str:
    """A dict of lists of floats written out as glove_MIT.py writes it: one line, `u''` keys."""
    rng = random.Random(seed)
    items = (f"u'w{k}': [" + ", ".join(repr(rng.uniform(-1, 1)) for _ in range(width)) + "]" for k in range(words))
    return "{" + ", ".join(items) + "}"


BIG = HEADER + "attrs_dict = " + vectors() + "\nobjs_dict = " + vectors(seed=2) + "\n"
ONE = HEADER + "objs_dict = " + vectors(words=800, seed=3) + "\n"


def test_the_file_is_large_enough():
    assert len(BIG) > literal_parse.MIN_TEXT and len(vectors()) > literal_parse.MIN_SPAN


def _parsed_only_by_the_proof(monkeypatch, text):
    """syntax_check's answer, with the parser and symbol table counted (only the placeholder may be parsed)."""
    parsed, tables = [], []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *a, **k: parsed.append(len(source)) or real_parse(source, *a, **k))
    monkeypatch.setattr(symtable, "symtable", lambda *a, **k: tables.append(1))
    return analysis.syntax_check(text, "glove.py"), parsed, tables


def test_a_file_of_vectors_is_proven_to_parse_without_its_tree(monkeypatch):
    assert parses(BIG)
    found, parsed, tables = _parsed_only_by_the_proof(monkeypatch, BIG)
    # one parse, of the placeholder text (the same length, but two set displays and blanks), no symbol table
    assert found is None and tables == [] and parsed == [len(BIG)]


@pytest.mark.parametrize("text", [
    BIG + "def f(:\n    pass\n",                                  # an error after the literals
    "def f(:\n    pass\n" + BIG,                                  # before them
    HEADER + "x = (\n" + BIG,                                     # an open bracket before: they are not statements
    BIG.replace(", ", " ", 1),                                    # a comma missing inside the first one
    BIG[:-200] + "\n",                                            # cut short inside the second
    BIG.replace("objs_dict = {", "objs_dict = {{", 1),             # one bracket more
    BIG + "x = 1 +\n",
    BIG.replace("\nobjs_dict", "\n  objs_dict", 1),                 # an unexpected indent
    'doc = """\n' + BIG + '"""\n' + "def f(:\n    pass\n",         # inside a string, and an error after it
    BIG.replace("0.", "0.0.", 1),
    BIG.replace("u'w3'", "u'w3\\x'", 1),                          # an escape Python refuses
    BIG.replace("]}", "]]", 1),
])
def test_a_file_that_does_not_parse_is_reported_as_the_parser_reports_it(text):
    expected = analysis.parse(text, "glove.py")
    assert isinstance(expected, analysis.Finding) and expected.code == "NPP192"
    assert not parses(text)
    assert analysis.syntax_check(text, "glove.py") == expected
    assert analysis.analyse(text, None, "glove.py") == [expected]


@pytest.mark.parametrize("text", [
    'doc = """\n' + ONE + '"""\n',                                 # inside a string: no statement there
    "f = f'''\n" + ONE + "'''\n",                                  # inside an f-string
    ONE.replace("objs_dict = {", "objs_dict = {u'x': 1}.copy() or {", 1),
    "if True:\n" + ONE.replace("\n", "\n    ").replace("\n    #", "\n#"),   # not at module level
    ONE.replace("objs_dict = {", "objs_dict = 1, {", 1),            # part of a tuple
    ONE.replace("objs_dict = ", "objs_dict = x ", 1),              # after a name (the tokens differ)
    ONE[:-1] + "[u'w1']\n",                                         # a subscript after it
    ONE[:-1] + ".copy()\n",                                         # a call after it
])
def test_a_literal_that_is_not_the_whole_value_of_a_module_statement_is_parsed(monkeypatch, text):
    """Whether it parses or not, the parser decides."""
    expected = analysis.parse(text, "glove.py")
    assert not parses(text)
    assert analysis.syntax_check(text, "glove.py") == (expected if isinstance(expected, analysis.Finding) else None)


def test_only_a_file_mostly_of_literals_is_proven():
    """The rest of the text is parsed with ast.parse: worth it only when the literals are most of it."""
    span = len(vectors(words=800, seed=3))
    rest = len(ONE) - span                              # the header and the statement's start
    assert parses(ONE + "x = 1\n" * ((span - rest) // 6)) and not parses(ONE + "x = 1\n" * ((span - rest) // 6 + 1))
    small = HEADER + "v = " + vectors(words=30) + "\n"
    assert literal_parse.MIN_SPAN < len(small) < literal_parse.MIN_TEXT and not parses(small)


def test_crlf_and_several_targets_and_a_semicolon():
    text = BIG.replace("\n", "\r\n").replace("attrs_dict =", "a = attrs_dict =").replace(
        "objs_dict = " + vectors(seed=2), "objs_dict = " + vectors(seed=2) + "; b = 1")
    ast.parse(text)
    assert parses(text)


@pytest.mark.parametrize("display, accepted", [
    ("[]", True), ("()", True), ("{}", True), ("[1, -2.5, +3e-7, 0.0]", True), ("(1,)", True), ("(1)", True),
    ("{1, 2,}", True), ("{1: [2], 'a': (3, 4),}", True), ("{1}", True), ("[[[]]]", True),
    ("[\n 1,\n 2\n]", True), ('["a\\"b", \'c\']', True), ("[u'x', U\"y\"]", True),
    ("[,]", False), ("[1,,2]", False), ("(,)", False), ("{1: 2, 3}", False), ("{1, 2: 3}", False),
    ("{1:}", False), ("{:1}", False), ("{1: 2: 3}", False), ("[1: 2]", False), ("[1 2]", False),
    ("['a' 'b']", False), ("['']", False), ("['''a''']", False), ("[01]", False), ("[1.]", False),
    ("[.5]", False), ("[1_0]", False), ("[0x1]", False), ("[1j]", False), ("[1if 1 else 2]", False),
    ("[r'a']", False), ("[b'a']", False), ("[f'a']", False), ("['\\d']", False), ("['a\tb']", False),
    ("[1 # note\n]", False), ("[1, \\\n 2]", False), ("[x]", False), ("[None]", False), ("[--1]", False),
    ("[1" + "0" * 70 + "]", False), ("[" * 17 + "]" * 17, False), ("[" * 16 + "]" * 16, True),
    ("[1, 2", False), ("[1)", False), ("['a\ud800']", False), ("[1,\t2]", False),
])
def test_the_recogniser_accepts_only_what_python_parses(display, accepted):
    end = _value_end(display, 0)
    assert (end == len(display)) is accepted
    if accepted:
        ast.parse("x = " + display)


def test_random_displays_it_accepts_all_parse():
    """Soundness on random token soup: whatever the recogniser accepts whole, Python parses."""
    pieces = ["[", "]", "(", ")", "{", "}", ",", ":", " ", "\n", "1", "-0.5", "+2e3", "0", "00", "1.", "e5",
              "'a'", "u'b'", "''", "'", '"', '"c"', "\\", "#", "x", "r", ".", "_", "j", "\t", "\r\n"]
    rng = random.Random(44)
    accepted = 0
    for _ in range(30000):
        text = rng.choice("[({") + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        end = _value_end(text, 0)
        if end is None:
            continue
        accepted += 1
        ast.parse("x = " + text[:end] + "\n")        # the accepted prefix is a whole display
    assert accepted > 1000
