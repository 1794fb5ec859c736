"""Whether `check` needs the walk of a launcher that names no profiling word but starts a Python script.

emulate/scan.py leaves unwalked a launcher that can start no script. One that starts a script is walked only
for that script's sake: `check` reports what a launch passes to a script that holds a profiling setup (NPP205,
an options value), and a script fails the prefilter the flake8 plugin runs (source/prefilter.py) when it holds
none. So when every script the launcher can name is such a script, its findings are its own lines' (its check
costs about what reading it costs). Decided without the walk, and only where that is certain:

- the text names no profiling word ("prof" in any case), sources no file, runs no other shell script, defines
  no function, starts no `-m` module and has fewer commands than the walk's bound (emulate/scan.py reads the
  same words; what it does with them is the walk's);
- every `.py` word ends in a name written out (`${dir}/train.py`, not `${name}.py`), and no word is an
  absolute path or starts at `~`: the directories the walk can reach are then below the launcher's own folder
  or above it by at most as many levels as the text writes `..` or `dirname`;
- every file with one of those names in that region (found by one listing of it, kept while no folder of it
  changes) fails the prefilter, and each name written with folders (`sub/train.py`) is there.
A folder link in the region, a region of more than MAX_ENTRIES entries, or any doubt: the launcher is walked.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

MAX_LEVELS = 4                  # folders above the launcher's
MAX_ENTRIES = 20000             # files and folders a region may hold
# listings kept: the launchers of one project share theirs and files are checked folder by folder, so a few
# serve a whole tree (256 held a tree's every listing: 9 MB over the model zoo's 16,218 files, 0.6 MB at 4,106)
MAX_REGIONS = 16
# what makes the walk needed whatever the scripts hold (mirrors emulate/scan.py's words, without `.py`)
_WALKED = re.compile(r"\.sh|\bsource\b|\bfunction\b|\(\s*\)|(?:^|[\s;&|(){}])-m(?:$|[\s=])|"
                     r"\.[$`]|\}(?:py|sh)\b|(?:^|[\s;&|(){}`])\.(?:$|[\s;&|])")
_ROOTED = re.compile(r"(?:^|[\s'\"=(:])[/~]")
_PY_WORD = re.compile(r"[^\s'\"=;|&()<>`]*\.py(?![\w])")
_NAME = re.compile(r"[\w.+-]+")
_ENDS_COMMAND = re.compile(r"[\n;&|()`]")
_UP = re.compile(r"^(?:\.\.?/+)+")

_regions: Dict[str, Tuple[Dict[str, int], Dict[str, List[str]]]] = {}     # folder -> (folder mtimes, name -> paths)
_passes: Dict[str, Tuple[tuple, bool]] = {}                              # script -> (stat, passes the prefilter)


def starts_no_profiled_script(text: str, path: str) -> bool:
    """True when the walk of this launcher cannot change what `check` finds in it (see the module); False when
    it may, or when that is not certain here."""
    from ..shell.state import MAX_COMMANDS
    from ..source.shell_words import MAX_LAUNCHER
    if len(text) > MAX_LAUNCHER or "prof" in text.lower() or _WALKED.search(text) or _ROOTED.search(text) or \
            len(_ENDS_COMMAND.findall(text)) + 1 > MAX_COMMANDS or not os.path.isfile(path):
        return False
    names, suffixes = set(), set()
    for m in _PY_WORD.finditer(text):
        word = m.group().strip("\\")
        head, _, name = word.rpartition("/")
        if not _NAME.fullmatch(name):
            return False                # the script's name is computed
        names.add(name)
        if head and "$" not in head and "`" not in head:
            suffixes.add("/" + _UP.sub("", word))
    if not names:
        return False
    levels = text.count("..") + text.count("dirname")
    if levels > MAX_LEVELS:
        return False
    region = os.path.dirname(os.path.abspath(path))
    for _ in range(levels):
        region = os.path.dirname(region)
    found = _listing(region)
    if found is None:
        return False
    candidates = [p for name in names for p in found.get(name, ())]
    if any(not any(p.endswith(s) for p in candidates) for s in suffixes):
        return False                    # a script named with its folders is not there: left to the walk
    return not any(_may_have_setups(p) for p in candidates)


def _listing(region: str) -> Optional[Dict[str, List[str]]]:
    """name -> paths of the `.py` files below region (None: a folder link, or too many entries)."""
    kept = _regions.get(region)
    if kept is not None and all(_mtime(d) == t for d, t in kept[0].items()):
        return kept[1]
    folders: Dict[str, int] = {}
    names: Dict[str, List[str]] = {}
    entries = 0
    for root, dirs, files in os.walk(region):
        folders[root] = _mtime(root)
        entries += len(dirs) + len(files)
        if entries > MAX_ENTRIES or any(os.path.islink(os.path.join(root, d)) for d in dirs):
            return None
        for f in files:
            if f.endswith(".py"):
                names.setdefault(f, []).append(os.path.join(root, f))
    if len(_regions) >= MAX_REGIONS:
        _regions.clear()
    _regions[region] = (folders, names)
    return names


def _mtime(folder: str) -> int:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return -1


def _may_have_setups(script: str) -> bool:
    """Whether a script may hold a profiling setup (the plugin's prefilter); one that cannot be read may."""
    from ..source import observed
    from ..source.files import ReadError, read_source
    from ..source.prefilter import might_configure_profiling
    sig = observed.note(script)         # a cached check depends on it as on a script the walk reads
    kept = _passes.get(script)
    if kept is not None and kept[0] == sig:
        return kept[1]
    try:
        passes = might_configure_profiling(read_source(script).text)
    except (OSError, ReadError, ValueError):
        passes = True
    if len(_passes) >= MAX_REGIONS * 64:
        _passes.clear()
    _passes[script] = (sig, passes)
    return passes
