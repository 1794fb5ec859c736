"""Texts a user misreads, corrected where they are made (issue 41, item 5)."""

from __future__ import annotations

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.knowledge.targets import Target

PC = "from npu_bridge.estimator.npu.npu_config import ProfilingConfig\npc = ProfilingConfig(enable_profiling=True)\n"


@pytest.mark.parametrize("cann, defaults", [
    ("9.1", 'output "./", training_trace, task_time, hccl, aicpu, aic_metrics PipeUtilization'),
    ("8.5", 'output "./", training_trace, task_trace, hccl, aicpu, aic_metrics PipeUtilization'),
    ("any", 'CANN 7.0, 8.0, 8.5: output "./", training_trace, task_trace, hccl, aicpu, aic_metrics PipeUtilization; '
            'CANN 9.0, 9.1: output "./", training_trace, task_time, hccl, aicpu, aic_metrics PipeUtilization'),
])
def test_npp002_names_only_what_the_targets_adapters_do(cann, defaults):
    [f] = [f for f in analyse(PC, None, "t.py", Settings(target=Target.parse(cann))) if f.code == "NPP002"]
    assert f.message == ("ProfilingConfig switches profiling on without profiling_options: the adapter substitutes "
                         f"its defaults ({defaults}); give the options explicitly")
    assert "r1." not in f.message
