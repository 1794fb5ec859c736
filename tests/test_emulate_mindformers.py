"""`npuprof emulate` of MindFormers' `run_mindformer.py --config x.yaml` (emulate/mindformers_run.py): the YAML run
configuration and the command-line overrides decide what ProfileMonitor collects, as the MindFormers code read does.

The project here is our own small stand-in for a MindFormers tree: a run_mindformer.py and a mindformers package
holding the functions data/mindformers.json names (stubs). The answers stand on MindFormers' own copies of those
functions, so the tests hand the data the digests of the stand-ins (`read`); without that, the copy is not the code
read, and the answer says so."""

import ast
import os

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.emulate import mindformers_run as M
from flake8_npuprof.knowledge import mindformers as K

SCRIPT = """import argparse
from mindformers.tools.register import MindFormerConfig, ActionDict
from mindformers.tools.utils import str2bool
from mindformers.trainer import Trainer


def main(config):
    Trainer(config).train()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument('--config', required=True)
    parser.add_argument('--run_mode', default=None, type=str)
    parser.add_argument('--profile', default=None, type=str2bool)
    parser.add_argument('--options', nargs='+', action=ActionDict)
    parser.add_argument('--output_dir', default=None, type=str)
    args_, rest_args_ = parser.parse_known_args()
    main(MindFormerConfig(args_.config))
"""
YAML = """run_mode: 'train'
output_dir: './out'
runner_config:
  sink_mode: True
  sink_size: 1
profile: False
profile_start_step: 2
profile_stop_step: 4
"""


def _stub(name: str) -> str:
    """A module defining `name` (Class.method or function) as a stub."""
    if "." in name:
        cls, meth = name.split(".")
        return f"class {cls}:\n    def {meth}(self):\n        return None\n"
    return f"class {name}:\n    pass\n" if name[0].isupper() else f"def {name}():\n    return None\n"


@pytest.fixture()
def tree(tmp_path):
    (tmp_path / "run_mindformer.py").write_text(SCRIPT)
    texts = {}
    for entry in K.data()["code"]:
        if entry["file"] != "run_mindformer.py":
            texts[entry["file"]] = texts.get(entry["file"], "") + _stub(entry["name"]) + "\n"
    # the callback module names MindSpore's profiler, as MindFormers' does: what makes emulate follow the imports
    texts["mindformers/core/callback/callback.py"] = "from mindspore.profiler import schedule\n\n\n" + \
        texts["mindformers/core/callback/callback.py"]
    for rel, text in texts.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in {p.parent for p in tmp_path.rglob("*.py")}:
        if folder != tmp_path:
            (folder / "__init__.py").touch()
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "x.yaml").write_text(YAML)
    return tmp_path


@pytest.fixture()
def read(tree, monkeypatch):
    """data/mindformers.json with the stand-ins' digests: the stand-ins are 'the code read'."""
    code = []
    for entry in K.data()["code"]:
        text = (tree / entry["file"]).read_text()
        node = K.node(ast.parse(text), entry["name"])
        code.append(dict(entry, digests=[K.digest(text.splitlines()[node.lineno - 1:node.end_lineno])]))
    patched = {**K.data(), "code": code}
    monkeypatch.setattr(K, "data", lambda: patched)
    return tree


def _answer(capsys, tree, *words):
    code = main(["emulate", "--cann", "8.5", "--cwd", str(tree), "--", "python", "run_mindformer.py", *words])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, [ln for ln in captured.out.splitlines() if not ln.startswith(("target", "launch:"))]


def test_profile_on_from_the_command_line(read, capsys):
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True")
    out = os.path.join(str(read), "out", "profile", "rank_<N>")
    why = (f"MindFormers' ProfileMonitor (profile, --profile) records training steps 3-5 on every rank into {out}, "
           "if the run trains that long: how many steps it trains is not worked out here (ProfileMonitor never stops "
           "the profiler itself: if the run ends first, what MindSpore keeps then was not read here)")
    assert (code, lines[:4]) == (1, [
        "  schedule: skip_first=2, active=3, repeat=1: records training steps 3-5 (counted from 1; 2-4 from 0), "
        "one trace",
        f"  ProfileMonitor on every rank: Level0 (profiler_level not set), profile_memory=True, with_stack=False, "
        f"into {out} (output_dir, configs/x.yaml:2), a <hostname>_<pid>_<timestamp>_ascend_ms folder per run",
        why,
        f"usable data: unknown (<command line>:1: {why})"])


