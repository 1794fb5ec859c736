"""What a launch passes to the script: flags given on the command line (found by emulate's
launcher.py) and the values the resolver reads for them."""

from __future__ import annotations

import ast
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..source.text import HOLE, Piece, Run, StrValue


class Word(NamedTuple):
    value: StrValue             # decoded, HOLE for what the walk cannot know
    start: int                  # source range of the word in its file
    end: int

    @property
    def text(self) -> str:
        return self.value.text

    @property
    def known(self) -> bool:
        return HOLE not in self.value.text


class Given(NamedTuple):
    """A flag as one launch passes it, and as the script's parser reads it."""
    option: str                 # as written: --profiling
    text: Optional[str]         # the value text (None: a switch given without value)
    word: Word                  # the launcher's word holding the option
    value_word: Optional[Word]  # the word holding the value (the same word for --x=v)
    where: str                  # run_1p.sh:8


OPEN = "*"                      # the key of `given` saying that unknown words may hold more flags


class Passed(dict):
    """The flags one launch passes ({dest: Given}), and who passes them, as the answers say it: "the launcher", or
    "the command as typed" (`npuprof emulate -- python3 train.py`, a line no launcher holds)."""
    by = "the launcher"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.abbreviated: Dict[str, Given] = {}     # dest -> a word that may be argparse's abbreviation of its option
        self.stop = ""                  # why parse_args stops the script on a word it does not read (argv_words.py)
        self.stop_calls: frozenset = frozenset()    # argv_words.flag_key of the flags that stop holds for
        self.stop_first = False         # stop is the first argparse meets: it holds over a flag's own
        self.unsure = False             # whether parse_args stops there depends on the python release (stop says)
        self.exits_before: Dict[int, str] = {}  # id(word) -> the help or version word before it, said (launch_setup)
BOOL_TRUE = ("true", "t", "1")
BOOL_FALSE = ("false", "f", "0")
ARGPARSE_ERRORS = ("ArgumentTypeError", "TypeError", "ValueError")     # what a type function raises that argparse
                                                                        # reports as a usage error


def _argparse_end(raised: str) -> str:
    """What argparse does with what a type function raises (as written): it reports a TypeError or ValueError (and so
    ArgumentTypeError) as a usage error, and an ArgumentError reaches parse_known_args, which does the same; a builtin
    exception of another kind goes on; of a class defined elsewhere (a ValueError's subclass or not) it is not known."""
    import builtins
    name = raised.rsplit(".", 1)[-1]
    if name in ARGPARSE_ERRORS or raised == "argparse.ArgumentError":
        return "so argparse exits with status 2"
    known = getattr(builtins, raised, None) if raised else RuntimeError     # (a bare raise: "No active exception")
    if isinstance(known, type) and issubclass(known, BaseException):
        return "so argparse exits with status 2" if issubclass(known, (TypeError, ValueError)) else \
            "an exception argparse does not catch, so the script stops there"
    return f"so argparse exits with status 2 if {raised} is a TypeError or ValueError, else the exception stops the " \
        "script there"


def _raises(flag, g: Given, kind: str, raised: str, defined_at: str, caught: int) -> list:
    """The value of a flag whose type function (kind: its name) raises `raised` on the launch's word: argparse's
    _get_value turns ArgumentTypeError, TypeError and ValueError into an ArgumentError, and parse_known_args calls
    error() on it, which exits with status 2 (python 3.9 to 3.13: `--prof=True` for type=int is "invalid int value");
    another exception leaves parse_args as it is. Where a `try` (or exit_on_error) may catch it, the script may go on
    (python 3.11 ran the code after `except SystemExit:`)."""
    from .ops import U
    if caught:
        return [U(f"{g.option} from {g.where}: {kind}() raises on it, and what parse_args then raises may be caught "
                  f"(line {caught})")]
    at = f" ({defined_at})" if defined_at else ""
    spelled = f"{g.option}{'=' if g.value_word is g.word else ' '}{g.text}"
    return [U(f"{g.option} from {g.where}: {kind}() raises on it, and argparse stops the script",
              stops=f"argparse stops the script in parse_args: {kind}(), the type of {flag.option}{at}, raises "
                    f"{raised} on {spelled} from {g.where}, {_argparse_end(raised)}")]


