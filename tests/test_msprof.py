"""msprof command lines: found in launchers and Python calls, parsed like msprof, checked per target."""

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.source.files import Selection
from flake8_npuprof.engine.fix import fix_text
from flake8_npuprof.checks.msprof import calls_in_shell, check_call, check_shell, parse_command
from flake8_npuprof.knowledge.msprof_options import cli
from flake8_npuprof.emulate.msprof_launch import msprof_layout, msprof_overrides
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.knowledge.targets import Target


def shell(text, cann="any", soc="any"):
    return [(f.code, f.line, f.col, text.splitlines()[f.line - 1][f.col:f.end_col])
            for f in analyse_shell(text, "run.sh", Settings(target=Target.parse(cann, soc)))]


def python(text, cann="any", soc="any"):
    return [(f.code, f.line, f.col) for f in analyse(text, None, "x.py", Settings(target=Target.parse(cann, soc)))]


LAUNCHER = """\
#!/bin/bash
export ASCEND_DEVICE_ID=0
msprof --application="python3 train.py" --output=/tmp/prof --timeline=on \\
    --aic-metrics=PipeUtilisation --task-time=true --aicore=on
"""


def test_launcher_options_are_reported_at_the_option():
    assert shell(LAUNCHER) == [
        ("NPP120", 3, 59, "--timeline"),
        ("NPP122", 4, 18, "PipeUtilisation"),
        ("NPP121", 4, 46, "true"),
        ("NPP120", 4, 51, "--aicore"),
    ]


def test_messages_say_the_consequence_and_the_likely_option():
    messages = {f.code + f.message[:40]: f.message for f in analyse_shell(LAUNCHER, "run.sh")}
    timeline = next(m for k, m in messages.items() if "--timeline" in m)
    assert "exits before the application starts" in timeline and 'did you mean "--task-time"' in timeline
    metrics = next(m for m in messages.values() if "PipeUtilisation" in m)
    assert 'did you mean "PipeUtilization"' in metrics


def test_a_clean_launcher_has_no_findings():
    text = ("msprof --output=/tmp/prof --task-time=l1 --aic-metrics=PipeUtilization --ascendcl=on "
            "--storage-limit=2048MB --sys-hardware-mem=on --sys-hardware-mem-freq=50 --aicpu=off \\\n"
            "    --hccl=on --l2=off --runtime-api=on --msproftx=off --ai-core=on python3 train.py\n")
    assert shell(text) == []


def test_only_words_before_the_application_are_msprofs():
    # the script's own flags, and anything after the first plain word, belong to the application
    assert shell("msprof --output=/p python3 train.py --timeline=on --aicore=on\n") == []


def test_path_to_msprof_wrappers_and_assignments():
    text = ("LOG=1 nohup ${ASCEND_HOME}/tools/profiler/bin/msprof --output=./o --aic_metrics=Memory python3 t.py &\n"
            "echo msprof --timeline=on\n"
            "which msprof\n")
    assert shell(text) == [("NPP120", 1, 66, "--aic_metrics")]


def test_an_unknown_word_before_the_options_stops_the_judgement():
    # `$ARGS` may expand to the application, so what follows it is not known to be msprof's
    assert shell("msprof $ARGS --timeline=on python3 t.py\n") == []
    assert shell("msprof --output=$OUT --aic-metrics=${METRICS} --$NAME=on python3 t.py\n") == []


def test_abbreviations_are_left_to_getopt():
    assert shell("msprof --app=./train.sh --out=/tmp/p --aic-metric=Memory\n") == []


def test_task_time_levels_per_version():
    line = "msprof --output=/p --task-time=l2 python3 t.py\n"
    assert shell(line) == []                                    # 8.5+ accepts l2
    assert shell(line, cann="8.0") == [("NPP121", 1, 31, "l2")]
    assert shell(line, cann="8.5") == []


def fixes(text, target=Target()):
    return check_shell(text, target, fixes=True)


def test_launcher_findings_carry_no_fix_since_launchers_are_not_rewritten():
    assert [f.fix for f in analyse_shell("msprof --output=/p --hccl=ON --aicore=on ./run\n", "r.sh")] == [None, None]


