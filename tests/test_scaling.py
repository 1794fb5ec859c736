"""Every per-file pass is linear in the number of setups and names: a file of setups that reuse
the same names (`config`, `custom_op`, one block per model or rank) is indexed, not rescanned."""

from __future__ import annotations

import sys
import time

from flake8_npuprof.checks.analysis import analyse

BLOCK = '''
prof_dir = "/tmp/prof{k}"
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["use_off_line"].b = True
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{{"output":"%s","L2":"on"}}' % prof_dir)
sess = tf.Session(config=config)
'''


def repeated_setups(n: int) -> str:
    return "import tensorflow as tf\n" + "".join(BLOCK.format(k=k) for k in range(n))


def _cpu_seconds(text: str):
    start = time.process_time()
    findings = analyse(text, None, "many.py")
    return time.process_time() - start, findings


def test_5000_repeated_setups_in_linear_time():
    seconds, findings = _cpu_seconds(repeated_setups(5000))
    codes = [f.code for f in findings]
    assert codes.count("NPP101") == 5000           # every setup keeps its finding: no budget ran out
    assert "NPP191" not in codes and "NPP000" not in codes
    assert seconds < 60, seconds                  # a guard against a return of the n^2.4 growth


def _calls(text: str) -> int:
    """Python function calls made while analysing the text: a measure of work that, unlike time,
    no load on the machine changes."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        analyse(text, None, "many.py")
    finally:
        sys.setprofile(None)
    return count


def test_doubling_the_setups_about_doubles_the_work():
    _calls(repeated_setups(20))                     # imports and first-use caches
    small, big = _calls(repeated_setups(100)), _calls(repeated_setups(200))
    assert big / small < 2.5, (small, big)          # quadratic would give 4