def _value_of(g: Given, text: str, note: str) -> StrValue:
    """The value as a string whose characters map to the launcher's source (origin "launcher")."""
    runs: List[Run] = []
    word = g.value_word
    if word is not None:
        skip = len(word.text) - len(text)           # `--x=value`: the value is the word's tail
        runs = [r._replace(t=r.t - skip) for r in word.value.runs if r.t >= skip]
    anchor = (word.start, word.end) if word is not None else (g.word.start, g.word.end)
    pieces: Tuple[Piece, ...] = ()
    if runs:                            # one stretch of the launcher holds it (a quoted word, or `OPTS='...'`)
        a, b = min(r.s for r in runs), max(r.s + r.slen for r in runs)
        pieces = (Piece(a, b, "", "'", a, b),)
    return StrValue(text, runs, anchor[0], anchor[1], pieces, notes=((0, len(text), note),), origin="launcher")


def given_values(flag, given: Dict[str, Given], type_function=None, defined_at: str = "",
                 caught: int = 0) -> Optional[list]:
    """What the script reads for a flag the launch passes (resolver values); None: not passed. type_function: the
    project's own function a `type=name` names (an ast.FunctionDef), where it is found, else None; defined_at: where
    the flag is defined (train.py:6), for messages; caught: the line of a `try` (or exit_on_error) that may catch
    what parse_args raises, 0 where none does. A flag of a parser that stops the script on a word it does not read
    (Passed.stop) is never read: argparse converts the words it reads first, so their own stop is kept."""
    from .argv_words import flag_key
    from .ops import U
    found = _given_values(flag, given, type_function, defined_at, caught)
    stop = getattr(given, "stop", "")
    stopped = stop and flag_key(flag) in getattr(given, "stop_calls", ())
    if stopped and getattr(given, "unsure", False):
        return [U(stop, flag.py_type)]
    if stopped and (getattr(given, "stop_first", False) or not any(isinstance(v, U) and v.stops for v in found or ())):
        return [U(f"argparse stops the script before {flag.option} is read", flag.py_type, stops=stop)]
    g = given.get(flag.dest)
    if found is not None and g is not None and flag.kind == "argparse":
        found = _chosen(flag, g, found, defined_at, caught) or found
    # (argparse reads the words in order: a help or version word before this one exits first, with status 0)
    g = g or getattr(given, "abbreviated", {}).get(flag.dest)
    first = getattr(given, "exits_before", {}).get(id(g.word), "") if g is not None else ""
    return [v._replace(stops=v.stops + first) if isinstance(v, U) and v.stops else v for v in found] \
        if first and found else found


def _chosen(flag, g: Given, found: list, defined_at: str, caught: int) -> Optional[list]:
    """The value of a flag whose `choices=` (a literal) does not hold the value the launch gives it: argparse checks
    it after converting it (`value not in action.choices`) and exits with status 2, "invalid choice" (python 3.9 and
    3.13 ran it); None where it holds it or that is not known here."""
    from .argv_words import UNREAD, choices_of
    from .ops import C, S, U
    choices = choices_of(flag)          # (a literal, a name the module binds to one, a range of whole numbers)
    if choices is None or choices is UNREAD or len(found) != 1 or not isinstance(found[0], (C, S)):
        return None
    value = found[0].value if isinstance(found[0], C) else found[0].value.text
    try:
        if value in choices:            # type: ignore[operator]
            return None
    except TypeError:
        return None
    spelled = f"{g.option}{'=' if g.value_word is g.word else ' '}{g.text}"
    if caught:
        return [U(f"{spelled} from {g.where} is not one of the choices of {flag.option}, and what parse_args then "
                  f"raises may be caught (line {caught})")]
    at = f" ({defined_at})" if defined_at else ""
    return [U(f"{spelled} from {g.where} is not one of the choices of {flag.option}",
              stops=f"argparse stops the script in parse_args: {spelled} from {g.where} is not one of the choices of "
                    f"{flag.option}{at}, so argparse exits with status 2 (\"invalid choice\")")]


