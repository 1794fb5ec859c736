"""NPP015: a launcher's profiling option that goes nowhere.

The model-zoo launcher template takes `--profiling=True` (its argument loop sets `profiling`, makes
`output/profiling`, its help text documents it) and then starts `python3 train.py ...` without passing it
or anything made from it, while the script's own `--profiling` defaults to False: `bash train_full_1p.sh
--profiling=True` collects nothing. The launcher is walked twice (emulate/launcher.dropped_switches), with
the option on and off: when every launch is the same, each starts a script read here, and each script's
profiling hangs on a flag of its own that is off by default, the consequence is certain. This module
words the finding; the walk is emulate's.
"""

from __future__ import annotations

from ..source.said import said
from .rule import REF_MODELZOO, Rule

CODE = "NPP015"


def message(d):
    """The finding for an emulate.launcher.Dropped."""
    if not d.flag:      # the scripts have no profiling setup, and no file of the project has one
        several = ", " in d.script
        started = "every launch is alike with or without it" if several else \
            f"line {d.launch_line} starts {d.script} alike with or without it"
        return said(f"{d.spelled} on this launcher collects nothing",
                    f"no launch gets {d.option} or anything made from it ({started}), so nothing switches profiling "
                    f"on: {d.script} {'have' if several else 'has'} no profiling setup and no Python file of the "
                    "project names one",
                    "give the training script a profiling setup behind a flag and forward the option to it, or drop "
                    "the option (a PROFILING_MODE the caller exports is read the same with or without the option)")
    return said(f"{d.spelled} on this launcher collects nothing",
                f"no launch gets {d.option} or anything made from it (line {d.launch_line} starts {d.script} alike "
                f"with or without it), so {d.script} reads its own {d.flag} at its default {d.default} ({d.flag_at}) "
                f"and its profiling setup under `{d.guard}` ({d.setup_at}) does not run",
                f"forward the option to {d.script} on line {d.launch_line} (a PROFILING_MODE the caller exports is "
                "read the same with or without the option)", lines=(d.launch_line,))


_TRAIN = ("#!/bin/bash\n# train_full_1p.sh: the model-zoo launcher template (test/ of the project)\n"
          "cur_path=`pwd`\nprofiling=False\n"
          "for para in $*\ndo\n"
          "    if [[ $para == --data_path* ]];then\n        data_path=`echo ${para#*=}`\n"
          "    elif [[ $para == --profiling* ]];then\n        profiling=`echo ${para#*=}`\n"
          "        profiling_dump_path=${cur_path}/output/profiling\n        mkdir -p ${profiling_dump_path}\n"
          "    fi\ndone\n")

# the script the examples start (test_catalog writes it beside the launcher as src/train.py)
EXAMPLE_SCRIPT = ("import argparse\nimport ast\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                  "parser = argparse.ArgumentParser()\nparser.add_argument(\"--data_path\", default=\"\")\n"
                  "parser.add_argument(\"--profiling\", type=ast.literal_eval, default=False)\n"
                  "parser.add_argument(\"--profiling_dump_path\", default=\"/tmp/prof\")\n"
                  "args = parser.parse_args()\n\nconfig = tf.ConfigProto()\n"
                  "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
                  "custom_op.name = \"NpuOptimizer\"\nif args.profiling:\n"
                  "    custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                  "    custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                  "        '{\"output\":\"%s\",\"task_trace\":\"on\"}' % args.profiling_dump_path)\n"
                  "with tf.Session(config=config) as sess:\n    sess.run(tf.no_op())\n")

RULES = (
    Rule(
        code="NPP015",
        name="launcher-profiling-switch-dropped",
        summary="launcher takes a profiling option (`--profiling=True`) but no launch gets it or anything made "
                "from it, and the script's own flag is off by default (or the project has no profiling code): "
                "nothing is collected",
        default=True,
        level="warning",
        what="A shell launcher whose argument loop (`for para in $*` with `[[ $para == --profiling* ]]`, "
             "`case \"$1\" in --profiling) ...; shift`, `getopts`) takes a profiling option — by its name, by the "
             "folder its branch makes (`mkdir -p output/profiling`) or by its help text — while every launch it "
             "runs is the same with the option on or off: no word, exported variable or directory of any launch "
             "is made from it. Each launch starts a Python script read here, whose profiling setup is guarded by "
             "a flag of its own (`if args.profiling:`) that is off by default. The finding is on the launcher's "
             "test of the option and names the script's flag, its default and its setup; it is reported too when the "
             "script has no profiling setup and no Python file of the project names a profiling setting (a setup in "
             "a module it imports would be named there). Nothing is reported on "
             "a launcher that forwards the option, directly (`--profiling=${profiling}`, `\"$@\"`), through a "
             "variable, or through an environment variable it exports; nor when a launch cannot be followed, "
             "runs under msprof, or starts a script whose profiling does not hang on such a flag. The other "
             "options get a placeholder value in these walks; when that makes a walk stop at its bound (many "
             "options through a long `elif` chain), the option is walked alone, and when that reaches no launch "
             "either, NPP191 on the option's test says NPP015 was not checked. `npuprof "
             "emulate LAUNCHER -- --profiling=True` says the same in its answer.",
        why="bash binds the launcher's arguments to `$1`.. and `$*`; the loop only sets the launcher's own "
            "variable. The script's parser never sees the option, so argparse (or absl) gives the flag its "
            "default, False, the `if` around the profiling setup is false, and the job trains without "
            "profiling: `bash train_full_1p.sh --profiling=True` runs, takes as long as without it, and writes "
            "no PROF_* data, only an empty output/profiling folder.",
        example=_TRAIN + "cd $cur_path/../\npython3 ./src/train.py --data_path=${data_path}\n",
        fixed=_TRAIN + "cd $cur_path/../\npython3 ./src/train.py --data_path=${data_path} --profiling=${profiling} "
                       "\\\n    --profiling_dump_path=${profiling_dump_path}\n",
        fix_safety="none",
        fix_note="No fix: which of the script's flags the option means (and the output folder's) is the "
                 "project's choice; forward the launcher's variable on the launch line.",
        references=(REF_MODELZOO,),
        group="wiring",
        language="shell",
        facts=("python.flag_default", "shell.launcher_arguments"),
    ),
)