def test_switch_case_is_fixed_safely():
    [f] = fixes("msprof --output=/p --hccl=ON python3 t.py\n")
    assert (f.code, f.col) == ("NPP121", 26)
    assert f.fix.safe and [e.text for e in f.fix.edits] == ["on"]


def test_aic_metrics_per_chip():
    line = "msprof --output=/p --aic-metrics=L2Cache python3 t.py\n"
    assert shell(line) == []                                    # Atlas A2 has it
    assert shell(line, soc="910") == [("NPP122", 1, 33, "L2Cache")]
    assert shell(line, soc="910B") == []
    assert shell("msprof --output=/p --aic-metrics=Custom:0x1,0x2 python3 t.py\n") == []
    assert shell("msprof --output=/p --aic-metrics= python3 t.py\n") == [("NPP122", 1, 19, "--aic-metrics")]


def test_memory_access_needs_a_newer_collector_on_a2():
    line = "msprof --output=/p --aic-metrics=MemoryAccess python3 t.py\n"
    assert shell(line, cann="7.0", soc="910B") == [("NPP122", 1, 33, "MemoryAccess")]
    assert shell(line, cann="8.5", soc="910B") == []


def test_frequencies_storage_and_output():
    text = ("msprof --output= --sys-cpu-freq=80 --storage-limit=2GB --instr-profiling-freq=100 \\\n"
            "  --sys-hardware-mem-freq=5000 python3 t.py\n")
    assert shell(text) == [
        ("NPP125", 1, 7, "--output"),
        ("NPP123", 1, 32, "80"),
        ("NPP124", 1, 51, "2GB"),
    ]
    # up to 10000 Hz on the Ascend 950 from 8.5; 100 elsewhere
    assert not [f for f in shell(text, cann="8.5", soc="950") if f[1] == 2]
    assert ("NPP123", 2, 26, "5000") in shell(text, cann="8.5", soc="910B")


def test_storage_limit_in_gigabytes_is_converted():
    f = next(f for f in fixes("msprof --storage-limit=2GB --output=/p ./run\n") if f.code == "NPP124")
    assert f.fix.safe and f.fix.edits[0].text == "2048MB"
    assert shell("msprof --storage-limit=100MB --output=/p ./run\n") == [("NPP124", 1, 23, "100MB")]


def test_options_a_version_lacks_need_that_version():
    line = "msprof --output=/p --task-block=on --l2-freq=10 python3 t.py\n"
    assert shell(line) == []
    assert shell(line, cann="8.5") == [("NPP126", 1, 19, "--task-block"), ("NPP126", 1, 35, "--l2-freq")]
    assert shell(line, cann="9.0") == [("NPP126", 1, 35, "--l2-freq")]


def test_options_a_chip_refuses():
    line = "msprof --output=/p --aiv-metrics=PipeUtilization --instr-profiling=on python3 t.py\n"
    assert shell(line) == []
    assert shell(line, cann="8.5", soc="910B") == [("NPP126", 1, 19, "--aiv-metrics")]
    assert shell(line, cann="9.1", soc="910") == [("NPP126", 1, 19, "--aiv-metrics"),
                                                  ("NPP126", 1, 49, "--instr-profiling")]
    assert shell(line, cann="8.0", soc="910B") == []            # the legacy lists were not read: no claim


def test_unknown_option_fix_only_for_a_trivial_or_single_close_spelling():
    found = {f.message.split()[0]: f for f in fixes(
        "msprof --aic_metrics=Memory --aicore=on --timeline=on --outptu=/p ./run\n")}
    assert found["--aic_metrics"].fix.safe and found["--aic_metrics"].fix.edits[0].text == "aic-metrics"
    assert found["--aicore"].fix.safe and found["--aicore"].fix.edits[0].text == "ai-core"
    assert found["--timeline"].fix is None                      # another profiler's word: no certain intent
    assert not found["--outptu"].fix.safe and found["--outptu"].fix.edits[0].text == "output"


PY = """\
import os
import subprocess
import subprocess as sp
from subprocess import Popen

subprocess.run(["msprof", "--output=/tmp/prof", "--timeline=on", "python3", "train.py"])
os.system("msprof --output=/tmp/prof --aic-metrics=pipeutilization python3 train.py")
Popen("msprof --aicore=on --output=./p python3 t.py".split())
sp.call("msprof --task-time=ON python3 t.py", shell=True)
subprocess.run("msprof --task-time=ON python3 t.py")
subprocess.run(["msprof", OPTS, "--timeline=on", "python3", "t.py"])
print("msprof --timeline=on")
"""


