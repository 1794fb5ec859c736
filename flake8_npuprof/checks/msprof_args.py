"""NPP128 after a Python script that msprof starts: `msprof --output=x python3 train.py --aic-metrics=Memory`.

The words after the script are the script's (checks/msprof_app.py says why msprof never reads them). One of
them that spells an msprof option is reported only when the script is read and defines flags, none of which
that word names or abbreviates (argparse takes a unique prefix): then it is certain that msprof does not read
it and that the script has no flag of that name. A script that defines no flag, or cannot be read, is left
alone: what it does with its argv is not known.

Whether the script then runs depends on how it reads its arguments: msprof_after.py, which emulate's msprof
launch (emulate/msprof_launch.py) uses too.

With `--application="python3 train.py"`, a flag of the script written after the closing quote is read by
msprof as its own; one msprof has not got (NPP120 reports the refusal) is reported here as the script's.
"""

from __future__ import annotations

import os
from typing import List, Tuple

from ..source.said import Said, clause, said, so
from ..source.text import HOLE
from ..shell.launches import launches
from ..shell.walk import Walk
from .launch_setup import flag_table, prepare
from .msprof_after import _script_name


def misplaced_in_scripts(w: Walk, target) -> List[Tuple[int, int, Said]]:
    """(start, end, words) for each such word on the launcher's own lines."""
    from .msprof_app import msprof_name
    from .msprof_after import misplaced_after
    out: List[Tuple[int, int, Said]] = []
    me = os.path.abspath(w.launcher)
    for launch in launches(w):
        if launch.msprof is None or launch.command.path != me:
            continue
        inside = launch.msprof.application
        candidates = [a for a in launch.args if msprof_name(a.text) is not None]
        # with --application, msprof's own words may hold the script's flags, left outside the quotes
        outside = [o for o in launch.msprof.call.options if inside and msprof_name(o.word.text) is None]
        if not candidates and not outside:
            continue
        ls = prepare(launch, target, w.root)
        if ls is None:
            continue
        table = flag_table(ls.ctx)
        if not table:
            continue                        # a script without flags: what it does with its argv is not read here
        out.extend((s, e, m) for s, e, m, _ in misplaced_after(launch, ls, table))
        out.extend(_outside_quotes(launch, outside, table))
    return out


def _outside_quotes(launch, options, table) -> List[Tuple[int, int, Said]]:
    """`msprof --application="python3 train.py" --epochs=3`: a flag of the script that msprof reads as its own,
    an option it does not have (NPP120 reports the refusal; this says whose word it is)."""
    from ..knowledge.msprof_options import all_options
    out = []
    script = _script_name(launch)
    for o in options:
        text = o.word.text
        option = text.partition("=")[0]
        if HOLE in text or option not in table or any(n.startswith(option[2:]) for n in all_options()):
            continue                        # getopt takes a unique prefix: `--out` is msprof's --output
        start, end = o.word.place(0, len(text))
        out.append((start, end,
                    said(f"{text} is {script}'s own flag, written outside --application's quotes",
                         clause(f"msprof reads it as one of its options, has no such option and exits before {script} "
                                "starts (NPP120)", so("nothing is profiled")),
                         "move it inside the quotes, after the script")))
    return out
