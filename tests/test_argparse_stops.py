"""Where python's argparse stops a launch's script in parse_args (values/argv_words.first_stop, checks/launch_setup):
at the first help or version option (status 0, after printing), at a value an option does not take (status 2, with
argparse's own message), at the words no option reads (status 2); a closing `--` depends on the python release. Held
to what python 3.9.18, 3.10.13, 3.11.7, 3.12.1 and 3.13.0 did with small parsers (tests/data/argparse_runs.json,
written by tests/data/argparse_runs.py)."""

import ast
import json
import os
import subprocess
import sys
import weakref

import pytest

from flake8_npuprof.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "data", "argparse_runs.json")


def _record():
    with open(RECORD) as f:
        return json.load(f)


def _table(options, prof="--prof"):
    from flake8_npuprof.values.flag_def import FlagDef
    table = {}
    for names, kw in [[[prof], {"action": "store_true"}]] + options:
        kw = dict(kw)
        if "type" in kw:
            kw["type"] = ast.Name(kw["type"])
        call = ast.parse(f"parser.add_argument({', '.join(map(repr, names))}, "
                         f"{', '.join(f'{k}={v.id if isinstance(v, ast.Name) else repr(v)}' for k, v in kw.items())})"
                         ).body[0].value
        flag = FlagDef(kw.get("dest", names[-1].lstrip(prof[0])), names[-1], "argparse", None, None, True, call, None,
                       kw.get("action", ""), kw.get("type"))
        for n in names:
            table[n] = flag
    return table


def test_the_record_is_what_the_pythons_here_do():
    sys.path.insert(0, os.path.join(HERE, "data"))
    try:
        import argparse_runs
    finally:
        sys.path.pop(0)
    pythons = argparse_runs.pythons()
    if not pythons:
        pytest.skip("no CPython 3.9-3.13 under /root/.pyenv here")
    record = _record()
    assert [[c["options"], c["exit_on_error"], c["words"]] + ([c["parser"]] if "parser" in c else [])
            for c in record] == argparse_runs.CASES
    for version, python in pythons.items():
        assert argparse_runs.run(python) == [c["runs"][version] for c in record], version


@pytest.mark.parametrize("case", [c for c in _record() if c["exit_on_error"] and "prefix_chars" not in c.get(
    "parser", {}) and all(o[0][0][0] == "-" for o in c["options"])],
    ids=lambda c: " ".join(c["words"]) + " " + c.get("parser", {}).get("method", ""))
def test_first_stop_is_what_python_did(case):
    # (parse_known_args stops where parse_args stops while reading, and leaves the words no option reads aside)
    from flake8_npuprof.values.argv_words import first_stop
    _agrees(case, first_stop(case["words"], _table(case["options"]), lambda flag: True))


@pytest.mark.parametrize("case", [c for c in _record() if c.get("parser", {}).get("prefix_chars") == "+"],
                         ids=lambda c: " ".join(c["words"]))
def test_first_stop_reads_a_parser_of_another_prefix_character_as_python_did(case):
    # prefix_chars="+": python 3.9.18-3.13.0 read `++n` as they read `--n` where it is "-", a word that begins with
    # `-` as a positional, and `--` as the end of the options all the same (argv_words.as_dashed)
    from flake8_npuprof.values.argv_words import as_dashed, first_stop
    read = as_dashed(case["words"], _table(case["options"], "++prof"), "+")
    assert read is not None
    _agrees(case, first_stop(read[0], read[1], lambda flag: True))


def _known(case):
    return case.get("parser", {}).get("method") == "parse_known_args"


def _agrees(case, stop):
    """Whether first_stop's answer (stop) is what the five pythons did with the case."""
    runs = case["runs"]
    assert set(runs) == {"3.9.18", "3.10.13", "3.11.7", "3.12.1", "3.13.0"}
    if stop is not None and stop.kind == "joined":      # (3.9-3.12 stop there, 3.13.0 names -x at the end)
        assert all(r == [2, f"train.py: error: {stop.why}"] for v, r in runs.items() if v != "3.13.0")
        assert runs["3.13.0"] == (["runs"] if _known(case) else [0, ""] if "-h" in case["words"] else
                                  [2, f"train.py: error: unrecognized arguments: -{stop.why.split(chr(39))[1]}"])
        return
    ran = {json.dumps(r) for r in runs.values()}
    assert len(ran) == 1                # the five agree
    ran = runs["3.13.0"]
    if stop is not None and stop.kind in ("extra", "dashdash", "release") and _known(case):
        stop = None
    if ran == ["runs"]:
        assert stop is None
    elif ran[0] == "raises":            # (an exception not argparse's: status 1)
        assert stop.status == 1 and stop.kind == "raises" and stop.why == ran[1]
    elif stop is None:                  # (an ambiguous abbreviation, a single-dash word that begins an option: not
        names = [n for o in case["options"] for n in o[0]]     # followed here)
        assert ran[1].startswith("train.py: error: ambiguous option") or any(
            w[:1] == "-" and w[1:2] != "-" and w not in names and any(n == w[:2] or n.startswith(w) for n in names)
            for w in case["words"])
    elif ran[0] == 0:
        assert stop.status == 0 and stop.kind in ("help", "version")
    elif stop.kind == "release":        # 3.9.18 to 3.13.0 exit; 3.12.7 and 3.13.1 read `--` anew (gh-53780)
        assert stop.status is None and ran[1].endswith("unrecognized arguments: --")
    elif stop.kind in ("extra", "dashdash"):
        assert stop.status == 2 and "unrecognized arguments: " in ran[1]
        assert ran[1].split("unrecognized arguments: ")[1].split()[0 if stop.kind == "extra" else 1] == \
            case["words"][stop.at + (stop.kind == "dashdash")]
    else:
        assert stop.status == 2 and stop.kind in ("value", "default")
        assert ran[1].startswith(f"train.py: error: {stop.why}")


TRAIN = """\
import argparse

import torch_npu


def train(args):
    if args.prof:
        prof = torch_npu.profiler.profile(
            activities=[torch_npu.profiler.ProfilerActivity.NPU],
            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
        prof.start()
        for step in range(10):
            prof.step()
        prof.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof", action="store_true")
    parser.add_argument("--size", nargs=2)
    parser.add_argument("--n", type=int, default=1)
    parser.add_argument("--m", choices=["a", "b"])
    parser.add_argument("--version", action="version", version="1.0")
    args = parser.parse_args()
    train(args)
"""


def _answer(capsys, tmp_path, *args, text=TRAIN):
    (tmp_path / "train.py").write_text(text)
    (tmp_path / "run.sh").write_text('python3 train.py "$@"\n')
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--",
          "bash", "run.sh"] + list(args))
    return capsys.readouterr().out.splitlines()[2:]


def _off(why):
    return [f"train.py: torch_npu's profiler is off: line 8: not run in this launch: {why}",
            f"usable data: no (line 8 of train.py: not run in this launch: {why})"]


HELP = "argparse stops the script in parse_args: -h from run.sh:1 asks for its help, so argparse prints it and exits " \
    "with status 0"


@pytest.mark.parametrize("words", [["--xyz", "-h"], ["-h", "--xyz"], ["--prof", "-h"], ["-h"], ["-h", "--prof=1"],
                                   ["-h", "--n=x"]])
def test_help_stops_the_script_with_status_0_before_what_follows(capsys, tmp_path, words):
    # python 3.9-3.13 print the help and exit 0 at -h, the unknown --xyz (reported after all words) never said;
    # the answer was "argparse exits with status 2" for --xyz, "yes" for `--prof -h`, "no" (the default) for `-h`
    assert _answer(capsys, tmp_path, *words) == _off(HELP)


def test_version_stops_the_script_with_status_0(capsys, tmp_path):
    why = ("argparse stops the script in parse_args: --version from run.sh:1 is train.py's version option (line 23), "
           "so argparse prints the version and exits with status 0")
    off = _off(why)
    assert _answer(capsys, tmp_path, "--xyz", "--version") == [off[0], off[1].replace("(line 23)",
                                                                                      "(line 23 of train.py)")]


@pytest.mark.parametrize("words, spelled, error", [
    (["--prof", "--size", "1"], "--size 1", "argument --size: expected 2 arguments"),
    (["--prof", "--n", "x"], "--n x", "argument --n: invalid int value: 'x'"),
    (["--prof", "--n=x", "-h"], "--n=x", "argument --n: invalid int value: 'x'"),
    (["--prof", "--m", "c"], "--m c", "argument --m: invalid choice: 'c'"),
])
def test_a_value_an_option_does_not_take_stops_the_script_with_argparse_s_error(capsys, tmp_path, words, spelled,
                                                                                  error):
    # it was "yes": the answer read --prof and left the other option's value alone
    option = error.split()[1][:-1]
    why = (f"argparse stops the script in parse_args: {spelled} from run.sh:1 is not what {option} takes, so argparse "
           f"exits with status 2 (\"error: {error}\")")
    assert _answer(capsys, tmp_path, *words) == _off(why)


def test_values_it_takes_leave_the_launch_as_it_was(capsys, tmp_path):
    assert _answer(capsys, tmp_path, "--prof", "--size", "1", "2", "--n", "-1", "--m", "a") == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_a_word_no_option_takes_stops_the_script(capsys, tmp_path):
    # `--prof x`: x is no option's value, and train.py takes no positional (status 2); it was "yes"
    assert _answer(capsys, tmp_path, "--prof", "x") == _off(
        "argparse stops the script in parse_args: x from run.sh:1 is a value no option of train.py takes (it defines "
        "no positional argument), so argparse exits with status 2 (\"error: unrecognized arguments\", naming x)")
    assert _answer(capsys, tmp_path, "--prof", "--", "x") == _off(
        "argparse stops the script in parse_args: x after -- from run.sh:1 is no argument train.py takes (it defines "
        "no positional argument), so argparse exits with status 2 (\"error: unrecognized arguments\")")


def test_a_closing_double_dash_leaves_it_to_the_python_release(capsys, tmp_path):
    # python 3.9.18-3.13.0 exit 2 ("unrecognized arguments: --"); 3.12.7 and 3.13.1 changed how a first `--` is read
    # (their NEWS: gh-53780, gh-81691; cpython issue 136462 on `--` after an option): the answer was "yes"
    why = ("whether it runs in this launch is not known: -- from run.sh:1 closes the words: python 3.9.18, 3.10.13, "
           "3.11.7, 3.12.1 and 3.13.0 exit there with status 2 (\"error: unrecognized arguments: --\"), while 3.12.7 "
           "and 3.13.1 changed how argparse reads a first -- (gh-53780, not run here): whether the script runs depends "
           "on the python release")
    steps = f"line 8, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _answer(capsys, tmp_path, "--prof", "--") == [
        f"train.py: torch_npu's profiler: unknown: {steps}; but {why}",
        f"usable data: unknown (run.sh:1: {steps.replace('line 8', 'line 8 of train.py')}; but {why})"]


UNGUARDED = TRAIN.replace("    if args.prof:\n", "    if True:\n")


