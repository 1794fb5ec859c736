import argparse

import tensorflow as tf

tf.app.flags.DEFINE_string("prof_out", "/tmp/p", "where")
FLAGS = tf.app.flags.FLAGS

parser = argparse.ArgumentParser()
parser.add_argument("--options", default='{"output": "/tmp/p", "task_trace": "yes"}')
args = parser.parse_args()
