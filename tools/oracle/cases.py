"""The oracle's case set: profiling_options strings and msprof command lines to run through the
runtime's own validation code (see docs/oracle.md).

Generated cases cross every options key (and msprof flag) with value classes: valid values, each
kind of invalid value, wrong JSON types, empty, boundaries, lengths, non-ASCII. Collected cases are
every options string and msprof line of the project's examples, eval files, rule pages and the real
options strings in tests/data. The list is deterministic: the same source tree gives the same cases
in the same order, so the record regenerates byte-identical.
"""

from __future__ import annotations

import ast
import csv
import json
import re
import sys
from pathlib import Path
from typing import Dict, Iterator, List

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Every case runs in a fresh sandbox folder at this path (its working directory): outputs are
# created there, and "afile" in it is a regular file, for an output that cannot be a directory.
SANDBOX = "/tmp/npuprof-oracle"
OUT = f"{SANDBOX}/out"

SWITCH_VALUES = ["on", "off", "", "ON", "On", "Off", "true", "false", "1", "0", "yes", "enable", " on", "on ",
                 "l0", "l1", "l2", "l3", "L1", "l4", "开"]
JSON_TYPES = [True, False, 1, 0, None, [], {}, 1.5, ["on"]]
METRICS = ["ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0", "MemoryUB", "ResourceConflictRatio",
           "L2Cache", "MemoryAccess", "PipeUtilizationExct", "PipelineExecuteUtilization"]
METRIC_VALUES = METRICS + [
    "", "PipeUtilisation", "pipeutilization", "PIPEUTILIZATION", "Pipe", "MemoryL1", "MemoryUb", "None",
    "PipeUtilization ", "PipeUtilization,Memory",
    "Custom:0x1,0x2,0x3", "Custom:0x1,0x1", "Custom:0x0", "Custom:0x6E", "Custom:0x6F", "Custom:0x200",
    "Custom:1,2,3", "Custom:", "Custom:0xZZ", "Custom:0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8",
    "Custom:0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9",
    "Custom:" + ",".join(f"0x{i:x}" for i in range(1, 16)),          # 70 characters in all
    "Custom:" + ",".join(f"0x{i:x}" for i in range(1, 17)),          # over 70
    "custom:0x1",
]
HOST_SYS = ["cpu", "mem", "disk", "network", "osrt", "numa", "cpu,mem", "cpu,mem,disk,network,osrt", "cpu,numa",
            "cpu,mem,disk,network,osrt,numa", "", "gpu", "cpu,gpu", "cpu,,mem", "cpu, mem", "CPU", "cpu,cpu",
            "cpu,"]
HOST_SYS_USAGE = ["cpu", "mem", "cpu,mem", "", "disk", "cpu,disk", "CPU", "mem,cpu"]
LLC = ["read", "write", "capacity", "bandwidth", "", "READ", "on", "readwrite"]
STORAGE = ["200MB", "199MB", "500MB", "4294967295MB", "4294967296MB", "100", "100MB", "0MB", "1GB", "500mb",
           "500 MB", " 500MB", "abcMB", "", "MB", "5000GB", "-500MB", "+500MB", "0500MB", "1.5MB"]
FREQ = {  # key: (low, high) as the collectors are read; the cases go around both ends
    "sys_hardware_mem_freq": (1, 100), "sys_io_sampling_freq": (1, 100), "sys_interconnection_freq": (1, 50),
    "dvpp_freq": (1, 100), "host_sys_usage_freq": (1, 50), "sys_lp_freq": (1, 100),
    "instr_profiling_freq": (300, 30000),
}
POINTS = ["", "conv1/Conv2D", "gradients/conv1/Conv2D_grad/Conv2DBackpropFilter", "resnet_model/conv2d/Conv2D",
          "节点/Conv2D", "a" * 300, " ", "*", "fp;rm -rf"]
