"""Cost bounded by work, not by bytes (issue 26): one analysis per file whatever the output mode, noqa
comments read only for a file with findings, a per-file budget counted in words and symbols that ends
in NPP191 (never a parse of a file over it), and a work count that grows with the words of a file up
to that budget, whatever the file does. No timings: calls and parses are counted."""

from __future__ import annotations

import ast
import sys

import pytest

from flake8_npuprof.checks import analysis
from flake8_npuprof.checks.analysis import analyse
from flake8_npuprof.cli import main
from flake8_npuprof.engine import run as runner
from flake8_npuprof.source import prefilter

from test_cli_conventions import BAD, HELD, CLEAN


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _count(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize("argv", [[], ["-q"], ["--format", "json"], ["--statistics"], ["--show-source"]])
def test_check_analyses_each_file_once_in_every_output_mode(project, capsys, monkeypatch, argv):
    (project / "held.py").write_text(HELD)
    (project / "bad.py").write_text(BAD)
    contexts = _count(monkeypatch, analysis.Context, "__init__")
    parses = _count(monkeypatch, ast, "parse")
    code = main(["check", "-j", "1", "--no-cache", *argv, "held.py", "bad.py"])     # counted in this process
    err = capsys.readouterr().err
    assert code == 1
    assert len(contexts) == 2                       # one per file (the held-back count included)
    assert len([a for a in parses if a and a[0] in (HELD, BAD)]) == 2     # and one parse each
    if not argv:                                    # the count the second judgement is for is still there
        assert "1 more finding on some targets" in err


def test_noqa_comments_are_tokenized_only_for_files_with_findings(project, capsys, monkeypatch):
    (project / "clean.py").write_text(CLEAN)
    (project / "bad.py").write_text(BAD)
    tokenized = _count(monkeypatch, runner, "noqa_lines")
    assert main(["check", "-q", "clean.py"]) == 0
    assert tokenized == []
    assert main(["check", "-q", "bad.py"]) == 1
    assert len(tokenized) == 1
    capsys.readouterr()


def test_a_file_over_the_budget_is_npp191_and_never_parsed(project, capsys, monkeypatch):
    """The sweep's 9.6 MB of `a = 1` lines with "profiling" in a comment (killed at 300 s, 4.7 GB)."""
    text = "# profiling\n" + "a = 1\n" * 1_600_000
    (project / "big.py").write_text(text)
    parses = _count(monkeypatch, ast, "parse")
    code = main(["check", "big.py"])
    out, err = capsys.readouterr()
    assert code == 1 and parses == []
    (line,) = out.splitlines()
    assert line.startswith("big.py:1:1: NPP191 analysis budget exhausted: this file has about 4,800,002 words and "
                           "symbols, over the 1,000,000 one file may have, so none of its profiling setups was checked")
    assert "All checks passed" not in err
    # flake8 hands the plugin its own tree: the analysis does not walk it either
    from flake8_npuprof.plugin import NpuProfChecker
    walked = _count(monkeypatch, analysis, "Context")
    found = list(NpuProfChecker(None, text.splitlines(True), "big.py").run())
    assert [m.split(" ")[0] for _, _, m, _ in found] == ["NPP191"] and walked == []


def test_the_budget_counts_words_and_symbols():
    assert prefilter.words_over_budget("x" * prefilter.MAX_WORDS) == 0       # at most one word per character
    assert prefilter.words_over_budget("x " * prefilter.MAX_WORDS) == 0      # exactly at the budget
    assert prefilter.words_over_budget("x " * (prefilter.MAX_WORDS + 1)) == prefilter.MAX_WORDS + 1
    assert prefilter.words_over_budget("f(a.b)\n" * 200_000) == 1_200_000


# ---------------------------------------------------------------- the work a file may cost

def _calls(run) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


FIXED = 400_000         # the resolver's fixed step budget (values/resolve.py MAX_STEPS) and first-use work
PER_WORD = 60           # the rest grows with the file: a few dozen calls per word and symbol at most


def _inputs(budget: int):
    """Files just under a (small) word budget, each built to make one step of the analysis work hard."""
    from test_budget import SETUP
    from test_scaling import env_functions, env_lines, repeated_setups

    def fill(make, words_per_unit):
        return make(max(1, budget // words_per_unit - 2))
    yield "repeated setups", fill(repeated_setups, 110)
    yield "one variable set over and over", fill(env_lines, 45)
    yield "environment sets in many scopes", fill(env_functions, 90)
    yield "values doubling", "import tensorflow as tf\np0 = '/tmp'\n" + "".join(
        f"p{k} = p{k - 1} + p{k - 1}\n" for k in range(1, budget // 12)) + SETUP.replace("OPTS", "p1")
    yield "nested branches", "import os\n" + "".join(
        "    " * k + f"if os.environ.get('X{k}'):\n" for k in range(90)) + "    " * 90 + \
        "os.environ['PROFILING_MODE'] = 'true'\n" + "".join(
            f"os.environ['PROFILING_OPTIONS'] = '{{\"output\":\"/tmp/{k}\"}}'\n" for k in range(budget // 30))
    yield "a long literal", "import os\nPROFILING = [" + ", ".join(str(k) for k in range(budget // 3)) + "]\n"
    yield "many names", "# profiling\n" + "".join(f"a{k} = a{k - 1 if k else 0}\n" for k in range(budget // 5))


@pytest.mark.parametrize("budget", [20_000])
def test_every_file_within_the_budget_costs_a_bounded_amount_of_work(monkeypatch, budget):
    monkeypatch.setattr(prefilter, "MAX_WORDS", budget)
    analyse("import os\nos.environ['PROFILING_MODE'] = 'true'\n", None, "warm.py")
    for name, text in _inputs(budget):
        words = len(prefilter._WORD.findall(text))
        assert words <= budget, (name, words)
        calls = _calls(lambda: analyse(text, None, "w.py"))
        assert calls <= FIXED + PER_WORD * words, (name, words, calls)
        # and the same file a little over the budget is not analysed at all
        over = text + "# " + "w " * (budget - words + 1)
        assert [f.code for f in analyse(over, None, "w.py")] == ["NPP191"], name


# ---------------------------------------------------------------- lines counted as Python counts them

@pytest.mark.parametrize("odd", ["\x0c", "\x1d", "\u2028", "\x85", "\x0b"])
def test_noqa_is_read_on_the_line_python_counts(project, capsys, odd):
    """str.splitlines also splits at these: a comment holding one shifted every later noqa by a line."""
    text = f"# page break {odd} in a comment\n" + BAD.replace("sess = tf.Session", "sess = tf.Session")
    lines = text.splitlines(True)
    k = next(i for i, line in enumerate(lines) if '"L2"' in line)
    lines[k] = lines[k].rstrip("\n") + "  # noqa: NPP101\n"
    (project / "odd.py").write_bytes("".join(lines).encode("utf-8"))
    assert main(["check", "-q", "odd.py"]) == 0, capsys.readouterr().out
    # --add-noqa puts its comment on the finding's own line
    (project / "odd.py").write_bytes(text.encode("utf-8"))
    assert main(["check", "--add-noqa", "odd.py"]) == 0
    fixed = (project / "odd.py").read_text(encoding="utf-8")
    assert [line for line in fixed.split("\n") if "noqa" in line] == [lines[k].rstrip("\n")]
    assert main(["check", "-q", "odd.py"]) == 0
    capsys.readouterr()


# ---------------------------------------------------------------- the same input bound for every input

class _Endless:
    """A pipe that never ends (`yes |`): any size asked for is given; reading it all is impossible."""

    def read(self, size=-1):
        if size is None or size < 0:
            raise MemoryError("read the whole of an endless pipe")
        return (b"y\n" * (size // 2 + 1))[:size]


class _Stdin:
    buffer = _Endless()


def test_validate_reads_standard_input_within_the_bound(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin())
    for argv in (["validate", "-"], ["validate", "--file", "-"]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert (out, err) == ("", "npuprof: error: standard input: not read: more than the 10,485,760-byte limit "
                                  "for a source file\n")


def test_validate_reads_a_file_within_the_bound(tmp_path, capsys):
    big = tmp_path / "options.json"
    big.write_bytes(b'{"output":"/tmp/p"}' + b" " * (10 * 1024 * 1024))
    assert main(["validate", "--file", str(big)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"npuprof: error: {big}: not read: 10,485,779 bytes, over the 10,485,760-byte limit "
                                 "for a source file\n")
    big.write_bytes(b'{"output":"/tmp/p","L2":"on"}')
    assert main(["validate", "--file", str(big)]) == 1
    assert " NPP101 " in capsys.readouterr().out


def test_check_and_fix_read_standard_input_within_the_bound(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin())
    for argv in (["check", "-"], ["fix", "-"]):
        assert main(argv) == 2
        assert "-: not read: more than the 10,485,760-byte limit" in capsys.readouterr().err


def test_the_language_server_analyses_and_hovers_within_the_budget(monkeypatch):
    """A document over the word budget is NPP191 in the editor too, and a hover does not parse it."""
    from flake8_npuprof import lsp_analysis as A
    monkeypatch.setattr(prefilter, "MAX_WORDS", 2000)
    text = "import json\nopts = json.dumps({'output': '/tmp/p', 'L2': 'on'})  # profiling\n" + "a = 1\n" * 1000
    doc = A.DocSettings(analysis.Settings(), A.Selection(), (), None)
    parses = _count(monkeypatch, ast, "parse")
    result = A.analyse_document(text, "big.py", "python", doc)
    assert [f.code for f in result.findings] == ["NPP191"]
    assert A.hover(result, text.index("L2"), A.Overrides()) is None and parses == []
