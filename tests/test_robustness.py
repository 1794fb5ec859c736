"""Bad input never crashes flake8: a clean answer, or one NPP000 finding for the file."""

import ast
import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.cli import main
from flake8_npuprof.source.files import DEFAULT_OFF
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.knowledge.targets import Target

SCRIPT = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = tf.compat.as_bytes({options})
sess = tf.Session(config=config)
'''


def _codes(text, target=Target()):
    """Codes reported by default (the default-off ones left out)."""
    return [f.code for f in analyse(text, None, "x.py", Settings(target=target)) if f.code not in DEFAULT_OFF]


def test_options_added_to_with_plus_equals_are_not_an_internal_error():
    # `.s += b"..."` has no value of its own (ParamSet.value None): it was an AttributeError (NPP000) in
    # npu_optimizer; the options are then built at run time, so they are neither checked nor called missing
    text = SCRIPT.format(options="'{\"output\": \"/tmp/p\"}'").replace(
        "sess =", 'op.parameter_map["profiling_options"].s += b"x"\nsess =')
    assert _codes(text) == []
    text = SCRIPT.replace('op.parameter_map["profiling_options"].s = tf.compat.as_bytes({options})',
                          'op.parameter_map["profiling_options"].s += b"x"')
    assert _codes(text) == []


def test_internal_error_becomes_one_npp000(monkeypatch):
    def boom(ctx):
        raise KeyError("surprise")
    import flake8_npuprof.checks as checks
    monkeypatch.setattr(checks, "run_all", boom)
    findings = analyse(SCRIPT.format(options="'{}'"), None)
    assert [(f.code, f.line, f.col) for f in findings] == [("NPP000", 1, 0)]
    assert "KeyError" in findings[0].message


def test_internal_error_through_real_flake8(tmp_path):
    # a sitecustomize-free way to break the plugin: a file whose analysis raises inside flake8
    target = tmp_path / "x.py"
    target.write_text(SCRIPT.format(options="'{}'"))
    code = ("import sys, flake8.main.cli as c, flake8_npuprof.checks as k\n"
            "k.run_all = lambda ctx: 1/0\n"
            "sys.exit(c.main(['--isolated', '--select', 'NPP,E999', sys.argv[1]]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "NPP000 internal error" in proc.stdout and "ZeroDivisionError" in proc.stdout


def test_a_file_that_does_not_parse_is_a_finding_in_every_front_end(tmp_path, capsys):
    # flake8 runs no plugin on it and says E999 itself: `--select NPP` alone selects E999 too (plugin.py)
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nprofiling_options = (\n")
    try:
        compile(bad.read_text(), "bad.py", "exec")
    except SyntaxError as exc:
        expected = exc                  # what this Python's parser says (3.9: "unexpected EOF while parsing")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and f"{bad}:{expected.lineno}:" in proc.stdout     # (flake8's column varies)
    assert f"E999 SyntaxError: {expected.msg}" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "--extend-ignore", "E999",
                           str(bad)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == ""       # a decision the user made is kept
    # the CLI and the analysis: NPP192 at the parser's position, with its message; not NPP000
    (finding,) = analyse("import os\nprofiling_options = (\n", None, "x.py")
    assert (finding.code, finding.line, finding.col) == ("NPP192", expected.lineno, expected.offset - 1)
    assert f"the file does not parse: {expected.msg} (Python " in finding.message
    assert finding.message.endswith("'s parser), so nothing in it was checked")
    # also a file without any profiling marker: whether a file was checked never depends on the prefilter
    (tmp_path / "plain.py").write_text("def f(:\n    pass\n")
    assert main(["check", "--select", "NPP1", str(tmp_path)]) == 1      # whatever the selection
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" ", 2)[:2] for line in out] == [[f"{bad}:{expected.lineno}:{expected.offset}:", "NPP192"],
                                                        [f"{tmp_path / 'plain.py'}:1:7:", "NPP192"]]


def test_nul_bytes_and_undecodable_files(tmp_path, capsys):
    assert _codes("profiling = 1\x00\n") == ["NPP192"]
    (tmp_path / "nul.py").write_bytes(b"profiling_options = 1\x00\n")
    (tmp_path / "latin.py").write_bytes(b"profiling_options = '\xff\xfe'\n")
    code = main(["check", str(tmp_path)])
    out, err = capsys.readouterr()
    # a file Python cannot decode is a finding (NPP192 on its first bad byte, exit 1), as one that does not parse
    assert code == 1 and not err.startswith(str(tmp_path))
    assert out.splitlines()[0].startswith(f"{tmp_path / 'latin.py'}:1:22: NPP192 the file does not decode: byte 0xff")
    assert out.splitlines()[1].startswith(f"{tmp_path / 'nul.py'}:1:1: NPP192 the file does not parse: ") and "null bytes" in out


def test_declared_encodings_and_bom(tmp_path, capsys):
    latin = SCRIPT.format(options="'{\"output\":\"/tmp/caf\xe9\",\"L2\":\"on\"}'")
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + latin.encode("latin-1"))
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + latin.encode("utf-8"))
    code = main(["check", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert sorted(line.split(":", 1)[1].split(" ")[0] for line in out) == ["6:85:", "7:85:"]


def test_huge_and_deep_options_give_a_clean_answer():
    huge = "'" + '{"output":"/tmp/p","fp_point":"' + "x" * 10_000_000 + "\"}'"
    assert _codes(SCRIPT.format(options=huge)) == ["NPP112"]
    deep = "'" + '{"output":"/tmp/p","task_trace":"on","x":' + "[" * 10000 + "]" * 10000 + "}'"
    assert sorted(_codes(SCRIPT.format(options=deep))) == ["NPP101", "NPP112"]


JSON_VALUES = ["null", "true", "false", "0", "-1", "1.5e3", '""', '"on"', "[]", "{}", '[1,"a"]', '{"a":{}}',
               '"' + "x" * 3000 + '"']


@pytest.mark.parametrize("key", ["output", "storage_limit", "training_trace", "task_trace", "aic_metrics",
                                 "aiv_metrics", "dvpp_freq", "instr_profiling_freq", "host_sys",
                                 "llc_profiling", "fp_point", "fwk_schedule", "unknown"])
@pytest.mark.parametrize("target", [Target(), Target("portable", "310"), Target("8.5", "950")])
def test_every_json_type_for_every_key(key, target):
    for value in JSON_VALUES:
        opts = "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\",\"%s\":%s}'" % (key, value)
        codes = _codes(SCRIPT.format(options=opts), target)
        assert "NPP000" not in codes


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")  # generated escapes like \l
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet='{}[]":,01onfutrelaspgLl2_ \\\'\n中', max_size=60))
def test_mutated_options_never_crash(fragment):
    for literal in (repr(fragment), repr(fragment.encode("utf-8"))):
        try:
            ast.parse(literal)
        except SyntaxError:
            continue
        assert "NPP000" not in _codes(SCRIPT.format(options=literal))


def test_deeply_nested_code():
    body = "if x:\n" + "".join("    " * i + "if x:\n" for i in range(1, 90)) + "    " * 90 + "profiling = 1\n"
    assert "NPP000" not in _codes(body)
    expr = "profiling_options = " + " + ".join(["'a'"] * 2000) + "\n"
    assert "NPP000" not in _codes(expr)


def test_standard_library_lints_without_internal_errors():
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    checked = 0
    for path in sorted(stdlib.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        findings = analyse(text, None, str(path))
        assert not [f for f in findings if f.code == "NPP000"], (path, findings)
        checked += 1
    assert checked > 500


def test_files_without_markers_import_nothing_heavy():
    code = ("import sys, ast\n"
            "from flake8_npuprof.plugin import NpuProfChecker\n"
            "text = open(ast.__file__).read()\n"
            "list(NpuProfChecker(ast.parse(text), text.splitlines(True), ast.__file__).run())\n"
            "print(sorted(m for m in ('astroid', 'jsonschema') if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip() == "[]", proc.stderr


def test_validating_options_imports_no_jsonschema():
    # every flake8 worker would pay its import (65-140 ms); the schema engine answers instead
    text = SCRIPT.format(options="""'{"output":"/p","task_trace":"maybe"}'""")
    code = ("import sys, ast\n"
            "from flake8_npuprof.plugin import NpuProfChecker\n"
            f"text = {text!r}\n"
            "found = list(NpuProfChecker(ast.parse(text), text.splitlines(True), 'x.py').run())\n"
            "print([f[2][:6] for f in found], 'jsonschema' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip() == "['NPP102'] False", proc.stdout + proc.stderr


def test_a_script_without_msprof_loads_no_msprof_tables():
    # every flake8 worker imports what the first profiling file needs: the msprof command-line checks and their
    # tables load only for a file that names msprof; difflib only for a word that matches nothing
    text = SCRIPT.format(options="""'{"output":"/p","training_trace":"on"}'""")
    heavy = ("flake8_npuprof.checks.msprof", "flake8_npuprof.knowledge.msprof_parser", "difflib")
    code = ("import sys, ast\n"
            "from flake8_npuprof.plugin import NpuProfChecker\n"
            "text = sys.stdin.read()\n"
            "found = list(NpuProfChecker(ast.parse(text), text.splitlines(True), 'x.py').run())\n"
            f"print([f[2][:6] for f in found], [m for m in {heavy!r} if m in sys.modules])\n")
    plain = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True)
    assert plain.stdout.strip() == "['NPP104'] []", plain.stdout + plain.stderr
    naming = text + "import subprocess\nsubprocess.run(['msprof', '--output=/p', 'python3', 'x.py'])\n"
    proc = subprocess.run([sys.executable, "-c", code], input=naming, capture_output=True, text=True)
    assert "flake8_npuprof.checks.msprof" in proc.stdout, proc.stdout + proc.stderr


def test_flake8_reads_targets_from_setup_cfg(tmp_path):
    (tmp_path / "setup.cfg").write_text("[flake8]\nnpuprof-cann = 8.5\nnpuprof-soc = 910\n")
    (tmp_path / "x.py").write_text(SCRIPT.format(options="'{\"output\":\"/p\",\"task_time\":\"on\"}'"))
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP1", "x.py"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert "NPP113" in proc.stdout and "CANN 8.5" in proc.stdout
    (tmp_path / "setup.cfg").write_text("[flake8]\nnpuprof-cann = 6.0\n")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP1", "x.py"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode != 0 and "unknown CANN target" in proc.stderr


RESOLVER_TRAPS = [
    "OPTS = OPTS + 'x'",                                        # defined in terms of itself
    "a = b\nb = a\nOPTS = a",                                   # a cycle
    "OPTS = ('{\"output\":\"%s\"}' % ('x' * 10**8,))",         # a huge value
    "p = ['a', 'b', 'c', 'd']\nOPTS = f'{p[0]}{p[1]}{p[2]}{p[3]}' + '%s%s%s%s' % tuple(p) * 3",
    "w = 3\nOPTS = f'{{\"output\":\"{\"x\":>{w}}\"}}'",           # nested format spec
    "exec('OPTS = 1')",
    "from somewhere import *",
    "OPTS = ''.join(str(i) for i in range(10**9))",
    "def f(x):\n    return f(x) + 'a'\nOPTS = f('b')",            # unbounded recursion
    "OPTS = (lambda: OPTS)()",
    "class A:\n    x = A.x\nOPTS = A().x",
    "import json\nOPTS = json.dumps({'a': {'b': [1, 2, {'c': None}]}, 1: 2, None: 3})",
    "OPTS = '{}'.format(*range(3))",
    "OPTS = 2 ** 10 ** 10",
]


@pytest.mark.parametrize("trap", RESOLVER_TRAPS)
def test_resolver_traps_give_a_clean_unknown(trap):
    text = trap + "\n" + SCRIPT.format(options="OPTS")
    assert "NPP000" not in _codes(text)


def test_own_code_is_pyflakes_clean():
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "F,E9",
                           str(root / "flake8_npuprof"), str(root / "tools"), str(root / "benchmarks")],
                          capture_output=True, text=True)
    assert proc.stdout == "", proc.stdout


# ---------------------------------------------------------------- inputs that hung or crashed (issue 17)

def _found(text, target=Target()):
    return [(f.code, f.line, f.col) for f in analyse(text, None, "x.py", Settings(target=target))
            if f.code not in DEFAULT_OFF and f.code != "NPP201"]


def _timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    # the inputs below took minutes (exponential backtracking); milliseconds now, 5 s for a busy runner
    assert time.perf_counter() - start < 5.0
    return out


def test_unterminated_options_string_is_npp100_at_its_quote():
    path = "/home/x/" + "prof_data_" * 40          # backtracking doubled the time per character
    opts = "'{\"output\":\"" + path + "'"
    assert _timed(_found, SCRIPT.format(options=opts)) == [("NPP100", 6, 72)]
    launcher = "export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"" + path + "'\n"
    assert [(f.code, f.line, f.col) for f in _timed(analyse_shell, launcher)] == [("NPP100", 2, 36)]


def test_raw_control_character_is_npp100_at_that_character():
    for raw in ("\t", "\x01", "\x1f"):
        opts = "'{\"output\":\"/home/x" + raw + "/prof_data_prof_data_prof_data\", \"training_trace\":\"on\"}'"
        findings = _timed(analyse, SCRIPT.format(options=opts), None)
        (npp100,) = [f for f in findings if f.code == "NPP100"]
        assert (npp100.line, npp100.col) == (6, 80) and f"U+{ord(raw):04X} inside a string" in npp100.message


def test_numbers_past_the_int_string_limit_or_a_double():
    big = "'{\"output\":\"/tmp/p\",\"x\":" + "9" * 5000 + "}'"       # column 85: the number
    assert _found(SCRIPT.format(options=big)) == [("NPP112", 6, 62), ("NPP100", 6, 85)]
    for number in ("1e999", "-1e400", "9" * 400):
        opts = "'{\"output\":\"/tmp/p\",\"storage_limit\":" + number + "}'"
        findings = analyse(SCRIPT.format(options=opts), None)
        assert [(f.code, f.line, f.col) for f in findings if f.code == "NPP100"] == [("NPP100", 6, 97)]
        assert "overflows a double" in findings[-1].message
    # within a double, a long integer is a number of the wrong type for storage_limit (up to 8.0), and
    # past int32 the 8.5+ collector's reader (std::stoi) cannot read the options at all
    opts = "'{\"output\":\"/tmp/p\",\"storage_limit\":" + "9" * 300 + "}'"
    assert [c for c, _, _ in _found(SCRIPT.format(options=opts))] == ["NPP100"]


@pytest.mark.parametrize("value", ['"' + "9" * 5000 + 'MB"', '"²²²MB"', '"1e999MB"', '"' + "9" * 5000 + 'GB"',
                                   '"' + "1" * 400 + '.5GB"', '"Custom:0x' + "f" * 5000 + ',1"',
                                   '"Custom:²,1"'],
                         ids=["digits-MB", "superscript", "1e999MB", "digits-GB", "long-float", "long-hex", "custom-²"])
def test_numeric_text_in_values_is_converted_safely(value):
    for key in ("storage_limit", "dvpp_freq", "aic_metrics"):
        opts = "'{\"output\":\"/tmp/p\",\"%s\":%s}'" % (key, value)
        for target in (Target(), Target("8.0"), Target("8.5", "950")):
            assert "NPP000" not in _codes(SCRIPT.format(options=opts), target)


@pytest.mark.parametrize("depth", [5000, 100_000])
def test_options_nested_very_deep(depth):
    for key in ("x", "aic_metrics", "output", "storage_limit"):
        for opener, closer in (("[", "]"), ('{"a":', "}")):
            opts = "'{\"output\":\"/tmp/p\",\"%s\":%s1%s}'" % (key, opener * depth, closer * depth)
            codes = _timed(_codes, SCRIPT.format(options=opts))
            assert "NPP000" not in codes and "NPP112" in codes


def test_argparse_argument_named_only_by_dest():
    text = ("import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument(dest='filename')\n"
            + SCRIPT.format(options="'{\"output\":\"/tmp/p\",\"training_trace\":\"on\"}'"))
    assert _found(text) == [("NPP104", 9, 81)]          # at "training_trace", not NPP000


def test_printf_format_with_many_zeros_or_open_keys():
    for fmt in ("%" + "0" * 20000 + "!", "%(" * 20000):
        text = "OPTS = " + repr(fmt) + " % (1,)\n" + SCRIPT.format(options="OPTS")
        assert "NPP000" not in _timed(_codes, text)


# ---------------------------------------------------------------- any code point in messages and outputs

def test_printable_escapes_what_a_terminal_or_encoder_cannot_take():
    from flake8_npuprof.source.model import printable
    assert printable("out\ud800put a\x00b \u202eL2 \u2066x\u2069 tab\there \x1b[31m\x85") == \
        "out\\ud800put a\\x00b \\u202eL2 \\u2066x\\u2069 tab\\x09here \\x1b[31m\\x85"
    assert printable("/home/张三/prof é ok") == "/home/张三/prof é ok"


UNSAFE_KEYS = r'"output":"/tmp/p","out\\ud800put":"x","a\\u0000b":"on","\\u202eL2":"on"'


def _strings(doc):
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, (list, dict)):
        for item in (doc.values() if isinstance(doc, dict) else doc):
            yield from _strings(item)


@pytest.mark.parametrize("fmt,names", [("text", ("\\u202ebidi.py", "d\\udcff/y.py")),
                                       ("json", ("\u202ebidi.py", "d\udcff/y.py")),
                                       ("sarif", ("%E2%80%AEbidi.py", "d%FF/y.py")),
                                       ("github", ("\\u202ebidi.py", "d\\udcff/y.py"))])    # ascii stdout
@pytest.mark.skipif(sys.platform != "linux", reason="file names that are not UTF-8")
def test_every_format_survives_unsafe_code_points(tmp_path, fmt, names):
    import json
    (tmp_path / "x.py").write_text(SCRIPT.format(options="'{" + UNSAFE_KEYS + "}'"), encoding="utf-8")
    (tmp_path / "l.sh").write_text("export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{"
                                   + UNSAFE_KEYS.replace("\\\\", "\\") + "}'\n", encoding="utf-8")
    (tmp_path / "\u202ebidi.py").write_text(SCRIPT.format(options="'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'"), encoding="utf-8")
    raw = bytes(tmp_path) + b"/d\xff"
    __import__("os").mkdir(raw)
    with open(raw + b"/y.py", "w", encoding="utf-8") as fh:
        fh.write(SCRIPT.format(options="'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'"))
    env = {**__import__("os").environ, "PYTHONIOENCODING": "ascii"}     # the harshest stdout
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--format", fmt, "."],
                          capture_output=True, text=True, cwd=tmp_path, env=env, encoding="ascii")
    # stderr carries only the summary lines (no traceback, no internal error)
    # text output ends with a summary on stderr; machine formats keep stderr empty
    assert proc.returncode == 1
    assert proc.stderr.startswith("Found 8 findings") if fmt == "text" else proc.stderr == ""
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    out = proc.stdout
    if fmt in ("json", "sarif"):
        out = "\n".join(_strings(json.loads(out)))
    for shown in ('"out\\ud800put"', '"a\\x00b"', '"\\u202eL2"') + names:
        assert shown in out, (shown, out)
    assert out.count("unknown profiling_options key") == 8


def test_flake8_output_escapes_unsafe_keys(tmp_path):
    (tmp_path / "x.py").write_text(SCRIPT.format(options="'{" + UNSAFE_KEYS + "}'"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP1", "x.py"],
                          capture_output=True, text=True, cwd=tmp_path, encoding="utf-8")
    assert [line.split(" ")[0] for line in proc.stdout.splitlines()] == \
        ["x.py:6:82:", "x.py:6:102:", "x.py:6:119:"]
    assert 'key "out\\ud800put"' in proc.stdout and 'key "a\\x00b"' in proc.stdout
    assert "\u202e" not in proc.stdout and "\x00" not in proc.stdout


# ---------------------------------------------------------------- shell encodings and line endings

LAUNCHER = ("export PROFILING_MODE=true\n"
            "export PROFILING_OPTIONS='{\"output\":\"/home/张三/prof\",\"L2\":\"on\"}'\n")


@pytest.mark.parametrize("name,data,line", [
    ("utf8.sh", ("#!/bin/bash\n# 性能\n" + LAUNCHER).encode("utf-8"), 4),
    ("bom.sh", b"\xef\xbb\xbf" + ("#!/bin/bash\n" + LAUNCHER).encode("utf-8"), 3),
    ("gbk.sh", ("#!/bin/bash\n# 性能采集\n" + LAUNCHER).encode("gbk"), 4),        # sniffed: GB18030
    ("cookie.sh", ("#!/bin/bash\n# -*- coding: gbk -*-\n" + LAUNCHER).encode("gbk"), 4),
    ("vim.sh", ("#!/bin/bash\n# vim: set fileencoding=big5 :\n" + LAUNCHER.replace("张三", "名字")).encode("big5"), 4),
    ("launch", ("#!/bin/sh\r# -*- coding: gb2312 -*-\r" + LAUNCHER.replace("\n", "\r")).encode("gb2312"), 4),
])
def test_shell_launchers_are_decoded_like_python_sources(tmp_path, capsys, name, data, line):
    (tmp_path / name).write_bytes(data)
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    # the column counts characters: 张三 is two, whatever the bytes
    assert err == "Found 1 finding.\n" and out.split(" ")[0] == f"{tmp_path / name}:{line}:53:" and "NPP101" in out


def test_undecodable_or_unknown_shell_encodings_are_reported(tmp_path, capsys):
    (tmp_path / "bad.sh").write_bytes(b"#!/bin/bash\nexport PROFILING_OPTIONS='\xff\xff'\n")
    (tmp_path / "odd.sh").write_bytes(b"#!/bin/bash\n# -*- coding: klingon -*-\nexport PROFILING_MODE=true\n")
    assert main(["check", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        f"{tmp_path / 'bad.sh'}: cannot decode: not UTF-8 (byte 0xff at offset 38) nor GB18030, and no coding "
        "declared (add `# -*- coding: <name> -*-` on the first or second line)",
        f"{tmp_path / 'odd.sh'}: cannot decode: unknown encoding 'klingon' declared",
        "2 files could not be checked (see above)."]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_of_every_kind_position_findings_alike(tmp_path, capsys, newline):
    opts = "'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'"
    (tmp_path / "x.py").write_bytes(("# c\n\n" + SCRIPT.format(options=opts)).replace("\n", newline).encode())
    (tmp_path / "x.sh").write_bytes(("#!/bin/sh\n# c\n\n" + LAUNCHER).replace("\n", newline).encode())
    assert main(["check", "--select", "NPP101", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert [line.split(" ")[0].split(os.sep)[-1] for line in out.splitlines()] == ["x.py:8:82:", "x.sh:5:53:"]
    from flake8_npuprof.source.files import read_source
    assert read_source(str(tmp_path / "x.py")).newline == newline
    assert read_source(str(tmp_path / "x.sh")).newline == newline


# ---------------------------------------------------------------- only regular files are read

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifos_devices_and_sockets_are_reported_and_skipped(tmp_path):
    import socket
    os.mkfifo(tmp_path / "x.py")
    os.mkfifo(tmp_path / "launcher")               # no extension: discovery peeks at its shebang
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "s.py"))
    (tmp_path / "ok.py").write_text(SCRIPT.format(options="'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'"))
    args = [sys.executable, "-m", "flake8_npuprof", "check", "--select", "NPP101", "."]
    if os.path.exists("/dev/zero"):
        args.append("/dev/zero")
    try:
        proc = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    finally:
        sock.close()
    assert proc.returncode == 2                   # a path that is not read fails the gate
    assert proc.stdout.startswith("ok.py:6:")      # the other files are still checked
    expected = ["s.py: not read: a socket, not a regular file", "x.py: not read: a FIFO, not a regular file"]
    if os.path.exists("/dev/zero"):
        expected.append("/dev/zero: not read: a character device, not a regular file")
    expected += ["Found 1 finding (1 fixable with `npuprof fix`).",
                 f"{len(expected)} files could not be checked (see above)."]
    assert proc.stderr.splitlines() == expected


def test_size_bound(tmp_path, capsys, monkeypatch):
    import flake8_npuprof.source.files as files
    monkeypatch.setattr(files, "MAX_BYTES", 1000)
    (tmp_path / "big.py").write_text("# profiling\n" + "x = 1\n" * 200)
    assert main(["check", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"{tmp_path / 'big.py'}: not read: 1,212 bytes, over the 1,000-byte "
                                       "limit for a source file\n1 file could not be checked (see above).\n")
    assert files.MAX_BYTES == 1000 and files.read_bytes(str(tmp_path / "big.py"), limit=2000).startswith(b"#")


# ---------------------------------------------------------------- NPP003: only entries meant for the NPU

def _entry(name, *params):
    lines = ["import tensorflow as tf", "config = tf.ConfigProto()",
             "op = config.graph_options.rewrite_options.custom_optimizers.add()", f"op.name = {name!r}"]
    lines += [f'op.parameter_map["{key}"].{field} = {value}' for key, field, value in params]
    return "\n".join(lines + ["sess = tf.Session(config=config)", ""])


@pytest.mark.parametrize("name,params,expected,fix", [
    ("TensorRTOptimizer", [("precision_mode", "s", 'b"FP16"'), ("max_batch_size", "i", "8")], [], None),
    ("TensorRTOptimizer", [("precision_mode", "s", 'b"FP16"'), ("profiling_mode", "b", "True")],
     [("NPP003", 4, 10)], None),
    ("NPUOptimizer", [("precision_mode", "s", 'b"allow_mix_precision"')], [("NPP003", 4, 10)], "NpuOptimizer"),
    ("NpuOptimzer", [("enable_dump", "b", "True")], [("NPP003", 4, 10)], "NpuOptimizer"),
    ("GpuOptimizer", [("enable_dump", "b", "True")], [("NPP003", 4, 10)], None),
])
def test_npp003_needs_npu_only_parameters_or_a_near_miss_name(name, params, expected, fix):
    findings = [f for f in analyse(_entry(name, *params), None) if f.code == "NPP003"]
    assert [(f.code, f.line, f.col) for f in findings] == expected
    if expected:
        assert (findings[0].fix is not None) == (fix is not None)
        if fix:
            assert findings[0].fix.edits[0].text == fix


_NEWER_PARSER = pytest.mark.skipif(sys.version_info < (3, 11), reason="older parsers accept it (or crash)")


@pytest.mark.parametrize("expr", [
    pytest.param("-" * 100_000 + "1", id="unary"),                  # MemoryError in the parser
    pytest.param("not " * 100_000 + "x", id="not"),
    pytest.param(" + ".join(["'a'"] * 50_000), id="concat", marks=_NEWER_PARSER),   # RecursionError
    pytest.param("x" + ".a" * 50_000, id="attribute", marks=_NEWER_PARSER),
])
def test_code_too_deep_for_python_is_one_npp192(tmp_path, capsys, expr):
    text = "profiling_options = " + expr + "\n"
    assert [f.code for f in analyse(text, None)] == ["NPP192"]     # Python cannot compile it either: not NPP000
    (tmp_path / "deep.py").write_text(text)
    assert main(["check", str(tmp_path / "deep.py")]) == 1
    out, err = capsys.readouterr()
    assert "deep.py:1:" in out and " NPP192 the file does not parse: " in out and "internal error" not in err


def test_child_nodes_are_ast_children_without_the_shared_leaves():
    # the walks read only the fields that can hold nodes (_LEAF_FIELDS names the others): a field
    # a new Python adds must not make them miss a child
    from flake8_npuprof.source.sites import child_nodes
    markers = tuple(sub for base in (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
                    for sub in base.__subclasses__())
    root = Path(sysconfig.get_paths()["stdlib"])
    sources = [path.read_text(encoding="utf-8") for path in sorted(root.glob("*.py"))[:150]]
    sources.append("match v:\n    case {'a': 1, **rest}: pass\n    case K(a, b=c) as d: pass\n    case [*s]: pass\n")
    if sys.version_info >= (3, 12):     # TypeAlias.name is a node, TypeVar.name a string
        sources.append("type X[T: int, *Ts, **P] = list[T]\ndef f[T](x: T) -> T: return x\n")
    checked = 0
    for path, source in enumerate(sources):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            assert child_nodes(node) == [c for c in ast.iter_child_nodes(node) if not isinstance(c, markers)], \
                (path, type(node).__name__)
            checked += 1
    assert checked > 100_000