def test_the_ranks_listed_are_profiled_beside_the_pipeline_ranks(read, capsys):
    # `rank_id in profile_ids or rank_id in pipeline_ids`: it said "on the pipeline ranks" alone
    (read / "configs" / "x.yaml").write_text(YAML + "profile_rank_ids: [0, 5]\nprofile_pipeline: True\n")
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True")
    assert lines[2].startswith("  ProfileMonitor on ranks 0, 5 and the pipeline ranks: Level0"), lines
    assert "records training steps 3-5 on ranks 0, 5 and the pipeline ranks into" in lines[3]


def test_profile_off_in_the_yaml_is_no(read, capsys):
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    why = "profile is False (configs/x.yaml:6): MindFormers builds no ProfileMonitor, the profiler of its training runs"
    assert (code, lines[:2]) == (1, [why, f"usable data: no ({why})"])


def test_options_profile_true_reads_as_false(read, capsys):
    # ActionDict compares the method val.upper with 'TRUE': "True" becomes False
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--options", "profile=True")
    assert lines[:2] == [
        "  --options profile=True sets profile to False: MindFormers' ActionDict reads True and False alike as False "
        "(it compares the method val.upper, not its result, with 'TRUE')",
        "profile is False (--options): MindFormers builds no ProfileMonitor, the profiler of its training runs"]


def test_a_rest_pair_sets_the_steps(read, capsys):
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "true",
                          "--profile_start_step", "1", "--profile_stop_step=1")
    assert lines[0].startswith("  schedule: skip_first=1, active=1, repeat=1: records training step 2 (counted from 1;"
                               " 1 from 0)")


