"""Statements the README, docs and rule pages make, held to what the tool does (issue 28, item 8): the
targets each option takes, NPP114's summary against the product data, the JSON fields `validate` shares
with `check`, a "safe" fix that is there for every finding of its code, the per-target table of emulate,
and the launch line echoed as a shell reads it."""

import json
import re
import shlex
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.catalog import BY_CODE
from flake8_npuprof.cli import main
from flake8_npuprof.knowledge.datafiles import PRODUCTS, VERSIONS
from flake8_npuprof.knowledge.targets import Target

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CORPUS = sorted([*ROOT.glob("tests/eval_files/*.py"), *ROOT.glob("examples/**/*.py"), *ROOT.glob("tests/data/**/*.py")])


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_target_table_lists_every_value_the_options_take():
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(--npuprof-(?:cann|soc))` \| (.*?) \|", README, re.M)}
    cann = re.findall(r"`([^`]+)`", rows["--npuprof-cann"])
    soc = re.findall(r"`([^`]+)`", rows["--npuprof-soc"])
    assert cann == ["any", "portable", "auto", *VERSIONS]
    assert soc == ["any", "auto", *PRODUCTS]


def test_npp114_summary_says_what_the_product_data_says():
    # what the knowledge says per product and version (products.json up to 8.0, the executed runtime
    # port, knowledge/ge_options.py, from 8.5)
    from flake8_npuprof.knowledge import datafiles as K
    how = {}
    for version in K.VERSIONS:
        for name in K.PRODUCTS:
            for key, (what, _) in K.unsupported(name, version).items():
                how.setdefault(version, set()).add((name, what))
    assert {w for v in ("7.0", "8.0") for _, w in how[v]} <= {"warn", "silent"}      # dropped up to 8.0
    assert {w for v in ("9.0", "9.1") for _, w in how[v]} == {"error"}               # rejected from 9.0
    assert {w for _, w in how["8.5"]} == {"error", "unknown"}                        # 8.5: where it is known
    unknown_85 = {name for name, w in how["8.5"] if w == "unknown"}
    assert "310" in unknown_85 and ("310", "error") in how["9.0"]
    summary = BY_CODE["NPP114"].summary
    assert "dropped with a log warning up to 8.0" in summary and "rejected from 8.5 where that collector is open " \
        "source, from 9.0 on the 310" in summary
    assert f"[{BY_CODE['NPP114'].code}](docs/rules/NPP114.md) | switch-unsupported-on-product | {summary} |" in README


def test_validate_json_has_the_fields_check_json_has(tmp_path, capsys):
    options = '{"output":"/tmp/p","L2":"on"}'
    code, out, _ = run(capsys, "validate", "--format", "json", options)
    [row] = json.loads(out)
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\nconfig = tf.ConfigProto()\nop = config.graph_options.rewrite_options."
                      "custom_optimizers.add()\nop.name = \"NpuOptimizer\"\nop.parameter_map[\"profiling_mode\"].b = True\n"
                      f"op.parameter_map[\"profiling_options\"].s = b'{options}'\nsess = tf.Session(config=config)\n")
    [checked] = json.loads(run(capsys, "check", "--format", "json", str(script))[1])
    assert code == 1 and list(row) == list(checked)
    assert row["doc"] == "npuprof explain NPP101" and row["fix"]["applicability"] == "safe"
    assert row["fix"]["edits"] == [{"content": "l2", "location": {"line": 1, "column": 21},
                                    "end_location": {"line": 1, "column": 23}}]


def _findings(text, target):
    try:
        return analyse(text, None, "x.py", Settings(target=target))
    except Exception:       # noqa: BLE001  (the analysis never raises; a corpus file must not stop the test)
        return []


def test_a_safe_fix_is_there_for_every_finding_of_its_code():
    missing = {}
    for path in CORPUS:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for target in (Target(), Target("portable"), Target("8.0"), Target("8.5")):
            for f in _findings(text, target):
                rule = BY_CODE.get(f.code)
                if rule is not None and rule.fix_safety == "safe" and f.fix is None:
                    missing.setdefault(f.code, f"{path.relative_to(ROOT)}:{f.line}")
    assert missing == {}, "rule pages that say 'safe' where no fix is offered: " + repr(missing)


NPU = ('import tensorflow as tf\nconfig = tf.ConfigProto()\ncustom_op = config.graph_options.rewrite_options.'
       'custom_optimizers.add()\ncustom_op.name = "NpuOptimizer"\n')


@pytest.mark.parametrize("code, text", [
    ("NPP010", 'import npu_device as npu\nnpu.global_options().profiling_config.enable_profiling = "True"\n'
               "npu.global_options().profiling_config.profiling_options = '{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
               "npu.open().as_default()\n"),
    ("NPP104", "import json\n" + NPU + 'custom_op.parameter_map["profiling_mode"].b = True\n'
               'custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(json.dumps({"output": "/tmp/p", '
               '"training_trace": "on", "task_trace": "on"}))\nsess = tf.Session(config=config)\n'),
    ("NPP011", 'import os\nos.putenv("PROFILING_MODE", "1")\n'
               "os.environ[\"PROFILING_OPTIONS\"] = '{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"),
    ("NPP002", "from npu_bridge.npu_init import *\nnpu_resource_init(enable_profiling=True)\n"),
    ("NPP003", NPU.replace('custom_op.name = "NpuOptimizer"\n', 'custom_op.name = "MyOptimizer"\n') +
               'custom_op.parameter_map["profiling_mode"].b = True\n'
               "custom_op.parameter_map[\"profiling_options\"].s = b'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
               "sess = tf.Session(config=config)\n"),
])
def test_pages_say_where_no_fix_is_offered(code, text):
    found = [f for f in analyse(text, None, "x.py") if f.code == code]
    assert found and all(f.fix is None for f in found)
    rule = BY_CODE[code]
    # NPP011's and NPP003's fixes, where there is one, switch profiling on: unsafe, as NPP001's
    assert rule.fix_safety == ("unsafe" if code in ("NPP011", "NPP003") else "sometimes") and "No fix" in rule.fix_note


def test_the_per_target_table_in_emulate_md_is_what_emulate_prints(capsys, tmp_path):
    doc = (ROOT / "docs" / "emulate.md").read_text(encoding="utf-8")
    block = doc.split("(here the second setup of `examples/mistakes/legacy_and_types.py`):", 1)[1]
    shown = [line[2:] for line in block.split("```", 2)[1].strip("\n").rstrip().splitlines()]
    out = run(capsys, "emulate", "--cwd", str(tmp_path), str(ROOT / "examples" / "mistakes" / "legacy_and_types.py"))[1]
    lines = out.splitlines()
    start = lines.index(shown[0])
    assert lines[start:start + len(shown)] == shown


def test_the_launch_line_reads_back_as_the_launcher_wrote_it(capsys):
    launcher = ROOT / "tests" / "data" / "projects" / "launch" / "run_flags.sh"
    out = run(capsys, "emulate", str(launcher))[1]
    line = next(line for line in out.splitlines() if line.startswith("launch: "))
    command = line.split(" ", 2)[2]
    assert command == ("nohup python3 -u train.py --profiling=True "
                       "'--profiling_options={\"output\": \"/tmp/prof_flags\", \"task_trace\": \"of\"}'")
    assert shlex.split(command)[-1] == '--profiling_options={"output": "/tmp/prof_flags", "task_trace": "of"}'
