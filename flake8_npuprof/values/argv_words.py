"""How python's argparse reads a launch's option word that names no option of the script exactly (python 3.9 to
3.13's argparse, run; `_parse_optional` and `_get_option_tuples`):

- `--pro` (or `--pro=1`): the options its part before `=` begins, where the parser abbreviates (allow_abbrev, the
  default); with allow_abbrev=False none;
- `-pro`: the options the whole word begins, and the one-character option `-p` it starts with (the rest its
  value): whatever allow_abbrev says (`-pro` sets `-prof` with allow_abbrev=False too);
- anything else is an unrecognized argument: parse_args exits with status 2 on it ("error: unrecognized arguments:
  ..."), even with exit_on_error=False (python 3.13.0 raises argparse.ArgumentError there instead, which stops the
  script too), and parse_known_args leaves it aside.

`stop` says the script stops in parse_args only where the script's own code shows that nothing else reads the
word: its flags all its own, parsed by parse_args() of argv alone, no `try` around it, no parser handed to a
function of another module, no sub-commands, parent parsers or prefix_chars.
"""

from __future__ import annotations

import ast
import re
import weakref
from typing import Any, Callable, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

from .flag_def import FlagDef
from ..source.site_records import main_test as _main_test
from ..source.text import HOLE

_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")         # argparse's _negative_number_matcher: a positional, not an option
# (sys.argv written, or the list itself bound to another name, which may write it: `argv = sys.argv`,
# `from sys import argv`)
_ARGV_WRITE = re.compile(r"sys\.argv\s*(=[^=]|\[[^\]]*\]\s*=[^=]|\.(append|extend|insert|remove|pop|clear)\b)|"
                         r"del\s+sys\.argv|=\s*sys\.argv\s*($|[;#),])|from\s+sys\s+import\b[^\n]*\bargv\b", re.M)
_PARSER = ("ArgumentParser", "argparse.ArgumentParser")       # not HfArgumentParser & co, which add options
_GROUPS = ("add_argument_group", "add_mutually_exclusive_group")
_NARGS = ("?", "*", "+")                # (REMAINDER, "...", takes the words after it, options too)


def read_as(text: str, table, abbreviates: Callable[[FlagDef], bool]) -> List[FlagDef]:
    """The argparse flags python may read an option word (text, as written) as, where the table holds no option
    that is the word or its part before `=`: abbreviates(flag) says whether the flag's parser takes a `--` word's
    abbreviation (allow_abbrev)."""
    mine = [o for o, f in table.items() if f.kind == "argparse"]
    return list({id(table[o]): table[o] for o in matches(text, mine, lambda o: abbreviates(table[o]))}.values())


def matches(text: str, options: Iterable[str], abbreviates: Callable[[str], bool] = lambda o: True) -> List[str]:
    """The options (as written) python's argparse may read a word as that is none of them, nor its part before `=`:
    a `--` word's prefix, where abbreviates(option) (allow_abbrev); a single-dash word's whole text, or its first two
    characters (a short option with the rest attached)."""
    if len(text) < 2 or text[0] != "-":
        return []
    if text[1] == "-":
        prefix = text.partition("=")[0]
        return [o for o in options if len(prefix) > 2 and o.startswith("--") and o.startswith(prefix) and
                abbreviates(o)]
    return [o for o in options if o == text[:2] or o.startswith(text)]


def no_abbreviation(tree: ast.AST) -> bool:
    """Whether every ArgumentParser the file makes says allow_abbrev=False (and it makes one)."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) in _PARSER]
    return bool(calls) and all(
        any(k.arg == "allow_abbrev" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in c.keywords) and all(k.arg for k in c.keywords) for c in calls)


def unrecognized(text: str, helps: bool = True) -> bool:
    """Whether argparse reads a word no option matches as an option (so an unrecognized argument), not as a
    positional: not a negative number, no space in it, not `-`, not the help option's (-h, --h...) where the parser
    has one (helps)."""
    return len(text) > 1 and text[0] == "-" and not _NUMBER.match(text) and " " not in text and \
        not (helps and (text.startswith("-h") or len(text.partition("=")[0]) > 2 and "--help".startswith(
            text.partition("=")[0])))


def without_help(tree: ast.AST) -> bool:
    """Whether every ArgumentParser the file makes says add_help=False (and it makes one), and nothing else of it is
    not written out (**kwargs): python 3.9-3.13 then read -h and --help as any other word (3.9.18, 3.13.0 run)."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) in _PARSER]
    return bool(calls) and all(
        any(k.arg == "add_help" and isinstance(k.value, ast.Constant) and k.value.value is False for k in c.keywords)
        and all(k.arg for k in c.keywords) and len(c.args) < 7 for c in calls)


