"""One regression test per row of the knowledge audit (shared/reference/knowledge_audit.md, C1-C21 and its
section 7 reproductions), under the named target and the default one, plus provenance for every data fact."""

import json
import re

import pytest

from flake8_npuprof.knowledge import datafiles as K
from flake8_npuprof.checks.options import check_options
from flake8_npuprof.knowledge.collection import data as collection_data, effective_switches
from flake8_npuprof.knowledge.targets import Target

ADAPTER_DEFAULT = ('{"output":"/tmp/p","training_trace":"on","task_trace":"on","hccl":"on","aicpu":"on",'
                   '"aic_metrics":"PipeUtilization","msproftx":"off","fp_point":"","bp_point":""}')


def issues(text, cann="any", soc="any"):
    return check_options(text, Target.parse(cann, soc)).issues


def codes(text, cann="any", soc="any"):
    return {i.code for i in issues(text, cann, soc)}


def message(text, code, cann="any", soc="any"):
    found = [i.message for i in issues(text, cann, soc) if i.code == code]
    assert len(found) == 1, issues(text, cann, soc)
    return found[0]


def test_C1_hccl_on_310B_accepted_from_8_5_warned_before():
    assert codes(ADAPTER_DEFAULT, "8.5", "310B") == set()
    assert codes(ADAPTER_DEFAULT, "9.1", "310B") == set()
    assert codes(ADAPTER_DEFAULT, "any", "310B") == set()
    msg = message('{"output":"/p","task_trace":"on","hccl":"on"}', "NPP114", "8.0", "310B")
    assert "on CANN 8.0 the collector drops it with only a plog warning" in msg and "aborts" not in msg


def test_C2_sys_interconnection_freq_collected_on_310P():
    for cann in ("8.5", "9.1", "any"):
        assert codes('{"output":"/p","task_trace":"on","sys_interconnection_freq":10}', cann, "310P") == set()
    assert codes('{"output":"/p","task_trace":"on","sys_interconnection_freq":"10"}', "8.0", "310P") == set()


def test_C3_training_trace_on_310_by_version():
    text = '{"output":"/p","task_trace":"on","training_trace":"on","fp_point":"","bp_point":""}'
    assert codes(text, "9.1", "310") == codes(text, "9.0", "310") == set()
    assert codes(text, "8.5", "310") == set()           # no open-source 8.5 collector for the 310
    assert "drops it with only a plog warning" in message(text, "NPP114", "8.0", "310")
    assert codes(text, "any", "310") == set()


def test_C4_instr_profiling_freq_alone_not_rejected_from_8_5():
    text = '{"output":"/p","task_trace":"on","instr_profiling_freq":1000}'
    for cann in ("8.5", "9.0", "9.1", "any"):
        assert "NPP114" not in codes(text, cann, "910")
    assert "NPP114" in codes('{"output":"/p","instr_profiling_freq":"1000"}', "8.0", "910")


def test_C5_output_chars_only_some_8_0_builds():
    text = '{"output":"$HOME/prof","task_trace":"on"}'
    for cann in ("any", "7.0", "8.5"):
        assert codes(text, cann) == set()
    # the runtime's own check (Utils::CheckPathWithInvalidChar), executed: tests/oracle/v9.*.jsonl
    for cann in ("9.0", "9.1"):
        assert "contains invalid character \\$" in message(text, "NPP108", cann)
    msg = message(text, "NPP108", "8.0")
    assert "on some builds of CANN 8.0 (collectors built 2024-11 to 2025-12)" in msg
    tab = message('{"output":"/tmp/a\\tb","task_trace":"on"}', "NPP108", "8.0")
    assert "collectors built 2024-03 to 2025-12" in tab
    assert "on CANN 9.0 and 9.1 the collector rejects it" in message(text, "NPP108", "portable")
    assert [i.partial for i in issues(text, "8.0")] == [True]


def test_C6_output_length_only_up_to_8_0():
    # 8.5+ checks no length, but a single name over 255 bytes cannot be created (executed: refused)
    text = json.dumps({"output": "/" + "a" * 1100, "task_trace": "on"})
    assert "Result path is empty or not accessible" in message(text, "NPP108", "9.1")
    assert "measured on the absolute path" in message(text, "NPP108", "8.0")
    short_names = json.dumps({"output": "/a" * 550, "task_trace": "on"})
    assert codes(short_names, "8.5") == codes(short_names, "9.1") == set()


