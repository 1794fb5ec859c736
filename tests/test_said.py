"""A finding is data (issue 40, item 2; source/said.py): the rules build its fields, and the message, the short
sentence and the detail are renderings of them. Nothing cuts a finished message back into parts."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from message_corpus import messages
from flake8_npuprof.checks.catalog import RULES
from flake8_npuprof.source.model import Edit, Finding, Fix, finding
from flake8_npuprof.source.said import (ABORT, Runtime, Said, aside, balanced, clause, latent, logged, said, so,
                                        unreached)

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("gen_snapshots", ROOT / "tools" / "gen_snapshots.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

# a sentence cut short ends on a separator or on a word that joins it to what is missing
_DANGLING = re.compile(r"(?:[:;,(\[]|\b(?:and|or|the|a|an|of|to|so|but|with|which))$")


def sentence_problem(short: str) -> str:
    """Why `short` is not one complete sentence with balanced quotes and brackets ("" when it is)."""
    if not short or short != short.strip():
        return "empty or padded"
    if "\n" in short:
        return "more than one line"
    if not balanced(short):
        return "a quote or bracket it opens is not closed"
    if _DANGLING.search(short):
        return "cut off"
    return ""


def test_the_sentence_check_can_fail():
    assert sentence_problem('"aicpu": "ON" is not one of "on"/"off": GE initialisation fails and the job aborts') == ""
    # NPP108's short form before: it opened a quote and a parenthesis and never closed them
    assert sentence_problem('"output" contains characters some collectors refuse (\'"\'): GE initialisation fails') == ""
    assert sentence_problem('"output" contains characters (x: GE initialisation fails') != ""
    assert sentence_problem('"output: GE initialisation fails') != ""
    assert sentence_problem("the options are ignored and") != ""
    assert sentence_problem("the options are ignored:") != ""
    assert sentence_problem("a\nb") != ""
    assert sentence_problem('"output": "/a\\"b" is written with a JSON escape') == ""


def _page_findings():
    for rule in RULES:
        name, found = gen.page_findings(rule)
        for f in found:
            yield f"{rule.code}'s page", f


def test_every_short_message_is_one_complete_sentence():
    """Over every finding of the committed corpora (the eval files, the examples on every target, the real options
    strings) and of the rule pages' examples (what tests/snapshots shows)."""
    rows = [(f"{r.corpus}:{r.file}:{r.line} ({r.target})", r.finding) for r in messages()] + list(_page_findings())
    assert len(rows) > 1000 and len({f.code for _, f in rows}) > 60
    bad = [(where, f.code, f.short, sentence_problem(f.short)) for where, f in rows if sentence_problem(f.short)]
    assert not bad, "\n".join(map(str, bad[:10]))
    # and the detail says the rest, a part a line (as fields: no rendering splits it), never a line of it empty
    assert all(line.strip() and "\n" not in line for _, f in rows for line in f.detail_lines)
    assert all(f.detail == "\n".join(f.detail_lines) for _, f in rows)


def test_a_condition_is_a_field_and_the_consequence_takes_its_tense():
    words = Said('"hccl": "no" is not one of "on"/"off"',
                 runtime=(Runtime("CANN 8.0", clause("the collector rejects it", so(ABORT))),), advice=('write "off"',))
    f = finding("NPP102", words, 0, 1, 1, 0, 1, 1)
    assert f.message == ('"hccl": "no" is not one of "on"/"off": on CANN 8.0 the collector rejects it, so GE '
                         'initialisation fails and the job aborts; write "off"')
    gone = f.given(unreached(18))
    assert gone.said.conditions == (unreached(18),) and gone.said.runtime == words.runtime
    assert gone.message == ("not reached from this file's entry point (line 18): " + f.message.replace(
        "fails and the job aborts", "will fail and the job will abort"))
    both = f.given(latent("profiling is switched off here")).given(unreached(3))
    assert both.message.startswith("not reached from this file's entry point (line 3): latent (profiling is switched "
                                   "off here); once GE reads these options: \"hccl\"")
    assert both.short.startswith("not reached from its entry point: latent (profiling is switched off here): ")


