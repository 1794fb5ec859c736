"""NPP311 held to the execution oracle: each torch_npu release's own ConfigContext, run on dynamic-profiling JSON
texts (tests/oracle/torch_npu/records.jsonl, api "dynamic_json"; tools/torch_oracle/cases.py, docs/oracle.md).

For every recorded text on a release of our axis, the text is checked as a `profiler_config.json` for that
release, and:
- every reaction the record shows that loses collection or a setting (start_step reset to 0 or left at 0, no
  rank valid, an entry or value dropped, a value reset, with the log or printed warning that says so) is an
  NPP311 finding at the key or value it concerns, whose message states that reaction;
- every NPP311 finding states a reaction the record shows: nothing is claimed that the release did not do
  (a key "not read" on a release: varying it there changed nothing);
- a text the record shows accepted as written gets no finding.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flake8_npuprof.checks.dynamic_json import check_text
from flake8_npuprof.knowledge import torch_npu as T
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES, Target

RECORD = Path(__file__).resolve().parent / "oracle" / "torch_npu" / "records.jsonl"
PREFIX = re.compile(r"^.*?profiler\.py: ")


def release_of(name: str):
    m = re.fullmatch(r"(\d+)\.(\d+)\.\d+", name)
    short = m and f"{m.group(1)}.{m.group(2)}"
    return short if short in TORCH_NPU_RELEASES else None


def _records():
    with open(RECORD, encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    # dynamic.start.*: the same texts, one step further (the profiler the start builds prints its own warnings);
    # tests/test_torch_npu_record.py holds that the start hands C++ what the reader kept
    return [r for r in recs if r["api"] == "dynamic_json" and release_of(r["release"])
            and not r["case"].startswith("dynamic.start.")]


RECS = _records()
METRIC_NAMES = {v: k for k, v in T.data()["experimental_config"]["aic_metrics"].items()}
BASE = {r["release"]: r for r in RECS if r["case"] == "dynamic.base"}


def _base_call() -> dict:
    return json.loads(next(iter(BASE.values()))["call"])


def _varied(rec) -> set:
    """The top-level keys whose value differs from the base case's."""
    call, base = json.loads(rec["call"]), _base_call()
    return {k for k in set(call) | set(base) if call.get(k, KeyError) != base.get(k, KeyError)}


def not_read(release: str, key: str) -> bool:
    """The record shows the release ignores the key: every case that varies only it (and rank_list with
    is_rank) leaves the ConfigContext as the base case leaves it, and logs nothing more."""
    base = BASE[release]
    cases = [r for r in RECS if r["release"] == release and _varied(r) and _varied(r) <= {key, "rank_list"}
             and key in _varied(r)]
    return bool(cases) and all(r["after"] == base["after"] and r["log"] == base["log"] for r in cases)


def sub_not_read(rec, key: str) -> bool:
    """An experimental_config sub-key the release's _ExperimentalConfig does not have: it is not in the structure
    handed to C++, and no warning names it."""
    exp = json.loads(rec["call"]).get("experimental_config") or {}
    native = (rec["after"] or {}).get("experimental_config")
    return key in exp and isinstance(native, dict) and key not in native and \
        not any(key in w for w in rec["warnings"])


