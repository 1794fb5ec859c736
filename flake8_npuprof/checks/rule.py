"""What a rule's page is made of (Rule), how `npuprof explain` and docs/rules/ render it, and
the building blocks the check modules' examples share: the scripts of each route and the
references the pages cite.

Each check module ends with RULES, the pages of the codes it reports (each entry carries a bad
example that must produce its code and a fixed example that must not; tests/test_catalog.py runs
both). checks/catalog.py gathers them.
"""

from __future__ import annotations

from typing import NamedTuple, Tuple


class Rule(NamedTuple):
    code: str
    name: str                 # kebab-case slug naming the bad pattern
    summary: str              # one line, as in RULES.md
    default: bool             # reported without --select/--extend-select of the code
    what: str                 # what it finds
    why: str                  # why it matters on Ascend (what the runtime does)
    example: str              # a small script that triggers the rule
    fixed: str                # the same script written correctly
    fix_safety: str           # "safe", "unsafe", "sometimes" or "none"
    fix_note: str             # what the automatic fix does and why it has that safety
    options: str = ""         # settings that change the rule
    references: Tuple[str, ...] = ()
    settings: Tuple[Tuple[str, str], ...] = ()   # e.g. (("cann", "8.0"),) for the examples
    group: str = ""
    language: str = "python"  # of the examples: "python", "shell" (a launcher), "json" (a profiler_config.json) or
    #                           "yaml" (a MindFormers run configuration)
    facts: Tuple[str, ...] = ()  # the data facts (data/sources.json ids or id prefixes) its claims rest on
    level: str = ""           # LEVELS: what the runtime does with the setting (SARIF level, GitHub annotation)
    fatal: bool = False       # the options never reach collection on the target (NPP116 then stays quiet)
    tags: Tuple[str, ...] = ()  # TAGS: how an editor shows the range (LSP DiagnosticTag)
    enabled_by: str = ""      # off by default: the least specific selected prefix that turns it on (DEFAULT_OFF)

    @property
    def category(self) -> str:
        """The kind of problem its group reports (a SARIF tag)."""
        return GROUPS[self.group][1]


# What the runtime does decides a rule's level. "error": the job fails or aborts (GE initialisation
# rejects the options, a TypeError, InvalidArgument), or the file went unchecked (NPP000, NPP192).
# "warning": the setting is silently ignored, dropped or defaulted, or the run is worse than
# intended (hygiene). "note": guidance or information; the run does what it would do anyway.
LEVELS = ("error", "warning", "note")
# The editor greys out a setting the runtime ignores (points without training_trace, the dropped one of
# two duplicate keys) and strikes through a removed API.
TAGS = ("unnecessary", "deprecated")
# A rule's group: (the title of its part of docs/rules/index.md, the kind of problem it reports).
GROUPS = {"wiring": ("NPP0xx: does the setting reach the runtime?", "correctness"),
          "options": ("NPP1xx: the options JSON", "correctness"),
          "msprof": ("NPP12x: msprof command lines", "correctness"),
          "hygiene": ("NPP2xx: hygiene", "maintainability"),
          "preflight": ("NPP9xx: environment preflight", "environment"),
          "torch_npu": ("NPP30x: torch_npu profiler setup", "correctness"),
          "mindspore": ("NPP35x: MindSpore profiler setup", "correctness")}


def sources_for(rule: Rule) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    """The facts behind a rule's claims (its `facts`, prefixes expanded), each with its source lines
    (`ref` [CANN versions]: what it says (standing)), in the order the rule lists them."""
    from ..knowledge.datafiles import sources
    from ..knowledge.msprof_options import cli
    facts = dict(sources(), **cli()["sources"])
    out: dict = {}
    for prefix in rule.facts:
        for fact, entries in facts.items():
            if fact == prefix or (prefix.endswith(".") and fact.startswith(prefix)):
                lines = out.setdefault(fact, [])
                for e in entries:
                    where = f" [CANN {', '.join(e['versions'])}]" if e.get("versions") else ""
                    line = f"`{e['ref']}`{where}: {e['says']} ({e['standing']})"
                    if e.get("settle"):
                        line += f"; would be settled by: {e['settle']}"
                    if line not in lines:
                        lines.append(line)
    return tuple((fact, tuple(lines)) for fact, lines in out.items())


