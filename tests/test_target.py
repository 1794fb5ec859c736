"""Which target emulate (and `--cann auto` / `--soc auto`) uses: flags, the project's configuration, the machine
(fake toolkit trees and a fake npu-smi on PATH), then any."""

import argparse
import json
import shutil
import stat
import sys
from pathlib import Path

import pytest

from flake8_npuprof.knowledge import detect
from flake8_npuprof.cli import main
from flake8_npuprof.commands.runner import target_from
from flake8_npuprof.knowledge.targets import Target

DATA = Path(__file__).resolve().parent / "data" / "emulate"

A2_TABLE = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.0                   Version: 24.1.0                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B3               | OK            | 93.6        36                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          3161 / 65536         |
+===========================+===============+====================================================+
| 1     910B3               | OK            | 90.1        35                0    / 0             |
| 0                         | 0000:01:00.0  | 0           0    / 0          3160 / 65536         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       0                 | 19334         | python                   | 58472                   |
+===========================+===============+====================================================+
"""

A3_TABLE = """\
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     Ascend910           | OK            | 178.7       37                0    / 0             |
| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3419 / 65536         |
+------------------------------------------------------------------------------------------------+
| 0     Ascend910           | OK            | -           36                0    / 0             |
| 1     1                   | 0000:9F:00.0  | 0           0    / 0          3196 / 65536         |
"""

INFERENCE_TABLE = """\
| NPU   Name   | Health      | Power(W)  Temp(C)           Hugepages-Usage(page|
| Chip  Device | Bus-Id      | AICore(%) Memory-Usage(MB)                      |
+============================+===========+====================================+
| 0     310P3  | OK          | NA        51                996   / 996         |
| 0     0      | 0000:01:00.0| 0         3841 / 21527                          |
"""


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine with nothing installed: no toolkit variables, default install paths under tmp_path, an empty
    PATH directory for fake commands. Returns helpers to install things."""
    for name in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "PROFILING_MODE", "PROFILING_OPTIONS",
                 "ASCEND_WORK_PATH"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "machine"
    bin_dir = root / "bin"
    bin_dir.mkdir(parents=True)
    defaults = [str(root / "Ascend" / "ascend-toolkit" / "latest"), str(root / "Ascend" / "cann")]
    monkeypatch.setitem(detect.machine_data(), "default_homes", defaults)
    monkeypatch.setenv("PATH", str(bin_dir))

    class Machine:
        home = Path(defaults[0])
        cann_home = Path(defaults[1])

        @staticmethod
        def toolkit(home: Path, info: str = None, cfg: str = None, ops: str = None, arch: str = "x86_64"):
            (home / f"{arch}-linux").mkdir(parents=True, exist_ok=True)
            if info is not None:
                (home / f"{arch}-linux" / "ascend_toolkit_install.info").write_text(info)
            if cfg is not None:
                (home / "version.cfg").write_text(cfg)
            if ops is not None:
                (home / f"{arch}-linux" / "ascend_ops_install.info").write_text(ops)
            return home

        @staticmethod
        def npu_smi(table: str, status: int = 0):
            (bin_dir / "table.txt").write_text(table)
            exe = bin_dir / "npu-smi"
            exe.write_text(f"#!{sys.executable}\nimport sys\nif sys.argv[1:] != ['info']:\n    sys.exit(3)\n"
                           f"sys.stdout.write(open({str(bin_dir / 'table.txt')!r}).read())\nsys.exit({status})\n")
            exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return Machine


def info(version: str, arch: str = "x86_64") -> str:
    return (f"package_name=Ascend-cann-toolkit\nversion={version}\ninnerversion=V100R001C23SPC002B210\n"
            f"compatible_version=[V100R001C15],[V100R001C18]\narch={arch}\nos=linux\n"
            f"path=/usr/local/Ascend/ascend-toolkit/{version}/{arch}-linux\n")


def project(tmp_path: Path, config: str, name: str = "pyproject.toml") -> Path:
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / ".git").mkdir()
    (proj / name).write_text(config)
    shutil.copy(DATA / "sess_run.py", proj / "src" / "train.py")
    return proj / "src" / "train.py"