@pytest.mark.parametrize("words, why", [
    (["--xyz"], "argparse stops the script in parse_args: --xyz from run.sh:1 is no option train.py defines, so "
                "argparse exits with status 2 (\"error: unrecognized arguments\", naming --xyz)"),
    (["-h"], HELP),
])
def test_a_profiler_under_no_test_of_the_flags_is_not_reached_either(capsys, tmp_path, words, why):
    # train() is called only after parse_args, which stops the script: the answer was "yes" (args17's leftover)
    assert _answer(capsys, tmp_path, *words, text=UNGUARDED) == _off(why)
    # ... where train() may be called before it, the answer stays
    early = UNGUARDED.replace("    parser = argparse.ArgumentParser()\n",
                              "    train(None)\n    parser = argparse.ArgumentParser()\n")
    assert _answer(capsys, tmp_path, *words, text=early)[-1].startswith("usable data: yes")


def test_a_parser_not_followed_whole_is_not_said_to_stop_at_help(capsys, tmp_path):
    # fromfile_prefix_chars: not read here, so the stop at -h is not said (the answer is what it was before);
    # add_help=False: test_a_parser_without_help_stops_on_a_help_word
    for old, new in (("ArgumentParser()", "ArgumentParser(fromfile_prefix_chars='@')"),):
        assert not any("-h from run.sh:1" in line for line in _answer(capsys, tmp_path, "--prof", "-h",
                                                                      text=TRAIN.replace(old, new))), new
    # a positional (its values are converted as they come: none here), a required option (checked at the end), an
    # option like a negative number: python 3.9.18-3.13.0 print the help and exit with status 0 (they were not said)
    for old, new, options in (('"--size", nargs=2', '"size", nargs="?"', [[["size"], {"nargs": "?"}]]),
                              ('"--m", choices', '"--m", required=True, choices', [[["--m"], {"required": True}]]),
                              ('"--n", type=int', '"-1", "--n", type=int', [[["-1", "--n"], {}]])):
        assert _ran(["--prof", "-h"], None, options) == [0, ""]
        assert _answer(capsys, tmp_path, "--prof", "-h", text=TRAIN.replace(old, new)) == _off(HELP), new


def test_words_the_walk_does_not_know():
    # a word that begins not known may be several words, an option or nothing: nothing after it is said; a value not
    # known is taken where the option converts nothing (type str, no choices), not where it does
    from flake8_npuprof.source.text import HOLE
    from flake8_npuprof.values.argv_words import first_stop
    table = _table([[["--output"], {}], [["--n"], {"type": "int"}]])
    said = {" ".join(w): first_stop(w, table, lambda flag: True) for w in (
        ["--output=/d/" + HOLE, "-h"], ["--output", "/d/" + HOLE, "-h"], [HOLE, "-h"], ["--output", HOLE, "-h"],
        ["--n=" + HOLE, "-h"], ["--prof", "--", HOLE], ["--prof", "--", "/d/" + HOLE], ["/d/" + HOLE],
        ["--prof", HOLE], ["x", HOLE, "--prof"], ["--prof", "-" + HOLE], [HOLE, "x", "--prof"])}
    assert {w: (s.status, s.kind, s.why) if s else None for w, s in said.items()} == {
        f"--output=/d/{HOLE} -h": (0, "help", ""), f"--output /d/{HOLE} -h": (0, "help", ""),
        f"{HOLE} -h": None, f"--output {HOLE} -h": None, f"--n={HOLE} -h": None,
        f"--prof -- {HOLE}": (None, "release", ""), f"--prof -- /d/{HOLE}": (2, "dashdash", ""), f"/d/{HOLE}": None,
        # (after a word no option reads: status 2 once all are read, unless the one not known stops argparse first)
        f"--prof {HOLE}": None, f"x {HOLE} --prof": (2, "extra", "notknown"), f"--prof -{HOLE}": None,
        f"{HOLE} x --prof": None}


def test_a_word_no_option_reads_before_one_the_walk_does_not_know_stops_the_script(capsys, tmp_path):
    # `--prof x $(hostname)` said "yes": python 3.9-3.13 exit 2 on x once the words are read, or earlier where the
    # word not known is a help option (status 0) or a value an option refuses
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text("python3 train.py --prof x $(hostname)\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    assert capsys.readouterr().out.splitlines()[-1] == (
        "usable data: no (line 8 of train.py: not run in this launch: argparse stops the script in parse_args: x from "
        "run.sh:1 is a value no option of train.py takes (it defines no positional argument), so argparse exits with "
        "status 2 (\"error: unrecognized arguments\", naming x), unless a word after it, not known here, is a help "
        "option (status 0) or a value an option refuses)")


def test_an_option_given_no_value_takes_its_const_as_argparse_checks_it(capsys, tmp_path):
    # nargs="?" given no value takes const="c", which argparse converts and checks (python 3.9.18-3.13.0: "invalid
    # choice: 'c'", status 2) before it reaches -h: the answer said -h exits with status 0
    text = TRAIN.replace('"--m", choices', '"--m", nargs="?", const="c", choices')
    assert _answer(capsys, tmp_path, "--prof", "--m", "-h", text=text) == _off(
        "argparse stops the script in parse_args: --m from run.sh:1 is given no value, so it takes its const 'c', "
        "which is not what --m takes, so argparse exits with status 2 (\"error: argument --m: invalid choice: 'c'\")")


@pytest.mark.parametrize("words", [["--prof", "-h", "5"], ["--prof", "--help", "5"]])
def test_a_help_option_the_script_takes_over_is_its_own(capsys, tmp_path, words):
    # conflict_handler="resolve" gives -h (or --help) to the script's --n: python 3.9.18-3.13.0 read `-h 5` as --n 5
    # and run the script; the answer said -h asks for the help (status 0)
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(conflict_handler="resolve")').replace(
        '"--n", type=int', f'"{words[1]}", "--n", type=int')
    assert _answer(capsys, tmp_path, *words, text=text) == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_an_action_class_may_make_options_of_its_own(capsys, tmp_path):
    # argparse.BooleanOptionalAction makes --no-amp of --amp (python 3.9.18-3.13.0 ran `--prof --no-amp`): the answer
    # said --no-amp is no option train.py defines (status 2)
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("--amp", action=argparse.'
                         'BooleanOptionalAction)\n    parser.add_argument("--size"')
    assert _answer(capsys, tmp_path, "--prof", "--no-amp", text=text) == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_a_version_option_with_no_version_raises(capsys, tmp_path):
    # action="version" with no version= reads parser.version, which ArgumentParser lacks: python 3.9.18-3.13.0 raise
    # AttributeError in parse_args (status 1); the answer said argparse prints the version and exits with status 0
    text = TRAIN.replace('action="version", version="1.0"', 'action="version"')
    why = ("argparse stops the script in parse_args: --version from run.sh:1 is train.py's version option (line 23), "
           "which gives no version=: argparse's version action reads parser.version, which ArgumentParser does not "
           "have, so parse_args raises AttributeError (status 1)")
    off = _off(why)
    assert _answer(capsys, tmp_path, "--prof", "--version", "-h", text=text) == [
        off[0], off[1].replace("(line 23)", "(line 23 of train.py)")]


def test_options_of_a_parser_that_parses_nothing_are_not_read_as_its(capsys, tmp_path):
    # --cfg is an option of another parser, which reads no word: python 3.9.18-3.13.0 collect --cfg as unrecognized,
    # then print the help at -h and exit with status 0; the answer said --cfg is given no value (status 2)
    text = TRAIN.replace('    args = parser.parse_args()\n',
                         '    other = argparse.ArgumentParser()\n    other.add_argument("--cfg")\n'
                         '    args = parser.parse_args()\n')
    assert _answer(capsys, tmp_path, "--prof", "--cfg", "-h", text=text) == _off(HELP)
    # (python: "unrecognized arguments: --cfg x", status 2)
    assert _answer(capsys, tmp_path, "--prof", "--cfg", "x", text=text) == _off(
        "argparse stops the script in parse_args: --cfg from run.sh:1 is no option of the parser train.py parses, so "
        "argparse exits with status 2 (\"error: unrecognized arguments\", naming --cfg)")


def test_a_single_dash_switch_given_a_value_depends_on_the_python_release():
    # `-x=a b` for a store_true -x: python 3.9.18-3.12.1 read -x, then -a given ' b' (they run); 3.13.0 exits with
    # status 2 ("argument -x: ignored explicit argument 'a b'"): first_stop said status 2
    from flake8_npuprof.values.argv_words import first_stop
    table = _table([[["-x"], {"action": "store_true"}], [["-a", "--alpha"], {"nargs": 1}]])
    assert first_stop(["-x=a b"], table, lambda flag: True) is None
    said = first_stop(["--prof=a b"], table, lambda flag: True)
    assert said.why == "argument --prof: ignored explicit argument 'a b'"


@pytest.mark.parametrize("words, stop", [
    (["--prof", "--version", "--o"], "--o from run.sh:1 takes a value and is given none, so argparse exits with "
                                     "status 2 (\"error: argument --o: expected one argument\")"),
])
def test_a_help_or_version_word_may_exit_first_where_the_parser_is_not_read_whole(capsys, tmp_path, words, stop):
    # a positional (first_stop does not read the parser): python 3.9.18-3.13.0 print the help at -h (or the version)
    # and exit with status 0 before naming --xyz, or reading --o; the answer said status 2 alone
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"').replace('"--n", type=int, default=1', '"--o"')
    first = words[1] if words[1] != "--xyz" else "-h"
    assert _answer(capsys, tmp_path, *words, text=text) == _off(
        f"argparse stops the script in parse_args: {stop}; unless argparse reads {first} from run.sh:1 as the help or "
        "a version option first, which exits with status 0")


def test_a_help_word_stops_a_parser_first_stop_does_not_read_where_each_word_before_it_is_read(capsys, tmp_path):
    # a positional: python 3.9.18-3.13.0 print the help and exit with status 0 (argp19 said "--xyz ... status 2;
    # unless -h ... first", and "--prof=1 ... status 2; unless -h ... first"; `-h --prof`, `--prof 3 4 --help`: "yes")
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"')
    for words in (["--prof", "--xyz", "-h"], ["-h", "--prof=1"], ["--prof", "3", "4", "--help"]):
        assert _ran(words, None, [[["size"], {"nargs": "?"}]]) == [0, ""]
        assert _answer(capsys, tmp_path, *words, text=text) == _off(HELP.replace("-h", words[-1] if words[-1] in (
            "-h", "--help") else "-h")), words


@pytest.mark.parametrize("first", ["--version"])
def test_a_flag_s_own_stop_names_a_help_or_version_word_before_it(capsys, tmp_path, first):
    # argparse reads the words in order: python 3.9.18-3.13.0 print the help (or version) and exit with status 0
    # before --prof=1 is read; the answer (the parser not read whole: a positional) said status 2 alone
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"')
    assert _answer(capsys, tmp_path, first, "--prof=1", text=text) == _off(
        "argparse stops the script in parse_args: --prof (store_true) takes no value, and --prof=1 from run.sh:1 "
        f"gives it one, so argparse exits with status 2; unless argparse reads {first} from run.sh:1 as the help or "
        "a version option first, which exits with status 0")


