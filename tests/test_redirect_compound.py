"""A compound command's redirections (`{ ...; } > log`, `( ... ) > log`, `for/while/until ... done > log`, `if ... fi >
log`, `case ... esac > log`) and a child script's run's, when bash cannot open them (shell/redirects.py).

bash opens a compound's redirections before it runs any command in it (a `for` loop's words and an `if`'s condition
too): where one names a folder that is not there, nothing inside runs; under set -e the shell stops there (not
after && or ||, nor in the background or a pipeline), without it the next command runs. The shapes below were run
with bash 5.2 (/bin/bash), each under `timeout 20 bash l.sh` in a fresh folder with `ulimit -u 200`, `echo` standing
for the launch; what each printed is in the comment by it. A child script's run: the caller's set -e decides (the
child never starts, so its own set -e does nothing)."""

import json

import pytest

from flake8_npuprof.emulate.render import render_json
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")
PY = "python3 ../train.py"
NOT_THERE = ("`> ./nodir/a.log` (run.sh:{line}) names the folder ./nodir (the command runs in {top}/scripts), which is "
             "not there (not in the tree, and nothing the launcher runs before makes it): bash reports \"No such file "
             "or directory\" and does not start python3")


def _project(tmp_path, launcher, child=None):
    (tmp_path / "scripts").mkdir(parents=True)
    (tmp_path / "train.py").write_text("import os\n")
    (tmp_path / "scripts" / "run.sh").write_text(launcher)
    if child is not None:
        (tmp_path / "scripts" / "child.sh").write_text(child)
    return tmp_path / "scripts" / "run.sh"


def _launches(path):
    report = emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])
    return json.loads(render_json(report))["launches"]


# each: the launcher, the line of the redirection; bash 5.2 printed "nodir/a.log: No such file or directory" then
# "ran next" only (no line of the compound's)
SHAPES = {
    "group": (f"{{ {PY}; echo done; }} > ./nodir/a.log 2>&1\n", 1),
    "group_lines": (f"{{\n  {PY}\n}} > ./nodir/a.log\n", 3),
    "subshell": (f"( cd . && {PY} ) > ./nodir/a.log\n", 1),
    "subshell_lines": (f"(\n  {PY}\n) > ./nodir/a.log 2>&1\n", 3),
    "for": (f"for i in 0 1; do\n  {PY} --rank $i\ndone > ./nodir/a.log\n", 3),
    "while": (f"n=0\nwhile [ $n -lt 2 ]; do\n  {PY}\n  n=$((n+1))\ndone > ./nodir/a.log\n", 5),
    "until": (f"until false; do\n  {PY}\n  break\ndone > ./nodir/a.log\n", 4),
    "if": (f"if true; then\n  {PY}\nfi > ./nodir/a.log\n", 3),
    "case": (f"case x in\n  x) {PY};;\nesac > ./nodir/a.log\n", 3),
    # bash 5.2: the folder a command inside makes is made after the redirection was opened (no line of the group's)
    "mkdir_inside": (f"{{ mkdir -p ./nodir; {PY}; }} > ./nodir/a.log\n", 1),
}


def test_nothing_in_a_compound_whose_redirection_cannot_be_opened_runs(tmp_path):
    for name, (shape, line) in SHAPES.items():
        top = tmp_path / name
        found = _launches(_project(top, shape + f"{PY} --next\n"))
        why = NOT_THERE.format(line=line, top=top)
        assert [(x["verdict"], x["why"]) for x in found[:1]] == [("not run", why)], name
        assert found[0]["redirection"] == {"starts": False, "why": why}, name
        # without set -e the next command runs
        assert found[-1]["verdict"] == "no profiling", name


