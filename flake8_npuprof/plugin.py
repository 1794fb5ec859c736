"""The flake8 front-end: reports findings, never fixes, never raises into flake8."""

from __future__ import annotations

import argparse
from functools import lru_cache
from typing import Iterator, Tuple

from . import __version__
from .source.files import DEFAULT_OFF, default_off_enabled, refused_as_flake8_read
from .source.prefilter import might_configure_profiling

# Nothing heavy at import time: flake8 imports every plugin on every run, also for files
# (and whole runs) without a profiling setup. The analysis is imported on first use. (The prefilter, which
# every file is read by, is imported here: an import in `run` cost about 10,000 instructions a file.)


def _argtype(parser):
    """An argparse type from targets.parse_cann/parse_soc/parse_torch_npu (or its name, so that registering the
    options imports nothing)."""
    name = parser if isinstance(parser, str) else parser.__name__

    def convert(value: str) -> str:
        if value.strip().lower() in ("auto", "any"):
            return value.strip().lower()    # the default needs no import; auto is resolved in parse_options
        from .knowledge import targets
        try:
            return getattr(targets, name)(value, accepts_auto=True)
        except targets.TargetError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = name
    return convert


# flake8 runs no plugin on a file it cannot parse or read: it reports E999 (syntax error) or E902 (not
# readable) itself. `--select NPP` alone would drop those, and a broken training script would pass.
UNCHECKED = ("E902", "E999")


def _covers(prefixes, code: str) -> bool:
    return any(code.startswith(p) for p in prefixes or ())


def _account_for_every_file(options) -> None:
    """With NPP codes selected explicitly, also select E999/E902 unless the user decided about them: every
    file is then either checked or reported, as in `npuprof check` (NPP192)."""
    select = getattr(options, "select", None)
    if select is None or not any(p.startswith("NPP") or "NPP".startswith(p) for p in select if p):
        return                              # flake8's defaults select E9 already
    decided = [*select, *(getattr(options, "extend_select", None) or ()),
               *(getattr(options, "ignore", None) or ()), *(getattr(options, "extend_ignore", None) or ())]
    missing = [code for code in UNCHECKED if not _covers(decided, code)]
    if missing:
        options.extend_select = [*(getattr(options, "extend_select", None) or ()), *missing]


def _warn_wide_ignore(options) -> None:
    """`ignore = N` (meant for pep8-naming's N8xx) also ignores every NPP code: say so once, in the main process."""
    import multiprocessing
    import sys
    if multiprocessing.current_process().name != "MainProcess":
        return
    for key in ("ignore", "extend_ignore"):
        wide = [p for p in getattr(options, key, None) or () if p and "NPP".startswith(p)]
        if wide:
            name = key.replace("_", "-")
            print(f"flake8-npuprof: warning: {name} = {', '.join(wide)} also ignores every NPP code; "
                  f"write the prefix of the codes you mean (e.g. N8 for pep8-naming)", file=sys.stderr)


@lru_cache(maxsize=None)
def _pipeline():
    """The analysis and the fix modules, imported on the first file that may profile, once (two import statements in
    `run` cost each such file about 20,000 instructions)."""
    from .checks import analysis
    from .engine import fix
    return analysis, fix


def _refused(filename: str, text: str):
    """NPP192 for a file Python cannot decode, or None (never raises into flake8)."""
    try:
        exc = refused_as_flake8_read(filename, text)
    except Exception:
        return None
    if exc is None:
        return None
    from .checks.analysis import undecodable
    return undecodable(exc)


def _warn_settings(options) -> None:
    """What `npuprof` refuses, flake8 passes in silence: an unknown `npuprof-*` setting in the configuration
    flake8 read (it ignores keys it does not know) and a graph dump that cannot be used. Said once, on
    stderr, in the main process."""
    import multiprocessing
    import sys
    if multiprocessing.current_process().name != "MainProcess":
        return
    try:
        from flake8.options.config import load_config
        cfg, _ = load_config(getattr(options, "config", None), list(getattr(options, "append_config", None) or ()),
                             isolated=bool(getattr(options, "isolated", False)))
        keys = cfg.options("flake8") if cfg.has_section("flake8") else []
    except Exception:                   # flake8 already read it; another flake8's internals: say nothing
        keys = []
    from .source.config import unknown_flake8_settings
    unknown = unknown_flake8_settings(keys)
    if unknown:
        print(f"flake8-npuprof: warning: unknown [flake8] setting(s): {unknown}; flake8 ignores them",
              file=sys.stderr)
    graph = getattr(options, "npuprof_graph", None)
    if graph:
        from .checks.preflight import load_graph
        _, why = load_graph(graph)
        if why:
            print(f"flake8-npuprof: warning: npuprof-graph {graph}: {why}; NPP903 is not checked", file=sys.stderr)


