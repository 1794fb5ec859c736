"""The package's layering: imports run one way, front-ends -> engine -> emulate -> checks -> shell -> setups ->
values -> source, knowledge is read by all and imports none of them, and no module is part of an import circle.

Imports inside functions count as much as those at the top: a circle closed at call time still ties
the layers together. See docs/architecture.md.
"""

import ast
import importlib
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Set

import pytest

PKG = Path(__file__).resolve().parent.parent / "flake8_npuprof"

# Lower rank = lower layer; a module may import its own layer and the layers below it.
RANKS = {"knowledge": 0, "source": 1, "values": 2, "setups": 3, "shell": 4, "checks": 5, "emulate": 6, "engine": 7}
FRONT_END = 8               # the package's top-level modules, commands/ and report/
MAX_TOP_LEVEL = 12


def _modules() -> Dict[str, Path]:
    found = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(PKG).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking_only(tree: ast.AST) -> Set[int]:
    """The nodes under `if TYPE_CHECKING:`: imports only a type checker runs."""
    return {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and
            (getattr(node.test, "id", None) or getattr(node.test, "attr", None)) == "TYPE_CHECKING"
            for stmt in node.body for n in ast.walk(stmt)}


@lru_cache(maxsize=1)       # a module's two readings (GRAPH, WITH_TYPING) in turn: one parse (walks change nothing)
def _tree(name: str) -> ast.AST:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def imports_of(name: str, typing: bool = False) -> Set[str]:
    """The package modules `name` imports, at the top or inside functions; with typing, also those it imports
    under `if TYPE_CHECKING:` for its annotations (never run, so they close no circle at run time)."""
    tree = _tree(name)
    here = name.split(".") if name != "__init__" else []
    base = here if _is_package(name) else here[:-1]
    out = set()
    skip = set() if typing else _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("flake8_npuprof."):
                    out.add(_longest(a.name[len("flake8_npuprof."):]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join(up + ([node.module] if node.module else []))
            elif node.module == "flake8_npuprof" or (node.module or "").startswith("flake8_npuprof."):
                target = node.module[len("flake8_npuprof."):] if "." in node.module else ""
            else:
                continue
            for a in node.names:
                sub = f"{target}.{a.name}" if target else a.name
                out.add(sub if sub in MODULES else (target or "__init__"))
    out.discard(name)
    return out


def _longest(dotted: str) -> str:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in MODULES:
            return ".".join(parts[:i])
    raise AssertionError(f"import of an unknown module flake8_npuprof.{dotted}")


GRAPH: Dict[str, Set[str]] = {}
WITH_TYPING: Dict[str, Set[str]] = {}
for _name in MODULES:
    GRAPH[_name], WITH_TYPING[_name] = imports_of(_name), imports_of(_name, typing=True)


def rank(name: str) -> int:
    return RANKS.get(name.split(".")[0], FRONT_END)


def test_every_import_names_a_module_of_the_package():
    for name, deps in WITH_TYPING.items():
        assert deps <= set(MODULES), (name, deps - set(MODULES))


def test_imports_run_one_way():
    # an import for annotations only goes down too: a type of a higher layer is not one to name
    wrong = sorted(f"{a} ({rank(a)}) imports {b} ({rank(b)})"
                   for a, deps in WITH_TYPING.items() for b in deps if rank(b) > rank(a))
    assert wrong == []


def test_an_import_for_annotations_only_is_not_run():
    text = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sites import Sites\nimport ast\n"
    tree = ast.parse(text)
    only = _type_checking_only(tree)
    assert [type(n).__name__ for n in ast.walk(tree) if id(n) in only] == ["ImportFrom", "alias"]
    assert "source.sites" in WITH_TYPING["source.site_walk"] and "source.sites" not in GRAPH["source.site_walk"]


def test_the_front_ends_share_the_engine_not_the_cli():
    # the flake8 plugin, the language server and the renderings run one text through engine/, never
    # through the CLI's commands/ (only cli.py, the CLI's entry point, dispatches to them)
    wrong = sorted(f"{a} imports {b}" for a, deps in GRAPH.items()
                   if rank(a) == FRONT_END and not a.startswith("commands") and a != "cli"
                   for b in deps if b.startswith("commands"))
    assert wrong == []
    assert not {b for a, deps in GRAPH.items() if a.startswith("report") for b in deps} & {"plugin", "server"}


def test_knowledge_imports_no_other_layer():
    wrong = sorted(f"{a} imports {b}" for a, deps in GRAPH.items() if rank(a) == 0
                   for b in deps if rank(b) != 0)
    assert wrong == []


def _circles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_circle():
    assert _circles(GRAPH) == []


def test_the_circle_finder_finds_circles():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_a_function_level_import_counts():
    # the graph reads imports anywhere in a module, not only at its top
    name = "checks.analysis"
    text = MODULES[name].read_text(encoding="utf-8")
    inner = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom) and n.col_offset > 0]
    assert inner, "checks/analysis.py imports inside functions; pick another module for this test"
    assert "checks" in GRAPH[name]          # run_all is imported inside analyse()


