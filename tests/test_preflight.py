"""NPP901-903: output directory, free space and graph op names, on real temporary directories."""

import ast
import json
import os
from collections import namedtuple
from pathlib import Path

import pytest

from flake8_npuprof.source import graphdump
from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.checks import preflight
from flake8_npuprof.cli import main
from flake8_npuprof.source.text import SourceText

DATA = Path(__file__).resolve().parent / "data" / "emulate"
Vfs = namedtuple("Vfs", "f_bavail f_frsize")
MB = 1 << 20


def free(mb: int):
    """A statvfs answer with `mb` MB available to this user (4096-byte fragments)."""
    return lambda path: Vfs(mb * MB // 4096, 4096)


def script(options: str, mode: str = "True") -> str:
    return ("import tensorflow as tf\nconfig = tf.ConfigProto()\n"
            "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
            f"op.parameter_map['profiling_mode'].b = {mode}\n"
            f"op.parameter_map['profiling_options'].s = b'{options}'\n"
            "sess = tf.Session(config=config)\n")


def findings(text: str, **settings):
    ctx = Context(SourceText(text), ast.parse(text), "train.py", Settings(**settings))
    preflight.check(ctx)
    return [(f.code, f.line, f.col, f.message) for f in ctx.findings]


# ---------------------------------------------------------------- output directory (NPP901)

def test_existing_and_creatable_directories_pass(tmp_path):
    assert preflight.output_problem(str(tmp_path)) is None
    assert preflight.output_problem(str(tmp_path / "a" / "b" / "c")) is None


def test_directory_under_a_regular_file_cannot_be_created(tmp_path):
    (tmp_path / "afile").write_text("x")
    target = str(tmp_path / "afile" / "prof")
    problem = preflight.output_problem(target)
    assert problem.code == "NPP901"
    # the 8.5+ consequence is the executed one (tests/oracle: an output below a regular file is refused)
    assert problem.message == (f'output directory "{target}" cannot be created: "{tmp_path / "afile"}" is not a '
                               'directory: the collector rejects the options (from CANN 8.5 "Result path is empty or '
                               'not accessible, result path: ", up to 8.0 '
                               # up to 8.0 the collector logs Utils::BaseName of the path (params_adapter_geopt.cpp)
                               # and returns MSPROF_ERROR_CONFIG_INVALID (prof_acl_mgr.cpp MsprofInitGeOptions)
                               '"Result path is not accessible or not exist, result path: prof"), so GE '
                               'initialisation fails and the job aborts; choose another path')


def test_output_that_is_a_file(tmp_path):
    (tmp_path / "prof").write_text("x")
    problem = preflight.output_problem(str(tmp_path / "prof"))
    assert problem.code == "NPP901" and "exists and is not a directory" in problem.message


def test_read_only_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(str(locked), os.W_OK):
            pytest.skip("this user (root) can write to a read-only directory")
        existing = preflight.output_problem(str(locked))
        inside = preflight.output_problem(str(locked / "prof"))
    finally:
        locked.chmod(0o700)
    assert existing.code == "NPP901" and "is not writable (Permission denied)" in existing.message
    assert inside.code == "NPP901" and f'cannot be created: "{locked}" is not writable (Permission denied)' in \
        inside.message
    assert list(locked.iterdir()) == []


def test_relative_output_resolves_against_the_launch_directory(tmp_path):
    assert preflight.resolve_output("prof", str(tmp_path)) == str(tmp_path / "prof")
    assert preflight.resolve_output("./a/../prof", str(tmp_path)) == str(tmp_path / "prof")
    assert preflight.resolve_output("/abs/prof", str(tmp_path)) == "/abs/prof"
    assert preflight.resolve_output("~/prof", str(tmp_path)) == os.path.expanduser("~/prof")


# ---------------------------------------------------------------- free space (NPP902)

def test_storage_limit_larger_than_free_space(tmp_path, monkeypatch):
    seen = []

    def usage(path):
        seen.append(path)
        return free(300)(path)
    monkeypatch.setattr(os, "statvfs", usage)
    target = str(tmp_path / "new" / "prof")
    problem = preflight.storage_problem("500MB", target)
    assert seen == [str(tmp_path)]              # measured where the directory will be created
    assert problem.code == "NPP902"
    assert problem.message.startswith(f'storage_limit "500MB" is more than the 300MB free on the file system of '
                                      f'"{target}"')
    assert preflight.storage_problem("300MB", target) is None
    assert preflight.storage_problem("2GB", target) is None          # invalid: NPP107, not a preflight matter
    assert preflight.storage_problem(None, target) is None


def test_disk_usage_error_is_quiet(tmp_path, monkeypatch):
    def broken(path):
        raise OSError("no")
    monkeypatch.setattr(os, "statvfs", broken)
    assert preflight.storage_problem("500MB", str(tmp_path)) is None


# ---------------------------------------------------------------- graph dumps (NPP903)

def test_graphdef_pbtxt_names():
    graph = graphdump.load(str(DATA / "graph.pbtxt"))
    assert graph.kind == "GraphDef"
    assert graph.names == {"IteratorGetNext", "resnet_model/conv2d/Conv2D", "gradients/AddN_70"}
    assert graph.original == frozenset()


def test_ge_dump_names_and_original_names():
    graph = graphdump.load(str(DATA / "ge_proto_00000001_Build.txt"))
    fused = "resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce"
    assert graph.kind == "GE dump"
    assert graph.names == {"IteratorGetNext", fused, "gradients/AddN_70"}
    assert graph.original == {"resnet_model/conv2d/Conv2D", "resnet_model/batch_normalization/FusedBatchNormV3"}
    assert graph.has("resnet_model/batch_normalization/FusedBatchNormV3")     # GE matches pre-fusion names
    assert not graph.has("ge_default_20260323031749")                          # a graph name is not an op


def test_escaped_names():
    graph = graphdump.parse('node {\n  name: "a\\"b"\n}\nnode { name: \'c/d\' }\n')
    assert graph.names == {'a"b', "c/d"}


@pytest.mark.parametrize("text,why", [
    ("node {\n  name: \"x\"\n", "unbalanced '{'"),
    ("}\n", "unbalanced '}'"),
    ("versions { producer: 1 }\n", "not a GraphDef pbtxt or GE dump"),
])
def test_not_a_graph(text, why):
    with pytest.raises(graphdump.GraphError, match=why):
        graphdump.parse(text)


def test_trace_point_problem():
    graph = graphdump.load(str(DATA / "graph.pbtxt"))
    problem = preflight.trace_point_problem("bp_point", "gradients/AddN_7", graph)
    assert problem.code == "NPP903"
    assert problem.message == ('bp_point "gradients/AddN_7" is not an op of graph.pbtxt (GraphDef): GE only warns '
                               '"Last backward op name can\'t be found in graph for training trace." and the step '
                               'trace has no usable BP end; did you mean "gradients/AddN_70"? use a name from the '
                               'dump, or "" for the automatic search')
    assert preflight.trace_point_problem("fp_point", "", graph) is None          # automatic search
    assert preflight.trace_point_problem("fp_point", "IteratorGetNext", graph) is None


# ---------------------------------------------------------------- the flake8 check

def test_flake8_reports_at_the_output_value(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = script('{"output":"afile/prof","task_trace":"on"}')
    found = findings(text, preflight=True, cwd=str(tmp_path))
    line = text.splitlines()[5]
    assert [(c, l, col) for c, l, col, _ in found] == [("NPP901", 6, line.index('"afile/prof"'))]
    assert found[0][3].startswith(f'output directory "{tmp_path}/afile/prof" cannot be created')


def test_flake8_free_space(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "statvfs", free(100))
    text = script('{"output":"prof","task_trace":"on","storage_limit":"4096MB"}')
    found = findings(text, preflight=True, cwd=str(tmp_path))
    line = text.splitlines()[5]
    assert [(c, col) for c, _, col, _ in found] == [("NPP902", line.index('"4096MB"'))]


def test_flake8_quiet_without_the_option(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = script('{"output":"afile/prof","task_trace":"on"}')
    assert findings(text, cwd=str(tmp_path)) == []


def test_flake8_quiet_when_profiling_is_off(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = script('{"output":"afile/prof","task_trace":"on"}', mode="False")
    assert findings(text, preflight=True, cwd=str(tmp_path)) == []


def test_flake8_graph_needs_preflight_like_every_npp9xx(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = script('{"output":"afile/prof","training_trace":"on","fp_point":"IteratorGetNex","bp_point":""}')
    assert findings(text, graph=str(DATA / "graph.pbtxt"), cwd=str(tmp_path)) == []
    found = findings(text, graph=str(DATA / "graph.pbtxt"), cwd=str(tmp_path), preflight=True)
    line = text.splitlines()[5]
    assert [(c, col) for c, _, col, _ in found] == [("NPP901", line.index('"afile/prof"')),
                                                     ("NPP903", line.index('"IteratorGetNex"'))]
    assert 'did you mean "IteratorGetNext"?' in found[1][3]


def test_flake8_trace_points_ignored_without_training_trace():
    text = script('{"output":"/tmp","task_trace":"on","fp_point":"nope","bp_point":"nope"}')
    assert findings(text, graph=str(DATA / "graph.pbtxt"), preflight=True) == []


def test_flake8_unusable_graph_said_once(tmp_path):
    bad = tmp_path / "bad.pbtxt"
    bad.write_text("node {\n")
    text = script('{"output":"/tmp","training_trace":"on","fp_point":"a","bp_point":"b"}')
    found = findings(text, graph=str(bad), preflight=True)
    assert len(found) == 1 and found[0][0] == "NPP903"
    assert found[0][3] == (f"the graph dump {bad} cannot be used (unbalanced '{{'): fp_point/bp_point were not "
                           "checked")


def test_flake8_branches_report_only_what_every_value_has(tmp_path):
    (tmp_path / "afile").write_text("x")
    base = ("import tensorflow as tf\nimport sys\nconfig = tf.ConfigProto()\n"
            "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
            "op.parameter_map['profiling_mode'].b = True\n"
            "if len(sys.argv) > 1:\n    out = '{A}'\nelse:\n    out = '{B}'\n"
            "op.parameter_map['profiling_options'].s = tf.compat.as_bytes("
            "'{{\"output\":\"' + out + '\",\"task_trace\":\"on\"}}')\nsess = tf.Session(config=config)\n")
    one_bad = base.replace("{A}", "afile/p").replace("{B}", "ok").replace("{{", "{").replace("}}", "}")
    both_bad = base.replace("{A}", "afile/p").replace("{B}", "afile/q").replace("{{", "{").replace("}}", "}")
    assert findings(one_bad, preflight=True, cwd=str(tmp_path)) == []
    assert [c for c, *_ in findings(both_bad, preflight=True, cwd=str(tmp_path))] == ["NPP901"]


def test_flake8_env_route(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = ("import os\nos.environ['PROFILING_MODE'] = 'true'\n"
            "os.environ['PROFILING_OPTIONS'] = '{\"output\":\"afile/p\",\"task_trace\":\"on\"}'\n")
    assert [(c, l) for c, l, *_ in findings(text, preflight=True, cwd=str(tmp_path))] == [("NPP901", 3)]


@pytest.mark.skipif("preflight" not in Path(preflight.__file__).with_name("__init__.py").read_text(),
                    reason="checks.preflight is not yet called from checks.run_all")
def test_through_analyse(tmp_path):
    (tmp_path / "afile").write_text("x")
    text = script('{"output":"afile/prof","task_trace":"on"}')
    codes = [f.code for f in analyse(text, None, "train.py", Settings(preflight=True, cwd=str(tmp_path)))]
    assert "NPP901" in codes
    assert "NPP901" not in [f.code for f in analyse(text, None, "train.py", Settings(cwd=str(tmp_path)))]


# ---------------------------------------------------------------- preflight in npuprof emulate

def emulate_json(capsys, *argv):
    code = main(["emulate", "--format", "json", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_emulate_unwritable_output(capsys, tmp_path):
    (tmp_path / "afile").write_text("x")
    path = tmp_path / "train.py"
    path.write_text(script('{"output":"afile/prof","task_trace":"on"}'))
    code, data, _ = emulate_json(capsys, "--cann", "8.0", "--soc", "910", "--cwd", str(tmp_path), str(path))
    assert code == 1 and data["usable"] is False
    assert data["setups"][0]["verdict"] == "collects"            # the configuration is fine; this machine is not
    assert [(p["code"], p["line"]) for p in data["preflight"]] == [("NPP901", 5)]   # the setup's line


def test_emulate_missing_output_is_created(capsys, tmp_path):
    code, out, _ = main(["emulate", "--cann", "8.0", "--soc", "910", "--cwd", str(tmp_path),
                         str(DATA / "sess_run.py")]), *capsys.readouterr()
    assert code == 0
    assert f"preflight: ok ({tmp_path}/prof_out can be created; storage_limit 500MB fits in " in out


def test_emulate_full_disk(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(os, "statvfs", free(10))
    code, data, _ = emulate_json(capsys, "--cann", "8.0", "--soc", "910", "--cwd", str(tmp_path),
                                 str(DATA / "sess_run.py"))
    assert code == 1 and data["usable"] is True
    assert [p["code"] for p in data["preflight"]] == ["NPP902"]
    assert data["preflight"][0]["message"].startswith('storage_limit "500MB" is more than the 10MB free')


def test_emulate_graph_checks(capsys, tmp_path):
    good = tmp_path / "good.py"
    good.write_text(script('{"output":"/tmp/p","training_trace":"on","fp_point":'
                           '"resnet_model/batch_normalization/FusedBatchNormV3","bp_point":"gradients/AddN_70"}'))
    code, data, _ = emulate_json(capsys, "--cann", "8.0", "--soc", "910", "--cwd", str(tmp_path),
                                 "--graph", str(DATA / "ge_proto_00000001_Build.txt"), str(good))
    assert code == 0 and data["preflight"] == []
    code, data, _ = emulate_json(capsys, "--cann", "8.0", "--soc", "910", "--cwd", str(tmp_path),
                                 "--graph", str(DATA / "graph.pbtxt"), str(good))
    assert code == 1 and [p["code"] for p in data["preflight"]] == ["NPP903"]
    assert data["preflight"][0]["message"].startswith('fp_point "resnet_model/batch_normalization/FusedBatchNormV3" '
                                                      "is not an op of graph.pbtxt (GraphDef)")


def test_emulate_unusable_graph_is_a_usage_error(capsys, tmp_path):
    bad = tmp_path / "bad.pbtxt"
    bad.write_text("versions { producer: 1 }\n")
    code, data, err = emulate_json(capsys, "--graph", str(bad), str(DATA / "sess_run.py"))
    assert code == 2 and data is None
    assert err.startswith(f"npuprof emulate: error: --graph {bad}: no `node {{ name: ... }}`")


# ---------------------------------------------------------------- the probe: trying, not permission bits

def _leftovers(root: Path):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("path", ["/proc/npuprof_out", "/proc/self/npuprof_out/deeper", "/sys/npuprof_out"])
def test_pseudo_file_systems_are_not_writable_even_for_root(path):
    # os.access says "writable" to root everywhere; creating the directory is what the collector does
    problem = preflight.output_problem(path)
    assert problem is not None and problem.code == "NPP901", (os.geteuid(), problem)
    assert problem.message.startswith(f'output directory "{path}" cannot be created: "')
    assert "not writable (" in problem.message
    assert not os.path.lexists(path)


def test_existing_pseudo_directory_is_not_writable():
    problem = preflight.output_problem("/proc/self")
    assert problem.code == "NPP901"
    assert problem.message.startswith('output directory "/proc/self" is not writable (')


def test_probe_removes_everything_it_created(tmp_path):
    (tmp_path / "keep").mkdir()
    assert preflight.output_problem(str(tmp_path / "keep")) is None
    assert preflight.output_problem(str(tmp_path / "new" / "a" / "b")) is None
    assert _leftovers(tmp_path) == ["keep"]             # neither the probe nor the missing parents remain


def test_probe_cleans_up_after_a_full_disk(tmp_path, monkeypatch):
    import errno

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "new" / "prof"
    problem = preflight.output_problem(str(target))
    assert problem.code == "NPP901"
    assert f'"{target}" cannot be created' in problem.message and "(No space left on device)" in problem.message
    assert _leftovers(tmp_path) == []
    (tmp_path / "there").mkdir()
    problem = preflight.output_problem(str(tmp_path / "there"))
    assert problem.message.startswith(f'output directory "{tmp_path / "there"}" is not writable (No space left')
    assert _leftovers(tmp_path) == ["there"]


def test_probe_never_makes_the_output_itself_and_two_at_once_leave_nothing(tmp_path, monkeypatch):
    # two probes of one missing output at the same time (parallel test workers, two CI jobs) used to meet in
    # it: the one that had not made it could not tell whether to remove it, and /tmp/prof stayed behind
    real_mkdir = os.mkdir
    target = tmp_path / "prof" / "run1"
    made, nested = [], []

    def racing(path, *args):
        made.append(str(path))
        if not nested:                  # a second probe starts while the first is inside its own
            nested.append("running")
            nested[0] = preflight.output_problem(str(target))
        return real_mkdir(path, *args)
    monkeypatch.setattr(os, "mkdir", racing)
    assert preflight.output_problem(str(target)) is None and nested == [None]
    assert _leftovers(tmp_path) == []
    assert str(target) not in made and str(target.parent) not in made
    assert all(os.path.basename(m).startswith(preflight.PROBE_PREFIX) or
               os.path.dirname(m) != str(tmp_path) for m in made)


def test_probe_names_the_part_that_cannot_be_made(tmp_path):
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "file").write_text("x")
    where, why = preflight.probe(str(tmp_path / "ro" / "file" / "sub"))     # (below a file: checked by the caller
    assert why                                                            # first, the probe only reports)
    long = str(tmp_path / "ok" / ("x" * 300) / "deeper")
    assert preflight.probe(long) == (str(tmp_path / "ok" / ("x" * 300)), "File name too long")
    assert _leftovers(tmp_path) == ["ro", "ro/file"]


def test_read_only_file_system(tmp_path):
    import subprocess
    import sys
    unshare = shutil_which("unshare")
    if unshare is None:
        pytest.skip("no unshare(1) on this machine to mount a read-only file system in a private namespace")
    mount = tmp_path / "ro"
    mount.mkdir()
    code = ("import json, sys; from flake8_npuprof.checks import preflight; "
            "print(json.dumps([(q.code, q.message) if q else None for q in map(preflight.output_problem, "
            "sys.argv[1:])]))")
    shell = 'mount -t tmpfs -o ro npuprof_ro "$1" || exit 97; shift; exec "$@"'
    done = subprocess.run([unshare, "-m", "sh", "-c", shell, "sh", str(mount), sys.executable, "-c", code,
                           str(mount), str(mount / "prof")], capture_output=True, text=True)
    if done.returncode in (1, 97) and not done.stdout:
        pytest.skip(f"this machine does not let a test mount a read-only file system: {done.stderr.strip()}")
    existing, inside = json.loads(done.stdout)
    assert existing[0] == "NPP901"
    assert existing[1].startswith(f'output directory "{mount}" is not writable (Read-only file system)')
    assert inside[0] == "NPP901" and f'"{mount}" is not writable (Read-only file system)' in inside[1]


def shutil_which(name):
    import shutil
    return shutil.which(name)
