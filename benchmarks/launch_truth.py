"""What bash 5.2 really starts from each launcher, held against `npuprof emulate --format json`'s answer.

    python benchmarks/launch_truth.py CORPUS LIST OUT.json [--work DIR] [--args="--profiling=True ..."]
                                      [--cwd project|launcher] [--skip N] [--only N]

LIST names launchers relative to CORPUS (one a line). Each is started, and emulate asked about it, the same way: in
its project (the launcher's folder's parent when that folder is test/, else its folder), `bash test/X.sh ARGS` or
`bash X.sh ARGS`; with --cwd launcher in the launcher's own folder, `bash X.sh ARGS` (the READMEs' `cd test; bash
train_full_1p.sh ...`). --skip and --only take a batch of LIST.

The oracle: the project is copied to WORK/N/root/<its path under CORPUS> (launchers write logs, `rm -rf`, `mkdir`),
then /bin/bash runs the launcher there under `timeout 20`, `ulimit -u 200`, in namespaces of its own (no network, its
own process ids, so `ps | grep python | kill` sees only its own; every mount read-only but the copy), with a clean
environment (HOME a folder of the copy, PATH the stubs first). The stubs (python*, torchrun, deepspeed, mpirun,
msprof, npu-smi, sleep, ssh, ...) record their argv, working directory and PROFILING_MODE/PROFILING_OPTIONS, and exit
0: no training runs, only what the launcher starts is recorded. Stubs print nothing, so a launcher that reads a stub's
output (the count of devices from npu-smi) may take another branch than on a real machine: such a run is still what
bash does with those outputs, and emulate, which knows no output either, is held to it. `taskset` runs its command
whatever CPUs it names (`taskset -c 0-23` fails on a machine with fewer; the launchers are written for 8p machines);
`python -m torch.distributed.launch` is python's stub.

Compared, for each launch (a Python script, `python -m`, or a program a launcher starts such as torchrun) emulate names:
the script (its path: the argv and the directory it starts in), its arguments (the command's words, an <unknown> word
or part matching anything; redirections dropped; whether the launcher's --profiling... word reaches it), and the
PROFILING_* variables it names. An answer is
  agree          bash starts what emulate says, with those arguments and variables (or neither starts anything; a
                 launch emulate says is not run, bash does not start),
  false          emulate says something definite that bash does not do (a script never started, an argument it
                 does not get, a launch emulate says is not reached, "exits at" where bash starts a script),
  unknown        emulate says it does not know (usable: unknown) where bash gives an answer, or a part of the command
                 is <unknown>, or a launch bash does not start is one emulate says may not run (in a branch, or
                 after an `exit` in one: `may_end`): unhelpful, not false,
  not comparable bash did not finish (timeout) or emulate failed; the reason is kept.
OUT.json holds each launcher's bash record and emulate's claims; the figures are printed.

Figures (s66): zoo80 with `--data_path=/data --profiling=True`, agree / false / unknown / not comparable: project
10 / 0 / 70 / 1, launcher 35 / 0 / 45 / 1; 82 torch_npu launchers of ModelZoo-PyTorch with `--data_path=/data`
(/tmp/s66/truth23/pt80.txt): project 29 / 0 / 53 / 0, launcher 27 / 0 / 55 / 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

STUBS = ("python", "python2", "python3", "python3.6", "python3.7", "python3.8", "python3.9", "python3.10",
         "python3.11", "torchrun", "mpirun", "horovodrun", "deepspeed", "msprof", "npu-smi", "hccn_tool", "pip",
         "pip3", "sleep", "ssh", "scp", "wget", "curl", "git", "nvidia-smi", "docker", "ascend-dmi",
         "apt", "apt-get", "yum", "conda")
PROGRAMS = ("torchrun", "mpirun", "horovodrun", "deepspeed", "msprof")      # launches whatever their argv
NETWORK = ("wget", "curl", "git", "pip", "pip3", "apt", "apt-get", "yum", "conda", "ssh", "scp", "docker")
REDIRECTS = re.compile(r"^(\d*|&)(>|>>|<|>&|<&|&>)$")
UNKNOWN = "<unknown>"
SEP = "\x1e"            # between the fields of a stub's record (a word may hold a newline, never this)

STUB = """#!/bin/bash
{ printf '%s\\x1e' "@@" "$#" "$(pwd -P)" "${PROFILING_MODE-<unset>}" "${PROFILING_OPTIONS-<unset>}" "${0##*/}" "$@"
  printf '\\n'; } >> LOG
