"""What the msprof binary of CANN 8.5 and later does with its command line.

The steps follow the code that runs (hicann/oam-tools src/msprof/collector/dvvp/msprofbin, installed
as tools/profiler/bin/msprof): main -> InputParser::MsprofGetOpts. SplitApplicationArgv decides which
words are msprof's; glibc's getopt_long reads them with the version's LONG_OPTIONS (an exact name or
a unique prefix, ambiguity, optional and required arguments); PreCheckPlatform refuses the options on
the chip's black list; ProcessOptions calls each option's check; then come the checks after the
options (--dynamic, --mstx-domain-*, --output from 9.0, ParamsCheck). data/msprof_parser.json holds
what differs per version and per chip; tests/test_oracle.py holds these steps to the record of the
real parser run on each chip.

A step says what msprof does at one of its words (or after reading them all): REJECT (it prints an
error and exits before the application starts), CRASH (the process dies), HELP (it prints its help
and exits), LOG (a warning, the run goes on), IGNORED (the option is taken and has no effect),
MACHINE (the machine decides: a path that must exist, a tool that must be installed), UNKNOWN (not
known statically). msprof stops at its first refusal; the steps go on as if it had passed, so that
each problem is found on its own.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent.parent          # the package folder (data/)

REJECT, CRASH, HELP, LOG, IGNORED, MACHINE, UNKNOWN = "reject", "crash", "help", "log", "ignored", "machine", "unknown"
WHOLE = -1                  # a step about the whole line, not one word

# what the C++ runtime prints when a std::string is built from a null pointer (libstdc++), then aborts
NULL_STRING = ("terminate called after throwing an instance of 'std::logic_error'",
               "what():  basic_string: construction from null is not valid")


@lru_cache(maxsize=None)
def data() -> dict:
    with open(HERE / "data" / "msprof_parser.json", encoding="utf-8") as fh:
        return json.load(fh)


def versions() -> Tuple[str, ...]:
    return tuple(data()["versions"])


def facts(version: str) -> dict:
    return data()["versions"][version]


class Opt(NamedTuple):
    name: str           # as LONG_OPTIONS spells it ("export " has a trailing space)
    has_arg: str        # "no", "optional", "required"
    ident: str          # the ARGS_ enum name without ARGS_
    group: str          # what ProcessOptions calls: help, cmd, switch, freq, host, invalid


@lru_cache(maxsize=None)
def long_options(version: str) -> Tuple[Opt, ...]:
    return tuple(Opt(*o) for o in facts(version)["long_options"])


def option_names(version: str) -> Tuple[str, ...]:
    """The option names a user writes (without the table's stray spaces and the internal --invalid)."""
    return tuple(o.name.strip() for o in long_options(version) if o.ident != "INVALID")


class Step(NamedTuple):
    at: int             # index of the word among msprof's words (argv[1:]); WHOLE for the line
    option: str         # the option it is about, as LONG_OPTIONS names it ("" for none)
    action: str         # REJECT, CRASH, HELP, LOG, IGNORED, MACHINE, UNKNOWN
    # what is wrong: unrecognized, ambiguous, no_argument, requires, short, invalid, chip, unsupported, none,
    # empty, value, l3, metrics, range, number, storage, output, mstx, dynamic, order, application, tool, path,
    # null_string, null_assign, past_end (crashes), ...
    kind: str
    line: str = ""      # what msprof prints (its first line); "" when it prints nothing of its own
    usage: bool = False  # msprof prints its usage after the line


# the features msprof's parser asks the Platform about (data/msprof_parser.json "chips")
FEATURES = frozenset({"PLATFORM_TASK_TRACE_L3", "PLATFORM_TASK_BLOCK", "PLATFORM_TASK_INSTR_PROFILING",
                      "PLATFORM_SYS_DEVICE_DVPP", "PLATFORM_SYS_DEVICE_DVPP_EX", "PLATFORM_SYS_DEVICE_US",
                      "PLATFORM_TASK_SCALE", "PLATFORM_TASK_L2_CACHE_PMU", "PLATFORM_TASK_RCR_PMU",
                      "PLATFORM_TASK_PEU_PMU", "PLATFORM_TASK_MEMORY_ACCESS_PMU"})


class Chip(NamedTuple):
    """What PreCheckPlatform and the Platform answer on one chip (None: not in the version's source)."""
    platform_type: str
    number: int
    black_list: Tuple[str, ...]
    features: frozenset
    metrics: frozenset
    max_monitor: int


def chip(version: str, product: str, hypothetical: Optional[bool] = None) -> Optional[Chip]:
    """The chip as that version's msprof knows it; the 910C is checked as the 910B (inferred).
    hypothetical: for a chip without a platform class in the version's source, one with every feature
    and metric set any chip has (True) or none (False), and no black list (the open source has none
    for it)."""
    product = "910B" if product == "910C" else product
    ptype, number = data()["platform_types"].get(product, ("", -1))
    known = data()["chips"].get(version, {}).get(product)
    black = tuple(facts(version)["black_lists"].get(ptype, ()))
    if known is not None:
        return Chip(ptype, number, black, frozenset(known["features"]), frozenset(known["metrics"]),
                    known["max_monitor"])
    if hypothetical is None:
        return None
    every = [c for table in data()["chips"].values() for c in table.values()]
    return Chip(ptype, number, black, FEATURES if hypothetical else frozenset(),
                frozenset(m for c in every for m in c["metrics"]) if hypothetical else frozenset(),
                max(c["max_monitor"] for c in every) if hypothetical else min(c["max_monitor"] for c in every))


class Machine:
    """What the machine msprof runs on would answer. This one knows nothing (a static check): every
    question is answered None, and the step that asks it is MACHINE. tests/test_oracle.py models the
    machine the record ran on."""

    cwd: Optional[str] = None
    home: Optional[str] = None

    def env(self, name: str) -> Optional[str]:
        """The variable's value, "" when unset, None when not known."""
        return None

    def exists(self, path: str) -> Optional[bool]:
        return None

    def make_dir(self, path: str) -> Optional[str]:
        """CreateDir then IsDir and write access: "" when it works, else the line msprof prints."""
        return None

    def file(self, path: str) -> Optional[str]:
        """What an absolute path names: "missing", "dir", "file" (may not run) or "exec"."""
        return None

    def real(self, path: str) -> str:
        """realpath(3) of a path that exists."""
        return path

    def tool(self, name: str) -> Optional[bool]:
        """Whether `sudo msprof_data_collection.sh get-version NAME` answers NAME (perf, ltrace, iotop)."""
        return None

    def process(self, pid: int) -> Optional[bool]:
        return None


UNKNOWN_MACHINE = Machine()


# ---------------------------------------------------------------- which words are msprof's

def split(words: Sequence[str], version: str) -> Tuple[int, int]:
    """SplitApplicationArgv: (how many words getopt reads, where the application starts). A `--name`
    without "=" takes the next word along as its value (8.5 and 9.0 always, 9.1 unless that word
    starts with "-" or there is none); the count may then pass the last word."""
    style = facts(version)["split"]
    count, i = 0, 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--"):
            return count, i
        if "=" in word:
            count += 1
        elif style == "unless_option" and (i + 1 >= len(words) or words[i + 1].startswith("-")):
            count += 1
        else:
            count += 2
            i += 1
        i += 1
    return count, len(words)


# ---------------------------------------------------------------- glibc getopt_long, optstring ""

class Got(NamedTuple):
    at: int                     # the option's word
    opt: Optional[Opt]          # None: getopt's '?' (an error it printed, or no such option)
    arg: Optional[str]          # optarg (None: no argument)
    kind: str = ""              # for '?': unrecognized, ambiguous, no_argument, requires, short
    line: str = ""              # what getopt printed
    arg_at: int = -1            # the word a required argument was taken from


def getopt(words: Sequence[str], count: int, version: str) -> Tuple[List[Got], bool]:
    """The options glibc's getopt_long returns, in order, and whether it reads past the last word (the
    count SplitApplicationArgv gives is larger than the words: argv[argc] is a null pointer, and
    glibc dereferences it)."""
    table = long_options(version)
    out: List[Got] = []
    i = 0
    while i < count:
        if i >= len(words):
            return out, True
        word = words[i]
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            i += 1                  # a non-option: permuted to the end, never read
            continue
        if not word.startswith("--"):
            out.append(Got(i, None, None, "short", f"msprof: invalid option -- '{word[1]}'"))
            i += 1
            continue
        body = word[2:]
        name, eq, value = body.partition("=")
        found = next((o for o in table if o.name == name), None)
        if found is None:
            prefixed = [o for o in table if o.name.startswith(name)]
            if len(prefixed) > 1:
                out.append(Got(i, None, None, "ambiguous", f"msprof: option '--{body}' is ambiguous; possibilities:"
                               + "".join(f" '--{o.name}'" for o in prefixed)))
                i += 1
                continue
            if not prefixed:
                out.append(Got(i, None, None, "unrecognized", f"msprof: unrecognized option '--{body}'"))
                i += 1
                continue
            found = prefixed[0]
        i += 1
        if eq:
            if found.has_arg == "no":
                out.append(Got(i - 1, None, None, "no_argument",
                               f"msprof: option '--{found.name}' doesn't allow an argument"))
                continue
            out.append(Got(i - 1, found, value))
        elif found.has_arg == "required":
            if i < count:
                out.append(Got(i - 1, found, words[i] if i < len(words) else None, arg_at=i))
                i += 1
            else:
                out.append(Got(i - 1, None, None, "requires", f"msprof: option '--{found.name}' requires an argument"))
        else:
            out.append(Got(i - 1, found, None))
    return out, False


@lru_cache(maxsize=4096)
def parsed(words: Tuple[str, ...], version: str, complete: bool = True) -> Tuple[int, Tuple[Got, ...], bool]:
    """SplitApplicationArgv and getopt_long over msprof's words: (where the application starts, the options
    getopt returns, whether it reads past the last word). The same for every chip of a version, so a command
    line is parsed once per version and judged per chip (_Run); complete: no word stands for several."""
    count, app_start = split(words, version)
    if not complete:
        count = min(count, len(words))
    got, past_end = getopt(words, count, version)
    return app_start, tuple(got), past_end


# ---------------------------------------------------------------- the parse, step by step

def steps(words: Sequence[str], version: str, product: str, machine: Machine = UNKNOWN_MACHINE,
          hole: Optional[str] = None) -> List[Step]:
    """msprof's steps for its words (argv[1:]) on one chip. hole: a character that stands for text not
    known statically; a word that starts with it ends what is known (it may be several words).

    For a chip without a platform class in the version's source, a step that depends on the chip
    counts only when a chip with every feature and a chip with none give it alike."""
    words = list(words)
    known = chip(version, product)
    if known is not None:
        return _Run(words, version, known, machine, hole).steps()
    both = [_Run(words, version, chip(version, product, on), machine, hole).steps() for on in (True, False)]
    if both[0] == both[1]:
        return both[0]
    out: List[Step] = []
    seen = set()
    for step in both[0] + both[1]:      # in the order of the chip with every feature, word by word
        if step.at in seen:
            continue
        seen.add(step.at)
        mine = [s for s in both[0] if s.at == step.at]
        other = [s for s in both[1] if s.at == step.at]
        if mine == other:
            out.extend(mine)
        elif [s._replace(line="") for s in mine] == [s._replace(line="") for s in other]:
            out.extend(s._replace(line="") for s in mine)       # the same step; its wording depends on the chip
        else:
            out.append(Step(step.at, step.option, UNKNOWN, "platform"))
    return out


def limits(version: str, product: str, name: str) -> Optional[Tuple[int, int]]:
    """The range msprof checks an option's number against on the chip (None: not a ranged option)."""
    opt = next((o for o in long_options(version) if o.name == name), None)
    if opt is None or opt.ident not in data()["ranges"]:
        return None
    lo, hi = data()["ranges"][opt.ident]
    plat = chip(version, product)
    if opt.ident == "HARDWARE_MEM_SAMPLING_FREQ" and plat is not None and "PLATFORM_SYS_DEVICE_US" in plat.features:
        hi = data()["hardware_mem_max_on_us_chips"]
    return lo, hi


def accepted(version: str, name: str) -> Tuple[str, ...]:
    """The values a switch or a list option takes (empty when its values are not a fixed list)."""
    opt = next((o for o in long_options(version) if o.name == name), None)
    if opt is None:
        return ()
    f = facts(version)
    levels = tuple(sorted(f["task_time"]["levels"], key=_LEVEL_ORDER.index))
    fixed = {"GE_API": ("off", "l0", "l1"), "TASK_TIME": levels,
             "AIC_MODE": ("task-based", "sample-based"), "AIV_MODE": ("task-based", "sample-based"),
             "SUMMARY_FORMAT": ("json", "csv"), "EXPORT_TYPE": ("text", "db"), "LLC_PROFILING": tuple(f["llc"][""]),
             "HOST_SYS": tuple(f["host_sys"]), "HOST_SYS_USAGE": ("cpu", "mem"),
             "RULE": ("communication", "communication_matrix")}
    if opt.ident in fixed:
        return fixed[opt.ident]
    if opt.group == "switch" and opt.ident not in ("MSTX_DOMAIN_INCLUDE", "MSTX_DOMAIN_EXCLUDE") or \
            opt.ident == "DYNAMIC_PROF":
        return ("on", "off")
    return ()


_LEVEL_ORDER = ["on", "off", "l0", "l1", "l2", "l3"]


def verdict(all_steps: Sequence[Step]) -> str:
    """What msprof does with the whole line: the first step that ends the run decides ('rejected',
    'crash', 'help', 'usage' for no arguments at all, 'unknown' when the machine or an unknown text
    decides first), else 'accepted'."""
    for s in all_steps:
        if s.action == REJECT:
            return "usage" if s.kind == "no_arguments" else "rejected"
        if s.action == CRASH:
            return "crash"
        if s.action == HELP:
            return "help"
        if s.action in (MACHINE, UNKNOWN):
            return "unknown"
    return "accepted"


_LEVELS = ("[ERROR] ", "[WARNING] ")
LOG_SIZE = 1024             # CmdLog's buffer (cmd_log.cpp MSPROF_BIN_MAX_LOG_SIZE): longer text is cut


def _printed(line: str) -> str:
    """What CmdLog prints for a message: nothing when it is empty, at most 1024 bytes of it."""
    for level in _LEVELS:
        if line.startswith(level):
            body = line[len(level):].encode("utf-8")
            if not body:
                return ""
            return level + body[:LOG_SIZE].decode("utf-8", "ignore")
    return line


def _split_items(text: str) -> List[str]:
    """Utils::Split without filtering: "" gives no item, "a," gives ["a", ""], "a,,b" ["a", "", "b"]."""
    if not text:
        return []
    return text.split(",")


def _fits(text: str, limit: int) -> bool:
    """Utils::CheckStringNumRange: digits only, and not above `limit` (compared as digit strings)."""
    target = str(limit)
    if not text or len(text) > len(target) or not all("0" <= c <= "9" for c in text):
        return False
    return len(text) < len(target) or text <= target


def _signed(number: int) -> int:
    """A uint32 printed with %d."""
    return number - 2 ** 32 if number >= 2 ** 31 else number


class _Run:
    def __init__(self, words: List[str], version: str, plat: Chip, machine: Machine, hole: Optional[str]):
        self.version, self.f, self.chip, self.machine, self.hole = version, facts(version), plat, machine, hole
        self.out: List[Step] = []
        self.complete = True
        if hole is not None:
            words = self._known_words(words, hole)
        self.words = words
        # what ProcessOptions leaves behind for the checks after the options
        self.args: Dict[str, Optional[str]] = {}
        self.at: Dict[str, int] = {}
        self.result_dir = False
        self.app_dir = False
        self.app = ""
        self.params: Dict[str, str] = {}
        self.unknown_values: set = set()      # options whose value holds text not known statically

    def _known_words(self, words: List[str], hole: str) -> List[str]:
        """The words up to the first one that may be several words (it starts with the hole), except a
        hole in the value place after `--name` (a value word, whatever it holds)."""
        out = []
        for i, word in enumerate(words):
            if word.startswith(hole):
                after_name = i > 0 and words[i - 1].startswith("--") and "=" not in words[i - 1] \
                    and hole not in words[i - 1]
                if not after_name:
                    self.complete = False
                    break
            if word.startswith("--") and hole in word.partition("=")[0]:
                self.complete = False
                break
            out.append(word)
        return out

    def add(self, at: int, option: str, action: str, kind: str, line: str = "", usage: bool = False) -> bool:
        self.out.append(Step(at, option, action, kind, _printed(line), usage))
        return action not in (REJECT, CRASH)

    def unknown(self, text: Optional[str]) -> bool:
        return text is not None and self.hole is not None and self.hole in text

    # ------------------------------------------------------------ the run

    def steps(self) -> List[Step]:
        words = self.words
        if not words and self.complete:
            self.add(WHOLE, "", REJECT, "no_arguments", "", True)      # argc <= 1: the usage, and exit
            return self.out
        if self.complete and len(words) + 1 > data()["max_args"]:
            self.add(WHOLE, "", REJECT, "too_many", "[ERROR] input data is invalid,please input argc less than 512 "
                     "and argv is not null and the len of argv less than 512")
        app_start, got, past_end = parsed(tuple(words), self.version, self.complete)
        for g in got:
            if g.opt is not None and g.opt.ident == "HELP":
                self.add(g.at, "help", HELP, "help", "", True)
                return self.out
            self._option(g)
        if past_end and self.complete:
            last = len(words) - 1
            self.add(last, self._name_at(last), CRASH, "past_end")
        if not self.complete:
            self.add(len(words), "", UNKNOWN, "hole")
            return self.out
        application = words[app_start:]
        if application and not self.app:
            self.app = _basename(application[0])             # HandleApp
        self._dynamic()
        self._mstx()
        if self.f["output_check"] == "after_options" and "OUTPUT" in self.args and \
                not self._after_unknown(("OUTPUT", "EXPORT", "PARSE", "QUERY", "ANALYZE"), self.at["OUTPUT"], "output"):
            self._output(self.at["OUTPUT"], self.args["OUTPUT"])
        self._params_check()
        return self.out

    def _name_at(self, at: int) -> str:
        word = self.words[at] if 0 <= at < len(self.words) else ""
        name = word[2:].partition("=")[0]
        found = next((o for o in long_options(self.version) if o.name == name), None) or \
            next((o for o in long_options(self.version) if o.name.startswith(name)), None)
        return found.name if found is not None and name else ""

    def _option(self, g: Got) -> None:
        if g.opt is None:
            self.add(g.at, "", REJECT, g.kind, g.line, True)                # '?' -> ProcessOptions: the usage
            return
        opt = g.opt
        if opt.ident in self.chip.black_list:
            self.add(g.at, opt.name, REJECT, "chip", f"msprof: unrecognized option '{self.words[g.at]}'", True)
            return
        if opt.group == "invalid":
            self.add(g.at, opt.name, REJECT, "invalid", "", True)
            return
        self.args[opt.ident] = g.arg
        self.at[opt.ident] = g.at
        if self.unknown(g.arg):
            # what the value sets is not known: the checks after the options that read it say so
            self.unknown_values.add(opt.ident)
            self.result_dir = self.result_dir or opt.ident == "OUTPUT"
            if opt.ident == "APPLICATION":
                self.app_dir, self.app = True, self.app or hole_name(self.hole)
            self.add(g.at, opt.name, UNKNOWN, "hole")
            return
        handler = {"cmd": self._cmd, "switch": self._switch, "freq": self._freq, "host": self._host}[opt.group]
        handler(g.at, opt, g.arg)

    # ------------------------------------------------------------ shared checks

    def _null(self, at: int, opt: Opt, arg: Optional[str], message: str = "null_switch") -> bool:
        if arg is not None:
            return True
        return self.add(at, opt.name, REJECT, "none", "[ERROR] " + self.f["messages"][message].format(name=opt.name))

    def _on_off(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckArgOnOff."""
        if not self._null(at, opt, arg):
            return False
        ident = opt.ident
        if ident in ("MSTX_DOMAIN_INCLUDE", "MSTX_DOMAIN_EXCLUDE"):
            return True
        if ident == "GE_API":
            if arg in ("off", "l0", "l1"):
                return True
            return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --{opt.name}: invalid value: {arg}. "
                            "Please input 'off', 'l0' or 'l1'.")
        if ident == "TASK_BLOCK":
            return self._task_block(at, opt, arg)
        if ident == "TASK_TIME":
            tt = self.f["task_time"]
            l3 = tt["l3"] == "feature" and "PLATFORM_TASK_TRACE_L3" in self.chip.features
            if arg not in tt["levels"]:
                hint = tt["hint"]["l3" if l3 else "no_l3"]
                return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --{opt.name}: invalid value: {arg}. "
                                + hint)
            if arg == "l3" and not l3:
                return self.add(at, opt.name, REJECT, "l3", "[ERROR] l3 is not supported on this platform.")
            return True
        if ident == "DVPP_PROFILING" and self.f["dvpp_gate"] and not self._dvpp():
            return self.add(at, opt.name, LOG, "useless", "[WARNING] The argument: dvpp-profiling is useless on this "
                            "platform.")
        if arg in ("off", "on"):
            return True
        return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --{opt.name}: invalid value: {arg}. "
                        "Please input 'on' or 'off'.")

    def _dvpp(self) -> bool:
        return bool({"PLATFORM_SYS_DEVICE_DVPP", "PLATFORM_SYS_DEVICE_DVPP_EX"} & self.chip.features)

    def _task_block(self, at: int, opt: Opt, arg: str) -> bool:
        supported = "PLATFORM_TASK_BLOCK" in self.chip.features
        if self.f["task_block"] == "validation":     # 9.0: ParamValidation::CheckTaskBlockValid, one message
            ok = supported and arg in ("on", "off") and (arg != "on" or self.chip.platform_type == "CHIP_CLOUD_V3")
            return ok or self.add(at, opt.name, REJECT, "unsupported" if not supported else "value",
                                  f"[ERROR] Argument --{opt.name}: invalid value: {arg}. ")
        if not supported:
            return self.add(at, opt.name, REJECT, "unsupported", "[ERROR] Argument --task-block is not supported")
        if arg in ("on", "off"):
            return True
        return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --task-block: invalid value: {arg}. "
                        "Please input 'on' or 'off'.")

    def _range(self, at: int, opt: Opt, arg: Optional[str], lo: int, hi: int) -> bool:
        """CheckArgRange."""
        if not self._null(at, opt, arg, "null_number"):
            return False
        if _fits(arg, 4294967295):
            number = int(arg)
            if lo <= number <= hi:
                return True
            return self.add(at, opt.name, REJECT, "range", "[ERROR] " + self.f["messages"]["range_out"].format(
                name=opt.name, shown=_signed(number), lo=lo, hi=hi))
        return self.add(at, opt.name, REJECT, "range", f"[ERROR] Argument --{opt.name}: invalid value: {arg}."
                        f"Please input an integer value in {lo}-{hi}.")

    # ------------------------------------------------------------ the option groups

    def _switch(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """MsprofSwitchCheckValid: CheckArgOnOff, then what the value sets."""
        if not self._on_off(at, opt, arg):
            return
        if opt.ident == "HCCL":
            self.add(at, opt.name, LOG, "note", "[WARNING] [Note] [hccl] This option will be discarded in later "
                     "versions.")
        elif opt.ident == "MODEL_EXECUTION":
            self.add(at, opt.name, LOG, "note", "[WARNING] [Note] [model-execution] This option will be discarded in "
                     "later versions.")
        self.params[opt.ident] = arg

    def _cmd(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """MsprofCmdCheckValid, then MsprofDynamicCheckValid."""
        ident = opt.ident
        ok = True
        if ident == "OUTPUT":
            self.result_dir = True
            if self.f["output_check"] == "at_option":
                ok = self._output(at, arg)
        elif ident == "STORAGE_LIMIT":
            ok = self._storage(at, opt, arg)
        elif ident == "APPLICATION":
            ok = self._application(at, opt, arg)
        elif ident == "ENVIRONMENT":
            if not arg:
                ok = self.add(at, opt.name, REJECT, "none" if arg is None else "empty",
                              "[ERROR] Argument --environment: expected one argument")
        elif ident in ("AIC_MODE", "AIV_MODE"):
            if arg is None:
                ok = self.add(at, opt.name, REJECT, "none", f"[ERROR] Argument --{opt.name}: expected one argument")
            elif arg not in ("task-based", "sample-based"):
                ok = self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --{opt.name}: invalid value: {arg}."
                              "Please input 'task-based' or 'sample-based'.")
        elif ident in ("AIC_METRICS", "AIV_METRICS"):
            ok = self._metrics(at, opt, arg)
        elif ident == "SYS_DEVICES":
            ok = self._devices(at, opt, arg)
        elif ident == "NTS_METRICS":
            ok = self.add(at, opt.name, REJECT, "unsupported", f"[ERROR] Argument --nts-metrics {arg or ''} is not "
                          "supported on current platform.")
        elif ident == "LLC_PROFILING":
            ok = self._llc(at, opt, arg)
        elif ident == "PYTHON_PATH":
            ok = self._python_path(at, opt, arg)
        elif ident in ("SUMMARY_FORMAT", "EXPORT_TYPE"):
            allowed, hint = (("json", "csv"), "'json' or 'csv'") if ident == "SUMMARY_FORMAT" else \
                (("text", "db"), "'text' or 'db'")
            if arg is None:
                ok = self.add(at, opt.name, REJECT, "none", f"[ERROR] Argument --{opt.name}: expected one argument")
            elif arg not in allowed:
                ok = self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --{opt.name}: invalid value: {arg}. "
                              f"Please input {hint}.")
        elif ident == "REPORTS":
            if arg is None:
                ok = self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --type: expected one argument")
        elif ident == "RULE":
            if arg is None:
                ok = self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --rule: expected one argument")
            else:
                bad = next((x for x in _split_items(arg) if x not in ("communication", "communication_matrix")), None)
                if bad is not None:
                    ok = self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --rule: invalid value: {bad}. "
                                  "Please input 'communication' or 'communication_matrix'.")
        elif ident in ("SCALE", "OP_TYPE"):
            ok = self._op_filter(at, opt, arg)
        if ok:
            self._dynamic_option(at, opt, arg)

    def _dynamic_option(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """MsprofDynamicCheckValid and MsprofDynamicUpdateParams."""
        ident = opt.ident
        if ident == "DYNAMIC_PROF":
            if self._on_off(at, opt, arg):
                self.params["dynamic"] = arg
        elif ident == "DYNAMIC_PROF_PID":
            check = self.f["pid_check"]
            if check == "range":
                lo, hi = data()["ranges"]["DYNAMIC_PROF_PID"]
                if not self._range(at, opt, arg, lo, hi):
                    return
            elif check == "not_null":
                if not self._null(at, opt, arg):
                    return
            elif arg is None:       # 9.0 checks nothing: std::string = NULL reads through a null pointer
                self.add(at, opt.name, CRASH, "null_assign")
                return
            self.params["pid"] = arg
        elif ident in ("DELAY_PROF", "DURATION_PROF"):
            lo, hi = data()["ranges"][ident]
            self._range(at, opt, arg, lo, hi)

    def _freq(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """MsprofFreqCheckValid and MsprofFreqCheckValidTwo."""
        ident = opt.ident
        if ident == "SYS_PERIOD":
            self._period(at, opt, arg)
            return
        if ident in ("EXPORT_ITERATION_ID", "EXPORT_MODEL_ID"):
            if self._null(at, opt, arg, "null_number") and not _fits(arg, 4294967295):
                self.add(at, opt.name, REJECT, "number", f"[ERROR] Argument --{opt.name}: invalid value: {arg}."
                         "Please input an integer value.")
            return
        if ident == "DVPP_FREQ" and self.f["dvpp_gate"] and not self._dvpp():
            self.add(at, opt.name, LOG, "useless", "[WARNING] The argument: dvpp-freq is useless on this platform.")
            return
        if ident == "INSTR_PROFILING_FREQ" and "PLATFORM_TASK_INSTR_PROFILING" in self.chip.features:
            self.add(at, opt.name, LOG, "useless", "[WARNING] The argument: instr-profiling-freq is useless on this "
                     "platform.")
            return
        lo, hi = data()["ranges"][ident]
        if ident == "HARDWARE_MEM_SAMPLING_FREQ" and "PLATFORM_SYS_DEVICE_US" in self.chip.features:
            hi = data()["hardware_mem_max_on_us_chips"]
        self._range(at, opt, arg, lo, hi)

    def _period(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """CheckSysPeriodValid."""
        if arg is None:
            self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --sys-period is empty,Please enter a valid "
                     "--sys-period value.")
        elif not _fits(arg, 2147483647):
            self.add(at, opt.name, REJECT, "range", f"[ERROR] Argument --sys-period: invalid value: {arg}.Please "
                     "input an integer value.The range of period is 1~2592000 seconds.")
        elif not 1 <= int(arg) <= data()["sys_period_max"]:
            self.add(at, opt.name, REJECT, "range", f"[ERROR] Argument --sys-period: invalid int value: {int(arg)}."
                     "The range of period is 1~2592000 seconds.")

    def _host(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """MsprofHostCheckValid (msprof on the host: RunSocSide is false)."""
        ident = opt.ident
        if ident == "HOST_SYS":
            self._host_sys(at, opt, arg)
        elif ident == "HOST_SYS_USAGE":
            if arg is None:
                self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --host-sys-usage is empty. Please input in "
                         "the range of 'cpu|mem'.")
            elif any(x not in ("cpu", "mem") for x in _split_items(arg)):
                self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --host-sys-usage={arg} is invalid. Please "
                         "input in the range of 'cpu|mem'.")
        elif ident == "HOST_SYS_PID":
            if arg is None:
                self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --host-sys-pid is empty,Please enter a valid "
                         "--host-sys-pid value.")
            elif not _fits(arg, 2147483647):
                self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --host-sys-pid: invalid value: {arg}."
                         "Please input an integer value.The min value is 0.")
            else:
                alive = self.machine.process(int(arg))
                if alive is None:
                    self.add(at, opt.name, MACHINE, "process")
                elif not alive:
                    self.add(at, opt.name, REJECT, "process", f"[ERROR] Argument --host-sys-pid: invalid int value: "
                             f"{int(arg)}.The process cannot be found, please enter a correct host-sys-pid.")

    def _host_sys(self, at: int, opt: Opt, arg: Optional[str]) -> None:
        """CheckHostSysValid."""
        items = self.f["host_sys"]
        hint = "'" + "|".join(items) + "'"
        if arg is None:
            self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --host-sys: expected one argument")
            return
        if not arg:
            self.add(at, opt.name, REJECT, "empty", f"[ERROR] Argument --host-sys is empty. Please input in the range "
                     f"of {hint}")
            return
        given = _split_items(arg)
        bad = next((x for x in given if x not in items), None)
        if bad is not None:
            self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --host-sys: invalid value:{bad}. Please input "
                     f"in the range of {hint}")
            return
        if "osrt" in given and self.f["host_sys_osrt_after_output"] and not (self.result_dir or self.app_dir):
            self.add(at, opt.name, REJECT, "order", "[ERROR] If you want to use this parameter:--host-sys, please put "
                     "it behind the --output or --application.")
            return
        for item, tools in (("osrt", ("perf", "ltrace")), ("disk", ("iotop",))):
            if item not in given:
                continue
            for tool in tools:
                present = self.machine.tool(tool)
                if present is None:
                    self.add(at, opt.name, MACHINE, "tool")
                    return
                if not present:
                    self.add(at, opt.name, REJECT, "tool", f"[ERROR] The tool {tool} is invalid, please check if the "
                             "tool and sudo are available.")
                    return

    # ------------------------------------------------------------ values of the cmd group

    def _storage(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckStorageLimitValid: no value is no limit."""
        if arg is None:
            self.add(at, opt.name, IGNORED, "none")
            return True
        if not arg:
            return self.add(at, opt.name, REJECT, "empty", "[ERROR] Argument --storage-limit: expected one argument")
        lo, hi = data()["storage_limit"]
        digits = arg[:-2]
        ok = len(arg) > 2 and arg.endswith("MB") and digits.isdigit() and digits.isascii() and len(digits) <= 10 \
            and lo <= int(digits) <= hi
        return ok or self.add(at, opt.name, REJECT, "storage", f"[ERROR] Argument --storage-limit {arg} is invalid, "
                              f"valid range is {lo}MB~{hi}MB")

    def _metrics(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckAiCoreMetricsValid and ParamValidation::CheckAicoreMetricsIsValid."""
        if arg is None:
            return self.add(at, opt.name, REJECT, "none", f"[ERROR] Argument --{opt.name}: expected one argument")
        prompt = self._prompt()
        if not arg:
            return self.add(at, opt.name, REJECT, "empty", f"[ERROR] Argument --{opt.name} is empty. Please input in "
                            f"the range of {prompt}")
        if self._metric_ok(arg):
            return True
        return self.add(at, opt.name, REJECT, "metrics", f"[ERROR] Argument --{opt.name}: invalid value:{arg}. Please "
                        f"input in the range of {prompt}")

    def _metric_ok(self, text: str) -> bool:
        if len(text.encode("utf-8", "surrogatepass")) > data()["max_params_len"]:
            return False
        if text.startswith("Custom:"):
            events = text[len("Custom:"):].lower()
            items = _split_items(events)
            if not items or len(items) > self.chip.max_monitor:
                return False
            return all(_hex(e) or _dec(e) for e in items)
        return text in self.chip.metrics

    def _prompt(self) -> str:
        """GeneratePrompts: the metric sets the chip offers, as msprof lists them."""
        parts = "[ArithmeticUtilization|PipeUtilization|Memory|MemoryL0|MemoryUB"
        for feature, name in (("PLATFORM_TASK_L2_CACHE_PMU", "L2Cache"),
                              ("PLATFORM_TASK_RCR_PMU", "ResourceConflictRatio"),
                              ("PLATFORM_TASK_PEU_PMU", "PipelineExecuteUtilization"),
                              ("PLATFORM_TASK_MEMORY_ACCESS_PMU", "MemoryAccess")):
            if feature in self.chip.features:
                parts += "|" + name
        return parts + "]"

    def _devices(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckSysDevicesValid."""
        if arg is None:
            return self.add(at, opt.name, REJECT, "none", "[ERROR] " + self.f["messages"]["null_sys_devices"])
        if not arg:
            return self.add(at, opt.name, REJECT, "empty", "[ERROR] Argument --sys-devices is empty,Please enter a "
                            "valid --sys-devices value.")
        if arg == "all":
            return True
        for device in _split_items(arg):
            if not (_fits(device, 2147483647) and int(device) < data()["max_devices"]):
                return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --sys-devices: invalid value: "
                                f"{device}.Please input a valid device id.")
        return True

    def _llc(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckLlcProfilingValid and CheckLlcProfilingIsValid."""
        if arg is None:
            return self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --llc-profiling: expected one argument.")
        allowed = self.f["llc"].get(self.chip.platform_type, self.f["llc"][""])
        if not arg:
            return self.add(at, opt.name, REJECT, "empty", "[ERROR] Argument --llc-profiling is empty.Please input in "
                            f"the range of '{allowed[0]}|{allowed[1]}'")
        if arg in allowed:
            return True
        return self.add(at, opt.name, REJECT, "value", f"[ERROR] Argument --llc-profiling: invalid value: {arg}. "
                        f"Please input in the range of '{allowed[0]}|{allowed[1]}'")

    def _op_filter(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckCmdScaleIsValid (8.5, 9.0) or CheckCmdOpTypeIsValid (9.1)."""
        if arg is None:
            if opt.ident == "SCALE":            # const std::string& built from a null pointer
                return self.add(at, opt.name, CRASH, "null_string", NULL_STRING[0])
            return self.add(at, opt.name, REJECT, "none", "[ERROR] Argument --optype: expected one argument, please "
                            "enter a valid value.")
        if "PLATFORM_TASK_SCALE" not in self.chip.features:
            return self.add(at, opt.name, REJECT, "unsupported", "[ERROR] ")      # errInfo is left empty
        return self.add(at, opt.name, UNKNOWN, "op_filter")

    def _python_path(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckPythonPathValid."""
        if not arg:
            return self.add(at, opt.name, REJECT, "none" if arg is None else "empty",
                            "[ERROR] Argument --python-path: expected one argument")
        if len(arg.encode("utf-8", "surrogatepass")) > data()["max_path_length"]:
            return self.add(at, opt.name, REJECT, "path", "[ERROR] Argument --python-path is invalid because of "
                            "exceeds the maximum length of 1024")
        kind = self._file(arg)
        if kind is None:
            return self.add(at, opt.name, MACHINE, "path")
        line = {"missing": f"[ERROR] Argument --python-path {arg} does not exist or permission denied!!!",
                "file": f"[ERROR] Argument --python-path {arg} permission denied.",
                "dir": f"[ERROR] Argument --python-path {arg} is a directory, please enter the executable file path."}
        return kind == "exec" or self.add(at, opt.name, REJECT, "path", line[kind])

    def _absolute(self, path: str) -> Optional[str]:
        """Utils::RelativePathToAbsolutePath (None: the working directory is not known)."""
        if not path or path.startswith("/"):
            return path
        cwd = self.machine.cwd
        return None if cwd is None else cwd + "/" + path

    def _file(self, path: str) -> Optional[str]:
        """What Utils::CanonicalizePath finds at a path ("~/" is the user's home, a relative path is taken from
        the working directory): "missing", "dir", "file", "exec", or None when the machine is not known."""
        if path.startswith("~/"):
            if self.machine.home is None:
                return None
            path = self.machine.home + path[1:]
        full = self._absolute(path)
        return None if full is None or not path else self.machine.file(full)

    def _application(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckAppValid: the checks of the text here; whether the program exists and may run is the machine's."""
        if not arg:
            return self.add(at, opt.name, REJECT, "none" if arg is None else "empty",
                            "[ERROR] Argument --application: expected one argument")
        if len(arg.encode("utf-8", "surrogatepass")) > data()["max_app_len"]:
            return self.add(at, opt.name, REJECT, "application", "[ERROR] Argument --application: expected param "
                            "length less than 2048")
        if self.f["application"] == "interpreter":
            return self._application_91(at, opt, arg)
        command, _, rest = arg.partition(" ")
        if not _interpreter(command):
            return self._program(at, opt, command)
        if "/" in command:          # the interpreter itself, by its path, then its script
            path = self._absolute(command)
            kind = self.machine.file(path) if path is not None else None
            if kind == "missing":
                return self.add(at, opt.name, REJECT, "application", f"[ERROR] App path({path}) does not exist or "
                                "permission denied.")
            if kind == "file":
                return self.add(at, opt.name, REJECT, "application", f"[ERROR] This app({path}) has no executable "
                                "permission.")
            if kind is None:
                self.add(at, opt.name, MACHINE, "application")
        return self._script(at, opt, rest)

    def _application_91(self, at: int, opt: Opt, arg: str) -> bool:
        text = arg.strip(" \t\n\r")
        if not text:
            return self.add(at, opt.name, REJECT, "empty", "[ERROR] Argument --application: expected one argument")
        command, _, rest = text.partition(" ")
        if command.startswith("~/"):
            if self.machine.home is None:
                return self.add(at, opt.name, MACHINE, "application")
            command = self.machine.home + command[1:]
        if not _interpreter(command):
            return self._program(at, opt, command)
        if not rest:
            return self.add(at, opt.name, REJECT, "application", "[ERROR] Argument --application: an interpreter "
                            "(python/bash/sh) requires a script or module argument")
        self.app_dir = True
        self.app = _basename(command)
        if "/" not in command:
            return True
        kind = self._file(command)
        if kind is None:
            return self.add(at, opt.name, MACHINE, "application")
        if kind == "missing":
            return self.add(at, opt.name, REJECT, "application", f"[ERROR] Script path({command}) does not exist or "
                            "permission denied.")
        if kind == "file":
            return self.add(at, opt.name, REJECT, "application", f"[ERROR] This app({self.machine.real(command)}) has "
                            "no executable permission!")
        return True

    def _script(self, at: int, opt: Opt, rest: str) -> bool:
        """GetAppParam (8.5, 9.0): the script after the interpreter must exist."""
        if not rest:
            return self.add(at, opt.name, REJECT, "application", "[ERROR] Argument --application: expected one script")
        script = rest.partition(" ")[0]
        self.app_dir = True
        self.app = _basename(script)
        kind = self._file(script)
        if kind is None:
            return self.add(at, opt.name, MACHINE, "application")
        return kind != "missing" or self.add(at, opt.name, REJECT, "application", "[ERROR] Script params are invalid")

    def _program(self, at: int, opt: Opt, command: str) -> bool:
        """PreCheckApp: a program named by its path, without an interpreter. Its name is known from the text;
        whether it exists and may run is the machine's (the steps after it take it as found)."""
        path = self._absolute(command)
        name = _basename(path if path is not None else command)
        if not all(c.isascii() and (c.isalnum() or c in "_-.") for c in name):
            return self.add(at, opt.name, REJECT, "application", f"[ERROR] Argument --application({name}) is invalid, "
                            "appName.")
        self.app_dir = True
        self.app = name
        if path is None:
            return self.add(at, opt.name, MACHINE, "application")
        full = _dirname(path) + "/" + name
        # an empty program name is "./.", the working directory: a directory on every machine
        kind = "dir" if not command else self._file(full)
        if kind is None:
            return self.add(at, opt.name, MACHINE, "application")
        line = {"missing": f"[ERROR] App path({full}) does not exist or permission denied!!!",
                "file": f"[ERROR] This app({full}) has no executable permission!",
                "dir": f"[ERROR] Argument --application:{full} is a directory, please enter the executable file path."}
        return kind == "exec" or self.add(at, opt.name, REJECT, "application", line[kind])

    # ------------------------------------------------------------ --output

    def _output(self, at: int, arg: Optional[str]) -> bool:
        """CheckOutputValid."""
        if not arg:
            return self.add(at, "output", REJECT, "none" if arg is None else "empty",
                            "[ERROR] Argument --output: expected one argument")
        path = self._absolute(arg)
        shown = path if path is not None else arg
        analysis = any(self.params.get(k) == "on" for k in ("EXPORT", "PARSE", "QUERY", "ANALYZE"))
        if self.f["analysis_output_must_exist"] and analysis:
            exists = self.machine.exists(path) if path is not None else None
            if exists is None:
                return self.add(at, "output", MACHINE, "analysis")
            if not exists:
                return self.add(at, "output", REJECT, "analysis", f"[ERROR] Analysis output path({path}) does not "
                                "exist.")
        size = len(shown.encode("utf-8", "surrogatepass")) + (0 if path is not None else 2)    # an unknown cwd is at least "/"
        if size > data()["max_path_length"]:
            return self.add(at, "output", REJECT, "output", "[ERROR] Argument --output is invalid because of exceeds "
                            "the maximum length of 1024")
        if path is None:
            return self.add(at, "output", MACHINE, "output")
        if any(c in path for c in self.f["output_invalid_chars"]):
            return self.add(at, "output", REJECT, "output", f"[ERROR] Argument --output {path} contains invalid "
                            "character.")
        if any(len(part.encode("utf-8", "surrogatepass")) > data()["name_max"] for part in path.split("/")):
            return self.add(at, "output", REJECT, "output", "[ERROR] Create output dir failed.ErrorCode: 36, "
                            "ErrorInfo: File name too long.")
        problem = self.machine.make_dir(path)
        if problem is None:
            return self.add(at, "output", MACHINE, "output")
        return not problem or self.add(at, "output", REJECT, "output", problem)

    # ------------------------------------------------------------ after the options

    def _after_unknown(self, idents: Tuple[str, ...], at: int, option: str) -> bool:
        """A check after the options that reads a value not known statically: its outcome is not known."""
        if self.unknown_values.intersection(idents):
            self.add(at, option, UNKNOWN, "hole")
            return True
        return False

    def _dynamic(self) -> None:
        """CheckDynProfValid."""
        dynamic, pid = self.params.get("dynamic", ""), self.params.get("pid", "")
        at = self.at.get("DYNAMIC_PROF", self.at.get("DYNAMIC_PROF_PID", WHOLE))
        if self._after_unknown(("DYNAMIC_PROF", "DYNAMIC_PROF_PID", "APPLICATION"), at, "dynamic"):
            return
        if dynamic in ("", "off"):
            if pid:
                self.add(self.at.get("DYNAMIC_PROF_PID", at), "pid", REJECT, "dynamic",
                         "[ERROR] Argument --dynamic=off, but --pid is set.")
            return
        if not self.app and not pid:
            self.add(at, "dynamic", REJECT, "dynamic", "[ERROR] Argument --dynamic=on, but --application/--pid is all "
                     "empty.")
            return
        if self.app and pid:
            self.add(at, "dynamic", REJECT, "dynamic", "[ERROR] Argument --dynamic=on, can not set --application/--pid "
                     "at the same time.")
            return
        for ident, name in (("SYS_DEVICES", "sys-devices"), ("SYS_PERIOD", "sys-period"),
                            ("CPU_PROFILING", "sys-cpu-profiling")):
            if ident in self.args:
                self.add(self.at[ident], name, REJECT, "dynamic", f"[ERROR] Argument --dynamic and --{name} cannot be "
                         "configured at the same time.")
                return
        if pid:
            self.add(self.at.get("DYNAMIC_PROF_PID", at), "pid", MACHINE, "process")

    def _mstx(self) -> None:
        """CheckMstxValid."""
        include, exclude = self.params.get("MSTX_DOMAIN_INCLUDE", ""), self.params.get("MSTX_DOMAIN_EXCLUDE", "")
        at = self.at.get("MSTX_DOMAIN_INCLUDE" if include else "MSTX_DOMAIN_EXCLUDE", WHOLE)
        if self._after_unknown(("MSPROFTX", "MSTX_DOMAIN_INCLUDE", "MSTX_DOMAIN_EXCLUDE"), at, "msproftx"):
            return
        if self.params.get("MSPROFTX") != "on":
            if include or exclude:
                self.add(at, "mstx-domain-include" if include else "mstx-domain-exclude", REJECT, "mstx",
                         "[ERROR] Argument --mstx-domain-include/--mstx-domain-exclude must be used with "
                         "--msproftx=on.")
        elif include and exclude:
            self.add(at, "mstx-domain-include", REJECT, "mstx", "[ERROR] Argument --mstx-domain-include and "
                     "--mstx-domain-exclude cannot be used at the same time.")

    def _params_check(self) -> None:
        """ParamsCheck: without --output, $ASCEND_WORK_PATH/profiling_data must be creatable."""
        if self.result_dir:
            return
        work = self.machine.env("ASCEND_WORK_PATH")
        if work is None:
            self.add(WHOLE, "", MACHINE, "work_path")
        elif work:
            path = self._absolute(work)
            problem = self.machine.make_dir(path + "/profiling_data") if path is not None else None
            if problem is None:
                self.add(WHOLE, "", MACHINE, "work_path")
            elif problem:
                self.add(WHOLE, "", REJECT, "work_path", problem)


def hole_name(hole: Optional[str]) -> str:
    """The application's name when --application's value is not known statically."""
    return hole or "?"


def _interpreter(command: str) -> bool:
    """Utils::IsAppName is false: bash, sh, python*, pmupload (the script after it is the application)."""
    base = _basename(command)
    return base in ("bash", "sh", "pmupload") or base.startswith("python")


def _basename(path: str) -> str:
    """POSIX basename(3)."""
    if not path:
        return "."
    stripped = path.rstrip("/")
    return stripped.rsplit("/", 1)[-1] if stripped else "/"


def _dirname(path: str) -> str:
    """POSIX dirname(3)."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else "."
    if "/" not in stripped:
        return "."
    head = stripped.rsplit("/", 1)[0].rstrip("/")
    return head or "/"


def _hex(event: str) -> bool:
    event = event.strip(" ")
    return len(event) > 2 and event.startswith("0x") and all(c in "0123456789abcdef" for c in event[2:])


def _dec(event: str) -> bool:
    """Decimal digits that std::stoi reads without overflow."""
    event = event.strip(" ")
    return bool(event) and event.isdigit() and event.isascii() and int(event) < 2 ** 31
