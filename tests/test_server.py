"""`npuprof server`: end-to-end over stdio (the real server in a subprocess), and its helpers."""

import importlib.util
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from flake8_npuprof import lsp_analysis as A
from flake8_npuprof.source.text import SourceText

HAVE_PYGLS = importlib.util.find_spec("pygls") is not None
needs_pygls = pytest.mark.skipif(not HAVE_PYGLS, reason="pygls not installed (pip install 'pygls>=2.0,<3')")

HEAD = '''\
import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
'''
TAIL = "sess = tf.Session(config=config)\n"
# Chinese text and a non-BMP character before the key on its line: UTF-16, UTF-8 and character
# columns all differ there.
OPTIONS_LINE = "op.parameter_map[\"profiling_options\"].s = '{{\"output\":\"/tmp/性能😀\",{}:\"on\"}}'.encode()  # 采集\n"
TYPO = HEAD + OPTIONS_LINE.format('"L2"') + TAIL
FIXED = HEAD + OPTIONS_LINE.format('"l2"') + TAIL


@pytest.fixture
def client(tmp_path):
    from lspclient import LspClient
    c = LspClient(cwd=str(tmp_path))
    yield c
    c.kill()


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def apply(text: str, edits, encoding="utf-16") -> str:
    """Apply LSP TextEdits the way an editor does."""
    src = SourceText(text)
    spans = []
    for e in edits:
        r = e["range"]
        a = A.from_client(src, r["start"]["line"], r["start"]["character"], encoding)
        b = A.from_client(src, r["end"]["line"], r["end"]["character"], encoding)
        spans.append((a, b, e["newText"]))
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


# ---------------------------------------------------------------- end to end

@needs_pygls
def test_guidance_npp104_is_an_information_diagnostic(client, tmp_path):
    client.initialize(tmp_path)
    text = HEAD + "op.parameter_map[\"profiling_options\"].s = b'{\"output\":\"/tmp/p\",\"training_trace\":\"on\"}'\n" + TAIL
    uri = client.open(tmp_path / "tt.py", text)
    [diag] = client.diagnostics(uri, 1)
    assert (diag["code"], diag["severity"]) == ("NPP104", 3)        # 3 = Information
    assert "relatedInformation" not in diag         # the editor did not say it shows related information


@needs_pygls
def test_typo_key_diagnostic_fix_hover_and_clean_exit(client, tmp_path):
    init = client.initialize(tmp_path, related=True)
    caps = init["capabilities"]
    assert caps["positionEncoding"] == "utf-16"
    assert "source.fixAll.npuprof" in caps["codeActionProvider"]["codeActionKinds"] and caps["hoverProvider"]
    uri = client.open(tmp_path / "train.py", TYPO)
    [diag] = client.diagnostics(uri, 1)
    line = TYPO.splitlines()[5]
    key = line.index('"L2"')
    assert diag["code"] == "NPP101" and diag["source"] == "npuprof" and diag["severity"] == 1
    assert diag["range"] == {"start": {"line": 5, "character": utf16(line[:key])},
                             "end": {"line": 5, "character": utf16(line[:key + 4])}}
    assert utf16(line[:key]) == key + 1                      # the emoji counts twice in UTF-16
    assert diag["codeDescription"]["href"].endswith("NPP101.md")
    # the problem pane's line is the short sentence; the log line and the advice are its related information
    assert diag["message"] == 'unknown profiling_options key "L2": GE initialisation fails and the job aborts'
    related = diag["relatedInformation"]
    assert {r["location"]["uri"] for r in related} == {uri} and {tuple(r["location"]["range"]) for r in related} \
        == {tuple(diag["range"])}
    assert any('("Invalid geoption config: L2")' in r["message"] for r in related)
    assert related[-1]["message"] == 'did you mean "l2"?'

    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    fix = next(a for a in actions if a["kind"] == "quickfix" and "noqa" not in a["title"])
    assert fix["isPreferred"] is True and fix["diagnostics"][0]["code"] == "NPP101"
    assert apply(TYPO, fix["edit"]["changes"][uri]) == FIXED

    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 5, "character": utf16(line[:key]) + 2}})
    text = hover["contents"]["value"]
    assert hover["contents"]["kind"] == "markdown" and text.startswith("**NPP101** `unknown-options-key`")
    assert "What the runtime does" in text and 'rename "L2" to "l2"' in text
    assert '- did you mean "l2"?' in text and 'Invalid geoption config: L2' in text    # the detail, as a list
    assert "`L2`** (profiling_options)" in text                # the key's own hover follows
    assert hover["range"] == diag["range"]

    client.edit(uri, fix["edit"]["changes"][uri], 2)          # incremental, in UTF-16 units
    assert client.diagnostics(uri, 2) == []
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 5, "character": utf16(line[:key]) + 2}})
    assert hover["contents"]["value"].startswith("**`l2`** (profiling_options)")   # the server's text is FIXED
    assert "Collects L2 cache hit rate." in hover["contents"]["value"]
    assert client.close() == 0
    # the protocol went to stdout only: the log lines (if any) are on stderr, never a crash
    assert b"Traceback" not in b"".join(client.stderr)


