"""The language server's analysis of an edited document walks again only the top-level statements the edit
touched (source/site_reuse.py), and reports exactly what a fresh analysis of the whole text reports."""

import ast
import random
import re
import sys
from pathlib import Path

import pytest

from flake8_npuprof import lsp_analysis as A
from flake8_npuprof import lsp_reparse
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.source import sites as S

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

DOC = A.DocSettings(A.Settings(), A.Selection(), (), None)
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
STRING = re.compile(r'"[^"\n\\]*"')
# what typing inserts, between the edits that keep the text a program: brackets, blocks, lines, `global`
SNIPPETS = ["\n", " ", "x", "(", ")", '"', "#", ":", "    ", "; y = 2", "\nglobal config\n", "\n    global opts\n",
            "\ndef helper(config):\n    return config\n", "\nopts = None\n", "\nif flags.profiling:\n    pass\n",
            "\n    return\n", "\nprofiling_options = '{\"output\": \"/tmp\"}'\n", "é"]


def _sources():
    from server_latency import training_script
    files = sorted((HERE / "eval_files").glob("*.py"))
    return [training_script(300)] + [p.read_text(encoding="utf-8") for p in files]


def _edit(rng: random.Random, text: str) -> str:
    """One random edit: a name or a string swapped for another of the text's, a line dropped, doubled or
    moved, True and False or "on" and "off" swapped, or a snippet typed anywhere."""
    lines = text.split("\n")
    kind = rng.randrange(7)
    if kind == 0:
        names = list(IDENTIFIER.finditer(text))
        if names:
            m = rng.choice(names)
            return text[:m.start()] + rng.choice(names).group() + text[m.end():]
    if kind == 1:
        strings = list(STRING.finditer(text))
        if strings:
            m = rng.choice(strings)
            return text[:m.start()] + rng.choice(strings).group() + text[m.end():]
    if kind == 2 and len(lines) > 2:
        k = rng.randrange(len(lines))
        return "\n".join(lines[:k] + lines[k + 1:])
    if kind == 3:
        k = rng.randrange(len(lines))
        return "\n".join(lines[:k + 1] + lines[k:])
    if kind == 4 and len(lines) > 2:
        k, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        line = lines.pop(k)
        return "\n".join(lines[:j] + [line] + lines[j:])
    if kind == 5:
        pairs = [("True", "False"), ("False", "True"), ('"on"', '"off"'), ('"off"', '"on"'), ('"L2"', '"l2"')]
        old, new = rng.choice(pairs)
        spots = [m.start() for m in re.finditer(re.escape(old), text)]
        if spots:
            at = rng.choice(spots)
            return text[:at] + new + text[at + len(old):]
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(SNIPPETS) + text[at:]


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")
@pytest.mark.parametrize("seed", range(4))
def test_random_edits_report_what_a_fresh_analysis_reports(seed):
    rng = random.Random(seed)
    sources = _sources()
    picked = [sources[0]] + rng.sample(sources[1:], 8)
    for n, text in enumerate(picked):
        path = f"doc{seed}_{n}.py"
        lsp_reparse.forget(path)
        good = text
        for step in range(30):
            text = _edit(rng, good)
            got = A.analyse_document(text, path, "python", DOC).findings
            assert got == check_text(path, text, "python", DOC.settings, DOC.selection), (seed, n, step)
            if not any(f.code == "NPP192" for f in got):
                good = text                 # an edit that breaks the syntax is typed over by the next one
        lsp_reparse.forget(path)


def _walked_alone(monkeypatch):
    walked = []
    real = S._walk_alone
    monkeypatch.setattr(S, "_walk_alone", lambda stmt, *a: walked.append(stmt.lineno) or real(stmt, *a))
    return walked


