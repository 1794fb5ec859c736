"""A flag a script's parser defines (absl's DEFINE_*, argparse's add_argument, or a key of the YAML
mindspore-ai/models' config module turns into one): what the launch's words are bound to. In a module of its own so
that values/yaml_config, which values/resolve reaches through passed_args, makes them without an import circle."""

from __future__ import annotations

import ast
from typing import NamedTuple, Optional

from ..source.sites import Scope


class FlagDef(NamedTuple):
    dest: str
    option: str             # as the user types it: --profiling_dump_path
    kind: str               # "absl" or "argparse"
    py_type: Optional[type]
    default: Optional[ast.AST]
    has_default: bool
    call: ast.Call
    scope: Scope
    action: str = ""
    type_node: Optional[ast.AST] = None
