"""Write tests/snapshots/NPPxxx.txt: what a user sees for each rule's own bad example.

Each file holds, for every finding of the code on the example of its page (checks/*.py RULES), the
line `npuprof check --show-source --verbose` prints (the short message, the source line and caret, the
detail), the span, and for a fix its safety, title and the `npuprof fix --diff` of applying it alone.
tests/test_snapshots.py fails when one differs, so a change of wording shows in review: after changing
a message on purpose, run `python tools/gen_snapshots.py` and commit the files it rewrites.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flake8_npuprof.checks.catalog import RULES  # noqa: E402

SNAPSHOTS = ROOT / "tests" / "snapshots"
GRAPHS = ROOT / "tests" / "data" / "emulate"
# What the machine decides is not a snapshot: whether a directory can be made here, the free space (NPP901,
# NPP902), and the words and column of the parser of the Python that runs the check (NPP192: 3.9 says
# 'Did you mean print("profiling on")?' at the string, 3.11 'Did you mean print(...)?' at the name).
MACHINE = ("NPP192", "NPP901", "NPP902")


def page_findings(rule):
    """(the file name the example is checked as, every finding of the page's bad example)."""
    from flake8_npuprof.engine.run import check_text
    from flake8_npuprof.knowledge.run_settings import Settings
    from flake8_npuprof.knowledge.targets import Target
    from flake8_npuprof.source.files import Selection
    given = dict(rule.settings)
    settings = Settings(target=Target.parse(given.get("cann", "any"), given.get("soc", "any"),
                                            given.get("torch-npu", "any")),
                        preflight=rule.group == "preflight",
                        graph=str(GRAPHS / given["graph"]) if "graph" in given else None)
    name = {"shell": "example.sh", "json": "profiler_config.json", "yaml": "finetune.yaml"}.get(rule.language,
                                                                                             "example.py")
    selection = Selection(extend_select=(rule.code,))
    if rule.language == "shell":
        # a launcher is checked as it stands in its project: as test/example.sh beside the src/train.py it starts
        # (checks/launcher_switch.py: EXAMPLE_SCRIPT), as tests/test_catalog.py runs the pages' examples
        import tempfile
        from flake8_npuprof.checks.launcher_switch import EXAMPLE_SCRIPT
        with tempfile.TemporaryDirectory() as root:
            (Path(root) / "test").mkdir()
            (Path(root) / "src").mkdir()
            (Path(root) / "src" / "train.py").write_text(EXAMPLE_SCRIPT, encoding="utf-8")
            path = Path(root) / "test" / name
            path.write_text(rule.example, encoding="utf-8")
            found = check_text(str(path), rule.example, rule.language, settings, selection)
    else:
        found = check_text(name, rule.example, rule.language, settings, selection)
    return name, found


def snapshot(rule) -> str:
    """The snapshot of one rule ("" when its example reports nothing of its code: NPP000, an internal error)."""
    from flake8_npuprof.commands.diff import unified
    from flake8_npuprof.engine.fix import apply_edits
    from flake8_npuprof.report.formats import text
    from flake8_npuprof.source.text import SourceText
    name, found = page_findings(rule)
    findings = [f for f in found if f.code == rule.code]
    if not findings:
        return ""
    src = SourceText(rule.example)
    parts = [f"# {rule.code} {rule.name}: its page's bad example, as `npuprof check --show-source --verbose` "
             f"shows it (regenerate: python tools/gen_snapshots.py)"]
    for f in findings:
        parts += ["", text([(name, src, [f])], show_source=True, verbose=True).rstrip("\n"),
                  f"span: {f.line}:{f.col + 1}-{f.end_line}:{f.end_col + 1}"]
        if f.fix is not None:
            new = apply_edits(rule.example, f.fix.edits)
            diff = unified(rule.example.encode("utf-8"), new.encode("utf-8"), f"a/{name}", f"b/{name}")
            parts += [f"fix ({'safe' if f.fix.safe else 'unsafe'}): {f.fix.title}", diff.decode("utf-8").rstrip("\n")]
    return "\n".join(parts) + "\n"


def outputs() -> dict:
    out = {}
    for rule in RULES:
        if rule.code in MACHINE:
            continue
        shown = snapshot(rule)
        if shown:
            out[SNAPSHOTS / f"{rule.code}.txt"] = shown
    return out


def main() -> int:
    expected = outputs()
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for path, shown in expected.items():
        if not path.exists() or path.read_text(encoding="utf-8") != shown:
            path.write_text(shown, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    for old in SNAPSHOTS.glob("NPP*.txt"):
        if old not in expected:
            old.unlink()
            print(f"removed {old.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
