# torch.autograd.profiler.profile(**kwargs): use_npu through a dict built in the same scope (NPP308).
import sys

import torch

device = sys.argv[1]
if device.startswith("cuda"):
    prof_kwargs = {"use_cuda": True}
elif device.startswith("npu"):
    prof_kwargs = {"use_npu": True}
else:
    prof_kwargs = {}
with torch.autograd.profiler.profile(**prof_kwargs) as prof:  # NPP308: 38
    pass


def every_path():
    added = {}
    added["use_npu"] = True
    torch.autograd.profiler.profile(**added)  # NPP308: 37
    built = dict(use_npu=True, record_shapes=True)
    torch.autograd.profiler.profile(**built)  # NPP308: 37


def not_followed(extra, flag):
    updated = {"use_npu": False}
    updated.update(extra)
    torch.autograd.profiler.profile(**updated)  # .update(): what it holds is not followed
    late = {}
    if flag:
        late["use_npu"] = True
    torch.autograd.profiler.profile(**late)  # added under a condition after the binding: not followed
    cuda = dict(use_cuda=True)
    torch.autograd.profiler.profile(**cuda)  # no use_npu on any path
    carried = {}
    for step in extra:
        torch.autograd.profiler.profile(**carried)  # the next pass reads the binding below
        carried = {"use_npu": True}
