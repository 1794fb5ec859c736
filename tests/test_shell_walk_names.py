"""The walk's searches for a loop's names (shell/walk.py _for_names, _stepped, _mentions) answer as the one pattern
per name each replaced (a pattern compiled the first time each name was met), on texts made of the pieces those
patterns turn on: every mention of the name, what may come before it and after it."""

import random
import re

from flake8_npuprof.shell.walk import _for_names, _mentions, _stepped

NAMES = ("i", "ix", "x1", "_", "RANK_ID", "é1")
PIECES = ("for", "for ", "for((", "for ((", " ((", "((", "))", " ", "\t", "\n", "$", "${", "}", "-", "--", "+", "++",
          "+=", "=", "==", ")", "]", ":", ",", ";", "é", "a", "1", "_", "i", "ix", "x1", "RANK_ID", "é1", "do", "done")


def _texts(count: int):
    pick = random.Random(61)
    for _ in range(count):
        yield "".join(pick.choice(PIECES) for _ in range(pick.randrange(1, 14)))


def test_as_the_patterns_per_name():
    texts = list(_texts(6000))
    for name in NAMES:
        for text in texts:
            assert _for_names(text, name) == (re.search(rf"\bfor\s*(?:\(\(\s*)?{name}\b", text) is not None), text
            assert _stepped(text, name) == (re.search(
                rf"(?<![\w$-]){name}(?:\+?=|\+\+|--)|\+\+{name}\b|--{name}\b(?=\s*[])}}:,])", text) is not None), text
            assert _mentions(text, name) == (re.search(rf"(?<![\w$]){name}\b", text) is not None), text


def test_cases():
    assert _for_names("for ((i=0; i<8; i++))", "i") and _for_names("for i in 1 2", "i")
    assert not _for_names("for ix in 1 2", "i") and not _for_names("xfor i in 1", "i")
    assert _stepped("a; i=1", "i") and _stepped("x=$((++i))", "i") and _stepped("${a[--i]}", "i")
    assert not _stepped("$i=1", "i") and not _stepped("-i=1", "i") and not _stepped("--i x", "i")
    assert _mentions("echo $((i + 1))", "i") and not _mentions("echo $i", "i") and not _mentions("echo xi", "i")


# set_by_value as the one pattern it replaced (each alternative led by `\b`, tried at every character)
_BY_VALUE_ONE = re.compile(r"\bprintf\s+-v\s*[\"']?\$|"
                           r"(?:\blet\b[^\n;]*|\(\([^)]*)"
                           r"(?:\$\{?\w+\}?[\"']?\s*(?:[-+*/%]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*\$)|"
                           r"\b(?:declare|typeset|local|export|readonly)\s+(?:-\w+\s+)*[\"']?\$|"
                           r"\b(?:read|readarray|mapfile)\b[^\n;|&]*\s[\"']?\$")
BY_VALUE_PIECES = ("printf", "let", "xlet", "((", "))", "(", ")", "declare", "typeset", "local", "export", "readonly",
                   "read", "thread", "readarray", "mapfile", "-v", "-n", "-a", " ", "\t", "\n", ";", "|", "&", "$",
                   "${", "}", "n", "i", "é", "_", '"', "'", "=", "==", "+=", "++", "--", "-=", "1")


def test_set_by_value_as_the_one_pattern():
    from flake8_npuprof.shell.parse import set_by_value
    pick = random.Random(62)
    for _ in range(20000):
        text = "".join(pick.choice(BY_VALUE_PIECES) for _ in range(pick.randrange(1, 16)))
        assert set_by_value(text) == (_BY_VALUE_ONE.search(text) is not None), text
    assert set_by_value('printf -v "$n" %s 1') and set_by_value("let $n+=1") and set_by_value("(( $n++ ))")
    assert set_by_value('declare "$n=7"') and set_by_value('read "$n"') and set_by_value("xlet a; let $i++")
    assert not set_by_value("xlet $i++") and not set_by_value('thread "$n"') and not set_by_value("let i+=1")
