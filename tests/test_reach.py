"""Execution from the entry point (issue 25, item 1): the code a run reaches decides the verdict; a setup no
path reaches is still linted and says so; a module with no entry point gets "unknown", not yes or no."""

import ast
import sys
import textwrap

import pytest

from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.emulate.framework_render import render_text
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.plugin import NpuProfChecker
from flake8_npuprof.setups import reach as reach_module
from flake8_npuprof.setups.inventory import Inventory
from flake8_npuprof.setups.reach import reach_of
from flake8_npuprof.source.text import SourceText

T = Target.parse("8.0", "910B")
IMPORTS = ("import argparse\nimport tensorflow as tf\n"
           "from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n"
           "from npu_bridge.estimator.npu.npu_estimator import NPUEstimator\n")


def _config(options='{"output":"/tmp/p","task_trace":"on"}', passed=True, indent="    "):
    body = (f"prof = ProfilingConfig(enable_profiling=True, profiling_options='{options}')\n"
            f"config = NPURunConfig(model_dir='/tmp/m'{', profiling_config=prof' if passed else ''})\n"
            "NPUEstimator(model_fn=None, config=config).train(input_fn=None)\n")
    return textwrap.indent(body, indent)


# the case: main() runs and never passes its ProfilingConfig; main_ok() holds a correct setup nothing calls
DEAD = (IMPORTS + "\n\ndef main():\n" + _config(passed=False) + "\n\ndef main_ok():\n" + _config() +
        '\n\nif __name__ == "__main__":\n    main()\n')


