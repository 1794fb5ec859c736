"""A launch's script analysed with the flags the launch passes: the script's flag table (its own argparse / absl
definitions, or a sibling module's through values/project.py), the launch's words bound to it as the parser will
read them, and the script's setups with the `if`s those flags decide. check (shell_launches.py, launcher_switch.py,
msprof_args.py) and emulate read the same LaunchSetup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple

from ..shell.launches import Launch, passer
from ..shell.parse import without_redirections
from ..source.files import rel_path
from ..source.text import HOLE, SourceText
from ..values.launch_args import Given, OPEN, Passed, Word
from ..values.resolve import FlagDef

if TYPE_CHECKING:
    from ..setups.inventory import OrderWhenAsked
    from .analysis import Context


# ---------------------------------------------------------------- the script's flags


def flag_table(ctx) -> Dict[str, FlagDef]:
    """Option string -> FlagDef for every flag the script (or a module it imports) defines."""
    import ast as _ast
    flags = list(ctx.resolver.flags)
    from ..values.project import for_file
    lookup = for_file(ctx.filename, ctx.tree)
    table: Dict[str, FlagDef] = {}
    if lookup is not None:
        from ..values.yaml_config import yaml_flags
        for module in lookup.imported_modules():
            if module.may_define_flags:         # else it defines none, and is not indexed to learn that
                flags.extend(module.resolver.flags)
                # mindspore-ai/models' config.py: a flag for each key of the YAML this launch makes it read
                table.update((o, f) for o, f in yaml_flags(module, ctx.resolver.given) if o not in table)
    starts = "-"
    if "prefix_chars" in ctx.src.text:  # (prefix_chars="+": `++prof` is an option, `--prof` a positional's name)
        from ..values.argv_words import prefix_chars
        starts = prefix_chars(ctx.tree) if len(prefix_chars(ctx.tree)) == 1 else "-"
    for f in flags:
        if f.kind == "absl":
            table.setdefault(f"--{f.dest}", f)
            table.setdefault(f"-{f.dest}", f)
            if f.py_type is bool:
                table.setdefault(f"--no{f.dest}", f)
                table.setdefault(f"-no{f.dest}", f)
        else:
            for a in f.call.args:
                if isinstance(a, _ast.Constant) and isinstance(a.value, str) and a.value[:1] and \
                        a.value[0] in starts:
                    table.setdefault(a.value, f)
    return table


def bind(launch: Launch, table: Dict[str, FlagDef], root: str,
         abbreviates=lambda flag: True) -> Tuple[Dict[str, Given], List[Word]]:
    """The launch's words bound to the script's flags: ({dest: Given}, words of options it does not define);
    abbreviates(flag): whether the flag's parser takes a `--` word's abbreviation (values/argv_words.py)."""
    from ..values.argv_words import option_word, read_as
    given = Passed()
    given.by = passer(launch.command)
    unknown: List[Word] = []
    words = [w for w in without_redirections(launch.args)]
    k = 0
    where = f"{rel_path(launch.command.path, root)}:{launch.command.line}"
    converted: Dict[str, Given] = {}    # a flag given more than once whose type= converts each value (below)
    # (prefix_chars="+": `++prof` is an option word as `--prof` is; `+x` is one where the parser has such options)
    plus = {o[0] for o, f in table.items() if o[:1] not in ("-", "") and f.kind == "argparse"}
    while k < len(words):
        w = words[k]
        text = w.text
        k += 1
        if text == "--":
            break
        if not w.known and text.startswith(HOLE):
            # `"$@"`, `$EXTRA_ARGS`: more flags may come from the caller, so a flag not seen is not its default
            given.setdefault(OPEN, Given(w.value.text, HOLE, w, None, where))
            continue
        if not (text.startswith("-") or text[:1] in plus) or not w.known and "=" not in text:
            continue
        option, eq, value = text.partition("=")
        flag = table.get(option)
        if flag is None:
            unknown.append(w)
            # python 3.11 argparse reads `--pro` as the one option it begins (allow_abbrev, the default), `-pro` as
            # the one the whole word begins or `-p` with `ro` its value, and stops the script when several match:
            # which, with the parser's other options, is not settled here (values/argv_words.py)
            for f in read_as(text, table, abbreviates):
                given.abbreviated.setdefault(f.dest, Given(option, value if eq else None, w, w if eq else None,
                                                           where))
            continue
        takes_value = not (flag.kind == "argparse" and flag.action in ("store_true", "store_false")) and \
            not (flag.kind == "absl" and flag.py_type is bool)
        if _nargs(flag):
            given[flag.dest] = Given(option, HOLE, w, None, where)     # lists: not followed
            continue
        if flag.dest in given and _may_reject(flag, given[flag.dest].text):
            converted.setdefault(flag.dest, Given(option, HOLE, w, None, where))
        if eq:
            given[flag.dest] = Given(option, value, w, w, where)
        elif takes_value and k < len(words) and not (
                flag.kind == "argparse" and (option_word(words[k].text, table, abbreviates) or _plus_option(
                    words[k].text, plus, table))):
            given[flag.dest] = Given(option, words[k].text, w, words[k], where)
            k += 1
        elif flag.kind == "absl" and flag.py_type is bool:
            given[flag.dest] = Given(option, "false" if option.lstrip("-").startswith("no") and
                                     option.lstrip("-") != flag.dest else "true", w, None, where)
        else:
            given[flag.dest] = Given(option, None, w, None, where)
    # argparse converts each value given, and stops the script on the first its type rejects, so the last value is
    # not all (python 3.11: `--prof maybe --prof yes` with type=str2bool exits with status 2): not followed
    given.update(converted)
    return given, unknown


def _plus_option(text: str, plus, table) -> bool:
    """Whether argparse reads a word after an option as an option of a parser whose prefix_chars= holds one of plus
    (other than `-`): it begins with one, and is more than that one character, with no blank (or is an option)."""
    return len(text) > 1 and text[0] in plus and HOLE not in text and (
        " " not in text or text.partition("=")[0] in table)


def _may_reject(flag, text: Optional[str]) -> bool:
    """Whether argparse's conversion of the flag's value may reject this text: a type other than str, unless int or
    float takes it."""
    node = flag.type_node
    kind = getattr(node, "id", None)
    if flag.kind != "argparse" or node is None or kind == "str":
        return False
    if kind in ("int", "float") and text is not None and HOLE not in text:
        try:
            (int if kind == "int" else float)(text)
            return False
        except ValueError:
            return True
    return True


def _nargs(flag) -> bool:
    return flag.kind == "argparse" and any(k.arg == "nargs" for k in flag.call.keywords)


def _by(given) -> str:
    """Who passes the launch its flags: "the launcher", or "the command as typed" (values/launch_args.Passed)."""
    return getattr(given, "by", Passed.by)


# ---------------------------------------------------------------- one launch, as emulate and check see it

class Trap(NamedTuple):
    """A flag given as "False" that the script reads as a non-empty, so true, string (NPP205 in a launch)."""

    given: Given
    guard: str                  # the condition it makes hold: `args.profiling`

    def said(self, script: str = "the script") -> str:
        g = self.given
        return (f"{g.option}={g.text} reaches {script} as the non-empty string {g.text!r}, which is true: "
                f"`{self.guard}` holds and profiling is switched on")


class LaunchSetup(NamedTuple):
    """A launch with its script's setups as they are for these flags and this environment."""
    launch: Launch
    ctx: Context                # the script's, its resolver bound to the flags
    given: Dict[str, Given]
    unknown: List[Word]
    setups: list                # inventory.ScriptSetup, guards on the flags decided
    inits: list
    order: OrderWhenAsked
    decided: List[str]          # how flags decided the script's conditions, for messages
    traps: List[Trap]           # flags given "False" that the script reads as true