def test_C7_empty_output_falls_back_from_8_5():
    # 8.5+: "" means $ASCEND_WORK_PATH; the record runs without it and the collector refuses
    text = '{"output":"","task_trace":"on"}'
    for cann in ("8.5", "9.1"):
        [issue] = issues(text, cann)
        assert issue.code == "NPP108" and issue.effect == "env" and "ASCEND_WORK_PATH" in issue.message
    assert message(text, "NPP108", "8.0").startswith('"output" is empty: on CANN 8.0 profiling init fails')


def test_C8_empty_storage_limit_accepted_everywhere():
    text = '{"output":"/p","task_trace":"on","storage_limit":""}'
    for cann in ("any", "portable") + K.VERSIONS:
        assert codes(text, cann) == set()


def test_C9_ge_api_documented_but_rejected():
    # the collectors up to 8.0 lack it; the built 8.5+ collectors whitelist it (hicann/runtime
    # prof_acl_mgr.h GEOPTION_CONFIG_VECTOR) and take off/l0/l1 (executed)
    text = '{"output":"/p","task_trace":"on","ge_api":"l0"}'
    assert "target CANN 8.5, 9.0 and 9.1" in message(text, "NPP113", "8.0")
    assert codes(text, "9.1") == codes(text, "8.5", "910B") == codes(text) == set()


def test_C10_task_time_refused_on_8_5_taken_on_9_x():
    # the audits read oam-tools' 9.x copy, which no build uses; the built collector (hicann/runtime)
    # takes task_time on every chip at 9.0 and 9.1, and refuses it on 8.5 (executed)
    text = '{"output":"/p","task_time":"on"}'
    assert '("Argument [task_time] is not supported.")' in message(text, "NPP113", "8.5")
    assert codes(text, "9.0") == codes(text, "9.1") == codes(text) == set()
    assert codes('{"output":"/p","task_time":"l3"}', "9.1", "910") == {"NPP114"}


def test_C11_task_tsfw_and_sys_mem_serviceflow_not_on_9_0():
    assert "NPP113" in codes('{"output":"/p","task_trace":"on","task_tsfw":"on"}', "9.0")
    assert "NPP113" in codes('{"output":"/p","task_trace":"on","sys_mem_serviceflow":"x"}', "9.0")
    assert codes('{"output":"/p","task_trace":"on","task_tsfw":"on"}', "8.5", "910B") == set()


def test_C12_host_sys_numa_only_from_9_1():
    text = '{"output":"/p","task_trace":"on","host_sys":"cpu,numa"}'
    assert "NPP102" in codes(text, "8.5") and "NPP102" in codes(text, "9.0")
    assert codes(text, "9.1") == set() and codes(text) == set()


def test_C13_empty_llc_profiling_refused_from_8_5():
    text = '{"output":"/p","task_trace":"on","llc_profiling":""}'
    assert "NPP102" in codes(text, "8.5") and "NPP102" in codes(text, "9.1")
    assert codes(text, "8.0") == set() and codes(text) == set()


def test_C14_custom_metrics_70_chars_on_8_5():
    text = json.dumps({"output": "/p", "task_trace": "on", "aic_metrics": "Custom:" + ",".join(["0x10"] * 16)})
    assert "NPP106" in codes(text, "8.5")
    assert "NPP106" in codes(text)                      # every version limits the length


def test_C15_off_of_an_unsupported_switch_rejected_from_8_5():
    # (the audit's example l2:"off" on the 910 is wrong: cloud_platform.cpp has PLATFORM_TASK_L2_CACHE_REG)
    text = '{"output":"/p","task_trace":"on","instr_profiling":"off"}'
    assert "aborts" in message(text, "NPP114", "8.5", "910")
    assert codes('{"output":"/p","task_trace":"on","l2":"off"}', "9.1", "310") == {"NPP114"}
    assert codes('{"output":"/p","task_trace":"on","l2":"off"}', "8.5", "910") == set()
    assert codes('{"output":"/p","task_trace":"on","l2":"off"}', "8.0", "310") == set()


def test_C16_storage_limit_on_8_5_is_prefix_parsed():
    msg = message('{"output":"/p","task_trace":"on","storage_limit":"5000GB"}', "NPP107", "8.5")
    assert "5000 MB, as the limit" in msg and "no limit" not in msg
    msg = message('{"output":"/p","task_trace":"on","storage_limit":"abcMB!"}', "NPP107", "9.1")
    assert "std::stoull throws" in msg


