"""ResNet-50 training with sess.run, profiling as the Ascend migration guide shows it."""
import argparse

import tensorflow as tf
from npu_bridge.npu_init import *
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=1000)
parser.add_argument("--profiling", action="store_true", help="collect Ascend profiling data")
args = parser.parse_args()

config = tf.ConfigProto(allow_soft_placement=True)
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["use_off_line"].b = True
custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    # 采集迭代轨迹和算子耗时
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"./output/profiling","training_trace":"on","task_trace":"on",'
        '"fp_point":"","bp_point":"","aic_metrics":"PipeUtilization","storage_limit":"2048MB"}')
config.graph_options.rewrite_options.remapping = RewriterConfig.OFF
config.graph_options.rewrite_options.memory_optimization = RewriterConfig.OFF

images = tf.random.uniform([32, 224, 224, 3])
logits = tf.keras.applications.ResNet50(weights=None)(images)
loss = tf.reduce_mean(logits)
train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)

with tf.Session(config=npu_config_proto(config_proto=config)) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        sess.run(train_op)
