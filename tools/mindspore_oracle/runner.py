"""Runs MindSpore oracle cases against the release's profiler configuration code.

Started by record.py with ``sys.argv[1]`` a sandbox holding the release's
extracted ``mindspore/profiler`` and our stand-ins; reads the cases as JSON on
stdin, writes one JSON outcome per case on stdout. Each case runs in a forked
child in a fresh empty folder, as tools/torch_oracle/runner.py does.
"""
import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import traceback
import warnings

CLEARED_ENV = ("MS_PROFILER_OPTIONS", "RANK_ID", "RANK", "MSMONITOR_USE_DAEMON", "PROFILING_MODE",
               "ASCEND_WORK_PATH")


def _plain(value, depth=0):
    if depth > 4:
        return "<%s>" % type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "value") and hasattr(value, "name") and type(value).__module__.startswith("mindspore"):
        return "%s.%s" % (type(value).__name__, value.name)
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v, depth + 1) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if type(value).__name__ in ("Schedule", "_ExperimentalConfig"):
        return {"type": type(value).__name__, **_fields(value)}
    if callable(value):
        return "<callable>"
    return "<%s>" % type(value).__name__


def _fields(obj):
    return {k.lstrip("_"): _plain(v, 1) for k, v in sorted(vars(obj).items())}


class _Capture:
    def __init__(self):
        self.lines = []
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


class _LogToCapture(logging.Handler):
    def __init__(self, cap):
        super().__init__(logging.DEBUG)
        self.cap = cap

    def emit(self, record):
        self.cap.close()
        self.cap.lines.append("[%s] %s" % (record.levelname, record.getMessage()))


def _modules():
    import importlib
    names = {}
    const = importlib.import_module("mindspore.profiler.common.constant")
    for name in ("ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem"):
        names[name] = getattr(const, name)
    params = importlib.import_module("mindspore.profiler.common.profiler_parameters")
    names["ProfilerParameters"] = params.ProfilerParameters
    names["schedule"] = importlib.import_module("mindspore.profiler.schedule").Schedule
    names["_ExperimentalConfig"] = importlib.import_module("mindspore.profiler.experimental_config")._ExperimentalConfig
    names["ConfigContext"] = importlib.import_module(
        "mindspore.profiler.dynamic_profile.dynamic_profiler_config_context").DynamicProfilerConfigContext
    names["EnvProfiler"] = importlib.import_module("mindspore.profiler.envprofiler").EnvProfiler
    return names


def _normalise(text, sandbox, cwd):
    return text.replace(cwd, "<cwd>").replace(sandbox, "<sandbox>")


def run_case(case, sandbox):
    names = _modules()
    ns = dict(names)
    # What mindspore.Profiler(**kwargs) validates its keywords with
    # (ProfilerContext.set_params builds ProfilerParameters(**kwargs)).
    ns["Profiler"] = lambda **kwargs: names["ProfilerParameters"](**kwargs)
    cwd = tempfile.mkdtemp(prefix="case-")
    os.chdir(cwd)
    for key in CLEARED_ENV:
        os.environ.pop(key, None)
    cap = _Capture()
    root = logging.getLogger()
    root.handlers[:] = [_LogToCapture(cap)]
    root.setLevel(logging.INFO)
    warnings.showwarning = cap.showwarning
    warnings.simplefilter("always")
    out = {"raised": None}
    api = case["api"]
    with contextlib.redirect_stdout(cap), contextlib.redirect_stderr(io.StringIO()):
        try:
            if api == "dynamic_json":
                data = json.loads(case["call"])
                data["is_valid"] = True      # what the monitor adds once it has read the file
                ctx = names["ConfigContext"](data)
                out["after"] = _plain(ctx.to_dict())
                # What the monitor hands to the Profiler: its conversions warn here.
                args = dict(ctx.args)
                for internal in ("json_dict", "is_dyno"):
                    args.pop(internal, None)
                out["native"] = _plain(args)
            elif api == "path":
                out["after"] = _path_case(case["call"])
            elif api == "lifecycle":
                out["calls"] = _lifecycle(case["call"], names)
            elif api == "profiler":
                out["calls"], out["after"] = _profiler(case["call"], names, sandbox, cwd)
            elif api == "env":
                from mindspore.profiler import profiler as stand_in
                os.environ["MS_PROFILER_OPTIONS"] = case["call"]
                names["EnvProfiler"].init_profiler()
                out["calls"] = stand_in.CALLS
            else:
                value = eval(compile(case["call"], "<case>", "eval"), ns)
                out["after"] = _fields(value)
                if api == "ProfilerParameters":
                    out["native"] = _plain(value.npu_profiler_params)
                elif api == "schedule":
                    try:
                        out["after"]["actions"] = [value(i).name for i in range(12)]
                    except Exception as ex:  # noqa: BLE001
                        out["after"]["actions"] = "%s: %s" % (type(ex).__name__, ex)
        except Exception as ex:  # noqa: BLE001
            text = str(ex).strip().splitlines()
            out["raised"] = "%s: %s" % (type(ex).__name__, text[0] if text else "")
        cap.close()
    out["warnings"] = [_normalise(line, sandbox, cwd) for line in cap.lines if line.strip()]
    if api == "profiler":       # (the folders a started profiler names hold the hostname, pid and time)
        out["warnings"] = [_shown(line) for line in out["warnings"]]
        out["raised"] = out["raised"] and _shown(_normalise(out["raised"], sandbox, cwd))
    if "after" in out:
        out["after"] = json.loads(_normalise(json.dumps(out["after"], sort_keys=True), sandbox, cwd))
    return out


