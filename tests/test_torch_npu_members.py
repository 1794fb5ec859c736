"""NPP317: where an imported class is reported, on every Python: 3.9's ast gives an `alias` no position, so the name
is found in the statement's own text (a multi-line import, a name that is also a module's part)."""

import ast

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.torch_npu_members import _alias_at
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.text import SourceText

T70 = Target.parse("any", "any", "7.0")


class _Ctx:
    def __init__(self, text):
        self.src = SourceText(text)


def _positionless(text):
    """The ImportFrom and its aliases with the positions Python 3.9 leaves off."""
    stmt = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom))
    for alias in stmt.names:
        for field in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(alias, field):
                delattr(alias, field)
    return stmt


def test_a_positionless_alias_is_found_in_the_statements_text():
    text = "from torch_npu.profiler import (\n    ProfilerLevel,\n    HostSystem as HS,\n)\n"
    stmt = _positionless(text)
    at = _alias_at(_Ctx(text), stmt, stmt.names[1])
    assert (at.lineno, at.col_offset, at.end_lineno, at.end_col_offset) == (3, 4, 3, 14)


def test_the_module_path_is_not_taken_for_the_name():
    text = "from torch_npu.profiler.HostSystem_helpers import HostSystem\n"
    stmt = _positionless(text)
    at = _alias_at(_Ctx(text), stmt, stmt.names[0])
    assert (at.lineno, at.col_offset) == (1, 50)


def test_the_import_is_reported_at_the_name_whatever_the_python():
    text = "import torch_npu\nfrom torch_npu.profiler import ProfilerLevel, HostSystem\n"
    found = [(f.line, f.col + 1, f.code) for f in analyse(text, None, "x.py", Settings(target=T70))]
    assert found == [(2, 47, "NPP317")]
