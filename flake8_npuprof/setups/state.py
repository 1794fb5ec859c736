"""One model of each profiling setup's effective state, shared by every rule, `check`, the
flake8 plugin and `emulate`.

The inventory (inventory.py) finds each setup's switch and delivery; this module turns them
into one of four states:

- on:          the switch is on and the config reaches GE (or leaves the file's view);
- off:         GE never reads these options, with the reason: an explicit off switch
               ("switch"), an "on" GE reads as off ("miswritten": `PROFILING_MODE=True`),
               a switch never set ("not_switched"), a config never passed
               ("never_passed"), set after the device opened ("late"), or handed to a GE
               initialisation that runs after another one ("overridden");
- conditional: on only under a condition (a flag, a branch, `cfg if flag else None`);
- unknown:     decided at run time (a computed switch, the launcher's environment).

A finding about the options of an "off" setup is latent: it describes what happens once the
setup is switched on (or handed over), never a failure of the current run. Such findings are
reported by default, worded as latent (see `latent`), because the options are parked there to
be switched on; findings that need profiling to be on now (NPP002, NPP116, NPP202) are not.
"""

from __future__ import annotations

import ast
from typing import Dict, NamedTuple, Optional, Tuple

from ..source.said import latent, when
from .reach import all_of, is_main_guard, reach_of

ON, OFF, CONDITIONAL, UNKNOWN = "on", "off", "conditional", "unknown"

# PROFILING_MODE values a person writes to mean "off" (GE: anything but exactly "true" is off).
OFF_WORDS = ("false", "0", "off", "no", "disable", "disabled", "")
NEVER_HANDED = "the config is never handed to GE"   # never_passed, and nothing takes it at all
ON_WORDS = ("true", "1", "yes", "on", "enable", "enabled")


class State(NamedTuple):
    status: str                 # on, off, conditional, unknown
    why: str = ""               # off: switch, miswritten, not_switched, never_passed, late, overridden,
    #                             script_options (a launcher's PROFILING_OPTIONS its script's own options replace),
    #                             no_launch (... that no launch gets: detail says how each goes without it)
    detail: str = ""            # the reason or condition, in words

    @property
    def latent(self) -> bool:
        """GE does not read these options in this run: problems in them are for later."""
        return self.status == OFF

    @property
    def live(self) -> bool:
        """Profiling is certainly on and GE reads the options (as far as the file shows)."""
        return self.status == ON


LIVE = State(ON)


def switch_flag(mode) -> str:
    """The flag a switch is set from (`.b = FLAGS.profiling_mode`), as "--profiling_mode is given",
    or "": such a setup is read only in runs that give the flag."""
    return mode.flag if mode.state == "on" else ""


def python_error_code(route: str, mode, options_state: str) -> Optional[str]:
    """The code of the exception Python raises for a setup before GE starts, on every target, or None
    (emulate/runtime.py says it in the runtime's words): a switch of the wrong type (NPP010), the
    pre-2021 ProfilingConfig arguments (NPP014), a str for the bytes field (NPP005), npu_resource_init
    switched on without options (NPP002)."""
    if mode.state == "error":
        return "NPP014" if mode.value == "legacy" else "NPP010"
    if options_state == "error":
        return "NPP005"
    if route == "npu_resource_init" and mode.state == "on" and options_state in ("absent", "none"):
        return "NPP002"
    return None


def stops_where_written(route: str, mode) -> bool:
    """Whether that exception is raised where the setup is written (the ProfilingConfig(...) call, the
    parameter_map or global-options assignment, the npu_resource_init call), so it stops the script whenever
    that line runs, whether or not GE ever reads the setup. ProfilingConfig stores a non-bool switch as it is:
    NPUEstimator raises when it copies it into the session config (npu_estimator.py), i.e. only where passed."""
    return not (route == "ProfilingConfig" and mode.state == "error" and mode.value != "legacy")


def raised_error(setup) -> Optional[str]:
    """The code of the exception raised where this setup is written, whenever that line runs, or None."""
    code = python_error_code(setup.route, setup.mode, setup.options.state)
    return code if code is not None and stops_where_written(setup.route, setup.mode) else None


def stopping_error(setup) -> Optional[str]:
    """raised_error, when nothing around the line may catch it (a `try` with handlers in the same function
    may: then whether the script stops is its handler's to decide, and no stop is claimed)."""
    return None if getattr(setup, "caught", 0) else raised_error(setup)


def without_implied(conditions) -> Tuple[str, ...]:
    """The conditions without the `not (x == 'b')` an `x == 'a'` among them implies (an elif chain's
    earlier tests): `FLAGS.device == 'npu'` says all that `not (FLAGS.device == 'gpu')` does."""
    def equality(text):
        try:
            node = ast.parse(text, mode="eval").body
        except (SyntaxError, ValueError):
            return None
        negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        node = node.operand if negated else node
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq) and \
                isinstance(node.comparators[0], ast.Constant):
            return negated, ast.dump(node.left), node.comparators[0].value
        return None
    tests = [equality(c) for c in conditions]
    known = {(t[1], t[2]) for t in tests if t and not t[0]}
    return tuple(c for c, t in zip(conditions, tests)
                 if not (t and t[0] and any(left == t[1] and value != t[2] for left, value in known)))