def test_a_literal_with_a_leading_blank_is_not_one_on_python_3_9(capsys, tmp_path):
    # ast.literal_eval(" True"): python 3.10.13-3.13.0 strip the blank (True: the script runs and profiles), 3.9.18
    # raises IndentationError, which argparse does not catch (status 1); the answer was "yes" outright
    text = TRAIN.replace('"--prof", action="store_true"', '"--prof", type=ast.literal_eval, default=False').replace(
        "import argparse\n", "import argparse\nimport ast\n")
    assert _answer(capsys, tmp_path, "--prof", " True", text=text) == [
        "train.py: torch_npu's profiler collects (when args.prof) (emulate train.py for its steps and folders)",
        "usable data: yes (where its conditions hold)"]     # (as for a literal not read here: `--prof [1]`)


@pytest.mark.parametrize("word", ["-n=a b", "--nu=a b", "-na b"])
def test_a_single_dash_option_with_a_value_is_an_option_where_the_word_holds_a_blank(capsys, tmp_path, word):
    # `--m "-n=a b"`: -n is an option, so argparse reads the word as -n given 'a b' (its part before = is one) and
    # --m is given none (python 3.9.18-3.13.0: "argument --m: expected one argument", status 2); the answer was "yes"
    # (an abbreviation too: --nu=a b of --num, -na b of -n given 'a b')
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"').replace('"--n", type=int', '"-n", "--num", type=int')
    assert _answer(capsys, tmp_path, "--prof", "--m", word, text=text) == _off(
        "argparse stops the script in parse_args: --m from run.sh:1 takes a value and is given none, so argparse exits "
        "with status 2 (\"error: argument --m: expected one argument\")")


def _ran(words, parser=None, options=()):
    """What python 3.9.18-3.13.0 did with the record's case of these words, parser keywords and options (the last
    one of them): the five agree."""
    case = [c for c in _record() if c["words"] == words and c.get("parser") == parser and
            all(o in c["options"] for o in options)][-1]
    assert len({json.dumps(r) for r in case["runs"].values()}) == 1
    return case["runs"]["3.13.0"]


def test_parse_known_args_stops_where_parse_args_stops_while_reading(capsys, tmp_path):
    # an option given no value: python 3.9.18-3.13.0 exit with status 2 in parse_known_args too; the answer was "yes"
    assert _ran(["--prof", "--n"], {"method": "parse_known_args"}) == [
        2, "train.py: error: argument --n: expected one argument"]
    text = TRAIN.replace("args = parser.parse_args()", "args, rest = parser.parse_known_args()")
    assert _answer(capsys, tmp_path, "--prof", "--m", text=text) == _off(
        "argparse stops the script in parse_known_args: --m from run.sh:1 takes a value and is given none, so "
        "argparse exits with status 2 (\"error: argument --m: expected one argument\")")
    # ... and leaves the words no option reads aside (they stop parse_args): the script runs
    assert _ran(["--prof", "x", "--xyz"], {"method": "parse_known_args"}) == ["runs"]
    assert _answer(capsys, tmp_path, "--prof", "x", "--xyz", text=text) == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_a_string_default_the_type_refuses_stops_the_script(capsys, tmp_path):
    # argparse converts a string default where no word gives the option: python 3.9.18-3.13.0 exit with status 2
    # ("invalid int value: 'abc'"), before naming a word no option reads; the answer was "yes" (and for `--prof x`,
    # the word x was said)
    abc = [[["--n"], {"type": "int", "default": "abc"}]]
    assert _ran(["--prof"], None, abc) == _ran(["--prof", "x"], None, abc) == [
        2, "train.py: error: argument --n: invalid int value: 'abc'"]
    text = TRAIN.replace('"--n", type=int, default=1', '"--n", type=int, default="abc"')
    why = ("argparse stops the script in parse_args: run.sh:1 does not give --n, so argparse converts its default "
           "'abc' (line 21) with int(), which refuses it, so argparse exits with status 2 (\"error: argument --n: "
           "invalid int value: 'abc'\")")
    off = _off(why)
    for words in (["--prof"], ["--prof", "x"]):
        assert _answer(capsys, tmp_path, *words, text=text) == [
            off[0], off[1].replace("(line 21)", "(line 21 of train.py)")]
    # given, the default is not converted
    assert _ran(["--n", "1"], None, abc) == ["runs"]
    assert _answer(capsys, tmp_path, "--prof", "--n", "1", text=text)[-1] == "usable data: yes"


def test_an_append_to_a_default_that_is_no_list_raises(capsys, tmp_path):
    # action="append" copies its default and appends to it: a str has none (python 3.9.18-3.13.0: AttributeError,
    # status 1, before a later -h); the answer was "yes"
    append = [[["--n"], {"action": "append", "default": "x"}]]
    assert _ran(["--n", "a", "-h"], None, append) == [
        "raises", "AttributeError: 'str' object has no attribute 'append'"]
    text = TRAIN.replace('"--n", type=int, default=1', '"--n", action="append", default="x"')
    why = ("argparse stops the script in parse_args: --n a from run.sh:1 is appended to the default of --n, 'x' "
           "(line 21), which has no append, so parse_args raises AttributeError ('str' object has no attribute "
           "'append'), status 1")
    off = _off(why)
    assert _answer(capsys, tmp_path, "--prof", "--n", "a", "-h", text=text) == [
        off[0], off[1].replace("(line 21)", "(line 21 of train.py)")]
    assert _ran(["--prof"], None, append) == ["runs"]     # (not given: its default is the value)
    assert _answer(capsys, tmp_path, "--prof", text=text)[-1] == "usable data: yes"


def test_a_word_that_begins_with_no_prefix_character_is_a_positional(capsys, tmp_path):
    # prefix_chars="+": python 3.9.18-3.13.0 read --prof (and -h) as positionals, which the parser does not take
    # ("unrecognized arguments: --prof", status 2); the answer was "yes (where its conditions hold)"
    assert _ran(["--prof"], {"prefix_chars": "+"}) == [2, "train.py: error: unrecognized arguments: --prof"]
    assert _ran(["-h", "x"], {"prefix_chars": "+"}) == [2, "train.py: error: unrecognized arguments: -h x"]
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="+")').replace(
        'add_argument("--', 'add_argument("++')
    why = ("argparse stops the script in parse_args: --prof from run.sh:1 begins with none of the prefix characters "
           "of train.py's parser (prefix_chars='+', line 18), so argparse reads it as a positional argument, which "
           "train.py does not take (it defines none), so argparse exits with status 2 (\"error: unrecognized "
           "arguments\", naming --prof)")
    off = _off(why)
    for words in (["--prof"], ["--prof", "-h"]):
        assert _answer(capsys, tmp_path, *words, text=text) == [
            off[0], off[1].replace("(prefix_chars='+', line 18)", "(prefix_chars='+', line 18 of train.py)")]
    # no word: the script runs, ++prof not given (its dest is prof: "yes (where its conditions hold)" before s63)
    assert _ran([], {"prefix_chars": "+"}) == ["runs"]
    assert _answer(capsys, tmp_path, text=text)[-1] == (
        "usable data: no (line 8 of train.py: not run in this launch: `args.prof` is false in this launch (the default "
        "of ++prof, which the launcher does not pass; ++prof would switch it on))")


def test_a_switch_joined_to_characters_that_begin_no_option_stops_the_script(capsys, tmp_path):
    # `-bx` for a store_true -b (no -x): python 3.9.18-3.12.1 exit with status 2 there ("ignored explicit argument
    # 'x'"), 3.13.0 sets -b and names -x as unrecognized (status 2; status 0 at a later -h): the answer was "yes"
    def runs(words, parser=None):
        return next(c for c in _record() if c["words"] == words and c.get("parser") == parser)["runs"]
    ran = runs(["-bx"])
    assert ran["3.9.18"] == ran["3.12.1"] == [2, "train.py: error: argument -b: ignored explicit argument 'x'"]
    assert ran["3.13.0"] == [2, "train.py: error: unrecognized arguments: -x"]
    assert runs(["-bx", "-h"])["3.13.0"] == [0, ""]
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("-b", action="store_true")\n'
                         '    parser.add_argument("--size"')
    why = ("argparse stops the script in parse_args: -bx from run.sh:1 is -b (store_true) with x after it, and -x is "
           "no option train.py defines: python 3.9.18-3.12.1 exit with status 2 there (\"error: argument -b: ignored "
           "explicit argument 'x'\"), and 3.13.0 sets -b and names -x among the unrecognized arguments (status 2), "
           "unless what follows stops argparse first")
    for words in (["--prof", "-bx"], ["--prof", "-bx", "-h"]):
        assert _answer(capsys, tmp_path, *words, text=text) == _off(why)
    # parse_known_args on 3.13.0 leaves -x aside and runs the script, 3.9.18-3.12.1 exit with status 2: not known
    # (it said "yes" before argp23)
    assert runs(["-bx"], {"method": "parse_known_args"})["3.13.0"] == ["runs"]
    assert runs(["-bx"], {"method": "parse_known_args"})["3.12.1"][0] == 2
    known = text.replace("args = parser.parse_args()", "args = parser.parse_known_args()[0]")
    assert _answer(capsys, tmp_path, "--prof", "-bx", text=known)[-1].endswith(
        "-bx from run.sh:1 is read by argparse in a way not followed here (a single-dash word that begins an option, "
        "or is one with more after it), where python 3.9-3.13.0 may stop the script in parse_known_args (status 2))")


def test_a_word_not_known_after_the_stop_may_be_an_ambiguous_abbreviation(capsys, tmp_path):
    # argparse sorts every word before it reads one: `-h $X` with $X=--pr (--prof, --profile_dir) exits with status 2
    # ("ambiguous option", python 3.9.18-3.13.0 in the record: `--help --a`) before the help; the answer said status 0
    # alone. The verdict stays (the script stops either way); the reason says both.
    assert _ran(["--help", "--a"])[1].startswith("train.py: error: ambiguous option: --a could match")
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("--profile_dir")\n'
                         '    parser.add_argument("--size"')
    (tmp_path / "run.sh").write_text('python3 train.py -h $X\n')
    (tmp_path / "train.py").write_text(text)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    assert capsys.readouterr().out.splitlines()[2:] == _off(
        HELP + "; unless a word from run.sh:1 not known here is an abbreviation of two options, which argparse meets "
        "before it reads any word (\"ambiguous option\", status 2)")
    # where no two options begin alike (--prof, --size, --n, --m, --version, --help), no word can be
    (tmp_path / "train.py").write_text(TRAIN)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    assert capsys.readouterr().out.splitlines()[2:] == _off(HELP)


@pytest.mark.parametrize("words, old, new, error, why", [
    (["--prof", "--xyz", "--n", "x", "3"], '"--n", type=int, default=1', '"--n", type=int',
     "argument --n: invalid int value: 'x'",
     "int(), the type of --n (train.py:21), raises ValueError on --n x from run.sh:1, so argparse exits with status 2"),
    (["3", "--m", "c", "--prof=1"], "", "", "argument --m: invalid choice: 'c'",
     "--m c from run.sh:1 is not one of the choices of --m (train.py:22), so argparse exits with status 2 (\"invalid "
     "choice\")"),
])
def test_a_value_refused_stops_a_parser_first_stop_does_not_read(capsys, tmp_path, words, old, new, error, why):
    # a positional: python 3.9.18-3.13.0 exit with status 2 where argparse reads the value its option refuses; the
    # answer was "yes" (the flag's own stop was said only where the profiler's test reads that flag)
    assert _ran(words, None, [[["size"], {"nargs": "?"}]])[1].startswith(f"train.py: error: {error}")
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"').replace(old, new)
    assert _answer(capsys, tmp_path, *words, text=text) == _off("argparse stops the script in parse_args: " + why)


