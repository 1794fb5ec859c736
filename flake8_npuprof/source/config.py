"""Configuration for the CLI: `[tool.npuprof]` in pyproject.toml, else the `[flake8]` section.

Both front-ends read the same settings: flake8 takes `npuprof-cann`/`npuprof-soc` from its
own config files, and the CLI falls back to exactly those when pyproject.toml has no
`[tool.npuprof]` table. Command-line flags always win.

The codes a file names are checked against the rules' codes, which the callers pass in
(`rule_codes`): the rules and their pages live in checks/, above this layer.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import os
import re
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
    outside: bool = True            # emulate reads scripts a launcher sources from outside the project
    torch_npu: Optional[str] = None  # the torch_npu release target, read beside cann/soc

    def key(self, name: str) -> str:
        """How a setting is spelled in this file, for messages: `cann` in pyproject, `npuprof-cann` in [flake8]."""
        if self.path.endswith(".toml") or name not in ("cann", "soc", "torch-npu", "preflight", "graph", "outside"):
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


def _shown(value) -> str:
    """A value as a message shows it: its repr, on one line, cut short."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


MAX_BYTES = 10 * 1024 * 1024        # a configuration file is read within the bound of a source file


def _read_text(path: Path) -> str:
    """A configuration file's text: bounded like every input, a FIFO or device refused, UTF-8 (as flake8
    and TOML read them); any problem is one ConfigError naming the file."""
    from .files import ReadError, read_bytes
    try:
        data = read_bytes(str(path), MAX_BYTES)
    except ReadError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x}); configuration files are read "
                          "as UTF-8") from None


_KEY = re.compile(r"\s*\[*\s*([\w.\"'-]+)")