def option_word(text: str, table, abbreviates: Optional[Callable[[FlagDef], bool]] = None) -> bool:
    """Whether argparse reads the word after an option that takes one value as an option, so not as its value (python
    3.9-3.13's _parse_optional: a word that begins with `-` other than `-` itself, a negative number where the parser
    has no option like one, or a word with a space in it; `--` too): the option is then given none."""
    if HOLE in text or len(text) < 2 or text[0] != "-":
        return False
    if _NUMBER.match(text):
        return any(_NUMBER.match(o) for o in table)
    # (`-n=a b` too: its part before = is an option; and an option's abbreviation, `--nu=a b`, `-na b`, is read as one
    # before a blank makes a word a value)
    return " " not in text or text.partition("=")[0] in table or \
        abbreviates is not None and bool(read_as(text, table, abbreviates))


def takes_one(flag: FlagDef) -> bool:
    """Whether an argparse flag takes exactly one word (no nargs, its action stores or appends it), so that given
    without one it stops parse_args ("expected one argument")."""
    keywords = {k.arg: k.value for k in flag.call.keywords}
    action = keywords.get("action")
    return flag.kind == "argparse" and None not in keywords and "nargs" not in keywords and (
        action is None or isinstance(action, ast.Constant) and action.value in ("store", "append", "extend"))


def sure_to_stop(resolver, table, own: Iterable[FlagDef], known: bool = False,
                 prefixed: bool = False) -> Optional[ast.keyword]:
    """Whether parse_args surely meets every word of a launch that its table does not read: None where it may not
    (see the module's doc), else the exit_on_error= keyword given to a parser (an empty keyword: none). known: the
    stop is one argparse meets while it reads the words (help, a value error), which parse_known_args() meets too;
    prefixed: the caller reads the parser's prefix_chars= (prefix_chars)."""
    mine = {id(f.call) for f in own}
    if not mine or any(id(f.call) not in mine or f.kind != "argparse" for f in table.values()):
        return None                     # flags another module (or absl) defines: its parser is not read here
    if _ARGV_WRITE.search(resolver.src.text) or resolver.parse_try():
        return None
    receivers, parsed, own_functions = set(), set(), set()
    known_args = False
    nodes = list(ast.walk(resolver.tree))
    for n in nodes:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own_functions.add(n.name)
        elif isinstance(n, ast.ClassDef) and any(_name(b).endswith("ArgumentParser") for b in n.bases):
            return None
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            name = n.func.attr
            method = name == "parse_args" or known and name == "parse_known_args"
            if name in ("parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args",
                        "add_subparsers") and (not method or n.args or n.keywords):
                return None
            if method:
                parsed.add(_name(n.func.value))
                known_args = known_args or name == "parse_known_args"
            if name == "add_argument":
                nargs = next((k.value for k in n.keywords if k.arg == "nargs"), None)
                action = next((k.value for k in n.keywords if k.arg == "action"), None)
                if action is not None and not (isinstance(action, ast.Constant) and isinstance(action.value, str)):
                    return None         # an Action class may make options (BooleanOptionalAction: --no-amp)
                if any(not (isinstance(a, ast.Constant) and isinstance(a.value, str)) for a in n.args) or \
                        any(k.arg is None for k in n.keywords) or nargs is not None and not (
                            isinstance(nargs, ast.Constant) and (nargs.value in _NARGS or type(nargs.value) is int)):
                    return None         # an option whose name is not written out, or one that takes any word
                receivers.add(_name(n.func.value))
    if not parsed or "" in parsed or known_args and len(parsed) > 1:
        return None                     # (parse_known_args of one parser, then another's: their words not read whole)
    exit_on_error = ast.keyword(arg=None, value=ast.Constant(True))
    for n in nodes:
        if not isinstance(n, ast.Call):
            continue
        name = _name(n.func)
        if name in _PARSER:
            if any(k.arg in (None, "parents") or k.arg == "prefix_chars" and not prefixed for k in n.keywords) or \
                    len(n.args) > 4:
                return None             # (parents is its fifth positional argument)
            exit_on_error = next((k for k in n.keywords if k.arg == "exit_on_error"), exit_on_error)
            continue
        if "." in name and name.rsplit(".", 1)[0] in receivers:
            continue                    # the parser's own methods
        handed = [a for a in list(n.args) + [k.value for k in n.keywords] if _name(a) in receivers | parsed]
        if handed and name not in own_functions:
            return None                 # `deepspeed.add_config_arguments(parser)`: options not seen here
    made: set = set()
    for n in nodes:                     # each parser and group the options go to is made here, and only so
        if isinstance(n, ast.Assign) and any(_name(t) in receivers | parsed for t in n.targets):
            call = _name(n.value.func) if isinstance(n.value, ast.Call) else ""
            if call not in _PARSER and call.rsplit(".", 1)[-1] not in _GROUPS:
                return None
            made.update(_name(t) for t in n.targets if call in _PARSER)
    return exit_on_error if parsed <= made else None