def prepare(launch: Launch, target, root: str) -> Optional[LaunchSetup]:
    """The script of a launch analysed with the flags the launch passes (None: it cannot be read)."""
    import ast
    from .analysis import Context, Settings
    from ..source.files import ReadError, read_source
    from ..setups.inventory import Inventory
    from ..source.prefilter import words_over_budget
    try:
        source = read_source(launch.script)
        if words_over_budget(source.text):
            return None                     # over the work budget: checking it says so (NPP191)
        tree = ast.parse(source.text, launch.script)
    except (ReadError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    ctx = Context(SourceText(source.text), tree, launch.script, Settings(target=target, cwd=launch.command.cwd[0]))
    table = flag_table(ctx)
    abbreviates = _abbreviates(ctx)
    given, unknown = bind(launch, table, root, abbreviates)
    cmd = launch.command            # (values/yaml_config.py reads these: a relative --config_path, unbound words)
    given.cwd = cmd.cwd[0] if len(cmd.cwd) == 1 and cmd.settled else None   # type: ignore[attr-defined]
    given.unbound = tuple(w.text for w in unknown)     # type: ignore[attr-defined]
    if "config_path" in given:          # a YAML of mindspore-ai/models' config.py other than its default: its keys
        ctx.resolver.given = given
        table = flag_table(ctx)
        again, unknown = bind(launch, table, root, abbreviates)
        again.cwd, again.unbound = given.cwd, tuple(w.text for w in unknown)    # type: ignore[attr-defined]
        given = again
    where = f"{rel_path(launch.command.path, root)}:{launch.command.line}"
    _split_word(ctx, launch, given, where)
    if not getattr(given, "stop", ""):
        _stop_in_parse_args(ctx, launch, table, given, unknown, abbreviates, where)
    if not getattr(given, "stop", ""):
        _extra_after_computed(ctx, launch, table, given, where)
    if not getattr(given, "stop", ""):
        _computed_word(ctx, launch, table, given, abbreviates, where)
    if not getattr(given, "stop", ""):
        _computed_word_loosely(ctx, launch, table, given, where)
    if not getattr(given, "stop", ""):
        _unread_choices(ctx, given)
    if not getattr(given, "stop", "") and "-" in _prefix(ctx):
        from ..values.argv_words import unparsed
        idle = unparsed(ctx.tree, ctx.resolver.flags)
        _unfollowed(ctx, [w.text for w in without_redirections(launch.args)],
                    {o: f for o, f in table.items() if id(f.call) not in idle}, given, abbreviates, where)
    ctx.resolver.given = given
    inventory = Inventory(ctx)
    setups, decided, traps = [], [], []
    for s in inventory.setups:
        s, why, trap = decide(ctx, s, given)
        setups.append(s)
        decided.extend(why)
        traps.extend(trap)
    setups = [_replaced(ctx, s, setups) for s in setups]
    return LaunchSetup(launch, ctx, given, unknown, setups, inventory.inits, inventory.order, decided, traps)


def _prefix(ctx) -> str:
    """The prefix_chars= of the script's parsers ("-" where none is given; "" where they differ)."""
    from ..values.argv_words import prefix_chars
    return prefix_chars(ctx.tree) if "prefix_chars" in ctx.src.text else "-"


def _abbreviates(ctx):
    """Whether a flag's parser takes a `--` word's abbreviation: not the script's own flags where each parser it makes
    says allow_abbrev=False."""
    from ..values.argv_words import no_abbreviation
    if "allow_abbrev" not in ctx.src.text or not no_abbreviation(ctx.tree):
        return lambda flag: True
    own = {id(f.call) for f in ctx.resolver.flags}
    return lambda flag: id(flag.call) not in own


def _stop_in_parse_args(ctx, launch, table, given, unknown, abbreviates, where: str) -> None:
    """Where parse_args surely stops the script on the launch's words (values/argv_words.first_stop, held to python
    3.9-3.13 by tests/data/argparse_runs.json): why, kept on given for each read of its own flags (given_values); the
    first stop argparse meets is said, over the flags' own (given.stop_first). A closing `--` leaves it to the python
    release (given.unsure)."""
    import ast
    from ..values.argv_words import as_dashed, as_written, conditional, first_stop, flag_key, may_be_ambiguous, \
        parse_options, prefix_chars, read_as, unparsed, unrecognized
    words = list(without_redirections(launch.args))
    flags = ctx.resolver.flags
    prefix = prefix_chars(ctx.tree) if "prefix_chars" in ctx.src.text else "-"
    texts, view = [w.text for w in words], table
    if len(prefix) > 1 and "-" in prefix:
        # prefix_chars="-+": python 3.9-3.13 read words and options that begin with `-` as they do for "-" (its help
        # option -h, --help); a word or an option that begins with another of them is not followed here
        others = prefix.replace("-", "")
        if any(t[:1] in others for t in texts) or any(o[:1] in others for o in _own_options(ctx)):
            return _not_followed(ctx, given, prefix, where)
        ctx.dashed_words = True
    if prefix and "-" not in prefix:    # (options that begin otherwise: a word that begins with `-` is none)
        _stop_on_positional(ctx, table, given, words, where)
        if given.stop or not words:
            return
        read = as_dashed(texts, table, prefix)
        through = first_stop(read[0], read[1], abbreviates, holes=True) if read is not None and parse_options(
            ctx.tree, flags, prefix) and not unparsed(ctx.tree, flags) and not conditional(ctx.tree, flags) else None
        if through is None or read is None or any(t[:2] == "--" and t.partition("=")[0] not in read[1] and read_as(
                t, read[1], abbreviates) for t in read[0]):   # (bind reads `-` words' abbreviations alone: `++pro`)
            return _not_followed(ctx, given, prefix, where)
        if through.kind in ("through", "hole"):
            return                      # (a word the launcher computes: _computed_word)
        texts, view = read
    idle = unparsed(ctx.tree, flags)        # (another parser's: its words are unrecognized where it is not parsed)
    note = ""
    for w in words if view is table else ():    # (a flag's own stop, said where its word is read: launch_args.py)
        if w.text == "--":
            break
        given.exits_before[id(w)] = note
        note = note or _exits_first([w], table, abbreviates, where)
    readable = bool(words and flags) and parse_options(ctx.tree, flags, prefix if view is not table else "-")
    stop = first_stop(texts, {o: f for o, f in view.items() if id(f.call) not in idle}, abbreviates) \
        if readable else None
    if stop is not None and view is not table:
        stop = stop._replace(why=as_written(stop.why, [w.text for w in words], texts))
    cond = conditional(ctx.tree, flags) if readable else {}
    if stop is None and readable and view is table and not cond:
        _unfollowed(ctx, texts, {o: f for o, f in table.items() if id(f.call) not in idle}, given, abbreviates, where)
        if given.stop:
            return
    if stop is None and cond:
        _stop_in_parse_args_without(ctx, table, given, unknown, abbreviates, where, idle, words, cond)
        return
    other, names = None, ""
    if stop is not None and cond:   # (options added under an `if`: read without them too, where one test adds all)
        other = first_stop([w.text for w in words], {o: f for o, f in table.items() if id(f.call) not in idle and
                                                     id(f.call) not in cond}, abbreviates)
        names = ", ".join(sorted(o for o, f in table.items() if id(f.call) in cond))
        # (a reading with them that depends on the python release, `--n 3 --prof --`, stays said where the other
        # surely stops: not known either way)
        if len(set(cond.values())) > 1 or -1 in cond.values() or stop.status is None and other is None or \
                other is not None and other.status is None:
            stop = other = None
    # (parse_known_args() stops where parse_args() stops while reading the words, not on those no option reads)
    exit_on_error = _sure_to_stop(ctx, table, flags, known=stop.kind in _WHILE_READING and (
        other is None or other.kind in _WHILE_READING), prefixed=view is not table) if stop is not None else None
    # (an option word the script does not define: _stop_on_unrecognized says it, with what passes it; not `-1`, which
    # argparse reads as a positional, nor an abbreviation, as first_stop does)
    named = [w for w in unknown if HOLE not in w.text.partition("=")[0] and unrecognized(w.text) and
             not read_as(w.text, table, abbreviates)]
    if stop is None or exit_on_error is None or stop.kind == "extra" and named and view is table:
        if view is table:
            _stop_on_unrecognized(ctx, table, given, unknown, abbreviates, where, idle, words)
        return
    value = exit_on_error.value
    off = exit_on_error.arg and not (isinstance(value, ast.Constant) and value.value is True)
    if off and (stop.status != 0 or other is not None and other.status != 0) or stop.status == 1 and any(
            isinstance(n, ast.Attribute) and n.attr == "version" and isinstance(n.ctx, ast.Store)
            for n in ast.walk(ctx.tree)):   # (`parser.version = ...`: the version action prints it)
        return _stop_on_unrecognized(ctx, table, given, unknown, abbreviates, where, idle, words)  # (ArgumentError)
    why = _said(ctx, stop, words, table, where, prefix, abbreviates)
    line = min(cond.values()) if cond else 0
    if other is not None and other != stop:     # (options added under an `if`: both readings stop the script)
        why += f" (where the statement on line {line} adds {names}; else " \
            f"{_said(ctx, other, words, table, where, prefix, abbreviates)})"
    head = f"argparse stops the script in {_method(ctx.tree)}: "
    if cond and other is None:                  # (without them argparse may read the words through)
        why = f"the statement on line {line} adds {names} only where its test holds, which is not decided here; " \
            f"where it does, {head}{why}"
    given.unsure = stop.status is None or bool(cond) and other is None
    at = min(stop.at, other.at) if other is not None else stop.at
    if at >= 0 and may_be_ambiguous(texts, at + 1, view, abbreviates):
        why += f"; unless a word from {where} not known here is an abbreviation of two options, which argparse " \
            "meets before it reads any word (\"ambiguous option\", status 2)"
    given.stop = why if given.unsure else head + why
    given.stop_first = True
    given.stop_calls = frozenset(flag_key(f) for f in flags)


_WHILE_READING = ("help", "version", "value", "raises", "default")


def _sure_to_stop(ctx, table, flags, known: bool = False, prefixed: bool = False):
    """argv_words.sure_to_stop, for a parser whose prefix_chars= (of several characters, one `-`) _stop_in_parse_args
    found read as "-" (ctx.dashed_words) too."""
    from ..values.argv_words import sure_to_stop
    return sure_to_stop(ctx.resolver, table, flags, known=known,
                        prefixed=prefixed or getattr(ctx, "dashed_words", False))


def _own_options(ctx) -> List[str]:
    """The option strings of the script's own argparse flags, as written."""
    import ast
    return [a.value for f in ctx.resolver.flags if f.kind == "argparse" for a in f.call.args
            if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _computed_word(ctx, launch, table, given, abbreviates, where: str) -> None:
    """Where argparse reads the launch's words through without a stop up to one not known here that it meets where
    it reads an option (no option before it takes it: argv_words.first_stop's "hole"), and that word is what the
    launcher computes (a command's output: shell/expand.COMPUTED), not what its caller gives: python 3.9-3.13's
    parse_args read it as the script's options, or as nothing (an unquoted expansion of nothing), or else as an
    argument the script does not take ("unrecognized arguments", status 2), which is not known here (given.unsure).
    The caller's words (`"$@"`, its environment) stay read as the options the caller may give."""
    import ast
    import os
    from ..shell.expand import COMPUTED
    from ..values.argv_words import as_dashed, first_stop, flag_key, parse_options, prefix_chars, sure_to_stop, \
        takes_one, unparsed, _rejected
    words = list(without_redirections(launch.args))
    flags = ctx.resolver.flags
    if not flags or not any(w.value.origin == COMPUTED for w in words):
        return
    prefix = prefix_chars(ctx.tree) if "prefix_chars" in ctx.src.text else "-"
    read = ([w.text for w in words], table) if prefix == "-" else \
        as_dashed([w.text for w in words], table, prefix) if len(prefix) == 1 else None
    if read is None or not parse_options(ctx.tree, flags, prefix):
        return
    idle = unparsed(ctx.tree, flags)
    stop = first_stop(read[0], {o: f for o, f in read[1].items() if id(f.call) not in idle}, abbreviates, holes=True)
    if stop is None or stop.kind != "hole":
        return
    span = words[stop.at:max(stop.end, stop.at + 1)]
    if not any(w.value.origin == COMPUTED and HOLE in w.text for w in span):
        return
    option = words[stop.at].text.partition("=")[0]
    valued = len(span) > 1 or HOLE not in option        # (the value of an option its type= or choices= may refuse)
    exit_on_error = sure_to_stop(ctx.resolver, table, flags, known=valued, prefixed=prefix != "-")
    if exit_on_error is None:
        return                          # (parse_known_args leaves a word no option reads aside; a parser not read)
    w = next(w for w in span if w.value.origin == COMPUTED and HOLE in w.text)
    script = os.path.basename(ctx.filename)
    method, then = _method(ctx.tree), _raised_instead(exit_on_error)
    computed = f"{'the value of ' if w is words[stop.at] and HOLE not in option else ''}" \
        f"{_computed_said(launch, w, where)}"
    if valued:
        flag = table.get(option)
        nargs = next((k.value.value for k in flag.call.keywords if k.arg == "nargs" and isinstance(
            k.value, ast.Constant) and type(k.value.value) is int), None) if flag is not None else None
        plain = flag is not None and takes_one(flag) and len(span) > 1 and _rejected(
            flag, {k.arg: k.value for k in flag.call.keywords}, [HOLE]) == ""
        given.stop = _given_to(computed, option, "" if plain else f"its {f'nargs={nargs}, ' if nargs else ''}"
                               "type= or choices=", len(span) > 1, method, then)
    else:
        given.stop = f"{computed}, which argparse reads as {script}'s options (or as no word, where it is empty and " \
            f"not quoted); where it is anything else, argparse stops the script in {method}: {script} defines no " \
            f"positional argument, so argparse exits with status 2 (\"error: unrecognized arguments\"){then}"
    given.unsure = True
    given.stop_calls = frozenset(flag_key(f) for f in flags)


def _computed_word_loosely(ctx, launch, table, given, where: str) -> None:
    """_computed_word for a parser first_stop does not read (a positional argument, add_help=False, prefix_chars of
    several characters, parse_known_args): a word the launcher computes (shell/expand.COMPUTED), before any `--`,
    that no option before it takes as its value (each word before it known) is read by python 3.9-3.13's argparse as
    an option or a positional argument, where it may be an option the script does not define or a word no positional
    takes (parse_args: status 2), the help option (status 0), an option that needs a value it is not given, or the
    script's own options, or nothing: which is not known here (given.unsure)."""
    import os
    from ..shell.expand import COMPUTED
    from ..values.argv_words import flag_key, sure_to_stop, takes_one, _rejected
    words = list(without_redirections(launch.args))
    flags = ctx.resolver.flags
    if not flags or not any(w.value.origin == COMPUTED for w in words) or \
            sure_to_stop(ctx.resolver, table, flags, known=True, prefixed=True) is None:
        return
    k, valued, after, refusal = 0, "", False, ""

    while k < len(words):
        w = words[k]
        if w.text == "--":
            # (the words after it are positionals: python 3.9.18-3.13.0 exit with status 2 on one no positional
            # takes, parse_args; none after it, on the `--` itself, for add_help=False too: argparse_runs.json)
            w = next((x for x in words[k + 1:] if HOLE in x.text), w)
            if w.text == "--" or w.value.origin != COMPUTED or \
                    sure_to_stop(ctx.resolver, table, flags, prefixed=True) is None:
                return
            after = True
            break
        if HOLE in w.text:
            if w.value.origin != COMPUTED or not w.text.startswith(HOLE):
                return                  # (the caller's words: read as the options it may give)
            break
        flag = table.get(w.text)
        if flag is not None and flag.kind == "argparse" and takes_one(flag) and k + 1 < len(words):
            nxt = words[k + 1]
            if nxt.value.origin == COMPUTED and nxt.text.startswith(HOLE):
                # (its type= or choices= may refuse what the launcher computes: python 3.9.18-3.13.0 stop on `--m 1`
                # for choices=["a", "b"], prefix_chars="-+"; or it is no word, several, or an option word)
                w, valued = nxt, w.text
                if _rejected(flag, {a.arg: a.value for a in flag.call.keywords}, [HOLE]) is None:
                    refusal = "its type= or choices="
                break
            k += 1                      # (its value, whatever it is: a word not known here too)
        elif flag is not None and flag.kind == "argparse" and flag.action not in ("store_true", "store_false",
                                                                                   "store_const", "count"):
            return                      # (nargs=, append_const and the like: not followed here)
        k += 1
    else:
        return
    script = os.path.basename(ctx.filename)
    computed = _computed_said(launch, w, where)
    if valued:
        given.stop = _given_to(computed, valued, refusal, True, _method(ctx.tree))
    elif after:
        given.stop = f"{computed}, after --, which argparse reads as a positional argument: where it is a word no " \
            f"positional argument of {script} takes, argparse stops the script in parse_args (status 2); where it " \
            "is no word, what the -- does depends on the python release"
    else:
        given.stop = f"{computed}, which argparse reads as an option or a positional argument: where it is an " \
            f"option {script} does not define, a word no positional argument takes, the help option or an option " \
            f"given no value it needs, argparse stops the script in {_method(ctx.tree)}"
    given.unsure = True
    given.stop_calls = frozenset(flag_key(f) for f in flags)


def _split_word(ctx, launch, given, where: str) -> None:
    """Where a word before `--` holds, after text it begins with (`--name=$(cat w.txt)`, `x$X`), a part the launcher
    computes outside quotes: bash 5.2 splits that part at blanks (and expands its globs), so the words argparse reads
    after the first (`--name=a --prof` of `a --prof`) are not known here, for a script whose flags are argparse's; said
    so (given.unsure). bind and first_stop read such a word as one."""
    from ..shell.expand import COMPUTED
    from ..source.files import ReadError, read_source
    from ..values.argv_words import flag_key
    flags = ctx.resolver.flags
    if not flags or any(f.kind != "argparse" for f in flags):
        return
    for w in without_redirections(launch.args):
        if w.text == "--":
            return
        if w.value.origin != COMPUTED or HOLE not in w.text or w.text.startswith(HOLE):
            continue
        try:
            raw = read_source(launch.command.path).text[w.start:w.end]
        except (ReadError, ValueError, OSError):
            raw = "$"
        if _unquoted_expansion(raw):
            given.stop = f"{_computed_said(launch, w, where)}, and not quoted: bash splits it at blanks, and argparse " \
                "reads the words after its first as options or words no option reads, which may stop the script in " \
                f"{_method(ctx.tree)} or pass it options"
            given.unsure = True
            given.stop_calls = frozenset(flag_key(f) for f in flags)
            return


def _unquoted_expansion(raw: str) -> bool:
    """Whether a shell word (as written) holds an expansion outside quotes that bash splits at blanks: a parameter,
    a command substitution (`$(...)`, backquotes); not an arithmetic one (`$((...))`, `$[...]`: a number)."""
    quote, k = "", 0
    while k < len(raw):
        c = raw[k]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":
            k += 1
        elif c in "'\"" and quote in ("", c):
            quote = "" if quote else c
        elif not quote and (c == "`" or c == "$" and raw[k + 1:k + 2] not in ("", "(", "[")):
            return True
        elif not quote and raw.startswith("$((", k) or raw.startswith("$[", k):
            end = raw.find("]" if raw[k + 1] == "[" else "))", k)
            if end < 0:
                return True
            k = end
        elif not quote and raw.startswith("$(", k):
            return True
        k += 1
    return False


def _extra_after_computed(ctx, launch, table, given, where: str) -> None:
    """Where, after a word the launcher computes, the launch passes more known words in a row that begin with none
    of the parser's prefix characters than any option of the script takes (the most its nargs= give: 2 for one of
    nargs=2), and the script defines no positional argument: whatever that word is (no word, several, an option that
    takes values), one of them is a word no option reads, or follows a `--`, so python 3.9.18-3.13.0's parse_args
    exits with status 2 ("unrecognized arguments") if nothing stops it before (a help or version option: status 0)."""
    import ast
    import os
    from ..shell.expand import COMPUTED
    from ..values.argv_words import flag_key, prefix_chars, sure_to_stop
    flags = ctx.resolver.flags
    words = list(without_redirections(launch.args))
    prefix = prefix_chars(ctx.tree) if "prefix_chars" in ctx.src.text else "-"
    at = next((k for k, w in enumerate(words) if w.value.origin == COMPUTED and HOLE in w.text), None)
    if at is None or not prefix or not flags or "fromfile_prefix_chars" in ctx.src.text:
        return                          # (`@args.txt` is the words of a file, options too)
    exit_on_error = sure_to_stop(ctx.resolver, table, flags, prefixed=True)
    if exit_on_error is None:
        return                          # (parse_known_args; a parser not read here)
    most, widest = 0, ""
    for f in flags:
        kw = {k.arg: k.value for k in f.call.keywords}
        action = kw.get("action", ast.Constant("store"))
        nargs = kw.get("nargs", ast.Constant(None))
        names = [getattr(a, "value", "") for a in f.call.args]
        if f.kind != "argparse" or not names or any(not isinstance(n, str) or n[:1] not in prefix for n in names) or \
                not isinstance(action, ast.Constant) or not isinstance(nargs, ast.Constant):
            return                      # (a positional, or what an option takes is not read here)
        if action.value in ("store_true", "store_false", "store_const", "append_const", "count", "help", "version"):
            continue
        n = nargs.value
        if action.value not in ("store", "append", "extend") or not (n in (None, "?") or type(n) is int):
            return                      # (nargs="*", "+", REMAINDER: as many as there are)
        width = n if type(n) is int else 1
        if width > most:
            most, widest = width, f.option
    run: List[Word] = []
    for w in words[at + 1:]:
        if w.text == "--":
            break
        if HOLE in w.text or w.text[:1] in prefix:
            run = []
            continue
        run.append(w)
        if len(run) > most:
            break
    if len(run) <= most:
        return
    script = os.path.basename(ctx.filename)
    computed = _computed_said(launch, words[at], where).partition(" is what")[0]
    given.stop = f"argparse stops the script in parse_args: whatever {computed} is (what the launcher computes), the " \
        f"words {' '.join(w.text for w in run)} after it are more than an option of {script} takes (at most " \
        f"{most}{': ' + widest if most else ''}), and {script} defines no positional argument, so argparse exits with " \
        f"status 2 (\"error: unrecognized arguments\"){_raised_instead(exit_on_error)}, unless a help or version " \
        "option there exits first (status 0)"
    given.stop_calls = frozenset(flag_key(f) for f in flags)


def _computed_said(launch, w, where: str) -> str:
    """A word the launcher computes, as the answers name it: `$(cat w.txt) from run.sh:1 is what ...`."""
    from ..source.files import ReadError, read_source
    try:
        shown = read_source(launch.command.path).text[w.start:w.end]
    except (ReadError, ValueError, OSError):
        shown = "a word"
    return f"{shown} from {where} is what the launcher computes (not known here: not a word its caller gives)"


def _given_to(computed: str, option: str, refusal: str, none: bool, method: str, then: str = "") -> str:
    """Why a value the launcher computes, given to an option, leaves the answer unknown (_computed_word,
    _computed_word_loosely): refusal names what of the option may refuse it ("" for an option that takes any word,
    where bash may give it none, several, or one argparse reads as an option word); none: it may be no word."""
    if not refusal:
        return f"{computed}, given to {option}: where it is no word or several (bash splits an unquoted one at " \
            f"blanks) or one that begins with `-`, argparse reads the words otherwise, and may stop the script in " \
            f"{method} (status 2){then}"
    return f"{computed}, given to {option}: where {option} does not take it ({refusal})" \
        f"{', or it is no word at all' if none else ''}, argparse stops the script in {method} (status 2){then}"


def _unread_choices(ctx, given) -> None:
    """Where the launch gives one of the script's own options a value and its choices= is not read here (a call, a
    name bound otherwise than to one literal, or changed: argv_words.choices_of): python checks the value against
    them and stops the script in parse_args where they do not hold it (status 2, "invalid choice"), which is not
    known here (given.unsure); it said what the other options decide."""
    import ast
    from ..values.argv_words import UNREAD, choices_of, flag_key, unparsed
    flags = ctx.resolver.flags
    idle = unparsed(ctx.tree, flags)
    for f in flags:
        g = given.get(f.dest)
        if f.kind != "argparse" or id(f.call) in idle or not isinstance(g, Given) or g.text is None or \
                HOLE in g.text or g.option not in [getattr(a, "value", None) for a in f.call.args] or \
                choices_of(f) is not UNREAD:
            continue
        node = next(k.value for k in f.call.keywords if k.arg == "choices")
        spelled = f"{g.option}{'=' if g.value_word is g.word else ' '}{g.text}"
        given.stop = f"{spelled} from {g.where} is checked against the choices of {f.option} " \
            f"({ast.unparse(node)}, line {f.call.lineno}), which are not read here: where they do not hold it, " \
            f"argparse stops the script in {_method(ctx.tree)} (status 2, \"invalid choice\")"
        given.unsure = True
        given.stop_calls = frozenset(flag_key(f) for f in flags)
        return


def _stop_in_parse_args_without(ctx, table, given, unknown, abbreviates, where: str, idle, words, cond) -> None:
    """Where argparse reads the launch's words through (or where that is not known here) with the options added
    under an `if` (argv_words.conditional: one statement adds them all), and stops without them (`--n 5` with no
    --n: "unrecognized arguments", status 2, python 3.9.18-3.13.0): whether the script runs is not known, said so
    (given.unsure), unless the words surely stop it another way."""
    from ..values.argv_words import first_stop, flag_key
    _stop_on_unrecognized(ctx, table, given, unknown, abbreviates, where, idle, words)
    if given.stop or len(set(cond.values())) > 1 or -1 in cond.values():
        return
    other = first_stop([w.text for w in words], {o: f for o, f in table.items() if id(f.call) not in idle and
                                                 id(f.call) not in cond}, abbreviates)
    flags = ctx.resolver.flags
    if other is None or other.status is None or \
            _sure_to_stop(ctx, table, flags, known=other.kind in _WHILE_READING) is None:
        return
    names = ", ".join(sorted(o for o, f in table.items() if id(f.call) in cond))
    given.stop = f"the statement on line {min(cond.values())} adds {names} only where its test holds, which is not " \
        f"decided here; where it does not, argparse stops the script in {_method(ctx.tree)}: " \
        f"{_said(ctx, other, words, table, where, abbreviates=abbreviates)}"
    given.unsure = True
    given.stop_calls = frozenset(flag_key(f) for f in flags)


def _method(tree) -> str:
    """The method that parses the launch's words, for messages: parse_known_args where the file calls it and not
    parse_args (argv_words.sure_to_stop holds: one of them, of argv)."""
    import ast
    called = {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    return "parse_known_args" if "parse_known_args" in called and "parse_args" not in called else "parse_args"


def _unfollowed(ctx, texts, table, given, abbreviates, where: str) -> None:
    """Where first_stop gives no stop because it does not follow a known word before `--`: one that may abbreviate
    two options (sorted_first: `--pro` for --prof and --prof2, `-b-` for -b and -b-y) or a single-dash switch given a
    value with `=` (`-b-y=1`): python 3.9.18-3.13.0 exit with status 2 on each (run); or a single-dash word that
    begins one option, or is one with more after it (`-p` for -p-x given no value, `-px`): not known here, said so.
    Also for a parser first_stop does not read (a positional: prepare), where nothing else is said."""
    from ..values.argv_words import flag_key, read_as, sorted_first, _optional
    for text in texts[:texts.index("--") if "--" in texts else len(texts)]:
        option = text.partition("=")[0]
        flag = table.get(option)
        if HOLE in text:
            continue
        if sorted_first([text], table, abbreviates) or "=" in text and option[1:2] != "-" and flag is not None and \
                flag.action in ("store_true", "store_false"):
            how = "an abbreviation of two options, or a switch given a value with `=`"
        elif text[1:2] != "-" and flag is None and _optional(text, table) and read_as(text, table, abbreviates):
            if _one_switch(ctx, texts, text, table, abbreviates):
                continue
            how = "a single-dash word that begins an option, or is one with more after it"
        else:
            continue
        given.stop = f"{text} from {where} is read by argparse in a way not followed here ({how}), where python " \
            f"3.9-3.13.0 may stop the script in {_method(ctx.tree)} (status 2)"
        given.unsure = True
        given.stop_calls = frozenset(flag_key(f) for f in ctx.resolver.flags)
        return


def _one_switch(ctx, texts, text: str, table, abbreviates) -> bool:
    """Whether python 3.9-3.13 read a single-dash word (no `=`) as one option: the one switch it begins (`-pro` for a
    store_true -prof, no option of its first two characters), or the option of its first two characters that takes
    one value, the rest its value (`-prof` for -p: output="rof"), where no other option begins with it; and first_stop
    reads the words through, that word read so, without a stop, for a parser it reads: bind's reading then holds."""
    from ..values.argv_words import first_stop, parse_options, read_as, takes_one
    found = read_as(text, table, abbreviates)
    if len(found) != 1 or "=" in text or not parse_options(ctx.tree, ctx.resolver.flags):
        return False
    flag = found[0]
    if text[:2] in table and table[text[:2]] is flag and takes_one(flag):
        read = f"{text[:2]}={text[2:]}"
    elif text[:2] not in table and flag.action in ("store_true", "store_false"):
        read = next((o for o, f in table.items() if f is flag and o.startswith(text)), "")
    else:
        return False
    return bool(read) and first_stop([read if t == text else t for t in texts], table, abbreviates) is None


def _not_followed(ctx, given, prefix: str, where: str) -> None:
    """Where how argparse reads the launch's words is not followed for a parser whose prefix_chars= has no `-` (an
    abbreviation, a positional, an option added under an `if`: bind and first_stop read `-` words): not known."""
    import os
    from ..values.argv_words import flag_key
    script = os.path.basename(ctx.filename)
    given.stop = f"{script}'s parser reads options that begin with {prefix!r} (prefix_chars=), and how argparse " \
        f"reads the words from {where} for it is not followed here"
    given.unsure = True
    given.stop_calls = frozenset(flag_key(f) for f in ctx.resolver.flags)


def _stop_on_positional(ctx, table, given, words, where: str) -> None:
    """Where the script's parsers read as options only words that begin with one of their prefix_chars=, which has
    no `-`, and the launch passes none such (values/argv_words.positionals_only): each word is a positional, which
    the script does not take, so parse_args stops on them (python 3.9.18-3.13.0 ran it: "unrecognized arguments")."""
    import ast
    import os
    from ..values.argv_words import flag_key, positionals_only, prefix_chars, sure_to_stop
    flags = ctx.resolver.flags
    prefix = prefix_chars(ctx.tree)
    if not positionals_only([w.text for w in words], flags, ctx.tree, prefix):
        return
    exit_on_error = sure_to_stop(ctx.resolver, table, flags, prefixed=True)
    if exit_on_error is None:
        return
    line = next(n.lineno for n in ast.walk(ctx.tree) if isinstance(n, ast.keyword) and n.arg == "prefix_chars")
    script, text = os.path.basename(ctx.filename), words[0].text
    given.stop = (f"argparse stops the script in parse_args: {text} from {where} begins with none of the prefix "
                  f"characters of {script}'s parser (prefix_chars={prefix!r}, line {line}), so argparse reads it as a "
                  f"positional argument, which {script} does not take (it defines none), so argparse exits with "
                  f"status 2 (\"error: unrecognized arguments\", naming {text}){_raised_instead(exit_on_error)}")
    given.stop_calls = frozenset(flag_key(f) for f in flags)


def _raised_instead(exit_on_error) -> str:
    """What python 3.13 does instead of exiting on unrecognized arguments where exit_on_error= is given and may be
    false (3.9 to 3.12.1 exit all the same; 3.13.0 raises ArgumentError: both run); "" where it is not."""
    import ast
    off = exit_on_error.arg and not (isinstance(exit_on_error.value, ast.Constant) and exit_on_error.value.value is True)
    return f"; python 3.13 raises argparse.ArgumentError there instead ({ast.unparse(exit_on_error)}, line " \
        f"{exit_on_error.value.lineno}), which stops it too" if off else ""


def _said(ctx, stop, words, table, where: str, prefix: str = "-", abbreviates=lambda flag: True) -> str:
    """Why argparse stops the script where first_stop says (its message, and the launch's words that make it);
    prefix: the parser's prefix_chars=; abbreviates: whether a flag's parser takes an abbreviation."""
    import os
    from ..values.argv_words import joined, option_of, unrecognized
    script = os.path.basename(ctx.filename)
    text = words[stop.at].text
    if stop.kind == "default":
        flag = table[stop.option]
        value = next(k.value.value for k in flag.call.keywords if k.arg == "default")
        why = f"{where} does not give {flag.option}, so argparse converts its default {value!r} (line " \
            f"{flag.call.lineno}) with {getattr(flag.type_node, 'id', '')}(), which refuses it, so argparse exits " \
            f"with status 2 (\"error: {stop.why}\")"
    elif stop.kind == "raises":
        flag = option_of(text, table, abbreviates)
        value = next(getattr(k.value, "value", None) for k in flag.call.keywords if k.arg == "default")
        spelled = " ".join(w.text for w in words[stop.at:stop.end])
        why = f"{spelled} from {where} is appended to the default of {flag.option}, {value!r} (line " \
            f"{flag.call.lineno}), which has no append, so parse_args raises AttributeError " \
            f"({stop.why.partition(': ')[2]}), status 1"
    elif stop.kind == "joined":
        switch, rest = joined(text, table) or (table[text[:2]], "")
        why = f"{text} from {where} is {text[:len(text) - len(rest)]} ({switch.action}) with {rest} after it, and " \
            f"-{rest[0]} is no option {script} defines: python 3.9.18-3.12.1 exit with status 2 there (\"error: " \
            f"{stop.why}\"), and 3.13.0 sets {switch.option} and names -{rest} among the unrecognized arguments " \
            "(status 2), unless what follows stops argparse first"
    elif stop.kind == "help":
        why = f"{text} from {where} asks for its help, so argparse prints it and exits with status 0"
    elif stop.kind == "version":
        line = option_of(text, table, abbreviates).call.lineno
        why = f"{text} from {where} is {script}'s version option (line {line}), so argparse prints the version " \
            "and exits with status 0" if stop.status == 0 else f"{text} from {where} is {script}'s version option " \
            f"(line {line}), which gives no version=: argparse's version action reads parser.version, which " \
            "ArgumentParser does not have, so parse_args raises AttributeError (status 1)"
    elif stop.kind == "value" and text.partition("=")[0] not in table and joined(text, table) is not None:
        switch, rest = joined(text, table) or (table[text[:2]], "")
        why = f"{text} from {where} is {text[:len(text) - len(rest)]} ({switch.action}) with {rest} after it, which " \
            f"argparse gives {switch.option} as its value: {switch.option} takes none, so python 3.9.18-3.13.0 exit " \
            f"with status 2 (\"error: {stop.why}\")"
    elif stop.kind == "value":
        flag = option_of(text, table, abbreviates)
        spelled = " ".join(w.text for w in words[stop.at:stop.end])
        why = f"{flag.option} ({flag.action}) takes no value, and {spelled} from {where} gives it one, so argparse " \
            "exits with status 2" if flag.action in ("store_true", "store_false") else \
            f"{spelled} from {where} takes a value and is given none, so argparse exits with status 2 " \
            f"(\"error: {stop.why}\")" if spelled == flag.option and ": expected " in stop.why else \
            f"{spelled} from {where} is given no value, so it takes its const {_const(flag)}, which is not what " \
            f"{flag.option} takes, so argparse exits with status 2 (\"error: {stop.why}\")" if spelled == flag.option \
            else \
            f"{spelled} from {where} is not what {flag.option} takes, so argparse exits with status 2 " \
            f"(\"error: {stop.why}\")"
    elif stop.kind == "dashdash":
        rest = next((w.text for w in words[stop.at + 1:] if w.known), "what follows")
        why = f"{rest} after -- from {where} is no argument {script} takes (it defines no positional argument), so " \
            "argparse exits with status 2 (\"error: unrecognized arguments\")"
    elif stop.kind == "extra" and text[:1] == "-" and prefix != "-":
        why = f"{text} from {where} begins with none of the prefix characters of {script}'s parser (prefix_chars=" \
            f"{prefix!r}), so argparse reads it as a positional argument, which {script} does not take (it defines " \
            f"none), so argparse exits with status 2 (\"error: unrecognized arguments\", naming {text})"
    elif stop.kind == "extra" and len(text) > 1 and text[0] in prefix and (prefix != "-" or unrecognized(text)):
        # (an option of a parser never parsed; `-1` is read as a positional)
        why = f"{text} from {where} is no option of the parser {script} parses, so argparse exits with status 2 " \
            f"(\"error: unrecognized arguments\", naming {text})"
    elif stop.kind == "extra":
        why = f"{text} from {where} is a value no option of {script} takes (it defines no positional argument), so " \
            f"argparse exits with status 2 (\"error: unrecognized arguments\", naming {text})"
        if stop.why == "notknown":      # (a word not known after it: a help option there exits first, status 0)
            why += ", unless a word after it, not known here, is a help option (status 0) or a value an option " \
                "refuses"
    else:
        why = f"-- from {where} closes the words: python 3.9.18, 3.10.13, 3.11.7, 3.12.1 and 3.13.0 exit there " \
            "with status 2 (\"error: unrecognized arguments: --\"), while 3.12.7 and 3.13.1 changed how argparse " \
            "reads a first -- (gh-53780, not run here): whether the script runs depends on the python release"
    return why


OLD_LOCAL_RANK = "--local_rank"
TORCH_2_ONLY = ("7.0", "7.1", "7.2", "7.3", "26.0", "26.1")    # no build for torch 1.x (6.0.RC2 had one)


def _const(flag) -> str:
    """The const= of a flag, as python writes it."""
    import ast
    return next((repr(k.value.value) for k in flag.call.keywords if k.arg == "const" and
                 isinstance(k.value, ast.Constant)), "")


def _stop_on_unrecognized(ctx, table, given, unknown, abbreviates, where: str, idle=frozenset(), launched=()) -> None:
    """Where the launch passes an option word that the script's parser does not read and parse_args surely meets it
    (values/argv_words.py): why the script stops there, kept on given for each read of its own flags (given_values)."""
    import ast
    import os
    from ..values.argv_words import conditional, flag_key, read_as, takes_one, unrecognized, without_help
    helps = "add_help" not in ctx.src.text or not without_help(ctx.tree)
    words = [w for w in unknown if HOLE not in w.text.partition("=")[0] and unrecognized(w.text, helps) and
             not read_as(w.text, table, abbreviates)]
    own = {id(f.call) for f in ctx.resolver.flags} - idle    # (idle: flags of a parser never parsed)

    def mine():
        return [g for g in given.values() if isinstance(g, Given) and g.option in table and
                id(table[g.option].call) in own]
    bare = [g for g in mine() if g.text is None and takes_one(table[g.option])]
    refusable = any(g.text is not None and _refusable(table[g.option]) for g in mine())
    cond = conditional(ctx.tree, ctx.resolver.flags) if bare or refusable else {}
    if cond:                    # (options added under an `if` may not be there: their value is not said to stop it,
        own -= set(cond)        # and their word is unrecognized without them, which parse_known_args leaves aside)
        refusable = any(g.text is not None and _refusable(table[g.option]) for g in mine())
        if any(id(table[g.option].call) in cond for g in bare) and \
                _sure_to_stop(ctx, table, ctx.resolver.flags) is None:
            bare = [g for g in mine() if g.text is None and takes_one(table[g.option])]
    # (the help option: said where each word before it is surely read without a stop, as a refused value is)
    helped = any(w.text in ("-h", "--help") and w.text not in table for w in launched)
    spread = any(f.kind == "argparse" and not f.option.startswith("-") for f in ctx.resolver.flags)  # (positionals)
    exit_on_error = _sure_to_stop(ctx, table, ctx.resolver.flags, known=bool(bare) or refusable or helped) \
        if words or bare or refusable or helped or spread else None
    if exit_on_error is None:
        return
    refused = _refused(ctx, table, given, launched, own, abbreviates, where) \
        if (refusable or helped or spread) and not exit_on_error.arg else None
    at = {id(w): k for k, w in enumerate(launched)}
    first = min((at.get(id(g.word), len(at)) for g in bare), default=None)
    if refused is not None and (first is None or refused[0] < first):
        # (a flag's own stop (launch_args.given_values), the first argparse meets: the script's, whatever it reads)
        given.stop, given.stop_calls = refused[1], frozenset(flag_key(f) for f in ctx.resolver.flags)
        return
    if not bare and _sure_to_stop(ctx, table, ctx.resolver.flags) is None:
        return                          # (parse_known_args leaves the words no option reads aside)
    if not bare and not words:
        return
    given.stop_calls = frozenset(flag_key(f) for f in ctx.resolver.flags)
    off = exit_on_error.arg and not (isinstance(exit_on_error.value, ast.Constant) and exit_on_error.value.value is True)
    if bare:    # (an error while it parses: before the unrecognized words, which it names at the end)
        g = min(bare, key=lambda g: g.word.start)
        # python 3.9-3.13 ran it; with exit_on_error=False parse_args raises ArgumentError (status 1), no try around
        then = "exits with status 2" if not off else "raises argparse.ArgumentError" if isinstance(
            exit_on_error.value, ast.Constant) and exit_on_error.value.value is False else \
            f"exits with status 2, or raises argparse.ArgumentError ({ast.unparse(exit_on_error)} false)"
        error = "" if then.startswith("raises") else "error: "
        given.stop = (f"argparse stops the script in {_method(ctx.tree)}: {g.option} from {where} takes a value "
                      f"and is given none, so argparse {then} (\"{error}argument {g.option}: expected one argument\")"
                      f"{_exits_first(launched, table, abbreviates, where, g.word, helps)}")
        return
    w = words[0]
    option = w.text.partition("=")[0]
    shown = w.text if HOLE not in w.text else f"{option}=..."
    script = os.path.basename(ctx.filename)
    note = " (its parser takes no abbreviation: allow_abbrev=False)" if option.startswith("--") and any(
        o.startswith(option) for o in table) else ""
    then = _raised_instead(exit_on_error)
    by = " (which torch.distributed.launch passes each rank before the script's own words, its value the rank's: " \
        "torch 2.0 and later, without --use-env)" if w.value.origin == "torch.distributed.launch" else ""
    by = by or (" (which deepspeed passes each rank before the script's own words, its value the rank's local rank: "
                "without --no_local_rank)" if w.value.origin == "deepspeed" else "")
    given.stop = (f"argparse stops the script in parse_args: {shown}{by} from {where} is no option {script} defines"
                  f"{note}, so argparse exits with status 2 (\"error: unrecognized arguments\", naming {shown}){then}"
                  f"{_exits_first(launched, table, abbreviates, where, helps=helps)}")
    if w.value.origin == "torch.distributed.launch" and len(words) == 1 and \
            getattr(ctx.settings.target, "torch_npu", "any") not in TORCH_2_ONLY and (
            OLD_LOCAL_RANK in table or read_as(OLD_LOCAL_RANK + "=0", table, abbreviates)):
        # torch 1.x's launch passes --local_rank=<rank> (run.py config_from_args), which the script takes: torch_npu
        # 5.0 and 6.0 have builds for torch 1.11 (data/torch_npu.json legacy.use_npu; frameworks_facts.md P-5.0)
        given.stop += f"; torch 1.x passes {OLD_LOCAL_RANK}=0 instead, which {script} takes (torch_npu 5.0 and 6.0 " \
            "have builds for torch 1.11): whether it stops depends on the torch release"
        given.unsure = True


def _refusable(flag) -> bool:
    """Whether argparse may refuse a value given to the flag (launch_args.given_values says where it does): a switch's
    (store_true, store_false), or a type= other than str, or choices=."""
    return flag.kind == "argparse" and (flag.action in ("store_true", "store_false") or any(
        k.arg == "choices" or k.arg == "type" and getattr(k.value, "id", None) != "str" for k in flag.call.keywords))


def _refused(ctx, table, given, launched, own, abbreviates, at: str = "") -> Optional[Tuple[int, str]]:
    """(its index, why) of the first word of the launch at which argparse refuses the value given to one of the script's
    own flags (launch_args.given_values: a type= that raises on it, a choice not listed, a switch given a value), or
    reads -h or --help (it prints the help and exits with status 0: python 3.9.18-3.13.0 with a positional), for
    a parser argv_words.sure_to_stop reads (no exit_on_error=), where each word before it is surely read without a
    stop: no word not known, no help, version or abbreviation, each flag's value known; no word of the launch may be
    an ambiguous abbreviation (argparse meets that first), no mutually exclusive group, no positional with a type= or
    choices= (a word of theirs may be refused first). None where not so."""
    import ast
    import os
    from ..values.argv_words import Stop, joined, may_be_ambiguous, option_of, read_as, sorted_first, takes_one, \
        unrecognized, without_help, _label
    from ..values.launch_args import given_values
    from ..values.ops import U
    texts = [w.text for w in launched]
    if sorted_first(texts, table, abbreviates) or may_be_ambiguous(texts, 0, table, abbreviates):
        return None
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in (
                "add_mutually_exclusive_group", "set_defaults"):
            return None
    for f in ctx.resolver.flags:
        first = f.call.args[0] if f.call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("-")) and \
                any(k.arg in ("type", "choices", "action") for k in f.call.keywords):
            return None
    where = next((g.where for g in given.values() if isinstance(g, Given)), at)
    script = os.path.basename(ctx.filename)
    free: List[str] = []                # the words no option reads, and the option values among the words
    taken: set = set()
    helps = not any(isinstance(n, ast.Call) and _dotted(n.func) in ("ArgumentParser", "argparse.ArgumentParser") and
                    any(k.arg in (None, "add_help", "conflict_handler", "prefix_chars", "fromfile_prefix_chars")
                        for k in n.keywords) for n in ast.walk(ctx.tree))
    bare = "add_help" in ctx.src.text and without_help(ctx.tree)  # (-h, --help: words like any other)
    for k, w in enumerate(launched):
        if helps and w.text in ("-h", "--help") and w.text not in table:
            return k, f"argparse stops the script in {_method(ctx.tree)}: {w.text} from {at or where} asks for its " \
                "help, so argparse prints it and exits with status 0"
        # each word of an own flag read as argparse reads it (an option given twice: each value is converted and
        # checked where it comes: python 3.9.18-3.13.0 stop at `--n x` of `--n 5 --prof --n x`, type=int)
        g = _occurrence(launched, k, table, own, abbreviates, where)
        if w.text == "--" and all(HOLE not in x.text and x.text != "--" for x in launched[k + 1:]):
            # one `--`: the words after it are the positionals' (option words too), the `--` none (python
            # 3.9.18-3.13.0: `--prof -- x y` for a nargs="?" exits with status 2 on y; `--prof -- --xyz` runs)
            free.extend(x.text for x in launched[k + 1:])
            break
        pair = joined(w.text, table) if g is None and w.known and w.text.partition("=")[0] not in table else None
        if pair is not None and id(pair[0].call) in own and (pair[1][0] == "-" or _method(ctx.tree) == "parse_args"):
            # (`-bx` for a store_true -b: python 3.9-3.12 stop there, 3.13.0 names -x as unrecognized at the end,
            # unless a later word stops it first; `-b-x` -b's value on every release: argparse_runs.json)
            kind = "value" if pair[1][0] == "-" else "joined"
            stop = Stop(2, k, kind, f"argument {_label(pair[0])}: ignored explicit argument {pair[1]!r}", k + 1)
            return k, f"argparse stops the script in {_method(ctx.tree)}: " \
                f"{_said(ctx, stop, launched, table, at or where)}"
        if w.text == "--" or w.text.startswith(HOLE) or g is None and w.text[:1] == "-" and (
                w.text.partition("=")[0] in table or read_as(w.text, table, abbreviates) or not bare and (
                    w.text[:2] == "-h" or len(w.text.partition("=")[0]) > 2 and
                    "--help".startswith(w.text.partition("=")[0]))):
            return None                 # (an earlier word of an option given twice, help, an abbreviation, ...)
        if g is None:
            if k not in taken and not unrecognized(w.text, not bare):
                free.append(w.text)     # (a word argparse gives a positional, or names as unrecognized)
            continue
        if g.value_word is not None and g.value_word is not w:
            taken.add(k + 1)
        flag = option_of(g.option, table, abbreviates)
        switch = flag.action in ("store_true", "store_false")
        if g.text is None and takes_one(flag) and not _nargs(flag):
            # (`--n --prof --n`: bind keeps a value given twice not known, so the caller does not say it: python
            # 3.9.18-3.13.0 exit with status 2 at the first, parse_known_args too: argparse_runs.json)
            return k, f"argparse stops the script in {_method(ctx.tree)}: {g.option} from {at or where} takes a " \
                "value and is given none, so argparse exits with status 2 (\"error: argument " \
                f"{_label(flag)}: expected one argument\")"
        if flag.action == "version" or _nargs(flag) or g.text is None and not switch or \
                switch and g.text is not None and g.option[1:2] != "-":
            return None                 # (given no value: the caller says it where it takes one; `-x=a b`: python
                                        # 3.9-3.12 read -x, then -a given ' b', where -a is an option)
        if g.option not in table:       # (an abbreviation: its value's checks are said with the option's name)
            if g.text is not None:
                return None
            g = g._replace(option=next(o for o, f in table.items() if f is flag and o.startswith(g.option)))
        values = given_values(flag, Passed({flag.dest: g}), ctx.resolver._type_function(flag),
                              f"{script}:{flag.call.lineno}", 0)
        stops = [v.stops for v in values or () if isinstance(v, U) and v.stops]
        if stops:
            return k, stops[0]
        if not values or any(isinstance(v, U) for v in values):
            return None
    return _positionals_stop(ctx, own, free, at or where)


def _positionals_stop(ctx, own, free: List[str], where: str) -> Optional[Tuple[int, str]]:
    """(where, why) argparse stops on the words no option reads (free) once it has read them all, for the script's
    positional arguments: more than they take, for parse_args ("unrecognized arguments": `5 --prof 3` for a
    nargs="?"), or fewer than they need ("the following arguments are required"), python 3.9.18-3.13.0 run; None
    where neither surely holds, or a positional is not read here (nargs= not a constant, under an `if`)."""
    import ast
    fewest, most, names = 0, 0.0, []
    for f in ctx.resolver.flags:
        first = f.call.args[0] if f.call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value[:1] == "-":
            continue
        node = next((k.value for k in f.call.keywords if k.arg == "nargs"), None)
        n = None if node is None else node.value if isinstance(node, ast.Constant) else ""
        if first is None or id(f.call) not in own or f.kind != "argparse" or not (
                n in (None, "?", "*", "+") or type(n) is int):
            return None
        fewest += 1 if n in (None, "+") else n if type(n) is int else 0
        most += 1 if n in (None, "?") else n if type(n) is int else float("inf")
        names.append(str(first.value))
    if not names:
        return None
    said = ", ".join(free) or "none"
    if len(free) > most and _method(ctx.tree) == "parse_args":
        return 1 << 30, f"argparse stops the script in parse_args: the words from {where} that no option reads " \
            f"({said}) are more than its positional arguments take ({', '.join(names)}: at most {int(most)}), so " \
            "argparse exits with status 2 (\"error: unrecognized arguments\")"
    if len(free) < fewest:
        return 1 << 30, f"argparse stops the script in {_method(ctx.tree)}: the words from {where} that no option " \
            f"reads ({said}) are fewer than its positional arguments need ({', '.join(names)}: at least {fewest}), " \
            "so argparse exits with status 2 (\"error: the following arguments are required\")"
    return None


def _occurrence(words, k: int, table, own, abbreviates, where: str) -> Optional[Given]:
    """The word at k as argparse reads an option of the script's own that it names exactly, or a `--` word that begins
    it and no other (allow_abbrev: `--pro` for --prof, python 3.9.18-3.13.0) (bind's reading of one word: its value
    after `=`, or the next word where that is no option word); None for another word."""
    from ..values.argv_words import option_word, read_as, _of_help
    w = words[k]
    option, eq, value = w.text.partition("=")
    flag = table.get(option) if w.text[:1] == "-" and (w.known or eq) else None
    if flag is None and w.text[:2] == "--" and w.known and not _of_help(w.text):
        found = read_as(w.text, table, abbreviates)
        flag = found[0] if len(found) == 1 else None
    if flag is None or id(flag.call) not in own:
        return None
    if eq:
        return Given(option, value, w, w, where)
    if flag.action not in ("store_true", "store_false") and k + 1 < len(words) and \
            not option_word(words[k + 1].text, table, abbreviates):
        return Given(option, words[k + 1].text, w, words[k + 1], where)
    return Given(option, None, w, None, where)


def _exits_first(words, table, abbreviates, where: str, before=None, helps: bool = True) -> str:
    """Where a word before `--` (and before the word `before`) may be read as the help option or a version option,
    which exits with status 0 before an unrecognized word is named at the end, or a word after it read (python
    3.9-3.13): said, as the other end; "" where none may. helps: the parser has the help option (not add_help=False,
    where -h and --help are words like any other)."""
    from ..values.argv_words import read_as
    for w in words:
        if w is before or w.text == "--":
            break
        option = w.text.partition("=")[0]
        if option in table:
            exits = table[option].action == "version"
        else:
            exits = helps and (w.text[:2] == "-h" or len(option) > 2 and "--help".startswith(option)) or \
                any(f.action == "version" for f in read_as(w.text, table, abbreviates))
        if exits:
            return f"; unless argparse reads {w.text} from {where} as the help or a version option first, which " \
                "exits with status 0"
    return ""


def _replaced(ctx, setup, setups):
    """A config whose name a later assignment binds again, under `if`s this launch's flags make true, before the
    call that takes it: GE gets the later one (BERT's `profiling_config = ProfilingConfig(enable_profiling=False)`,
    then `if FLAGS.profiling: profiling_config = ProfilingConfig(...)`, then `NPURunConfig(profiling_config=...)`).
    Without the flags both may reach the call, so the file alone leaves it open."""
    import ast
    from ..values.ops import Opaque
    parent = ctx.sites.parent.at
    mine = parent(setup.anchor) if setup.anchor is not None else None
    if setup.delivered != "yes" or setup.delivery is None or mine is None or not _binds_one_name(mine):
        return setup
    name, block = mine.targets[0].id, parent(mine)
    for later in setups:
        there = parent(later.anchor) if later.anchor is not None else None
        if later is setup or later.delivery is not setup.delivery or later.delivered != "yes" or \
                there is None or not _binds_one_name(there) or there.targets[0].id != name or \
                not ctx.pos(mine) < ctx.pos(there) < ctx.pos(setup.delivery):
            continue
        scope, pos, node, holds = ctx.sites.scope_of.at(later.anchor, ctx.sites.module), ctx.pos(later.anchor), there, []
        while parent(node) is not block:                    # only `if`s the flags make true between the two
            up = parent(node)
            if not isinstance(up, ast.If) or node not in up.body:
                break
            values = scalars(ctx, up.test, scope, pos)
            if not values or any(isinstance(v, Opaque) or not v for v in values):
                break
            holds.append(up)
            node = up
        else:
            if holds and node in getattr(block, "body", ()) and mine in block.body:
                return setup._replace(delivered="replaced", lost=(
                    f"replaced in this launch: line {later.line} binds `{name}` again first, so the GE "
                    f"initialisation on line {setup.delivery.lineno} gets that config, not this one"))
    return setup


def _binds_one_name(node) -> bool:
    import ast
    return isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)


def decide(ctx, setup, given: Dict[str, Given]):
    """A setup's `if` conditions with this launch's flags: all true (the setup runs), one false (it does not), or
    left as they are when any is not known."""
    import ast
    from ..setups.inventory import Mode, guard_text
    from ..setups.state import is_main_guard
    from ..values.ops import Opaque
    stop = getattr(given, "stop", "")
    if stop and not getattr(given, "unsure", False) and setup.anchor is not None and after_parse(ctx, setup.anchor):
        return setup._replace(mode=Mode("off", "not run in this launch: " + stop, skipped=True, stops=True),
                              conditions=()), [f"the setup does not run: {stop}"], []
    scope = ctx.sites.scope_of.at(setup.anchor, ctx.sites.module)
    # the setup's own `if`s, then those on the way from the entry point to its function (reach.py)
    items = [(g, scope, ctx.pos(setup.anchor)) for g in ctx.sites.guards_of.at(setup.anchor, ())
             if not isinstance(g.test, ast.Constant)]
    own = guard_text(tuple(g for g, _, _ in items))
    items += [(g, sc, p) for g, sc, p in setup.path if guard_text((g,))[0] not in own]
    if not setup.conditions or not items or guard_text(tuple(g for g, _, _ in items)) != tuple(
            c for c in setup.conditions if c != setup.condition):
        return setup, [], []
    truths, why, traps, defaults, held = [], [], [], [], []
    unknown = False
    for g, scope, pos in items:
        if is_main_guard(g):
            continue
        values = scalars(ctx, g.test, scope, pos)
        stop = "" if values else stop_of(ctx, g.test, scope, pos)
        if stop:        # the test reads a flag argparse stops the script on: it, and so the setup, never runs
            text = guard_text((g,))[0] if guard_text((g,)) else "the condition"
            off = Mode("off", "not run in this launch: " + stop, skipped=True, stops=True)
            return setup._replace(mode=off, conditions=()), [f"the setup under `{text}` does not run: {stop}"], []
        truth = {bool(v) for v in values}
        if not values or any(isinstance(v, Opaque) for v in values) or len(truth) != 1:
            # one false `if` is enough whatever the others are (Aligned-ReID: `if FLAGS.chip.lower() == 'npu':`,
            # not evaluated, around `if FLAGS.profiling:`, false when the launcher does not pass --profiling)
            unknown = True
            continue
        holds = truth.pop() != g.negated
        text = guard_text((g,))[0] if guard_text((g,)) else "the condition"
        attrs = [n.attr for n in ast.walk(g.test) if isinstance(n, ast.Attribute)]
        dests = {f.dest for f in flag_table(ctx).values()}
        attrs = [d for d in attrs if d in dests] or attrs      # `args.profiling.strip()`: the flag, not strip
        flags = [d for d in attrs if d in given]
        switch = _switch(ctx, attrs[0]) if not flags and attrs and not holds and \
            isinstance(g.test, ast.Attribute) and not g.negated else ""
        origin = "; ".join(_passed(given[d]) for d in flags) or \
            "; ".join(f"the default of {_option(ctx, d)}, which {_by(given)} does not pass" for d in attrs[:1]) + \
            (f"; {switch} would switch it on" if switch else "") or "defaults"
        why.append(f"`{text}` is {'true' if holds else 'false'} in this launch ({origin})")
        defaults.append((text, _option(ctx, attrs[0])) if not flags and attrs else None)
        for d in flags:
            g_ = given[d]
            if holds and isinstance(values[0], str) and (g_.text or "").strip().lower() in ("false", "0", "no", "off"):
                traps.append(Trap(g_, text))
        truths.append(holds)
        held.append(text if holds else None)
    if not truths:
        return setup, [], []
    if unknown and all(truths):         # the tests it decides are no longer conditions; the others stay
        return setup._replace(conditions=tuple(c for c in setup.conditions if c not in held)), why, traps
    if all(truths):
        return setup._replace(conditions=(setup.condition,) if setup.condition else ()), why, traps
    k = truths.index(False)
    off = Mode("off", "not run in this launch: " + why[k], off_by=defaults[k], skipped=True)
    return setup._replace(mode=off, conditions=()), why, traps


def stop_of(ctx, test, scope, pos) -> str:
    """Why the script stops before an `if` test is read (values/ops.U.stops): its value's, or that of a name or
    attribute in it (`args.prof == 'on'` reads a flag of a parse_args that stops the script); "" where none says."""
    import ast
    stop = ctx.values.scalars(test, scope, pos).stops
    todo = [] if stop or ctx.resolver.given is None else list(ast.iter_child_nodes(test))
    while todo and not stop:
        n = todo.pop(0)
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue            # (names bound there are not the function's)
        if isinstance(n, (ast.Attribute, ast.Name)):
            stop = ctx.values.scalars(n, scope, pos).stops
        todo.extend(ast.iter_child_nodes(n))
    return stop


def after_parse(ctx, node) -> bool:
    """Whether node runs only after the script's one parse_args() (of argv: where it stops the script, nothing after
    it runs): in a statement after it in its block (the module's, its `if __name__ == "__main__":` or a module-level
    function's), or in a module-level function whose name is read only there."""
    import ast
    from ..setups.reach import _main_test
    tree = ctx.tree
    if tree is None:
        return False
    nodes = list(ast.walk(tree))
    calls = [n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
             n.func.attr in ("parse_args", "parse_known_args") and not n.args and not n.keywords]
    if len(calls) != 1:
        return False
    parents = {id(c): p for p in nodes for c in ast.iter_child_nodes(p)}
    stmt: ast.AST = calls[0]
    while not isinstance(stmt, ast.stmt):
        stmt = parents[id(stmt)]
    holder = parents.get(id(stmt))
    up = parents.get(id(holder)) if holder is not None else None
    if not (holder is tree or up is tree and (isinstance(holder, ast.FunctionDef) or isinstance(
            holder, ast.If) and _main_test(holder.test) and any(stmt is b for b in holder.body))):
        return False
    block = getattr(holder, "body", [])
    at = next((k for k, b in enumerate(block) if b is stmt), None)
    if at is None:
        return False
    later = block[at + 1:]
    if any(node is m for b in later for m in ast.walk(b)):
        return True
    func = next((f for f in getattr(tree, "body", ()) if isinstance(f, ast.FunctionDef) and f is not holder and
                 any(node is m for m in ast.walk(f))), None)
    if func is None:
        return False
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == func.name]
    return bool(reads) and all(any(r is m for b in later for m in ast.walk(b)) for r in reads)


