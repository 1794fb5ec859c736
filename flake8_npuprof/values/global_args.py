"""The namespace a global accessor hands to training code (`args = get_args()`), as one launch makes it.

Megatron-style projects parse their flags once, at start-up, into one namespace kept in a module global, and every
function reads it back through an accessor (`get_args()` returns that global). The options come from many places:
the project's own modules register theirs (`def register_args(self, parser): group.add_argument(...)`, reached
through the script's imports), and the framework registers the rest, often from code that is not in the project
(an empty Megatron-LM submodule). So `args.x` read through an accessor is:

- the value the launch passes for it, bound to the project's definition of the option, else to the kind the
  framework's own parser gives it (data/global_args.json);
- else the project's default, where the project defines the option (once, or alike everywhere);
- else unknown: a framework default that is not on disk is never guessed (they change between versions);
- for an attribute the framework sets at run time (`args.iteration`), what the data says it is in this launch.

An accessor is a function named in the data (`megatron.training.get_args`), or one of the project's own that
returns a module global which another of its functions assigns (`global _ARGS; _ARGS = args`). Nothing is
imported or run.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..knowledge import global_args as K
from ..source.text import HOLE
from .launch_args import OPEN, Given, given_values
from .ops import C, L, U
from .project import Lookup, Module, import_ref
from .resolve import FlagDef


class Namespace:
    """dest -> the values `args.dest` has in one launch (see the module's docstring)."""

    def __init__(self, defs: Dict[str, List[Tuple[Module, FlagDef]]], given: Dict[str, Given],
                 lists: Dict[str, list], framework_flags: Dict[str, FlagDef], cwd: Optional[str] = None):
        self.defs = defs                    # the project's own definitions, by dest
        self.given = given                  # the launch's words bound to them (and to framework_flags)
        self.lists = lists                  # dest -> values of an option taking a list (nargs), as passed
        self.framework_flags = framework_flags      # the framework's options the project does not define
        self.cwd = cwd                      # the launch's directory, where known
        # the framework's release the project pins (emulate/pinned.Pin: defaults, said, why), where read
        self.pin: Any = None
        self.pinned_read: Dict[str, str] = {}      # dest -> option, for each default the pin gave

    def values(self, lookup: Lookup, framework: Optional[str], dest: str, anchor, switch: bool) -> list:
        if dest in self.lists:
            return self.lists[dest]
        own = self.defs.get(dest, [])
        if own:
            module, flag = own[0]
            if dest not in self.given and len({definition_shape(f) for _, f in own}) > 1:
                return [U(f"{flag.option} is defined {len(own)} times in the project, not alike: which "
                          "definition the parser keeps is not known here", flag.py_type)]
            saved, lookup.given = lookup.given, self.given  # type: ignore[assignment]
            try:
                return lookup._flag_values(module, flag, anchor, switch)
            finally:
                lookup.given = saved
        theirs = self.framework_flags.get(dest)
        if theirs is not None:
            found = given_values(theirs, self.given)
            if found is not None:
                return found
            pin = self.pin
            if pin is not None and dest in pin.defaults:        # the release the project pins (data, per release)
                self.pinned_read.setdefault(dest, theirs.option)
                return [C(pin.defaults[dest], None, f"the default of {theirs.option} in {pin.said}")]
            return [U(self.unknown_default(dest, framework) or "", theirs.py_type)]
        late = K.set_at_run_time(framework).get(dest) if framework else None
        if late is not None:
            return [self._set_at_run_time(framework or "", dest, late)]
        return [U(f"args.{dest} is neither an option the project defines nor one {framework or 'the framework'} "
                  "is known to set: not known here")]

    def unknown_default(self, dest: str, framework: Optional[str]) -> Optional[str]:
        """Why `args.dest` is not known in this launch, where it is the framework's option, not passed, whose
        default the project does not define nor pin; else None."""
        theirs = self.framework_flags.get(dest)
        pin = self.pin
        if theirs is None or dest in self.given or OPEN in self.given or dest in self.lists or \
                pin is not None and dest in pin.defaults:
            return None
        return (f"{theirs.option} is not passed, and its definition ({framework}'s) is not in this project: its "
                f"default is not known here{f' ({pin.why})' if pin is not None else ''}")

    def run_time_value(self, framework: str, dest: str):
        """What `args.dest` is in this launch, for an attribute the framework sets at run time (None: not one)."""
        late = K.set_at_run_time(framework).get(dest)
        return self._set_at_run_time(framework, dest, late) if late is not None else None

    def _set_at_run_time(self, framework: str, dest: str, late: dict):
        passed = [g for g in self.given.values() if g.option in late["unless_given"]]
        zero = next((g for g in self.given.values() if g.option == late.get("zero_with")), None)
        if passed and zero is not None and not any(g.option == late.get("zero_unless") for g in passed):
            # load_checkpoint starts a --finetune run at 0, whatever the checkpoint holds (or none is found)
            return C(0, None, f"args.{dest}, which {framework} sets to 0 for a {zero.option} run ({zero.option} "
                     f"from {zero.where})")
        tracked = [g for g in passed if g.option in late.get("tracked_by", ())]
        if tracked and len(tracked) == len(passed) and all(g.text and HOLE not in g.text for g in tracked):
            return U(f"args.{dest} is set when the job loads a checkpoint: {framework} reads "
                     f"{' or '.join(self._tracker(g, late['tracker']) for g in tracked)} to find it, then takes the "
                     f"{dest} saved in the checkpoint; neither is read here")
        if passed:
            g = passed[0]
            return U(f"args.{dest} is {late['else']} ({g.option} from {g.where})")
        if OPEN in self.given:
            return U(f"args.{dest} is {late['value']} unless {' or '.join(late['unless_given'])} is passed, which the "
                     f"unknown arguments at {self.given[OPEN].where} may do")
        return C(late["value"], None, f"args.{dest}, which {framework} sets to {late['value']} when none of "
                 f"{', '.join(late['unless_given'])} is passed")


    def _tracker(self, g: Given, name: str) -> str:
        """Where the checkpoint directory a flag names keeps its tracker file, as the launch's directory makes it, and
        whether it is on disk here."""
        path = os.path.join(g.text or "", name)
        if not os.path.isabs(path):
            if self.cwd is None:
                return f"{path} ({g.option} from {g.where}, in the launch's directory, which is not known here)"
            path = os.path.normpath(os.path.join(self.cwd, path))
        return f"{path} ({g.option} from {g.where}; {'on disk' if os.path.isfile(path) else 'not on disk'} here)"


def definition_shape(flag: FlagDef) -> tuple:
    """What decides a definition's value: its action, type and default as written."""
    return (flag.action, ast.dump(flag.type_node) if flag.type_node is not None else "",
            ast.dump(flag.default) if flag.default is not None else "", flag.has_default)


def framework_flag(dest: str, option: str, kind: str) -> FlagDef:
    """A FlagDef standing for the framework's own definition, without its default (it is not used)."""
    spelled = {"switch": "action='store_true'", "int": "type=int", "str": "type=str",
               "int_list": "nargs='+', type=int"}[kind]
    call = ast.parse(f"parser.add_argument({option!r}, {spelled})", mode="eval").body
    assert isinstance(call, ast.Call)
    kw = {k.arg: k.value for k in call.keywords}
    py_type = bool if kind == "switch" else int if kind == "int" else str if kind == "str" else list
    action = "store_true" if kind == "switch" else ""
    # no scope: it has no default to read
    return FlagDef(dest, option, "argparse", py_type, None, False, call, None, action,  # type: ignore[arg-type]
                   kw.get("type"))


def accessor(lookup: Lookup, stmt: ast.AST, local: str, rest: Sequence[str]) -> Optional[Tuple[str, Optional[str]]]:
    """(dotted name, framework or None) when `local.rest()` calls a global accessor, else None."""
    ref = import_ref(stmt, local)
    if ref is None:
        return None
    level, parts = ref
    dotted = ".".join(list(parts) + list(rest))
    framework = K.framework_of(dotted) if not level else None
    found = lookup._locate(lookup.filename, level, list(parts) + list(rest))
    if found is not None and not found[2] and _returns_a_global(found[0], found[1]):
        return dotted, framework
    if framework is not None and found is None:
        return dotted, framework            # the framework's own, not on disk
    return None


def _returns_a_global(module: Module, name: str) -> bool:
    """`def name(): ... return _ARGS` where _ARGS is a module global another function of the module assigns."""
    funcs = [n for n in getattr(module.tree, "body", []) if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(funcs) != 1:
        return False
    func = funcs[0]
    if func.args.args or func.args.posonlyargs or func.args.kwonlyargs or func.args.vararg or func.args.kwarg:
        return False
    returns = [n for n in ast.walk(func) if isinstance(n, ast.Return)]
    if not returns or not all(isinstance(r.value, ast.Name) for r in returns):
        return False
    names = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if len(names) != 1:
        return False
    held = names.pop()
    declared = any(isinstance(n, ast.Global) and held in n.names for n in ast.walk(module.tree))
    top = any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == held for t in n.targets)
              for n in getattr(module.tree, "body", []))
    return declared and top