class Stop(NamedTuple):
    """Where python's argparse stops reading a launch's words (first_stop): status 0 (help, version), 1 (a version
    option with no version=, an append to a default that is no list: AttributeError), 2 (an error),
    None where it depends on the python release; at: the word's index; kind: "help", "version", "value" (a value
    the option does not take: why says argparse's own message), "raises" (why: the exception, as python prints it),
    "default" (a string default of an option no word gives, which its type refuses: at is -1), "extra" (a word no
    option reads: argparse names it after reading them all), "dashdash" (`--` then more words), "release" (a closing
    `--`), "joined" (switches joined to characters that begin no option: why is python 3.9-3.12's message, and
    3.13.0 names them as unrecognized); an "extra" before a word not known here has why "notknown". parse_known_args stops as parse_args does while it reads (help, version,
    value, raises, default)."""
    status: Optional[int]
    at: int
    kind: str
    why: str = ""
    end: int = 0                        # the words it reads up to (exclusive), for "value"
    option: str = ""                    # the option whose default it is, for "default"


_ERROR = {None: "expected one argument", "+": "expected at least one argument"}
_CONVERTS = {"int": int, "float": float}


def first_stop(texts: List[str], table, abbreviates: Callable[[FlagDef], bool], holes: bool = False) -> Optional[Stop]:
    """Where argparse's parse_args (python 3.9 to 3.13, run: tests/data/argparse_runs.json) stops on a launch's
    words (texts, HOLE where the walk does not know them), for a parser of options only (sure_to_stop holds, no
    positional, no required option, no mutually exclusive group: parse_options says so) with the help option.
    argparse reads the words in order and stops at the first help or version option (status 0, after printing) or
    value it cannot take (status 2): "expected one argument", an int or float type= the text is not, a choice not
    listed; words no option reads it names at the end (status 2). None where a word is not known before any of these
    (one that begins not known may be several, or none), or is read in a way not followed here (an abbreviation,
    another action, a type= function). holes: a word not known that argparse meets where it reads an option (no
    option before it takes it), before any stop, is said as Stop(None, its index, "hole"); an option whose value
    is not known, where its type= or choices= may refuse it, as Stop(None, the option's index, "hole", end); and
    words read through without a stop as Stop(None, -1, "through") (None is then only a reading not followed)."""
    if sorted_first(texts, table, abbreviates):
        return None
    extras: List[int] = []
    seen: set = set()                   # id(call) of the options a word is read as
    k = 0
    while k < len(texts):
        text = texts[k]
        option, eq, value = text.partition("=")
        if text.startswith(HOLE) or text.startswith("-") and HOLE in option:
            # a word not known here may be an option of the script, a word no option reads, a help option or nothing
            # at all; after a word no option reads, argparse stops all the same (status 2 once it has read them all,
            # unless that word stops it first): said with that word; else not followed here
            return Stop(2, extras[0], "extra", "notknown") if extras else Stop(None, k, "hole") if holes else None
        if text == "--":                # what follows is positional: none is taken (no positional is defined)
            refused = _default_refused(table, seen)
            if refused is not None:     # (after the words are read, before those no option reads are named)
                return refused if refused.kind == "default" else None
            if any(t.replace(HOLE, "") for t in texts[k + 1:]):
                return Stop(2, k, "dashdash")
            # python 3.9 to 3.13.0 keep `--` as an unrecognized argument; 3.12.7 and 3.13.1 drop the first (gh-53780)
            return _extra(texts, extras) if extras else Stop(None, k, "release")
        if not _optional(text, table):
            extras.append(k)
            k += 1
            continue
        if text in ("-h", "--help"):
            return Stop(0, k, "help")
        flag = table.get(option)
        pair = joined(text, table) if flag is None else None
        if pair is not None:            # (what begins with `-` is the switch's value on every release: "value")
            return Stop(2, k, "value" if pair[1][0] == "-" else "joined",
                        f"argument {_label(pair[0])}: ignored explicit argument {pair[1]!r}", k + 1)
        if flag is None:
            if text.startswith("-h") or len(option) > 2 and "--help".startswith(option):
                return None             # help's abbreviation: not followed here
            found = read_as(text, table, abbreviates)
            if text[:2] == "--" and len(found) == 1:
                flag = found[0]         # a `--` word's one option it begins (sorted_first: not two): python 3.9-3.13
            elif found:
                return None             # (`-pro`: -p with `ro` or -prof, as the release reads it: not followed)
            else:
                extras.append(k)
                k += 1
                continue
        seen.add(id(flag.call))
        kw = {a.arg: a.value for a in flag.call.keywords}
        action = flag.action or ("store" if "action" not in kw else "")
        if action == "version":         # (no version=: it reads parser.version, which python 3.9-3.13 lack)
            version = kw.get("version")
            return None if eq else Stop(0, k, "version") if version is not None and not (
                isinstance(version, ast.Constant) and version.value is None) else Stop(1, k, "version")
        if action in ("store_true", "store_false"):
            if eq and option[1] != "-":
                return None             # (`-x=a b`: python 3.9 reads -x then -a; 3.13 refuses 'a b')
            if eq:
                return Stop(2, k, "value", f"argument {_label(flag)}: ignored explicit argument '{value}'", k + 1) \
                    if HOLE not in value else None
            k += 1
            continue
        if action not in ("store", "append"):
            return None
        nargs = kw.get("nargs")
        n = nargs.value if isinstance(nargs, ast.Constant) else (None if nargs is None else "")
        if n not in (None, "?", "*", "+") and type(n) is not int:
            return None
        taken = [value] if eq else []
        j = k + 1
        if not eq:
            while j < len(texts) and not texts[j].startswith(HOLE) and texts[j] != "--" and \
                    not _optional(texts[j], table) and (n not in (None, "?") or not taken) and \
                    (type(n) is not int or len(taken) < n):
                taken.append(texts[j])
                j += 1
            short = n in ("*", "+") or n is None and not taken or type(n) is int and len(taken) < n
            if j < len(texts) and texts[j].startswith(HOLE) and short:
                # a word not known here may be values, an option or nothing (fewer words than nargs=2 needs; the
                # next word given to an option of one, `--name --prof`), or several (`--name a b`)
                counted = type(n) is int and n > 1
                return Stop(None, k, "hole", end=j + 1) if holes and (
                    counted or n is None or _rejected(flag, kw, [HOLE]) is None) else None
        if n is None and len(taken) != 1 or n == "+" and not taken or type(n) is int and len(taken) != n:
            need = _ERROR.get(n) if not isinstance(n, int) else \
                ("expected 1 argument" if n == 1 else f"expected {n} arguments")
            return Stop(2, k, "value", f"argument {_label(flag)}: {need}", j)
        const = kw.get("const")
        if n == "?" and not taken and const is not None:    # (python 3.9-3.13 convert and check a str const=)
            if not isinstance(const, ast.Constant):
                return None
            taken = [const.value] if isinstance(const.value, str) else []
        bad = _rejected(flag, kw, taken)
        if bad is None:
            return Stop(None, k, "hole", end=j) if holes and any(HOLE in str(v) for v in taken) else None
        if bad:
            return Stop(2, k, "value", f"argument {_label(flag)}: {bad}", j)
        default = kw.get("default") if flag.has_default else None
        if action == "append" and _shared(flag, table):
            return None                 # (the namespace's value: the default of the dest's first option, or a word's)
        if action == "append" and isinstance(default, ast.Constant) and default.value is not None:
            # (_AppendAction copies the namespace's value, the default, and calls its append: python 3.9-3.13)
            return Stop(1, k, "raises", f"AttributeError: '{type(default.value).__name__}' object has no attribute "
                        "'append'", j)
        k = j
    refused = _default_refused(table, seen)
    if refused is not None:             # (after the words are read, before those no option reads are named)
        return refused if refused.kind == "default" else None
    return _extra(texts, extras) if extras else Stop(None, -1, "through") if holes else None


