"""The project index: flags and constants another module of the project defines (issue 12, item 1)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

from flake8_npuprof.values import project
from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.cli import main
from flake8_npuprof.source.sites import LAST_POS
from flake8_npuprof.source.text import SourceText

HERE = Path(__file__).resolve().parent
SIBLING = HERE / "data" / "projects" / "sibling"

# (file, line, column, code, text the message must hold): what the sibling project must give
EXPECTED = [
    ("eval.py", 12, 100, "NPP102", "(checked with the default of --options, used when the flag is not given; "
                                   "defined in utils/flags_def.py:9)"),
    ("eval.py", 13, 99, "NPP190", "(OPTS is imported)"),
    ("pkg/run.py", 8, 95, "NPP102", '"aicpu": "of"'),
    ("pkg/run.py", 9, 95, "NPP102", "(checked as defined in settings.py:1)"),
    ("train.py", 12, 72, "NPP106", "(checked with the default of --profiling_options, used when the flag is not "
                                   "given; defined in hyperparameters.py:6)"),
    ("train.py", 22, 72, "NPP101", 'unknown profiling_options key "traning_trace"'),
    ("train.py", 22, 72, "NPP101", "(checked as defined in config.py:2)"),
    ("star.py", 6, 91, "NPP101", "(checked as defined in config.py:2)"),              # from config import *
    ("star.py", 7, 91, "NPP102", "(checked with the default of --prof_opts, used when the flag is not given; "
                                 "defined in utils/args.py:6)"),                     # args = get_args()
]


def _findings(path: Path):
    return analyse(path.read_text(), None, str(path), Settings())


def test_sibling_values_are_known_and_say_where_they_come_from():
    got = {}
    for rel in ("eval.py", "pkg/run.py", "train.py", "star.py", "hyperparameters.py", "config.py"):
        got[rel] = _findings(SIBLING / rel)
    for rel, line, col, code, text in EXPECTED:
        hits = [f for f in got[rel] if (f.line, f.col, f.code) == (line, col, code)]
        assert hits and text in hits[0].message, (rel, line, col, code, [str(f) for f in got[rel]])
    assert not got["hyperparameters.py"] and not got["config.py"]
    # a finding about a value from elsewhere sits on the use, over exactly the expression
    use = next(f for f in got["train.py"] if f.code == "NPP101")
    line = (SIBLING / "train.py").read_text().splitlines()[21]
    assert line[use.col:use.end_col] == "cfg.PROF_OPTS"


def test_without_the_project_the_values_stay_unknown(tmp_path):
    text = (SIBLING / "train.py").read_text()
    lone = tmp_path / "train.py"
    lone.write_text(text)
    codes = [(f.line, f.code) for f in analyse(text, None, str(lone), Settings())]
    assert (12, "NPP190") in codes and (22, "NPP190") in codes
    assert [f.code for f in analyse(text, None, "<stdin>", Settings()) if f.line == 22] == ["NPP190"]


def _resolve(path: Path, attr: str):
    text = path.read_text()
    tree = ast.parse(text)
    ctx = Context(SourceText(text), tree, str(path), Settings())
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == attr)
    return ctx.resolver.strings(node, ctx.sites.module, LAST_POS)


def test_reexported_absl_flag_through_a_package():
    strings = _resolve(SIBLING / "eval.py", "prof_out")
    assert [c.text for c in strings.candidates] == ["/tmp/p"]


def test_module_found_as_python_would(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "src" / "app"
    pkg.mkdir(parents=True)
    (pkg.parent / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "opts.py").write_text("X = 1\n")
    (tmp_path / "top.py").write_text("Y = 2\n")
    here = str(pkg / "job.py")
    assert project.find_module(here, 0, ["opts"]) == str(pkg / "opts.py")     # launched as a script: its folder
    assert project.find_module(here, 1, ["opts"]) == str(pkg / "opts.py")
    assert project.find_module(here, 0, ["src", "app", "opts"]) == str(pkg / "opts.py")
    assert project.find_module(here, 0, ["top"]) == str(tmp_path / "top.py")
    assert project.find_module(here, 2, []) == str(pkg.parent / "__init__.py")
    assert project.find_module(here, 0, ["json"]) is None


def _check(tmp_path, capsys, *paths, verbose=False):
    """npuprof check on paths, only the option findings (NPP1xx): exit code and lines (verbose: with their
    detail, which names the definition a value was checked with)."""
    code = main(["check", *(["--verbose"] if verbose else []), "--select", "NPP1", "--extend-select", "NPP19",
                 *map(str, paths)])
    return code, capsys.readouterr().out


def test_a_changed_sibling_is_read_again(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "consts.py").write_text('OPTS = \'{"output": "/tmp/p", "task_trace": "on"}\'\n')
    (tmp_path / "job.py").write_text(
        "from npu_bridge.npu_init import *\nfrom consts import OPTS\n"
        "cfg = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=OPTS))\n")
    assert _check(tmp_path, capsys, "job.py") == (0, "")
    (tmp_path / "consts.py").write_text('OPTS = \'{"output": "/tmp/p", "task_trace": "of"}\'\n')
    os.utime(tmp_path / "consts.py", ns=(1, 1))
    code, out = _check(tmp_path, capsys, "job.py", verbose=True)
    assert code == 1 and out.startswith("job.py:3:94: NPP102 ") and "as defined in consts.py:1" in out


def test_cycles_and_self_imports_end(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("from b import OPTS\n")
    (tmp_path / "b.py").write_text("from a import OPTS\n")
    (tmp_path / "job.py").write_text(
        "from npu_bridge.npu_init import *\nfrom a import OPTS\nfrom job import X\n"
        "cfg = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=OPTS))\n"
        "cfg2 = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=X))\n")
    code, out = _check(tmp_path, capsys, "job.py")
    assert code == 1 and [ln.split(" ")[:2] for ln in out.splitlines()] == [
        ["job.py:4:94:", "NPP190"], ["job.py:5:95:", "NPP190"]]


def test_large_siblings_are_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "MAX_BYTES", 100)
    (tmp_path / "consts.py").write_text("# padding\n" * 20 + 'OPTS = \'{"output": "/tmp/p", "task_trace": "of"}\'\n')
    job = tmp_path / "job.py"
    job.write_text("from npu_bridge.npu_init import *\nfrom consts import OPTS\n"
                   "cfg = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, "
                   "profiling_options=OPTS))\n")
    assert [f.code for f in analyse(job.read_text(), None, str(job), Settings()) if f.code.startswith("NPP1")] == \
        ["NPP190"]


def test_flake8_gives_the_same_cross_module_findings(capsys, monkeypatch):
    monkeypatch.chdir(SIBLING)
    main(["check", "--select", "NPP1", "--extend-select", "NPP19", "."])
    ours = sorted(" ".join(line.split(" ", 2)[:2]) for line in capsys.readouterr().out.splitlines()
                  if ".py:" in line)              # flake8 reads Python files only (launchers: test_launcher.py)
    run = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP1", "--extend-select", "NPP19", "."],
                         cwd=SIBLING, capture_output=True, text=True)
    theirs = sorted(line.split(" ", 2)[0].lstrip("./").replace("./", "") + " " + line.split(" ", 2)[1]
                    for line in run.stdout.splitlines())
    assert ours == theirs == ["eval.py:10:89: NPP106", "eval.py:12:101: NPP102", "eval.py:13:100: NPP190",
                              "pkg/run.py:8:96: NPP102", "pkg/run.py:9:96: NPP102", "star.py:6:92: NPP101",
                              "star.py:7:92: NPP102", "train.py:12:73: NPP106", "train.py:22:73: NPP101"]


def test_each_sibling_is_read_once_however_many_files_import_it(tmp_path, monkeypatch):
    parsed = []
    real = project.Module.__init__

    def counting(self, path, text, tree):
        parsed.append(Path(path).name)
        real(self, path, text, tree)

    monkeypatch.setattr(project.Module, "__init__", counting)
    (tmp_path / "consts.py").write_text('OPTS = \'{"output": "/tmp/p", "task_trace": "of"}\'\n')
    codes = []
    for k in range(20):
        job = tmp_path / f"job_{k}.py"
        job.write_text("from npu_bridge.npu_init import *\nfrom consts import OPTS\n"
                       "cfg = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, "
                       "profiling_options=OPTS))\n")
        codes.extend(f.code for f in analyse(job.read_text(), None, str(job), Settings()) if f.code == "NPP102")
    assert codes == ["NPP102"] * 20 and parsed == ["consts.py"]


def test_a_budget_running_out_in_a_sibling_is_reported_on_the_use(tmp_path, monkeypatch):
    real = project.Module.__init__

    def tight(self, path, text, tree):
        real(self, path, text, tree)
        self.resolver.max_steps = 1

    monkeypatch.setattr(project.Module, "__init__", tight)
    (tmp_path / "consts.py").write_text('OPTS = \'{"output": "/tmp/p", \' + \'"task_trace": "of"}\'\n')
    job = tmp_path / "job.py"
    job.write_text("from npu_bridge.npu_init import *\nfrom consts import OPTS\n"
                   "cfg = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, "
                   "profiling_options=OPTS))\n")
    codes = [(f.code, f.line) for f in analyse(job.read_text(), None, str(job), Settings())]
    assert ("NPP191", 3) in codes and not any(c == "NPP102" for c, _ in codes)


def test_import_refs_walks_only_statement_blocks_in_ast_walk_order():
    # the order decides which module is searched first; it must be ast.walk's (breadth first)
    source = (
        "import a\n"
        "try:\n    import b.c as bc\nexcept ImportError:\n    from . import d\nelse:\n    import e\n"
        "finally:\n    from ..f import *\n"
        "def fn():\n    import h\n    class K:\n        import i\n"
        "if x:\n    with y:\n        import j\nelse:\n    from k import m\n"
        "for z in w:\n    import n\nwhile q:\n    import o\n"
        "import p\n")
    if sys.version_info >= (3, 10):
        source += "match v:\n    case 1:\n        import r\n    case _:\n        from s import t\n"
    tree = ast.parse(source)
    expected = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            expected.extend((0, a.name.split(".")) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module.split(".") if node.module else []
            expected.append((node.level or 0, base))
            expected.extend((node.level or 0, base + [a.name]) for a in node.names if a.name != "*")
    assert project.import_refs(tree) == expected
    assert [parts[0] for _, parts in expected[:3]] == ["a", "p", "b"]      # breadth first, not source order


def test_modules_read_only_for_their_imports_are_never_indexed(tmp_path):
    """The flags a file sees are looked for in every module it imports, transitively; a module whose text
    cannot define a flag is read for its imports only. A flag defined through identifiers Python folds
    (NFKC: `ＤEFINE_string` is DEFINE_string) is still found."""
    project.forget()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "plain.py").write_text("import defs\nSIZE = 3\n")
    (tmp_path / "defs.py").write_text("# 定义\nfrom absl import flags\n"
                                      "flags.\uff24EFINE_string('prof_out', '/tmp/folded', 'where')\n")
    main_py = tmp_path / "train.py"
    main_py.write_text("import plain\nfrom absl import flags\nFLAGS = flags.FLAGS\nx = FLAGS.prof_out\n")
    strings = _resolve(main_py, "prof_out")
    assert [c.text for c in strings.candidates] == ["/tmp/folded"]
    loaded = {Path(p).name: m for p, (_, m) in project._modules.items() if m is not None}
    assert set(loaded) == {"plain.py", "defs.py"}
    assert not loaded["plain.py"].may_define_flags and "sites" not in loaded["plain.py"].__dict__
    assert loaded["defs.py"].may_define_flags and "sites" in loaded["defs.py"].__dict__
    # plain.py keeps no tree in the module cache (its refs and text are enough); asked for its names later,
    # it is parsed again, and what it says is the same
    plain = loaded["plain.py"]
    assert plain._tree is None and plain.refs == [(0, ["defs"])]
    assert plain.weight == len("import defs\nSIZE = 3\n") * project.TEXT_BYTES
    (size,) = plain.sites.module.bindings["SIZE"]
    assert plain._tree is not None and isinstance(size.value, ast.Constant) and size.value.value == 3
    # and the cache counts it again, with its tree
    assert plain.weight == len("import defs\nSIZE = 3\n") * project.TREE_BYTES
    assert project._held == sum(project._weight(m) for _, m in project._modules.values())


def test_the_module_cache_is_bounded_by_size_and_keeps_the_modules_used_last(tmp_path, monkeypatch):
    """Over its bound the cache lets go of the modules used longest ago; one needed again is read again,
    with the same values."""
    project.forget()
    monkeypatch.setattr(project, "MAX_HELD", 300 * project.TREE_BYTES)     # 3 of them, asked their values
    (tmp_path / "pyproject.toml").write_text("")
    for k in range(6):
        (tmp_path / f"cfg{k}.py").write_text(f"# {'x' * 60}\nOPTS = '/tmp/{k}'\n")       # 82 characters each
    for k in range(6):
        script = tmp_path / f"train{k}.py"
        script.write_text(f"import cfg{k}\nimport cfg0\nx = cfg{k}.OPTS + cfg0.OPTS\n")
        text = script.read_text()
        tree = ast.parse(text)
        ctx = Context(SourceText(text), tree, str(script), Settings())
        found = ctx.resolver.strings(tree.body[-1].value, ctx.sites.module, LAST_POS)
        assert [c.text for c in found.candidates] == [f"/tmp/{k}/tmp/0"]
        held = [Path(p).name for p in project._modules]
        assert project._held == sum(project._weight(m) for _, m in project._modules.values()) <= project.MAX_HELD
        assert held[-1] == "cfg0.py" and (k == 0 or held[-2] == f"cfg{k}.py")      # the last used stay
    assert len(held) == 3 and "cfg1.py" not in held


def test_the_search_paths_kept_are_bounded_and_the_last_used_stay(tmp_path, monkeypatch):
    """Each kept search path holds the paths probed to find it: the least recently used are let go, one at a
    time (not all at once), and one asked again is the same."""
    project.forget()
    monkeypatch.setattr(project, "MAX_ROOTS", 3)
    (tmp_path / "pyproject.toml").write_text("")
    folders = []
    for k in range(5):
        (tmp_path / f"p{k}").mkdir()
        folders.append(str(tmp_path / f"p{k}"))
    first = project.search_path(os.path.join(folders[0], "a.py"))
    assert first == (folders[0], str(tmp_path))
    for k in range(1, 5):
        project.search_path(os.path.join(folders[k], "a.py"))
        project.search_path(os.path.join(folders[1], "a.py"))         # used again: kept
        assert len(project._roots) == min(k + 1, 3) and folders[1] in project._roots
    assert list(project._roots) == [folders[3], folders[4], folders[1]]
    assert project.search_path(os.path.join(folders[0], "a.py")) == first
