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


def test_the_readme_documents_the_prefixes_the_messages_print():
    from pathlib import Path
    from flake8_npuprof.setups.state import State, for_state
    from flake8_npuprof.source.said import ABORT, clause, logged, said, so, unreached
    readme = " ".join(Path(__file__).resolve().parent.parent.joinpath("README.md").read_text("utf-8").split())
    words = said('"training_trace": "off" is not "on" or ""',
                 clause("GE rejects it", logged(' ("Training trace param:off is invalid.")'), so(ABORT)),
                 'drop "training_trace"')
    latent = for_state(words, State("off", "switch"))
    assert latent.message == ('latent (profiling is switched off here); once GE reads these options: "training_trace": '
                              '"off" is not "on" or "": GE rejects it ("Training trace param:off is invalid."), so GE '
                              'initialisation will fail and the job will abort; drop "training_trace"')
    assert latent.short.startswith("latent (profiling is switched off here): ") and \
        latent.detail.splitlines()[0] == "latent (profiling is switched off here); once GE reads these options"
    assert "`latent (<why GE does not read them>); once GE reads these options:`" in readme
    assert "one-line form (flake8, `npuprof check`) starts with `latent (<why GE does not read them>): `" in readme
    gone = words.given(unreached(7))
    assert gone.message.startswith("not reached from this file's entry point (line 7): \"training_trace\"")
    assert "will fail and the job will abort" in gone.message
    assert gone.short.startswith("not reached from its entry point: ") and \
        gone.detail.splitlines()[0] == "not reached from this file's entry point (line 7)"
    assert "`not reached from this file's entry point (line N): ` (the one-line form: `not reached from its " \
        "entry point: `, the line in its detail" in readme


def test_a_byte_order_mark_is_said_to_be_the_collectors_refusal():
    from flake8_npuprof.checks.options import check_options
    text = '\ufeff{"output":"/tmp/p","task_trace":"on"}'
    [issue] = check_options(text, Target("9.1")).issues
    assert (issue.code, issue.i, issue.j, issue.effect) == ("NPP100", 0, 1, "abort")
    assert issue.message == (
        "profiling_options starts with a byte-order mark (U+FEFF), which GE's JSON parser skips but the collector's "
        'own reader does not: on CANN 8.5 and later the collector rejects the options ("Failed to parse geoption '
        'configs. Error reason: Input json string error"), so GE initialisation fails and the job aborts; remove the '
        "mark")
    assert "GE cannot parse" not in issue.message and issue.fix.safe and issue.fix.edits == ((0, 1, ""),)


def test_an_escaped_value_is_shown_as_written_never_on_is_not_on():
    from flake8_npuprof.checks.options import check_options
    text = '{"output":"/tmp/p","training_trace":"\\u006fn","fp_point":"","bp_point":""}'
    [issue] = [i for i in check_options(text, Target("8.5")).issues if i.code == "NPP103"]
    start = text.index('"\\u006fn"')
    assert (issue.i, issue.j) == (start, start + len('"\\u006fn"'))
    assert issue.message == (
        '"training_trace": "\\u006fn" is written with a JSON escape, which GE reads as "on" but the collector reads '
        'as written: on CANN 8.5 the collector rejects it ("Argument training_trace: invalid value: \\u006fn. Please '
        'input \'on\' or \'off\'."), so GE initialisation fails and the job aborts; write "on" without escapes')
    assert '"on" is not "on"' not in issue.message
    assert issue.fix.safe and issue.fix.edits == ((start + 1, start + 8, "on"),)


LONG_PART = '{"output":"/tmp/' + "a" * 300 + '/p","task_trace":"on"}'


@pytest.mark.parametrize("cann", ["8.5", "9.1"])
def test_npp108_a_part_over_255_bytes_cannot_be_created(cann):
    from flake8_npuprof.checks.options import check_options
    from flake8_npuprof.source.said import balanced
    [issue] = check_options(LONG_PART, Target(cann)).issues
    assert issue.code == "NPP108" and issue.effect == "abort"
    assert issue.message == (
        '"output": "/tmp/' + "a" * 50 + '…" has a part of 300 bytes, over the 255 bytes a directory name may have, '
        f"so the directory cannot be created: on CANN {cann} the collector rejects it (\"Result path is empty or not "
        'accessible, result path: "), so GE initialisation fails and the job aborts; shorten each part of the path '
        "to at most 255 bytes")
    short = issue.words.short
    assert balanced(short) and short.endswith("so the directory cannot be created: GE initialisation "
                                                         "fails and the job aborts")
    assert "character" not in issue.message


def test_npp108_9x_names_the_character_and_8_5_checks_none():
    from flake8_npuprof.checks.options import check_options
    text = '{"output":"/tmp/a;b","task_trace":"on"}'
    assert not check_options(text, Target("8.5")).issues
    [issue] = check_options(text, Target("9.0")).issues
    assert issue.message == (
        '"output": "/tmp/a;b" holds \';\', which the collector refuses in the result path: on '
        'CANN 9.0 the collector rejects it ("The path /tmp/a;b contains invalid character \\;."), so GE '
        "initialisation fails and the job aborts; use a path without \" ' \\ % > < | & $ ; ` and control characters")


def test_npp108_page_says_what_each_version_checks():
    from pathlib import Path
    page = " ".join((Path(__file__).resolve().parent.parent / "docs" / "rules" / "NPP108.md").read_text("utf-8").split())
    assert "From 8.5 on the collector checks neither" not in page
    assert "a directory whose name (one part of the path) is over 255 bytes cannot be created" in page
    assert "The 8.5 collector checks no characters; 9.0 and 9.1 refuse" in page


def test_npp192_texts_share_one_form():
    from flake8_npuprof.checks.analysis import parse, undecodable
    from flake8_npuprof.source.files import DecodeError
    import sys
    version = "Python %d.%d" % sys.version_info[:2]
    syntax = parse("print 'x'\n")
    assert syntax.message.startswith("the file does not parse: ") and \
        syntax.message.endswith(f" ({version}'s parser), so nothing in it was checked")
    decode = undecodable(DecodeError("byte 0xb2 is not UTF-8, and no coding line declares another encoding", 2, 2,
                                     "x = 1\n# \ufffd\n"))
    assert decode.message == (
        "the file does not decode: byte 0xb2 is not UTF-8, and no coding line declares another encoding, so Python "
        "refuses to run it as a script and nothing in it was checked; save it as UTF-8 or declare its encoding on "
        "line 1 or 2 (`# -*- coding: gbk -*-` for GBK)")
    assert (decode.line, decode.col) == (2, 2)


@pytest.mark.parametrize("text, message", [
    ("import json, sys\nimport tensorflow as tf\nconfig = tf.ConfigProto()\n"
     "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
     "op.parameter_map['profiling_mode'].b = True\nop.parameter_map['profiling_options'].s = sys.argv[1].encode()\n",
     "profiling_options are not checked: their value is known only when the script runs"),
])
def test_npp190_reads_plainly(text, message):
    from flake8_npuprof.source.files import Selection
    from flake8_npuprof.engine.run import check_text
    found = [f for f in check_text("t.py", text, "python", Settings(), Selection(select=("NPP",),
                                                                                extend_select=("NPP190",)))
             if f.code == "NPP190"]
    assert found and found[0].message.startswith(message), [f.message for f in found]
