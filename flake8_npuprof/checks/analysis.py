"""The pipeline: prefilter → sites → values → setups → findings, for one file."""

from __future__ import annotations

import ast
import copy
from bisect import bisect_right
import gc
import symtable
from functools import lru_cache
from typing import TYPE_CHECKING, List, Optional, Sequence, Set, Tuple, Union

from ..source.model import Finding, Fix, Issue, finding, printable
from ..source.said import Said, aside, clause, said, so, unreached
from ..source import parse_proof, prefilter
from ..source.prefilter import might_configure_profiling, words_over_budget
from ..source.text import Located, SourceText, StrValue
from ..knowledge.run_settings import Settings  # noqa: F401  (re-exported: analysis.Settings)
from ..values.reader import Values, place
from ..source.sites import collect
from .. import checks                   # (its run_all read at each call: a test or a tool may replace it)
from .noqa_comments import unused

if TYPE_CHECKING:                      # (imported where first used: a file that does not profile never needs them)
    from ..setups.flow import Flow
    from ..setups.state import Model

_new_tuple = tuple.__new__


@lru_cache(maxsize=None)
def _later():
    """The modules only a file that may profile needs (its resolver, flow, model and reach), imported on the first
    one, once: an import statement where each is used cost about 10,000 instructions every time it ran."""
    from ..values import project
    from ..setups import flow, inventory, reach
    return project, flow, inventory, reach


class Context:
    """Everything the rules share for one file, and where they put their findings."""

    def __init__(self, src: SourceText, tree: ast.AST, filename: str, settings: Settings, walks=None):
        self.src = src
        self.tree = tree
        self.filename = filename
        self.settings = settings
        self.target = settings.target
        # walks: an edited document's (server); lf_lines: flake8's lines (the plugin's)
        self.sites = collect(tree, src.text, src.line_starts, walks, src.lf_lines)
        self.sites.path = filename
        self.resolver = _later()[0].ProjectResolver(src, self.sites, tree, filename)
        self.values = Values(src, self.resolver)
        self.findings: List[Finding] = []
        self._seen: Set[Tuple[str, int, str]] = set()
        self._flow: Optional[Flow] = None
        self._model: Optional[Model] = None

    # ---- reporting

    def report(self, code: str, start: int, end: int, message: Union[str, Said], fix: Optional[Fix] = None) -> None:
        key = (code, start, str(message))
        if key in self._seen:
            return
        self._seen.add(key)
        line, col = self.src.position(start)
        end_line, end_col = self.src.position(max(end, start))
        if fix is not None:
            fix = _new_tuple(Fix, (fix.edits, fix.safe, printable(fix.title)))     # (_replace costs 8,000 instructions)
        self.findings.append(finding(code, message, start, end, line, col, end_line, end_col, fix))

    def report_node(self, code: str, node: Located, message: Union[str, Said], fix: Optional[Fix] = None) -> None:
        self.report(code, self.src.node_start(node), self.src.node_end(node), message, fix)

    def report_issue(self, issue: Issue, value: StrValue) -> None:
        start, end = place(value, issue.i, issue.j)
        fix = self.map_fix(issue, value)
        self.report(issue.code, start, end, issue.words, fix)

    def map_fix(self, issue: Issue, value: StrValue) -> Optional[Fix]:
        """Turn a fix on the options text into source edits, when every edit is local."""
        if issue.fix is None:
            return None
        from ..source.literal_edits import text_edits_to_source
        edits = text_edits_to_source(self.src, value, issue.fix.edits)
        if edits is None:
            return None
        return Fix(tuple(edits), issue.fix.safe, issue.fix.title)

    @property
    def flow(self) -> Flow:
        if self._flow is None:
            self._flow = _later()[1].Flow(self.sites)
        return self._flow

    @property
    def model(self) -> Model:
        """The effective state of every setup (state.py), built once and shared by every rule."""
        if self._model is None:
            self._model = _later()[2].build(self)
        return self._model

    def state_of(self, node: ast.AST):
        """The state of the setup a node belongs to (None: not part of a known setup)."""
        return self.model.state_of(node)

    def pos(self, node: ast.AST) -> int:
        return self.sites.pos.at(node, 0)

    def judged_for(self, settings: Settings) -> "Context":
        """This file judged against other settings: the text, tree, sites, values and model are shared
        (none of them depends on the target), the findings are the new context's own. The resolver's
        budgets start again, so the other target is not cut short by what this one spent."""
        other = copy.copy(self)
        other.settings, other.target = settings, settings.target
        other.findings, other._seen = [], set()
        self.resolver.restart_budget()
        return other