def test_set_e_stops_at_the_compound(tmp_path):
    # bash 5.2: `set -e; { echo ran a; } > nod/log; echo ran next` printed the error alone, status 1 (so did for, if,
    # case, until, ( ... ))
    # (the walk ends there: the launch after it is not met)
    for name in ("group", "for", "if", "subshell"):
        shape, line = SHAPES[name]
        found = _launches(_project(tmp_path / name, "set -e\n" + shape + f"{PY} --next\n"))
        assert [(x["verdict"], x["command"][:2]) for x in found] == [("not run", ["python3", "../train.py"])], name


def test_set_e_does_not_stop_after_and_or_or_nor_in_the_background(tmp_path):
    # bash 5.2 under set -e: `{ ...; } > nod/log && echo and` then `echo ran next` ran next; `|| echo or` ran both;
    # `{ ...; } > nod/log &` and `{ ...; } 2> nod/log | cat` ran next
    for n, close in enumerate(("} > ./nodir/a.log && echo and", "} > ./nodir/a.log || echo or",
                               "} > ./nodir/a.log &")):
        found = _launches(_project(tmp_path / str(n), f"set -e\n{{ {PY}; {close}\n{PY} --next\n"))
        assert found[0]["verdict"] == "not run", close
        assert found[-1]["verdict"] == "no profiling", close


def test_a_folder_made_before_or_in_the_tree_or_not_known(tmp_path):
    for n, before in enumerate(("mkdir -p ./nodir\n", "python3 prep.py\n", "")):
        target = "./nodir/a.log" if n < 2 else "${LOGS}/a.log"
        found = _launches(_project(tmp_path / str(n), f"{before}{{ {PY}; }} > {target}\n"))
        red = found[-1]["redirection"]
        if n == 1:
            assert red["starts"] is None and "`python3 prep.py` (run.sh:1) runs before and may make it" in red["why"]
        else:
            assert red is None, before
            assert found[0]["verdict"] == "no profiling"


def test_a_compound_in_a_loop_or_a_pipeline_is_unknown(tmp_path):
    for name, text in (("loop", f"for i in 0 1; do\n  {{ {PY}; }} > ./nodir/a.log\ndone\n"),
                       ("pipe", f"{{ {PY}; }} 2> ./nodir/a.log | tee x.log\n")):
        red = _launches(_project(tmp_path / name, text))[0]["redirection"]
        assert red["starts"] is None, name


def test_a_list_read_by_while_that_is_not_there_is_unknown(tmp_path):
    # bash 5.2: `while read l; do echo ran $l; done < list` without list: "list: No such file or directory", ran next
    found = _launches(_project(tmp_path, f"while read l; do\n  {PY} $l\ndone < ./list.txt\n"))
    red = found[0]["redirection"]
    assert red["starts"] is None and red["why"].startswith("`< ./list.txt` (run.sh:3) names the file ./list.txt")


def test_a_tilde_target_is_not_judged(tmp_path):
    found = _launches(_project(tmp_path, f"{{ {PY}; }} > ~/nodir_s66/a.log\n"))
    assert found[0]["redirection"] is None


def test_a_child_run_under_the_callers_set_e(tmp_path):
    # bash 5.2: `set -e; bash child.sh > nod/log; echo ran next` printed the error alone (status 1), whether the child
    # has set -e or not; without the caller's set -e, `ran next` ran (the child's own set -e does nothing: it never
    # starts)
    child = f"{PY} --one\n{PY} --two\necho end\n"
    for caller_e in (True, False):
        for child_e in (True, False):
            name = f"{caller_e}{child_e}"
            found = _launches(_project(tmp_path / name, ("set -e\n" if caller_e else "") +
                                       f"bash ./child.sh > ./nodir/a.log\n{PY} --next\n",
                                       ("set -e\n" if child_e else "") + child))
            verdicts = [x["verdict"] for x in found]
            assert verdicts[:2] == ["not run", "not run"], name
            assert verdicts[2] == ("not run" if caller_e else "no profiling"), name
            if caller_e:
                assert found[2]["why"].endswith("fails first and stops the launcher (set -e)"), name


