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
from typing import Callable, Iterable, List, Optional

from .flag_def import FlagDef
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


def unrecognized(text: str) -> bool:
    """Whether argparse reads a word no option matches as an option (so an unrecognized argument), not as a
    positional: not a negative number, no space in it, not `-`, not the help option's (-h, --h...)."""
    return len(text) > 1 and text[0] == "-" and not _NUMBER.match(text) and " " not in text and \
        not text.startswith("-h") and not (len(text.partition("=")[0]) > 2 and "--help".startswith(
            text.partition("=")[0]))


def option_word(text: str, table) -> bool:
    """Whether argparse reads the word after an option that takes one value as an option, so not as its value (python
    3.9-3.13's _parse_optional: a word that begins with `-` other than `-` itself, a negative number where the parser
    has no option like one, or a word with a space in it; `--` too): the option is then given none."""
    if HOLE in text or len(text) < 2 or text[0] != "-":
        return False
    if _NUMBER.match(text):
        return any(_NUMBER.match(o) for o in table)
    return " " not in text or text.startswith("--") and text.partition("=")[0] in table


def takes_one(flag: FlagDef) -> bool:
    """Whether an argparse flag takes exactly one word (no nargs, its action stores or appends it), so that given
    without one it stops parse_args ("expected one argument")."""
    keywords = {k.arg: k.value for k in flag.call.keywords}
    action = keywords.get("action")
    return flag.kind == "argparse" and None not in keywords and "nargs" not in keywords and (
        action is None or isinstance(action, ast.Constant) and action.value in ("store", "append", "extend"))


def sure_to_stop(resolver, table, own: Iterable[FlagDef]) -> Optional[ast.keyword]:
    """Whether parse_args surely meets every word of a launch that its table does not read: None where it may not
    (see the module's doc), else the exit_on_error= keyword given to a parser (an empty keyword: none)."""
    mine = {id(f.call) for f in own}
    if not mine or any(id(f.call) not in mine or f.kind != "argparse" for f in table.values()):
        return None                     # flags another module (or absl) defines: its parser is not read here
    if _ARGV_WRITE.search(resolver.src.text) or resolver.parse_try():
        return None
    receivers, parsed, own_functions = set(), set(), set()
    nodes = list(ast.walk(resolver.tree))
    for n in nodes:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own_functions.add(n.name)
        elif isinstance(n, ast.ClassDef) and any(_name(b).endswith("ArgumentParser") for b in n.bases):
            return None
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            name = n.func.attr
            if name in ("parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args",
                        "add_subparsers") or name == "parse_args" and (n.args or n.keywords):
                return None
            if name == "parse_args":
                parsed.add(_name(n.func.value))
            if name == "add_argument":
                nargs = next((k.value for k in n.keywords if k.arg == "nargs"), None)
                if any(not (isinstance(a, ast.Constant) and isinstance(a.value, str)) for a in n.args) or \
                        any(k.arg is None for k in n.keywords) or nargs is not None and not (
                            isinstance(nargs, ast.Constant) and (nargs.value in _NARGS or type(nargs.value) is int)):
                    return None         # an option whose name is not written out, or one that takes any word
                receivers.add(_name(n.func.value))
    if not parsed or "" in parsed:
        return None
    exit_on_error = ast.keyword(arg=None, value=ast.Constant(True))
    for n in nodes:
        if not isinstance(n, ast.Call):
            continue
        name = _name(n.func)
        if name in _PARSER:
            if any(k.arg in (None, "parents", "prefix_chars") for k in n.keywords) or len(n.args) > 4:
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


def flag_key(flag: FlagDef) -> tuple:
    """The flag's definition wherever its file is parsed again (emulate reads the script in more than one tree)."""
    call = flag.call
    return flag.dest, call.lineno, call.col_offset, getattr(call, "end_lineno", 0), getattr(call, "end_col_offset", 0)


def _name(node) -> str:
    from ..source.site_records import dotted
    return dotted(node) or ""
