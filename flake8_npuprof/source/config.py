"""Configuration for the CLI: `[tool.npuprof]` in pyproject.toml, else the `[flake8]` section.

Both front-ends read the same settings: flake8 takes `npuprof-cann`/`npuprof-soc` from its
own config files, and the CLI falls back to exactly those when pyproject.toml has no
`[tool.npuprof]` table. Command-line flags always win.

The codes a file names are checked against the rules' codes, which the callers pass in
(`rule_codes`): the rules and their pages live in checks/, above this layer.
"""

from __future__ import annotations

import configparser
import fnmatch
import os
import sys
from pathlib import Path
from typing import Callable, Collection, List, NamedTuple, Optional, Sequence, Tuple

from .files import split_codes


class ConfigError(Exception):
    pass


# The codes of the rules (checks/catalog.py's CODES), asked for only when there is a code to check.
RuleCodes = Callable[[], Collection[str]]


class Config(NamedTuple):
    path: str
    cann: Optional[str] = None
    soc: Optional[str] = None
    select: Tuple[str, ...] = ()
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    extend_ignore: Tuple[str, ...] = ()
    extend_default_ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    preflight: bool = False
    graph: Optional[str] = None
    exclude: Optional[Tuple[str, ...]] = None           # None: the default folder names
    extend_exclude: Tuple[str, ...] = ()

    def key(self, name: str) -> str:
        """How a setting is spelled in this file, for messages: `cann` in pyproject, `npuprof-cann` in [flake8]."""
        if self.path.endswith(".toml") or name not in ("cann", "soc", "preflight", "graph"):
            return name
        return "npuprof-" + name

    def base(self) -> str:
        return os.path.dirname(os.path.abspath(self.path))

    def graph_path(self) -> Optional[str]:
        """The graph dump, relative to the configuration file like every other path in it."""
        if not self.graph:
            return None
        return os.path.join(os.path.dirname(os.path.abspath(self.path)), self.graph)

    def ignores_for(self, path: str) -> Tuple[str, ...]:
        base = os.path.dirname(os.path.abspath(self.path))
        rel = os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")
        out: List[str] = []
        for pattern, codes in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(path), pattern) or \
                    fnmatch.fnmatch(rel, pattern.rstrip("/") + "/*"):
                out.extend(codes)
        return tuple(out)


