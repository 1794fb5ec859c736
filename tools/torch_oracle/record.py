"""Record what each torch_npu release's profiler configuration code does.

    python tools/torch_oracle/record.py --python /tmp/torch-venv/bin/python [--release 26.1.0 ...]

For every release in RELEASES: downloads its published wheel from the package
index into a temporary folder (``pip download torch-npu==<pypi> --no-deps``),
checks that the wheel's ``torch_npu/version.py`` names the commit of the
release tag, extracts only the profiler package and the few utils it imports
into a temporary sandbox, lays our stand-ins (``standins/``) over what is not
extracted, and runs every case of ``cases.py`` there with ``runner.py`` under
the given interpreter, which must have torch (the CPU wheel is enough).
Writes ``tests/oracle/torch_npu/records.jsonl``: one line per release and
case, sorted, so that a re-record with the same wheels is byte-identical.
Nothing from the wheel or torch is written under the repository; the
sandboxes are removed afterwards.
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
    spec = importlib.util.spec_from_file_location("torch_oracle_cases", os.path.join(HERE, "cases.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


case_table = _load_cases()

OUT = os.path.join(ROOT, "tests", "oracle", "torch_npu", "records.jsonl")

# release -> (package-index version, the tag's commit that the wheel's
# version.py names as git_version, the Python tag of a wheel the index serves).
# Found by `pip index versions torch-npu` and each release tag's version.txt
# (or setup.py VERSION) in Ascend/pytorch; the wheel is checked on download.
RELEASES = {
    # From 2.14.0 on, TorchNPU is named by its PyTorch version; its README
    # names no 26.x release, and its commit is newer than any tag we read.
    "2.14.0": ("2.14.0", "54e365d3e3614299bccd17f06916544c3880c9fc", "3.11"),
    # Named 26.2.0 by its own README (branch v2.13.0-26.2.0) and by the tag
    # v26.2.0-0day-pytorch2.13.0's version.txt; the final tag was not read.
    "26.2.0": ("2.13.0", "c798c6532a0d05c1863489e83cb7e3985be4e830", "3.11"),
    "26.1.0": ("2.9.0.post6", "334dadc9a4a80a9c04ac6ec3c92182ccf525d46a", "3.11"),
    "26.0.0": ("2.9.0.post2", "912882db09313e70f5312212669cd71e02e5c5d8", "3.11"),
    "7.3.0": ("2.9.0", "12d689a08941d4a6e45eab16e3ad6fef96a9affd", "3.11"),
    "7.2.0": ("2.6.0.post3", "bc51ab84cc6f35c77aab1c59886e0ea43681a317", "3.11"),
    "7.1.0": ("2.1.0.post13", "b9b202a01363cab550aae84fa048b4c8c72bd15b", "3.11"),
    "7.0.0": ("2.1.0.post12", "881a2763aca6b9469a72b3f8706de32ec4973788", "3.11"),
    "6.0.0": ("2.1.0.post10", "cb73edfbeafd48c9cdc4d56e257ab8d77bd7e787", "3.11"),
    "6.0.rc3": ("2.1.0.post8", "1fa937ac8262dd378a5a538a02976d72a2ebbafd", "3.11"),
    "6.0.rc1": ("2.1.0.post3", "4ecd50b2988f5e781f167f87f77c70f81a742c8e", "3.9"),
    "5.0.rc3": ("2.1.0rc1", "579994f8317bef60d18ee528765dd397eb70ad62", "3.9"),
}

# What is taken from the wheel: the profiler package and the utils it imports.
EXTRACT_PREFIXES = ("torch_npu/profiler/",)
EXTRACT_FILES = (
    "torch_npu/version.py",
    "torch_npu/utils/profiler.py",
    "torch_npu/utils/utils.py",
    "torch_npu/utils/_error_code.py",
    "torch_npu/utils/error_code.py",
    "torch_npu/utils/_path_manager.py",
    "torch_npu/utils/path_manager.py",
    "torch_npu/utils/collect_env.py",
    "torch_npu/_init/common/warning_utils.py",
)


def download(pypi_version, python_tag, dest):
    cmd = [sys.executable, "-m", "pip", "download", "torch-npu==%s" % pypi_version, "--no-deps",
           "--only-binary=:all:", "--python-version", python_tag, "--platform", "manylinux2014_x86_64",
           "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux_2_27_x86_64",
           "--platform", "manylinux_2_28_x86_64", "-d", dest, "-q"]
    subprocess.run(cmd, check=True)
    wheels = sorted(glob.glob(os.path.join(dest, "torch_npu-%s-*.whl" % pypi_version)))
    if not wheels:
        raise SystemExit("no wheel for torch-npu==%s" % pypi_version)
    return wheels[0]


def extract(wheel, sandbox):
    """Only the profiler's Python files and the listed utils."""
    taken = []
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            if not name.endswith(".py"):
                continue
            if name.startswith(EXTRACT_PREFIXES) or name in EXTRACT_FILES:
                zf.extract(name, sandbox)
                taken.append(name)
    standins = os.path.join(HERE, "standins")
    for dirpath, _dirs, files in os.walk(standins):
        for fname in files:
            if not fname.endswith(".py"):
                continue
            src = os.path.join(dirpath, fname)
            rel = os.path.relpath(src, standins)
            dst = os.path.join(sandbox, rel)
            if os.path.exists(dst):
                continue  # the release's own file wins over a stand-in
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
    return taken