@needs_pygls
def test_utf8_positions_when_the_client_offers_them(client, tmp_path):
    assert client.initialize(tmp_path, encodings=["utf-8", "utf-16"])["capabilities"]["positionEncoding"] == "utf-8"
    uri = client.open(tmp_path / "train.py", TYPO)
    [diag] = client.diagnostics(uri)
    line = TYPO.splitlines()[5]
    start = len(line[:line.index('"L2"')].encode("utf-8"))
    assert diag["range"]["start"] == {"line": 5, "character": start}
    assert diag["range"]["end"] == {"line": 5, "character": start + 4}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    fix = next(a for a in actions if a["title"].startswith("NPP101: rename"))
    assert apply(TYPO, fix["edit"]["changes"][uri], "utf-8") == FIXED
    noqa = next(a for a in actions if "noqa" in a["title"])
    client.edit(uri, noqa["edit"]["changes"][uri], 2)            # incremental, in UTF-8 bytes
    assert client.diagnostics(uri, 2) == []
    client.edit(uri, fix["edit"]["changes"][uri], 3)
    assert client.diagnostics(uri, 3) == []
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": []}})
    assert actions == []
    assert client.close() == 0


UNSAFE = HEAD + ('op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","L2":"on",'
                 '"trainig_trace":"on","fp_point":"","bp_point":""}\'\n') + TAIL


@needs_pygls
def test_unsafe_fix_labelled_and_fix_all_applies_only_safe_ones(client, tmp_path):
    client.initialize(tmp_path)
    path = tmp_path / "train.py"
    path.write_text(UNSAFE, encoding="utf-8")
    uri = client.open(path, UNSAFE)
    diags = client.diagnostics(uri)
    assert [d["code"] for d in diags] == ["NPP101", "NPP101"]
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diags}})
    titles = {a["title"]: a for a in actions}
    unsafe = titles['NPP101: rename "trainig_trace" to "training_trace" (unsafe: changes what is collected)']
    assert not unsafe.get("isPreferred")
    assert titles['NPP101: rename "L2" to "l2"']["isPreferred"] is True

    only = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diags, "only": ["source.fixAll"]}})
    [fix_all] = only
    assert fix_all["kind"] == "source.fixAll.npuprof"
    fixed = apply(UNSAFE, fix_all["edit"]["changes"][uri])
    assert fixed == UNSAFE.replace('"L2"', '"l2"')            # the unsafe rename is left alone
    assert path.read_text(encoding="utf-8") == UNSAFE          # applied in memory, nothing written
    client.change(uri, fixed, 2)
    assert [d["message"].split('"')[1] for d in client.diagnostics(uri, 2)] == ["trainig_trace"]
    assert client.close() == 0


@needs_pygls
def test_noqa_action_silences_the_finding(client, tmp_path):
    client.initialize(tmp_path)
    text = HEAD + ('op.parameter_map["profiling_options"].s = tf.compat.as_bytes(\n'
                   '    \'{"output":"/tmp/p",\'\n'
                   '    \'"L2":"on"}\')  # keep as the cluster wants\n') + TAIL
    uri = client.open(tmp_path / "train.py", text)
    [diag] = client.diagnostics(uri)
    assert diag["range"]["start"]["line"] == 7
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    [noqa] = [a for a in actions if "noqa" in a["title"]]
    assert noqa["title"] == "NPP101: ignore on this line (# noqa: NPP101)"
    silenced = apply(text, noqa["edit"]["changes"][uri])
    assert silenced.splitlines()[7] == "    '\"L2\":\"on\"}')  # keep as the cluster wants  # noqa: NPP101"
    client.change(uri, silenced, 2)
    assert client.diagnostics(uri, 2) == []
    assert client.close() == 0


