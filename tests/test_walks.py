"""The two walks every analysis rests on, held to what their short paths must not change.

The sites walk (source/sites.py) and the execution order (setups/inventory.py ExecOrder) take the
commonest nodes on short paths for speed. Here the sites walk is checked against properties any
pre-order walk must have, and ExecOrder against the plain walk it replaced (`child_nodes` and one
rank per node), on the evaluation files, the examples, standard-library modules and a sampler of
constructs.
"""

import ast
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest

from flake8_npuprof.setups.inventory import _DEFS, ExecOrder
from flake8_npuprof.source.site_entries import _passed_on
from flake8_npuprof.source.site_walk import _KIND_WALKS, _RECORDED, _SPECIAL, _TRIES
from flake8_npuprof.source.sites import child_nodes, collect, dotted
from flake8_npuprof.source.text import SourceText

HERE = Path(__file__).parent
SAMPLER = '''
import os, tensorflow as tf
from npu_bridge.npu_init import *
X = Y = 1
a, *b = c = f(1, *d, k=2, **e)
x.y.z = g().h[0].i(j=lambda q, r=s.t: q)
del x.y
print(f"{a!r:>{b}}", u"v", b"w", 1 + -2 ** 3 if a else 4)
[m for m in n if (o := m)]
{p: q for p, q in r.items()}
class K(Base, metaclass=M):
    attr: int = 3
    @dec.orate(1)
    def method(self, a, /, b=1, *c, d=tf.x, **e) -> "R":
        global X
        self.cfg = tf.ConfigProto()
        yield from (await_ for await_ in a)
    async def am(self):
        async with a as (b, c), d:
            async for e in f():
                await g(e)
if False:
    never(1)
elif os.environ.get("A"):
    maybe()
else:
    other()
while not True:
    loop()
try:
    t()
except (E, F) as err:
    raise G from err
else:
    h()
finally:
    i()
with open("p") as fh, ctx():
    fh.read()
assert a, "msg"
for i, (j, k) in enumerate(z):
    break
def outer():
    def inner():
        nonlocal_ = 1
    return inner()
main()
'''
if sys.version_info >= (3, 10):
    SAMPLER += "match v:\n    case {'a': 1, **rest}: pass\n    case K(a, b=c) as d: f(d)\n    case [*s] if s: pass\n"
if sys.version_info >= (3, 12):
    SAMPLER += "type X[T: int, *Ts, **P] = list[T]\ndef gen[T](x: T) -> T: return x\n"


def _sources():
    paths = sorted(HERE.glob("eval_files/*.py")) + sorted((HERE.parent / "examples").rglob("*.py"))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    paths += sorted(stdlib.glob("*.py"))[:40]
    out = [("sampler", SAMPLER)]
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
            ast.parse(text)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        out.append((path.name, text))
    return out


SOURCES = _sources()


def test_the_corpus_is_not_empty():
    assert len(SOURCES) > 60


def test_each_kind_the_walk_records_or_treats_specially_has_its_walk():
    # a special kind without its walk would be descended into as an ordinary node: its scope or guards lost
    assert set(_SPECIAL) | set(_RECORDED) | set(_TRIES) | {ast.Call, ast.Expr} == set(_KIND_WALKS)
    assert _KIND_WALKS[ast.Assign].__name__ == "_walk_assign"


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_sites_walk_is_a_pre_order_walk_that_records_every_load_and_call(name, text):
    tree = ast.parse(text)
    sites = collect(tree)
    walked = [sites._walked[k] for k in sorted(sites._walked)]
    nodes = [item[0] for item in walked]
    # positions are the walk order; a node comes after its parent
    for order, (node, up, _) in enumerate(walked, start=1):
        assert sites.pos[id(node)] == order
        if up is not None:
            assert sites.pos[id(up)] < order
    # every Name/Attribute load and every call the walk met, in walk order, none more, none less
    loads = [n for n in nodes if type(n) in (ast.Name, ast.Attribute) and type(n.ctx) is ast.Load]
    assert [n for n, _ in sites.raw_loads] == loads
    assert [scope for _, scope in sites.raw_loads] == [sites.scope_of.get(id(n)) for n in loads]
    assert [c.call for c in sites.calls] == [n for n in nodes if type(n) is ast.Call]
    # an ordinary node's children are all walked, right after it and in field order, in its own context
    for node, up, context in walked:
        if type(node) in _SPECIAL:
            continue
        kids = child_nodes(node)
        spots = [sites.pos.get(id(k)) for k in kids]
        assert None not in spots, (name, type(node).__name__)
        if kids:
            assert spots[0] == sites.pos[id(node)] + 1
        assert spots == sorted(spots)
        otherwise = {id(k) for k in getattr(node, "orelse", ())} if type(node) in _TRIES else set()
        for k in kids:
            item = sites._walked[sites.pos[id(k)]]
            assert item[1] is node
            if id(k) in otherwise:          # a try's else body: one guard more, read as "no exception ..."
                scope, guards = item[2]
                assert scope is context[0] and guards[:-1] == context[1] and not guards[-1].negated
                assert guards[-1].test.id == f"no exception is raised in the try at line {node.lineno}"
            else:
                assert item[2] == context