def _write(tmp_path, text, name="train.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _emulate(path):
    return emulate_path(str(path), T, cwd=str(path.parent), use_env=False, environ={})


def _line(text, needle, nth=1):
    lines = [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln]
    return lines[nth - 1]


def test_an_uncalled_function_does_not_decide_the_verdict(tmp_path):
    path = _write(tmp_path, DEAD)
    report = _emulate(path)
    used, dead = report["results"]
    main_guard = _line(DEAD, "__main__")
    assert (used.setup.line, used.verdict, used.read_by_ge) == (_line(DEAD, "ProfilingConfig(enable"), "off", False)
    assert str(used.messages[0]).startswith("NPP006")
    assert (dead.setup.line, dead.verdict, dead.read_by_ge, dead.setup.reached) == \
        (_line(DEAD, "ProfilingConfig(enable", 2), "off", False, False)
    assert list(map(str, dead.messages)) == [f"not reached from this file's entry point (line {main_guard}): nothing "
                                             "on the way from it calls this code, so this run never meets it"]
    # before: "usable data: yes" from main_ok's setup; the run does what main() does
    assert report["usable"] is False and report["exit"] == 1
    from flake8_npuprof.emulate.script import headline
    assert headline(report, dead) == f"train.py:{dead.setup.line} ProfilingConfig: NOT REACHED from this " \
                                     f"file's entry point (line {main_guard})"


def test_check_and_flake8_still_lint_unreached_code_and_say_it_is_not_reached(tmp_path):
    text = DEAD.replace('"task_trace":"on"}', '"L2":"on"}')
    findings = analyse(text, None, "train.py", Settings(target=T))
    bad = [f for f in findings if f.code == "NPP101"]
    main_guard = _line(text, "__main__")
    # main()'s setup is never passed (latent); main_ok()'s is not reached: both still reported, each saying why
    assert [(f.line, f.message.split(":")[0]) for f in bad] == [
        (_line(text, "ProfilingConfig(enable"), "latent (this config never reaches GE); once GE reads these options"),
        (_line(text, "ProfilingConfig(enable", 2), f"not reached from this file's entry point (line {main_guard})")]
    unreached = bad[1].message
    assert unreached.startswith(f"not reached from this file's entry point (line {main_guard}): unknown profiling_options "
                                'key "L2"')
    assert "GE initialisation will fail and the job will abort" in unreached
    assert "GE initialisation fails and the job aborts" not in unreached
    # the flake8 plugin says the same
    checker = NpuProfChecker(ast.parse(text), text.splitlines(keepends=True), "train.py")
    checker.settings = Settings(target=T)
    messages = [m for _, _, m, _ in checker.run()]
    # its one line is the short message: "not reached from its entry point: ", the line being in the detail
    shown = 'NPP101 not reached from its entry point: unknown profiling_options key "L2": '
    assert any(m.startswith(shown) for m in messages)
    assert f"not reached from this file's entry point (line {main_guard})" in bad[1].detail


def test_a_module_without_entry_point_is_unknown_not_yes_or_no(tmp_path):
    text = IMPORTS + "\n\ndef make():\n" + _config()
    report = _emulate(_write(tmp_path, text, "lib.py"))
    (r,) = report["results"]
    assert (r.verdict, r.read_by_ge, r.setup.reached) == ("collects", None, None)
    assert report["usable"] is None and report["exit"] == 1
    from flake8_npuprof.emulate.script import render_text
    out = render_text(dict(report, target_origin={}))
    assert f"usable data: unknown (line {r.setup.line} ProfilingConfig: the file shows no entry point, so whether " \
           "this code runs depends on the code that imports it (if it runs: collects))" in out
    # a failing setup there is not a certain "no" either
    bad = IMPORTS + "\n\ndef make():\n" + _config('{"output":"/tmp/p","L2":"on"}')
    report = _emulate(_write(tmp_path, bad, "lib_bad.py"))
    assert report["results"][0].verdict == "fails" and report["usable"] is None
    # and check does not call that code unreached
    findings = analyse(bad, None, "lib_bad.py", Settings(target=T))
    assert "NPP101" in [f.code for f in findings] and not any("not reached" in f.message for f in findings)


@pytest.mark.parametrize("entry", [
    'if __name__ == "__main__":\n    main()\n',
    "tf.compat.v1.app.run()\n",
    "if __name__ == '__main__':\n    tf.app.run(main=main)\n",
    "from absl import app\napp.run(main)\n",
    "main()\n",
])
def test_entry_points(tmp_path, entry):
    text = IMPORTS + "\n\ndef main(argv=None):\n" + _config() + "\n\ndef spare():\n" + _config() + "\n\n" + entry
    report = _emulate(_write(tmp_path, text))
    main, spare = report["results"]
    assert (main.verdict, main.setup.reached) == ("collects", True)
    assert (spare.verdict, spare.setup.reached) == ("off", False)
    assert report["usable"] is True


@pytest.mark.parametrize("use", [
    "Trainer().fit()",                                           # a method, by its attribute name
    "NPUEstimator(model_fn=spare, config=None)",                 # a callback handed to other code
    "helper = {'go': spare}\n    helper['go']()",                # kept in a container
    "globals()['spa' + 're']()",                                 # a name computed at run time: nothing is claimed
    "getattr(Trainer(), 'fit')()",                               # a method named by a constant
    "Hook()",                                                    # a framework class: its hooks run by name
])
def test_code_that_may_run_is_never_called_unreached(tmp_path, use):
    text = (IMPORTS + "\n\nclass Trainer:\n    def fit(self):\n        spare()\n\n\n"
            "class Hook(tf.estimator.SessionRunHook):\n    def begin(self):\n        spare()\n\n\n"
            "def spare():\n" + _config() + f"\n\ndef main():\n    {use}\n\n\n"
            'if __name__ == "__main__":\n    main()\n')
    (r,) = _emulate(_write(tmp_path, text))["results"]
    assert r.setup.reached is not False and r.verdict == "collects"
    assert not any("not reached" in f.message for f in analyse(text, None, "t.py", Settings(target=T)))


@pytest.mark.parametrize("call, dynamic", [
    ("model.eval()", None),                     # torch's evaluation mode: a method, not the builtin
    ("model.exec()", None),
    ("eval('spare()')", (0, "`eval()`")),
    ("builtins.eval('spare()')", (0, "`builtins.eval()`")),
    ("fire.Fire()", (0, "`fire.Fire()`")),
    ("getattr(Trainer(), name)()", (0, "`getattr()`")),
])
def test_only_a_call_by_a_computed_name_leaves_reach_unknown(tmp_path, call, dynamic):
    text = (IMPORTS + "import builtins\nimport fire\n\n\nclass Trainer:\n    pass\n\n\n"
            "def spare():\n" + _config() + f"\n\ndef main(model, name):\n    {call}\n\n\n"
            'if __name__ == "__main__":\n    main(None, "x")\n')
    at = _line(text, call)
    report = _emulate(_write(tmp_path, text))
    (r,) = report["results"]
    if dynamic is None:
        # before: `model.eval()` counted as the builtin eval, so no PyTorch script could say "not reached"
        assert (r.verdict, r.setup.reached) == ("off", False)
        return
    assert (r.verdict, r.setup.reached, r.read_by_ge) == ("collects", None, None)
    why = f"this file runs code by a name computed at run time ({dynamic[1]} at line {at})"
    assert r.setup.unknown_reach == why
    # the file has an entry point: emulate says what stops it from knowing, never "no entry point"
    assert list(map(str, r.messages))[:1] == [f"{why}, so whether this code runs is not known here; emulated as if "
                                              "it ran"]
    from flake8_npuprof.emulate.script import render_text
    out = render_text(dict(report, target_origin={}))
    assert f"usable data: unknown (line {r.setup.line} ProfilingConfig: {why}, so whether this code runs is not " \
           "known here (if it runs: collects))" in out
    assert "entry point" not in out


def test_a_torch_profiler_in_a_function_nothing_calls_is_off(tmp_path, capsys):
    # the model zoo's UNet train.py: a legacy profiler in profiling(), which main() never calls; main() calls
    # model.eval(), which no longer hides that
    from flake8_npuprof.cli import main
    text = ("import torch\nimport torch_npu\n\n\ndef profiling(model):\n"
            "    with torch.autograd.profiler.profile(use_npu=True) as prof:\n        model(1)\n\n\n"
            "def main(model):\n    model.eval()\n\n\n"
            'if __name__ == "__main__":\n    main(None)\n')
    path = _write(tmp_path, text)
    assert main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ['train.py:6 legacy: OFF: not reached from this file\'s entry point (line 14 if __name__ == '
                        '"__main__":)',
                        'usable data: no (line 6: not reached from this file\'s entry point (line 14 if __name__ == '
                        '"__main__":))']


def test_a_test_cases_methods_run_and_a_skipped_test_does_not(tmp_path, capsys):
    # torch_npu's test/profiler/test_npu_profiler.py: run_tests() (unittest.main) runs every test of the TestCase,
    # which nothing names; it said "not reached" of those and "COLLECTS" of the two under @unittest.skip only
    from flake8_npuprof.cli import main
    text = ("import unittest\nimport torch_npu\nfrom torch_npu.testing.testcase import run_tests, TestCase\n\n\n"
            "class TestProfiler(TestCase):\n    def test_default(self):\n        with torch_npu.profiler.profile("
            "on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) as prof:\n            prof.step()\n\n"
            "    @unittest.skip('skip now')\n    def test_skipped(self):\n"
            "        with torch_npu.profiler.profile() as prof:\n            prof.step()\n\n\n"
            'if __name__ == "__main__":\n    run_tests()\n')
    path = _write(tmp_path, text)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == [f"train.py:8 profile: COLLECTS from step 0 into {tmp_path / 'p'}",
                        "train.py:13 profile: OFF: skipped: `@unittest.skip('skip now')` (line 11) puts a function "
                        "that raises SkipTest in its place, so this code never runs"]
    # skipIf / skipUnless, on the test or its class: it runs where the condition lets it (torch_npu's
    # test_multi_stream_lazy_reclaim.py: `@unittest.skipUnless(IS_ARM64, "Only working on ARM")`)
    path.write_text(text.replace("class TestProfiler", "@unittest.skipUnless(ARM, 'ARM only')\nclass TestProfiler")
                    .replace("    def test_default", "    @unittest.skipIf(SLOW, 'slow')\n    def test_default"))
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == \
        f"train.py:10 profile: COLLECTS from step 0 into {tmp_path / 'p'} (when not (SLOW) and ARM)"
    # a file that runs no test runner runs its tests only where it names them
    path.write_text(text.replace("run_tests()", "print('no tests')"))
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == \
        'train.py:8 profile: OFF: not reached from this file\'s entry point (line 17 if __name__ == "__main__":)'


def test_a_test_runner_runs_only_the_tests_of_a_test_case_it_does_not_skip(tmp_path, capsys):
    # unittest.main() (and pytest) runs the methods named test* (and its hooks: setUp, ...), not a helper nothing
    # calls; a class under @unittest.skip runs none of its tests; a `skip` of the project's own is no unittest.skip
    # (python 3.11: `python3 x.py` prints nothing of the helper, of the skipped class or of its setUpClass, and runs
    # the test under the project's @skip)
    from flake8_npuprof.cli import main
    profile = ("        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
               "'./p')) as prof:\n            prof.step()\n")
    text = ("import unittest\nimport torch_npu\nfrom unittest import skip as unittest_skip\n\n\n"
            "def skip(reason):\n    return lambda f: f\n\n\n"
            "class TestProfiler(unittest.TestCase):\n    def helper_profile(self):\n" + profile +
            "\n    @skip('not really')\n    def test_own_skip(self):\n" + profile +
            "\n\n@unittest.skip('broken')\nclass TestSkipped(unittest.TestCase):\n    def test_x(self):\n" + profile +
            '\n\nif __name__ == "__main__":\n    unittest.main()\n')
    path = _write(tmp_path, text)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    entry = 'not reached from this file\'s entry point (line 28 if __name__ == "__main__":)'
    assert capsys.readouterr().out.splitlines()[1:4] == [
        f"train.py:12 profile: OFF: {entry}",
        f"train.py:17 profile: COLLECTS from step 0 into {tmp_path / 'p'}",
        f"train.py:24 profile: OFF: {entry}"]


def test_a_test_case_by_way_of_a_base_of_the_file_runs_its_tests(tmp_path, capsys):
    # `class TestProfiler(Base)` with `class Base(unittest.TestCase)` above it: unittest.main() runs test_profile
    # (python 3.11); it said "not reached from this file's entry point"
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport torch_npu\n\n\nclass Base(unittest.TestCase):\n"
                  "    def setUp(self):\n        pass\n\n\nclass Middle(Base):\n    pass\n\n\n"
                  "class TestProfiler(Middle):\n    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == f"train.py:16 profile: COLLECTS from step 0 into {tmp_path / 'p'}"


def test_a_test_class_with_a_base_from_elsewhere_is_not_said_to_be_unreached(tmp_path, capsys):
    # `class TestProfiler(common.Base)`: unittest.main() runs test_profile where common.Base is a TestCase (python
    # 3.11), and this file cannot tell: it said "not reached from this file's entry point"
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport common\nimport torch_npu\n\n\nclass TestProfiler(common.Base):\n"
                  "    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == (
        f"train.py:8 profile: UNKNOWN: from step 0 into {tmp_path / 'p'}; but the test runner may run the tests of "
        "TestProfiler (line 6), whose base common.Base is not defined in this file: whether this code runs is not "
        "known here")


