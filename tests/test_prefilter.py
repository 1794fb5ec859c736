"""The prefilter's second stage: a file is analysed only when a name a setup is found from stands in
its code, not when profiling is only mentioned (comments, longer names, prose)."""

import ast
import random
import re
import symtable
from pathlib import Path

import pytest

from flake8_npuprof.checks import analysis
from flake8_npuprof.checks.analysis import analyse
from flake8_npuprof.source import prefilter
from flake8_npuprof.source.model import Finding
from flake8_npuprof.source.prefilter import might_configure_profiling, names_a_setup

HERE = Path(__file__).resolve().parent

SETUP_LINES = [
    'custom_op.parameter_map["profiling_mode"].b = True',
    'op.parameter_map["precision_mode"].b = True',            # an entry's other keys are checked too
    'op = config.graph_options.rewrite_options.custom_optimizers.add()',
    'cfg = ProfilingConfig(True, opts)',
    'from npu_bridge.estimator.npu.npu_config import ProfilingConfig as PC',
    'npu_resource_init(enable_profiling=True)',
    'npu.global_options().profiling_config.enable_profiling = True',
    'os.environ["PROFILING_OPTIONS"] = opts',
    "os.environ.update(PROFILING_MODE='true')",
    'x = "#"; os.environ["PROFILING_MODE"] = "true"',       # the `#` is in a string: code follows
    'subprocess.run("msprof --output=/tmp/p python3 train.py", shell=True)',
    '# msprof --output=/tmp/p python3 train.py',            # msprof counts anywhere
]

MENTIONS = [
    '# custom_op.parameter_map["profiling_mode"].b = True',
    '    # os.environ["PROFILING_OPTIONS"] = opts  (profiling off for now)',
    'class ProfilingRegexLexer(RegexLexer): pass',
    'do_profiling = False',
    'FLAGS.profiling_dir = "/tmp"',
    'PROFILING = [1, 2, 3]',
    '"""Profiling helpers: see the profiling_mode docs."""',    # prose inside a word: "profiling_mode" is a word
]


@pytest.mark.parametrize("line", SETUP_LINES)
def test_a_name_a_setup_is_found_from_passes(line):
    assert names_a_setup(f"import os\n{line}\n")
    assert might_configure_profiling(f"import os\n{line}  # profiling\n")


@pytest.mark.parametrize("line", MENTIONS[:-1])
def test_a_mention_does_not(line):
    text = f"import os\n{line}\n"
    assert not names_a_setup(text) and not might_configure_profiling(text)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_comment_ends_with_its_line_whatever_ends_it(newline):
    text = newline.join(["# profiling, off for now", 'os.environ["PROFILING_MODE"] = "true"', ""])
    assert names_a_setup(text)
    assert not names_a_setup(newline.join(["x = 1", '# os.environ["PROFILING_MODE"] = "true"', ""]))


def test_a_setup_name_in_a_docstring_still_counts():
    # a docstring is a string: the stage does not tell prose from an options string, and keeps both
    assert might_configure_profiling(MENTIONS[-1] + "\n")


def test_a_file_that_only_mentions_profiling_is_not_analysed(monkeypatch):
    text = "import tensorflow as tf\n" + "\n".join(MENTIONS[:-1]) + "\n" + "x = 1\n" * 50
    analysed = []
    real = analysis._analyse
    monkeypatch.setattr(analysis, "_analyse", lambda *a, **k: analysed.append(1) or real(*a, **k))
    # flake8's tree: nothing more is done; without one (npuprof check) the file's symbol table is built
    # once, only to tell whether it parses at all (NPP192 for any file that does not, issue 28), and no
    # tree is made
    assert analyse(text, ast.parse(text), "t.py") == [] and analysed == []
    parsed, tables = [], []
    real_parse, real_table = ast.parse, symtable.symtable
    monkeypatch.setattr(ast, "parse", lambda *a, **k: parsed.append(1) or real_parse(*a, **k))
    monkeypatch.setattr(symtable, "symtable", lambda *a, **k: tables.append(1) or real_table(*a, **k))
    assert analyse(text, None, "t.py") == [] and analysed == [] and parsed == [] and tables == [1]
    # the same file with the setup uncommented is analysed, and its finding reported
    live = text.replace('# custom_op.parameter_map["profiling_mode"]', 'custom_op.parameter_map["profiling_mode"]')
    assert [f.code for f in analyse(live, None, "t.py")] and analysed == [1]