def _toml_load(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:                                   # pragma: no cover - exercised on 3.9/3.10
        import tomli as tomllib
    with open(path, "rb") as fh:
        try:
            return tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from None


def _codes(value, rule_codes: RuleCodes, where: str = "", key: str = "") -> Tuple[str, ...]:
    """A list of codes: a TOML array of strings, or one string separated by commas or spaces."""
    if value is None:
        return ()
    if isinstance(value, str):
        codes = split_codes(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        codes = tuple(v.strip().upper() for v in value if v.strip())
    else:
        raise ConfigError(f'{where}: {key} must be a list of codes or a string of codes (e.g. {key} = ["NPP203"]), '
                          f"not {value!r}")
    check_codes(codes, f"{where}: {key}" if where else key, rule_codes)
    return codes


def _strings(value, where: str, key: str) -> Tuple[str, ...]:
    """A list of patterns: a TOML array of strings, or one string separated by commas."""
    if isinstance(value, str):
        return tuple(p.strip() for p in value.split(",") if p.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value if v.strip())
    raise ConfigError(f'{where}: {key} must be a list of patterns (e.g. {key} = ["third_party/"]), not {value!r}')


def check_codes(codes: Sequence[str], option: str, rule_codes: RuleCodes) -> None:
    """Every code must be an NPP code or a prefix of one (`NPP1`, `N`): a typo must not select nothing."""
    if not codes:
        return
    known = rule_codes()
    for code in codes:
        if not any(rule.startswith(code) for rule in known):
            raise ConfigError(f"{option}: unknown code {code!r} (codes are NPP followed by digits; "
                              "`npuprof explain --list` shows them)")


def _per_file(value, rule_codes: RuleCodes, where: str = "",
              key: str = "per-file-ignores") -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    if not value:
        return ()
    if isinstance(value, dict):
        return tuple((k, _codes(v, rule_codes, where, f"{key}.{k!r}")) for k, v in value.items())
    if not isinstance(value, str):
        raise ConfigError(f'{where}: {key} must be a table of pattern = codes (e.g. [tool.npuprof.{key}] '
                          f'"legacy/*.py" = ["NPP101"]), not {value!r}')
    from flake8.utils import parse_files_to_codes_mapping   # flake8's own syntax for the option
    try:
        pairs = parse_files_to_codes_mapping(value)
    except Exception as exc:            # flake8 raises its own ExecutionError, over several lines
        first = " ".join(str(exc).split())
        raise ConfigError(f"{where}: {key}: expected lines of `pattern: codes` ({first[:200]})") from None
    return tuple((pattern, tuple(c.upper() for c in codes)) for pattern, codes in pairs)


def from_pyproject(path: Path, *, rule_codes: RuleCodes) -> Optional[Config]:
    tool = _toml_load(path).get("tool", {})
    table = tool.get("npuprof") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.npuprof] must be a table")
    t = {k.replace("_", "-"): v for k, v in table.items()}
    known = {"cann", "soc", "select", "extend-select", "ignore", "extend-ignore", "extend-default-ignore",
             "per-file-ignores", "preflight", "graph", "exclude", "extend-exclude"}
    unknown = sorted(set(t) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.npuprof] setting(s): {_with_guesses(unknown, known)}")
    for key in ("cann", "soc", "graph"):
        if key in t and not isinstance(t[key], str):
            raise ConfigError(f'{path}: {key} must be a string (write {key} = "{t[key]}")')
    if "preflight" in t and not isinstance(t["preflight"], bool):
        raise ConfigError(f"{path}: preflight must be true or false")
    where = str(path)
    codes = {key: _codes(t.get(key), rule_codes, where, key)
             for key in ("select", "extend-select", "ignore", "extend-ignore", "extend-default-ignore")}
    return Config(where, t.get("cann"), t.get("soc"), codes["select"], codes["extend-select"], codes["ignore"],
                  codes["extend-ignore"], codes["extend-default-ignore"],
                  _per_file(t.get("per-file-ignores"), rule_codes, where), bool(t.get("preflight", False)), t.get("graph"),
                  _strings(t["exclude"], where, "exclude") if "exclude" in t else None,
                  _strings(t.get("extend-exclude", []), where, "extend-exclude"))


def _with_guesses(unknown: Sequence[str], known) -> str:
    """`can (did you mean cann?)`, for each unknown key that is close to a known one."""
    from .suggest import close_matches
    out = []
    for key in unknown:
        guess = close_matches(key, sorted(known))
        out.append(f"{key} (did you mean {guess[0]}?)" if guess else key)
    return ", ".join(out)


def from_flake8(path: Path, *, rule_codes: RuleCodes) -> Optional[Config]:
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except configparser.Error as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if not parser.has_section("flake8"):
        return None
    sec = {k.replace("_", "-"): v for k, v in parser.items("flake8")}
    where = str(path)
    ours = {"npuprof-cann", "npuprof-soc", "npuprof-preflight", "npuprof-graph"}
    unknown = sorted(k for k in sec if k.startswith("npuprof") and k not in ours)
    if unknown:                         # flake8 itself would ignore them: a typo must not pass in silence
        raise ConfigError(f"{path}: unknown [flake8] setting(s): {_with_guesses(unknown, ours)}")

    def npp(codes, key):
        # other plugins' codes are flake8's business; the NPP ones must exist
        mine = tuple(c for c in codes if c.startswith("NPP") or "NPP".startswith(c))
        check_codes(mine, f"{where}: {key}", rule_codes)
        return mine
    lists = {key: npp(split_codes(sec.get(key)), key) for key in ("select", "extend-select", "ignore", "extend-ignore")}
    per_file = tuple((p, npp(c, f"per-file-ignores {p!r}")) for p, c in _per_file(sec.get("per-file-ignores"), rule_codes, where))
    patterns = lambda key: _strings(sec[key], where, key) if key in sec else None  # noqa: E731
    return Config(where, sec.get("npuprof-cann"), sec.get("npuprof-soc"), lists["select"], lists["extend-select"],
                  lists["ignore"], lists["extend-ignore"], (), per_file,
                  sec.get("npuprof-preflight", "").strip().lower() in ("1", "true", "yes", "on"),
                  sec.get("npuprof-graph"), patterns("exclude"), patterns("extend-exclude") or ())


def load_config(explicit: Optional[str], paths: Sequence[str] = (), start: Optional[str] = None, *,
                rule_codes: RuleCodes) -> Optional[Config]:
    """The configuration in effect: --config, else the nearest file above `start` (default: the current
    directory; emulate starts at the script's directory, the project it belongs to)."""
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise UsageError(f"config file not found: {explicit}")
        try:
            read = from_pyproject if path.suffix == ".toml" else from_flake8
            config = read(path, rule_codes=rule_codes)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        return config or Config(str(path))
    first = Path(start).resolve() if start else Path.cwd()
    for directory in [first, *first.parents]:
        try:
            pyproject = directory / "pyproject.toml"
            if pyproject.is_file():
                found = from_pyproject(pyproject, rule_codes=rule_codes)
                if found:
                    return found
            for name in ("setup.cfg", "tox.ini", ".flake8"):
                candidate = directory / name
                if candidate.is_file():
                    found = from_flake8(candidate, rule_codes=rule_codes)
                    if found:
                        return found
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        if (directory / ".git").exists():
            break
    return None


# ---------------------------------------------------------------- `auto`: the machine's target

AUTO = "auto"


def machine_target_value(kind: str, value: Optional[str], environ=None) -> Tuple[Optional[str], str]:
    """For `--cann auto` / `--soc auto` (flag or configuration): (detected target name or None, what was
    found or why nothing was). Any other value is returned as it is. Detection lives in detect.py."""
    if value is None or value.strip().lower() != AUTO:
        return value, ""
    from ..knowledge.detect import detect_cann, detect_soc
    found = detect_cann(environ) if kind == "cann" else detect_soc(environ)
    if found.value is None:
        return None, "; ".join(found.notes) or "nothing found"
    return found.value, found.origin


class UsageError(Exception):
    pass
