"""NPP315: a torch_npu profiler that is built and never started, and the shapes that start it elsewhere."""
import torch_npu
from torch_npu.profiler import profile, schedule, tensorboard_trace_handler


def built_only(loader):
    prof = profile(on_trace_ready=tensorboard_trace_handler("./prof"))  # NPP315: 12
    for batch in loader:
        batch.run()


def stepped_without_schedule(loader):
    prof_b = torch_npu.profiler.profile(on_trace_ready=tensorboard_trace_handler("./prof"))  # NPP315: 14
    for batch in loader:
        batch.run()
        prof_b.step()


def without_handler(loader):
    # NPP315 only: nothing is collected, so NPP307 (collected, then deleted) is not said
    prof_c = profile()  # NPP315: 14
    for batch in loader:
        batch.run()


def stepped_with_schedule(loader):
    # a scheduled step() initialises and starts it at the schedule's steps
    prof_d = profile(schedule=schedule(wait=1, warmup=1, active=1), on_trace_ready=tensorboard_trace_handler("./p"))
    for batch in loader:
        batch.run()
        prof_d.step()


def started(loader):
    prof_e = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
    prof_e.start()
    for batch in loader:
        batch.run()
    prof_e.stop()


def entered(loader):
    prof_f = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
    with prof_f:
        for batch in loader:
            batch.run()


def factory():
    prof_g = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
    return prof_g


def handed_to_a_trainer(trainer):
    prof_h = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
    trainer.fit(profiler=prof_h)


def started_by_a_hook(hooks):
    prof_i = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
    hooks.append(prof_i.start)


def global_name():
    global prof_j
    prof_j = profile(on_trace_ready=tensorboard_trace_handler("./prof"))


# a module-level profiler another module may import and start (no main guard here)
prof_k = profile(on_trace_ready=tensorboard_trace_handler("./prof"))
