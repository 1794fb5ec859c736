"""`npuprof server`'s first answer, given before the language-server libraries are loaded.

An editor waits for the answer to `initialize` before it sends anything else, and importing pygls and its
protocol types takes most of a second (1.5 to 7.8 s on a loaded machine) while the answer itself is a fixed
list of capabilities. So this module, which imports nothing heavy, reads the messages up to `initialize`
(a request before it gets the protocol's ServerNotInitialized error, `exit` ends the process), answers it,
and only then imports server.py, which takes over the same streams and applies the same `initialize` to
pygls without answering it again.

The first diagnostics do not wait for pygls either: from the start a thread imports the analysis (`warm`;
a read that waits for the editor holds no lock, so the answer to `initialize` does not wait for it). The
`initialized` notification and the first `didOpen` are handled here: the document is analysed and its
diagnostics published in the protocol's JSON (the same `lsp_analysis.diagnostic` server.py publishes), and
only then is server.py imported. Every message read here is handed to pygls in order (`replay`), so its
workspace holds the document; the analysis published early is handed over too, and pygls does not publish
the same version again. An analysis still running after EARLY_WAIT (a pathological first document) goes on
in its thread and is handed over as it is: server.py answers the editor meanwhile, and publishes it when it
ends. Any other message first (a request, a change) hands over at once.

The capabilities given here must be pygls's own: server.py compares them once pygls has computed its own
and logs any difference, and tests/test_server_start.py holds them equal for several editors' capabilities.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import TYPE_CHECKING, BinaryIO, Dict, List, Optional, Tuple

from . import __version__
from .lsp_framing import FramingError, read_message

if TYPE_CHECKING:                   # (loaded only where it is used: the first answer must not wait for it)
    from .lsp_analysis import Analysis

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
    sync: Dict[str, object] = {"openClose": True, "change": 2}     # incremental changes
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
    # the analysis is imported while this thread waits for the editor (a blocked read holds no lock)
    warming = threading.Thread(target=warm, name="npuprof-warm", daemon=True)
    warming.start()
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
        replay, early = first_document(stdin, stdout, message.get("params"), answer, warming)
    except FramingError as exc:
        print(f"npuprof server: ERROR {exc}; exiting so that the editor can start a new server", file=sys.stderr)
        return 1
    try:
        from .server import run as serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "attrs", "cattrs"):
            raise
        return missing()
    return serve(initialize=message, answer=answer, replay=replay, early=early)


def warm() -> None:
    """Import what analysing a document and publishing its diagnostics need, the modules the analysis would
    otherwise import as it goes included (run in a thread from process start, while the editor starts and
    sends its next messages; tests/test_server_start.py holds the list complete). Importing them costs less
    than analysing a small script would, and that gained nothing for the first real document."""
    try:
        from . import links, lsp_analysis, lsp_reparse                  # noqa: F401
        from .engine import run, selection, target                      # noqa: F401
        from .knowledge import ge_options, schema_engine                # noqa: F401
        from .report import ci                                          # noqa: F401  (the severities)
        from .setups import inventory                                   # noqa: F401
        from .source import brief, literal_edits, observed              # noqa: F401
        from .values import project, resolve                            # noqa: F401
    except Exception:                       # the same import fails again where it is needed, and is reported there
        pass


def first_document(stdin: BinaryIO, stdout: BinaryIO, params, answer: dict, warming: threading.Thread
                   ) -> Tuple[List[bytes], Optional[Tuple[str, int, object]]]:
    """Read on until the first `didOpen` (published here) or any other message but `initialized`: the
    messages read, for pygls, and (uri, version, analysis) of the document published here."""
    replay: List[bytes] = []
    while True:
        body = read_message(stdin)          # a FramingError ends the server, as before `initialize`
        if body is None:
            return replay, None
        replay.append(body)
        try:
            message = json.loads(body)
        except ValueError:
            return replay, None
        method = message.get("method") if isinstance(message, dict) else None
        if method == "initialized" and "id" not in message:
            continue
        if method == "textDocument/didOpen" and "id" not in message:
            warming.join()
            return replay, publish_early(stdout, message.get("params"), params, answer)
        return replay, None


EARLY_WAIT = 0.5       # seconds the first document's analysis may hold up the hand-over to server.py


class Running:
    """The first document's analysis, in a thread of its own that holds lsp_analysis.ANALYSING as server.py's
    analyses do. When it takes longer than EARLY_WAIT, server.py takes over (and answers other requests)
    while it runs, and publishes its result when it ends (server.did_open)."""

    def __init__(self, text: str, *args):
        self.text, self.done = text, threading.Event()
        self.analysis: Optional[Analysis] = None
        threading.Thread(target=self._run, args=(text, *args), name="npuprof-first", daemon=True).start()

    def _run(self, *args) -> None:
        from . import lsp_analysis as A
        try:
            with A.ANALYSING:
                self.analysis = A.analyse_document(*args)
        except Exception:                   # None: server.py analyses the document again, and logs why
            pass
        finally:
            self.done.set()

    def wait(self, timeout: Optional[float] = None):
        """The analysis (None: not finished within timeout, or failed)."""
        self.done.wait(timeout)
        return self.analysis


def publish_early(stdout: BinaryIO, opened, params, answer: dict) -> Optional[Tuple[str, int, object]]:
    """Analyse the opened document as server.py would and publish its diagnostics; None where server.py
    should do it (not a document it analyses, a configuration problem to show, anything unexpected). The
    third item is the analysis, or the Running one when it did not end within EARLY_WAIT."""
    try:
        from pygls.uris import to_fs_path   # (pygls's own mapping, as its workspace uses; a light module)
        from . import lsp_analysis as A
        doc = opened["textDocument"]
        uri, version, text = doc["uri"], doc["version"], doc["text"]
        path = to_fs_path(uri)
        kind = A.kind_of(path, doc.get("languageId") or "", text)
        if kind is None or not isinstance(version, int) or not isinstance(text, str):
            return None
        options = params.get("initializationOptions") if isinstance(params, dict) else None
        overrides = A.Overrides.from_options(options)
        settings = A.doc_settings(path, overrides, A.ConfigCache())
        if settings.error:                  # server.py shows it in a message once
            return None
        running = Running(text, path or uri, kind, settings)
        if not running.done.wait(EARLY_WAIT):
            return uri, version, running     # still running: server.py takes over, and publishes it
        analysis = running.analysis
        if analysis is None:
            return None                     # it failed: server.py analyses it again, and logs why
        client = params.get("capabilities") if isinstance(params, dict) else None
        related = _get(client, "textDocument", "publishDiagnostics", "relatedInformation") is True
        encoding = answer["capabilities"]["positionEncoding"]
        diagnostics = [A.diagnostic(analysis, f, uri, encoding, overrides, related) for f in analysis.findings]
    except Exception:
        return None
    write_message(stdout, {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                           "params": {"uri": uri, "version": version, "diagnostics": diagnostics}})
    return uri, version, analysis