def test_a_file_without_markers_that_does_not_parse_is_still_reported():
    assert [f.code for f in analyse("# profiling, off for now\nx = (\n", None, "t.py")] == ["NPP192"]
    assert [f.code for f in analyse("x = (\n", None, "t.py")] == ["NPP192"]


@pytest.mark.parametrize("text", [
    "x = (\n", "def f(:\n    pass\n", "if x:\npass\n", "s = 'abc\n", "x = 1\0\n", "(" * 300 + ")" * 300 + "\n",
    "def f(a, a):\n    pass\n",          # the symbol table refuses these two, the parser does not:
    "nonlocal x\n",                       # no NPP192, as when flake8 gives the tree
    "f(*y, **x)\n", "return 1\n", "x = 1\n",
])
def test_the_syntax_check_without_a_tree_is_the_parsers(text):
    """A file without markers gets only `syntax_check`; it reports what `parse` reports, to the column."""
    expected = analysis.parse(text, "t.py")
    expected = [expected] if isinstance(expected, Finding) else []
    found = analyse(text, None, "t.py")
    assert found == expected
    assert [f.code for f in found] == (["NPP192"] if text.startswith(("x = (", "def f(:", "if x", "s = ", "x = 1\0",
                                                                        "((")) else [])


def test_a_file_over_the_budget_still_says_so(monkeypatch):
    monkeypatch.setattr(prefilter, "MAX_WORDS", 200)
    text = "# profiling\n" + "a = 1\n" * 100
    assert [f.code for f in analyse(text, None, "big.py")] == ["NPP191"]


def test_every_file_with_findings_in_the_test_data_passes(monkeypatch):
    """No eval file, example or fix pair that has findings without the second stage is one it skips."""
    from flake8_npuprof.source.prefilter import names_mindspore, names_torch_npu
    monkeypatch.setattr(prefilter, "names_a_setup", lambda text: True)
    roots = [HERE / "eval_files", HERE / "fix_pairs", HERE.parent / "examples"]
    checked = 0
    for path in sorted(p for root in roots for p in root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if analyse(text, None, str(path)):
            # the functions, not the stand-in
            assert names_a_setup(text) or names_torch_npu(text) or names_mindspore(text), path
            checked += 1
    assert checked > 30


# The second stage as it was first written, one regular expression: the str.find version must answer the same.
_SPEC = re.compile(r"(?<![A-Za-z0-9_])(?:profiling_mode|profiling_options|enable_profiling|profiling_config|"
                   r"ProfilingConfig|PROFILING_MODE|PROFILING_OPTIONS|custom_optimizers|parameter_map)"
                   r"(?![A-Za-z0-9_])|msprof")


def _spec(text: str) -> bool:
    for m in _SPEC.finditer(text):
        head = text[max(text.rfind("\n", 0, m.start()), text.rfind("\r", 0, m.start())) + 1:m.start()]
        sharp = head.find("#")
        if m.group() == "msprof" or not (sharp >= 0 and "'" not in head[:sharp] and '"' not in head[:sharp]):
            return True
    return False


_PIECES = ["parameter_map", "profiling_config", "ProfilingConfig", "PROFILING_MODE", "enable_profiling", "x", "_", "é",
           "9", " ", "#", "'", '"', "\n", "\r", "\r\n", "=", "(", "s", "msprof"[:5], "custom_optimizers", ".", "# "]


@pytest.mark.parametrize("seed", range(20))
def test_the_second_stage_answers_as_its_regular_expression(seed):
    rng = random.Random(seed)
    for _ in range(300):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 30)))
        assert names_a_setup(text) == _spec(text), repr(text)


