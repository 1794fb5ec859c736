# What the evaluator does not follow itself (inherited class attributes) goes to astroid,
# kept inside the file; without a position map the finding sits on the expression.
import tensorflow as tf


class Base:
    OPTS = '{"output":"/tmp/p","task_trace":"on","L2":"on"}'


class Child(Base):
    pass


config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = tf.compat.as_bytes(Child.OPTS)  # NPP101: 62
sess = tf.Session(config=config)
