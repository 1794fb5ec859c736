"""NPP016: launcher lines bash reads otherwise than they mean. Each shape is also run through /bin/bash (when
the machine has it) with a stand-in msprof that prints its argv, so the claims in the messages are held to
what bash does."""

import os
import shutil
import stat
import subprocess

import pytest

from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.checks.shell_syntax import check

BASH = shutil.which("bash") or ("/bin/bash" if os.path.exists("/bin/bash") else None)
needs_bash = pytest.mark.skipif(BASH is None, reason="no bash on this machine: the check itself is still tested")


def found(text):
    return [(f.code, f.line, f.col + 1, f.message) for f in check(text)]


def run_bash(tmp_path, text):
    """(status, stdout, stderr) of bash running the launcher, with msprof printing its argv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "msprof"
    fake.write_text('#!/bin/sh\necho "msprof argv: $*"\n', encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    script = tmp_path / "run.sh"
    script.write_text(text, encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C"}
    r = subprocess.run([BASH, str(script)], capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=30)
    return r.returncode, r.stdout, r.stderr.replace(str(script), "run.sh")


CONTINUED = ('MSPROF_OPTS="--output=/tmp/prof " \\\n'
             '"--aic-freq=100 --sys-hardware-mem=on" \\\n'
             '"--aic-metrics=Memory"\n'
             'echo "status $?"\n'
             'msprof $MSPROF_OPTS python3 train.py\n')


def test_quoted_line_after_a_continued_assignment():
    assert found(CONTINUED) == [(
        "NPP016", 2, 1,
        'bash runs --aic-freq=100 --sys-hardware-mem=on as a command: the line above ends with `\\`, so '
        '`MSPROF_OPTS="--output=/tmp/prof "` is an assignment for this command only, which is not found ("command '
        'not found", status 127); this line does not set MSPROF_OPTS for the lines after (the msprof line reads '
        'it); keep the whole value inside one pair of quotes')]


@needs_bash
def test_quoted_line_after_a_continued_assignment_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, CONTINUED)
    assert "run.sh: line 1: --aic-freq=100 --sys-hardware-mem=on: command not found" in err
    assert out.splitlines() == ["status 127", "msprof argv: python3 train.py"]     # msprof got no switch


def test_the_value_continued_inside_its_quotes_is_clean(tmp_path):
    text = ('MSPROF_OPTS="--output=/tmp/prof \\\n--aic-freq=100 --sys-hardware-mem=on \\\n--aic-metrics=Memory"\n'
            'msprof $MSPROF_OPTS python3 train.py\n')
    assert found(text) == []
    if BASH:
        assert run_bash(tmp_path, text)[1] == ("msprof argv: --output=/tmp/prof --aic-freq=100 "
                                               "--sys-hardware-mem=on --aic-metrics=Memory python3 train.py\n")


SPACED = ("PROFILING_MODE = true\n"
          'echo "status $? [${PROFILING_MODE-unset}]"\n'
          "PROFILING_MODE= true\n"
          'echo "status $? [${PROFILING_MODE-unset}]"\n'
          "export PROFILING_MODE = true\n"
          'echo "status $? [${PROFILING_MODE-unset}]"\n'
          "export PROFILING_OPTIONS= '{\"output\":\"/tmp/prof\"}'\n"
          'echo "status $? [${PROFILING_OPTIONS-unset}]"\n'
          "env | grep PROFILING_ || echo none\n")


def test_blanks_around_the_equals_sign():
    assert found(SPACED) == [
        ("NPP016", 1, 1, 'bash runs PROFILING_MODE as a command here: the blank before `=` makes `PROFILING_MODE` a '
                         'word of its own, so "PROFILING_MODE: command not found" (status 127) and this line does '
                         'not set PROFILING_MODE; write PROFILING_MODE=true with no blanks around `=`'),
        ("NPP016", 3, 1, "bash runs true as a command with PROFILING_MODE empty in its environment (status 0: nothing "
                         "says so): the blank after `=` ends the assignment, and this line does not set "
                         "PROFILING_MODE for the lines after; write PROFILING_MODE=true with no blank after `=`"),
        ("NPP016", 5, 8, 'export reads `PROFILING_MODE` and `=` as separate names here: `=` is "not a valid '
                         'identifier" (status 1), and PROFILING_MODE gets no value from this line (it is exported '
                         'with the value it had before, none if it had none); write export PROFILING_MODE=true with '
                         'no blanks around `=`'),
        ("NPP016", 7, 8, 'the blank after `=` ends the value: export gives PROFILING_OPTIONS the empty string, and '
                         'reads {"output":"/tmp/prof"} as another name ("not a valid identifier", status 1); write '
                         'export PROFILING_OPTIONS=\'{"output":"/tmp/prof"}\' with no blank after `=`'),
    ]


@needs_bash
def test_blanks_around_the_equals_sign_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, SPACED)
    assert out.splitlines() == ["status 127 [unset]", "status 0 [unset]", "status 1 [unset]", "status 1 []",
                                "PROFILING_OPTIONS="]
    assert "run.sh: line 1: PROFILING_MODE: command not found" in err
    assert "run.sh: line 5: export: `=': not a valid identifier" in err
    assert "run.sh: line 7: export: `{\"output\":\"/tmp/prof\"}': not a valid identifier" in err


# the same value, for `true` and then for `env`, which shows it
ESCAPED_BLANK = "OPTS=-x\\ --output= true\necho \"[${OPTS-unset}]\"\nOPTS=-x\\ --output= env\n"


def test_an_escaped_blank_is_part_of_the_value_not_an_empty_one():
    # `OPTS=-x\ --output=` ends with `=` but holds "-x --output=": NPP016 said "with OPTS empty" (launch2's find)
    assert found(ESCAPED_BLANK) == []
    assert found("OPTS= -x\\ --output=/tmp/x\nmsprof $OPTS python3 t.py\n") == [(
        "NPP016", 1, 1, 'bash runs -x --output=/tmp/x as a command with OPTS empty in its environment ("No such file '
        'or directory", status 127): the blank after `=` ends the assignment, and this line does not set OPTS for '
        'the lines after (the msprof line reads it); write OPTS=-x\\ --output=/tmp/x with no blank after `=`')]


@needs_bash
def test_an_escaped_blank_is_part_of_the_value_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, ESCAPED_BLANK)
    assert out.splitlines()[0] == "[unset]" and "OPTS=-x --output=" in out.splitlines()


@needs_bash
def test_export_with_blanks_keeps_the_earlier_value(tmp_path):
    # the message's "exported with the value it had before"
    out = run_bash(tmp_path, "PROFILING_MODE=false\nexport PROFILING_MODE = true\nenv | grep PROFILING_MODE\n")[1]
    assert out == "PROFILING_MODE=false\n"


BROKEN_CONTINUATION = ("msprof --output=/tmp/prof \\ \n"
                       "    --aic-metrics=PipeUtilization python3 train.py\n")


def test_an_option_line_the_msprof_line_does_not_continue():
    assert found(BROKEN_CONTINUATION) == [(
        "NPP016", 2, 5,
        'bash runs --aic-metrics=PipeUtilization as a command of its own ("command not found", status 127): the '
        "msprof line above (line 1) ends with `\\` and a blank after it, which escapes the blank, not the line "
        "break, so msprof never gets this line's options; end the line above with `\\` and nothing after it")]
    assert found(BROKEN_CONTINUATION.replace("\\ \n", "\n"))[0][3].count("does not end with `\\`") == 1
    assert found(BROKEN_CONTINUATION.replace("\\ \n", "\\\n")) == []


@needs_bash
def test_an_option_line_the_msprof_line_does_not_continue_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, BROKEN_CONTINUATION)
    assert out == "msprof argv: --output=/tmp/prof  \n"         # the escaped blank is msprof's last word
    assert "run.sh: line 2: --aic-metrics=PipeUtilization: command not found" in err and status == 127


UNCLOSED = ('export PROFILING_MODE=true\n'
            'echo start\n'
            'export PROFILING_OPTIONS="{\\"output\\":\\"/tmp/prof\\"}\n'
            'echo after\n'
            'python3 train.py\n')


def test_an_unclosed_quote():
    assert found(UNCLOSED) == [(
        "NPP016", 3, 26,
        'this " is never closed: bash reads the rest of the file into one word, then stops with "unexpected EOF '
        "while looking for matching `\"'\" (status 2) without running anything from line 3 on, so the profiling "
        "settings and launches from there on never run; close the quote")]


@needs_bash
def test_an_unclosed_quote_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, UNCLOSED)
    assert (status, out) == (2, "start\n")
    assert "unexpected EOF while looking for matching `\"'" in err


@pytest.mark.parametrize("text", [
    "PROFILING_MODE=true python3 train.py\n",                   # a prefix assignment meant for the launch
    "LD_PRELOAD= python3 train.py\n",                          # emptied for one command, on purpose
    "X = 1\nY= true\n",                                         # not profiling settings
    "export PYTHONPATH = /code\n",                              # exported, but not a profiling setting
    "export PROFILING_MODE=true PROFILING_OPTIONS='{\"output\":\"/p\"}'\n",
    "cat <<EOF > notes.txt\ndon't forget PROFILING_MODE\nEOF\nexport PROFILING_MODE=true\n",
    "msprof --output=/tmp/prof \\\n  --aic-metrics=PipeUtilization \\\n  python3 train.py\n",
    "python3 train.py \\\n  --profiling=True\n",
    'OPTS="--x" python3 train.py "--y z"\n',
    "export RANK_ID=0\nfor ((RANK_ID = 0; RANK_ID < 8; RANK_ID++)); do\n  python3 train.py\ndone\n",
    "echo $'it\\'s'\ncat <<< \"here's\"\nexport PROFILING_MODE=true\n",   # ANSI-C quoting, a here-string
    "msprof --output=/tmp/prof python3 train.py 2>&1 | tee log\n--aic-metrics=Memory\n",  # not msprof's line above
])
def test_correct_forms_are_quiet(text):
    assert found(text) == []


def test_reported_through_the_launcher_analysis():
    assert [(f.code, f.line) for f in analyse_shell(CONTINUED)] == [("NPP016", 2)]


SPLIT_VALUES = ('export MSPROF_OPTS="--output=/tmp/prof " \\\n'
                '"--aic-freq=100"\n'
                'echo "status $? [$MSPROF_OPTS]"\n'
                'MORE_OPTS="--task-time=on"\n'
                '"--aic-metrics=Memory"\n'
                'echo "status $? [$MORE_OPTS]"\n'
                'msprof $MSPROF_OPTS $MORE_OPTS python3 train.py\n')


def test_a_value_split_over_lines_outside_its_quotes():
    assert found(SPLIT_VALUES) == [
        ("NPP016", 2, 1, 'export reads --aic-freq=100 as another name ("not a valid identifier", status 1): the line '
                         "above ends with `\\`, so MSPROF_OPTS gets only `--output=/tmp/prof ` (the msprof line reads "
                         "it); keep the whole value inside one pair of quotes"),
        ("NPP016", 5, 1, 'bash runs --aic-metrics=Memory as a command of its own ("command not found", status 127): '
                         "the assignment above (line 4) does not end with `\\`, so MORE_OPTS does not get these options "
                         "(the msprof line reads it); keep the whole value inside one pair of quotes"),
    ]


@needs_bash
def test_a_value_split_over_lines_outside_its_quotes_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, SPLIT_VALUES)
    assert out.splitlines() == ["status 1 [--output=/tmp/prof ]", "status 127 [--task-time=on]",
                                "msprof argv: --output=/tmp/prof --task-time=on python3 train.py"]
    assert "run.sh: line 1: export: `--aic-freq=100': not a valid identifier" in err
    assert "run.sh: line 5: --aic-metrics=Memory: command not found" in err


EMPTIED = ("PROFILING_OPTIONS= '{\"output\":\"/tmp/prof\"}'\n"
           'echo "status $? [${PROFILING_OPTIONS-unset}]"\n')


def test_a_blank_after_the_equals_sign_before_a_json_value():
    # the JSON word holds a `/`: bash takes it for a path, and says so
    assert found(EMPTIED) == [(
        "NPP016", 1, 1,
        'bash runs {"output":"/tmp/prof"} as a command with PROFILING_OPTIONS empty in its environment ("No such file '
        'or directory", status 127): the blank after `=` ends the assignment, and this line does not set '
        "PROFILING_OPTIONS for the lines after; write PROFILING_OPTIONS='{\"output\":\"/tmp/prof\"}' with no blank "
        "after `=`")]


@needs_bash
def test_a_blank_after_the_equals_sign_before_a_json_value_in_bash(tmp_path):
    status, out, err = run_bash(tmp_path, EMPTIED)
    assert out == "status 127 [unset]\n"
    assert 'run.sh: line 1: {"output":"/tmp/prof"}: No such file or directory' in err


# ---------------------------------------------------------------- the gate: texts no line of which can be reported

def _ungated(text):
    """check(text) with the gate open: what the lines' reading itself finds."""
    from flake8_npuprof.checks import shell_syntax
    saved = shell_syntax._may_report
    shell_syntax._may_report = lambda text: True
    try:
        return check(text)
    finally:
        shell_syntax._may_report = saved