def sorted_first(texts: List[str], table, abbreviates: Callable[[FlagDef], bool]) -> bool:
    """Whether a known word before `--` may be an abbreviation of two options (or is read in a way not followed here):
    argparse sorts every word before it reads one, so that stops it first (python 3.9-3.13: "ambiguous option")."""
    for text in texts[:texts.index("--") if "--" in texts else len(texts)]:
        if HOLE in text or text.partition("=")[0] in (*table, "-h", "--help"):
            continue
        if _optional(text, table) and (len(read_as(text, table, abbreviates)) + _of_help(text) > 1 or
                                       text.startswith("--=")) or " " in text and \
                (read_as(text, table, abbreviates) or _of_help(text)):
            return True                 # (`--=`: every `--` option's abbreviation; `--ab=a b` is one, --abc's)
    return False


def _shared(flag: FlagDef, table) -> bool:
    """Whether another option of the table has the flag's dest."""
    return any(f.dest == flag.dest and f.call is not flag.call for f in table.values())


def _default_refused(table, seen) -> Optional[Stop]:
    """The stop where argparse converts a string default of an option no word gives (python 3.9-3.13's
    _parse_known_args, at the end, in the order the options are added): an int or float type= that refuses it;
    kind "unknown" where the option shares its dest (another option's default, or word, may be the value)."""
    flags = sorted({id(f.call): f for f in table.values()}.values(), key=lambda f: (f.call.lineno, f.call.col_offset))
    for flag in flags:
        kw = {a.arg: a.value for a in flag.call.keywords}
        default = kw.get("default") if flag.has_default and id(flag.call) not in seen else None
        kind = getattr(flag.type_node, "id", None)
        if flag.kind != "argparse" or not (isinstance(default, ast.Constant) and isinstance(default.value, str)) or \
                kind not in _CONVERTS:
            continue
        if _shared(flag, table):
            return Stop(None, -1, "unknown")
        try:
            _CONVERTS[kind](default.value)
        except ValueError:
            return Stop(2, -1, "default", f"argument {_label(flag)}: invalid {kind} value: {default.value!r}",
                        option=flag.option)
    return None


