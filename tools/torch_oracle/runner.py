"""Runs oracle cases against one torch_npu release's profiler code.

Started by record.py with the scratch interpreter (the one that has torch) and
``sys.path[0]`` set to a sandbox that holds the release's extracted
``torch_npu/profiler`` package, a few of its utils and our stand-ins. Reads the
cases as JSON on stdin, writes one JSON outcome per case on stdout.

The profiler is imported once; every case then runs in a forked child (a fresh
copy of that pristine state: the profiler keeps singletons and caches) in a
fresh empty working directory, with the case's environment. Nothing here
decides an outcome: it calls the release's code and writes down what it said
(stdout, warnings.warn, log records), what it raised, the values it kept and
the calls it made into the stand-in C++ binding.
"""
import contextlib
import io
import json
import logging
import os
import re
import socket
import sys
import tempfile
import traceback
import warnings

TIMEOUT = 60
# Environment variables that change what the profiler says or does; a case
# sets the ones it is about, everything else is unset.
CLEARED_ENV = (
    "RANK", "LOCAL_RANK", "TORCH_NPU_DISABLED_WARNING", "TORCH_NPU_WARNING_DISABLE",
    "PROFILING_MODE", "PROFILER_SAMPLECONFIG", "PROF_CONFIG_PATH", "ASCEND_WORK_PATH",
    "KINETO_USE_DAEMON", "NPU_MONITOR_START", "PROFILE_TYPE",
)


def _plain(value, depth=0):
    """A JSON value for whatever the profiler kept (stable across runs)."""
    from torch_npu._C import _profiler as c_prof
    if depth > 4:
        return type(value).__name__
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else repr(value)
    if isinstance(value, c_prof.ProfilerActivity):
        return "ProfilerActivity." + value.name
    if hasattr(value, "name") and type(value).__name__ == "ProfilerAction":
        return "ProfilerAction." + value.name
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v, depth + 1) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (c_prof._ExperimentalConfig, c_prof.NpuProfilerConfig)):
        return value.record()        # what C++ would receive, as the stand-in kept it
    if type(value).__name__ == "_ExperimentalConfig":
        return {"type": "_ExperimentalConfig", **_fields(value)}
    if callable(value):
        return "<callable>"
    return "<%s>" % type(value).__name__


def _fields(obj):
    """An object's own attributes, without the leading underscore."""
    out = {}
    for key, val in sorted(vars(obj).items()):
        out[key.lstrip("_")] = _plain(val, 1)
    return out


class _Capture:
    """stdout, warnings.warn and log records, in the order they happened."""

    def __init__(self):
        self.lines = []
        self.log = []
        self._buf = ""

    def write(self, text):
        self._buf += text
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            self.lines.append(line)
        return len(text)

    def flush(self):
        pass

    def close(self):
        if self._buf:
            self.lines.append(self._buf)
            self._buf = ""

    def showwarning(self, message, category, filename, lineno, file=None, line=None):
        self.close()
        self.lines.append("%s: %s" % (category.__name__, message))


