"""The command names the walk reads a command line by (shell/command_line.py, shell/launches.py), in a module of
their own: the cheap scan (engine/launch_scan.py) reads them without importing command_line (4.8M instructions at
import, its NamedTuple and patterns), which only the walk needs."""

from __future__ import annotations

import re

PYTHON = re.compile(r"(?:.*/)?python(?:\d(?:\.\d+)?)?$")
PREFIXES = {"nohup", "exec", "time", "command", "builtin", "stdbuf", "nice", "ionice", "env", "sudo", "setsid",
            "taskset", "numactl", "mpirun", "mpiexec", "horovodrun", "srun", "timeout"}
SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# DeepSpeed's launcher: the console script it installs (bin/deepspeed: runner.main) and its runner's module, the words
# launches.py meets it by (shell/deepspeed.py, which reads the words after them, is imported where one is met)
DEEPSPEED = "deepspeed"
DEEPSPEED_RUNNER = "deepspeed.launcher.runner"
# commands that name a .py file without starting it (`echo "run train.py"`, `cp train.py out/`, `scp train.py h:`)
# (launches.py's; here, with the other command names, so that the cheap scan reads it without importing the walk)
NOT_STARTING = {"echo", "printf", "cat", "cp", "mv", "rm", "ls", "ln", "grep", "egrep", "sed", "awk", "tee", "mkdir",
                "chmod", "chown", "touch", "head", "tail", "find", "test", "[", "[[", "wget", "curl", "git", "cd",
                "export", "source", ".", "kill", "pkill", "ps", "dos2unix", "sha256sum", "md5sum", "wc", "tar",
                "unzip", "zip", "diff", "basename", "dirname", "readlink", "realpath", "read", "local", "declare",
                "scp", "rsync", "install", "sort", "cut", "du", "stat", "file", "less", "more", "vi", "vim", "patch"}
