"""NPP015: a launcher's profiling option that goes nowhere.

The model-zoo launcher template takes `--profiling=True` (its argument loop sets `profiling`, makes
`output/profiling`, its help text documents it) and then starts `python3 train.py ...` without passing it
or anything made from it, while the script's own `--profiling` defaults to False: `bash train_full_1p.sh
--profiling=True` collects nothing. The launcher is walked twice (dropped_switches, below), with
the option on and off: when every launch is the same, each starts a script read here, and each script's
profiling hangs on a flag of its own that is off by default, the consequence is certain. This module
words the finding and makes the walks; the walk itself is shell/'s.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..shell.launches import MAX_LAUNCHES, opaque, steps
from ..shell.walk import Walk
from ..source.fence import within
from .launch_setup import flag_table, prepare

from ..source.said import aside, clause, said, so
from ..source.prefilter import PROFILING_WORDS     # what the project scan looks for
from .rule import REF_MODELZOO, Rule

CODE = "NPP015"


def message(d):
    """The finding for a Dropped."""
    if not d.flag:      # the scripts have no profiling setup, and no file of the project has one
        several = ", " in d.script
        started = "every launch is alike with or without it" if several else \
            f"line {d.launch_line} starts {d.script} alike with or without it"
        return said(f"{d.spelled} on this launcher collects nothing",
                    clause(f"no launch gets {d.option} or anything made from it", aside(started),
                           f", so nothing switches profiling on: {d.script} {'have' if several else 'has'} no "
                           "profiling setup and no Python file of the project names one"),
                    "give the training script a profiling setup behind a flag and forward the option to it, or drop "
                    "the option (a PROFILING_MODE the caller exports is read the same with or without the option)")
    return said(f"{d.spelled} on this launcher collects nothing",
                clause(f"no launch gets {d.option} or anything made from it",
                       aside(f"line {d.launch_line} starts {d.script} alike with or without it"),
                       so(f"{d.script} reads its own {d.flag} at its default {d.default}"), aside(d.flag_at),
                       f" and its profiling setup under `{d.guard}`", aside(d.setup_at), " does not run"),
                f"forward the option to {d.script} on line {d.launch_line} (a PROFILING_MODE the caller exports is "
                "read the same with or without the option)", lines=(d.launch_line,))


# ---------------------------------------------------------------- the walks with the option on and off

# `[[ $para == --profiling* ]]`, `[ "$1" = "--profiling" ]`: an option the launcher's argument loop compares with
_TESTED_OPTION = re.compile(r"\[\[?\s*\"?\$\{?\w+\}?\"?\s*==?\s*[\"']?(--[A-Za-z][\w-]*)(=?\*?)[\"']?")
# `--profiling=*)`, `-p|--profiling)`: a case pattern of one, at a line's start, after `case WORD in` or after the
# `;;` (`;&`, `;;&`) that ends the branch before it on the same line (`case $p in --profiling=*) PROF=1;; esac`)
_CASE_OPTION = re.compile(r"(?:^|\bcase[ \t]+\S+[ \t]+in\b|;;&?|;&)"
                          r"[ \t]*\(?[ \t]*((?:[\"']?-{1,2}[A-Za-z][\w-]*[=*]*[\"']?[ \t]*\|[ \t]*)*"
                          r"[\"']?-{1,2}[A-Za-z][\w-]*[=*]*[\"']?)[ \t]*\)", re.M)


class Dropped(NamedTuple):
    """A profiling option the launcher takes and no launch gets anything of (check_launcher: NPP015)."""
    option: str                 # as the launcher takes it: --profiling
    spelled: str                # as a user switches it on: --profiling=True
    start: int                  # where the launcher parses it
    end: int
    script: str                 # the script a launch starts, relative to the launcher's folder
    launch_line: int            # the launch's line in the launcher
    flag: str                   # the script's own option: --profiling
    default: str                # its default as written: False
    flag_at: str                # where the script defines it: train.py:8
    guard: str                  # `args.profiling`, the condition profiling hangs on
    setup_at: str               # train.py:15


def launcher_options(text: str) -> List[Tuple[str, str, int, int]]:
    """The options a launcher's argument loop tests for: (name, how it takes a value: "=" for `--x=v`, " " for
    `--x v`, "" for a switch, where the test is, its end)."""
    out: Dict[str, Tuple[str, str, int, int]] = {}
    for m in _TESTED_OPTION.finditer(text):
        name, tail = m.group(1), m.group(2)
        out.setdefault(name, (name, "=" if tail else _valued(text, m.end()), m.start(1), m.end(1)))
    for m in _CASE_OPTION.finditer(text):
        for raw in m.group(1).split("|"):
            word = raw.strip().strip("\"'")
            name = word.rstrip("=*")
            if name.startswith("--"):
                how = "=" if word.endswith(("=*", "*")) else _valued(text, m.end())
                at = m.start(1) + m.group(1).index(raw.strip())
                out.setdefault(name, (name, how, at, at + len(raw.strip())))
    return list(out.values())


def options_setting(text: str) -> Dict[str, Tuple[str, str, int]]:
    """{variable: (option, how it takes a value, where it is tested)} of the variables the branch of an option the
    launcher's argument loop tests for assigns (`[[ $para == --data_path* ]]` then `data_path=...`); the first
    option that sets one."""
    out: Dict[str, Tuple[str, str, int]] = {}
    for name, how, at, end in launcher_options(text):
        branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[end:end + 600], maxsplit=1)[0]
        for variable in re.findall(r"(?<![\w$])([A-Za-z_]\w*)\+?=", branch):
            out.setdefault(variable, (name, how, at))
    return out


def _valued(text: str, i: int) -> str:
    """How a `--x` matched whole takes its value, read from its branch (up to `;;`, `elif`, `fi`): `$2`, `shift 2`,
    `$OPTARG` mean a separate word."""
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[i:i + 600], maxsplit=1)[0]
    return " " if re.search(r"\$\{?2\b|shift\s+2|OPTARG", branch) else ""


def _profiling_option(text: str, name: str, at: int) -> bool:
    """A profiling option by its name, the folder its branch makes, or the help text that names it."""
    if "prof" in name.lower():
        return True
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[at:at + 600], maxsplit=1)[0]
    if re.search(r"mkdir[^\n]*prof", branch, re.I):
        return True
    return any("profil" in line.lower() and name in line for line in text.splitlines() if "echo" in line)


def _values_tested(text: str, at: int) -> List[str]:
    """The values an option may be given that the launcher could tell apart: `true` and `1`, and each word it compares
    a variable with that the option's branch (at `at`) sets, or that is made from one (`[ "$PROF" == "enable" ]`, a
    `case $prof in on)` pattern)."""
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[at:at + 600], maxsplit=1)[0]
    names = set(re.findall(r"\b([A-Za-z_]\w*)\+?=", branch))
    for _ in range(2):                  # what is made from them: `prof=$profiling`, `OPTS="--x=${prof}"`
        names |= {m for n in list(names) for m in _assigned_from(text, n)}
    words = ["true", "1"]
    used = [line for line in text.splitlines()
            if any(re.search(r"\$\{?" + re.escape(n) + r"\b", line) for n in names)]
    for line in used:
        words += re.findall(r"!?==?\s*[\"']?([\w.+-]{1,40})[\"']?\s*\]", line)
    if any(re.match(r"\s*case\b", line) for line in used):
        words += re.findall(r"^[ \t]*\(?[\"']?([\w.+-]{1,40})[\"']?[ \t]*\)", text, re.M)
    return list(dict.fromkeys(w for w in words if w not in ("True", "False")))[:16]


def _compared(text: str, at: int) -> str:
    """A word the launcher compares the option tested at `at` with (_values_tested, past `true` and `1`), or ""."""
    return next((w for w in _values_tested(text, at)[2:] if not w.startswith("-")), "")


def _assigned_from(text: str, name: str) -> List[str]:
    """The variables assigned on a segment (between newlines and `;`) that names $name after the `=`, as one pattern
    over the whole text found them. It runs only on a segment that names $name, up to the last: from each `x=` with no
    $name after it the pattern scanned to the line's end, quadratic on a long line (8,000 `--a=b` words on a launch
    line took 12 s)."""
    ref = re.compile(r"\$\{?" + re.escape(name) + r"\b")
    out: List[str] = []
    for segment in re.split(r"[\n;]", text):
        last = None
        for last in ref.finditer(segment):
            pass
        if last is not None:
            out += re.findall(r"\b([A-Za-z_]\w*)\+?=[^\n;]*\$\{?" + re.escape(name) + r"\b", segment[:last.end()])
    return out


def _given(name: str, how: str, value: str) -> List[str]:
    if how == "=":
        return [f"{name}={value}"]
    if how == " ":
        return [name, value]
    return [name] if value == "True" else []


def launches_seen(w: "Walk") -> List[tuple]:
    """What the launches of a walk get: script, words, exported environment (compared between two walks); the
    words of each command whose start the walk cannot read (`$PY_WRAP train.py --profiling=$p` may be a launch),
    and of each that may write a file (_writes)."""
    return [(la.script, la.missing, tuple(x.text for x in la.command.words),
             tuple(sorted((k, v.value) for k, v in la.command.env.items())), la.command.cwd)
            for la in steps(w)[:MAX_LAUNCHES]] + \
        [(None, "opaque", tuple(x.text for x in c.words)) for c in w.commands if opaque(c)] + \
        [(None, "writes", tuple(x.text for x in c.words)) for c in w.commands if _writes(c)]


# `> f`, `>> f`, `1>f`, `&> f` (not `2>` nor `>&2`): a command writing a file; tee, `sed -i` and eval likewise
_WRITE = re.compile(r"(?:1|&)?>>?(?!&).*")


def _writes(c) -> bool:
    """Whether a command may write a file the launch reads: an option whose value reaches only such a file
    (`echo "{\"prof\": \"$profiling\"}" > cfg.json`, read by the script) is not lost."""
    words = c.words
    if not words:
        return False
    first = words[0].text
    return first in ("tee", "eval") or first == "sed" and any(x.text.startswith("-i") for x in words) or \
        any(_WRITE.fullmatch(x.text) for x in words[1:])


def dropped_switches(text: str, path: str, target, given: Optional[Sequence[str]] = None,
                     cwd: Optional[str] = None, undecided: Optional[list] = None,
                     unreaching: Optional[list] = None) -> List[Dropped]:
    """The profiling options of a launcher that no launch gets anything of: walked with the option on and off (the
    other options it tests given a placeholder, so a required `--data_path` does not end it first), its launches
    are the same, each starts a script read here, and each script's profiling hangs on a flag of its own that is
    off by default. given: the arguments `emulate -- ARG...` names (the option as the user spells it is judged
    with them); None for check. undecided: gets (option, start, end, why) for each option whose walks stop at
    a bound with the placeholders and reach no launch without them (check says so: NPP191). unreaching: gets
    (as the user spells it, the option) for each option that reaches no launch although this finding is not
    claimed (a script's setup is on or off for another reason, or another file of the project names one)."""
    if "\r\n" in text or "prof" not in text.lower():
        # bash reads every line with a carriage return: not what its lines say; and a profiling option is one by
        # "prof" in its name, its branch's `mkdir` or its help line (_profiling_option)
        return []
    options = launcher_options(text)
    found = []
    for name, how, start, end in options:
        if not _profiling_option(text, name, start):
            continue
        if given is not None:
            mine = [a for a in given if a == name or a.startswith(name + "=")]
            if not mine:
                continue
            k = list(given).index(mine[0])
            value = mine[0].partition("=")[2] or (given[k + 1] if how == " " and k + 1 < len(given) else "True")
            base = [a for a in given if a not in mine]
            on, off = list(given), base + _given(name, how, "False" if value.lower() != "false" else "True")
        else:
            base = [a for other, h, _, _ in options if other != name for a in _given(other, h, "npuprof_x")
                    if h]
            on, off = base + _given(name, how, "True"), base + _given(name, how, "False")
        a, b = Walk(path, cwd, args=on).run(text), None
        if given is None and a.exited and not steps(a):
            # a placeholder may end it (`[[ $type != "bertbase" ]] && [[ $type != "bertlarge" ]]; then exit 1`,
            # BertBase_Google's launchers): the other options given a word their launcher compares them with
            base = [a for other, h, at, _ in options if other != name
                    for a in _given(other, h, _compared(text, at) or "npuprof_x") if h]
            on, off = base + _given(name, how, "True"), base + _given(name, how, "False")
            a = Walk(path, cwd, args=on).run(text)
        if given is None and a.stopped:
            a, b, base = _alone(text, path, cwd, name, how, a.stopped, start, end, undecided)
            if a is None:
                continue
        if not any(p.lstrip("-").rstrip("=*").startswith(name.lstrip("-")) for p, _, _ in a.parsed):
            continue                    # the loop that reads it was not followed: nothing is known of it
        if b is None:                   # (the off walk only once the on walk shows the option is read)
            b = Walk(path, cwd, args=off).run(text)
            if given is None and b.stopped:
                a, b, base = _alone(text, path, cwd, name, how, b.stopped, start, end, undecided)
                if a is None:
                    continue
        if launches_seen(a) != launches_seen(b):
            continue                    # it reaches a launch (its words, its environment, where it runs)
        if how and any(
                launches_seen(Walk(path, cwd, args=base + _given(name, how, value)).run(text)) != launches_seen(b)
                for value in _values_tested(text, start)):
            continue                    # another spelling (`true`, `1`, a word the launcher compares with) reaches one
        hit = _off_by_default(a, target)
        spelled = next((x for x in on if x.startswith(name)), name) if given is not None else \
            " ".join(_given(name, how, "True")) or name
        if hit is None:
            if unreaching is not None and steps(a):
                unreaching.append((spelled, name))
            continue
        found.append(Dropped(name, spelled, start, end, *hit))
    return found


def _alone(text: str, path: str, cwd, name: str, how: str, stopped, start: int, end: int, undecided):
    """The walks of an option without the other options' placeholders, whose walks stopped at a bound (N options
    through an N-branch loop): (on, off, base []) when they are conclusive, as `emulate -- --profiling=True` walks
    it; else (None, None, None), and why it was not decided goes to undecided."""
    a, b = Walk(path, cwd, args=_given(name, how, "True")).run(text), \
        Walk(path, cwd, args=_given(name, how, "False")).run(text)
    if not a.stopped and not b.stopped and steps(a):
        return a, b, []
    _, line, why = next(iter(stopped.values()))
    if undecided is not None:
        undecided.append((name, start, end, clause("the walk of this launcher with a value for each of its options "
                                                   f"stopped at line {line}", aside(why))))
    return None, None, None


def _off_by_default(w: "Walk", target) -> Optional[tuple]:
    """(script, launch line, flag, default, flag at, guard, setup at) when every launch of the walk starts a script
    read here whose profiling setups are all off because a flag of its own is off by default, or that has none while
    no Python file of the project names a profiling setting (flag, default, ... are "" then); None otherwise."""
    import ast
    found = steps(w)[:MAX_LAUNCHES]
    if not found or any(la.msprof is not None or not la.script for la in found):
        return None
    if any(name in la.command.env for la in found for name in ("PROFILING_MODE", "PROFILING_OPTIONS")):
        return None                     # GE may profile from the launcher's environment whatever the option says
    hit, bare = None, []
    for la in found:
        ls = prepare(la, target, w.root)
        if ls is None:
            return None
        shown = os.path.relpath(la.script, w.root).replace(os.sep, "/")
        if not ls.setups:
            if not _no_profiling_code(w.root, la.script):
                return None             # a setup may be in a module it imports: not this finding's claim
            bare.append((shown, la.command.line))
            continue
        for s in ls.setups:
            off_by = s.mode.off_by if s.mode.state == "off" else None
            if off_by is None:
                return None             # a setup that is on, or off for another reason: not this finding's claim
            guard, option = off_by
            if hit is None:
                table = flag_table(ls.ctx)
                flag = table.get(option) or table.get("--" + option.lstrip("-"))
                if flag is None or flag.default is None:
                    return None
                own = flag in ls.ctx.resolver.flags
                name = os.path.basename(la.script)
                at = f"{shown}:{flag.call.lineno}" if own else f"a module {name} imports"
                hit = (shown, la.command.line, flag.option, ast.unparse(flag.default), at, guard,
                       f"{shown}:{s.line}")
    if hit is not None or not bare:
        return hit
    scripts = list(dict.fromkeys(name for name, _ in bare))
    return (", ".join(scripts), bare[0][1], "", "", "", "", "")


MAX_PROJECT_FILES = 3000


def _no_profiling_code(root: str, script: str) -> bool:
    """Whether no .py file of the project (the folder holding the launcher's folder and the script) names a
    profiling setting; False also when the project is too large to read here."""
    return profiling_code(root, script) is None


def profiling_code(root: str, script: str, skip: str = "") -> Optional[str]:
    """The first .py file of the project (the folder holding the launcher's folder and the script) that names a
    profiling setting, other than skip; "" when the project is too large or unreadable to tell, None for none.
    A cached check rests on what it read: each folder's names (a file added later) and each file read (an edit)."""
    from ..source import observed
    from ..source.files import ReadError, read_source
    # the launcher's folder when the script is in it, else the folder above (the model zoo's test/ beside the code)
    top = root if within(script, root) else os.path.commonpath([os.path.dirname(root), os.path.dirname(script)])
    count = 0
    todo = [top]
    while todo:                         # (os.walk's order, top down: a folder's files, then its folders by name)
        folder = todo.pop()
        try:
            time = os.stat(folder).st_mtime_ns      # (before it is read: a change after is seen)
            with os.scandir(folder) as found:
                entries = [(e.name, e.is_dir(), e.is_symlink()) for e in found]
        except OSError:
            if folder == top:
                observed.incomplete()
                return ""
            continue                    # (os.walk passes over a folder it cannot read)
        observed.listed({os.path.abspath(folder): time})
        dirs = sorted(name for name, is_dir, link in entries if is_dir and not link and not name.startswith("."))
        todo.extend(os.path.join(folder, d) for d in reversed(dirs))
        for name in sorted(name for name, is_dir, _ in entries if not is_dir):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == skip:
                continue
            count += 1
            if count > MAX_PROJECT_FILES:
                observed.incomplete()
                return ""
            try:
                st = os.stat(path)
                observed.stat_note(path, st)
                key = (path, st.st_mtime_ns, st.st_size)
                if key not in _NAMES_PROFILING:
                    if len(_NAMES_PROFILING) > 4096:
                        _NAMES_PROFILING.clear()
                    _NAMES_PROFILING[key] = bool(PROFILING_WORDS.search(read_source(path).text))
                if _NAMES_PROFILING[key]:
                    return path
            except (OSError, ReadError):
                observed.incomplete()
                return ""
    return None


# (path, mtime, size) -> whether the file names a profiling setting: the launchers of one project share its files
_NAMES_PROFILING: Dict[tuple, bool] = {}


_TRAIN = ("#!/bin/bash\n# train_full_1p.sh: the model-zoo launcher template (test/ of the project)\n"
          "cur_path=`pwd`\nprofiling=False\n"
          "for para in $*\ndo\n"
          "    if [[ $para == --data_path* ]];then\n        data_path=`echo ${para#*=}`\n"
          "    elif [[ $para == --profiling* ]];then\n        profiling=`echo ${para#*=}`\n"
          "        profiling_dump_path=${cur_path}/output/profiling\n        mkdir -p ${profiling_dump_path}\n"
          "    fi\ndone\n")

# the script the examples start (test_catalog writes it beside the launcher as src/train.py)
EXAMPLE_SCRIPT = ("import argparse\nimport ast\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                  "parser = argparse.ArgumentParser()\nparser.add_argument(\"--data_path\", default=\"\")\n"
                  "parser.add_argument(\"--profiling\", type=ast.literal_eval, default=False)\n"
                  "parser.add_argument(\"--profiling_dump_path\", default=\"/tmp/prof\")\n"
                  "args = parser.parse_args()\n\nconfig = tf.ConfigProto()\n"
                  "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
                  "custom_op.name = \"NpuOptimizer\"\nif args.profiling:\n"
                  "    custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                  "    custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                  "        '{\"output\":\"%s\",\"task_trace\":\"on\"}' % args.profiling_dump_path)\n"
                  "with tf.Session(config=config) as sess:\n    sess.run(tf.no_op())\n")

RULES = (
    Rule(
        code="NPP015",
        name="launcher-profiling-switch-dropped",
        summary="launcher takes a profiling option (`--profiling=True`) but no launch gets it or anything made "
                "from it, and the script's own flag is off by default (or the project has no profiling code): "
                "nothing is collected",
        default=True,
        level="warning",
        what="A shell launcher whose argument loop (`for para in $*` with `[[ $para == --profiling* ]]`, "
             "`case \"$1\" in --profiling) ...; shift`, `getopts`) takes a profiling option — by its name, by the "
             "folder its branch makes (`mkdir -p output/profiling`) or by its help text — while every launch it "
             "runs is the same with the option on or off: no word, exported variable or directory of any launch "
             "is made from it. Each launch starts a Python script read here, whose profiling setup is guarded by "
             "a flag of its own (`if args.profiling:`) that is off by default. The finding is on the launcher's "
             "test of the option and names the script's flag, its default and its setup; it is reported too when the "
             "script has no profiling setup and no Python file of the project names a profiling setting (a setup in "
             "a module it imports would be named there). Nothing is reported on "
             "a launcher that forwards the option, directly (`--profiling=${profiling}`, `\"$@\"`), through a "
             "variable, or through an environment variable it exports, or to a command whose start is not read "
             "(`$PY_WRAP train.py --profiling=${profiling}`, `eval`); nor when a launch cannot be followed, "
             "runs under msprof, or starts a script whose profiling does not hang on such a flag. The other "
             "options get a placeholder value in these walks; when that makes a walk stop at its bound (many "
             "options through a long `elif` chain), the option is walked alone, and when that reaches no launch "
             "either, NPP191 on the option's test says NPP015 was not checked. `npuprof "
             "emulate LAUNCHER -- --profiling=True` says the same in its answer.",
        why="bash binds the launcher's arguments to `$1`.. and `$*`; the loop only sets the launcher's own "
            "variable. The script's parser never sees the option, so argparse (or absl) gives the flag its "
            "default, False, the `if` around the profiling setup is false, and the job trains without "
            "profiling: `bash train_full_1p.sh --profiling=True` runs, takes as long as without it, and writes "
            "no PROF_* data, only an empty output/profiling folder.",
        example=_TRAIN + "cd $cur_path/../\npython3 ./src/train.py --data_path=${data_path}\n",
        fixed=_TRAIN + "cd $cur_path/../\npython3 ./src/train.py --data_path=${data_path} --profiling=${profiling} "
                       "\\\n    --profiling_dump_path=${profiling_dump_path}\n",
        fix_safety="none",
        fix_note="No fix: which of the script's flags the option means (and the output folder's) is the "
                 "project's choice; forward the launcher's variable on the launch line.",
        references=(REF_MODELZOO,),
        group="wiring",
        language="shell",
        facts=("python.flag_default", "shell.launcher_arguments"),
    ),
)