@needs_pygls
def test_hover_on_an_options_key_follows_the_configured_target(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ncann = "8.0"\nsoc = "910B"\n')
    client.initialize(tmp_path)
    text = HEAD + ('op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p",'
                   '"aic_metrics":"PipeUtilization"}\'\n') + TAIL
    uri = client.open(tmp_path / "train.py", text)
    assert client.diagnostics(uri) == []
    line = text.splitlines()[5]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {
        "line": 5, "character": line.index("aic_metrics") + 3}})
    value = hover["contents"]["value"]
    assert value.startswith("**`aic_metrics`** (profiling_options)")
    assert "Collects AI Core PMU counters." in value and "Target: CANN 8.0, Ascend 910B." in value
    assert "- CANN 8.0: one of `ArithmeticUtilization`" in value and "CANN 7.0:" not in value
    assert "- on Ascend 910B:" in value
    start = line.index('"aic_metrics"')
    assert hover["range"]["start"]["character"] == start and hover["range"]["end"]["character"] == start + 13
    # nothing to say outside keys and findings
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 3}}) is None
    assert client.close() == 0


TASK_TIME = HEAD + ('op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p",'
                    '"task_time":"on"}\'\n') + TAIL


@needs_pygls
def test_configuration_change_reanalyses_open_documents(client, tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.npuprof]\ncann = "8.5"\n')
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "train.py", TASK_TIME)
    [diag] = client.diagnostics(uri)
    # the server asks to be told about configuration files (once its protocol library is loaded, which may
    # be after the first diagnostics: server_start.py publishes those)
    registrations = []
    for _ in range(600):
        registrations = [r for m in list(client.server_requests) if m["method"] == "client/registerCapability"
                         for r in m["params"]["registrations"]]
        if registrations:
            break
        time.sleep(0.1)
    assert registrations and registrations[0]["method"] == "workspace/didChangeWatchedFiles"
    assert "**/pyproject.toml" in [w["globPattern"] for w in registrations[0]["registerOptions"]["watchers"]]
    assert diag["code"] == "NPP113" and "task_time" in diag["message"]
    config.write_text('[tool.npuprof]\ncann = "8.0"\n')
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": config.as_uri(), "type": 2}]})
    assert client.diagnostics(uri) == []
    # a saved config file in the editor counts too
    config.write_text('[tool.npuprof]\ncann = "8.5"\n')
    client.notify("textDocument/didSave", {"textDocument": {"uri": config.as_uri()}})
    assert [d["code"] for d in client.diagnostics(uri)] == ["NPP113"]
    assert client.close() == 0


@needs_pygls
def test_editor_settings_win_and_can_change(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ncann = "8.0"\n')
    client.initialize(tmp_path, options={"cann": "8.5"})
    uri = client.open(tmp_path / "train.py", TASK_TIME)
    assert [d["code"] for d in client.diagnostics(uri)] == ["NPP113"]
    client.notify("workspace/didChangeConfiguration", {"settings": {"npuprof": {"cann": "8.0"}}})
    assert client.diagnostics(uri) == []
    assert client.close() == 0


@needs_pygls
def test_broken_config_is_reported_and_defaults_used(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ncann = "6.9"\n')
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "train.py", TYPO)
    message = client.wait_for("window/showMessage")
    assert "configuration not used" in message["message"] and "6.9" in message["message"]
    assert [d["code"] for d in client.diagnostics(uri)] == ["NPP101"]
    assert client.close() == 0


@needs_pygls
def test_half_typed_files_never_stop_the_server(client, tmp_path):
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "train.py", TYPO)
    assert len(client.diagnostics(uri, 1)) == 1
    broken = [TYPO[:n] for n in range(len(HEAD) + 10, len(TYPO), 23)]
    broken += ["op.parameter_map[\"profiling_options\"].s = '{", "\0\ud800"]
    for version, text in enumerate(broken, 2):
        client.change(uri, text, version)
        hover = client.request_async("textDocument/hover", {"textDocument": {"uri": uri},
                                                            "position": {"line": 5, "character": 50}})
        assert "error" not in client.response(hover)
    # every text in a row, debounced: the last one is answered and the server still works
    client.change(uri, TYPO, 100)
    assert [d["code"] for d in client.diagnostics(uri, 100)] == ["NPP101"]
    assert client.close() == 0