OUTPUTS = [OUT, "./prof", "prof", "", f"{OUT}/", f"{OUT}/a b", f"{OUT}/50%", f"{OUT}/a;b", f"{OUT}/$HOME",
           f"{OUT}/a'b", f"{OUT}/a\"b", f"{OUT}/a\\b", f"{OUT}/a<b", f"{OUT}/a>b", f"{OUT}/a|b", f"{OUT}/a&b",
           f"{OUT}/a`b", f"{OUT}/a\tb", f"{OUT}/a\nb", f"{OUT}/数据", f"{OUT}/~x", f"{SANDBOX}/afile/sub",
           f"{OUT}/" + "d" * 1000, f"{OUT}/" + "d" * 1100, "~/prof", f"{OUT}/../out2"]
UNKNOWN_KEYS = ["L2", "Task_trace", "task-trace", "tasktrace", "aic-metrics", "trainingTrace", "taskTrace",
                "aicMetrics", "fpPoint", "bpPoint", "storageLimit", "hostSys", "ge_api", "aicpu_trace",
                "profiling_mode", "scale", "op_trace", "task_tsfw", "sys_mem_serviceflow", "power",
                "aiv_metrics", "aivMetrics", "runtimeApi", "hostSysUsage", "hostSysUsageFreq", "dvppFreq",
                "instrProfilingFreq", "sysHardwareMemFreq", "sysIoSamplingFreq", "sysInterconnectionFreq",
                "llcProfiling", "taskTime", "ascendcl", "ai_core", "output_dir", "", " output", "OUTPUT"]
SWITCH_KEYS = ["training_trace", "task_trace", "task_time", "aicpu", "hccl", "l2", "msproftx", "runtime_api",
               "instr_profiling", "task_block", "task_memory", "fwk_schedule", "task_tsfw", "sys_mem_serviceflow",
               "ge_api", "power"]


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _with(base: dict, key: str, value) -> str:
    doc = dict(base)
    doc[key] = value
    return _dump(doc)


def generated_options() -> Iterator[dict]:
    base = {"output": OUT}
    traced = {"output": OUT, "training_trace": "on", "task_trace": "on"}
    for key in SWITCH_KEYS:
        for value in SWITCH_VALUES + JSON_TYPES:
            yield {"input": _with(base, key, value), "origin": f"generated: {key} switch values"}
    for value in METRIC_VALUES + JSON_TYPES:
        yield {"input": _with(base, "aic_metrics", value), "origin": "generated: aic_metrics"}
        yield {"input": _with(traced, "aic_metrics", value), "origin": "generated: aic_metrics with traces"}
    for value in METRIC_VALUES[:12] + ["", "Custom:0x1,0x2"]:
        yield {"input": _with(base, "aiv_metrics", value), "origin": "generated: aiv_metrics"}
    for key, values in (("host_sys", HOST_SYS), ("host_sys_usage", HOST_SYS_USAGE), ("llc_profiling", LLC),
                        ("storage_limit", STORAGE)):
        for value in values + JSON_TYPES:
            yield {"input": _with(base, key, value), "origin": f"generated: {key}"}
    for key, (lo, hi) in FREQ.items():
        numbers = sorted({0, 1, 2, lo - 1, lo, lo + 1, 10, 50, 51, 100, 101, hi - 1, hi, hi + 1, 1000, 10000,
                          10001, 30000, 30001, -1, 2 ** 31, 2 ** 32})
        values = numbers + [str(lo), str(hi), "5", "abc", "", 1.5, 100.0, True, None, "1e3", " 10"]
        for value in values:
            if key == "instr_profiling_freq":
                for switch in ("on", "off", None):
                    doc = dict(base)
                    if switch is not None:
                        doc["instr_profiling"] = switch
                    doc[key] = value
                    yield {"input": _dump(doc), "origin": f"generated: {key} (instr_profiling {switch})"}
            else:
                yield {"input": _with(base, key, value), "origin": f"generated: {key}"}
    for key in ("fp_point", "bp_point"):
        for value in POINTS + JSON_TYPES:
            yield {"input": _with(traced, key, value), "origin": f"generated: {key} with training_trace"}
            yield {"input": _with(base, key, value), "origin": f"generated: {key} without training_trace"}
    for value in OUTPUTS + JSON_TYPES:
        yield {"input": _dump({"output": value, "task_trace": "on"}), "origin": "generated: output"}
    yield {"input": _dump({"task_trace": "on"}), "origin": "generated: no output"}
    for key in UNKNOWN_KEYS:
        yield {"input": _with(base, key, "on"), "origin": "generated: key spellings"}
    for key in ("instr_profiling", "instr_profiling_freq"):   # instruction sampling with other collections
        for other in ("task_trace", "training_trace", "aicpu", "l2", "aic_metrics"):
            doc = {"output": OUT, "instr_profiling": "on", "instr_profiling_freq": 1000}
            doc[other] = "PipeUtilization" if other == "aic_metrics" else "on"
            if key == "instr_profiling_freq":
                del doc["instr_profiling"]
            yield {"input": _dump(doc), "origin": "generated: instr_profiling with other switches"}
    yield from _documents()