def render(rule: Rule) -> str:
    """The rule's page in Markdown (also what `npuprof explain` prints)."""
    if rule.group == "preflight":
        state = "runs only with --npuprof-preflight and in `npuprof emulate`"
    else:
        state = "on by default" if rule.default else f"off by default (enable with --extend-select {rule.code})"
    parts = [f"# {rule.code} {rule.name}", "", rule.summary, "", f"*{state}; fix: {rule.fix_safety}*", "",
             "## What it finds", "", rule.what, "", "## Why it matters on Ascend", "", rule.why, "",
             "## Example", "", f"```{rule.language}", rule.example.rstrip(), "```", "",
             "## Use instead", "", f"```{rule.language}", rule.fixed.rstrip(), "```", "",
             "## Fix safety", "", f"{rule.fix_safety.capitalize()}. {rule.fix_note}".rstrip()]
    if rule.options:
        parts += ["", "## Options", "", rule.options]
    if rule.settings:
        parts += ["", "The examples assume " + ", ".join(f"--npuprof-{k} {v}" for k, v in rule.settings) + "."]
    if rule.references:
        parts += ["", "## References", ""] + [f"- {r}" for r in rule.references]
    sources = sources_for(rule)
    if sources:
        parts += ["", "## Sources of the claims", "",
                  "Each fact this page relies on, with the sources that show it. Standing: code = read in the "
                  "runtime's source, executed = the runtime's own code built and run (tests/oracle), doc = "
                  "documented only, inferred = no source says it (with what would settle it). Versions in brackets "
                  "are the CANN versions a source speaks for.", ""]
        for fact, lines in sources:
            parts += [f"- `{fact}`"] + [f"  - {x}" for x in lines]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- building blocks of the examples

_HEAD = """\
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
"""
_TAIL = """\
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""


def _opts(options: str) -> str:
    """A sess.run script whose profiling options are the given JSON text."""
    return _HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n    '{options}')\n" + _TAIL


GOOD_OPTIONS = '{"output":"/tmp/prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'

_NPU_ENTRY = """\
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
"""
_SET_OPTIONS = f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n    '{GOOD_OPTIONS}')\n"
_PROFILING = 'custom_op.parameter_map["profiling_mode"].b = True\n' + _SET_OPTIONS
_MODEL_FN = """\


def model_fn(features, labels, mode):
    ...  # build the model, loss and train_op; return a tf.estimator.EstimatorSpec


