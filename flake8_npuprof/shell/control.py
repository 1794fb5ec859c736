"""The interpreter's compounds: functions (defined, walked where they are called with their arguments, those never
called walked once as bodies that may run), the tests, loops and `case`s it can decide (`[[ $1 == --x* ]]`, `for
para in $*`, `while [ -n "$1" ]`, `while getopts`, `case` on a known word), and how `break`, `exit`, `( )` and
`{ }` end or close what is open."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from ..source.files import rel_path
from ..source.text import HOLE
from .parse import brace_body, _case_arms, _loop_body, _words_in
from .state import _LOOPS, _NAME, Setting, WalkState, _Block
from .words import glob_match


_AND_OR = ("&&", "||")
_TEST_HEADS = ("[", "test")
_STATUS = {"true": True, ":": True, "false": False}     # the builtins whose status is known


class Compounds(WalkState):
    """Walk's compounds (walk.py): they change the walk's state and walk bodies with its _statements."""

    def _define(self, name: str, text: str, src, path: str, brace: int) -> Optional[int]:
        """Record a function whose body starts at the `{` at brace; where the walk goes on (after its `}`), or None when
        its end is not found (it is then walked where it is defined, as a body that may run)."""
        found = brace_body(text, brace)
        if found is None or not _NAME.fullmatch(name.replace("-", "_").replace(".", "_")):
            return None
        body, stop, after = found
        self.functions[name] = (path, text, src, body, stop)
        return after

    def _call(self, name: str, words, depth: int, conditional: bool) -> None:
        """Walk a function's body where it is called: `$1`.. are its arguments (`$0` stays the script's)."""
        path, text, src, body, stop = self.functions[name]
        self._called.add(name)
        saved, outer = self.args, self.current
        self.args = [w.text for w in words[1:]] if all(w.text != HOLE for w in words[1:]) else None
        self._calling.append(name)
        self.current = path
        outer_locals, self._local_saved = self._local_saved, {}
        try:
            self._statements(text, src, path, depth, conditional, body, stop)
        finally:
            self._calling.pop()
            self._unlocal(outer_locals)
            self._returned = False
            self.current = outer
            self.args = saved

    def _unlocal(self, outer: Dict[str, tuple]) -> None:
        """A function returns: the names it made `local` have their values from before the call again (bash 5.2:
        `f() { local P=x; }; f; export P; env` shows no P); outer: the caller's own locals, in force again. One made
        local in a branch (`[ -n "$X" ] && local P`) may have been set global instead: its value is no longer known."""
        for name, (before, exported, sure) in self._local_saved.items():
            if not sure:
                self._unknown_value(name)
                self._changed(name)
                continue
            self.vars.pop(name, None)
            self.exported.pop(name, None)
            if before is not None:
                self.vars[name] = before
            if exported is not None:
                self.exported[name] = exported
            self._changed(name)
        self._local_saved = outer

    def uncalled(self) -> None:
        """The functions no call the walk saw: walked once as bodies that may run (a call it cannot see, such as
        `"$@"` naming one, may run them), with arguments not known."""
        for name, (path, text, src, body, stop) in list(self.functions.items()):
            if name not in self._called and not self.ended:
                self._called.add(name)
                saved, self.args = self.args, None
                self._calling.append(name)
                self._acts.append(False)        # (called from where the walk cannot see: set -e may not act)
                outer, self.current = self.current, path
                outer_locals, self._local_saved = self._local_saved, {}
                try:
                    self._statements(text, src, path, 0, True, body, stop)
                finally:
                    self._calling.pop()
                    self._acts.pop()
                    self._unlocal(outer_locals)
                    self._returned = False
                    self.current, self.args = outer, saved

    def _test(self, text: str, spans, op: str) -> Optional[bool]:
        """The outcome of an `if`/`elif`/`while` condition when it is a test of values known here (`[[ $1 == --x* ]]`,
        `[ -n "$1" ]`, `[ $# -gt 0 ]`, `test ...`); None for anything else."""
        if not spans or op not in (";", "\n"):
            return None             # `if a && b`: a list, not one test
        head = text[spans[0][0]:spans[0][1]]
        if len(spans) == 1 and head in _STATUS:
            return _STATUS[head]    # `if true`, `if false`: the builtins' status
        if len(spans) == 1 and head.startswith("[[") and head.endswith("]]"):
            inner = [(a, min(b, spans[0][1] - 2)) for a, b, _ in _words_in(text, spans[0][0] + 2, spans[0][1] - 2)]
            return self._expr(text, inner, True)
        if head == "[" and text[spans[-1][0]:spans[-1][1]] == "]":
            return self._expr(text, spans[1:-1], False)
        if head == "test":
            return self._expr(text, spans[1:], False)
        return None

    def _tests(self, text: str, spans, op: str, lexed: list, k: int) -> Optional[bool]:
        """_test of an `if`/`elif` condition that may be an and-or list of tests (`if [ $# != 2 ] && [ $# != 3 ]`, 226
        lines of mindspore-ai/models' launchers): the commands after lexed[k] up to the one its `; then` ends, each a
        test of values known here or its outcome not needed (`false && x`); bash reads && and || alike, left to right.
        None when one is another command (it may change what the branch sees) or not known where it counts."""
        known = self._test(text, spans, op if op not in _AND_OR else ";")
        while op in _AND_OR:
            k += 1
            if k >= len(lexed) or not lexed[k][0] or \
                    not text.startswith(_TEST_HEADS, lexed[k][0][0][0], lexed[k][0][0][1]):
                return None     # (`[[ ... ]]` is one word)
            words, after, _ = lexed[k]
            test = self._test(text, words, ";")
            if op == "&&":
                known = False if known is False or test is False else None if None in (known, test) else True
            else:
                known = True if known is True or test is True else None if None in (known, test) else False
            op = after
        return known if op in (";", "\n") else None

    def _expr(self, text: str, spans, double: bool) -> Optional[bool]:
        raw = [text[a:b] for a, b in spans]
        for joiner, either in (("||", True), ("-o", True), ("&&", False), ("-a", False)):
            if joiner in raw and (double or joiner.startswith("-")):
                k = raw.index(joiner)
                sides = (self._expr(text, spans[:k], double), self._expr(text, spans[k + 1:], double))
                if either:
                    return True if True in sides else None if None in sides else False
                return False if False in sides else None if None in sides else True
        if raw[:1] == ["!"]:
            inner = self._expr(text, spans[1:], double)
            return None if inner is None else not inner
        values = [self.expand(text, a, b).text for a, b in spans]
        if any(HOLE in v for v in values) or "(" in raw or ")" in raw:
            return None
        if len(values) == 1:
            return values[0] != ""
        if len(values) == 2 and raw[0] in ("-n", "-z"):
            return (values[1] != "") == (raw[0] == "-n")
        if len(values) == 2 and raw[0] in ("-d", "-e", "-f") and values[1]:
            # `[ -d ./data ]`: true where the walk knows the path is there (made by a `mkdir` before, or of the tree
            # with nothing met that may remove it); never false (the tree may lack what the run has)
            there = bool(self.dirs) and self.rounds is None and all(
                self._known_there(os.path.normpath(os.path.join(d, values[1])), raw[0] == "-d") or
                raw[0] == "-e" and self._known_there(os.path.normpath(os.path.join(d, values[1])), False)
                for d in self.dirs)
            return True if there else None
        if len(values) != 3:
            return None
        left, how, right = values[0], raw[1], values[2]
        if how in ("==", "=", "!="):
            # in [[ ]] an unquoted right side is a pattern; a quoted one (or [ ]) is compared as it is
            same = glob_match(left, right) if double and not any(c in raw[2] for c in "'\"\\") else left == right
            if same and right.startswith("-"):
                self.parsed.append((right, self.current, spans[2][0]))
            return same if how != "!=" else not same
        ints = {"-eq": int.__eq__, "-ne": int.__ne__, "-gt": int.__gt__, "-ge": int.__ge__, "-lt": int.__lt__,
                "-le": int.__le__}
        if how in ints and re.fullmatch(r"-?\d+", left) and re.fullmatch(r"-?\d+", right):
            return ints[how](int(left), int(right))
        return None

    def _evaluated(self, text, src, path, depth, inside, words, op, at) -> Optional[int]:
        """Walk a `for`/`while` loop over the launcher's arguments (`for para in $*`, `while [ -n "$1" ]`,
        `while [[ $# -gt 0 ]]`, `while getopts`), or a `case` of a word known here, as bash runs it: each round with
        its values, each `if`/`case` inside decided. Returns where the walk goes on (after `done`/`esac`), or None
        when the compound is not one of these (it is walked as before: its body may or may not run)."""
        head = text[words[0][0]:words[0][1]]
        if head == "case":
            return self._case(text, src, path, depth, inside, words, at)
        found = _loop_body(text, at)
        if found is None or self.args is None:
            return None
        body, stop, end = found
        rounds = 0
        if head == "for":
            items = [text[a:b] for a, b in words[1:]]
            if not (len(items) == 1 or (len(items) >= 3 and items[1] == "in" and len(items) == 3 and
                                        items[2] in ("$*", "$@", '"$@"', '"$*"', "${@}", '"${@}"', "${*}"))):
                return None
            name = items[0]
            if not _NAME.fullmatch(name):
                return None
            values = list(self.args) if items[2:] in ([], ['"$@"'], ['"${@}"']) else [" ".join(self.args)] \
                if items[2:] == ['"$*"'] else [x for a in self.args for x in re.split(r"[ \t\n]+", a) if x]
            # (unquoted $* and $@ split each argument at IFS: `for para in $*` with "--data_path=/my data" gives
            # "--data_path=/my", then "data")
            line = src.position(words[0][0])[0]
            for value in values:
                self.vars[name] = Setting(value, path, line, words[0][0], "plain")
                self._changed(name)
                if not self._round(text, src, path, depth, inside, body, stop):
                    break
            return end
        if head != "while" or len(words) < 2:
            return None
        cond = words[1:]
        if text[cond[0][0]:cond[0][1]] == "getopts":
            return self._getopts(text, src, path, depth, inside, cond, body, stop, end)
        conds = [text[a:b] for a, b in cond]
        if not any(re.search(r"\$\{?[1#]", c) for c in conds):
            return None             # only loops over the arguments: any other is walked as before
        # each round that goes on shifts at least one argument (else bash loops for ever): as many rounds as there are
        # arguments as the loop begins, and one that finds none (the bound read once: the shifts shorten self.args)
        limit = len(self.args) + 1
        while rounds <= limit:
            rounds += 1
            holds = self._test(text, cond, op)
            if holds is None:
                return None if rounds == 1 else self._lost(end)
            if not holds or not self._round(text, src, path, depth, inside, body, stop):
                return end
            if self.args is None:       # _round sets it (mypy keeps it narrowed across the call)
                return self._lost(end)  # type: ignore[unreachable]
        return self._lost(end)      # it does not consume its arguments: bash would loop for ever

    def _round(self, text, src, path, depth, inside, body, stop) -> bool:
        """One round of an evaluated loop's body; False when the loop ends there (`break`, `exit`, or a way out that
        may or may not be taken)."""
        outer, self._loop = self._loop, ""
        try:
            self._statements(text, src, path, depth, inside, body, stop)
            how = self._loop
        finally:
            self._loop = outer
        if how == "unknown":
            self.args = None
        return how in ("", "continue") and not self.ended

    def _lost(self, end: int) -> int:
        """An evaluated loop whose end cannot be followed: the arguments are no longer known after it."""
        self.args = None
        return end

    def _getopts(self, text, src, path, depth, inside, cond, body, stop, end) -> Optional[int]:
        """`while getopts "ab:" opt; do case $opt in ...`: each option in turn, with its OPTARG, as getopts gives
        them (it stops at the first word that is not an option, or at `--`)."""
        if len(cond) < 3:
            return None
        spec = self.expand(text, *cond[1]).text
        name = text[cond[2][0]:cond[2][1]]
        if HOLE in spec or not _NAME.fullmatch(name):
            return None
        line = src.position(cond[0][0])[0]
        args, k = list(self.args or []), 0
        rounds: List[Tuple[str, Optional[str]]] = []     # (letter, OPTARG)
        while k < len(args) and args[k].startswith("-") and args[k] not in ("-", "--"):
            word, k = args[k], k + 1
            j = 1
            while j < len(word):
                letter = word[j]
                at = spec.find(letter)
                if letter == ":" or at < 0:
                    rounds.append(("?", None))
                    j += 1
                    continue
                if spec[at + 1:at + 2] == ":":
                    value = word[j + 1:] if j + 1 < len(word) else (args[k] if k < len(args) else None)
                    if j + 1 >= len(word):
                        k += 1
                    rounds.append((letter, value) if value is not None else ("?", None))
                    break
                rounds.append((letter, None))
                j += 1
        if args[k:k + 1] == ["--"]:
            k += 1
        for letter, value in rounds:
            self.vars[name] = Setting(letter, path, line, cond[0][0], "plain")
            self._changed(name)
            if value is not None:
                self.vars["OPTARG"] = Setting(value, path, line, cond[0][0], "plain")
                self._changed("OPTARG")
            if not self._round(text, src, path, depth, inside, body, stop):
                return end
        self.vars["OPTIND"] = Setting(str(k + 1), path, line, cond[0][0], "plain")
        self._changed("OPTIND")
        return end

    def _case(self, text, src, path, depth, inside, words, at) -> Optional[int]:
        """`case WORD in ... esac` with WORD known: only the arm whose pattern matches runs (and, after `;&`, the
        next one)."""
        if len(words) != 3 or text[words[2][0]:words[2][1]] != "in":
            return None
        word = self.expand(text, *words[1]).text
        arms = _case_arms(text, at)
        if HOLE in word or arms is None:
            return None
        items, end = arms
        for patterns, body, stop, _ in items:
            if any(HOLE in p or "$" in p for p in patterns):
                return None         # a pattern built from a variable: not followed
        falling = False
        for patterns, body, stop, how in items:
            if falling or any(glob_match(word, p) for p in patterns):
                self.parsed.extend((p, self.current, body) for p in patterns
                                   if p.startswith("-") and glob_match(word, p))
                self._statements(text, src, path, depth, inside, body, stop)
                if self.ended or self._loop:
                    return end
                falling = how == ";&"
                if how != ";;&" and not falling:
                    break
        return end

    def _cut_short(self, blocks: List["_Block"], how: str = "(`break`, `continue` or `exit` in it)") -> None:
        """`break`, `continue` or `exit` in a loop (how: what may end it): it may stop early, so how often its body
        runs is not known."""
        loop = next((b for b in reversed(blocks) if b.kind in _LOOPS), None)
        if loop is not None and not loop.broken:        # once broken, later commands get 0 where they are made
            loop.broken = True
            for i in range(loop.first, len(self.commands)):
                self.commands[i] = self.commands[i]._replace(ranks=0)
        for b in blocks:
            if b.values:
                # the rounds may stop early: the folders they make are not all entered (bash 5.2: `if [ $i -eq 1 ];
                # then exit; fi` after `cd ./d$i ... cd ..` ran in d0 and d1 alone)
                why = f"the loop at {rel_path(b.at[0], self.root)}:{b.at[1]} may end early {how}: not each folder " \
                    "its rounds make is entered"
                b.values = ()
                self.loop_ends[b.at] = why
                for i in range(b.first, len(self.commands)):
                    c = self.commands[i]
                    if c.rounds is not None and (c.rounds.path, c.rounds.line) == b.at:
                        self.commands[i] = c._replace(cwd=(), rounds=None, lost=why)
                if self.rounds is not None and (self.rounds.path, self.rounds.line) == b.at:
                    self.dirs, self.rounds, self.lost = (), None, why

    def _end(self, path: str, line: int, code: str) -> None:
        """This shell ends at path:line (`exit code`, `exec cmd`, or a failure under set -e)."""
        self.ended = True
        self.exit_code = code
        if not self._chain and self.exited is None:
            self.exited = (path, line)
        elif self._chain and self.child_end is None:
            self.child_end = (path, line)

    def _ends_after(self, block: "_Block", op: str, piped: bool) -> bool:
        """After `)` or `}` of a block an exit ended: whether this shell ends too (and the walk of this file). A
        group runs in this shell, unless it is piped or in the background; a subshell's failing exit stops this
        shell under set -e, unless what follows handles it (`|| x`, `&& x`, a pipe, `&`)."""
        if block.exit is None or op == "&" or piped or op == "|":
            return False
        path, line, code = block.exit
        if block.kind.startswith("group"):
            self._end(path, line, code)
            return True
        if self.errexit and op not in ("&&", "||") and code not in ("", "0") and block.state != "tested":
            self._end(path, line, code)     # (not `! ( exit 1 )`, nor a definition's `then g() ( exit 1 )`)
            return True
        return False

    def _after_block(self, block: "_Block", op: str) -> None:
        """`( ... ) &`, `{ ...; } || x`, `( ... ) | tee log`: the block's commands run in the background, or a failure
        in them does not stop this shell (set -e is off inside a list before && / ||)."""
        pipe_exempt = op == "|" and not self.pipefail       # a piped block runs in a subshell: its stops stay there
        for i in range(block.first, block.end):
            c = self.commands[i]
            if op == "&":
                self.commands[i] = c._replace(background=True)
            elif op in ("&&", "||") or pipe_exempt:
                self.commands[i] = c._replace(errexit=False, chained=op == "&&" and i == block.end - 1)

    def _state(self) -> tuple:
        """What a subshell gets as a copy (the shell's variables are changed in place)."""
        return (dict(self.vars), dict(self.exported), self.dirs, self.settled, self.all_export, self.errexit,
                self.pipefail, self.rounds)

    def _close(self, blocks: List["_Block"], kind: str, restore: bool = False) -> Optional["_Block"]:
        """Close the innermost open block of this kind ("loop": for/while/until/select); blocks left open inside it
        (a parse we do not follow) close with it. A subshell's settings, exports and `cd` do not come back, nor
        (restore) those of a group run in the background or piped, which bash runs in a subshell too."""
        kinds = _LOOPS if kind == "loop" else ("group", "group?", "function") if kind == "brace" else \
            (kind, kind + "?")
        at = next((k for k in range(len(blocks) - 1, -1, -1) if blocks[k].kind in kinds), None)
        if at is None:
            return None
        block = blocks[at]
        del blocks[at:]
        block.end = len(self.commands)
        if block.saved is not None and (restore or block.kind.startswith("subshell")):
            saved = block.saved
            # logged again only what the block changed (the log is replayed for every later command's environment)
            # (in the order they are set, not a set's: the log's order is the order of later environments)
            names = dict.fromkeys(n for table, old in ((self.vars, saved[0]), (self.exported, saved[1]))
                                  for n in (*table, *old) if table.get(n) is not old.get(n))
            (self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.pipefail,
             self.rounds) = saved
            for name in names:
                self._changed(name)
        return block
