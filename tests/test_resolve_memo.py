"""The resolver evaluates an expression once per scope and position (values/resolve.py, `memo`), and what it
answers is what evaluating again would answer: the same values, the same steps spent from the budget, the
same cut at the depth bound, the same "defined in terms of itself"."""

from __future__ import annotations

import ast

import pytest

from flake8_npuprof.source.sites import collect
from flake8_npuprof.source.text import SourceText
from flake8_npuprof.values import resolve
from flake8_npuprof.values.resolve import Resolver

SHAPES = {
    "shared": 'base = "/tmp/" + "prof"\nout = base + "/a"\nother = base + "/b"\nboth = out + other\n',
    "doubling": 'p0 = "/x"\n' + "".join(f"p{k} = p{k - 1} + p{k - 1}\n" for k in range(1, 13)),
    "cycle": 'a = b + "x" if c else "y"\nb = a + "z"\nd = a + b\ne = b + a\n',
    "branches": 'if f:\n    v = "1"\nelse:\n    v = "2"\nw = v + v\nu = "%s-%s" % (w, v)\n',
    "functions": 'def g(x="d"):\n    return x + "!"\ny = g("a")\nz = g()\nq = y + z + g("a")\n',
    "flags": 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--dir", default="/p")\n'
             'args = p.parse_args()\no = args.dir + "/x"\nr = o + args.dir\n',
    "deep": 'n0 = "s"\n' + "".join(f"n{k} = n{k - 1} + 'c'\n" for k in range(1, 60)) + "m = n59 + n30 + n58\n",
}


def _answers(text: str, memo: bool, steps: int = resolve.MAX_STEPS, order=1):
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    resolver = Resolver(src, sites, tree, "x.py")
    if not memo:
        resolver.memo = None
    resolver.max_steps = steps
    out = []
    assigns = [s for s in ast.walk(tree) if isinstance(s, ast.Assign)][::order]
    for stmt in assigns:
        found = resolver.strings(stmt.value, sites.module, sites.pos.at(stmt, 0))
        out.append((stmt.lineno, [c.text for c in found.candidates], found.py_type, found.reason,
                    id(stmt.value) in resolver.cut, resolver.steps))
    return out


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize("steps", [resolve.MAX_STEPS, 300, 40])
def test_the_memo_answers_as_evaluating_again_would(name, order, steps):
    assert _answers(SHAPES[name], True, steps, order) == _answers(SHAPES[name], False, steps, order)


def test_a_shared_value_is_evaluated_once(monkeypatch):
    calls = []
    real = Resolver._eval

    def counting(self, node, *args):
        calls.append(id(node))
        return real(self, node, *args)
    monkeypatch.setattr(Resolver, "_eval", counting)
    text = 'p0 = "/x"\n' + "".join(f"p{k} = p{k - 1} + p{k - 1}\n" for k in range(1, 7))
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    last = tree.body[-1]
    for memo in (True, False):
        resolver = Resolver(src, sites, tree, "x.py")
        resolver.memo = {} if memo else None
        calls.clear()
        found = resolver.strings(last.value, sites.module, sites.pos.at(last, 0))
        assert [c.text for c in found.candidates] == ["/x" * 2 ** 6]
        assert resolver.steps == 2 ** 8 - 3       # every evaluation's steps are counted, memo or not
        # with the memo each binding's value once (and each name that reads it), else 2**k times
        assert len(calls) == (19 if memo else 2 ** 8 - 3)


def test_the_depth_bound_cuts_as_without_the_memo():
    # n59 reaches depth 60 > MAX_DEPTH: cut, whatever was evaluated before it
    answers = _answers(SHAPES["deep"], True)
    assert answers == _answers(SHAPES["deep"], False)
    assert answers[0][4] is False and answers[-1][4] is True


def test_a_launch_s_flags_clear_the_memo():
    text = SHAPES["flags"]
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    resolver = Resolver(src, sites, tree, "x.py")
    stmt = tree.body[-1]
    assert [c.text for c in resolver.strings(stmt.value, sites.module, sites.pos.at(stmt, 0)).candidates] == ["/p/x/p"]
    assert resolver.memo
    resolver.given = {}
    assert resolver.memo == {}
