"""The execution order's hot lines (setups/inventory._hot_lines) are found either by searching each name or in one
pass over the text's identifiers, whichever is cheaper: both ways give the same lines, so the same findings."""

import sys
from pathlib import Path

import pytest

from flake8_npuprof.engine.run import check_text
from flake8_npuprof.lsp_analysis import Selection, Settings
from flake8_npuprof.setups import inventory as I

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))


def _texts():
    from server_latency import training_script
    return [training_script(1500)] + [p.read_text(encoding="utf-8") for p in sorted((HERE / "eval_files").glob("*.py"))]


def _lines(monkeypatch, text, searched: bool):
    monkeypatch.setattr(I, "_MOST_SEARCHED", 10 ** 9 if searched else 0)
    monkeypatch.setattr(I, "_LINES_PER_SEARCH", 0 if searched else 10 ** 9)
    got = []
    real = I.ExecOrder._hot_lines

    def spy(self, text, starts):
        got.append(real(self, text, starts))
        return got[-1]
    monkeypatch.setattr(I.ExecOrder, "_hot_lines", spy)
    findings = check_text("t.py", text, "python", Settings(), Selection())
    return got, findings


@pytest.mark.parametrize("k", range(8))
def test_searching_each_name_and_one_pass_find_the_same_lines(monkeypatch, k):
    texts = _texts()
    text = texts[k * len(texts) // 8]
    by_name, f1 = _lines(monkeypatch, text, True)
    by_pass, f2 = _lines(monkeypatch, text, False)
    assert by_name[:1] == by_pass[:1] and f1 == f2
    if k == 0:                          # the benchmark's script asks for them (a file without functions may not)
        assert by_name and by_name[0]