def _normalise(text, sandbox, cwd):
    text = text.replace(cwd, "<cwd>").replace(sandbox, "<sandbox>")
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "<time>", text)
    text = re.sub(r"\[%d\]" % os.getpid(), "[<pid>]", text)
    # the error-code suffix torch_npu appends to exception texts
    text = re.sub(r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d \(PID:\d+,", "<time> (PID:<pid>,", text)
    text = text.replace("_%d_" % os.getpid(), "_<pid>_")
    # the trace folder's name: <hostname>_<pid>_<timestamp>_ascend_pt
    text = text.replace("/%s_<pid>_" % socket.gethostname(), "/<host>_<pid>_")
    text = re.sub(r"_\d{14,20}_ascend_pt", "_<timestamp>_ascend_pt", text)
    return text


def _namespace():
    import torch
    import torch_npu
    import torch_npu.profiler as tp
    ns = {"torch": torch, "torch_npu": torch_npu}
    torch.npu = torch_npu.npu  # what the real torch_npu import does
    for name in ("profile", "schedule", "tensorboard_trace_handler", "_ExperimentalConfig",
                 "ProfilerActivity", "ProfilerLevel", "AiCMetrics", "ExportType", "HostSystem",
                 "ProfilerAction"):
        if hasattr(tp, name):
            ns[name] = getattr(tp, name)
    return ns


def _trace_ready_recorder():
    from torch_npu._C import _profiler as c_prof

    def trace_ready(prof):
        c_prof.CALLS.append({"fn": "on_trace_ready", "step_num": getattr(prof, "step_num", None)})
    return trace_ready


def _schedule_after(obj, steps=12):
    out = _fields(obj)
    try:
        out["actions"] = [obj(i).name for i in range(steps)]
    except Exception as ex:  # noqa: BLE001 - recorded, never judged here
        out["actions"] = "%s: %s" % (type(ex).__name__, ex)
    return out


def _profile_after(prof):
    out = {}
    pif = getattr(prof, "prof_if", None)
    for name in ("activities", "record_shapes", "profile_memory", "with_stack", "with_flops",
                 "with_modules", "experimental_config"):
        if pif is not None and hasattr(pif, name):
            out[name] = _plain(getattr(pif, name))
    default_fn = None
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "") == "torch_npu.profiler.profiler":
            default_fn = getattr(mod, "_default_schedule_fn", None)
    sched = getattr(prof, "schedule", None)
    out["schedule"] = "default" if sched is default_fn else ("Schedule" if type(sched).__name__ == "Schedule" else _plain(sched))
    out["on_trace_ready"] = None if getattr(prof, "on_trace_ready", None) is None else "<callable>"
    out["record_steps"] = getattr(prof, "record_steps", None)
    return out


DYNAMIC_PROBES = ("valid", "activities", "prof_path", "analyse", "async_mode", "record_shapes",
                  "profile_memory", "with_stack", "with_flops", "with_modules", "is_rank",
                  "active", "warmup", "start_step", "start", "experimental_config")


def _dynamic_after(ctx):
    out = {}
    for name in DYNAMIC_PROBES:
        if not hasattr(ctx, name):
            continue
        val = getattr(ctx, name)
        if callable(val) and not isinstance(val, type):
            try:
                val = val()
            except Exception as ex:  # noqa: BLE001
                val = "raised %s: %s" % (type(ex).__name__, ex)
        out[name] = _plain(val)
    return out


def _dynamic_context():
    import importlib
    for mod_name in ("torch_npu.profiler._dynamic_profiler._dynamic_profiler_config_context",
                     "torch_npu.profiler._dynamic_profiler.dynamic_profiler_config_context"):
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        return mod.ConfigContext
    return None


def run_case(case, sandbox):
    from torch_npu._C import _profiler as c_prof
    ns = _namespace()
    ns["trace_ready"] = _trace_ready_recorder()
    cwd = tempfile.mkdtemp(prefix="case-")
    os.chdir(cwd)
    with open(os.path.join(cwd, "afile"), "w") as fh:
        fh.write("a regular file\n")
    for key in CLEARED_ENV:
        os.environ.pop(key, None)
    os.environ.update(case.get("env", {}))

    cap = _Capture()
    records = []
    orig_log = logging.Logger._log

    def log_spy(self, level, msg, args, *a, **k):
        try:
            text = msg % args if args else str(msg)
        except Exception:  # noqa: BLE001
            text = str(msg)
        if not self.name.startswith("torch.") or self.name.startswith("torch_npu"):
            records.append("%s: %s" % (logging.getLevelName(level), text))
        return orig_log(self, level, msg, args, *a, **k)

    logging.Logger._log = log_spy
    logging.getLogger().setLevel(logging.DEBUG)
    warnings.showwarning = cap.showwarning
    warnings.simplefilter("always")
    out = {"raised": None}
    api = case["api"]
    try:
        with contextlib.redirect_stdout(cap), contextlib.redirect_stderr(io.StringIO()):
            try:
                if api == "dynamic_json":
                    ctx_cls = _dynamic_context()
                    if ctx_cls is None:
                        out["raised"] = "absent: no ConfigContext in this release"
                    else:
                        data = json.loads(case["call"])
                        # What the monitor process adds to the file's JSON
                        # once it has read it (_dynamic_profiler_monitor.py).
                        data["is_valid"] = True
                        ctx = ctx_cls(data)
                        out["after"] = _dynamic_after(ctx)
                        if case.get("start"):
                            _dynamic_start(ctx, out)
                elif api == "utils_profile":
                    _run_zoo_profile(case, ns, out)
                elif api in ("lifecycle", "env"):
                    exec(compile(case["call"], "<case>", "exec"), ns)
                    if "cfg" in ns:
                        out["after"] = _fields(ns["cfg"])
                else:
                    value = eval(compile(case["call"], "<case>", "eval"), ns)
                    if api == "_ExperimentalConfig":
                        out["after"] = _fields(value)
                        try:
                            native = value()
                            out["native"] = native.record() if hasattr(native, "record") else _plain(native)
                        except Exception as ex:  # noqa: BLE001
                            out["native"] = "raised %s: %s" % (type(ex).__name__, ex)
                    elif api == "schedule":
                        out["after"] = _schedule_after(value)
                    elif api == "profile":
                        out["after"] = _profile_after(value)
                    elif api == "tensorboard_trace_handler":
                        out["after"] = {"returned": None if value is None else "<callable>"}
                        pc = _path_creator_state()
                        if pc:
                            out["after"].update(pc)
            except Exception as ex:  # noqa: BLE001
                out["raised"] = "%s: %s" % (type(ex).__name__, _first_line(str(ex)))
            cap.close()
    finally:
        logging.Logger._log = orig_log
    out["warnings"] = [_normalise(line, sandbox, cwd) for line in cap.lines if line.strip()]
    if out["raised"]:
        out["raised"] = _normalise(out["raised"], sandbox, cwd)
    if api == "dynamic_json" or records:
        out["log"] = [_normalise(r, sandbox, cwd) for r in records]
    if api in ("lifecycle", "env", "utils_profile") or case.get("start"):
        out["calls"] = [c["fn"] for c in c_prof.CALLS if c["fn"] in LIFECYCLE_CALLS]
    for key in ("after", "native"):
        if key in out:
            out[key] = json.loads(_normalise(json.dumps(out[key], sort_keys=True), sandbox, cwd))
    return out


def _dynamic_start(ctx, out):
    """The release's own step that starts a dynamic collection (_DynamicProfile.enable_prof): it builds the
    profiler from the ConfigContext and starts it. `native` is the experimental config that the start call
    (_start_profiler) hands to C++, as the stand-in kept it; None when no start call was made."""
    import importlib
    from torch_npu._C import _profiler as c_prof
    dynamic = importlib.import_module("torch_npu.profiler.dynamic_profile")
    prof = dynamic._DynamicProfile()        # a Singleton: its __init__ only sets fields (init() starts the monitor)
    if not hasattr(prof, "enable_prof"):
        out["raised"] = "absent: no _DynamicProfile.enable_prof in this release"
        return
    prof.cfg_ctx = ctx
    out["native"] = None
    try:
        prof.enable_prof()
    finally:
        for call in c_prof.CALLS:
            if call["fn"] == "_start_profiler":
                config = call["args"][0]
                out["native"] = next((a for a in config.get("args", []) if isinstance(a, dict)
                                      and a.get("type") == "_ExperimentalConfig"), config)
                break


def _run_zoo_profile(case, ns, out):
    """torch_npu.utils.profiler.Profile: what it kept, and whether (after which step) it ended the process.
    Its end() calls sys.exit() after the profiled step: a SystemExit is an outcome here, not an error."""
    try:
        exec(compile(case["call"], "<case>", "exec"), ns)
    except SystemExit as ex:
        out["exit"] = {"code": ex.code, "after_step": len(ns.get("steps", []))}
    finally:
        p = ns.get("p")
        if p is not None:
            out["after"] = {"enable": p.enable, "profile_type": p.profile_type, "start_step": p.start_step,
                            "step_count": p.step_count, "save_path": p.save_path,
                            "prof": type(p.prof).__module__ + "." + type(p.prof).__name__
                            if hasattr(p, "prof") else None}
            p.count = 0         # its __del__ would call end() again at exit


# The calls into the C++ profiler that say what is collected, and the handler.
LIFECYCLE_CALLS = ("_init_profiler", "_warmup_profiler", "_start_profiler", "_stop_profiler",
                   "_finalize_profiler", "on_trace_ready")


def _first_line(text):
    return text.strip().splitlines()[0] if text.strip() else text


def _path_creator_state():
    mod = sys.modules.get("torch_npu.profiler._profiler_path_creator")
    if mod is None:
        return {}
    creator = getattr(mod, "ProfPathCreator", None)
    if creator is None:
        return {}
    try:
        inst = creator()
    except Exception:  # noqa: BLE001
        return {}
    out = {}
    for key in ("_dir_path", "_worker_name", "_is_export_only_mode"):
        if hasattr(inst, key):
            out[key.lstrip("_")] = _plain(getattr(inst, key))
    return out


def main():
    sandbox = os.path.realpath(sys.argv[1])
    if sys.path[0] != sandbox:
        sys.path.insert(0, sandbox)
    cases = json.load(sys.stdin)
    # The release is "installed" in the sandbox: some releases read their own
    # version.py from the first site-packages folder when a trace is saved.
    import site
    site_dirs = site.getsitepackages()
    site.getsitepackages = lambda *a, **k: [sandbox] + list(site_dirs)
    # Import once, before any fork: a release whose profiler does not import
    # under the stand-ins fails here, loudly, and records nothing.
    with contextlib.redirect_stdout(io.StringIO()):
        import torch_npu.profiler  # noqa: F401
        _dynamic_context()
    for case in cases:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            try:
                result = run_case(case, sandbox)
            except BaseException:  # noqa: BLE001
                result = {"oracle_error": traceback.format_exc()}
            data = json.dumps(result, sort_keys=True).encode()
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(data)
            os._exit(0)
        os.close(write_fd)
        with os.fdopen(read_fd, "rb") as fh:
            data = fh.read()
        os.waitpid(pid, 0)
        result = json.loads(data.decode()) if data else {"oracle_error": "no output"}
        result["case"] = case["case"]
        sys.stdout.write(json.dumps(result, sort_keys=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
