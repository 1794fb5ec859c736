PROF_DIR = "/tmp/prof"
PROF_OPTS = '{"output": "%s", "traning_trace": "on"}' % PROF_DIR