@needs_pygls
def test_cancelled_requests_are_answered(client, tmp_path):
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "train.py", TYPO)
    client.diagnostics(uri)
    ids = [client.request_async("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
        "context": {"diagnostics": [], "only": ["source.fixAll"]}}) for _ in range(3)]
    for msg_id in ids:
        client.notify("$/cancelRequest", {"id": msg_id})
    for msg_id in ids:
        answer = client.response(msg_id)
        assert "result" in answer or answer["error"]["code"] == -32800     # RequestCancelled
    assert client.close() == 0


LAUNCHER = textwrap.dedent("""\
    #!/bin/bash
    export PROFILING_MODE=true
    export PROFILING_OPTIONS='{"output":"/tmp/prof","L2":"on"}'
    python train.py
    """)


@needs_pygls
def test_shell_launcher(client, tmp_path):
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "run.sh", LAUNCHER, language="shellscript")
    [diag] = client.diagnostics(uri)
    col = LAUNCHER.splitlines()[2].index('"L2"')
    assert diag["code"] == "NPP101" and diag["range"]["start"] == {"line": 2, "character": col}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    assert actions == []          # launchers are checked, not fixed (as `npuprof fix`), and have no noqa
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {
        "line": 2, "character": LAUNCHER.splitlines()[2].index("output") + 1}})
    assert hover["contents"]["value"].startswith("**`output`** (profiling_options)")
    assert client.close() == 0


@needs_pygls
def test_dynamic_profiling_file(client, tmp_path):
    client.initialize(tmp_path)
    # prof_dir: a key only torch_npu reads, so the file is torch_npu's (checks/dynamic_files.py)
    text = '{\n  "start_step": "10",\n  "activities": ["CPU", "NPU"],\n  "prof_dir": "./prof"\n}\n'
    uri = client.open(tmp_path / "profiler_config.json", text, language="json")
    [diag] = client.diagnostics(uri)
    assert diag["code"] == "NPP311" and diag["range"] == {"start": {"line": 1, "character": 16},
                                                          "end": {"line": 1, "character": 20}}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    assert actions == []          # checked, not fixed, and JSON has no noqa comment
    assert client.close() == 0


@needs_pygls
def test_mindformers_run_configuration(client, tmp_path):
    client.initialize(tmp_path)
    text = "run_mode: 'finetune'\nprofile: True\nprofile_level: 2\n"
    uri = client.open(tmp_path / "finetune.yaml", text, language="yaml")
    [diag] = client.diagnostics(uri)
    assert diag["code"] == "NPP357" and diag["range"] == {"start": {"line": 2, "character": 0},
                                                          "end": {"line": 2, "character": 13}}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    edits = {a["title"]: a["edit"]["changes"][uri] for a in actions}
    assert edits == {
        "NPP357: rename profile_level to profiler_level (unsafe: changes what is collected)": [
            {"range": diag["range"], "newText": "profiler_level"}],
        "NPP357: ignore on this line (# noqa: NPP357)": [
            {"range": {"start": {"line": 2, "character": 16}, "end": {"line": 2, "character": 16}},
             "newText": "  # noqa: NPP357"}]}
    other = client.open(tmp_path / "ci.yml", "on: [push\n", language="yaml")
    assert client.diagnostics(other) == []        # no profiling key: not a run configuration, not parsed
    assert client.close() == 0


@needs_pygls
def test_exit_without_shutdown_is_exit_code_1(client, tmp_path):
    client.initialize(tmp_path)
    client.notify("exit", None)
    assert client.proc.wait(timeout=60) == 1


@needs_pygls
def test_documents_of_other_languages_are_left_alone(client, tmp_path):
    client.initialize(tmp_path)
    uri = client.open(tmp_path / "notes.md", TYPO, language="markdown")
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 5, "character": 60}}) is None
    other = client.open(tmp_path / "train.py", TYPO)
    client.diagnostics(other)                 # the markdown file published nothing before it
    assert client.close() == 0