UNDER_IF = TRAIN.replace("import argparse\n", "import argparse\nimport os\n").replace(
    '    parser.add_argument("--n", type=int, default=1)\n',
    '    if os.environ.get("X"):\n        parser.add_argument("--n", type=int, default=1)\n')


def test_an_option_added_under_an_if_is_read_with_and_without_it(capsys, tmp_path):
    # python 3.9.18-3.13.0 with --n: "invalid int value: 'x'" (status 2); without: "unrecognized arguments: --n x"
    # (status 2), or the help at a later -h (status 0): the answer gave the first reason alone
    assert _ran(["--prof", "--n", "x", "-h"], None, [[["--n"], {"type": "int"}]]) == [
        2, "train.py: error: argument --n: invalid int value: 'x'"]
    assert _ran(["--prof", "--n", "x"], None) == [2, "train.py: error: unrecognized arguments: --n x"]
    assert _ran(["--prof", "--n", "x", "-h"], None) == [0, ""]
    with_n = "--n x from run.sh:1 is not what --n takes, so argparse exits with status 2 (\"error: argument --n: " \
        "invalid int value: 'x'\")"
    for words, without in (
            (["--prof", "--n", "x"], "--n from run.sh:1 is no option of the parser train.py parses, so argparse "
                                     "exits with status 2 (\"error: unrecognized arguments\", naming --n)"),
            (["--prof", "--n", "x", "-h"], "-h from run.sh:1 asks for its help, so argparse prints it and exits with "
                                           "status 0")):
        why = f"argparse stops the script in parse_args: {with_n} (where the statement on line 22 adds --n; else " \
            f"{without})"
        off = _off(why.replace("line 8", "line 9"))
        assert _answer(capsys, tmp_path, *words, text=UNDER_IF) == [
            off[0].replace("line 8:", "line 9:"),
            off[1].replace("line 8 of", "line 9 of").replace("line 22 adds", "line 22 of train.py adds")]


def test_an_option_added_under_an_if_may_stop_the_script_only_where_it_is_added(capsys, tmp_path):
    # default="abc" for type=int: python 3.9.18-3.13.0 exit with status 2 where --n is added, and run the script where
    # it is not; the answer was "yes" (before this session), "no" (the stop said as certain)
    assert _ran(["--prof"], None, [[["--n"], {"type": "int", "default": "abc"}]])[0] == 2
    assert next(c for c in _record() if c["words"] == ["--prof"] and not c["options"] and "parser" not in c)[
        "runs"]["3.13.0"] == ["runs"]
    text = UNDER_IF.replace("default=1", 'default="abc"')
    why = ("whether it runs in this launch is not known: the statement on line 22 of train.py adds --n only where its "
           "test holds, which is not decided here; where it does, argparse stops the script in parse_args: run.sh:1 "
           "does not give --n, so argparse converts its default 'abc' (line 23 of train.py) with int(), which refuses "
           "it, so argparse exits with status 2 (\"error: argument --n: invalid int value: 'abc'\")")
    steps = f"line 9 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _answer(capsys, tmp_path, "--prof", text=text)[-1] == f"usable data: unknown (run.sh:1: {steps}; but {why})"


def test_options_a_function_adds_before_it_parses_are_added_however_it_is_called():
    # tf.app.run(main) calls main, which adds --a and parses: --a is there whenever it parses; --b under an if is not
    from flake8_npuprof.values.argv_words import conditional
    from flake8_npuprof.values.flag_def import FlagDef
    tree = ast.parse("import argparse\ndef main(_):\n    p = argparse.ArgumentParser()\n    p.add_argument('--a')\n"
                     "    if X:\n        p.add_argument('--b')\n    p.parse_args()\ntf.app.run(main)\n"
                     "def add(p):\n    p.add_argument('--c')\nif Y:\n    add(q)\n")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "add_argument"]
    said = conditional(tree, [FlagDef("x", "--x", "argparse", None, None, True, c, None) for c in calls])
    assert {c.args[0].value: said.get(id(c), 0) for c in calls} == {"--a": 0, "--b": 5, "--c": 11}


def test_a_single_dash_switch_given_a_value_is_not_said_to_stop_a_parser_first_stop_does_not_read(capsys, tmp_path):
    # `-x=a b` for a store_true -x, with -a an option: python 3.9.18-3.12.1 read -x, then -a given ' b' (they run);
    # 3.13.0 exits with status 2 (as test_a_single_dash_switch_given_a_value_depends_on_the_python_release)
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"').replace(
        '    parser.add_argument("--n"', '    parser.add_argument("-x", action="store_true")\n'
        '    parser.add_argument("-a", "--alpha")\n    parser.add_argument("--n"')
    assert not any("stops the script" in line for line in _answer(capsys, tmp_path, "--prof", "-x=a b", text=text))


@pytest.mark.parametrize("words", [["--n", "5", "--prof", "--n", "x"], ["--n", "x", "--prof", "--n", "5"]])
def test_an_option_given_twice_is_converted_at_each_word(capsys, tmp_path, words):
    # a positional (first_stop does not read the parser): python 3.9.18-3.13.0 convert each value of --n where it
    # comes and exit with status 2 at `x`; the answer was "yes" (the flag's own stop read at one of its words alone)
    assert _ran(words, None, [[["size"], {"nargs": "?"}]]) == [
        2, "train.py: error: argument --n: invalid int value: 'x'"]
    text = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"')
    assert _answer(capsys, tmp_path, *words, text=text) == _off(
        "argparse stops the script in parse_args: int(), the type of --n (train.py:21), raises ValueError on --n x "
        "from run.sh:1, so argparse exits with status 2")


def test_an_option_added_under_an_if_given_a_value_it_takes_is_known_only_where_it_is_added(capsys, tmp_path):
    # python 3.9.18-3.13.0 run the script where the `if` adds --n, and exit with status 2 ("unrecognized arguments:
    # --n 5") where it does not: the answer was "yes"
    assert _ran(["--prof", "--n", "5"], None, [[["--n"], {"type": "int"}]]) == ["runs"]
    assert _ran(["--prof", "--n", "5"], None) == [2, "train.py: error: unrecognized arguments: --n 5"]
    why = ("whether it runs in this launch is not known: the statement on line 22 adds --n only where its test holds, "
           "which is not decided here; where it does not, argparse stops the script in parse_args: --n from run.sh:1 "
           "is no option of the parser train.py parses, so argparse exits with status 2 (\"error: unrecognized "
           "arguments\", naming --n)")
    steps = f"line 9, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _answer(capsys, tmp_path, "--prof", "--n", "5", text=UNDER_IF) == [
        f"train.py: torch_npu's profiler: unknown: {steps}; but {why}",
        f"usable data: unknown (run.sh:1: {steps.replace('line 9', 'line 9 of train.py')}; but "
        f"{why.replace('line 22 adds', 'line 22 of train.py adds')})"]


PLUS = TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="+")').replace('add_argument("--',
                                                                                   'add_argument("++')


@pytest.mark.parametrize("words, why", [
    (["++prof"], None),
    (["++prof", "++n", "x"], "++n x from run.sh:1 is not what ++n takes, so argparse exits with status 2 (\"error: "
                             "argument ++n: invalid int value: 'x'\")"),
    (["++m", "++prof"], "++m from run.sh:1 takes a value and is given none, so argparse exits with status 2 "
                        "(\"error: argument ++m: expected one argument\")"),
    (["++prof", "--n"], "--n from run.sh:1 begins with none of the prefix characters of train.py's parser "
                        "(prefix_chars='+'), so argparse reads it as a positional argument, which train.py does not "
                        "take (it defines none), so argparse exits with status 2 (\"error: unrecognized arguments\", "
                        "naming --n)"),
    (["+h", "--n"], "+h from run.sh:1 asks for its help, so argparse prints it and exits with status 0"),
])
def test_a_parser_of_another_prefix_character_reads_its_own_option_words(capsys, tmp_path, words, why):
    # prefix_chars="+": python 3.9.18-3.13.0 read ++prof as the option (dest prof), and stop where its `++` words
    # are refused as they stop on `--` words; the answer was "yes (where its conditions hold)" for each
    ran = _ran(words, {"prefix_chars": "+"})
    assert ran == ["runs"] if why is None else ran[0] in (0, 2)
    said = _answer(capsys, tmp_path, *words, text=PLUS)
    assert said == (["train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)",
                     "usable data: yes"] if why is None else _off("argparse stops the script in parse_args: " + why))


@pytest.mark.parametrize("words, text", [
    (["++pro"], PLUS),                  # an abbreviation of ++prof (python 3.9.18-3.13.0 run the script)
    (["++prof"], PLUS.replace('"++size", nargs=2', '"size", nargs="?"')),      # a positional
    (["++prof"], PLUS.replace('    parser.add_argument("++n"', '    if len(__file__) > 3:\n'
                              '        parser.add_argument("++n"')),          # an option added under an `if`
])
def test_a_parser_of_another_prefix_character_not_followed_is_not_known(capsys, tmp_path, words, text):
    # bind and first_stop read `-` words (their abbreviations, ...): with ++prof read as prof (this session) `++pro`
    # said "no" (++prof not given), though python runs the script with prof set
    assert _ran(["++pro"], {"prefix_chars": "+"}) == ["runs"]
    why = ("whether it runs in this launch is not known: train.py's parser reads options that begin with '+' "
           "(prefix_chars=), and how argparse reads the words from run.sh:1 for it is not followed here")
    steps = f"line 8, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _answer(capsys, tmp_path, *words, text=text) == [
        f"train.py: torch_npu's profiler: unknown: {steps}; but {why}",
        f"usable data: unknown (run.sh:1: {steps.replace('line 8', 'line 8 of train.py')}; but {why})"]


def _launched(capsys, tmp_path, launcher):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text(launcher)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    return capsys.readouterr().out.splitlines()[-1]


@pytest.mark.parametrize("launcher, shown, line", [
    ("python3 train.py --prof $(hostname)\n", "$(hostname)", 1),
    ("python3 train.py --prof `hostname`\n", "`hostname`", 1),
    ("X=$(hostname)\npython3 train.py --prof $X\n", "$X", 2),
])
def test_a_word_the_launcher_computes_where_an_option_is_read_is_not_known(capsys, tmp_path, launcher, shown, line):
    # python 3.9.18-3.13.0 exit with status 2 on a word no option reads (`--prof x`), and run the script where there
    # is none (an unquoted expansion of nothing) or it is an option: a command's output is not the caller's to
    # choose, so not known. The answer was "yes".
    plain = {json.dumps(c["words"]): c["runs"]["3.13.0"] for c in _record() if not c["options"] and "parser" not in c}
    assert plain['["--prof", "x"]'] == [2, "train.py: error: unrecognized arguments: x"]
    assert plain['["--prof"]'] == ["runs"]
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _launched(capsys, tmp_path, launcher) == (
        f"usable data: unknown (run.sh:{line}: {steps}; but whether it runs in this launch is not known: {shown} from "
        f"run.sh:{line} is what the launcher computes (not known here: not a word its caller gives), which argparse "
        "reads as train.py's options (or as no word, where it is empty and not quoted); where it is anything else, "
        "argparse stops the script in parse_args: train.py defines no positional argument, so argparse exits with "
        "status 2 (\"error: unrecognized arguments\"))")


