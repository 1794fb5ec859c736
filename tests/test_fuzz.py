"""Fuzzing, bounded for CI: mutated real options strings, spliced into Python and shell profiling
setups, never crash (no NPP000, no exception) and never hang (a deadline per input).

Programs come from hypothesis with templates of the ways real scripts build the options (a literal,
a variable, a flag default, %-formatting, the environment, ProfilingConfig, a shell export), not from
hypothesmith: its grammar strategy needs a newer hypothesis than the lowest version CI installs
(6.0.0), brings libcst and lark, and spends ~0.1 s per program on code with no profiling in it.
Examples are derandomized (the same on every run) and few: the suite stays within a few seconds.
"""

from __future__ import annotations

import re
import shlex
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evalfiles import Hang, deadline
from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.source.jsonscan import parse
from flake8_npuprof.source.model import printable
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.knowledge.targets import Target

# Each input's deadline: an analysis takes well under 0.1 s; what this guards against (backtracking,
# runaway recursion) took minutes. Generous, for a loaded CI machine.
SECONDS = 5.0
FUZZ = settings(derandomize=True, deadline=None, database=None, max_examples=40,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

# Options strings as real scripts write them (examples/, the eval files, model-zoo launchers).
REAL_OPTIONS = [
    '{"output":"/home/x/prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":"",'
    '"aic_metrics":"PipeUtilization"}',
    '{"output":"/tmp/profiling","task_trace":"on","aicpu":"on","hccl":"on","storage_limit":"500MB"}',
    '{"output":"./prof","training_trace":"on","fp_point":"resnet_model/conv2d/Conv2D",'
    '"bp_point":"gradients/AddN_70","l2":"off","msproftx":"off"}',
    '{"output":"/cache/prof","task_trace":"l1","aic_metrics":"Custom:0x49,0x4a","host_sys":"cpu,mem",'
    '"host_sys_usage":"cpu","sys_hardware_mem_freq":50,"dvpp_freq":"100"}',
    "training_trace:task_trace",
]

MUTATION_TEXT = ['"', "'", "\\", "\\u", "\\ud800", "\\x", "\t", "\n", "\r", "\x00", "\x01", "\x1f", "\x7f",
                 "\u202e", "\ud800", "中", "{", "}", "[", "]", ",", ":", "%", "%s", "$", "`", "${X}", "$(date)",
                 "9" * 5000, "1e999", "-0", "1.5e308", "true", "null"]


@st.composite
def mutated_options(draw) -> str:
    text = draw(st.sampled_from(REAL_OPTIONS))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "insert", "delete", "replace_value", "nest", "repeat"]))
        at = draw(st.integers(0, len(text)))
        if kind == "truncate":
            text = text[:at]
        elif kind == "insert":
            text = text[:at] + draw(st.sampled_from(MUTATION_TEXT) | st.text(max_size=4)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif kind == "replace_value":
            values = ["9" * draw(st.sampled_from([20, 400, 4400, 6000])), "1e999", "-1e400", '"' + "x" * 3000 + '"',
                      '"²²²MB"', '"' + "9" * 5000 + 'MB"', '"\\ud800"', "[" * 3000 + "]" * 3000]
            text = re.sub(r'("storage_limit"|"output"|"aic_metrics"|"dvpp_freq"|"task_trace"):("[^"]*"|\d+)',
                          lambda m: m.group(1) + ":" + draw(st.sampled_from(values)), text, count=1)
        elif kind == "nest":
            depth = draw(st.sampled_from([10, 1000, 5000]))
            opener = draw(st.sampled_from(["[", '{"a":']))
            closer = "]" if opener == "[" else "}"
            text = text[:at] + opener * depth + "1" + closer * draw(st.sampled_from([0, depth])) + text[at:]
        else:
            text = text[:at] + text[at:at + 30] * draw(st.integers(2, 200)) + text[at:]
    return text


PYTHON_TEMPLATES = [
    # a literal in the adapter's parameter map
    'import tensorflow as tf\nconfig = tf.ConfigProto()\n'
    'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
    'op.parameter_map["profiling_mode"].b = True\n'
    'op.parameter_map["profiling_options"].s = tf.compat.as_bytes({lit})\nsess = tf.Session(config=config)\n',
    # bytes through a variable, under a flag
    'import tensorflow as tf\nOPTS = {blit}\nconfig = tf.ConfigProto()\n'
    'def build(profile):\n    op = config.graph_options.rewrite_options.custom_optimizers.add()\n'
    '    op.name = "NpuOptimizer"\n    if profile:\n        op.parameter_map["profiling_mode"].b = True\n'
    '        op.parameter_map["profiling_options"].s = OPTS\n    return config\n',
    # an argparse default
    'import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n'
    'parser.add_argument("--profiling_options", default={lit})\nparser.add_argument(dest="filename")\n'
    'args = parser.parse_args()\nconfig = tf.ConfigProto()\n'
    'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
    'op.parameter_map["profiling_mode"].b = True\n'
    'op.parameter_map["profiling_options"].s = tf.compat.as_bytes(args.profiling_options)\n'
    'sess = tf.Session(config=config)\n',
    # the environment
    'import os\nos.environ["PROFILING_MODE"] = "true"\nos.environ["PROFILING_OPTIONS"] = {lit}\n',
    # %-formatting: the mutated text becomes a value
    'import os\nos.environ["PROFILING_MODE"] = "true"\n'
    'os.environ["PROFILING_OPTIONS"] = \'{{"output":"%s","task_trace":"on","L2":"on"}}\' % ({lit},)\n',
    # the Estimator route
    'from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n'
    'profiling = ProfilingConfig(enable_profiling=True, profiling_options={lit})\n'
    'run_config = NPURunConfig(profiling_config=profiling, model_dir="/tmp/m")\n',
]

SHELL_TEMPLATES = [
    "#!/bin/bash\nexport PROFILING_MODE=true\nexport PROFILING_OPTIONS={quoted}\npython train.py\n",
    "#!/bin/sh\nPROFILING_MODE=true PROFILING_OPTIONS={raw} python3 train.py\n",     # quoting left as it is
    '#!/bin/bash\nexport PROFILING_MODE=true\nexport PROFILING_OPTIONS="{dquoted}"\n',
]


def _python_literal(text: str, as_bytes: bool) -> str:
    if as_bytes:
        return repr(text.encode("utf-8", "surrogatepass"))
    return repr(text)


def _check(findings, what) -> None:
    assert isinstance(findings, list)
    internal = [f for f in findings if f.code == "NPP000"]
    assert not internal, (what, internal[0].message)
    for f in findings:       # every message is printable as it will be shown
        assert printable(f.message) == f.message and f.line >= 1 and f.col >= 0


def _timed(fn, *args):
    start = time.perf_counter()
    with deadline(SECONDS, "one fuzz input"):
        out = fn(*args)
    assert time.perf_counter() - start < SECONDS
    return out


TARGETS = [Target(), Target("8.0", "910"), Target("8.5", "950")]


@FUZZ
@given(mutated_options())
def test_mutated_options_parse_in_linear_time(text):
    doc = _timed(parse, text)
    assert doc.error is None or 0 <= doc.error.index <= len(text)


@FUZZ
@given(mutated_options(), st.sampled_from(PYTHON_TEMPLATES), st.booleans(), st.sampled_from(TARGETS),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_mutated_options_in_python_setups(text, template, as_bytes, target, newline):
    source = template.format(lit=_python_literal(text, as_bytes), blit=_python_literal(text, True))
    source = source.replace("\n", newline)
    _check(_timed(analyse, source, None, "fuzz.py", Settings(target=target)), source)


@FUZZ
@given(mutated_options(), st.sampled_from(SHELL_TEMPLATES), st.sampled_from(TARGETS))
def test_mutated_options_in_shell_launchers(text, template, target):
    source = template.format(quoted=shlex.quote(text), raw=text,
                             dquoted=text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$"))
    _check(_timed(analyse_shell, source, "fuzz.sh", Settings(target=target)), source)


# Unknown values inside JSON arrays and objects: "@" marks where a value computed at run time is spliced in
# (a Python variable, a shell variable between quotes). The one crash class a sweep of 45,659 inputs found
# was `"task_trace":["$X"]`.
HOLEY_VALUES = ['["@"]', '["on","@"]', '{"a":"@"}', '[{"a":["x@y"]}]', '["@",1,null]', '[["@"]]', '{"@":1}',
                '{"a":{"b":"@"}}', '"@"', '"x@"', '[]', '{}']
HOLEY_KEYS = ["output", "task_trace", "aic_metrics", "training_trace", "storage_limit", "fp_point", "l2",
              "host_sys", "x"]


@st.composite
def holey_options(draw) -> str:
    """A real options object with one or more values replaced by a list or object holding an unknown value."""
    text = draw(st.sampled_from(REAL_OPTIONS[:4]))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(HOLEY_KEYS))
        value = draw(st.sampled_from(HOLEY_VALUES))
        new = re.sub(rf'"{key}":("[^"]*"|\d+)', lambda m: f'"{key}":{value}', text, count=1)
        text = new if new != text else text[:-1] + f',"{key}":{value}}}'
    return text


def _python_holes(template: str, text: str, as_bytes: bool) -> str:
    lit = " + X + ".join(repr(part) for part in text.split("@"))
    blit = f"({lit}).encode()"
    return "import sys\nX = sys.argv[1]\n" + template.format(lit=blit if as_bytes else lit, blit=blit)


def _shell_holes(template: str, text: str) -> str:
    return template.format(quoted="'" + text.replace("'", "'\\''").replace("@", "'$X'") + "'",
                           raw=text.replace("@", "$X"),
                           dquoted=text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
                           .replace("@", "$X"))


@FUZZ
@given(holey_options(), st.sampled_from(PYTHON_TEMPLATES), st.booleans(), st.sampled_from(TARGETS))
def test_unknown_values_inside_arrays_and_objects_in_python_setups(text, template, as_bytes, target):
    source = _python_holes(template, text, as_bytes)
    _check(_timed(analyse, source, None, "fuzz.py", Settings(target=target)), source)


@FUZZ
@given(holey_options(), st.sampled_from(SHELL_TEMPLATES), st.sampled_from(TARGETS))
def test_unknown_values_inside_arrays_and_objects_in_shell_launchers(text, template, target):
    source = _shell_holes(template, text)
    _check(_timed(analyse_shell, source, "fuzz.sh", Settings(target=target)), source)


@FUZZ
@given(holey_options(), st.sampled_from(PYTHON_TEMPLATES + SHELL_TEMPLATES), st.sampled_from(TARGETS))
def test_unknown_values_inside_arrays_and_objects_in_emulate(text, template, target):
    """emulate reads the same options through its own runtime (it gave an AttributeError on `["$X"]`)."""
    from flake8_npuprof.emulate.replay import emulate_text, finish
    from flake8_npuprof.emulate.render import render_json, render_text
    from flake8_npuprof.emulate.script import base_env
    kind = "shell" if template in SHELL_TEMPLATES else "python"
    source = _shell_holes(template, text) if kind == "shell" else _python_holes(template, text, False)
    env = base_env(False, {})
    results = _timed(emulate_text, source, kind, "fuzz." + ("sh" if kind == "shell" else "py"), target, "/tmp", env)
    report = finish("fuzz", results, target, "/tmp", env, None, None, False)
    assert render_text(report) and render_json(report)


def test_the_smallest_unknown_in_an_array_is_no_internal_error():
    """The sweep's smallest case, a 2-line launcher: a value with an unknown part is not judged."""
    source = "export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"/tmp\",\"task_trace\":[\"'$X'\"]}'\n"
    assert [(f.code, f.line) for f in analyse_shell(source, "run.sh", Settings())] == []
    # the same with a known value in the array: the type is judged as before
    known = source.replace("'$X'", "on")
    assert [f.code for f in analyse_shell(known, "run.sh", Settings())] == ["NPP110"]


def test_every_template_reaches_the_checks():
    text = '{"output":"/tmp/p","L2":"on"}'
    for template in PYTHON_TEMPLATES:
        source = template.format(lit=repr(text), blit=repr(text.encode()))
        # the options are read (NPP101 for "L2", or NPP100 where the template's JSON takes the text in quotes)
        assert {"NPP100", "NPP101"} & {f.code for f in analyse(source, None)}, source
    for template in SHELL_TEMPLATES:
        source = template.format(quoted=shlex.quote(text), raw=text, dquoted=text.replace('"', '\\"'))
        assert {"NPP100", "NPP101"} & {f.code for f in analyse_shell(source)}, source   # unquoted: NPP100


@pytest.mark.parametrize("text", [
    '{"output":"/home/x/prof' + "/prof_data" * 50,           # never closes: backtracked for minutes
    '{"output":"/home/x\t/prof","training_trace":"on"}',
    '{"output":"/tmp/p","x":' + "9" * 5000 + "}",
    '{"output":"/tmp/p","storage_limit":1e999}',
    '{"output":"/tmp/p","x":' + "[" * 20000 + "]" * 20000 + "}",
], ids=["unterminated", "raw-tab", "5000-digits", "1e999", "deep"])
def test_known_bad_inputs_within_the_deadline(text):
    for template in PYTHON_TEMPLATES:
        _check(_timed(analyse, template.format(lit=repr(text), blit=repr(text.encode())), None), text)
    for template in SHELL_TEMPLATES:
        _check(_timed(analyse_shell, template.format(quoted=shlex.quote(text), raw=text, dquoted=text)), text)


def test_the_deadline_stops_a_backtracking_pattern():
    # what the eval harness and these tests rely on: the alarm interrupts the regex engine too
    with pytest.raises(Hang):
        with deadline(0.2, "a catastrophic pattern"):
            re.match(r"(a+)+$", "a" * 60 + "b")
