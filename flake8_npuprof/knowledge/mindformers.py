"""What MindFormers does with the profiling keys of its YAML run configuration, read at one commit
(data/mindformers.json): the functions the answers stand on with the digest of their lines, the template's defaults,
the command-line overrides of run_mindformer.py, the output folders and the schedule ProfileMonitor builds."""

from __future__ import annotations

import ast
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional


@lru_cache(maxsize=1)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "mindformers.json"
    return json.loads(path.read_text(encoding="utf-8"))


def digest(lines) -> str:
    """The digest a function's or class's lines are compared by: each line stripped, blank and comment-only lines
    left out (so a re-indented or re-commented copy is the same code), sha256, the first 16 hex digits."""
    kept = [s.strip() for s in lines if s.strip() and not s.strip().startswith("#")]
    return hashlib.sha256("\n".join(kept).encode("utf-8")).hexdigest()[:16]


def node(tree: ast.AST, name: str) -> Any:
    """The function or class `name` of a module (`A.b`: b in class A; `__main__`: the `if __name__ == "__main__":`
    block), None where the module has none."""
    found: Any = tree
    for part in name.split("."):
        body = getattr(found, "body", [])
        if part == "__main__":
            found = next((n for n in body if isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and
                          any(isinstance(c, ast.Constant) and c.value == "__main__" for c in n.test.comparators)),
                         None)
        else:
            found = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part),
                         None)
        if found is None:
            return None
    return found


def same(text: str, tree: ast.AST, name: str, digests) -> Optional[bool]:
    """Whether the module's `name` is one of the copies read (None: the module has no such function or class)."""
    found = node(tree, name)
    if found is None:
        return None
    return digest(text.splitlines()[found.lineno - 1:found.end_lineno]) in digests
