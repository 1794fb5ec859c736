"""`npuprof server`: a Language Server Protocol server over stdio (pygls 2, the `server` extra).

Diagnostics on open, change (debounced) and save; quick fixes, `source.fixAll.npuprof` and
`# noqa` actions; hover with the rule's page or the meaning of an options key. Everything here
only translates between the protocol and lsp_analysis.py. Logs go to stderr: stdout carries the
protocol.

The work runs off the event loop, which keeps reading and answering the editor's messages:
- each analysis in a thread of its own (a daemon: a long one never holds up `exit`). Analyses run
  one at a time (`analysing`), since they share the per-process caches of sibling modules and data
  files, which were written for one thread; an analysis whose document has a newer version by the
  time its turn comes is skipped, and one that is running when a newer version arrives is abandoned:
  a Python thread cannot be stopped, so it runs to its end, but nothing waits for it except the next
  analysis, and its result is never published (publish checks the version);
- the rest of a request (a hover's text, code actions) in a thread of its own too, so a hover on one
  document is answered from its analysis while another document is being analysed (issue 43: a 6 KB
  file once blocked a hover on another document for 9.5 s behind a single worker).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
import warnings
from typing import Callable, Dict, List, NamedTuple, Optional

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import __version__, lsp_analysis as A
from .lsp_framing import FramingError, read_message

log = logging.getLogger("npuprof.server")

FIX_ALL = "source.fixAll.npuprof"
DEBOUNCE_MS = 250               # after the last keystroke; open and save analyse at once
CONFIG_GLOBS = ("**/pyproject.toml", "**/setup.cfg", "**/tox.ini", "**/.flake8")


def in_thread(fn: Callable, *args) -> "asyncio.Future":
    """fn(*args) in a daemon thread of its own; the future the event loop awaits for its result. Dropping
    the future abandons the work: nothing joins the thread."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def deliver(ok: bool, value) -> None:
        if not future.done():               # cancelled meanwhile ($/cancelRequest)
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def body() -> None:
        try:
            value, ok = fn(*args), True
        except BaseException as exc:        # handed to the awaiting coroutine, as an executor would
            value, ok = exc, False
        try:
            loop.call_soon_threadsafe(deliver, ok, value)
        except RuntimeError:                # the event loop is closed: the server has ended
            pass

    threading.Thread(target=body, name=f"npuprof-{getattr(fn, '__name__', 'work')}", daemon=True).start()
    return future


class Job(NamedTuple):
    """The analysis of one version of a document, running or waiting for its turn."""
    version: int
    text: str
    future: "asyncio.Future"


