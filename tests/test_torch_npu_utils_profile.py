"""NPP312-NPP314 (torch_npu.utils.profiler.Profile) held to the execution oracle: each release's own
utils/profiler.py, run from its published wheel (tools/torch_oracle, api utils_profile, in
tests/oracle/torch_npu/records.jsonl), and the rules' exact texts.

For every recorded case on a line of our release axis, the case's script is checked against that release:
- NPP312 exactly where the release left Profile off (`after.enable` false, nothing raised);
- NPP313 exactly where Profile(...) raised TypeError or ValueError for a keyword or type we model;
- NPP314 exactly where Profile was on and never entered its profiler (no profiler call, no exit);
- no finding where the release profiled a step (it called the profiler and ended the job after that step).
Gaps, where the check says nothing on purpose: the stand-ins give 5.0's torch.npu.profile no body (CANN/GE on
5.0 raise AttributeError in the record, not on a real machine); a save_path the machine cannot create; start()
called twice; a PROFILE_TYPE read from the environment (the script alone does not know it).
"""

import json
import re
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.knowledge import utils_profile as K
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES, Target

HERE = Path(__file__).resolve().parent
RECORD = HERE / "oracle" / "torch_npu" / "records.jsonl"
CODES = ("NPP312", "NPP313", "NPP314")
GAPS = ("utils_profile.ascend.save_path_under_file", "utils_profile.ascend.double_start")


def release_of(name: str):
    m = re.fullmatch(r"(\d+)\.(\d+)\.(?:rc)?\d+", name)
    short = m and f"{m.group(1)}.{m.group(2)}"
    return short if short in TORCH_NPU_RELEASES and name not in ("26.2.0", "2.14.0") else None


def _records():
    with open(RECORD, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if '"utils_profile"' in line]
    return [r for r in rows if r["api"] == "utils_profile"]


ALL = _records()
CASES = [r for r in ALL if release_of(r["release"]) and r["case"] not in GAPS and "env" not in r
         and not (r["raised"] or "").startswith("AttributeError")]


def outcome(rec) -> str:
    if rec["raised"]:
        return "raises"
    if rec.get("exit") or rec.get("calls"):
        return "profiles"
    return "off" if not (rec.get("after") or {}).get("enable") else "never"


def findings(text: str, release: str):
    settings = Settings(target=Target.parse("any", "any", release))
    return [f for f in analyse("import torch_npu\n" + text, None, "case.py", settings) if f.code in CODES]


@pytest.mark.parametrize("rec", CASES, ids=[f"{r['release']}:{r['case']}" for r in CASES])
def test_the_findings_are_what_the_release_did(rec):
    got = {f.code for f in findings(rec["call"], release_of(rec["release"]))}
    want = {"off": {"NPP312"}, "raises": {"NPP313"}, "never": {"NPP314"}, "profiles": set()}[outcome(rec)]
    if rec["case"] == "utils_profile.ascend.singleton_off_first":
        # the first Profile(profile_type=None) is the one every later Profile(...) returns
        assert "NPP312" in got
        return
    assert got == want, (rec["call"], outcome(rec), rec.get("raised"), [f.message for f in findings(
        rec["call"], release_of(rec["release"]))])


def test_the_record_holds_every_line_and_the_data_its_types():
    lines = {release_of(r["release"]) for r in ALL} - {None}
    assert lines == set(TORCH_NPU_RELEASES)
    for r in ALL:
        line = release_of(r["release"])
        m = re.fullmatch(r"utils_profile\.type\.(\w+)", r["case"])
        if not line or not m or r["raised"]:
            continue
        written = re.search(r"profile_type=(None|\"[^\"]*\")", r["call"]).group(1)
        value = None if written == "None" else written[1:-1]
        assert (value in K.types(line)) == bool(r["after"]["enable"]), (r["release"], value)


def _messages(text: str, release: str = "7.3"):
    return [f"{f.line}:{f.col + 1} {f.code} {f.message}" for f in findings(text, release)]   # as a user sees it


HEAD = "from torch_npu.utils.profiler import Profile\nimport os\n"


def test_a_type_the_release_does_not_know_says_so_per_release():
    text = HEAD + 'p = Profile(start_step=10, profile_type="CANN")\n'
    assert _messages(text) == [
        '4:41 NPP312 Profile with profile_type "CANN": torch_npu 7.3 knows only "TORCH" and "ASCEND_PROFILER" and '
        'never switches on, so nothing is collected and nothing is said; torch_npu 6.0+ profiles the NPU with '
        'profile_type="ASCEND_PROFILER"']
    assert _messages(text, "5.0") == []
    portable = [f.message for f in analyse("import torch_npu\n" + text, None, "case.py",
                                           Settings(target=Target.parse("any", "any", "portable")))]
    assert portable == [
        'Profile with profile_type "CANN": torch_npu 6.0+ knows only "TORCH" and "ASCEND_PROFILER" and never '
        'switches on, so nothing is collected and nothing is said; torch_npu 5.0 switches on with it; '
        'torch_npu 6.0+ profiles the NPU with profile_type="ASCEND_PROFILER"']