def false_in_launch(ctx, node) -> str:
    """For a framework's profiler call (emulate/torch_run.py) in a launch's script (ctx.resolver.given set): the
    first `if` on its way, its own then those on the one path from the entry point, that the launch's flags make
    certainly false, said as decide says it; "" when none is. One false test is enough: they all must hold."""
    from ..setups.reach import guard_text
    given = ctx.resolver.given
    if getattr(given, "stop", "") and not getattr(given, "unsure", False) and after_parse(ctx, node):
        return given.stop               # (a profiler not under a test of the flags: the script never reaches it)
    # `if args.prof and args.rank == 1:` is false when one of its terms is: each term is a test of its own
    for g, holds, origin in _decided(ctx, node, terms=True):
        if not holds:
            return f"`{guard_text((g,))[0]}` is false in this launch ({origin})"
    if ctx.resolver.given is not None:  # a test of a flag argparse stops the script on: never read, so never true
        for g, sc, pos in _way(ctx, node):
            stop = "" if scalars(ctx, g.test, sc, pos) else stop_of(ctx, g.test, sc, pos)
            if stop:
                return stop
    return ""


def true_in_launch(ctx, node) -> set:
    """The `if`s on the way to a framework's profiler call that the launch's flags make certainly true, as their
    tests' texts (as written, and as reach.py unparses them): no longer conditions of that launch."""
    import ast
    from ..setups.reach import guard_text
    out: set = set()
    # a guard holds when the launch decides it whole, or each term of its `and` (`if args.prof and args.rank == 1:`
    # with --prof --rank 1: before, still said as a condition of the launch)
    terms = {id(g.test) for g, holds, _ in _decided(ctx, node, terms=True) if holds}
    whole = [g for g, holds, _ in _decided(ctx, node, terms=False) if holds]
    for g, _, _ in _way(ctx, node):
        if g not in whole and not all(id(t) in terms for t in _terms(g)):
            continue
        text = ast.get_source_segment(ctx.src.text, g.test) or ""
        out.update((guard_text((g,))[0], f"not ({text})" if g.negated else text))
    return out


