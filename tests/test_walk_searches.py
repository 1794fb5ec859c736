"""The walk's searches over whole files, written to cost less (docs/performance.md, Session s66 walkc): each answers
as the pattern it replaced, whose text the tests keep."""

import random
import re

import pytest

from flake8_npuprof.shell import walk as W

# _e_may_go_off as it was (6.3M instructions for GNMT's wmt16_en_de.sh, 7,820 characters: each pattern that begins
# with `\b` is tried at every character)
_E_OFF_BEFORE = re.compile(r"\+[A-Za-z]*e|\+o|\b(?:set|eval)\s+[\"']?\$|/dev/stdin|/dev/fd/")
_TRAPPED = re.compile(r"\bDEBUG\b|\bRETURN\b")
_TRAP_BY = re.compile(r"\btrap\b|\beval\b|(?:^|[;&|({]|\b(?:then|do|else|time|command|builtin)\b)[ \t]*[\"']?\$",
                      re.MULTILINE)
_SHOPT = re.compile(r"\bshopt\b")
_SHOPT_PLAIN = re.compile(r"shopt(?:[ \t]+(?:-[supq]+|[a-z_]+))*[ \t]*(?:$|[;&|)#])", re.MULTILINE)


def _e_may_go_off_before(text: str) -> bool:
    if _E_OFF_BEFORE.search(text) or _TRAPPED.search(text) and _TRAP_BY.search(text):
        return True
    return any(not _SHOPT_PLAIN.match(text, m.start()) for m in _SHOPT.finditer(text))


@pytest.mark.parametrize("text, off", [
    ("set $o\n", True), ("x=1;set $o", True), ("(eval '$x')", True), ('eval\t"$x"', True), ("set\n$o", True),
    ("reset $o", False), ("xeval $x", False), ("_set $o", False), ("1eval $x", False), ("\u00e9set $o", False),
    ("set x $o", False), ("set -e", False), ("set +e", True), ("set +o errexit", True), ("bash /dev/stdin", True),
    ("source /dev/fd/3", True), ("trap f DEBUG", True), ("echo DEBUG", False), ("RETURN=1", False),
    ("shopt -s nullglob", False), ("shopt -uo errexit", True), ("shopt -q x || true", False), ("", False),
])
def test_what_may_turn_set_e_off_unseen(text, off):
    assert W._e_may_go_off(text) is off
    assert _e_may_go_off_before(text) is off


def test_what_may_turn_set_e_off_unseen_answers_as_before_on_generated_texts():
    rnd = random.Random(66)
    atoms = ["set", "eval", "reset", "xeval", "_set", "\u00e9", "set\t$", "eval '$", " ", "\n", "$", '"', "'", "+",
             "e", "o", "+xe", "/dev/stdin", "/dev/fd/", "DEBUG", "RETURN", "xDEBUG", "trap", "then", "do", ";",
             "shopt", "shopt -s extglob", "shopt -o", "-u", "#", "a", "1", "(", "{"]
    for _ in range(20000):
        text = "".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 12)))
        assert W._e_may_go_off(text) == _e_may_go_off_before(text), text


# the walk's searches led by `\b` before a word, as they were: the word's `\b` is now checked after its letters
_LED_BEFORE = {
    W._FOR_HEAD: r"\bfor\s*(?:\(\(\s*)?",
    W._NAMEREF_FIRST: r"\b(?:declare|typeset|local)\s+-\w*n",
    W._NAMEREF: r"\b(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*n",
}


@pytest.mark.parametrize("pattern", sorted(_LED_BEFORE))
def test_a_search_led_by_a_word_finds_what_the_pattern_led_by_b_found(pattern):
    rnd = random.Random(66)
    atoms = ["for", "xfor", "_for", "fore", "\u00e9", "1", "((", " ", "\t", "\n", "declare", "typeset", "local",
             "redeclare", "locale", "-n", "-xn", "-r", "-", "n", "a", "$", "i", "=", ";"]
    before = re.compile(_LED_BEFORE[pattern])
    now = re.compile(pattern)
    for _ in range(20000):
        text = "".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 10)))
        assert [m.span() for m in now.finditer(text)] == [m.span() for m in before.finditer(text)], text
