"""The environment a replayed script runs with (torch_run.py, mindspore_run.py): each variable's value and where it
was set, which the replay's messages name ("PROFILING_MODE is set by the launcher (export at run.sh:3)")."""

from __future__ import annotations

from typing import Dict, Iterator, Mapping, Optional

GIVEN = "in this environment (--env)"       # where a variable of the caller's environment was set


class Environment(Mapping[str, str]):
    """name -> value, as a process sees its environment; origin(name) says where the value was set."""

    def __init__(self, values: Mapping[str, str], origins: Optional[Mapping[str, str]] = None) -> None:
        self._values: Dict[str, str] = dict(values)
        self._origins: Dict[str, str] = dict(origins or {})

    def __getitem__(self, name: str) -> str:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def origin(self, name: str) -> str:
        """Where the variable's value was set: the launcher line that set it, else the caller's environment."""
        return self._origins.get(name, GIVEN)
