"""Run the case set through the oracles and write the record (tests/oracle/<tag>.jsonl).

    python tools/oracle/record.py --build BUILD_DIR [--tags v9.1.0 ...] [--out tests/oracle] [--kinds options]

BUILD_DIR holds one folder per oracle and tag, as docs/oracle.md describes: ge-<tag>/ge_oracle (GE's
ProfilingInit::Init in front of the collector's ProfAclMgr::MsprofInitGeOptions) and
msprof-<tag>/msprof_oracle (msprof's start-up and InputParser::MsprofGetOpts), each with the
source.json its build wrote (repositories, tags, commits, translation units). This script builds
nothing: the oracles are built outside the project, from the runtime's public source.

Each case runs once per chip in a fresh sandbox folder. The record keeps, per input, the outcome of
every chip grouped by identical outcomes: the verdict, the return code, and the lines a user sees
(errors, warnings, error-manager reports, msprof's own messages), normalised so that the record
regenerates byte-identical (thread ids, PROF_* folder names and the oracle's path are replaced).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cases as C  # noqa: E402

ROOT = C.ROOT
TAGS = ("v8.5.0", "v9.0.0", "v9.1.0")
# product (as --npuprof-soc names it) -> the PlatformType the collector reads from the driver
# (config_manager.h PlatformType; docs/oracle.md cites each). 910C has no id of its own in any
# public source: it is checked against the 910B's outcomes, a documented inference.
CHIPS = {"310": 0, "910": 1, "310P": 4, "910B": 5, "310B": 7, "950": 15}
KEEP = ("ERROR", "WARN", "REPORT")
_TID = re.compile(r" ?\(tid:\d+\) ?")
_PROF = re.compile(r"PROF_\d+_\d+_[0-9A-Za-z]+")
# A JSON true where the collector reads a frequency: NanoJson stores the bool in one byte of its value
# union and GetValue<uint32_t> reads the whole integer (common/json/json.h, json.cpp), so the number it
# checks and logs is 1 plus whatever the other bytes held: it changes from run to run (it was never in
# range in any run we made). The record keeps the message with the number replaced.
_UNINIT = re.compile(r"(Argument \w+_freq: invalid value: |instr_profiling_freq |config=\w+_freq\x1fvalue=)\d+")


class OracleError(RuntimeError):
    pass


def _sandbox() -> Path:
    box = Path(C.SANDBOX)
    shutil.rmtree(box, ignore_errors=True)
    box.mkdir(parents=True)
    (box / "afile").write_text("not a folder\n")
    (box / "train.py").write_text("print('train')\n")
    return box


def _normalise(text: str, binary: str) -> str:
    text = _TID.sub(" ", text).replace(binary, "msprof")
    return _PROF.sub("PROF_<id>", text).strip()


def _env(chip: int, extra=None) -> dict:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": C.SANDBOX, "ORACLE_CHIP": str(chip)}
    env.update(extra or {})
    return env


def _after(events, marker):
    """Events from the entry point on: what platform start-up logs (the stand-in driver's
    unsupported queries) is the same for every case and is left out."""
    for i, (kind, text) in enumerate(events):
        if kind == "STAGE" and text == marker:
            return events[i:]
    raise OracleError(f"no {marker!r} stage in the oracle's output")


def _true_frequency(text) -> bool:
    try:
        doc = json.loads(text or "")
    except ValueError:
        return False
    return isinstance(doc, dict) and any(k.endswith("_freq") and v is True for k, v in doc.items())


def run_options(binary: str, case: dict, chip: int) -> dict:
    box = _sandbox()
    extra = {}
    text = case["input"]
    if case["route"] == "env":
        extra = {"ORACLE_VIA_ENV": "1", "PROFILING_MODE": "true"}
        if text is not None:
            extra["PROFILING_OPTIONS"] = text
        text = ""
    path = box / ".options"
    path.write_bytes(text.encode("utf-8"))
    proc = subprocess.run([binary, str(path)], cwd=box, env=_env(chip, extra), capture_output=True, timeout=60)
    out = proc.stdout.decode("utf-8", "replace")
    if '"unresolved"' in out or proc.returncode != 0:
        raise OracleError(f"{binary} on {case!r} (chip {chip}) ended with {proc.returncode}: {out[-400:]}"
                          f"{proc.stderr.decode('utf-8', 'replace')[-400:]}")
    result = json.loads(out.strip().splitlines()[-1])
    events = _after([tuple(e) for e in result["events"]], "ge")
    state = dict(kv.split("=", 1) for e in events if e[0] == "GE_STATE" for kv in e[1].split("\x1f"))
    stages = [e[1] for e in events if e[0] == "STAGE"]
    lines = [f"{kind} {_normalise(text, binary)}" for kind, text in events if kind in KEEP]
    if _true_frequency(case["input"]):
        lines = [_UNINIT.sub(r"\1<uninitialised>", line) for line in lines]
    if result["ret"] != 0:
        verdict = "rejected"
    elif state.get("execute") != "1":
        verdict = "off"
    else:
        verdict = "accepted-logged" if lines else "accepted"
    return {"verdict": verdict, "ret": result["ret"], "reached": stages[-1], "lines": lines,
            "ge": {k: state[k] for k in ("training_trace", "fp_point", "bp_point") if k in state}}


_SHOWN = re.compile(r"^\[(ERROR|WARNING|WARN)\]|unrecognized option|requires an argument|invalid option|ambiguous|"
                    r"doesn't allow an argument")


def run_msprof(binary: str, case: dict, chip: int) -> dict:
    box = _sandbox()
    result_path = box / ".result"
    proc = subprocess.run([binary, *case["argv"]], cwd=box, env=_env(chip, {"ORACLE_RESULT": str(result_path)}),
                          capture_output=True, timeout=60)
    text = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if '"unresolved"' in text:
        raise OracleError(f"{binary} on {case['argv']!r} (chip {chip}) reached code the oracle lacks: {text[-600:]}")
    if proc.returncode < 0 and not result_path.exists():
        # msprof's own code ended the process (an uncaught exception: std::terminate): a real outcome
        shown = [_normalise(line, binary) for line in text.splitlines() if line.strip()][-2:]
        return {"verdict": "crash", "signal": -proc.returncode, "usage": False, "shown": shown, "lines": []}
    if not result_path.exists():
        raise OracleError(f"{binary} on {case['argv']!r} (chip {chip}) ended with {proc.returncode}: {text[-600:]}")
    result = json.loads(result_path.read_text())
    events = _after([tuple(e) for e in result["events"]], "parse")
    shown = [_normalise(line, binary) for line in text.splitlines() if _SHOWN.search(line)]
    logged = [f"{kind} {_normalise(t, binary)}" for kind, t in events if kind in KEEP]
    return {"verdict": result["parsed"], "usage": "Usage:" in text, "shown": shown, "lines": logged}


def _grouped(outcomes: dict) -> list:
    groups = []
    for product, outcome in outcomes.items():
        for group in groups:
            if group["outcome"] == outcome:
                group["chips"].append(product)
                break
        else:
            groups.append({"chips": [product], "outcome": outcome})
    return [dict(chips=g["chips"], **g["outcome"]) for g in groups]


def _platform_exists(binary: str, chip: int) -> bool:
    """Whether the build has a platform class for the chip (the open 8.5.0 trees lack some: the
    collector then runs without one, as no shipped build does)."""
    case = {"route": "ge", "input": C._dump({"output": C.OUT})}
    box = _sandbox()
    (box / ".options").write_text(case["input"])
    proc = subprocess.run([binary, str(box / ".options")], cwd=box, env=_env(chip), capture_output=True, timeout=60)
    return b"Profiling platform init failed" not in proc.stdout


def _kept_msprof(previous: Path, tag: str):
    """The msprof side of the existing record (its header entry and its lines by argv), for a record of
    the options alone: the msprof oracle is not rebuilt when no msprof case changed."""
    if not previous.exists():
        raise OracleError(f"--kinds options keeps the msprof lines of {previous}, which does not exist")
    lines = previous.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    if head["tag"] != tag:
        raise OracleError(f"{previous} is the record of {head['tag']}, not {tag}")
    kept = {}
    for line in lines[1:]:
        if json.loads(line)["kind"] == "msprof":
            kept[json.dumps(json.loads(line)["argv"])] = line
    return head["msprof_oracle"], kept


def record(build: Path, tag: str, out: Path, only=None) -> int:
    ge = build / f"ge-{tag}"
    ms = build / f"msprof-{tag}"
    chips = {p: c for p, c in CHIPS.items() if _platform_exists(str(ge / "ge_oracle"), c)}
    kept = None
    if only is not None and "msprof" not in only:
        msprof_oracle, kept = _kept_msprof(out / f"{tag}.jsonl", tag)
    else:
        msprof_oracle = json.loads((ms / "source.json").read_text())
    header = {"record": "oracle", "tag": tag, "chips": chips,
              "chips_without_platform": sorted(set(CHIPS) - set(chips), key=list(CHIPS).index),
              "options_oracle": json.loads((ge / "source.json").read_text()),
              "msprof_oracle": msprof_oracle}
    for side in ("options_oracle", "msprof_oracle"):
        header[side].pop("compiler", None)       # the same facts whatever compiler built them
    # what the collector's Platform answers per chip (probe: CheckIfSupport for every switch name and
    # feature, PmuToFeature for metric names, the PMU monitor count): the facts data/ge_options.json
    # takes its platform tables from
    header["platforms"] = {p: json.loads(subprocess.run([str(ge / "probe")], env=_env(c), capture_output=True,
                                                        check=True).stdout) for p, c in chips.items()}
    lines = [json.dumps(header, ensure_ascii=False, sort_keys=True)]
    count = 0
    all_cases = C.all_cases()
    for case in all_cases["options"]:
        outcomes = {p: run_options(str(ge / "ge_oracle"), case, chip) for p, chip in chips.items()}
        count += len(outcomes)
        lines.append(json.dumps({"kind": "options", "route": case["route"], "input": case["input"],
                                 "origin": case["origin"], "results": _grouped(outcomes)},
                                ensure_ascii=False, sort_keys=True))
    for case in all_cases["msprof"]:
        if kept is not None:
            key = json.dumps(case["argv"])
            if key not in kept:
                raise OracleError(f"msprof case {case['argv']!r} is not in the record: rebuild the msprof oracle")
            lines.append(kept[key])
            continue
        outcomes = {p: run_msprof(str(ms / "msprof_oracle"), case, chip) for p, chip in chips.items()}
        count += len(outcomes)
        lines.append(json.dumps({"kind": "msprof", "argv": case["argv"], "origin": case["origin"],
                                 "results": _grouped(outcomes)}, ensure_ascii=False, sort_keys=True))
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{tag}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.rmtree(C.SANDBOX, ignore_errors=True)
    return count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", type=Path, required=True, help="folder with ge-<tag>/ and msprof-<tag>/ oracles")
    ap.add_argument("--tags", nargs="*", default=list(TAGS))
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "oracle")
    ap.add_argument("--kinds", nargs="*", choices=("options", "msprof"), default=None,
                    help="run only these oracles; with options alone the msprof lines (and the msprof "
                         "oracle's header entry) are kept from the record already at --out")
    args = ap.parse_args(argv)
    for tag in args.tags:
        n = record(args.build, tag, args.out, args.kinds)
        print(f"{tag}: {n} cases (input x chip) recorded in {args.out / (tag + '.jsonl')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
