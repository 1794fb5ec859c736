"""The CANN version and the chip of the machine npuprof runs on.

Used by `npuprof emulate` when neither flags nor the project's configuration name a target, and by
`--cann auto` / `--soc auto` in check and flake8. Nothing here raises: a missing or malformed file,
an unknown version or chip name, a failing `npu-smi` each become a note, and detection falls back
to "not found" (the caller then uses `any`). Where the files are and what they look like:
data/machine.json.
"""

from __future__ import annotations

import glob
import json
import os
import platform
import re
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from .targets import TargetError, parse_cann

NPU_SMI_TIMEOUT = 20        # npu-smi answers in well under a second; a hung driver must not hang us


class Found(NamedTuple):
    value: Optional[str]        # our target name (8.5, 910B), or None when nothing usable was found
    origin: str                 # where it came from, for the report ("" when not found)
    notes: Tuple[str, ...] = ()  # what was tried and could not be used, and why


@lru_cache(maxsize=None)
def machine_data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "machine.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _read_keyvalues(path: str) -> Dict[str, str]:
    """key=value lines (the install scripts' format); raises OSError/UnicodeDecodeError."""
    out: Dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            key, sep, value = line.strip().partition("=")
            if sep and key and key not in out:
                out[key.strip()] = value.strip()
    return out


def toolkit_homes(environ) -> List[Tuple[str, str]]:
    """(directory, how it was found): the environment's toolkit home first, then the default installs."""
    data = machine_data()
    out: List[Tuple[str, str]] = []
    for var in data["homes_env"]:
        value = environ.get(var)
        if value:
            out.append((value, f"${var}"))
    for home in data["default_homes"]:
        out.append((os.path.expanduser(home), "the default install path"))
    seen, unique = set(), []
    for home, how in out:
        key = os.path.normpath(home)
        if key not in seen:
            seen.add(key)
            unique.append((home, how))
    return unique


def _info_files(home: str, name: str) -> List[str]:
    """<home>/<this machine's arch>-linux/<name> first, then any other <arch>-linux directory."""
    own = os.path.join(home, f"{platform.machine()}-linux", name)
    others = sorted(p for p in glob.glob(os.path.join(glob.escape(home), "*-linux", name)) if p != own)
    return ([own] if os.path.isfile(own) else []) + others


def _version_from(home: str, notes: List[str]) -> Optional[Tuple[str, str]]:
    """(CANN version text, file) from the toolkit's install info, else its version.cfg."""
    for path in _info_files(home, "ascend_toolkit_install.info"):
        try:
            version = _read_keyvalues(path).get("version", "")
        except (OSError, UnicodeDecodeError) as exc:
            notes.append(f"{path}: cannot be read ({exc.__class__.__name__})")
            continue
        if version:
            return version, path
        notes.append(f"{path}: no version= line")
    cfg = os.path.join(home, "version.cfg")
    if os.path.isfile(cfg):
        try:
            pairs = _read_keyvalues(cfg)
        except (OSError, UnicodeDecodeError) as exc:
            notes.append(f"{cfg}: cannot be read ({exc.__class__.__name__})")
            return None
        for key in machine_data()["version_cfg_keys"]:
            m = re.match(r"^\[[^:\]]*:([^\]]+)\]", pairs.get(key, ""))
            if m:
                return m.group(1).strip(), cfg
        notes.append(f"{cfg}: no [component:CANN version] entry")
    return None


def detect_torch_npu(environ=None) -> Found:
    """`--torch-npu auto`: the installed torch-npu distribution, read from its package metadata in this Python
    (never imported). Its version is the wheel's (2.1.0.post10, 2.9.0), which names no release by itself: it is
    looked up among the versions of Ascend/pytorch's release tags (data/torch_npu.json "wheels"). A version no
    tag names, or a release outside the ones npuprof checks, is reported and not guessed: the target stays any."""
    from importlib import metadata
    from .targets import TORCH_NPU_RELEASES
    from .torch_npu import release_of_wheel
    try:
        version = metadata.version("torch-npu")
    except Exception:                       # not installed, or unreadable metadata
        return Found(None, "", ("torch-npu is not installed in this Python",))
    release = release_of_wheel(version)
    if release is None:
        return Found(None, "", (f"torch-npu {version} is installed, but no Ascend/pytorch release tag npuprof read "
                                "names that version; give the release as --torch-npu 7.3 (or torch-npu = \"7.3\" in "
                                "the configuration)",))
    line = ".".join(release.split(".")[:2])
    if line not in TORCH_NPU_RELEASES:
        return Found(None, "", (f"torch-npu {version} is torch_npu {release}, a release npuprof does not check "
                                f"(it knows {TORCH_NPU_RELEASES[0]} to {TORCH_NPU_RELEASES[-1]})",))
    return Found(line, f"torch-npu {version} installed (torch_npu {release}, from its package metadata)")