def test_an_edit_inside_a_statement_walks_only_that_statement(monkeypatch):
    from server_latency import training_script
    text = training_script(1500)
    lsp_reparse.forget("t.py")
    walked = _walked_alone(monkeypatch)
    A.analyse_document(text, "t.py", "python", DOC)
    statements = len(walked)
    assert statements > 100
    walked.clear()
    at = text.index("decay_steps=10000", len(text) // 2) + len("decay_steps=1")
    edited = text[:at] + "2" + text[at + 1:]
    got = A.analyse_document(edited, "t.py", "python", DOC).findings
    assert got == check_text("t.py", edited, "python", DOC.settings, DOC.selection)
    line = edited.count("\n", 0, at) + 1
    assert len(walked) == 1 and walked[0] <= line          # the helper holding the edit, nothing else
    lsp_reparse.forget("t.py")


SCRIPT = '''import tensorflow as tf
from npu_bridge.npu_init import *

OPTIONS = '{"output": "/tmp/prof", "task_trace": "on"}'


def make_config():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTIONS)
    return config


def main():
    with tf.Session(config=make_config()) as sess:
        sess.run(tf.no_op())


if __name__ == "__main__":
    main()
'''


def test_a_name_bound_in_one_statement_and_read_in_another_is_read_again():
    # the statement reading OPTIONS is not walked again, yet its finding follows the value bound elsewhere
    lsp_reparse.forget("n.py")
    assert A.analyse_document(SCRIPT, "n.py", "python", DOC).findings == []
    broken = SCRIPT.replace('"task_trace": "on"', '"task_trace": "ON"')
    got = A.analyse_document(broken, "n.py", "python", DOC).findings
    assert [(f.code, f.line) for f in got] == [("NPP102", 4)]
    assert got == check_text("n.py", broken, "python", DOC.settings, DOC.selection)
    # the name bound by a later statement instead: the read sees the new binding, in the statement not walked
    moved = broken.replace('\n\ndef main', '\n\nOPTIONS = \'{"output": "/tmp/prof"}\'\n\ndef main', 1)
    assert moved.count("\n") == broken.count("\n") + 2
    assert A.analyse_document(moved, "n.py", "python", DOC).findings == \
        check_text("n.py", moved, "python", DOC.settings, DOC.selection)
    lsp_reparse.forget("n.py")


def test_the_walks_of_a_document_keep_only_its_current_statements():
    from server_latency import training_script
    text = training_script(600)
    lsp_reparse.forget("m.py")
    A.analyse_document(text, "m.py", "python", DOC)
    walks = lsp_reparse.walks("m.py")
    kept = len(walks)
    assert kept == len(ast.parse(text).body)
    for k in range(20):
        text = text.replace("decay_steps=", f"decay_steps={k}", 1)
        A.analyse_document(text, "m.py", "python", DOC)
    assert len(lsp_reparse.walks("m.py")) == kept
    lsp_reparse.forget("m.py")
    assert lsp_reparse.walks("m.py") is None


# ---- the sites themselves: a kept walk adds what the walk of its statement would have

def _guards(guards):
    return tuple((_test(g.test), g.negated) for g in guards)


def _test(test):
    return test.id if type(test) is ast.Name and " " in test.id else test


def _value(value):
    # a tuple target's `value[k]`, made by each walk (site_bindings._element)
    if type(value) is ast.Subscript and type(value.slice) is ast.Constant and \
            getattr(value, "_fields", None) and value.value is not None and value.ctx.__class__ is ast.Load:
        return ("element", value.value, value.slice.value)
    return value


def _scope(scope):
    return None if scope is None else (scope.node, scope.kind)


def _context(context):
    return _scope(context[0]), _guards(context[1])


def _picture(sites):
    """Everything the walk recorded, with the scopes and the conditions and elements each walk makes told
    apart by what they are."""
    walked = {pos: (item[0] if type(item[0]) is not ast.Name or " " not in item[0].id else item[0].id,
                    item[1], _context(item[2])) for pos, item in sites._walked.items()}
    scopes = [(_scope(s), _scope(s.parent), s.self_name, _scope(s.klass), s.params, sorted(s.globals),
               {key: [(b.pos, _value(b.value), b.stmt, _scope(b.scope), _guards(b.guards)) for b in binds]
                for key, binds in s.bindings.items()}, s.positions, s.unguarded) for s in sites.scopes]
    return {
        "pos": sites._pos, "walked": walked, "scopes": scopes,
        "loads": [(n, _scope(s)) for n, s in sites._raw_loads],
        "calls": [(c.call, c.name, _scope(c.scope), _guards(c.guards), c.stmt) for c in sites._calls],
        "assigns": [(t, _value(v), st, _scope(s), _guards(g)) for t, v, st, s, g in sites.assigns],
        "imports": list(sites.imports.items()), "star": sites.star_imports,
        "returns": [(v, _scope(s)) for v, s in sites.returns],
        "deletes": [(t, st, _scope(s), _guards(g)) for t, st, s, g in sites.deletes],
        "functions": list(sites.functions.items()),
        "entries": [(e.call, e.config_expr, _scope(e.scope), _guards(e.guards), e.bound_to,
                     [(n.value, n.target, n.stmt) for n in e.names],
                     [(p.key, p.key_node, p.field, p.value, p.target, p.stmt, _scope(p.scope), _guards(p.guards))
                      for p in e.params]) for e in sites.entries],
        "deferred": [(d[0], d[1], _context(d[2])) + tuple(d[3:]) for d in sites._deferred],
    }


def _identifiers(sites):
    """The index of the deferred lines' identifiers a dense script's questions read (for kept walks, made from
    their own indexes)."""
    if sites._pieces is not None:
        list(sites._lines_holding("x", True))
    else:
        list(sites._identifier_lines("x", *sites._deferred_text()))
    return sites._identifiers


def _questions(sites, words):
    """The deferred lines holding each word, as a whole name and anywhere (before any of them is walked)."""
    return [(word, whole, list(sites._lines_holding(word, whole))) for word in words for whole in (True, False)]


def _some_words(rng, text):
    names = IDENTIFIER.findall(text)
    longer = [name for name in names if len(name) > 2] or ["get"]
    return [rng.choice(names) for _ in range(3)] + [rng.choice(longer)[1:3] for _ in range(2)] + ["get", "a.b", ".", "("]


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")
@pytest.mark.parametrize("seed", range(4))
def test_random_edits_give_the_sites_of_a_fresh_walk(seed):
    from flake8_npuprof.source.text import SourceText
    rng = random.Random(100 + seed)
    sources = _sources()
    for n, text in enumerate([sources[0]] + rng.sample(sources[1:], 8)):
        key = f"sites{seed}_{n}"
        lsp_reparse.forget(key)
        good = text
        for step in range(30):
            text = _edit(rng, good)
            tree = lsp_reparse.parse(key, text)
            if tree is None:
                continue
            good = text
            starts = SourceText(text).line_starts
            kept = S.collect(tree, text, starts, lsp_reparse.walks(key))
            fresh = S.collect(tree, text, starts)
            words = _some_words(rng, text)
            assert _questions(kept, words) == _questions(fresh, words), (seed, n, step)
            assert _picture(kept) == _picture(fresh), (seed, n, step)
            assert _identifiers(kept) == _identifiers(fresh), (seed, n, step)
            if step % 2:
                kept.calls              # an analysis walks deferred statements: none of it may stay behind
            kept.close()
        lsp_reparse.forget(key)


def test_a_statement_added_on_a_line_moves_the_walks_after_it():
    # lines unchanged, so lsp_reparse keeps the statements after the edit: at the next index, their walk is not
    # the one kept (its positions were from the index before). Two statements sharing a line share it in the
    # index of identifiers too.
    from flake8_npuprof.source.text import SourceText
    lsp_reparse.forget("i.py")
    shared = SCRIPT.replace("\n\ndef main", "\nsteps = int(x); rate = int(\n    x)\n\ndef main")
    for text in (SCRIPT, SCRIPT.replace("import tensorflow as tf\n", "import tensorflow as tf; import os\n"),
                 SCRIPT.replace("import tensorflow as tf\n", "import tensorflow as tf; import os; pass\n"),
                 SCRIPT, shared, shared.replace("rate = int(", "rate = float(")):
        tree = lsp_reparse.parse("i.py", text)
        starts = SourceText(text).line_starts
        kept = S.collect(tree, text, starts, lsp_reparse.walks("i.py"))
        fresh = S.collect(tree, text, starts)
        assert _picture(kept) == _picture(fresh)
        assert _identifiers(kept) == _identifiers(fresh)
    lsp_reparse.forget("i.py")
