"""A compiled validator for the JSON Schema keywords our options schemas use.

Why not jsonschema at run time: importing it (with referencing, attrs and rpds) costs 65-140 ms
in every process that validates, and flake8 pays that once per worker, more than the plugin
spends on a whole file. The schemas in schemas/ stay standard draft 2020-12 documents (editors,
check-jsonschema); this engine reads the keywords they use, refuses a schema with any other,
and reports what the checks read from jsonschema's errors, in jsonschema's order: the failing
keyword, its value, the instance path and the schema path. tests/test_schema_engine.py holds
it to jsonschema's answers on every shipped schema.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

# Keywords without an assertion (annotations, and `then`/`else`, which `if` reads).
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples",
                          "then", "else"})


class SchemaError(NamedTuple):
    """The parts of a jsonschema ValidationError the checks use, under the same names."""

    validator: Optional[str]    # the keyword that failed (None: a false schema)
    validator_value: object     # its value in the schema
    absolute_path: Tuple        # where in the instance (keys)
    schema_path: Tuple          # where in the schema (keywords, property names, indexes)


class UnsupportedSchema(ValueError):
    pass


Check = Callable[[object, Tuple, Tuple], Iterator[SchemaError]]


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# JSON types as jsonschema's draft 2020-12 checker defines them (an integral float is an integer).
_TYPES: Dict[str, Callable[[object], bool]] = {
    "string": lambda x: isinstance(x, str),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": _is_number,
    "integer": lambda x: _is_number(x) and (isinstance(x, int) or isinstance(x, float) and x.is_integer()),
}


def _equal(a, b) -> bool:
    """JSON equality: true is not 1, and containers compare member by member."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


class Validator:
    """One schema compiled once: `iter_errors(instance)` like jsonschema's validators."""

    def __init__(self, schema: dict):
        self._check = _compile(schema)

    def iter_errors(self, instance) -> Iterator[SchemaError]:
        return self._check(instance, (), ())

    def is_valid(self, instance) -> bool:
        return next(self.iter_errors(instance), None) is None


def _compile(schema) -> Check:
    if schema is True or schema == {}:
        return lambda instance, path, spath: iter(())
    if schema is False:
        return lambda instance, path, spath: iter((SchemaError(None, None, path, spath),))
    if not isinstance(schema, dict):
        raise UnsupportedSchema(f"not a schema: {schema!r}")
    checks: List[Tuple[Tuple[str, ...], Check]] = []
    for key, value in schema.items():
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        build = _KEYWORDS.get(key)
        if build is None:
            raise UnsupportedSchema(f"keyword {key!r} is not supported by the schema engine")
        # jsonschema leaves `if` out of the schema path: `then`'s errors start at "then"
        checks.append(((key,) if key != "if" else (), build(value, schema)))

    def check(instance, path, spath):
        for step, run in checks:
            yield from run(instance, path, spath + step)
    return check


def _fails(keyword: str, value, test: Callable[[object], bool]) -> Check:
    """A keyword whose check is one test of the instance (True: it fails)."""
    def check(instance, path, spath):
        if test(instance):
            yield SchemaError(keyword, value, path, spath)
    return check


def _type(value, _schema) -> Check:
    names = [value] if isinstance(value, str) else list(value)
    tests = [_TYPES[n] for n in names]
    return _fails("type", value, lambda x: not any(t(x) for t in tests))


def _enum(value, _schema) -> Check:
    return _fails("enum", value, lambda x: not any(_equal(x, v) for v in value))


def _const(value, _schema) -> Check:
    return _fails("const", value, lambda x: not _equal(x, value))


def _pattern(value, _schema) -> Check:
    regex = re.compile(value)
    return _fails("pattern", value, lambda x: isinstance(x, str) and regex.search(x) is None)


def _min_length(value, _schema) -> Check:
    return _fails("minLength", value, lambda x: isinstance(x, str) and len(x) < value)


def _max_length(value, _schema) -> Check:
    return _fails("maxLength", value, lambda x: isinstance(x, str) and len(x) > value)


