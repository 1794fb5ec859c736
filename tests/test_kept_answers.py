"""The short paths and kept answers the plugin takes on profiling files give what the plain computation gives:
the collector's steps and whether options collect anything (kept per what they read, across options strings),
a schema's errors (kept per property, and validated once for its two readers), the collector's data questions
(per version and key), NanoJson's whitespace runs (one match), a literal's reading (per node), a string literal's end
(found by a search), the execution order (made when first asked) and the Latin-1 reread of a file flake8 could not decode (skipped for a text beyond Latin-1)."""

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from flake8_npuprof.knowledge import collection as C, datafiles as K, ge_options as G
from flake8_npuprof.knowledge.schema_engine import Validator
from flake8_npuprof.setups.inventory import ExecOrder, OrderWhenAsked
from flake8_npuprof.source import files, text as T
from flake8_npuprof.source.jsonscan import parse
from flake8_npuprof.source.sites import collect
from flake8_npuprof.source.text import LiteralError, SourceText

HERE = Path(__file__).resolve().parent

# Options strings that share members, or differ only in a member's type (true, 1, 1.0 and "1" are equal or alike
# to Python, not to the collector or a schema), in spacing, order or the output directory
OPTIONS = [
    '{"output":"/tmp/a","task_trace":"on","aicpu":"on"}',
    '{"output": "/tmp/b",   "task_trace": "on", "aicpu": "on"}',
    '{"aicpu":"on","task_trace":"on","output":"/tmp/a"}',
    '{"output":"/tmp/a","task_trace":true,"aicpu":1}',
    '{"output":"/tmp/a","task_trace":1,"aicpu":1.0}',
    '{"output":"/tmp/a","task_trace":"1","aicpu":"on"}',
    '{"output":"/tmp/a","aic_metrics":"PipeUtilization","l2":"on","instr_profiling_freq":1000}',
    '{"output":"/tmp/a","aic_metrics":"PipeUtilization","l2":"on","instr_profiling_freq":1000.0}',
    '{"output":"/tmp/a","aic_metrics":"PipeUtilization","l2":"on","instr_profiling_freq":true}',
    '{"output":"/tmp/a","instr_profiling":"on","instr_profiling_freq":5}',
    '{"output":"","storage_limit":"100MB","task_trace":"off","training_trace":"on"}',
    '{"output":"/tmp/a","storage_limit":"500MB","task_trace":"off","training_trace":"on"}',
    '{"output":"/tmp/a","llc_profiling":"read","sys_hardware_mem_freq":100,"hccl":"on"}',
    '{"output":"/tmp/a","task_block":"on","scale":"x","op_type":"y","msproftx":"on"}',
    '{"output":"/tmp/a","aic_metrics":["x"],"task_trace":{"a":1}}',
    '{"output":"/tmp/a","task_trace":"on",',
    '{"output":"/tmp/a\\"b","task_trace":"on"}',
    '{"output":"/tmp/a","task_trace":"on","task_trace":"off"}',
]
PAIRS = [(v, p) for v in K.VERSIONS for p in K.PRODUCTS]
RUNTIME_PAIRS = [(v, p) for v, p in PAIRS if v not in K.LEGACY_VERSIONS]      # the collector's steps: 8.5 on


def _cold_collector():
    for kept in (G._collector_steps_of, G._steps_around_output, G._member_steps, G._output_steps,
                 G._construct_steps):
        kept.cache_clear()


def test_the_collector_steps_kept_across_strings_are_each_strings_own():
    _cold_collector()
    warm = [[G.collector_steps(text, v, p) for v, p in RUNTIME_PAIRS] for text in OPTIONS]
    assert any(warm)
    for text, got in zip(OPTIONS, warm):
        _cold_collector()
        assert got == [G.collector_steps(text, v, p) for v, p in RUNTIME_PAIRS], text
    # with an environment nothing of the construction is kept, and the members' steps are the same
    for text in OPTIONS:
        for v, p in RUNTIME_PAIRS:
            alone = G.collector_steps(text, v, p, {"ASCEND_WORK_PATH": "/w"})
            _cold_collector()
            assert alone == G.collector_steps(text, v, p, {"ASCEND_WORK_PATH": "/w"})


# result paths the collector refuses or reads otherwise (none, empty, another type, a bad character, too long, a
# hole), each with members whose steps come before and after the path's, on a chip with a platform class and without
PATHS = ['', ',"output":""', ',"output":5', ',"output":"/tmp/a|b"', ',"output":"/tmp/' + "x" * 300 + '"',
         ',"output":"\ue000/p"', ',"output":["/tmp"]', ',"output":"/tmp/a","output":"/tmp/b"']
REST = ['"task_trace":"on"', '"storage_limit":"100MB","task_trace":"off"', '"aicpu":"on","scale":"x"',
        '"instr_profiling":"on","instr_profiling_freq":5,"l2":"on"', '"outputs":"/tmp","hccl":"on"',
        '"task_block":"on","sys_mem_serviceflow":"x","task_trace":1']


