"""msprof's run over its words on one chip (main -> InputParser::MsprofGetOpts): each option getopt
returns, through its group's check (ProcessOptions: switch, cmd, freq, host), then the checks after the
options (--dynamic, --mstx-domain-*, --output from 9.0, ParamsCheck).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .msprof_values import _OptionChecks, _basename, _fits, _split_items, hole_name
from .msprof_getopt import Got, parsed
from .msprof_tables import CRASH, HELP, LOG, MACHINE, Opt, REJECT, Step, UNKNOWN, WHOLE, data, long_options


class _Run(_OptionChecks):
    """One run of msprof's parser over its words on one chip: `steps()`, what it does at each."""

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
        assert arg is not None              # (_on_off rejects None)
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
                assert arg is not None      # (_on_off rejects None)
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
            assert arg is not None          # (_range and _null reject None)
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
            if self._null(at, opt, arg, "null_number") and arg is not None and not _fits(arg, 4294967295):
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
