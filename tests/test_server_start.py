"""`npuprof server` answers `initialize` before it imports pygls or the analysis (issue 28, item 5): the
capabilities it sends are pygls's own, nothing heavy is imported before the answer, and the protocol's rules
before initialize hold (a request gets ServerNotInitialized, `exit` ends the process). The time it takes is
measured in benchmarks/server_start.py, not here."""

import importlib.util
import json
import subprocess
import sys
import textwrap

import pytest

from flake8_npuprof import server_start

needs_pygls = pytest.mark.skipif(importlib.util.find_spec("pygls") is None,
                                 reason="pygls not installed (pip install 'pygls>=2.0,<3')")

# What editors send: nothing, VS Code's relevant parts, an editor that prefers UTF-8 (Neovim 0.10+ offers
# utf-8 and utf-16), one that lists an unknown encoding first, one that lists only UTF-32.
CLIENTS = {
    "empty": {},
    "vscode": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}, "workspaceFolders": True,
                             "configuration": True, "applyEdit": True},
               "textDocument": {"synchronization": {"dynamicRegistration": True, "willSave": True,
                                                    "willSaveWaitUntil": True, "didSave": True},
                                "codeAction": {"dynamicRegistration": True, "isPreferredSupport": True,
                                               "codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
                                                   "", "quickfix", "source", "source.fixAll"]}}},
                                "hover": {"dynamicRegistration": True, "contentFormat": ["markdown", "plaintext"]},
                                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                                                       "codeDescriptionSupport": True}},
               "general": {"positionEncodings": ["utf-16"]}},
    "utf-8 first": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
    "unknown first": {"general": {"positionEncodings": ["utf-7", "utf-32", "utf-16"]}},
    "no general": {"window": {"workDoneProgress": True}},
}


def framed(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def initialize(client_capabilities: dict, msg_id=1) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": client_capabilities}}


@needs_pygls
@pytest.mark.parametrize("name", list(CLIENTS))
def test_the_early_answer_is_what_pygls_computes(name):
    from flake8_npuprof import server as S
    message = initialize(CLIENTS[name])
    request = S.server.protocol.structure_message(message)
    steps = S.server.protocol.lsp_initialize(request.params)
    try:
        handler, args, kwargs = next(steps)
        steps.send(handler(*args, **(kwargs or {})))
    except StopIteration as done:
        computed = json.loads(json.dumps(S.server.protocol._converter.unstructure(done.value)))
    assert computed == server_start.initialize_result(message["params"])


# A child process that runs the server on the messages given, records what was imported when each message was
# written (the answer to initialize, an early publishDiagnostics), when server.py is asked for (and stops there),
# and when the warm-up thread has done its imports (recorded by that thread; waited for after the stop, never
# inside the import system: joining it from the finder deadlocked on the import lock).
CHILD = textwrap.dedent("""
    import importlib.abc, io, json, sys, threading
    loaded = {"written": []}
    from flake8_npuprof import server_start
    warmed, warm = threading.Event(), server_start.warm
    def recorded():
        warm()
        loaded["warmed"] = sorted(sys.modules)
        warmed.set()
    server_start.warm = recorded
    class Stop(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "flake8_npuprof.server":
                loaded["handover"] = sorted(sys.modules)
                raise KeyboardInterrupt          # hand-over reached: stop here
    class Out(io.BytesIO):
        def write(self, data):
            loaded["written"].append(sorted(sys.modules))
            return super().write(data)
    sys.meta_path.insert(0, Stop())
    out = Out()
    sys.stdin = io.TextIOWrapper(io.BytesIO(sys.stdin.buffer.read()))
    sys.stdout = io.TextIOWrapper(out)
    from flake8_npuprof.cli import main
    try:
        main(["server"])
    except KeyboardInterrupt:
        pass
    warmed.wait(60)
    sys.__stdout__.write(json.dumps({"out": out.getvalue().decode(), **loaded}))
""")
LIBRARIES = ("pygls", "lsprotocol", "cattrs", "attrs")


def run_child(stdin: bytes, cwd=None) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD], input=stdin, capture_output=True, cwd=cwd)
    return json.loads(proc.stdout)


def messages(out: str) -> list:
    found = []
    while out:
        head, rest = out.split("\r\n\r\n", 1)
        length = int(head.split(": ")[1])
        body = rest.encode()[:length].decode()
        found.append(json.loads(body))
        out = rest[len(body):]
    return found


def test_the_answer_does_not_wait_for_the_libraries():
    # the protocol libraries are imported only after the answer; the analysis is imported meanwhile, in a
    # thread, while the server waits for the editor (so the first didOpen finds it ready)
    report = run_child(framed(initialize(CLIENTS["utf-8 first"])))
    [answer] = messages(report["out"])
    assert answer["id"] == 1 and answer["result"]["capabilities"]["positionEncoding"] == "utf-8"
    [at_answer] = report["written"]
    assert [m for m in at_answer if m.split(".")[0] in LIBRARIES] == []
    # what the warm-up thread imports: the analysis, and none of the libraries (so whenever the answer is
    # written, it has not waited for them)
    assert "flake8_npuprof.lsp_analysis" in report["warmed"]
    assert [m for m in report["warmed"] if m.split(".")[0] in LIBRARIES] == []


