"""shell/words.py: the one reader of shell words that the walk's parser, the msprof word reader and NPP016 ask."""

import random

from flake8_npuprof.shell import msprof_words
from flake8_npuprof.shell.parse import lexed_commands
from flake8_npuprof.shell.words import (arithmetic_end, comment_end, continuation, read_word, simple_commands,
                                        skip_expansion, unclosed_quote, word_end)
from flake8_npuprof.source.text import HOLE


def _words(text, bodies=False):
    return [[(w.value.text, text[w.start:w.end], w.continued) for w in cmd.words] + [cmd.ender]
            for cmd in simple_commands(text, bodies)]


def test_the_end_of_a_word_is_the_decoder_s_end_wherever_no_redirection_is_in_it():
    # word_end (the walk's, which does not decode) and read_word stop at the same place: one reading of quotes,
    # escapes and nested expansions
    rng = random.Random(40)
    alphabet = ["a", " ", "'", '"', "\\", "$", "`", "{", "}", "(", ")", "\n", "\r", ";", "|", "&", "$(", "${", "$((",
                "))", "x=", "\\\n"]
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        start = rng.randint(0, len(text))
        # (read_word's end passes the text's by one after a `"` never closed)
        assert word_end(text, start) == min(read_word(text, start)[1], len(text)), (text, start)


def test_a_double_quoted_piece_ends_where_the_decoder_ends_it():
    # word_end takes a closed "..." of what stands for itself, escapes, `$name`, `$1` and `${name}` at once; whatever
    # else is in it (`$(...)`, `${x:-y}`, a `$` alone, a backquote), or no closing quote, its loop reads: either way
    # the end read_word gives
    rng = random.Random(55)
    alphabet = ['"', '"', "a", " ", "$x", "$x_1", "$1", "$@", "$$", "$-", "${x}", "${x:-y}", "${x", "$(", ")", "\\",
                '\\"', "`", "'", "$", "\n", ";", "中"]
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        start = rng.randint(0, len(text))
        assert word_end(text, start) == min(read_word(text, start)[1], len(text)), (text, start)
    assert word_end('"${cur_path}/out/$ID"_$1.log >x', 0) == 28
    assert word_end('"a$(echo ")")b" c', 0) == 15
    assert word_end('"$x"y z', 0, 3) == 3           # the closing quote past the end read: the loop's end
    # an unclosed quote of many names: given back a piece at a time (in every split it would never end)
    assert word_end('"' + "$ab" * 3000 + " x", 0) == 9003


def _arithmetic(rng, depth=0):
    """An arithmetic body with nested parentheses and the characters that end commands elsewhere."""
    parts = []
    for _ in range(rng.randint(0, 4)):
        pick = rng.random()
        if pick < 0.25 and depth < 3:
            parts.append("(" + _arithmetic(rng, depth + 1) + ")")
        else:
            parts.append(rng.choice(["i", "+", "1", " ", ";", "#", "<", "&", "|", "x=2", "f(g(x))"]))
    return "".join(parts)


def test_the_walk_and_the_line_readers_leave_out_the_same_comments_and_arithmetic():
    # parse.py (the walk) and simple_commands (the line readers) ask one reader where a comment and an arithmetic
    # command end (words.comment_end, words.arithmetic_end): over texts of commands, arithmetic with nested
    # parentheses and comments, the walk's words are the line readers' plus its arithmetic words, which end where
    # arithmetic_end says
    rng = random.Random(44)
    for _ in range(4000):
        text, joined = "", False
        for _ in range(rng.randint(0, 6)):
            if rng.random() < 0.3 and not joined:           # arithmetic starts a command
                text += "((" + _arithmetic(rng) + "))"
            else:
                text += " ".join(rng.choice(["a", "b", "echo", "x1", "'q r'", '"$v"']) for _ in range(rng.randint(1, 3)))
            if rng.random() < 0.3:
                text += rng.choice([" # c", "#", " # ((x", " # a; b"])
            text += rng.choice(["\n", "; ", " && ", " | ", "\n\n", " \\\n"])
            joined = text.endswith("\\\n")
        walk = [(a, b) for words, _, _ in lexed_commands(text) for a, b in words]
        arithmetic = [(a, b) for a, b in walk if text.startswith("((", a)]
        lines = [(w.start, w.end) for cmd in simple_commands(text) for w in cmd.words]
        assert [w for w in walk if w not in arithmetic] == lines, text
        assert all(b == arithmetic_end(text, a, len(text)) for a, b in arithmetic), text
    assert comment_end("a # b\nc", 2, 7) == 5 and comment_end("a # b", 2, 5) == 5
    assert arithmetic_end("(( f(g(x)) )) b", 0, 15) == 13 and arithmetic_end("(( (", 0, 4) == 4


