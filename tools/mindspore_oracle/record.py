"""Record what MindSpore's profiler configuration code does, per release.

    python tools/mindspore_oracle/record.py [--python PY] [--release 2.10.0 ...]

For every release in RELEASES: downloads the published wheel into a temporary
folder (``pip download mindspore==<v> --no-deps``; 2.10.0 is ~804 MB), checks
its ``mindspore/version.py``, extracts only ``mindspore/profiler/**`` (less the
package root and ``profiler.py``, which load the C++ core) into a temporary
sandbox (``profiler.py`` beside it, in ``wheel/``, for the ``profiler`` cases to
load), lays our stand-ins (``standins/``) over them, and runs every case of
``cases.py`` with ``runner.py``. Needs no torch; the path cases need numpy. Writes
``tests/oracle/mindspore/records.jsonl``, sorted; nothing from the wheel is
written under the repository and the temporary folder is removed.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _load_cases():
    """cases.py beside this file, by path (tools/oracle has a cases.py of its own)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("mindspore_oracle_cases", os.path.join(HERE, "cases.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


case_table = _load_cases()

OUT = os.path.join(ROOT, "tests", "oracle", "mindspore", "records.jsonl")

# release -> (package-index version, Python tag of a wheel the index serves)
RELEASES = {
    "2.10.0": ("2.10.0", "3.11"),
    "2.9.0": ("2.9.0", "3.11"),
    "2.8.0": ("2.8.0", "3.11"),
    "2.7.0": ("2.7.0", "3.11"),
}
# The wheel's files that stand-ins replace (they import the C++ core).
REPLACED = ("mindspore/profiler/__init__.py", "mindspore/profiler/profiler.py")


def download(version, python_tag, dest):
    cmd = [sys.executable, "-m", "pip", "download", "mindspore==%s" % version, "--no-deps",
           "--only-binary=:all:", "--python-version", python_tag, "--platform", "manylinux1_x86_64",
           "--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64", "-d", dest, "-q"]
    subprocess.run(cmd, check=True)
    wheels = sorted(glob.glob(os.path.join(dest, "mindspore-%s-*.whl" % version)))
    if not wheels:
        raise SystemExit("no wheel for mindspore==%s" % version)
    return wheels[0]


def extract(wheel, sandbox):
    os.makedirs(os.path.join(sandbox, "wheel"), exist_ok=True)
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            if name.endswith(".py") and name.startswith("mindspore/profiler/") and name not in REPLACED:
                zf.extract(name, sandbox)
            elif name == "mindspore/profiler/profiler.py":      # run by the `profiler` cases, outside the package
                with zf.open(name) as src, open(os.path.join(sandbox, "wheel", "profiler.py"), "wb") as dst:
                    shutil.copyfileobj(src, dst)
            elif name == "mindspore/version.py":
                zf.extract(name, sandbox)
    standins = os.path.join(HERE, "standins")
    for dirpath, _dirs, files in os.walk(standins):
        for fname in files:
            if fname.endswith(".py"):
                src = os.path.join(dirpath, fname)
                dst = os.path.join(sandbox, os.path.relpath(src, standins))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)


def run_release(release, python, workdir, cases):
    version, python_tag = RELEASES[release]
    wheel = download(version, python_tag, os.path.join(workdir, "wheels"))
    sandbox = os.path.join(workdir, "sandbox-" + release)
    os.makedirs(sandbox)
    extract(wheel, sandbox)
    ns = {}
    with open(os.path.join(sandbox, "mindspore", "version.py")) as fh:
        exec(fh.read(), ns)
    if ns.get("__version__") != version:
        raise SystemExit("%s: wheel says %s" % (release, ns.get("__version__")))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MS_", "RANK", "GLOG_"))}
    env.update(PYTHONPATH=sandbox, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               TMPDIR=os.path.join(workdir, "cases"))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    proc = subprocess.run([python, os.path.join(HERE, "runner.py"), sandbox], input=json.dumps(cases),
                          capture_output=True, text=True, env=env, cwd=env["TMPDIR"], check=False)
    if proc.returncode != 0:
        raise SystemExit("%s: runner failed:\n%s" % (release, proc.stderr[-4000:]))
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    errors = [r for r in results if "oracle_error" in r]
    if errors:
        raise SystemExit("%s: %d oracle errors, first:\n%s" % (release, len(errors), errors[0]["oracle_error"]))
    if len(results) != len(cases):
        raise SystemExit("%s: %d results for %d cases" % (release, len(results), len(cases)))
    by_id = {c["case"]: c for c in cases}
    lines = []
    for res in results:
        case = by_id[res["case"]]
        rec = {"release": release, "case": case["case"], "api": case["api"], "call": case["call"],
               "warnings": res["warnings"], "raised": res["raised"]}
        for key in ("after", "native", "calls"):
            if key in res:
                rec[key] = res[key]
        lines.append(rec)
    print("%s: mindspore==%s (%s, %d bytes), %d cases" % (
        release, version, os.path.basename(wheel), os.path.getsize(wheel), len(results)))
    os.remove(wheel)
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--release", action="append")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    releases = args.release or list(RELEASES)
    cases = case_table.all_cases()
    records = []
    if args.release and os.path.exists(args.out):
        with open(args.out) as fh:
            records = [r for r in map(json.loads, fh) if r["release"] not in releases]
    workdir = tempfile.mkdtemp(prefix="mindspore-oracle-")
    try:
        for release in releases:
            records += run_release(release, args.python, workdir, cases)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    order = list(RELEASES)
    records.sort(key=lambda r: (order.index(r["release"]), r["case"]))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        for rec in records:
            fh.write(json.dumps(rec, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