def report_exhausted(ctx: Context) -> None:
    """NPP191 on every setup whose values a budget cut short: a finding may be missing there,
    and that must never pass in silence (NPP190, off by default, would hide it)."""
    done = set()
    for node in ctx.resolver.cut.values():
        setup, up = None, node
        while up is not None and setup is None:
            setup = ctx.model.setup_of(up)
            up = ctx.sites.parent.at(up)
        line = setup.line if setup is not None else ctx.src.position(ctx.src.node_start(node))[0]
        key = id(setup) if setup is not None else id(node)
        if key in done:
            continue
        done.add(key)
        ctx.report_node("NPP191", node, said("analysis budget exhausted",
                                             clause(f"the setup at line {line} was not fully checked",
                                                    aside("a finding may be missing; split the computation or "
                                                          "write the value as a literal"))))


def mark_unreached(ctx: Context) -> None:
    """A finding in code the entry point does not reach (setups/reach.py) is kept, since the code is wrong
    wherever it stands, and says in one clause that this run does not meet it; a consequence it
    states becomes what will happen once the code runs."""
    if not ctx.findings:
        return
    reach = _later()[3].reach_of(ctx.sites)
    if reach.entry is None:                 # (unreached() names nothing then)
        return
    marked = _in_unreached(ctx, reach, [f.start for f in ctx.findings])
    # nor when a name is computed at run time: asked only when it would name something here (finding what
    # computes names is a search of its own)
    if not any(marked) or reach.dynamic:
        return
    condition = unreached(reach.entry.line)
    for k, f in enumerate(ctx.findings):
        if marked[k]:
            ctx.findings[k] = f.given(condition)


def _in_unreached(ctx: Context, reach, offsets: List[int]) -> List[bool]:
    """For each offset, whether it lies in the span of the last definition reach.unreached() names (when
    reach.known) that starts at or before it (spans in (start, end) order), asking reach only about the
    definitions that can decide it:
    the ones holding the offset, and, when one of those is unreached, the ones after it that end before the
    offset (an unreached one there is the last, and does not hold it)."""
    spans = sorted((ctx.src.node_start(s.node), ctx.src.node_end(s.node), k, s)
                   for k, s in enumerate(ctx.sites.scopes) if s.kind in ("function", "class"))
    starts = [a for a, _, _, _ in spans]
    around: List[int] = []                  # the definition each one is nested in (-1: none); spans nest
    stack: List[int] = []
    for j, (start, _, _, _) in enumerate(spans):
        while stack and spans[stack[-1]][1] <= start:
            stack.pop()
        around.append(stack[-1] if stack else -1)
        stack.append(j)
    lasts = [bisect_right(starts, at) - 1 for at in offsets]
    holding = []                            # the definitions holding each offset, innermost first
    for i, at in zip(lasts, offsets):
        j, chain = i, []
        while j >= 0:
            if spans[j][1] > at:
                chain.append(j)
            j = around[j]
        holding.append(chain)
    asked = {j for js in holding for j in js}
    found = dict(zip(sorted(asked), reach.outermost_unreached([spans[j][3] for j in sorted(asked)])))
    out = []
    for i, at, js in zip(lasts, offsets, holding):
        first = next((j for j in js if found[j]), None)      # the innermost unreached one holding it
        if first is None:
            out.append(False)
            continue
        after = [j for j in range(i, first, -1) if spans[j][1] <= at]
        out.append(not any(reach.outermost_unreached([spans[j][3] for j in after])))
    return out