TYPO = ("import tensorflow as tf\nconfig = tf.ConfigProto()\n"
        "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = \"NpuOptimizer\"\n"
        "op.parameter_map[\"profiling_mode\"].b = True\n"
        "op.parameter_map[\"profiling_options\"].s = b'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\n"
        "sess = tf.Session(config=config)\n")


def opened(uri: str, version: int = 1) -> dict:
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": version, "text": TYPO}}}


@needs_pygls
def test_the_first_document_is_published_before_the_libraries_load(tmp_path):
    uri = (tmp_path / "train.py").as_uri()
    caps = dict(CLIENTS["vscode"])
    report = run_child(framed(initialize(caps)) + framed({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                       + framed(opened(uri)), cwd=tmp_path)
    answer, published = messages(report["out"])
    assert published["method"] == "textDocument/publishDiagnostics"
    assert published["params"]["uri"] == uri and published["params"]["version"] == 1
    assert [d["code"] for d in published["params"]["diagnostics"]] == ["NPP101"]
    at_publish = report["written"][1]
    assert [m for m in at_publish if m.split(".")[0] in LIBRARIES and m != "pygls.uris" and m != "pygls"] == []

    # what pygls's path publishes for the same document (a request first hands over at once): the same JSON
    from lspclient import LspClient
    client = LspClient(cwd=str(tmp_path))
    try:
        client.request("initialize", initialize(caps)["params"])
        client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", opened(uri)["params"])
        assert client.diagnostics(uri, 1) == published["params"]["diagnostics"]
    finally:
        client.kill()


@needs_pygls
def test_a_document_published_early_is_not_published_again_and_serves_code_actions(tmp_path):
    from lspclient import LspClient
    uri = (tmp_path / "train.py").as_uri()
    client = LspClient(cwd=str(tmp_path))
    try:
        client.initialize(tmp_path)
        client.notify("textDocument/didOpen", opened(uri)["params"])
        [diagnostic] = client.diagnostics(uri, 1)
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diagnostic["range"], "context": {"diagnostics": [diagnostic]}})
        assert any(a.get("kind") == "quickfix" and "l2" in json.dumps(a.get("edit")) for a in actions)
        # every message before the code action's answer has arrived: no second publication of version 1
        later = []
        while not client.notifications.empty():
            later.append(client.notifications.get())
        assert [m for m in later if m.get("method") == "textDocument/publishDiagnostics"] == []
    finally:
        client.kill()


@needs_pygls
def test_before_initialize_a_request_is_refused_and_exit_ends_the_server():
    proc = subprocess.Popen([sys.executable, "-m", "flake8_npuprof", "server"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, _ = proc.communicate(framed({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {}}) +
                              framed({"jsonrpc": "2.0", "method": "initialized", "params": {}}) +
                              framed({"jsonrpc": "2.0", "method": "exit"}), timeout=60)
    assert proc.returncode == 1
    body = out.split(b"\r\n\r\n", 1)[1]
    assert json.loads(body) == {"jsonrpc": "2.0", "id": 7, "error": {"code": -32002,
                                                                     "message": "the server is not initialized yet"}}


@pytest.mark.parametrize("frame", [b"Content-Length: x\r\n\r\n{}", b"Garbage\r\nContent-Length: 2\r\n\r\n{}"])
def test_a_broken_frame_before_initialize_ends_the_server(frame):
    # the same framing rules as after initialize (lsp_framing): a header line without a colon is broken too
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "server"], input=frame,
                          capture_output=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == b"" and b"exiting so that the editor can start a new" in proc.stderr


def test_the_warm_up_imports_what_the_first_analysis_needs(tmp_path):
    # after warm(), the first document's analysis and diagnostics import no more of the package: the first
    # didOpen does not wait for imports (a module the analysis starts to import lazily belongs in warm())
    code = textwrap.dedent(f"""
        import json, sys
        from flake8_npuprof import server_start
        server_start.warm()
        before = set(sys.modules)
        from flake8_npuprof import lsp_analysis as A
        path = {str(tmp_path / "train.py")!r}
        doc = A.doc_settings(path, A.Overrides(), A.ConfigCache())
        analysis = A.analyse_document({TYPO!r}, path, "python", doc)
        [A.diagnostic(analysis, f, "file:///train.py", "utf-16", A.Overrides(), True) for f in analysis.findings]
        print(json.dumps([[f.code for f in analysis.findings], sorted(set(sys.modules) - before)]))
    """)
    codes, imported = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                check=True, cwd=tmp_path).stdout)
    assert codes == ["NPP101"]
    assert [m for m in imported if m.startswith("flake8_npuprof")] == []
