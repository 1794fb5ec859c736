"""How argparse reads a launch's words, held to the running Python's argparse (checks/launch_setup.py,
values/launch_args.py): a word that begins an option (allow_abbrev) may set it; `--prof=1` to a store_true stops the
script; a namespace whose attributes the script sets by computed names (vars(args).update(cfg)) holds what the launch
gave it no longer; and where the launch leaves a flag off, the words that switch a plain test on are said."""

import argparse
import ast

import pytest

from flake8_npuprof.cli import main

TRAIN = """\
import argparse
import ast

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
    parser.add_argument("--output", default="./prof")
    args = parser.parse_args()
    train(args)
"""
COND = ["train.py: torch_npu's profiler collects (when args.prof) (emulate train.py for its steps and folders)",
        "usable data: yes (where its conditions hold)"]


def _answer(capsys, tmp_path, text, *args):
    (tmp_path / "train.py").write_text(text)
    (tmp_path / "run.sh").write_text('python3 train.py "$@"\n')
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--",
          "bash", "run.sh"] + list(args))
    return capsys.readouterr().out.splitlines()[2:]


def _parser(*add):
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof", action="store_true")
    parser.add_argument("--output", default="./prof")
    for a in add:
        parser.add_argument(a, action="store_true")
    return parser


def test_a_word_that_begins_the_option_leaves_the_flag_unknown(capsys, tmp_path):
    # python's argparse sets --prof for `--pro`, `--p` (the one option they begin); the answer was "no"
    for word in ("--pro", "--p"):
        assert _parser().parse_args([word]).prof is True
        assert _answer(capsys, tmp_path, TRAIN, word) == COND
    # ... and stops the script where it begins two (`--pro` with --profiling too): which, is left open here
    with pytest.raises(SystemExit):
        _parser("--profiling").parse_args(["--pro"])
    # a word that begins another option only decides nothing of --prof
    assert _parser().parse_args(["--out", "x"]).prof is False
    assert _answer(capsys, tmp_path, TRAIN, "--out", "x")[-1].startswith("usable data: no (")


def test_a_value_given_to_a_store_true_stops_the_script(capsys, tmp_path):
    # argparse: "argument --prof: ignored explicit argument '1'", status 2, for parse_known_args too; it was "yes"
    for method in ("parse_args", "parse_known_args"):
        with pytest.raises(SystemExit) as stop:
            getattr(_parser(), method)(["--prof=1"])
        assert stop.value.code == 2
    why = ("line 9: not run in this launch: argparse stops the script in parse_args: --prof (store_true) takes no "
           "value, and --prof=1 from run.sh:1 gives it one, so argparse exits with status 2")
    assert _answer(capsys, tmp_path, TRAIN, "--prof=1") == [
        f"train.py: torch_npu's profiler is off: {why}",
        f"usable data: no ({why.replace('line 9', 'line 9 of train.py')})"]
    # where parse_args is in a try that may catch SystemExit, the script may go on: not decided
    caught = TRAIN.replace("    args = parser.parse_args()\n",
                           "    try:\n        args = parser.parse_args()\n    except SystemExit:\n        pass\n")
    assert _answer(capsys, tmp_path, caught, "--prof=1") == COND


def test_a_value_given_to_an_abbreviated_store_true_stops_the_script(capsys, tmp_path):
    # `--pr=1` (review17): python exits with status 2 (a value to --prof, or ambiguous where it begins --profile too),
    # parse_known_args too; it was "yes (where its conditions hold)"
    for parser in (_parser(), _parser("--profile")):
        for method in ("parse_args", "parse_known_args"):
            with pytest.raises(SystemExit) as stop:
                getattr(parser, method)(["--pr=1"])
            assert stop.value.code == 2
    # (the script's parser is read whole: first_stop reads --pr=1 as --prof, the one option it begins (s63))
    why = ("line 9: not run in this launch: argparse stops the script in parse_args: --prof (store_true) takes no "
           "value, and --pr=1 from run.sh:1 gives it one, so argparse exits with status 2")
    assert _answer(capsys, tmp_path, TRAIN, "--pr=1") == [
        f"train.py: torch_npu's profiler is off: {why}",
        f"usable data: no ({why.replace('line 9', 'line 9 of train.py')})"]
    # without a value it may set --prof: left open
    assert _answer(capsys, tmp_path, TRAIN, "--pr") == COND