def test_C17_task_time_default_on_from_8_5_overrides_task_trace_off():
    # the built collector reads task_trace, then task_time with the default "on", from 8.5 on
    # (hicann/runtime prof_acl_mgr.cpp MsprofInitGeOptionsParamAdaper; the audit read 9.0 only)
    assert collection_data()["switches"]["task_time"]["default_on_from"] == "8.5"
    for version in ("8.5", "9.0", "9.1"):
        collected, _ = effective_switches({"output": "/p", "task_trace": "off"}, version, "910")
        assert collected == ["task_trace"]
    collected, _ = effective_switches({"output": "/p", "task_trace": "off"}, "8.0", "910")
    assert collected == []


def test_C18_frequencies_dropped_silently_up_to_8_0():
    msg = message('{"output":"/p","task_trace":"on","sys_io_sampling_freq":"10"}', "NPP114", "8.0", "310P")
    assert "without a message" in msg and "plog" not in msg


def test_C19_memory_access_on_910B_by_build():
    text = '{"output":"/p","task_trace":"on","aic_metrics":"MemoryAccess"}'
    assert "NPP106" in codes(text, "7.0", "910B")
    assert "on some builds of CANN 8.0 (collectors built before 2024-12-17)" in message(text, "NPP106", "8.0", "910B")
    assert codes(text, "8.5", "910B") == codes(text, "any", "910B") == set()


def test_C20_8_0_output_is_three_behaviours():
    some = K.property_schema("8.0", "output")["x-npuprof-some-builds"]
    assert len(some) == 2 and "pattern" not in K.property_schema("8.0", "output")


def test_C21_npp009_says_later_entries_reset_options():
    from flake8_npuprof.checks.catalog import BY_CODE
    assert "default set" in BY_CODE["NPP009"].why


def test_section4_domains():
    assert codes('{"output":"/p","task_trace":"on","task_memory":"yes"}', "8.5", "910") == {"NPP102"}
    assert codes('{"output":"/p","task_trace":"on","task_block":""}', "9.1", "310B") == {"NPP102"}
    assert codes('{"output":"/p","task_trace":"on","task_block":"on"}', "9.1", "910B") == {"NPP114"}
    assert codes('{"output":"/p","task_trace":"on","sys_lp_freq":500}', "9.1", "950") == {"NPP109"}
    assert codes('{"output":"/p","task_trace":"on","sys_lp_freq":50}', "9.1", "950") == set()
    assert codes('{"output":"/p","task_trace":"on","sys_lp_freq":50}', "9.1", "910B") == {"NPP114"}
    assert "NPP113" in codes('{"output":"/p","task_trace":"on","scale":"x"}', "9.1")
    assert codes('{"output":"/p","task_trace":"l3"}', "9.1", "910B") == set()
    assert codes('{"output":"/p","task_trace":"l3"}', "9.1", "910") == {"NPP114"}
    assert codes('{"output":"/p","task_trace":"l3"}', "8.5", "310") == set()     # not open source