_JOINED = re.compile(r"^-\w[^=\s]+(=.*)?$", re.A | re.S)


def joined(text: str, table) -> Optional[Tuple[FlagDef, str]]:
    """(switch, rest) where argparse reads a single-dash word as switches (store_true or store_false: `-bc` is -b -c)
    up to characters that begin no option (`-bx`: -b, then x): python 3.9-3.12 stop there ("argument -b: ignored
    explicit argument 'x'", status 2, parse_known_args too), 3.13.0 sets the switches and keeps `-x` as an
    unrecognized argument; up to a `-` (`-b-x`, `-bc-`), which with what follows is the last switch's value on
    every release (status 2: "ignored explicit argument '-x'", parse_known_args too) (3.9.18-3.13.0 run); None for
    another word (one that begins an option, or reads a value)."""
    if not _JOINED.match(text) or HOLE in text or matches(text, table) != [text[:2]]:
        return None
    flag, rest = table[text[:2]], text[2:]
    while rest:
        if flag.kind != "argparse" or flag.action not in ("store_true", "store_false") or rest[0] == "=" or \
                any(k.arg == "action" and not isinstance(k.value, ast.Constant) for k in flag.call.keywords):
            return None                 # (`-b=1`, `-bc=1`: not read here)
        if rest[0] == "-":
            return flag, rest
        if rest[0] == "h":
            return None                 # (`-bh`: -b, then the help option, which the table does not hold)
        if "-" + rest[0] not in table:
            return flag, rest
        flag, rest = table["-" + rest[0]], rest[1:]
    return None


def may_be_ambiguous(texts: List[str], start: int, table, abbreviates: Callable[[FlagDef], bool]) -> bool:
    """Whether a word from start on, before `--`, that the walk does not know (one that begins not known, or an
    option word whose name is not known) may be an abbreviation of two options, which argparse meets before it reads
    any word ("ambiguous option", status 2: python 3.9-3.13 sort every word first): two `--` options (--help too)
    with the same first letter where the parser abbreviates, or two single-dash options (-h too) with the same one."""
    end = texts.index("--") if "--" in texts else len(texts)
    if not any(t.startswith(HOLE) or t.startswith("-") and HOLE in t.partition("=")[0] for t in texts[start:end]):
        return False
    longs = [o for o, f in table.items() if o[:2] == "--" and len(o) > 2 and abbreviates(f)] + ["--help"]
    shorts = [o for o in table if o[:1] == "-" and o[1:2] != "-"] + ["-h"]
    return any(sum(o[:3] == p for o in longs) > 1 for p in {o[:3] for o in longs}) or \
        any(sum(o[:2] == p for o in shorts) > 1 for p in {o[:2] for o in shorts})


def _of_help(text: str) -> bool:
    """Whether argparse may read an option word that is not -h or --help as help's (an abbreviation, -h with more)."""
    option = text.partition("=")[0]
    return text[:2] == "-h" or len(option) > 2 and "--help".startswith(option)


def _extra(texts: List[str], extras: List[int]) -> Optional[Stop]:
    """The stop at the words no option reads (argparse names them all), said by the first known whole."""
    known = [k for k in extras if HOLE not in texts[k]]
    return Stop(2, known[0], "extra") if known else None


def parse_options(tree: ast.AST, flags: Iterable[FlagDef], prefix: str = "-") -> bool:
    """Whether first_stop may read a launch's words for the script's parser: each parser keeps its help option (no
    add_help= given, no conflict_handler= that lets a flag take -h or --help) and reads no word from a file (no
    fromfile_prefix_chars=); none of its own flags is positional, required or -h/--help, and none is in a mutually
    exclusive group (argparse stops on two of one group where they come). prefix: the parser's one prefix
    character (prefix_chars=), whose help option is `+h`, `++help` for "+"."""
    for n in ast.walk(tree):
        name = _name(n.func) if isinstance(n, ast.Call) else ""
        if name in _PARSER and any(k.arg in ("add_help", "fromfile_prefix_chars", "conflict_handler")
                                   for k in getattr(n, "keywords", ())) \
                or name.endswith(".add_mutually_exclusive_group"):
            return False
    for f in flags:
        if any(_NUMBER.match(str(getattr(a, "value", ""))) for a in f.call.args):
            return False                # (-1 an option: argparse reads -1.5 and the like as options too)
        first = f.call.args[0] if f.call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value[:1] == prefix) or \
                any(getattr(a, "value", None) in (prefix + "h", prefix * 2 + "help") for a in f.call.args) or \
                any(k.arg == "required" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                    for k in f.call.keywords):
            return False
    return True