def test_a_redirection_is_a_word_of_its_own_for_the_walk_and_no_word_for_the_line_readers():
    text = "python3 train.py 2>&1 > log"
    assert [text[a:b] for a, b in lexed_commands(text).__next__()[0]] == ["python3", "train.py", "2>&", "1", ">", "log"]
    assert _words(text) == [[("python3", "python3", False), ("train.py", "train.py", False), ("2", "2", False),
                             ("1", "1", False), ("log", "log", False), ""]]


def test_expansions_nest_and_quotes_hold_inside_them():
    text = 'A="$(dirname "$(readlink -f "$0")")/x" B=`echo a;b` C=${D:-"e f"}$((1<<3))'
    assert [w[0] for w in _words(text)[0][:-1]] == [f"A={HOLE}/x", f"B={HOLE}", f"C={HOLE}"]
    assert skip_expansion(text, 3) == text.index("/x")
    assert skip_expansion("$(case $x in a) echo 1;; esac) rest", 0) == len("$(case $x in a) echo 1;; esac)")


def test_simple_commands_say_which_words_a_line_continuation_joins():
    text = 'MSPROF_OPTS="--output=/tmp/prof " \\\n"--aic-freq=100"\nmsprof $MSPROF_OPTS python3 t.py\n'
    assert _words(text) == [
        [("MSPROF_OPTS=--output=/tmp/prof ", 'MSPROF_OPTS="--output=/tmp/prof "', False),
         ("--aic-freq=100", '"--aic-freq=100"', True), "\n"],
        [("msprof", "msprof", False), (HOLE, "$MSPROF_OPTS", False), ("python3", "python3", False),
         ("t.py", "t.py", False), "\n"],
        [""]]


def test_a_crlf_continuation_joins_lines_for_the_line_readers_and_not_for_the_walk():
    assert continuation("a \\\r\nb", 2) == 3 and continuation("a \\\r\nb", 2, crlf=False) == 0
    assert continuation("a \\\nb", 2, crlf=False) == 2 and continuation("a \\ b", 2) == 0
    assert [w[:2] for w in _words("msprof \\\r\n--x=1\r\n")[0][:-1]] == [("msprof", "msprof"), ("--x=1", "--x=1")]
    assert len([c for c in lexed_commands("msprof \\\r\n--x=1\r\n") if c[0]]) == 2


def test_arithmetic_comments_and_operators_end_or_leave_out_words():
    # `&&` after no word ends no command
    assert _words("(( i++ )) && a b # c d\n") == [[("a", "a", False), ("b", "b", False), "\n"], [""]]
    assert _words("a<<<'x' b") == [[("a", "a", False), ("x", "'x'", False), ("b", "b", False), ""]]


def test_here_document_bodies_are_data_unless_asked_for():
    text = "cat > run.sh <<-'EOF'\n\tmsprof --aicpu=on python3 x.py\n\tEOF\necho done\n"
    assert [c[0][0] for c in _words(text) if len(c) > 1] == ["cat", "echo"]
    assert [c[0][0] for c in _words(text, bodies=True) if len(c) > 1] == ["cat", "msprof", "EOF", "echo"]
    # the msprof reader reads a script the launcher writes
    (call,) = msprof_words.calls_in_shell(text)
    assert [o.name for o in call.options] == ["aicpu"] and call.app == ("python3", "x.py")