def test_the_collector_steps_judged_apart_from_the_result_path_are_the_whole_objects():
    _cold_collector()
    texts = [("{" + rest + path + "}", "{" + path.lstrip(",") + ("," if path else "") + rest + "}")
             for rest in REST for path in PATHS]
    for text in OPTIONS + [t for pair in texts for t in pair]:
        obj, bad = G._nano_read_once(text)
        for v, p in RUNTIME_PAIRS:
            assert G.collector_steps(text, v, p) == G._collector_steps(obj, bad, v, p, None), (text, v, p)


def _options(text):
    from flake8_npuprof.checks.options_problem import snake
    doc = parse(text)
    return {snake(k): v for k, v in doc.as_dict().items()} if doc.ok else None


def test_the_pairs_that_collect_nothing_are_those_collects_anything_denies():
    C._silent_pairs.cache_clear()
    more = ['{"output":"/tmp/a","task_trace":"off","task_time":"off"}', '{"output":"/tmp/a"}'] + \
        ['{"output":"/tmp/a","sys_hardware_mem_freq":%s}' % v for v in ("true", "1", "1.0", '"1"', "0", "false")]
    for text in OPTIONS + more:
        options = _options(text)
        if options is None:
            continue
        assert C.silent_pairs(options, tuple(PAIRS)) == \
            tuple(pair for pair in PAIRS if not C.collects_anything(options, *pair)), text


def test_a_schemas_errors_kept_per_property_are_a_fresh_validators():
    objs = [{"output": "/tmp/a", "task_trace": v, "aicpu": w} for v in ("on", True, 1, 1.0, "1", None, [1], {"a": 1})
            for w in ("on", "off", 0)] + [{"output": 5}, {"output": "/tmp/a", "instr_profiling_freq": 10,
                                                          "task_trace": "on"}, {}] + \
        [{"output": "/tmp/a", "instr_profiling_freq": v} for v in (True, 1, 1.0, 10, 10.5, "10", False, 0)]
    for version in K.LEGACY_VERSIONS:
        kept = K.validator(version)
        for obj in objs + objs:
            assert list(kept.iter_errors(obj)) == list(Validator(K.schema(version)).iter_errors(obj)), (version, obj)


def _find_close_by_step(text, i, quote):
    """text._find_close for a string that is not an f-string, one character at a time (as it was)."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 3 if text.startswith("\\\r\n", i) else 2
            continue
        if text.startswith(quote, i):
            return i
        if len(quote) == 1 and c in "\r\n":
            raise LiteralError("unterminated string")
        i += 1
    raise LiteralError("unterminated string")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab'\"\\\r\n{}", max_size=24), st.sampled_from(["'", '"', "'''", '"""']),
       st.integers(0, 5))
def test_a_string_literals_end_is_found_as_the_step_by_step_scan_found_it(body, quote, start):
    def answer(scan):
        try:
            return scan()
        except LiteralError:
            return "unterminated"
    assert answer(lambda: T._find_close(body, start, quote, False)) == \
        answer(lambda: _find_close_by_step(body, start, quote))


@pytest.mark.parametrize("path", sorted((HERE / "eval_files").glob("*.py"))[::3], ids=lambda p: p.name)
def test_the_order_made_when_asked_ranks_every_node_as_the_order_made_at_once(path):
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    at_once = ExecOrder(sites, tree, text, src.line_starts)
    when_asked = OrderWhenAsked(sites, tree, text, src.line_starts)
    assert when_asked.of(None) is None and when_asked._made is None
    nodes = list(ast.walk(tree))
    assert [when_asked.of(n) for n in nodes] == [at_once.of(n) for n in nodes]


_SHAPES = [
    # statements of one body, a function reached by a plain call, a method, a lambda, a decorator, a default,
    # a class body, code after a return, a name defined twice, a call in a nested def, `as_default` (not `def`)
    "import npu_device as npu\n"
    "def deco(f):\n    return f\n"
    "def helper(x=npu.open()):\n    cfg = npu.global_options()\n    return cfg\n"
    "def main():\n    npu.global_options().profiling_config.enable_profiling = True\n"
    "    npu.open().as_default()\n    helper()\n    f = lambda: npu.open()\n"
    "    def inner():\n        npu.open()\n    return 1\n    npu.open()\n"
    "@deco\ndef unused():\n    npu.open()\n"
    "class T:\n    def run(self):\n        npu.open()\n    x = npu.open()\n"
    "def main():\n    npu.global_options().profiling_config.enable_profiling = True\n    npu.open().as_default()\n"
    "T().run()\nmain()\nif __name__ == '__main__':\n    main()\n    helper()\n",
    # a def and a class inside a compound statement: their headers run, yet the order ranks neither
    "import npu_device as npu\nif npu:\n    def g(a=npu.open()):\n        pass\n"
    "    class K(npu.open()):\n        pass\n    npu.open()\n",
]


