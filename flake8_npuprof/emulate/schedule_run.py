"""A profiler schedule run step by step, as torch_npu (6.0 on) and MindSpore run it: which training steps are
recorded, when a trace is saved (`on_trace_ready` fires), and the state the run ends in.

The schedule is torch's: after `skip_first` steps, cycles of `wait` steps doing nothing, `warmup` steps and
`active` steps recorded, the last of which saves the trace; `repeat` cycles (0: until the run ends);
`skip_first_wait` (torch_npu 26.1) drops the first cycle's wait (torch_npu/profiler/scheduler.py `__call__`).
The profiler asks the schedule about step 0 when it starts and about step n+1 at the n-th `prof.step()`; the
state change between two answers decides what it does (_profiler_action_controller.py): a trace is saved when
a RECORD_AND_SAVE step ends, or at exit in RECORD/RECORD_AND_SAVE (with a warning); exit in WARMUP deletes
what was prepared, exit in NONE does nothing. So a training iteration i (run between the (i-1)-th and i-th
`prof.step()`) is recorded when the schedule says RECORD or RECORD_AND_SAVE for step i. Held to every
lifecycle case of tests/oracle/torch_npu/records.jsonl (6.0.rc1 on) and the schedule cases of
tests/oracle/mindspore/records.jsonl by tests/test_framework_emulate.py.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple

NONE, WARMUP, RECORD, SAVE = "NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE"
MAX_STEPS = 100_000     # a loop longer than this is replayed as its first MAX_STEPS steps (said in the report)


def action(s: Dict[str, int], step: int) -> str:
    """What the schedule says for a step (s: wait, active, warmup, repeat, skip_first, skip_first_wait)."""
    if step < s.get("skip_first", 0):
        return NONE
    step -= s.get("skip_first", 0)
    if s.get("skip_first_wait", 0):
        step += s["wait"]
    cycle = s["wait"] + s.get("warmup", 0) + s["active"]
    if s.get("repeat", 0) > 0 and step / cycle >= s["repeat"]:
        return NONE
    mod = step % cycle
    if mod < s["wait"]:
        return NONE
    if mod < s["wait"] + s.get("warmup", 0):
        return WARMUP
    return RECORD if mod < cycle - 1 else SAVE


class Run(NamedTuple):
    recorded: Tuple[int, ...]           # the training iterations recorded (0-based)
    traces: Tuple[Tuple[int, int], ...]  # each saved trace: (first, last) iteration it covers; last = steps when
                                        # it is saved at exit after the last iteration (it covers no training step)
    exit_state: str                     # the schedule's answer when the profiler stops
    steps: int                          # the iterations replayed
    cut: bool                           # the loop was longer than MAX_STEPS


def replay(s: Optional[Dict[str, int]], steps: int, stepped: bool = True) -> Run:
    """A run of `steps` training iterations. s None: no schedule (torch_npu records every step as one trace).
    stepped False: `prof.step()` is never called, so the profiler stays at step 0 for the whole run."""
    cut = steps > MAX_STEPS
    steps = min(steps, MAX_STEPS)
    ask = (lambda step: RECORD) if s is None else (lambda step: action(s, step))
    if not stepped:
        state = ask(0)
        held = state in (RECORD, SAVE)
        return Run(tuple(range(steps)) if held else (), ((0, steps),) if held else (), state, steps, cut)
    recorded: List[int] = []
    traces: List[Tuple[int, int]] = []
    start: Optional[int] = None
    state = ask(0)
    if state in (RECORD, SAVE):
        start = 0
    for i in range(steps):
        if state in (RECORD, SAVE):
            recorded.append(i)
        nxt = ask(i + 1)
        if state == SAVE:               # RECORD_AND_SAVE ends: the trace is saved, whatever comes next
            traces.append((start if start is not None else i, i))
            start = None
        if nxt in (RECORD, SAVE) and start is None:
            start = i + 1
        state = nxt
    if state in (RECORD, SAVE):          # saved at exit, with a warning
        traces.append((start if start is not None else steps, steps))
    return Run(tuple(recorded), tuple(traces), state, steps, cut)


def first_record(s: Optional[Dict[str, int]]) -> int:
    """The first step the schedule records (0 without a schedule)."""
    if s is None:
        return 0
    return s.get("skip_first", 0) + (0 if s.get("skip_first_wait", 0) else s["wait"]) + s.get("warmup", 0)


def spans(steps: Tuple[int, ...], most: int = 6) -> str:
    """"2-3, 6-7 and 10": the iterations, as runs of consecutive numbers (at most `most` runs, then how many
    more)."""
    runs: List[List[int]] = []
    for n in steps:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    words = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs]
    if len(words) > most:
        words = words[:most - 1] + [f"{len(runs) - most + 1} more runs"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