def test_a_value_the_launcher_computes_for_an_option_that_converts_it_is_not_known(capsys, tmp_path):
    # --n is type=int: python 3.9.18-3.13.0 exit with status 2 where the output is no integer, or no word at all
    assert _ran(["--prof", "--n", "myhost"], None, [[["--n"], {"type": "int"}]])[0] == 2
    assert _ran(["--prof", "--n"], None, [[["--n"], {"type": "int"}]])[0] == 2
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _launched(capsys, tmp_path, "python3 train.py --prof --n $(cat n.txt)\n") == (
        f"usable data: unknown (run.sh:1: {steps}; but whether it runs in this launch is not known: $(cat n.txt) from "
        "run.sh:1 is what the launcher computes (not known here: not a word its caller gives), given to --n: where "
        "--n does not take it (its type= or choices=), or it is no word at all, argparse stops the script in "
        "parse_args (status 2))")
    # (not quoted, it may be several words too: test_a_computed_part_of_a_word_bash_may_split)
    assert _launched(capsys, tmp_path, "python3 train.py --prof --n=$(cat n.txt)\n") == (
        f"usable data: unknown (run.sh:1: {steps}; but whether it runs in this launch is not known: "
        "--n=$(cat n.txt) from run.sh:1 is what the launcher computes (not known here: not a word its caller gives), "
        "and not quoted: bash splits it at blanks, and argparse reads the words after its first as options or words "
        "no option reads, which may stop the script in parse_args or pass it options)")
    assert _launched(capsys, tmp_path, 'python3 train.py --prof --n="$(cat n.txt)"\n') == (
        f"usable data: unknown (run.sh:1: {steps}; but whether it runs in this launch is not known: the value of "
        '--n="$(cat n.txt)" from run.sh:1 is what the launcher computes (not known here: not a word its caller '
        "gives), given to --n: where --n does not take it (its type= or choices=), argparse stops the script in "
        "parse_args (status 2))")


@pytest.mark.parametrize("launcher, line", [
    ("for x in $(cat w.txt); do\n  python3 train.py --prof $x\ndone\n", 2),
    ("for x in `cat w.txt`; do python3 train.py --prof $x; done\n", 1),
    ("X=$(cat w.txt)\nfor x in a $X; do\n  python3 train.py --prof $x\ndone\n", 3),
    ("read x < w.txt\npython3 train.py --prof $x\n", 2),
    ("read -r -p 'words: ' x < w.txt\npython3 train.py --prof $x\n", 2),
    ("while read x; do\n  python3 train.py --prof $x\ndone < w.txt\n", 2),
    ("read < w.txt\npython3 train.py --prof $REPLY\n", 2),
])
def test_a_variable_a_loop_over_a_commands_output_or_read_sets_is_computed(capsys, tmp_path, launcher, line):
    # bash 5.2 gives $x each word of the output (w.txt: `x`, then python 3.9.18-3.13.0 exit with status 2, as for
    # `--prof x`), or the line `read` reads: not the caller's words, so not known. Each said "yes"
    shown = "$REPLY" if "REPLY" in launcher else "$x"
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    (tmp_path / "w.txt").write_text("x\n")     # (not there, bash starts nothing of `done < w.txt`: unknown why)
    assert _launched(capsys, tmp_path, launcher) == (
        f"usable data: unknown (run.sh:{line}: {steps}; but whether it runs in this launch is not known: {shown} from "
        f"run.sh:{line} is what the launcher computes (not known here: not a word its caller gives), which argparse "
        "reads as train.py's options (or as no word, where it is empty and not quoted); where it is anything else, "
        "argparse stops the script in parse_args: train.py defines no positional argument, so argparse exits with "
        "status 2 (\"error: unrecognized arguments\"))")


@pytest.mark.parametrize("launcher", ['python3 train.py --prof "$@"\n', "python3 train.py --prof $EXTRA\n",
                                      "X=$1\npython3 train.py --prof $X\n",
                                      'for x in $EXTRA; do\n  python3 train.py --prof $x\ndone\n',
                                      'echo a | read x\npython3 train.py --prof $x\n'])
def test_words_the_caller_gives_are_read_as_options_it_may_give(capsys, tmp_path, launcher):
    # the launcher's arguments (none typed here) and its environment are the caller's: read as the options it may
    # give, the answer for the words typed (as before)
    assert _launched(capsys, tmp_path, launcher) == "usable data: yes"


def test_a_negative_number_no_option_takes_stops_the_script(capsys, tmp_path):
    # `--prof -1`: argparse reads -1 as a positional (no option looks like a number), which train.py does not take
    # (python 3.9.18-3.13.0: "unrecognized arguments: -1", status 2); the answer was "yes" (-1 was left to the reading
    # of option words the script does not define, which does not name numbers)
    assert _ran(["--prof", "-1"]) == [2, "train.py: error: unrecognized arguments: -1"]
    assert _answer(capsys, tmp_path, "--prof", "-1") == _off(
        "argparse stops the script in parse_args: -1 from run.sh:1 is a value no option of train.py takes (it defines "
        "no positional argument), so argparse exits with status 2 (\"error: unrecognized arguments\", naming -1)")


@pytest.mark.parametrize("words, ran, why", [
    (["--pro", "x"], "unrecognized arguments: x",
     "x from run.sh:1 is a value no option of train.py takes (it defines no positional argument), so argparse exits "
     "with status 2 (\"error: unrecognized arguments\", naming x)"),
    (["--pro", "--si", "1"], "argument --size: expected 2 arguments",
     "--si 1 from run.sh:1 is not what --size takes, so argparse exits with status 2 (\"error: argument --size: "
     "expected 2 arguments\")"),
    (["--pro=1"], "argument --prof: ignored explicit argument '1'",
     "--prof (store_true) takes no value, and --pro=1 from run.sh:1 gives it one, so argparse exits with status 2"),
])
def test_a_word_that_begins_one_option_is_read_as_it(capsys, tmp_path, words, ran, why):
    # python 3.9.18-3.13.0 read `--pro` as --prof, the one option it begins (allow_abbrev): first_stop gave up there,
    # and the answer was "yes (where its conditions hold)"
    assert _ran(words, None, [[["--size"], {"nargs": 2}]] if len(words) > 1 else []) == [2, f"train.py: error: {ran}"]
    assert _answer(capsys, tmp_path, *words) == _off("argparse stops the script in parse_args: " + why)


@pytest.mark.parametrize("size, words, ran, why", [
    ('"size", nargs="?"', ["5", "--prof", "3", "--prof"], "unrecognized arguments: 3",
     "the words from run.sh:1 that no option reads (5, 3) are more than its positional arguments take (size: at most "
     "1), so argparse exits with status 2 (\"error: unrecognized arguments\")"),
    ('"size"', ["--prof"], "the following arguments are required: size",
     "the words from run.sh:1 that no option reads (none) are fewer than its positional arguments need (size: at "
     "least 1), so argparse exits with status 2 (\"error: the following arguments are required\")"),
    ('"size"', ["--prof", "5", "6"], "unrecognized arguments: 6",
     "the words from run.sh:1 that no option reads (5, 6) are more than its positional arguments take (size: at most "
     "1), so argparse exits with status 2 (\"error: unrecognized arguments\")"),
    ('"size"', ["--prof", "5"], None, None),
])
def test_words_no_option_reads_are_counted_against_the_positionals(capsys, tmp_path, size, words, ran, why):
    # first_stop does not read a parser with a positional; python 3.9.18-3.13.0 exit with status 2 where the words no
    # option reads are more than the positionals take (`5 --prof 3`: the first takes 5), or fewer than they need: the
    # answer was "yes"
    options = [[["size"], {"nargs": "?"}]] if "?" in size else [[["size"], {}]]
    assert _ran(words, None, options) == ([2, f"train.py: error: {ran}"] if ran else ["runs"])
    said = _answer(capsys, tmp_path, *words, text=TRAIN.replace('"--size", nargs=2', size))
    assert said == (_off("argparse stops the script in parse_args: " + why) if why else [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"])


def test_an_option_added_under_an_if_before_a_closing_double_dash_is_not_known(capsys, tmp_path):
    # with --n: python 3.9.18-3.13.0 exit on the closing `--` (3.12.7 and 3.13.1 read it anew); without: on `--n 3`
    # (status 2): the answer was "yes"
    assert _ran(["--n", "3", "--prof", "--"], None, [[["--n"], {"type": "int"}]]) == [
        2, "train.py: error: unrecognized arguments: --"]
    assert _ran(["--n", "3", "--prof", "--"], None)[1] == "train.py: error: unrecognized arguments: --n 3 --"
    said = _answer(capsys, tmp_path, "--n", "3", "--prof", "--", text=UNDER_IF)
    assert said[-1].startswith("usable data: unknown (") and said[-1].endswith(
        "whether the script runs depends on the python release (where the statement on line 22 of train.py adds --n; "
        "else --n from run.sh:1 is no option of the parser train.py parses, so argparse exits with status 2 (\"error: "
        "unrecognized arguments\", naming --n)))")


@pytest.mark.parametrize("words", [["--noprof"], ["--prof", "--noprof"]])
def test_an_option_of_another_flag_with_the_same_dest_is_not_that_flag_s(capsys, tmp_path, words):
    # `--noprof` (dest="prof", store_false) after `--prof` (store_true): python 3.9.18 and 3.13.0 run the script with
    # args.prof False (no profile); the word was read as --prof's own, and the answer was "yes", unhedged
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("--noprof", dest="prof", '
                         'action="store_false")\n    parser.add_argument("--size"')
    # (args.prof not known: the condition is said, as for a value not known)
    assert _answer(capsys, tmp_path, *words, text=text) == [
        "train.py: torch_npu's profiler collects (when args.prof) (emulate train.py for its steps and folders)",
        "usable data: yes (where its conditions hold)"]


@pytest.mark.parametrize("word, rest", [("-b0.9", "0.9"), ("-b.x", ".x"), ("-b/a", "/a")])
def test_a_switch_joined_to_characters_that_are_no_word_s_stops_the_script(capsys, tmp_path, word, rest):
    # as `-bx`, run (python 3.9.18, 3.10.13, 3.11.7, 3.12.1: "error: argument -b: ignored explicit argument '0.9'",
    # 3.13.0: "error: unrecognized arguments: -0.9", status 2 each): the word was not read as one (`-b0.9 --prof`
    # said "yes")
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("-b", action="store_true")\n'
                         '    parser.add_argument("--size"')
    why = (f"argparse stops the script in parse_args: {word} from run.sh:1 is -b (store_true) with {rest} after it, "
           f"and -{rest[0]} is no option train.py defines: python 3.9.18-3.12.1 exit with status 2 there (\"error: "
           f"argument -b: ignored explicit argument '{rest}'\"), and 3.13.0 sets -b and names -{rest} among the "
           "unrecognized arguments (status 2), unless what follows stops argparse first")
    assert _answer(capsys, tmp_path, word, "--prof", text=text) == _off(why)


@pytest.mark.parametrize("word, rest", [("-b-x", "-x"), ("-b-", "-"), ("-b--x", "--x")])
def test_a_switch_joined_to_a_dash_stops_the_script(capsys, tmp_path, word, rest):
    # python 3.9.18-3.13.0 each (tests/data/argparse_runs.json, parse_known_args too): "error: argument -b: ignored
    # explicit argument '-x'", status 2; `-b-x --prof` said "yes" (review20's strict xfail)
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("-b", action="store_true")\n'
                         '    parser.add_argument("--size"')
    why = (f"argparse stops the script in parse_args: {word} from run.sh:1 is -b (store_true) with {rest} after it, "
           f"which argparse gives -b as its value: -b takes none, so python 3.9.18-3.13.0 exit with status 2 "
           f"(\"error: argument -b: ignored explicit argument '{rest}'\")")
    assert _answer(capsys, tmp_path, word, "--prof", text=text) == _off(why)


