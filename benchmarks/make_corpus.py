"""Generate a corpus of profiling-heavy training scripts, written the way the Ascend model zoo
writes them: options from real public scripts (tests/data/real_options_strings.tsv) built by
every construction the checker resolves (literals, + with a flag, % with argparse, .format,
f-strings, json.dumps with os.path.join, class attributes, helpers, branches, environment
reads, parameters), in sess.run, Estimator and tf.keras shapes.

    python benchmarks/make_corpus.py OUT_DIR [--files N]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TSV = ROOT / "tests" / "data" / "real_options_strings.tsv"

HEADER = '''# -*- coding: utf-8 -*-
"""{title} — 训练脚本 (generated corpus file {n})."""
import argparse
import json
import os

import tensorflow as tf
from npu_bridge.npu_init import *
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("profiling_dump_path", "./output/profiling", "profiling 数据目录")
flags.DEFINE_boolean("profiling", False, "是否开启 profiling")
flags.DEFINE_integer("batch_size", 32, "batch size")

parser = argparse.ArgumentParser()
parser.add_argument("--profiling-dump-path", default="/tmp/profiling")
parser.add_argument("--precision_mode", default="allow_mix_precision")
parser.add_argument("--train_steps", type=int, default=1000)
args, _ = parser.parse_known_args()

PROFILING_DIR = "./profiling_output"


class HParams:
    learning_rate = 0.01
    profiling_dir = "profiling"
    profiling_options = {literal}


def build_model(images, num_classes=1000):
    """一个简单的卷积网络."""
    net = tf.layers.conv2d(images, 64, 3, padding="same", activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.conv2d(net, 128, 3, padding="same", activation=tf.nn.relu)
    net = tf.reduce_mean(net, axis=[1, 2])
    return tf.layers.dense(net, num_classes)


def input_fn(batch_size):
    images = tf.random.uniform([batch_size, 224, 224, 3])
    labels = tf.random.uniform([batch_size], maxval=1000, dtype=tf.int32)
    return tf.data.Dataset.from_tensors((images, labels)).repeat()


def model_fn(features, labels, mode, params):
    logits = build_model(features)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    optimizer = tf.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

'''

ENTRY = '''    config = tf.ConfigProto(allow_soft_placement=True)
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["use_off_line"].b = True
    custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes(args.precision_mode)
    config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
'''

SWITCH = '''    if FLAGS.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        # 采集性能数据
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes({expr})
'''

RUNNERS = {
    "sess_run": '''

def main():
    config = make_config()
    images, labels = input_fn(FLAGS.batch_size).make_one_shot_iterator().get_next()
    loss = tf.reduce_mean(build_model(images))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session(config=npu_config_proto(config_proto=config)) as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(args.train_steps):
            sess.run(train_op)
''',
    "estimator": '''

def main():
    run_config = tf.estimator.RunConfig(model_dir="./model", session_config=make_config(),
                                        save_checkpoints_steps=1000)
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))
    estimator.train(input_fn=lambda: input_fn(FLAGS.batch_size), max_steps=args.train_steps)
''',
    "keras": '''

def main():
    sess = set_keras_session_npu_config(config=make_config())
    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    model.fit(input_fn(FLAGS.batch_size), steps_per_epoch=args.train_steps, epochs=1)
    close_session(sess)
''',
}


def _templates():
    rows = []
    with open(TSV, encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            text = row["options_string"].replace("\\n", " ")
            text = re.sub(r"<[^<>]+>", "%s", text)
            if row["construction"].startswith(("%-format", "inside-triple")) or "%s" in text:
                text = re.sub(r"%(\([^)]*\))?s", "%s", text)
            if text.count("%s") != 1 or not text.lstrip().startswith("{"):
                continue
            try:
                json.loads(text.replace("%s", "/tmp/x"))
            except ValueError:
                continue
            rows.append(text)
    return rows


def _py(text: str) -> str:
    return repr(text)


def constructions(template: str):
    """(helper code at module level, code before the switch, options expression) per construction."""
    before, after = template.split("%s")
    obj = json.loads(template.replace("%s", "__PATH__"))
    items = ", ".join(f"{json.dumps(k)}: " + ("out_dir" if v == "__PATH__" else json.dumps(v)) for k, v in obj.items())
    fmt = template.replace("{", "{{").replace("}", "}}").replace("%s", "{}")
    fstr = template.replace("{", "{{").replace("}", "}}").replace("%s", "{out_dir}")
    yield "", "", f"{_py(before)} + FLAGS.profiling_dump_path + {_py(after)}"
    yield "", "", f"{_py(template)} % args.profiling_dump_path"
    yield "", "", f"({_py(template)} % (PROFILING_DIR,))"
    yield "", "", f"{_py(fmt)}.format(PROFILING_DIR)"
    yield "", "    out_dir = os.path.join(PROFILING_DIR, 'rank0')\n", "f" + _py(fstr)
    yield "", "    out_dir = os.path.join(FLAGS.profiling_dump_path, \"device_0\")\n", f"json.dumps({{{items}}})"
    yield "", "", f"{_py(template.replace('%s', '/var/log/npu/profiling'))}"
    yield "", "", "json.dumps(HParams.profiling_options)"
    yield (f"\n\ndef profiling_options(out_dir):\n    return {_py(before)} + out_dir + {_py(after)}\n"), "", \
        "profiling_options(PROFILING_DIR)"
    yield "", ("    if args.train_steps > 100:\n        out_dir = PROFILING_DIR\n    else:\n"
               "        out_dir = FLAGS.profiling_dump_path\n"), f"{_py(template)} % out_dir"
    yield "", "    out_dir = os.environ.get(\"PROFILING_DIR\", \"/tmp/p\")\n", f"{_py(template)} % out_dir"
    yield "", "", f"{_py(before)} + os.getenv(\"RESULT_DIR\") + {_py(after)}"
    # options kept in a YAML config read at run time: nothing to check statically
    yield ("\n\ndef load_cfg(path):\n    import yaml\n    with open(path) as fh:\n        return yaml.safe_load(fh)\n"), \
        "    cfg = load_cfg(\"config.yaml\")\n", "cfg[\"profiling\"][\"options\"]"


def write_corpus(out: Path, count: int):
    templates = _templates()
    files = []
    n = 0
    runners = list(RUNNERS.items())
    while n < count:
        for template in templates:
            for helper, before, expr in constructions(template):
                if n >= count:
                    return files
                runner_name, runner = runners[n % len(runners)]
                literal = json.dumps({"output": "profiling", "task_trace": "on", "training_trace": "on",
                                      "fp_point": "", "bp_point": ""})
                body = (HEADER.format(title=f"{runner_name} model", n=n, literal=literal) + helper +
                        "\n\ndef make_config():\n" + ENTRY + before + SWITCH.format(expr=expr) +
                        "    return config\n" + runner +
                        '\n\nif __name__ == "__main__":\n    main()\n')
                path = out / f"train_{n:04d}_{runner_name}.py"
                path.write_text(body, encoding="utf-8")
                files.append(path)
                n += 1
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=300)
    a = parser.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"{len(write_corpus(out, a.files))} files in {out}")


if __name__ == "__main__":
    main()