@pytest.mark.parametrize("end", ["\n", "\r", "\r\n"])
def test_the_second_stage_looks_at_each_comment_line_once(monkeypatch, end):
    # the same name on 70,000 comment lines: each line is judged once, from its own start (it looked back to
    # the start of the text for a CR in an LF file, and for an LF in a CR file)
    text = f"# parameter_map{end}" * 70_000
    heads = []
    real = prefilter._in_comment
    monkeypatch.setattr(prefilter, "_in_comment", lambda head: heads.append(head) or real(head))
    assert not names_a_setup(text)
    assert len(heads) == 70_000 and set(heads) == {"# "}


def test_the_conditions_bound_is_counted_again_only_for_new_statements():
    # the language server's reparse hands untouched top-level statements back as the same objects: they are
    # not counted again, and a new statement over the bound is found wherever it comes
    import ast
    from flake8_npuprof.source import prefilter
    chain = "if x == 0:\n    y = 0\n" + "".join(f"elif x == {k}:\n    y = {k}\n" for k in range(1, 300))
    ok = ast.parse("import os\n\ndef f(a):\n    if a:\n        return 1\n")
    deep = ast.parse(chain)
    assert prefilter.too_many_conditions(ok) is None
    assert all(s in prefilter._within for s in ok.body)
    again = ast.Module(body=ok.body + deep.body, type_ignores=[])
    found = prefilter.too_many_conditions(again)
    assert found is not None and found.lineno == 2 * prefilter.MAX_CONDITIONS + 2      # the body of elif 256
    assert deep.body[0] not in prefilter._within
    assert prefilter.too_many_conditions(ast.Module(body=deep.body + ok.body, type_ignores=[])) is found


def test_a_text_spelling_few_conditions_is_not_walked_for_them(monkeypatch):
    # each condition is a keyword written out: a text holding "if", "while", "except" and "case" at most 256
    # times in all (names and comments count too) has no statement under more, and its statements are not walked
    import ast
    from flake8_npuprof.source import prefilter
    chain = "if x == 0:\n    y = 0\n" + "".join(f"elif x == {k}:\n    y = {k}\n" for k in range(1, 300))
    few = "# if, while, except\nwhile True:\n    try:\n        pass\n    except OSError:\n        break\n" + \
        "".join(f"if motif{k}:\n    pass\n" for k in range(125))            # 3 + 1 + 1 + 2 * 125 = 255 words
    walked = []
    real = prefilter._too_deep
    monkeypatch.setattr(prefilter, "_too_deep", lambda stmt: walked.append(stmt) or real(stmt))
    assert prefilter.too_many_conditions(ast.parse(few), few) is None and walked == []
    over = few + "if a:\n    pass\n" * 3 + "# " + ":" * 200 + "\n"      # 258 words, 1 condition deep, 334 colons
    assert prefilter.too_many_conditions(ast.parse(over), over) is None and len(walked) == 129
    found = prefilter.too_many_conditions(ast.parse(chain), chain)
    assert found is not None and found.lineno == 2 * prefilter.MAX_CONDITIONS + 2