exit 0
"""

# `taskset -c 0-23 python x.py` fails where the machine has fewer CPUs (`failed to set pid's affinity`): run the
# command as taskset would on the 8p machine the launcher is written for
TASKSET = """#!/bin/bash
case $1 in
  -c|--cpu-list) shift 2;; -a|--all-tasks) shift; [ "$1" = -c ] && shift; shift;; -p|--pid) exit 0;; *) shift;;
esac
exec "$@"
"""

# run inside `unshare -m -n -p -f --mount-proc`: every mount read-only but the copy, then the launcher
INSIDE = """mount --make-rprivate / && mount --bind "$BOX" "$BOX" || exit 97
awk '{print $2}' /proc/self/mounts | while read -r m; do
  case $m in /proc|/proc/*|/dev|/dev/*|/sys|/sys/*|"$BOX") ;; *) mount -o remount,bind,ro "$m" 2>/dev/null;; esac
done
ulimit -u 200
cd "$CWD" || exit 98
env -i HOME="$BOX/home" PATH="$BOX/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 /bin/bash "$@" </dev/null
rc=$?
# what the launcher left in the background (`nohup bash x.sh &` and no `wait`) goes on after it: wait for the last
# process of the namespace (this shell is its init: orphans are its children, reaped as they end)
while :; do set -- /proc/[0-9]*; [ $# -le 1 ] && break; /usr/bin/sleep 0.2; done
exit $rc
"""


CWD = "project"         # --cwd: "project" starts a test/ launcher from its project, "launcher" from its own folder


def project(corpus: str, rel: str):
    """(cwd, command) as emulate and bash are asked about the launcher: a test/ launcher from its project (`bash
    test/X.sh`), or with --cwd launcher from its own folder (`cd test; bash X.sh`, as many READMEs say)."""
    d, name = os.path.split(os.path.join(corpus, rel))
    if os.path.basename(d) == "test" and CWD == "project":
        return os.path.dirname(d), ["bash", "test/" + name]
    return d, ["bash", name]


def run_bash(corpus: str, rel: str, box: str, args) -> dict:
    cwd, cmd = project(corpus, rel)
    shutil.rmtree(box, ignore_errors=True)
    root = os.path.join(box, "root")
    # the project is copied whole (a test/ launcher started in test/ goes to `..` and beyond)
    top = os.path.dirname(cwd) if os.path.basename(cwd) == "test" else cwd
    shutil.copytree(top, os.path.join(root, os.path.relpath(top, corpus)), symlinks=True)
    copy = os.path.join(root, os.path.relpath(cwd, corpus))
    os.makedirs(os.path.join(box, "home"))
    os.makedirs(os.path.join(box, "bin"))
    log = os.path.join(box, "log")
    open(log, "w").close()
    with open(os.path.join(box, "bin", "sudo"), "w") as f:       # sudo's secure_path would find the real apt
        f.write('#!/bin/bash\nwhile [[ $1 == -* ]]; do shift; done\nexec "$@"\n')
    os.chmod(os.path.join(box, "bin", "sudo"), 0o755)
    with open(os.path.join(box, "bin", "taskset"), "w") as f:   # CPUs an 8p machine has and this one may not
        f.write(TASKSET)
    os.chmod(os.path.join(box, "bin", "taskset"), 0o755)
    for name in STUBS:
        stub = os.path.join(box, "bin", name)
        with open(stub, "w") as f:
            f.write(STUB.replace("LOG", shlex.quote(log)))
        os.chmod(stub, 0o755)
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "BOX": box, "CWD": copy}
    p = subprocess.run(["timeout", "-k", "5", "20", "unshare", "-m", "-n", "-p", "-f", "--kill-child",
                        "--mount-proc", "/bin/bash", "-c", INSIDE, "inside", *cmd[1:], *args],
                       env=env, capture_output=True, timeout=60)
    records = []
    with open(log, "rb") as f:
        for line in f.read().decode("utf-8", "replace").split(SEP + "\n"):
            fields = line.split(SEP)
            if len(fields) < 6 or fields[0] != "@@":
                continue
            back = lambda s: s.replace(root, corpus)        # noqa: E731  (the copy's paths as the corpus's)
            records.append({"cwd": back(fields[2]), "PROFILING_MODE": fields[3], "PROFILING_OPTIONS": fields[4],
                            "argv": [back(x) for x in fields[5:6 + int(fields[1])]]})
    tail = lambda b: b.decode("utf-8", "replace")[-600:].replace(root, corpus)     # noqa: E731
    return {"rc": p.returncode, "timeout": p.returncode in (124, 137), "records": records,
            "stdout": tail(p.stdout), "stderr": tail(p.stderr)}


def run_emulate(corpus: str, rel: str, args) -> dict:
    cwd, cmd = project(corpus, rel)
    p = subprocess.run([sys.executable, "-m", "flake8_npuprof", "emulate", "--format", "json", "--cwd", cwd, "--",
                        *cmd, *args], capture_output=True, text=True, timeout=300)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"error": f"exit {p.returncode}: {p.stderr[-300:]}"}


# ---------------------------------------------------------------- what counts as a launch, on either side

def is_launch(argv) -> bool:
    """A record of a stub that starts something: python with a script or -m, or a launching program."""
    name = argv[0]
    if name in PROGRAMS:
        return True
    if not name.startswith("python"):
        return False
    for i, a in enumerate(argv[1:], 1):
        if a in ("-c", "-V", "--version", "-h", "--help"):
            return False
        if a == "-m" or not a.startswith("-"):
            return True
    return False


def words(command) -> list:
    """emulate's command words without redirections, from the program bash's stubs record (nohup, taskset, env X=Y
    and the like are run by bash and exec it)."""
    out, skip = [], False
    for w in command:
        if skip:
            skip = False
        elif REDIRECTS.match(w):
            skip = True
        elif not w.startswith(UNKNOWN) and re.match(r"^(\d*|&)(>|>>|<)\S", w):
            pass
        else:
            out.append(w)
    for i, w in enumerate(out):
        base = os.path.basename(w)
        if base in STUBS and (base in PROGRAMS or base.startswith("python")):
            return [base] + out[i + 1:]
    return out


def matches(claim: str, real: str) -> bool:
    if UNKNOWN not in claim:
        return claim == real
    return re.fullmatch(".*".join(re.escape(p) for p in claim.split(UNKNOWN)), real, re.S) is not None


def same_argv(claim, real) -> bool:
    """An <unknown> word may stand for any number of words (an unquoted unknown splits into any)."""
    if not claim:
        return not real
    if claim[0] == UNKNOWN:
        return any(same_argv(claim[1:], real[k:]) for k in range(len(real) + 1))
    return bool(real) and matches(claim[0], real[0]) and same_argv(claim[1:], real[1:])


def script_of(argv, cwd):
    """The script path python runs (absolute), or the module of -m; for a rank launcher (torchrun, deepspeed), the
    first .py word (its options take values: `--master_port 29500`), None without one."""
    if os.path.basename(argv[0]) in PROGRAMS:
        return next((os.path.normpath(os.path.join(cwd, a)) for a in argv[1:] if a.endswith(".py")), None)
    for i, a in enumerate(argv[1:], 1):
        if a == "-m":
            return "-m " + (argv[i + 1] if i + 1 < len(argv) else "")
        if a in ("-W", "-X", "-Q"):
            continue
        if not a.startswith("-") and argv[i - 1] not in ("-W", "-X"):
            return os.path.normpath(os.path.join(cwd, a))
    return None


def claims(report: dict) -> dict:
    """emulate's claims: no launch (it exits first), unknown, or its launches."""
    if "error" in report:
        return {"kind": "error", "why": report["error"]}
    launch = report.get("launch") or {}
    if launch.get("exits_at"):
        return {"kind": "exits", "at": launch["exits_at"], "why": report["answer"]["why"]}
    if launch.get("unseen"):
        return {"kind": "unknown", "why": report["answer"]["why"]}
    runs = report.get("launches") or ([launch] if launch.get("command") else [])
    if not runs:
        return {"kind": "none", "usable": report.get("usable")}
    usable = (report.get("answer") or {}).get("usable", report.get("usable"))
    return {"kind": "launches", "crlf": launch.get("crlf"), "usable": usable,
            "launches": [{"words": words(r["command"]), "script": r.get("script"), "unknown": r.get("unknown"),
                          "conditional": r.get("conditional") or bool(r.get("may_end")), "ranks": r.get("ranks"),
                          "at": r.get("at"),
                          # "not run": bash does not start it (a failure under set -e before it, a redirection it
                          # cannot open); a redirection that may fail leaves whether it starts unknown
                          "starts": False if r.get("verdict") == "not run" else
                          (r.get("redirection") or {}).get("starts", True),
                          "env": {k: v["value"] for k, v in (r.get("environment") or {}).items()}} for r in runs]}


def compare(claim: dict, bash: dict, root: str) -> dict:
    """(verdict, why) of emulate's claims against bash's record. root: the project (its script paths' root)."""
    real = [r for r in bash["records"] if is_launch(r["argv"])]
    if claim["kind"] == "error":
        return {"verdict": "not comparable", "why": "emulate failed"}
    if bash["timeout"] and not real:
        return {"verdict": "not comparable", "why": "bash timed out before any launch"}
    if claim["kind"] in ("exits", "none"):
        if not real:
            return {"verdict": "agree", "why": "no launch"}
        return {"verdict": "false", "why": f"emulate: no launch ({claim.get('at', 'none found')}); bash starts "
                                           f"{len(real)}, first {real[0]['argv'][:3]} in {real[0]['cwd']}"}
    if claim["kind"] == "unknown":
        return {"verdict": "unknown", "why": claim["why"]}
    problems, unknowns, used = [], [], set()
    unfollowed = False
    for n, c in enumerate(claim["launches"], 1):
        if not c["words"] or not is_launch(c["words"]):
            # `sh x.sh`, `./make.sh`: a program emulate names but does not follow; what it starts bash records
            unknowns.append(f"launch {n} ({c['at']}): {' '.join(c['words'][:2])} is not followed")
            unfollowed = True
            continue
        hit = [k for k, r in enumerate(real) if same_argv(c["words"], r["argv"])]
        if c["starts"] is False:
            if hit:
                problems.append(f"launch {n} ({c['at']}): emulate says bash does not start it; bash does")
            used.update(hit)
            continue
        if c["starts"] is None:
            unknowns.append(f"launch {n} ({c['at']}): whether bash starts it (a redirection that may fail)")
            used.update(hit)
            continue
        env_ok = [k for k in hit if all(matches(c["env"].get(v, "<unset>"), real[k][v])
                                        for v in ("PROFILING_MODE", "PROFILING_OPTIONS"))]
        used.update(hit)
        if env_ok:
            k = env_ok[0]
            where = script_of(real[k]["argv"], real[k]["cwd"])
            # emulate names the script from the project's root (not always --cwd): its path must end bash's
            claimed = os.path.normpath(c["script"]) if c["script"] else ""
            if claimed and not claimed.startswith("..") and where and not where.startswith("-m ") and \
                    not (where == claimed or where.endswith("/" + claimed)):
                problems.append(f"launch {n} ({c['at']}): script {c['script']}, bash runs {where}")
            elif not c["script"] and c["unknown"]:
                unknowns.append(f"launch {n} ({c['at']}): {c['unknown'][:120]}")
            if any(UNKNOWN in w for w in c["words"]):
                unknowns.append(f"launch {n} ({c['at']}): a word <unknown>")
            continue
        if hit:
            r = real[hit[0]]
            problems.append(f"launch {n} ({c['at']}): PROFILING_MODE/OPTIONS {c['env']} but bash gives "
                            f"{r['PROFILING_MODE']!r}/{r['PROFILING_OPTIONS']!r}")
            continue
        near = [r for r in real if r["argv"][0] == c["words"][0] and c["script"] and
                (script_of(r["argv"], r["cwd"]) or "").endswith("/" + os.path.basename(c["script"]))]
        if c["conditional"]:
            unknowns.append(f"launch {n} ({c['at']}): conditional, bash does not start it so")
        elif near:
            problems.append(f"launch {n} ({c['at']}): arguments {c['words']} but bash gives {near[0]['argv']}")
        elif any(UNKNOWN in w for w in c["words"]):
            unknowns.append(f"launch {n} ({c['at']}): not started by bash, and a word of it is <unknown> (a value "
                            "from the caller's environment may decide whether it runs)")
        elif any(r["argv"][0] in NETWORK for r in bash["records"]):
            return {"verdict": "not comparable", "why": f"bash stops before launch {n}, after a download (stubbed): "
                    + " ".join(next(r["argv"] for r in bash["records"] if r["argv"][0] in NETWORK)[:3])}
        elif bash["timeout"]:
            return {"verdict": "not comparable", "why": f"bash timed out before launch {n}"}
        else:
            problems.append(f"launch {n} ({c['at']}): {c['words'][:4]} never started by bash")
    extra = [r for k, r in enumerate(real) if k not in used]
    if extra and not bash["timeout"] and not unfollowed:
        problems.append(f"bash starts {len(extra)} launch(es) emulate does not name, first {extra[0]['argv'][:4]} "
                        f"in {extra[0]['cwd']}")
    if problems and claim.get("crlf"):
        # emulate warns that bash keeps a carriage return on every line and answers unknown: its words lack them
        return {"verdict": "unknown", "why": "CRLF line endings (emulate warns): " + "; ".join(problems)}
    if problems:
        return {"verdict": "false", "why": "; ".join(problems)}
    if unknowns:
        return {"verdict": "unknown", "why": "; ".join(unknowns)}
    return {"verdict": "agree", "why": f"{len(claim['launches'])} launch(es)"}


def profiling_reaches(bash: dict, args) -> dict:
    """Whether the launcher's --profiling... word reaches a launch, by bash: a word of a launch's argv naming it."""
    if not any("profil" in a.lower() for a in args):
        return {}
    real = [r for r in bash["records"] if is_launch(r["argv"])]
    return {"launches": len(real), "with_profiling_word": sum(any("profil" in a.lower() for a in r["argv"][1:])
                                                              for r in real)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("list")
    ap.add_argument("out")
    ap.add_argument("--work", default="/tmp/launch_truth")
    ap.add_argument("--args", default="", help="the launcher's arguments, as one shell-quoted string")
    ap.add_argument("--only", type=int, default=0, help="the first N launchers of LIST")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N launchers of LIST (batches)")
    ap.add_argument("--cwd", choices=("project", "launcher"), default="project",
                    help="start a test/ launcher from its project (bash test/X.sh) or from test/ (bash X.sh)")
    o = ap.parse_args()
    global CWD
    CWD = o.cwd
    corpus = os.path.realpath(o.corpus)
    args = shlex.split(o.args)
    rels = open(o.list).read().split()
    rels = rels[o.skip:]
    if o.only:
        rels = rels[:o.only]
    out, figures = {}, collections.Counter()
    for n, rel in enumerate(rels):
        box = os.path.join(os.path.realpath(o.work), str(n))
        bash = run_bash(corpus, rel, box, args)
        shutil.rmtree(os.path.join(box, "root"), ignore_errors=True)
        claim = claims(run_emulate(corpus, rel, args))
        verdict = compare(claim, bash, project(corpus, rel)[0])
        out[rel] = {"verdict": verdict, "claim": claim, "bash": bash, "profiling": profiling_reaches(bash, args)}
        figures[verdict["verdict"]] += 1
        print(f"{n + 1}/{len(rels)} {verdict['verdict']}: {rel}", file=sys.stderr, flush=True)
    with open(o.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=False)
    print(f"{len(rels)} launchers, args {args}, cwd {o.cwd}: " + ", ".join(
          f"{k} {v}" for k, v in sorted(figures.items())))
    reach = [v["profiling"] for v in out.values() if v["profiling"].get("launches")]
    if args and reach:
        print(f"profiling word reaches a launch in {sum(1 for r in reach if r['with_profiling_word'])} of "
              f"{len(reach)} launchers that start one")


if __name__ == "__main__":
    main()
