"""The runtime's own code against our verdicts (docs/oracle.md).

tests/oracle/<tag>.jsonl records what GE's ProfilingInit and the built collector (hicann/ge,
hicann/runtime) did with each profiling_options string, and what the msprof binary's parser
(hicann/oam-tools) did with each command line, on each chip. Every recorded outcome must agree with
what we say for that CANN version and chip; the few that cannot are listed, with the reason, in
tests/oracle/known_gaps.json, and an entry that starts to agree fails the test too.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from flake8_npuprof.checks.msprof import calls_in_shell, check_call
from flake8_npuprof.checks.options import check_options
from flake8_npuprof.knowledge import ge_options as G
from flake8_npuprof.knowledge import msprof_parser as MP
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.model import printable

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


def _gap_tags(gap):
    return gap["tags"] if "tags" in gap else [gap["tag"]]


def _gap_products(gap, tag):
    """The entry's products; "*" for every product the record of that tag holds (the 910C with the 910B)."""
    if gap["products"] != ["*"]:
        return gap["products"]
    chips = list(record(HERE / "oracle" / f"{tag}.jsonl")[0]["chips"])
    return chips + (["910C"] if "910B" in chips else [])


def known_gaps():
    return {_gap_key(tag, g["kind"], what, p): g["reason"] for g in GAPS["gaps"] for tag in _gap_tags(g)
            for p in _gap_products(g, tag) for what in g.get("inputs", [g.get("input")])}


# ---------------------------------------------------------------- profiling_options

@lru_cache(maxsize=None)        # the agreement tests and the gap test read the same answer
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

def _shell_line(argv) -> str:
    return "#!/bin/bash\nmsprof " + " ".join(shlex.quote(a) for a in argv) + "\n"


def _msprof_problems(argv, version, product):
    return [p for call in calls_in_shell(_shell_line(argv)) for p in check_call(call, Target(version, product))]


@lru_cache(maxsize=None)        # the agreement tests and the gap test read the same answer
def msprof_disagreements(path: Path):
    header, cases = record(path)
    version = version_of(header)
    out = []
    for case in cases:
        if case["kind"] != "msprof":
            continue
        for group in case["results"]:
            theirs = group["verdict"] in ("rejected", "crash", "usage")
            for product in products(group):
                problems = _msprof_problems(case["argv"], version, product)
                refused = [p for p in problems if p.effect == "exits"]
                key = _gap_key(header["tag"], "msprof", " ".join(case["argv"]), product)
                if bool(refused) != theirs:
                    out.append((key, f"we say {'refused' if refused else 'accepted'}, msprof {group['verdict']}"))
                else:
                    problem = _msprof_quotes(refused, group, version)
                    if problem:
                        out.append((key, problem))
    return out


_PRINTS = re.compile(r'msprof (\d+\.\d+) prints "(.*?)"(, then its usage,)?(?: \(on the Ascend \w+\))? and exits')


def _msprof_quotes(problems, group, version):
    """A line we quote must be the one msprof printed first, on that version, and "then its usage" exactly
    where it printed its usage (where one option fails: msprof stops at its first refusal)."""
    if len(problems) != 1:
        return None
    for v, quoted, usage in _PRINTS.findall(problems[0].message):
        first = next((x for x in group["shown"] if not x.startswith("[WARNING]")), "")
        if v != version or quoted not in (first, printable(first)):
            return f"{problems[0].code} quotes {quoted!r} for {v}, msprof {version} printed {first!r}"
        if bool(usage) != group["usage"]:
            said = "then its usage" if usage else "no usage"
            return f"{problems[0].code} says {said}, msprof printed {'it' if group['usage'] else 'none'}"
    return None


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_msprof_lines_agree_with_the_runtime(path):
    gaps = known_gaps()
    wrong = [(key, why) for key, why in msprof_disagreements(path) if key not in gaps]
    assert not wrong, f"{len(wrong)} disagreements, e.g. " + "; ".join(f"{k}: {w}" for k, w in wrong[:5])


SANDBOX = "/tmp/npuprof-oracle"


class RecordMachine(MP.Machine):
    """The machine the record ran on (tools/oracle/record.py): each case in a fresh sandbox folder that
    holds only a regular file `afile` and `train.py` (not executable), $ASCEND_WORK_PATH unset, no
    perf, ltrace or iotop reachable through sudo, /bin/true and /usr/bin/python3 installed, and of the
    process ids asked for only 1 alive."""

    cwd = SANDBOX
    home = "/root"
    FILES = {SANDBOX: "dir", f"{SANDBOX}/afile": "file", f"{SANDBOX}/train.py": "file", "/bin/true": "exec",
             "/usr/bin/python3": "exec", "/": "dir", "/tmp": "dir", "/bin": "dir", "/usr": "dir", "/usr/bin": "dir"}

    def env(self, name):
        return ""

    def exists(self, path):
        return self.file(path) != "missing"

    def file(self, path):
        return self.FILES.get(self.real(path), "missing")

    def real(self, path):
        return "/" + os.path.normpath(path).lstrip("/")

    def make_dir(self, path):
        if path.startswith(f"{SANDBOX}/afile/"):
            return "[ERROR] Create output dir failed.ErrorCode: 20, ErrorInfo: Not a directory."
        return ""

    def tool(self, name):
        return False

    def process(self, pid):
        return pid == 1


def _first_line(steps):
    step = next((s for s in steps if s.action in (MP.REJECT, MP.CRASH, MP.HELP)), None)
    return (step.line.splitlines() or [""])[0].strip() if step is not None else ""


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_the_msprof_port_follows_the_parser_exactly(path):
    """knowledge/msprof_parser.py on the record's machine: the verdict, and the first line msprof printed."""
    header, cases = record(path)
    version = version_of(header)
    wrong = []
    for case in cases:
        if case["kind"] != "msprof":
            continue
        for group in case["results"]:
            for product in group["chips"]:
                steps = MP.steps(case["argv"], version, product, RecordMachine())
                ours = MP.verdict(steps)
                line = _first_line(steps)
                shown = [x for x in group["shown"] if not x.startswith("[WARNING]")]
                theirs_line = shown[0] if shown and group["verdict"] == "rejected" else ""
                if group["verdict"] == "crash":
                    theirs_line = MP.NULL_STRING[0] if MP.NULL_STRING[0] in group["shown"] else ""
                if ours != group["verdict"] or (ours in ("rejected", "crash") and line != theirs_line):
                    wrong.append((" ".join(case["argv"]), product, ours, line, group["verdict"], theirs_line))
    assert not wrong, f"{len(wrong)} differ, e.g. {wrong[:3]}"


def test_the_msprof_chip_facts_are_what_the_record_probed():
    """data/msprof_parser.json's chips: what the Platform answered on each chip (the record's probe)."""
    for path in RECORDS:
        header, _ = record(path)
        version = version_of(header)
        table = MP.data()["chips"][version]
        assert set(table) == set(header["platforms"]), version
        for product, probe in header["platforms"].items():
            facts = table[product]
            features = {f for f, on in probe["feature"].items() if on}
            assert set(facts["features"]) == features & MP.FEATURES, (version, product)
            assert set(facts["metrics"]) == {m for m, on in probe["metric"].items() if on}, (version, product)
            assert facts["max_monitor"] == probe["max_monitor"], (version, product)


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
    tags = {record(p)[0]["tag"] for p in RECORDS}
    for gap in GAPS["gaps"]:
        assert gap["reason"].strip() and gap["products"] and set(_gap_tags(gap)) <= tags


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
