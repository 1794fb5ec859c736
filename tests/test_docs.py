"""Generated docs (docs/rules/, README rule table) must match the catalog."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_docs_are_up_to_date():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for path, text in mod.outputs().items():
        assert path.exists(), f"{path} missing: run python tools/gen_docs.py"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python tools/gen_docs.py"


def test_readme_starts_with_the_two_setup_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1:lines.index("```sh") + 3]
    assert block == ["pip install -e . && flake8 --select NPP examples/",
                     "pip install -e '.[test]' && python -m pytest"]
    assert lines.index("```sh") <= 3