def detect_cann(environ=None) -> Found:
    environ = os.environ if environ is None else environ
    notes: List[str] = []
    for home, how in toolkit_homes(environ):
        if not os.path.isdir(home):
            if how.startswith("$"):
                notes.append(f"{how}={home}: no such directory")
            continue
        found = _version_from(home, notes)
        if found is None:
            notes.append(f"{home} ({how}): no ascend_toolkit_install.info or version.cfg with a version")
            continue
        text, path = found
        try:
            version = parse_cann(text)
        except TargetError:
            notes.append(f"{path}: CANN {text} is not a version npuprof knows")
            continue
        if version in ("any", "portable"):
            continue
        return Found(version, f"{path} (version {text})", tuple(notes))
    return Found(None, "", tuple(notes) or ("no CANN toolkit installed",))


# ---------------------------------------------------------------- the chip

def chip_of(name: str, header: str) -> Optional[str]:
    for entry in machine_data()["npu_smi_names"]:
        if re.match(entry["pattern"], name) and entry.get("requires_header", "") in header:
            return entry["soc"]
    return None


def parse_npu_smi(text: str) -> Tuple[List[str], str]:
    """(the Name column of each NPU row, the table's header text) of `npu-smi info`."""
    names: List[str] = []
    header = ""
    for line in text.splitlines():
        if re.match(r"^\|\s*(NPU|Chip)\s", line):
            header += line
            continue
        m = re.match(r"^\|\s*\d+\s+([A-Za-z0-9][\w.-]*)\s*\|\s*[A-Za-z]", line)
        if m and not m.group(1).isdigit():
            names.append(m.group(1))
    return names, header


def soc_from_npu_smi(text: str, notes: List[str]) -> Optional[Tuple[str, str]]:
    names, header = parse_npu_smi(text)
    if not names:
        notes.append("npu-smi info: no NPU rows in its output")
        return None
    socs = {name: chip_of(name, header) for name in dict.fromkeys(names)}
    unknown = [n for n, s in socs.items() if s is None]
    if unknown:
        notes.append(f"npu-smi info: chip name {', '.join(unknown)} is not one npuprof knows")
        return None
    if len(set(socs.values())) > 1:
        notes.append(f"npu-smi info: NPUs of different products ({', '.join(socs)})")
        return None
    soc = next(iter(socs.values()))
    assert soc is not None                  # (every chip is known: an unknown one returned above)
    return soc, ", ".join(socs)


def _run_npu_smi(exe: str) -> str:
    done = subprocess.run([exe, "info"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          timeout=NPU_SMI_TIMEOUT, check=False)
    if done.returncode != 0:
        raise OSError(f"exit status {done.returncode}")
    return done.stdout.decode("utf-8", "replace")


def detect_soc(environ=None, run: Callable[[str], str] = _run_npu_smi) -> Found:
    """The chip from `npu-smi info` (on PATH), else from the ops package the toolkit installed."""
    import shutil
    environ = os.environ if environ is None else environ
    notes: List[str] = []
    # only absolute PATH entries: an empty or relative one means the current folder, often the scanned tree
    path = os.pathsep.join(p for p in environ.get("PATH", os.defpath).split(os.pathsep) if os.path.isabs(p))
    exe = shutil.which("npu-smi", path=path) if path else None
    if exe:
        try:
            text = run(exe)
        except (OSError, subprocess.SubprocessError) as exc:
            notes.append(f"npu-smi info failed ({exc})")
        else:
            found = soc_from_npu_smi(text, notes)
            if found:
                return Found(found[0], f"npu-smi info ({found[1]})", tuple(notes))
    else:
        notes.append("no npu-smi on PATH")
    packages = machine_data()["ops_packages"]
    for home, _ in toolkit_homes(environ):
        for path in _info_files(home, "ascend_ops_install.info") if os.path.isdir(home) else ():
            try:
                name = _read_keyvalues(path).get("package_name", "")
            except (OSError, UnicodeDecodeError) as exc:
                notes.append(f"{path}: cannot be read ({exc.__class__.__name__})")
                continue
            if name in packages:
                return Found(packages[name], f"{path} ({name})", tuple(notes))
            notes.append(f"{path}: ops package {name or '(none named)'} names no chip npuprof knows")
    return Found(None, "", tuple(notes))
