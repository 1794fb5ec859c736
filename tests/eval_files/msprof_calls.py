"""msprof run from Python: literal commands in subprocess and os.system calls."""
import os
import shlex
import subprocess
from subprocess import check_call

subprocess.run(["msprof", "--output=/tmp/prof", "--timeline=on", "python3", "train.py"])  # NPP120: 50
subprocess.run(["msprof", "--output", "/tmp/prof", "python3", "train.py"])  # NPP127: 28
os.system("msprof --output=/tmp/prof --aic-metrics=PipeUtilisation python3 train.py")  # NPP122: 52
check_call(shlex.split("msprof --output=/tmp/prof --aicore=on python3 train.py"))  # NPP120: 51
subprocess.Popen("msprof --output=/tmp/prof --hccl=true python3 train.py", shell=True)  # NPP121: 52
subprocess.call("msprof --storage-limit=4GB --output=/tmp/prof python3 train.py".split())  # NPP124: 41
subprocess.run(["msprof", "--output=/tmp/prof", "python3", "--task_time=l1", "train.py"])  # NPP128: 61

# clean: valid options, the script's own flags, a command that is not run by a shell
subprocess.run(["msprof", "--output=/tmp/prof", "--task-time=l1", "--aic-metrics=Memory", "python3", "train.py",
                "--timeline=on"])
subprocess.run("msprof --timeline=on python3 train.py")
subprocess.run(["echo", "msprof", "--timeline=on"])
