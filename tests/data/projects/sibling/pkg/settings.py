OPTIONS = '{"output": "/tmp/prof", "task_trace": "on", "aicpu": "of"}'
