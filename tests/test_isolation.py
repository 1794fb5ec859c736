"""The plugin changes no process-global state: another astroid user in the same process
(pylint in an editor's language server) infers exactly what it inferred before."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from evalfiles import EVAL_DIR

PROBE = textwrap.dedent('''
    import importlib, json, sys
    import astroid
    from astroid import MANAGER
    context = importlib.import_module("astroid.context")
    inference_tip = importlib.import_module("astroid.inference_tip")

    def infer(code):
        node = astroid.extract_node(code)
        return sorted(v.qname() if hasattr(v, "qname") and v is not astroid.Uninferable else repr(v)
                      for v in node.infer())

    def state():
        lru = {}
        from astroid.nodes._base_nodes import LookupMixIn
        from astroid.interpreter.objectmodel import ObjectModel
        from astroid.nodes.scoped_nodes.scoped_nodes import ClassDef
        for fn in (LookupMixIn.lookup, ObjectModel.attributes, ClassDef._metaclass_lookup_attribute):
            lru[fn.__qualname__] = [id(fn), fn.cache_info().currsize]
        return {
            "denylist": sorted(MANAGER.module_denylist),
            "modules": sorted(MANAGER.astroid_cache),
            "inference_cache": [id(context._INFERENCE_CACHE), len(context._INFERENCE_CACHE)],
            "tip_cache": [id(inference_tip._cache), len(inference_tip._cache)],
            "lru": lru,
            "recursionlimit": sys.getrecursionlimit(),
            "int_digits": getattr(sys, "get_int_max_str_digits", lambda: None)(),
        }

    PROBES = ["import os\\nos.path.join #@", "import json\\njson.dumps #@", "import os\\nos.sep #@",
              "import sys\\nsys.maxsize #@", "import argparse\\nargparse.ArgumentParser #@",
              "class A:\\n    X = 'a'\\nclass B(A):\\n    pass\\nB.X #@"]
    MANAGER.module_denylist.add("mine_denied")
    before = [infer(p) for p in PROBES]
    snapshot = state()

    from flake8_npuprof.checks.analysis import analyse
    found = []
    for path in sys.argv[1:]:
        text = open(path, encoding="utf-8").read()
        found += [f.code for f in analyse(text, None, path)]
    assert "NPP101" in found, found
    after_state = state()
    after = [infer(p) for p in PROBES]
    print(json.dumps({"before": before, "after": after, "state": snapshot, "after_state": after_state}))
''')


def test_astroid_users_see_no_change_after_the_plugin():
    files = [str(EVAL_DIR / name) for name in ("resolve_astroid.py", "resolve_names.py", "resolve_json_dumps.py")]
    proc = subprocess.run([sys.executable, "-c", PROBE, *files], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    import json
    out = json.loads(proc.stdout)
    assert "posixpath.join" in out["before"][0]                 # the probes do infer something
    assert out["after"] == out["before"]
    assert out["after_state"] == out["state"]
    assert "mine_denied" in out["state"]["denylist"] and "os" not in out["state"]["denylist"]


def test_astroid_state_restored_when_inference_fails(monkeypatch):
    import astroid
    from astroid import MANAGER, context
    from flake8_npuprof.values.astroid_fallback import Fallback

    def broken(self, context=None, **kwargs):
        raise RuntimeError("astroid broke")

    denylist, cache = set(MANAGER.module_denylist), context._INFERENCE_CACHE
    modules = dict(MANAGER.astroid_cache)
    monkeypatch.setattr(astroid.nodes.Attribute, "infer", broken)
    fb = Fallback("import os\nclass A:\n    X = 1\nA.X\n", "x.py", {"os", "tensorflow"})
    assert fb.infer(("Attribute", 4, 0, 4, 3)) is None
    assert fb.calls == 1
    assert MANAGER.module_denylist == denylist and context._INFERENCE_CACHE is cache
    assert dict(MANAGER.astroid_cache) == modules


def test_astroid_parses_only_files_where_it_can_answer(monkeypatch):
    """Decided before parsing: a value rooted in an import (argparse, absl flags) cannot be
    answered by astroid kept inside the file, so the file is not parsed a second time."""
    from flake8_npuprof.values import astroid_fallback
    from flake8_npuprof.checks.analysis import analyse
    parsed = []
    original = astroid_fallback.Fallback._tree_index
    monkeypatch.setattr(astroid_fallback.Fallback, "_tree_index",
                        lambda self: (self._index is None and parsed.append(self.filename)) or original(self))
    flags_file = (
        "import argparse\nimport tensorflow as tf\n\n"
        "def parse_args():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--profiling', type=int)\n    args = parser.parse_args()\n    return args\n\n"
        "args = parse_args()\nopts = tf.compat.as_bytes(args.options.strip())\n"
        "config = tf.ConfigProto()\n"
        "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
        "custom_op.name = 'NpuOptimizer'\n"
        "custom_op.parameter_map['profiling_mode'].b = True\n"
        "custom_op.parameter_map['profiling_options'].s = opts\n"
        "sess = tf.Session(config=config)\n")
    analyse(flags_file, None, "flags.py")
    assert parsed == []
    text = (EVAL_DIR / "resolve_astroid.py").read_text(encoding="utf-8")
    assert "NPP101" in {f.code for f in analyse(text, None, "resolve_astroid.py")}
    assert parsed == ["resolve_astroid.py"]


def test_the_collector_is_left_as_found():
    # the analysis pauses the cyclic collector (nothing to free mid-file) and must hand it back,
    # also when the caller had switched it off itself, and also when the analysis fails
    import gc
    from unittest import mock

    from flake8_npuprof.checks import analysis
    text = (EVAL_DIR / "options_json.py").read_text(encoding="utf-8")
    seen = []
    real = analysis._analyse

    def spy(*args):
        seen.append(gc.isenabled())
        return real(*args)

    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            with mock.patch.object(analysis, "_analyse", spy):
                assert [f.code for f in analysis.analyse(text, None, "x.py")]
            assert gc.isenabled() is enabled
        gc.enable()
        with mock.patch.object(analysis, "_analyse", side_effect=KeyboardInterrupt):
            try:
                analysis.analyse(text, None, "x.py")
            except KeyboardInterrupt:
                pass
        assert gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False]
