"""Keys the 8.5+ collector reads otherwise than GE (issue 41, the held-out oracle's missed rejections).

GE parses profiling_options with nlohmann (escapes decoded, whitespace inside a key kept); the
collector's own reader (knowledge/ge_options.py, `nano_read`) skips the whitespace before a key and
keeps a JSON escape as written. These inputs are not in the oracle record (it cannot be regenerated
without the build, docs/oracle.md), so the check is held to the port, which the record holds to the
runtime: the check must claim a failure on exactly the (version, chip) cells where the port rejects,
and say it at the key or value the collector judges.
"""

from __future__ import annotations

import pytest

from flake8_npuprof.checks.options import check_options
from flake8_npuprof.knowledge import datafiles as K
from flake8_npuprof.knowledge import ge_options as G
from flake8_npuprof.knowledge.targets import Target

OUT = '{"output":"/tmp/p",'
CASES = [OUT + '" ge_api":"on"}', OUT + '" sys_cpu_freq":"on"}', OUT + '"\\u0074raining_trace":"on"}',
         OUT + '"task_trace\\u0000":"on"}', OUT + '"\\tge_api":"l0"}', OUT + '"\\u0020ge_api":"l0"}',
         '{" ge_api":"l0","output":"/tmp/p"}', OUT + '"  aicpu":"on","task_trace":"on"}']


@pytest.mark.parametrize("text", CASES)
def test_the_check_claims_a_failure_exactly_where_the_port_rejects(text):
    for version in G.versions():
        for product in K.PRODUCTS:
            chip = {"910C": "910B"}.get(product, product)
            if G.platform(version, chip) is None:
                continue
            port = G.verdict(G.steps(text, version, chip, env={}))
            issues = check_options(text, Target(version, product)).issues
            ours = "rejected" if any(i.effect in ("abort", "env") for i in issues) else "accepted"
            assert ours == ("rejected" if port == "rejected" else "accepted"), (text, version, product, issues)


def _issue(text, cann, code):
    return [i for i in check_options(text, Target(cann, "910B")).issues if i.code == code]


def test_whitespace_before_a_key_is_skipped_and_the_value_judged():
    text = OUT + '" ge_api":"on"}'
    [issue] = _issue(text, "9.1", "NPP102")
    assert (issue.i, issue.j) == (text.index('"on"'), text.index('"on"') + 4)      # at the value
    assert issue.message == (
        '" ge_api" has whitespace before the key, which the 8.5+ collector skips: "ge_api": "on" is not one of '
        '"l0"/"l1"/"off": on CANN 9.1 the collector rejects it ("Argument ge_api: invalid value: on. Please input '
        '\'l0\', \'l1\' or \'off\'."), so GE initialisation fails and the job aborts; use one of "l0"/"l1"/"off"')
    assert not _issue(OUT + '" ge_api":"l0"}', "9.1", "NPP102")          # a good value under it is read


def test_a_key_written_with_an_escape_is_unknown_to_the_collector():
    text = OUT + '"\\u0074raining_trace":"on","fp_point":"","bp_point":""}'
    [issue] = _issue(text, "8.5", "NPP101")
    start = text.index('"\\u0074')
    assert (issue.i, issue.j) == (start, start + len('"\\u0074raining_trace"'))      # at the key
    assert issue.message == (
        'profiling_options key "\\u0074raining_trace" is written with a JSON escape: GE reads it as '
        '"training_trace", the collector reads it as written: on CANN 8.5 the collector rejects it ("Invalid '
        'geoption config: \\u0074raining_trace"), so GE initialisation fails and the job aborts; write the key '
        '"training_trace" without escapes')
    assert issue.fix.safe and issue.fix.edits == ((start + 1, start + 20, "training_trace"),)
    assert not _issue(text, "8.0", "NPP101")        # the 8.0 collector reads the options through nlohmann


def test_a_key_no_version_reads_is_reported_under_any():
    text = OUT + '"task_trace\\u0000":"on"}'
    [issue] = _issue(text, "any", "NPP101")
    assert issue.effect == "abort" and not issue.partial and (issue.i, issue.j) == (19, 37)


def test_whitespace_before_a_key_every_version_rejects_is_reported_under_any():
    text = OUT + '" ge_api":"on"}'
    [issue] = _issue(text, "any", "NPP102")
    assert issue.effect == "abort" and not issue.partial
    assert "on CANN 7.0 and 8.0 unknown profiling_options key \" ge_api\"" in issue.message
    assert not _issue(OUT + '" ge_api":"l0"}', "any", "NPP102")      # 8.5+ read it: not every version fails
