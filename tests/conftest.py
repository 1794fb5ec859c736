"""Every test starts with an empty cache of its own: a result cached by an earlier test (or an earlier run of
the suite, with the checker monkeypatched differently) must never answer for this one."""

import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("NPUPROF_CACHE_DIR", str(tmp_path_factory.mktemp("npuprof_cache")))
