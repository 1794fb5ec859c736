"""`npuprof server`'s first answer, given before the language-server libraries are loaded.

An editor waits for the answer to `initialize` before it sends anything else, and importing pygls and its
protocol types takes most of a second (1.5 to 7.8 s on a loaded machine) while the answer itself is a fixed
list of capabilities. So this module, which imports nothing heavy, reads the messages up to `initialize`
(a request before it gets the protocol's ServerNotInitialized error, `exit` ends the process), answers it,
and only then imports server.py, which takes over the same streams and applies the same `initialize` to
pygls without answering it again. The analysis is imported when the first document is analysed.

The capabilities given here must be pygls's own: server.py compares them once pygls has computed its own
and logs any difference, and tests/test_server_start.py holds them equal for several editors' capabilities.
"""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

from . import __version__
from .lsp_framing import FramingError, read_message

SERVER_NOT_INITIALIZED = -32002
ENCODINGS = ("utf-8", "utf-16", "utf-32")       # what the server can count positions in (pygls's list)
FIX_ALL = "source.fixAll.npuprof"


def position_encoding(capabilities) -> str:
    """The client's first offered encoding the server supports, else UTF-16 (as pygls chooses)."""
    general = capabilities.get("general") if isinstance(capabilities, dict) else None
    offered = general.get("positionEncodings") if isinstance(general, dict) else None
    for encoding in offered if isinstance(offered, list) else ():
        if encoding in ENCODINGS:
            return encoding
    return "utf-16"


def _get(tree, *path):
    for key in path:
        tree = tree.get(key) if isinstance(tree, dict) else None
    return tree


def capabilities(client) -> dict:
    """The server's capabilities for these client capabilities (what server.py's features make pygls say)."""
    sync = {"openClose": True, "change": 2}         # incremental changes
    for key in ("willSave", "willSaveWaitUntil"):   # said (as not supported) when the client names them
        if _get(client, "textDocument", "synchronization", key) is not None:
            sync[key] = False
    sync["save"] = {"includeText": False}
    return {
        "positionEncoding": position_encoding(client),
        "textDocumentSync": sync,
        "hoverProvider": True,
        "codeActionProvider": {"codeActionKinds": ["quickfix", FIX_ALL], "resolveProvider": False},
        "executeCommandProvider": {"commands": []},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
    }


def initialize_result(params) -> dict:
    client = params.get("capabilities", {}) if isinstance(params, dict) else {}
    return {"capabilities": capabilities(client), "serverInfo": {"name": "npuprof", "version": __version__}}


def write_message(stream: BinaryIO, message: dict) -> None:
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def available() -> bool:
    """Whether pygls and its protocol types can be imported (asked without importing them)."""
    import importlib.util
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("pygls", "lsprotocol"))
    except (ImportError, ValueError):
        return False


def missing() -> int:
    # the package is installed from its repository, so name the dependency itself
    print("npuprof: error: the language server needs pygls 2: pip install 'pygls>=2.0,<3' "
          "(or, in the repository, pip install -e '.[server]')", file=sys.stderr)
    return 2


def run() -> int:
    if not available():
        return missing()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            body = read_message(stdin)
        except FramingError as exc:
            print(f"npuprof server: ERROR {exc}; exiting so that the editor can start a new server", file=sys.stderr)
            return 1
        if body is None:
            return 1                        # the editor went away before initialize
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            continue
        method = message.get("method")
        if method == "initialize" and "id" in message:
            break
        if method == "exit":
            return 1                        # exit without shutdown
        if "id" in message and method:      # a request before initialize: the protocol's error
            write_message(stdout, {"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": SERVER_NOT_INITIALIZED, "message": "the server is not initialized yet"}})
    answer = initialize_result(message.get("params"))
    write_message(stdout, {"jsonrpc": "2.0", "id": message["id"], "result": answer})
    try:
        from .server import run as serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "attrs", "cattrs"):
            raise
        return missing()
    return serve(initialize=message, answer=answer)
