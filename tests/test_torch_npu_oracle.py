"""The torch_npu checks held to the execution oracle: each torch_npu release's own profiler configuration code,
run from its published wheel with stand-ins (tools/torch_oracle, tests/oracle/torch_npu/records.jsonl: one
JSON object per line, `release`, `case`, `api`, `call` as a user writes it, `warnings` in order, `raised`,
`after`).

For every recorded call of `_ExperimentalConfig`, `schedule`, `profile` and `tensorboard_trace_handler` on a
release of our axis, a small script with that call is checked against that release, and:
- every NPP300-NPP303 finding states a reaction the record shows (the code and "resets it to X", "raises
  TypeError", ...): no claim the runtime does not make;
- a call the record shows accepted silently (no warning, nothing raised) gets no finding;
- the reactions we model (the warning kinds below) are found, except for the documented gaps, where the check
  stays quiet on purpose.

Until the record is in the repository, the cases below stand in for it: a handful, in the record's format,
held to the reproduced outcomes of frameworks_facts.md §4 and to the release tags' code (data/sources.json).
NPUPROF_TORCH_ORACLE names another record file.
"""

import json
import os
import re
from pathlib import Path

from typing import Dict, Optional

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES, Target

HERE = Path(__file__).resolve().parent
RECORD = Path(os.environ.get("NPUPROF_TORCH_ORACLE", HERE / "oracle" / "torch_npu" / "records.jsonl"))
APIS = ("_ExperimentalConfig", "schedule", "profile", "tensorboard_trace_handler")
PREFIX = re.compile(r"^.*?profiler\.py: |^UserWarning: ")

HEAD = ("import torch\nimport torch_npu\nfrom torch_npu.profiler import (AiCMetrics, ExportType, HostSystem, "
        "ProfilerActivity, ProfilerLevel, _ExperimentalConfig, profile, schedule, tensorboard_trace_handler)\n")

