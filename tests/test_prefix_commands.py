"""Prefix commands read by their programs' option grammars (data/prefix_commands.json): what launches behind them,
with which environment and in which folder. Each case held to the program run here (bash 5.2, GNU coreutils 9.1
env/timeout/nice/stdbuf, util-linux setsid/taskset/ionice, GNU time) or, for sudo and numactl (not installed here),
to their manual and code."""

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.shell.launches import steps, walk
from flake8_npuprof.source.text import HOLE

T = Target.parse("8.0", "910B")
SCRIPT = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--profiling', default=False)\n" \
         "args = p.parse_args()\n"
TRAIN = ("import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
         "parser = argparse.ArgumentParser()\nparser.add_argument('--profiling', action='store_true')\n"
         "args = parser.parse_args()\nconfig = tf.ConfigProto()\n"
         "with tf.Session(config=config) as sess:\n    sess.run(x)\n")
HEAD = '#!/bin/bash\ncd "$(dirname "$0")"\nexport RANK_ID=0 DEVICE_ID=0 PROFILING_MODE=true\n'


def _steps(tmp_path, line):
    for name in ("train.py", "sub/train.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(SCRIPT)
    (tmp_path / "run.sh").write_text(HEAD + line + "\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    return [(la.script.replace(str(tmp_path), "D"), la.command.cwd[0].replace(str(tmp_path), "D")
             if la.command.cwd else "", sorted(la.command.env), la.missing.replace(str(tmp_path), "D"))
            for la in steps(w)]


ALL = ["DEVICE_ID", "PROFILING_MODE", "RANK_ID"]


@pytest.mark.parametrize("line, script, cwd, env", [
    # GNU env: -u NAME takes a value (it said X was the command: no launch), -i empties the environment, -C runs
    # the command in DIR (`env -C /tmp pwd` prints /tmp), -S splits its string into the command's words
    ("env -u X python3 train.py", "D/train.py", "D", ALL),
    ("env -u RANK_ID python3 train.py", "D/train.py", "D", ["DEVICE_ID", "PROFILING_MODE"]),
    ("env --unset=RANK_ID -uDEVICE_ID python3 train.py", "D/train.py", "D", ["PROFILING_MODE"]),
    ("env -i A=1 python3 train.py", "D/train.py", "D", ["A"]),
    ("env - A=1 python3 train.py", "D/train.py", "D", ["A"]),
    ("env -C sub python3 train.py", "D/sub/train.py", "D/sub", ALL),
    ("env --chdir=sub python3 train.py", "D/sub/train.py", "D/sub", ALL),
    ("env -- python3 train.py", "D/train.py", "D", ALL),
    ("env -S 'python3 train.py'", "D/train.py", "D", ALL),
    # coreutils 9.1 env.c: the string's words go where -S was and are read as env's options first
    ("env -S '-C sub A=1 python3 train.py' --profiling", "D/sub/train.py", "D/sub", ["A"] + ALL),
    # sudo's manual: the policy's environment (env_reset) unless -E; -u USER takes a value (it said root was run)
    ("sudo -u root python3 train.py", "D/train.py", "D", []),
    ("sudo -E python3 train.py", "D/train.py", "D", ALL),
    ("sudo env X=1 python3 train.py", "D/train.py", "D", ["X"]),
    ("sudo -D sub python3 train.py", "D/sub/train.py", "D/sub", []),
    # bash's `time -p` and GNU time's `-v -o FILE` (it said -p, f were the command)
    ("time -p python3 train.py", "D/train.py", "D", ALL),
    ("/usr/bin/time -v -o f python3 train.py", "D/train.py", "D", ALL),
    ("setsid python3 train.py", "D/train.py", "D", ALL),
    ("setsid -w python3 train.py", "D/train.py", "D", ALL),
    ("stdbuf -o L python3 train.py", "D/train.py", "D", ALL),
    ("taskset --cpu-list 0-3 python3 train.py", "D/train.py", "D", ALL),
    ("taskset -ac 0-3 python3 train.py", "D/train.py", "D", ALL),
    ("exec -a name python3 train.py", "D/train.py", "D", ALL),
    ("exec -c python3 train.py", "D/train.py", "D", []),
    ("command -p python3 train.py", "D/train.py", "D", ALL),
    # read as before
    ("nohup python3 train.py", "D/train.py", "D", ALL),
    ("timeout 10 python3 train.py", "D/train.py", "D", ALL),
    ("timeout -s KILL 10 python3 train.py", "D/train.py", "D", ALL),
    ("nice -n 5 python3 train.py", "D/train.py", "D", ALL),
    ("nice -5 python3 train.py", "D/train.py", "D", ALL),
    ("stdbuf -oL python3 train.py", "D/train.py", "D", ALL),
    ("taskset -c 0-3 python3 train.py", "D/train.py", "D", ALL),
    ("numactl --cpunodebind=0 --membind=0 python3 train.py", "D/train.py", "D", ALL),
    ("numactl -N 0 -m 0 python3 train.py", "D/train.py", "D", ALL),
])
def test_the_command_behind_a_prefix_its_environment_and_folder(tmp_path, line, script, cwd, env):
    assert _steps(tmp_path, line) == [(script, cwd, env, "")]