# a folder of the tree an `rm -r` removes before (scripts/logs is in the tree). bash 5.2, in the same way (the launch
# an `echo ran`): rm_sure printed "./logs/a.log: No such file or directory" and not `ran`; every other shape ran it
# where ./logs was not removed (rm_then_mkdir, rm_in_if_then_mkdir, rm_inside, rm_no_r: "rm: cannot remove
# './logs': Is a directory"); rm_unknown with X=./logs failed, with X=./other ran; rm_glob removed it (the glob names
# it: what a glob names is not followed); rm_background ran the launch in one run and failed in the next (a race);
# rm_interactive ran (rm read no answer: nothing removed); rm_unknown_absolute with X=$PWD failed;
# rm_subshell_background and rm_in_function failed (an rm in a compound, a function, a sourced or child script, is
# not taken as sure: it may run in the background, or not at all)
RM = {
    "rm_sure": ("rm -rf ./logs\n", False),
    "rm_sure_compound": ("rm -r ./logs\n{\n", False),
    "rm_then_mkdir": ("rm -rf ./logs\nmkdir -p ./logs\n", "ran"),
    "rm_in_if_then_mkdir": ("if [ -d ./logs ]; then\n  rm -rf ./logs\nfi\nmkdir -p ./logs\n", "ran"),
    "rm_inside": ("rm -rf ./logs/*\n", "ran"),
    "rm_no_r": ("rm ./logs\n", "ran"),
    "rm_unknown": ("rm -rf $X\n", None),
    "rm_glob": ("rm -rf ./lo*\n", None),
    "rm_background": ("rm -rf ./logs &\n", None),
    "rm_subshell_background": ("( rm -rf ./logs ) &\nwait\n", None),
    "rm_in_function": ("f() {\n  rm -rf ./logs\n}\nf\n", None),
    "rm_interactive": ("rm -ri ./logs < /dev/null\n", None),
    "rm_unknown_absolute": ("rm -rf ${X}/../scripts/logs\n", None),
}


def test_a_folder_of_the_tree_removed_before(tmp_path):
    for name, (before, starts) in RM.items():
        top = tmp_path / name
        after = "\n} > ./logs/a.log\n" if before.endswith("{\n") else " > ./logs/a.log\n"
        path = _project(top, before + PY + after)
        (top / "scripts" / "logs").mkdir()
        red = _launches(path)[-1]["redirection"]
        if starts == "ran":
            assert red is None, name
            continue
        assert red["starts"] is starts, name
        line = before.count("\n") + (2 if after.startswith("\n}") else 1)
        at, rm = next((n, x.strip(" &()")) for n, x in enumerate(before.split("\n"), 1) if "rm " in x)
        if starts is False:
            assert red["why"] == (
                f"`> ./logs/a.log` (run.sh:{line}) names the folder ./logs (the "
                f"command runs in {top}/scripts), which `{rm}` (run.sh:{at}) removes before, and nothing the launcher "
                "runs after makes it again: bash reports \"No such file or directory\" and does not start python3"), \
                name
        else:
            assert f"which is in the tree; `{rm}` (run.sh:{at}) runs before and may remove it: if it does, bash " \
                "reports" in red["why"], name


def test_set_e_stops_at_a_compound_that_holds_no_launch(tmp_path):
    # bash 5.2: `set -e; { echo start; } > ./nodir/a.log; echo ran` printed the error alone (status 1)
    path = _project(tmp_path / "own", f"set -e\n{{ echo start; }} > ./nodir/a.log\n{PY}\n")
    report = emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])
    data = json.loads(render_json(report))
    assert data["answer"]["why"] == "no launch found before the launcher ends at run.sh:2"
    # without set -e, or after ||, the launch runs
    for n, text in enumerate((f"{{ echo start; }} > ./nodir/a.log\n{PY}\n",
                              f"set -e\n{{ echo start; }} > ./nodir/a.log || true\n{PY}\n")):
        assert [x["verdict"] for x in _launches(_project(tmp_path / str(n), text))] == ["no profiling"], text