class NpuprofServer(LanguageServer):
    def __init__(self):
        super().__init__("npuprof", __version__)
        self.overrides = A.Overrides()
        self.debounce = DEBOUNCE_MS / 1000
        self.configs = A.ConfigCache()
        self.analysing = A.ANALYSING        # one analysis at a time (see the module's docstring)
        self.jobs: Dict[str, Job] = {}      # the newest analysis asked for, per document
        self.results: Dict[str, A.Analysis] = {}
        self.timers: Dict[str, asyncio.TimerHandle] = {}
        self.tasks: set = set()
        self.shown_errors: set = set()
        self.shut_down = False
        self.framing_error = False
        self.early = None               # (uri, version, analysis) published before pygls was loaded, or
        #                                 (uri, version, server_start.Running) still being analysed

    # ---- positions

    @property
    def encoding(self) -> str:
        enc = str(self.workspace.position_encoding or "utf-16")
        return enc if enc in ("utf-8", "utf-16", "utf-32") else "utf-16"

    def range(self, analysis: A.Analysis, start: int, end: int) -> T.Range:
        (l1, c1), (l2, c2) = (A.to_client(analysis.src, o, self.encoding) for o in (start, max(start, end)))
        return T.Range(T.Position(l1, c1), T.Position(l2, c2))

    def offset(self, analysis: A.Analysis, pos: T.Position) -> int:
        return A.from_client(analysis.src, pos.line, pos.character, self.encoding)

    # ---- analysis, off the event loop

    def schedule(self, uri: str, delay: float) -> None:
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, self._spawn, uri)

    def _spawn(self, uri: str) -> None:
        self.timers.pop(uri, None)
        task = asyncio.ensure_future(self.publish(uri))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def snapshot(self, uri: str):
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        return doc.source, doc.version, doc.language_id or "", doc.path

    async def analysis_for(self, uri: str) -> Optional[A.Analysis]:
        """The analysis of the document's current text (the cached one when the text is the same); None when
        the document is not one to analyse, or changed again before its analysis ended."""
        snap = self.snapshot(uri)
        if snap is None:
            return None
        cached = self.results.get(uri)
        if cached is not None and cached.text == snap[0]:
            return cached
        return await asyncio.shield(self.job(uri, snap))

    def job(self, uri: str, snap, again: bool = False) -> "asyncio.Future":
        """The analysis of this version of the document: the one asked for already (unless `again`, which
        reuses only one still running), else a new one. Nothing waits for an older one (see the docstring)."""
        job = self.jobs.get(uri)
        if job is not None and (job.version, job.text) == (snap[1], snap[0]) and \
                not (again and job.future.done()):
            return job.future
        future = in_thread(self.analyse, uri, *snap)
        self.jobs[uri] = Job(snap[1], snap[0], future)
        future.add_done_callback(lambda done: self._finished(uri, done))
        return future

    def adopt(self, uri: str, running) -> None:
        """Take the first document's analysis, started by server_start.py, as the job of its version."""
        snap = self.snapshot(uri)
        if snap is None:
            return

        def result() -> Optional[A.Analysis]:
            return running.wait() or self.analyse(uri, *snap)       # None: it failed; analysed here, logged
        future = in_thread(result)
        self.jobs[uri] = Job(snap[1], snap[0], future)
        future.add_done_callback(lambda done: self._finished(uri, done))

    def _finished(self, uri: str, future: "asyncio.Future") -> None:
        job = self.jobs.get(uri)
        if job is None or job.future is not future:
            return                          # a newer version was asked for meanwhile
        if not future.cancelled() and future.exception() is None and future.result() is not None:
            now = self.snapshot(uri)
            if now is not None and (now[1], now[0]) == (job.version, job.text):
                self.results[uri] = future.result()

    def analyse(self, uri, text, version, language_id, path) -> Optional[A.Analysis]:
        """Runs in a thread of its own, after the analysis before it; never raises (a broken file or config
        must not stop the server)."""
        try:
            kind = A.kind_of(path, language_id, text)
            if kind is None:
                return None                 # not a document this server checks: no turn to wait for
            with self.analysing:
                if not self.current(uri, version):
                    return None             # superseded while it waited for its turn
                settings = A.doc_settings(path, self.overrides, self.configs)
                return A.analyse_document(text, path or uri, kind, settings)
        except Exception:
            log.exception("analysis of %s failed", uri)
            return None

    def current(self, uri: str, version: int) -> bool:
        """Whether the document is still open at this version (pygls applies a change before its handler
        runs, so a stale analysis sees the newer version)."""
        doc = self.workspace.text_documents.get(uri)
        return doc is not None and doc.version == version

    async def publish(self, uri: str) -> None:
        snap = self.snapshot(uri)
        if snap is None:
            return
        try:
            analysis = await asyncio.shield(self.job(uri, snap, again=True))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis of %s failed", uri)
            return
        now = self.snapshot(uri)
        if analysis is None or now is None or now[1] != snap[1]:
            return                          # a newer version is on its way
        self.results[uri] = analysis
        error = analysis.doc.error
        if error and error not in self.shown_errors:     # once per problem, not per keystroke
            self.shown_errors.add(error)
            log.warning("configuration not used: %s", error)
            self.window_show_message(T.ShowMessageParams(
                T.MessageType.Warning, f"npuprof: configuration not used: {error}"))
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, version=snap[1], diagnostics=[self.diagnostic(analysis, f, uri) for f in analysis.findings]))

    def diagnostic(self, analysis: A.Analysis, f, uri: Optional[str] = None) -> T.Diagnostic:
        return self.protocol._converter.structure(
            A.diagnostic(analysis, f, uri, self.encoding, self.overrides, self.related_information()), T.Diagnostic)

    def related_information(self) -> bool:
        """Whether the editor said it shows a diagnostic's related information (LSP 3.17 client capability)."""
        caps = getattr(self, "client_capabilities", None)
        published = getattr(getattr(caps, "text_document", None), "publish_diagnostics", None)
        return bool(getattr(published, "related_information", False))

    def reanalyse_all(self) -> None:
        self.configs.clear()
        self.results.clear()
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0)

    # ---- edits

    def text_edit(self, analysis: A.Analysis, edit) -> T.TextEdit:
        return T.TextEdit(range=self.range(analysis, edit.start, edit.end), new_text=edit.text)

    def workspace_edit(self, uri: str, analysis: A.Analysis, edits) -> T.WorkspaceEdit:
        return T.WorkspaceEdit(changes={uri: [self.text_edit(analysis, e) for e in edits]})


