"""The cheap first stage: does this file mention profiling at all, and is it within the budget?

Three substring scans of the raw text (a few microseconds for a typical file), and nothing
heavy is imported for a file without the markers. "rofiling" covers profiling_mode,
profiling_options, ProfilingConfig, enable_profiling and profiling_config; "PROFILING" the
environment variables; "custom_optimizers" NpuOptimizer entries that carry no profiling
word of their own; "msprof" command lines run from Python.

The budget bounds what one file may cost before it is parsed: parsing alone builds a few
hundred bytes of tree per word or symbol (9.6 MB of `a = 1` lines took 4.7 GB), and every
later pass is linear in the tree. A file over it is not analysed, and says so (NPP191).
"""

import re

MAX_WORDS = 1_000_000       # words and symbols per file: 2x a file of 5,000 setups, ~4 MB of ordinary code
_WORD = re.compile(r"\w+|[^\w\s]")


def might_configure_profiling(text: str) -> bool:
    return "rofiling" in text or "PROFILING" in text or "custom_optimizers" in text or "msprof" in text


def words_over_budget(text: str) -> int:
    """How many words and symbols the text has when that is over MAX_WORDS (0: within the budget).
    Counted by one regular-expression pass, without building the list; never more than one per
    character, so a text of at most MAX_WORDS characters is not counted at all."""
    if len(text) <= MAX_WORDS:
        return 0
    count = _WORD.subn("", text)[1]
    return count if count > MAX_WORDS else 0
