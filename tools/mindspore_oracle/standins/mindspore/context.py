"""Stand-in for mindspore.context: what the profiler's context reads of it (an Ascend device, no jit config)."""


def get_context(key):
    return {"device_target": "Ascend", "device_id": 0, "mode": 0}.get(key)


def get_jit_config():
    return {}