def _given_values(flag, given: Dict[str, Given], type_function, defined_at: str, caught: int) -> Optional[list]:
    from .ops import C, S, U
    g = given.get(flag.dest)
    short = getattr(given, "abbreviated", {}).get(flag.dest) if g is None else None
    if short is not None and short.text is not None and short.option.startswith("--") and not caught and \
            flag.kind == "argparse" and flag.action in ("store_true", "store_false"):
        # `--pr=1`: python 3.9-3.13 exit with status 2 whether it is read as --prof alone ("ignored explicit
        # argument '1'") or as one of several options it begins ("ambiguous option"), parse_known_args too
        return [U(f"{short.option}={short.text} from {short.where} gives a value to {flag.option}, which it begins",
                  stops=f"argparse stops the script in parse_args: {short.option}={short.text} from {short.where} "
                        f"begins {flag.option} ({flag.action}), which takes no value, so argparse exits with status 2 "
                        "(with its value ignored, or with the option ambiguous where the word begins others too)")]
    if short is not None:
        return [U(f"{short.option} from {short.where} may be argparse's abbreviation of {flag.option} (the options "
                  "a word begins are matched, with allow_abbrev, the default)", flag.py_type)]
    if g is None and OPEN in given:
        return [U(f"{flag.option} may be passed through the unknown arguments at {given[OPEN].where}", flag.py_type)]
    if g is None:
        return None
    names = [a.value for a in flag.call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if flag.kind == "argparse" and len(names) == len(flag.call.args) and g.option not in names:
        # another option of the same dest (`--noprof`, dest="prof", store_false): its action, not this flag's
        return [U(f"{g.option} from {g.where} sets {flag.dest}, the dest of {flag.option}, as another option of the "
                  "script", flag.py_type)]
    text = g.text
    note = f"as {g.option}{'=' + text if text else ''} from {g.where}"
    if text is not None and HOLE in text:
        return [U(f"{g.option} from {g.where} is not known statically", flag.py_type)]
    if flag.kind == "argparse":
        if flag.action in ("store_true", "store_false") and text is not None:
            # `--prof=1`: python 3.11 argparse: "argument --prof: ignored explicit argument '1'", status 2
            if caught:
                return [U(f"{g.option}={text} from {g.where} gives {flag.option} a value it does not take, and what "
                          f"parse_args then raises may be caught (line {caught})")]
            return [U(f"{g.option}={text} from {g.where} gives {flag.option} a value, and argparse stops the script",
                      stops=f"argparse stops the script in parse_args: {flag.option} ({flag.action}) takes no value, "
                            f"and {g.option}={text} from {g.where} gives it one, so argparse exits with status 2")]
        if flag.action in ("store_true", "store_false"):
            return [C(flag.action == "store_true", None, note)]
        kind = (getattr(flag.type_node, "id", None) or "") if flag.type_node is not None else "str"
        if text is None:
            return [U(f"{g.option} from {g.where} has no value")]
        if kind == "str":
            return [S(_value_of(g, text, note))]
        if kind == "bool":
            return [C(bool(text), None, note)]       # bool("False") is True
        if kind in ("int", "float"):
            try:
                return [C(int(text) if kind == "int" else float(text), None, note)]
            except ValueError:
                if len(text) > 4300:        # python 3.9.14+, 3.10.7+ and 3.11+ refuse more digits; older do not
                    return [U(f"{g.option} from {g.where} is not a valid {kind}")]
                return _raises(flag, g, kind, "ValueError", defined_at, caught)
        if getattr(flag.type_node, "attr", None) == "literal_eval" or kind == "literal_eval":
            if text[:1] in (" ", "\t"):      # python 3.10+ strip them first; 3.9 raises IndentationError (status 1)
                return [U(f"{g.option} from {g.where} is not a Python literal on every python")]
            try:                            # `type=ast.literal_eval`: "False" is False, "1" is 1
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError) as e:
                return _raises(flag, g, "literal_eval", type(e).__name__, defined_at, caught)
            except (TypeError, MemoryError, RecursionError):
                return [U(f"{g.option} from {g.where} is not a Python literal")]
            if isinstance(value, (bool, int, float)):
                return [C(value, None, note)]
            return [U(f"{g.option} from {g.where} is converted by ast.literal_eval()")]
        if type_function is not None:       # `type=str2bool`, the project's own: run where it is pure
            from .type_function import Raised, call
            try:
                out = call(type_function, text)
            except Raised as e:
                return _raises(flag, g, kind, e.exception or "an exception", defined_at, caught)
            if out is not None and (out[0] is None or isinstance(out[0], (bool, int, float))):
                return [C(out[0], None, f"{note}, which {kind}() makes {out[0]!r}")]
        return [U(f"{g.option} from {g.where} is converted by {kind or 'a function'}()")]
    if flag.py_type is bool:
        low = (text or "true").lower()
        if low in BOOL_TRUE or low in BOOL_FALSE:
            return [C(low in BOOL_TRUE, None, note)]
        return [U(f"{g.option} from {g.where} is not a boolean")]
    if text is None:
        return [U(f"{g.option} from {g.where} has no value")]
    if flag.py_type in (int, float):
        try:
            return [C(flag.py_type(text), None, note)]
        except ValueError:
            return [U(f"{g.option} from {g.where} is not a valid number")]
    if flag.py_type is str:
        return [S(_value_of(g, text, note))]
    return [U(f"{g.option} from {g.where} is a list")]
