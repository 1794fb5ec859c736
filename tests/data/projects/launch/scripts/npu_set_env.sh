# the environment of the NPU host
export ASCEND_HOME=/usr/local/Ascend
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output": "/tmp/prof_env", "task_trace": "on", "aicpu": "on"}'