def test_python_call_sites():
    assert python(PY) == [
        ("NPP120", 6, 49),
        ("NPP122", 7, 51),
        ("NPP120", 8, 14),
        ("NPP121", 9, 28),
    ]


def test_python_fix_edits_the_literal(tmp_path):
    text = 'import subprocess\nsubprocess.run(["msprof", "--aic_metrics=Memory", "--output=/p", "./run"])\n'
    result = fix_text(text, "x.py", Settings(), Selection(), False)
    assert result.text == text.replace("--aic_metrics", "--aic-metrics")


def test_escaped_literals_are_placed_but_not_rewritten():
    text = 'import os\nos.system("msprof --output=/p --aic\\x5fmetrics=Memory ./run")\n'
    [f] = analyse(text, None, "x.py")
    assert (f.code, f.line, f.col) == ("NPP120", 2, 30)
    assert f.fix is None


def test_overrides_name_the_script_and_msprofs_switches():
    info = msprof_overrides('msprof --output=/tmp/prof --task-time=l1 python3 train.py --epochs=1')
    assert info["script"] == "train.py" and info["output"] == "/tmp/prof"
    assert info["switches"] == {"output": "/tmp/prof", "task-time": "l1"}
    assert "not used" in info["note"]
    old = msprof_overrides(["msprof", '--application=python3 /work/train.py --x', "--output=/o"])
    assert old["script"] == "/work/train.py" and old["application"] == ["python3", "/work/train.py", "--x"]
    assert msprof_overrides("python3 train.py") is None


def test_parse_command_and_continuations():
    [call] = calls_in_shell("msprof \\\n  --output=/o \\\n  --ascendcl=on \\\n  bash run.sh\n")
    assert [o.name for o in call.options] == ["output", "ascendcl"] and call.app == ("bash", "run.sh")
    assert parse_command(["msprof", "--output", "/o", "./app"]).options[0].value is None


def test_every_source_names_a_ref_and_versions():
    for fact, entries in cli()["sources"].items():
        for e in entries:
            assert e["ref"] and e["says"] and e["standing"] in ("code", "doc", "inferred", "executed") and e["versions"], fact


@pytest.mark.parametrize("text", ["msprof", "msprof --", "msprof --=x", "msprof '--output=", "msprof --output=\\",
                                  "msprof \"$(echo --x)\" --y", "x=1 msprof", "msprof --output=/p |"])
def test_odd_lines_do_not_crash(text):
    assert all(f.code != "NPP000" for f in analyse_shell(text, "r.sh"))


def test_layout_of_an_msprof_run():
    line = "msprof --output=/tmp/prof --aicpu=on --task-time=off python3 train.py"
    info = msprof_layout(line, Target.parse("8.5", "910B"))
    assert info["output"] == "/tmp/prof" and info["exports_itself"]
    assert info["collects"] == ["aic_metrics", "aicpu"]            # ai-core on by default; task-time switched off
    assert info["tree"][0] == "/tmp/prof/PROF_<seq>_<timestamp>_<id>/"
    assert any(p.endswith("/mindstudio_profiler_output/aicpu_<ts>.csv") for p in info["tree"])
    assert not any("task_time_" in p for p in info["tree"])
    assert msprof_layout("msprof ./app", work_path="/work/")["output"] == "/work/profiling_data"
    assert msprof_layout("msprof ./app")["output"] == "."
    assert msprof_layout("python3 train.py") is None


def test_only_runs_of_msprof_are_judged():
    text = ("timeout 3600 msprof --output=/p --timeline=on ./run\n"
            "mpirun -np 8 msprof --output=/p --aicore=on ./run\n"
            "cp msprof --timeline=on /usr/bin\n"
            "grep -- --timeline=on msprof.log\n"
            "bash -c \"msprof --output=/p --task_time=on ./run\"\n")
    assert shell(text) == [("NPP120", 1, 32, "--timeline"), ("NPP120", 2, 32, "--aicore"),
                           ("NPP120", 5, 28, "--task_time")]


