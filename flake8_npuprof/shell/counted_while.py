"""A `while`/`until` loop that counts as `for ((i=0; i<N; i++))` does: `i=0; while [ $i -lt $N ]; do ...; i=$((i+1));
done` (mindspore-ai/models' CGAN run_distributed_train_ascend.sh), `until [[ $i -ge 8 ]]`, its step `let i++` or
`((i++))` the body's last command. This module reads the shape; the walk (Walk._counted) decides whether the counter's
start and the bound are known, and reads the loop through its first round as it reads a counted `for`."""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Tuple

from .parse import _lexed, _loop_body, _words_in

# the test as bash runs the body while it holds: `while [ $i -lt N ]` is `until [ $i -ge N ]` (i < N)
_HOLDS = {("while", "-lt"): "<", ("while", "-le"): "<=", ("while", "-ne"): "!=",
          ("until", "-ge"): "<", ("until", "-gt"): "<=", ("until", "-eq"): "!="}
# what opens or closes a compound: a step after one is not known to run every round in this shell
_COMPOUND = frozenset({"for", "while", "until", "if", "case", "select", "{", "}", "function", "then", "do", "done",
                       "fi", "else", "elif", "esac", "!", "(", ")", "[[", "exit", "return", "break", "continue"})
_COUNTER = r'"?\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))"?'     # (compiled where first needed, not at import)


class CountedWhile(NamedTuple):
    name: str                   # the counter
    holds: str                  # "<", "<=" or "!=": the body runs while counter holds it against the bound
    bound: Tuple[int, int]      # the bound's word
    body: Tuple[int, int]       # the body (after `do`, up to `done`)
    step: Tuple[int, int]       # the step: the body's last command, or one of its plain commands before any other


def _step(name: str) -> "re.Pattern[str]":
    """The commands that add one to the counter (not `i+=1`, which appends to a string)."""
    ref = rf"(?:\$\{{{name}\}}|\${name}|{name})"
    plus = rf"\s*(?:{ref}\s*\+\s*1|1\s*\+\s*{ref})\s*"
    expr = rf"expr\s+\$\{{?{name}\}}?\s+\+\s+1"
    return re.compile(rf"{name}=(?:\$\(\({plus}\)\)|\$\[{plus}\]|`{expr}`|\$\({expr}\))|"
                      rf"let\s+([\"']?)(?:{name}\+\+|\+\+{name}|{name}\+=1|{name}={ref}\+1)\1|"
                      rf"\(\(\s*(?:{name}\s*\+\+|\+\+\s*{name}|{name}\s*\+=\s*1|{name}\s*={plus})\s*\)\)")


def counted_while(text: str, words, op: str, at: int, read: Optional[List[int]] = None) -> Optional[CountedWhile]:
    """The counted loop whose header (`while [ $i -lt N ]`) is words, followed by op at `at`; None for another shape:
    a test that is not one comparison of a `$name` with a bound, or a body whose last command is not its step run
    in this shell every round (not after `&&`/`||`, not piped or in the background). read: given the characters
    read on to the loop's `done` (the caller bounds them: loops nested n deep are read n times)."""
    head = text[words[0][0]:words[0][1]]
    cond = words[1:]
    if op not in (";", "\n") or not cond:
        return None
    first = text[cond[0][0]:cond[0][1]]
    if first == "[" and len(cond) == 5 and text[cond[4][0]:cond[4][1]] == "]":
        inner = cond[1:4]
    elif len(cond) == 1 and first.startswith("[[") and first.endswith("]]"):
        inner = [(a, b) for a, b, _ in _words_in(text, cond[0][0] + 2, cond[0][1] - 2)]
        if len(inner) != 3:
            return None
    else:
        return None
    counter = re.fullmatch(_COUNTER, text[inner[0][0]:inner[0][1]])
    holds = _HOLDS.get((head, text[inner[1][0]:inner[1][1]]))
    if counter is None or holds is None:
        return None
    found = _loop_body(text, at)            # (only then: it reads on to `done`)
    if read is not None:
        read.append(len(text) - at if found is None else found[2] - at)
    if found is None:
        return None
    name = counter.group(1) or counter.group(2)
    body = _lexed(text, found[0], found[1])
    if not body or not body[-1][0]:
        return None
    stepping = _step(name)
    spans = body[-1][0]
    if body[-1][1] in (";", "\n") and (len(body) == 1 or body[-2][1] not in ("&&", "||", "|")) and \
            stepping.fullmatch(text, spans[0][0], spans[-1][1]):
        return CountedWhile(name, holds, inner[2], (found[0], found[1]), (spans[0][0], spans[-1][1]))
    # the step before the body's other commands, after plain ones alone (mindspore-lab/mindrlhf's run_glm4_rlhf.sh:
    # `echo "Epoch number is $epoch"; epoch=$((epoch+1)); msrun ...`): bash 5.2 ran it as many rounds, the counter
    # one more from the step on
    for spans, op, _ in body[:-1]:
        if not spans or op not in (";", "\n") or text[spans[0][0]:spans[0][1]] in _COMPOUND:
            return None
        if stepping.fullmatch(text, spans[0][0], spans[-1][1]):
            return CountedWhile(name, holds, inner[2], (found[0], found[1]), (spans[0][0], spans[-1][1]))
    return None
