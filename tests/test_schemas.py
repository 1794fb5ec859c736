"""The JSON Schemas in schemas/: valid, up to date, usable alone, consistent across targets."""

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator

from flake8_npuprof.knowledge import datafiles as K

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((ROOT / "schemas").glob("*.schema.json"))


def _generator():
    spec = importlib.util.spec_from_file_location("gen_schemas", ROOT / "tools" / "gen_schemas.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_target_has_a_schema():
    names = {p.name for p in SCHEMAS}
    for target in ("any", "portable") + K.VERSIONS:
        assert f"profiling_options.{K.schema_name(target)}.schema.json" in names


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_schema_is_valid_draft_2020_12_and_self_contained(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    text = path.read_text(encoding="utf-8")
    assert '"$ref"' not in text            # nothing to fetch: check-jsonschema can use it offline


def test_committed_schemas_match_the_generator():
    gen = _generator()
    for name, schema in gen.all_schemas().items():
        assert (ROOT / "schemas" / name).read_text(encoding="utf-8") == gen.dump(schema), name


GOOD = {"output": "/tmp/p", "training_trace": "on", "task_trace": "on", "fp_point": "", "bp_point": "",
        "aic_metrics": "PipeUtilization", "storage_limit": "500MB"}


@pytest.mark.parametrize("target", ("any", "portable") + K.VERSIONS)
def test_a_typical_configuration_is_valid_everywhere(target):
    assert list(K.validator(target).iter_errors(GOOD)) == []


@pytest.mark.parametrize("bad", [
    {"output": "/tmp/p", "L2": "on"},
    {"output": "/tmp/p", "task_trace": "ON"},
    {"output": "/tmp/p", "training_trace": "off"},
    {"output": "/tmp/p", "storage_limit": "2GB"},
    {"output": "/tmp/p", "aic_metrics": "PipeUtilisation"},
    {"output": "/tmp/p", "aicpu": True},
])
@pytest.mark.parametrize("target", ("any", "portable") + K.VERSIONS)
def test_values_every_version_rejects_fail_every_schema(bad, target):
    assert list(K.validator(target).iter_errors(bad))


@pytest.mark.parametrize("target,rejects", [("portable", True), ("7.0", False), ("8.0", False), ("8.5", False),
                                            ("9.1", False), ("any", False)])
def test_output_characters_only_some_8_0_builds_refuse_are_an_annotation(target, rejects):
    # audit C5/C20: no character check in 7.0 and 8.5+, three behaviours inside 8.0
    assert bool(list(K.validator(target).iter_errors({"output": "a;b"}))) is rejects
    some = K.property_schema("8.0", "output")["x-npuprof-some-builds"]
    assert [b["builds"] for b in some] == ["collectors built 2024-03 to 2025-12", "collectors built 2024-11 to 2025-12"]


KEYS = sorted(K.all_keys())
VALUES = st.sampled_from(["on", "off", "", "l0", "l2", "ON", "read", "cpu,mem", "cpu,disk", "50", "500",
                          "PipeUtilization", "MemoryAccess", "Custom:0x1,0x2", "200MB", "100MB", "/tmp/p"]) | \
    st.integers(0, 40000) | st.booleans()


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5))
def test_any_accepts_what_some_version_accepts_and_portable_only_what_all_accept(obj):
    per_version = [not list(K.validator(v).iter_errors(obj)) for v in K.VERSIONS]
    if any(per_version):
        assert not list(K.validator("any").iter_errors(obj))
    if not list(K.validator("portable").iter_errors(obj)):
        assert all(per_version)
