"""A YAML run configuration as MindFormers reads it (`run_mindformer.py --config x.yaml`): `yaml.safe_load` of the
file, then its `base_config` files (one name or a list, relative to the file's folder), merged under it key by key,
as `MindFormerConfig._file2dict` does (data/sources.json mindformers.config.load). Each top-level key keeps the file
and line it was read from, so an answer can name where a setting came from. Nothing here is MindFormers-specific
beyond that merge: what the keys mean is emulate/mindformers_run.py's.
"""

from __future__ import annotations

import os
from typing import Dict, List, NamedTuple, Optional, Tuple

from .files import ReadError, read_source

BASE = "base_config"
MAX_BASES = 16          # base files followed for one config (a cycle or a long chain stops there, said so)


class RunConfig(NamedTuple):
    values: dict                            # the merged configuration (top-level keys; nested dicts as read)
    where: Dict[str, Tuple[str, int]]       # top-level key -> (file, 1-based line) of the file that set it
    files: Tuple[str, ...]                  # every file read, the named one first


class Unread(Exception):
    """The configuration cannot be read: the reason, said as a user reads it."""


def load(path: str) -> RunConfig:
    """The configuration at path, its base_config files merged in; Unread with the reason where a file is missing,
    does not parse or is not a mapping."""
    files: List[str] = []
    values, where = _load(path, files)
    return RunConfig(values, where, tuple(files))


def _load(path: str, files: List[str]) -> Tuple[dict, Dict[str, Tuple[str, int]]]:
    import yaml
    if len(files) >= MAX_BASES:
        raise Unread(f"more than {MAX_BASES} base_config files")
    if path in files:
        raise Unread(f"{path} names itself as a base_config, through {files[-1]}")
    files.append(path)
    try:
        text = read_source(path).text
    except ReadError as e:
        raise Unread(f"{path} cannot be read ({e})") from None
    loader = yaml.SafeLoader(text)
    try:                                # one parse: the node for the keys' lines, the values built from it
        node = loader.get_single_node()
        values = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as e:
        raise Unread(f"{path} does not parse as YAML ({' '.join(str(e).split())})") from None
    finally:
        loader.dispose()
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
