"""msprof command lines: found in shell launchers and in Python `subprocess`/`os.system` calls,
split into argv the way the shell does, read the way the msprof binary reads its argv, and
checked against its options per CANN version and product (data/msprof_cli.json).

msprof takes `--name=value` words up to the first word that does not start with `--`; that
word and the rest are the application (`msprof [options] python3 train.py`), unless
`--application="python3 train.py"` names it. A word we cannot read (an expansion such as
`$PROF_ARGS`, which may be several words) ends what we know: nothing after it is judged.
"""

from __future__ import annotations

import ast
import difflib
import re
from typing import Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

from ..knowledge import datafiles as K
from ..source.model import Edit, Finding, Fix, printable
from ..source.text import HOLE, SourceText, StrValue, literal_value
from ..knowledge.targets import Target
from ..knowledge.msprof_options import all_options, cli, options_of

UNKNOWN_OPTION = "NPP120"
BAD_VALUE = "NPP121"
BAD_METRICS = "NPP122"
BAD_FREQ = "NPP123"
BAD_STORAGE = "NPP124"
BAD_OUTPUT = "NPP125"
REFUSED = "NPP126"
NO_VALUE = "NPP127"

EXITS = "msprof prints its usage and exits before the application starts, so nothing is profiled"

# Names seen in real launchers that are not msprof options, and the option they most likely mean.
ALIASES = {
    "timeline": "task-time",
    "task-trace": "task-time",
    "training-trace": "task-time",
    "aicore": "ai-core",
    "aicore-metrics": "aic-metrics",
    "ai-core-metrics": "aic-metrics",
    "result-path": "output",
    "output-path": "output",
    "output-dir": "output",
    "acl": "ascendcl",
}

# Commands that run the command given after their own arguments (`nohup msprof ...`,
# `timeout 3600 msprof ...`, `mpirun -np 8 msprof ...`); any other command only mentions msprof.
_WRAPPERS = {"nohup", "sudo", "exec", "time", "env", "timeout", "taskset", "numactl", "stdbuf", "nice", "ionice",
             "setsid", "chrt", "mpirun", "mpiexec", "srun", "unbuffer"}