def _documents() -> Iterator[dict]:
    """Whole strings: syntax, structure, sizes."""
    good = _dump({"output": OUT, "training_trace": "on", "task_trace": "on", "fp_point": "", "bp_point": ""})
    texts = [
        "", " ", "{}", "[]", "null", "1", '"on"', "{", good[:-1], good + ",", good + "x", good + "\n", " " + good,
        "{'output': '%s', 'task_trace': 'on'}" % OUT, '{"output":"%s","task_trace":"on",}' % OUT,
        '{"output":"%s","task_trace":on}' % OUT, '{"output":"%s","task_trace":True}' % OUT,
        '{"output":"%s","task_trace":"on","task_trace":"off"}' % OUT,
        '{"output":"%s","task_trace":"on","training_trace":"on","training_trace":"off"}' % OUT,
        '{"output":"%s","output":"./prof","task_trace":"on"}' % OUT,
        "output:%s:task_trace:on:training_trace:on" % OUT, "task_trace:training_trace",
        '{"output":"%s","task_trace":"on"} {"aicpu":"on"}' % OUT,
        '{"output":"%s","task_trace":"on","nested":{"a":1}}' % OUT,
        '{"output":"%s", "task_trace" : "on" }' % OUT, '\ufeff{"output":"%s","task_trace":"on"}' % OUT,
        '{"output":"%s","task_trace":"\\u006fn"}' % OUT,
        '{"output":"%s","task_trace":"on","training_trace":"on","fp_point":"","bp_point":"","aicpu":"on",'
        '"hccl":"on","l2":"on","msproftx":"on","runtime_api":"on","aic_metrics":"PipeUtilization"}' % OUT,
        '{"output":"%s","task_trace":"off","training_trace":""}' % OUT,
        '{"output":"%s"}' % OUT,
        '{"output":"%s","training_trace":"on"}' % OUT,
        '{"output":"%s","training_trace":"on","fp_point":"a"}' % OUT,
        # JSON that Python reads and nlohmann may not, and the reverse
        '{"output":"%s","task_trace":"on","fp_point":"\\ud800"}' % OUT,
        '{"output":"%s","task_trace":"on","fp_point":"\\udc00x"}' % OUT,
        '{"output":"%s","task_trace":"on","fp_point":"\\ud800\\udc00"}' % OUT,
        '{"output":"%s","task_trace":"on","x":NaN}' % OUT,
        '{"output":"%s","task_trace":"on","x":%s%s}' % (OUT, "[" * 900, "]" * 900),
        '{"output":"%s","task_trace":"on","aicpu":"o\\u006e"}' % OUT,
        '{"output":"%s","task_trace":"on","aicpu":"on","aicpu":"bad"}' % OUT,
        '{"output":"%s","task_trace":"on","aicpu":"bad","aicpu":"on"}' % OUT,
        '{"output":"%s","task_trace":"on","sys_cpu_freq":10}' % OUT,
        '{"output":"%s","task_trace":"on","dvpp_freq":1e2}' % OUT,
        '{"output":"%s","task_trace":"on","dvpp_freq":-0}' % OUT,
    ]
    for n in (2000, 2046, 2047, 2048, 2100, 5000):
        pad = n - len(_dump({"output": OUT, "task_trace": "on", "fp_point": ""}))
        texts.append(_dump({"output": OUT, "task_trace": "on", "fp_point": "x" * max(pad, 0)}))
    for text in texts:
        yield {"input": text, "origin": "generated: whole string"}
    for text in _key_forms():
        yield {"input": text, "origin": "generated: key forms GE and the collector read differently"}