"""


def _flagged(flag: str, body: str, imports: str = "") -> str:
    """A sess.run script whose NpuOptimizer lines in `body` run only under `if args.profiling:`."""
    indented = "".join("    " + line + "\n" for line in body.splitlines())
    return ("import argparse\n\n" + imports + "import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
            "parser = argparse.ArgumentParser()\n"
            f"parser.add_argument(\"--profiling\", {flag}, help=\"collect Ascend profiling data\")\n"
            "args = parser.parse_args()\n\n" + _NPU_ENTRY + "if args.profiling:\n" + indented + _TAIL)


_STORE_TRUE = 'action="store_true"'


# ---------------------------------------------------------------- references (Sources of shared/reference)

REF_ENV_OPTIONS = ("CANN environment variable reference, PROFILING_OPTIONS (key list and values): "
                   "https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0116.html")
REF_ENV_OPTIONS_80 = ("CANN 8.0.RC1 environment variable reference, PROFILING_OPTIONS: "
                      "https://www.hiascend.com/document/detail/zh/canncommercial/80RC1/apiref/envvar/envref_07_0103.html")
REF_ENV_MODE = ("CANN environment variable reference, PROFILING_MODE: "
                "https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0115.html")
REF_OPTIONS_80 = ("CANN 8.0 Profiling options: "
                  "https://www.hiascend.com/document/detail/en/canncommercial/800/devaids/profiling/atlasprofiling_16_0039.html")
REF_SESSION = ("TF Adapter 1.x session configuration, Profiling options "
               "(hicann/tensorflow docs/en/tfadapter_1/apiref/session_config/Profiling.md)")
REF_SESSION_OVERVIEW = ("TF Adapter 1.x session configuration overview: "
                        "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/API/tfadapter1x/tfmigr1_tfadapi_0002.html")
REF_PROFILING_CONFIG = ("TF Adapter 1.x ProfilingConfig constructor "
                        "(hicann/tensorflow docs/zh/tfadapter_1/apiref/npu_config/profilingconfig_constructor.md)")
REF_PROFILING_CONFIG_504 = ("CANN 5.0.4 ProfilingConfig: "
                            "https://www.hiascend.com/document/detail/zh/canncommercial/5046/modeldev/tfmigr/tfmigr_tfadapi_0007.html")
REF_TF_APIS = ("Using TensorFlow APIs for data profiling (profiling_mode and PROFILING_MODE): "
               "https://www.hiascend.com/document/detail/en/canncommercial/850/devaids/profiling/atlasprofiling_16_0037.html")
REF_INIT_SYSTEM = ("TF Adapter initialize_system restrictions: "
                   "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/850/API/tfadapter1x/tfmigr1_tfadapi_0071.html")
REF_INIT_SYSTEM_80 = ("TF Adapter 8.0 initialize_system page (still describes the colon-separated options): "
                      "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/API/tfadapter1x/tfmigr1_tfadapi_0071.html")
REF_KERAS = ("Keras mode: init_resource versus set_keras_session_npu_config: "
             "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/migration/tfmigr1/tfmigr1_000059.html")
REF_TF2 = ("TF Adapter 2.x global profiling options: "
           "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/850/migration/tfmigr2/tfmigr2_000072.html")
REF_TF2_API = "TF Adapter 2.x npu.global_options() Profiling (hicann/tensorflow docs/zh/tfadapter_2/apiref/npu-global_options/Profiling.md)"
REF_PROFILER = ("TF Adapter Profiler constructor: "
                "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/850/API/tfadapter1x/tfmigr1_tfadapi_0095.html")
REF_LOCAL_PROFILER = ("Local (Profiler-scope) collection: "
                      "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/migration/tfmigr1/tfmigr1_000061.html")
REF_FP_BP = ("How do I determine fp_point and bp_point: "
             "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/migration/tfmigr1/tfmigr1_000110.html")
REF_GE_FP_BP_SEARCH = ("GE's own search for the points when fp_point/bp_point are empty or absent, and its warnings "
                       "(hicann/ge@ffdcbc9f7 compiler/graph/build/profiling_task_utils.cc L41-43, L104-247, L338-388)")
REF_FP_BP_DYNAMIC = ("PROFILING_OPTIONS reference, note: the points are found automatically except with dynamic shape, "
                     "where they must be set by hand (hicann/oam-tools@ea0ce91 docs/zh/env-vars/PROFILING_OPTIONS.md L273)")
REF_AIC_PRODUCTS = ("aclprofAicoreMetrics product support: "
                    "https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/runtimeapi/aclcppdevg_03_1367.html")
REF_GE_AIC = ("GE ProfilingAicoreMetrics: "
              "https://www.hiascend.com/document/detail/en/CANNCommunityEdition/910/API/ascendgraphapi/atlasgeapi_07_0149.html")
REF_CONSTRAINTS = ("Profiling usage constraints (CANN 5.0.4; no dump while profiling): "
                   "https://www.hiascend.com/document/detail/zh/canncommercial/5046/devtools/auxiliarydevtool/atlasprofiling_16_0011.html")
REF_PROFILING_CONFIG_601 = ("CANN 6.0.1 ProfilingConfig (output directory, storage_limit default): "
                            "https://www.hiascend.com/doc_center/source/zh/canncommercial/601/modeldev/tfmigr1/tfmigr_tfadapi_0041.html")
REF_GLOBAL_VOLUME = ("TF profiling function description (global collection produces a large data volume): "
                     "https://www.hiascend.com/document/detail/en/TensorFlowCommercial/800/migration/tfmigr1/tfmigr1_000054.html")
REF_E10001 = "GE error code E10001 Invalid_Argument (hicann/ge docs/en/user_guides/error_codes/E10001-Invalid_Argument.md)"
REF_GE_INIT = "GE ProfilingInit option parsing (hicann/ge runtime/v1/common/profiling/profiling_init.cc)"
REF_COLLECTOR = ("msprof collector GE-option whitelist and checks (Ascend/msprof collector/dvvp/message/prof_json_config.cpp, "
                 "params_adapter/params_adapter_geopt.cpp, common/validation/param_validation.cpp)")
REF_OAM = "CANN 8.5+ collector (hicann/oam-tools src/msprof/collector/dvvp: prof_acl_mgr.cpp, param_validation.cpp)"
REF_NPU_ATTRS = "TF Adapter NpuOptimizer parameter parsing (hicann/tensorflow tf_adapter/util/npu_attrs.cc)"
REF_NPU_INIT = "TF Adapter helpers npu_config_proto / npu_run_config_init / init_resource (tf_adapter/python/npu_bridge/npu_init.py)"
REF_ESTIMATOR = "TF Adapter NPUEstimator (tf_adapter/python/npu_bridge/estimator/npu/npu_estimator.py)"
REF_ADAPTER_R111 = "TF Adapter r1.1.1 ProfilingConfig(enable_options, fp_point, bp_point) and commit 75a73d1c (2020-12, JSON options)"
REF_MSPROF_CLI = ("msprof command-line parser (hicann/oam-tools src/msprof/collector/dvvp/msprofbin at v8.5.0, v9.0.0, "
                  "v9.1.0: input_parser.h, input_parser.cpp, input_parser_open.cpp (8.5) and input_parser_closed.cpp "
                  "(9.x), run as the oracle of docs/oracle.md; legacy Ascend/msprof collector/dvvp/msprofbin and "
                  "params_adapter)")
REF_MSPROF_DOC = ("msprof quick start: collecting with `msprof --application=... --output=...` and the PROF_XXX "
                  "directory it leaves (Ascend/msprof docs/en/getting_started/quick_start.md)")
REF_MODELZOO = "Ascend/ModelZoo-TensorFlow: recurring profiling-configuration mistakes in committed training scripts"

_ANY_CANN = ("--npuprof-cann (default `any`) decides which versions count: with `any` the rule reports only "
             "what every supported CANN version rejects, with `portable` what at least one version rejects, "
             "and with a version such as `8.0` or `8.5` what that version rejects.")
_ANY_SOC = ("--npuprof-soc (default `any`) picks the product: with `any` only what every product rejects is "
            "reported; name a product (`310`, `910`, `310P`, `910B`, `910C`, `310B`, `950`) to check for it.")
