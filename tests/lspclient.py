"""A small JSON-RPC client that drives `npuprof server` over a subprocess's pipes, as an editor does."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

WAIT = 60           # seconds before a missing answer counts as a hang (not a speed budget)


class LspClient:
    def __init__(self, cwd: Optional[str] = None, env: Optional[Dict[str, str]] = None,
                 command: Optional[List[str]] = None):
        self.proc = subprocess.Popen(
            command or [sys.executable, "-m", "flake8_npuprof", "server"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env or dict(os.environ))
        self.next_id = 0
        self.responses: Dict[int, "queue.Queue[dict]"] = {}
        self.notifications: "queue.Queue[dict]" = queue.Queue()
        self.server_requests: List[dict] = []
        self.lock = threading.Lock()
        self.stderr: List[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True)
        self._stderr_reader.start()

    # ---- framing

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        with self.lock:
            try:
                self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                if "method" in message:
                    raise           # only an answer to the server may find the pipe closed

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are, framing and all: what a broken client sends."""
        with self.lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send_body(self, body: bytes) -> None:
        """A body that may not be valid JSON, framed correctly."""
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.notifications.put({"method": "<eof>"})
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            message = json.loads(out.read(length).decode("utf-8"))
            if "id" in message and "method" in message:         # a request from the server
                self.server_requests.append(message)
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                self.responses.setdefault(message["id"], queue.Queue()).put(message)
            else:
                self.notifications.put(message)

    # ---- messages

    def request_async(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.responses.setdefault(self.next_id, queue.Queue())
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def response(self, msg_id: int) -> dict:
        return self.responses[msg_id].get(timeout=WAIT)

    def request(self, method: str, params: Any) -> Any:
        answer = self.response(self.request_async(method, params))
        assert "error" not in answer, answer
        return answer["result"]

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, method: str, match: Callable[[dict], bool] = lambda p: True) -> dict:
        """The next notification of this method whose params match (others are dropped)."""
        while True:
            message = self.notifications.get(timeout=WAIT)
            assert message["method"] != "<eof>", b"".join(self.stderr).decode("utf-8", "replace")
            if message["method"] == method and match(message["params"]):
                return message["params"]

    def diagnostics(self, uri: str, version: Optional[int] = None) -> List[dict]:
        params = self.wait_for("textDocument/publishDiagnostics",
                               lambda p: p["uri"] == uri and (version is None or p.get("version") == version))
        return params["diagnostics"]

    # ---- session

    def initialize(self, root: Path, encodings=None, options=None, related: bool = False) -> dict:
        caps: Dict[str, Any] = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}},
                                "textDocument": {"hover": {"contentFormat": ["markdown"]}}}
        if related:             # the editor shows a diagnostic's related information (the message's detail)
            caps["textDocument"]["publishDiagnostics"] = {"relatedInformation": True}
        if encodings:
            caps["general"] = {"positionEncodings": encodings}
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": options or {}})
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str, language: str = "python", version: int = 1) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def edit(self, uri: str, edits: List[dict], version: int) -> None:
        """Send text edits as incremental changes, as an editor does after applying them."""
        changes = [{"range": e["range"], "text": e["newText"]} for e in
                   sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                          reverse=True)]
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def close(self) -> int:
        """shutdown, then exit: the exit code the server ends with."""
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass

    def stderr_text(self) -> str:
        """Everything the server wrote to stderr, once it has exited (the reader thread drains the pipe)."""
        self.proc.wait(timeout=WAIT)
        self._stderr_reader.join(timeout=WAIT)
        return b"".join(self.stderr).decode("utf-8", "replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
