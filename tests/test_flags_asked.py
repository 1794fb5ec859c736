"""The file's flag definitions are found when first asked (values/resolve.Resolver.flags), and not at all in a text
that cannot define one (resolve.may_define_flags): what is found then is what _collect_flags finds at once, before
any other question has walked the statements it defers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from flake8_npuprof.source.sites import collect
from flake8_npuprof.source.text import SourceText
from flake8_npuprof.values import resolve
from flake8_npuprof.values.resolve import Resolver

HERE = Path(__file__).resolve().parent
FILES = sorted((HERE / "eval_files").glob("*.py"))


def _resolver(text: str) -> Resolver:
    tree = ast.parse(text)
    src = SourceText(text)
    return Resolver(src, collect(tree, text, src.line_starts), tree, "x.py")


def _shown(flags):
    return [(f.dest, f.option, f.kind, f.py_type, f.has_default, f.action, f.call.lineno, f.call.col_offset,
             f.scope.kind) for f in flags]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_flags_asked_after_every_value_are_those_found_first(path):
    text = path.read_text(encoding="utf-8")
    first = _resolver(text)
    at_once = _shown(first.flags)
    later = _resolver(text)
    for stmt in ast.walk(later.tree):
        if isinstance(stmt, ast.Assign):
            later.strings(stmt.value, later.sites.module, later.sites.pos.at(stmt, 0))
    assert _shown(later.flags) == at_once
    assert _shown(resolve._collect_flags(later.sites)) == at_once


def test_a_flag_spelt_outside_ascii_is_found():
    # Python reads identifiers in their NFKC form: the fullwidth letters spell DEFINE_string
    text = "import tensorflow as tf\ntf.app.flags.\uff24\uff25\uff26\uff29\uff2e\uff25_string('prof_dir', None, 'x')\n"
    assert resolve.may_define_flags(text)
    assert _shown(_resolver(text).flags) == [("prof_dir", "--prof_dir", "absl", str, True, "", 2, 0, "module")]


def test_a_text_that_names_no_definition_asks_no_call():
    text = "import argparse\np = argparse.ArgumentParser()\np.set_defaults(x=1)\nargs = p.parse_args()\n"
    assert not resolve.may_define_flags(text)
    found = _resolver(text)
    assert found.flags == [] == resolve._collect_flags(found.sites)
