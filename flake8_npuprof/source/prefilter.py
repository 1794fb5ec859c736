"""The cheap first stages: does this file configure profiling at all, and is it within the budget?

Stage one is four substring scans of the raw text (a few microseconds for a typical file), and
nothing heavy is imported for a file without the markers. "rofiling" covers profiling_mode,
profiling_options, ProfilingConfig, enable_profiling and profiling_config; "PROFILING" the
environment variables; "custom_optimizers" NpuOptimizer entries that carry no profiling
word of their own; "msprof" command lines run from Python. "rofil" is scanned for instead of
"rofiling": one scan covers torch_npu's profiler too ("profile", "profiler"), so a file without
any marker costs the same four scans as before the torch_npu checks. "PROFIL" covers the TF
environment variables and MindSpore's MS_PROFILER_OPTIONS in one scan.

Stage two, for a file that passes, requires one of the names every profiling setup is found
from as a whole word outside a comment: the keys and attributes the routes match on
(`parameter_map` and its profiling keys, `custom_optimizers`, `ProfilingConfig`, the TF2 and
resource-init arguments, the environment variables' names). A file that only mentions
profiling in comments, or inside longer names (pygments' `ProfilingRegexLexer`, a
`do_profiling` flag), has no setup for the analysis to find, and is not parsed for one.
"msprof" counts wherever it stands: a command line is a string, and cheap to look at.
A torch_npu file (one naming torch_npu, `npu.prof` or `use_npu`) passes with one of the names its
profiler is called by (`profiler`, `profile`, `_ExperimentalConfig`, the legacy `profileConfig`,
`prof_init`, `use_npu`) as a whole word outside a comment; a MindSpore file (one naming mindspore)
with `Profiler`, `profiler`, `profile` or `_ExperimentalConfig`, and any file with `MS_PROFILER_OPTIONS`.

The budget bounds what one file may cost before it is parsed: parsing alone builds a few
hundred bytes of tree per word or symbol (9.6 MB of `a = 1` lines took 4.7 GB), and every
later pass is linear in the tree. A file over it is not analysed, and says so (NPP191).

A second bound, on the parsed tree: a statement runs under the conditions of the `if`, `while` and
`except` it is nested in, and every later pass keeps each statement's conditions, so an `if/elif`
chain of n branches (n nested `if`s in the tree) costs n^2. A statement under more than
MAX_CONDITIONS of them stops the analysis there, which says so (NPP191).
"""

import ast
import re
import weakref
from typing import List, Optional, Tuple, Union

MAX_WORDS = 1_000_000       # words and symbols per file: 2x a file of 5,000 setups, ~4 MB of ordinary code
_WORD = re.compile(r"\w+|[^\w\s]")
_BREAK = re.compile(r"[\r\n]")
# The names a setup is found from (setups/routes.py, setups/parameter_map.py, source/sites.py), as whole
# words: a profiling key of parameter_map, or any parameter_map subscript (an entry's other NPU keys are
# checked too), the entry list, the adapter's class and arguments, the environment variables.
_SETUP_NAMES = ("profiling_mode", "profiling_options", "enable_profiling", "profiling_config", "ProfilingConfig",
                "PROFILING_MODE", "PROFILING_OPTIONS", "custom_optimizers", "parameter_map")
# torch_npu's profiler (checks/torch_npu.py), asked for only in a file that names torch_npu
_TORCH_NPU_NAMES = ("profiler", "profile", "_ExperimentalConfig", "profileConfig", "prof_init", "use_npu")
# MindSpore's profiler (checks/mindspore.py), asked for only in a file that names mindspore
_MINDSPORE_NAMES = ("Profiler", "profiler", "profile", "_ExperimentalConfig")
_IDENTIFIER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def might_configure_profiling(text: str) -> bool:
    rofil = "rofil" in text
    # "PROF" covers PROFILING_*, MS_PROFILER_OPTIONS and PROF_CONFIG_PATH (torch_npu's dynamic profiling)
    if not (rofil or "PROF" in text or "custom_optimizers" in text or "msprof" in text):
        return False
    # the TF names are looked for only where a TF marker is: "rofil" alone (cProfile, line_profiler) is not one
    if ((rofil and "rofiling" in text) or "PROFILING" in text or "custom_optimizers" in text or "msprof" in text) \
            and names_a_setup(text):
        return True
    if (rofil or "PROF_CONFIG_PATH" in text) and names_torch_npu(text):     # (not looked for before: a pass)
        return True
    if names_mindspore(text):
        return True
    # a file over the work budget is not read further: it still gets its NPP191, as it always did
    return len(text) > MAX_WORDS and words_over_budget(text) > 0