def _key_forms() -> List[str]:
    """Keys GE (nlohmann: decodes escapes, keeps blanks) and the collector (NanoJson: trims the key,
    decodes nothing) may read as different names; duplicates, byte-order marks, nested escapes. Written
    as raw text: an escape written here is its six characters in the input."""
    out = '"output":"%s"' % OUT
    keys = [r" ge_api", r" sys_cpu_freq", "\tge_api", r"ge_api ", r" ge_api ", "\nge_api", r" task_trace",
            r" training_trace", r" aic_metrics", r" l2", r" output", r"task _trace", r"\u0074raining_trace",
            r"task_trace\u0000", r"\u0074ask_trace", r"\u0067e_api", r"\u0054ask_trace", r"\u0020ge_api",
            r"\u0009ge_api", r"ge_api\u0020", r"\\u0074ask_trace", r"\u005cu0074ask_trace", r"task_trace\\"]
    # not r'task\"_trace': NanoJson cuts the key at the escaped quote, fails on what follows and frees the
    # previous value's string a second time (GetJsonObj reuses tmp after storing a copy of it): the process
    # dies (SIGSEGV in the oracle at every tag), undefined behaviour the record cannot hold as an outcome
    texts = []
    for key in keys:
        value = '"PipeUtilization"' if "aic_metrics" in key else "10" if "freq" in key else '"on"'
        texts.append('{%s,"%s":%s}' % (out, key, value))
    texts += [
        '{%s," sys_cpu_freq":"on"}' % out, '{%s," ge_api":"off"}' % out, '{%s," ge_api":"bad"}' % out,
        '{%s," training_trace":"off"}' % out, r'{%s,"\u0074raining_trace":"off"}' % out,
        r'{%s,"ge_api":"o\u006e"}' % out, r'{%s,"task_trace":"on\u0000"}' % out,
        r'{%s,"task_trace":"\u006f\u006e"}' % out, r'{%s,"task_trace":"\\u006fn"}' % out,
        r'{"\u006futput":"%s","task_trace":"on"}' % OUT, '{"output":"%s","task_trace":"on"}' % OUT.replace("/", "\\/"),
        '{%s,"ge_api":"on","ge_api":"bad"}' % out, '{%s,"ge_api":"bad","ge_api":"on"}' % out,
        '{%s," ge_api":"on","ge_api":"on"}' % out, '{%s,"ge_api":"on"," ge_api":"bad"}' % out,
        r'{%s,"task_trace":"on","\u0074ask_trace":"bad"}' % out, r'{%s,"\u0074ask_trace":"bad","task_trace":"on"}' % out,
        '\ufeff{%s," ge_api":"on"}' % out, ' \ufeff{%s,"task_trace":"on"}' % out, "\ufeff",
        '\ufeff\ufeff{%s,"task_trace":"on"}' % out, '{\ufeff%s,"task_trace":"on"}' % out,
    ]
    return texts