def prefix_chars(tree: ast.AST) -> str:
    """The prefix_chars= of the file's ArgumentParsers ("-" for one that gives none), where they all have the same
    written string; else ""."""
    given = {next((k.value.value if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str) else ""
                   for k in n.keywords if k.arg == "prefix_chars"), "-")
             for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) in _PARSER}
    return given.pop() if len(given) == 1 else "-" if not given else ""


def as_dashed(texts: List[str], table, prefix: str) -> Optional[Tuple[List[str], dict]]:
    """The launch's words and the flag table as argparse reads them for a parser whose prefix_chars= is one character
    other than `-` (python 3.9-3.13's _parse_optional and _get_option_tuples read any prefix character as they read
    `-`; a literal `--` ends the options whatever they are): that character written `-`, and a word that begins
    with `-` as a positional (`_` before it where first_stop would read it as an option; as_written names it back in
    a message); None where a word would read otherwise (`+5`, an option word, would be
    a negative number; `++` or `++=x` abbreviates every long option) or an option does not begin with it."""
    def dashed(text: str) -> str:
        n = len(text) - len(text.lstrip(prefix))
        return "-" * n + text[n:]
    if len(prefix) != 1 or any(o[:1] != prefix or o[1:2] == "-" for o in table):
        return None
    out, view = [], {dashed(o): f for o, f in table.items()}
    for t in texts:
        if t[:1] == prefix and len(t) > 1:
            if _NUMBER.match(dashed(t)) or t.partition("=")[0] == prefix * 2:
                return None
            out.append(dashed(t))
        else:                           # (`-1`, `-a b` are read as positionals already: their values kept)
            out.append("_" + t if t != "--" and _optional(t, view) else t)
    return out, view


def as_written(why: str, texts: List[str], dashed: List[str]) -> str:
    """A first_stop reason (Stop.why) of words as_dashed changed, with the words as the launch gives them (python
    names the value `--x`, not `_--x`, in "invalid int value: '--x'")."""
    back = {repr(d): repr(t) for t, d in zip(texts, dashed) if t != d}
    return re.sub("|".join(map(re.escape, sorted(back, key=len, reverse=True))), lambda m: back[m.group()], why) \
        if back else why


def positionals_only(texts: List[str], flags: Iterable[FlagDef], tree: ast.AST, prefix: str) -> bool:
    """Whether python's argparse reads each of a launch's words (texts, all known, at least one) as a positional for
    a parser whose prefix_chars (prefix) has no `-` (a word is an option where it begins with one of them: python
    3.9-3.13's _parse_optional) and that defines only options (so takes none of them: "unrecognized arguments"),
    none required, none with a string default its type= converts (argparse converts it first), none read from a
    file (fromfile_prefix_chars=), no `--` among them."""
    if not texts or "-" in prefix or not prefix or any(HOLE in t or t[:1] in prefix or t == "--" for t in texts):
        return False
    if any(isinstance(n, ast.Call) and (_name(n.func) in _PARSER and any(
            k.arg in ("fromfile_prefix_chars", "argument_default") for k in n.keywords) or isinstance(
            n.func, ast.Attribute) and n.func.attr in ("set_defaults", "add_mutually_exclusive_group"))
           for n in ast.walk(tree)):
        return False                    # (a default set there may be a string its option's type= converts)
    for f in flags:
        first = f.call.args[0] if f.call.args else None
        kw = {k.arg: k.value for k in f.call.keywords}
        converted = "type" in kw and "default" in kw and not (
            isinstance(kw["default"], ast.Constant) and not isinstance(kw["default"].value, str))
        if f.kind != "argparse" or not (isinstance(first, ast.Constant) and isinstance(first.value, str) and
                                        first.value[:1] in prefix) or "required" in kw or converted:
            return False
    return True


_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.IfExp, ast.BoolOp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


