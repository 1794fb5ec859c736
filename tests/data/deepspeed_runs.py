"""Runs DeepSpeed's own runner.main and launch.main (deepspeed/launcher/runner.py and launch.py of a release, read from
a git clone, unchanged but for their imports) with stubs for the accelerator (an NPU node of 8 devices, as DeepSpeed's
npu_accelerator names its variables), ssh, pdsh and subprocess, and records what each rank is started with:
`python3.X tests/data/deepspeed_runs.py GIT_DIR v0.16.4 > tests/data/deepspeed_runs.json` (in tests/data: the
hostfiles one_host and two_hosts are made there and removed). Where DeepSpeed would go multi-node (pdsh, mpirun, ...)
it records ["multi-node", launcher]. Each python3.9-3.13 gave the same record."""
import contextlib, json, os, re, subprocess, sys, types

GIT, TAG = sys.argv[1:3]
starts = []

class Proc:
    def __init__(self, cmd, env=None, **kw):
        self.cmd, self.returncode, self.pid = cmd, 0, 1
        starts.append((list(cmd), dict(env or {})))
    def poll(self): return 0
    def wait(self): return 0
    def send_signal(self, s): pass

class Acc:
    def visible_devices_envs(self): return ['ASCEND_RT_VISIBLE_DEVICES']     # npu_accelerator.py
    def set_visible_devices_envs(self, env, ids): env['ASCEND_RT_VISIBLE_DEVICES'] = ",".join(map(str, ids))
    def device_count(self): return 8
    def export_envs(self): return ['ASCEND', 'HCCL', 'LD_LIBRARY', 'PATH']

class Log:
    def __getattr__(self, n): return lambda *a, **k: None

def load(src, name, extra):
    text = subprocess.run(["git", "--git-dir", GIT, "show", f"{TAG}:deepspeed/launcher/{src}"], check=True,
                          capture_output=True, text=True).stdout
    text = re.sub(r"^from \.+[\w.]* import .*$|^from deepspeed\.accelerator import .*$|^import psutil$", "", text,
                  flags=re.M)
    mod = types.ModuleType(name)
    mod.__dict__.update(extra)
    exec(compile(text.replace('if __name__ == "__main__":', 'if False:'), src, "exec"), mod.__dict__)
    mod.subprocess = types.SimpleNamespace(Popen=Proc, check_call=lambda *a, **k: 0,
                                           check_output=lambda *a, **k: b"10.0.0.1", CalledProcessError=Exception,
                                           DEVNULL=None)
    mod.time = types.SimpleNamespace(sleep=lambda s: None, strftime=lambda *a: "x", localtime=lambda: None)
    return mod

common = dict(get_accelerator=Acc, TORCH_DISTRIBUTED_DEFAULT_PORT=29500, logger=Log())
class Multi:
    def __init__(self, *a):
        raise RuntimeError("multi-node")

runner = load("runner.py", "runner", dict(common, PDSHRunner=Multi, OpenMPIRunner=Multi, MVAPICHRunner=Multi,
              SlurmRunner=Multi, MPICHRunner=Multi, IMPIRunner=Multi, PDSH_LAUNCHER='pdsh', OPENMPI_LAUNCHER='openmpi',
              MVAPICH_LAUNCHER='mvapich', SLURM_LAUNCHER='slurm', MPICH_LAUNCHER='mpich', IMPI_LAUNCHER='impi',
              NEBULA_EXPORT_ENVS=[], Autotuner=None))
launch = load("launch.py", "launch", dict(common, DLTS_POD_ENV_PATH="/nonexistent/pod.env",
              get_numactl_cmd=lambda l, n, r: (4, ["numactl", "-C", f"{r*4}-{r*4+3}"]),
              is_torch_elastic_compatible=lambda: True, ELASTIC_TRAINING_ID_DEFAULT="123456789", psutil=None))