@pytest.mark.parametrize("bound, said", [('M = ["a", "b"]\n', True), ('M = {"a", "b"}\n', True),
                                         ('M = ["a", "b"]\nM.append("c")\n', False)])
def test_choices_a_name_binds_to_a_list(capsys, tmp_path, bound, said):
    # `choices=M`, M = ["a", "b"] at the top: `--prof --m c` stops as the literal does (python 3.9.18-3.13.0:
    # "invalid choice", status 2); it said "yes". M changed by another statement is not read
    text = TRAIN.replace("import torch_npu\n", "import torch_npu\n\n" + bound).replace(
        'choices=["a", "b"]', "choices=M")
    why = ("argparse stops the script in parse_args: --m c from run.sh:1 is not what --m takes, so argparse exits with "
           "status 2 (\"error: argument --m: invalid choice: 'c'\")")
    out = _answer(capsys, tmp_path, "--prof", "--m", "c", text=text)
    line = text.splitlines().index("def train(args):") + 3
    assert (out == [o.replace("line 8", f"line {line}") for o in _off(why)]) is said


@pytest.mark.parametrize("bound, words, said", [
    ('M = ["a", "b"]\nM.append("c")\n', ["--prof", "--m", "c"], "--m c"),
    ('M = ["a", "b"]\nM.append("x")\n', ["--prof", "--m", "c"], "--m c"),
    ('def M():\n    return ["a", "b"]\n', ["--prof", "--m=c"], "--m=c"),
])
def test_a_value_checked_against_choices_not_read_is_not_known(capsys, tmp_path, bound, words, said):
    # python 3.9.18 and 3.13.0 run the first (c is appended) and exit with status 2 on the second ("invalid
    # choice"): each said "yes"
    text = TRAIN.replace("import torch_npu\n", "import torch_npu\n\n" + bound).replace(
        'choices=["a", "b"]', "choices=M()" if "def" in bound else "choices=M")
    line = text.splitlines().index('    parser.add_argument("--m", ' + text.split('parser.add_argument("--m", ')[1]
                                   .split("\n")[0]) + 1
    out = _answer(capsys, tmp_path, *words, text=text)
    assert out[-1].startswith("usable data: unknown (")
    assert out[-1].endswith(f"but whether it runs in this launch is not known: {said} from run.sh:1 is checked against "
                            f"the choices of --m ({'M()' if 'def' in bound else 'M'}, line {line} of train.py), which "
                            "are not read here: where they do not hold it, argparse stops the script in parse_args "
                            "(status 2, \"invalid choice\"))")


@pytest.mark.parametrize("bound", [
    'M = ["a", "b"]\nN = M\nN.append("c")\n', 'M = ["a", "b"]\nN = M\nN += ["c"]\n',
    'M = ["a", "b"]\nD = {"k": M}\nD["k"].append("c")\n', 'M = ["a", "b"]\nfor x in [M]:\n    x.append("c")\n',
    'M = ["a", "b"]\nf = lambda x=M: x.append("c")\nf()\n', 'M = ["a", "b"]\n(M if 1 else None).append("c")\n',
    'M = ["a", "b"]\nif (y := M):\n    y.append("c")\n', 'M = ["a", "b"]\nfrom helper import *\n',
    'M = ["a", "b"]\nimport sys\nsys.modules[__name__].M = ["a", "b", "c"]\n',
    'M = ["a", "b"]\nclass M:\n    pass\n'])
def test_choices_a_name_another_name_may_change_is_not_read(capsys, tmp_path, bound):
    # each changes M through another name (or rebinds it: a star import of helper.py's M = ["a", "b", "c"], a
    # class): python 3.13.0 runs `--prof --m c` (the class: ValueError, status 1): each said "no", "invalid choice"
    (tmp_path / "helper.py").write_text('M = ["a", "b", "c"]\n')
    text = TRAIN.replace("import torch_npu\n", "import torch_npu\n\n" + bound).replace(
        'choices=["a", "b"]', "choices=M")
    out = _answer(capsys, tmp_path, "--prof", "--m", "c", text=text)
    assert out[-1].startswith("usable data: unknown (") and "which are not read here" in out[-1]


def test_a_value_refused_elsewhere_stops_the_script_whatever_choices_not_read_say(capsys, tmp_path):
    text = TRAIN.replace("import torch_npu\n", 'import torch_npu\n\nM = ["a"]\nM.append("b")\n').replace(
        'choices=["a", "b"]', "choices=M")
    assert _answer(capsys, tmp_path, "--prof", "--m", "c", "--n", "x", text=text)[-1].startswith("usable data: no (")


def test_choices_a_range_of_whole_numbers(capsys, tmp_path):
    # python 3.9.18 and 3.13.0: "error: argument --n: invalid choice: 5 (choose from 1, 2, 3)", status 2; `--n 2` runs
    text = TRAIN.replace('"--n", type=int, default=1', '"--n", type=int, default=1, choices=range(1, 4)')
    why = ("argparse stops the script in parse_args: --n 5 from run.sh:1 is not what --n takes, so argparse exits with "
           "status 2 (\"error: argument --n: invalid choice: 5\")")
    assert _answer(capsys, tmp_path, "--prof", "--n", "5", text=text) == _off(why)
    assert _answer(capsys, tmp_path, "--prof", "--n", "2", text=text)[-1] == "usable data: yes"


@pytest.mark.parametrize("change, method", [
    (('"--size", nargs=2', '"size", nargs="?"'), "parse_args"),
    (("args = parser.parse_args()", "args = parser.parse_known_args()[0]"), "parse_known_args"),
    (("ArgumentParser()", "ArgumentParser(add_help=False)"), "parse_args"),
    (("ArgumentParser()", 'ArgumentParser(prefix_chars="-+")'), "parse_args"),
])
def test_a_word_the_launcher_computes_for_a_parser_first_stop_does_not_read(capsys, tmp_path, change, method):
    # `--prof $(cat w.txt)`: python 3.9.18 and 3.13.0 run the script where w.txt is empty, and stop it where it holds
    # --xyz (status 2; parse_known_args leaves it aside) or -h (status 0, with the help option): each said "yes"
    text = TRAIN.replace(*change)
    (tmp_path / "w.txt").write_text("--xyz\n" if method == "parse_args" else "-h\n")
    for words, status in (([], 0), (["--xyz"] if method == "parse_args" else ["-h"], 2 if method == "parse_args"
                                                                                 else 0)):
        assert _ran_script(tmp_path, text, ["--prof"] + words) == status
    (tmp_path / "run.sh").write_text("python3 train.py --prof $(cat w.txt)\n")
    (tmp_path / "train.py").write_text(text)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"usable data: unknown (run.sh:1: {steps}; but whether it runs in this launch is not known: $(cat w.txt) from "
        "run.sh:1 is what the launcher computes (not known here: not a word its caller gives), which argparse reads "
        "as an option or a positional argument: where it is an option train.py does not define, a word no "
        "positional argument takes, the help option or an option given no value it needs, argparse stops the script "
        f"in {method})")


def _ran_script(folder, text, words):
    """The status python 3.9.18 and 3.13.0 (alike) exit with, running the script's parser on the words."""
    parser = text.split('if __name__ == "__main__":\n')[1].split("    train(args)")[0]
    code = "import sys\nsys.argv = ['train.py'] + " + repr(words) + "\nimport argparse\n" + \
        "\n".join(line[4:] for line in parser.splitlines())
    ran = set()
    for version in ("3.9.18", "3.13.0"):
        python = f"/root/.pyenv/versions/{version}/bin/python3"
        if not os.path.exists(python):
            pytest.skip("no CPython 3.9.18/3.13.0 here")
        ran.add(subprocess.run([python, "-c", code], capture_output=True, cwd=folder).returncode)
    assert len(ran) == 1
    return ran.pop()


def test_a_value_the_launcher_computes_for_an_option_of_two_words_is_not_known(capsys, tmp_path):
    # --size takes 2 words: python 3.9.18 and 3.13.0 run `--prof --size 1 2` and exit with status 2 on
    # `--prof --size 1` ("expected 2 arguments"): an unquoted output may be either. It said "yes"
    assert _ran(["--prof", "--size", "1"], None, [[["--size"], {"nargs": 2}]])[0] == 2
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _launched(capsys, tmp_path, "python3 train.py --prof --size $(cat size.txt)\n") == (
        f"usable data: unknown (run.sh:1: {steps}; but whether it runs in this launch is not known: $(cat size.txt) "
        "from run.sh:1 is what the launcher computes (not known here: not a word its caller gives), given to --size: "
        "where --size does not take it (its nargs=2, type= or choices=), or it is no word at all, argparse stops the "
        "script in parse_args (status 2))")


@pytest.mark.parametrize("words, why", [
    (["--prof", "--xyz"], "argparse stops the script in parse_args: --xyz from run.sh:1 is no option train.py defines, "
                          "so argparse exits with status 2 (\"error: unrecognized arguments\", naming --xyz)"),
    (["--prof", "--m", "c"], "argparse stops the script in parse_args: --m c from run.sh:1 is not what --m takes, so "
                             "argparse exits with status 2 (\"error: argument --m: invalid choice: 'c'\")"),
    (["--prof", "-h"], HELP),
])
def test_a_parser_whose_prefix_chars_hold_a_dash_reads_dash_words_as_for_a_dash(capsys, tmp_path, words, why):
    # prefix_chars="-+": python 3.9.18 and 3.13.0 read `-` words as for "-" (help -h): each said "yes"
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="-+")')
    assert _ran_script(tmp_path, text, words) == (0 if "-h" in words else 2)
    assert _ran_script(tmp_path, text, ["--prof"]) == 0
    assert _answer(capsys, tmp_path, *words, text=text) == _off(why)


def test_a_word_of_another_prefix_character_is_not_followed(capsys, tmp_path):
    # `+x` is an option word for prefix_chars="-+" (python 3.9.18 and 3.13.0: "unrecognized arguments: +x", status 2)
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="-+")')
    assert _ran_script(tmp_path, text, ["--prof", "+x"]) == 2
    out = _answer(capsys, tmp_path, "--prof", "+x", text=text)
    assert out[-1].startswith("usable data: unknown (") and out[-1].endswith(
        "train.py's parser reads options that begin with '-+' (prefix_chars=), and how argparse reads the words from "
        "run.sh:1 for it is not followed here)")


