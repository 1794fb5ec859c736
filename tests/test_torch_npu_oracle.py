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

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES, Target

HERE = Path(__file__).resolve().parent
RECORD = Path(os.environ.get("NPUPROF_TORCH_ORACLE", HERE / "oracle" / "torch_npu" / "records.jsonl"))
APIS = ("_ExperimentalConfig", "schedule", "profile", "tensorboard_trace_handler")
PREFIX = re.compile(r"^.*?profiler\.py: ")

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


def release_of(name: str):
    """Our axis's release for a recorded one: 7.3.0 -> 7.3; release candidates are not on the axis."""
    m = re.fullmatch(r"(\d+)\.(\d+)\.\d+", name)
    short = m and f"{m.group(1)}.{m.group(2)}"
    return short if short in TORCH_NPU_RELEASES else None


METRIC_NAMES = {"ACL_AICORE_NONE": "AiCoreNone", "ACL_AICORE_PIPE_UTILIZATION": "PipeUtilization"}


def expected(rec):
    """What the record says torch_npu did that our checks model: {(code, phrase)} and whether any warning is
    one we do not model (then silence proves nothing)."""
    out, other = set(), False
    call = rec["call"]
    if rec["raised"]:
        if rec["raised"].startswith("TypeError") and any(
                why in rec["raised"] for why in ("unexpected keyword", "missing", "positional argument")):
            out.add(("NPP303", "raises TypeError"))
        else:
            other = True
    for w in rec["warnings"]:
        text = PREFIX.sub("", w)
        after = rec.get("after") or {}
        if text.startswith("Invalid parameter profiler_level"):
            out.add(("NPP300", "resets it to Level0"))
        elif text.startswith("Invalid parameter aic_metrics"):
            out.add(("NPP301", "resets it to " + METRIC_NAMES.get(after.get("aic_metrics"), "?")))
        elif text.startswith("Please use level1 or level2"):
            if "aic_metrics=" in call:              # the defaults of 26.x warn too: no finding there
                out.add(("NPP301|NPP302", "AiCoreNone"))
        elif re.match(r"Invalid parameter (\w+), which must be of bool(ean)? type, reset it to", text):
            name = re.match(r"Invalid parameter (\w+)", text).group(1)
            out.add(("NPP300", f"resets it to {after.get(name)}"))     # "to default": the value after it
        elif re.match(r"Invalid parameter export_type.*reset it to text", text):
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


def judged(rec):
    release = release_of(rec["release"])
    text = HEAD + "x = " + rec["call"] + "\n"
    settings = Settings(target=Target.parse("any", "any", release))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code in ("NPP300", "NPP301", "NPP302", "NPP303")]
    return findings


def _cases():
    recs, real = records()
    # a NameError/AttributeError: a name of the call does not exist on that release (HostSystem before 7.1),
    # so the call never reached the API
    return [r for r in recs if r["api"] in APIS and release_of(r["release"]) and "\n" not in r["call"]
            and not (r["raised"] or "").startswith(("NameError", "AttributeError"))]


CASES = _cases()


@pytest.mark.parametrize("rec", CASES, ids=[f"{r['release']}:{r['case']}" for r in CASES])
def test_our_findings_agree_with_the_record(rec):
    want, other = expected(rec)
    findings = judged(rec)
    for f in findings:
        assert any(f.code in code.split("|") and phrase in f.message for code, phrase in want), \
            (rec["call"], f.code, f.message, rec["warnings"], rec["raised"])
    if not want and not other:
        assert findings == [], (rec["call"], [f.message for f in findings])
    for code, phrase in want:
        if known_gap(rec, (code, phrase)):
            continue
        assert any(f.code in code.split("|") and phrase in f.message for f in findings), \
            (rec["call"], code, phrase, [f.message for f in findings])


def test_the_record_covers_every_api_and_release_we_judge():
    recs, real = records()
    judged_here = {(release_of(r["release"]), r["api"]) for r in CASES}
    assert {api for _, api in judged_here} == set(APIS)
    if real:                                        # the oracle's record: every release of the axis but 5.0
        assert {rel for rel, _ in judged_here} >= set(TORCH_NPU_RELEASES[1:])


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


@pytest.mark.parametrize("rec", LIFECYCLES, ids=[f"{r['release']}:{r['case']}" for r in LIFECYCLES])
def test_loop_findings_agree_with_what_the_profiler_called(rec):
    text = HEAD + "trace_ready = tensorboard_trace_handler('./prof')\n" + rec["call"]
    settings = Settings(target=Target.parse("any", "any", release_of(rec["release"])))
    findings = [f for f in analyse(text, None, "case.py", settings) if f.code in LOOP_CODES]
    calls = rec["calls"]
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
