"""Runs small argparse parsers on each CPython here (python3.9 to 3.13) and writes what each did with a launch's
words to argparse_runs.json (the record tests/test_argparse_stops.py holds values/argv_words.first_stop to):
`python3 tests/data/argparse_runs.py` (each interpreter run as /root/.pyenv/versions/X/bin/python3)."""

import glob
import json
import os
import subprocess
import sys

# each case: the parser's options ([option strings], {keywords}; "type" names a builtin), exit_on_error, the words, and
# where given the parser's other keywords and the method that parses ("method", parse_args where not given)
CASES = [
    [[], True, ["--xyz", "-h"]],
    [[], True, ["-h", "--xyz"]],
    [[], True, ["--prof", "-h"]],
    [[], True, ["-h"]],
    [[[["--version"], {"action": "version", "version": "1.0"}]], True, ["--xyz", "--version"]],
    [[[["--version"], {"action": "version", "version": "1.0"}]], True, ["--version", "--xyz"]],
    [[], True, ["--prof", "--"]],
    [[], True, ["--"]],
    [[], True, ["--prof", "--", "x"]],
    [[], True, ["--", "--prof"]],
    [[], True, ["--xyz", "--"]],
    [[[["--size"], {"nargs": 2}]], True, ["--prof", "--size", "1"]],
    [[[["--size"], {"nargs": 2}]], True, ["--size", "1", "--prof"]],
    [[[["--size"], {"nargs": 2}]], True, ["--size=1"]],
    [[[["--size"], {"nargs": 2}]], True, ["--size", "1", "2", "--prof"]],
    [[[["--size"], {"nargs": 2}]], True, ["--size", "1", "-h"]],
    [[[["-s", "--size"], {"nargs": "+"}]], True, ["--size", "--prof"]],
    [[[["--n"], {"type": "int"}]], True, ["--prof", "--n", "x"]],
    [[[["--n"], {"type": "int"}]], True, ["--n=x", "-h"]],
    [[[["--n"], {"type": "int"}]], True, ["-h", "--n=x"]],
    [[[["--n"], {"type": "int"}]], True, ["--n", "-1", "--prof"]],
    [[[["--n"], {"type": "float"}]], True, ["--n", "1e-3", "--prof"]],
    [[[["--n"], {"type": "int"}]], True, ["--n", "1.5"]],
    [[[["--m"], {"choices": ["a", "b"]}]], True, ["--prof", "--m", "c"]],
    [[[["--m"], {"choices": ["a", "b"]}]], True, ["--m", "a", "--prof"]],
    [[[["--m"], {"type": "int", "choices": [1, 2]}]], True, ["--m", "3"]],
    [[], True, ["--prof", "x"]],
    [[], True, ["--prof=1", "-h"]],
    [[], True, ["-h", "--prof=1"]],
    [[[["--o"], {}]], True, ["--o", "-h"]],
    [[[["--o"], {}]], True, ["--o"]],
    [[], True, ["--xyz"]],
    [[], True, ["--prof", "--xyz"]],
    [[[["--n"], {"type": "int"}]], False, ["--n", "x"]],
    [[[["--n"], {"type": "int"}]], False, ["--xyz", "-h"]],
    # nargs="?" given no value takes its const=, converted and checked where it is a string
    [[[["--c"], {"nargs": "?", "const": "z", "choices": ["a"]}]], True, ["--c", "-h"]],
    [[[["--c"], {"nargs": "?", "const": "x", "type": "int"}]], True, ["--c", "--prof"]],
    [[[["--c"], {"nargs": "?", "const": "5", "type": "int", "choices": [5]}]], True, ["--c", "-h"]],
    [[[["--c"], {"nargs": "?", "const": 7, "type": "int", "choices": [5]}]], True, ["--c", "-h"]],
    # argparse sorts every word before it reads any: an ambiguous abbreviation anywhere stops it first
    [[[["-a", "--alpha"], {}], [["--abc"], {"action": "store_true"}]], True, ["--help", "--a"]],
    [[[["-a", "--alpha"], {}], [["--abc"], {"action": "store_true"}]], True, ["--alpha", "x", "--abc=1", "--a=1"]],
    [[[["-a", "--alpha"], {}], [["--abc"], {"action": "store_true"}]], True, ["-h", "--", "--a"]],
    # an abbreviation is an option before a word with a space in it is a value: --ab=a b is --abc's
    [[[["--abc"], {"nargs": "+"}]], True, ["--ab=a b"]],
    # a string default is converted where no word gives the option, before the words no option reads are named
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["--prof"]],
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["--prof", "x"]],
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["--n", "1"]],
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["-h"]],
    [[[["--n"], {"type": "float", "default": "1e-3"}]], True, ["--prof"]],
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["--", "x"]],
    # append copies its default and appends to it: a str has no append (AttributeError), after the value's checks
    [[[["--n"], {"action": "append", "default": "x"}]], True, ["--n", "a", "-h"]],
    [[[["--n"], {"action": "append", "default": "x"}]], True, ["--prof"]],
    [[[["--n"], {"action": "append", "default": "x", "type": "int"}]], True, ["--n", "b"]],
    [[[["--n"], {"action": "append"}]], True, ["--n", "a", "--n", "b"]],
    # switches joined to characters that begin no option: python 3.9-3.12 stop there, 3.13 names them at the end
    [[[["-b"], {"action": "store_true"}]], True, ["-bx"]],
    [[[["-b"], {"action": "store_true"}]], True, ["-bx", "-h"]],
    [[[["-b"], {"action": "store_true"}], [["-c"], {"action": "store_false"}]], True, ["-bcx", "--prof"]],
    [[[["-b"], {"action": "store_true"}], [["-c"], {}]], True, ["-bcx", "--prof"]],
    [[[["-b"], {"action": "store_true"}]], True, ["-bx"], {"method": "parse_known_args"}],
    [[[["-b"], {"action": "store_true"}]], True, ["-bxy=1"]],
    # a positional (the parser first_stop does not read): a value refused stops argparse where it is read
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--prof", "--xyz", "--n", "x", "3"]],
    [[[["size"], {"nargs": "?"}], [["--m"], {"choices": ["a", "b"]}]], True, ["3", "--m", "c", "--prof=1"]],
    # an option added under an `if`: the launch read with it and without it
    [[[["--n"], {"type": "int"}]], True, ["--prof", "--n", "x", "-h"]],
    [[], True, ["--prof", "--n", "x", "-h"]],
    [[], True, ["--prof", "--n", "x"]],
    [[], True, ["--prof"]],
    # parse_known_args leaves the words no option reads aside, and stops where parse_args stops while reading
    [[[["--n"], {}]], True, ["--prof", "--n"], {"method": "parse_known_args"}],
    [[[["--n"], {}]], True, ["--xyz", "--n"], {"method": "parse_known_args"}],
    [[], True, ["--prof", "x", "--xyz"], {"method": "parse_known_args"}],
    [[[["--n"], {"type": "int", "default": "abc"}]], True, ["--xyz"], {"method": "parse_known_args"}],
    # a parser whose prefix_chars has no `-` reads a word that begins with `-` as a positional (its options: ++prof)
    [[], True, ["--prof"], {"prefix_chars": "+"}],
    [[], True, ["-h", "x"], {"prefix_chars": "+"}],
    [[], True, [], {"prefix_chars": "+"}],
    # an option given twice where first_stop does not read the parser (a positional): each value converted in turn
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--n", "5", "--prof", "--n", "x"]],
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--n", "x", "--prof", "--n", "5"]],
    # an option added under an `if`, given a value it takes: the script runs with it, stops without it
    [[[["--n"], {"type": "int"}]], True, ["--prof", "--n", "5"]],
    [[], True, ["--prof", "--n", "5"]],
    # prefix_chars="+": `++` words read as `--` words are where it is `-`; `--` words are positionals; `--` itself
    # ends the options all the same
    [[], True, ["++prof"], {"prefix_chars": "+"}],
    [[[["++n"], {"type": "int"}]], True, ["++prof", "++n", "x"], {"prefix_chars": "+"}],
    [[[["++m"], {}]], True, ["++m", "++prof"], {"prefix_chars": "+"}],
    [[], True, ["++prof", "--n"], {"prefix_chars": "+"}],
    [[], True, ["++prof", "--", "x"], {"prefix_chars": "+"}],
    [[], True, ["+h", "--n"], {"prefix_chars": "+"}],
    [[], True, ["++pro"], {"prefix_chars": "+"}],
    # the help option where first_stop does not read the parser: read in order, before a positional, a required
    # option or the words no option reads are checked
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "-h"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "--xyz", "-h"]],
    [[[["size"], {"nargs": "?"}]], True, ["-h", "--prof=1"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "3", "4", "--help"]],
    [[[["--m"], {"required": True}]], True, ["--prof", "-h"]],
    [[[["-1", "--n"], {}]], True, ["--prof", "-h"]],
    # a negative number no option takes: a positional, which the parser does not take
    [[], True, ["--prof", "-1"]],
    # positionals: words no option reads, more than they take or fewer than they need
    [[[["size"], {"nargs": "?"}]], True, ["5", "--prof", "3", "--prof"]],
    [[[["size"], {}]], True, ["--prof"]],
    [[[["size"], {}]], True, ["--prof", "5", "6"]],
    [[[["size"], {}]], True, ["--prof", "5"]],
    # an option added under an `if`, then a closing `--`
    [[[["--n"], {"type": "int"}]], True, ["--n", "3", "--prof", "--"]],
    [[], True, ["--n", "3", "--prof", "--"]],
    # a `--` word that begins one option is that option (allow_abbrev, the default)
    [[[["--size"], {"nargs": 2}]], True, ["--pro", "x"]],
    [[[["--size"], {"nargs": 2}]], True, ["--pro", "--si", "1"]],
    [[], True, ["--pro=1"]],
    [[], True, ["--pro"]],
    # a word the launcher computes, in the place of an option's value: what it may be (a number, none)
    [[[["--n"], {"type": "int"}]], True, ["--prof", "--n", "myhost"]],
    [[[["--n"], {"type": "int"}]], True, ["--prof", "--n"]],
    # a switch joined to a `-`: its value, which it does not take (every release, parse_known_args too)
    [[[["-b"], {"action": "store_true"}]], True, ["-b-x", "--prof"]],
    [[[["-b"], {"action": "store_true"}]], True, ["-b-x", "--prof"], {"method": "parse_known_args"}],
    [[[["-b"], {"action": "store_true"}]], True, ["-b--x"]],
    [[[["-b"], {"action": "store_true"}], [["-c"], {"action": "store_false"}]], True, ["-bc-", "--prof"]],
    # a value the option's choices= do not hold (MindSpeed-LLM's --profile-level): status 2, parse_known_args too
    [[[["--profile-level"], {"choices": ["level0", "level1", "level2"]}]], True, ["--prof", "--profile-level",
                                                                                    "Level1"]],
    [[[["--profile-level"], {"choices": ["level0", "level1", "level2"]}]], True, ["--prof", "--profile-level",
                                                                                    "Level1"], {"method": "parse_known_args"}],
    # a positional and one `--`: the words after it are the positional's, option words too; the `--` is none
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "--", "x", "y"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "x", "--", "y"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "--", "--xyz"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "--", "-h"]],
    [[[["size"], {"nargs": "?"}]], True, ["--prof", "--"]],
    [[[["size"], {}]], True, ["--prof", "--"]],
    [[[["size"], {}]], True, ["--prof", "--", "x"]],
    [[[["size"], {"nargs": "*"}]], True, ["--prof", "x", "--", "y", "-h"]],
    # a switch joined to characters that begin no option, for a parser with a positional (argp22)
    [[[["size"], {"nargs": "?"}], [["-b"], {"action": "store_true"}], [["--n"], {"type": "int"}]], True,
     ["-bx", "--n", "--prof", "--n"]],
    [[[["size"], {"nargs": "?"}], [["-b"], {"action": "store_true"}]], True, ["-bx", "--prof"]],
    [[[["size"], {"nargs": "?"}], [["-b"], {"action": "store_true"}]], True, ["--prof", "-bx", "-h"]],
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--n", "--prof", "--n"]],
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--n", "--prof", "--n", "5"]],
    # prefix_chars="-+": an option's value, then words no option reads
    [[[["--m"], {"choices": ["a", "b"]}]], True, ["--m", "1", "c", "c", "--prof"], {"prefix_chars": "-+"}],
    [[[["--m"], {"choices": ["a", "b"]}]], True, ["--m", "a", "1", "c", "c", "--prof"], {"prefix_chars": "-+"}],
    # add_help=False: words after `--` (none: the closing `--`)
    [[], True, ["--pro", "--"], {"add_help": False}],
    [[], True, ["--pro", "--", "x"], {"add_help": False}],
    # a plain option's value the launcher computes: none (the next word), several, one that begins with `-` (argp23)
    [[[["--name"], {}]], True, ["--name", "--prof"]],
    [[[["--name"], {}]], True, ["--name", "a", "b", "--prof"]],
    [[[["--name"], {}]], True, ["--name", "-z", "--prof"]],
    [[[["--name"], {}]], True, ["--name", "a", "--prof"]],
    [[[["--name"], {}]], True, ["--name=a", "--prof"], {"method": "parse_known_args"}],
    [[[["--name"], {}]], True, ["--prof", "--name=a", "--name", "x"]],
    # more words no option reads after a computed one than an option takes (nargs=2 the most): status 2 (argp23)
    [[[["--size"], {"nargs": 2}], [["--m"], {"choices": ["a", "b"]}]], True,
     ["--m", "a", "--size", "1", "c", "c", "--prof"], {"prefix_chars": "-+"}],
    [[[["--size"], {"nargs": 2}], [["--m"], {"choices": ["a", "b"]}]], True,
     ["--m", "a", "--", "1", "c", "c", "--prof"], {"prefix_chars": "-+"}],
    # an abbreviation for a parser with a positional (argp23)
    [[[["size"], {"nargs": "?"}]], True, ["5", "--pro", "3"]],
    [[[["size"], {"nargs": "?"}], [["--n"], {"type": "int"}]], True, ["--pro", "--n", "--n", "a", "-1"]],
    # single-dash options with dashes in their names: a word that begins one, or two (argp23)
    [[[["-p-x"], {}]], True, ["-p", "--prof"]],
    [[[["-p-x"], {"action": "store_true"}]], True, ["-p", "x", "--prof"]],
    [[[["size"], {"nargs": "?"}], [["-p-x"], {"action": "store_true"}], [["-p-y"], {}]], True, ["-p", "--prof"]],
    [[[["size"], {"nargs": "?"}], [["-p"], {"action": "store_true"}], [["-p-x"], {}]], True, ["-p-", "--prof"]],
]

