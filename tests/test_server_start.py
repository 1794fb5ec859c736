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


# A child process that answers one `initialize` and records what was imported when server.py is asked for.
CHILD = textwrap.dedent("""
    import importlib.abc, io, json, sys
    loaded = {}
    class Stop(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "flake8_npuprof.server":
                loaded["modules"] = sorted(sys.modules)
                raise KeyboardInterrupt          # hand-over reached: stop here
    sys.meta_path.insert(0, Stop())
    out = io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(sys.stdin.buffer.read()))
    sys.stdout = io.TextIOWrapper(out)
    from flake8_npuprof.cli import main
    try:
        main(["server"])
    except KeyboardInterrupt:
        pass
    sys.__stdout__.write(json.dumps({"answer": out.getvalue().decode(), "modules": loaded.get("modules", [])}))
""")


def test_nothing_heavy_is_imported_before_the_answer():
    proc = subprocess.run([sys.executable, "-c", CHILD], input=framed(initialize(CLIENTS["utf-8 first"])),
                          capture_output=True)
    report = json.loads(proc.stdout)
    head, body = report["answer"].split("\r\n\r\n", 1)
    answer = json.loads(body)
    assert head == f"Content-Length: {len(body.encode())}" and answer["id"] == 1
    assert answer["result"]["capabilities"]["positionEncoding"] == "utf-8"
    heavy = [m for m in report["modules"] if m.split(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs", "astroid")
             or m.startswith(("flake8_npuprof.checks", "flake8_npuprof.commands", "flake8_npuprof.values",
                              "flake8_npuprof.source", "flake8_npuprof.lsp_analysis", "flake8."))
             or m == "flake8"]
    assert report["modules"] and heavy == []


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
