"""NPP356 held to the execution oracle: MindSpore's own DynamicProfilerConfigContext, run on dynamic-profiling JSON
texts (tests/oracle/mindspore/records.jsonl, api "dynamic_json"; tools/mindspore_oracle/cases.py, docs/oracle.md).

For every recorded text on every release (2.7.0-2.10.0), the text is checked as MindSpore's profiler_config.json,
and:
- every reset the record shows (a logged warning that says "reset to default") is an NPP356 finding at the key or
  value it concerns, whose message quotes that warning word for word and names the value the record holds after it;
- a missing start_step, which the record shows taken as -1 without a word, is an NPP356 finding that says so;
- a key the record shows ignored (the context and its log are the base case's) is an NPP356 finding that says so;
- every NPP356 finding is one of those: nothing is claimed that MindSpore did not do;
- a text MindSpore accepts as written, or converts with only a warning that a form will go (the int forms), gets
  no finding.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flake8_npuprof.checks.dynamic_files import check_text as check_either, framework_of
from flake8_npuprof.checks.mindspore_dynamic_json import check_text
from flake8_npuprof.knowledge.targets import Target

RECORD = Path(__file__).resolve().parent / "oracle" / "mindspore" / "records.jsonl"
LEVEL = re.compile(r"^\[WARNING\] ")
# the value each reset leaves, as the record's native args (what the profiler gets) or to_dict() show it
NATIVE_SHOWN = {"ProfilerLevel.Level0": "Level0", "AicoreMetrics.AiCoreNone": "AiCoreNone",
                "ProfilerActivity.CPU,ProfilerActivity.NPU": "[CPU, NPU]", "ExportType.Text": "[text]"}


def _records():
    with open(RECORD, encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    return [r for r in recs if r["api"] == "dynamic_json"]


RECS = _records()
BASE = {r["release"]: r for r in RECS if r["case"] == "dynamic.base"}


def _varied(rec) -> set:
    call, base = json.loads(rec["call"]), json.loads(BASE[rec["release"]]["call"])
    return {k for k in set(call) | set(base) if call.get(k, KeyError) != base.get(k, KeyError)}


def _after(rec, key):
    """The value MindSpore keeps for a key: the native args' for the converted settings, else to_dict()'s."""
    native = rec["native"].get(key)
    if isinstance(native, list):
        native = ",".join(native)
    if native in NATIVE_SHOWN:
        return NATIVE_SHOWN[native]
    return json.dumps(rec["after"][key])


def expected(rec):
    """{(key, warning, value after)} the record's resets call for; and the keys it shows ignored."""
    resets, ignored = set(), set()
    for w in rec["warnings"]:
        text = LEVEL.sub("", w)
        m = re.match(r"'(\w+)' should be (?:\w+|a \w+ or a non-bool integer), but got \w+\. [Ww]ill be reset to "
                     r"default value: '.*'\.$", text)
        if m:
            resets.add((m.group(1), text))
            continue
        m = re.match(r"'(.*)' is not a valid (profiler_level|aic_metrics), will be reset to will be reset to default",
                     text)
        if m:
            resets.add((m.group(2), text))
            continue
        m = re.match(r"'(.*)' is not a valid (ProfilerActivity|ExportType) member\. will be reset to default", text)
        if m:
            resets.add(({"ProfilerActivity": "activities", "ExportType": "export_type"}[m.group(2)], text))
            continue
        # the int forms: converted, "does not support passing in the int type in future versions" (no reset)
        assert "does not support passing in the int type in future versions" in text, text
    out = {(key, text, _after(rec, key)) for key, text in resets}
    call = json.loads(rec["call"])
    for key in ("start_step", "stop_step"):     # missing: taken as -1 without a word
        if key not in call and rec["after"][key] == -1 and not rec["warnings"]:
            out.add((key, None, "-1"))
    base = BASE[rec["release"]]
    if not rec["warnings"] and rec["after"] == base["after"] and rec["native"] == base["native"]:
        ignored = {k for k in _varied(rec) if k not in base["after"]}
    return out, ignored


def _key_of(text: str, f) -> str:
    if f.start == 0:                                # at the object: a missing key, named first
        return f.message.split()[0]
    at = text[f.start:f.end]
    if at.startswith('"') and text[f.end:].lstrip().startswith(":"):
        return json.loads(at)
    m = re.search(r'"(\w+)"\s*:\s*$', text[:f.start])
    return m.group(1)


@pytest.mark.parametrize("rec", RECS, ids=[f"{r['release']}:{r['case']}" for r in RECS])
def test_our_findings_agree_with_the_record(rec):
    text = rec["call"]
    resets, ignored = expected(rec)
    findings = check_text(text)
    got = [(_key_of(text, f), f.message) for f in findings]
    assert all(f.code == "NPP356" and "MindSpore 2.7-2.10 " in f.message for f in findings), got
    for key, message in got:        # each claim is one the record shows
        ours = any(k == key and f'("{w}")' in message and f"resets it to {after} " in message.replace(
            "resets the whole list to", "resets it to") for k, w, after in resets if w is not None)
        ours = ours or any(k == key and w is None and message.startswith(f"{key} is missing: ") and
                           f"takes {after} without a word" in message for k, w, after in resets)
        assert ours or (key in ignored and "ignores it without a word" in message), (rec["case"], key, message)
    for key, warning, after in resets:      # each reset is found, with its warning and the value it leaves
        said = f'("{warning}")' if warning is not None else f"takes {after} without a word"
        assert any(k == key and said in m for k, m in got), (rec["case"], key, warning, got)
    for key in ignored:
        assert any(k == key and "ignores it without a word" in m for k, m in got), (rec["case"], key, got)
    if not resets and not ignored:
        assert got == [], (rec["case"], got)


def test_the_record_has_every_release_and_the_reactions_the_rule_names():
    assert {r["release"] for r in RECS} == {"2.7.0", "2.8.0", "2.9.0", "2.10.0"}
    assert {"dynamic.start_step.str_5", "dynamic.stop_step.str", "dynamic.profiler_level.lower",
            "dynamic.aic_metrics.acl", "dynamic.activities.lower", "dynamic.activities.str",
            "dynamic.export_type.Text", "dynamic.export_type.str_db", "dynamic.with_stack.str",
            "dynamic.unknown_key"} <= {r["case"] for r in RECS}
    # the same outcome on all four: one table serves them (data/mindspore_dynamic.json "releases")
    by_case = {}
    for r in RECS:
        by_case.setdefault(r["case"], []).append((r["after"], r["native"], r["warnings"], r["raised"]))
    assert all(len({json.dumps(o, sort_keys=True) for o in outs}) == 1 for outs in by_case.values())


@pytest.mark.parametrize("rec", [r for r in RECS if r["release"] == "2.10.0"], ids=lambda r: r["case"])
def test_every_recorded_text_is_mindspores_by_its_keys(rec):
    """The oracle's texts hold MindSpore's own keys (stop_step, prof_path, ...): `npuprof check` and `validate`
    take them as MindSpore's without being told, and report exactly NPP356's findings."""
    text = rec["call"]
    assert framework_of(text) == "mindspore"
    assert check_either(text, Target.parse()) == check_text(text)
