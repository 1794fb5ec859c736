"""How msprof checks each option's value (CheckArgOnOff, CheckArgRange, the cmd group's values,
--application and --output), and what CmdLog prints; the run that calls them is msprof_run.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from .msprof_machine import Chip, Machine
from .msprof_tables import CRASH, IGNORED, LOG, MACHINE, NULL_STRING, Opt, REJECT, Step, UNKNOWN, data, facts


class _OptionChecks:
    """The state of one run (msprof_run._Run) and the checks of an option's value: each adds its steps and
    returns whether msprof goes on."""

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

    # ------------------------------------------------------------ shared checks

    def _null(self, at: int, opt: Opt, arg: Optional[str], message: str = "null_switch") -> bool:
        if arg is not None:
            return True
        return self.add(at, opt.name, REJECT, "none", "[ERROR] " + self.f["messages"][message].format(name=opt.name))

    def _on_off(self, at: int, opt: Opt, arg: Optional[str]) -> bool:
        """CheckArgOnOff."""
        if not self._null(at, opt, arg):
            return False
        assert arg is not None              # (_null rejects None)
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
        assert arg is not None              # (_null rejects None)
        if _fits(arg, 4294967295):
            number = int(arg)
            if lo <= number <= hi:
                return True
            return self.add(at, opt.name, REJECT, "range", "[ERROR] " + self.f["messages"]["range_out"].format(
                name=opt.name, shown=_signed(number), lo=lo, hi=hi))
        return self.add(at, opt.name, REJECT, "range", f"[ERROR] Argument --{opt.name}: invalid value: {arg}."
                        f"Please input an integer value in {lo}-{hi}.")

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
