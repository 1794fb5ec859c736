"""The strict JSON reader: agreement with json on valid input, positions, holes, errors."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from flake8_npuprof.source.jsonscan import Unknown, parse
from flake8_npuprof.source.text import HOLE

# U+E000 stands for an unknown piece (source.HOLE), so generated text leaves it out
texts = st.text(alphabet=st.characters(blacklist_characters=HOLE), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | texts,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(texts, json_values, max_size=6), st.booleans())
def test_agrees_with_json_on_valid_objects(obj, ascii_only):
    text = json.dumps(obj, ensure_ascii=ascii_only)
    doc = parse(text)
    assert doc.ok
    assert doc.as_dict() == obj
    for m in doc.members:
        assert json.loads(text[m.key_start:m.key_end]) == m.key
        assert json.loads(text[m.value_start:m.value_end]) == m.value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters=HOLE), max_size=40))
def test_never_raises_and_rejects_what_json_rejects(text):
    doc = parse(text)
    try:
        expected = json.loads(text)
    except ValueError:
        assert doc.error is not None or doc.unknown
        return
    except RecursionError:
        return
    if isinstance(expected, float) and expected != expected:   # NaN is not JSON for nlohmann
        return
    if "NaN" in text or "Infinity" in text:
        return
    assert doc.error is None


@pytest.mark.parametrize("text,message,index,hint", [
    ('{"a":1,}', "trailing comma", 6, "trailing_comma"),
    ("{'a': 1}", "double-quoted key", 1, "single_quotes"),
    ("training_trace:task_trace", "expected a JSON value", 0, "legacy"),
    ('{"a": True}', "expected a JSON value", 6, "python_literal"),
    ('{"a":"x\ny"}', "raw newline U+000A", 7, ""),
    ('{"a":"\\q"}', "invalid escape", 6, ""),
    ('{"a":1} x', "extra text", 8, ""),
    ('{"a":1', "ends before", 6, ""),
    ("", "empty", 0, ""),
])
def test_errors_are_placed(text, message, index, hint):
    doc = parse(text)
    assert message in doc.error.message
    assert doc.error.index == index
    assert doc.error.hint == hint


def test_duplicates_are_kept_in_order_and_last_wins():
    doc = parse('{"a":1,"b":2,"a":3}')
    assert [m.key for m in doc.members] == ["a", "b", "a"]
    assert doc.as_dict() == {"a": 3, "b": 2}


def test_holes_inside_strings_and_outside():
    doc = parse('{"output":"/data/' + HOLE + '/prof","task_trace":"on"}')
    assert doc.ok and isinstance(doc.members[0].value, Unknown)
    assert doc.as_dict() == {"task_trace": "on"}
    assert parse('{"a":' + HOLE + '}').unknown
    assert parse('{"' + HOLE + '":"on"}').unknown


def test_deep_nesting_and_huge_strings_do_not_recurse_or_hang():
    deep = '{"a":' + "[" * 10000 + "]" * 10000 + "}"
    assert parse(deep).ok
    assert parse("[" * 10000).error is not None
    big = '{"output":"' + "x" * 10_000_000 + '"}'
    assert parse(big).ok


@pytest.mark.parametrize("text,type_", [("[]", "array"), ('"s"', "string"), ("1", "number"),
                                        ("true", "boolean"), ("null", "null")])
def test_root_types(text, type_):
    doc = parse(text)
    assert doc.root_type == type_ and not doc.ok


def test_string_scanning_is_linear_and_positions_the_problem():
    import time
    start = time.perf_counter()
    doc = parse('{"output":"' + "/home/x/prof" * 100_000)
    assert time.perf_counter() - start < 10.0          # a hang guard (exponential before: never returned); milliseconds idle
    assert (doc.error.message, doc.error.index) == ("a string is not terminated", 10)
    doc = parse('{"output":"a\\q"}')
    assert (doc.error.message, doc.error.index) == ("invalid escape in a string", 12)
    doc = parse('{"output":"a\\u12G4"}')
    assert doc.error.index == 12
    assert parse('{"output":"\\u00e9\\ud83d\\ude00\\/"}').as_dict() == {"output": "é😀/"}


def test_a_hole_may_close_an_unterminated_string():
    assert parse('{"output":"/tmp/' + HOLE).unknown
    assert parse('{"' + HOLE).unknown
    # a raw control character before the hole is a real error
    assert parse('{"output":"\t' + HOLE).error.index == 11


def test_numbers_as_the_runtime_reads_them():
    assert parse('{"a":' + "9" * 300 + "}").as_dict() == {"a": int("9" * 300)}
    for big in ("9" * 5000, "-" + "9" * 400, "1e999", "1.5E+400"):
        doc = parse('{"a":' + big + "}")
        assert (doc.error.index, doc.error.message) == (5, "a number overflows a double, which the runtime's parser rejects")
    assert parse('{"a":1e-999}').as_dict() == {"a": 0.0}


def test_deep_containers_are_kept_shallow():
    value = parse('{"a":' + "[" * 1000 + "]" * 1000 + "}").as_dict()["a"]
    depth = 0
    while value:
        (value,) = value
        depth += 1
    assert value == [] and depth == 31


@pytest.mark.parametrize("raw,named", [("\t", "raw tab U+0009"), ("\x00", "raw NUL U+0000"),
                                       ("\n", "raw newline U+000A"), ("\x1f", "raw control character U+001F")])
def test_a_raw_control_character_is_named_for_what_it_is(raw, named):
    from flake8_npuprof.checks.options import check_options
    from flake8_npuprof.knowledge.targets import Target
    (issue,) = [i for i in check_options('{"output":"a' + raw + 'b"}', Target()).issues if i.code == "NPP100"]
    assert f"({named} inside a string at character 13 of the options)" in issue.message
