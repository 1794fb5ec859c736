"""The run-time schema engine gives jsonschema's answers on every shipped schema.

The checks read four things from each error (keyword, keyword value, instance path, schema path)
and depend on their order (the first error of a key names its problem). Each instance below is
validated by both, and the two lists must be equal, error by error.
"""

import csv
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator

from flake8_npuprof.knowledge import datafiles as K
from flake8_npuprof.knowledge.schema_engine import UnsupportedSchema, Validator

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("any", "portable") + K.VERSIONS
REAL = Path(__file__).resolve().parent / "data" / "real_options_strings.tsv"


def _reference(schema, instance):
    out = []
    for e in Draft202012Validator(schema).iter_errors(instance):
        spath = tuple(e.schema_path)
        out.append((e.validator, e.validator_value, tuple(e.absolute_path), spath))
    return out


def _ours(target, instance):
    return [tuple(e) for e in K.validator(target).iter_errors(instance)]


def _values_for(sub: dict):
    """Values that hit each assertion of a property schema: its enum members, near misses, other types."""
    out = ["", "on", "off", "On", " on", "x", "0", "1", "100", "101", "300", "30000", "30001", "500MB", "199MB",
           "Custom:0x1", "Custom:0x6f", "Custom:1,2,3", "Custom:", "cpu,mem", "cpu,", "a" * 1025, "/tmp/prof",
           "/tmp/p;rm", 0, 1, 50, 51, 300, 30001, -1, 5.0, 5.5, True, False, None, [], {}, ["on"], {"a": 1},
           10 ** 30, float("inf")]
    for alt in [sub] + list(sub.get("anyOf", ())):
        out += list(alt.get("enum", ()))
        if "const" in alt:
            out.append(alt["const"])
    return out


def _instances(target):
    schema = K.schema(target)
    props = schema["properties"]
    rng = random.Random(target)
    yield {}
    yield {"output": "/tmp/prof"}
    yield {"output": "/tmp/prof", "unknown_key": "on"}
    yield {"Output": "/tmp/prof", "task_trace": "on"}
    for key, sub in props.items():
        for value in _values_for(sub):
            yield {"output": "/tmp/prof", key: value}
            yield {key: value}
    keys = list(props)
    pool = {k: _values_for(props[k]) for k in keys}
    for _ in range(400):        # several keys at once: the order of errors across keys
        chosen = rng.sample(keys, k=min(len(keys), rng.randint(2, 8)))
        inst = {k: rng.choice(pool[k]) for k in chosen}
        if rng.random() < 0.3:
            inst["instr_profiling"] = "on"
            inst["instr_profiling_freq"] = rng.choice(pool.get("instr_profiling_freq", [1000]))
        if rng.random() < 0.2:
            inst["no_such_key"] = "on"
        yield inst


def _real_instances():
    with open(REAL, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            try:
                obj = json.loads(row["options_string"])
            except ValueError:
                continue
            if isinstance(obj, dict):
                yield obj


@pytest.mark.parametrize("target", TARGETS)
def test_same_errors_as_jsonschema(target):
    schema = K.schema(target)
    count = 0
    for inst in list(_instances(target)) + list(_real_instances()):
        assert _ours(target, inst) == _reference(schema, inst), inst
        count += 1
    assert count > 500


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(TARGETS), st.dictionaries(
    st.sampled_from(sorted(K.all_keys()) + ["output", "x", "instr_profiling"]),
    st.one_of(st.text(max_size=12), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
              st.sampled_from(["on", "off", "", "l0", "PipeUtilization", "Custom:0x1", "1000", "cpu"])),
    max_size=10))
def test_same_errors_on_generated_options(target, inst):
    assert _ours(target, inst) == _reference(K.schema(target), inst)


def test_unknown_keyword_is_refused():
    # a schema written with a keyword the engine does not read must fail loudly, never pass silently
    for schema in ({"type": "object", "patternProperties": {"^x": {}}},
                   {"properties": {"a": {"format": "uri"}}},
                   {"additionalProperties": {"type": "string"}}):
        with pytest.raises(UnsupportedSchema):
            Validator(schema)


def test_every_shipped_schema_compiles():
    good = {"output": "/tmp/prof", "training_trace": "on", "task_trace": "on", "fp_point": "", "bp_point": ""}
    for target in TARGETS:
        assert K.validator(target).is_valid(good), target
        assert not K.validator(target).is_valid({**good, "task_trace": "maybe"}), target