def expected(rec):
    """{(key, phrase)} the record's reactions call for, and whether the record shows a reaction we do not model."""
    call, after, log = json.loads(rec["call"]), rec["after"] or {}, rec["log"]
    out, other = set(), False
    for line in log:
        m = re.match(r"WARNING: Invalid parameter (\w+), reset it to (\w+)\.", line)
        if m:
            out.add((m.group(1), f"resets it to {m.group(2)} and says so only in its log"))
        elif line == "INFO: Start step is not valid, will be reset to 0.":
            out.add(("start_step", "resets it to 0 and says so only in its log"))
        elif line.startswith("WARNING: Set is_rank failed"):
            out.add(("is_rank", "drops it and says so only in its log"))
        elif line.startswith("WARNING: Set activity failed"):
            out.add(("activities", "drops it and says so only in its log"))
        elif line.startswith("WARNING: Rank 0 not in valid rank_list"):
            ranks = call.get("rank_list")
            if not isinstance(ranks, list) or not ranks:    # [1] is a valid choice of ranks: rank 0 rightly idle
                out.add(("rank_list" if "rank_list" in call else "is_rank", "collects on no rank"))
        elif line.startswith("WARNING:"):
            other = True
    if after.get("start_step") == 0 and ("start_step", "resets it to 0 and says so only in its log") not in out:
        out.add(("start_step", "takes 0" if "start_step" not in call else "logs only \"Start step will be set to 0.\""))
    acts = call.get("activities")
    if isinstance(acts, str) and after.get("activities") == []:
        out.add(("activities", "ignores it without a word"))
    elif isinstance(acts, list) and len(after.get("activities", [])) < len(acts) and \
            ("activities", "drops it and says so only in its log") not in out:
        out.add(("activities", "drops it without a word"))
    exp = call.get("experimental_config") or {}
    for w in rec["warnings"]:
        text = PREFIX.sub("", w)
        m = re.match(r"Invalid parameter (\w+),(?: which must be of \w+ type,)? reset it to (.+?)\.$", text)
        if m and m.group(1) in exp:                         # not the reset of a sub-key the text leaves out
            value = m.group(2).replace("ProfilerLevel.", "")
            if value == "default" and m.group(1) == "aic_metrics":      # the metric kept, by its AiCMetrics name
                value = METRIC_NAMES[after["experimental_config"]["metrics"]]
            out.add((m.group(1), f"resets it to {value} with a warning printed on rank 0 only"))
        elif m:
            pass                                            # sys_io/sys_interconnection left out: reset to their default
        elif text.startswith("Please use level1 or level2 if you want to collect aic metrics"):
            pass                            # at Level0 every metric is dropped, a right one too: no claim
        else:
            other = True
    if rec["case"] == "dynamic.unknown_key":
        assert rec["after"] == BASE[rec["release"]]["after"] and rec["log"] == BASE[rec["release"]]["log"]
        out.add(("foo", "ignores it without a word"))
    return out, other


def _key_of(text: str, finding) -> str:
    """The key a finding points at: its own text when it points at a key, else the key whose value it is."""
    at = text[finding.start:finding.end]
    if at.startswith('"') and text[finding.end:].lstrip().startswith(":"):
        return json.loads(at)
    before = text[:finding.start]
    m = re.search(r'"(\w+)"\s*:\s*$', before)
    return m.group(1) if m else "start_step"                 # the root object: a missing start_step


@pytest.mark.parametrize("rec", RECS, ids=[f"{r['release']}:{r['case']}" for r in RECS])
def test_our_findings_agree_with_the_record(rec):
    release = release_of(rec["release"])
    text = rec["call"]
    want, other = expected(rec)
    findings = check_text(text, Target.parse("any", "any", release))
    got = [(_key_of(text, f), f.message) for f in findings]
    assert all(f.code == "NPP311" and f"torch_npu {release} " in f.message for f in findings), got
    for key, message in got:        # each claim is one the record shows
        ours = any(k == key and phrase in message for k, phrase in want)
        named = re.search(r"does not read (\w+)", message)
        ignored = ("does not read" in message or "ignores it without a word" in message) and \
            (not_read(rec["release"], named.group(1) if named else key) or sub_not_read(rec, key))
        assert ours or ignored, (rec["case"], key, message, sorted(want))
    for key, phrase in want:        # each reaction is found
        assert any(k == key and phrase in m for k, m in got), (rec["case"], key, phrase, got)
    if not want:                    # accepted as written: at most that a key is not read on this release
        assert all(re.search(r"does not read|ignores it without a word", m) for _, m in got), (rec["case"], got)
    assert not other or want or not got


def test_the_record_holds_every_reaction_the_brief_names():
    """The never-collecting and resetting cases are in the record on every release that reads the file."""
    cases = {r["case"] for r in RECS}
    assert {"dynamic.start_step.zero", "dynamic.start_step.absent", "dynamic.start_step.str_10",
            "dynamic.start_step.minus2", "dynamic.is_rank.empty_list", "dynamic.activities.str_comma",
            "dynamic.exp.export_Db", "dynamic.unknown_key"} <= cases
    assert {release_of(r["release"]) for r in RECS} == set(TORCH_NPU_RELEASES[1:])


def test_reported_under_any_only_what_every_release_does():
    """-1 is kept from 7.2 and reset before: not reported under `any`, reported for 7.1 and `portable`."""
    text = next(r["call"] for r in RECS if r["case"] == "dynamic.start_step.minus1")
    assert check_text(text, Target.parse("any", "any", "any")) == []
    assert check_text(text, Target.parse("any", "any", "7.2")) == []
    (f,) = [f for f in check_text(text, Target.parse("any", "any", "portable")) if "start_step" in f.message]
    assert f.message == ("start_step -1 is out of range: torch_npu 6.0-7.1 resets it to 0 and says so only in its "
                         "log under <dir>/log/, so no collection ever starts; write a JSON integer: the step to "
                         "start at")