def test_server_without_pygls_says_how_to_install_it():
    hide = ("import sys, importlib.abc\n"
            "class Hide(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name.split('.')[0] in ('pygls', 'lsprotocol'):\n"
            "            raise ImportError(name=name)\n"
            "sys.meta_path.insert(0, Hide())\n"
            "from flake8_npuprof.cli import main\n"
            "sys.exit(main(['server']))\n")
    proc = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "pip install 'pygls>=2.0,<3'" in proc.stderr and "flake8-npuprof[server]" not in proc.stderr


# ---------------------------------------------------------------- helpers (no pygls needed)

def test_positions_in_each_encoding_round_trip():
    src = SourceText("a = 1\r\nb = '性😀x'\rc\n")
    line = "b = '性😀x'"
    x = src.line_starts[1] + line.index("x")
    assert A.to_client(src, x, "utf-16") == (1, 8)           # 性 is one unit, 😀 two
    assert A.to_client(src, x, "utf-8") == (1, 5 + 3 + 4)
    assert A.to_client(src, x, "utf-32") == (1, 7)
    for enc in ("utf-8", "utf-16", "utf-32"):
        for offset in range(len(src.text)):
            if src.text[offset] in "\r\n":
                continue
            assert A.from_client(src, *A.to_client(src, offset, enc), enc) == offset
    # past the end of a line or of the file: clamped, as the protocol asks
    assert A.from_client(src, 0, 99, "utf-16") == 5
    assert A.from_client(src, 9, 0, "utf-16") == len(src.text)


@pytest.mark.parametrize("options, line", [
    # inside brackets each physical line has its own noqa range (as flake8 maps them)
    ("(\n    b'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'  # noqa: E501\n)\n",
     "    b'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'  # noqa: E501,NPP101"),
    # a multi-line string: the comment goes after its last line, never inside it
    ("b\"\"\"{\"output\":\"/tmp/p\",\n\"L2\":\"on\"}\"\"\"\n", '"L2":"on"}"""  # noqa: NPP101'),
    ("b'{\"output\":\"/tmp/p\",' \\\n    b'\"L2\":\"on\"}'\n", "    b'\"L2\":\"on\"}'  # noqa: NPP101"),
])
def test_noqa_edit_lands_where_flake8_reads_it(options, line):
    text = HEAD + 'op.parameter_map["profiling_options"].s = ' + options + TAIL
    analysis = A.analyse_document(text, "t.py", "python", A.doc_settings(None, A.Overrides(), A.ConfigCache()))
    [finding] = analysis.findings
    assert finding.code == "NPP101"
    edit = A.noqa_edit(analysis, finding)
    fixed = text[:edit.start] + edit.text + text[edit.end:]
    assert line in fixed.splitlines()
    assert A.analyse_document(fixed, "t.py", "python", analysis.doc).findings == []


def test_minimal_edit():
    for old, new in [("abc", "abc"), ("abc", "aXc"), ("", "x"), ("aaa", "aa"), ("ab", "ba")]:
        e = A.minimal_edit(old, new)
        assert old[:e.start] + e.text + old[e.end:] == new