# The stand-in record: the call, the release, the warnings and what was raised, as the oracle writes them.
W = "[<time>] [WARNING] [<pid>] profiler.py: "
STAND_IN = [
    {"release": "26.1.0", "case": "exp.profiler_level.lower_level1", "api": "_ExperimentalConfig",
     "call": '_ExperimentalConfig(profiler_level="level1")', "raised": None,
     "warnings": [W + "Invalid parameter profiler_level, reset it to ProfilerLevel.Level0."],
     "after": {"profiler_level": "Level0", "aic_metrics": "ACL_AICORE_NONE"}},
    {"release": "26.1.0", "case": "exp.combo.level1_name_pipe", "api": "_ExperimentalConfig",
     "call": '_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics="PipeUtilization")',
     "raised": None, "warnings": [W + "Invalid parameter aic_metrics, reset it to default."],
     "after": {"profiler_level": "Level1", "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}},
    {"release": "26.1.0", "case": "exp.combo.level1_pipe", "api": "_ExperimentalConfig",
     "call": "_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.PipeUtilization)",
     "raised": None, "warnings": [], "after": {"profiler_level": "Level1", "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}},
    {"release": "26.1.0", "case": "exp.combo.T5_op_attr_text", "api": "_ExperimentalConfig",
     "call": "_ExperimentalConfig(op_attr=True)", "raised": None,
     "warnings": [W + "Please use level1 or level2 if you want to collect aic metrics, reset aic metrics to None!",
                  W + "op_attr switch is invalid with export type set as text."],
     "after": {"profiler_level": "Level0", "aic_metrics": "ACL_AICORE_NONE", "op_attr": False}},
    {"release": "26.1.0", "case": "exp.combo.unknown_aicore_metrics", "api": "_ExperimentalConfig",
     "call": "_ExperimentalConfig(aicore_metrics=AiCMetrics.PipeUtilization)", "warnings": [], "after": None,
     "raised": "TypeError: _ExperimentalConfig.__init__() got an unexpected keyword argument 'aicore_metrics'"},
    {"release": "7.3.0", "case": "schedule.active_zero", "api": "schedule", "call": "schedule(wait=1, active=0)",
     "raised": None, "warnings": [W + "Invalid parameter active, reset it to 1.",
                                  W + "Profiler won't be using warmup, this can skew profiler results"],
     "after": {"wait": 1, "active": 1}},
    {"release": "7.3.0", "case": "profile.activities_str_npu", "api": "profile", "call": 'profile(activities=["NPU"])',
     "raised": None, "warnings": [W + "Invalid activities, only CPU and NPU are supported, reset it to default."],
     "after": {"activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"]}},
    {"release": "7.3.0", "case": "handler.dir_int", "api": "tensorboard_trace_handler",
     "call": "tensorboard_trace_handler(123)", "raised": None,
     "warnings": [W + "Invalid parameter dir_name, reset it to default."], "after": {"dir_path": None}},
    {"release": "6.0.0", "case": "exp.mstx.true", "api": "_ExperimentalConfig", "call": "_ExperimentalConfig(mstx=True)",
     "warnings": [], "after": None,
     "raised": "TypeError: _ExperimentalConfig.__init__() got an unexpected keyword argument 'mstx'"},
]


def records():
    if RECORD.is_file():
        with open(RECORD, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()], True
    return STAND_IN, False


# The record's builds on our axis's lines: a release candidate belongs to its line (5.0.rc3 -> 5.0; 6.0.rc1,
# 6.0.rc3 and 6.0.0 -> 6.0), so a message for a line must be true of every recorded build of it. The builds
# newer than the axis (26.2.0; 2.14.0, named by its PyTorch version) are on no line: no target names them,
# but a message's "X+" (and a plain "torch_npu ...", every release) reaches them, so the any/portable test
# below holds them to those.
NEWER = ("26.2.0", "2.14.0")


def release_of(name: str):
    """Our axis's line for a recorded build: 7.3.0 -> 7.3, 5.0.rc3 -> 5.0; None for a build newer than the axis."""
    m = re.fullmatch(r"(\d+)\.(\d+)\.(?:rc)?\d+", name)
    short = m and f"{m.group(1)}.{m.group(2)}"
    return short if short in TORCH_NPU_RELEASES and name not in NEWER else None


METRIC_NAMES = {"ACL_AICORE_NONE": "AiCoreNone", "ACL_AICORE_PIPE_UTILIZATION": "PipeUtilization"}


def expected(rec):
    """What the record says torch_npu did that our checks model: {(code, phrase)} and whether any warning is
    one we do not model (then silence proves nothing)."""
    out, other = set(), False
    call = rec["call"]
    if rec["raised"]:
        if rec["raised"].startswith("TypeError") and any(
                why in rec["raised"] for why in ("unexpected keyword", "missing", "positional argument")):
            # NPP303 for the keyword; an NPP300-NPP302 finding names the releases without it too
            out.add(("NPP300|NPP301|NPP302|NPP303", "raises TypeError"))
        else:
            other = True
    for w in rec["warnings"]:
        text = PREFIX.sub("", w)
        after = rec.get("after") or {}
        if text.startswith("Invalid parameter profiler_level"):
            out.add(("NPP300", "resets it to Level0"))
        elif text.startswith("Invalid parameter aic_metrics"):
            out.add(("NPP301", "resets it to " + METRIC_NAMES.get(after.get("aic_metrics"), "?")))
        elif text.startswith("Please use leve1 or level2"):     # 5.0.rc3: warns, keeps the metric
            if "aic_metrics=" in call:
                out.add(("NPP301|NPP302", "with a warning that AI Core metrics need Level1 or Level2"))
        elif text.startswith("Please use level1 or level2"):
            if "aic_metrics=" in call:              # the defaults of 26.x warn too: no finding there
                out.add(("NPP301|NPP302", "AiCoreNone|drops it"))
        elif re.match(r"Invalid parameter (\w+), which must be of bool(ean)? type, reset it to", text):
            name = re.match(r"Invalid parameter (\w+)", text).group(1)
            # "to default": the value after it (6.0.rc1's default data_simplification is None)
            out.add(("NPP300", f"resets it to {after.get(name)}" + ("|resets it to its default" if
                                                                    text.endswith("to default.") else "")))
        elif re.match(r"Invalid parameter (export_)?type.*reset it to text", text):   # 6.0.rc1: "type"
            if "export_type" in call:               # 7.x warns for its own default (None) too
                out.add(("NPP300", "resets it to text"))
        elif text.startswith("op_attr switch is invalid"):
            out.add(("NPP302", "turns op_attr off"))
        elif re.match(r"Invalid parameter (wait|warmup|repeat|skip_first|skip_first_wait|active), reset it to [01]\.", text):
            out.add(("NPP300", "resets it to " + text.rstrip(".")[-1]))
        elif text.startswith("Invalid activities"):
            out.add(("NPP300", "resets activities to both CPU and NPU"))
        elif re.match(r"Parameter \w+ is of boolean type, reset it to False", text):
            out.add(("NPP300", "resets it to False"))
        elif text.startswith("Experimental config will not be u"):
            if "experimental_config=" in call:      # 7.x warns for its own default config too
                out.add(("NPP302", "ignores it"))
        elif text.startswith("Invalid parameter dir_name, reset it to default"):
            out.add(("NPP300", "resets it to its default"))
        elif text.startswith("Profiler won't be using warmup"):
            pass                                    # not a mistake we report
        else:
            other = True
    return out, other


# Where the check stays quiet on purpose (a documented gap, not a disagreement): None for a switch or an
# export type (accepted on some releases), unknown ACL_AICORE_* strings (newer metrics), values whose type
# the record's code checks but ours does not read (bytes), positional arguments, torch's own enums.
def known_gap(rec, code_phrase) -> bool:
    call = rec["call"]
    return bool(re.search(r"=None\b|=b\"|ACL_AICORE_|torch\.profiler\.|activities=\"|\(\[|=\[\]|\"w\" \*", call)) or \
        ("NPP303" in code_phrase[0] and rec["api"] == "tensorboard_trace_handler")


def judged(rec, target=None):
    release = target or release_of(rec["release"])
    text = HEAD + "x = " + rec["call"] + "\n"
    settings = Settings(target=Target.parse("any", "any", release))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code in ("NPP300", "NPP301", "NPP302", "NPP303")]
    return findings


def _cases():
    recs, real = records()
    # a NameError/AttributeError: a name of the call does not exist on that release (HostSystem before 7.1),
    # so the call never reached the API
    return [r for r in recs if r["api"] in APIS and "\n" not in r["call"]
            and not (r["raised"] or "").startswith(("NameError", "AttributeError"))]


ALL_CASES = _cases()
CASES = [r for r in ALL_CASES if release_of(r["release"])]
BUILD_50 = "depends on the build (5.0.rc3 keeps the value as written, without a warning"


def by_build(rec, text: str) -> Optional[bool]:
    """For a part that says "depends on the build (B ...)": None if it says nothing of rec's build, else whether
    what it says of rec's build is what the record shows."""
    m = re.search(r"depends on the build \((\S+) ", text)
    if not m:
        return None
    if m.group(1) != rec["release"]:
        return True                                 # a claim about another build of the line
    said = text[m.end():]
    if said.startswith("keeps the value as written, without a warning"):
        return silent(rec)
    if said.startswith("keeps the value as written, with a warning that AI Core metrics need"):
        return not rec["raised"] and any("Please use leve1 or level2" in w for w in rec["warnings"])
    if said.startswith("raises TypeError"):
        return (rec["raised"] or "").startswith("TypeError")
    if said.startswith("keeps active=0 without a warning"):    # then prof.step() fails: the lifecycle record
        return silent(rec)
    if said.startswith("does not check its type"):  # the recorded values it names
        return True
    want, _ = expected(rec)
    return any(any(p in said for p in phrases.split("|")) for _, phrases in want)


def says(want, code: str, text: str) -> bool:
    """Whether a finding of `code` saying `text` states one of the reactions in `want` ({(codes, phrases)})."""
    return any(code in codes.split("|") and any(p in text for p in phrases.split("|")) for codes, phrases in want)


def silent(rec) -> bool:
    """The build kept the call as written: nothing raised, no warning we model."""
    want, other = expected(rec)
    return not rec["raised"] and not want and not other


@pytest.mark.parametrize("rec", CASES, ids=[f"{r['release']}:{r['case']}" for r in CASES])
def test_our_findings_agree_with_the_record(rec):
    want, other = expected(rec)
    findings = judged(rec)
    # a line's reaction by build: the part about this build must be what it did; then it is judged
    for f in findings:
        assert by_build(rec, f.message) is not False, (rec["call"], f.message, rec["warnings"], rec["raised"])
    builds = [f for f in findings if by_build(rec, f.message) is not None]
    findings = [f for f in findings if f not in builds]
    if builds:
        return
    for f in findings:
        assert says(want, f.code, f.message), \
            (rec["call"], f.code, f.message, rec["warnings"], rec["raised"])
    if not want and not other:
        assert findings == [], (rec["call"], [f.message for f in findings])
    for code, phrase in want:
        if known_gap(rec, (code, phrase)):
            continue
        assert any(says({(code, phrase)}, f.code, f.message) for f in findings), \
            (rec["call"], code, phrase, [f.message for f in findings])


def test_the_record_covers_every_api_and_release_we_judge():
    recs, real = records()
    judged_here = {(release_of(r["release"]), r["api"]) for r in CASES}
    assert {api for _, api in judged_here} == set(APIS)
    if real:                                        # the oracle's record: every line of the axis, every build
        assert {rel for rel, _ in judged_here} == set(TORCH_NPU_RELEASES)
        assert {r["release"] for r in ALL_CASES} == {r["release"] for r in recs}
        assert {r["release"] for r in ALL_CASES if not release_of(r["release"])} == set(NEWER)


# ---------------------------------------------------------------- any and portable: each part of a message

_SPAN = re.compile(r"(?:^|; |: )(?:on )?torch_npu ((?:\d+\.\d+(?:\+|-\d+\.\d+)?)(?:, \d+\.\d+)*)? ?(?:it )?")


def _lines(span: Optional[str]) -> set:
    """The axis lines (and "newer") a message's span names: "6.0+", "5.0", "5.0-7.0", "5.0, 7.1", none: all."""
    if span is None:
        return set(TORCH_NPU_RELEASES) | {"newer"}
    out = set()
    for part in span.split(", "):
        if part.endswith("+"):
            out |= set(TORCH_NPU_RELEASES[TORCH_NPU_RELEASES.index(part[:-1]):]) | {"newer"}
        elif "-" in part:
            a, b = part.split("-")
            out |= set(TORCH_NPU_RELEASES[TORCH_NPU_RELEASES.index(a):TORCH_NPU_RELEASES.index(b) + 1])
        else:
            out.add(part)
    return out


def parts(message: str) -> Dict[str, str]:
    """{line or "newer": what the message says that line does} for an any/portable message."""
    head, _, body = message.partition(": ")
    found = list(_SPAN.finditer(": " + body))
    out = {}
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(body) + 2
        for line in _lines(m.group(1)):
            out.setdefault(line, (": " + body)[m.end():end])
    return out


BY_CASE: Dict[str, list] = {}
for _r in ALL_CASES:
    BY_CASE.setdefault(_r["case"], []).append(_r)


@pytest.mark.parametrize("target", ["any", "portable"])
@pytest.mark.parametrize("case", sorted(BY_CASE))
def test_any_and_portable_say_of_each_line_what_its_builds_do(case, target):
    builds = BY_CASE[case]
    findings = judged(builds[0], target)
    for f in findings:
        said = parts(f.message)
        assert said, f.message
        for rec in builds:
            line = release_of(rec["release"]) or "newer"
            text = said.get(line)
            if text is None:                        # the message names no reaction for this line
                continue
            lacks = re.search(r"unexpected keyword argument '(\w+)'", rec["raised"] or "")
            if lacks and not re.search(rf"\b{lacks.group(1)}\b", f.message):
                continue                            # another keyword of the call raised
            if text.startswith("accepts it"):
                assert silent(rec) or f.code not in {c for code, _ in expected(rec)[0] for c in code.split("|")}, \
                    (rec["release"], rec["call"], f.message, rec["warnings"])
                continue
            if by_build(rec, text) is not None:
                assert by_build(rec, text), (target, rec["release"], rec["call"], f.message, rec["warnings"])
                continue
            want, other = expected(rec)
            assert says(want, f.code, text), \
                (target, rec["release"], rec["call"], f.code, f.message, rec["warnings"], rec["raised"])


# ---------------------------------------------------------------- the loop: what the profiler called

LOOP_CODES = ("NPP305", "NPP306")
STAND_IN_LIFECYCLE = [
    {"release": "26.1.0", "case": "lifecycle.never_active_wait10_steps5", "api": "lifecycle", "raised": None,
     "call": "with profile(schedule=schedule(wait=10, active=1), on_trace_ready=trace_ready) as prof:\n"
             "    for i in range(5):\n        prof.step()\n", "calls": [], "warnings": []},
    {"release": "26.1.0", "case": "lifecycle.no_step_wait1", "api": "lifecycle", "raised": None,
     "call": "with profile(schedule=schedule(wait=1, active=1), on_trace_ready=trace_ready) as prof:\n"
             "    for i in range(5):\n        pass\n", "calls": [], "warnings": []},
    {"release": "7.3.0", "case": "lifecycle.good_repeat1_steps5", "api": "lifecycle", "raised": None,
     "call": "with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=trace_ready) as "
             "prof:\n    for i in range(5):\n        prof.step()\n",
     "calls": ["_init_profiler", "_warmup_profiler", "_start_profiler", "_stop_profiler", "_finalize_profiler",
               "on_trace_ready"], "warnings": []},
]


def _lifecycles():
    recs, real = records()
    recs = [r for r in recs if r["api"] == "lifecycle"] if real else STAND_IN_LIFECYCLE
    return [r for r in recs if release_of(r["release"]) and not r["raised"]]


LIFECYCLES = _lifecycles()
# built and never started (test_never_started_findings_agree_with_what_the_profiler_called): at module level, as
# the record ran them, NPP315 is quiet (another module may import the profiler and start it)
NEVER_STARTED = [r for r in LIFECYCLES if r["case"].startswith("lifecycle.never_started_")]
LIFECYCLES = [r for r in LIFECYCLES if r not in NEVER_STARTED]


@pytest.mark.parametrize("rec", LIFECYCLES, ids=[f"{r['release']}:{r['case']}" for r in LIFECYCLES])
def test_loop_findings_agree_with_what_the_profiler_called(rec):
    text = HEAD + "trace_ready = tensorboard_trace_handler('./prof')\n" + rec["call"]
    settings = Settings(target=Target.parse("any", "any", release_of(rec["release"])))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code in LOOP_CODES]
    calls = rec["calls"]
    build = [f for f in findings if "depends on the build (6.0.rc1 starts collecting" in f.message]
    if build and rec["release"].startswith("6.0"):
        if rec["release"] == "6.0.rc1":             # what the message says of this build
            assert "_start_profiler" in calls and "on_trace_ready" not in calls, (rec["call"], calls)
        else:                                       # and of the others
            assert "_start_profiler" not in calls and "on_trace_ready" not in calls, (rec["call"], calls)
        return
    if "on_trace_ready" in calls or "_start_profiler" in calls:
        assert findings == [], (rec["call"], calls, [f.message for f in findings])   # something was recorded
    for f in findings:
        if "collects nothing and says nothing" in f.message:
            assert calls == [], (rec["call"], calls)
        else:
            # initialised (and warmed up: 7.0+ calls it out), never started, the folder deleted at exit
            assert "deletes the data" in f.message and calls and "_start_profiler" not in calls, \
                (rec["call"], calls, f.message)
    if calls == [] and ("prof.step()" not in rec["call"] or "range(" in rec["call"]):
        assert findings, (rec["call"], "nothing was collected, and no finding says so")


def test_the_record_has_the_never_started_cases():
    assert len(NEVER_STARTED) == 4 * len({r["release"] for r in NEVER_STARTED}) and NEVER_STARTED


@pytest.mark.parametrize("rec", NEVER_STARTED, ids=[f"{r['release']}:{r['case']}" for r in NEVER_STARTED])
@pytest.mark.parametrize("target", ["any", "release"])
def test_never_started_findings_agree_with_what_the_profiler_called(rec, target):
    """The record's case as a script's function (its names local, so no other module can start the profiler):
    NPP315 exactly where the release never initialised nor started its collector."""
    body = "".join("    " + line + "\n" for line in rec["call"].splitlines())
    text = (HEAD + "trace_ready = tensorboard_trace_handler('./prof')\n\n\ndef run():\n" + body +
            "\n\nif __name__ == '__main__':\n    run()\n")
    release = "any" if target == "any" else release_of(rec["release"])
    settings = Settings(target=Target.parse("any", "any", release))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code in LOOP_CODES + ("NPP315", "NPP307")]
    collected = "_init_profiler" in rec["calls"] or "_start_profiler" in rec["calls"]
    assert [f.code for f in findings] == ([] if collected else ["NPP315"]), (rec["release"], rec["call"], rec["calls"])
    if findings:
        said = "torch_npu" + ("" if target == "any" else " " + release)
        assert f": {said} never initialises its collector, so nothing is collected; " in findings[0].message, \
            findings[0].message