@pytest.mark.parametrize("line", [
    "command -v python3 train.py",          # bash 5.2: prints python3's path, runs nothing
    "command -V python3 train.py",
    "builtin python3 train.py",             # bash 5.2: "not a shell builtin", status 1
    "taskset -p 3 700 python3 train.py",    # acts on the running process 700
    "env --help python3 train.py",
])
def test_a_prefix_that_runs_nothing_starts_no_script(tmp_path, line):
    assert _steps(tmp_path, line) == []


@pytest.mark.parametrize("line, missing", [
    # an option env refuses (`env --ign true`: ambiguous, status 125) or sudo's manual does not list
    ("env --ign python3 train.py", "it runs `env --ign`, an option not in env's grammar here (data/prefix_commands"
                                   ".json; or one its getopt finds ambiguous): what it starts is not known here"),
    ("env -C $D python3 train.py", "cannot find train.py: the directory the launcher runs it in is not known here "
                                   "(`env -C <unknown>` at run.sh:4: a folder not known statically)"),
    ("sudo -i python3 train.py", "cannot find train.py: the directory the launcher runs it in is not known here "
                                 "(`sudo -i` at run.sh:4: the target user's login shell runs it in that user's home "
                                 "folder (sudo's manual), not known here)"),
    ("env -S 'python3 \"$X\"'", "it runs `env -S`, whose string env splits with its own quoting and expansions, which "
                                "are not read here"),
    ("env -C sub bash child.sh", "it runs the shell script child.sh in the environment or folder `env -C sub` at "
                                 "run.sh:4 gives it, which the walk does not follow: emulate child.sh itself"),
])
def test_what_a_prefix_makes_unknown_is_said(tmp_path, line, missing):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "child.sh").write_text("python3 train.py\n")
    ((_, _, _, got),) = _steps(tmp_path, line)
    assert got == missing


def _emulate(tmp_path, line):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "sub").mkdir(exist_ok=True)
    (tmp_path / "sub" / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text(HEAD + line + "\n")
    return emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})


def test_env_i_leaves_the_script_no_profiling_mode(tmp_path):
    # it said "PROFILING_MODE=true (export at run.sh:3)" and an unknown verdict over PROFILING_MODE=true
    report = _emulate(tmp_path, "env -i A=1 python3 train.py --profiling")
    assert report["launch"]["lines"][:2] == [
        "launch: run.sh:4 env -i A=1 python3 train.py --profiling",
        "  environment: `env -i A=1` at run.sh:4 starts it with an empty environment: it gets A alone (the "
        "launcher's exports and the caller's environment are gone)"]
    assert report["usable"] is False and report["results"] == []