_SHELLS = {"sh", "bash", "zsh", "ksh", "dash"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_DIGITS = re.compile(r"[0-9]+")


# ---------------------------------------------------------------- words

class Word(NamedTuple):
    """One argv word: its decoded text (HOLE for unknown pieces) and where its characters are."""

    text: str
    place: Callable[[int, int], Tuple[int, int]]      # source span of text[i:j]
    source: str = ""                                   # the file's text, to tell whether a span is literal

    def literal(self, i: int, j: int) -> Optional[Tuple[int, int]]:
        """The source span of text[i:j] when it is written there character for character (fixable)."""
        start, end = self.place(i, j)
        return (start, end) if self.source[start:end] == self.text[i:j] and HOLE not in self.text[i:j] else None


def _value_word(value: StrValue, source: str) -> Word:
    from ..values.reader import place
    return Word(value.text, lambda i, j, v=value: place(v, i, j), source)


def _inner_word(inner: StrValue, outer: Word) -> Word:
    """A word read out of a string (a shell command inside a Python literal), placed in the file."""
    def place(i: int, j: int) -> Tuple[int, int]:
        a = inner.src(i)
        b = inner.src_end(j - 1) if j > i else a
        if a is None or b is None:
            return outer.place(0, len(outer.text))
        return outer.place(a, max(a, b))
    return Word(inner.text, place, outer.source)


def shell_commands(text: str) -> Iterator[List[StrValue]]:
    """The simple commands of a shell text, each as its words (decoded, mapped to `text`)."""
    from ..source.shell_words import read_word
    words: List[StrValue] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and text.startswith("\n", i + 1):
            i += 2                                  # line continuation
            continue
        if c == "\\" and text.startswith("\r\n", i + 1):
            i += 3
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c in "\n;&|()":
            if words:
                yield words
                words = []
            i += 1
            continue
        if c in "<>":
            i += 1
            continue
        word, end = read_word(text, i)
        if end == i:                                # a character read_word does not take: step over it
            i += 1
            continue
        words.append(word)
        i = end
    if words:
        yield words


# ---------------------------------------------------------------- parsing msprof's argv

class Option(NamedTuple):
    word: Word
    name: str                   # without the leading "--"
    value: Optional[str]        # None: no "=" (msprof then sees no value)
    value_at: int               # index of the value in word.text
    detached: Optional[Word] = None     # `--output /p`: the word meant as the value (msprof skips it)

    @property
    def name_span(self) -> Tuple[int, int]:
        """`--name` in the word (what findings point at)."""
        return 0, 2 + len(self.name)


class Call(NamedTuple):
    msprof: Word
    options: Tuple[Option, ...]
    app: Tuple[str, ...]        # the application's argv as far as known ("" for an unknown word)
    complete: bool              # every word before the application was read


def find_msprof(words: Sequence[Word]) -> Optional[int]:
    """Index of the word that runs msprof in one command, or None."""
    k = 0
    while k < len(words) and _ASSIGNMENT.match(words[k].text):
        k += 1                                      # VAR=value msprof ...
    if k >= len(words):
        return None
    if _basename(words[k].text) == "msprof":
        return k
    if _basename(words[k].text) not in _WRAPPERS:
        return None
    for idx in range(k + 1, len(words)):
        if _basename(words[idx].text) == "msprof":
            return idx
    return None


def _shell_c(words: Sequence[Word]) -> Optional[Word]:
    """The command string of `bash -c "..."`, or None."""
    k = 0
    while k < len(words) and _ASSIGNMENT.match(words[k].text):
        k += 1
    if k < len(words) and _basename(words[k].text) in _SHELLS:
        for idx in range(k + 1, len(words) - 1):
            if words[idx].text == "-c":
                return words[idx + 1]
            if not words[idx].text.startswith("-"):
                break
    return None


def _calls(words: Sequence[Word], depth: int = 0) -> List[Call]:
    at = find_msprof(words)
    if at is not None:
        return [parse(words[at], words[at + 1:])]
    inner = _shell_c(words)
    if inner is not None and depth < 2:
        return calls_in_string(inner, depth + 1)
    return []


def _basename(text: str) -> str:
    return text.rsplit("/", 1)[-1]


def parse(msprof: Word, rest: Sequence[Word]) -> Call:
    options: List[Option] = []
    app: Tuple[str, ...] = ()
    complete = True
    k = 0
    while k < len(rest):
        word = rest[k]
        text = word.text
        if text.startswith("--") and len(text) > 2:
            eq = text.find("=")
            name = text[2:eq] if eq >= 0 else text[2:]
            if HOLE in name:
                complete = False
                break
            value = text[eq + 1:] if eq >= 0 else None
            # msprof counts `--name value` as two of its own words: the value is not read, and not the
            # application either; getopt still reads a following `--option` as an option
            detached = rest[k + 1] if eq < 0 and k + 1 < len(rest) and not rest[k + 1].text.startswith("--") \
                else None
            options.append(Option(word, name, value, eq + 1 if eq >= 0 else len(text), detached))
            k += 2 if detached is not None else 1
            continue
        if text.startswith(HOLE):
            complete = False                        # `$ARGS`: options or the application, we cannot tell
            break
        app = tuple("" if HOLE in w.text else w.text for w in rest[k:])
        break
    given = next((o.value for o in reversed(options) if o.name == "application" and o.value), None)
    if given is not None and HOLE not in given:
        app = tuple(given.split(" "))
    return Call(msprof, tuple(options), app, complete)


def calls_in_shell(text: str) -> List[Call]:
    out: List[Call] = []
    for values in shell_commands(text):
        out.extend(_calls([_value_word(v, text) for v in values]))
    return out


def calls_in_string(outer: Word, depth: int = 0) -> List[Call]:
    """msprof runs inside a shell command string (os.system, shell=True, bash -c)."""
    out: List[Call] = []
    for values in shell_commands(outer.text):
        out.extend(_calls([_inner_word(v, outer) for v in values], depth))
    return out


def parse_command(cmdline) -> Optional[Call]:
    """The msprof run in a command line (a shell string or an argv list), or None."""
    def plain(text: str) -> Word:
        return Word(text, lambda i, j: (i, j), text)
    if isinstance(cmdline, str):
        calls = calls_in_string(plain(cmdline))
        return calls[0] if calls else None
    calls = _calls([plain(str(w)) for w in cmdline])
    return calls[0] if calls else None


# ---------------------------------------------------------------- checking

class Problem(NamedTuple):
    code: str
    word: Word
    i: int
    j: int
    message: str
    fix: Optional[Tuple[Tuple[int, int, str], bool, str]] = None    # (i, j, text) in word.text, safe, title


def _resolve(name: str, version: str) -> str:
    """'exact', 'prefix' (getopt takes a unique or ambiguous abbreviation: never judged) or 'unknown'."""
    known = options_of(version)
    if name in known:
        return "exact"
    if any(o.startswith(name) for o in known):
        return "prefix"
    return "unknown"


def _bad_versions(bad: Callable[[str, str], bool], target: Target) -> Set[str]:
    """Versions on which every target product goes wrong (the named one, or all of them)."""
    return {v for v in K.VERSIONS if all(bad(v, p) for p in target.products)}


def _versions_text(versions: Iterable[str]) -> str:
    vs = sorted(versions, key=K.VERSIONS.index)
    return "CANN " + ", ".join(vs)


def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def suggest(name: str, candidates: Sequence[str]) -> Tuple[List[str], bool]:
    """Close option names, best first, and whether the first differs only in case, `_` or `-`."""
    folded = [c for c in candidates if _fold(c) == _fold(name)]
    if folded:
        return folded[:1], True
    alias = ALIASES.get(name.lower().replace("_", "-"))
    if alias in candidates:
        return [alias], False
    return difflib.get_close_matches(name.lower().replace("_", "-"), list(candidates), n=3, cutoff=0.75), False


def check_call(call: Call, target: Target) -> List[Problem]:
    problems: List[Problem] = []
    for opt in call.options:
        problems.extend(_check_option(opt, target))
    return problems


def _check_option(opt: Option, target: Target) -> List[Problem]:
    name, word = opt.name, opt.word
    i, j = opt.name_span
    status = {v: _resolve(name, v) for v in K.VERSIONS}
    unknown = {v for v, s in status.items() if s == "unknown"}
    if target.fails_on(unknown):
        known_in = [v for v in K.VERSIONS if v not in unknown]
        if known_in:
            lacking = [v for v in target.versions if v in unknown]
            return [Problem(REFUSED, word, i, j,
                            f"msprof of {_versions_text(lacking)} has no option --{name} (it exists in "
                            f"{_versions_text(known_in)}): {EXITS}; remove it or target that version")]
        matches, trivial = suggest(name, all_options())
        hint = f'; did you mean "--{matches[0]}"?' if matches else "; see `msprof --help` for the options"
        fix = None
        if len(matches) == 1 and (trivial or difflib.SequenceMatcher(None, name, matches[0]).ratio() >= 0.75):
            fix = ((2, j, matches[0]), trivial, f"write --{matches[0]}")
        return [Problem(UNKNOWN_OPTION, word, i, j,
                        f"--{name} is not an msprof option (\"unrecognized option\"): {EXITS}{hint}", fix)]
    if any(s == "prefix" for s in status.values()):
        return []                                   # an abbreviation: what getopt makes of it is not judged
    out = []
    refused = _refused(opt, target)
    if refused:
        out.append(refused)
    if opt.value is not None and HOLE not in opt.value:
        problem = _check_value(opt, target)
        if problem:
            out.append(problem)
    if opt.value is None:
        problem = _no_value(opt, target)
        if problem:
            out.append(problem)
    return out


def _no_value(opt: Option, target: Target) -> Optional[Problem]:
    """`--output /p` or a trailing `--output`: getopt hands msprof no value for it."""
    required = cli()["value_required"]
    known = {v for v in K.VERSIONS if opt.name in options_of(v)}
    versions = _bad_versions(lambda v, p: v not in known or opt.name in required.get(v, ()), target)
    if not target.fails_on(versions) or not (versions & known):
        return None
    i, j = opt.name_span
    if opt.detached is None:
        return Problem(NO_VALUE, opt.word, i, j,
                       f"--{opt.name} is given no value (\"expected one argument\"): {EXITS}; write --{opt.name}=VALUE")
    shown = "VALUE" if HOLE in opt.detached.text else opt.detached.text
    return Problem(NO_VALUE, opt.word, i, j,
                   f"--{opt.name} is followed by its value as a separate word: msprof reads a value only as "
                   f"--{opt.name}=VALUE, so --{opt.name} has none (\"expected one argument\"): {EXITS}; write "
                   f"--{opt.name}={shown}", _join_fix(opt))


_BETWEEN = re.compile(r"[ \t]+|([\"'])[ \t]*,[ \t]*\1")


def _join_fix(opt: Option):
    """Source edits turning `--name value` (or `"--name", "value"` in a list) into `--name=value`."""
    word, value = opt.word, opt.detached
    a = word.literal(0, len(word.text))
    b = value.literal(0, len(value.text)) if value.text else None
    if a is None or b is None or a[1] > b[0] or not _BETWEEN.fullmatch(word.source[a[1]:b[0]]):
        return None
    return (a[1], b[0], "="), True, f"write --{opt.name}={value.text}"


def _refused(opt: Option, target: Target) -> Optional[Problem]:
    table = cli()["refused_on_product"]

    def bad(v: str, p: str) -> bool:
        return opt.name in table.get(v, {}).get(p, ())
    versions = _bad_versions(bad, target)
    if not target.fails_on(versions):
        return None
    i, j = opt.name_span
    where = ", ".join(f"Ascend {p}" for p in target.products)
    return Problem(REFUSED, opt.word, i, j,
                   f"msprof refuses --{opt.name} on {where} (\"unrecognized option\" on {_versions_text(versions)}): "
                   f"{EXITS}; remove it for this chip")


def _check_value(opt: Option, target: Target) -> Optional[Problem]:
    data = cli()
    name, value = opt.name, opt.value
    vi, vj = opt.value_at, opt.value_at + len(value)
    known = {v for v in K.VERSIONS if name in options_of(v)}

    def judge(code: str, bad: Callable[[str, str], bool], what: str, fix=None, advice: str = "") -> Optional[Problem]:
        # a version without the option refuses it too (reported on its own when the target names it)
        versions = _bad_versions(lambda v, p: v not in known or bad(v, p), target)
        if not target.fails_on(versions) or not (versions & known):
            return None
        return Problem(code, opt.word, vi if vj > vi else opt.name_span[0], vj if vj > vi else opt.name_span[1],
                       f"{what}: {EXITS}" + (f"; {advice}" if advice else ""), fix)
    if name in data["switches"]["options"]:
        checked = data["switches"]["checked"]
        allowed = data["switches"]["values"]
        return judge(BAD_VALUE, lambda v, p: name in checked[v] and value not in allowed,
                     f"--{name}={value} is not on or off", _word_fix(value, allowed, vi, vj), "write on or off")
    if name in data["enums"]:
        rule = data["enums"][name]
        shown = "/".join(rule.get(target.cann, next(iter(rule.values()))))
        every = sorted(set().union(*rule.values()))
        return judge(BAD_VALUE, lambda v, p: v in rule and value not in rule[v],
                     f"--{name}={value} is not one of {shown}", _word_fix(value, every, vi, vj), f"use one of {shown}")
    if name in data["lists"]:
        rule = data["lists"][name]
        items = value.split(",")
        return judge(BAD_VALUE, lambda v, p: v in rule and any(x not in rule[v] for x in items),
                     f"--{name}={value} is not a comma-separated list of {'/'.join(next(iter(rule.values())))}")
    if name in data["ranges"]:
        return _check_range(opt, target, judge)
    if name in data["metrics"]:
        return _check_metrics(opt, target, judge)
    if name in data["storage_limit"]["options"]:
        rule = data["storage_limit"]
        m = re.fullmatch(r"([0-9]{1,10})MB", value)
        if m and rule["min"] <= int(m.group(1)) <= rule["max"]:
            return None
        fix = None
        gb = re.fullmatch(r"([0-9]{1,7})GB", value)
        if gb and rule["min"] <= int(gb.group(1)) * 1024 <= rule["max"]:
            fix = ((vi, vj, f"{int(gb.group(1)) * 1024}MB"), True, f"write {int(gb.group(1)) * 1024}MB")
        return judge(BAD_STORAGE, lambda v, p: True,
                     f"--storage-limit={value} is not <N>MB with N from {rule['min']} to {rule['max']}", fix,
                     fix[2] if fix else f"write the limit in MB, at least {rule['min']}MB")
    if name in data["output"]["options"]:
        limit = data["output"]["max_length"]
        if not value:
            return judge(BAD_OUTPUT, lambda v, p: True, "--output= gives no directory (\"expected one argument\")",
                         advice="name the directory for the data")
        if len(value) > limit:
            return judge(BAD_OUTPUT, lambda v, p: True, f"--output is longer than {limit} characters")
    return None


def _word_fix(value: str, allowed: Sequence[str], i: int, j: int):
    """A fix for a value that differs from one allowed value only in case (`ON` -> `on`)."""
    same = [a for a in allowed if a.lower() == value.lower()]
    if len(same) == 1 and value:
        return (i, j, same[0]), True, f"write {same[0]}"
    return None


def _check_range(opt: Option, target: Target, judge) -> Optional[Problem]:
    data = cli()
    rule = data["ranges"][opt.name]
    by_product = data["range_by_product"].get(opt.name, {})
    value = opt.value

    def limits(v: str, p: str) -> Optional[Tuple[int, int]]:
        if v not in rule:
            return None
        lo, hi = by_product.get(v, {}).get(p, rule[v])
        return lo, hi

    def bad(v: str, p: str) -> bool:
        lim = limits(v, p)
        if lim is None:
            return False
        # a long digit string is out of every range (and never converted: no int-string limit)
        return not _DIGITS.fullmatch(value) or len(value) > 9 or not lim[0] <= int(value) <= lim[1]
    lo, hi = next(iter(rule.values()))
    return judge(BAD_FREQ, bad, f"--{opt.name}={value} is not an integer from {lo} to {hi}",
                 advice=f"use a value from {lo} to {hi}")


def _check_metrics(opt: Option, target: Target, judge) -> Optional[Problem]:
    value = opt.value
    if value.startswith("Custom:"):
        return None                                 # event lists: not judged here

    def bad(v: str, p: str) -> bool:
        if not value:
            return True
        if value not in K.aic_metrics_for(p):
            return True
        return K.metric_builds(p, v, value) == "every"
    names = sorted(set().union(*(K.aic_metrics_for(p) for p in target.products)))
    fix = None
    matches, trivial = suggest(value, names) if value else ([], False)
    if value in names:
        what = f"--{opt.name}={value} is not a metric set of {', '.join('Ascend ' + p for p in target.products)}"
        matches = []
    else:
        what = f"--{opt.name}={value} is not an AI Core metric set" + (
            "" if target.soc == "any" else f" of Ascend {target.soc}")
    advice = ""
    if matches:
        advice = f'did you mean "{matches[0]}"?'
        if len(matches) == 1:
            safe = trivial and matches[0].lower() == value.lower()
            fix = ((opt.value_at, opt.value_at + len(value), matches[0]), safe, f"write {matches[0]}")
    elif "," in value and all(x in names for x in value.split(",")):
        what = f"--{opt.name}={value} lists several metric sets"
        advice = "msprof takes one set per run: profile once per set"
    elif value and value not in names:
        advice = "use one of " + ", ".join(names) + " or Custom:<events>"
    return judge(BAD_METRICS, bad, what, fix, advice)


# ---------------------------------------------------------------- findings

def _finding(problem: Problem, src: SourceText) -> Finding:
    start, end = problem.word.place(problem.i, problem.j)
    fix = None
    if problem.fix is not None:
        (fi, fj, text), safe, title = problem.fix
        # word indexes, except for NPP127 whose join spans two words (absolute offsets)
        span = (fi, fj) if problem.code == NO_VALUE else problem.word.literal(fi, fj)
        if span is not None:
            fix = Fix((Edit(span[0], span[1], text),), safe, printable(title))
    (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
    return Finding(problem.code, printable(problem.message), start, end, l1, c1, l2, c2, fix)


def check_shell(text: str, target: Target, fixes: bool = False, calls: Optional[List[Call]] = None) -> List[Finding]:
    """Findings for the msprof runs of a shell launcher. `npuprof fix` does not rewrite launchers,
    so their findings carry no fix unless asked for (fixes=True: the edits a launcher fix would make).
    calls: the launcher's msprof runs (calls_in_shell), when they are already read."""
    if "msprof" not in text:
        return []
    src = SourceText(text)
    calls = calls_in_shell(text) if calls is None else calls
    found = [_finding(p, src) for call in calls for p in check_call(call, target)]
    return found if fixes else [f._replace(fix=None) for f in found]


_SUBPROCESS = {"run", "call", "Popen", "check_call", "check_output"}
_SHELL_STRING = {("os", "system"), ("os", "popen"), ("subprocess", "getoutput"), ("subprocess", "getstatusoutput")}


def calls_in_python(tree: ast.AST, src: SourceText) -> List[Call]:
    """msprof runs with a literal command in subprocess / os.system calls."""
    modules: Dict[str, str] = {}            # local name -> module ("sp" -> "subprocess")
    functions: Dict[str, Tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("os", "subprocess"):
                    modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in ("os", "subprocess"):
            for a in node.names:
                functions[a.asname or a.name] = (node.module, a.name)
    out: List[Call] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            target = (modules[func.value.id], func.attr)
        elif isinstance(func, ast.Name) and func.id in functions:
            target = functions[func.id]
        else:
            continue
        arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("args", "cmd")), None)
        if arg is None:
            continue
        shell = target in _SHELL_STRING or any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)
        if target[0] == "subprocess" and target[1] not in _SUBPROCESS and target not in _SHELL_STRING:
            continue
        if target[0] == "os" and target not in _SHELL_STRING:
            continue
        out.extend(_calls_in_argument(arg, shell, src))
    return out