def internal_error(exc: BaseException) -> Finding:
    name = type(exc).__name__
    detail = printable(str(exc).splitlines()[0][:200]) if str(exc).strip() else ""
    # the exception stays in the short message: it is what a report needs
    return finding("NPP000", said(f"internal error while analysing this file: {name}: {detail}", "",
                                  "the other NPP checks were skipped for it", "please report this with the file"),
                   0, 0, 1, 0, 1, 0)


def over_budget(words: int) -> Finding:
    """NPP191 for a file over the work budget (prefilter.MAX_WORDS): it is not analysed at all."""
    return finding("NPP191", said("analysis budget exhausted",
                                  clause(f"this file has about {words:,} words and symbols, over the "
                                         f"{prefilter.MAX_WORDS:,} one file may have",
                                         so("none of its profiling setups was checked"),
                                         aside("a finding may be missing; split the file"))), 0, 0, 1, 0, 1, 0)


def too_many_conditions(stmt: Union[ast.stmt, ast.excepthandler], text: str) -> Finding:
    """NPP191 for a file with a statement nested under more conditions than prefilter.MAX_CONDITIONS: not
    analysed past there, nor before (what comes after a statement can change what is said about one before)."""
    src = SourceText(text)
    line = min(max(getattr(stmt, "lineno", 1), 1), len(src.line_starts))
    col = min(getattr(stmt, "col_offset", 0), len(src.line_text(line).rstrip("\r\n")))
    start = src.line_starts[line - 1] + col
    return finding("NPP191", said("analysis budget exhausted",
                                  clause(f"the statement at line {line} runs under more than "
                                         f"{prefilter.MAX_CONDITIONS} conditions", aside("an if/elif chain this long"),
                                         so("this file was not analysed"),
                                         aside("a finding may be missing; split the chain or look the value up in a "
                                               "dict"))),
                   start, start + 1, line, col, line, col + 1)


def syntax_error(exc: BaseException, text: str) -> Finding:
    """NPP192 for a file Python cannot parse: the parser's message at its position (flake8 shows its own
    E999 there instead, since it runs no plugin on such a file)."""
    import sys
    src = SourceText(text)
    version = "Python %d.%d" % sys.version_info[:2]
    if isinstance(exc, SyntaxError):
        reason = exc.msg or "invalid syntax"
        line, offset = exc.lineno or 1, exc.offset or 1
    elif isinstance(exc, (RecursionError, MemoryError)):
        reason, line, offset = "nested too deeply", 1, 1
    else:                                   # ValueError: null bytes, before 3.12
        reason, line, offset = str(exc) or type(exc).__name__, 1, 1
    line = min(max(line, 1), len(src.line_starts))
    body = src.line_text(line).rstrip("\r\n")
    col = min(max(offset - 1, 0), len(body))
    start = src.line_starts[line - 1] + col
    end = start + 1 if col < len(body) else start
    message = said("the file does not parse",
                   clause(reason, aside(f"{version}'s parser"), so("nothing in it was checked")))
    return finding("NPP192", message, start, end, line, col, line, col + (end - start))


def undecodable(exc) -> Finding:
    """NPP192 for a file Python cannot decode (source/files.DecodeError), at the first byte it cannot decode
    (or the coding line's encoding name). Python raises SyntaxError before the first line runs; flake8 reads
    such a file as Latin-1 and reports nothing."""
    src = SourceText(exc.text)
    line = min(max(exc.line, 1), len(src.line_starts))
    body = src.line_text(line).rstrip("\r\n")
    col = min(max(exc.col, 0), len(body))
    start = src.line_starts[line - 1] + col
    end = start + 1 if col < len(body) else start
    message = said("the file does not decode",
                   clause(exc.reason, so("Python refuses to run it as a script and nothing in it was checked")),
                   "save it as UTF-8 or declare its encoding on line 1 or 2 (`# -*- coding: gbk -*-` for GBK)")
    return finding("NPP192", message, start, end, line, col, line, col + (end - start))