def _way(ctx, node) -> list:
    """(guard, scope, position) of each `if` on the way to node: its own, then those on the one path from the entry
    point."""
    import ast
    from ..setups.reach import reach_of
    scope = ctx.sites.scope_of.at(node, ctx.sites.module)
    items = [(g, scope, ctx.pos(node)) for g in ctx.sites.guards_of.at(node, ()) if not isinstance(g.test, ast.Constant)]
    way = reach_of(ctx.sites).path(node)
    return items + (list(way.guards) if way.exact else [])


def _decided(ctx, node, terms: bool):
    """(guard, whether it holds, how the launch decides it) for each `if` on the way to node that the launch's
    flags decide: its own, then those on the one path from the entry point."""
    import ast
    from ..setups.reach import is_main_guard
    from ..values.ops import Opaque
    given = ctx.resolver.given
    if given is None:                   # not a launch's script: its flags are not known
        return
    items = _way(ctx, node)
    dests = {f.dest for f in flag_table(ctx).values()}
    parts = [(g._replace(test=t), sc, pos) for g, sc, pos in items for t in _terms(g)] if terms else items
    for g, sc, pos in parts:
        if is_main_guard(g):
            continue
        attrs = [n.attr for n in ast.walk(g.test) if isinstance(n, ast.Attribute) and n.attr in dests]
        if not attrs:
            continue                    # not a test of the script's flags: left to the replay's conditions
        if _unproven(ctx, g.test, dests):
            continue                    # `self.args.prof` that may not be the flags: unsettled_in_launch says it
        values = scalars(ctx, g.test, sc, pos)
        if not values or any(isinstance(v, Opaque) for v in values) or len({bool(v) for v in values}) != 1:
            continue
        flags = [d for d in attrs if d in given]
        origin = "; ".join(_passed(given[d]) for d in flags) or \
            _unpassed(ctx, attrs[0], given, isinstance(g.test, ast.Attribute) and not g.negated)
        yield g, bool(values[0]) != g.negated, origin