def _lazy(text, tree):
    return collect(tree, text, SourceText(text).line_starts)


def _words(tree, limit=12):
    """Up to limit identifiers of the tree, names and attributes, spread over it."""
    found = list(dict.fromkeys(n.id if type(n) is ast.Name else n.attr
                               for n in ast.walk(tree) if type(n) in (ast.Name, ast.Attribute)))
    step = max(1, len(found) // limit)
    return found[::step][:limit]


def _scope(scope):
    return None if scope is None else scope.node


def _guards(guards):
    # a handler's or a try's else condition is a Name made by each walk: compared by its text
    return None if guards is None else [(g.test.id if type(g.test) is ast.Name else g.test, g.negated) for g in guards]


def _site(site):
    return site.call, site.name, site.scope.node, _guards(site.guards), site.stmt


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_deferred_statements_answer_every_question_as_the_whole_walk(name, text):
    tree = ast.parse(text)
    eager = collect(tree)
    lazy = _lazy(text, tree)
    assert not eager._deferred
    # a question by word walks every statement that can answer it, and no answer changes order
    for word in _words(tree):
        fresh = _lazy(text, tree)
        assert [s.call for s in fresh.calls_named(word)] == [s.call for s in eager.calls_named(word)]
        assert [n for _, ns in fresh.loads_ending(word) for n in ns] == \
            [n for _, ns in eager.loads_ending(word) for n in ns]
        fresh = _lazy(text, tree)
        assert fresh.loads_named(word) == eager.loads_named(word)
        assert [c.call for c in fresh.calls_for((word,)) if word in (c.name or "")] == \
            [c.call for c in eager.calls if word in (c.name or "")]
        fresh = _lazy(text, tree)
        assert [c.call for c in fresh.calls_for((word,), whole=True) if word in (c.name or "").split(".")] == \
            [c.call for c in eager.calls if word in (c.name or "").split(".")]
        fresh = _lazy(text, tree)
        assert [_site(c) for c in fresh.named_calls_for((word, "get")) if word in (c.name or "")] == \
            [_site(c) for c in eager.calls if word in (c.name or "")]
    # a question about a node walks the statement it is in first
    nodes = [eager._walked[k][0] for k in sorted(eager._walked)]
    for node in nodes[::-1]:
        assert lazy.parent.at(node) is eager.parent.at(node)
        assert _scope(lazy.scope_of.at(node)) is _scope(eager.scope_of.at(node))
        assert _guards(lazy.guards_of.at(node)) == _guards(eager.guards_of.at(node))
    # once all is walked, the positions keep the whole walk's order, and every list is the same
    assert sorted(nodes, key=lambda n: lazy.pos.at(n)) == nodes
    assert [(n, s.node) for n, s in lazy.raw_loads] == [(n, s.node) for n, s in eager.raw_loads]
    assert [s.call for s in lazy.calls] == [s.call for s in eager.calls]
    assert not lazy._pending


def test_a_flag_definition_is_read_without_walking_its_statement():
    text = ("import argparse\np = argparse.ArgumentParser()\np.add_argument('--a', type=int, default=f(1))\n"
            "if c:\n    p.add_argument('--b', default=p.add_argument)\nx = g(p.add_argument_group('h'))\n")
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    pending = lazy._pending
    sites = lazy.named_calls_for(("add_argument",))
    # line 3 is read as it stands (f(1) is not walked); line 5 names the word twice and line 6 in an inner
    # call: walked; line 2 does not name it
    assert [(s.call.lineno, s.name) for s in sites] == \
        [(3, "p.add_argument"), (5, "p.add_argument"), (6, "g"), (6, "p.add_argument_group")]
    assert lazy._pending == pending - 2
    assert [s.call for s in sites] == [s.call for s in collect(tree).calls if s.call.lineno > 2 and s.name != "f"]


def test_a_flag_statement_is_walked_when_its_lines_name_the_words_more_than_once_in_all():
    # how often the words occur counts every word on every line of the statement: one each on two lines is twice
    text = ("import argparse\np = argparse.ArgumentParser()\np.add_argument('--a', default=1)\n"
            "p.add_argument('--b',\n               help='set_defaults')\np.set_defaults(a=2)\n"
            "q = p.add_argument('--c'); p.set_defaults(c=3)\n")
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    pending = lazy._pending
    sites = lazy.named_calls_for(("add_argument", "set_defaults"))
    assert [(s.call.lineno, s.name) for s in sites] == \
        [(3, "p.add_argument"), (4, "p.add_argument"), (6, "p.set_defaults"), (7, "p.add_argument"),
         (7, "p.set_defaults")]
    # lines 3 and 6 read as they stand; lines 4-5 name the words twice, and line 7's two statements share it
    assert lazy._pending == pending - 3
    assert [s.call for s in sites] == [s.call for s in collect(tree).calls if s.call.lineno > 2]


def test_a_search_reads_only_the_text_of_the_statements_still_waiting():
    class Spy(str):
        def find(self, word, *bounds):
            reads.append((word, *bounds))
            return str.find(self, word, *bounds)

    reads: list = []
    text = "import os\nx = f(1)\ny = g(2)\nz = h(3)\nw = f(4)\n"
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    lazy._text = Spy(text)
    lazy._force_word("x", True)             # line 2 only: the deferred statements still waiting are lines 3 to 5
    assert lazy._pending == 3
    reads.clear()
    assert [s.name for s in lazy.calls_named("f")] == ["f", "f"]
    assert reads[0] == ("f", text.index("y ="), len(text))      # from line 3 on: not the import, nor line 2
    lazy._force_word("w", True)
    reads.clear()
    lazy._force_word("h", True)
    assert reads[0] == ("h", text.index("y ="), text.index("w ="))     # and up to line 4
    assert lazy._pending == 1


def test_an_eager_word_is_known_held_or_not_from_the_walks_own_search():
    class Spy(str):
        def __contains__(self, word):
            asked.append(word)
            return str.__contains__(self, word)

    asked: list = []
    text = Spy("import os\nx = f(1)\nos.system('msprof --application=run.sh')\n")
    sites = _lazy(text, ast.parse(text))
    asked.clear()                           # (the line starts ask for CR)
    assert sites.may_hold("msprof") and not sites.may_hold("PROFILING") and asked == []
    assert sites.may_hold("system") and asked == ["system"]         # not an eager word: the text is asked
    bare = _lazy(Spy("x = f(1)\n"), ast.parse("x = f(1)\n"))
    asked.clear()
    assert not bare.may_hold("msprof") and asked == []


def test_a_comprehension_written_without_a_space_before_for_is_walked_at_once():
    # `2for` is Python (a warning since 3.12): the comprehension binds npu in the walk, as the whole walk does
    text = "import npu_device as npu\nsizes = [npu*2for npu in range(4)]\nnpu.open()\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        tree = ast.parse(text)
    lazy = _lazy(text, tree)
    assert [stmt.lineno for _, stmt, *_ in lazy._deferred] == [3]
    assert len(lazy.module.bindings["npu"]) == len(collect(tree).module.bindings["npu"]) == 2


@pytest.mark.parametrize("line", [
    'os.environ.pop("\\x50ROFILING_MODE")',
    'os.environ.update({"PROF" "ILING_MODE": "true", "\\N{LATIN CAPITAL LETTER P}ROFILING_OPTIONS": "{}"})',
    'os.environ.setdefault("\\120ROFILING_MODE", "true")',
    'put("PROF" "ILING_OPTIONS", "{}")',
    'os.putenv("PROF" "ILING_MODE", "1")',
])
def test_an_environment_variable_whose_name_the_text_does_not_spell_is_still_found(line):
    from flake8_npuprof.setups.routes import env_sets
    text = f"import os\nfrom os import putenv as put\nx = 1\n{line}\n"
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    assert lazy._deferred            # the line is deferred: only the call's name can bring it in
    found = [(e.name, e.anchor.lineno) for e in env_sets(lazy)]
    assert found and found == [(e.name, e.anchor.lineno) for e in env_sets(collect(tree))]



@pytest.mark.parametrize("head, line, found", [
    ("from os import environ as e\n", 'e.update(PROFILING_MODE="true")', [("PROFILING_MODE", 3)]),
    ("import os as o\n", 'o.environ.pop("PROFILING_OPTIONS")', [("PROFILING_OPTIONS", 3)]),
    ("from os import putenv as p\n", 'p("PROFILING_MODE", "1")', [("PROFILING_MODE", 3)]),
    ("d = {}\n", 'd.update(PROFILING_MODE="true")', []),
])
def test_an_environment_set_is_found_through_the_names_that_spell_environ_or_putenv(head, line, found):
    from flake8_npuprof.setups.routes import env_sets
    text = f"{head}x = 1\n{line}\n"
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    assert [(e.name, e.anchor.lineno) for e in env_sets(lazy)] == found
    assert [(e.name, e.anchor.lineno) for e in env_sets(collect(tree))] == found


def test_a_file_that_spells_neither_environ_nor_putenv_has_its_pop_and_update_calls_left_unwalked():
    from flake8_npuprof.setups.routes import env_sets
    text = "import os\nd = {}\nd.update(a=1)\nd.pop('b')\n"
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    pending = lazy._pending
    assert pending == 3 and env_sets(lazy) == [] and lazy._pending == pending
    assert collect(tree).may_hold("environ")        # (made without its text: it may hold anything)
    assert lazy.may_hold("update") and not lazy.may_hold("environ")


def test_most_of_the_corpus_defers_statements():
    deferred = [len(_lazy(text, ast.parse(text))._deferred) for _, text in SOURCES]
    assert sum(1 for n in deferred if n) > len(deferred) * 0.6 > 40
    assert sum(deferred) > 5000


def test_a_statement_on_a_line_with_a_setup_word_or_a_binding_expression_is_walked_at_once():
    text = ("a = f(x)\nb = [y for y in z]\nc = lambda: 1\nd = (e := 2)\nop.parameter_map['k'].b = g(1)\n"
            "h(profiling_mode)\ni = 'é' + j()\nreturn_ = k()\n")
    tree = ast.parse(text)
    lazy = _lazy(text, tree)
    deferred = [stmt.lineno for _, stmt, *_ in lazy._deferred]
    assert deferred == [1, 8]
    assert lazy.scope_of.at(tree.body[0].value.func) is lazy.module
    assert [s.call.lineno for s in lazy.calls] == [1, 5, 6, 7, 8]


class _PlainOrder(ExecOrder):
    """ExecOrder as it was before its short paths: child_nodes for every node, one rank at a time."""

    def _visit(self, root):
        walk, stack = [], [root]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind in _DEFS:
                continue
            walk.append(node)
            if kind is ast.ClassDef:
                stack.extend(s for s in node.body if type(s) not in _DEFS)
            elif kind is not ast.Name and kind is not ast.Constant:
                stack.extend(child_nodes(node))
        for node in reversed(walk):
            self._count += 1
            self.rank.setdefault(id(node), self._count)
            if type(node) is ast.Call:
                self._follow(node)


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_execution_order_ranks_every_node_as_the_plain_walk_did(name, text):
    tree = ast.parse(text)
    sites = collect(tree)
    fast, plain = ExecOrder(sites, tree), _PlainOrder(sites, tree)
    assert fast.rank == plain.rank
    assert fast._count == plain._count


def _plain_loads(sites):
    """dotted name -> [(load, scope)] in walk order, as the index of every load named them."""
    out = {}
    for node, scope in sites.raw_loads:
        key = dotted(node)
        if key:
            out.setdefault(key, []).append((node, scope))
    return out


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_loads_found_on_demand_are_those_of_the_index_of_every_load(name, text):
    sites = collect(ast.parse(text))
    plain = _plain_loads(sites)
    for key, pairs in plain.items():
        assert sites.loads_named(key) == [n for n, _ in pairs]
        scopes = list(dict.fromkeys(scope for _, scope in pairs))
        assert [w for w, _ in sites._loads_grouped(key).values()] == scopes
        for scope in scopes:
            assert sites.loads_in(scope, key) == [n for n, sc in pairs if sc is scope]
    attrs = {key.split(".", 1)[1] for key in plain if "." in key} | {key.rsplit(".", 1)[1] for key in plain if "." in key}
    for attr in attrs:
        assert sites.loads_ending(attr) == [(k, [n for n, _ in pairs]) for k, pairs in plain.items()
                                            if k.endswith("." + attr)]
    # names no load has: nothing, and `x().y` is no name
    assert sites.loads_named("no_such_name") == [] and sites.loads_ending("no_such_attr") == []
    calls_attr = collect(ast.parse("f().y\nz.y\n"))
    assert [dotted(n) for n in calls_attr.loads_named("z.y")] == ["z.y"]
    assert [k for k, _ in calls_attr.loads_ending("y")] == ["z.y"]


def _plain_passed_on(sites):
    """_passed_on as it was: every argument of every call, named by dotted()."""
    bound = {e.bound_to: e for e in sites.entries if e.bound_to}
    out = []
    for site in sites.calls if bound else ():
        if isinstance(site.call.func, ast.Name) and site.call.func.id in sites.functions:
            continue
        for arg in list(site.call.args) + [k.value for k in site.call.keywords]:
            key = dotted(arg.value if isinstance(arg, ast.Starred) else arg)
            if key in bound and bound[key] not in out:
                out.append(bound[key])
    return out


ENTRIES = """
import tensorflow as tf
def local(x): pass
def make():
    config = tf.ConfigProto()
    a = config.graph_options.rewrite_options.custom_optimizers.add()
    b = config.graph_options.rewrite_options.custom_optimizers.add()
    c = config.graph_options.rewrite_options.custom_optimizers.add()
    d = config.graph_options.rewrite_options.custom_optimizers.add()
    e = config.graph_options.rewrite_options.custom_optimizers.add()
    self.f = config.graph_options.rewrite_options.custom_optimizers.add()
    g = config.graph_options.rewrite_options.custom_optimizers.add()
    h = config.graph_options.rewrite_options.custom_optimizers.add()
    i = config.graph_options.rewrite_options.custom_optimizers.add()
    local(a)                  # this file's own function: not passed on
    a()                       # called, not passed
    setup(*b)                 # passed, starred
    setup(k=c)                # passed, keyword
    setup(**d)                # passed, double star
    class C(metaclass=e): pass    # a class keyword is not a call
    setup(self.f)             # an attribute chain
    [g]                       # a container, not a call
    e.method(1)               # e is the called object's value, not an argument
    setup(h.name)             # an attribute of h, not h
    other.thing(x, i)         # a method of something else
"""


@pytest.mark.parametrize("name,text", SOURCES + [("entries", ENTRIES)], ids=[n for n, _ in SOURCES] + ["entries"])
def test_entries_passed_on_are_those_every_argument_of_every_call_names(name, text):
    sites = collect(ast.parse(text))
    assert {id(e) for e in _passed_on(sites)} == {id(e) for e in _plain_passed_on(sites)}


def test_entries_passed_on_in_the_sampler_of_shapes():
    sites = collect(ast.parse(ENTRIES))
    assert sorted(e.bound_to for e in _passed_on(sites)) == ["b", "c", "d", "i", "self.f"]


def test_try_around_names_the_innermost_try_with_handlers_in_the_nodes_own_scope():
    text = ("try:\n    a = f()\n    try:\n        if x:\n            b = g()\n    finally:\n        c = h()\n"
            "except E:\n    d = i()\nelse:\n    e = j()\n"
            "try:\n    def k():\n        m = n()\nexcept E:\n    pass\n")
    tree = ast.parse(text)
    sites = collect(tree)
    line_of = {c.call.func.id: sites.try_around(c.call) for c in sites.calls}
    # a finally-only try catches nothing; a handler, an else or a function body is not in the try's reach
    assert line_of == {"f": 1, "g": 1, "h": 1, "i": 0, "j": 0, "n": 0}


def test_asking_many_names_names_each_load_once(monkeypatch):
    """`a0.config` ... `a199.config`: every name shares its last identifier, and each is asked; the loads are
    named once, not once per question (that was quadratic in such a file)."""
    import flake8_npuprof.source.sites as sites_module
    text = "".join(f"use(a{k}.config)\n" for k in range(200))
    sites = collect(ast.parse(text))
    named = []
    real = sites_module.dotted
    monkeypatch.setattr(sites_module, "dotted", lambda node: named.append(node) or real(node))
    for k in range(200):
        assert len(sites.loads_named(f"a{k}.config")) == 1
    assert len(sites.loads_ending("config")) == 200
    assert len(named) == 200


_ORDER_SHAPES = [
    "def main():\n    a = 1\nx = [1, 2]\ntf.app.run()\ny = f(x)\n",
    "def main():\n    a = 1\nx = 1\n(tf.app).run()\ny = 2\n",
    "def main():\n    a = 1\nx = 1\nmyapp.run()\ny = 2\n",
    "def main():\n    a = 1\nx = 1\ntf.app.\\\n    run()\ny = 2\n",
    "def main():\n    a = 1\nx = 1\n(tf.app.  # c\n run)()\ny = 2\n",
    "from absl.app import run\ndef main(_):\n    a = 1\nx = 1\nrun(main)\nsess.run(x)\n",
    "def main():\n    a = 1\nx = 1\n\uff4dain()\ny = 2\n",                  # NFKC: main()
    "class K:\n    def __init__(self):\n        self.a = g()\n    def go(self):\n        h()\nk = K()\nk.go()\nz = 1\n",
    "if x:\n    def f():\n        return 1\nelse:\n    pass\nv = [f() for _ in y]\nw = 3\n",
]


@pytest.mark.parametrize("name,text", SOURCES + [(f"shape{k}", s) for k, s in enumerate(_ORDER_SHAPES)],
                         ids=[n for n, _ in SOURCES] + [f"shape{k}" for k in range(len(_ORDER_SHAPES))])
def test_the_demand_driven_order_ranks_every_node_in_the_whole_walks_order(name, text):
    """Statements that name nothing a call follows into are walked only when a node in them is asked
    about: whatever is asked, in whatever order, the ranks compare as the whole walk's do."""
    import random
    tree = ast.parse(text)
    src = SourceText(text)
    sites = collect(tree, text, src.line_starts)
    whole = ExecOrder(sites, tree)
    nodes = list(ast.walk(tree))
    random.Random(len(text)).shuffle(nodes)
    lazy = ExecOrder(sites, tree, text, src.line_starts)
    asked = [(lazy.of(n), k) for k, n in enumerate(nodes)]
    known = [(whole.of(n), k) for k, n in enumerate(nodes)]
    assert [r is None for r, _ in asked] == [r is None for r, _ in known]
    assert [k for _, k in sorted(p for p in asked if p[0] is not None)] == \
        [k for _, k in sorted(p for p in known if p[0] is not None)]
    assert all(r is None or r > 0 for r, _ in asked)


def test_the_demand_driven_order_leaves_statements_that_follow_nothing_unwalked():
    text = "def main():\n    a = 1\nx = [1, 2, 3]\ny = x + [4]\nmain()\n"
    tree = ast.parse(text)
    src = SourceText(text)
    order = ExecOrder(collect(tree, text, src.line_starts), tree, text, src.line_starts)
    waiting = lambda: [stmt.lineno for stmt, _ in order._cold if id(stmt) not in order._expanded]  # noqa: E731
    assert waiting() == [3, 4, 2]       # main() is walked, and follows into main
    assert order.of(tree.body[3].value) < order.of(tree.body[0].body[0])     # main(), then a = 1 in it
    assert waiting() == [3, 4]
    assert order.of(tree.body[1]) < order.of(tree.body[2].targets[0]) < order.of(tree.body[3].value)
    assert waiting() == []


@pytest.mark.parametrize("names", [
    ("Session", "InteractiveSession", "MonitoredTrainingSession", "ChiefSessionCreator", "WorkerSessionCreator",
     "RunConfig", "NPURunConfig", "npu_config_proto"),
    ("get", "get_config", "config", "target", "run"),
])
def test_names_forced_together_walk_the_statements_each_name_forced_alone_walks(names):
    asked = 0
    for _, text in SOURCES:
        tree = ast.parse(text)
        together, alone = _lazy(text, tree), _lazy(text, tree)
        together.force_names(names)
        for name in names:
            alone._force_word(name, True)
        assert [d is None for d in together._deferred] == [d is None for d in alone._deferred]
        assert together._pending == alone._pending
        asked += sum(d is None for d in together._deferred)
        if together._pending:           # asked again, each name is known: nothing more is walked
            assert set(names) <= together._whole
    assert asked > 20


def test_a_name_inside_a_longer_one_is_not_forced_by_it():
    text = "import tf\nx = tf.InteractiveSession()\ny = Sessions()\nz = 1\n"
    lazy = _lazy(text, ast.parse(text))
    before = [d is None for d in lazy._deferred]
    lazy.force_names(("Session", "InteractiveSession"))
    walked = [lazy._deferred[k] is None and not before[k] for k in range(len(before))]
    assert [lazy._first_lines[k] for k, w in enumerate(walked) if w] == [2]
