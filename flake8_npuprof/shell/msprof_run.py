"""msprof's run as a launch sees it: the msprof command, its parsed words (msprof_words.py) and the application
it starts. Read by launches.py (a launch under msprof) and walk.py (a shell script as msprof's application is
walked as its child), which is why it is a module of its own: launches.py imports walk.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

from ..source.text import HOLE, StrValue
from ..values.launch_args import Word
from .command_line import PREFIXES, _after_prefix, _dropped
from .state import Command

if TYPE_CHECKING:
    from .msprof_words import Call, Word as MsprofWord


class MsprofRun(NamedTuple):
    """msprof starting the launch's script: `msprof [opts] python3 train.py` or `--application="..."`, or a shell
    script that starts it (`msprof [opts] bash train.sh`: command is then msprof's own, app its application)."""
    call: Call
    word: Word                  # the word that runs msprof
    application: bool           # the script is named by --application (msprof then splits it at spaces)
    command: Optional[Command] = None   # msprof's command, when the launch runs inside its application
    app: Tuple[str, ...] = ()           # ... and that application (`bash train.sh --epochs 1`)


def msprof_application(cmd: Command) -> Optional[Tuple[MsprofRun, List[Word]]]:
    """(msprof's run, its application's words) of a command that runs msprof, None for any other or when msprof's
    words are not all known. The application's words from --application are placed at that option's word."""
    from . import msprof_words as M
    words, k = list(cmd.words), 0
    while k < len(words) and (_dropped(words, k) or words[k].text.rsplit("/", 1)[-1] in PREFIXES):
        k = k + 1 if _dropped(words, k) else _after_prefix(words, k, words[k].text.rsplit("/", 1)[-1], {},
                                                           cmd.path, cmd.line)
    if k >= len(words) or words[k].text.rsplit("/", 1)[-1] != "msprof":
        return None
    rest = words[k + 1:]
    call = M.parse(_spanned(words[k]), [_spanned(w) for w in rest])
    named = [o for o in call.options if o.name == "application" and o.value]
    run = MsprofRun(call, words[k], bool(named), cmd)
    if not call.complete:
        return None
    if named:
        value = named[-1].value
        assert value is not None        # named: those with a value
        at = next(w for w in reversed(rest) if w.text == named[-1].word.text)
        if HOLE in value:
            return None
        # msprof splits --application at spaces (no shell quoting); the pieces keep the option word's place
        app = [Word(StrValue(t, [], at.start, at.end, origin="shell"), at.start, at.end) for t in value.split(" ") if t]
    else:
        app = list(rest[len(rest) - len(call.app):]) if call.app else []
    return run._replace(app=tuple(a.text for a in app)), app


def _spanned(w: Word) -> "MsprofWord":
    """msprof's word for one of the walk's: every piece of it is at the word's whole span."""
    from .msprof_words import Word as MsprofWord
    return MsprofWord(w.text, lambda i, j: (w.start, w.end))