def names_torch_npu(text: str) -> bool:
    """Stage two for torch_npu's profiler: a file that names torch_npu (or the legacy `torch.npu.prof...`)
    and calls its profiler by one of its names, or sets PROF_CONFIG_PATH (torch_npu's dynamic profiling,
    read when it is imported), outside a comment."""
    if "PROF_CONFIG_PATH" in text and "torch_npu" in text and _names_outside_comments(text, ("PROF_CONFIG_PATH",)):
        return True
    if "rofile" not in text or not ("torch_npu" in text or "npu.prof" in text or "use_npu" in text):
        return False
    return _names_outside_comments(text, _TORCH_NPU_NAMES)


def names_mindspore(text: str) -> bool:
    """Stage two for MindSpore's profiler: a file that names mindspore and calls its profiler by one of its
    names, or sets MS_PROFILER_OPTIONS, outside a comment."""
    if "mindspore" in text and "rofil" in text and _names_outside_comments(text, _MINDSPORE_NAMES):
        return True
    return "MS_PROFILER_OPTIONS" in text and _names_outside_comments(text, ("MS_PROFILER_OPTIONS",))


def names_vllm(text: str) -> bool:
    """vLLM's profiler, which emulate does not model: `llm.start_profile()` or VLLM_TORCH_PROFILER_DIR in a file
    that names vllm, outside a comment."""
    return "vllm" in text and _names_outside_comments(text, ("start_profile", "VLLM_TORCH_PROFILER_DIR"))


def names_a_setup(text: str) -> bool:
    """Stage two: a name a setup is found from, outside a comment (or "msprof" anywhere)."""
    if "msprof" in text:
        return True
    return _names_outside_comments(text, _SETUP_NAMES)


def code_only(text: str, strings: bool = False) -> str:
    """The text with its comments and its bare string statements (a docstring, code parked in a triple-quoted
    string) blanked, line breaks kept: what a run can execute, for emulate to tell a script that names a profiler
    from one that only mentions it. strings: every string literal blanked too (a list of option names). The text
    as it is where Python cannot tokenize it."""
    import io
    import tokenize
    lines = io.StringIO(text).readlines()           # the lines tokenize reads, to turn its (row, col) into offsets
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spans: List[Tuple[int, int]] = []
    pending: Optional[List[Tuple[int, int]]] = []   # the strings of a statement that so far is only strings
    literal = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}     # 3.12+: an f-string's text
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            span = (starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1])
            if tok.type == tokenize.COMMENT:
                spans.append(span)
            elif tok.type == tokenize.NEWLINE:
                spans.extend(pending or ())
                pending = []
            elif strings and tok.type in literal:
                spans.append(span)
            elif tok.type == tokenize.STRING and pending is not None:
                pending.append(span)
            elif tok.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                pending = None
    except (tokenize.TokenError, SyntaxError, IndexError):
        return text
    out = list(text)
    for a, b in spans:
        for k in range(a, b):
            if out[k] not in "\r\n":
                out[k] = " "
    return "".join(out)


def _names_outside_comments(text: str, names) -> bool:
    """Whether one of the names stands as a whole word outside a comment. Each name is looked for with
    str.find, about ten times faster here than one regular expression of them all, and each line is
    looked at once per name however many times it holds the name (linear in the text)."""
    end = len(text)
    for name in names:
        done = 0                        # every line break before this offset has been passed
        at = text.find(name)
        while at >= 0:
            after = at + len(name)
            if (at > 0 and text[at - 1] in _IDENTIFIER) or (after < end and text[after] in _IDENTIFIER):
                at = text.find(name, at + 1)        # inside a longer name
                continue
            start = max(text.rfind("\n", done, at), text.rfind("\r", done, at)) + 1 or done
            if not _in_comment(text[start:at]):
                return True
            done = _line_end(text, at)              # the rest of the line is the same comment
            at = text.find(name, done)
    return False


