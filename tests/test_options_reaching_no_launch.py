"""A launcher's PROFILING_OPTIONS that no launch gets (`env -i`, `env -u PROFILING_OPTIONS`, sudo without -E, an
`unset` before the launch): its problems are latent, never "GE initialisation fails". What each launch gets was run
with bash 5.2 (a python3 printing os.environ in the script's place; sudo 1.9.13p3 with Debian's sudoers, env_reset):
nothing after `env -i` or sudo, not PROFILING_OPTIONS after `env -u PROFILING_OPTIONS` or the `unset`; the value
after `sudo -E`, `env -u OTHER` and an export after the unset."""

import pytest

from test_sequence import PLAIN, _check, _project

HEAD = ("#!/bin/bash\ncd \"$(dirname \"$0\")\"\nexport PROFILING_MODE=true\n"
        "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\n")
WHAT = 'unknown profiling_options key "L2": on CANN 8.0 the collector rejects the options, so '
FAILS = WHAT + 'GE initialisation fails and the job aborts; did you mean "l2"?'
LATER = WHAT + 'GE initialisation will fail and the job will abort; did you mean "l2"?'


def _found(tmp_path, lines):
    path = _project(tmp_path, HEAD + lines, **{"plain.py": PLAIN})
    return [(f.code, f.line, f.col, f.message) for f in _check(path)]


@pytest.mark.parametrize("lines, why", [
    ("env -i python3 plain.py\n", "no launch gets it: `env -i` at run.sh:5 starts it with an empty environment"),
    ("env -u PROFILING_OPTIONS python3 plain.py\n",
     "no launch gets it: `env -u PROFILING_OPTIONS` at run.sh:5 unsets it"),
    ("sudo --preserve-env=PATH python3 plain.py\n", "no launch gets it unless sudoers keeps it: `sudo "
     "--preserve-env=PATH` at run.sh:5 resets the environment (env_reset, sudo's default without -E; env_keep lists "
     "what stays)"),
    ("sudo python3 plain.py\n", "no launch gets it unless sudoers keeps it: `sudo` at run.sh:5 resets the environment "
     "(env_reset, sudo's default without -E; env_keep lists what stays)"),
    ("unset PROFILING_OPTIONS\npython3 plain.py\n", "no launch gets it: it is unset before run.sh:6"),
    ("f() { env -i python3 plain.py; }\nf\nenv -u PROFILING_OPTIONS python3 plain.py\n",
     "no launch gets it: `env -i` at run.sh:5 starts it with an empty environment; "
     "`env -u PROFILING_OPTIONS` at run.sh:7 unsets it"),
])
def test_options_no_launch_gets_are_latent(tmp_path, lines, why):
    assert _found(tmp_path, lines) == [("NPP101", 4, 45, f"latent ({why}); once GE reads these options: {LATER}")]


@pytest.mark.parametrize("lines", [
    "sudo -E python3 plain.py\n",
    "env -u OTHER python3 plain.py\n",
    "env -i python3 plain.py\npython3 plain.py\n",
    'if [ -n "$X" ]; then unset PROFILING_OPTIONS; fi\npython3 plain.py\n',
    # bash 5.2 kept the variable: `unset -f` unsets a function; an `unset` of a function's local one leaves the
    # global one (seen again in the function after the unset, and after it returns); sudo 1.9.13p3 (as root, Debian's
    # sudoers: env_reset) kept what --preserve-env=LIST names
    "unset -f PROFILING_OPTIONS\npython3 plain.py\n",
    # bash 5.2: `O=$P; unset P; P=$O printenv P` printed the value (and one not known may be it: not said latent)
    "O=$PROFILING_OPTIONS\nunset PROFILING_OPTIONS\nPROFILING_OPTIONS=$O python3 plain.py\n",
    "O=$PROFILING_OPTIONS\nunset PROFILING_OPTIONS\nPROFILING_OPTIONS=$X python3 plain.py\n",
    "f() { local PROFILING_OPTIONS; unset PROFILING_OPTIONS; }\nf\npython3 plain.py\n",
    "sudo --preserve-env=PROFILING_MODE,PROFILING_OPTIONS python3 plain.py\n",
    "sudo --preserve-env=PATH --preserve-env=PROFILING_OPTIONS,PROFILING_MODE python3 plain.py\n",
])
def test_options_a_launch_gets_still_fail(tmp_path, lines):
    assert _found(tmp_path, lines) == [("NPP101", 4, 45, FAILS)]


