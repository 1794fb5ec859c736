import argparse


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof_opts", default='{"output": "/tmp/p", "task_trace": "on", "l2": "of"}')
    args = parser.parse_args()
    return args
