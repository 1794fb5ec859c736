"""One text through the checks: the settings of a run, and the findings of a file's text, filtered by the
selection, per-file-ignores and noqa as flake8 would show them."""

from __future__ import annotations

import os
from typing import List, Optional, Sequence

from ..knowledge.run_settings import Settings
from ..knowledge.targets import Target
from ..source.config import UsageError
from ..source.files import Wants, file_noqa, noqa_lines, physical_lines, suppressed
from ..source.model import Finding

ALWAYS = ("NPP192",)        # reported whatever selection, per-file-ignores and noqa say (as Ruff's syntax errors)


def run_settings(target: Target, config=None, preflight: bool = False, graph: Optional[str] = None) -> Settings:
    """The settings of a run: the flags' preflight and graph dump, else the configuration's; a graph dump
    implies the preflight checks (NPP903 is one). A graph that is not there is a UsageError naming its origin."""
    given, graph = graph, graph or (config.graph_path() if config else None)
    if graph and not os.path.isfile(graph):
        origin = "--graph" if given else f"{config.path}: {config.key('graph')}"
        raise UsageError(f"{origin}: graph dump not found: {graph}")
    preflight = bool(preflight or (config and config.preflight) or graph)
    return Settings(target=target, preflight=preflight, graph=graph)


def check_text(path: str, text: str, kind: str, settings: Settings, selection: Wants,
               per_file_ignores=(), tree=None, walks=None) -> List[Finding]:
    """Findings of one file's text, filtered by selection and noqa, as flake8 would show them."""
    return check_each(path, text, kind, (settings,), selection, per_file_ignores, tree, walks=walks)[0]


def check_shell(text: str, path: str, settings: Settings) -> List[Finding]:
    """`check` on a shell launcher, before selection and noqa: checks/shell_launches.py, with emulate's answer to
    whether GE reads the launcher's PROFILING_OPTIONS in a launch that inherits them."""
    return check_shell_each(text, path, (settings,))[0]


def check_shell_each(text: str, path: str, each: Sequence[Settings]) -> List[List[Finding]]:
    """check_shell for each of several settings (the launcher is walked once)."""
    from ..checks.shell_launches import check_file_each
    return check_file_each(text, path, each, _ge_reads)


def _ge_reads(w, launch, target) -> Optional[bool]:
    """emulate's replay of one launch (emulate/sequence.ge_reads), imported only for a launcher that sets
    PROFILING_OPTIONS: the one thing `check` on a launcher asks of emulate."""
    from ..emulate.sequence import ge_reads
    return ge_reads(w, launch, target)


def check_each(path: str, text: str, kind: str, each: Sequence[Settings], selection: Wants,
               per_file_ignores=(), tree=None, compiled: bool = False, walks=None) -> List[List[Finding]]:
    """check_text for each of several settings, from one analysis of the file (tree: already parsed).
    A file that does not parse (NPP192) is reported whatever the selection and comments say: it was
    not checked. The noqa comments are read only for a file with findings to filter. compiled: the file's
    bytecode cache proves the text parses (analyse_each). walks: the kept walks of the tree's statements (the
    language server's, source/site_reuse.py)."""
    if kind == "shell":
        from .launch_scan import starts_no_profiled_script
        if starts_no_profiled_script(text, path):       # the walk can change nothing: its own lines only
            from ..checks.shell_env import analyse_shell_each
            found = [sorted(f, key=Finding.sort_key) for f in analyse_shell_each(text, path, each, {})]
        else:
            found = check_shell_each(text, path, each)
    elif kind == "yaml":                # a MindFormers or MindSpeed-RL run configuration (any other YAML: nothing)
        from ..checks.run_configs import check_file as check_yaml
        found = [check_yaml(text, path, settings) for settings in each]
    elif kind.startswith("json"):       # a dynamic-profiling profiler_config.json: no noqa comments in JSON
        from ..checks.dynamic_files import check_file       # "json:<framework>": the scripts say whose it is
        framework = kind.partition(":")[2] or None
        found = [check_file(text, path, settings, framework) for settings in each]
    else:
        if file_noqa(text):
            return [[] for _ in each]
        from ..checks.analysis import analyse_each      # (not imported by a run the cache answers)
        found = analyse_each(text, tree, path, each, compiled, walks=walks)
    noqa = None                         # tokenized only for a file with a finding to filter
    out = []
    for findings in found:
        kept = []
        for f in findings:
            if f.code in ALWAYS:
                kept.append(f)
                continue
            if not selection.wants(f.code) or any(f.code.startswith(c) for c in per_file_ignores):
                continue
            if kind in ("python", "yaml"):
                if noqa is None:        # (a YAML comment is a line's: no logical lines to join)
                    noqa = noqa_lines(text, upto=max(g.line for group in found for g in group)) \
                        if kind == "python" else dict(enumerate(physical_lines(text), 1))
                if suppressed(f.code, noqa.get(f.line)):
                    continue
            kept.append(f)
        out.append(kept)
    return out
