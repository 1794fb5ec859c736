"""`npuprof server` on a hostile wire (issue 26): every request is answered, with an error if it must be;
a framing error it cannot recover from ends the server (exit 1) so that the editor starts a new one; a
document over the input bound is refused with a diagnostic, not analysed. Driven over stdio."""

import importlib.util
import json

import pytest

HAVE_PYGLS = importlib.util.find_spec("pygls") is not None
pytestmark = pytest.mark.skipif(not HAVE_PYGLS, reason="pygls not installed (pip install 'pygls>=2.0,<3')")

HOVER = "textDocument/hover"


@pytest.fixture
def client(tmp_path):
    from lspclient import LspClient
    c = LspClient(cwd=str(tmp_path))
    yield c
    c.kill()


def _alive(client, tmp_path):
    """The server still answers: a request that needs no document."""
    uri = (tmp_path / "nothing.py").as_uri()
    assert client.request(HOVER, {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}) is None


def _error(client, msg_id):
    answer = client.response(msg_id)
    assert "result" not in answer, answer
    return answer["error"]


def _answer(client, msg_id):
    import queue
    return client.responses.setdefault(msg_id, queue.Queue()).get(timeout=60)


def test_parameters_that_do_not_deserialize_get_an_error(client, tmp_path):
    client.initialize(tmp_path)
    msg_id = client.request_async(HOVER, {"textDocument": 5, "position": "here"})
    error = _error(client, msg_id)
    assert error["code"] == -32602 and error["message"].startswith("invalid parameters for textDocument/hover")
    msg_id = client.request_async("textDocument/codeAction", {"textDocument": {"uri": 7}})
    assert _error(client, msg_id)["code"] == -32602
    _alive(client, tmp_path)
    assert client.close() == 0


def test_a_body_that_is_not_json_rpc_gets_an_error_and_the_stream_goes_on(client, tmp_path):
    client.initialize(tmp_path)
    client.send_body(b'{"jsonrpc": "2.0", "id": ')
    client.send_body(b"[1, 2, 3]")
    client.send_body(json.dumps({"jsonrpc": "1.0", "id": 99, "method": HOVER}).encode())
    # answers with a null id (the request's could not be read) are kept by the client under None
    first, second = (_answer(client, None) for _ in range(2))
    assert (first["error"]["code"], second["error"]["code"]) == (-32700, -32600)
    assert _answer(client, 99)["error"]["code"] == -32600
    _alive(client, tmp_path)
    assert client.close() == 0


def test_requests_after_shutdown_are_refused_not_dropped(client, tmp_path):
    client.initialize(tmp_path)
    assert client.request("shutdown", None) is None
    msg_id = client.request_async(HOVER, {"textDocument": {"uri": (tmp_path / "a.py").as_uri()},
                                          "position": {"line": 0, "character": 0}})
    error = _error(client, msg_id)
    assert error == {"code": -32600, "message": "the server is shutting down"}
    client.notify("exit", None)
    assert client.proc.wait(timeout=60) == 0


@pytest.mark.parametrize("header", [
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Type: application/json\r\n\r\n{}",             # no length at all
    b"Content-Length 12\r\n\r\n",                           # no colon
    b"Content-Length: 100000000000\r\n\r\n",                # far over the bound: never read
    b"X-Long: " + b"x" * 10000 + b"\r\n",
])
def test_a_framing_error_ends_the_server_so_the_editor_restarts_it(client, tmp_path, header):
    """After one bad Content-Length the server stayed alive and never answered again."""
    client.initialize(tmp_path)
    client.send_raw(header)
    assert client.proc.wait(timeout=60) == 1
    err = client.stderr_text()          # (read once the reader thread has drained the pipe: the server may exit at once)
    assert "exiting so that the editor can start a new server" in err


def test_the_stream_ending_inside_a_body_is_a_framing_error(client, tmp_path):
    client.initialize(tmp_path)
    client.send_raw(b"Content-Length: 50\r\n\r\n{\"jsonrpc\"")
    client.proc.stdin.close()
    assert client.proc.wait(timeout=60) == 1


def test_a_document_over_the_bound_is_refused_with_a_diagnostic(client, tmp_path):
    """A 30 MB document took 12.5 GB and minutes without an answer: it is not analysed."""
    from flake8_npuprof.source.files import MAX_BYTES
    client.initialize(tmp_path, related=True)
    text = "# profiling\n" + "a = 1\n" * (MAX_BYTES // 6 + 1)
    uri = client.open(tmp_path / "huge.py", text)
    [diag] = client.diagnostics(uri, 1)
    assert diag["code"] == "NPP191" and diag["range"]["start"] == {"line": 0, "character": 0}
    assert diag["message"] == (f"analysis budget exhausted: this document has {len(text):,} bytes, over the "
                               f"{MAX_BYTES:,} a source file may have, so it was not checked")
    # the aside is the short message's detail
    assert diag["relatedInformation"][0]["message"].endswith("(npuprof check does not read it either)")
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diag["range"],
        "context": {"diagnostics": [diag], "only": ["source.fixAll.npuprof"]}})
    assert actions == []
    assert client.request(HOVER, {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 1}}) is None
    # shrunk under the bound, it is checked again
    client.change(uri, "import os\nos.environ['PROFILING_MODE'] = 'True'\n", 2)
    assert [d["code"] for d in client.diagnostics(uri, 2)] == ["NPP011"]
    assert client.close() == 0