def test_under_any_a_type_only_some_releases_know_is_as_quiet_as_the_other_rules_release_splits(tmp_path, capsys):
    """`any` reports what every release does wrong (README, docs/configuration.md): a split verdict is said under
    `portable` or a release, never under `any`, by NPP312 as by NPP303 (a keyword 7.2 adds) and NPP308 (the legacy
    API 5.0 still has); the launcher's PROFILE_TYPE=CANN as the script's literal. emulate says "depends on the
    torch_npu release" for it under any (tests/test_zoo_profile_emulate.py)."""
    from flake8_npuprof.cli import main
    (tmp_path / "train.py").write_text(HEAD + "import torch_npu\np = Profile(start_step=10, profile_type=os.getenv("
                                       "\"PROFILE_TYPE\"))\nfor i in range(20):\n    p.start()\n    p.end()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nexport PROFILE_TYPE=CANN\npython3 train.py\n")
    (tmp_path / "lit.py").write_text(HEAD + "import torch_npu\np = Profile(start_step=10, profile_type=\"CANN\")\n")
    (tmp_path / "split.py").write_text(
        "import torch_npu\ncfg = torch_npu.profiler._ExperimentalConfig(mstx=True)\ntorch_npu.npu.prof_init('p')\n")
    files = [str(tmp_path / n) for n in ("run.sh", "lit.py", "split.py")]

    def codes(target):
        main(["check", "--no-cache", "--select", "NPP3", "--torch-npu", target, *files])
        return [(ln.split(":")[0].rsplit("/", 1)[-1], ln.split()[1]) for ln in capsys.readouterr().out.splitlines()
                if ": NPP3" in ln]
    assert codes("any") == []
    assert codes("portable") == [("run.sh", "NPP312"), ("lit.py", "NPP312"), ("split.py", "NPP303"),
                                 ("split.py", "NPP308")]
    assert codes("5.0") == [("split.py", "NPP303")]
    assert codes("7.3") == [("run.sh", "NPP312"), ("lit.py", "NPP312"), ("split.py", "NPP308")]


def test_a_case_slip_gets_an_unsafe_fix():
    text = HEAD + 'p = Profile(profile_type="ascend_profiler")\n'
    (f,) = findings(text, "7.3")
    assert (f.code, f.line, f.col + 1) == ("NPP312", 4, 26)
    assert f.fix is not None and not f.fix.safe
    assert [(e.start, e.end, e.text) for e in f.fix.edits] == [(len("import torch_npu\n" + HEAD) + 25,
                                                               len("import torch_npu\n" + HEAD) + 42,
                                                               '"ASCEND_PROFILER"')]


def test_keywords_that_raise_name_the_keyword_and_the_error():
    assert _messages(HEAD + 'p = Profile(profile_type="ASCEND_PROFILER", with_flops=True)\n') == [
        '4:56 NPP313 Profile with profile_type "ASCEND_PROFILER" and with_flops=: torch_npu 7.3 passes on only '
        'activities, schedule, record_shapes, profile_memory and with_stack with this type, so it raises ValueError '
        'and the job stops']
    assert _messages(HEAD + 'p = Profile(profile_type=os.getenv("PROFILE_TYPE"), record_shapes=True)\n') == [
        '4:67 NPP313 Profile with record_shapes=, once profile_type is "ASCEND_PROFILER": torch_npu 7.3 passes '
        'record_shapes to the profiler itself, from its own record_shape=, so it raises TypeError and the job '
        'stops; write record_shape= instead']
    assert _messages(HEAD + 'p = Profile(profile_type="TORCH")\n', "26.1") == [
        "4:26 NPP313 Profile with profile_type \"TORCH\": torch_npu 26.1 builds torch.autograd.profiler.profile with "
        "use_npu=, which torch's profiler does not take, so it raises TypeError and the job stops; profile with "
        "profile_type \"ASCEND_PROFILER\" (torch_npu 6.0+)"]
    # 5.0's builds for torch 1.8.1-2.0.1 put torch_npu's own profile, which takes use_npu, in torch.autograd.profiler
    five = findings(HEAD + 'p = Profile(profile_type="TORCH")\n', "5.0")
    assert [(f.code, f.message) for f in five] == [
        ("NPP313", 'Profile with profile_type "TORCH": torch_npu 5.0 depends on the build (its builds for torch 1.8.1, '
                   "1.11.0 and 2.0.1 take use_npu=; its other builds raise TypeError and the job stops); profile with "
                   'profile_type "ASCEND_PROFILER" (torch_npu 6.0+)')]


def test_a_step_the_count_never_reaches():
    assert _messages(HEAD + 'p = Profile(start_step=0, profile_type=os.getenv("PROFILE_TYPE"))\n') == [
        "4:24 NPP314 Profile with start_step=0, which its start() count from 1 never equals, once switched on: "
        "torch_npu 7.3 collects nothing and says nothing; profile a step the run reaches (start_step counts from 1)"]
    loop = HEAD + 'p = Profile(profile_type="ASCEND_PROFILER")\nfor i in range(4):\n    p.start()\n    p.end()\n'
    assert _messages(loop) == [
        "5:10 NPP314 Profile with the default start_step=10, but this loop calls p.start() only 4 times: torch_npu "
        "7.3 collects nothing and says nothing; profile a step the run reaches (start_step counts from 1)"]
    nested = HEAD + ('p = Profile(start_step=6, profile_type="ASCEND_PROFILER")\nfor e in range(2):\n'
                     '    for i in range(4):\n        p.start()\n        p.end()\n')
    assert _messages(nested) == []                  # 8 start() calls in all: it reaches step 6


def test_the_model_zoo_idiom_is_quiet():
    zoo = HEAD + ('try:\n    from torch_npu.utils.profiler import Profile\nexcept ImportError:\n'
                  '    class Profile:\n        def __init__(self, *args, **kwargs):\n            pass\n'
                  'for epoch in range(3):\n'
                  '    profiler = Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)),\n'
                  '                       profile_type=os.getenv("PROFILE_TYPE"))\n'
                  '    for step, batch in enumerate(loader):\n        profiler.start()\n        profiler.end()\n')
    for release in TORCH_NPU_RELEASES:
        assert _messages(zoo, release) == []
