"""NPP200: options JSON assembled by hand around computed values, and its fix to json.dumps({...})."""

from __future__ import annotations

import ast
import json
import re
import string
from typing import List, Optional, Tuple

from ..source.code_edits import insert_after, insert_before, source_of
from ..source.jsonscan import Unknown, parse
from ..source.model import Edit, Fix
from ..source.said import said
from ..source.text import HOLE
from ..values.reader import Strings, unwrap


def hand_built(ctx, node: ast.AST, scope, pos: int, depth: int = 0) -> Optional[ast.AST]:
    """The expression that assembles options JSON by hand around a computed value, if any."""
    inner, _ = unwrap(node)
    if depth > 6:
        return None
    if isinstance(inner, ast.Name):
        for b in ctx.sites.bindings_at(inner.id, scope, pos):
            if b.value is not None:
                found = hand_built(ctx, b.value, b.scope, b.pos, depth + 1)
                if found is not None:
                    return found
        return None
    if _assembles(inner) and _interpolates(inner):
        return inner
    return None


def _assembles(node) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return True
    return isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values)


def _interpolates(node) -> bool:
    """Whether a value that is not a literal is spliced into the text (iteratively: a `+` or `%` chain is as
    long as the file makes it)."""
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Constant):
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            todo += (node.left, node.right)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            if any(not isinstance(r, ast.Constant) for r in right):
                return True
            todo.append(node.left)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            if any(not isinstance(a, ast.Constant) for a in list(node.args) + [k.value for k in node.keywords]):
                return True
        elif isinstance(node, ast.JoinedStr):
            if any(isinstance(v, ast.FormattedValue) and not isinstance(v.value, ast.Constant) for v in node.values):
                return True
        else:
            return True
    return False


def add_operands(node: ast.expr) -> List[ast.expr]:
    """The operands of `a + b + c + ...`, left to right, none of them a `+` (iteratively)."""
    out: List[ast.expr] = []
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            todo += (node.right, node.left)
        else:
            out.append(node)
    return out


def check_hand_built(ctx, node: ast.AST, scope, pos: int, strings: Strings) -> None:
    """NPP200: JSON text assembled around computed values instead of json.dumps."""
    if strings.candidates and not any(c.text.lstrip().startswith("{") for c in strings.candidates):
        return
    built = hand_built(ctx, node, scope, pos)
    if built is None:
        return
    how = {ast.BinOp: "by concatenation or %", ast.Call: "with .format", ast.JoinedStr: "with an f-string"}
    ctx.report_node("NPP200", built,
                    said(f"profiling_options JSON is assembled {how.get(type(built), 'by hand')} around a computed "
                         "value", "GE initialisation aborts when that value holds a quote or backslash",
                         "such a value (a Windows-style or odd path) breaks the JSON",
                         "build it with json.dumps({...})"),
                    _dumps_fix(ctx, built))


# ---------------------------------------------------------------- NPP200 fix: json.dumps({...})