def _literal_strings(path: Path) -> Iterator[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            value = node.value.decode("utf-8", "replace") if isinstance(node.value, bytes) else node.value
            yield value


_OPTIONS_LIKE = re.compile(r'^\s*\{.*"(output|task_trace|training_trace|aic_metrics|aicpu)"', re.S)
_OUTPUT_VALUE = re.compile(r'("output"\s*:\s*")((?:[^"\\]|\\.)*)(")')


def sandboxed(text: str) -> str:
    """A real options string with its output directory moved into the sandbox: what is checked is
    everything else (the output cases above check directories)."""
    return _OUTPUT_VALUE.sub(lambda m: m.group(1) + OUT + m.group(3), text, count=1)


def _rule_sources() -> Iterator[tuple]:
    from flake8_npuprof.checks.catalog import RULES
    for rule in RULES:
        for field in ("example", "fixed"):
            code = getattr(rule, field) or ""
            if code:
                yield f"rule page {rule.code} {field}", code, getattr(rule, "language", "python")


def collected_options() -> Iterator[dict]:
    seen = set()
    files = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "tests" / "eval_files").glob("*.py"))
    for path in files:
        for text in _literal_strings(path):
            if _OPTIONS_LIKE.match(text) and text not in seen:
                seen.add(text)
                yield {"input": sandboxed(text), "origin": str(path.relative_to(ROOT))}
    for origin, code, language in _rule_sources():
        if language != "python":
            continue
        tmp = ROOT / "build" / "oracle-rule.py"
        tmp.parent.mkdir(exist_ok=True)
        tmp.write_text(code, encoding="utf-8")
        for text in _literal_strings(tmp):
            if _OPTIONS_LIKE.match(text) and text not in seen:
                seen.add(text)
                yield {"input": sandboxed(text), "origin": origin}
    with open(ROOT / "tests" / "data" / "real_options_strings.tsv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            text = row["options_string"]
            if text not in seen:
                seen.add(text)
                yield {"input": sandboxed(text), "origin": "tests/data/real_options_strings.tsv: "
                       + row["source_repo_path"]}


ENV_CASES = [  # PROFILING_MODE=true with PROFILING_OPTIONS as given (None: unset), GE options not set
    None, "", '{"output":"%s","task_trace":"on"}' % OUT, '{"output":"%s","training_trace":"off"}' % OUT,
    '{"output":"%s","L2":"on"}' % OUT, "{", '{"output":"%s","task_time":"on"}' % OUT,
]


def options_cases() -> List[dict]:
    out, seen = [], set()
    for case in list(generated_options()) + list(collected_options()):
        if case["input"] in seen:
            continue
        seen.add(case["input"])
        out.append(dict(case, kind="options", route="ge"))
    for value in ENV_CASES:
        out.append({"kind": "options", "route": "env", "input": value, "origin": "generated: environment route"})
    return out


# ---------------------------------------------------------------- msprof command lines

MSPROF_SWITCHES = ["ascendcl", "ai-core", "ai-vector-core", "model-execution", "runtime-api", "task-memory",
                   "aicpu", "msproftx", "sys-cpu-profiling", "sys-profiling", "sys-pid-profiling",
                   "sys-hardware-mem", "sys-io-profiling", "sys-interconnection-profiling", "dvpp-profiling",
                   "hccl", "instr-profiling", "l2", "task-time", "ge-api", "task-block", "sys-lp", "power", "scale",
                   "dynamic", "training-trace", "task-trace"]
MSPROF_SWITCH_VALUES = ["on", "off", "ON", "true", "", "l0", "l1", "l2", "l3", "1"]
MSPROF_FREQS = ["aic-freq", "aiv-freq", "sys-io-sampling-freq", "dvpp-freq", "sys-sampling-freq",
                "sys-pid-sampling-freq", "sys-cpu-freq", "sys-interconnection-freq", "sys-hardware-mem-freq",
                "host-sys-usage-freq", "instr-profiling-freq", "sys-lp-freq", "l2-freq", "biu-freq"]
MSPROF_FREQ_VALUES = ["0", "1", "5", "10", "11", "50", "51", "100", "101", "299", "300", "1000", "5000", "10000",
                      "10001", "30000", "30001", "-1", "abc", "+5", "1.5", ""]
MSPROF_LISTS = {"host-sys": HOST_SYS, "host-sys-usage": HOST_SYS_USAGE, "llc-profiling": LLC,
                "aic-metrics": METRIC_VALUES, "aiv-metrics": METRIC_VALUES[:12] + ["Custom:0x1,0x2"],
                "aic-mode": ["task-based", "sample-based", "task", "", "TASK-BASED"],
                "aiv-mode": ["task-based", "sample-based", "task"],
                "storage-limit": STORAGE, "summary-format": ["csv", "json", "xml", ""],
                "type": ["text", "db", "csv", ""], "reports": ["x.json"], "sys-devices": ["0", "all", "0,1", "a", ""],
                "mstx-domain-include": ["default", ""], "export": ["on", "off", "x"], "python-path": ["/usr/bin/python3"]}
MSPROF_UNKNOWN = ["--timeline=on", "--aic_metrics=PipeUtilization", "--aicore=on", "--unknown-flag=on",
                  "--out=" + OUT, "--outp", "--task", "--ai", "-o", "--help", "--training-trace=on"]
APP = ["--application=/bin/true"]


def msprof_cases() -> List[dict]:
    out = []
    base = ["--output=" + OUT] + APP

    def add(args, origin, argv=None):
        out.append({"kind": "msprof", "argv": argv if argv is not None else base + args, "origin": origin})

    for flag in MSPROF_SWITCHES:
        for value in MSPROF_SWITCH_VALUES:
            add([f"--{flag}={value}"], f"generated: --{flag}")
        add([f"--{flag}"], f"generated: --{flag} without value")
        add([f"--{flag}", "on"], f"generated: --{flag} value as next word")
    for flag in MSPROF_FREQS:
        for value in MSPROF_FREQ_VALUES:
            add([f"--{flag}={value}"], f"generated: --{flag}")
    for flag, values in MSPROF_LISTS.items():
        for value in values:
            add([f"--{flag}={value}"], f"generated: --{flag}")
    for extra in ([], ["--sys-devices=0"]):
        for value in LLC:
            add(extra + [f"--llc-profiling={value}"], "generated: --llc-profiling with --sys-devices")
    for arg in MSPROF_UNKNOWN:
        add([arg], "generated: option spellings")
    for value in OUTPUTS:
        if value:
            add([], "generated: --output", ["--output=" + value] + APP)
    add([], "generated: --output empty", ["--output="] + APP)
    add([], "generated: --output as next word", ["--output", OUT] + APP)
    add([], "generated: no output", APP)
    add([], "generated: python application", ["--output=" + OUT, "python3", "train.py"])
    add([], "generated: python application, missing script", ["--output=" + OUT, "python3", "missing.py"])
    add([], "generated: application not found", ["--output=" + OUT, "--application=/no/such/app"])
    add([], "generated: storage limit as next word", ["--output=" + OUT, "--storage-limit", "500MB"] + APP)
    add([], "generated: no arguments", [])
    for args, origin in _msprof_parser_cases():
        add(args, origin)
    for argv, origin in _msprof_lines():
        add([], origin, argv)
    for case in collected_msprof():
        out.append(case)
    seen, unique = set(), []
    for case in out:
        key = json.dumps(case["argv"])
        if key not in seen:
            seen.add(key)
            unique.append(case)
    return unique


def _long_options() -> List[str]:
    """Every long option of every tag's LONG_OPTIONS (include/input_parser.h), as msprof's table spells it."""
    with open(ROOT / "flake8_npuprof" / "data" / "msprof_parser.json", encoding="utf-8") as fh:
        table = json.load(fh)["versions"]
    names: List[str] = []
    for facts in table.values():
        for name, *_ in facts["long_options"]:
            if name.strip() not in names:
                names.append(name.strip())
    return names


def _msprof_parser_cases() -> Iterator[tuple]:
    """Each option of the parser with a value no check takes, an empty one, none at the end and none in the
    middle; then the values of the options the switch and list cases above do not reach."""
    for name in _long_options():
        for args in ([f"--{name}=@x"], [f"--{name}="], [f"--{name}"], [f"--{name}", "--ascendcl=on"]):
            yield args, f"generated: long option --{name}"
    values = {
        "pid": ["1", "123", "0", "x", "1,2"], "delay": ["0", "1", "4294967295", "4294967296", "x", "-1"],
        "duration": ["0", "1", "4294967295", "4294967296", "x"],
        "sys-period": ["0", "1", "2592000", "2592001", "x", "2147483648"],
        "environment": ["A=1"], "python-path": ["/no/such/python", "d" * 1030, "/tmp", SANDBOX + "/train.py"],
        "rule": ["communication", "communication_matrix", "communication,", "x", "communication,x"],
        "iteration-id": ["1", "x", "-1", "4294967296"], "model-id": ["-1", "0", "1"],
        "host-sys-pid": ["1", "x", "-1", "999999999"], "nts-metrics": ["PipeUtilization", "Custom:0x1"],
        "optype": ["Conv2D", "Conv2D,MatMul"], "scale": ["opType:Conv2D", "opName:a;opType:b"],
        "invalid": ["1"], "help": ["x"], "export": ["on", "off"], "sys-lp-freq": ["1", "100", "101", "0"],
        "reports": ["/no/such.json"], "type": ["db"], "summary-format": ["json"],
        "application": ["", "python3", "python3 train.py", "bash run.sh", "./a.out", "/bin/tr@ue", "/bin/true x",
                        "/no/such/app", " /bin/true", "/usr/bin/python3 train.py", "/usr/bin/python3", "/tmp", "bash",
                        "python3 missing.py", "./train.py", "/bin/true  x"],
        "storage-limit": ["200MB", "4294967295MB"],
    }
    for name, vs in values.items():
        for value in vs:
            yield [f"--{name}={value}"], f"generated: --{name} values"
    for args in (["--nts-metrics", "PipeUtilization"], ["--nts-metrics", "--ascendcl=on"],
                 ["--dynamic=on"], ["--dynamic=on", "--pid=1"], ["--dynamic=off", "--pid=1"], ["--pid=1"],
                 ["--dynamic=on", "--sys-devices=0"], ["--dynamic=on", "--sys-period=10"],
                 ["--dynamic=on", "--sys-cpu-profiling=on"], ["--dynamic=on", "--delay=10", "--duration=10"],
                 ["--msproftx=on", "--mstx-domain-include=a", "--mstx-domain-exclude=b"],
                 ["--msproftx=on", "--mstx-domain-include=default"], ["--msproftx=on", "--mstx-domain-exclude="],
                 ["--msproftx=off", "--mstx-domain-include=x"], ["--mstx-domain-exclude=x"],
                 ["--aic-metric=Foo"], ["--aic-metric=PipeUtilization"], ["--task-t=l3"], ["--stor=100MB"],
                 ["--app=/bin/true"], ["--exp=on"], ["--hel"], ["--h"], ["--inv"], ["--ai-c=x"],
                 ["--export=on", "--type=db"], ["--parse=on"], ["--query=on"], ["--analyze=on", "--rule=x"],
                 ["--ascendcl", "--task-time=on"], ["--task-time=on", "--task-time=x"],
                 ["--aic-metrics=Custom:0x1, 0x2"], ["--aic-metrics=Custom:0X1"], ["--aic-metrics=Custom:00x1"],
                 ["--aic-metrics=Custom:2147483648"], ["--aic-metrics=" + "x" * 71],
                 ["--host-sys=osrt"], ["--host-sys=disk"], ["--host-sys=cpu,osrt"], ["--sys-devices=63"],
                 ["--sys-devices=64"], ["--sys-devices=0,"], ["--sys-devices=all,0"], ["--sys-devices=-1"],
                 ["--ascendcl=" + "x" * 1100]):
        yield args, "generated: msprof option combinations"


def _msprof_lines() -> Iterator[tuple]:
    """Whole lines: where msprof's words end and the application begins, options before --output,
    the analysis modes with an output that exists."""
    for argv in (
            ["--host-sys=osrt", "--output=" + OUT] + APP, ["--host-sys=osrt", "--output=" + OUT, "python3", "train.py"],
            ["--output=" + OUT, "--host-sys=cpu", "python3", "train.py"],
            ["--output=" + OUT, "--ascendcl", "--task-time", "python3", "train.py"],
            ["--output=" + OUT, "--ascendcl", "--task-time=on", "python3", "train.py"],
            ["--output=" + OUT, "--sys-devices", "-1"] + APP,
            ["--output=" + OUT, "--aicpu", "-x", "python3", "train.py"],
            ["--output=" + OUT, "--", "--ascendcl=x"] + APP, ["--output=" + OUT, "--ascendcl=on", "--"],
            ["--output=" + OUT, "python3"], ["--output=" + OUT, "--ascendcl=on", "-", "train.py"],
            ["--output=" + SANDBOX, "--export=on"] + APP, ["--output=" + SANDBOX, "--parse=on"] + APP,
            ["--output=" + OUT, "--storage-limit"], ["--output=" + OUT, "--storage-limit"] + APP,
            ["--output=" + OUT, "--pid"], ["--output=" + OUT, "--output"] + APP,
            ["--output=" + OUT, "--ai-core", "on", "--aic-metrics", "Memory", "python3", "train.py"],
            ["--output=" + OUT, "--dynamic=on", "python3", "train.py"],
            ["--output=" + OUT, "--help", "--ascendcl=x"] + APP, ["--output=" + OUT, "--ascendcl=x", "--help"] + APP,
            ["--dynamic=on"], ["--output=" + OUT, "--storage-limit", "500MB", "python3", "train.py"],
            ["--output=./prof", "--application=./train.py"], ["--application=python3 train.py", "--output=" + OUT]):
        yield argv, "generated: msprof lines"


def collected_msprof() -> Iterator[dict]:
    from flake8_npuprof.checks import msprof as M
    paths = sorted((ROOT / "examples").rglob("*.sh")) + [ROOT / "tests" / "data" / "launcher_mistakes.sh"]
    for path in paths:
        for argv in _argvs(M, path.read_text(encoding="utf-8")):
            yield {"kind": "msprof", "argv": argv, "origin": str(path.relative_to(ROOT))}
    for origin, code, language in _rule_sources():
        if language == "shell":
            for argv in _argvs(M, code):
                yield {"kind": "msprof", "argv": argv, "origin": origin}


def _argvs(M, text: str) -> Iterator[List[str]]:
    """Each complete msprof call's argv, its output moved into the sandbox and its application replaced
    by one that exists there (what is checked is msprof's own options)."""
    from flake8_npuprof.source.text import HOLE
    for call in M.calls_in_shell(text):
        argv = []
        for opt in call.options:
            if opt.name == "output" and opt.value is not None:
                argv.append("--output=" + OUT)
            elif opt.name == "application":
                argv.append(APP[0])
            else:
                argv.append(opt.word.text)
                if opt.detached is not None:
                    argv.append(opt.detached.text)
        if not call.complete or any(HOLE in a for a in argv):
            continue
        has_app = any(o.name == "application" for o in call.options)
        python = call.app and "python" in call.app[0]
        yield argv + ([] if has_app else ["python3", "train.py"] if python else APP)


def all_cases() -> Dict[str, List[dict]]:
    return {"options": options_cases(), "msprof": msprof_cases()}


if __name__ == "__main__":
    cases = all_cases()
    print({k: len(v) for k, v in cases.items()})