def test_per_file_ignores_hold_for_diagnostics_and_fix_all(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\nper-file-ignores = {"legacy/*" = ["NPP101"]}\n')
    (tmp_path / "legacy").mkdir()
    cache = A.ConfigCache()
    for name, expected in (("legacy/train.py", []), ("train.py", ["NPP101", "NPP101"])):
        path = str(tmp_path / name)
        analysis = A.analyse_document(UNSAFE, path, "python", A.doc_settings(path, A.Overrides(), cache))
        assert [f.code for f in analysis.findings] == expected
        edit = A.fix_all(analysis)
        assert (edit is None) == (not expected)       # nothing fixed where the code is ignored


def test_the_documents_settings_are_the_ones_npuprof_check_uses(tmp_path):
    # one engine: a graph dump in the configuration asks for the preflight checks, as in `npuprof check`,
    # and one that is not there is said (the rest of the configuration still holds)
    graph = Path(__file__).resolve().parent / "data" / "emulate" / "graph.pbtxt"
    (tmp_path / "pyproject.toml").write_text(f'[tool.npuprof]\ncann = "8.0"\ngraph = "{graph.as_posix()}"\n')
    doc = A.doc_settings(str(tmp_path / "train.py"), A.Overrides(soc="910"), A.ConfigCache())
    assert (doc.settings.target.cann, doc.settings.target.soc) == ("8.0", "910") and doc.error == ""
    assert doc.settings.preflight and doc.settings.graph == graph.as_posix()
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ncann = "8.0"\ngraph = "missing.pbtxt"\n')
    doc = A.doc_settings(str(tmp_path / "train.py"), A.Overrides(), A.ConfigCache())
    assert doc.error.endswith("graph: graph dump not found: " + str(tmp_path / "missing.pbtxt")), doc.error
    assert doc.settings.target.cann == "8.0" and doc.settings.graph is None


def test_key_hover_speaks_for_the_target():
    from flake8_npuprof.knowledge.targets import Target
    text = A.key_hover("task_time", Target.parse("8.5"))
    assert "not by 8.5 (there, options that carry it make profiling initialisation fail)" in text
    assert "- CANN" not in text                        # no allowed values for a version that refuses it
    text = A.key_hover("training_trace", Target.parse("8.0", "310"))
    assert "- CANN 8.0: one of `on`, `\"\"`" in text and "- not collected on Ascend 310 (" in text and "dropped with a plog warning on CANN 8.0" in text
    text = A.key_hover("sys_hardware_mem_freq", Target())
    assert "- CANN 8.0: an integer from 1 to 100 (a string of digits)" in text
    assert "- CANN 8.5, 9.0, 9.1: an integer from 1 to 10000 (a JSON number)" in text
    assert A.key_hover("storageLimit", Target()).startswith(
        "**`storageLimit`** (profiling_options): the protobuf-era spelling of `storage_limit`")


def test_key_hover_in_a_json_dumps_dict():
    text = HEAD + ('op.parameter_map["profiling_options"].s = json.dumps({"output": out_dir, "l2": "on"}).encode()\n'
                   'other = {"output": "x.csv"}\n') + TAIL
    analysis = A.analyse_document(text, "t.py", "python", A.doc_settings(None, A.Overrides(), A.ConfigCache()))
    at_l2 = text.index('"l2"') + 1
    key = A.option_key_at(analysis, at_l2)
    assert key == A.OptionKey("l2", at_l2 - 1, at_l2 + 3)
    assert A.hover(analysis, at_l2, A.Overrides())[0].startswith("**`l2`** (profiling_options)")
    assert A.option_key_at(analysis, text.index('"output": "x.csv"') + 1) is None    # not an options dict


@needs_pygls
def test_a_document_that_does_not_parse_gets_one_npp192_at_the_parsers_position(client, tmp_path):
    client.initialize(tmp_path)
    text = HEAD + "x = '性能😀' +* 3\n" + TAIL
    uri = client.open(tmp_path / "train.py", text)
    [diag] = client.diagnostics(uri, 1)
    line = text.splitlines()[5]
    star = line.index("*")
    assert diag["code"] == "NPP192" and diag["severity"] == 1 and "invalid syntax" in diag["message"]
    assert diag["range"] == {"start": {"line": 5, "character": utf16(line[:star])},
                             "end": {"line": 5, "character": utf16(line[:star + 1])}}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    assert not actions                  # no fix, and no `# noqa`: a syntax error is not silenced
    client.change(uri, TYPO, 2)
    assert [d["code"] for d in client.diagnostics(uri, 2)] == ["NPP101"]
    assert client.close() == 0


@needs_pygls
def test_a_diagnostic_detail_and_the_lines_its_message_names_are_related_information(client, tmp_path):
    text = (Path(__file__).resolve().parent / "eval_files" / "wiring_estimator.py").read_text(encoding="utf-8")
    client.initialize(tmp_path, related=True)
    uri = client.open(tmp_path / "train.py", text)
    diag = next(d for d in client.diagnostics(uri, 1) if d["code"] == "NPP007")
    assert diag["message"].endswith("is passed nowhere: the Estimator collects nothing")
    related = [(r["location"]["range"]["start"]["line"], r["message"]) for r in diag["relatedInformation"]]
    at = diag["range"]["start"]["line"]
    assert related == [(at, "it runs with a fresh session config"), (at, "add session_config=<the profiling config>"),
                       (12, "line 13, named in the message")]        # the profiling config, where the editor jumps