def test_an_outcome_names_its_later_form_and_no_text_is_rewritten():
    """The tense is the outcome's own (`so(ABORT)`), chosen where the rule writes it; a text that only reads like
    an outcome is left as it is, and a log line is a part the short sentence leaves out by construction."""
    words = said('"hccl": "no" is not one of "on"/"off"',
                 clause("the collector rejects it", logged(' ("Argument hccl: invalid value: no.")'), so(ABORT)),
                 f"not {ABORT} but worse")
    later = words.given(unreached(3))
    assert later.message == ("not reached from this file's entry point (line 3): \"hccl\": \"no\" is not one of "
                             "\"on\"/\"off\": the collector rejects it (\"Argument hccl: invalid value: no.\"), so GE "
                             f"initialisation will fail and the job will abort; not {ABORT} but worse")
    assert later.short == ('not reached from its entry point: "hccl": "no" is not one of "on"/"off": GE '
                           "initialisation will fail and the job will abort")
    assert '"Argument hccl: invalid value: no."' in later.detail


def test_an_aside_is_a_part_the_short_sentence_keeps_only_while_it_is_short():
    """A note in brackets is an `aside(...)` part of the text a rule writes (its problem or its consequence): the
    short sentence keeps one of up to 30 characters, then of up to 12 if it is still too long, and never cuts
    brackets out of a text by pattern (said.py's `_clean` and `_tidy` are gone)."""
    from flake8_npuprof.source import said as said_module
    assert not hasattr(said_module, "_clean") and not hasattr(said_module, "_tidy")
    words = said(clause("profiling_options is not valid JSON",
                        aside("expected a double-quoted key at character 2 of the options")),
                 clause("GE cannot parse it", so(ABORT)), "fix the JSON syntax")
    assert words.message == ("profiling_options is not valid JSON (expected a double-quoted key at character 2 of the "
                             "options): GE cannot parse it, so GE initialisation fails and the job aborts; fix the JSON "
                             "syntax")
    assert words.short == ("profiling_options is not valid JSON: GE cannot parse it, so GE initialisation fails and the "
                           "job aborts")
    assert words.detail_lines[0] == words.message.rsplit("; ", 1)[0]
    # a short aside stays while the sentence fits; a long one in the same text goes
    advice = "take the level from the guide of the release the job runs on, which names the levels it knows"
    kept = said(clause("aic_metrics L2Cache", aside("the default"), " at profiler_level Level0",
                       aside("set by the launcher through --level on line 12")), "torch_npu drops it", advice)
    assert len(kept.message) > 120
    assert kept.short == "aic_metrics L2Cache (the default) at profiler_level Level0: torch_npu drops it"
    # brackets a rule writes as plain text are its own words: shown as written
    plain_text = said("aic_metrics L2Cache (set by the launcher through --level on line 12)", "torch_npu drops it",
                      advice)
    assert plain_text.short == "aic_metrics L2Cache (set by the launcher through --level on line 12): torch_npu drops it"


def test_a_phrase_of_one_release_is_the_reaction_records():
    """torch_npu 6.0.rc1 warns on every rank, 6.0.rc3 on rank 0 only: the reaction record (`Warns`) words each release,
    where `_worded` rewrote the phrase in a finished text with `.replace`; MindSpore's releases are the subject the
    message gives its reaction, not a word substituted into it."""
    from flake8_npuprof.checks.mindspore_dynamic_json import check_text
    from flake8_npuprof.checks.torch_npu_report import BUILD_50, Warns
    warns = Warns("resets it to Level0")
    assert str(warns.on("7.3", "7.3")) == "resets it to Level0 with a warning on rank 0 only"
    # the 6.0.rc1 aside goes with the 6.0 line alone (compose keeps it on a group of releases that holds 6.0)
    assert str(warns.on("7.3", "any")) == "resets it to Level0 with a warning on rank 0 only"
    assert str(warns.on("6.0", "any")) == ("resets it to Level0 with a warning on rank 0 only (6.0.rc1: on every "
                                           "rank)")
    assert warns.on("5.0", "any") == BUILD_50
    [f] = check_text('{"start_step": "5", "stop_step": 9}')
    assert f.message == ("start_step \"5\" is not an integer: MindSpore 2.7-2.10 resets it to -1 with a warning in its "
                         "log (\"'start_step' should be int, but got str. will be reset to default value: '-1'.\"), "
                         "which its documentation says never starts a collection; write an integer")
    assert f.short == ('start_step "5" is not an integer: MindSpore 2.7-2.10 resets it to -1 with a warning in its log, '
                       "which its documentation says never starts a collection")


