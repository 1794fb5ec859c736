"""Short messages with the detail one step away (issue 28, item 4; issue 40, item 2: source/said.py).

The facts test compares what the front-ends show today (the JSON report's `message` and `detail`) with a
snapshot of every message the committed corpora produced before the messages were shortened
(tests/data/messages_before.jsonl, written by tests/message_corpus.py): every finding is still there, at the
same place with the same code, and every fact of its old message is in its short message or its detail.

A fact is what a reader could act on or check: a double-quoted string (a key, a value, a quoted log line), a
number or version (`8.5`, `4294967295`, `10,485,774`), a code, flag or name (`NPP101`, `--aic-metrics`,
`PROF_*`, `profiling_options`, `$ASCEND_WORK_PATH`), and every other word of three letters or more ("rejects",
"silently", "aborts", "not"): the test fails if such a word of the old message is found nowhere in the new one.
Only a few joining words are not facts (STOP: "and", "but", "the", ...): a clause moved behind the sentence
loses the conjunction that tied it in.
"""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from message_corpus import messages
from flake8_npuprof.report.formats import finding_dict
from flake8_npuprof.source.brief import markdown
from flake8_npuprof.source.said import (ABORT, LONG, Runtime, Said, aside, balanced, clause, latent, logged, plain, said, so,
                                        unreached,
                                         when)
from flake8_npuprof.source.text import SourceText

SNAPSHOT = Path(__file__).resolve().parent / "data" / "messages_before.jsonl"
# the longest short message the committed corpora may have (the median is held to LONG = 120)
MAX_SHORT = 160

STOP = frozenset({"and", "but", "the", "its", "for", "with", "this", "that", "then"})
_QUOTED = re.compile(r'"[^"\n]*"')
_WORD = re.compile(r"[^\s,;:()\[\]{}'\"`]+")


def facts(message: str):
    """The facts of a message (see the module's docstring)."""
    out = set(_QUOTED.findall(message))
    for word in _WORD.findall(message):
        word = word.rstrip(".?!")
        if word.lower() in STOP:
            continue
        if len(word) >= 3 or any(c.isdigit() for c in word) or word.startswith("-"):
            out.add(word)
    return out


@pytest.fixture(scope="module")
def current():
    """(corpus, file, line, col, code, target) -> the JSON rows the front-end gives for it now."""
    out = {}
    for row in messages():
        shown = finding_dict(row.file, SourceText(""), row.finding)
        out.setdefault((row.corpus, row.file, row.line, row.col, row.code, row.target), []).append(shown)
    return out