@pytest.mark.parametrize("package", sorted(p for p in RANKS) + ["commands", "report"])
def test_each_layer_says_what_it_owns_and_may_import(package):
    doc = ast.get_docstring(ast.parse((PKG / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc, package
    below = sorted((p for p, r in RANKS.items() if r < RANKS.get(package, FRONT_END)), key=RANKS.get, reverse=True)
    if package == "knowledge":
        assert "imports no other layer" in doc
    else:
        said = doc.split("May import:")[-1] if "May import:" in doc else doc.split("may import")[-1]
        assert all(p in said for p in below), (package, below)


def test_at_most_a_dozen_modules_at_the_top():
    top = sorted(p.name for p in PKG.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


def _diagram() -> Dict[str, Set[str]]:
    """The modules docs/architecture.md names per folder ("" is the package's top)."""
    text = (PKG.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("```\n")[1]
    listed: Dict[str, Set[str]] = {}
    current = None
    for line in block.splitlines():
        words = re.sub(r"\(.*?\)", "", line).replace("│", "").replace(",", " ").split()
        if not words:
            continue
        if words[0] == "front-ends":
            current, words = "", words[1:]
        elif words[0].endswith("/"):
            current, words = words[0][:-1], words[1:]
        listed.setdefault(current, set()).update(words)
    return listed


def test_the_architecture_page_names_every_module_where_it_is():
    listed = _diagram()
    on_disk: Dict[str, Set[str]] = {}
    for name in MODULES:
        folder, _, leaf = name.rpartition(".")
        if name in ("__init__", "__main__") or _is_package(name):
            continue
        on_disk.setdefault(folder, set()).add(leaf)
    assert listed == on_disk


@pytest.mark.parametrize("ref", ["flake8_npuprof.plugin:NpuProfChecker", "flake8_npuprof.cli:main",
                                 "flake8_npuprof.flake8_formatter:SarifFormatter",
                                 "flake8_npuprof.flake8_formatter:GithubFormatter"])
def test_public_entry_points_stay_where_they_were(ref):
    assert f'"{ref}"' in (PKG.parent / "pyproject.toml").read_text(encoding="utf-8")
    module, _, attr = ref.partition(":")
    assert callable(getattr(importlib.import_module(module), attr))


def test_check_on_a_launcher_asks_emulate_only_about_its_profiling_options(tmp_path):
    # `check` on a shell launcher is checks/ over shell/; emulate's replay is imported only to tell whether GE reads
    # the launcher's PROFILING_OPTIONS in a launch (engine/run.py passes it in), never for a launcher without them
    import subprocess
    import sys
    (tmp_path / "train.py").write_text("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
                                       "config = tf.ConfigProto()\ncustom_op = config.graph_options.rewrite_options."
                                       "custom_optimizers.add()\ncustom_op.name = 'NpuOptimizer'\n"
                                       "custom_op.parameter_map['profiling_mode'].b = True\n")
    plain, with_options = tmp_path / "run.sh", tmp_path / "run_options.sh"
    plain.write_text("#!/bin/bash\nexport PROFILING_MODE=true\npython3 train.py --epochs=1\n")
    with_options.write_text("#!/bin/bash\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/p\"}'\npython3 train.py\n")
    code = ("import sys\nfrom flake8_npuprof.engine.run import check_shell\n"
            "from flake8_npuprof.knowledge.run_settings import Settings\n"
            "check_shell(open(sys.argv[1]).read(), sys.argv[1], Settings())\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('flake8_npuprof.emulate', "
            "'flake8_npuprof.checks.shell_launches')))))\n")

    def loaded(path):
        return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                              check=True).stdout.split()

    assert loaded(plain) == ["flake8_npuprof.checks.shell_launches"]
    assert {"flake8_npuprof.checks.shell_launches", "flake8_npuprof.emulate.sequence"} <= set(loaded(with_options))
