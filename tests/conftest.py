"""Every test starts with an empty cache of its own: a result cached by an earlier test (or an earlier run of
the suite, with the checker monkeypatched differently) must never answer for this one."""

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's speed health checks time the generation of examples in seconds: on a loaded machine (CI's Python 3.9
# run failed one with the load at 18 on 2 cores) they fail a test whose code is right. Speed is measured in
# benchmarks/; what the examples show is what these tests assert.
settings.register_profile("npuprof", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("npuprof")


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("NPUPROF_CACHE_DIR", str(tmp_path_factory.mktemp("npuprof_cache")))