def _line_end(text: str, at: int) -> int:
    """Where the line holding offset at ends (LF, CR or the text's end), looking no further than that."""
    found = _BREAK.search(text, at)
    return found.start() if found else len(text)


def _in_comment(head: str) -> bool:
    """Whether a name after head (its line up to it) is in a comment: a `#` with no quote before it starts
    one. A quote before it may open a string that holds the `#`: not a comment, to be safe."""
    sharp = head.find("#")
    return sharp >= 0 and "'" not in head[:sharp] and '"' not in head[:sharp]


_SPACE = re.compile(r"\s")
_COUNTED = 1 << 16          # characters counted at a time


def words_over_budget(text: str) -> int:
    """How many words and symbols the text has when that is over MAX_WORDS (0: within the budget).
    Counted by regular-expression passes, without building the list; never more than one per
    character, so a text of at most MAX_WORDS characters is not counted at all. A pass over the whole
    text built what it removed (5.8 MB for glove_MIT.py's 2.28 MB): it goes a piece at a time, each cut
    before a space (no word or symbol holds one, so the count is the same)."""
    n = len(text)
    if n <= MAX_WORDS:
        return 0
    count = start = 0
    while start < n:
        cut = _SPACE.search(text, start + _COUNTED) if start + _COUNTED < n else None
        end = cut.start() if cut is not None else n
        count += _WORD.subn("", text[start:end])[1]
        start = end
    return count if count > MAX_WORDS else 0


_Stmt = Union[ast.stmt, ast.excepthandler]      # a statement, or an except clause (its body's conditions)
MAX_CONDITIONS = 256        # an `if/elif` chain of 256 branches; real scripts nest a few, dispatch tables a few dozen
_CONDITION_WORDS = ("if", "while", "except", "case")       # ("elif" holds "if")


# Top-level statements found within the bound. The language server's parse of an edited document hands the
# statements an edit did not touch back as the same objects (lsp_reparse), and they are not counted again:
# 10 ms of each edit of a 6,000-line script. Weak: a statement goes with its tree.
_within: "weakref.WeakKeyDictionary[ast.stmt, bool]" = weakref.WeakKeyDictionary()


def too_many_conditions(tree: ast.AST, text: Optional[str] = None) -> Optional[_Stmt]:
    """The first statement (in source order) nested under more than MAX_CONDITIONS conditions, or None.
    Statements only, iteratively: one step per statement, whatever the nesting. A top-level statement counted
    before (the server's next analysis of an edited text) is not counted again. text: the tree's source, when
    known: each condition is an `if`, `elif`, `while`, `except` or `case` written out (a keyword is ASCII, and
    never split), so a text that spells those words at most MAX_CONDITIONS times has no statement under more. Each
    of those statements' headers ends at a colon of its own, so a text with at most MAX_CONDITIONS colons has none
    either: one count of one character, where the words took four passes (every setup file of the model zoo's
    sample: about 5 M instructions on 40 files). Cheaper still, and asked first: each of those headers is on a line
    of its own (no compound statement follows a colon on its line), so a text whose statements end by line
    MAX_CONDITIONS has none either, and its colons are not counted (about 5 instructions a character)."""
    if text is not None and (_ends_by(tree, MAX_CONDITIONS) or text.count(":") <= MAX_CONDITIONS or
                             sum(text.count(word) for word in _CONDITION_WORDS) <= MAX_CONDITIONS):
        return None
    for stmt in getattr(tree, "body", []):
        if stmt in _within:
            continue
        deep = _too_deep(stmt)
        if deep is not None:
            return deep
        _within[stmt] = True
    return None


def _ends_by(tree: ast.AST, line: int) -> bool:
    """Whether the statements of a tree parsed from a text end by that line: its last one does (they are in
    source order)."""
    body = getattr(tree, "body", None)
    if not body:
        return True
    end = getattr(body[-1], "end_lineno", None)
    return end is not None and end <= line