def _minimum(value, _schema) -> Check:
    return _fails("minimum", value, lambda x: _is_number(x) and x < value)


def _maximum(value, _schema) -> Check:
    return _fails("maximum", value, lambda x: _is_number(x) and x > value)


def _any_of(value, _schema) -> Check:
    subs = [_compile(s) for s in value]

    def check(instance, path, spath):
        for k, sub in enumerate(subs):
            if next(sub(instance, path, spath + (k,)), None) is None:
                return
        yield SchemaError("anyOf", value, path, spath)
    return check


def _not(value, _schema) -> Check:
    sub = _compile(value)

    def check(instance, path, spath):
        if next(sub(instance, path, spath), None) is None:
            yield SchemaError("not", value, path, spath)
    return check


# Errors of a property's schema kept per validator, per (name, where, the value and its type): options strings repeat
# their members from script to script, and each is validated for every version up to 8.0
_KEPT = 1024


def _properties(value, _schema) -> Check:
    subs = [(name, _compile(s)) for name, s in value.items()]
    kept: Dict[tuple, Tuple[SchemaError, ...]] = {}

    def check(instance, path, spath):
        if isinstance(instance, dict):
            for name, sub in subs:
                if name in instance:
                    item = instance[name]
                    # (the type too: true == 1 == 1.0 in Python, not in JSON Schema)
                    key = (name, path, spath, type(item), item)
                    try:
                        found = kept.get(key)
                    except TypeError:       # an array or an object: validated each time
                        yield from sub(item, path + (name,), spath + (name,))
                        continue
                    if found is None:
                        found = tuple(sub(item, path + (name,), spath + (name,)))
                        if len(kept) < _KEPT:
                            kept[key] = found
                    yield from found
    return check


def _additional_properties(value, schema) -> Check:
    if value is not False:
        raise UnsupportedSchema("additionalProperties other than false is not supported")
    if "patternProperties" in schema:
        raise UnsupportedSchema("patternProperties is not supported")
    known = frozenset(schema.get("properties", {}))

    def check(instance, path, spath):
        if isinstance(instance, dict) and any(k not in known for k in instance):
            yield SchemaError("additionalProperties", value, path, spath)
    return check


def _items(value, schema) -> Check:
    if "prefixItems" in schema:
        raise UnsupportedSchema("prefixItems is not supported")
    sub = _compile(value)

    def check(instance, path, spath):
        if isinstance(instance, list):
            for k, item in enumerate(instance):
                yield from sub(item, path + (k,), spath)
    return check


def _required(value, _schema) -> Check:
    def check(instance, path, spath):
        if isinstance(instance, dict):
            for name in value:
                if name not in instance:
                    yield SchemaError("required", value, path, spath)
    return check


def _dependent_schemas(value, _schema) -> Check:
    subs = [(name, _compile(s)) for name, s in value.items()]

    def check(instance, path, spath):
        if isinstance(instance, dict):
            for name, sub in subs:
                if name in instance:
                    yield from sub(instance, path, spath + (name,))
    return check


def _if(value, schema) -> Check:
    test = _compile(value)
    then = _compile(schema["then"]) if "then" in schema else None
    else_ = _compile(schema["else"]) if "else" in schema else None

    def check(instance, path, spath):
        if next(test(instance, path, spath), None) is None:
            if then is not None:
                yield from then(instance, path, spath + ("then",))
        elif else_ is not None:
            yield from else_(instance, path, spath + ("else",))
    return check


_KEYWORDS: Dict[str, Callable[[object, dict], Check]] = {
    "type": _type, "enum": _enum, "const": _const, "pattern": _pattern,
    "minLength": _min_length, "maxLength": _max_length, "minimum": _minimum, "maximum": _maximum,
    "anyOf": _any_of, "not": _not, "properties": _properties, "additionalProperties": _additional_properties,
    "required": _required, "dependentSchemas": _dependent_schemas, "if": _if, "items": _items,
}