class _Interface:
    """Stands in for ProfilerInterface (its calls start the C++ collector): the controller's calls, in order."""
    calls = []


for _name in ("init", "start", "stop", "finalize", "clear", "delete_dir"):
    setattr(_Interface, _name, classmethod(lambda cls, _n=_name: cls.calls.append(_n)))


def _lifecycle(call, names):
    """What the real ProfilerActionController does over a run: started, stepped, stopped as
    mindspore/profiler/profiler.py's profile does (start: NONE -> schedule(0); step n: schedule(n-1) ->
    schedule(n); stop: the last -> None), with ProfilerInterface stood in for."""
    import types
    stand_in = types.ModuleType("mindspore.profiler.profiler_interface")
    stand_in.ProfilerInterface = _Interface
    sys.modules["mindspore.profiler.profiler_interface"] = stand_in
    import importlib
    controller_module = importlib.import_module("mindspore.profiler.profiler_action_controller")
    case = json.loads(call)
    schedule = eval(compile(case["schedule"], "<case>", "eval"), dict(names))
    calls = _Interface.calls
    controller = controller_module.ProfilerActionController(_Interface, lambda prof: calls.append("on_trace_ready"))
    current = schedule(0)
    none = type(current).NONE
    calls.append("start: %s" % current.name)
    controller.transit_action(none, current)
    for step in range(1, case["steps"] + 1):
        previous, current = current, schedule(step)
        calls.append("step %d: %s" % (step, current.name))
        controller.transit_action(previous, current)
    calls.append("profiler stop")          # (the interface's own calls are its method names: init, start, stop...)
    controller.transit_action(current, None)
    return list(calls)


class _Platform:
    """Stands in for a platform profiler (platform/cpu_profiler.py and npu_profiler.py drive the C++ collector):
    what ProfilerInterface asks of it, in order. A fixed hash fixes the order of ProfilerInterface's set."""
    target = ""
    calls = []

    def __hash__(self):
        return {"CPU": 1, "Ascend": 2}[self.target]


for _name in ("start", "stop", "analyse", "finalize"):
    setattr(_Platform, _name, lambda self, _n=_name, **kw: self.calls.append("%s %s" % (self.target, _n)))