class NpuProfChecker:
    name = "flake8-npuprof"
    version = __version__
    settings = None                     # analysis.Settings; None: the defaults
    selected: tuple = ()

    def __init__(self, tree, lines, filename="<unknown>"):
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, option_manager) -> None:
        # the defaults are the plugin's in engine/target.py DEFAULTS (tests/test_target.py holds them equal)
        option_manager.add_option(
            "--npuprof-cann", default="any", parse_from_config=True, type=_argtype("parse_cann"),
            help="CANN version the profiling options must work on: any (default; report only what "
                 "every version rejects), portable (report what any version rejects), auto (the "
                 "toolkit installed on this machine), or a version such as 8.0, 8.5, 9.0")
        option_manager.add_option(
            "--npuprof-soc", default="any", parse_from_config=True, type=_argtype("parse_soc"),
            help="Ascend product the options must work on: any (default), auto (this machine's chip), "
                 "310, 910, 310P, 910B, 910C, 310B or 950")
        option_manager.add_option(
            "--npuprof-torch-npu", default="any", parse_from_config=True, type=_argtype("parse_torch_npu"),
            help="torch_npu release the profiler setup must work on: any (default; report only what every "
                 "release does wrong), portable, auto, or a release: 5.0, 6.0, 7.0, 7.1, 7.2, 7.3, 26.0, 26.1")
        option_manager.add_option(
            "--npuprof-preflight", default=False, action="store_true", parse_from_config=True,
            help="also check the output directory on this machine (NPP901/NPP902)")
        option_manager.add_option(
            "--npuprof-graph", default=None, parse_from_config=True,
            help="graph dump (.pbtxt or GE build dump) to check fp_point/bp_point against (NPP903; implies "
                 "--npuprof-preflight)")
        option_manager.extend_default_ignore(sorted(DEFAULT_OFF))

    @classmethod
    def parse_options(cls, options) -> None:
        cls.selected = tuple(getattr(options, "select", None) or ()) + \
            tuple(getattr(options, "extend_select", None) or ())
        _account_for_every_file(options)
        _warn_wide_ignore(options)
        _warn_settings(options)
        cann = getattr(options, "npuprof_cann", "any") or "any"
        soc = getattr(options, "npuprof_soc", "any") or "any"
        torch_npu = getattr(options, "npuprof_torch_npu", "any") or "any"
        if (cann, soc, torch_npu) == ("any", "any", "any") and not getattr(options, "npuprof_preflight", False) and \
                not getattr(options, "npuprof_graph", None):
            cls.settings = None             # the defaults, built when a file needs them
            return
        import multiprocessing
        import sys
        from .engine.target import DEFAULTS, auto_fallbacks, settle_target
        from .knowledge.run_settings import Settings
        # flake8 reads the configuration itself: its values come as the options, the flags of settle_target
        target, origins = settle_target({"cann": cann, "soc": soc, "torch_npu": torch_npu}, None,
                                        DEFAULTS["flake8"])
        if multiprocessing.current_process().name == "MainProcess":     # the workers parse the options again
            for warning in auto_fallbacks(origins):
                print(f"npuprof: {warning}", file=sys.stderr)
        cls.settings = Settings(
            target=target,
            # a graph dump is given for NPP903, a preflight check: giving it asks for the preflight checks
            preflight=bool(getattr(options, "npuprof_preflight", False) or getattr(options, "npuprof_graph", None)),
            graph=getattr(options, "npuprof_graph", None))

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        text = "".join(self.lines)
        refused = _refused(self.filename, text)
        if refused is not None:             # flake8 read it as Latin-1; Python would not run it (NPP192)
            yield refused.line, refused.col, f"{refused.code} {refused.short}", type(self)
            return
        profiling = might_configure_profiling(text)
        if not profiling and not ("NPP" in text and default_off_enabled("NPP206", self.selected)):
            return                          # the common case: nothing more is imported
        analysis, fix = _pipeline()
        try:
            findings = analysis.analyse(text, self.tree, self.filename, self.settings or analysis.Settings(), profiling,
                                        self.lines)
        except Exception as exc:            # analyse() already guards; this is the last line
            findings = [analysis.internal_error(exc)]
        for f in findings:
            if not default_off_enabled(f.code, self.selected):
                continue
            yield f.line, f.col, f"{f.code} {f.short}{fix.fix_marker(f)}", type(self)     # one line