@pytest.mark.parametrize("rewrite", [
    "vars(args).update(prof=True)",
    "vars(args)['prof'] = True",
    "args.__dict__.update({'prof': True})",
    "for k in ['prof']:\n        setattr(args, k, True)",
    "d = vars(args)\n    d['prof'] = True",
])
def test_a_namespace_the_script_rewrites_is_not_the_launchs(capsys, tmp_path, rewrite):
    # each sets args.prof to True whatever the launch passes (python 3.11); the answer was "no" without --prof
    ns = _parser().parse_args([])
    exec(rewrite.replace("\n    ", "\n"), {"args": ns})
    assert ns.prof is True
    text = TRAIN.replace("    train(args)\n", f"    {rewrite}\n    train(args)\n")
    assert _answer(capsys, tmp_path, text) == COND


def test_a_namespace_the_script_only_reads_is_the_launchs(capsys, tmp_path):
    text = TRAIN.replace("    train(args)\n", "    print(vars(args), args.__dict__.items())\n"
                                                "    for k in vars(args):\n        print(k)\n    train(args)\n")
    assert _answer(capsys, tmp_path, text)[-1] == (
        "usable data: no (line 9 of train.py: not run in this launch: `args.prof` is false in this launch (the default "
        "of --prof, which the launcher does not pass; --prof would switch it on))")


@pytest.mark.parametrize("definition, words", [
    ('"--prof", action="store_true"', "--prof"),
    ('"--prof", default=False', "--prof True"),                 # a str: any word but "" is true
    ('"--prof", type=str, default=""', "--prof True"),
    ('"--prof", type=bool, default=False', "--prof True"),     # bool("True")
    ('"--prof", type=ast.literal_eval, default=False', "--prof True"),
    ('"--prof", type=int, default=0', "--prof 1"),
    ('"--prof", type=float, default=0.0', "--prof 1"),
    ('"-p", "--prof", type=int, default=0', "--prof 1"),     # (the long option, as the user types it)
    # what argparse then makes of a word is not shown here: nothing is said
    ('"--prof", choices=["", "on"], default=""', ""),
    ('"--prof", type=lambda s: s == "on", default=False', ""),
    ('"--prof", action="store_const", const=True, default=False', ""),
    ('"--prof", nargs="?", const=True, default=False', ""),
    ('"--prof", type=str2bool, default=False', ""),            # (a type function of the project)
])
def test_the_words_that_switch_a_plain_test_on_are_said(capsys, tmp_path, definition, words):
    text = TRAIN.replace('"--prof", action="store_true"', definition)
    text = text.replace("\n\ndef train", "\n\ndef str2bool(s):\n    return s.lower() == 'true'\n\n\ndef train")
    said = f"; {words} would switch it on" if words else ""
    assert _answer(capsys, tmp_path, text)[-1] == (
        f"usable data: no (line 13 of train.py: not run in this launch: `args.prof` is false in this launch (the "
        f"default of --prof, which the launcher does not pass{said}))")
    if words:           # what python's argparse makes of them: true
        parser = argparse.ArgumentParser()
        exec(f"parser.add_argument({definition})", {"parser": parser, "ast": ast})
        assert parser.parse_args(words.split()).prof


@pytest.mark.parametrize("defaults", [
    'parser.set_defaults(prof=True)',               # after the option: its default is replaced
    'parser.set_defaults(**{"prof": True})',
])
def test_a_default_set_by_set_defaults_is_not_the_option_s(capsys, tmp_path, defaults):
    # python 3.11: set_defaults after add_argument replaces the action's default, so args.prof is True without
    # --prof (the answer was "off ... --prof would switch it on"); what it sets is left undecided here
    parser = _parser()
    exec(defaults, {"parser": parser})
    assert parser.parse_args([]).prof is True
    text = TRAIN.replace("    args = parser.parse_args()\n", f"    {defaults}\n    args = parser.parse_args()\n")
    assert _answer(capsys, tmp_path, text) == COND
    # one that names another dest leaves --prof's default as it was
    other = TRAIN.replace("    args = parser.parse_args()\n", "    parser.set_defaults(func=print)\n"
                                                              "    args = parser.parse_args()\n")
    assert _answer(capsys, tmp_path, other)[-1].startswith("usable data: no (line 9 of train.py")