@pytest.mark.parametrize("text", _SHAPES + [p.read_text(encoding="utf-8") for p in
                                            sorted((HERE / "eval_files").glob("*.py"))[1::4]])
def test_ranked_and_first_without_the_order_are_the_orders_answers(text):
    import random
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    whole = ExecOrder(sites, tree, text, src.line_starts)
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.stmt, ast.expr))]
    shown = []
    for n in nodes:
        order = OrderWhenAsked(sites, tree, text, src.line_starts)
        assert order.ranked(n) == (whole.of(n) is not None)
        if OrderWhenAsked(sites, tree, text, src.line_starts)._surely_ranked(n, set()):
            shown.append(n)
    assert shown
    ranked = [n for n in nodes if whole.of(n) is not None]
    pick = random.Random(len(text))
    for _ in range(300):
        pair = [pick.choice(shown), pick.choice(ranked if pick.random() < 0.5 else shown)]
        if pair[0] is not pair[1]:
            order = OrderWhenAsked(sites, tree, text, src.line_starts)
            assert order.first(pair) is min(pair, key=whole.of)


def test_a_text_beyond_latin_1_is_not_flake8s_reading_of_an_undecodable_file(tmp_path):
    path = tmp_path / "gbk.py"
    source = "# 训练脚本\nx = 1\n"
    path.write_bytes(source.encode("gbk"))          # no coding line: Python refuses it as UTF-8
    flake8_text = path.read_bytes().decode("latin-1")
    found = files.refused_as_flake8_read(str(path), flake8_text)
    assert found is not None and re.search("decode|UTF-8|utf-8", found.reason)
    assert files.refused_as_flake8_read(str(path), source) is None      # decoded otherwise: not flake8's reading


def test_the_collectors_data_questions_kept_per_version_and_key_are_fresh_answers():
    keys = sorted(K.all_keys() | {k for v in ("8.5", "9.0", "9.1") for k in G.facts(v)["whitelist"]} | {"bogus"})
    kept = {(v, k): (G.gated(v, k), G.supported_anywhere(v, k)) for v in ("8.5", "9.0", "9.1") for k in keys}
    assert any(g for g, _ in kept.values()) and any(not s for _, s in kept.values())
    for (v, k), answers in kept.items():
        assert answers == (G.gated.__wrapped__(v, k), G.supported_anywhere.__wrapped__(v, k)), (v, k)
    for v, p in PAIRS:       # the kept table read in place is the copy callers get
        assert K.unsupported_table(p, v) == K.unsupported(p, v)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\r\n\v\f,:x\"{", max_size=16), st.integers(0, 20),
       st.sampled_from([G.WHITESPACE, G.WHITESPACE + ",", G.WHITESPACE + ":"]))
def test_nanojsons_whitespace_runs_end_where_the_character_by_character_scan_ends(text, i, chars):
    stepped = i
    while stepped < len(text) and text[stepped] in chars:
        stepped += 1
    assert G._skip(text, i, chars) == stepped


def test_the_schema_validated_once_gives_each_readers_own_answers():
    from flake8_npuprof.checks.options_schema import _schema_judgement, _schema_ok_keys, _schema_problems
    for text in OPTIONS + ['{"output":"/tmp/a","aic_metrics":"x\ue000","task_trace":"on"}']:
        doc = parse(text)
        for version in sorted(K.LEGACY_VERSIONS):
            assert _schema_judgement(doc, version) == (_schema_problems(doc, version), _schema_ok_keys(doc, version))


def test_a_literal_read_once_per_node_is_a_fresh_reading():
    from flake8_npuprof.values.resolve import Resolver
    text = (HERE / "eval_files" / "options_json.py").read_text(encoding="utf-8") + \
        'a = "x\\ty" \'z\'\nb = b"\\x41"\nc = f"{{on}}"\nd = r"\\d" "e"\n'
    tree = ast.parse(text)
    src = SourceText(text)
    resolver = Resolver(src, collect(tree, text, src.line_starts), tree, "x.py")
    literals = [n for n in ast.walk(tree) if isinstance(n, (ast.Constant, ast.JoinedStr))]
    assert sum(T.literal_value(src, n) is not None for n in literals) > 5
    for n in literals + literals:
        kept, fresh = resolver.literal(n), T.literal_value(src, n)
        assert (kept is None) == (fresh is None)
        if fresh is not None:
            assert (kept.text, kept.runs, kept.anchor, kept.anchor_end, kept.pieces, kept.is_bytes, kept.origin,
                    kept.notes) == (fresh.text, fresh.runs, fresh.anchor, fresh.anchor_end, fresh.pieces,
                                    fresh.is_bytes, fresh.origin, fresh.notes)