@pytest.mark.parametrize("text", [
    'OPTS="--data_path=/d " \\\n"--epochs=1"\npython3 train.py $OPTS\n',     # no msprof option: nothing lost
    'export DATA = /data\npython3 train.py --output_dir=./out\n',
    'A="x\n',                                                               # unclosed, but nothing of profiling after
    'echo "usage: run.sh --data_path=DIR"\n',
])
def test_the_gate_skips_texts_without_a_profiling_word_or_an_msprof_option(text):
    from flake8_npuprof.checks.shell_syntax import _may_report
    assert not _may_report(text)
    assert _ungated(text) == []


@pytest.mark.parametrize("text", [
    # the word bash reads holds what the text does not show whole: quotes, escapes and `\`-newlines are taken out
    'PROF""ILING_MODE = true\n',
    "PROF'IL'ING_MODE = true\n",
    'PROF\\ILING_MODE = true\n',
    'ms""prof --output=/tmp/x\n--aic-metrics=Memory\n',
    # an msprof option in an assignment's value, with no profiling word at all
    'OPTS="-x --output=/tmp/x " \\\n"--aic-metrics=PipeUtilization"\n',
    'OPTS="-x --data=/d -""-output=/tmp/x " \\\n"--aic-metrics=PipeUtilization"\n',
    'OPTS=-x\\ -\\-output=/tmp/x\\  \\\n"--aic-metrics=PipeUtilization"\n',
    'OPTS="-x --aic-\\\nmetrics=Memory " \\\n"--aic-freq=100"\n',
    'OPTS="-x --type=text" \\\n--l2\n',
])
def test_the_gate_keeps_texts_a_line_of_which_is_reported(text):
    from flake8_npuprof.checks.shell_syntax import _may_report
    assert _ungated(text), text                 # (each is reported, so the gate must let it through)
    assert _may_report(text)
    assert check(text) == _ungated(text)


