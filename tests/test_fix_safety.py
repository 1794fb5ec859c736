"""Fix safety derived from the effect: a fix that claims "safe" must leave every setup's effective
collection as it was (docs/ci.md, the README: a fix that changes what is collected is unsafe).

For every fix of the eval files and fix pairs, the fix is applied alone and the file's setups are
emulated before and after (the setups/state model, through `emulate`), on every CANN version and
product of the default target. Per setup and per (version, product): whether GE reads it, the verdict
(collects, off, collects nothing, unknown) and what it collects. A cell where the run fails before the
fix (GE refuses the options, Python raises where the setup is written) has no working collection to
keep: a safe fix there repairs it to what the text evidently meant. Every other cell must stay the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.emulate.replay import emulate_text
from flake8_npuprof.emulate.runtime import Env
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.files import Selection

HERE = Path(__file__).resolve().parent
FILES = sorted((HERE / "eval_files").glob("*.py")) + sorted((HERE / "fix_pairs").glob("*.in.py"))
SELECTION = Selection(select=("NPP",))


def applied(text: str, fix) -> str:
    for edit in sorted(fix.edits, key=lambda e: -e.start):
        text = text[:edit.start] + edit.text + text[edit.end:]
    return text


def collection(text: str, path: str):
    """Per setup, in order: {(version, product): (read by GE, verdict, collected)}, and whether Python
    stops where it is written."""
    out = []
    for r in emulate_text(text, "python", path, Target(), None, Env()):
        cells = {}
        for group in r.groups:
            for version in group["cann"]:
                for product in group["soc"]:
                    cells[version, product] = (r.read_by_ge, group["verdict"], tuple(group["collected"]))
        out.append((r.setup.route, r.raised or r.stops, cells))
    return out


def changed(before, after):
    """The (setup, version, product) cells a fix changed where the run worked before it."""
    if len(before) != len(after) or [b[0] for b in before] != [a[0] for a in after]:
        return ["the setups themselves"]
    out = []
    for k, ((route, broken, cells), (_, _, new)) in enumerate(zip(before, after)):
        if broken:
            continue
        for cell, value in cells.items():
            if value[1] != "fails" and new.get(cell) != value:
                out.append(f"setup {k} ({route}) on {cell}: {value} -> {new.get(cell)}")
    return out


def fixes_of(path: Path):
    text = path.read_text(encoding="utf-8")
    return [(f, text) for f in check_text(str(path), text, "python", Settings(), SELECTION) if f.fix is not None]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_safe_fix_keeps_what_is_collected(path):
    fixes = fixes_of(path)
    if not fixes:
        return
    before = collection(fixes[0][1], str(path))
    wrong = []
    for finding, text in fixes:
        if not finding.fix.safe:
            continue
        diff = changed(before, collection(applied(text, finding.fix), str(path)))
        if diff:
            wrong.append(f"line {finding.line} {finding.code} {finding.fix.title!r}: {diff[:2]}")
    assert not wrong, wrong


def test_the_derivation_sees_a_switch_turned_on():
    """The check above can fail: the PROFILING_MODE "True" -> "true" rewrite switches profiling on."""
    text = ('import os\n'
            'os.environ["PROFILING_MODE"] = "True"\n'
            'os.environ["PROFILING_OPTIONS"] = \'{"output":"/tmp/p","task_trace":"on"}\'\n')
    findings = [f for f in check_text("t.py", text, "python", Settings(), SELECTION) if f.code == "NPP011"]
    assert [f.fix.title for f in findings] == ['write "true"']
    fix = findings[0].fix
    assert fix.safe is False
    diff = changed(collection(text, "t.py"), collection(applied(text, fix), "t.py"))
    assert diff and "'off'" in diff[0] and "'collects'" in diff[0]


@pytest.mark.parametrize("cann, safe", [("any", False), ("8.5", True), ("9.1", True)])
def test_writing_out_the_defaults_is_safe_only_where_they_are_what_the_runtime_substitutes(cann, safe):
    text = ('from npu_bridge.estimator.npu.npu_config import ProfilingConfig\n'
            'pc = ProfilingConfig(enable_profiling=True)\n')
    settings = Settings(target=Target.parse(cann))
    fix = next(f.fix for f in check_text("t.py", text, "python", settings, SELECTION) if f.code == "NPP002")
    assert fix.safe is safe
    written = applied(text, fix)
    assert ('"task_time":"on"' in written) is (cann == "9.1")
    if safe:
        before, after = (collection(t, "t.py") for t in (text, written))
        assert not changed([(r, b, {c: v for c, v in cells.items() if c[0] == cann}) for r, b, cells in before],
                           [(r, b, {c: v for c, v in cells.items() if c[0] == cann}) for r, b, cells in after])


# ---------------------------------------------------------------- every front-end says the same

MODE_TRUE = ('import os\n'
             'os.environ["PROFILING_MODE"] = "True"\n'
             'os.environ["PROFILING_OPTIONS"] = \'{"output":"/tmp/p","task_trace":"on"}\'\n')


def test_the_mode_rewrite_needs_unsafe_fixes_in_npuprof_fix(tmp_path, capsys):
    from flake8_npuprof.cli import main
    path = tmp_path / "train.py"
    path.write_text(MODE_TRUE, encoding="utf-8")
    assert main(["fix", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == MODE_TRUE
    capsys.readouterr()
    assert main(["fix", "--unsafe-fixes", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == MODE_TRUE.replace('"True"', '"true"')


def test_the_plugin_marks_the_mode_rewrite_unsafe(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "train.py"
    path.write_text(MODE_TRUE, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP011", str(path)],
                         capture_output=True, text=True, cwd=tmp_path).stdout
    assert out.count("NPP011") == 1 and out.rstrip().endswith("(fixable: npuprof fix --unsafe-fixes)"), out


def test_the_server_labels_the_mode_rewrite_unsafe_and_leaves_it_out_of_fix_all(tmp_path):
    pytest.importorskip("pygls")
    import sys
    sys.path.insert(0, str(HERE))
    from lspclient import LspClient
    client = LspClient(cwd=str(tmp_path))
    try:
        client.initialize(tmp_path)
        path = tmp_path / "train.py"
        path.write_text(MODE_TRUE, encoding="utf-8")
        uri = client.open(path, MODE_TRUE)
        diags = [d for d in client.diagnostics(uri) if d["code"] == "NPP011"]
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diags}})
        titles = {a["title"]: a for a in actions}
        fix = titles['NPP011: write "true" (unsafe: changes what is collected)']
        assert not fix.get("isPreferred")
        assert not client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diags, "only": ["source.fixAll"]}})
    finally:
        client.kill()


def test_renaming_a_misnamed_entry_is_unsafe():
    """The adapter reads no setting of an entry not named NpuOptimizer: the rename switches profiling on. The
    emulated setups do not tell the misnamed entry apart, so this one is held by hand."""
    text = ('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
            'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "npu_optimizer"\n'
            'op.parameter_map["profiling_mode"].b = True\n'
            'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on"}\'\n'
            'sess = tf.Session(config=config)\n')
    [fix] = [f.fix for f in check_text("t.py", text, "python", Settings(), SELECTION) if f.code == "NPP003"]
    assert fix.title == 'rename to "NpuOptimizer"' and fix.safe is False


# ---------------------------------------------------------------- torch_npu: safety from the execution record
# emulate does not model torch_npu, so the test above cannot see a torch_npu fix change anything. The record
# (tests/oracle/torch_npu/records.jsonl) can: each call's `after` is what the release kept. A torch_npu fix
# may say safe only where the fixed call is recorded too and keeps the same `after` as the original call on
# every recorded build the target covers (a target's line: its builds; any/portable: every build).

import json  # noqa: E402
import re  # noqa: E402

from flake8_npuprof.checks.analysis import analyse  # noqa: E402
from flake8_npuprof.knowledge import torch_npu as TK  # noqa: E402
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES  # noqa: E402

TORCH_RECORD = HERE / "oracle" / "torch_npu" / "records.jsonl"
TORCH_HEAD = ("import torch\nimport torch_npu\nfrom torch_npu.profiler import (AiCMetrics, ExportType, HostSystem, "
              "ProfilerActivity, ProfilerLevel, _ExperimentalConfig, profile, schedule, tensorboard_trace_handler)\n"
              "x = ")
TORCH_APIS = ("_ExperimentalConfig", "schedule", "profile", "tensorboard_trace_handler")


def _torch_records():
    with open(TORCH_RECORD, encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    return [r for r in recs if r["api"] in TORCH_APIS and "\n" not in r["call"]]


TORCH_RECS = _torch_records()


def _line(build: str):
    m = re.fullmatch(r"(\d+)\.(\d+)\.(?:rc)?\d+", build)
    short = m and f"{m.group(1)}.{m.group(2)}"
    return short if short in TORCH_NPU_RELEASES and build not in ("26.2.0", "2.14.0") else None


def _plain(call: str) -> str:
    """A call with the enum members written as the strings they are (ProfilerLevel.Level1 is "Level1")."""
    data = TK.data()["experimental_config"]
    for kind, enum in (("profiler_level", "ProfilerLevel"), ("aic_metrics", "AiCMetrics")):
        for name, value in data[kind].items():
            call = re.sub(rf"\b(?:torch_npu\.profiler\.)?{enum}\.{name}\b", f'"{value}"', call)
    return call


BY_CALL = {}
for _r in TORCH_RECS:
    BY_CALL.setdefault((_r["release"], _plain(_r["call"])), _r)


def kept_differently(original: str, fixed: str, builds) -> list:
    """Where the fixed call keeps other values than the original one (or is not recorded: then unproven)."""
    out = []
    for build in builds:
        before, after = BY_CALL.get((build, _plain(original))), BY_CALL.get((build, _plain(fixed)))
        if before is None:
            continue                                    # the original is not recorded on that build
        if after is None:
            out.append(f"{build}: no record of {fixed}")
        elif (before["raised"], before.get("after")) != (after["raised"], after.get("after")):
            out.append(f"{build}: {before.get('after')} -> {after.get('after')}")
    return out


def _torch_safe_fixes():
    # a call is recorded once per build: each (call, target) is analysed once (3,036 records ask 8,602
    # analyses of 2,440 texts), the same answers keyed the same way
    asked = {(rec["call"], target): None for rec in TORCH_RECS
             for target in sorted({"any", "portable"} | ({_line(rec["release"])} - {None}))}
    out = []
    for call, target in asked:
        text = TORCH_HEAD + call + "\n"
        for f in analyse(text, None, "case.py", Settings(target=Target.parse("any", "any", target))):
            if f.fix is not None and f.fix.safe and f.code != "NPP304":
                out.append((call, target, f.code, f.fix))
    return sorted({(c, t, code): fix for c, t, code, fix in out}.items(), key=lambda kv: kv[0])


TORCH_SAFE = _torch_safe_fixes()


def test_the_torch_npu_record_has_safe_fixes_to_hold():
    assert {code for (_, _, code), _ in TORCH_SAFE} == {"NPP301"}
    assert {target for (_, target, _), _ in TORCH_SAFE} >= {"6.0", "7.3", "26.1"}
    assert not {target for (_, target, _), _ in TORCH_SAFE} & {"any", "portable", "5.0"}


@pytest.mark.parametrize("key", [k for k, _ in TORCH_SAFE], ids=[f"{t}:{c}" for (c, t, _), _ in TORCH_SAFE])
def test_a_safe_torch_npu_fix_keeps_what_torch_npu_kept(key):
    call, target, code = key
    fix = dict(TORCH_SAFE)[key]
    fixed = applied(TORCH_HEAD + call + "\n", fix)[len(TORCH_HEAD):].rstrip("\n")
    builds = sorted({r["release"] for r in TORCH_RECS if target in ("any", "portable") or _line(r["release"]) == target})
    assert kept_differently(call, fixed, builds) == [], (code, call, fixed)


def test_the_torch_npu_derivation_sees_a_level_fix_change_the_data():
    """The check above can fail: the unsafe "level1" -> "Level1" fix changes what 6.0+ keep (Level0 -> Level1),
    and the name fix would change what 5.0.rc3 keeps."""
    level = kept_differently('_ExperimentalConfig(profiler_level="level1")',
                             '_ExperimentalConfig(profiler_level="Level1")', ["7.3.0"])
    assert level and "'profiler_level': 'Level0'" in level[0] and "'profiler_level': 'Level1'" in level[0]
    name = '_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics="{}")'
    assert kept_differently(name.format("PipeUtilization"), name.format("ACL_AICORE_PIPE_UTILIZATION"),
                            ["5.0.rc3"])
    assert kept_differently(name.format("PipeUtilization"), name.format("ACL_AICORE_PIPE_UTILIZATION"),
                            ["6.0.rc1", "6.0.rc3", "6.0.0", "26.1.0"]) == []


def test_naming_schedule_arguments_gives_the_values_torch_npu_kept():
    """NPP304's fix names the positional arguments in torch_npu's order: the record's `after` of the positional
    call holds those names with those values on every build."""
    held = 0
    for rec in [r for r in TORCH_RECS if r["api"] == "schedule" and re.fullmatch(r"schedule\([\d, ]+\)", r["call"])]:
        findings = [f for f in analyse(TORCH_HEAD + rec["call"] + "\n", None, "case.py", Settings())
                    if f.code == "NPP304"]
        if not findings:
            continue
        fixed = applied(TORCH_HEAD + rec["call"] + "\n", findings[0].fix)[len(TORCH_HEAD):]
        for name, value in re.findall(r"(\w+)=(\d+)", fixed):
            if any(f"Invalid parameter {name}," in w for w in rec["warnings"]):
                continue                                # reset by its value, whichever way it is passed
            assert rec["after"][name] == int(value), (rec["release"], rec["call"], fixed, rec["after"])
            held += 1
    assert held > 12
