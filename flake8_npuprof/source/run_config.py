"""A YAML run configuration as MindFormers reads it (`run_mindformer.py --config x.yaml`): `yaml.safe_load` of the
file, then its `base_config` files (one name or a list, relative to the file's folder), merged under it key by key,
as `MindFormerConfig._file2dict` does (data/sources.json mindformers.config.load). Each top-level key keeps the file
and line it was read from, so an answer can name where a setting came from. Nothing here is MindFormers-specific
beyond that merge: what the keys mean is emulate/mindformers_run.py's.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from . import fence
from .files import ReadError, read_source

BASE = "base_config"
MAX_BASES = 16          # base files followed for one config (a cycle or a long chain stops there, said so)


class RunConfig(NamedTuple):
    values: dict                            # the merged configuration (top-level keys; nested dicts as read)
    where: Dict[str, Tuple[str, int]]       # top-level key -> (file, 1-based line) of the file that set it
    files: Tuple[str, ...]                  # every file read, the named one first


class Unread(Exception):
    """The configuration cannot be read: the reason, said as a user reads it."""


class Outside(Unread):
    """A file of the configuration (path) is outside the project under emulate --no-outside: not read."""

    def __init__(self, path: str):
        super().__init__(f"{path} is {fence.WHY}")
        self.path = path


def load(path: str, text: Optional[str] = None) -> RunConfig:
    """The configuration at path (its text when given: an editor's document), its base_config files merged in;
    Unread with the reason where a file is missing, does not parse or is not a mapping."""
    files: List[str] = []
    values, where = _load(path, files, text)
    return RunConfig(values, where, tuple(files))


class Document(NamedTuple):
    values: Any                         # what yaml.safe_load returns
    node: Any                           # its node (yaml.MappingNode for a mapping): where each key and value is


class NotYaml(Exception):
    """The text does not parse as YAML: PyYAML's problem, and where (0-based line, column in characters; the
    character offset)."""

    def __init__(self, problem: str, line: int, col: int, index: int, whole: str):
        super().__init__(problem)
        self.problem, self.line, self.col, self.index = problem, line, col, index
        self.whole = whole              # PyYAML's whole message, on one line


def parse(text: str) -> Document:
    """yaml.safe_load of a text, parsed once: the node for the keys' places and the values built from it."""
    import yaml
    loader = None
    try:
        loader = yaml.SafeLoader(text)         # (its reader checks the characters here)
        node = loader.get_single_node()
        values = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        problem = " ".join(str(e.problem or e.context or type(e).__name__).split())
        line, col, index = (mark.line, mark.column, mark.index) if mark else (0, 0, 0)
        raise NotYaml(problem, line, col, index, " ".join(str(e).split())) from None
    except RecursionError:              # collections nested deeper than the interpreter's stack
        raise NotYaml("nested too deeply", 0, 0, 0, "nested too deeply") from None
    except yaml.YAMLError as e:         # a reader error (a character YAML does not allow): its offset
        index = getattr(e, "position", 0)
        line = text.count("\n", 0, index)
        problem = str(e).split("\n")[0]
        raise NotYaml(problem, line, index - (text.rfind("\n", 0, index) + 1), index, " ".join(str(e).split())) \
            from None
    finally:
        if loader is not None:
            loader.dispose()
    return Document(values, node)


def _load(path: str, files: List[str], text: Optional[str] = None) -> Tuple[dict, Dict[str, Tuple[str, int]]]:
    if len(files) >= MAX_BASES:
        raise Unread(f"more than {MAX_BASES} base_config files")
    if path in files:
        raise Unread(f"{path} names itself as a base_config, through {files[-1]}")
    files.append(path)
    if text is None and fence.outside(path):
        raise Outside(path)
    if text is None:
        try:
            text = read_source(path).text
        except ReadError as e:
            raise Unread(f"{path} cannot be read ({e})") from None
    try:
        values, node = parse(text)
    except NotYaml as e:
        raise Unread(f"{path} does not parse as YAML ({e.whole})") from None
    if not isinstance(values, dict):
        raise Unread(f"{path} is not a mapping of keys (MindFormers reads its items)")
    where = {}
    if node is not None and hasattr(node, "value") and isinstance(node.value, list):
        for key, _ in node.value:
            if isinstance(getattr(key, "value", None), str):
                where[key.value] = (path, key.start_mark.line + 1)
    if BASE not in values:
        return values, where
    bases = values.pop(BASE)
    where.pop(BASE, None)
    merged: dict = {}
    merged_where: Dict[str, Tuple[str, int]] = {}
    for name in bases if isinstance(bases, list) else [bases]:
        if not isinstance(name, str):
            raise Unread(f"{path}: base_config {name!r} is not a file name")
        got, got_where = _load(os.path.join(os.path.dirname(path), name), files)
        merged.update(got)                  # later bases win, whole keys (dict.update), as _file2dict
        merged_where.update(got_where)
    merged_where.update(where)
    return merge(values, merged), merged_where


def merge(a: dict, b: dict) -> dict:
    """`a` merged into a copy of `b`: a's values win, dicts merged key by key (MindFormerConfig._merge_a_into_b)."""
    out = dict(b)
    for k, v in a.items():
        out[k] = merge(v, out[k]) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def line_of(config: RunConfig, key: str) -> Optional[Tuple[str, int]]:
    return config.where.get(key)
