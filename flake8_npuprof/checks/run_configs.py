"""A YAML run configuration, whoever's it is: MindFormers' (checks/mindformers.py) or a MindSpeed-RL trainer's
(checks/mindspeed_rl.py). Each reads only the files it knows by their keys, so at most one of them speaks."""

from __future__ import annotations

from typing import List

from ..source.model import Finding

RULES: tuple = ()


def check_file(text: str, path: str, settings=None) -> List[Finding]:
    from . import mindformers, mindspeed_rl
    return sorted(mindformers.check_file(text, path, settings) + mindspeed_rl.check_file(text, path, settings),
                  key=Finding.sort_key)