def test_env_u_unsets_what_the_caller_exports(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "true")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text("#!/bin/bash\nenv -u PROFILING_MODE python3 train.py\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--env", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out
    assert "  environment: PROFILING_MODE unset for it (`env -u`), whatever the caller exports\n" in out
    assert "usable data: no" in out and "UNKNOWN" not in out


def test_sudo_leaves_the_environment_to_sudoers(tmp_path):
    # it said PROFILING_MODE=true reached the script
    report = _emulate(tmp_path, "sudo -u root python3 train.py --profiling")
    assert report["launch"]["lines"][1] == (
        "  environment: `sudo -u root` at run.sh:4 resets it (env_reset, sudo's default without -E): what of the "
        "launcher's exports and the caller's environment reaches the script is sudoers' env_keep, not known here "
        "(sudo's manual; sudo is not run here)")
    (r,) = report["results"]
    assert r.verdict == "unknown" and r.messages[0].text == (
        "PROFILING_MODE reaches the script only if sudoers keeps it: `sudo -u root` at run.sh:4 resets the "
        "environment (env_reset, sudo's default; env_keep lists what stays: sudo's manual, sudo not run here)")


def test_env_c_runs_the_script_of_that_folder(tmp_path):
    report = _emulate(tmp_path, "env -C sub python3 train.py --profiling")
    assert (report["launch"]["script"], report["cwd"]) == ("sub/train.py", str(tmp_path / "sub"))
    assert report["launch"]["lines"][1] == f"  runs in {tmp_path / 'sub'}: `env -C sub` at run.sh:4 runs it there"


# ---------------------------------------------------------------- what the walk cannot count or run past

@pytest.mark.parametrize("step", ['printf -v "$n" %d 7', "printf -v $n %d 7", 'let "$n+=1"', "let $n++",
                                  "(( $n += 1 ))", 'declare "$n=7"'])
@pytest.mark.parametrize("loop, end", [("i=0\nwhile [ $i -lt 4 ]; do\n", "  i=$((i+1))\ndone\n"),
                                       ("for ((i=0;i<4;i++)); do\n", "done\n")])
def test_a_counter_set_through_a_name_given_by_a_value_is_not_counted(tmp_path, step, loop, end):
    # bash 5.2 (n=i): printf -v and declare leave one round, let and (( )) two; the walk said 4 ranks
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text("n=i\n" + loop + "  python3 train.py &\n  " + step + "\n" + end + "wait\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    ((la),) = steps(w)
    assert la.ranks != 4 and (la.ranks == 0 or la.command.conditional)


def test_a_counter_started_through_a_name_given_by_a_value_is_not_counted(tmp_path):
    # bash 5.2: `printf -v "$n" %d 3` before the loop leaves i at 3: one round; the walk said 4
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text('i=0\nn=i\nprintf -v "$n" %d 3\nwhile [ $i -lt 4 ]; do\n  python3 train.py &\n'
                                     "  i=$((i+1))\ndone\nwait\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    ((la),) = steps(w)
    assert la.ranks != 4 and (la.ranks == 0 or la.command.conditional)


@pytest.mark.parametrize("mkdir, stops", [("mkdir -p d1", True), ("mkdir -p d1/sub", True), ("mkdir d1", True),
                                          ("mkdir -p d1 || true", False), ("mkdir -p d2", False),
                                          # in a function's body or a sourced file, the call's place decides: bash 5.2
                                          # ran python3 after each of these (it said the launcher ends there)
                                          ("f() { mkdir -p d1; }\nf || true", False),
                                          ("source lib.sh || true", False),
                                          ("g() { source lib.sh; }\ng && true", False)])
def test_a_mkdir_where_a_file_is_stops_the_script_under_set_e(tmp_path, mkdir, stops):
    # bash 5.2: `mkdir -p d1` with a file d1 there fails ("File exists"); set -e stops the script: nothing after runs
    (tmp_path / "d1").write_text("")
    (tmp_path / "lib.sh").write_text("mkdir -p d1\n")
    report = _emulate(tmp_path, "set -e\n" + mkdir + "\npython3 train.py --profiling")
    lines = report["launch"]["lines"]
    ends = [ln for ln in lines if ln.startswith("no launch: none found before the launcher ends")]
    assert (ends == ["no launch: none found before the launcher ends at run.sh:5"] if stops else not ends), lines


@pytest.mark.parametrize("line, followed", [("env -C sub bash child.sh", False), ("env -i bash child.sh", False),
                                            ("sudo bash child.sh", False), ("sudo -E bash child.sh", True),
                                            ("env A=1 bash child.sh", True), ("setsid bash child.sh", True)])
def test_a_child_script_behind_a_prefix_that_changes_its_environment_or_folder_is_not_walked(tmp_path, line,
                                                                                            followed):
    # `env -C sub bash child.sh` runs sub/child.sh (coreutils 9.1: -C before the command); it walked ./child.sh
    for folder in (tmp_path, tmp_path / "sub"):
        folder.mkdir(exist_ok=True)
        (folder / "child.sh").write_text("python3 train.py\n")
    got = _steps(tmp_path, line)
    if followed:
        assert got == [("D/train.py", "D", ["A"] + ALL if "A=1" in line else ALL, "")]
    else:
        assert got == [("", got[0][1], got[0][2], f"it runs the shell script child.sh in the environment or folder "
                        f"`{line.rsplit(' bash', 1)[0]}` at run.sh:4 gives it, which the walk does not follow: "
                        "emulate child.sh itself")]


@pytest.mark.parametrize("line, mode, work_known", [("sudo python3 train.py", "hole", False),
                                                     ("env -i python3 train.py", None, True),
                                                     ("python3 train.py", "true", True)])
def test_what_ge_reads_of_the_environment_behind_a_prefix(tmp_path, line, mode, work_known):
    # the caller's environment (here ASCEND_WORK_PATH=/w, PROFILING_MODE=1): gone after `env -i`, sudoers' after sudo
    from flake8_npuprof.emulate.launcher import launch_env
    from flake8_npuprof.emulate.runtime import Env
    from flake8_npuprof.source.text import HOLE
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text(HEAD + line + "\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    (la,) = steps(w)
    env, _ = launch_env(la, Env(mode="1", work_path="/w"), str(tmp_path))
    assert (env.mode.replace(HOLE, "hole") if env.mode else env.mode, env.work_path_known) == (mode, work_known)
    assert env.work_path == ("/w" if line == "python3 train.py" else None)


@pytest.mark.parametrize("exported, unknown", [("", []), ("export PROFILING_OPTIONS='{}'\n", ["PROFILING_OPTIONS"])])
def test_sudo_makes_unknown_only_what_was_set(tmp_path, exported, unknown):
    # sudo's env_reset removes what sudoers does not keep and adds nothing (sudo's manual): a name neither the
    # launcher nor the caller set stays unset. It said "PROFILING_MODE reaches the script only if sudoers keeps it"
    # for every name, so `sudo python3 train.py` of a torch_npu script was "usable data: unknown", not yes
    from flake8_npuprof.emulate.launcher import launch_env
    from flake8_npuprof.emulate.runtime import Env
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + exported + "sudo python3 train.py\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    (la,) = steps(w)
    env, why = launch_env(la, Env(), str(tmp_path))
    assert [m.split(" ")[0] for m in why] == unknown
    assert (env.mode, env.work_path_known) == (None, True)


def test_sudo_of_a_torch_npu_script_that_sets_nothing(tmp_path, capsys):
    (tmp_path / "train.py").write_text(
        "import torch_npu\nwith torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
        "'./p')) as prof:\n    prof.step()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nsudo python3 train.py\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    out = capsys.readouterr().out
    assert "usable data: yes\n" in out and "sudoers keeps it" not in out


@pytest.mark.parametrize("line, env", [("unset RANK_ID", ["DEVICE_ID", "PROFILING_MODE"]), ("unset RANK_ID &", ALL),
                                       ("unset RANK_ID | cat", ALL), ("true | unset RANK_ID", ALL),
                                       ("export A=1", ["A"] + ALL), ("export A=1 &", ALL), ("export A=1 | cat", ALL),
                                       ("true | export A=1", ALL), ("declare -x A=1 &", ALL),
                                       ("export -n RANK_ID &", ALL),
                                       # an assignment alone, too (the walk set A in the script's shell)
                                       ("A=1 &\nwait\nexport A", ALL), ("A=1 | cat\nexport A", ALL),
                                       ("true | A=1\nexport A", ALL), ("A=1 && export A", ["A"] + ALL),
                                       # `declare +x`: still set, no longer exported (it kept RANK_ID)
                                       ("declare +x RANK_ID", ["DEVICE_ID", "PROFILING_MODE"]),
                                       ("typeset +x RANK_ID=1", ["DEVICE_ID", "PROFILING_MODE"]),
                                       ("export -n RANK_ID=1", ["DEVICE_ID", "PROFILING_MODE"]),
                                       ("declare +x RANK_ID\nRANK_ID=1", ["DEVICE_ID", "PROFILING_MODE"]),
                                       ("declare +x RANK_ID\nexport RANK_ID", ALL),
                                       # under lastpipe the last command runs in this shell (bash 5.2: A=1 exported,
                                       # RANK_ID gone): the walk no longer says A is not exported (its value: unknown)
                                       ("shopt -s lastpipe\ntrue | export A=1", ["A"] + ALL)])
def test_unset_and_export_in_the_background_or_a_pipeline_change_a_subshell_only(tmp_path, line, env):
    # bash 5.2 runs a command put in the background and each command of a pipeline (no lastpipe) in a subshell: the
    # script's own environment keeps RANK_ID and gets no A (a python3 printing os.environ after `wait`). The walk
    # unset and exported in the script's own shell: a launcher's PROFILING_OPTIONS was said to reach no launch
    assert _steps(tmp_path, line + "\nwait\npython3 train.py") == [("D/train.py", "D", env, "")]


@pytest.mark.parametrize("shape, end", [
    # bash 5.2 (each run under set -e with a file d1 there, python3 train.py after it): where it stopped
    ("true && mkdir -p d1", "run.sh:5"), (": && mkdir -p d1", "run.sh:5"), ("false || mkdir -p d1", "run.sh:5"),
    ("true && true && mkdir -p d1", "run.sh:5"),
    ("x=$(mkdir -p d1)", "run.sh:5"), ("x=1 y=$(mkdir -p d1)", "run.sh:5"), ("x=`mkdir -p d1`", "run.sh:5"),
    ('x="$(mkdir -p d1)"', "run.sh:5"),
    ("if true; then mkdir -p d1; fi", "run.sh:5: `if true` (run.sh:5) holds in this launch"),
    ("if false; then :; else mkdir -p d1; fi", "run.sh:5: `else` (run.sh:5) runs in this launch"),
    ("f() { mkdir -p d1; }\nf", "run.sh:5"), ("f() {\n  mkdir -p d1\n}\nf", "run.sh:6"),
    ("function f { mkdir -p d1; }\nf", "run.sh:5"), ("f() { mkdir -p d1; }\nf; true", "run.sh:5"),
    ("f() { mkdir -p d1; }\ntrue && f", "run.sh:5"), ("f() { mkdir -p d1; }\nif true; then f; fi", "run.sh:5"),
    ("f() { mkdir -p d1; }\ng() { f; }\ng", "run.sh:5"),
    ("source lib.sh", "lib.sh:1"), (". ./lib.sh", "lib.sh:1"), ("g() { source lib.sh; }\ng", "lib.sh:1"),
    ("{ mkdir -p d1; }", "run.sh:5"), ("( mkdir -p d1 )", "run.sh:5"), ("case a in a) mkdir -p d1;; esac", "run.sh:5"),
    # ... and where it ran python3
    ("true && mkdir -p d1 && true", None), ("mkdir -p d1 && true", None), ("true || mkdir -p d1", None),
    ("false && mkdir -p d1", None), ('[ -n "$X" ] && mkdir -p d1', None),
    ("x=$(mkdir -p d1; true)", None), ("x=$(mkdir -p d1 || true)", None), ("x=$(mkdir -p d1)$(true)", None),
    ("x=$(mkdir -p d1) && true", None), ("export x=$(mkdir -p d1)", None),
    ("if mkdir -p d1; then :; fi", None), ("! mkdir -p d1", None), ("mkdir -p d1 || :", None),
    ("mkdir -p d1 | cat", None), ("mkdir -p d1 &", None), ('if [ -n "$X" ]; then mkdir -p d1; fi', None),
    ("f() { mkdir -p d1; }\nf || true", None), ("f() { mkdir -p d1; }\nf && true", None),
    ("f() { mkdir -p d1; }\n! f", None), ("f() { mkdir -p d1; }\nif f; then :; fi", None),
    ("f() { mkdir -p d1; }\nwhile f; do break; done", None), ("f() { mkdir -p d1; }\nf | cat", None),
    ("f() { mkdir -p d1; }\nf &", None), ("f() { mkdir -p d1 || true; }\nf", None),
    ("f() { mkdir -p d1; }\ng() { f; }\ng || true", None), ("f() { return 0; mkdir -p d1; }\nf", None),
    ("source lib.sh || true", None), ("g() { source lib.sh; }\ng && true", None),
    # a compound whose status is tested (it said the launcher ends at run.sh:5 for the first three)
    ("{ mkdir -p d1; } || true", None), ("case a in a) mkdir -p d1;; esac || true", None),
    ("case a in a) mkdir -p d1;; esac | cat", None), ("if true; then mkdir -p d1; fi || true", None),
    ("if true; then { mkdir -p d1; }; fi || true", None), ("( mkdir -p d1; true ) || true", None),
    ("f() { mkdir -p d1; }\n{ f; } || true", None), ("if true; then source lib.sh; fi | cat", None),
    # an alias, expanded under expand_aliases or POSIX mode, may make the mkdir another command (bash 5.2 ran on)
    ("shopt -s expand_aliases\nalias mkdir=true\nmkdir -p d1", None),
    ("set -o posix\nalias mkdir=true\nmkdir -p d1", None),
    ("shopt -s expand_aliases\nalias mkdir='mkdir -p d2 ||'\nmkdir -p d1", None),
    # a function defined on the line of `then` or in a group is not run there (it said the launcher ends at run.sh:5)
    ("if true; then g() { mkdir -p d1; }; fi", None), ("if true; then g() { source lib.sh; }; fi", None),
    ("if true; then g() { x=$(mkdir -p d1); }; fi", None), ("{ g() { mkdir -p d1; }; }", None),
    ("if true; then g() { mkdir -p d1; }; g || true; fi", None), ("if true; then g() ( mkdir -p d1 ); fi", None),
    # a negated compound: its status is tested (it said the launcher ends at run.sh:5 or lib.sh:1)
    ("! if true; then mkdir -p d1; fi", None), ("! if true; then source lib.sh; fi", None),
    ("! if true; then x=$(mkdir -p d1); else :; fi", None), ("! { mkdir -p d1; }", None),
    ("! case a in a) mkdir -p d1;; esac", None), ("! for i in 1; do source lib.sh; done", None),
    # ... on the line of a `then` or `do` (the walk read `! if` there as a command: it said the launcher ends there)
    ("if true; then ! if true; then mkdir -p d1; fi; fi", None),
    ("for i in 1; do ! for i in 1; do mkdir -p d1; done; done", None),
    ("for i in 1 2; do ! if true; then mkdir -p d1; fi; done", None),
    # a process substitution runs apart (it said the launcher ends at run.sh:5 or lib.sh:1)
    ("cat <(mkdir -p d1)", None), ("f() { mkdir -p d1; }\ncat <(f)", None), ("cat <(source lib.sh)", None),
    ("cat <(x=$(mkdir -p d1))", None), ("echo x | tee >(mkdir -p d1)", None), ("cat <(eval 'mkdir -p d1')", None),
    # set -e turned off where the walk does not follow it (it said the launcher ends at the mkdir)
    ("[ -n x ] && set +e; mkdir -p d1", None), ('if [ -n "$X" ]; then :; else set +e; fi\nmkdir -p d1', None),
    ("time set +e\nmkdir -p d1", None), ("command set +e\nmkdir -p d1", None), ("builtin set +e\nmkdir -p d1", None),
    ("shopt -uo errexit\nmkdir -p d1", None), ("for o in +e; do set $o; done\nmkdir -p d1", None),
    ("while true; do set +e; break; done\nmkdir -p d1", None), ("f() { set +e; }\nif f; then :; fi\nmkdir -p d1", None),
    ('trap "set +e" DEBUG\nmkdir -p d1', None), ('source /dev/stdin <<< "set +e"\nmkdir -p d1', None),
    ('source "${E:-off.sh}"\nmkdir -p d1', None),     # (E from the caller: a file not read, which may turn it off)
    # bash 5.2 stopped at these too (the walk ran on to the launch): a substitution of a function whose body is the
    # mkdir (set -e is off in it, so its status is the mkdir's), a `for` loop's first round, a group or compound with
    # a redirection that cannot fail, `command` and `time` in front
    ("f() { mkdir -p d1; }\nx=$(f)", "run.sh:6"), ("f() {\n  mkdir -p d1\n}\nx=`f`", "run.sh:8"),
    ("for i in 1 2; do mkdir -p d1; done", "run.sh:5"), ("for i in 1 2; do echo; mkdir -p d1; done", "run.sh:5"),
    ("for i in 1 2; do mkdir -p d$i; done", "run.sh:5"), ("for ((i=0;i<2;i++)); do mkdir -p d1; done", "run.sh:5"),
    ("true && for i in 1 2; do mkdir -p d1; done", "run.sh:5"),
    ("for i in 1 2; do for j in a; do mkdir -p d1; done; done", "run.sh:5"),
    ("for i in 1 2; do ( mkdir -p d1 ); done", "run.sh:5"),
    ("f() { mkdir -p d1; }\nfor i in 1 2; do f; done", "run.sh:5"),
    ("for i in 1 2; do source lib.sh; done", "lib.sh:1"),
    ("{ mkdir -p d1; } 2>/dev/null", "run.sh:5"), ("{ mkdir -p d1; } >/dev/null 2>&1", "run.sh:5"),
    ("{ mkdir -p d1; } &>/dev/null", "run.sh:5"), ("for i in 1; do mkdir -p d1; done >/dev/null", "run.sh:5"),
    ("if true; then mkdir -p d1; fi 2>/dev/null", "run.sh:5: `if true` (run.sh:5) holds in this launch"),
    ("command mkdir -p d1", "run.sh:5"), ("command -p mkdir -p d1", "run.sh:5"), ("command -- mkdir -p d1", "run.sh:5"),
    ("time mkdir -p d1", "run.sh:5"), ("time -p mkdir -p d1", "run.sh:5"), ("time command mkdir -p d1", "run.sh:5"),
    # ... and ran on after these
    ("f() { mkdir -p d1; echo y; }\nx=$(f)", None), ("f() { mkdir -p d1; }\nx=$(f) && true", None),
    ("f() { mkdir -p d1; }\nx=$(f)$(true)", None), ("f() { mkdir -p d1; }\nexport x=$(f)", None),
    ("f() { mkdir -p d1 || true; }\nx=$(f)", None),
    ("for i in; do mkdir -p d1; done", None), ("for i in $NOPE; do mkdir -p d1; done", None),
    ("for i in 1 2; do mkdir -p d1; done || true", None), ("for i in 1 2; do mkdir -p d1; done | cat", None),
    ("for i in 1 2; do mkdir -p d1; done &", None), ("! for i in 1 2; do mkdir -p d1; done", None),
    ("false && for i in 1 2; do mkdir -p d1; done", None), ("for ((i=0;i<0;i++)); do mkdir -p d1; done", None),
    ('for i in 1 2; do if [ -n "$X" ]; then mkdir -p d1; fi; done', None),
    ("for i in 1 2; do mkdir -p d1 || true; done", None),
    ("{ mkdir -p d1; } 2>/dev/null || true", None), ("{ mkdir -p d1; } 2>/dev/null | cat", None),
    ("{ mkdir -p d1; } 2>/dev/null &", None), ("! { mkdir -p d1; } 2>/dev/null", None),
    ("if true; then mkdir -p d1; fi 2>/dev/null || :", None),
    ("command -v mkdir -p d1", None), ("time mkdir -p d1 | cat", None), ("command mkdir -p d1 || true", None),
    ("! command mkdir -p d1", None), ("command mkdir -p d1 &", None),
    # a file naming shopt, DEBUG or RETURN said no stop at all: bash 5.2 stopped after these (no shopt option, set or
    # unset, keeps set -e from stopping; a variable or word named DEBUG sets no trap)
    ("shopt -s nullglob\nmkdir -p d1", "run.sh:6"), ("shopt -s expand_aliases extglob; mkdir -p d1", "run.sh:5"),
    ("shopt -q nullglob || true\nmkdir -p d1", "run.sh:6"), ("export LOG=DEBUG\nmkdir -p d1", "run.sh:6"),
    ('if [ "$LEVEL" = DEBUG ]; then echo d; fi\nmkdir -p d1', "run.sh:6"), ("RETURN=1\nmkdir -p d1", "run.sh:6"),
    # ... and ran on after these: shopt's -o, however written, and a trap set where the walk does not read it
    ("shopt -u -o errexit\nmkdir -p d1", None), ("shopt -o -u errexit\nmkdir -p d1", None),
    ("o=errexit; shopt -uo $o\nmkdir -p d1", None), ('shopt -u "-o" errexit\nmkdir -p d1', None),
    ("shopt -u \\\n  -o errexit\nmkdir -p d1", None), ("t=trap; $t 'set +e' DEBUG\nmkdir -p d1", None),
    ("eval \"trap 'set +e' DEBUG\"\nmkdir -p d1", None), ("s=DEBUG; trap 'set +e' $s\nmkdir -p d1", None),
    # a function whose body is a subshell of the mkdir alone: bash 5.2 stopped at its call (the walk ran on) ...
    ("g() ( mkdir -p d1 )\ng", "run.sh:6"), ("g() ( mkdir -p d1 )\nfor i in 1 2; do g; done", "run.sh:6"),
    ("g() ( mkdir -p d1 ) # c\nif true; then g; fi", "run.sh:6: `if true` (run.sh:6) holds in this launch"),
    ("g() ( mkdir -p d1 )\nh() { g; }\nh", "run.sh:6"),
    # ... and ran on where it is tested, or another g may be defined (in a branch, by an eval)
    ("g() ( mkdir -p d1 )\ng || true", None), ("g() ( mkdir -p d1 )\ng | cat", None),
    ("g() ( mkdir -p d1 )\n! g", None),
    ("g() ( mkdir -p d1 )\ng() { :; }\ng", None), ("g() ( mkdir -p d2 )\ng", None),
    ("Z=1\ng() ( mkdir -p d1 )\nif [ -n \"$Z\" ]; then g() ( true ); fi\ng", None),
    ("Z=1\ng() ( mkdir -p d1 )\n[ -n \"$Z\" ] && function g { true; }\ng", None),
    ("g() ( mkdir -p d1 )\neval \"g() { true; }\"\ng", None),
    # an eval the walk does not read may define the function again (it said the launcher ends at run.sh:5)
    ("fm() { mkdir -p d1; }\neval \"fm() { true; }\"\nfm", None),
    # bash's `time` before a compound, and `! ( ... )`: the walk read `time for`, `time (`, `! (` as commands and the
    # bodies as plain code (it said the launcher ends at run.sh:5 for each of these, where bash 5.2 ran on)
    ("time for i in 1; do mkdir -p d1; done &\nwait", None), ("time if true; then mkdir -p d1; fi &\nwait", None),
    ("time for i in 1; do mkdir -p d1; done || true", None), ("time ( mkdir -p d1 ) || true", None),
    ("time while true; do mkdir -p d1; break; done || true", None),
    ("time case a in a) mkdir -p d1;; esac || true", None), ("time -p for i in 1; do mkdir -p d1; done | cat", None),
    ("! time for i in 1; do mkdir -p d1; done", None), ("! time -p ( mkdir -p d1 )", None),
    ("! ( mkdir -p d1 )", None), ("! ( exit 1 )", None), ("if true; then ! ( mkdir -p d1 ); fi", None),
    ("g() ( mkdir -p d1 )\ntime h() { g; }; h || true", None),     # (found by the generated shapes)
    # ... and where it stopped
    ("time for i in 1; do mkdir -p d1; done", "run.sh:5"), ("time ( mkdir -p d1 )", "run.sh:5"),
    ("time if true; then mkdir -p d1; fi", "run.sh:5: `if true` (run.sh:5) holds in this launch"),
    ("! ( true ); ( exit 2 )", "run.sh:5"),
])
def test_where_set_e_stops_at_a_failing_mkdir(tmp_path, shape, end):
    # `mkdir -p d1` over a file d1 fails ("File exists"); set -e stops the shell where bash 5.2 stops it: a list's last
    # command, an assignment whose last substitution fails, a branch that certainly runs, a function or a sourced file
    # called where set -e acts; never where bash ran on (before && or ||, negated, tested, piped, in the background)
    (tmp_path / "d1").write_text("")
    (tmp_path / "lib.sh").write_text("mkdir -p d1\n")
    (tmp_path / "off.sh").write_text("set +e\n")
    lines = _emulate(tmp_path, "set -e\n" + shape + "\npython3 train.py --profiling")["launch"]["lines"]
    if end:
        assert [ln for ln in lines if ln.startswith("no launch:")] == [
            f"no launch: none found before the launcher ends at {end}"], lines
    else:
        assert lines[0] == f"launch: run.sh:{5 + shape.count(chr(10)) + 1} python3 train.py --profiling", lines


@pytest.mark.parametrize("line, env", [
    ("f() { local A=1; }\nf\nexport A", ALL), ("f() { declare A=1; }\nf\nexport A", ALL),
    ("f() { local RANK_ID=1; export -n RANK_ID; }\nf", ALL),
    ("f() { local RANK_ID; unset RANK_ID; }\nf", ALL),
    ("f() { local A=1; g; }\ng() { local A=2; }\nf\nexport A", ALL),
    ("f() { declare -g A=1; }\nf\nexport A", ["A"] + ALL),
    ("f() { A=1; }\nf\nexport A", ["A"] + ALL),
])
def test_a_local_variable_is_gone_when_its_function_returns(tmp_path, line, env):
    # bash 5.2 (a python3 printing os.environ after the call): the function's local A or RANK_ID is undone when it
    # returns, the value from before the call seen again; the walk kept the local one (it exported A=1)
    assert _steps(tmp_path, line + "\npython3 train.py") == [("D/train.py", "D", env, "")]


@pytest.mark.parametrize("line, words", [
    # bash 5.2 (a python3 printing sys.argv[1:]): the walk kept `a,b` one word, or split `$@` at blanks alone
    ('IFS=,; A="a,b"; python3 train.py $A', ["a", "b"]),
    ('IFS=,; A=",a,,b,"; python3 train.py $A', ["", "a", "", "b"]),
    ('IFS=", "; A=", ,a b"; python3 train.py $A x$A"y,z"', ["", "", "a", "b", "x", "", "a", "by,z"]),
    ('IFS=,; set -- "p,q" r; python3 train.py $@ "$@"', ["p", "q", "r", "p,q", "r"]),
    ('IFS=; A="a b"; python3 train.py $A', ["a b"]),
    ('IFS=,; unset IFS; A="a b,c"; python3 train.py $A', ["a", "b,c"]),
    # IFS not known (bash 5.2 with X unset gave `a b`): not known how it splits
    ('IFS=$X; A="a b"; python3 train.py $A', [HOLE]), ('IFS=$X; set -- a; python3 train.py $@', [HOLE]),
    # nullglob: a glob that matches nothing is no word (bash 5.2 gave `y`; it said `x*`); what matches is not known
    ("shopt -s nullglob\npython3 train.py x* y", [HOLE, "y"]),
    ('[ -n "$X" ] && shopt -s nullglob\npython3 train.py x* y', [HOLE, "y"]),
    ("python3 train.py x* y", ["x*", "y"]), ("shopt -s extglob\npython3 train.py x* y", ["x*", "y"]),
])
def test_words_split_at_ifs_and_globs_under_nullglob(tmp_path, line, words):
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text(HEAD + line + "\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    (la,) = steps(w)
    assert [x.text for x in la.command.words[2:]] == words


def test_a_glob_after_failglob_stops_the_walk(tmp_path):
    # bash 5.2: `shopt -s failglob; echo x*zz` says "no match: x*zz" and the shell ends: nothing after it runs
    (tmp_path / "run.sh").write_text("#!/bin/bash\nshopt -s failglob\npython3 train.py x*zz\npython3 train.py b\n")
    w, _ = walk(str(tmp_path / "run.sh"))
    assert steps(w) == [] and list(w.stopped.values()) == [
        (30, 3, "at a glob after `shopt -s failglob`: one that matches nothing ends the shell, and what matches "
                "where it runs is not known here")]