def conditional(tree: ast.AST, flags: Iterable[FlagDef]) -> dict:
    """{id(call): line} of the flags whose add_argument may not run before the script's parse_args: under an `if`
    (not `if __name__ == "__main__":`), a loop, a `try` or a conditional expression, in its own code or, in a function
    of the file that does not parse, where that function is called (or where it is never called by name); line: that
    statement's (-1 where several or not known). Python's argparse reads a launch's words without the options it
    does not add."""
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    calls: dict = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            calls.setdefault(_name(n.func).rsplit(".", 1)[-1], []).append(n)
    parsing = set()                     # id() of the functions that call parse_args (or parse_known_args)
    for n in calls.get("parse_args", []) + calls.get("parse_known_args", []):
        p = parents.get(id(n))
        while p is not None and not isinstance(p, _SCOPES):
            p = parents.get(id(p))
        parsing.add(id(p))

    def branch(node, depth: int) -> Optional[int]:
        """The line of the statement that may keep node from running, 0 where none does."""
        p = parents.get(id(node))
        while p is not None and not isinstance(p, _SCOPES):
            if isinstance(p, _BRANCHES) and not (isinstance(p, ast.If) and _main_test(p.test)):
                return p.lineno
            p = parents.get(id(p))
        if not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return 0 if isinstance(p, ast.Module) or p is None else -1
        if id(p) in parsing:
            return 0                    # (whenever it parses, it has added them)
        lines = {branch(c, depth + 1) for c in calls.get(p.name, ())} if depth < 3 else {-1}
        return -1 if not lines or -1 in lines or len(lines) > 1 else lines.pop()

    out = {}
    for f in flags:
        line = branch(f.call, 0)
        if line:
            out[id(f.call)] = line
    return out


def unparsed(tree: ast.AST, flags: Iterable[FlagDef]) -> set:
    """id(call) of the flags added to a parser the file makes (`other = argparse.ArgumentParser()`, or a group of it)
    and never calls parse_args (or parse_known_args) on: python's parse_args of the other parser does not read them (a
    word of theirs is unrecognized there)."""
    made, parsed, groups = set(), set(), {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
            call = _name(n.value.func)
            for t in n.targets:
                if call in _PARSER:
                    made.add(_name(t))
                elif call.rsplit(".", 1)[-1] in _GROUPS:
                    groups[_name(t)] = call.rsplit(".", 1)[0]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("parse_args",
                                                                                            "parse_known_args"):
            parsed.add(_name(n.func.value))
    idle = made - parsed - {""}
    return {id(f.call) for f in flags if isinstance(f.call.func, ast.Attribute) and
            (_name(f.call.func.value) in idle or groups.get(_name(f.call.func.value)) in idle)}


def _label(flag: FlagDef) -> str:
    """The option as argparse's messages name it: its option strings joined by `/` (`-s/--size`)."""
    return "/".join(str(getattr(a, "value", "")) for a in flag.call.args if isinstance(a, ast.Constant))


def _optional(text: str, table) -> bool:
    """Whether argparse reads a word as an option (its _parse_optional), not as a value, for a parser with no option
    that looks like a negative number."""
    if len(text) < 2 or text[0] != "-" or text.partition("=")[0] in table:
        return len(text) > 1 and text[0] == "-"
    return not _NUMBER.match(text) and " " not in text


def _rejected(flag: FlagDef, kw: dict, values: List[str]) -> Optional[str]:
    """argparse's error on the values given to a store option: its type= (int, float or str, a builtin's name) and
    its choices= (a list or tuple of constants) checked; "" where it takes them, None where that is not known here."""
    kind = getattr(flag.type_node, "id", None) if flag.type_node is not None else "str"
    if kind not in ("str", "int", "float"):
        return None
    listed = choices_of(flag)
    if listed is UNREAD:
        return None
    if any(HOLE in v for v in values) and (kind != "str" or listed is not None):
        return None
    for v in values:
        out: object = v
        if kind != "str":
            try:
                out = _CONVERTS[kind](v)
            except ValueError:
                return f"invalid {kind} value: '{v}'"
        try:
            if listed is not None and out not in listed:    # type: ignore[operator]
                return f"invalid choice: {out!r}"       # (the converted value: `invalid choice: 3` for type=int)
        except TypeError:               # (`1 in "ab"`: python raises it out of parse_args: not followed)
            return None
    return ""


def _only_read(n: ast.Name, parent: Optional[ast.AST]) -> bool:
    """Whether a use of a name only reads what it holds: a choices=, a comparison, what a loop runs through (each
    element a constant). Any other (a method called on it, handed to a function, a default, put in a list or another
    name: `N = M; N.append("c")`) may change it."""
    return isinstance(parent, ast.keyword) and parent.arg == "choices" or isinstance(parent, ast.Compare) or \
        isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is n


def choices_node(flag: FlagDef) -> Optional[ast.AST]:
    """The node of a flag's choices= as python checks a value against it: as written, or for a name, the literal
    list, tuple or set of constants its module binds it to, once, at its top level, before the flag is defined,
    where nothing else in the module may change it (no other binding, `global`, `del`, parameter, def, class or import
    of that name, no star import, no attribute of that name; each use only read: _only_read; `globals()`, `vars()`,
    `setattr` nowhere). None where the flag gives no choices=; else the written node (a name not read so, a call),
    which ast.literal_eval refuses."""
    node = next((k.value for k in flag.call.keywords if k.arg == "choices"), None)
    scope = flag.scope
    if not isinstance(node, ast.Name) or scope is None:
        return node
    while scope.parent is not None:
        scope = scope.parent
    tree, name = scope.node, node.id
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    bound = None
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id == name:
            parent = parents.get(id(n))
            if isinstance(n.ctx, ast.Store) and bound is None and isinstance(parent, ast.Assign) and \
                    parent.targets == [n] and parents.get(id(parent)) is tree and parent.lineno < flag.call.lineno:
                bound = parent.value
            elif not isinstance(n.ctx, ast.Load) or not _only_read(n, parent):
                return node
        elif isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names or \
                isinstance(n, ast.alias) and (n.name == "*" or name in (n.name, n.asname)) or \
                isinstance(n, ast.arg) and n.arg == name \
                or isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name \
                or isinstance(n, ast.Attribute) and n.attr == name \
                or isinstance(n, ast.Call) and _name(n.func) in ("globals", "vars", "setattr", "exec", "eval"):
            return node
        elif isinstance(n, ast.keyword) and n.value is not node and isinstance(n.value, ast.Name) and \
                n.value.id == name and n.arg != "choices":
            return node                 # (handed to a function by keyword)
    if isinstance(bound, (ast.List, ast.Tuple, ast.Set)) and all(isinstance(e, ast.Constant) for e in bound.elts):
        return bound
    return node


UNREAD = object()                       # (choices_of: a choices= not read here)


def choices_of(flag: FlagDef) -> object:
    """What python checks a value of the flag against (`value not in action.choices`): the list, tuple or set
    choices_node reads, or a range() of whole numbers; None where the flag gives no choices=, UNREAD where
    they are not read here."""
    node = choices_node(flag)
    if node is None:
        return None
    if not _discarded(flag):
        return UNREAD
    if isinstance(node, ast.Call) and _name(node.func) == "range" and not node.keywords and 1 <= len(node.args) <= 3 \
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args):
        return range(*(getattr(a, "value", 0) for a in node.args))
    try:
        found = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return UNREAD
    return found if isinstance(found, (list, tuple, set, frozenset)) else UNREAD    # (a str: not followed)