def _calls_in_argument(arg: ast.AST, shell: bool, src: SourceText) -> List[Call]:
    if isinstance(arg, (ast.List, ast.Tuple)):
        words = []
        for elt in arg.elts:
            value = literal_value(src, elt)
            if value is None or value.is_bytes:
                words.append(Word(HOLE, lambda i, j, e=elt: (src.node_start(e), src.node_end(e)), src.text))
            else:
                words.append(_value_word(value, src.text))
        return _calls(words)
    value = literal_value(src, arg)
    split = False
    if value is None and isinstance(arg, ast.Call) and not arg.args and isinstance(arg.func, ast.Attribute) \
            and arg.func.attr == "split":
        value, split = literal_value(src, arg.func.value), True     # "msprof --x=y python3 t.py".split()
    if value is None and isinstance(arg, ast.Call) and len(arg.args) == 1 and isinstance(arg.func, ast.Attribute) \
            and arg.func.attr == "split" and isinstance(arg.func.value, ast.Name) and arg.func.value.id == "shlex":
        value, shell = literal_value(src, arg.args[0]), True          # shlex.split("msprof ...")
    if value is None or value.is_bytes:
        return []
    outer = _value_word(value, src.text)
    if split:
        words = []
        for m in re.finditer(r"\S+", value.text):
            words.append(Word(m.group(), lambda i, j, a=m.start(): outer.place(a + i, a + j), src.text))
        return _calls(words)
    if shell:
        return calls_in_string(outer)
    return []