def test_an_unset_local_shows_the_value_it_hid(tmp_path):
    # bash 5.2: in `f() { local X=x; unset X; env; }` env printed X's value from before the call
    got = _found(tmp_path, "f() { local PROFILING_OPTIONS=x; unset PROFILING_OPTIONS; python3 plain.py; }\nf\n")
    assert got == [("NPP101", 4, 45, FAILS), ("NPP100", 5, 30, "latent (no launch gets it: it is unset before "
                   "run.sh:5); once GE reads these options: profiling_options is not valid JSON (expected a JSON value at "
                   "character 1 of the options): GE cannot parse it, so GE initialisation will fail and the job will "
                   "abort; write a JSON object of options")]


def test_an_export_after_the_unset_is_the_one_that_reaches(tmp_path):
    got = _found(tmp_path, "unset PROFILING_OPTIONS\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\n"
                           "python3 plain.py\n")
    assert got == [("NPP101", 4, 45, "latent (no launch gets it: it is unset before run.sh:7); once GE reads these "
                    f"options: {LATER}"), ("NPP101", 6, 45, FAILS)]


def test_options_no_launch_follows_keep_their_claim(tmp_path):
    # exports after the last launch, or in a file that launches nothing, reach what a launcher that sources the file
    # starts after it: not judged here
    assert _found(tmp_path, "") == [("NPP101", 4, 45, FAILS)]
    launcher = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nenv -i python3 plain.py\n" + HEAD[HEAD.index("export"):]
    path = _project(tmp_path, launcher, **{"plain.py": PLAIN})
    assert [(f.code, f.line, f.col, f.message) for f in _check(path)] == [("NPP101", 5, 45, FAILS)]


@pytest.mark.parametrize("launch, said", [
    ("env -i python3 plain.py\n", "latent (no launch gets it: `env -i` at run.sh:5 starts it with an empty "
     "environment); once GE reads these options: {what}GE initialisation will fail and the job will abort; write "
     "\"on\""),
    ("python3 plain.py\n", "{what}GE initialisation fails and the job aborts; write \"on\""),
])
def test_an_invalid_value_no_launch_gets_is_latent_too(tmp_path, launch, said):
    head = HEAD.replace('"L2":"on"', '"task_trace":"On"')
    path = _project(tmp_path, head + launch, **{"plain.py": PLAIN})
    what = '"task_trace": "On" is not one of "on"/"off"/"l0"/"l1": on CANN 8.0 the collector rejects it, so '
    assert [(f.code, f.line, f.col, f.message) for f in _check(path)] == [("NPP102", 4, 58, said.format(what=what))]


@pytest.mark.parametrize("lines, why", [
    # bash 5.2: after `export -n P` or `declare +x P` the variable is set but no longer exported (env shows none)
    ("export -n PROFILING_OPTIONS\npython3 plain.py\n", "`export -n PROFILING_OPTIONS` at run.sh:5"),
    ("declare +x PROFILING_OPTIONS\npython3 plain.py\n", "`declare +x PROFILING_OPTIONS` at run.sh:5"),
    ("typeset +x PROFILING_OPTIONS\npython3 plain.py\n", "`typeset +x PROFILING_OPTIONS` at run.sh:5"),
    # ... and a later assignment without export does not export it again (bash 5.2: `declare +x P; P=z; env`)
    ("declare +x PROFILING_OPTIONS\nPROFILING_OPTIONS=$PROFILING_OPTIONS\npython3 plain.py\n",
     "`declare +x PROFILING_OPTIONS` at run.sh:5"),
])
def test_options_whose_export_is_taken_away_are_latent(tmp_path, lines, why):
    # it said "GE initialisation fails" after `declare +x`, `typeset +x` (and `export -n`: the value set without export,
    # which the caller's export was taken to pass on)
    assert _found(tmp_path, lines) == [
        ("NPP101", 4, 45, f"latent (no launch gets it: {why} takes its export away); once GE reads these options: "
         f"{LATER}")]


@pytest.mark.parametrize("lines", [
    "export -n PROFILING_OPTIONS\nexport PROFILING_OPTIONS\npython3 plain.py\n",
    "declare +x PROFILING_OPTIONS\ndeclare -x PROFILING_OPTIONS\npython3 plain.py\n",
    'if [ -n "$X" ]; then export -n PROFILING_OPTIONS; fi\npython3 plain.py\n',
    "true | export -n PROFILING_OPTIONS\npython3 plain.py\n",
    "declare +x PROFILING_OPTIONS &\nwait\npython3 plain.py\n",
    "f() { local PROFILING_OPTIONS; export -n PROFILING_OPTIONS; }\nf\npython3 plain.py\n",
])
def test_options_whose_export_comes_back_or_stays_still_fail(tmp_path, lines):
    # bash 5.2 passed the value on: exported again, taken away in a branch not taken, in a subshell, or from a local
    assert _found(tmp_path, lines) == [("NPP101", 4, 45, FAILS)]