def test_a_text_with_few_colons_is_not_walked_for_its_conditions(monkeypatch):
    # each condition's header (if, elif, while, except, case) ends at a colon of its own: a text of at most 256
    # colons has no statement under more conditions, however often it spells the words, and is not walked
    import ast
    from flake8_npuprof.source import prefilter
    walked = []
    real = prefilter._too_deep
    monkeypatch.setattr(prefilter, "_too_deep", lambda stmt: walked.append(stmt) or real(stmt))
    words = "".join(f"x{k} = 'if while except case'\n" for k in range(100))     # 400 words, no colon
    def chain(branches):                # each elif one condition deeper (the else of the branch before)
        return "if x == 0:\n    y = 0\n" + "".join(f"elif x == {k}:\n    y = {k}\n" for k in range(1, branches))
    deep = chain(prefilter.MAX_CONDITIONS)
    assert deep.count(":") == prefilter.MAX_CONDITIONS
    assert prefilter.too_many_conditions(ast.parse(words + deep), words + deep) is None and walked == []
    deeper = chain(prefilter.MAX_CONDITIONS + 1)
    found = prefilter.too_many_conditions(ast.parse(words + deeper), words + deeper)
    assert found is not None and found.lineno == 100 + 2 * prefilter.MAX_CONDITIONS + 2 and walked


def test_a_text_whose_statements_end_by_the_bound_is_not_walked_for_its_conditions(monkeypatch):
    # each condition's header is on a line of its own: statements that end by line 256 are under at most 256
    # conditions, however many colons and condition words the text holds, and are not walked; one line more is
    import ast
    from flake8_npuprof.source import prefilter
    walked = []
    real = prefilter._too_deep
    monkeypatch.setattr(prefilter, "_too_deep", lambda stmt: walked.append(stmt) or real(stmt))
    busy = "x = {" + ", ".join(f"'if{k}': 'while except case'" for k in range(300)) + "}\n"   # 300 colons, 1,200 words
    lines = busy + "if x:\n    pass\n" * 127 + "z = 0\n"
    assert lines.count("\n") == prefilter.MAX_CONDITIONS
    assert prefilter.too_many_conditions(ast.parse(lines), lines) is None and walked == []
    more = lines + "y = 1\n"
    assert prefilter.too_many_conditions(ast.parse(more), more) is None and len(walked) == 130


def test_a_named_setup_is_not_looked_for_again_as_torch_npus_config_path():
    # PROF_CONFIG_PATH is looked for only when the TF names decided nothing: for a TF setup it was a pass for nothing
    from flake8_npuprof.source import prefilter

    class Spy(str):
        asked: list = []

        def __contains__(self, word):
            Spy.asked.append(word)
            return str.__contains__(self, word)
    tf = Spy("config.parameter_map['profiling_mode'].b = True  # PROF_CONFIG_PATH\n")
    assert prefilter.might_configure_profiling(tf) and "PROF_CONFIG_PATH" not in Spy.asked
    Spy.asked = []
    torch = Spy("import torch_npu\nos.environ['PROF_CONFIG_PATH'] = '/tmp/p'\n")
    assert prefilter.might_configure_profiling(torch) and "PROF_CONFIG_PATH" in Spy.asked
    assert not prefilter.might_configure_profiling(Spy("# PROF_CONFIG_PATH, torch_npu\nx = 1\n"))


def test_profiling_words_are_compiled_where_first_asked():
    """Importing the prefilter for might_configure_profiling (a `check` of launchers asks it of the scripts they may
    start) does not compile PROFILING_WORDS (3.6M instructions); asking for it, by attribute or `from` import, does."""
    import subprocess
    import sys
    code = ("import flake8_npuprof.source.prefilter as p\n"
            "assert 'PROFILING_WORDS' not in vars(p)\n"
            "assert not p.might_configure_profiling('x = 1\\n')\n"
            "assert 'PROFILING_WORDS' not in vars(p)\n"
            "from flake8_npuprof.source.prefilter import PROFILING_WORDS\n"
            "assert vars(p)['PROFILING_WORDS'] is PROFILING_WORDS is p.PROFILING_WORDS\n"
            "assert PROFILING_WORDS.search('import profiler') and not PROFILING_WORDS.search('memory_profiler')\n"
            "assert p.profiler_imports_by_name('m = importlib.import_module(\"torch_npu.profiler\")') == [14]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