def _unpassed(ctx, dest: str, given, plain: bool) -> str:
    """Where a flag the launch does not pass takes its value: its default, or the YAML key of mindspore-ai/models'
    config.py (values/yaml_config.py) that sets it, with the flag that switches a plain test (`if config.prof:`) on."""
    from ..values.yaml_config import where
    flag = next((f for f in flag_table(ctx).values() if f.dest == dest), None)
    at = where(flag) if flag is not None else ""
    if flag is not None and at:
        value = getattr(flag.default, "value", None)
        on = {bool: "True", int: "1"}.get(type(value)) if plain and not value else None
        switch = f"; {flag.option}={on} would switch it on" if on else ""
        return f"{dest}: {_shown(flag.default)} in {at}, and {_by(given)} does not pass {flag.option}{switch}"
    words = _switch(ctx, dest) if plain else ""
    return f"the default of {_option(ctx, dest)}, which {_by(given)} does not pass" + \
        (f"; {words} would switch it on" if words else "")


# what argparse makes of "True" for a flag's type= (python 3.11 argparse calls it on the string): true for each;
# int and float take "1"
_TRUE_WORD = {"str": "True", "bool": "True", "literal_eval": "True", "int": "1", "float": "1"}


def _switch(ctx, dest: str) -> str:
    """The words that make a plain test of an argparse flag the launch does not pass (`if args.prof:`) true, where
    argparse's reading of them is known exactly: `--prof` of a store_true, `--profiling True` of a flag whose type=
    is str (or none), bool, int, float or ast.literal_eval; "" for the others (choices=, nargs=, another action, a
    type function of the project, a dest two options set)."""
    import ast
    flags = {id(f): f for f in flag_table(ctx).values() if f.dest == dest}
    if len(flags) != 1:
        return ""
    flag = next(iter(flags.values()))
    keywords = {k.arg for k in flag.call.keywords}
    if flag.kind != "argparse" or None in keywords or keywords & {"choices", "nargs", "const"} or \
            any(isinstance(a, ast.Starred) for a in flag.call.args):
        return ""
    if flag.action == "store_true":
        return flag.option
    node = flag.type_node
    kind = "str" if node is None else node.id if isinstance(node, ast.Name) and node.id != "literal_eval" else \
        "literal_eval" if isinstance(node, ast.Attribute) and node.attr == "literal_eval" and \
        isinstance(node.value, ast.Name) and node.value.id == "ast" else None
    if flag.action not in ("", "store") or kind not in _TRUE_WORD:
        return ""
    return f"{flag.option} {_TRUE_WORD[kind]}"


