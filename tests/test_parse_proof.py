"""source/parse_proof.py: a large file is proven to parse piece by piece, a file of large data literals without
their trees, and never a file that does not parse (NPP192 is never lost, and is the parser's own)."""

from __future__ import annotations

import ast
import random
import symtable

import pytest

from flake8_npuprof.checks import analysis
from flake8_npuprof.source import parse_proof
from flake8_npuprof.source.parse_proof import _displays, _literals, _value_end, parses

HEADER = "# word vectors\n#\n"


def vectors(words: int = 400, width: int = 50, seed: int = 1) -> str:
    """A dict of lists of floats written out as glove_MIT.py writes it: one line, `u''` keys."""
    rng = random.Random(seed)
    items = (f"u'w{k}': [" + ", ".join(repr(rng.uniform(-1, 1)) for _ in range(width)) + "]" for k in range(words))
    return "{" + ", ".join(items) + "}"


BIG = HEADER + "attrs_dict = " + vectors() + "\nobjs_dict = " + vectors(seed=2) + "\n"
ONE = HEADER + "objs_dict = " + vectors(words=800, seed=3) + "\n"


def test_the_file_is_large_enough():
    assert len(BIG) > parse_proof.MIN_TEXT and len(vectors()) > parse_proof.MIN_SPAN


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
    # one parse, of the placeholder text (the header and two set displays), no symbol table
    assert found is None and tables == [] and len(parsed) == 1 and parsed[0] < 100


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
    """The literal proof does not pass it; whether it parses or not, the pieces or the parser decide."""
    expected = analysis.parse(text, "glove.py")
    spans = _displays(text)
    assert not spans or not _literals(text, spans)
    assert not (parses(text) and isinstance(expected, analysis.Finding))
    assert analysis.syntax_check(text, "glove.py") == (expected if isinstance(expected, analysis.Finding) else None)


def test_only_a_file_mostly_of_literals_is_proven_by_its_literals(monkeypatch):
    """The rest of the text is parsed with ast.parse: worth it only when the literals are most of it."""
    span = len(vectors(words=800, seed=3))
    rest = len(ONE) - span                              # the header and the statement's start
    calls = []
    monkeypatch.setattr(parse_proof, "_literals", lambda text, spans: calls.append(len(spans)) or True)
    monkeypatch.setattr(parse_proof, "_in_pieces", lambda text: calls.append(0) or True)
    assert parses(ONE + "x = 1\n" * ((span - rest) // 6)) and parses(ONE + "x = 1\n" * ((span - rest) // 6 + 1))
    assert calls == [1, 0]                              # the second: the pieces
    small = HEADER + "v = " + vectors(words=30) + "\n"
    assert parse_proof.MIN_SPAN < len(small) < parse_proof.MIN_TEXT
    calls.clear()
    assert not parses(small) and calls == []


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


def code(functions: int = 1200) -> str:
    """A module of many small functions and classes, some decorated, with docstrings at the margin."""
    out = ['"""A long module.\n\nText at the margin\nof its docstring.\n"""\n', "import os\n"]
    for k in range(functions):
        if k % 7 == 0:
            out.append(f"@decorator({k})\n")
        if k % 11 == 0:
            out.append(f'def doc{k}():\n    """\nreturn {k}\nx = (\n"""\n    return {k}\n')
        out.append(f"def f{k}(a, b={k}):\n    if a:\n        return b\n    else:\n        return [a,\n  b]\n")
        if k % 5 == 0:
            out.append(f"if os.name:\n    v{k} = {k}\nelse:\n    v{k} = 0\n")
        if k % 13 == 0:
            out.append(f"try:\n    import mod{k}\nexcept ImportError:\n    pass\nfinally:\n    pass\n")
    return "".join(out)


CODE = code()


def test_a_large_module_is_proven_piece_by_piece(monkeypatch):
    assert len(CODE) > parse_proof.MIN_TEXT
    sizes = []
    real = symtable.symtable
    monkeypatch.setattr(symtable, "symtable", lambda text, *a: sizes.append(len(text)) or real(text, *a))
    assert parses(CODE)
    assert sum(sizes) >= len(CODE) and max(sizes) < 3 * parse_proof.PIECE and len(sizes) > 4


@pytest.mark.parametrize("where", [0.0, 0.3, 0.5, 0.77, 0.999])
@pytest.mark.parametrize("error", ["def (:\n", "x = (\n", "      y = 1\n", "else:\n    pass\n", "x = 'a\n",
                                   "nonlocal q\n", '"""\n', "\x00\n", "@decorator\n"])
def test_an_error_anywhere_is_the_parsers(where, error):
    at = CODE.index("\ndef ", int(len(CODE) * where)) + 1 if where else 0
    text = CODE[:at] + error + CODE[at:]
    expected = analysis.parse(text, "big.py")
    if error in ("nonlocal q\n", "@decorator\n"):     # the symbol table refuses the first, the parser does not;
        assert analysis.syntax_check(text, "big.py") == (   # the second is fine before a def (not a docstring)
            expected if isinstance(expected, analysis.Finding) else None)
        return
    assert isinstance(expected, analysis.Finding) and expected.code == "NPP192"
    assert not parses(text)
    assert analysis.syntax_check(text, "big.py") == expected


def test_random_modules_it_passes_all_parse(monkeypatch):
    """Soundness on random lines: whatever the pieces pass, Python parses whole."""
    monkeypatch.setattr(parse_proof, "MIN_TEXT", 0)
    monkeypatch.setattr(parse_proof, "PIECE", 8)
    lines = ["if x:", "    pass", "else:", "elif y:", "@d", "def f():", "    return 1", '"""', "text", "x = (", ")",
             "class C:", "try:", "except E:", "finally:", "    x = 1", "y = 2", "z = 1 + \\", "while x:", "  pass",
             "for a in b:", "match x:", "    case 1:", "        pass", "# note", "", "async def g():", "    await h",
             "x = [1,", "2]", "'''", "lambda: 0", "global g", "return", "    yield 1", "f(a for a in b)", "\tx = 1"]
    rng = random.Random(44)
    passed = 0
    for _ in range(20000):
        text = "\n".join(rng.choice(lines) for _ in range(rng.randint(1, 12))) + "\n"
        if parses(text):
            passed += 1
            ast.parse(text)
    assert passed > 400
