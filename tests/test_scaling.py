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


# ---------------------------------------------------------------- every per-file step linear (issue 26)

def _work(run) -> int:
    """Python function calls made by run(): the work measure of _calls, for any front-end."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def _grows_linearly(make, small: int, run=None) -> None:
    run = run or (lambda text: analyse(text, None, "many.py"))
    _work(lambda: run(make(small // 4)))            # imports and first-use caches
    a, b = _work(lambda: run(make(small))), _work(lambda: run(make(2 * small)))
    assert b / a < 2.5, (a, b)                      # quadratic would give 4


ENV_LINES = "import os\n"


def env_lines(n: int) -> str:
    """The sweep's case: one variable assigned over and over at module level (4,000 lines took 27 s)."""
    return "import os\n" + "".join(
        f"os.environ['PROFILING_MODE'] = 'true'\n"
        f"os.environ['PROFILING_OPTIONS'] = '{{\"output\":\"/tmp/p{k}\",\"task_trace\":\"on\"}}'\n" for k in range(n))


def env_functions(n: int) -> str:
    """Each function its own scope with the mode off beside options (the NPP001 question per scope), and
    module-level modes under guards that every function's scope falls back to."""
    head = "import os\nimport sys\n" + "".join(
        f"if sys.argv[{k}]:\n    os.environ['PROFILING_MODE'] = 'false'\n" for k in range(n))
    return head + "".join(
        f"def run{k}():\n    os.environ['PROFILING_MODE'] = 'false'\n"
        f"    os.environ['PROFILING_OPTIONS'] = '{{\"output\":\"/tmp/p{k}\"}}'\n"
        f"def opts{k}():\n    os.environ['PROFILING_OPTIONS'] = '{{\"output\":\"/tmp/q{k}\"}}'\n" for k in range(n))


def test_assignments_of_one_variable_do_not_compare_every_pair():
    _grows_linearly(env_lines, 400)


def test_environment_sets_in_many_scopes_are_grouped_once():
    _grows_linearly(env_functions, 200)


def test_the_last_value_is_the_one_no_later_set_replaces():
    """last_values keeps exactly the sets the definition keeps: no later set of the same variable in the
    same scope whose guards are among this one's (checked against that definition, pair by pair)."""
    import ast as _ast
    import random
    from flake8_npuprof.setups.routes import env_sets, last_values
    from flake8_npuprof.source.sites import collect
    rng = random.Random(26)

    def block(depth: int, budget: list) -> list:
        out = []
        while budget[0] > 0 and (not out or rng.random() < 0.8):
            budget[0] -= 1
            pad, k = "    " * depth, budget[0]
            step = rng.choice(("set", "set", "if", "def") if depth == 0 else ("set", "set", "if"))
            if step == "if":
                out.append(f"{pad}if sys.argv[{k}]:")
                out.extend(block(depth + 1, budget) or [pad + "    pass"])
                if rng.random() < 0.5:
                    out.append(f"{pad}else:")
                    out.extend(block(depth + 1, budget) or [pad + "    pass"])
            elif step == "def":
                out.append(f"def f{k}():")
                out.extend(block(1, budget) or ["    pass"])
            else:
                name = rng.choice(("PROFILING_MODE", "PROFILING_OPTIONS"))
                out.append(f"{pad}os.environ[{name!r}] = 'v{k}'")
        return out

    for trial in range(80):
        lines = ["import os", "import sys"] + block(0, [rng.randint(1, 30)])
        sites = collect(_ast.parse("\n".join(lines) + "\n"))
        every = env_sets(sites)
        expected = [s for s in every if not any(
            o is not s and o.name == s.name and o.scope is s.scope and o.pos > s.pos and set(o.guards) <= set(s.guards)
            for o in every)]
        assert last_values(every) == expected, "\n".join(lines)
