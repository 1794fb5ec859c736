"""The launcher scan's line searches, written to cost less (docs/performance.md, Session s67 scanx): each answers as
the code it replaced, whose text the tests keep."""

import glob
import os
import random

import pytest

from flake8_npuprof.engine import launch_scan as S
from flake8_npuprof.shell.state import MAX_COMMANDS

HERE = os.path.dirname(__file__)
LAUNCHERS = sorted(glob.glob(os.path.join(HERE, "**", "*.sh"), recursive=True) +
                   glob.glob(os.path.join(HERE, "..", "examples", "**", "*.sh"), recursive=True))
ATOMS = ["$", "`", '"', "'", "=", " ", "\t", "\n", "\\\n", ";", "|", "&", "{", "!", "(", ")", "[[", "]]", "}", "x",
         "a=1", "c", "$c", "${c}", "$(pwd)", "then", "do", "eval", "exec", "time", "undo", "if", "elif", " $", "\n$",
         '"$', "=$", "x=$y", "\u00e9", "#", "echo"]


def _lines_by_value_before(text):
    """_lines_by_value as it was (every end looked at, by finditer)."""
    starts = set()
    for pattern in S._BY_VALUE_ENDS:
        start = end = -1
        equals = None
        for m in pattern.finditer(text):
            z = m.start() - (text[m.start() - 1] == '"')
            if z > end:
                start = text.rfind("\n", 0, z)
                end = text.find("\n", z)
                end = len(text) if end < 0 else end
                equals = None
            elif start in starts:
                continue
            b = z - 1
            while text[b] in " \t":
                b -= 1
            if text[b] not in S._BY_VALUE_BEFORE:
                if equals is None:
                    equals = text.find("=", start, end)
                if not 0 <= equals < z and not text[max(0, b - 6):b + 1].endswith(S._HEAD_WORDS):
                    continue
            starts.add(start)
    return sorted(starts)


def _heads_before(text):
    """_heads_by_value's answer as its loop over every line gave it (a fresh search of each line)."""
    S._by_line[0] = ({}, {})
    lines = text.split("\n")
    if len(text) > S._LONG_LINE and max(map(len, lines)) > S._LONG_LINE:
        return None
    out = []
    k = text.find(")`")
    if k >= 0:
        positions, innermost = S._parens(text)
        while k >= 0:
            i = S.bisect.bisect_left(positions, k)
            opened = innermost[i - 1] if i else -1
            if opened < 1 or text[opened - 1] != "$":
                out.append(k + 1)
            k = text.find(")`", k + 1)
    if "\\\n" in text:
        text = text.replace("\\\n", "  ")
        lines = text.split("\n")
    work, heads = S._by_line[0]
    if not S._search_lines(sorted(set(lines)), work, heads):
        return None
    if sum(map(work.__getitem__, lines)) > S._SIGN_WORK:
        return None
    at = 0
    for line in lines:
        found = heads.get(line)
        if found:
            out.extend(at + h for h in found)
        at += len(line) + 1
    for line in set(lines):     # (each line's work as its seven counts gave it)
        signs = sum(line.count(c) for c in S._SIGNS)
        assert work[line] == ((len(line) + 1) * signs if S._lines_by_value("\n" + line) else 0), line
    return sorted(set(out))


