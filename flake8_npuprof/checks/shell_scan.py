"""The cheap scan `npuprof check` runs on a shell launcher before it walks it: whether any finding of the walk can
depend on this text. A launcher that names no profiling word and can start no Python script, source no file and
run no other shell script is not walked: its check costs about what reading it costs (its own lines are still
checked, by checks/shell_env.py and checks/shell_syntax.py).

What the walk's findings react to, and so what the scan looks for (shell_launches.check_file_each):
- "prof", in any case: PROFILING_MODE / PROFILING_OPTIONS (checks/shell_env.py, shell_launches.options_read), msprof
  (checks/msprof.py, NPP128 in shell_launches._misplaced, a launch under msprof), and NPP015's profiling option, which
  launcher_switch._profiling_option finds by "prof" in its name, a `mkdir ...prof` in its branch or a help line naming
  "profil" (checks/launcher_switch.py);
- a Python script it may start (NPP205 and the options problems of a value passed on the command line are judged
  in the script's profiling setups): a `.py` word, a `-m` module, or an extension made from an expansion
  (`train.$ext`, `${name}py`);
- a file it sources or a shell script it runs, which may start one: `source`, a `.` command, `.sh`;
- a walk that may stop at its bound (NPP191): a function (its body is walked at every call), or more commands
  than shell/state.MAX_COMMANDS could fit (each command ends with an operator or a line break). With no arguments
  known (check) and no function, the walk visits every command of the text at most once.
Anything else the walk reads (`cd`, variables, loops, `case`) decides only what those would do.
"""

from __future__ import annotations

import re

from ..shell.state import MAX_COMMANDS

# a Python launch (`x.py`, `python -m mod`, `train.$ext`), a sourced or run script, a function definition
_MAY_START = re.compile(r"\.py|\.sh|\bsource\b|\bfunction\b|\(\s*\)|(?:^|[\s;&|(){}])-m(?:$|[\s=])|"
                        r"\.[$`]|\}(?:py|sh)\b|(?:^|[\s;&|(){}`])\.(?:$|[\s;&|])")
_ENDS_COMMAND = re.compile(r"[\n;&|()`]")


def needs_walk(text: str) -> bool:
    """Whether a finding of `check` on this launcher can depend on its walk (False: it cannot; see the module)."""
    if "prof" in text.lower():
        return True
    if _MAY_START.search(text):
        return True
    return len(_ENDS_COMMAND.findall(text)) + 1 > MAX_COMMANDS