def _shown(node) -> str:
    import ast
    return ast.unparse(node) if node is not None else "?"


def scalars(ctx, test, scope, pos) -> tuple:
    """The values an `if` test may have in this launch: the resolver's, and for `args.x == 'True'` / `!=` (the model
    zoo's string flags), which the resolver does not evaluate, the comparison of its two sides' values."""
    import ast
    from ..values.ops import Opaque
    dests = {f.dest for f in flag_table(ctx).values()}
    if any(isinstance(n, ast.Attribute) and n.attr in dests and n.attr in _stored(ctx) and not _copied(ctx, n)
           for n in ast.walk(test)):
        return ()               # `args.rank = args.rank * npus + npu`: the flag's value is not the one tested
                                # (a flag's name only: `self.args = args` does not change `self.args.prof`)
    rewritten = _rewritten(ctx)
    if rewritten and any(isinstance(n, ast.Attribute) and n.attr in dests and _dotted(n.value) in rewritten
                         for n in ast.walk(test)):
        return ()               # `vars(args).update(cfg)`: any flag of `args` may hold another value
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        left = _str_side(ctx, test.left, scope, pos)
        right = _str_side(ctx, test.comparators[0], scope, pos)
        if not left or not right or any(isinstance(v, Opaque) or not isinstance(v, (str, int, float, type(None)))
                                        for v in left + right):
            return ()
        return tuple((a == b) == isinstance(test.ops[0], ast.Eq) for a in left for b in right)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and \
            isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (True, False, None) and \
            type(test.comparators[0].value) in (bool, type(None)):
        # `args.profiling is True` (store_true's bool): the singletons compare by identity, anything else is not one
        left = ctx.values.scalars(test.left, scope, pos).candidates
        if not left or any(isinstance(v, Opaque) or not isinstance(v, (str, int, float, type(None))) for v in left):
            return ()
        return tuple((a is test.comparators[0].value) == isinstance(test.ops[0], ast.Is) for a in left)
    return ctx.values.scalars(test, scope, pos).candidates


