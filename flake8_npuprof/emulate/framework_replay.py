"""A torch_npu or MindSpore script replayed (torch_run.py, mindspore_run.py) for `npuprof emulate SCRIPT` and for a
launcher's launch of it (sequence.py): the checks run over the file, then the framework's replay, then its report."""

from __future__ import annotations

from typing import Optional

from ..knowledge.targets import Target
from .environment import Environment
from .replay import parse_script


def emulate_framework(text: str, path: str, framework: str, target: Target, cwd: Optional[str], use_env: bool,
                      environ: Optional[Environment], given=None) -> Optional[dict]:
    """The report of a torch_npu or MindSpore script (torch_run.py, mindspore_run.py), None when the file starts
    no profiler those replay (dynamic profiling, PROF_CONFIG_PATH: said as not replayed). given: the flags a
    launch passes (checks/launch_setup.bind), which decide the `if`s on a profiler's way."""
    from ..checks import run_all
    from ..checks.analysis import Context, Settings
    from ..source.text import SourceText
    from .framework_render import finish as framework_finish
    tree = parse_script(text, path)
    ctx = Context(SourceText(text), tree, path, Settings(target=target, cwd=cwd))
    if given is not None:               # the checks judge the values this launch gives (--level Level1), too
        ctx.resolver.given = given
    run_all(ctx)                        # the checks' findings: what fails, what is reset, what the chip refuses
    if framework == "torch_npu":
        from .torch_run import replay
    else:
        from .mindspore_run import replay
    profilers = replay(ctx, target, cwd, environ if use_env else None)
    if not profilers:
        return None
    return framework_finish(path, framework, profilers, target, cwd, use_env)
