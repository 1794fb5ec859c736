"""The language server keeps nothing per edit: what pygls keeps of a handled notification is dropped."""

import asyncio
import json

import pytest

pytest.importorskip("pygls")


class _Out:
    def __init__(self):
        self.sent = []

    def write(self, data):
        self.sent.append(data)

    def close(self):
        pass


def _message(method, params, msg_id=None):
    body = {"jsonrpc": "2.0", "method": method, "params": params}
    if msg_id is not None:
        body["id"] = msg_id
    return json.dumps(body).encode("utf-8")


def test_a_handled_change_leaves_no_future_behind(tmp_path):
    from flake8_npuprof import server as S
    ls = S.NpuprofServer()
    ls.protocol.set_writer(_Out())
    uri = (tmp_path / "t.py").as_uri()

    async def edits():
        S.dispatch(ls, _message("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {},
                                               "initializationOptions": {"debounceMs": 0}}, 1))
        S.dispatch(ls, _message("initialized", {}))
        S.dispatch(ls, _message("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": "x = 1\n"}}))
        for version in range(2, 62):
            S.dispatch(ls, _message("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": f"x = {version}\n"}]}))
            await asyncio.sleep(0)
        for _ in range(100):        # the handlers run on: each change's analysis and publication
            await asyncio.sleep(0.01)
            if not any(not f.done() for f in ls.protocol._request_futures.values()):
                break
        S.dispatch(ls, _message("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 62}, "contentChanges": [{"text": "x = 0\n"}]}))
        return len(ls.protocol._request_futures)

    left = asyncio.run(edits())
    assert ls.workspace.get_text_document(uri).source == "x = 0\n"
    assert left <= 3                # the last change's, still running (pygls alone kept one a change: 63)