def test_a_process_substitution_or_here_string_is_no_file(tmp_path):
    # `done < <(ls ./nodir)`: bash 5.2 runs the loop (reading nothing); `<<<` and `<<EOF` name no file
    for n, close in enumerate(("done < <(ls ./nodir)\n", 'done <<< "$(cat ./nodir/x)"\n', "done <<EOF\na\nEOF\n")):
        found = _launches(_project(tmp_path / str(n), f"while read l; do\n  {PY}\n{close}"))
        assert found[0]["redirection"] is None, close
    found = _launches(_project(tmp_path / "own", f"{PY} < <(ls ./nodir)\n"))
    assert found[0]["redirection"] is None


def test_mkdir_after_an_rm_of_any_folder(tmp_path):
    # `rm -rf $X` may remove any folder; `mkdir -p` then `mkdir` below it make them again (bash 5.2 ran the launch with
    # X=$PWD/logs): the walk ends, and the folder made is there
    found = _launches(_project(tmp_path, f"rm -rf $X\nmkdir -p ./logs\nmkdir ./logs/d\n{PY} > ./logs/d/a.log\n"))
    assert found[0]["redirection"] is None


def test_clobber_and_read_write_redirections(tmp_path):
    # review23: bash 5.2 (timeout 20, ulimit -u 200), each then `python3 ../train.py --next`: `>| ./nodir/a.log`,
    # `2>| ./nodir/a.log`, `{ ...; } >| ./nodir/a.log` and `<> ./nodir/a.log` printed "./nodir/a.log: No such file or
    # directory" and ran only --next; `>| ./a.log` and `<> ./a.log` ran both (`<>` makes the file). The walk read `>|`
    # as `>` then a pipe and `<>` as no redirection: the first launch was said to run
    for n, redirection in enumerate((">| ./nodir/a.log", "2>| ./nodir/a.log", "<> ./nodir/a.log")):
        found = _launches(_project(tmp_path / str(n), f"{PY} {redirection}\n{PY} --next\n"))
        op = redirection.split()[0]
        assert found[0]["command"][2:] == [op, "./nodir/a.log"], redirection
        why = NOT_THERE.replace("`> ", f"`{op} ").format(line=1, top=tmp_path / str(n))
        assert [(x["verdict"], x["why"]) for x in found] == [("not run", why), ("no profiling", found[1]["why"])]
    found = _launches(_project(tmp_path / "group", f"{{ {PY}; }} >| ./nodir/a.log\n{PY} --next\n"))
    assert [x["verdict"] for x in found] == ["not run", "no profiling"]
    for n, redirection in enumerate((">| ./a.log", "<> ./a.log")):
        found = _launches(_project(tmp_path / f"ok{n}", f"{PY} {redirection}\n"))
        assert found[0]["redirection"] is None and found[0]["verdict"] == "no profiling", redirection


def test_set_e_stops_at_an_exec_whose_redirection_cannot_be_opened(tmp_path):
    # review23: bash 5.2 (timeout 20, ulimit -u 200): `set -e; exec > ./nodir/a.log; python3 ../train.py --next` and
    # `exec 3> ./nodir/a.log 2>&1`, and `f() { exec > ./nodir/a.log; }; f`, printed "./nodir/a.log: No such file or
    # directory" alone, status 1; the walk went on and said --next ran. Without set -e, after `|| true`, with the folder
    # made before, or in the background, bash ran --next
    for n, text in enumerate(("exec > ./nodir/a.log\n", "exec 3> ./nodir/a.log 2>&1\n",
                              "f() { exec > ./nodir/a.log; }\nf\n")):
        path = _project(tmp_path / str(n), f"set -e\n{text}{PY} --next\n")
        data = json.loads(render_json(emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])))
        assert data["answer"]["why"] == "no launch found before the launcher ends at run.sh:2", text
    for n, text in enumerate(("exec > ./nodir/a.log\n", "set -e\nexec > ./nodir/a.log || true\n",
                              "set -e\nmkdir -p ./nodir\nexec > ./nodir/a.log\n", "set -e\nexec > ./nodir/a.log &\n")):
        found = _launches(_project(tmp_path / f"on{n}", f"{text}{PY} --next\n"))
        assert [x["verdict"] for x in found] == ["no profiling"], text