def _key_on(text: str, line: int) -> str:
    """The key (or table) a TOML line sets, for messages ("" when there is none to name)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    m = _KEY.match(lines[line - 1])
    return f"{m.group(1)}: " if m else ""


def _toml_load(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:                                   # pragma: no cover - exercised on 3.9/3.10
        import tomli as tomllib
    text = _read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        key = _key_on(text, int(m.group(1))) if m else ""
        raise ConfigError(f"{path}: {key}{' '.join(str(exc).split())}") from None
    except (RecursionError, MemoryError):   # the parser recurses once per level of nesting
        line = next((k for k, ln in enumerate(text.splitlines(), 1) if ln.count("[") + ln.count("{") > 50), 0)
        where = f":{line}" if line else ""
        raise ConfigError(f"{path}{where}: {_key_on(text, line)}nested too deeply to be a setting") from None


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
                          f"not {_shown(value)}")
    check_codes(codes, f"{where}: {key}" if where else key, rule_codes)
    return codes


def _strings(value, where: str, key: str) -> Tuple[str, ...]:
    """A list of patterns: a TOML array of strings, or one string separated by commas."""
    if isinstance(value, str):
        return tuple(p.strip() for p in value.split(",") if p.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value if v.strip())
    raise ConfigError(f'{where}: {key} must be a list of patterns (e.g. {key} = ["third_party/"]), not {_shown(value)}')


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
                          f'"legacy/*.py" = ["NPP101"]), not {_shown(value)}')
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
    known = {"cann", "soc", "torch-npu", "select", "extend-select", "ignore", "extend-ignore", "extend-default-ignore",
             "per-file-ignores", "preflight", "graph", "exclude", "extend-exclude", "outside"}
    unknown = sorted(set(t) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.npuprof] setting(s): {_with_guesses(unknown, known)}")
    for key in ("cann", "soc", "torch-npu", "graph"):
        if key in t and not isinstance(t[key], str):
            raise ConfigError(f'{path}: {key} must be a string (write {key} = "{_shown(t[key]).strip(chr(39))}")')
    for key in ("preflight", "outside"):
        if key in t and not isinstance(t[key], bool):
            raise ConfigError(f"{path}: {key} must be true or false, not {_shown(t[key])}")
    where = str(path)
    codes = {key: _codes(t.get(key), rule_codes, where, key)
             for key in ("select", "extend-select", "ignore", "extend-ignore", "extend-default-ignore")}
    return Config(where, t.get("cann"), t.get("soc"), codes["select"], codes["extend-select"], codes["ignore"],
                  codes["extend-ignore"], codes["extend-default-ignore"],
                  _per_file(t.get("per-file-ignores"), rule_codes, where), bool(t.get("preflight", False)), t.get("graph"),
                  _strings(t["exclude"], where, "exclude") if "exclude" in t else None,
                  _strings(t.get("extend-exclude", []), where, "extend-exclude"), t.get("outside", True),
                  t.get("torch-npu"))


def _ini_error(path: Path, exc: configparser.Error) -> str:
    """One line for what configparser says over several (and with the path's repr)."""
    if isinstance(exc, configparser.DuplicateOptionError):
        return f"{path}:{exc.lineno}: {exc.option} is set twice in [{exc.section}]"
    if isinstance(exc, configparser.DuplicateSectionError):
        return f"{path}:{exc.lineno}: [{exc.section}] appears twice"
    if isinstance(exc, configparser.MissingSectionHeaderError):
        return f"{path}:{exc.lineno}: {exc.line.strip()[:60]!r} comes before any [section] header"
    if isinstance(exc, configparser.ParsingError) and exc.errors:
        lineno, line = exc.errors[0]
        try:                            # configparser keeps the line's repr
            line = ast.literal_eval(line)
        except (ValueError, SyntaxError):
            pass
        return f"{path}:{lineno}: cannot read {str(line).strip()[:60]!r} (expected `key = value`)"
    return f"{path}: {' '.join(str(exc).split())[:200]}"


_BOOLEANS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def _boolean(sec: dict, key: str, default: bool, where: str) -> bool:
    """A true/false setting of [flake8], as configparser reads booleans: anything else is an error, not false."""
    if key not in sec:
        return default
    value = sec[key].strip().lower()
    if value not in _BOOLEANS:
        raise ConfigError(f"{where}: {key} must be true or false (or yes/no, on/off, 1/0), not {_shown(sec[key])}")
    return _BOOLEANS[value]


def _with_guesses(unknown: Sequence[str], known) -> str:
    """`can (did you mean cann?)`, for each unknown key that is close to a known one."""
    from .suggest import close_matches
    out = []
    for key in unknown:
        guess = close_matches(key, sorted(known))
        out.append(f"{key} (did you mean {guess[0]}?)" if guess else key)
    return ", ".join(out)


FLAKE8_SETTINGS = ("npuprof-cann", "npuprof-soc", "npuprof-torch-npu", "npuprof-preflight", "npuprof-graph")


def unknown_flake8_settings(keys) -> str:
    """The `npuprof*` keys of a [flake8] section that no setting has, each with a did-you-mean ("" if none)."""
    unknown = sorted(k for k in (x.replace("_", "-") for x in keys)
                     if k.startswith("npuprof") and k not in FLAKE8_SETTINGS)
    return _with_guesses(unknown, FLAKE8_SETTINGS) if unknown else ""


def from_flake8(path: Path, *, rule_codes: RuleCodes) -> Optional[Config]:
    parser = configparser.RawConfigParser()
    text = _read_text(path)
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as exc:
        raise ConfigError(_ini_error(path, exc)) from None
    if not parser.has_section("flake8"):
        return None
    sec = {k.replace("_", "-"): v for k, v in parser.items("flake8")}
    where = str(path)
    unknown = unknown_flake8_settings(sec)
    if unknown:                         # flake8 itself would ignore them: a typo must not pass in silence
        raise ConfigError(f"{path}: unknown [flake8] setting(s): {unknown}")

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
                  _boolean(sec, "npuprof-preflight", False, where),
                  sec.get("npuprof-graph"), patterns("exclude"), patterns("extend-exclude") or (),
                  _boolean(sec, "npuprof-outside", True, where), sec.get("npuprof-torch-npu"))


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


class UsageError(Exception):
    pass
