"""Shell launchers (`*.sh`, shell shebangs): `export PROFILING_MODE=...`, `PROFILING_OPTIONS=...`,
MindSpore's `MS_PROFILER_OPTIONS=...`, and inline `VAR=... python train.py`, with shell quoting understood.

The words are read as the shell reads them (shell/words.py: quoting, expansions as holes).
Only the CLI reads these files; findings use the same codes as Python files.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from .analysis import Settings, internal_error
from ..source.model import Finding, finding
from ..source.text import SourceText
from ..shell.words import MAX_LAUNCHER, assignments


def analyse_shell(text: str, filename: str = "<shell>", settings: Settings = Settings(),
                  options_read: Optional[dict] = None) -> List[Finding]:
    """options_read: {offset of a PROFILING_OPTIONS assignment: (whether GE reads it in the launches that inherit
    it, their scripts, why no launch gets it)}, from the check that follows the launches (checks/shell_launches.py)."""
    return analyse_shell_each(text, filename, (settings,), options_read)[0]


def analyse_shell_each(text: str, filename: str, each: Sequence[Settings],
                       options_read: Optional[dict] = None) -> List[List[Finding]]:
    """analyse_shell for each of several settings: the launcher is read once, judged per target."""
    if len(text) > MAX_LAUNCHER:            # the launcher's work budget: nothing of it is read
        from ..source.said import aside, clause, said, so
        over = finding("NPP191", said("analysis budget exhausted",
                                      clause(f"this launcher has {len(text):,} characters, over the {MAX_LAUNCHER:,} a "
                                             "launcher may have",
                                             so("none of its lines was checked"),
                                             aside("a finding may be missing; split the launcher"))), 0, 0, 1, 0, 1, 0)
        return [[over] for _ in each]
    try:
        from .msprof import calls_in_shell, check_shell
        from .shell_syntax import check as check_syntax
        sets = assignments(text) if "PROFILING_" in text else []
        calls = calls_in_shell(text) if "msprof" in text else []
        syntax = check_syntax(text)             # how bash reads the lines: the same on every target
        mindspore = _mindspore_options(text) if "MS_PROFILER_OPTIONS" in text else []
        return [sorted(_analyse(text, sets, settings, options_read or {}) + syntax + mindspore +
                       check_shell(text, settings.target, calls=calls), key=Finding.sort_key) for settings in each]
    except Exception as exc:                # same contract as Python files
        return [[internal_error(exc)] for _ in each]


def _mindspore_options(text: str) -> List[Finding]:
    """NPP355 for `export MS_PROFILER_OPTIONS='...'` MindSpore cannot use (checks/mindspore.py): the same on
    every target. A value with an expansion in it is not judged."""
    from .mindspore import options_findings
    from ..source.text import HOLE
    src = SourceText(text)
    findings: List[Finding] = []
    for s in assignments(text, ("MS_PROFILER_OPTIONS",)):
        if HOLE in s.value.text or not s.value.text.strip():
            continue
        for message in options_findings(s.value.text):
            (l1, c1), (l2, c2) = src.position(s.value.anchor), src.position(max(s.value.anchor, s.value.anchor_end))
            findings.append(finding("NPP355", message, s.value.anchor, s.value.anchor_end, l1, c1, l2, c2))
    return findings


def _analyse(text: str, sets, settings: Settings, options_read: dict) -> List[Finding]:
    if not sets:
        return []
    from ..setups.env import mode_problem_text, no_options_in_env
    from .hygiene import check_option_hygiene
    from .options import check_options, for_state
    from ..source.said import aside, clause, if_read, said
    from ..setups.state import OFF, State
    from ..values.reader import place
    src = SourceText(text)
    findings: List[Finding] = []

    def report(code, start, end, message):
        (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
        findings.append(finding(code, message, start, end, l1, c1, l2, c2))

    modes = [s for s in sets if s.name == "PROFILING_MODE"]
    # the launcher's setup in the model emulate uses (the last values win)
    from ..setups.inventory import shell_setups
    from ..setups.state import from_setup
    setups = shell_setups(text, sets)
    state = from_setup(setups[0]) if setups else None
    for s in modes:
        problem = mode_problem_text(s.value.text)
        if problem:
            report("NPP011", s.value.anchor, s.value.anchor_end, problem)
    mode_on = True if state is not None and state.status == "on" else \
        False if state is not None and state.latent else None
    if mode_on and modes and not any(s.name == "PROFILING_OPTIONS" for s in sets) and \
            "PROFILING_OPTIONS" not in text:
        s = modes[-1]
        report("NPP002", s.start, s.start + len(s.name), no_options_in_env("this launcher"))
    for s in sets:
        if s.name != "PROFILING_OPTIONS":
            continue
        value = s.value
        # PROFILING_MODE explicitly off (`export PROFILING_MODE=false  # true to profile`) parks the
        # options on purpose: not NPP001; their problems are reported as latent (state.py)
        if not value.text.strip():
            if mode_on:
                report("NPP002", s.start, s.start + len(s.name),
                       said("PROFILING_MODE is true with empty PROFILING_OPTIONS",
                            clause("recent GE substitutes its defaults", aside('output "./"'),
                                   ", older GE silently switches profiling off"), "give the options"))
            continue
        read, scripts, gone = options_read.get(s.start, (True, (), ""))
        here = state
        if gone and (state is None or not state.latent):
            here = State(OFF, "no_launch", gone)        # the launches take it away (shell_launches.options_read)
        elif read is False and (state is None or not state.latent):
            # GE reads the environment only when the script does not switch profiling on with options of its own
            # (hicann/ge profiling_init.cc; profiling_options_facts.md section 1 [S13]): these options are parked
            here = State(OFF, "script_options", ", ".join(scripts))
        result = check_options(value.text, settings.target, mode_on if here is state else False)
        for issue in list(result.issues) + check_option_hygiene(value.text, result.doc, text):
            start, end = place(value, issue.i, issue.j)
            words = for_state(issue.words, here)
            if read is None and not (here is not None and here.latent):
                words = words.given(if_read(f"{', '.join(scripts)} may switch profiling on with its own, "
                                            "which GE then uses instead"))
            report(issue.code, start, end, words)
    return sorted(findings, key=Finding.sort_key)