@pytest.mark.parametrize("words, nargs, said", [
    (["--prof", "--", "x", "y"], "?", "(x, y) are more than its positional arguments take (size: at most 1), so "
                                      "argparse exits with status 2 (\"error: unrecognized arguments\")"),
    (["--prof", "x", "--", "y"], "?", "(x, y) are more than its positional arguments take (size: at most 1), so "
                                      "argparse exits with status 2 (\"error: unrecognized arguments\")"),
    (["--prof", "--"], None, "(none) are fewer than its positional arguments need (size: at least 1), so argparse "
                             "exits with status 2 (\"error: the following arguments are required\")"),
    (["--prof", "--", "--xyz"], "?", ""),
    (["--prof", "--", "-h"], "?", ""),
    (["--prof", "--", "x"], None, ""),
])
def test_the_words_after_a_dash_dash_are_the_positionals(capsys, tmp_path, words, nargs, said):
    # python 3.9.18-3.13.0 (argparse_runs.json): after one `--` every word is a positional's, the `--` none; the first
    # three said "yes"
    ran = _ran(words, None, [[["size"], {"nargs": nargs} if nargs else {}]])
    assert (ran == ["runs"]) is not said
    text = TRAIN.replace('"--size", nargs=2', f'"size", nargs="{nargs}"' if nargs else '"size"')
    out = _answer(capsys, tmp_path, *words, text=text)
    if said:
        assert out == _off(f"argparse stops the script in parse_args: the words from run.sh:1 that no option reads "
                           f"{said}")
    else:
        assert out[-1] == "usable data: yes"


@pytest.mark.parametrize("positional", [True, False])
@pytest.mark.parametrize("word", ["-h", "--help", "--he", "-hx"])
def test_a_parser_without_help_stops_on_a_help_word(capsys, tmp_path, positional, word):
    # add_help=False: python 3.9.18 and 3.13.0 exit with status 2 ("unrecognized arguments: -h"); it said "yes"
    text = TRAIN.replace("ArgumentParser()", "ArgumentParser(add_help=False)")
    if positional:
        text = text.replace('"--size", nargs=2', '"size", nargs="?"')
    assert _ran_script(tmp_path, text, ["--prof", word]) == 2
    assert _ran_script(tmp_path, text, ["--prof"]) == 0
    out = _answer(capsys, tmp_path, "--prof", word, text=text)
    assert out[-1].startswith(f"usable data: no (line 8 of train.py: not run in this launch: argparse stops the "
                              f"script in parse_args: {word} from run.sh:1 is no option train.py defines, so argparse "
                              f"exits with status 2 (\"error: unrecognized arguments\", naming {word})")


@pytest.mark.parametrize("extra, word", [('"--prof2", action="store_true"', "--pro"),
                                         ('"-b-y", action="store_true"', "-b-"),
                                         ('"-b-y", action="store_true"', "-b-y=1")])
def test_a_word_read_in_a_way_first_stop_does_not_follow_is_not_said_to_run(capsys, tmp_path, extra, word):
    # python 3.9.18, 3.10.13, 3.11.7, 3.12.1 and 3.13.0 exit with status 2 on each, before --prof ("ambiguous option:
    # --pro could match --prof, --prof2", "-b- could match -b, -b-y"; "argument -b-y: ignored explicit argument '1'"):
    # first_stop does not read them (None), and each said "yes"
    text = TRAIN.replace('    parser.add_argument("--size"', '    parser.add_argument("-b", action="store_true")\n'
                         f'    parser.add_argument({extra})\n    parser.add_argument("--size"')
    out = _answer(capsys, tmp_path, word, "--prof", text=text)
    assert out[-1].startswith("usable data: unknown (run.sh:1: line 8 of train.py, ")
    assert out[-1].endswith(f"; but whether it runs in this launch is not known: {word} from run.sh:1 is read by "
                            "argparse in a way not followed here (an abbreviation of two options, or a switch given "
                            "a value with `=`), where python 3.9-3.13.0 may stop the script in parse_args (status 2))")


POSITIONAL_B = TRAIN.replace('"--size", nargs=2', '"size", nargs="?"').replace(
    '    parser.add_argument("--n"',
    '    parser.add_argument("-b", action="store_true")\n    parser.add_argument("--n"')


@pytest.mark.parametrize("words", [["-bx", "--n", "--prof", "--n"], ["-bx", "--prof"], ["--prof", "-bx", "-h"]])
def test_a_switch_joined_to_no_option_stops_a_parser_with_a_positional(capsys, tmp_path, words):
    # python 3.9.18-3.12.1 exit with status 2 at -bx, 3.13.0 at a later word or on -x at the end (argparse_runs.json,
    # argp22's fuzz): each said "yes"
    options = [[["size"], {"nargs": "?"}], [["-b"], {"action": "store_true"}]]
    runs = [c["runs"] for c in _record() if c["words"] == words and c["options"][:2] == options][0]
    assert all(r[0] in (0, 2) for r in runs.values()) and runs["3.9.18"][0] == 2
    assert _ran_script(tmp_path, POSITIONAL_B, ["--prof"]) == 0
    why = ("argparse stops the script in parse_args: -bx from run.sh:1 is -b (store_true) with x after it, and -x is "
           "no option train.py defines: python 3.9.18-3.12.1 exit with status 2 there (\"error: argument -b: ignored "
           "explicit argument 'x'\"), and 3.13.0 sets -b and names -x among the unrecognized arguments (status 2), "
           "unless what follows stops argparse first")
    assert _answer(capsys, tmp_path, *words, text=POSITIONAL_B) == _off(why)


def _launched_text(capsys, tmp_path, text, line, output):
    (tmp_path / "train.py").write_text(text)
    (tmp_path / "run.sh").write_text(line)
    (tmp_path / "w.txt").write_text(output)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    return capsys.readouterr().out.splitlines()[-1]


def test_a_computed_value_an_option_may_refuse_for_a_parser_first_stop_does_not_read(capsys, tmp_path):
    # prefix_chars="-+", --n added under an `if`: `--m $(cat w.txt) 1 c c --prof`: python 3.9.18-3.13.0 exit with
    # status 2 where w.txt is empty (--m 1: "invalid choice") or `a` ("unrecognized arguments: 1 c c"): it said "yes"
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="-+")').replace(
        "import argparse\n", "import argparse\nimport os\n").replace(
        '    parser.add_argument("--n", type=int, default=1)\n',
        '    if os.environ.get("X"):\n        parser.add_argument("--n", type=int, default=1)\n')
    for words in (["--m", "1", "c", "c", "--prof"], ["--m", "a", "1", "c", "c", "--prof"]):
        assert _ran(words, {"prefix_chars": "-+"})[0] == 2
    # (whatever it holds: 1 c c are more words than an option takes, so "no" since argp23:
    # test_more_words_no_option_reads_after_a_computed_one_than_an_option_takes)
    assert _launched_text(capsys, tmp_path, text, "python3 train.py --m $(cat w.txt) 1 c c --prof\n", "a\n").startswith(
        "usable data: no (line 9 of train.py: not run in this launch: argparse stops the script in parse_args: "
        "whatever $(cat w.txt) from run.sh:1 is (what the launcher computes), the words 1 c c after it")


def test_a_computed_word_after_a_dash_dash_for_a_parser_without_help(capsys, tmp_path):
    # add_help=False: `--pro -- $x`: python 3.9.18-3.13.0 exit with status 2 ("unrecognized arguments: -- x", or
    # "--" where $x is empty; 3.12.7 and 3.13.1 drop a first `--`): it said "yes"
    text = TRAIN.replace("ArgumentParser()", "ArgumentParser(add_help=False)")
    for words in (["--pro", "--"], ["--pro", "--", "x"]):
        assert _ran(words, {"add_help": False})[0] == 2
        assert _ran_script(tmp_path, text, words) == 2
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _launched_text(capsys, tmp_path, text, "read x < w.txt\npython3 train.py --pro -- $x\n", "x\n") == (
        f"usable data: unknown (run.sh:2: {steps}; but whether it runs in this launch is not known: $x from run.sh:2 "
        "is what the launcher computes (not known here: not a word its caller gives), after --, which argparse reads "
        "as a positional argument: where it is a word no positional argument of train.py takes, argparse stops the "
        "script in parse_args (status 2); where it is no word, what the -- does depends on the python release)")


@pytest.mark.parametrize("word", ["-h", "--help"])
def test_a_parser_without_help_does_not_say_help_exits_first(capsys, tmp_path, word):
    # add_help=False: -h is a word like any other (python 3.9.18, 3.13.0: status 2), so no "unless argparse reads
    # -h ... as the help ... first"
    text = TRAIN.replace("ArgumentParser()", "ArgumentParser(add_help=False)")
    assert _ran_script(tmp_path, text, ["--prof", word]) == 2
    why = (f"argparse stops the script in parse_args: {word} from run.sh:1 is no option train.py defines, so argparse "
           f"exits with status 2 (\"error: unrecognized arguments\", naming {word})")
    assert _answer(capsys, tmp_path, "--prof", word, text=text) == _off(why)


@pytest.mark.parametrize("words", [["--n", "--prof", "--n"], ["--n", "--prof", "--n", "5"]])
def test_an_option_given_no_value_then_again_stops_a_parser_with_a_positional(capsys, tmp_path, words):
    # python 3.9.18-3.13.0 exit with status 2 at the first --n ("expected one argument"): it said "yes" (the value
    # given twice is not known to bind, so the caller did not say it)
    assert _ran(words, None, [[["--n"], {"type": "int"}]]) == [2, "train.py: error: argument --n: expected one argument"]
    why = ("argparse stops the script in parse_args: --n from run.sh:1 takes a value and is given none, so argparse "
           "exits with status 2 (\"error: argument --n: expected one argument\")")
    assert _answer(capsys, tmp_path, *words, text=POSITIONAL_B) == _off(why)


NAMED = TRAIN.replace('    parser.add_argument("--n"', '    parser.add_argument("--name")\n    parser.add_argument("--n"')


@pytest.mark.parametrize("launcher, shown, line, output", [
    ("python3 train.py --name $(cat w.txt) --prof\n", "$(cat w.txt)", 1, "\n"),
    ("python3 train.py --name $(cat w.txt) --prof\n", "$(cat w.txt)", 1, "a b\n"),
    ('python3 train.py --name "$(cat w.txt)" --prof\n', '"$(cat w.txt)"', 1, "-z\n"),
    ("X=$(cat w.txt)\npython3 train.py --name $X --prof\n", "$X", 2, "\n"),
])
def test_a_computed_value_of_a_plain_option_is_not_known(capsys, tmp_path, launcher, shown, line, output):
    # --name takes any word, but bash gives it none where w.txt is empty (`--name --prof`), several where it holds
    # blanks (`--name a b --prof`), and a quoted `-z` is an option word to argparse: python 3.9.18-3.13.0 exit with
    # status 2 on each (and run `--name a --prof`). It said "yes" (argp23)
    for words in (["--name", "--prof"], ["--name", "a", "b", "--prof"], ["--name", "-z", "--prof"]):
        assert _ran(words, None, [[["--name"], {}]])[0] == 2
    assert _ran(["--name", "a", "--prof"], None, [[["--name"], {}]]) == ["runs"]
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    assert _launched_text(capsys, tmp_path, NAMED, launcher, output) == (
        f"usable data: unknown (run.sh:{line}: {steps}; but whether it runs in this launch is not known: {shown} from "
        f"run.sh:{line} is what the launcher computes (not known here: not a word its caller gives), given to --name: "
        "where it is no word or several (bash splits an unquoted one at blanks) or one that begins with `-`, "
        "argparse reads the words otherwise, and may stop the script in parse_args (status 2))")