def _python(text, words):
    """What python's own argparse does with the words, the script's parser made as it makes it: the namespace, or
    ("exits", status, the last line of its message), or ("raises", the exception's class name)."""
    import contextlib
    import io
    made = {}
    head = text.split("    args = parser.parse")[0].split('if __name__ == "__main__":\n')[1]
    exec("import argparse\n" + head.replace("\n    ", "\n").strip(), {}, made)
    made["parser"].prog = "train.py"          # (as `python3 train.py` names it)
    err = io.StringIO()
    method = "parse_known_args" if "parse_known_args" in text else "parse_args"
    try:
        with contextlib.redirect_stderr(err):
            out = getattr(made["parser"], method)(words)
        return out[0] if method == "parse_known_args" else out
    except SystemExit as e:
        return ("exits", e.code, err.getvalue().strip().splitlines()[-1])
    except argparse.ArgumentError:
        return ("raises", "ArgumentError")


def _stops(word, note=""):
    why = (f"line 9: not run in this launch: argparse stops the script in parse_args: {word} from run.sh:1 is no "
           f"option train.py defines{note}, so argparse exits with status 2 (\"error: unrecognized arguments\", naming "
           f"{word})")
    return [f"train.py: torch_npu's profiler is off: {why}",
            f"usable data: no ({why.replace('line 9', 'line 9 of train.py')})"]


DEFAULT = ("usable data: no (line 9 of train.py: not run in this launch: `args.prof` is false in this launch (the "
           "default of --prof, which the launcher does not pass; --prof would switch it on))")


def test_an_option_the_script_does_not_define_stops_it_in_parse_args(capsys, tmp_path):
    # python exits with status 2 ("unrecognized arguments"): the answer said "no" for the flag's default
    for word in ("--xyz", "--xyz=1", "-prof"):           # (a single dash is no abbreviation of --prof)
        assert _python(TRAIN, [word]) == ("exits", 2, f"train.py: error: unrecognized arguments: {word}")
        assert _answer(capsys, tmp_path, TRAIN, word) == _stops(word)
    # the flags it reads first are still read: the stop is said for --prof too (it was "yes")
    assert _python(TRAIN, ["--prof", "--xyz"])[:2] == ("exits", 2)
    assert _answer(capsys, tmp_path, TRAIN, "--prof", "--xyz") == _stops("--xyz")
    # parse_known_args leaves the word aside: the default holds
    known = TRAIN.replace("parser.parse_args()", "parser.parse_known_args()[0]")
    assert _python(known, ["--xyz"]).prof is False
    assert _answer(capsys, tmp_path, known, "--xyz")[-1] == DEFAULT


def test_an_option_the_script_does_not_define_is_not_said_to_stop_it_where_more_may_read_it(capsys, tmp_path):
    # a try that may catch SystemExit, a parser handed to another module's function: not said
    caught = TRAIN.replace("    args = parser.parse_args()\n",
                           "    try:\n        args = parser.parse_args()\n    except SystemExit:\n        raise\n")
    assert _answer(capsys, tmp_path, caught, "--xyz")[-1] == DEFAULT
    handed = TRAIN.replace("    args = parser.parse_args()\n",
                           "    ds.add_config_arguments(parser)\n    args = parser.parse_args()\n")
    assert _answer(capsys, tmp_path, handed, "--xyz")[-1] == DEFAULT
    # a parser of another class (HfArgumentParser adds options), one made elsewhere, an option taking any word after
    # it (REMAINDER: `--xyz` is its value): not said either
    for old, new in (("argparse.ArgumentParser()", "HfArgumentParser()"),
                     ("parser = argparse.ArgumentParser()", "parser = make_parser()")):
        assert _answer(capsys, tmp_path, TRAIN.replace(old, new), "--xyz")[-1] == DEFAULT, new
    rest = TRAIN.replace('"--output", default="./prof"', '"--rest", nargs=argparse.REMAINDER')
    assert _python(rest, ["--rest", "--xyz"]).rest == ["--xyz"]
    assert _answer(capsys, tmp_path, rest, "--rest", "--xyz")[-1] == DEFAULT


@pytest.mark.parametrize("edit", ["argv = sys.argv\n    argv.remove('--xyz')",
                                  "from sys import argv\n    argv.remove('--xyz')"])
def test_argv_edited_through_another_name_is_not_said_to_stop(capsys, tmp_path, edit):
    # python runs the script with --prof set (the word is gone before parse_args); the answer said "stops"
    text = TRAIN.replace("    args = parser.parse_args()\n",
                         f"    import sys\n    {edit}\n    args = parser.parse_args()\n")
    assert _answer(capsys, tmp_path, text, "--prof", "--xyz")[-1] == "usable data: yes"