def _profiler(call, names, sandbox, cwd):
    """The wheel's own profiler.py (Profiler, profile) and ProfilerInterface run `call`, with the platform
    profilers (the C++ collector), RecordFunction's recorder and the executor's sync stood in for; `mark(text)`
    puts the script's own steps among the calls. Returns the calls and the folders made under the case's cwd."""
    import gc
    import importlib
    import importlib.util
    import types
    import mindspore.profiler  # noqa: F401  (the stand-in package root: it imports the stand-in profiler.py)
    recorder = types.ModuleType("mindspore._c_expression")
    recorder.PythonProfilerRecorder = type("PythonProfilerRecorder", (), {
        "__init__": lambda self, name: None, "record_start": lambda self: None, "record_end": lambda self: None})
    sync = types.SimpleNamespace(sync=lambda: None)
    platform = types.ModuleType("mindspore.profiler.platform")
    platform.__path__ = [os.path.join(sandbox, "mindspore", "profiler", "platform")]   # (its __init__ loads C++)
    analysis = types.ModuleType("mindspore.profiler.platform.npu_profiler")
    analysis.NPUProfilerAnalysis = type("NPUProfilerAnalysis", (), {})
    sys.modules.update({"mindspore._c_expression": recorder, "mindspore.profiler.platform": platform,
                        "mindspore.profiler.platform.npu_profiler": analysis})
    for name in ("mindspore.graph", "mindspore.common"):      # (_pynative_executor's home differs by release)
        package, api = types.ModuleType(name), types.ModuleType(name + ".api")
        package.__path__, api._pynative_executor = [], sync
        sys.modules.setdefault(name, package)
        sys.modules.setdefault(name + ".api", api)
    registry = importlib.import_module("mindspore.profiler.common.registry").PROFILERS
    for target in ("CPU", "Ascend"):
        registry.modules[target] = type("Platform" + target, (_Platform,), {"target": target})
    spec = importlib.util.spec_from_file_location("mindspore.profiler.profiler",
                                                  os.path.join(sandbox, "wheel", "profiler.py"))
    real = importlib.util.module_from_spec(spec)
    sys.modules["mindspore.profiler.profiler"] = real
    spec.loader.exec_module(real)
    calls = _Platform.calls
    ns = {"Profiler": real.Profiler, "profile": real.Profile, "schedule": names["schedule"],
          "tensorboard_trace_handler": real.tensorboard_trace_handler, "mark": calls.append}
    exec(compile(call, "<case>", "exec"), ns)
    ns.clear()
    gc.collect()
    made = [_shown(os.path.relpath(os.path.join(dirpath, entry), cwd))
            for dirpath, dirs, files in os.walk(cwd) for entry in dirs + files]
    return list(calls), {"made": sorted(made)}


def _shown(path):
    """A path the profiler names, with the hostname, pid and UTC timestamp written <hostname>, <pid>, <timestamp>."""
    import re
    import socket
    path = path.replace(socket.gethostname() + "_", "<hostname>_").replace("_%d_" % os.getpid(), "_<pid>_")
    return re.sub(r"_\d{17}_ascend_ms", "_<timestamp>_ascend_ms", path)


def _path_case(call):
    """The folders the path code names for a profiler that starts after `call` (hostname, pid and the UTC
    timestamp written as <hostname>, <pid>, <timestamp>)."""
    from mindspore.profiler.common.profiler_context import ProfilerContext
    from mindspore.profiler.common.profiler_info import ProfilerInfo
    from mindspore.profiler.common.profiler_path_manager import ProfilerPathManager
    ctx, paths = ProfilerContext(), ProfilerPathManager()
    exec(compile(call, "<case>", "exec"), {"ctx": ctx, "paths": paths, "os": os})
    return {"output_path": ctx.output_path, "ascend_ms_dir": _shown(ctx.ascend_ms_dir),
            "framework_path": _shown(ctx.framework_path),
            "ascend_profiler_output_path": _shown(ctx.ascend_profiler_output_path),
            "rank_id": ctx._rank_id,        # (ProfilerInfo is wrapped in the package's Singleton: its class is _cls)
            "info_file": ProfilerInfo._cls.PROFILER_INFO_FILE.format(ctx._rank_id)}


def main():
    sandbox = os.path.realpath(sys.argv[1])
    if sys.path[0] != sandbox:
        sys.path.insert(0, sandbox)
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(io.StringIO()):
        _modules()
    for case in cases:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            try:
                result = run_case(case, sandbox)
            except BaseException:  # noqa: BLE001
                result = {"oracle_error": traceback.format_exc()}
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(json.dumps(result, sort_keys=True).encode())
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