@pytest.mark.parametrize("imports, base, out", [
    # unittest.IsolatedAsyncioTestCase (python 3.11 runs its `async def test_*` and asyncSetUp, not a helper); it said
    # "UNKNOWN: ... whose base unittest.IsolatedAsyncioTestCase is not defined in this file"
    ("import os\n", "unittest.IsolatedAsyncioTestCase", "COLLECTS from step 0 into {}"),
    ("from unittest import IsolatedAsyncioTestCase as Base\n", "Base", "COLLECTS from step 0 into {}"),
    # a class of the same name from elsewhere may be anything: unknown, as before
    ("from common import IsolatedAsyncioTestCase\n", "IsolatedAsyncioTestCase",
     "UNKNOWN: from step 0 into {}; but the test runner may run the tests of TestProfiler (line 6), whose base "
     "IsolatedAsyncioTestCase is not defined in this file: whether this code runs is not known here"),
])
def test_unittests_async_test_case_runs_its_tests(tmp_path, capsys, imports, base, out):
    from flake8_npuprof.cli import main
    profile = ("        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
               "'./p')) as prof:\n            prof.step()\n")
    path = _write(tmp_path, "import unittest\nimport torch_npu\n" + imports + "\n\n"
                  f"class TestProfiler({base}):\n    async def test_profile(self):\n" + profile +
                  "\n    def helper(self):\n" + profile + "\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    helper = out if out.startswith("UNKNOWN") else \
        "OFF: not reached from this file's entry point (line 16 if __name__ == \"__main__\":)"
    assert capsys.readouterr().out.splitlines()[1:3] == [f"train.py:8 profile: {out.format(tmp_path / 'p')}",
                                                         f"train.py:12 profile: {helper.format(tmp_path / 'p')}"]


PYTEST_FILE = (
    "import unittest\nimport pytest\nimport torch_npu\n\n\ndef profiled():\n{p}\n\ndef test_a():\n{p}\n\n"
    "def helper():\n{p}\n\n@pytest.mark.skip(reason='x')\ndef test_skipped():\n{p}\n\n"
    "@pytest.mark.skipif(SLOW, reason='x')\ndef test_slow():\n{p}\n\nclass TestPlain:\n    def test_m(self):\n{q}\n"
    "    def helper(self):\n{q}\n\nclass TestInit:\n    def __init__(self):\n        pass\n\n"
    "    def test_m(self):\n{q}\n\nclass Checks(unittest.TestCase):\n    def test_u(self):\n{q}\n\n"
    "if __name__ == \"__main__\":\n    pytest.main([__file__, '-s'])\n")
_PROFILE = ("with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) "
            "as prof:\n    prof.step()\n")


def test_pytest_main_on_the_file_runs_what_pytest_collects(tmp_path, capsys):
    # `python train.py` with `pytest.main([__file__, '-s'])` (pytest 9.2, python 3.11): module-level test* functions,
    # Test* classes without __init__ and TestCases run, not a helper nor a class with __init__; @pytest.mark.skip is
    # skipped, skipif(cond) runs when not cond. It said "not reached from this file's entry point" of all but Checks
    from flake8_npuprof.cli import main
    text = PYTEST_FILE.format(p=textwrap.indent(_PROFILE, "    "), q=textwrap.indent(_PROFILE, " " * 8))
    path = _write(tmp_path, text)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    off = 'OFF: not reached from this file\'s entry point (line 58 if __name__ == "__main__":)'
    on = f"COLLECTS from step 0 into {tmp_path / 'p'}"
    assert capsys.readouterr().out.splitlines()[1:10] == [
        f"train.py:7 profile: {off}", f"train.py:12 profile: {on}", f"train.py:17 profile: {off}",
        "train.py:23 profile: OFF: skipped: `@pytest.mark.skip(reason='x')` (line 21): pytest skips the test, so this "
        "code never runs", f"train.py:29 profile: {on} (when not (SLOW))", f"train.py:35 profile: {on}",
        f"train.py:39 profile: {off}", f"train.py:48 profile: {off}", f"train.py:54 profile: {on}"]


@pytest.mark.parametrize("imports, prefix", [("import pytest as pt\n", "pt."), ("from pytest import main, mark\n", "")])
def test_pytest_under_another_name_is_pytest(tmp_path, capsys, imports, prefix):
    # `import pytest as pt` with `@pt.mark.skip` and `pt.main([__file__])`, or `from pytest import main, mark`: pytest
    # 9.2 and 7.4 (python 3.11) run and skip the same tests as under `import pytest`. It said "not reached" of the tests
    # pytest runs and COLLECTS of those it skips (the alias was not pytest's)
    from flake8_npuprof.cli import main
    text = PYTEST_FILE.format(p=textwrap.indent(_PROFILE, "    "), q=textwrap.indent(_PROFILE, " " * 8))
    text = text.replace("import pytest\n", imports).replace("pytest.main", prefix + "main") \
        .replace("pytest.mark", prefix + "mark")
    path = _write(tmp_path, text)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    off = 'OFF: not reached from this file\'s entry point (line 58 if __name__ == "__main__":)'
    on = f"COLLECTS from step 0 into {tmp_path / 'p'}"
    assert capsys.readouterr().out.splitlines()[1:10] == [
        f"train.py:7 profile: {off}", f"train.py:12 profile: {on}", f"train.py:17 profile: {off}",
        f"train.py:23 profile: OFF: skipped: `@{prefix}mark.skip(reason='x')` (line 21): pytest skips the test, so "
        "this code never runs", f"train.py:29 profile: {on} (when not (SLOW))", f"train.py:35 profile: {on}",
        f"train.py:39 profile: {off}", f"train.py:48 profile: {off}", f"train.py:54 profile: {on}"]


def _pytest_tree(tmp_path, files):
    """PYTEST_FILE as proj/train.py under tmp_path, with these files (path under tmp_path: text) beside it."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "proj").mkdir(exist_ok=True)
    text = PYTEST_FILE.format(p=textwrap.indent(_PROFILE, "    "), q=textwrap.indent(_PROFILE, " " * 8))
    return _write(tmp_path / "proj", text)


@pytest.mark.parametrize("files, why", [
    # a conftest.py beside the file or above it: pytest 9.2 and 7.4 load it (its collect_ignore, its
    # pytest_collection_modifyitems hook ran: `items[:] = []` ran no test). It said COLLECTS of test_a
    ({"proj/conftest.py": "collect_ignore = []\n"}, "loads conftest.py, whose hooks and fixtures may change which "
     "tests run"),
    # one above the file's folder with no configuration at or above it: loaded only where pytest's rootdir is its
    # folder or above (pytest 9.2 started in /: rootdir the file's folder, test_a ran); it said "loads"
    ({"conftest.py": "def pytest_collection_modifyitems(items):\n    items[:] = []\n"}, "may load ../conftest.py, "
     "whose hooks and fixtures may change which tests run"),
    # ... with one: its folder is the confcutdir, and pytest loads it (pytest 9.2 from /: no test ran)
    ({"conftest.py": "def pytest_collection_modifyitems(items):\n    items[:] = []\n",
      "tox.ini": "[pytest]\nmarkers =\n    a: x\n"}, "loads ../conftest.py, whose hooks and fixtures may change which "
     "tests run"),
    # the first configuration from the file's folder up, whichever folder pytest starts in: addopts `-k slow` ran
    # test_slow alone (pytest 9.2 and 7.4, started in /)
    ({"pytest.ini": "[pytest]\naddopts = -s -k slow\n"}, "reads ../pytest.ini, whose addopts = -s -k slow may change "
     "which tests run"),
    ({"proj/setup.cfg": "[metadata]\nname = x\n", "tox.ini": "[tox]\n\n[pytest]\nusefixtures = gpu\n"},
     "reads ../tox.ini, whose usefixtures = gpu may change which tests run"),
    ({"proj/pyproject.toml": "[tool.pytest.ini_options]\nminversion = \"99\"\n"}, "reads pyproject.toml, whose "
     "minversion = 99 may change which tests run"),
    # a setup.cfg's [pytest] section: pytest refuses it and runs nothing
    ({"setup.cfg": "[pytest]\naddopts = -s\n"}, "reads ../setup.cfg, whose [pytest] section pytest refuses (it stops "
     "before running any test)"),
    # a `[` line with nothing before it to continue: iniconfig's "unexpected value continuation" (pytest 9.2, run)
    ({"proj/pytest.ini": "[foo\n[pytest]\n"}, "reads pytest.ini, which pytest cannot parse (it stops before running "
     "any test)"),
    # a .pytest.ini without [pytest]: pytest 9.2 takes it as its configuration (it ran test_a), 7.4 passes over it to
    # the pytest.ini above (-k slow); it said COLLECTS of test_a
    ({"proj/.pytest.ini": "[other]\n", "pytest.ini": "[pytest]\naddopts = -k slow\n"}, "reads .pytest.ini, which "
     "has no [pytest] section: pytest 9 takes it as its configuration, with no settings, and 7.4 looks further up, not "
     "read here"),
    # pytest 9's own TOML file (7.4 does not read it)
    ({"proj/pytest.toml": "[pytest]\n"}, "reads pytest.toml, a TOML configuration pytest 9 reads and 7.4 does not, not "
     "read here"),
])
def test_pytest_main_with_a_configuration_or_conftest_that_may_change_what_runs_is_unknown(tmp_path, capsys, files,
                                                                                            why):
    from flake8_npuprof.cli import main
    path = _pytest_tree(tmp_path, files)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(path.parent), str(path)])
    unknown = (f"UNKNOWN: from step 0 into {path.parent / 'p'}; but pytest.main at line 59 {why}: whether this code "
               "runs is not known here")
    out = capsys.readouterr().out.splitlines()
    assert [out[i] for i in (1, 2, 3, 6, 7, 8, 9)] == [f"train.py:{n} profile: {unknown}" for n in (7, 12, 17, 35, 39,
                                                                                                       48, 54)]


@pytest.mark.parametrize("files", [
    # no configuration, or none that changes what runs: as without one (pytest 9.2 and 7.4 ran test_a, test_slow,
    # TestPlain.test_m, Checks.test_u). A setup.cfg without [tool:pytest] is not pytest's; a conftest.py above the
    # configuration's folder is not loaded (pytest 9.2 and 7.4: confcutdir is that folder)
    {},
    {"proj/setup.cfg": "[metadata]\nname = x\n"},
    {"proj/pytest.ini": "[pytest]\n# addopts = -k slow\npython_files = check_*.py\ntestpaths = elsewhere\n"
                        "markers =\n    slow: x\n", "conftest.py": "collect_ignore = ['proj']\n"},
    {"pyproject.toml": "[project]\nname = 'x'\n\n[tool.pytest.ini_options]\naddopts = '-q'\nmarkers = ['slow: x']\n"},
    # a `[` line with no `]` at its end continues the value before it (iniconfig 2.3.1; pytest 9.2 ran the tests): it
    # said "reads pytest.ini, which pytest cannot parse (it stops before running any test)"
    {"proj/pytest.ini": "[pytest]\nmarkers = a\n[foo\n"},
    # nothing above a .pytest.ini without [pytest]: no settings for pytest 9.2 and 7.4 alike
    {"proj/.pytest.ini": "[other]\n"},
])
def test_pytest_main_with_a_configuration_that_changes_nothing_of_what_runs(tmp_path, capsys, files):
    from flake8_npuprof.cli import main
    path = _pytest_tree(tmp_path, files)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(path.parent), str(path)])
    off = 'OFF: not reached from this file\'s entry point (line 58 if __name__ == "__main__":)'
    on = f"COLLECTS from step 0 into {path.parent / 'p'}"
    assert capsys.readouterr().out.splitlines()[1:10] == [
        f"train.py:7 profile: {off}", f"train.py:12 profile: {on}", f"train.py:17 profile: {off}",
        "train.py:23 profile: OFF: skipped: `@pytest.mark.skip(reason='x')` (line 21): pytest skips the test, so this "
        "code never runs", f"train.py:29 profile: {on} (when not (SLOW))", f"train.py:35 profile: {on}",
        f"train.py:39 profile: {off}", f"train.py:48 profile: {off}", f"train.py:54 profile: {on}"]


def test_pytest_main_collects_what_python_functions_and_python_classes_name(tmp_path, capsys):
    # tox.ini's `python_functions = check_* helper` and `python_classes = *Plain` (prefixes or globs): pytest 9.2 and
    # 7.4 ran helper, TestPlain.helper and the TestCase's test_u (unittest's loader names those), not test_a nor
    # TestPlain.test_m. It said COLLECTS of test_a and TestPlain.test_m, "not reached" of the helpers
    from flake8_npuprof.cli import main
    path = _pytest_tree(tmp_path, {"proj/tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\npython_functions = check_* "
                                   "helper\npython_classes = *Plain\n"})
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(path.parent), str(path)])
    off = 'OFF: not reached from this file\'s entry point (line 58 if __name__ == "__main__":)'
    on = f"COLLECTS from step 0 into {path.parent / 'p'}"
    out = capsys.readouterr().out.splitlines()
    assert [out[i] for i in (1, 2, 3, 6, 7, 8, 9)] == [
        f"train.py:7 profile: {off}", f"train.py:12 profile: {off}", f"train.py:17 profile: {on}",
        f"train.py:35 profile: {off}", f"train.py:39 profile: {on}", f"train.py:48 profile: {off}",
        f"train.py:54 profile: {on}"]


@pytest.mark.parametrize("files, old, new, out", [
    # pytest's marks register nothing: a marked function runs only when pytest collects it. python_functions = check_*
    # (pytest 9.2 and 7.4 ran neither test_skipped nor test_slow) and addopts -k slow (which ran test_slow alone: not
    # known here). It said COLLECTS of both, the marks taken for a registration
    ({"proj/tox.ini": "[pytest]\npython_functions = check_*\n"}, "", "", ("OFF: not reached from this file's entry "
                                                                          'point (line 58 if __name__ == "__main__":)',) * 2),
    ({"proj/tox.ini": "[pytest]\naddopts = -k slow\n"}, "", "", ("UNKNOWN: from step 0 into {p}; but pytest.main at "
                                                                  "line 59 reads tox.ini, whose addopts = -k slow may "
                                                                  "change which tests run: whether this code runs is "
                                                                  "not known here",) * 2),
    # the same under another name, and with the arguments of pytest.main
    ({}, "import pytest\n", "import pytest as pt\n", ("UNKNOWN: from step 0 into {p}; but pytest.main at line 59 runs "
                                                       "what its arguments select, which may be tests of this file: "
                                                       "whether this code runs is not known here",) * 2),
])
def test_a_pytest_mark_is_no_registration(tmp_path, capsys, files, old, new, out):
    from flake8_npuprof.cli import main
    path = _pytest_tree(tmp_path, files)
    text = path.read_text()
    if old:
        text = text.replace(old, new).replace("pytest.", "pt.").replace("pt.main([__file__, '-s'])",
                                                                          "pt.main([__file__, '-k', 'slow'])")
    path.write_text(text)
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(path.parent), str(path)])
    out = [o.format(p=path.parent / "p") for o in out]
    assert capsys.readouterr().out.splitlines()[4:6] == [f"train.py:23 profile: {out[0]}", f"train.py:29 profile: "
                                                                                            f"{out[1]}"]


@pytest.mark.parametrize("old, new, why", [
    # pytest.main() reads the command line, else collects the folder it starts in (test_*.py there: maybe this file)
    ("pytest.main([__file__, '-s'])", "pytest.main()", "pytest.main() at line 59 runs the tests the command line "
     "names, else those of the folder it starts in, which may be this file's"),
    ("pytest.main([__file__, '-s'])", "pytest.main([__file__, '-k', 'slow'])", "pytest.main at line 59 runs what its "
     "arguments select, which may be tests of this file"),
    ("    pytest.main([__file__, '-s'])", "    if args.test:\n        pytest.main([__file__])",
     "pytest.main at line 60 runs the tests of this file when args.test"),
    # without a plugin pytest fails an async test without running it (pytest 9.2: "async def functions are not
    # natively supported"); with one it runs it
    ("def test_a", "async def test_a", "pytest runs the async test test_a (line 11) only with a plugin for it"),
    # a parameter no fixture of the file or of pytest provides: pytest 9.2 "fixture 'model' not found", an error, the
    # test not run (a conftest.py may provide one); a fixture of the file's own, tmp_path and a default need none
    ("def test_a():", "def test_a(model, loader):", "pytest runs test_a (line 11) only where a fixture named model "
     "exists (a conftest.py's, a plugin's): without one pytest reports an error and does not run it"),
    ("def test_a():", "@pytest.fixture\ndef model():\n    return 1\n\n\ndef test_a(model, tmp_path, x=1):\n"
     "    pass\n\n\ndef test_b(self_made):", "pytest runs test_b (line 20) only where a fixture named self_made "
     "exists (a conftest.py's, a plugin's): without one pytest reports an error and does not run it"),
    # nose-style setup(): pytest 7 calls it, pytest 8 does not
    ("def helper():", "def setup():", "pytest before 8 calls setup (line 16) before or after the tests, 8 does not"),
])
def test_pytest_main_that_may_run_tests_this_file_cannot_place_is_unknown(tmp_path, capsys, old, new, why):
    from flake8_npuprof.cli import main
    text = PYTEST_FILE.format(p=textwrap.indent(_PROFILE, "    "), q=textwrap.indent(_PROFILE, " " * 8))
    path = _write(tmp_path, text.replace(old, new))
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == (
        f"train.py:7 profile: UNKNOWN: from step 0 into {tmp_path / 'p'}; but {why}: whether this code runs is not "
        "known here")


def test_a_skip_if_of_the_projects_own_is_no_condition(tmp_path, capsys):
    # `def skipIf(cond, reason): return lambda f: f`: python 3.11 runs the test whatever SLOW is; it said
    # "COLLECTS ... (when not (SLOW))"
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport torch_npu\n\n\ndef skipIf(cond, reason):\n    return lambda f: f\n"
                  "\n\nclass TestProfiler(unittest.TestCase):\n    @skipIf(SLOW, 'slow')\n    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == f"train.py:12 profile: COLLECTS from step 0 into {tmp_path / 'p'}"


def test_a_run_tests_of_the_files_own_is_no_test_runner(tmp_path, capsys):
    # `def run_tests(): ...` in the file, called in its main guard: python 3.11 runs no test of TestProfiler
    # (torch_npu.testing's run_tests, imported, is unittest.main)
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport torch_npu\n\n\nclass TestProfiler(unittest.TestCase):\n"
                  "    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\ndef run_tests():\n    print('no tests')\n\n\n"
                  "if __name__ == \"__main__\":\n    run_tests()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == \
        'train.py:7 profile: OFF: not reached from this file\'s entry point (line 15 if __name__ == "__main__":)'


def test_a_test_runner_in_a_function_runs_the_tests_only_if_that_runs(tmp_path, capsys):
    # `def selftest(): unittest.main()` that nothing calls: python 3.11 runs no test (it said COLLECTS); whether a
    # function holding the runner runs is not worked out here, so the tests are UNKNOWN, not "not reached"
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport torch_npu\n\n\nclass TestProfiler(unittest.TestCase):\n"
                  "    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\ndef selftest():\n    unittest.main()\n\n\n"
                  "if __name__ == \"__main__\":\n    print('training')\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == (
        f"train.py:7 profile: UNKNOWN: from step 0 into {tmp_path / 'p'}; but a test runner is called in a function "
        "(line 12: unittest.main), which may run the tests of TestProfiler (line 5): whether this code runs is not "
        "known here")


def test_a_runner_told_which_tests_to_run_runs_those(tmp_path, capsys):
    # `unittest.main(defaultTest="TestOther")`: python 3.11 runs TestOther's tests only; it said COLLECTS of
    # TestProfiler's (the class is not named, so its tests are not reached)
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nimport torch_npu\n\n\nclass TestProfiler(unittest.TestCase):\n"
                  "    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\nclass TestOther(unittest.TestCase):\n"
                  "    def test_other(self):\n        pass\n\n\n"
                  "if __name__ == \"__main__\":\n    unittest.main(defaultTest=\"TestOther\")\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == \
        'train.py:7 profile: OFF: not reached from this file\'s entry point (line 16 if __name__ == "__main__":)'


@pytest.mark.parametrize("decorator, out", [
    # a constant condition is no condition: skipIf(True) / skipUnless(False) is unittest.skip(reason) (python 3.11
    # skips the test), skipIf(False) / skipUnless(True) leaves it as it is; it said "COLLECTS ... (when a condition)"
    ("@unittest.skipIf(True, 'off')", "OFF: skipped: `@unittest.skipIf(True, 'off')` (line 7) puts a function that "
     "raises SkipTest in its place, so this code never runs"),
    ("@skipUnless(0, 'off')", "OFF: skipped: `@skipUnless(0, 'off')` (line 7) puts a function that raises SkipTest in "
     "its place, so this code never runs"),
    ("@unittest.skipIf(False, 'on')", "COLLECTS from step 0 into {}"),
    ("@unittest.skipUnless(True, 'on')", "COLLECTS from step 0 into {}"),
])
def test_a_constant_skip_condition_skips_or_not(tmp_path, capsys, decorator, out):
    from flake8_npuprof.cli import main
    path = _write(tmp_path, "import unittest\nfrom unittest import skipUnless\nimport torch_npu\n\n\n"
                  "class TestProfiler(unittest.TestCase):\n    " + decorator + "\n    def test_profile(self):\n"
                  "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
                  "'./p')) as prof:\n            prof.step()\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    main(["emulate", "--torch-npu", "7.3", "--cwd", str(tmp_path), str(path)])
    assert capsys.readouterr().out.splitlines()[1] == f"train.py:9 profile: {out.format(tmp_path / 'p')}"


def test_conditions_on_the_way_become_the_setups_conditions(tmp_path):
    text = (IMPORTS + "parser = argparse.ArgumentParser()\nparser.add_argument('--profiling', action='store_true')\n"
            "args = parser.parse_args()\n\n\ndef run_profiled():\n" + _config() + "\n\ndef main():\n"
            "    if args.profiling:\n        run_profiled()\n\n\n" + 'if __name__ == "__main__":\n    main()\n')
    path = _write(tmp_path, text)
    (r,) = _emulate(path)["results"]
    assert r.setup.conditions == ("args.profiling",) and r.verdict == "collects"
    ctx = Context(SourceText(text), ast.parse(text), str(path), Settings(target=T))
    assert ctx.model.states[0].status == "conditional"
    # a launcher decides a condition on the way as it decides the setup's own `if`s
    (tmp_path / "off.sh").write_text('cd "$(dirname "$0")"\npython3 train.py\n')
    (tmp_path / "on.sh").write_text('cd "$(dirname "$0")"\npython3 train.py --profiling\n')
    (off,) = _emulate(tmp_path / "off.sh")["results"]
    (on,) = _emulate(tmp_path / "on.sh")["results"]
    assert off.verdict == "off" and str(off.messages[0]).startswith("not run in this launch: `args.profiling` is false")
    assert (on.verdict, on.setup.conditions) == ("collects", ())


def test_two_ways_in_join_their_conditions_with_or():
    text = ("import os\n\ndef go():\n    os.environ['PROFILING_MODE'] = 'true'\n\n\n"
            "if __name__ == '__main__':\n    if os.getenv('A'):\n        go()\n"
            "    elif os.getenv('B'):\n        go()\n")
    sites = Context(SourceText(text), ast.parse(text), "t.py", Settings()).sites
    (setup,) = Inventory(Context(SourceText(text), ast.parse(text), "t.py", Settings())).setups
    assert setup.conditions == ("(os.getenv('A')) or (not (os.getenv('A')) and os.getenv('B'))",)
    assert setup.path == ()         # no single path: a launch cannot decide it
    assert reach_of(sites).entry.line == 7


def test_a_ge_initialisation_on_a_conditional_way_overrides_nothing(tmp_path):
    text = (IMPORTS + "import os\n\n\ndef warm_up():\n    tf.compat.v1.Session(config=tf.compat.v1.ConfigProto())\n\n\n"
            "def main():\n    if os.getenv('WARM'):\n        warm_up()\n" + _config() + "\n\n"
            'if __name__ == "__main__":\n    main()\n')
    (r,) = _emulate(_write(tmp_path, text))["results"]
    assert r.verdict == "collects" and r.read_by_ge is True      # the warm-up session may not run


def test_reach_is_not_recomputed_per_setup(monkeypatch):
    # many setups in many functions: each question about a new function may widen what is propagated, but the
    # runs together propagate over at most three times the file's scopes (then the whole file is computed once)
    text = IMPORTS + "".join(f"\n\ndef step{k}():\n" + _config() for k in range(40)) + \
        '\n\nif __name__ == "__main__":\n' + "".join(f"    step{k}()\n" for k in range(40))
    spread = []
    real = reach_module.Reach._run
    monkeypatch.setattr(reach_module.Reach, "_run", lambda self: (spread.append(len(self._closed)), real(self))[1])
    analyse(text, None, "many.py", Settings(target=T))
    assert spread[-1] == 41 and sum(spread) <= 3 * 41 and len(spread) < 20, spread


def test_a_question_about_main_searches_no_helper_name():
    # the setup sits in main: only the ways into main are looked for, not the loads of the 30 helpers
    text = IMPORTS + "".join(f"\n\ndef helper{k}(x):\n    return x + {k}\n" for k in range(30)) + \
        "\n\ndef main():\n" + "".join(f"    helper{k}(1)\n" for k in range(30)) + _config() + \
        '\n\nif __name__ == "__main__":\n    main()\n'
    ctx = Context(SourceText(text), ast.parse(text), "t.py", Settings(target=T))
    (setup,) = ctx.model.setups
    assert setup.reached is True and setup.conditions == ()
    reach = reach_of(ctx.sites)
    assert sorted(s.kind for s in reach._closed.values()) == ["function", "module"]
    assert not any(name.startswith("helper") for name in ctx.sites._whole)


def _span_rule(ctx, offsets):
    """mark_unreached as it read before reach was demand-driven: the last unreached definition starting at or
    before the offset holds it."""
    from bisect import bisect_right
    reach = reach_module.Reach(ctx.sites)
    spans = sorted((ctx.src.node_start(d), ctx.src.node_end(d)) for d in reach.unreached())
    starts = [a for a, _ in spans]
    out = []
    for at in offsets:
        i = bisect_right(starts, at) - 1
        out.append(i >= 0 and at < spans[i][1])
    return out


def test_findings_are_marked_unreached_as_by_the_spans_of_every_unreached_definition():
    from flake8_npuprof.checks.analysis import _in_unreached
    # outer is not reached; Inner.method is (named from main), so deep, in it, is an outermost unreached
    # definition inside an unreached one: an offset after deep's end (in method, or in outer after it) is in
    # no span the rule takes as the last one
    text = ("def outer():\n    class Inner:\n        def method(self):\n            def deep():\n"
            "                return 1\n            y = 2\n            return y\n    return Inner\n\n\n"
            "def helper():\n    return 3\n\n\ndef main(obj):\n    obj.method()\n    helper()\n\n\n"
            "def unused():\n    return 4\n\n\n"
            'if __name__ == "__main__":\n    main(None)\n')
    ctx = Context(SourceText(text), ast.parse(text), "t.py", Settings(target=T))
    offsets = list(range(len(text)))
    want = _span_rule(ctx, offsets)
    assert _in_unreached(ctx, reach_module.Reach(ctx.sites), offsets) == want
    marked = {part: want[text.index(part)] for part in ("class Inner", "return 1", "y = 2", "return Inner",
                                                         "return 3", "return 4")}
    assert marked == {"class Inner": True, "return 1": True, "y = 2": False, "return Inner": False,
                      "return 3": False, "return 4": True}


def _calls(text: str) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_filename == reach_module.__file__:
            count += 1

    sys.setprofile(profile)
    try:
        analyse(text, None, "many.py", Settings(target=T))
    finally:
        sys.setprofile(None)
    return count


def _functions(n: int) -> str:
    return IMPORTS + "".join(f"\n\ndef step{k}():\n" + _config() for k in range(n)) + \
        "\n\ndef main():\n" + "".join(f"    step{k}()\n" for k in range(n)) + '\n\nif __name__ == "__main__":\n' \
        "    main()\n"


def test_reach_work_grows_linearly_with_the_functions():
    _calls(_functions(10))
    small, big = _calls(_functions(50)), _calls(_functions(100))
    assert small > 0 and big / small < 2.5, (small, big)


# ---------------------------------------------------------------- conditions as the user reads them (real projects)

TWO_WAYS = '''import os
import torch
import torch_npu


def go():
    if os.getenv("P"):
        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("/tmp/tp")):
            torch.ones(1)


if __name__ == "__main__":
    if os.getenv("A"):
        go()
    {other}:
        go()
'''


def test_two_ways_in_joined_with_another_condition_keep_their_parentheses(tmp_path):
    # it said "when (os.getenv('A')) or (not (os.getenv('A')) and os.getenv('B')) and os.getenv("P")", which
    # reads as "A, or (B and P)": the profiler runs only when P holds
    path = _write(tmp_path, TWO_WAYS.format(other='elif os.getenv("B")'))
    report = emulate_path(str(path), Target.parse("8.0", "910B", torch_npu="7.2"), cwd=str(tmp_path), use_env=False,
                          environ={})
    assert report["profilers"][0].conditions == ("(os.getenv('A')) or (not (os.getenv('A')) and os.getenv('B'))",
                                                 'os.getenv("P")')
    assert "(when ((os.getenv('A')) or (not (os.getenv('A')) and os.getenv('B'))) and os.getenv(\"P\"))" in \
        render_text(report)
    assert reach_module.all_of(("a or b",)) == "a or b"
    assert reach_module.all_of(("c", "a or b", "not (d or e)")) == "c and (a or b) and not (d or e)"


def test_the_two_arms_of_one_if_are_no_condition(tmp_path):
    # ResNet101's main(): `if args.multiprocessing_distributed: mp.spawn(main_worker, ...) else: main_worker(...)`
    # was "when (args.multiprocessing_distributed) or (not (args.multiprocessing_distributed)) and ..."
    path = _write(tmp_path, TWO_WAYS.format(other="else"))
    report = emulate_path(str(path), Target.parse("8.0", "910B", torch_npu="7.2"), cwd=str(tmp_path), use_env=False,
                          environ={})
    assert report["profilers"][0].conditions == ('os.getenv("P")',)


THREE_WAYS = '''import os
import torch
import torch_npu


def go():
    with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("/tmp/tp")):
        torch.ones(1)


if __name__ == "__main__":
    if os.getenv("D"):
        if os.getenv("N"):
            go()
        else:
            go()
    else:
        go()
'''


def test_ways_in_that_cover_every_case_are_no_condition(tmp_path):
    # Retinaface (ModelZoo-PyTorch) main(): `if args.distributed: (if args.device == 'npu': mp.spawn(main_worker)
    # else: mp.spawn(main_worker)) else: main_worker()`: emulate said "collects (when (args.distributed and
    # args.device == 'npu') or (args.distributed and not (args.device == 'npu')) or (not (args.distributed)))"
    path = _write(tmp_path, THREE_WAYS)
    report = emulate_path(str(path), Target.parse("8.0", "910B", torch_npu="7.2"), cwd=str(tmp_path), use_env=False,
                          environ={})
    assert report["profilers"][0].conditions == ()
    # (p and q) or (p and not (q)) is p; a way that adds conditions to another adds nothing
    assert reach_module._simplest([("p", "q"), ("p", "not (q)")]) == [("p",)]
    assert reach_module._simplest([("p",), ("p", "r")]) == [("p",)]
    assert reach_module._simplest([("p",), ("not (p)", "r")]) == [("p",), ("not (p)", "r")]
    text = THREE_WAYS.replace("    else:\n        go()\n", "")
    report = emulate_path(str(_write(tmp_path, text)), Target.parse("8.0", "910B", torch_npu="7.2"),
                          cwd=str(tmp_path), use_env=False, environ={})
    assert report["profilers"][0].conditions == ("os.getenv('D')",)