def test_allow_abbrev_false_takes_no_abbreviation(capsys, tmp_path):
    # python exits with status 2 on `--pro`; the answer was "collects (when args.prof)"
    text = TRAIN.replace("ArgumentParser()", "ArgumentParser(allow_abbrev=False)")
    assert _python(text, ["--pro"]) == ("exits", 2, "train.py: error: unrecognized arguments: --pro")
    note = " (its parser takes no abbreviation: allow_abbrev=False)"
    assert _answer(capsys, tmp_path, text, "--pro") == _stops("--pro", note)
    # exit_on_error=False: python 3.9 to 3.12 exit all the same (3.12.1 run), 3.13 raises ArgumentError
    text = TRAIN.replace("ArgumentParser()", "ArgumentParser(allow_abbrev=False, exit_on_error=False)")
    assert _python(text, ["--pro"]) in (("exits", 2, "train.py: error: unrecognized arguments: --pro"),
                                        ("raises", "ArgumentError"))
    then = ("; python 3.13 raises argparse.ArgumentError there instead (exit_on_error=False, line 19), which stops "
            "it too")
    off, usable = _stops("--pro", note)
    assert _answer(capsys, tmp_path, text, "--pro") == [
        off + then, usable[:-1] + then.replace("line 19", "line 19 of train.py") + ")"]
    # with parse_known_args the word is left aside: the default holds (it was "collects")
    known = text.replace("parser.parse_args()", "parser.parse_known_args()[0]")
    assert _python(known, ["--pro"]).prof is False
    assert _answer(capsys, tmp_path, known, "--pro")[-1] == DEFAULT


def test_a_single_dash_word_is_matched_to_the_options_it_begins(capsys, tmp_path):
    # `-pro` sets -prof, with allow_abbrev=False too (python 3.9 to 3.13): the answer was "no" (its default)
    for parser in ("ArgumentParser()", "ArgumentParser(allow_abbrev=False)"):
        text = TRAIN.replace('"--prof"', '"-prof"').replace("ArgumentParser()", parser)
        assert _python(text, ["-pro"]).prof is True
        assert _answer(capsys, tmp_path, text, "-pro") == COND
    # `--prof` is no option of a parser that defines `-prof`: python exits with status 2
    text = TRAIN.replace('"--prof"', '"-prof"')
    assert _python(text, ["--prof"]) == ("exits", 2, "train.py: error: unrecognized arguments: --prof")
    assert _answer(capsys, tmp_path, text, "--prof")[-1] == _stops("--prof")[1]
    # `-prof` is `-p` with `rof` attached where the parser defines -p: it may set it (not --prof)
    text = TRAIN.replace('parser.add_argument("--output"', 'parser.add_argument("-p", "--output"')
    assert _python(text, ["-prof"]).output == "rof"
    assert _answer(capsys, tmp_path, text, "-prof")[-1] == DEFAULT


@pytest.mark.parametrize("options, abbrev", [
    (("--prof", "--output"), True), (("--prof", "--output"), False), (("-prof", "--output"), False),
    (("-prof", "-profile"), True), (("-p", "--prof"), True), (("--prof", "--profile"), True),
])
def test_the_words_argparse_may_read_as_an_option_are_python_s(options, abbrev):
    # values/argv_words: read_as names the options python 3.11 may set for a word the parser does not define
    # exactly, and unrecognized says the others stop parse_args (unrecognized arguments)
    from flake8_npuprof.values.argv_words import read_as, unrecognized
    from flake8_npuprof.values.flag_def import FlagDef
    call = ast.Call(ast.Name("add_argument"), [], [])     # (a bare ast.Call() is deprecated from python 3.13)
    table = {o: FlagDef(o.lstrip("-"), o, "argparse", None, None, True, call, None) for o in options}
    for word in ("--pro", "--prof=1", "--pr", "-pro", "-prof", "-profi", "-p", "-pro=1", "--xyz", "-x", "--o"):
        if word.partition("=")[0] in table:
            continue                    # (bound as the option itself: checks/launch_setup.bind)
        parser = argparse.ArgumentParser(allow_abbrev=abbrev)
        for o in options:
            parser.add_argument(o)
        said = read_as(word, table, lambda flag: abbrev)
        try:
            ns, rest = parser.parse_known_args([word, "v"] if "=" not in word else [word])
        except SystemExit:              # ambiguous, or a value missing: more than one option matched, or one did
            assert said, word
            continue
        set_ = {o for o in options if getattr(ns, o.lstrip("-")) is not None}
        assert {f.option for f in said} == set_, word
        assert said or unrecognized(word) == (word in rest), word
