"""The runtime's own code against our verdicts (docs/oracle.md).

tests/oracle/<tag>.jsonl records what GE's ProfilingInit and the built collector (hicann/ge,
hicann/runtime) did with each profiling_options string, and what the msprof binary's parser
(hicann/oam-tools) did with each command line, on each chip. Every recorded outcome must agree with
what we say for that CANN version and chip; the few that cannot are listed, with the reason, in
tests/oracle/known_gaps.json, and an entry that starts to agree fails the test too.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from flake8_npuprof.checks.msprof import check_shell
from flake8_npuprof.checks.options import check_options
from flake8_npuprof.knowledge import ge_options as G
from flake8_npuprof.knowledge.targets import Target

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RECORDS = sorted((HERE / "oracle").glob("v*.jsonl"))
GAPS = json.loads((HERE / "oracle" / "known_gaps.json").read_text(encoding="utf-8"))
# lines every run on a chip logs, whatever the options (what the user's setting changes is elsewhere)
GENERIC = ("[Note] [task_trace] This option will be discarded", "[Note] [hccl] This option will be discarded",
           "instr_profiling_freq is useless on the platform")


@lru_cache(maxsize=None)
def record(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def version_of(header) -> str:
    return header["tag"][1:].rsplit(".", 1)[0]


def products(group):
    """The products a chip's outcome speaks for: the 910C reports the 910B's platform (inferred)."""
    return group["chips"] + (["910C"] if "910B" in group["chips"] else [])


def _gap_key(tag, kind, what, product):
    return f"{tag} {kind} {product} {what}"


def known_gaps():
    return {_gap_key(g["tag"], g["kind"], g["input"], p): g["reason"] for g in GAPS["gaps"] for p in g["products"]}


# ---------------------------------------------------------------- profiling_options

def options_disagreements(path: Path):
    header, cases = record(path)
    version = version_of(header)
    out = []
    for case in cases:
        if case["kind"] != "options" or case["route"] != "ge":
            continue
        for group in case["results"]:
            theirs = group["verdict"]
            lines = " ".join(group["lines"])
            for product in products(group):
                issues = check_options(case["input"], Target(version, product)).issues
                ours = "rejected" if any(i.effect in ("abort", "env") for i in issues) else \
                    "off" if not case["input"] else "accepted"
                expected = "rejected" if theirs == "rejected" else "off" if theirs == "off" else "accepted"
                problem = None
                if ours != expected:
                    problem = f"we say {ours}, the runtime {theirs}"
                else:
                    problem = _quotes(issues, group, lines)
                if problem:
                    out.append((_gap_key(header["tag"], "options", case["input"], product), problem))
    return out


_QUOTE = re.compile(r'\("(.*?)"\)(?:, so |, and |$)|logs "(.*?)"(?: and|,| reads)')


def _quotes(issues, group, lines):
    """A line we quote for this version must be one the runtime logged (only where one key fails: the
    runtime stops at its first refusal, in an order of its own)."""
    failing = [i for i in issues if i.effect in ("abort", "env")]
    for issue in issues:
        if issue.effect not in ("abort", "env", "logged") or (failing and failing != [issue]):
            continue
        for quoted in (a or b for a, b in _QUOTE.findall(issue.message)):
            if "…" in quoted or quoted.startswith("Json prof_conf options is invalid"):
                continue        # abridged on purpose (nlohmann's own wording follows)
            if quoted not in lines:
                return f"{issue.code} quotes {quoted!r}, which the runtime did not log"
        if issue.effect == "silent" and [x for x in group["lines"] if not any(g in x for g in GENERIC)]:
            return f"{issue.code} says silently, the runtime logged {group['lines'][:2]}"
    return None


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_options_agree_with_the_runtime(path):
    gaps = known_gaps()
    wrong = [(key, why) for key, why in options_disagreements(path) if key not in gaps]
    assert not wrong, f"{len(wrong)} disagreements, e.g. " + "; ".join(f"{k}: {w}" for k, w in wrong[:5])


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_the_port_follows_the_runtime_exactly(path):
    """knowledge/ge_options.py, with the environment the record ran in ($ASCEND_WORK_PATH unset)."""
    header, cases = record(path)
    version = version_of(header)
    gaps = known_gaps()
    wrong = []
    for case in cases:
        if case["kind"] != "options" or case["route"] != "ge":
            continue
        for group in case["results"]:
            theirs = {"rejected": "rejected", "off": "off"}.get(group["verdict"], "accepted")
            for product in group["chips"]:
                ours = G.verdict(G.steps(case["input"], version, product, env={}))
                key = _gap_key(header["tag"], "options", case["input"], product)
                if ours != theirs and key not in gaps:
                    wrong.append((key, ours, theirs))
    assert not wrong, wrong[:5]


# ---------------------------------------------------------------- msprof command lines

def msprof_disagreements(path: Path):
    header, cases = record(path)
    version = version_of(header)
    out = []
    for case in cases:
        if case["kind"] != "msprof":
            continue
        text = "#!/bin/bash\nmsprof " + " ".join(shlex.quote(a) for a in case["argv"]) + "\n"
        for group in case["results"]:
            theirs = group["verdict"] in ("rejected", "crash", "usage")
            for product in products(group):
                ours = bool(check_shell(text, Target(version, product)))
                if ours != theirs:
                    what = " ".join(case["argv"])
                    out.append((_gap_key(header["tag"], "msprof", what, product),
                                f"we say {'refused' if ours else 'accepted'}, msprof {group['verdict']}"))
    return out


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_msprof_lines_agree_with_the_runtime(path):
    gaps = known_gaps()
    wrong = [(key, why) for key, why in msprof_disagreements(path) if key not in gaps]
    assert not wrong, f"{len(wrong)} disagreements, e.g. " + "; ".join(f"{k}: {w}" for k, w in wrong[:5])


# ---------------------------------------------------------------- the record itself

def test_every_known_gap_still_disagrees():
    """A gap that now agrees is no gap: take it off the list."""
    found = set()
    for path in RECORDS:
        found |= {key for key, _ in options_disagreements(path)} | {key for key, _ in msprof_disagreements(path)}
        header, cases = record(path)
        version = version_of(header)
        for case in cases:
            if case["kind"] == "options" and case["route"] == "ge":
                for group in case["results"]:
                    theirs = {"rejected": "rejected", "off": "off"}.get(group["verdict"], "accepted")
                    for product in group["chips"]:
                        if G.verdict(G.steps(case["input"], version, product, env={})) != theirs:
                            found.add(_gap_key(header["tag"], "options", case["input"], product))
    stale = sorted(set(known_gaps()) - found)
    assert not stale, stale[:5]


def test_every_gap_says_why():
    for gap in GAPS["gaps"]:
        assert gap["reason"].strip() and gap["products"] and gap["tag"] in {record(p)[0]["tag"] for p in RECORDS}


def test_the_record_holds_the_current_case_set():
    """The record was made from the cases tools/oracle/cases.py lists now (regenerate it otherwise)."""
    sys.path.insert(0, str(ROOT / "tools" / "oracle"))
    try:
        import cases as C
    finally:
        sys.path.pop(0)
    listed = C.all_cases()
    want = [("options", c["route"], c["input"]) for c in listed["options"]] + \
        [("msprof", "", json.dumps(c["argv"])) for c in listed["msprof"]]
    for path in RECORDS:
        _, cases = record(path)
        got = [("options", c["route"], c["input"]) if c["kind"] == "options" else ("msprof", "", json.dumps(c["argv"]))
               for c in cases]
        assert got == want, f"{path.name} is stale: regenerate it (docs/oracle.md)"


def test_enough_cases_on_every_tag_and_chip():
    total = 0
    for path in RECORDS:
        header, cases = record(path)
        total += sum(len(g["chips"]) for c in cases for g in c["results"])
        chips = set(header["chips"])
        assert all(set(g["chips"]) <= chips for c in cases for g in c["results"])
    assert total >= 5000, total


def test_the_record_names_the_source_it_ran():
    for path in RECORDS:
        header, _ = record(path)
        for side in ("options_oracle", "msprof_oracle"):
            src = header[side]
            commits = [v["commit"] for v in src.values() if isinstance(v, dict) and "commit" in v]
            assert commits and all(re.fullmatch(r"[0-9a-f]{40}", c) for c in commits)


def test_platform_tables_come_from_the_record():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "oracle" / "platforms.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