_STR_METHODS = ("strip", "lstrip", "rstrip", "lower", "upper", "casefold")


def _str_side(ctx, node, scope, pos) -> tuple:
    """A compared side's values, `args.profiling.strip()` (the zoo's `if args.profiling.strip() == "True"`) worked
    out as Python does on a str flag; nothing (not decided) where the value is not a str."""
    import ast
    if isinstance(node, ast.Call) and not node.args and not node.keywords and \
            isinstance(node.func, ast.Attribute) and node.func.attr in _STR_METHODS:
        inner = _str_side(ctx, node.func.value, scope, pos)
        return tuple(getattr(v, node.func.attr)() for v in inner) if all(isinstance(v, str) for v in inner) else ()
    return tuple(ctx.values.scalars(node, scope, pos).candidates)


def _stored(ctx) -> frozenset:
    """The attribute names the script assigns (`x.a = ...`, `x.a += ...`, `setattr(x, "a", ...)`): a flag of that
    name may hold another value than the launch gave it wherever it is tested."""
    import ast
    found = getattr(ctx, "_launch_stored", None)
    if found is None:
        found = frozenset(n.attr for n in ast.walk(ctx.tree) if isinstance(n, ast.Attribute) and
                          isinstance(n.ctx, (ast.Store, ast.Del))) | frozenset(
            n.args[1].value for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == "setattr" and len(n.args) > 1 and isinstance(n.args[1], ast.Constant)
            and isinstance(n.args[1].value, str))
        ctx._launch_stored = found
    return found