def test_an_unclosed_quote_is_where_it_opens():
    assert unclosed_quote('a "b c', 0, 6) == 2
    assert unclosed_quote("$'x\\'y", 0, 6) == 1
    assert unclosed_quote("'a' \"b\" c", 0, 9) is None


def test_the_msprof_reader_places_a_character_inside_a_quoted_application():
    text = 'msprof --output=/tmp/p --application="python3 t.py --x=1"\n'
    (call,) = msprof_words.calls_in_shell(text)
    word = call.options[-1].word
    at = word.text.index("--x")
    assert word.place(at, at + 3) == (text.index("--x"), text.index("--x") + 3)


def test_a_backslash_that_ends_the_file_is_dropped_as_bash_drops_it(tmp_path):
    # MindSpeed-RL's examples/eplb/eplb.sh ends its last line with `\` and no newline: bash runs
    # `python cli/eplb_generate_map_ds.py ... --output_path x.json`; emulate showed the launch with a last word '\'
    from flake8_npuprof.emulate.script import emulate_path
    from flake8_npuprof.knowledge.targets import Target
    assert continuation("a \\", 2) == 1 and continuation("a \\ b", 2) == 0
    assert [w[0] for w in _words("python3 t.py --a 1 \\")[0][:-1]] == ["python3", "t.py", "--a", "1"]
    (tmp_path / "t.py").write_text("print(1)\n")
    for end, shown in (("1 \\", "1"), ("1\\", "1"), ("'1\\'", "'1\\'")):
        (tmp_path / "run.sh").write_text(f"python3 t.py --a {end}")
        report = emulate_path(str(tmp_path / "run.sh"), Target.parse("8.0", "910B"), use_env=False, environ={})
        assert report["launch"]["lines"][0] == f"launch: run.sh:1 python3 t.py --a {shown}"


def test_a_body_of_a_text_read_whole_is_the_slice_of_its_commands_a_fresh_read_gives():
    # parse._lexed gives a function's or loop's body as a slice of the whole text's commands where the lexer is
    # between commands at both ends; a pipeline that goes on over a line break, a here-document still to come, a case
    # pattern or a `)` make it read the part again. Both must give what reading the part alone gives.
    from flake8_npuprof.shell import parse
    texts = ["f() {\n  a=1\n  python3 x.py | tee log &\n}\nf\n",
             "for i in 1 2; do\n  cat <<E; b\nE\n  x |\n  y &\ndone\n",
             "case $1 in\n  a) x;;\n  *) y ;;\nesac\n( cd d ) | z\n{ p; } > log\nq\n"]
    atoms = ["\n", " ", ";", "&", "|", "&&", "(", ")", "{ ", " }", "a", "b=1", "<<E\n", "E\n", "case", " in ", "x)", ";;",
             "esac", "do\n", "done", "# c\n", "'q;'", "$(a;b)"]
    rnd = random.Random(7)
    texts += ["".join(rnd.choice(atoms) for _ in range(rnd.randint(1, 30))) for _ in range(120)]
    spliced = 0
    for text in texts:
        parse._LEXED.pop(text, None)
        whole = parse._lexed(text, 0, None)
        assert whole == list(parse._pipelines(lexed_commands(text)))
        clean = parse._LEXED[text]["clean"]
        # the offsets a slice may start or stop at: where the blanks after each kept offset end
        points = sorted({parse._after_space(text, i, len(text)) for i in clean[0]})
        for start in range(len(text) + 1):
            for stop in [None, *points, len(text)]:
                if stop is not None and stop < start:
                    continue
                parse._LEXED[text] = {(0, None): whole, "clean": clean}
                assert parse._lexed(text, start, stop) == list(parse._pipelines(lexed_commands(text, start, stop)))
                spliced += start in points and (stop is None or stop in points)
            assert [(w, at) for w, _, at in parse._following(text, start)] == \
                [(w, at) for w, _, at in lexed_commands(text, start)]
    assert spliced > 1000
