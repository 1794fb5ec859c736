"""The target a run is checked for: the one place that settles --cann/--soc/--torch-npu from the flags, the
configuration and the machine.

Each front-end has its default, said here once (docs/architecture.md cites this table):
- `npuprof check`, `fix`, `validate`, the language server and the flake8 plugin: `any`. Their results
  must not depend on the machine they run on (CI, an editor on a laptop); `auto` is opt-in.
- `npuprof emulate`: `auto`. It predicts one run, so it asks the machine first (knowledge/detect.py),
  and falls back to `any` when nothing usable is installed, saying what it tried. The torch_npu release too:
  `auto` maps the installed torch-npu's package version to the release whose tag names it
  (knowledge/detect.py), and says `any` with the reason when it cannot.
flake8 reads its configuration itself: the plugin passes its options as flags, with no configuration.
"""

from __future__ import annotations

import os
from typing import Callable, Dict, Mapping, NamedTuple, Optional, Tuple

from ..knowledge.targets import Target, TargetError, parse_cann, parse_soc, parse_torch_npu
from ..source.config import UsageError

DEFAULTS = {"check": "any", "server": "any", "flake8": "any", "emulate": "auto"}
KINDS = ("cann", "soc", "torch_npu")
PARSERS = {"cann": parse_cann, "soc": parse_soc, "torch_npu": parse_torch_npu}


class Origin(NamedTuple):
    source: str         # flag, config, machine or default
    detail: str         # the flag, the configuration file, the file or command detected from
    notes: Tuple[str, ...] = ()     # what detection tried and could not use
    fell_back: bool = False         # a flag or the configuration asked for auto, and the machine had nothing


def settle_target(flags: Mapping[str, Optional[str]], config=None, default: str = "any", environ=None,
                  machine: Optional[dict] = None) -> Tuple[Target, Dict[str, Origin]]:
    """The target, and where each of cann and soc came from: the flag (flags[kind], None: not given), else the
    configuration's value, else the front-end's default. `auto` asks the machine; when it has nothing usable the
    value is `any` (Origin "default", detail "... auto", with detection's notes). A value that is no target is a
    UsageError that names where it came from (the flag, or the file and its key). machine: a cache of detection
    shared by the calls of one run (emulate asks once for many files)."""
    values, origins = {}, {}
    for kind in KINDS:
        flag = flags.get(kind)
        configured = getattr(config, kind, None) if config else None
        spelt = kind.replace("_", "-")      # --torch-npu, torch-npu = "..."
        if flag is not None:
            value, origin, where = flag, Origin("flag", f"--{spelt}"), f"--{spelt}"
        elif configured is not None:
            value, origin, where = configured, Origin("config", config_label(config.path)), \
                f"{config.path}: {config.key(spelt)}"
        else:
            value, origin, where = default, Origin("default", ""), ""
        if value.strip().lower() == "auto":
            cache = machine if machine is not None else {}
            if (kind, origin) not in cache:
                cache[(kind, origin)] = _machine(kind, environ, origin)
            value, origin = cache[(kind, origin)]
        try:                            # (the error lists `auto` too: every front-end takes it)
            PARSERS[kind](value, accepts_auto=True)
        except TargetError as exc:
            raise UsageError(f"{where}: {exc}" if where else str(exc)) from None
        values[kind], origins[kind] = value, origin
    return Target.parse(values["cann"], values["soc"], values["torch_npu"]), origins


def auto_fallbacks(origins: Mapping[str, Origin]) -> Tuple[str, ...]:
    """The warnings of a run that asked for `auto` and got `any` (results then do not depend on the machine)."""
    return tuple(f"--{kind.replace('_', '-')} auto: nothing usable on this machine ({'; '.join(o.notes) or 'nothing found'}); using any"
                 for kind, o in origins.items() if o.fell_back)


def config_label(path: str) -> str:
    """`pyproject.toml [tool.npuprof]`: the configuration file as a report names it."""
    section = "[tool.npuprof]" if path.endswith(".toml") else "[flake8]"
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = path
    return f"{path if rel.startswith('..') or len(rel) >= len(path) else rel} {section}"


def _machine(kind: str, environ, asked: Origin) -> Tuple[str, Origin]:
    from ..knowledge import detect
    detectors: Dict[str, Callable[..., detect.Found]] = {
        "cann": detect.detect_cann, "soc": detect.detect_soc, "torch_npu": detect.detect_torch_npu}
    found = detectors[kind](environ)
    if found.value is not None:
        return found.value, Origin("machine", found.origin, found.notes)
    how = f"{asked.detail} auto" if asked.source in ("flag", "config") else ""
    return "any", Origin("default", how, found.notes, fell_back=bool(how))