@pytest.mark.parametrize("launcher, text, shown", [
    ("python3 train.py --name=$(cat w.txt)\n", NAMED.replace("parser.parse_args()", "parser.parse_known_args()[0]"),
     "--name=$(cat w.txt)"),
    ("python3 train.py --prof --name=$(cat w.txt) x\n", NAMED, "--name=$(cat w.txt)"),
    ("python3 train.py --prof --name=v$(cat w.txt) x\n", NAMED, "--name=v$(cat w.txt)"),
])
def test_a_computed_part_of_a_word_bash_may_split(capsys, tmp_path, launcher, text, shown):
    # w.txt `a --prof`: bash passes `--name=a --prof` (python 3.9.18-3.13.0 profile, parse_known_args); `a --name`:
    # `--prof --name=a --name x` runs. It said "no" (--prof not given; x no option reads) (argp23)
    assert _ran(["--name=a", "--prof"], {"method": "parse_known_args"}) == ["runs"]
    assert _ran(["--prof", "--name=a", "--name", "x"], None, [[["--name"], {}]]) == ["runs"]
    steps = f"line 8 of train.py, when args.prof: steps 0-9 into {tmp_path}/prof"
    method = "parse_known_args" if "known" in text else "parse_args"
    out = _launched_text(capsys, tmp_path, text, launcher, "a --prof\n")
    assert out.startswith("usable data: unknown (")
    assert out.endswith(
        f"{shown} from run.sh:1 is what the launcher computes (not known here: not a word its caller gives), and not "
        "quoted: bash splits it at blanks, and argparse reads the words after its first as options or words no "
        f"option reads, which may stop the script in {method} or pass it options)")


@pytest.mark.parametrize("text, launcher, line, shown, words", [
    (TRAIN, "python3 train.py --prof $(cat w.txt) 1 c c\n", 1, "$(cat w.txt)", "1 c c"),
    (TRAIN.replace("ArgumentParser()", 'ArgumentParser(prefix_chars="-+")').replace(
        "import argparse\n", "import argparse\nimport os\n").replace(
        '    parser.add_argument("--n", type=int, default=1)\n',
        '    if os.environ.get("X"):\n        parser.add_argument("--n", type=int, default=1)\n'),
     "python3 train.py --m $(cat w.txt) 1 c c --prof\n", 1, "$(cat w.txt)", "1 c c"),
    (TRAIN, "read x < w.txt\npython3 train.py --prof $x x y z\n", 2, "$x", "x y z"),
])
def test_more_words_no_option_reads_after_a_computed_one_than_an_option_takes(capsys, tmp_path, text, launcher, line,
                                                                              shown, words):
    # whatever w.txt holds, at most 2 of the words after it are an option's (--size, nargs=2: the most an option
    # takes), and train.py takes no positional: python 3.9.18-3.13.0 exit with status 2 (`--m a --size 1 c c`:
    # "unrecognized arguments: c"; `--m a -- 1 c c`: the words after `--`), or 0 for a help word. It said unknown
    for case in (["--m", "a", "--size", "1", "c", "c", "--prof"], ["--m", "a", "--", "1", "c", "c", "--prof"]):
        assert _ran(case, {"prefix_chars": "-+"})[0] == 2
    why = (f"argparse stops the script in parse_args: whatever {shown} from run.sh:{line} is (what the launcher "
           f"computes), the words {words} after it are more than an option of train.py takes (at most 2: --size), and "
           "train.py defines no positional argument, so argparse exits with status 2 (\"error: unrecognized "
           "arguments\"), unless a help or version option there exits first (status 0)")
    out = _launched_text(capsys, tmp_path, text, launcher, "a --size\n")
    assert out == f"usable data: no (line {8 + ('import os' in text)} of train.py: not run in this launch: {why})"


@pytest.mark.parametrize("words, why", [
    (["5", "--pro", "3"], "argparse stops the script in parse_args: the words from run.sh:1 that no option reads (5, 3) "
                          "are more than its positional arguments take (size: at most 1), so argparse exits with status "
                          "2 (\"error: unrecognized arguments\")"),
    (["--pro", "--n", "--n", "a", "-1"], "argparse stops the script in parse_args: --n from run.sh:1 takes a value and "
                                         "is given none, so argparse exits with status 2 (\"error: argument --n: "
                                         "expected one argument\")"),
])
def test_an_abbreviation_for_a_parser_with_a_positional_is_the_option_it_begins(capsys, tmp_path, words, why):
    # --pro is --prof (allow_abbrev): python 3.9.18-3.13.0 exit with status 2 on the words after it; it said "yes"
    assert _ran(words)[0] == 2
    assert _answer(capsys, tmp_path, *words, text=POSITIONAL_B) == _off(why)


def test_words_after_a_computed_one_where_a_word_may_be_read_from_a_file(capsys, tmp_path):
    # fromfile_prefix_chars="@": `@a.txt` is replaced by the file's words (`--size` would take 1 c): not followed
    text = TRAIN.replace("ArgumentParser()", 'ArgumentParser(fromfile_prefix_chars="@")')
    out = _launched_text(capsys, tmp_path, text, "python3 train.py --prof $(cat w.txt) @a.txt 1 c\n", "\n")
    assert out.startswith("usable data: unknown (")


@pytest.mark.parametrize("options, words, positional", [
    ('    parser.add_argument("-p-x")\n', ["-p", "--prof"], False),
    ('    parser.add_argument("-p-x", action="store_true")\n', ["-p", "x", "--prof"], False),
    ('    parser.add_argument("-p-x", action="store_true")\n    parser.add_argument("-p-y")\n', ["-p", "--prof"], True),
    ('    parser.add_argument("-p", action="store_true")\n    parser.add_argument("-p-x")\n', ["-p-", "--prof"], True),
])
def test_a_single_dash_word_that_begins_an_option_is_not_said_to_run(capsys, tmp_path, options, words, positional):
    # python 3.9.18-3.13.0 read `-p` as -p-x (given no value: status 2; a switch, then x no option reads: status 2),
    # and exit with status 2 on `-p` or `-p-` that begins two options ("ambiguous option"), a positional or not:
    # each said "yes" (argp23's fuzz of the -p-x family)
    opts = [[["-p-x"], {}]] if "-p-y" not in options and "store_true" not in options else None
    assert _ran(words, None, opts or [])[0] == 2
    text = TRAIN.replace('    parser.add_argument("--n"', options + '    parser.add_argument("--n"')
    if positional:
        text = text.replace('"--size", nargs=2', '"size", nargs="?"')
    out = _answer(capsys, tmp_path, *words, text=text)
    assert out[-1].startswith("usable data: unknown (run.sh:1: line 8 of train.py, ")
    shown = "an abbreviation of two options, or a switch given a value with `=`" if positional else \
        "a single-dash word that begins an option, or is one with more after it"
    assert out[-1].endswith(f"; but whether it runs in this launch is not known: {words[0]} from run.sh:1 is read by "
                            f"argparse in a way not followed here ({shown}), where python 3.9-3.13.0 may stop the "
                            "script in parse_args (status 2))")


def test_a_choice_added_through_the_kept_action_is_not_refused(capsys, tmp_path):
    # review23: `m = parser.add_argument("--m", choices=["a", "b"])` then `m.choices.append("c")`: python 3.11.7 takes
    # `--prof --m c` (the Namespace has m='c') and profiles; it was said that argparse exits with status 2
    text = TRAIN.replace('    parser.add_argument("--m", choices=["a", "b"])\n',
                         '    m = parser.add_argument("--m", choices=["a", "b"])\n    m.choices.append("c")\n')
    assert _answer(capsys, tmp_path, "--prof", "--m", "c", text=text)[-1].startswith("usable data: unknown")
    # the definition a statement of its own: refused as before
    assert _answer(capsys, tmp_path, "--prof", "--m", "c")[-1].startswith("usable data: no (")


def test_a_choice_added_through_the_parsers_actions_is_not_refused(capsys, tmp_path):
    # review23: `for act in parser._actions: if act.dest == "m": act.choices.append("c")` after the definitions:
    # python 3.11.7 takes `--prof --m c` and profiles; it was said that argparse exits with status 2
    text = TRAIN.replace("    args = parser.parse_args()\n", "    for act in parser._actions:\n        if act.dest == "
                         '"m":\n            act.choices.append("c")\n    args = parser.parse_args()\n')
    assert _answer(capsys, tmp_path, "--prof", "--m", "c", text=text)[-1].startswith("usable data: unknown")
    # a call of a function named choices (`random.choices(x)`) reaches none: refused as before
    text = TRAIN.replace("import argparse\n", "import argparse\nimport random\n").replace(
        "    args = parser.parse_args()\n", "    random.choices([1, 2])\n    args = parser.parse_args()\n")
    assert _answer(capsys, tmp_path, "--prof", "--m", "c", text=text)[-1].startswith("usable data: no (")


def test_a_module_is_searched_for_its_actions_once(capsys, tmp_path, monkeypatch):
    # _discarded is asked for each option the launch gives a value with choices=: a script of 300 such options, all
    # given, walked its module 300 times (0.7 s to 16 s of `check`); now once, whatever the count
    from flake8_npuprof.values import argv_words
    made = []

    class Kept(weakref.WeakKeyDictionary):
        def __setitem__(self, key, value):
            made.append(key)
            super().__setitem__(key, value)

    monkeypatch.setattr(argv_words, "_action_scans", Kept())
    options = "".join(f'    parser.add_argument("--o{i}", choices=["a", "b"])\n' for i in range(30))
    text = TRAIN.replace('    parser.add_argument("--m", choices=["a", "b"])\n',
                         '    parser.add_argument("--m", choices=["a", "b"])\n' + options)
    words = [w for i in range(30) for w in (f"--o{i}", "b")]
    assert _answer(capsys, tmp_path, "--prof", *words, "--m", "c", text=text)[-1].startswith("usable data: no (")
    assert len(made) == len({id(t) for t in made}) >= 1


def test_a_modules_actions_are_kept_no_longer_than_its_tree():
    # the answers were kept by id with their trees, 8 at a time, outside the project cache's bound
    import ast
    import gc
    from flake8_npuprof.values import argv_words
    tree = ast.parse("import argparse\np = argparse.ArgumentParser()\np.add_argument('--m', choices=['a'])\n")
    assert argv_words._action_scan(tree) == (False, frozenset({(3, 0, 3, 36)}))
    held = weakref.ref(tree)
    del tree
    gc.collect()
    assert held() is None