# `deepspeed ARGV` (no -H: DeepSpeed's default /job/hostfile, not on the recording machine)
CASES = [["--num_gpus=8", "train.py", "--prof"],
          ["--num_gpus", "2", "--master_port", "29501", "train.py", "--prof"],
          ["train.py", "--prof"],
          ["--num_gpus", "-1", "train.py"],
          ["--num_gpus", "0", "train.py"],
          ["--no_local_rank", "--num_gpus", "2", "train.py", "--prof"],
          ["--num_g=2", "train.py"],
          ["--num", "2", "train.py"],
          ["--foo", "--num_gpus=2", "train.py"],
          ["--num_gpus", "2", "train.py", "--num_gpus", "4", "--no_local_rank"],
          ["--num_nodes", "2", "--num_gpus", "2", "train.py"],
          ["--num_nodes", "1", "--num_gpus", "2", "train.py"],
          ["--num_gpus", "2", "--include", "localhost:0,1", "train.py"],
          ["--include", "localhost:0,3", "train.py"],
          ["--exclude", "localhost:0", "train.py"],
          ["--module", "--num_gpus", "2", "pkg.train", "--prof"],
          ["--no_python", "--num_gpus", "2", "./train.py"],
          ["--num_accelerators", "2", "train.py"],
          ["--num_gpus", "2", "--bind_cores_to_rank", "train.py"],
          ["--num_gpus=2", "--launcher", "openmpi", "--hostfile", "/nonexistent/h", "train.py"],
          ["-H", "one_host", "--num_gpus", "2", "train.py"],
          ["-H", "one_host", "train.py"],
          ["-H", "two_hosts", "--num_gpus", "2", "--num_nodes", "1", "train.py"],
          ["-H", "two_hosts", "--num_gpus", "2", "train.py"],
          ["--num_gpus", "2", "-h", "train.py"],
          ["--num_gpus", "2", "train.py", "-h"],
          ["--num_gpus", "two", "train.py"],
          ["--num_gpus", "2"],
          ["--num_gpus", "2", "--", "train.py", "--prof"],
          ["--num_gpus=2", "--master_port", "$PORT", "train.py"],
          ["--num_gpus", "2", "--save_pid=1", "train.py"],
          ["--num_gpus", "2", "--module=", "train.py"],
          ["--num_gpus", "2", "--launcher_args", "-x", "train.py"],
          ["--num_gpus", "2", "--master_addr", "--", "train.py"],
          ["--master_addr", "--num_gpus", "2", "train.py"],
          ["--num_gpus", "2", "--master_addr", "-x y", "train.py"],
          ["--num_gpus", "2", "--master_addr", "-1.5", "train.py"],
          ["--num_gpus", "2", "--master_addr", "-", "train.py"]
         ]


def run(argv):
    """(status, [[rank's command, its LOCAL_RANK, RANK, WORLD_SIZE, ASCEND_RT_VISIBLE_DEVICES], ...]) of `deepspeed
    ARGV` on this stub node; status: what SystemExit or an exception said."""
    del starts[:]
    try:
        with contextlib.redirect_stdout(sys.stderr), contextlib.redirect_stderr(sys.stderr):
            args = runner.parse_args(argv)
    except SystemExit:
        args = None
    os.environ.pop('ASCEND_RT_VISIBLE_DEVICES', None)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            runner.main(argv)
    except SystemExit as e:
        return ["exit", e.code], []
    except BaseException as e:
        if str(e) == "multi-node":
            return ["multi-node", args.launcher], []
        return ["raise", f"{type(e).__name__}: {e}"], []
    ranks = []
    for cmd, env in list(starts):
        assert cmd[1:4] == ["-u", "-m", "deepspeed.launcher.launch"], cmd
        del starts[:]
        sys.argv = ["launch.py"] + cmd[4:]
        try:
            with contextlib.redirect_stdout(sys.stderr):
                launch.main()
        except SystemExit as e:
            return ["launch exit", e.code], []
        except BaseException as e:
            return ["launch raise", f"{type(e).__name__}: {e}"], []
        for c, e in starts:
            ranks.append([["python" if w == sys.executable else w for w in c],
                          [e.get(n) for n in ("LOCAL_RANK", "RANK", "WORLD_SIZE", "ASCEND_RT_VISIBLE_DEVICES")]])
    return ["ok", 0], ranks

if __name__ == "__main__":
    with open("one_host", "w") as f:
        f.write("localhost slots=8\n")
    with open("two_hosts", "w") as f:
        f.write("worker-0 slots=8\nworker-1 slots=8\n")
    out = []
    for argv in CASES:
        status, ranks = run(argv)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                a = runner.parse_args(argv)
            parsed = {k: getattr(a, k) for k in ("num_gpus", "num_nodes", "include", "exclude", "hostfile", "module",
                                                 "no_python", "no_local_rank", "user_script", "user_args")}
        except SystemExit:
            parsed = None
        out.append({"argv": argv, "parsed": parsed, "status": status, "ranks": ranks})
    os.remove("one_host")
    os.remove("two_hosts")
    head = subprocess.run(["git", "--git-dir", GIT, "rev-list", "-n1", TAG], capture_output=True, text=True).stdout
    json.dump({"deepspeed": f"microsoft/DeepSpeed@{TAG} ({head.strip()})",
               "runs": out}, sys.stdout, indent=1)
    print()