def check_python(ctx) -> None:
    """The msprof runs of a Python file, reported through the file's context."""
    if "msprof" not in ctx.src.text:
        return
    for call in calls_in_python(ctx.tree, ctx.src):
        for problem in check_call(call, ctx.target):
            f = _finding(problem, ctx.src)
            ctx.report(f.code, f.start, f.end, f.message, f.fix)


# ---------------------------------------------------------------- precedence and output

_SCRIPT = re.compile(r".*\.py$")


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import REF_AIC_PRODUCTS, REF_MSPROF_CLI, REF_MSPROF_DOC, _ANY_CANN, _ANY_SOC, Rule  # noqa: E402


_LAUNCHERS_NOT_REWRITTEN = ("`npuprof fix` applies it to msprof runs in Python calls; shell launchers are checked, "
                            "not rewritten.")


def _launcher(msprof_options: str) -> str:
    """A shell launcher that profiles train.py with msprof and the given options."""
    return ("#!/bin/bash\n# run_prof.sh: profile a short training run on one device\n"
            "export ASCEND_DEVICE_ID=0\n"
            f"msprof --output=/tmp/prof {msprof_options} \\\n    python3 train.py --max_steps=20\n")


RULES = (
    Rule(
        code="NPP120",
        name="msprof-unknown-option",
        summary="msprof command line with an option msprof does not have (`--timeline=on`, `--aicore=on`, "
                "`--aic_metrics=...`), with did-you-mean",
        default=True,
        what="An `msprof` run (in a shell launcher, or in a Python `subprocess`/`os.system` call with a literal "
             "command) that passes a `--name` no msprof version knows: names guessed from other profilers "
             "(`--timeline`), the JSON option spelling (`--aic_metrics`, `--task_trace`), or a missing hyphen "
             "(`--aicore`). Only the words before the application are msprof's; an abbreviation of a real "
             "option (`--app=`) is left alone.",
        why="msprof reads its options with getopt: an unknown name makes it print \"unrecognized option\" "
            "and its usage, and exit before starting the application. The job is scheduled on the NPU host, "
            "runs nothing and collects nothing; the error is only in the job's log.",
        example=_launcher("--timeline=on"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Renames the option when exactly one msprof option is close. Differences of case, `_` or `-` "
                 "only (`--aic_metrics` → `--aic-metrics`, `--aicore` → `--ai-core`) are safe; other close "
                 "spellings are unsafe; a name with no close option (`--timeline`) is not fixed. "
                 + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " An option that only some versions have is NPP126.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_cli.unknown_option", "msprof_cli.app_start"),
    ),
    Rule(
        code="NPP121",
        name="msprof-invalid-option-value",
        summary="msprof option value not accepted: switches other than `on`/`off`, `--task-time` levels, "
                "`--ge-api`, `--aic-mode`, `--llc-profiling`, `--host-sys` items",
        default=True,
        what="An msprof switch (`--ascendcl`, `--task-time`, `--hccl`, `--aicpu`, `--l2`, `--runtime-api`, "
             "`--sys-hardware-mem`, ...) given something other than exactly `on` or `off` (`true`, `ON`, `1`, "
             "empty), a `--task-time` level the version lacks (`l0`/`l1` everywhere, `l2`/`l3` from 8.5), or a "
             "value outside the list of `--ge-api`, `--aic-mode`/`--aiv-mode`, `--llc-profiling`, "
             "`--summary-format`, `--type`, `--host-sys`, `--host-sys-usage`.",
        why="msprof compares each value with its fixed list and, on a mismatch, prints the error and exits "
            "before starting the application, so the job collects nothing.",
        example=_launcher("--task-time=true"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Lowercases a value that differs from an accepted one only in case (`ON` → `on`): safe. Other "
                 "values are not fixed (`true` could mean a level). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " `--task-time=l2` is reported only for 7.0/8.0 targets.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.switches", "msprof_cli.enums", "msprof_cli.lists", "msprof_cli.empty_value"),
    ),
    Rule(
        code="NPP122",
        name="msprof-invalid-aic-metrics",
        summary="`--aic-metrics`/`--aiv-metrics` value that is not a metric set of the target chip, with "
                "did-you-mean",
        default=True,
        what="An msprof `--aic-metrics` or `--aiv-metrics` value that no chip has (a misspelling such as "
             "`PipeUtilisation`), that the target chip lacks (`L2Cache` on the Ascend 910), or that is empty. "
             "`Custom:<events>` lists are not judged.",
        why="msprof checks the metric set against the chip it runs on with the same validator as the "
            "framework options (NPP106) and exits before starting the application when it is not there.",
        example=_launcher("--aic-metrics=PipeUtilisation"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="sometimes",
        fix_note="Replaces the value with the single close metric set: safe when only the case differs, "
                 "unsafe otherwise (it changes which counters are collected). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_SOC + " A name no product knows is reported with any target.",
        references=(REF_MSPROF_CLI, REF_AIC_PRODUCTS),
        group="msprof",
        language="shell",
        facts=("msprof_cli.metrics", "products.910B.aic_metrics"),
    ),
    Rule(
        code="NPP123",
        name="msprof-invalid-frequency",
        summary="msprof sampling frequency not an integer or out of its range",
        default=True,
        what="An msprof `*-freq` option whose value is not a plain integer or lies outside its range: 1-100 Hz "
             "for `--aic-freq`, `--aiv-freq`, `--dvpp-freq`, `--sys-io-sampling-freq`, `--sys-hardware-mem-freq` "
             "(up to 10000 on the Ascend 950 from 8.5), 1-50 for `--sys-cpu-freq`, "
             "`--sys-interconnection-freq`, `--host-sys-usage-freq`, 1-10 for `--sys-sampling-freq` and "
             "`--sys-pid-sampling-freq`. `--instr-profiling-freq` is not judged (msprof range-checks it only "
             "on chips without instruction profiling).",
        why="msprof range-checks each frequency, prints the allowed range and exits before starting the "
            "application.",
        example=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=100"),
        fixed=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=50"),
        fix_safety="none",
        fix_note="No fix: the sampling rate is the user's choice.",
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.ranges",),
    ),
    Rule(
        code="NPP124",
        name="msprof-invalid-storage-limit",
        summary="msprof `--storage-limit` not `<N>MB` with 200 ≤ N ≤ 4294967295",
        default=True,
        what="A `--storage-limit` that is empty, not digits followed by exactly `MB` (`2GB`, `500`, `1.5MB`), "
             "or out of range (`100MB`).",
        why="msprof validates the limit before starting the application and exits on a bad one (the "
            "framework-options path is more lenient from 8.5 on, the command line is not).",
        example=_launcher("--storage-limit=2GB"),
        fixed=_launcher("--storage-limit=2048MB"),
        fix_safety="sometimes",
        fix_note="Converting whole gigabytes to megabytes (`2GB` → `2048MB`) keeps the limit: safe. Other "
                 "values are not fixed. " + _LAUNCHERS_NOT_REWRITTEN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.storage_limit",),
    ),
    Rule(
        code="NPP125",
        name="msprof-invalid-output",
        summary="msprof `--output` given no directory (`--output=`) or a path longer than 1024 characters",
        default=True,
        what="`--output=` with nothing after it (a value the checker cannot see, such as `--output=$OUT`, is "
             "not judged), or an output path longer than 1024 characters.",
        why="msprof needs a directory for the collected data: an empty value is refused (\"expected one "
            "argument\") and a path longer than 1024 characters is refused, both before the application "
            "starts.",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output="),
        fixed=_launcher("--task-time=on"),
        fix_safety="none",
        fix_note="No fix: only the user knows where the data should go.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.output", "msprof_cli.empty_value"),
    ),
    Rule(
        code="NPP126",
        name="msprof-option-not-on-target",
        summary="msprof option the target CANN version or chip does not have (`--aiv-metrics` on Atlas A2, "
                "`--task-block` before 9.0)",
        default=True,
        what="An msprof option that exists, but not in the msprof of the target CANN version (`--task-block` "
             "and `--sys-lp` arrived in 9.0, `--l2-freq` left with 8.5), or that the target chip's msprof "
             "refuses: the AI Vector Core options (`--ai-vector-core`, `--aiv-*`) on the Ascend 910, 310P, "
             "910B/910C (where they follow the AI Core options) and 310B, `--instr-profiling` on the 910, "
             "310P and 310B, `--sys-io-profiling` on the 310P, `--sys-interconnection-*` on the 310B.",
        why="msprof removes the options a chip cannot collect from its parser: it prints \"unrecognized "
            "option\" and exits before starting the application, so a launcher written for another chip "
            "or version collects nothing.",
        example=_launcher("--aic-metrics=PipeUtilization --aiv-metrics=PipeUtilization"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="none",
        fix_note="No fix: removing the option changes what is collected on other targets.",
        options=_ANY_CANN + " " + _ANY_SOC + " The chip lists are known for CANN 8.5+ (only entries shared by "
                "the open and the shipped builds), so name a version as well.",
        references=(REF_MSPROF_CLI,),
        settings=(("cann", "8.5"), ("soc", "910B")),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_cli.refused_on_product"),
    ),
    Rule(
        code="NPP127",
        name="msprof-option-value-not-attached",
        summary="msprof option given its value as a separate word (`--output /tmp/prof`) or no value at all",
        default=True,
        what="An msprof option written argparse-style, with its value in the next word (`--output /tmp/prof`, "
             "`[\"--aic-metrics\", \"Memory\"]` in a subprocess list), or with no value at all (`--ascendcl` "
             "at the end of the line). `--help` takes no value; `--storage-limit` without one is reported only "
             "for CANN 7.0/8.0, where it is refused.",
        why="Every msprof option takes an optional argument, which getopt reads only when it is attached with "
            "`=`. The option therefore arrives without a value and msprof refuses it (\"expected one "
            "argument\", or \"empty value\" in older versions) and exits before starting the application; "
            "the separate word is skipped, not used as the value.",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output /tmp/prof"),
        fixed=_launcher("--task-time=on"),
        fix_safety="safe",
        fix_note="Joins the option and the next word with `=` when both are written literally next to each "
                 "other (`--output /tmp/prof`, or `\"--output\", \"/tmp/prof\"` in a Python list): the value "
                 "the user wrote is the one msprof will then read. " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.value_required", "msprof_cli.app_start"),
    ),
)
