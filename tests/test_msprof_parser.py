"""knowledge/msprof_parser.py: msprof's own reading of its command line, step by step (the record in
tests/oracle/ holds every recorded line to it; these tests name the steps one by one)."""

import os

import pytest

from flake8_npuprof.knowledge import msprof_parser as P

HOLE = "\ue000"


def first(words, version, product="910B", machine=P.UNKNOWN_MACHINE):
    """The first step that ends the run, as (action, kind, line)."""
    step = next((s for s in P.steps(words, version, product, machine) if s.action in (P.REJECT, P.CRASH, P.HELP)),
                None)
    return None if step is None else (step.action, step.kind, step.line)


@pytest.mark.parametrize("version,words,expected", [
    # 8.5 and 9.0 take the word after a value-less --name along, whatever it is; 9.1 not when it starts with "-"
    ("9.0", ["--ascendcl", "--task-time", "python3", "t.py"], (2, 2)),
    ("9.1", ["--ascendcl", "--task-time", "python3", "t.py"], (3, 3)),
    ("9.1", ["--ascendcl"], (1, 1)),
    ("9.0", ["--ascendcl"], (2, 1)),           # counted past the last word
    ("9.1", ["--output=/o", "python3", "--x"], (1, 1)),
    ("9.1", ["-o"], (0, 0)),                   # a single dash begins the application
])
def test_which_words_are_msprofs(version, words, expected):
    assert P.split(words, version) == expected


def test_getopt_takes_exact_names_and_unique_prefixes():
    got, past_end = P.getopt(["--app=/bin/true", "--aic-metric=Memory", "--exp=on"], 3, "9.1")
    assert [(g.opt.name, g.arg) for g in got] == [("application", "/bin/true"), ("aic-metrics", "Memory"),
                                                  ("export ", "on")]       # the table's own "export "
    assert not past_end
    [ambiguous] = P.getopt(["--task"], 1, "9.1")[0]
    assert ambiguous.kind == "ambiguous" and ambiguous.line == (
        "msprof: option '--task' is ambiguous; possibilities: '--task-time' '--task-memory' '--task-block'")
    [got] = P.getopt(["--task"], 1, "8.5")[0]          # no --task-block in 8.5: still two
    assert got.line.endswith("'--task-time' '--task-memory'")
    [got] = P.getopt(["--help=x"], 1, "9.1")[0]
    assert (got.kind, got.line) == ("no_argument", "msprof: option '--help' doesn't allow an argument")
    assert P.getopt(["--ascendcl"], 2, "9.0")[1] is True                 # reads argv[argc], a null pointer


@pytest.mark.parametrize("version,product,words,expected", [
    ("9.1", "910B", ["--host-sys=cpu,numa"], None),
    ("9.0", "910B", ["--host-sys=cpu,numa"], (P.REJECT, "value", "[ERROR] Argument --host-sys: invalid value:numa. "
                                              "Please input in the range of 'cpu|mem|disk|network|osrt'")),
    ("9.1", "310", ["--llc-profiling=capacity"], None),
    ("9.1", "310", ["--llc-profiling=read"], (P.REJECT, "value", "[ERROR] Argument --llc-profiling: invalid value: "
                                              "read. Please input in the range of 'capacity|bandwidth'")),
    ("9.0", "910B", ["--task-time=l3"], (P.REJECT, "value", "[ERROR] Argument --task-time: invalid value: l3. "
                                         "Please input 'on', 'off', 'l0', 'l1' or 'l2'.")),
    ("9.1", "910B", ["--task-time=l3"], None),
    ("9.1", "910", ["--task-time=l3"], (P.REJECT, "l3", "[ERROR] l3 is not supported on this platform.")),
    ("9.1", "910B", ["--sys-lp=on"], (P.REJECT, "chip", "msprof: unrecognized option '--sys-lp=on'")),
    ("9.1", "910B", ["--task-block=on"], (P.REJECT, "unsupported", "[ERROR] Argument --task-block is not supported")),
    ("9.0", "310B", ["--task-block=on"], (P.REJECT, "value", "[ERROR] Argument --task-block: invalid value: on. ")),
    ("9.0", "950", ["--scale"], (P.CRASH, "null_string", P.NULL_STRING[0])),
    ("9.0", "950", ["--pid"], (P.CRASH, "null_assign", "")),
    ("9.0", "910B", ["--output"], (P.CRASH, "past_end", "")),
    ("9.1", "910B", ["--output"], (P.REJECT, "none", "[ERROR] Argument --output: expected one argument")),
    ("9.1", "910B", ["--output=/o/a;b"], (P.REJECT, "output", "[ERROR] Argument --output /o/a;b contains invalid "
                                          "character.")),
    ("8.5", "910B", ["--output=/o/a;b"], None),
    ("9.1", "910B", ["--aic-metrics=Custom:" + ",".join(["0x1"] * 9)], (P.REJECT, "metrics", None)),
    ("9.1", "950", ["--aic-metrics=Custom:" + ",".join(["0x1"] * 9)], None),      # ten PMU monitors
    ("9.1", "910B", ["--mstx-domain-include=x"], (P.REJECT, "mstx", "[ERROR] Argument --mstx-domain-include/"
                                                  "--mstx-domain-exclude must be used with --msproftx=on.")),
    ("8.5", "910B", ["--host-sys=osrt", "--output=/o"], (P.REJECT, "order", "[ERROR] If you want to use this "
                                                         "parameter:--host-sys, please put it behind the --output "
                                                         "or --application.")),
    ("9.1", "910B", ["--instr-profiling-freq=100"], (P.REJECT, "range", "[ERROR] Argument --instr-profiling-freq: "
                                                     "invalid int value: 100.Please input an integer value in "
                                                     "300-30000.")),
    ("9.1", "950", ["--instr-profiling-freq=100"], None),        # ignored there, with a warning
    ("9.1", "910B", ["--delay=4294967296"], (P.REJECT, "range", "[ERROR] Argument --delay: invalid value: "
                                             "4294967296.Please input an integer value in 1-4294967295.")),
    ("9.1", "910B", ["--application=python3"], (P.REJECT, "application", "[ERROR] Argument --application: an "
                                                "interpreter (python/bash/sh) requires a script or module "
                                                "argument")),
    ("9.1", "910B", ["--help", "--ascendcl=x"], (P.HELP, "help", "")),
    ("9.1", "910B", ["--ascendcl=x", "--help"], (P.REJECT, "value", "[ERROR] Argument --ascendcl: invalid value: "
                                                 "x. Please input 'on' or 'off'.")),
])
def test_steps(version, product, words, expected):
    got = first(words, version, product)
    if expected is not None and expected[2] is None:
        got = got[:2] + (None,)
    assert got == expected


