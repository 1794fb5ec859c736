"""What a normal (non-editable) install ships: every package folder of the source tree is listed in
pyproject.toml, so `pip install flake8-npuprof` from a wheel has every module the editable install has."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def test_every_package_folder_is_shipped():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "flake8_npuprof").rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert {"flake8_npuprof.data", "flake8_npuprof.schemas"} <= listed

