"""Write the "platforms" table of flake8_npuprof/data/ge_options.json from the oracle record.

    python tools/oracle/platforms.py [--check]

Each record's header holds what the collector's Platform answered on each chip (the probe:
CheckIfSupport for every switch name and feature, PmuToFeature for metric names, the PMU monitor
count). The table keeps the answers the steps in knowledge/ge_options.py use. --check exits 1 when
the data file differs from what the record gives (tests/test_oracle.py runs it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "flake8_npuprof" / "data" / "ge_options.json"
FEATURES = ("PLATFORM_TASK_TRACE_L3", "PLATFORM_SYS_DEVICE_US", "PLATFORM_TASK_INSTR_PROFILING",
            "PLATFORM_TASK_BLOCK", "PLATFORM_TASK_SCALE", "PLATFORM_SYS_MEM_SERVICEFLOW")


def table() -> dict:
    """{version: {"switch_names": the names PLATFORM_FEATURE_MAP knows, "chips": {product: answers}}}"""
    out = {}
    for path in sorted((ROOT / "tests" / "oracle").glob("v*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            header = json.loads(fh.readline())
        version = header["tag"][1:].rsplit(".", 1)[0]
        chips = {}
        names = sorted({n for probe in header["platforms"].values() for n in probe["switch"]})
        for product, probe in header["platforms"].items():
            chips[product] = {
                "switch": {k: v for k, v in sorted(probe["switch"].items()) if v},
                "feature": {k: probe["feature"][k] for k in FEATURES if probe["feature"].get(k)},
                "metric": {k: v for k, v in probe["metric"].items() if v},
                "max_monitor": probe["max_monitor"],
            }
        out[version] = {"switch_names": names, "chips": chips}
    return out


def main(argv) -> int:
    text = DATA.read_text(encoding="utf-8")
    data = json.loads(text)
    data["platforms"] = table()
    new = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if "--check" in argv:
        if json.loads(new) != json.loads(text):
            print(f"{DATA.relative_to(ROOT)} is out of date: run python tools/oracle/platforms.py")
            return 1
        return 0
    DATA.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
