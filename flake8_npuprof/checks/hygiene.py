"""NPP2xx checks on the content of an options string (hygiene, not runtime failures)."""

from __future__ import annotations

import re
from typing import List, Optional

from ..jsonscan import Doc
from ..model import Issue

# Prefixes of paths that only exist on one person's or one platform's machine.
_HOST_SPECIFIC = re.compile(
    r"^(/home/[^/]+|/root|/cache|/autotest|/npu/[a-z]\d{6,}|/Users/[^/]+|/mnt/[^/]+/[a-z]\d{6,})(/|$)")
# The Ascend guide's ResNet-50 example points (its fp_point glues two op names).
_DOC_EXAMPLE_FP = "resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce"


def check_option_hygiene(text: str, doc: Optional[Doc]) -> List[Issue]:
    if doc is None or not doc.ok:
        return []
    out: List[Issue] = []
    members = {m.key: m for m in doc.members}
    output = members.get("output")
    if output is not None and isinstance(output.value, str) and _HOST_SPECIFIC.match(output.value):
        out.append(Issue("NPP203", output.value_start, output.value_end,
                         f'"output" is a host- or person-specific absolute path ({output.value}): on any '
                         "other machine the directory is missing or not writable and the PROF_* data goes "
                         "nowhere; take it from a flag or use a path relative to the launch directory",
                         None, "output"))
    for key in ("fp_point", "bp_point"):
        m = members.get(key)
        if m is None or not isinstance(m.value, str) or not m.value:
            continue
        why = glued_reason(m.value)
        if why:
            out.append(Issue("NPP204", m.value_start, m.value_end,
                             f'"{key}" cannot be one op name ({why}): GE finds no such node, warns and the '
                             "step trace loses its FP/BP marks; take the name from your own graph dump or "
                             'use "" for the automatic search', None, key))
    return out


def glued_reason(name: str) -> str:
    compact = re.sub(r"\s+", "", name)
    if compact == _DOC_EXAMPLE_FP:
        return "it is the Ascend guide's ResNet-50 example, which glues two op names"
    if re.search(r"\s", name):
        return "it contains whitespace"
    head = name.split("/", 1)[0]
    if len(head) >= 3 and "/" in name:
        # the first scope reappears glued to the end of a later segment: "...add_1converter/..."
        if re.search(r"[^/]" + re.escape(head) + r"/", name):
            return f'the scope "{head}" restarts in the middle of a segment, so several names are glued'
    return ""