def test_no_rule_writes_an_outcome_into_a_text():
    """An f-string that interpolates ABORT would lose the later form a condition gives it: rules write so(ABORT)."""
    found = []
    for path in (ROOT / "flake8_npuprof" / "checks").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr) and any(
                    isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.value.id == "ABORT"
                    for v in node.values):
                found.append((path.name, node.lineno))
    assert not found


def test_a_plain_sentence_is_its_own_short_message():
    f = finding("NPP191", "analysis budget exhausted: the setup at line 3 was not fully checked", 0, 1, 1, 0, 1, 1)
    assert f.said is None and f.short == f.message and f.detail == ""


def test_user_text_in_every_field_is_shown_printable():
    f = finding("NPP101", said('unknown key "a\x1bb"', "the collector rejects it", 'did you mean "a\u202eb"?'),
                0, 1, 1, 0, 1, 1)
    assert "\x1b" not in f.message and "\\x1b" in f.message and "\\u202e" in f.detail + f.short


def test_the_cache_keeps_the_fields():
    from flake8_npuprof.commands.cache import _finding, _from
    words = Said("w", clause("c", logged(' ("l")'), so(ABORT)),
                 (Runtime("CANN 9.1", "t", "b"), Runtime("CANN 8.0", clause("u", so("v")))), ("a",), "(ctx)", "--x",
                 (latent("why"),), (3,), ("7.3",))
    f = Finding("NPP102", words.message, 1, 2, 1, 1, 1, 2, Fix((Edit(1, 2, "x"),), True, "t"), words)
    import json
    assert _from(json.loads(json.dumps(_finding(f)))) == f


def test_no_code_parses_a_message_back():
    """The split of a finished message and the rewriting of its tense are gone; emulate's msprof reads codes from
    the outcomes, not from their text."""
    from flake8_npuprof.source import brief
    assert not hasattr(brief, "split")
    package = ROOT / "flake8_npuprof"
    for path in package.rglob("*.py"):
        if path.name == "said.py":
            continue                # the renderer gives the outcome it names the tense of the conditions
        text = path.read_text(encoding="utf-8")
        assert "replace(ABORT" not in text, path
        assert 'startswith("NPP128 ")' not in text and 'split(" ", 1)[0] for m in o.messages' not in text, path


_CODE_TEXT = re.compile(r"(\[|\] )?NPP")      # a code, or a targets tag before one, looked for in a text
_TEXT = re.compile(r"\bmessages?$|\.message\b|^m$")   # a finding's or an outcome's message