server = NpuprofServer()


@server.feature(T.INITIALIZE)
def initialize(ls: NpuprofServer, params: T.InitializeParams):
    options = params.initialization_options
    ls.overrides = A.Overrides.from_options(options)
    if isinstance(options, dict) and isinstance(options.get("debounceMs"), (int, float)):
        ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)


@server.feature(T.INITIALIZED)
def initialized(ls: NpuprofServer, params: T.InitializedParams):
    caps = ls.client_capabilities
    dynamic = getattr(getattr(getattr(caps, "workspace", None), "did_change_watched_files", None),
                      "dynamic_registration", False)
    if dynamic:
        watchers = [T.FileSystemWatcher(glob_pattern=g) for g in CONFIG_GLOBS]
        ls.client_register_capability(T.RegistrationParams(registrations=[T.Registration(
            id="npuprof-config-files", method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=T.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))]))


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: NpuprofServer, params: T.DidOpenTextDocumentParams):
    early, ls.early = ls.early, None
    doc = params.text_document
    if early is not None and early[:2] == (doc.uri, doc.version) and early[2].text == doc.text:
        if isinstance(early[2], A.Analysis):
            ls.results[doc.uri] = early[2]  # server_start.py published this version already
            return
        ls.adopt(doc.uri, early[2])         # still running: its result is published as any analysis's
    ls.schedule(doc.uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: NpuprofServer, params: T.DidChangeTextDocumentParams):
    ls.schedule(params.text_document.uri, ls.debounce)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
def did_save(ls: NpuprofServer, params: T.DidSaveTextDocumentParams):
    uri = params.text_document.uri
    if A.is_config_file(to_fs_path(uri) or ""):
        ls.reanalyse_all()
    else:
        ls.schedule(uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: NpuprofServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    timer = ls.timers.pop(uri, None)
    if timer is not None:
        timer.cancel()
    ls.results.pop(uri, None)
    ls.jobs.pop(uri, None)                  # one still running is abandoned: its result is dropped
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: NpuprofServer, params: T.DidChangeWatchedFilesParams):
    if any(A.is_config_file(to_fs_path(c.uri) or "") for c in params.changes):
        ls.reanalyse_all()


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: NpuprofServer, params: T.DidChangeConfigurationParams):
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("npuprof"), dict):
        ls.overrides = A.Overrides.from_options(settings["npuprof"])
        ls.reanalyse_all()


@server.feature(T.SHUTDOWN)
def shutdown(ls: NpuprofServer, *args):
    ls.shut_down = True
    for timer in ls.timers.values():
        timer.cancel()
    ls.timers.clear()
    ls.jobs.clear()                         # running analyses are abandoned (daemon threads: exit does not wait)


# ---- requests

def _wants(only: Optional[List[str]], kind: str) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix, FIX_ALL],
                                    resolve_provider=False))