def test_the_gate_loses_no_report_on_random_texts():
    """Reported texts with quotes, escapes and `\\`-newlines put in at random places (inside a word, bash takes
    them out again): wherever the lines' reading still reports one, the gate lets the text through."""
    import random
    from flake8_npuprof.checks.shell_syntax import _may_report
    bases = ['PROFILING_MODE = true\n', 'export PROFILING_OPTIONS= \'{"output":"/tmp"}\'\n',
             'msprof --output=/tmp/x\n--aic-metrics=Memory\n', 'OPTS="-x --output=/tmp/x " \\\n"--aic-freq=100"\n',
             'OPTS=-x\\ --output= true\n', 'A=1 PROFILING_MODE=true \\\n--aic-metrics=Memory\n',
             'echo "x\nPROFILING_MODE=1\n', "cat <<'EOF'\nX\nEOF\nB='-y --type=x' \\\n--l2\n",
             "OPTS='-x\\\n--output=/tmp/x ' \\\n\"--aic-freq=100\"\n", 'x=1;OPTS+="-q --l2" \\\n  "--op"\n']
    rng = random.Random(44)
    split = 0
    for _ in range(3000):
        text = rng.choice(bases)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(('""', "''", '\\\n', '\\', ' ', '"', "'", '-', '\r\n', '<<', '$x')) + text[at:]
        found = _ungated(text)
        assert not found or _may_report(text), text
        split += bool(found) and "PROFILING_" not in text and "msprof" not in text and "--output" not in text
    assert split > 100                          # (split words do reach the reports)