# attributes through which code reaches an Action's choices (`act.choices.append(x)`, `for act in parser._actions`)
ACTION_ATTRS = frozenset(("choices", "_actions", "_group_actions", "_option_string_actions"))


def _discarded(flag: FlagDef) -> bool:
    """Whether a flag's add_argument call is a statement of its own, in a module that reaches no Action's choices
    (ACTION_ATTRS): where the Action it returns is kept, or found again, its choices may be changed through it
    (`a = p.add_argument("--lvl", choices=["x"])` then `a.choices.append("y")`, or `for act in p._actions: if
    act.dest == "lvl": act.choices.append("y")`: python 3.11.7 takes `--lvl y`)."""
    scope, call = getattr(flag, "scope", None), flag.call
    if scope is None:
        return True             # (a definition read alone, as tests/test_argparse_stops.py builds them)
    while scope.parent is not None:
        scope = scope.parent
    reached, alone = _action_scan(scope.node)
    return not reached and (call.lineno, call.col_offset, call.end_lineno, call.end_col_offset) in alone


# each module's _action_scan, by its tree, kept while the tree lives (the project cache bounds the trees: a
# dictionary of its own held 8 of them past that bound)
_action_scans: "weakref.WeakKeyDictionary[ast.AST, Tuple[bool, FrozenSet[Tuple[Any, ...]]]]" = \
    weakref.WeakKeyDictionary()


def _action_scan(tree: ast.AST) -> Tuple[bool, FrozenSet[Tuple[Any, ...]]]:
    """(whether the module reaches an Action's choices, where each call that is a statement of its own is), once a
    module: _discarded is asked for each option given a value (300 options walked the module 300 times)."""
    kept = _action_scans.get(tree)
    if kept is not None:
        return kept
    called, alone, reached = set(), set(), False
    for n in ast.walk(tree):                # (breadth first: a call before its func)
        if isinstance(n, ast.Call):
            called.add(id(n.func))
        elif isinstance(n, ast.Attribute) and n.attr in ACTION_ATTRS and id(n) not in called:
            reached = True      # (not `random.choices(x)`)
            break
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call):
            v = n.value
            alone.add((v.lineno, v.col_offset, v.end_lineno, v.end_col_offset))
    kept = _action_scans[tree] = (reached, frozenset(alone))
    return kept


def option_of(text: str, table, abbreviates: Callable[[FlagDef], bool]) -> FlagDef:
    """The flag first_stop read an option word as: the one its part before `=` names, or else begins."""
    return table.get(text.partition("=")[0]) or read_as(text, table, abbreviates)[0]


def flag_key(flag: FlagDef) -> tuple:
    """The flag's definition wherever its file is parsed again (emulate reads the script in more than one tree)."""
    call = flag.call
    return flag.dest, call.lineno, call.col_offset, getattr(call, "end_lineno", 0), getattr(call, "end_col_offset", 0)


def _name(node) -> str:
    from ..source.site_records import dotted
    return dotted(node) or ""