def wheel_commit(sandbox):
    ns = {}
    with open(os.path.join(sandbox, "torch_npu", "version.py")) as fh:
        exec(fh.read(), ns)  # a two-line file: __version__ and git_version
    return ns.get("__version__"), ns.get("git_version")


def run_release(release, python, workdir, cases):
    pypi, commit, python_tag = RELEASES[release]
    wheel = download(pypi, python_tag, os.path.join(workdir, "wheels", pypi))
    sandbox = os.path.join(workdir, "sandbox-" + release)
    shutil.rmtree(sandbox, ignore_errors=True)
    os.makedirs(sandbox)
    extract(wheel, sandbox)
    version, git = wheel_commit(sandbox)
    if version.replace(".rc", "rc") != pypi.replace(".rc", "rc") or git != commit:
        raise SystemExit("%s: wheel says %s %s, expected %s %s" % (release, version, git, pypi, commit))
    env = dict(os.environ)
    for key in ("RANK", "PROFILING_MODE", "PROFILER_SAMPLECONFIG", "ASCEND_WORK_PATH"):
        env.pop(key, None)
    env["PYTHONPATH"] = sandbox
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Some releases keep sets (host_sys) and hand them on as lists: a fixed
    # hash seed keeps that order, and so the record, the same on every run.
    env["PYTHONHASHSEED"] = "0"
    env["TMPDIR"] = os.path.join(workdir, "cases-" + release)
    os.makedirs(env["TMPDIR"], exist_ok=True)
    proc = subprocess.run([python, os.path.join(HERE, "runner.py"), sandbox], input=json.dumps(cases),
                          capture_output=True, text=True, env=env, cwd=env["TMPDIR"], check=False)
    if proc.returncode != 0:
        raise SystemExit("%s: runner failed:\n%s" % (release, proc.stderr[-4000:]))
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    errors = [r for r in results if "oracle_error" in r]
    if errors:
        raise SystemExit("%s: %d cases hit an oracle error, first:\n%s" % (
            release, len(errors), errors[0]["oracle_error"]))
    if len(results) != len(cases):
        raise SystemExit("%s: %d results for %d cases" % (release, len(results), len(cases)))
    wheel_size = os.path.getsize(wheel)
    return results, {"pypi": pypi, "git_version": git, "wheel": os.path.basename(wheel), "wheel_bytes": wheel_size}


def to_lines(release, cases, results):
    by_id = {c["case"]: c for c in cases}
    lines = []
    for res in results:
        case = by_id[res["case"]]
        rec = {"release": release, "case": case["case"], "api": case["api"], "call": case["call"],
               "warnings": res.get("warnings", []), "raised": res.get("raised")}
        if case.get("env"):
            rec["env"] = case["env"]
        for key in ("after", "native", "calls", "log", "exit"):
            if key in res:
                rec[key] = res[key]
        lines.append(rec)
    return lines


def release_order(release):
    """Newest first, as RELEASES lists them (names changed scheme at 2.14.0)."""
    return list(RELEASES).index(release)


def write(records, path):
    records = sorted(records, key=lambda r: (release_order(r["release"]), r["case"]))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        for rec in records:
            fh.write(json.dumps(rec, sort_keys=True, ensure_ascii=False) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="an interpreter with torch installed (CPU is enough)")
    ap.add_argument("--release", action="append", help="record only these (default: all of RELEASES)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (for debugging)")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    releases = args.release or list(RELEASES)
    cases = case_table.all_cases()
    workdir = tempfile.mkdtemp(prefix="torch-oracle-")
    records = []
    if args.release and os.path.exists(args.out):
        with open(args.out) as fh:  # keep the other releases' lines
            records = [json.loads(l) for l in fh if json.loads(l)["release"] not in releases]
    try:
        for release in releases:
            results, meta = run_release(release, args.python, workdir, cases)
            records += to_lines(release, cases, results)
            print("%s: torch-npu==%s (%s, %d bytes), %d cases" % (
                release, meta["pypi"], meta["wheel"], meta["wheel_bytes"], len(results)))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print("kept", workdir)
    write(records, args.out)


if __name__ == "__main__":
    main()
