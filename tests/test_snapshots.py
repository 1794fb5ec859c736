"""What a user sees for each rule's own bad example (short message, span, detail, fix diff) is committed under
tests/snapshots/, one file per code, so a change of wording shows in review as a diff of that file.

After changing a message on purpose: `python tools/gen_snapshots.py`, and commit what it rewrites."""

import importlib.util
from pathlib import Path

import pytest

from flake8_npuprof.checks.catalog import RULES

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("gen_snapshots", ROOT / "tools" / "gen_snapshots.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

SHOWN = [r for r in RULES if r.code not in gen.MACHINE and r.code != "NPP000"]


@pytest.mark.parametrize("rule", SHOWN, ids=[r.code for r in SHOWN])
def test_what_a_user_sees_for_the_pages_example(rule):
    path = gen.SNAPSHOTS / f"{rule.code}.txt"
    assert path.exists(), f"no snapshot of {rule.code}: run python tools/gen_snapshots.py"
    assert gen.snapshot(rule) == path.read_text(encoding="utf-8"), \
        f"{rule.code}: what a user sees changed; if on purpose, run python tools/gen_snapshots.py and commit the diff"


def test_every_snapshot_is_of_a_rule_and_says_its_parts():
    on_disk = sorted(p.stem for p in gen.SNAPSHOTS.glob("*.txt"))
    assert on_disk == [r.code for r in SHOWN], "run python tools/gen_snapshots.py (one file per rule's code)"
    text = (gen.SNAPSHOTS / "NPP103.txt").read_text(encoding="utf-8")
    # the one-line report, the span, the fix's title and its diff
    assert 'example.py:9:45: NPP103 "training_trace": "off" is not "on" or ""' in text
    assert "span: 9:45-9:50" in text and 'fix (safe): drop "training_trace"' in text
    assert "+    '{\"output\":\"/tmp/prof\",\"task_trace\":\"on\"}')" in text
