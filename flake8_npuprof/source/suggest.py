"""Did-you-mean suggestions for keys and metric names."""

from __future__ import annotations

import re
from typing import Iterable, List

# Names seen in real scripts that are not close in spelling to the key they mean.
KEY_ALIASES = {
    "result_path": "output",
    "output_path": "output",
    "output_dir": "output",
    "profiling_dir": "output",
    "path": "output",
    "aicpu_trace": "aicpu",
    "ai_core_metrics": "aic_metrics",
    "aicore_metrics": "aic_metrics",
    "ai_vector_metrics": "aiv_metrics",
    "step_trace": "training_trace",
    "iteration_trace": "training_trace",
    "op_trace": "task_trace",
    "hccl_trace": "hccl",
    "l2_cache": "l2",
    "fp": "fp_point",
    "bp": "bp_point",
    "storage": "storage_limit",
}


def _snake(name: str) -> str:
    name = name.replace("-", "_").replace(" ", "_")
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def close_matches(word: str, candidates: Iterable[str], aliases=None) -> List[str]:
    """Best suggestions for word, best first; one entry when there is a clear answer."""
    cands = [c for c in candidates if c]
    if word in cands:
        return [word]
    if aliases and word in aliases and aliases[word] in cands:
        return [aliases[word]]
    lower = {c.lower(): c for c in cands}
    if word.lower() in lower:
        return [lower[word.lower()]]
    snake = _snake(word)
    if snake in cands:
        return [snake]
    if aliases and snake in aliases and aliases[snake] in cands:
        return [aliases[snake]]
    folded = {c.lower().replace("_", ""): c for c in cands}
    key = word.lower().replace("_", "").replace("-", "")
    if key in folded:
        return [folded[key]]
    import difflib      # only a word that matches nothing above pays for the import
    return difflib.get_close_matches(word, cands, n=3, cutoff=0.72) or \
        [lower[m] for m in difflib.get_close_matches(word.lower(), list(lower), n=3, cutoff=0.72)]


def did_you_mean(word: str, candidates: Iterable[str], aliases=None) -> str:
    """Text like 'did you mean "l2"?' or '' when nothing is close."""
    matches = close_matches(word, candidates, aliases)
    if not matches:
        return ""
    if len(matches) == 1:
        return f'did you mean "{matches[0]}"?'
    return "did you mean " + " or ".join(f'"{m}"' for m in matches[:2]) + "?"
