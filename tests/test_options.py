"""NPP1xx on options strings: real strings from public scripts, and the target semantics."""

import csv
import re
from pathlib import Path

import pytest

from flake8_npuprof.checks.hygiene import check_option_hygiene
from flake8_npuprof.checks.options import check_options
from flake8_npuprof.source.text import HOLE
from flake8_npuprof.knowledge.targets import Target, TargetError, parse_cann, parse_soc

DATA = Path(__file__).resolve().parent / "data" / "real_options_strings.tsv"

# reader's notes in the data file → the code that must (and may only) report them
NOTE_CODES = [
    (r"JSON_INVALID", "NPP100"),
    (r"UNKNOWN_KEY", "NPP101"),
    (r"BAD_VALUE\(training_trace", "NPP103"),
    (r"TT_NO_FPBP", "NPP104"),
    (r"FPBP_NO_TT", "NPP105"),
    (r"OUTPUT_PATH\(host-specific", "NPP203"),
    # 8.5+: no output means $ASCEND_WORK_PATH, and without it the collector refuses the options
    (r"OUTPUT_PATH\(missing", "NPP108"),
]


def _rows():
    with open(DATA, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [r for r in rows if r["options_string"].strip()]


ROWS = _rows()


def _codes(text, target=Target()):
    report = check_options(text, target)
    issues = list(report.issues) + check_option_hygiene(text, report.doc)
    return {i.code for i in issues}


def _as_run(row):
    """The string as the runtime would see it, computed pieces left as holes."""
    text = row["options_string"].replace("\\n", "\n")
    # <FLAGS.x> placeholders stand for pieces computed at run time
    text = re.sub(r"<[^<>]+>", HOLE, text)
    if row["construction"].startswith(("%-format", "inside-triple")):
        text = re.sub(r"%(\([^)]*\))?[sd]", HOLE, text)
    return text


@pytest.mark.parametrize("row", ROWS, ids=[f"{i}:{r['where']}" for i, r in enumerate(ROWS)])
def test_real_options_strings(row):
    text = _as_run(row)
    got = _codes(text)
    expected = {code for pattern, code in NOTE_CODES if re.search(pattern, row["problems"])}
    # glued-looking points can be real fused GE nodes; whitespace inside one cannot (NPP204)
    if re.search(r'"(fp|bp)_point":"[^"]*\s[^"]*"', text):
        expected.add("NPP204")
    if re.search(r'"output":\s*"/(cache|home/[^/"]+)/', text):
        # the reader's notes miss some: /cache (ModelArts) and /home/<user> paths are the
        # host-specific prefixes the ecosystem scan counts (M7), HwHiAiUser included
        expected.add("NPP203")
    if "NPP103" in expected:
        # GE initialisation fails first: what it would later do with the points is not claimed
        expected -= {"NPP104", "NPP105"}
    assert got == expected, (row["problems"], got)


def test_all_real_strings_are_judged_without_error():
    for row in ROWS:
        check_options(_as_run(row), Target.parse("portable", "310"))


@pytest.mark.parametrize("target,expected", [
    (Target(), set()),                          # 7.0/8.0 take task_time
    (Target("portable"), {"NPP113"}),
    (Target("8.5"), {"NPP113"}),                # whitelisted, but in no chip's feature table: "not supported"
    (Target("9.0"), set()),                     # a task level on every chip (tests/oracle/v9.0.0.jsonl)
])
def test_key_known_to_some_versions(target, expected):
    assert _codes('{"output":"/p","task_time":"on"}', target) == expected


def test_default_target_reports_only_what_every_version_rejects():
    assert _codes('{"output":"/p","task_trace":"on","dvpp_freq":"50"}') == set()
    assert _codes('{"output":"/p","task_trace":"on","dvpp_freq":"50"}', Target("8.5")) == {"NPP110"}
    assert _codes('{"output":"/p","task_trace":"on","dvpp_freq":50}', Target("8.0")) == {"NPP110"}
    assert _codes('{"output":"/p","task_trace":"on","dvpp_freq":0}') == {"NPP109"}


def test_product_target():
    text = '{"output":"/p","task_trace":"on","aic_metrics":"MemoryAccess"}'
    assert _codes(text) == set()
    assert _codes(text, Target("any", "910B")) == set()
    assert _codes(text, Target("any", "910")) == {"NPP106"}
    # the 8.5 collector for the 310 is not open source: no failure claimed for every version
    assert _codes('{"output":"/p","task_trace":"on","l2":"on"}', Target("any", "310")) == set()
    assert _codes('{"output":"/p","task_trace":"on","l2":"on"}', Target("9.1", "310")) == {"NPP114"}


def test_nothing_collected_depends_on_version_defaults():
    text = '{"output":"/p"}'
    assert _codes(text) == set()                # task_trace defaults to on from 8.5
    assert _codes(text, Target("8.0")) == {"NPP116"}
    assert _codes('{"output":"/p","task_trace":"off"}', Target("9.1")) == set()  # task_time on by default


def test_messages_are_one_line_and_say_what_happens():
    report = check_options('{"output":"/p","L2":"on","task_trace":"ON","training_trace":"off"}', Target())
    for issue in report.issues:
        assert "\n" not in issue.message
        assert re.search(r"fails|aborts|ignore|drop|rejects", issue.message), issue.message


def test_too_long_options():
    text = '{"output":"/p","task_trace":"on","fp_point":"' + "a" * 3000 + '"}'
    assert "NPP112" in _codes(text)
    assert _codes("x" * 20_000_000) == {"NPP112"}


def test_did_you_mean_keys():
    report = check_options('{"output":"/p","result_path":"/x","aicpu_trace":"on"}', Target())
    msgs = " ".join(i.message for i in report.issues)
    assert 'did you mean "output"' in msgs and 'did you mean "aicpu"' in msgs


@pytest.mark.parametrize("text,parsed", [("any", "any"), ("portable", "portable"), ("8.0.RC1", "8.0"),
                                         ("8.3", "8.0"), ("CANN 9.1.0", "9.1"), ("8.5", "8.5")])
def test_parse_cann(text, parsed):
    assert parse_cann(text) == parsed


@pytest.mark.parametrize("text,parsed", [("any", "any"), ("910b", "910B"), ("Ascend910B", "910B"),
                                         ("A3", "910C"), ("310P", "310P"), ("ascend 310", "310")])
def test_parse_soc(text, parsed):
    assert parse_soc(text) == parsed


@pytest.mark.parametrize("bad", ["6.0", "banana", "10.0"])
def test_bad_cann(bad):
    with pytest.raises(TargetError):
        parse_cann(bad)


def test_frequency_range_in_the_message_is_the_version_s_own():
    # 8.0 reads frequencies as strings; its range must not be borrowed from 8.5+ (1-10000 on 950)
    report = check_options('{"output":"/p","task_trace":"on","sys_hardware_mem_freq":"500"}', Target("8.0"))
    assert [i.code for i in report.issues] == ["NPP109"] and "in 1-100 (Hz)" in report.issues[0].message
    report = check_options('{"output":"/p","instr_profiling":"on","instr_profiling_freq":5}', Target("8.5", "910B"))
    assert "in 300-30000 (Hz)" in report.issues[0].message


def test_a_kept_report_cannot_be_changed_by_its_reader():
    # reports are kept per process (scripts repeat their strings): a caller that edits its list
    # must not change what the next caller is told
    text = '{"output":"/tmp/p","task_trace":"maybe"}'
    first = check_options(text, Target())
    codes = [i.code for i in first.issues]
    assert codes == ["NPP102"]
    first.issues.clear()
    assert [i.code for i in check_options(text, Target()).issues] == codes
    big = '{"output":"/tmp/p","fp_point":"' + "x" * 5000 + '"}'      # past the runtime's buffer: not kept
    assert [i.code for i in check_options(big, Target()).issues][0] == "NPP112"


def test_a_format_template_with_doubled_braces_is_reported_not_crashed():
    # '{{...}}' (a str.format template) reads as a Python set holding a dict: literal_eval raised
    # TypeError inside the Python-dict fix (found by the oracle's case set: an example's template)
    text = '{{"output":"/tmp/p","task_trace":"{trace}"}}'
    report = check_options(text, Target())
    assert [(i.code, i.i) for i in report.issues] == [("NPP100", 1)]
    assert report.issues[0].fix is None


@pytest.mark.parametrize("target", [Target(), Target("8.0"), Target("9.1", "910B")], ids=str)
def test_after_a_fatal_finding_no_later_behaviour_is_claimed(target):
    # training_trace "off" fails GE initialisation: "GE ignores the points" (NPP105) never happens
    text = '{"output":"/tmp/p","training_trace":"off","fp_point":"a/b","bp_point":"c/d","task_trace":"on"}'
    assert [i.code for i in check_options(text, target).issues] == ["NPP103"]
    # once it is fixed, the points are what is left to say
    fixed = text.replace('"training_trace":"off",', "")
    assert [i.code for i in check_options(fixed, target).issues] == ["NPP105", "NPP105"]


def test_npp104_says_nothing_fails_and_when_the_search_is_not_enough():
    (issue,) = check_options('{"output":"/tmp/p","training_trace":"on","task_trace":"on"}', Target()).issues
    assert issue.code == "NPP104" and issue.effect == "guidance"
    assert "nothing fails, yet the TF Adapter guide asks for both; GE searches for the points itself" in issue.message
    assert "dynamic shape" in issue.message