def _data(name):
    with open(K.HERE / "data" / f"{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _fields(table):
    return [k for k in table if not k.startswith("$")]


def needed_facts():
    """Every fact of data/*.json, by the id data/sources.json files it under."""
    needed = {f"schema.{k}" for k in K.all_keys() if k == k.lower()}
    products = K.products()
    needed |= {f"products.{f}" for f in _fields(products) if f != "products"}
    for name, prod in products["products"].items():
        needed |= {f"products.{name}.{f}" for f in ("aic_metrics", "aic_remap", "aiv_follows_aic", "platform",
                                                    "task_engine")}
        needed |= {f"products.{name}.{f}" for f in ("llc_profiling", "max_freq") if prod.get(f)}
        needed |= {f"products.{name}.unsupported.{k}" for k in prod["unsupported"]}
        needed |= {f"products.{name}.value_unsupported.{k}.{v}" for k, vs in prod["value_unsupported"].items()
                   for v in vs}
        needed |= {f"products.{name}.metric_builds.{m}" for m in prod.get("metric_builds", {})}
    data = collection_data()
    needed |= {f"collection.switch.{k}" for k in data["switches"]}
    needed |= {f"collection.runtime_default_options.{k}" for k in data["runtime_default_options"]}
    needed |= {f"collection.emulation.{k}" for k in _fields(data["emulation"]) if k != "messages"}
    needed |= {f"collection.emulation.messages.{k}" for k in _fields(data["emulation"]["messages"])}
    needed |= {f"collection.documented_rejected_keys.{k}" for k in _fields(data["documented_rejected_keys"])}
    needed |= {"collection.bookkeeping"}
    needed |= {f"machine.{k}" for k in _fields(_data("machine"))}
    needed |= {f"option_keys.meaning.{k}" for k in _data("option_keys")["meaning"]}
    needed |= {f"ge_options.{k}" for k in _fields(_data("ge_options")) if k != "versions"}
    needed |= {f"ge_options.{k}" for v in _data("ge_options")["versions"].values() for k in v if k != "tag"}
    needed |= {f"msprof_cli.{k}" for k in _fields(_data("msprof_cli")) if k != "sources"}
    needed |= {f"mindformers.{k}" for k in _fields(_data("mindformers"))}
    needed |= {f"prefix_commands.{k}" for k in _fields(_data("prefix_commands"))}
    needed |= {f"msprof_parser.{k}" for k in _fields(_data("msprof_parser")) if k != "versions"}
    needed |= {f"msprof_parser.versions.{v}.{k}" for v, table in _data("msprof_parser")["versions"].items()
               for k in table}
    return needed


# our own notes (the knowledge files and audits of this workplace) are never a source
OWN_NOTES = re.compile(r"knowledge_audit|profiling_options_facts|ascend_ecosystem|adapter_entries|audit \d|"
                       r"^unverified$|^none$", re.I)
MOVING = re.compile(r"@(master|main|develop|dev)\b")
PRIMARY = re.compile(r"^[\w.-]+/[\w.-]+@[\w.^~-]+:\S+|^https?://\S+|^tests/oracle/v[\d.]+\.jsonl$|"
                     r"^tests/oracle/\w+/records\.jsonl$")


def all_sources():
    """data/sources.json, and the msprof command line's own sources (data/msprof_cli.json "sources")."""
    return {**K.sources(), **_data("msprof_cli").get("sources", {})}


def test_every_data_fact_has_a_source():
    facts = all_sources()
    missing = sorted(f for f in needed_facts() if not facts.get(f))
    assert missing == [], f"{len(missing)} facts without a source: {missing[:12]}"


def test_every_source_is_primary_or_says_why_it_is_inferred():
    for fact, entries in all_sources().items():
        for e in entries:
            assert e["says"] and e["standing"] in ("code", "doc", "inferred", "executed"), (fact, e)
            assert not OWN_NOTES.search(e["ref"]), (fact, e["ref"])
            if e["standing"] == "inferred":
                # an inference names its reason and what would settle it
                assert e.get("settle"), (fact, e)
            else:
                assert PRIMARY.match(e["ref"]), (fact, e["ref"])
                # a branch moves: the cited lines must stay the ones that were read
                assert not MOVING.search(e["ref"]), (fact, e["ref"])


@pytest.mark.parametrize("target", ("any", "portable") + K.VERSIONS)
def test_every_schema_property_carries_its_sources(target):
    for key, sub in K.schema(target)["properties"].items():
        if key == key.lower():
            assert sub.get("x-sources"), (target, key)


def test_explain_shows_the_sources():
    from flake8_npuprof.checks.catalog import BY_CODE, render
    page = render(BY_CODE["NPP108"])
    assert "## Sources of the claims" in page and "hicann/runtime@v8.5.0" in page


def test_C5_emulate_on_8_0_keeps_some_builds_as_a_note(capsys, tmp_path):
    from flake8_npuprof.cli import main
    script = tmp_path / "train.py"
    script.write_text('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
                      'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
                      'op.parameter_map["profiling_mode"].b = True\n'
                      'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/$HOME/p","task_trace":"on"}\'\n'
                      'sess = tf.Session(config=config)\n')
    main(["emulate", "--format", "json", "--cann", "8.0", "--soc", "910", str(script)])
    setup = json.loads(capsys.readouterr().out)["setups"][0]
    assert setup["verdict"] == "collects"
    assert any("on some builds of CANN 8.0" in m for m in setup["messages"])


# ---------------------------------------------------------------- corrections the primary sources forced (issue 24)

def _emulate(capsys, tmp_path, options, cann, soc):
    from flake8_npuprof.cli import main
    script = tmp_path / "train.py"
    script.write_text('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
                      'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
                      'op.parameter_map["profiling_mode"].b = True\n'
                      f"op.parameter_map[\"profiling_options\"].s = b'{options}'\n"
                      'sess = tf.Session(config=config)\n')
    main(["emulate", "--format", "json", "--cann", cann, "--soc", soc, str(script)])
    return json.loads(capsys.readouterr().out)["setups"][0]


@pytest.mark.parametrize("name", [
    "Framework.task_desc_info.0.slice_0",         # file_name_manager.py GE_TASK_FILE_PATTERN
    "HCCL.hcom_allReduce_1_2_3.0.slice_0",        # HCCL_HCOM_FILE_PATTERN
    "runtime.api.0.slice_0",                      # RUNTIME_API_FILE_PATTERN
    "instr.group_0_aic.0.slice_0",                # BIU_PERF_FILE_PATTERN
    "host_sys_cpu.data.slice_0",                  # HOST_SYS_CPU_USAGE_FILE_PATTERN
    "host_sys_mem.data.slice_0",                  # HOST_SYS_MEM_FILE_PATTERN
])
def test_raw_file_names_are_the_ones_msprof_parses(name):
    from flake8_npuprof.emulate import layout
    patterns = [p for spec in collection_data()["switches"].values() for where in spec["raw"].values()
                for p in (where if isinstance(where, list) else [x for xs in where.values() for x in xs])]
    assert any(layout._regex(p).match(name) for p in patterns), name


def test_aicpu_exports_no_dp_file():
    # dp_*.csv needs data preprocessing offload, not the aicpu switch (profile_data_file_references.md)
    assert collection_data()["switches"]["aicpu"]["exported"] == ["aicpu_<ts>.csv"]


def test_npp104_follows_the_chips_step_trace_by_version():
    text = '{"output":"/p","task_trace":"on","training_trace":"on"}'
    assert "NPP104" in codes(text, "9.1", "310")        # mini_platform.cpp has PLATFORM_TASK_TRAINING_TRACE
    assert "NPP104" not in codes(text, "8.0", "310")    # dropped up to 8.0: no trace points to ask for
    assert "NPP104" in codes(text, "any", "any")


def test_emulate_quotes_what_the_legacy_collector_logs(capsys, tmp_path):
    silent = _emulate(capsys, tmp_path, '{"output":"/tmp/p","task_trace":"on","sys_io_sampling_freq":"10"}',
                      "8.0", "310P")
    assert silent["messages"] == ["NPP114 sys_io_sampling_freq is dropped: Atlas inference cards have no NIC/RoCE "
                                  "sampling (without a message)"]
    long_path = _emulate(capsys, tmp_path, json.dumps({"output": "/" + "a" * 1100, "task_trace": "on"}), "7.0", "910")
    assert long_path["messages"][0] == ('NPP108 msprof collector: "Invalid value for Argument \'output\'. The maximum '
                                        'length is 1024."')
    storage = _emulate(capsys, tmp_path, '{"output":"/tmp/p","task_trace":"on","storage_limit":"abcMB"}', "8.0", "910")
    assert storage["messages"][0] == 'NPP107 msprof collector: "storage_limit:abcMB, …"'
    switch = _emulate(capsys, tmp_path, '{"output":"/tmp/p","task_trace":"on","runtime_api":"ON"}', "8.0", "910")
    assert switch["messages"][0] == 'NPP102 msprof collector: "The switch runtime-api should be set to on or off."'


def test_internal_keys_of_8_5_only():
    meaning = _data("option_keys")["meaning"]
    for key in ("task_tsfw", "sys_mem_serviceflow"):
        assert K.versions_accepting(key) == ("8.5",) and "8.5 collector" in meaning[key]
    assert K.versions_accepting("fwk_schedule") == () and "refuses it as unknown" in meaning["fwk_schedule"]


# ---------------------------------------------------------------- item 3: every consequence a page states shows its source

# rules that state nothing about the runtime: the checker's own coverage and errors
NO_RUNTIME_CLAIM = {"NPP000", "NPP190", "NPP191", "NPP206"}   # NPP206: a comment that silences nothing

# a consequence a rule page states -> the facts one of which must back it
CONSEQUENCE_FACTS = (
    ("aborts", ("collection.emulation.adapter_abort",)),
    ("GE initialisation fails", ("collection.emulation.e10001",)),
    ("TypeError", ("collection.emulation.python_errors", "adapter.profiling_config_args",
                   "torch_npu.experimental_config.keywords", "torch_npu.schedule.keywords",
                   "mindspore.schedule.keywords", "mindspore.experimental_config.keywords",
                   "torch_npu.utils_profile.torch", "torch_npu.utils_profile.kwargs",
                   "mindformers.code", "mindspeed_rl.config")),
    ("plog warning", ("collection.emulation.messages.NPP114",)),
    ("Ge has already initialized", ("collection.emulation.already_initialised",)),
    ("cannot be found", ("collection.emulation.trace_point_warnings",)),
    ("can't be found", ("collection.emulation.trace_point_warnings",)),
    ("InvalidArgument", ("adapter.profiler_scope_exclusive",)),
)


def _listed(rule):
    facts = all_sources()
    return {f for prefix in rule.facts for f in facts
            if f == prefix or (prefix.endswith(".") and f.startswith(prefix))}


def test_every_rule_with_a_runtime_claim_lists_its_facts():
    from flake8_npuprof.checks.catalog import RULES
    missing = [r.code for r in RULES if r.code not in NO_RUNTIME_CLAIM and not r.facts]
    assert missing == []
    for rule in RULES:
        for prefix in rule.facts:     # every id or prefix names at least one fact that has a source
            assert any(f == prefix or (prefix.endswith(".") and f.startswith(prefix)) for f in all_sources()), \
                (rule.code, prefix)


@pytest.mark.parametrize("phrase,facts", CONSEQUENCE_FACTS)
def test_each_stated_consequence_has_its_fact(phrase, facts):
    from flake8_npuprof.checks.catalog import RULES
    stating = [r for r in RULES if r.code not in NO_RUNTIME_CLAIM and phrase.lower() in (r.why + " " + r.summary).lower()]
    assert stating, phrase                      # the table names consequences the pages do state
    unbacked = [r.code for r in stating if not _listed(r).intersection(facts)]
    assert unbacked == [], f"{phrase!r} stated without {facts}: {unbacked}"


def test_explain_shows_each_fact_with_its_refs():
    from flake8_npuprof.checks.catalog import RULES, render
    facts = all_sources()
    for rule in RULES:
        page = render(rule)
        for fact in _listed(rule):
            assert f"- `{fact}`" in page, (rule.code, fact)
            for e in facts[fact]:
                assert f"`{e['ref']}`" in page, (rule.code, fact, e["ref"])


def test_every_source_id_is_a_data_fact_or_a_rule_claim():
    from flake8_npuprof.checks.catalog import RULES
    from flake8_npuprof.emulate import develop_copy, global_args, imported, legacy_api, mindspeed_fsdp, mindspeed_mm, \
        mindspore_run, mindspeed_llm_fsdp, mindspeed_profile, mindspeed_rl, replay, script, torch_run
    from flake8_npuprof.shell import launches, redirects
    from flake8_npuprof.values import config_args, passed_args, yaml_config
    used = set(needed_facts()).union(*(_listed(r) for r in RULES), torch_run.FACTS, mindspore_run.FACTS,
                                     launches.FACTS, redirects.FACTS, global_args.FACTS, passed_args.FACTS,
                                     script.FACTS, config_args.FACTS, replay.FACTS, imported.FACTS, legacy_api.FACTS,
                                     yaml_config.FACTS, mindspeed_mm.FACTS, develop_copy.FACTS, mindspeed_profile.FACTS,
                                     mindspeed_fsdp.FACTS, mindspeed_llm_fsdp.FACTS, mindspeed_rl.FACTS)
    assert set(mindspeed_llm_fsdp.FACTS) <= set(K.sources()) and set(mindspeed_rl.FACTS) <= set(K.sources())
    assert set(legacy_api.FACTS) <= set(K.sources()) and set(mindspeed_mm.FACTS) <= set(K.sources())
    assert set(mindspeed_profile.FACTS) <= set(K.sources()) and set(mindspeed_fsdp.FACTS) <= set(K.sources())
    # schema.* and ge_options.* are kept by tools/gen_schemas.py's owner (schema.fwk_schedule: no version has the key)
    orphans = sorted(f for f in set(K.sources()) - used if not f.startswith(("schema.", "ge_options.")))
    assert orphans == []