def _template(ctx, node) -> Optional[Tuple[str, List[ast.expr]]]:
    """The JSON text with one HOLE per spliced-in expression, and those expressions in order."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        texts, exprs = [], []
        for operand in add_operands(node):          # each one a literal, a `%`/format/f-string or an expression
            found = _operand(ctx, operand)
            if found is None:
                return None
            texts.append(found[0])
            exprs += found[1]
        return "".join(texts), exprs
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        args = list(node.right.elts) if isinstance(node.right, ast.Tuple) else [node.right]
        pieces = re.split(r"(%%|%s)", node.left.value)
        if "%" in "".join(p for p in pieces if p not in ("%%", "%s")):
            return None
        text, exprs = "", []
        for piece in pieces:
            if piece == "%s":
                if not args:
                    return None
                arg = args.pop(0)
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    text += arg.value
                else:
                    text += HOLE
                    exprs.append(arg)
            else:
                text += "%" if piece == "%%" else piece
        return (text, exprs) if not args else None
    if isinstance(node, ast.JoinedStr):
        text, exprs = "", []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                text += v.value
            elif isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None:
                text += HOLE
                exprs.append(v.value)
            else:
                return None
        return text, exprs
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" and \
            isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) and not node.keywords:
        fmt, args, auto = node.func.value.value, list(node.args), 0
        text, exprs = "", []
        for literal, field, spec, conv in string.Formatter().parse(fmt):
            text += literal
            if field is None:
                continue
            if spec or conv:
                return None
            index = auto if field == "" else (int(field) if field.isdigit() else None)
            auto += field == ""
            if index is None or index >= len(args):
                return None
            text += HOLE
            exprs.append(args[index])
        return text, exprs
    return None


def _operand(ctx, node):
    """A piece of a + chain: literal text, a nested template, or one spliced-in expression."""
    found = _template(ctx, node)
    if found is not None:
        return found
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return HOLE, [node]
    return None


# json.dumps(s, ensure_ascii=False) of a str s (what its encoder does with one), without the encoder dumps builds at
# each call given a non-default argument: a fix quotes every key and text of the options it rebuilds
_json_str = json.encoder.encode_basestring


def _py_value(value) -> str:
    if isinstance(value, str):
        return _json_str(value)
    return repr(value)


def _dumps_fix(ctx, built: ast.AST):
    try:
        found = _template(ctx, built)
    except (ValueError, RecursionError):
        return None
    if found is None:
        return None
    text, exprs = found
    doc = parse(text)
    if not doc.ok or text.count(HOLE) != len(exprs):
        return None
    exprs = list(exprs)
    items = []
    for m in _last_members(doc):
        if m.unknown and not isinstance(m.value, Unknown):
            return None                 # a computed value inside a list or object: not rebuilt here
        if isinstance(m.value, Unknown):
            parts = m.value.text.split(HOLE)
            terms = []
            for k, literal in enumerate(parts):
                if literal:
                    terms.append(_json_str(literal))
                if k < len(parts) - 1:
                    expr = exprs.pop(0)
                    code = source_of(ctx.src, expr)
                    known_str = ctx.values.strings(expr, ctx.sites.scope_of.at(expr) or ctx.sites.module,
                                                   ctx.pos(expr)).py_type == "str"
                    terms.append(code if known_str and len(parts) == 2 and not parts[0] and not parts[1]
                                 else f"str({code})")
            value = " + ".join(terms) if terms else '""'
        else:
            value = _py_value(m.value)
        items.append(f"{_json_str(m.key)}: {value}")
    if exprs:
        return None
    edits = [Edit(ctx.src.node_start(built), ctx.src.node_end(built), "json.dumps({" + ", ".join(items) + "})")]
    if ctx.sites.imports.get("json") != "json":
        if "json" in ctx.sites.module.bindings:
            return None
        edit = _import_json(ctx)
        if edit is None:
            return None
        edits.append(edit)
    return Fix(tuple(edits), False, "build it with json.dumps({...})")


def _last_members(doc):
    """Members as the runtime reads them: the last of duplicate keys, in first-seen order."""
    last = {m.key: m for m in doc.members}
    seen, out = set(), []
    for m in doc.members:
        if m.key not in seen:
            seen.add(m.key)
            out.append(last[m.key])
    return out


def _import_json(ctx):
    if not hasattr(ctx, "_import_json_edit"):
        ctx._import_json_edit = _import_json_edit(ctx)
    return ctx._import_json_edit


def _import_json_edit(ctx):
    body = ctx.tree.body
    imports = [s for s in body if isinstance(s, (ast.Import, ast.ImportFrom))]
    if imports:
        return insert_after(ctx.src, imports[-1], "import json")
    first = body[0] if body else None
    if first is None:
        return None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return insert_after(ctx.src, first, "import json")
    return insert_before(ctx.src, first, "import json")


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import REF_ENV_OPTIONS, REF_MODELZOO, _NPU_ENTRY, _TAIL, Rule  # noqa: E402


RULES = (
    Rule(
        code="NPP200",
        name="hand-built-options-json",
        summary="options JSON built by hand (concatenation, `%`, `.format`, f-string with interpolated "
                "values): a quote or backslash in a path breaks it — use `json.dumps({...})`",
        default=False,
        level="warning", enabled_by="NPP2",
        what="A profiling options string assembled from pieces of JSON text and Python values, such as "
             "`'{\"output\":\"' + args.output + '\", ...}'` or the same with `%s`, `.format` or an f-string.",
        why="The interpolated value is pasted in without JSON escaping. A path containing a quote or a "
            "backslash, or a number where a string belongs, produces invalid options; GE initialisation then "
            "fails and the job aborts, on whichever machine happens to have such a path.",
        example=("import argparse\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "parser = argparse.ArgumentParser()\n"
                 "parser.add_argument(\"--profiling_dir\", default=\"./prof\")\n"
                 "args = parser.parse_args()\n\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                 "    '{\"output\":\"' + args.profiling_dir + '\",\"training_trace\":\"on\",\"task_trace\":\"on\",'\n"
                 "    '\"fp_point\":\"\",\"bp_point\":\"\"}')\n" + _TAIL),
        fixed=("import argparse\nimport json\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
               "parser = argparse.ArgumentParser()\n"
               "parser.add_argument(\"--profiling_dir\", default=\"./prof\")\n"
               "args = parser.parse_args()\n\n" + _NPU_ENTRY +
               "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
               "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(json.dumps({\n"
               "    \"output\": args.profiling_dir,\n    \"training_trace\": \"on\",\n    \"task_trace\": \"on\",\n"
               "    \"fp_point\": \"\",\n    \"bp_point\": \"\",\n}))\n" + _TAIL),
        fix_safety="unsafe",
        fix_note="Rewrites the construction as `json.dumps({...})` with the same keys and values (and adds "
                 "`import json`). Unsafe: values that were pasted in unquoted (numbers, booleans) keep their "
                 "Python type, which may differ from the text that was produced before.",
        references=(REF_MODELZOO, REF_ENV_OPTIONS),
        group="hygiene",
        facts=("collection.emulation.messages.NPP100", "collection.emulation.ge_checks",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
)