async def code_action(ls: NpuprofServer, params: T.CodeActionParams):
    uri = params.text_document.uri
    analysis = await ls.analysis_for(uri)
    if analysis is None:
        return None
    only = [str(k) for k in (params.context.only or ())]
    start, end = (ls.offset(analysis, p) for p in (params.range.start, params.range.end))
    return await in_thread(guarded(code_actions), ls, uri, analysis, start, end, only)


def code_actions(ls: NpuprofServer, uri: str, analysis: A.Analysis, start: int, end: int,
                 only: List[str]) -> List[T.CodeAction]:
    actions: List[T.CodeAction] = []
    if _wants(only, T.CodeActionKind.QuickFix):
        findings = A.overlapping(analysis, start, end)
        for f in findings:
            if f.fix is not None:
                label = f.fix.title if f.fix.safe else f"{f.fix.title} (unsafe: changes what is collected)"
                actions.append(T.CodeAction(
                    title=f"{f.code}: {label}", kind=T.CodeActionKind.QuickFix,
                    diagnostics=[ls.diagnostic(analysis, f)], is_preferred=f.fix.safe,
                    edit=ls.workspace_edit(uri, analysis, A.fix_edits(analysis, f))))
        seen = set()
        for f in findings:
            edit = A.noqa_edit(analysis, f)
            if edit is None or (f.code, edit) in seen:
                continue
            seen.add((f.code, edit))
            actions.append(T.CodeAction(
                title=f"{f.code}: ignore on this line (# noqa: {f.code})", kind=T.CodeActionKind.QuickFix,
                diagnostics=[ls.diagnostic(analysis, f)], edit=ls.workspace_edit(uri, analysis, [edit])))
    if _wants(only, FIX_ALL) and (only or any(f.fix is not None and f.fix.safe for f in analysis.findings)):
        with ls.analysing:                  # fix_text analyses each fixed text again
            edit = A.fix_all(analysis)
        if edit is not None:
            actions.append(T.CodeAction(title="npuprof: fix all safe fixes in this file", kind=FIX_ALL,
                                        edit=ls.workspace_edit(uri, analysis, [edit])))
    return actions


@server.feature(T.TEXT_DOCUMENT_HOVER)
async def hover(ls: NpuprofServer, params: T.HoverParams):
    analysis = await ls.analysis_for(params.text_document.uri)
    if analysis is None:
        return None
    offset = ls.offset(analysis, params.position)
    found = await in_thread(guarded(A.hover), analysis, offset, ls.overrides)
    if not found:
        return None
    text, start, end = found
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text),
                   range=ls.range(analysis, start, end))


def guarded(fn):
    """fn for a thread of its own (in_thread); an unexpected error is logged and answered with nothing."""
    def call(*args):
        try:
            return fn(*args)
        except Exception:
            log.exception("%s failed", fn.__name__)
            return None
    return call


# ---------------------------------------------------------------- the wire: every request answered, framing kept

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