def test_machine_questions_are_left_to_the_machine():
    steps = P.steps(["--output=/o", "--application=./run", "--host-sys=osrt"], "9.1", "910B")
    assert [(s.option, s.action) for s in steps] == [("application", P.MACHINE), ("host-sys", P.MACHINE),
                                                    ("output", P.MACHINE)]
    assert P.verdict(steps) == "unknown"

    class Answers(P.Machine):
        cwd = "/w"

        def file(self, path):
            return "exec" if os.path.normpath(path) == "/w/run" else "missing"

        def tool(self, name):
            return False

        def make_dir(self, path):
            return ""
    steps = P.steps(["--output=/o", "--application=./run", "--host-sys=osrt"], "9.1", "910B", Answers())
    assert P.verdict(steps) == "rejected" and steps[0].line.startswith("[ERROR] The tool perf is invalid")


def test_unknown_words_end_what_is_known():
    steps = P.steps(["--ascendcl=x", HOLE, "--aicpu=y"], "9.1", "910B", hole=HOLE)
    assert [(s.at, s.kind) for s in steps] == [(0, "value"), (1, "hole")]
    # a hole where a value word goes is that value word (msprof skips it all the same)
    steps = P.steps(["--output", HOLE, "python3", "t.py"], "9.1", "910B", hole=HOLE)
    assert [(s.option, s.kind) for s in steps][0] == ("output", "none")
    assert P.steps(["--output=" + HOLE, "t.py"], "9.1", "910B", hole=HOLE)[0].action == P.UNKNOWN


def test_a_chip_without_a_platform_class_keeps_only_what_every_chip_would_do():
    # CANN 8.5's open source has no platform class for the Ascend 310 and 950
    assert P.chip("8.5", "950") is None
    steps = P.steps(["--output=/o", "--task-time=l3", "--ascendcl=x"], "8.5", "950")
    assert [(s.option, s.action) for s in steps if s.option != "output"] == [("ascendcl", P.REJECT),
                                                                              ("task-time", P.UNKNOWN)]
    assert P.chip("9.1", "910C") == P.chip("9.1", "910B")         # checked as the 910B (inferred)


def test_printed_lines_are_cut_like_cmdlog_cuts_them():
    [step] = [s for s in P.steps(["--output=/o", "--ascendcl=" + "x" * 1100], "9.1", "910B") if s.kind == "value"]
    assert len(step.line.encode()) == len("[ERROR] ") + P.LOG_SIZE
    [step] = [s for s in P.steps(["--output=/o", "--optype=Conv2D"], "9.1", "910B") if s.kind == "unsupported"]
    assert step.line == ""                  # CmdLog prints nothing for an empty message


@pytest.mark.parametrize("version,words", [
    ("8.5", ["--output=" + HOLE, "--host-sys=osrt"]),                   # the output may well come first
    ("9.1", ["--msproftx=" + HOLE, "--mstx-domain-include=a"]),         # $X may be on
    ("9.1", ["--output=/o", "--export=" + HOLE]),                       # an analysis mode, or not
    ("9.1", ["--dynamic=" + HOLE, "--pid=1"]),
    ("9.1", ["--application=" + HOLE, "--dynamic=on"]),
])
def test_a_value_not_known_statically_decides_nothing_after_it(version, words):
    steps = P.steps(words, version, "910B", hole=HOLE)
    assert not [s for s in steps if s.action in (P.REJECT, P.CRASH)], steps


def test_a_command_line_is_parsed_once_per_version_and_judged_per_chip(monkeypatch):
    """Issue 44: the line was parsed again for each of the 21 version x product pairs."""
    from flake8_npuprof.checks import msprof as M
    from flake8_npuprof.knowledge import msprof_getopt
    from flake8_npuprof.knowledge import msprof_parser as P
    from flake8_npuprof.knowledge.targets import Target
    calls = []
    real = msprof_getopt.getopt
    monkeypatch.setattr(msprof_getopt, "getopt", lambda *a: calls.append(a[2]) or real(*a))
    text = "msprof --output=/tmp/p_issue44 --aic-metrics=PipeUtilizatio --task-time=on ./bench_issue44\n"
    findings = M.check_shell(text, Target.parse())
    assert sorted(calls) == sorted(P.versions())
    assert [f.code for f in findings] == ["NPP122"]