RUN = """
import argparse, contextlib, io, json, sys
out = []
for case in json.loads(sys.argv[1]):
    options, on_error, words = case[:3]
    other = dict(case[3]) if len(case) > 3 else {}
    method = other.pop("method", "parse_args")
    parser = argparse.ArgumentParser(prog="train.py", exit_on_error=on_error, **other)
    parser.add_argument(other.get("prefix_chars", "-")[0] * 2 + "prof", action="store_true")
    for names, kw in options:
        kw = dict(kw, **({"type": {"int": int, "float": float}[kw["type"]]} if "type" in kw else {}))
        parser.add_argument(*names, **kw)
    err, printed = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(printed):
            getattr(parser, method)(words)
        out.append(["runs"])
    except SystemExit as e:
        lines = (err.getvalue() or printed.getvalue()).strip().splitlines()
        out.append([e.code, lines[-1] if e.code else ""])
    except argparse.ArgumentError as e:
        out.append(["raises", str(e)])
    except AttributeError as e:     # (not argparse's: the script stops with it, status 1)
        out.append(["raises", f"AttributeError: {e}"])
print(json.dumps(out))
"""


def run(python: str) -> list:
    return json.loads(subprocess.run([python, "-c", RUN, json.dumps(CASES)], capture_output=True, text=True,
                                     check=True).stdout)


def pythons() -> dict:
    """{version: interpreter} of the CPythons 3.9-3.13 here."""
    out = {}
    for path in sorted(glob.glob("/root/.pyenv/versions/3.*/bin/python3")):
        version = path.split("/")[-3]
        if (3, 9) <= tuple(int(p) for p in version.split(".")[:2]) <= (3, 13):
            out[version] = path
    return out


if __name__ == "__main__":
    runs = {v: run(p) for v, p in pythons().items()}
    record = [dict({"options": c[0], "exit_on_error": c[1], "words": c[2]}, **({"parser": c[3]} if c[3:] else {}),
                   runs={v: r[k] for v, r in runs.items()}) for k, c in enumerate(CASES)]
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "argparse_runs.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    sys.exit(0)