def _snapshot():
    with open(SNAPSHOT, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_the_snapshot_covers_every_corpus_and_many_codes():
    rows = _snapshot()
    assert {r["corpus"] for r in rows} == {"eval", "examples", "options"}
    assert len({r["code"] for r in rows}) >= 40 and len(rows) >= 400


# NPP002's words about the r1.2-r1.7 adapters, which no CANN version from 7.0 ships (issue 41)
OLD_ADAPTERS = {'"profiling_options must be set when use profiling"', "abort", "must", "r1.2-r1.7", "r1.8+",
                "training/task", "use", "when", "ValueError", "adapters", "back", "fall", "raise", "set"}


def retired(code: str, target: str, fact: str) -> bool:
    """Facts dropped on purpose since the snapshot (issue 41): an msprof version the target does not name
    (under `any`, "msprof 9.1 prints" named a version nobody chose), NPP002's adapters no target ships, and
    NPP108's 255-byte advice where the collector refuses a character."""
    if code == "NPP002":
        return fact in OLD_ADAPTERS
    if code in ("NPP190", "NPP192"):    # rewritten to read plainly (issue 41): the same facts in other words
        return fact in {"cannot", "depend", "determined", "here", "nothing", "should", "statically", "was", "where",
                        "can", "syntax", "error", "this", "file"}
    if code == "NPP108":                # a refused character is not a 255-byte part (issue 41)
        # and a relative path is checked and logged after the working directory ("The path …/x ...":
        # RelativePathToAbsolutePath, as the oracle's record shows)
        return fact in {"255", "bytes", "cannot", "directory", "each", "most", "part"} or \
            re.fullmatch(r'"The path [^/].* contains invalid character .*"', fact) is not None
    return code.startswith("NPP12") and re.fullmatch(r"\d+\.\d+", fact) is not None and fact not in target


def test_no_fact_of_an_old_message_is_lost(current):
    lost = []
    for old in _snapshot():
        for target in old["targets"]:
            key = (old["corpus"], old["file"], old["line"], old["col"], old["code"], target)
            assert key in current, f"the finding is gone: {key}"
            shown = [f"{r['message']}\n{r['detail']}" for r in current[key]]
            missing = min((sorted(f for f in facts(old["message"]) if f not in text and
                                  not retired(old["code"], target, f)) for text in shown), key=len)
            if missing:
                lost.append((key, missing, old["message"]))
    assert not lost, "\n".join(map(str, lost[:10]))


def test_the_facts_test_can_fail():
    """A dropped log line, number, version or word is noticed."""
    words = Said('unknown profiling_options key "L2"',
                 runtime=(Runtime("CANN 8.5", clause("the collector rejects it", logged(' ("Invalid geoption config: L2")'),
                                                      so(ABORT))),),
                 advice=('did you mean "l2"?',))
    old = words.message
    assert old == ('unknown profiling_options key "L2": on CANN 8.5 the collector rejects it ("Invalid geoption config: '
                   'L2"), so GE initialisation fails and the job aborts; did you mean "l2"?')
    assert facts(old) >= {'"L2"', '"Invalid geoption config: L2"', "8.5", "CANN", "rejects", "aborts", '"l2"'}
    short, detail = words.short, words.detail
    assert facts(old) <= set(f for f in facts(old) if f in short + "\n" + detail)
    assert '"Invalid geoption config: L2"' not in facts(short) and '"Invalid geoption config: L2"' in detail
    assert short == 'unknown profiling_options key "L2": on CANN 8.5, GE initialisation fails and the job aborts'
    lost = words._replace(runtime=(words.runtime[0]._replace(versions="CANN 9.1"),))
    assert {"8.5", "rejects", "aborts"} - facts(lost.short + "\n" + lost.detail) == {"8.5"}


def test_short_messages_are_short_over_the_committed_corpora(current):
    """The median over the eval files and the examples (findings as committed) is at most 120 characters;
    no short message is longer than MAX_SHORT, and none has a line break."""
    rows = [r for key, rs in current.items() if key[0] in ("eval", "examples") for r in rs]
    lengths = [len(r["message"]) for r in rows]
    assert len(rows) > 100
    assert statistics.median(lengths) <= LONG, statistics.median(lengths)
    every = [r["message"] for rs in current.values() for r in rs]
    assert max(map(len, every)) <= MAX_SHORT, max(every, key=len)
    assert not any("\n" in m for m in every)


def test_the_short_sentence_keeps_the_problem_and_the_consequence():
    words = Said('"aicpu": "ON" is not one of "on"/"off"', runtime=(
        Runtime("CANN 7.0 and 8.0", clause("the collector rejects it", so(ABORT))),
        Runtime("CANN 8.5, 9.0 and 9.1", clause("the collector rejects it", logged(
            " (\"Argument aicpu: invalid value: ON. Please input 'on' or 'off'.\")"), so(ABORT)))), advice=('write "on"',))
    assert words.short == '"aicpu": "ON" is not one of "on"/"off": GE initialisation fails and the job aborts'
    assert words.detail.splitlines() == [
        "on CANN 7.0 and 8.0 the collector rejects it, so GE initialisation fails and the job aborts",
        "on CANN 8.5, 9.0 and 9.1 the collector rejects it (\"Argument aicpu: invalid value: ON. Please input "
        "'on' or 'off'.\"), so GE initialisation fails and the job aborts",
        'write "on"']


def test_one_version_keeps_its_scope_and_differing_versions_say_it_depends():
    one = Said('"task_trace": "ON" is not one of "on"/"off"/"l0"/"l1"',
               runtime=(Runtime("CANN 8.0", clause("the collector rejects it", so(ABORT))),), advice=('write "on"',))
    assert one.short == ('"task_trace": "ON" is not one of "on"/"off"/"l0"/"l1": on CANN 8.0, GE '
                         'initialisation fails and the job aborts')
    differ = Said('"storage_limit": 500 is a JSON number, the runtime expects a string', runtime=(
        Runtime("CANN 7.0 and 8.0", clause("the collector cannot read it", so(ABORT))),
        Runtime("CANN 8.5, 9.0 and 9.1", clause("the collector ", logged('logs "Invalid data type for string variable" and '),
                                                "reads it as empty", so("the setting has no effect")))),
        advice=('write "500MB"',))
    assert differ.short == ('"storage_limit": 500 is a JSON number, the runtime expects a string: what happens depends '
                            'on the CANN version')
    assert "on CANN 7.0 and 8.0 the collector cannot read it" in differ.detail
    # the builds a version's line holds for are the scope's, in the detail; the sentence says "some builds"
    some = Said(clause('"output" contains characters some collectors refuse', aside("'\"'")), runtime=(
        Runtime("CANN 8.0", clause("the collector rejects it", logged(' ("Output path is invalid.")'), so(ABORT)),
                "built 2024-11"),))
    assert some.message.startswith('"output" contains characters some collectors refuse (\'"\'): on some builds of '
                                   "CANN 8.0 (built 2024-11) the collector rejects it")
    # too long with the version: the sentence keeps that only some builds do it (and its short aside)
    assert some.short == ('"output" contains characters some collectors refuse (\'"\'): on some builds, GE '
                          "initialisation fails and the job aborts")
    assert balanced(some.short)


def test_the_conditions_stay_short_and_the_latent_reason_stays_in_the_sentence():
    hint = "remove the key to leave the trace off (\"\" also means off)"
    words = said('"training_trace": "off" is not "on" or ""',
                 clause("GE rejects it", logged(' ("Training trace param:off is invalid.")'), so(ABORT)), hint)
    off = words.given(latent("profiling is switched off here"))
    assert off.message == ('latent (profiling is switched off here); once GE reads these options: "training_trace": '
                           '"off" is not "on" or "": GE rejects it ("Training trace param:off is invalid."), so GE '
                           'initialisation will fail and the job will abort; ' + hint)
    # which setting wins stays in the sentence: the one line a user reads says why GE does not read them
    assert off.short == ('latent (profiling is switched off here): "training_trace": "off" is not "on" or "": GE '
                         'initialisation will fail and the job will abort')
    assert off.detail.splitlines()[0] == "latent (profiling is switched off here); once GE reads these options"
    hccl = Said('"hccl": "no" is not one of "on"/"off"', advice=('write "off"',),
                runtime=(Runtime("CANN 8.0", clause("the collector rejects it", so(ABORT))),)).given(unreached(18))
    assert hccl.message.startswith("not reached from this file's entry point (line 18): ")
    assert "so GE initialisation will fail and the job will abort" in hccl.message
    # "not reached:" alone read as dead code for a library function other scripts call (review of the zoo)
    assert hccl.short.startswith('not reached from its entry point: "hccl": "no"')
    assert "not reached from this file's entry point (line 18)" in hccl.detail
    metrics = Said('"aic_metrics": "memory" is not an AI Core metric set of any Ascend product', runtime=(
        Runtime("CANN 9.1", clause("the collector rejects it",
                                   logged(' ("The aic_metrics[memory] of input config is invalid")'), so(ABORT))),),
        advice=('did you mean "Memory"?',)).within(
        "(checked with the default of --aic_metrics, used when the flag is not given)", default_of="--aic_metrics")
    flag = metrics.given(when("when --profiling is given"))
    assert flag.message.endswith('did you mean "Memory"? (checked with the default of --aic_metrics, used when the '
                                 "flag is not given)")
    assert flag.short == ('when --profiling is given: "aic_metrics": "memory" is not an AI Core metric set of any '
                          'Ascend product: GE initialisation fails and the job aborts')
    assert flag.detail.splitlines()[-1] == "(checked with the default of --aic_metrics, used when the flag is not given)"
    # with no other condition in front, the sentence itself says the value is the flag's default
    assert metrics.short == ('without --aic_metrics: "aic_metrics": "memory" is not an AI Core metric set of any Ascend '
                             'product: GE initialisation fails and the job aborts')


def test_a_short_message_is_left_as_it_is():
    message = "the file does not parse: invalid syntax (Python 3.11's parser), so nothing in it was checked"
    words = said("the file does not parse", "invalid syntax (Python 3.11's parser), so nothing in it was checked")
    assert (words.message, words.short, words.detail) == (message, message, "")
    assert plain("profiling is switched on: every run pays for it").short == \
        "profiling is switched on: every run pays for it"


def test_a_call_written_in_the_problem_is_not_an_aside():
    """NPP006 lost `(profiling_config=...)` when its problem was cut as if the call's brackets were an aside."""
    words = said("this ProfilingConfig is never passed as NPURunConfig(profiling_config=...)",
                 "the Estimator runs without it and collects nothing", "pass it to NPURunConfig")
    assert words.short == ("this ProfilingConfig is never passed as NPURunConfig(profiling_config=...): the "
                           "Estimator runs without it and collects nothing")
    assert words.detail == "pass it to NPURunConfig"


def test_markdown_keeps_the_text_literal():
    text = markdown('"output" has PROF_* data', ('write "<N>MB"', "use [x] | `y`"))
    assert text == '"output" has PROF\\_\\* data\n\n- write "\\<N\\>MB"\n- use \\[x\\] \\| \\`y\\`'


# ---------------------------------------------------------------- the front-ends

WIRING = Path(__file__).resolve().parent / "eval_files" / "wiring_estimator.py"      # NPP007 on line 16


def _check(capsys, monkeypatch, tmp_path, *argv):
    import shutil
    from flake8_npuprof.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir(exist_ok=True)
    shutil.copy(WIRING, tmp_path / "train.py")
    code = main(["check", "--no-cache", "--cann", "any", *argv, "train.py"])
    return code, capsys.readouterr().out


def test_text_json_and_sarif_carry_the_detail(capsys, monkeypatch, tmp_path):
    from test_ci_formats import schema_errors
    code, out = _check(capsys, monkeypatch, tmp_path)
    npp007 = next(line for line in out.splitlines() if " NPP007 " in line)
    assert npp007 == ("train.py:16:14: NPP007 this RunConfig has no session_config while the profiling config "
                      "(line 13) is passed nowhere: the Estimator collects nothing (fixable: npuprof fix "
                      "--unsafe-fixes)")
    code, out = _check(capsys, monkeypatch, tmp_path, "--verbose")
    lines = out.splitlines()
    k = lines.index(npp007)
    assert lines[k + 1:k + 3] == ["    it runs with a fresh session config", "    add session_config=<the profiling config>"]
    code, out = _check(capsys, monkeypatch, tmp_path, "--format", "json")
    row = next(r for r in json.loads(out) if r["code"] == "NPP007")
    assert row["message"] == npp007.split(" NPP007 ", 1)[1].replace(" (fixable: npuprof fix --unsafe-fixes)", "")
    assert row["detail"] == "it runs with a fresh session config\nadd session_config=<the profiling config>"
    code, out = _check(capsys, monkeypatch, tmp_path, "--format", "sarif")
    log = json.loads(out)
    assert not schema_errors(log)
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "NPP007")
    assert result["message"] == {
        "text": row["message"],
        "markdown": row["message"].replace("_", "\\_") + "\n\n- it runs with a fresh session config\n"
                                     "- add session\\_config=\\<the profiling config\\>"}
    # the line the message names is a related location, in the same file
    assert result["relatedLocations"] == [{"id": 0, "message": {"text": "line 13, named in the message"},
                                           "physicalLocation": {**result["locations"][0]["physicalLocation"],
                                                                "region": {"startLine": 13}}}]


def test_a_finding_without_detail_has_an_empty_one(capsys, monkeypatch, tmp_path):
    code, out = _check(capsys, monkeypatch, tmp_path, "--format", "json")
    rows = json.loads(out)
    assert all(set(r) >= {"message", "detail"} for r in rows)
    assert all(r["detail"] == "" for r in rows if len(r["message"]) <= 60)
    code, out = _check(capsys, monkeypatch, tmp_path, "--format", "sarif")
    for result in json.loads(out)["runs"][0]["results"]:
        assert ("markdown" in result["message"]) == any(r["detail"] and r["message"] == result["message"]["text"]
                                                        for r in rows)


def test_flake8_prints_the_short_sentence_on_one_line():
    import ast
    from flake8_npuprof.plugin import NpuProfChecker
    text = WIRING.read_text(encoding="utf-8")
    checker = NpuProfChecker(ast.parse(text), text.splitlines(keepends=True), str(WIRING))
    for _, _, message, _ in checker.run():
        assert "\n" not in message and len(message) <= MAX_SHORT + len("NPP007  (fixable: npuprof fix --unsafe-fixes)")