def _reads_a_message(node) -> bool:
    """A test of a message's text for a code or a phrase, or a cut of it: `m.startswith("NPP")`, `"] NPP" in m`,
    `m.split()[0]`, `p in i.message`, `"characters long" in issue.message`, `f.message.split(":")`."""
    def text(n) -> bool:
        return bool(_TEXT.search(ast.unparse(n)))

    def constant(n) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("startswith", "endswith", "split", "rsplit", "partition", "find", "index"):
        first = node.args[0] if node.args else None
        on_code = ast.unparse(node.func.value).endswith(".code")      # a code's own field: its family
        return text(node.func.value) or (constant(first) and not on_code and bool(_CODE_TEXT.match(first.value)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("search", "match", "fullmatch", "findall", "finditer"):
        return any(text(a) for a in node.args)         # a pattern run over a message: _QUOTED.search(i.message)
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        right = ast.unparse(node.comparators[0])
        return bool(re.search(r"\.message\b", right)) or (constant(node.left) and (
            text(node.comparators[0]) or bool(_CODE_TEXT.match(node.left.value))))
    return False




def _found(paths, predicate) -> set:
    """(file name, source) of each node of the files `predicate` holds for."""
    return {(path.name, ast.unparse(node)) for path in paths
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if predicate(node)}


PACKAGE = sorted((ROOT / "flake8_npuprof").rglob("*.py"))


# a text field (`p.reaction`, `what`, `message`), or a phrase or a named phrase (RANK0) replaced in some text
_TEXT_FIELD = re.compile(r"(?:^|\.|_)(?:message|messages|reaction|reactions|what|why|consequence|advice|detail|short|"
                         r"said|words|sentence)$")
_PHRASE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")


def _rewrites_a_text(node) -> bool:
    """A `.replace(...)` that rewrites words of a message or a reaction: `reaction.replace(RANK0, RANK0_60)`,
    `p.reaction.replace("MindSpore", ...)`, `what.replace("the script", script)`. HOLE, the mark of an unknown part
    of a value, is a value's, not a phrase."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace"
            and node.args):
        return False
    first = node.args[0]
    return bool(_TEXT_FIELD.search(ast.unparse(node.func.value))) or (
        isinstance(first, ast.Constant) and isinstance(first.value, str) and bool(_PHRASE.search(first.value))) or (
        isinstance(first, ast.Name) and first.id.isupper() and first.id != "HOLE")


# The replacements that are no message's or reaction's (the list may only shrink)
NOT_A_MESSAGE = {
    # a rule page's example script built from another
    ("torch_npu_loop.py", "_NEVER_STARTED.replace('    for step', '    prof.start()\\n    for step')"),
    # emulate's copy of GE's own E10001 line (data/collection.json) with the reason the version's GE gives: the
    # runtime's words as recorded, not a finding's
    ("runtime.py", "text.replace('The current value is not within the valid range.', "
                   "G.facts(version)['e10001_reason'])"),
}


def test_no_code_rewrites_a_message_with_replace():
    found = _found(PACKAGE, _rewrites_a_text)
    assert found <= NOT_A_MESSAGE, found - NOT_A_MESSAGE
    for line in ("reaction.replace(RANK0, RANK0_60)", "p.reaction.replace('MindSpore', f'MindSpore {r}', 1)",
                 "what.replace('the script', script, 1)", "p.why.replace('dynamic profiling:', x, 1)"):
        assert any(_rewrites_a_text(n) for n in ast.walk(ast.parse(line))), line
    for line in ("value.replace(HOLE, '<unknown>')", "rel.replace(os.sep, '/')", "name.replace('_', '-')"):
        assert not any(_rewrites_a_text(n) for n in ast.walk(ast.parse(line))), line


def test_emulate_reads_no_message_back():
    """emulate decides from fields (Message.code/.where, Issue.stops/.facts), never from a message's text: the
    failure a report leads with, the code of a target's row, the fatal options issue, the runtime's logged line."""
    paths = sorted((ROOT / "flake8_npuprof" / "emulate").glob("*.py")) + [ROOT / "flake8_npuprof/commands/emulate.py"]
    assert _found(paths, _reads_a_message) == set()


# What the message test flags elsewhere in the package that is no finding's message: a comment's or an option's
# codes, a JSON-RPC message (the list may only shrink; a launch's reason text is a field now: Launch.named, .unfound)
NOT_A_FINDING = {
    ("noqa_comments.py", "'NPP' in text"), ("noqa_comments.py", "code.startswith('NPP')"),
    ("plugin.py", "'NPP' in text"), ("plugin.py", "p.startswith('NPP')"), ("config.py", "c.startswith('NPP')"),
    ("server_start.py", "'id' in message"), ("server_start.py", "'id' not in message"),
}


def test_the_package_reads_no_finding_message_back():
    """No module decides from a finding's text: dynamic_files matched a torch_npu and a MindSpore problem by
    `f.message.startswith(key)`; they now share a key field."""
    found = _found(PACKAGE, _reads_a_message)
    assert found <= NOT_A_FINDING, found - NOT_A_FINDING
    assert ("dynamic_files.py", "f.message.startswith(p.key + ' ')") not in found


def test_the_message_test_finds_what_emulate_did():
    """The test above fails on the forms emulate used (they are gone, so it must be shown to catch them)."""
    for line in ('m.startswith("NPP")', '"] NPP" in m', "m.split()[0]", 'm.split("] ", 1)', "any(p in i.message for p in P)",
                 '"characters long" in issue.message', "f.message.split(':')[0]", 'word.startswith("NPP")',
                 '"MemoryAccess" in chip[0].message', "_QUOTED.search(issue.message)"):
        assert any(_reads_a_message(n) for n in ast.walk(ast.parse(line))), line
    for line in ("HOLE not in m.text", "Message(collector) not in o.messages", "m.code and m.where is None",
                 'key.startswith("aic")', 'f.code.startswith("NPP35")'):
        assert not any(_reads_a_message(n) for n in ast.walk(ast.parse(line))), line


@pytest.mark.parametrize("cann", ["8.0"])
def test_what_only_some_builds_do_keeps_its_scope(cann):
    """A short sentence cut to fit never says that every build fails when some builds do."""
    from flake8_npuprof.commands.validate import _findings
    from flake8_npuprof.knowledge.targets import Target
    [f] = [f for f in _findings('{"output":"/tmp/a%b","task_trace":"on"}', Target.parse(cann, "any"))
           if f.code == "NPP108"]
    assert f.short == ("\"output\" contains characters some collectors refuse ('%'): on some builds, GE "
                       "initialisation fails and the job aborts")


# the old way the lines were found: read back from the message (kept here only to check the fields against it)
_LINE_REF = re.compile(r"(?:\(|\bon )line (\d+)\b")


def test_the_lines_a_finding_names_are_a_field():
    """SARIF's related locations and the editor's related information come from the finding's fields; over the
    corpora and the pages' examples they are the lines its message names, in order."""
    rows = [r.finding for r in messages()] + [f for _, f in _page_findings()]
    named = [f for f in rows if f.lines_named]
    assert len(named) > 20
    wrong = [(f.code, f.message, f.lines_named) for f in rows
             if tuple(dict.fromkeys(int(n) for n in _LINE_REF.findall(f.message))) != f.lines_named]
    assert not wrong, wrong[:5]


_POSITIONAL = ("import torch_npu\nfrom torch_npu.profiler import ProfilerActivity\n"
               "with torch_npu.profiler.profile([ProfilerActivity.NPU]) as prof:\n"
               "    for i in range(10):\n        prof.step()\n")


@pytest.mark.parametrize("release, fails_on, verdict", [
    ("portable", ("6.0", "7.0", "7.1", "7.2", "7.3", "26.0", "26.1"), "unknown"),    # 5.0 takes it
    ("7.3", ("7.3",), "fails"),
])
def test_which_releases_raise_is_a_field_emulate_reads(tmp_path, capsys, release, fails_on, verdict):
    """NPP303's releases that raise TypeError are a field of its words (`fails_on`), and emulate's verdict on the
    profiler comes from it: every release of the target raises, or it is not known that the run fails."""
    import json
    from flake8_npuprof.checks.analysis import Settings, analyse
    from flake8_npuprof.cli import main
    from flake8_npuprof.knowledge.targets import Target
    [f] = [f for f in analyse(_POSITIONAL, None, "t.py", Settings(target=Target.parse("any", "any", release)))
           if f.code == "NPP303"]
    assert f.said.fails_on == fails_on
    script = tmp_path / "train.py"
    script.write_text(_POSITIONAL, encoding="utf-8")
    main(["emulate", "--cann", "any", "--soc", "any", "--torch-npu", release, "--format", "json", "--cwd",
          str(tmp_path), str(script)])
    report = json.loads(capsys.readouterr().out)
    assert [p["verdict"] for p in report["profilers"]] == [verdict], report