# ---------------------------------------------------------------- the environment variables that switch it off

_PROFILED = ("with profile(schedule=schedule(wait=1, warmup=1, active=1, repeat=1), on_trace_ready=trace_ready) as "
             "prof:\n    for i in range(4):\n        prof.step()\n")
# held to check_msprof_env in the 26.1 tag (a non-empty value switches the profiler off); 26.0 does not read it
STAND_IN_ENV = [
    {"release": "26.1.0", "case": "env.PROFILING_MODE_false", "api": "env", "env": {"PROFILING_MODE": "false"},
     "call": _PROFILED, "raised": None, "calls": ["on_trace_ready"],
     "warnings": [W + "Environment variable 'PROFILING_MODE' is set. torch_npu profiler api is not effective. "
                      "Please execute 'unset PROFILING_MODE'."]},
    {"release": "26.1.0", "case": "env.PROFILING_MODE_empty", "api": "env", "env": {"PROFILING_MODE": ""},
     "call": _PROFILED, "raised": None, "calls": ["_init_profiler", "_warmup_profiler", "_start_profiler"],
     "warnings": []},
    {"release": "26.0.0", "case": "env.PROFILING_MODE_true", "api": "env", "env": {"PROFILING_MODE": "true"},
     "call": _PROFILED, "raised": None, "calls": ["_init_profiler", "_warmup_profiler", "_start_profiler"],
     "warnings": []},
]


def _environments():
    recs, real = records()
    recs = recs if real else STAND_IN_ENV
    return [r for r in recs if r["api"] == "env" and release_of(r["release"]) and
            set(r.get("env") or ()) & {"PROFILING_MODE", "PROFILER_SAMPLECONFIG"}]


ENVIRONMENTS = _environments()


@pytest.mark.parametrize("rec", ENVIRONMENTS, ids=[f"{r['release']}:{r['case']}" for r in ENVIRONMENTS])
def test_environment_findings_agree_with_the_record(rec):
    sets = "".join(f"os.environ[{k!r}] = {v!r}\n" for k, v in rec["env"].items())
    text = HEAD + "import os\n" + sets + "trace_ready = tensorboard_trace_handler('./prof')\n" + rec["call"]
    settings = Settings(target=Target.parse("any", "any", release_of(rec["release"])))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code == "NPP310"]
    off = any("torch_npu profiler api is not effective" in w for w in rec["warnings"])
    assert bool(findings) == off, (rec["env"], rec["release"], [f.message for f in findings])
