"""Rebuild the model-zoo trees the README's performance figures are measured on, from a git copy of
Ascend/ModelZoo-TensorFlow (not part of this repository; any clone or mirror, no work tree needed):

    python benchmarks/zoo_trees.py GIT_DIR OUT_DIR [--projects 85]

OUT_DIR/zoo    every .py and .sh of N projects that hold profiling code (projects evenly spaced in
               sorted order among all such projects), laid out as in the zoo, so that siblings are
               there to be read for flags and values
OUT_DIR/dense  every .py of the whole zoo that passes the prefilter, alone (no siblings)
OUT_DIR/zoo.profiling.txt  the files of zoo that pass the prefilter, one path a line

A project is the folder four levels down (TensorFlow/contrib/cv/X), or five where the fourth is a
category holding only folders (TensorFlow/built-in/cv/image_classification/X). The trees depend only
on the zoo's commit, which is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import defaultdict
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from flake8_npuprof.source.prefilter import might_configure_profiling  # noqa: E402


def _git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True).stdout


def _blobs(git_dir: str) -> dict[str, str]:
    """path -> blob id of every .py/.sh at HEAD."""
    out = {}
    for line in _git(git_dir, "ls-tree", "-r", "HEAD").decode("utf-8", "surrogateescape").splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind == "blob" and mode != "120000" and path.endswith((".py", ".sh")):
            out[path] = blob
    return out


def _project_of(path: str, folders_only: set[str]) -> str | None:
    parts = PurePosixPath(path).parts
    if len(parts) < 5:
        return None
    four = "/".join(parts[:4])
    if four in folders_only and len(parts) >= 6:
        return "/".join(parts[:5])
    return four


def _read_all(git_dir: str, blobs: list[str]) -> dict[str, bytes]:
    """Blob contents through one `git cat-file --batch`."""
    proc = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"], input="\n".join(blobs).encode() + b"\n",
                          check=True, capture_output=True)
    data, at, out = proc.stdout, 0, {}
    for blob in blobs:
        header_end = data.index(b"\n", at)
        size = int(data[at:header_end].split()[2])
        out[blob] = data[header_end + 1:header_end + 1 + size]
        at = header_end + 2 + size
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("git_dir")
    parser.add_argument("out", type=Path)
    parser.add_argument("--projects", type=int, default=85)
    args = parser.parse_args()
    commit = _git(args.git_dir, "rev-parse", "HEAD").decode().strip()
    blobs = _blobs(args.git_dir)
    content = _read_all(args.git_dir, sorted(set(blobs.values())))
    # a fourth-level folder with no file of its own directly in it is a category of projects
    has_file = {str(PurePosixPath(p).parent) for p in blobs}
    fours = {"/".join(PurePosixPath(p).parts[:4]) for p in blobs if len(PurePosixPath(p).parts) >= 5}
    folders_only = {f for f in fours if f not in has_file}

    def text(path: str) -> str:
        return content[blobs[path]].decode("utf-8", "replace")

    profiling = sorted(p for p in blobs if p.endswith(".py") and might_configure_profiling(text(p)))
    by_project = defaultdict(list)
    for path in blobs:
        project = _project_of(path, folders_only)
        if project:
            by_project[project].append(path)
    holding = sorted({_project_of(p, folders_only) for p in profiling} - {None})
    step = max(1, len(holding) // args.projects)
    chosen = holding[::step][:args.projects]

    zoo, dense = args.out / "zoo", args.out / "dense"
    for tree in (zoo, dense):
        if tree.exists():
            sys.exit(f"{tree} exists; remove it first")
    listed = []
    for project in chosen:
        for path in by_project[project]:
            target = zoo / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content[blobs[path]])
            if path in profiling:
                listed.append(str(target))
    for k, path in enumerate(profiling):
        target = dense / f"{k:04d}_{PurePosixPath(path).name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content[blobs[path]])
    (args.out / "zoo.profiling.txt").write_text("\n".join(sorted(listed)) + "\n", encoding="utf-8")
    py = sum(1 for project in chosen for p in by_project[project] if p.endswith(".py"))
    print(f"zoo commit {commit}: {len(chosen)} of {len(holding)} projects holding profiling code, "
          f"{sum(len(by_project[p]) for p in chosen)} files ({py} .py, {len(listed)} pass the prefilter); "
          f"dense: {len(profiling)} files")


if __name__ == "__main__":
    main()