def test_bash_c_in_python():
    text = 'import subprocess\nsubprocess.run(["bash", "-c", "msprof --output=/p --aicore=on ./run"])\n'
    assert python(text) == [("NPP120", 2, 50)]


def test_several_metric_sets_in_one_run():
    [f] = analyse_shell("msprof --output=/p --aic-metrics=PipeUtilization,Memory ./run\n", "r.sh")
    assert (f.code, f.col) == ("NPP122", 33) and "one set per run" in f.message and f.fix is None


def test_option_without_value_takes_the_next_word_unless_it_is_an_option():
    [call] = calls_in_shell("msprof --aic-only --force --output /o ./app --x\n")
    assert [o.name for o in call.options] == ["aic-only", "force", "output"] and call.app == ("./app", "--x")
    assert [f[3] for f in shell("msprof --aic-only --force ./app\n")] == ["--aic-only", "--force"]


def test_value_as_a_separate_word():
    text = "msprof --output /tmp/prof --aicpu on --storage-limit 500MB python3 t.py\nmsprof --output=/p --ascendcl\n"
    assert shell(text) == [("NPP127", 1, 7, "--output"), ("NPP127", 1, 26, "--aicpu"),
                           ("NPP127", 1, 37, "--storage-limit"), ("NPP127", 2, 19, "--ascendcl")]
    # older collectors refuse a value-less --storage-limit; 8.5+ take it as no limit at all, silently
    [old] = [p for call in calls_in_shell(text) for p in check_call(call, Target("8.0")) if p.i == 0 and
             p.word.text == "--storage-limit"]
    [new] = [p for call in calls_in_shell(text) for p in check_call(call, Target("8.5")) if p.i == 0 and
             p.word.text == "--storage-limit"]
    assert old.effect == "exits" and new.effect == "ignored"
    assert "runs without it, silently" in new.message and new.message.endswith("write --storage-limit=500MB")
    assert shell("msprof --help\n") == []


def test_value_as_a_separate_word_is_joined():
    text = 'import subprocess\nsubprocess.run(["msprof", "--output", "/tmp/prof", "./app"])\n'
    assert python(text) == [("NPP127", 2, 27)]
    result = fix_text(text, "x.py", Settings(), Selection(), False)
    assert result.text == text.replace('"--output", "/tmp/prof"', '"--output=/tmp/prof"')
    [f] = fixes('msprof --output "$OUT" ./app\n')
    assert f.code == "NPP127" and f.fix is None and f.message.endswith("write --output=VALUE")
    [f] = fixes("msprof --output /tmp/p ./app\n")
    assert [(e.start, e.end, e.text) for e in f.fix.edits] == [(15, 16, "=")]


def test_user_text_in_messages_is_printable():
    [f] = analyse_shell("msprof --output=/p --hccl=o\x1b[31mn ./app\n", "r.sh")
    assert f.code == "NPP121" and "\x1b" not in f.message and "\\x1b" in f.message


def test_data_names_only_options_msprof_has():
    from flake8_npuprof.knowledge.msprof_options import all_options, options_of
    data = cli()
    every = set(all_options())
    named = set(data["switches"]["options"]) | set(data["enums"]) | set(data["ranges"]) \
        | set(data["metrics"]) | set(data["storage_limit"]["options"]) | set(data["output"]["options"]) \
        | set(data["defaults"]) | set(data["collects"])
    assert named <= every, named - every
    for version, names in data["value_required"].items():
        assert set(names) <= set(data["versions"][version]["options"]), version
    # 7.0/8.0 from the tables, 8.5+ from each tag's LONG_OPTIONS
    assert set(data["versions"]) == {"7.0", "8.0"}
    assert "task-block" in options_of("9.0") and "task-block" not in options_of("8.5")
    assert "export" in options_of("9.1") and "invalid" not in options_of("9.1")       # "export " in the table


def test_huge_numbers_are_out_of_range_without_conversion():
    line = "msprof --output=/p --sys-cpu-freq=" + "9" * 5000 + " ./app\n"
    assert [f[0] for f in shell(line)] == ["NPP123"]