def emulate_json(capsys, *argv):
    code = main(["emulate", "--format", "json", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def emulate_text(capsys, *argv):
    code = main(["emulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the toolkit version

def test_install_info_under_ascend_home_path(machine, tmp_path, monkeypatch):
    home = machine.toolkit(tmp_path / "opt" / "cann-8.5.0", info=info("8.5.0"))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    found = detect.detect_cann()
    assert found.value == "8.5"
    assert found.origin == f"{home}/x86_64-linux/ascend_toolkit_install.info (version 8.5.0)"


@pytest.mark.parametrize("version,target", [("8.0.RC3", "8.0"), ("8.3.RC2", "8.0"), ("8.0.0", "8.0"),
                                            ("7.0.RC1", "7.0"), ("9.0.1", "9.0"), ("9.1.0", "9.1"),
                                            ("8.0.T6", "8.0")])
def test_release_names_map_to_targets(machine, version, target):
    machine.toolkit(machine.home, info=info(version, arch="aarch64"), arch="aarch64")
    assert detect.detect_cann().value == target


def test_toolkit_home_variable_then_default_paths(machine, tmp_path, monkeypatch):
    machine.toolkit(machine.cann_home, info=info("9.0.0"))                  # CANN 8.5+ layout: /usr/local/Ascend/cann
    assert detect.detect_cann().value == "9.0"
    other = machine.toolkit(tmp_path / "tk", info=info("8.0.RC1"))
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(other))
    assert detect.detect_cann().value == "8.0"                               # what set_env.sh points at wins


def test_version_cfg_when_the_install_info_is_missing_or_malformed(machine):
    machine.toolkit(machine.home, info="package_name=Ascend-cann-toolkit\narch=x86_64\n",
                    cfg="# version: 1.0\nruntime_running_version=[7.6.0.1.220:8.0.0]\n"
                        "compiler_running_version=[7.6.0.1.220:8.0.0]\n")
    found = detect.detect_cann()
    assert found.value == "8.0" and found.origin == f"{machine.home}/version.cfg (version 8.0.0)"
    assert found.notes == (f"{machine.home}/x86_64-linux/ascend_toolkit_install.info: no version= line",)


@pytest.mark.parametrize("files,note", [
    ({"info": "garbage without equals\n"}, "no version= line"),
    ({"cfg": "runtime_running_version=7.6\n"}, "no [component:CANN version] entry"),
    ({"info": info("9.2.0-beta.2")}, "CANN 9.2.0-beta.2 is not a version npuprof knows"),
    ({"info": info("6.3.RC2")}, "CANN 6.3.RC2 is not a version npuprof knows"),
    ({"info": b"version=8.\xff\n"}, "cannot be read (UnicodeDecodeError)"),
])
def test_unusable_toolkit_files_fall_back_with_a_note(machine, files, note):
    arch = machine.home / "x86_64-linux"
    arch.mkdir(parents=True)
    if "info" in files:
        data = files["info"]
        (arch / "ascend_toolkit_install.info").write_bytes(data if isinstance(data, bytes) else data.encode())
    if "cfg" in files:
        (machine.home / "version.cfg").write_text(files["cfg"])
    found = detect.detect_cann()
    assert found.value is None and found.origin == ""
    assert any(note in n for n in found.notes), found.notes


def test_nothing_installed(machine, monkeypatch, tmp_path):
    assert detect.detect_cann() == detect.Found(None, "", ("no CANN toolkit installed",))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "gone"))
    assert detect.detect_cann().notes == (f"$ASCEND_HOME_PATH={tmp_path / 'gone'}: no such directory",)


# ---------------------------------------------------------------- the chip

@pytest.mark.parametrize("table,soc,names", [(A2_TABLE, "910B", "910B3"), (A3_TABLE, "910C", "Ascend910"),
                                             (INFERENCE_TABLE, "310P", "310P3")])
def test_npu_smi_on_path(machine, table, soc, names):
    machine.npu_smi(table)
    assert detect.detect_soc() == detect.Found(soc, f"npu-smi info ({names})", ())


@pytest.mark.parametrize("name,soc", [("910B1", "910B"), ("910B2C", "910B"), ("910B4-1", "910B"),
                                      ("Ascend910B", "910B"), ("910ProB", "910"), ("910A", "910"),
                                      ("310P1", "310P"), ("310B1", "310B"), ("310", "310"), ("Ascend910_9391", "910C"),
                                      ("Ascend950PR", "950"), ("Ascend910", None), ("910X9", None)])
def test_chip_names(name, soc):
    # "Ascend910" alone is what Atlas A3 prints, with its two-chips-per-NPU "Chip  Phy-ID" header only
    assert detect.chip_of(name, "| NPU   Name | Health |") == soc


@pytest.mark.parametrize("table,note", [
    (A2_TABLE.replace("| 1     910B3 ", "| 1     310P3 "), "npu-smi info: NPUs of different products (910B3, 310P3)"),
    (A2_TABLE.replace("910B3", "910Z7"), "npu-smi info: chip name 910Z7 is not one npuprof knows"),
    ("dcmi module initialize failed. ret is -8005\n", "npu-smi info: no NPU rows in its output"),
])
def test_npu_smi_output_that_names_no_single_chip(machine, table, note):
    machine.npu_smi(table)
    assert detect.detect_soc() == detect.Found(None, "", (note,))


def test_failing_npu_smi_falls_back_to_the_ops_package(machine):
    machine.npu_smi(A2_TABLE, status=1)
    machine.toolkit(machine.cann_home, info=info("8.5.0"), ops="package_name=Ascend-cann-A3-ops\nversion=8.5.0\n")
    found = detect.detect_soc()
    assert found.value == "910C"
    assert found.origin == f"{machine.cann_home}/x86_64-linux/ascend_ops_install.info (Ascend-cann-A3-ops)"
    assert found.notes == ("npu-smi info failed (exit status 1)",)


def test_no_npu_smi_and_no_ops_package(machine):
    machine.toolkit(machine.home, info=info("8.0.RC3"), ops="package_name=Ascend-cann-kernels\n")
    found = detect.detect_soc()
    assert found.value is None
    assert found.notes == ("no npu-smi on PATH", f"{machine.home}/x86_64-linux/ascend_ops_install.info: ops package "
                                                 "Ascend-cann-kernels names no chip npuprof knows")


# ---------------------------------------------------------------- emulate: flags, configuration, machine, any

PYPROJECT = '[tool.npuprof]\ncann = "8.5"\nsoc = "910B"\n'


def test_project_configuration_gives_one_verdict(machine, capsys, tmp_path, monkeypatch):
    script = project(tmp_path, PYPROJECT)
    monkeypatch.chdir(tmp_path)                         # run from outside the project: found from the script
    code, out, err = emulate_text(capsys, "--cwd", str(tmp_path), str(script))
    lines = out.splitlines()
    assert err == "" and code == 0
    assert lines[0] == "target: CANN 8.5 / Ascend 910B (proj/pyproject.toml [tool.npuprof])"
    # (the output directory is said relative to the current directory when inside it)
    assert lines[1] == "line 15 NpuOptimizer: COLLECTS training_trace, task_trace, aic_metrics into prof_out (conditional)"
    assert "DEPENDS" not in out and "per target:" not in out
    _, data, _ = emulate_json(capsys, "--cwd", str(tmp_path), str(script))
    assert data["target"] == {"cann": "8.5", "soc": "910B", "origin": {
        "cann": {"source": "config", "detail": "proj/pyproject.toml [tool.npuprof]", "notes": []},
        "soc": {"source": "config", "detail": "proj/pyproject.toml [tool.npuprof]", "notes": []}}}
    assert data["setups"][0]["verdict"] == "collects"


def test_the_machine_gives_the_same_verdict(machine, capsys, tmp_path):
    machine.toolkit(machine.home, info=info("8.5.0"))
    machine.npu_smi(A2_TABLE)
    script = project(tmp_path, "[tool.other]\nx = 1\n")
    code, out, _ = emulate_text(capsys, "--cwd", str(tmp_path), str(script))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == (f"target: CANN 8.5 (this machine: {machine.home}/x86_64-linux/ascend_toolkit_install.info "
                        "(version 8.5.0)) / Ascend 910B (this machine: npu-smi info (910B3))")
    assert "15 NpuOptimizer: COLLECTS training_trace, task_trace, aic_metrics into " in lines[1]
    assert lines[1].endswith("/prof_out (conditional)") and len(lines[1]) <= 100 and "per target:" not in out
    _, data, _ = emulate_json(capsys, "--cwd", str(tmp_path), str(script))
    assert data["target"]["origin"]["soc"] == {"source": "machine", "detail": "npu-smi info (910B3)", "notes": []}
    assert data["setups"][0]["verdict"] == "collects"


def test_flags_beat_the_configuration_which_beats_the_machine(machine, capsys, tmp_path):
    machine.toolkit(machine.home, info=info("9.1.0"))
    machine.npu_smi(INFERENCE_TABLE)
    script = project(tmp_path, '[tool.npuprof]\ncann = "8.0"\n')
    _, data, _ = emulate_json(capsys, "--cwd", str(tmp_path), str(script))
    assert (data["target"]["cann"], data["target"]["soc"]) == ("8.0", "310P")
    assert data["target"]["origin"]["cann"]["source"] == "config"
    assert data["target"]["origin"]["soc"]["source"] == "machine"
    _, data, _ = emulate_json(capsys, "--cann", "9.0", "--soc", "any", "--cwd", str(tmp_path), str(script))
    assert (data["target"]["cann"], data["target"]["soc"]) == ("9.0", "any")
    assert data["target"]["origin"]["cann"] == {"source": "flag", "detail": "--cann", "notes": []}


def test_flake8_section_and_explicit_config(machine, capsys, tmp_path):
    script = project(tmp_path, "[flake8]\nnpuprof-cann = 8.0\nnpuprof-soc = 910\n", name="setup.cfg")
    _, data, _ = emulate_json(capsys, "--cwd", str(tmp_path), str(script))
    assert (data["target"]["cann"], data["target"]["soc"]) == ("8.0", "910")
    assert data["target"]["origin"]["cann"]["detail"].endswith("setup.cfg [flake8]")
    other = tmp_path / "other.toml"
    other.write_text('[tool.npuprof]\nsoc = "310"\n')
    _, data, _ = emulate_json(capsys, "--config", str(other), "--cwd", str(tmp_path), str(script))
    assert (data["target"]["cann"], data["target"]["soc"]) == ("any", "310")


def test_auto_in_the_configuration_asks_the_machine(machine, capsys, tmp_path):
    machine.npu_smi(A3_TABLE)
    script = project(tmp_path, '[tool.npuprof]\ncann = "8.0"\nsoc = "auto"\n')
    _, data, _ = emulate_json(capsys, "--cwd", str(tmp_path), str(script))
    assert (data["target"]["cann"], data["target"]["soc"]) == ("8.0", "910C")


def test_nothing_anywhere_is_any_and_says_why(machine, capsys, tmp_path):
    script = project(tmp_path, "[tool.other]\nx = 1\n")
    code, out, _ = emulate_text(capsys, "--cwd", str(tmp_path), str(script))
    lines = out.splitlines()
    assert lines[0] == "target: every CANN version (none given or detected) / every product (none given or detected)"
    assert "target detection: no CANN toolkit installed; no npu-smi on PATH" in lines
    code, out, _ = emulate_text(capsys, "--cann", "auto", "--cwd", str(tmp_path), str(script))
    assert out.splitlines()[0].startswith("target: every CANN version (--cann auto found nothing) / ")


def test_bad_configuration_is_a_usage_error(machine, capsys, tmp_path):
    script = project(tmp_path, '[tool.npuprof]\ncann = "6.0"\n')
    code, out, err = emulate_text(capsys, str(script))
    # named where it came from, as `npuprof check` names it (engine/target.py settles both)
    assert code == 2 and out == "" and err.startswith(f"npuprof emulate: error: {tmp_path / 'proj' / 'pyproject.toml'}: "
                                                      "cann: unknown CANN target '6.0'")
    script = project(tmp_path / "b", "[tool.npuprof\n")
    code, out, err = emulate_text(capsys, str(script))
    assert code == 2 and out == "" and err.startswith("npuprof emulate: error: ") and len(err.splitlines()) == 1


# ---------------------------------------------------------------- auto in check and flake8 (opt-in)

def test_check_auto_uses_the_machine_and_any_is_still_the_default(machine, capsys):
    machine.toolkit(machine.home, info=info("8.5.0"))
    machine.npu_smi(A2_TABLE)
    assert target_from(argparse.Namespace(cann="auto", soc="auto")) == Target("8.5", "910B")
    assert target_from(argparse.Namespace(cann=None, soc=None)) == Target("any", "any")     # CI: not the machine
    assert capsys.readouterr().err == ""


def test_check_auto_without_anything_installed(machine, capsys):
    assert target_from(argparse.Namespace(cann="auto", soc=None)) == Target("any", "any")
    assert capsys.readouterr().err == ("npuprof: --cann auto: nothing usable on this machine (no CANN toolkit "
                                       "installed); using any\n")


def test_flake8_auto(machine, capsys):
    from flake8_npuprof.plugin import NpuProfChecker, _argtype
    from flake8_npuprof.knowledge.targets import parse_cann
    machine.npu_smi(INFERENCE_TABLE)
    machine.toolkit(machine.home, info=info("9.0.1"))
    assert _argtype(parse_cann)("auto") == "auto"
    options = argparse.Namespace(npuprof_cann="auto", npuprof_soc="auto", npuprof_preflight=False,
                                 npuprof_graph=None, select=None, extend_select=None)
    saved = NpuProfChecker.settings
    try:
        NpuProfChecker.parse_options(options)
        assert NpuProfChecker.settings.target == Target("9.0", "310P")
    finally:
        NpuProfChecker.settings = saved


# ---------------------------------------------------------------- one place settles the target, one table says the defaults

def test_each_front_ends_default_is_the_engines(tmp_path):
    from flake8_npuprof.engine.target import DEFAULTS, Origin, settle_target
    from flake8_npuprof.source.config import UsageError
    from flake8_npuprof.plugin import NpuProfChecker
    registered = {}

    class Options:
        def add_option(self, name, **kw):
            registered[name] = kw

        def extend_default_ignore(self, codes):
            pass
    NpuProfChecker.add_options(Options())
    assert registered["--npuprof-cann"]["default"] == registered["--npuprof-soc"]["default"] == DEFAULTS["flake8"]
    assert DEFAULTS == {"check": "any", "server": "any", "flake8": "any", "emulate": "auto"}
    # the flag beats the configuration, which beats the default; each says where it came from
    config = argparse.Namespace(cann="8.0", soc=None, path=str(tmp_path / "pyproject.toml"), key=lambda k: k)
    target, origins = settle_target({"cann": None, "soc": "910"}, config, "any")
    assert target == Target("8.0", "910")
    assert origins["soc"] == Origin("flag", "--soc") and origins["cann"].source == "config"
    bad = argparse.Namespace(**dict(vars(config), cann="6.0"))
    with pytest.raises(UsageError, match=r"pyproject.toml: cann: unknown CANN target '6.0'"):
        settle_target({}, bad, "any")
    with pytest.raises(UsageError, match=r"^--cann: unknown CANN target '6.0'"):
        settle_target({"cann": "6.0"}, None, "any")
