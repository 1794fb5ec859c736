"""What pytest reads besides the file when the file runs `pytest.main([__file__])`, and what of it decides which of
the file's tests run.

pytest finds its configuration from the file's folder upwards, whatever folder it is started in: in each folder the
first of CONFIG_NAMES that holds its configuration (pytest.ini and .pytest.ini always do, tox.ini with a `[pytest]`
section, setup.cfg with `[tool:pytest]`, pyproject.toml with `[tool.pytest.ini_options]`; pytest 9.2's
_pytest/config/findpaths.py, locate_config, and 7.4's likewise without the TOML files). It loads every conftest.py
from the file's folder up to that configuration's folder (to the top, or to a rootdir that depends on the folder it
is started in, where there is none): their hooks (`pytest_collection_modifyitems`, `collect_ignore`, ...) may run
other tests or none, so the answer is not known here. Of the settings, `python_functions` and `python_classes` are
read (which functions, classes and methods pytest collects, each a prefix or a glob), addopts of PYTEST_FLAGS only and
the settings of HARMLESS change nothing of what runs; any other setting may (pytest 9.2 and 7.4, run here with
`pytest.main([__file__])` from another folder: python_functions = check_* ran check_b and CheckK.check_m, not test_a,
and a unittest TestCase's test_* whatever its name; python_files, testpaths and norecursedirs do not apply to a file
named on the command line).
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..source import fence, observed

CONFIG_NAMES = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
INI_SECTIONS = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest", "setup.cfg": "tool:pytest"}
# addopts that change nothing of what runs (reach.PYTEST_FLAGS, repeated here to keep this module on its own)
PYTEST_FLAGS = ("-s", "-v", "-vv", "-q", "-qq", "--verbose", "--quiet", "--capture=no")
# settings of pytest 9.2 (its parser.addini list) that change nothing of which tests of a file named on the command
# line run, nor whether pytest gets to run them
HARMLESS = ("python_files", "testpaths", "norecursedirs", "markers", "console_output_style", "cache_dir",
            "junit_family", "junit_suite_name", "junit_logging", "junit_log_passing_tests", "junit_duration_report",
            "xfail_strict", "strict_xfail", "log_cli", "log_level", "log_format", "log_date_format", "log_cli_level",
            "log_cli_format", "log_cli_date_format", "log_file", "log_file_level", "log_file_format",
            "log_file_date_format", "log_file_mode", "log_auto_indent", "doctest_encoding", "doctest_optionflags",
            "tmp_path_retention_count", "tmp_path_retention_policy", "faulthandler_timeout")
NO_SECTION: Dict[str, str] = {}     # a .pytest.ini without [pytest] (7.4's _pytest/config/findpaths.py passes over it)
MAX_CONFIG = 1 << 20            # bytes of a configuration file read; a larger one is not read (unknown)


class PytestSetup(NamedTuple):
    """Which names pytest collects as tests (prefixes or globs), or why what it runs is not known here."""
    functions: Tuple[str, ...] = ("test",)
    classes: Tuple[str, ...] = ("Test",)
    why: str = ""

    def test(self, name: str) -> bool:
        """Whether pytest collects a function or method of this name (python_functions)."""
        return collects(self.functions, name)

    def test_class(self, name: str) -> bool:
        """Whether pytest collects a class of this name (python_classes)."""
        return collects(self.classes, name)


def collects(patterns: Tuple[str, ...], name: str) -> bool:
    """Whether a name is one pytest collects by these patterns (_pytest/python.py, _matches_prefix_or_glob_option)."""
    return any(name.startswith(p) or any(c in p for c in "*?[") and _glob(name, p) for p in patterns)


def _glob(name: str, pattern: str) -> bool:
    import fnmatch      # (here: most files have no glob to match, and the plugin's start-up is counted)
    return fnmatch.fnmatch(name, pattern)


def pytest_setup(path: str) -> PytestSetup:
    """What pytest reads for `pytest.main([path])`, from the file's folder up."""
    folder = os.path.dirname(os.path.abspath(path))
    here = folder
    while True:
        conftest = os.path.join(folder, "conftest.py")
        if observed.isfile(conftest):
            # one above the file's folder is loaded where a configuration is found at its folder or above (its
            # folder is then the confcutdir); else only where the rootdir is its folder or above, which depends on
            # the folder pytest is started in and on a setup.py (pytest 9.2 from /, with none: rootdir the file's
            # folder, the conftest.py above not loaded)
            loads = "loads" if folder == here or _configured(folder) else "may load"
            return PytestSetup(why=f"{loads} {_shown(conftest, here)}, whose hooks and fixtures may change which "
                               "tests run")
        for name in CONFIG_NAMES:
            config = os.path.join(folder, name)
            if observed.isfile(config):
                found = _settings(config, name)
                if found is NO_SECTION:     # 9.2: its configuration, no settings; 7.4: none, looks up
                    parent = os.path.dirname(folder)
                    above = PytestSetup() if parent == folder else pytest_setup(os.path.join(parent, "-"))
                    found = {} if above == PytestSetup() else "which has no [pytest] section: pytest 9 takes it as " \
                        "its configuration, with no settings, and 7.4 looks further up, not read here"
                if found is not None:
                    return _setup(found, _shown(config, here))
        parent = os.path.dirname(folder)
        if parent == folder:
            return PytestSetup()
        folder = parent