# what a dict's methods may change in it: vars(args).update(cfg) sets args' attributes (vars() is args.__dict__)
_DICT_WRITES = frozenset(("update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "__ior__"))
# what only reads the dict vars() gives: print(vars(args)), vars(args).items(), json.dumps(vars(args))
_DICT_READS = frozenset(("items", "keys", "values", "get", "copy", "__contains__", "__getitem__", "__len__"))
_READERS = frozenset(("print", "str", "repr", "len", "sorted", "dict", "list", "set", "tuple", "json.dumps",
                      "json.dump", "pprint.pprint", "pprint.pformat", "logging.info", "logger.info", "yaml.dump"))


def _dotted(node) -> str:
    from ..source.site_records import dotted
    return dotted(node) or ""


def _rewritten(ctx) -> frozenset:
    """The objects (as written: `args`, `self.args`) whose attributes the script may set by names it does not write
    out: through vars() or __dict__ (`vars(args).update(cfg)`, `args.__dict__[k] = v`, a name bound to that dict, the
    dict handed to a function that is not one of _READERS), or `setattr(args, key, value)` with a computed key. A
    flag read through one of them may hold another value than the launch gave it."""
    import ast
    found = getattr(ctx, "_launch_rewritten", None)
    if found is not None:
        return found
    out = set()
    parent = ctx.sites.parent.at
    text = ctx.src.text
    # (most scripts name none of them: their tree is not walked)
    nodes = ast.walk(ctx.tree) if "vars" in text or "__dict__" in text or "setattr" in text else ()
    for n in nodes:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" and len(n.args) > 1 \
                and not (isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)):
            out.add(_dotted(n.args[0]))
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "vars" and len(n.args) == 1:
            holder = n.args[0]
        elif isinstance(n, ast.Attribute) and n.attr == "__dict__":
            holder = n.value
        else:
            continue
        up = parent(n)
        if isinstance(up, ast.Attribute) and up.value is n and up.attr in _DICT_READS and \
                isinstance(parent(up), ast.Call) and parent(up).func is up:
            continue                    # vars(args).items()
        if isinstance(up, ast.Subscript) and up.value is n and isinstance(up.ctx, ast.Load):
            continue                    # vars(args)[k]
        if isinstance(up, ast.Call) and n in up.args and _dotted(up.func) in _READERS:
            continue                    # print(vars(args))
        if isinstance(up, ast.keyword) and up.arg is None or isinstance(up, ast.Starred):
            continue                    # f(**vars(args)): a copy
        if isinstance(up, (ast.FormattedValue, ast.comprehension, ast.Compare)) and \
                not (isinstance(up, ast.comprehension) and up.target is n):
            continue                    # f"{vars(args)}", `for k in vars(args)`, `k in vars(args)`
        if isinstance(up, ast.For) and up.iter is n:
            continue
        out.add(_dotted(holder))
    out.discard("")
    found = ctx._launch_rewritten = frozenset(out)
    return found


def _config_read(ctx, n) -> bool:
    """Whether `n` (`cfg.prof`, prof a flag's name the file assigns) reads a flag's copy in a config object: its
    object a plain name, not the parsed flags themselves, a parameter or the method's own object
    (values/config_args.py)."""
    import ast
    from ..values.passed_args import parameter_of
    if not (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)):
        return False
    scope = ctx.sites.scope_of.at(n, ctx.sites.module)
    pos = ctx.pos(n)
    return n.value.id != (scope.self_name if scope is not None else None) and \
        parameter_of(ctx.resolver, n.value, scope, pos) is None and \
        not ctx.resolver._is_parse_result(n.value, scope, pos, 0)


def _copied(ctx, n) -> bool:
    """Whether `n` reads a flag's copy in a config object that holds what the copy gave it (values/config_args.py)."""
    from ..values.config_args import why_not_copied
    return _config_read(ctx, n) and not why_not_copied(ctx.resolver, n, ctx.sites.scope_of.at(n, ctx.sites.module))


def _option(ctx, dest: str) -> str:
    """The option that sets `args.<dest>`, as the user types it (`--run-prof` for run_prof)."""
    return next((f.option for f in flag_table(ctx).values() if f.dest == dest), f"--{dest}")


def unsettled_in_launch(ctx, node) -> str:
    """For a framework's profiler call in a launch's script: the first test on its way that reads one of the script's
    flags through an object's attribute (`if self.args.prof:`) and that the launch does not decide, with why the
    attribute is not shown to hold the parsed flags (values/held_args.py); "" when there is none."""
    import ast
    from ..setups.reach import guard_text, is_main_guard, reach_of
    from ..values.ops import Opaque
    if ctx.resolver.given is None:
        return ""
    if getattr(ctx.resolver.given, "unsure", False) and after_parse(ctx, node):
        return f"whether it runs in this launch is not known: {ctx.resolver.given.stop}"
    scope = ctx.sites.scope_of.at(node, ctx.sites.module)
    items = [(g, scope, ctx.pos(node)) for g in ctx.sites.guards_of.at(node, ())
             if not isinstance(g.test, ast.Constant)]
    way = reach_of(ctx.sites).path(node)
    items += list(way.guards) if way.exact else []
    dests = {f.dest for f in flag_table(ctx).values() if f.kind == "argparse"}
    for g, sc, pos in [(g._replace(test=t), sc, pos) for g, sc, pos in items for t in _terms(g)]:
        if is_main_guard(g):
            continue
        if getattr(ctx.resolver.given, "unsure", False) and \
                any(isinstance(n, ast.Attribute) and n.attr in dests for n in ast.walk(g.test)):
            return f"whether `{guard_text((g,))[0]}` holds in this launch is not known: {ctx.resolver.given.stop}"
        if not _held(ctx, g.test, dests):
            continue
        why = _unproven(ctx, g.test, dests)
        values = scalars(ctx, g.test, sc, pos)     # (`args.rank == 1` too)
        if not why and values and not any(isinstance(v, Opaque) for v in values) and \
                len({bool(v) for v in values}) == 1:
            continue                    # decided (false_in_launch says it when false)
        why = why or "its value is not known here"
        return f"whether `{guard_text((g,))[0]}` holds in this launch is not known: {why}"
    return ""


def _unproven(ctx, test, dests) -> str:
    """Why an object's attribute (`self.args` of `self.args.prof`) or a function's parameter (`args` of
    `def train(args): if args.prof:`) a test reads a flag through is not shown to hold the parsed flags
    (values/held_args.py, values/passed_args.py); "" when it is, or the test reads none."""
    import ast
    from ..values.config_args import why_not_copied
    from ..values.held_args import why_not_held
    from ..values.passed_args import why_not_passed
    scope = ctx.sites.scope_of.at(test, ctx.sites.module)
    for n in _held(ctx, test, dests):
        if n.attr in _stored(ctx) and _config_read(ctx, n):
            why = why_not_copied(ctx.resolver, n, ctx.sites.scope_of.at(n, ctx.sites.module))
        elif isinstance(n.value, ast.Name):
            why = why_not_passed(ctx.resolver, n.value, scope, ctx.pos(test))
        else:
            why = why_not_held(ctx.resolver, n.value, scope, n.attr)
        if why:
            return why
    return ""


def _held(ctx, test, dests) -> list:
    """The flags a test reads through an attribute of the method's own object (`self.args.prof`), or through a
    parameter of its function not shown to hold the parsed flags (`args.prof` in `def train(args)`, for an argparse
    flag: absl's FLAGS is one object per process)."""
    import ast
    from ..values.passed_args import parameter_of, why_not_passed
    scope = ctx.sites.scope_of.at(test, ctx.sites.module)
    me = scope.self_name if scope is not None else None
    found = [n for n in ast.walk(test) if me and isinstance(n, ast.Attribute) and n.attr in dests and
             isinstance(n.value, ast.Attribute) and isinstance(n.value.value, ast.Name) and n.value.value.id == me]
    # (a parameter shown to hold them is read as the flags are where parse_args() is called: not listed)
    argparse = {f.dest for f in flag_table(ctx).values() if f.kind == "argparse"}
    found += [n for n in ast.walk(test) if isinstance(n, ast.Attribute) and n.attr in dests and n.attr in argparse and
              isinstance(n.value, ast.Name) and n.value.id != me and
              parameter_of(ctx.resolver, n.value, scope, ctx.pos(test)) is not None and
              why_not_passed(ctx.resolver, n.value, scope, ctx.pos(test))]
    # a flag's copy in a config object (`cfg.prof = args.prof`) not shown to hold it here (values/config_args.py)
    found += [n for n in ast.walk(test) if isinstance(n, ast.Attribute) and n.attr in dests and
              n.attr in _stored(ctx) and _config_read(ctx, n) and not _copied(ctx, n)]
    return found


def _terms(g) -> list:
    """The tests that must all hold for the guard `g` to hold: the operands of an `and` (of an `or` in its else
    branch, each of which must then fail), else the test itself."""
    import ast
    t = g.test
    if isinstance(t, ast.BoolOp) and isinstance(t.op, ast.Or if g.negated else ast.And):
        return [v for op in t.values for v in _terms(g._replace(test=op))]
    return [t]


def _passed(g: Given) -> str:
    """How the launcher passes a flag: `--x=v from run.sh:3`."""
    return f"{g.option}{'=' + g.text if g.text else ''} from {g.where}"