def test_set_e_stops_at_a_compound_holding_set_plus_e(tmp_path):
    # bash 5.2: `set -e; { set +e; python3 ../train.py; } > ./nodir/a.log; python3 ../train.py --next` (and `( set +e;
    # ... ) > ./nodir/a.log`) printed "./nodir/a.log: No such file or directory" alone, status 1: --next never ran. The
    # walk said it ran ("no profiling" here; "collects" for a script that profiles)
    for n, shape in enumerate((f"{{ set +e; {PY}; }}", f"( set +e; {PY} )")):
        found = _launches(_project(tmp_path / str(n), f"set -e\n{shape} > ./nodir/a.log\n{PY} --next\n"))
        assert [x["verdict"] for x in found] == ["not run"], shape
    # a `set +e` that may run before the compound opens (X not known) leaves set -e in doubt: bash 5.2 with X unset
    # ran --next after `[ -n "$X" ] || set +e` before the group, and before a call of a function holding it
    for n, text in enumerate((f'[ -n "$X" ] || set +e\n{{ {PY}; }} > ./nodir/a.log\n',
                              f'h() {{ {{ {PY}; }} > ./nodir/a.log; }}\n[ -n "$X" ] || set +e\nh\n')):
        found = _launches(_project(tmp_path / f"d{n}", f"set -e\n{text}{PY} --next\n"))
        assert [x["verdict"] for x in found] == ["not run", "no profiling"], text


def test_a_redirection_to_an_empty_variable_starts_nothing(tmp_path):
    # bash 5.2 (timeout 20, ulimit -u 200): `L=; python3 ../train.py > $L` printed "$L: ambiguous redirect" (so did
    # `> $L 2>&1`, and `M='a b'; ... > $M` "$M: ambiguous redirect"), `> "$L"` printed ": No such file or directory";
    # none started python3, status 1, the next command ran; under set -e bash stopped there (status 1). The walk
    # said the launch ran
    cases = (("$L", "`> $L` (run.sh:3) expands to no word or to several: bash reports \"$L: ambiguous redirect\""),
             ("$L 2>&1", "`> $L` (run.sh:3) expands to no word or to several: bash reports \"$L: ambiguous redirect\""),
             ("$M", "`> $M` (run.sh:3) expands to no word or to several: bash reports \"$M: ambiguous redirect\""),
             ('"$L"', '`> "$L"` (run.sh:3) expands to an empty file name: bash reports ": No such file or directory"'))
    for n, (target, why) in enumerate(cases):
        found = _launches(_project(tmp_path / str(n), f"L=\nM='a b'\n{PY} > {target}\n{PY} --next\n"))
        assert [(x["verdict"], x["why"]) for x in found] == [
            ("not run", why + " and does not start python3"), ("no profiling", found[1]["why"])], target
        found = _launches(_project(tmp_path / f"e{n}", f"set -e\nL=\nM='a b'\n{PY} > {target}\n{PY} --next\n"))
        assert [x["verdict"] for x in found] == ["not run", "not run"], target
    # a value not known, or one that is a name, is judged as before
    for n, text in enumerate(("L=./a.log\n", "")):
        found = _launches(_project(tmp_path / f"k{n}", f"{text}{PY} > $L\n"))
        assert found[0]["redirection"] is None, text