class Wire:
    """Reads LSP messages from stdin off the event loop (pygls's reader trusted every header: after one bad
    Content-Length it read past the messages' bounds and never answered again)."""

    def __init__(self, stdin, executor):
        self.stdin, self.executor = stdin, executor

    async def message(self) -> Optional[bytes]:
        """The next message's body (None: the stream ended between messages): lsp_framing's reader, run in
        the executor so the event loop goes on while it waits."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, read_message, self.stdin)


def _error(ls: NpuprofServer, msg_id, code: int, message: str) -> None:
    ls.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


def dispatch(ls: NpuprofServer, body: bytes) -> None:
    """One message to pygls; what pygls would drop unanswered gets an error response instead."""
    import json
    try:
        raw = json.loads(body)
    except ValueError as exc:           # framing holds (the length was right): say so, go on
        return _error(ls, None, PARSE_ERROR, f"not JSON: {exc}")
    if not isinstance(raw, dict) or raw.get("jsonrpc") != "2.0":
        msg_id = raw.get("id") if isinstance(raw, dict) else None
        return _error(ls, msg_id, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
    is_request = "method" in raw and "id" in raw
    if is_request and ls.protocol._shutdown and raw.get("method") != "exit":
        return _error(ls, raw["id"], INVALID_REQUEST, "the server is shutting down")
    try:
        message = ls.protocol.structure_message(raw)
    except Exception as exc:            # parameters that do not fit the method's types
        if is_request:
            why = str(exc.__cause__ or exc).splitlines()[0] if str(exc.__cause__ or exc).strip() else ""
            return _error(ls, raw["id"], INVALID_PARAMS, f"invalid parameters for {raw['method']}" +
                          (f": {why}" if why else ""))
        log.warning("dropped a %s whose parameters do not fit: %s", raw.get("method", "message"), exc)
        return None
    ls.protocol.handle_message(message)
    forget_done(ls.protocol)


def forget_done(protocol) -> None:
    """pygls keeps the future of every handler it runs by message id, and removes only a request's, when it is
    answered: a notification's (and each step of its own generator handlers') stays, two a change, and the
    server grew by 1.6 MiB over 900 edits. Those done are dropped; what is still running stays (a request is
    answered from its future, a `$/cancelRequest` of one that ended finds nothing to cancel either way)."""
    futures = getattr(protocol, "_request_futures", None)
    if isinstance(futures, dict):
        for key in [key for key, future in futures.items() if future.done()]:
            del futures[key]


async def serve(ls: NpuprofServer, wire: Wire, replay=()) -> None:
    for body in replay:                 # what server_start.py read after `initialize`, in order
        try:
            dispatch(ls, body)
        except Exception:
            log.exception("could not handle a message")
    assert ls._stop_event is not None   # (run() sets it before it serves)
    while not ls._stop_event.is_set():
        try:
            body = await wire.message()
        except FramingError as exc:
            log.error("%s; exiting so that the editor can start a new server", exc)
            ls.framing_error = True
            return
        if body is None:
            return
        try:
            dispatch(ls, body)
        except Exception:               # a message must never stop the loop
            log.exception("could not handle a message")


def initialized_early(ls: NpuprofServer, message: dict, sent: dict) -> None:
    """Apply an `initialize` that server_start.py has already answered (with `sent`): pygls sets up the
    workspace, the client's capabilities and the position encoding as if it had answered itself; a difference
    between what it computes and what was sent is logged (tests/test_server_start.py holds them equal)."""
    request = ls.protocol.structure_message(message)
    steps = ls.protocol.lsp_initialize(request.params)
    try:
        handler, args, kwargs = next(steps)         # our own `initialize` feature, then pygls finishes
        steps.send(handler(*args, **(kwargs or {})))
    except StopIteration as done:
        result = done.value
    else:
        raise RuntimeError("pygls's initialize asked for more than one handler")
    computed = json.loads(json.dumps(ls.protocol._converter.unstructure(result)))
    if computed != sent:
        log.warning("the capabilities sent before pygls loaded differ from pygls's: sent %s, pygls %s", sent, computed)


def run(initialize: Optional[dict] = None, answer: Optional[dict] = None, replay=(), early=None) -> int:
    """Serve on stdio; initialize: the `initialize` request server_start.py has answered already (answer);
    replay: the messages it read after that; early: (uri, version, analysis) of a document whose diagnostics
    it published."""
    import threading
    from pygls.io_ import StdoutWriter
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="npuprof server: %(levelname)s %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    # the user's code is parsed, never run: its invalid escapes are not ours to report
    warnings.simplefilter("ignore", SyntaxWarning)
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr             # a stray print anywhere must not corrupt the protocol
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(protocol_out))
    if initialize is not None:
        assert answer is not None       # (given with initialize: server_start.py answered it)
        initialized_early(server, initialize, answer)
    try:
        server.early = early
        asyncio.run(serve(server, Wire(sys.stdin.buffer, server.thread_pool), replay))
    except BrokenPipeError:
        log.error("the editor closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass                            # `exit`: pygls ends the loop with SystemExit
    finally:
        server.shutdown()
    if server.framing_error:
        return 1
    return 0 if server.shut_down else 1         # the protocol's exit code: 1 without shutdown first
