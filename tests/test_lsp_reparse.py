"""The server's reparse of an edited document gives the tree Python gives the whole text, positions
included, and parses again only what an edit touched."""

import ast
import random
import sys
from pathlib import Path

import pytest

from flake8_npuprof import lsp_reparse

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

# what editing inserts: characters that open or close brackets, strings, blocks, continuations, lines
SNIPPETS = ["\n", " ", "x", "(", ")", "[", "]", '"', "'", '"""', "#", "\\", "\\\n", ":", "    ", "\n\n",
            "def f():\n    pass\n", "@dec\n", "if x:\n", "else:\n", "; y = 2", "\r\n", "\r", "\t",
            "from __future__ import annotations\n", "class C:\n    a = 1\n", "return 1\n", "\x0c", "é", "\n    z = 3\n"]


def _dump(tree):
    return ast.dump(tree, include_attributes=True)


def _whole(text):
    try:
        return _dump(ast.parse(text))
    except (SyntaxError, ValueError):
        return None


def _sources():
    from server_latency import training_script
    files = sorted((HERE / "eval_files").glob("*.py"))[:8] + sorted((HERE.parent / "examples").rglob("*.py"))[:4]
    return [training_script(300)] + [p.read_text(encoding="utf-8") for p in files]


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")     # escapes edits make
@pytest.mark.parametrize("seed", range(6))
def test_random_edits_give_the_whole_parse(seed):
    rng = random.Random(seed)
    for n, text in enumerate(_sources()):
        key = f"doc{seed}-{n}"
        lsp_reparse.forget(key)
        for _ in range(40):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.35 and at < len(text):
                text = text[:at] + text[at + rng.randrange(1, 40):]          # a deletion
            else:
                text = text[:at] + rng.choice(SNIPPETS) + text[at:]
            tree = lsp_reparse.parse(key, text)
            assert (None if tree is None else _dump(tree)) == _whole(text), (seed, n, at)


def test_an_edit_inside_a_statement_parses_only_that_statement(monkeypatch):
    from server_latency import training_script
    text = training_script(1500)
    lsp_reparse.forget("t")
    lsp_reparse.parse("t", text)
    parsed = []
    real = ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *a, **k: parsed.append(source) or real(source, *a, **k))
    at = text.index("decay_steps=10000", len(text) // 2) + len("decay_steps=1")
    edited = text[:at] + "2" + text[at + 1:]
    tree = lsp_reparse.parse("t", edited)
    assert _dump(tree) == _dump(real(edited))
    (chunk,) = parsed
    assert len(chunk.strip()) < 400                  # one helper function, not 1,500 lines
    # an edit that adds a line parses the rest of the document again: later statements moved
    parsed.clear()
    line = edited.rindex("\ndef ", 0, at) + 1
    grown = edited[:line] + "\n" + edited[line:]
    assert _dump(lsp_reparse.parse("t", grown)) == _dump(real(grown))
    (chunk,) = parsed
    assert chunk.count("\n") == grown.count("\n") and "import argparse" not in chunk    # from the edit on


def test_the_server_reports_what_a_fresh_analysis_reports():
    from server_latency import training_script
    from flake8_npuprof import lsp_analysis as A
    from flake8_npuprof.engine.run import check_text
    doc = A.DocSettings(A.Settings(), A.Selection(), (), None)
    text = training_script(400)
    lsp_reparse.forget("s.py")
    for k in range(6):
        if k % 2:
            text = text.replace('"L2"', '"l2"') if '"L2"' in text else text.replace('"l2"', '"L2"')
        else:
            at = text.index("decay_steps=", len(text) // 2) + len("decay_steps=")
            text = text[:at] + "1" + text[at:]
        got = A.analyse_document(text, "s.py", "python", doc).findings
        assert got == check_text("s.py", text, "python", doc.settings, doc.selection)
        assert ("NPP101" in [f.code for f in got]) == ('"L2"' in text)