@pytest.mark.parametrize("line,cann,soc,expected", [
    # issue 23: numa is a --host-sys item from 9.1; the 310 (9.x) profiles its LLC as capacity/bandwidth
    ("--host-sys=cpu,numa", "9.1", "910B", []),
    ("--host-sys=cpu,numa", "9.0", "910B", [("NPP121", "cpu,numa")]),
    ("--llc-profiling=capacity", "9.1", "310", []),
    ("--llc-profiling=read", "9.1", "310", [("NPP121", "read")]),
    # issue 24: the output's characters (9.0+), Custom: lists, l3 on 9.0, a value as the next word
    ("--output=/tmp/50%", "9.0", "any", [("NPP125", "/tmp/50%")]),
    ("--output=/tmp/50%", "8.5", "910B", []),
    ("--aic-metrics=Custom:" + ",".join(f"0x{i:x}" for i in range(1, 17)), "8.5", "910B",
     [("NPP122", "Custom:" + ",".join(f"0x{i:x}" for i in range(1, 17)))]),
    ("--task-time=l3", "9.0", "any", [("NPP121", "l3")]),
    ("--task-time=l3", "9.1", "910B", []),
    # abbreviations are read as getopt_long reads them
    ("--task=on", "9.1", "any", [("NPP120", "--task")]),
    ("--aic-metric=Foo", "9.1", "910B", [("NPP122", "Foo")]),
    ("--app=./run.sh", "9.1", "any", []),
    # the chip's black list, and what its checks refuse
    ("--sys-lp=on", "9.1", "910B", [("NPP126", "--sys-lp")]),
    ("--task-block=on", "9.1", "910B", [("NPP126", "--task-block")]),
    ("--task-block=on", "9.1", "950", []),
])
def test_what_the_parser_of_the_version_does(line, cann, soc, expected):
    text = f"msprof --output=/p {line} python3 t.py\n" if not line.startswith("--output") else \
        f"msprof {line} python3 t.py\n"
    assert [(f[0], f[3]) for f in shell(text, cann, soc)] == expected


def test_messages_quote_the_line_of_the_targeted_version():
    [f] = analyse_shell("msprof --output=/p --host-sys=cpu,numa python3 t.py\n", "r.sh",
                        Settings(target=Target.parse("9.0", "910B")))
    assert f.message.startswith("--host-sys=cpu,numa is not a value msprof takes: msprof 9.0 prints \"[ERROR] "
                                "Argument --host-sys: invalid value:numa. Please input in the range of "
                                "'cpu|mem|disk|network|osrt'\" and exits before the application starts")
    [f] = analyse_shell("msprof --output=/p --sys-lp=on python3 t.py\n", "r.sh",
                        Settings(target=Target.parse("9.1", "910B")))
    assert "prints \"msprof: unrecognized option '--sys-lp=on'\", then its usage," in f.message


def test_a_switch_before_the_application_is_not_given_the_application_as_its_value():
    # issue 24: `--sys-profiling python3 train.py` must not be "fixed" into --sys-profiling=python3
    [f] = fixes("msprof --output=/p --sys-profiling python3 train.py\n", Target.parse("9.1", "910B"))
    assert f.code == "NPP127" and f.fix is None
    assert "write --sys-profiling=VALUE (one of on, off)" in f.message and "=python3" not in f.message


def test_a_crash_is_a_refusal_too():
    [f] = shell("msprof --output=/p --application=./app --outp\n", "9.0", "910B")
    assert f[:1] == ("NPP127",) and f[3] == "--outp"
    [problem] = [p for call in calls_in_shell("msprof --output=/p --application=./app --outp\n")
                 for p in check_call(call, Target("9.0", "910B"))]
    assert problem.effect == "exits" and "crashes (a segmentation fault)" in problem.message


def test_a_chip_the_open_source_has_no_class_for_is_said_so():
    # CANN 8.5's open msprof has no platform class (and no black list) for the Ascend 310 and 950
    [f] = analyse_shell("msprof --output=/p --ascendcl=x python3 t.py\n", "r.sh",
                        Settings(target=Target.parse("8.5", "310")))
    assert "no platform class for the Ascend 310" in f.message
    [f] = analyse_shell("msprof --output=/p --ascendcl=x python3 t.py\n", "r.sh",
                        Settings(target=Target.parse("8.5", "910B")))
    assert "platform class" not in f.message
