"""The release of a framework a project pins as a git submodule (MindSpeed-LLM's 3rdparty/Megatron-LM and
3rdparty/MindSpeed): the submodule `.gitmodules` names by its URL, and the commit the project's git index records for
it (the gitlink `git submodule update` checks out), matched to the releases data/global_args.json describes. Read
only where the submodule's folder holds no checkout: a checkout on disk may be at another commit, and is then the
code that runs. Nothing is run (no git): the index is read as git's format documents it (versions 2 and 3).
"""

from __future__ import annotations

import os
import re
import struct
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..knowledge import global_args as K

MAX_INDEX = 64 * 1024 * 1024        # a larger index is not read (a project's index is far smaller)
MAX_UP = 8                          # folders above the script searched for the project's .gitmodules


class Pin(NamedTuple):
    """What the project's submodules say of a framework's defaults."""
    defaults: Dict[str, object]     # dest -> default, where every pinned part is a known release
    said: str                       # "Megatron-LM core_v0.12.1 (3rdparty/Megatron-LM pins a845aa7e)"
    why: str                        # why a default is not known, naming the release that would decide it


def pin(framework: str, script: str, uses: Tuple[str, ...] = ()) -> Pin:
    """The pin for `framework`'s options, from the project holding `script`. uses: the top-level packages the
    project's modules import (a part the data names, as MindSpeed, counts when imported or pinned)."""
    parts = K.pins(framework)
    unpinned = f"the {framework} release the job runs with decides it, and the project pins none"
    if not parts:
        return Pin({}, "", unpinned)
    root = _project_root(os.path.dirname(os.path.abspath(script)))
    modules = _gitmodules(root) if root is not None else []
    links = None
    said, defaults = [], {}
    for name, part in parts.items():
        found = next((m for m in modules if _repository(m[1]) == part["repository"].lower()), None)
        if found is None:
            if part.get("package") and part["package"] not in uses:
                continue            # a part the project neither pins nor imports
            return Pin({}, "", f"the {name} release the job runs with decides it, and the project pins none")
        path = found[0]
        folder = os.path.join(root, path)               # type: ignore[arg-type]
        if os.path.isdir(folder) and os.listdir(folder):
            return Pin({}, "", f"the {name} checkout in {path} decides it, and its release is not read here")
        if links is None:
            links = _gitlinks(root) if root is not None else {}
        commit = links.get(path)
        if commit is None:
            # (an index read holds the other gitlinks: it records none here, as when the submodule was removed)
            why = f"the project's git index records no commit at {path}" if links else \
                "no git index of version 2 or 3" if root is None or os.path.exists(os.path.join(root, ".git")) else \
                "the project is not a git clone (no .git): a source archive does not record it"
            return Pin({}, "", f"the {name} release {path} pins decides it, and the commit it pins is not read "
                       f"here ({why})")
        release = next((r for r, v in part["releases"].items() if v["commit"] == commit), None)
        if release is None:
            return Pin({}, "", f"the {name} release {path} pins decides it: commit {commit[:12]}, not a release "
                       "recorded here")
        said.append(f"{name} {release} ({path} pins {commit[:8]})")
        for dest, value in part["releases"][release].get("defaults", {}).items():
            defaults[dest] = value
    return Pin(defaults, " and ".join(said), unpinned if not said else
               f"{' and '.join(said)} decide it, and its default there is not recorded here")


def _repository(url: str) -> str:
    """The repository a submodule's URL names: its last part, without .git (https://github.com/NVIDIA/Megatron-LM.git:
    megatron-lm). Which repository it is matters less than the commit, which must be a release's own."""
    last = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()
    return last[:-4] if last.endswith(".git") else last


def _project_root(folder: str) -> Optional[str]:
    """The nearest folder at or above `folder` that holds .gitmodules, stopping at a repository's top (.git)."""
    for _ in range(MAX_UP):
        if os.path.isfile(os.path.join(folder, ".gitmodules")):
            return folder
        up = os.path.dirname(folder)
        if os.path.exists(os.path.join(folder, ".git")) or up == folder:
            return None
        folder = up
    return None


_SECTION = re.compile(r'^\s*\[submodule\s+"([^"]*)"\]\s*$')
_KEY = re.compile(r"^\s*(path|url)\s*=\s*(.*?)\s*$")


def _gitmodules(root: str) -> List[Tuple[str, str]]:
    """(path, url) of each submodule .gitmodules names."""
    from ..source.files import ReadError, read_bytes     # (a FIFO or device is refused before it blocks)
    try:
        lines = read_bytes(os.path.join(root, ".gitmodules"), 1024 * 1024).decode("utf-8", "replace").splitlines()
    except (OSError, ReadError):
        return []
    out: List[Tuple[str, str]] = []
    cur: Optional[Dict[str, str]] = None
    for line in lines:
        if _SECTION.match(line):
            if cur and cur.get("path") and cur.get("url"):
                out.append((cur["path"], cur["url"]))
            cur = {}
            continue
        m = _KEY.match(line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2)
    if cur and cur.get("path") and cur.get("url"):
        out.append((cur["path"], cur["url"]))
    return [(p.strip("/"), u) for p, u in out]


def _gitlinks(root: str) -> Dict[str, str]:
    """path -> commit of each gitlink (mode 160000) in the repository's index; {} when it cannot be read."""
    from ..source.files import ReadError, read_bytes     # (the scanned tree's own files: a FIFO there would block)
    git = os.path.join(root, ".git")
    if os.path.isfile(git):                     # a worktree or a submodule: `gitdir: <path>`
        try:
            line = read_bytes(git, 64 * 1024).decode("utf-8", "replace").partition("\n")[0].strip()
        except (OSError, ReadError):
            return {}
        if not line.startswith("gitdir:"):
            return {}
        git = os.path.join(root, line[len("gitdir:"):].strip())
    try:
        data = read_bytes(os.path.join(git, "index"), MAX_INDEX)
    except (OSError, ReadError):
        return {}
    return read_index(data)


def read_index(data: bytes) -> Dict[str, str]:
    """The gitlinks of a git index (versions 2 and 3; 4 compresses paths and is not read): path -> commit."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return {}
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3):
        return {}
    out: Dict[str, str] = {}
    at = 12
    for _ in range(count):
        if at + 62 > len(data):
            return {}
        mode = struct.unpack(">I", data[at + 24:at + 28])[0]
        sha = data[at + 40:at + 60].hex()
        flags = struct.unpack(">H", data[at + 60:at + 62])[0]
        head = 62 + (2 if version == 3 and flags & 0x4000 else 0)
        end = data.find(b"\0", at + head)
        if end < 0:
            return {}
        path = data[at + head:end].decode("utf-8", "replace")
        if mode == 0o160000:
            out[path] = sha
        size = end - at + 1                     # the entry is NUL-padded to a multiple of 8 bytes
        at += (size + 7) // 8 * 8
    return out