def test_a_child_scripts_set_e_stops_at_its_exec_redirection(tmp_path):
    # bash 5.2: `bash ./child.sh; python3 ../train.py --next`, child.sh `set -e; exec > ./nodir/a.log; python3
    # ../train.py --child`: the child printed "./nodir/a.log: No such file or directory" and stopped (--child never
    # ran), then --next ran. The walk said --child ran
    found = _launches(_project(tmp_path, f"bash ./child.sh\n{PY} --next\n",
                               f"set -e\nexec > ./nodir/a.log\n{PY} --child\n"))
    assert [x["verdict"] for x in found if x["command"][2:] == ["--child"]] in ([], ["not run"])
    assert found[-1]["verdict"] == "no profiling"
    # bash 5.2 (timeout 20, ulimit -u 200): the child stopped so in a branch of the caller too (--next ran); under the
    # caller's own set -e, `bash ./child.sh` (status 1) stopped the caller: --next never ran
    found = _launches(_project(tmp_path / "b", f'if [ -n "$X" ]; then :; else bash ./child.sh; fi\n{PY} --next\n',
                               f"set -e\nexec > ./nodir/a.log\n{PY} --child\n"))
    assert [(x["command"][2:], x["verdict"]) for x in found] == [(["--next"], "no profiling")]
    path = _project(tmp_path / "e", f"set -e\nbash ./child.sh\n{PY} --next\n",
                    f"set -e\nexec > ./nodir/a.log\n{PY} --child\n")
    data = json.loads(render_json(emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])))
    assert data["answer"]["why"] == "no launch found before the launcher ends at run.sh:2"


def test_a_default_assigned_by_an_expansion_is_not_known_after_it(tmp_path):
    # review23: bash 5.2 (HOME=/root): `A=; : ${A:=foo}; echo $A` printed foo, `A=; echo ${A:=~/x}; echo $A` printed
    # /root/x (twice); the walk kept A empty, so `python3 ../train.py $A` was given no word. Now A is not known after it;
    # one that holds a value keeps it (`A=v; : ${A:=foo}` leaves v)
    for n, assign in enumerate((": ${A:=foo}", "echo ${A:=~/x}", "X=${A:=foo}", ": ${A=foo}")):
        before = "" if n == 3 else "A=\n"       # (`${A=word}`: only where A is unset)
        found = _launches(_project(tmp_path / str(n), f"{before}{assign}\n{PY} $A\n"))
        assert found[0]["command"] == ["python3", "../train.py", "<unknown>"], assign
    found = _launches(_project(tmp_path / "kept", f"A=v\n: ${{A:=foo}}\n{PY} $A\n"))
    assert found[0]["command"] == ["python3", "../train.py", "v"]


def test_rmdir_p_and_rm_d_may_remove_a_folder(tmp_path):
    # review23: bash 5.2, scripts/logs/sub in the tree (empty): `rmdir -p logs/sub` removed logs/sub then logs, and
    # `rm -d logs` (logs empty) removed logs: "logs/a.log: No such file or directory", python3 not started; the walk
    # took logs as there (redirection null). Whether the folder is empty is not followed: "may remove it"
    for n, (rm, below) in enumerate((("rmdir -p logs/sub", "logs/sub"), ("rm -d logs", "logs"),
                                     ("rm --dir logs", "logs"))):
        top = tmp_path / str(n)
        path = _project(top, f"{rm}\n{PY} > logs/a.log\n")
        (top / "scripts" / below).mkdir(parents=True)
        red = _launches(path)[0]["redirection"]
        assert red["starts"] is None and f"`{rm}` (run.sh:1) runs before and may remove it" in red["why"], rm
    # `rmdir logs/sub` leaves logs, `rm -f logs` removes no folder (bash 5.2: the launch ran)
    for n, rm in enumerate(("rmdir logs/sub", "rm -f logs")):
        top = tmp_path / f"kept{n}"
        path = _project(top, f"{rm}\n{PY} > logs/a.log\n")
        (top / "scripts" / "logs" / "sub").mkdir(parents=True)
        assert _launches(path)[0]["redirection"] is None, rm