class AccessorLookup(Lookup):
    """A module's lookup in one launch: `args.x` with `args = get_args()` (an accessor) is the launch's namespace."""

    def __init__(self, filename: str, tree: ast.AST, namespace: Namespace):
        super().__init__(filename, tree)
        self.namespace = namespace
        self.read: Dict[str, Optional[str]] = {}    # the accessors met: dotted name -> framework

    def parsed_flag(self, stmt: ast.AST, local: str, rest: Sequence[str], dest: str, anchor,
                    switch) -> Optional[list]:
        found = super().parsed_flag(stmt, local, rest, dest, anchor, switch)
        if found is not None:
            return found
        which = accessor(self, stmt, local, rest)
        if which is None:
            return None
        self.read[which[0]] = which[1]
        return self.namespace.values(self, which[1], dest, anchor, switch)


def list_values(flag: FlagDef, words: Sequence[str], where: str) -> list:
    """What `--x a b c` gives an option taking a list of ints (nargs), as one L; unknown when a word is not an int
    or the option's items are not ints (another type() is not followed)."""
    if getattr(flag.type_node, "id", None) != "int":
        return [U(f"{flag.option} {' '.join(words)} from {where} is a list this emulation does not read")]
    out = []
    for w in words:
        try:
            out.append(C(int(w), None, f"as {flag.option} {' '.join(words)} from {where}"))
        except ValueError:
            return [U(f"{flag.option} {' '.join(words)} from {where} is not a list of ints")]
    return [L(tuple(out))]