def _configured(folder: str) -> bool:
    """Whether pytest 9.2 and 7.4 find a configuration in this folder or one above it."""
    while True:
        for name in CONFIG_NAMES:
            config = os.path.join(folder, name)
            if observed.isfile(config):
                found = _settings(config, name)
                if found is not None and found is not NO_SECTION:
                    return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def _shown(path: str, here: str) -> str:
    return os.path.relpath(path, here)


def _setup(found, shown: str) -> PytestSetup:
    """The setup a configuration gives (found: its settings, or why it cannot be read)."""
    if isinstance(found, str):
        return PytestSetup(why=f"reads {shown}, {found}")
    out = PytestSetup()
    for key, value in found.items():
        if key in HARMLESS:
            continue
        words = _words(value)
        if key == "addopts" and words is not None and all(w in PYTEST_FLAGS for w in words):
            continue
        if key == "python_functions" and words:
            out = out._replace(functions=tuple(words))
            continue
        if key == "python_classes" and words:
            out = out._replace(classes=tuple(words))
            continue
        shown_value = " ".join(words) if words is not None else str(value)
        return PytestSetup(why=f"reads {shown}, whose {key} = {shown_value} may change which tests run")
    return out


def _words(value) -> Optional[List[str]]:
    """A setting as pytest's "args" type reads it (shlex.split of the text; a TOML list as it is), else None."""
    import shlex        # (here: only a file that runs pytest on itself reads a configuration)
    if isinstance(value, list):
        return [str(v) for v in value] if all(isinstance(v, str) for v in value) else None
    try:
        return shlex.split(value)
    except ValueError:
        return None


def _settings(path: str, name: str):
    """The file's pytest settings; None where it holds none (pytest looks further up); why, where it is not read."""
    if fence.outside(path):             # (found looking up from the script: above the project's root)
        return f"which is {fence.WHY}"
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CONFIG + 1)
        observed.reading(path)
    except OSError:
        return "which cannot be read here"
    if len(data) > MAX_CONFIG:
        return "which is too large to be read here"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "which is not UTF-8 text"
    if name in INI_SECTIONS:
        sections = _ini(text)
        if sections is None:
            return "which pytest cannot parse (it stops before running any test)"
        found = sections.get(INI_SECTIONS[name])
        if name == "setup.cfg" and found is None and "pytest" in sections:
            return "whose [pytest] section pytest refuses (it stops before running any test)"
        if found is None and name.startswith(("pytest", ".pytest")):
            return {} if name == "pytest.ini" else NO_SECTION
        return found
    if name == "pyproject.toml":
        return _pyproject(text)
    return "a TOML configuration pytest 9 reads and 7.4 does not, not read here"


def _ini(text: str) -> Optional[Dict[str, Dict[str, str]]]:
    """Sections of an INI text as pytest's iniconfig reads them (a line starting with # or ; is blank, inline comments
    stay in the value, an indented line continues the value, and so does a `[` line whose `]` is not its last
    character before a comment: iniconfig 2.3.1's _parseline), or None where iniconfig raises a ParseError."""
    sections: Dict[str, Dict[str, str]] = {}
    current: Optional[Dict[str, str]] = None
    last: Optional[str] = None
    for line in text.lstrip("\ufeff").splitlines():
        if line.lstrip()[:1] in ("#", ";") or not line.strip():
            continue
        line = line.rstrip()
        head = line.split("#")[0].split(";")[0].rstrip() if line[0] == "[" else ""
        if head[-1:] == "]":
            if len(head) < 3 or head[1:-1] in sections:
                return None
            current, last = sections.setdefault(head[1:-1], {}), None
        elif not line[0].isspace() and line[0] != "[":
            key, eq, value = line.partition("=")
            if not eq or ":" in key:
                key, eq, value = line.partition(":")
            if not eq or current is None or key.strip() in current:
                return None
            last = key.strip()
            current[last] = value.strip()
        else:
            if current is None or last is None:
                return None
            current[last] = (current[last] + "\n" + line.strip()) if current[last] else line.strip()
    return sections


def _pyproject(text: str):
    """pyproject.toml's `[tool.pytest.ini_options]` (None: no pytest table; why: not read here)."""
    if "pytest" not in text:
        return None
    if sys.version_info >= (3, 11):
        import tomllib
    else:                                   # pragma: no cover - exercised on 3.9/3.10 (as source/config.py)
        import tomli as tomllib
    try:
        tool = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return "which pytest cannot parse (it stops before running any test)"
    except (RecursionError, MemoryError):   # (the parser recurses once per level of nesting)
        return "which is nested too deeply to be read here"
    table = tool.get("pytest") if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        return None
    if set(table) - {"ini_options"}:
        return "whose [tool.pytest] table pytest 9 reads and 7.4 does not, not read here"
    options = table.get("ini_options")
    if not isinstance(options, dict):
        return None
    return {k: v if isinstance(v, list) else str(v) for k, v in options.items()}