def _too_deep(top: ast.stmt) -> Optional[_Stmt]:
    todo: List[Tuple[_Stmt, int]] = [(top, 0)]
    blocks_of, stmt_types = _BLOCKS_OF, (ast.stmt, ast.excepthandler)
    while todo:
        node, depth = todo.pop()
        if depth > MAX_CONDITIONS:
            return node
        kind = type(node)
        blocks = blocks_of.get(kind)
        if blocks is None:
            blocks = blocks_of[kind] = _blocks(kind)
        if not blocks:
            continue                    # a simple statement: most of them
        inner: List[Tuple[_Stmt, int]] = []
        for field, more in blocks:
            if field == "cases":        # match (3.10+): each case's body, guarded
                for case in getattr(node, "cases", None) or ():
                    inner.extend((child, depth + 1) for child in case.body)
                continue
            guarded = depth + more
            for child in getattr(node, field, None) or ():
                if isinstance(child, stmt_types):
                    inner.append((child, guarded))
        todo.extend(reversed(inner))
    return None


_BLOCKS_OF: dict = {}           # statement type -> its blocks (field, conditions it adds), worked out once


def _blocks(kind) -> tuple:
    out = []
    for field in ("body", "orelse", "handlers", "finalbody"):
        if field in kind._fields:
            out.append((field, int(field == "handlers" or (field in ("body", "orelse") and
                                                          issubclass(kind, (ast.If, ast.While))))))
    if "cases" in kind._fields:
        out.append(("cases", 1))
    return tuple(out)


# what any profiling setup of a TF/GE/msprof route names: a project with none of these in any .py file has none.
# The names start a word: torch's `torch._C._jit_set_profiling_mode(False)` (TorchScript's executor) is not one.
# (Compiled where first asked, by the module's __getattr__: 3.6M instructions, which a `check` of launchers paid
# on importing this module for might_configure_profiling alone.)
PROFILING_WORDS: "re.Pattern[str]"
_PROFILING_WORDS = (r"(?<!\w)(?:profiling_mode|profiling_options|ProfilingConfig|enable_profiling|"
                    r"PROFILING_MODE|PROFILING_OPTIONS|npu_resource_init|profiling_config)|msprof|\bProfiler\(|"
                    # the routes emulate does not model: torch_npu / torch and MindSpore profilers
                    r"torch[\w.]*\.profiler|torch\.npu\.profile|autograd\.profiler|npu\.profile\(|"
                    # a module named profiler (`from .profiler import`, `import profiler`), not
                    # `from memory_profiler import` (mmcv's MemoryProfilerHook) nor line_profiler
                    r"(?:from|import)\s+(?:[\w.]*\.)?profiler\b|mindspore\.profiler|E2E_PROF|prof_type|"
                    # vLLM's: `llm.start_profile()`, which vllm-ascend before #5928 runs torch_npu's profiler
                    # for where VLLM_TORCH_PROFILER_DIR is set (worker_v1.py _init_profiler)
                    r"\.start_profile\(|VLLM_TORCH_PROFILER_DIR")

# a module imported by the name a string literal gives (its first argument): importlib.import_module, __import__
# (compiled where first asked: 1.2M instructions)
_IMPORTED_BY_NAME = r"\b(?:import_module|__import__)\s*\(\s*(?:name\s*=\s*)?[rRuU]?(['\"])([\w.]+)\1"


def __getattr__(name: str) -> "re.Pattern[str]":
    if name == "PROFILING_WORDS":
        return _profiling_words()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _profiling_words() -> "re.Pattern[str]":
    global PROFILING_WORDS
    found = globals().get("PROFILING_WORDS")
    if found is None:
        found = PROFILING_WORDS = re.compile(_PROFILING_WORDS)
    return found


def profiler_imports_by_name(code: str) -> List[int]:
    """The offsets of the calls in code that import a profiling module by its name in a string
    (`importlib.import_module("torch_npu.profiler")`, `__import__("torch.profiler")`,
    `import_module(".profiler", ...)`): what PROFILING_WORDS finds in `import NAME`. A string only mentions a
    dotted API elsewhere; here it is imported."""
    if "profiler" not in code:
        return []
    words = _profiling_words()
    return [m.start() for m in re.compile(_IMPORTED_BY_NAME).finditer(code) if words.search(f"import {m.group(2)}")]
