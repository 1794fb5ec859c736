"""`npuprof server` answers while it analyses (issue 43, item 3): a long analysis of one document does not hold
up a hover on another, and the analysis of a version the editor has replaced is never published.

The real server runs over pipes, with the analysis of any text holding `# SLOW` made long: it keeps the CPU
busy (holding the GIL as a real analysis does) until the test creates a release file. So the ordering the tests
assert cannot depend on timing: the slow analysis cannot end before the test releases it."""

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest

from test_server import TYPO

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pygls") is None,
                                reason="pygls not installed (pip install 'pygls>=2.0,<3')")

SERVER = textwrap.dedent("""
    import os, sys, time
    from flake8_npuprof import lsp_analysis
    real, release = lsp_analysis.analyse_document, sys.argv[1]

    def analyse_document(text, *args, **kwargs):
        if "# SLOW" in text:
            started = os.path.join(os.path.dirname(release), "started-" + text.split("# SLOW ", 1)[1].split()[0])
            open(started, "w").close()
            deadline = time.monotonic() + 120
            n, look = 0, 0.0
            while time.monotonic() < deadline:
                # busy in Python, as an analysis is; the release file is looked for every 20 ms, since a system
                # call each turn hands the GIL back and forth with the main thread's imports (minutes, not ms)
                n = sum(i * i for i in range(2000)) + n % 7
                if time.monotonic() > look:
                    if os.path.exists(release):
                        break
                    look = time.monotonic() + 0.02
        return real(text, *args, **kwargs)

    lsp_analysis.analyse_document = analyse_document
    from flake8_npuprof.cli import main
    sys.exit(main(["server"]))
""")


def slow(tag: str) -> str:
    return TYPO + f"# SLOW {tag}\n"


@pytest.fixture
def session(tmp_path):
    from lspclient import LspClient
    release = tmp_path / "release"
    client = LspClient(cwd=str(tmp_path), command=[sys.executable, "-c", SERVER, str(release)])
    client.initialize(tmp_path, options={"debounceMs": 0})
    yield client, release
    client.kill()


def published(client) -> list:
    """The publishDiagnostics notifications that have arrived so far: (file name, version, codes)."""
    out = []
    while not client.notifications.empty():
        message = client.notifications.get()
        if message.get("method") == "textDocument/publishDiagnostics":
            p = message["params"]
            out.append((Path(p["uri"]).name, p.get("version"), [d["code"] for d in p["diagnostics"]]))
    return out


def wait_started(tmp_path: Path, tag: str) -> None:
    import time
    for _ in range(6000):
        if (tmp_path / f"started-{tag}").exists():
            return
        time.sleep(0.01)
    raise AssertionError(f"the analysis of {tag} never started")


def key_hover(client, uri: str) -> dict:
    line = TYPO.splitlines().index(next(x for x in TYPO.splitlines() if '"L2"' in x))
    character = len(TYPO.splitlines()[line].split('"L2"')[0].encode("utf-16-le")) // 2 + 1
    return client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": line, "character": character}})


def test_a_hover_on_one_document_is_answered_while_another_is_analysed(session, tmp_path):
    client, release = session
    fast = client.open(tmp_path / "fast.py", TYPO)
    [diagnostic] = client.diagnostics(fast, 1)
    assert diagnostic["code"] == "NPP101"
    client.open(tmp_path / "slow.py", slow("a"))
    wait_started(tmp_path, "a")
    hover = key_hover(client, fast)             # answered while slow.py's analysis cannot have ended
    assert "NPP101" in hover["contents"]["value"] and "`L2`" in hover["contents"]["value"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": fast}, "range": diagnostic["range"],
        "context": {"diagnostics": [diagnostic], "only": ["quickfix"]}})
    assert any("l2" in json.dumps(a.get("edit")) for a in actions)
    assert ("slow.py", 1, ["NPP101"]) not in published(client)
    release.touch()
    assert [d["code"] for d in client.diagnostics((tmp_path / "slow.py").as_uri(), 1)] == ["NPP101"]
    assert client.close() == 0


def test_a_replaced_version_is_never_published(session, tmp_path):
    client, release = session
    client.open(tmp_path / "first.py", "x = 1\n")               # published before pygls loads: not this test's
    client.diagnostics((tmp_path / "first.py").as_uri(), 1)
    uri = client.open(tmp_path / "train.py", slow("v1"))
    wait_started(tmp_path, "v1")
    fixed = TYPO.replace('"L2"', '"l2"')
    client.change(uri, fixed, 2)                # while version 1 is being analysed
    client.change(uri, fixed + "# v3\n", 3)
    # a request answered after the changes: the server has taken them in (it handles messages in order)
    assert client.request("textDocument/hover", {"textDocument": {"uri": (tmp_path / "first.py").as_uri()},
                                                 "position": {"line": 0, "character": 0}}) is None
    release.touch()
    assert client.diagnostics(uri, 3) == []     # the newest version, clean
    assert client.close() == 0
    seen = published(client)
    assert [s for s in seen if s[0] == "train.py" and s[1] in (1, 2)] == []


def test_shutdown_and_exit_do_not_wait_for_a_running_analysis(session, tmp_path):
    client, release = session
    client.open(tmp_path / "first.py", "x = 1\n")
    client.diagnostics((tmp_path / "first.py").as_uri(), 1)
    client.open(tmp_path / "slow.py", slow("s"))
    wait_started(tmp_path, "s")
    assert client.close() == 0                  # the analysis is still running (never released)
    assert not release.exists()


def test_a_long_first_document_hands_over_and_is_published_when_it_ends(session, tmp_path):
    # the first didOpen is analysed before pygls loads (server_start.py); when that takes long, the server
    # takes over meanwhile: it answers requests, and publishes the document when its analysis ends
    client, release = session
    uri = client.open(tmp_path / "slow.py", slow("first"))
    wait_started(tmp_path, "first")
    notes = client.open(tmp_path / "notes.md", TYPO, language="markdown")
    assert key_hover(client, notes) is None                 # answered, by the server that took over
    assert published(client) == []
    release.touch()
    assert [d["code"] for d in client.diagnostics(uri, 1)] == ["NPP101"]
    assert client.close() == 0
