# MS_PROFILER_OPTIONS that MindSpore cannot use: nothing is profiled, or a name is reset.
import json
import os

os.environ["MS_PROFILER_OPTIONS"] = '{"output_path": "./prof", "profiler_level": "Level1"}'  # NPP355: 37
os.environ["MS_PROFILER_OPTIONS"] = "{start: true}"  # NPP355: 37
os.environ.setdefault("MS_PROFILER_OPTIONS", json.dumps({"start": True, "profiler_level": "level1"}))  # NPP355: 46
os.environ["MS_PROFILER_OPTIONS"] = json.dumps({"start": True, "activities": ["NPU"], "export_type": ["db"]})