@pytest.mark.parametrize("text, reported", [
    ("OPTS='-x\\\n--output=/tmp/x ' \\\n\"--aic-freq=100\"\n", True),     # in single quotes `\`-newline stays
    ("OPTS='-x \\\n--output=/tmp/x ' \\\n\"--aic-freq=100\"\n", True),
    ("OPTS=\"-x \\\n--out\\\nput=/tmp/x \" \\\n\"--aic-freq=100\"\n", True),    # taken out in double quotes
    ('OPTS="-x -\\\n-output=/tmp/x " \\\n"--aic-freq=100"\n', True),
    ('OPTS="-x/--output=/tmp/x " \\\n"--aic-freq=100"\n', False),          # not a word of the value
    ('OP\\\\\nTS="-x --output=/t\\\nmp/x " \\\n"--aic-freq=100"\n', True),     # `\\` then a line break: TS=
])
def test_the_gate_and_backslash_newlines_in_a_value(text, reported):
    from flake8_npuprof.checks.shell_syntax import _may_report
    assert bool(_ungated(text)) == reported
    assert _may_report(text) or not reported


def test_the_gate_skips_a_help_line():
    """The model zoo's launchers print `-h/--help` and test `$1 == --help`: no value holds those as a word."""
    from flake8_npuprof.checks.shell_syntax import _may_report
    text = ('if [[ $1 == --help || $1 == -h ]];then\n    echo "usage: ./train.sh <args>"\n'
            '    echo "    --data_path  # dataset\n    -h/--help    show help message"\n    exit 1\nfi\n')
    assert not _may_report(text) and _ungated(text) == []


REPORTED = 'OPTS="-x --output=/tmp/x " \\\n"--aic-metrics=PipeUtilization"\n'      # (a line NPP016 reports)


@pytest.mark.parametrize("text, kept", [
    # only an assignment that starts at or before the last msprof option word after a blank can hold one
    ('echo "usage: run.sh --help"\n' + REPORTED, True),
    (REPORTED + 'echo "usage: run.sh --help"\n', True),
    ('echo "usage: run.sh --help"\nOPTS="-x --data=/d"\n', False),
    ('OPTS="-x --data=/d"\necho "usage: run.sh --help"\nB="-y --epochs=1"\n', False),
    # where the option is in the text, after the quotes, `\\`s and `\\`-newlines the gate's search does not see
    ('echo ' + '""' * 20 + ' \'\\\\\' \\\n\'\'\n' + REPORTED, True),
])
def test_the_gate_decodes_the_assignments_up_to_the_last_option_word(text, kept):
    from flake8_npuprof.checks.shell_syntax import _may_report
    assert _may_report(text) is kept
    assert bool(_ungated(text)) is kept