def from_setup(setup) -> State:
    """The state of one inventory ScriptSetup (the picture emulate uses)."""
    mode, delivered = setup.mode, setup.delivered
    if delivered in ("never", "replaced"):
        return State(OFF, "never_passed", getattr(setup, "lost", "") or NEVER_HANDED)
    if delivered == "late":
        return State(OFF, "late", "set after npu.open(), which has already read the options")
    if mode.state == "off":
        why = "not_switched" if mode.unset else "switch"
        if isinstance(mode.value, str) and mode.value.strip().lower() in ON_WORDS and mode.value != "true":
            why = "miswritten"          # meant on (`True`, `1`), off to GE: NPP011 says so
        return State(OFF, why, mode.detail)
    if mode.state in ("unknown", "inherit", "error"):
        return State(UNKNOWN, "", mode.detail)
    condition = getattr(setup, "condition", "")
    if mode.detail or setup.conditions or condition:
        what = mode.detail or condition or ("when " + all_of(setup.conditions))
        flag = switch_flag(mode)
        if flag and setup.conditions:
            # the `if`s around a flag's switch hold too (`if FLAGS.device == 'npu':`): both, as emulate says
            what = "when " + all_of((*without_implied(setup.conditions), flag))
        # "flag": the switch itself is a flag (`.b = FLAGS.profiling`), off unless the flag is given
        return State(CONDITIONAL, "flag" if flag else "", what)
    return LIVE


class Model:
    """The states of every setup of one file, looked up by any node that belongs to a setup."""

    def __init__(self, setups, late=None):
        self.setups = list(setups)
        self.late = dict(late or {})          # id(TF2 global-options target) -> npu.open() that ran before
        self.states = [from_setup(s) for s in self.setups]
        self._by_node: Dict[int, int] = {}
        for k, s in enumerate(self.setups):
            for ident in getattr(s, "nodes", ()):
                self._by_node.setdefault(ident, k)
            if s.anchor is not None:
                self._by_node.setdefault(id(s.anchor), k)

    def setup_of(self, node):
        k = self._by_node.get(id(node))
        return None if k is None else self.setups[k]

    def state_of(self, node) -> Optional[State]:
        k = self._by_node.get(id(node))
        return None if k is None else self.states[k]


def certain(call, sites) -> bool:
    """Whether a GE initialisation runs whenever the script runs (only such a one overrides later configs:
    `if FLAGS.horovod: init_resource()` leaves the Estimator's profiling config read when the flag is off;
    so does `if FLAGS.warmup: warm_up()` around the function that holds it)."""
    return all(is_main_guard(g) for g in sites.guards_of.at(call, ())) and not reach_of(sites).path(call).texts


def first_init(inits, order):
    """The GE initialisation that runs first (GE takes its init options only once), or None."""
    # (certain first: it needs no rank, and often rules every candidate out; a lone one is not ranked)
    ranked = [i for i in inits if order is not None and certain(i.call, order.sites) and order.ranked(i.call)]
    if len(ranked) <= 1:
        return ranked[0] if ranked else None
    calls = [i.call for i in ranked]
    if len({id(c) for c in calls}) == len(calls):       # (no two nodes share a rank)
        first = order.first(calls)
        return next(i for i in ranked if i.call is first)
    return min(ranked, key=lambda i: order.of(i.call))


def adapter_of(route: str) -> str:
    """Which adapter a route goes through: TF2's npu_device or TF1's npu_bridge. A file that mixes
    them (a compat.v1 Session beside npu.open()) runs one of them only, so neither overrides the other."""
    return "npu_device" if route == "npu_device" else "npu_bridge"


def init_adapter(init) -> str:
    return adapter_of(init.setup.route) if init.setup is not None else \
        ("npu_device" if init.what.startswith("npu.open()") else "npu_bridge")


def overridden_by(setup, first, order) -> bool:
    """A config setup handed to a GE initialisation that runs after another one of the same adapter: never read."""
    return setup.route != "env" and setup.delivered == "yes" and first is not None and \
        setup.delivery is not first.call and order is not None and order.ranked(setup.delivery) and \
        adapter_of(setup.route) == init_adapter(first)


# ---------------------------------------------------------------- consequences

def condition(state: Optional[State]):
    """The condition a finding about a setup holds under (source/said.py), or None: for a setup GE does not
    read (switched off, never passed, ...) what happens once it is read; for one a flag switches, the runs
    that give the flag."""
    if state is None:
        return None
    if not state.latent:
        if state.status != CONDITIONAL or state.why != "flag":
            return None
        return when(state.detail)
    reason = {
        "switch": "profiling is switched off here",
        "miswritten": 'profiling stays off until PROFILING_MODE is exactly "true"',
        "not_switched": "profiling is not switched on for these options",
        "never_passed": "this config never reaches GE",
        "late": "these settings come after npu.open()",
        "overridden": "GE is initialised earlier with another config and reads its options only once",
        "script_options": f"{state.detail or 'the script'} switches profiling on with its own options, which "
                          "replace PROFILING_OPTIONS",
        "no_launch": state.detail,      # a launcher's PROFILING_OPTIONS its launches take away: how
    }.get(state.why, "GE does not read these options")
    return latent(reason)


def for_state(words, state: Optional[State]):
    """The words of a finding (a Said) under the condition of its setup's state."""
    c = condition(state)
    return words.given(c) if c is not None else words