def _texts(seed, n):
    rnd = random.Random(seed)
    for _ in range(n):
        yield "".join(rnd.choice(ATOMS) for _ in range(rnd.randint(1, 30)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lines_that_may_hold_a_head_by_value_are_those_found_before(seed):
    for text in _texts(seed, 6000):
        text = "\n" + text
        assert S._lines_by_value(text) == _lines_by_value_before(text), text


@pytest.mark.parametrize("seed", [1, 2])
def test_the_heads_by_value_are_those_found_before_with_lines_kept_between_texts(seed):
    S._by_line[0] = ({}, {})
    texts = list(_texts(seed, 3000))
    answers = [S._heads_by_value(text) for text in texts]     # (lines kept from text to text)
    for text, answer in zip(texts, answers):
        assert answer == _heads_before(text), text


def test_the_scan_of_the_project_launchers_finds_what_it_found_before():
    assert LAUNCHERS
    for path in LAUNCHERS:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = S._uncommented(f.read())
        assert S._lines_by_value("\n" + text) == _lines_by_value_before("\n" + text), path
        S._by_line[0] = ({}, {})
        assert S._heads_by_value(text) == _heads_before(text), path


def test_a_text_split_once_is_split_again_when_another_is_asked():
    assert S._lines("a\nb") == ["a", "b"]
    assert S._lines("c") == ["c"]
    assert S._unfollowed("x=1\nset -- a") == "a computed name (set --)"
    assert S._heads_by_value("x=1\n$c a") == [4]


# the patterns _cd_height and _top_level compiled at their first use (2.2M, 1.0M and 0.2M instructions), replaced by
# str methods and runs of _RUN (docs/performance.md, Session s68 scanout)
_NOT_PLAIN_BEFORE = (r"""(?<![\w.-])(?:cd|pushd|popd|dirname|if|then|elif|else|fi|for|while|until|do|done|case|"""
                     r"""esac|select|function|eval|exec|source|alias|trap|CDPATH)(?![\w.-])|\.\.|['"`\\(){}&|$]|"""
                     r"""<<|(?:^|;)[ \t]*\.[ \t]""")
_BLOCK_WORD_BEFORE = r"(?<![\w.-])(if|then|elif|else|fi|case|esac|for|while|until|select|do|done|function)(?![\w.-])"
WORD_ATOMS = ["cd", "pushd", "dirname", "if", "fi", "done", "do", "don", "function", "CDPATH", "eval", ".", "..", "-",
              "_", "x", "\u00e9", " ", "\t", ";", "/", "<<", "<", "${", "}", '"', "'", "$", "(", ")", "&", "|", "\\"]


def _lines_of_words(seed, n):
    rnd = random.Random(seed)
    for _ in range(n):
        yield "".join(rnd.choice(WORD_ATOMS) for _ in range(rnd.randint(0, 12)))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_line_is_plain_as_before(seed):
    import re
    before = re.compile(_NOT_PLAIN_BEFORE)
    for line in _lines_of_words(seed, 8000):
        assert S._not_plain(line) == bool(before.search(line)), line
    assert S._not_plain(" ;\t. env") and S._not_plain("a; . b") and not S._not_plain(".env") and \
        not S._not_plain("x.cd cd- -cd cd. \u00e9cd")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_block_words_and_quotes_in_braces_are_those_found_before(seed):
    import re
    block, quoted = re.compile(_BLOCK_WORD_BEFORE), re.compile(r"\$\{[^}]*[\"']")
    for line in _lines_of_words(seed, 8000):
        assert [(m.start(), m.group()) for m in re.compile(S._RUN).finditer(line) if m.group() in S._BLOCK_WORDS] == \
            [(m.start(), m.group(1)) for m in block.finditer(line)], line
        assert S._quote_in_brace(line) == bool(quoted.search(line)), line


def test_a_word_of_may_start_is_looked_for_before_the_other_searches(monkeypatch):
    """shell_scan.may_start searches its first pattern (`.py`, `.sh`), then its words (`source`, `-m`, `.`), then the
    rest: the same answer in any order, found soonest in this one (docs/performance.md, Session s68 scanout)."""
    from flake8_npuprof.checks import shell_scan

    class Never:
        def search(self, text):
            raise AssertionError("searched after a word was found")

    monkeypatch.setattr(shell_scan, "_MAY_START", shell_scan._MAY_START[:1] + (Never(),))
    assert shell_scan.may_start("source env\n") and shell_scan.may_start("python -m pkg.mod\n")
    assert shell_scan.may_start("bash x.sh\n")


def _may_start_before(text):
    """shell_scan.may_start as it was (every search before the words)."""
    from flake8_npuprof.checks import shell_scan
    if any(p.search(text) for p in shell_scan._MAY_START):
        return True
    for pattern, before in shell_scan._WORDS:
        for m in pattern.finditer(text):
            at = m.start()
            if not at or (text[at - 1] in before if before else not (text[at - 1].isalnum() or text[at - 1] == "_")):
                return True
    return len(text) >= MAX_COMMANDS and sum(text.count(c) for c in shell_scan._COMMAND_ENDS) + 1 > MAX_COMMANDS


@pytest.mark.parametrize("seed", [1, 2])
def test_may_start_answers_as_before(seed):
    from flake8_npuprof.checks.shell_scan import may_start
    rnd = random.Random(seed)
    atoms = ATOMS + [".py", ".sh", "x", "-m", "--mo", "source", "function", ".", "()", "${a%", "${a[0]}%", "]%", "}py",
                     '."py"', "python", "python3 -", "$P", "\\\n", "$1"]
    texts = ["".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 20))) for _ in range(6000)]
    for text in texts + [open(p, encoding="utf-8", errors="replace").read() for p in LAUNCHERS]:
        assert may_start(text) == _may_start_before(text), text