def test_rank_ids_not_a_list_profile_no_rank(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False", "profile: True\nprofile_rank_ids: 1"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    why = ("profile_rank_ids 1 (configs/x.yaml:7) is not a list: ProfileMonitor profiles no rank (it looks ranks up "
           "in a list only)")
    assert (code, lines[:2]) == (1, [why, f"usable data: no (<command line>:1: collects nothing: {why})"])


def test_profiler_level_3_raises(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False", "profile: True\nprofiler_level: 3"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[0] == ("profiler_level 3 (configs/x.yaml:7): ProfileMonitor accepts it (MindSpore's ProfilerLevel "
                        "has 4 members) but ProfilerLevel has no Level3, so it raises AttributeError when Trainer is "
                        "built")
    assert lines[1].startswith("usable data: no (")


def test_start_after_stop_keeps_the_configured_start(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False", "profile: True")
                                             .replace("profile_start_step: 2", "profile_start_step: 20"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[0] == ("  profile_start_step 20 is after profile_stop_step 4: MindFormers resets the steps to 1 and "
                        "10 (with a warning), but builds its schedule from profile_start_step 20 still")
    assert lines[1] == "  MindSpore resets the schedule's active (-9) to 1, with a warning"
    assert lines[2].startswith("  schedule: skip_first=20, active=1, repeat=1: records training step 21 ")


def test_base_config_is_merged_under_the_file(read, capsys):
    (read / "configs" / "base.yaml").write_text("profile_start_step: 5\nprofile_stop_step: 6\n")
    (read / "configs" / "x.yaml").write_text("base_config: base.yaml\nrun_mode: train\nprofile: True\n"
                                             "profile_stop_step: 7\n")
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[0].startswith("  schedule: skip_first=5, active=3, repeat=1: records training steps 6-8 ")


def test_a_config_that_does_not_parse_is_unknown(read, capsys):
    (read / "configs" / "x.yaml").write_text("profile: [True\n")
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True")
    assert lines[0].startswith("the configuration is not read: configs/x.yaml does not parse as YAML (while parsing")
    assert lines[1].startswith("usable data: unknown (")


def test_a_copy_not_read_is_unknown(tree, capsys):
    code, lines = _answer(capsys, tree, "--config", "configs/x.yaml", "--profile", "True")
    read = ", ".join(K.data()["read_at"])
    why = (f"run_mindformer.py is not MindFormers' run_mindformer.py as read ({read}): what it does with a YAML "
           "configuration and its command line is not known here")
    assert (code, lines[:2]) == (1, [why, f"usable data: unknown (<command line>:1: {why})"])


def test_a_predict_run_is_not_followed(read, capsys):
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--run_mode", "predict", "--profile", "True")
    assert lines[0] == ("run_mode predict (--run_mode): ProfileMonitor is a training callback; what MindFormers "
                        "profiles in eval and predict runs is not followed here")


def test_eval_of_a_command_string_is_followed(read, capsys):
    # msrun_launcher.sh's shape: the msrun line built in a string with a part not known statically, then eval'd
    (read / "run.sh").write_text('LOG=out${SUFFIX}\nCMD="msrun --worker_num=2 --local_worker_num=2 --log_dir=$LOG \\\n'
                                 '  run_mindformer.py --config configs/x.yaml"\nORDER="$CMD $1"\neval $ORDER\n')
    main(["emulate", "--cann", "8.5", "--cwd", str(read), str(read / "run.sh"), "--", "--profile=True"])
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["launch: run.sh:5 msrun --worker_num=2 --local_worker_num=2 '--log_dir=out<unknown>' "
                        "run_mindformer.py --config configs/x.yaml --profile=True",
                        "  started 2 times (one per rank, by msrun)"]
    assert out[3].startswith("  schedule: skip_first=2, active=3, repeat=1: records training steps 3-5 ")


def test_eval_of_what_bash_reads_again_stays_opaque(read, capsys):
    (read / "run.sh").write_text('CMD="python run_mindformer.py --config configs/x.yaml; echo done"\neval $CMD\n')
    main(["emulate", "--cann", "8.5", str(read / "run.sh")])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("no launch: no launch found, but run.sh:2 runs `eval`, whose command is not read: what it "
                      "starts is not known here")


def test_a_quoted_expansion_keeps_the_known_parts_of_its_value(tmp_path):
    # in double quotes nothing is split: "$CMD" of a value with an unknown part is that value, not one hole
    from flake8_npuprof.shell.walk import Walk
    from flake8_npuprof.source.text import HOLE
    (tmp_path / "run.sh").write_text('LOG=out${SUFFIX}\nCMD="msrun --log_dir=$LOG"\nORDER="$CMD train.py"\n')
    w = Walk(str(tmp_path / "run.sh")).run()
    assert w.vars["ORDER"].value == f"msrun --log_dir=out{HOLE} train.py"


def test_sink_size_moves_the_start_and_counts_callbacks(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("sink_size: 1", "sink_size: 2")
                                             .replace("profile_start_step: 2", "profile_start_step: 3"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True")
    assert lines[:3] == [
        "  profile_start_step 3 is not a multiple of sink_size 2: MindFormers moves it to 2 (with a warning)",
        "  schedule: skip_first=2, active=3, repeat=1: records step-end callbacks 3-5 (counted from 1; 2-4 from 0), "
        "one trace",
        "  sink_mode with sink_size 2: ProfileMonitor steps the profiler once per step-end callback; which training "
        "steps a callback covers in sink mode is not worked out here"]


def test_a_package_copy_that_differs_is_named(read, capsys):
    callback = read / "mindformers" / "core" / "callback" / "callback.py"
    text = callback.read_text()
    callback.write_text(text.replace("class ProfileMonitor:\n    pass", "class ProfileMonitor:\n    x = 1"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True")
    read = ", ".join(K.data()["read_at"])
    assert lines[0] == (f"mindformers/core/callback/callback.py: ProfileMonitor is none of the copies read "
                        f"(MindFormers {read}): what the launch does with the profiling keys of its YAML "
                        "configuration is not known here")


def test_rank_ids_of_strings_match_no_rank(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False", "profile: True\nprofile_rank_ids: ['0']"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[0] == ("profile_rank_ids ['0'] (configs/x.yaml:7) equals no rank id: ProfileMonitor looks each "
                        "rank's integer id up in it and profiles no rank")


def test_rank_ids_compare_as_python_does(read, capsys):
    # `rank_id in [True, 2.0, 'x']`: True == 1 and 2.0 == 2, a string equals no rank
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False",
                                                          "profile: True\nprofile_rank_ids: [true, 2.0, 'x']"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[0] == "  profile_rank_ids: 'x' equal no rank id"
    assert lines[2].startswith("  ProfileMonitor on ranks 1, 2: Level0")


def test_a_pair_under_a_section_the_yaml_lacks_is_unknown(read, capsys):
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml", "--profile", "True", "--context.mode", "0")
    assert lines[0] == ("--context.mode: context is not a section of the YAML, and whether MindFormers' template adds "
                        "it (else run_mindformer.py raises ValueError) is not worked out here")


def test_ms_profiler_options_leave_an_off_profile_unknown(read, capsys):
    (read / "run.sh").write_text("export MS_PROFILER_OPTIONS='{\"start\": true}'\n"
                                 "python run_mindformer.py --config configs/x.yaml\n")
    main(["emulate", "--cann", "8.5", "--cwd", str(read), str(read / "run.sh")])
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == ("usable data: unknown (run.sh:2: profile is False (configs/x.yaml:6): MindFormers builds no "
                       "ProfileMonitor, the profiler of its training runs; but MS_PROFILER_OPTIONS is set, and "
                       "MindSpore's EnvProfiler, which importing mindspore may start from it, is not followed for "
                       "MindFormers here)")


def test_the_json_report_carries_what_was_decided(read, capsys):
    import json
    main(["emulate", "--cann", "8.5", "--format", "json", "--cwd", str(read), "--", "python", "run_mindformer.py",
          "--config", "configs/x.yaml", "--profile", "True"])
    launch = json.loads(capsys.readouterr().out)["launches"][0]
    assert launch["verdict"] == "unknown"
    assert launch["decided"][0] == ("schedule: skip_first=2, active=3, repeat=1: records training steps 3-5 (counted "
                                    "from 1; 2-4 from 0), one trace")


def test_init_start_profile_changes_nothing(read, capsys):
    (read / "configs" / "x.yaml").write_text(YAML.replace("profile: False", "profile: True\ninit_start_profile: True")
                                             .replace("profile_start_step: 2", "profile_start_step: 1"))
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert lines[:2] == [
        "  init_start_profile (configs/x.yaml:7) changes nothing: its schedule skips the first step as "
        "profile_start_step 1 does (skip_first=1)",
        "  schedule: skip_first=1, active=4, repeat=1: records training steps 2-5 (counted from 1; 1-4 from 0), "
        "one trace"]


@pytest.mark.parametrize("line", [
    "profile_start_step: null", "profile_start_step: '5'", "profile_start_step: 2.5", "profile_start_step: [1]",
    "profile_start_step: -3", "profile_stop_step: -1", "profile_stop_step: 0", "profiler_level: -1",
    "profiler_level: 1.0", "profiler_level: Level1", "profiler_level: null", "profile_rank_ids: []",
    "profile_rank_ids: {a: 1}", "profile_rank_ids: [0, true]", "profile_pipeline: true", "runner_config: 5",
    "runner_config: {sink_mode: true, sink_size: 0}", "runner_config: {sink_mode: true, sink_size: '2'}",
    "output_dir: null", "output_dir: 7", "profile_output: /data/prof", "profile_output: [1]",
    "callbacks: [{type: ProfileMonitor}]", "callbacks: 3", "profile_memory: 'yes'", "with_stack: true",
    "run_mode: 7", "profile: 'False'", "base_config: [missing.yaml]", "base_config: 3"])
def test_odd_values_get_an_answer_never_an_error(read, capsys, line):
    key = line.split(":")[0]
    text = "\n".join(ln for ln in YAML.replace("profile: False", "profile: True").splitlines()
                     if not ln.startswith(key + ":") and not (key == "runner_config" and ln.startswith("  ")))
    (read / "configs" / "x.yaml").write_text(f"{text}\n{line}\n")
    code, lines = _answer(capsys, read, "--config", "configs/x.yaml")
    assert code == 1 and lines[-1].startswith("usable data: "), lines


def test_parse_value_as_run_mindformer_reads_a_pair():
    import math
    # "true" is not parse_value's bool ("True"/"False" only), but it is JSON
    assert [M._parse_value(v) for v in ("5", "2.5", "True", "true", "[0, 1]", "x")] == [5, 2.5, True, True, [0, 1],
                                                                                        "x"]
    assert math.isnan(M._parse_value("nan"))
    for text, raised in (("5.0", "ValueError"), ("inf", "OverflowError")):
        with pytest.raises(M.Answer) as got:
            M._parse_value(text)
        assert (got.value.verdict, raised in got.value.why) == ("fails", True)


def test_an_eval_of_plain_words_is_a_launch_like_any_other(tmp_path, capsys):
    # the launcher test_unfollowed.py had as "eval, whose command is not read": train.py is followed, and has no setup
    (tmp_path / "train.py").write_text("import mindspore\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\nCMD="msrun --worker_num=8 $1"\neval $CMD\n')
    main(["emulate", "--cann", "8.5", "--cwd", str(tmp_path), str(tmp_path / "run.sh"), "--", "train.py"])
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["launch: run.sh:3 msrun --worker_num=8 train.py", "  started 8 times (one per rank, by msrun)"]
    assert out[-2].startswith("usable data: no (")


def test_an_eval_takes_a_glob_as_written(read, capsys):
    (read / "run.sh").write_text('CMD="python run_mindformer.py --config configs/x.yaml $1"\neval $CMD\n')
    main(["emulate", "--cann", "8.5", "--cwd", str(read), str(read / "run.sh"), "--",
          "--profile True --profile_rank_ids [1]"])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("launch: run.sh:2 python run_mindformer.py --config configs/x.yaml --profile True "
                      "--profile_rank_ids '[1]'")
    assert out[3].startswith("  ProfileMonitor on rank 1: Level0")


@pytest.mark.parametrize("base", [False, True])
def test_no_outside_reads_no_configuration_outside_the_project(read, capsys, tmp_path_factory, base):
    """A launcher from an untrusted pull request names the YAML: its output_dir was printed under --no-outside."""
    other = tmp_path_factory.mktemp("runner")
    (other / "x.yaml").write_text(YAML.replace("./out", "/tmp/SECRET_TOKEN"))
    config = "configs/y.yaml" if base else f"{other}/x.yaml"
    (read / "configs" / "y.yaml").write_text(f"base_config: {other}/x.yaml\nprofile: True\n")
    (read / ".git").mkdir()
    (read / "run.sh").write_text(f"python run_mindformer.py --config {config} --profile True\n")
    main(["emulate", "--cann", "8.5", "--cwd", str(read), "--", "bash", "run.sh"])
    assert "SECRET_TOKEN" in capsys.readouterr().out            # read by default: a user's own launcher
    assert main(["emulate", "--cann", "8.5", "--no-outside", "--cwd", str(read), "--", "bash", "run.sh"]) == 1
    out = capsys.readouterr().out
    shown = os.path.relpath(other / "x.yaml", read)
    why = f"configs/y.yaml builds on {other / 'x.yaml'}: outside the project" if base else \
        f"{shown}, the --config run_mindformer.py reads, is outside the project"
    assert "SECRET_TOKEN" not in out
    assert f"usable data: unknown (run.sh:1: {why}, which --no-outside leaves unread)" in out.splitlines()


@pytest.mark.parametrize("how", ["chain", "variable", "link"])
def test_no_outside_reads_no_configuration_outside_the_project_however_named(read, capsys, tmp_path_factory, how):
    """A base_config of a base_config, reached by `..`; a --config from a variable; a --config through a link in the
    project: none of it reaches the report under --no-outside (tests/test_fence.py for the other readers)."""
    other = tmp_path_factory.mktemp("runner")
    (other / "x.yaml").write_text(YAML.replace("./out", "/tmp/SECRET_TOKEN"))
    (read / "configs" / "y.yaml").write_text("base_config: z.yaml\nprofile: True\n")
    (read / "configs" / "z.yaml").write_text(f"base_config: {os.path.relpath(other / 'x.yaml', read / 'configs')}\n")
    (read / "lnk").symlink_to(other)
    (read / ".git").mkdir()
    line = {"chain": "python run_mindformer.py --config configs/y.yaml --profile True",
            "variable": f"CONF={other}/x.yaml\npython run_mindformer.py --config $CONF --profile True",
            "link": "python run_mindformer.py --config lnk/x.yaml --profile True"}[how]
    (read / "run.sh").write_text(line + "\n")
    main(["emulate", "--cann", "8.5", "--cwd", str(read), "--", "bash", "run.sh"])
    assert "SECRET_TOKEN" in capsys.readouterr().out            # read by default: a user's own launcher
    for fmt in ("text", "json"):
        assert main(["emulate", "--cann", "8.5", "--no-outside", "--format", fmt, "--cwd", str(read), "--", "bash",
                     "run.sh"]) == 1
        out = capsys.readouterr().out
        assert "SECRET_TOKEN" not in out
    n = 2 if how == "variable" else 1
    why = {"chain": f"configs/y.yaml builds on {read / 'configs' / os.path.relpath(other / 'x.yaml', read / 'configs')}"
                    ": outside the project",
           "variable": f"{os.path.relpath(other / 'x.yaml', read)}, the --config run_mindformer.py reads, is outside "
                       "the project",
           "link": "lnk/x.yaml, the --config run_mindformer.py reads, is outside the project"}[how]
    main(["emulate", "--cann", "8.5", "--no-outside", "--cwd", str(read), "--", "bash", "run.sh"])
    assert f"usable data: unknown (run.sh:{n}: {why}, which --no-outside leaves unread)" in \
        capsys.readouterr().out.splitlines()