def parse(text: str, filename: str = "<unknown>"):
    """The file's tree, or the NPP192 finding that says why Python cannot parse it."""
    # A tree holds no cycles, yet the cyclic collector walks the young nodes again and again while the
    # parser makes them: paused, parsing takes about half the CPU (the standard library: 1.2 s, not 2.2 s)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(text, filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:   # the last two: nested too deep
        return syntax_error(exc, text)
    finally:
        if collecting:
            gc.enable()


def syntax_check(text: str, filename: str = "<unknown>") -> Optional[Finding]:
    """None, or the NPP192 `parse` would give: for a file whose tree nothing needs. The symbol table is
    built from the parser's own tree without turning it into Python objects, about 0.7x an ast.parse
    (the standard library: 1.19 s, not 1.68 s). It refuses a little more than the parser (a duplicate
    parameter, `nonlocal` at module level): then ast.parse decides, so the answer is parse's. A file of 64 KiB
    or more is first proven to parse piece by piece, or a file of large data literals without their trees
    (source/parse_proof.py: a 153 KB module of the model zoo took 12.6 MB in the symbol table, glove_MIT.py's
    2.28 MB of word vectors 107 MB); when the proof does not go through, as for every file that does not
    parse, the whole text is checked as before."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        if parse_proof.parses(text):
            return None
        symtable.symtable(text, filename, "exec")
        return None
    except Exception:                   # SyntaxError, ValueError (null bytes), RecursionError, MemoryError
        found = parse(text, filename)
        return found if isinstance(found, Finding) else None
    finally:
        if collecting:
            gc.enable()


def analyse(text: str, tree: Optional[ast.AST], filename: str = "<unknown>",
            settings: Settings = Settings(), profiling: Optional[bool] = None,
            lines: Optional[List[str]] = None) -> List[Finding]:
    """All findings for one file's text (tree: flake8's ast, or None to parse here; lines: flake8's lines, which
    joined are the text)."""
    return analyse_each(text, tree, filename, (settings,), profiling=profiling, lines=lines)[0]


def analyse_each(text: str, tree: Optional[ast.AST], filename: str,
                 each: Sequence[Settings], compiled: bool = False,
                 profiling: Optional[bool] = None, walks=None,
                 lines: Optional[List[str]] = None) -> List[List[Finding]]:
    """The findings of one file for each of several settings (`npuprof check` asks for the run's target
    and the wider one its summary counts): one parse, one walk, one model; only the rules run per
    setting.

    Without a tree every file is parsed, also one that does not mention profiling (that one only through
    its symbol table, `syntax_check`): a file that does not parse is a finding (NPP192), whatever it
    holds, so no input passes unchecked in silence. compiled: this interpreter's bytecode cache was
    compiled from this very text (source/bytecode.py), so it parses; such a file without markers is
    not checked again. profiling: what might_configure_profiling(text) says, when the caller has
    already asked (the plugin). A file over the work budget is NPP191 and is not even parsed (9.6 MB took
    gigabytes). walks: the kept walks of the tree's top-level statements (source/site_reuse.py; the language
    server's, whose tree reuses the statements an edit did not touch). lines: the text's lines, which joined are
    the text (flake8's: its line table is made from them, SourceText)."""
    words = None
    if profiling is None:
        profiling = might_configure_profiling(text)
    if tree is None:
        words = words_over_budget(text)
        if words:
            return [[over_budget(words)] for _ in each]
        parsed: Union[ast.AST, Finding, None] = None
        if profiling:
            parsed = parse(text, filename)
        elif not compiled:
            parsed = syntax_check(text, filename)
        if isinstance(parsed, Finding):
            return [[parsed] for _ in each]
        tree = parsed
    if not profiling:
        # a `# noqa: NPP101` left in a file that no longer profiles
        return [unused(text, [], s.target) for s in each]
    words = words_over_budget(text) if words is None else words
    if words:
        return [[over_budget(words)] for _ in each]
    assert tree is not None                 # (a file that may profile is parsed above)
    deep = prefilter.too_many_conditions(tree, text)
    if deep is not None:
        return [[too_many_conditions(deep, text)] for _ in each]
    # The analysis builds many small containers that all live until the file is done; the cyclic
    # collector, run in between, walks them (and flake8's tree) again and again. Paused, it runs
    # once after the file, on one file's worth (over the zoo scripts: 157 passes instead of 350).
    collecting = gc.isenabled()
    gc.disable()
    try:
        if walks is None and lines is None:         # (the call the cache's tests count, with its four arguments)
            return _analyse(text, tree, filename, each)
        return _analyse(text, tree, filename, each, walks, lines)
    finally:
        if collecting:
            gc.enable()


def _analyse(text: str, tree: ast.AST, filename: str, each: Sequence[Settings], walks=None,
             lines: Optional[List[str]] = None) -> List[List[Finding]]:
    try:
        base = Context(SourceText(text, lines), tree, filename, each[0], walks)
    except Exception as exc:               # never crash flake8 (RecursionError included): report
        return [[internal_error(exc)] for _ in each]
    out: List[List[Finding]] = []
    try:
        for settings in each:
            try:
                ctx = base.judged_for(settings) if out else base
                checks.run_all(ctx)
                report_exhausted(ctx)
                mark_unreached(ctx)
                ctx.findings.extend(unused(text, ctx.findings, settings.target))
                out.append(sorted(ctx.findings, key=Finding.sort_key))
            except Exception as exc:
                out.append([internal_error(exc)])
    finally:
        release(base)
    return out


def release(ctx: Context) -> None:
    """Break the cycles the analysis made (the model holds its context, the sites a memo of views that hold
    the sites and node views that hold them too, each scope's bindings their scope, each entry's settings
    their entry), so that what it built goes when the file is done, not at the cyclic collector's next
    pass, which would walk all of it and the tree its scopes hold."""
    ctx._model = ctx._flow = None
    ctx.sites.memo.clear()
    ctx.sites.close()
    for scope in ctx.sites.scopes if not ctx.sites.kept else ():     # kept: the next analysis reuses them
        scope.bindings = {}
    for entry in ctx.sites.entries:
        entry.params = []
        entry._owner = None             # Entry.used_elsewhere's way back to the sites: a cycle otherwise


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import GOOD_OPTIONS, REF_ENV_OPTIONS, _HEAD, _NPU_ENTRY, _SET_OPTIONS, _TAIL, Rule, _opts  # noqa: E402


RULES = (
    Rule(
        code="NPP000",
        name="analysis-internal-error",
        summary="internal error while analysing this file (reported instead of crashing flake8)",
        default=True,
        level="error",
        what="The checker itself failed on this file (an unexpected construct, or code nested too deeply). "
             "It reports the exception in one finding on line 1 instead of letting flake8 stop.",
        why="Nothing is wrong on the Ascend side as far as the checker knows, but none of the other NPP checks "
            "ran for this file, so its profiling setup is unchecked and a broken options string would still "
            "make GE initialisation fail at run time.",
        example=_opts(GOOD_OPTIONS),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: report the file (or a reduced copy) so the checker can be corrected. Any correct "
                 "script can hit it; the example shows an ordinary script only because the error depends on "
                 "the checker, not on the code.",
        group="wiring",
    ),
    Rule(
        code="NPP192",
        name="syntax-error",
        summary="the file does not parse, so nothing in it was checked (the parser's message and position)",
        default=True,
        level="error",
        what="A Python file that Python's own parser (the one npuprof runs on) refuses: a syntax error, an "
             "indentation error, a null byte, or code nested too deeply. The finding sits where the parser "
             "stopped and quotes its message. Also a file Python cannot decode (PEP 263): bytes that are not "
             "UTF-8 with no coding line (a GBK comment saved without `# -*- coding: gbk -*-`), bytes the "
             "declared encoding refuses, a coding line naming an encoding Python does not know, or a UTF-8 "
             "byte-order mark before a coding line of another encoding; the finding sits on the first byte "
             "that does not decode (or on the coding line's encoding name). It is reported for every Python file `npuprof check`, `fix` "
             "and the language server are given, whether or not it mentions profiling, and is not "
             "suppressed by a selection or a `# noqa` comment: no file passes unchecked in silence. Also a YAML file "
             "that names a MindFormers profiling key (checks/mindformers.py) and that PyYAML's SafeLoader, which "
             "MindFormers reads run configurations with, refuses: at its mark, with its problem.",
        why="None of the NPP checks ran on the file, so a profiling setup in it is unchecked; and the script "
            "would not start at all (Python raises SyntaxError before the first line runs), so the NPU job "
            "fails without collecting anything. flake8 runs no plugin on a file that does not parse and reports "
            "its own E999 instead: select `E999` with `--select NPP` (the plugin does so itself when NPP codes are "
            "selected explicitly). A file Python cannot decode flake8 (6 and 7) reads as Latin-1 and reports "
            "nothing about: the plugin reads it again and reports NPP192.",
        example=_HEAD + "print \"profiling on\"\n" + _SET_OPTIONS + _TAIL,
        fixed=_HEAD + "print(\"profiling on\")\n" + _SET_OPTIONS + _TAIL,
        fix_safety="none",
        fix_note="No fix: correct the syntax (here, Python 2's print statement); the file is checked on the "
                 "next run.",
        group="wiring",
        facts=("python.syntax_error",),
    ),
    Rule(
        code="NPP191",
        name="analysis-budget-exhausted",
        summary="analysis budget exhausted: a setup was not fully checked (a finding may be missing there)",
        default=True,
        level="warning",
        what="A profiling setup whose values need more evaluation than the checker allows for one file "
             "(steps that grow with the file's size, a nesting depth, astroid inferences). The evaluation "
             "stopped, so the NPP0xx/NPP1xx checks of that setup may have missed a mistake. The message "
             "names the setup's line. The same code, on line 1, says that a whole file was not analysed: "
             "one over 1,000,000 words and symbols (counted before it is parsed), or an editor's document "
             "over the 10 MiB every input is read within; at a statement, that the file was not analysed "
             "because that statement runs under more than 256 conditions (an `if/elif` chain that long); "
             "and, on a launcher, where its walk stopped "
             "(after 5,000 commands or 200,000 words of them, or a launcher over 256 KiB), the command lines "
             "after it unchecked.",
        why="Every budget is counted in work, so the same file gives the same findings on any machine; but "
            "a budget that runs out must not pass in silence: a real unknown key would otherwise vanish "
            "into the coverage code NPP190, which is off by default. Real training scripts stay far below "
            "the budgets; a file that hits them builds its options in an unusually roundabout way.",
        example=("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "# every line doubles the work of evaluating the next one\n"
                 "p0 = \"/tmp\"\n" + "".join(f"p{k} = p{k - 1} + p{k - 1}\n" for k in range(1, 17)) +
                 "\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                 "    '{\"output\":\"' + p16 + '\",\"task_trace\":\"on\"}')\n" + _TAIL),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: write the value so it can be read (a literal, or `json.dumps({...})` of named "
                 "values), or split the computation.",
        references=(REF_ENV_OPTIONS,),
        group="options",
    ),
)
