"""The rule catalog: one entry per NPP code, the single source of each rule's page.

`npuprof explain`, the generated docs (docs/rules/), SARIF rule metadata and the
tests of examples all read these entries. Each entry carries a bad example that must
produce its code and a fixed example that must not (tests/test_catalog.py runs both
through the analyser, with the entry's target settings).
"""

from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

from .collection import EXPLICIT_DEFAULTS


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
    language: str = "python"  # of the examples: "python" or "shell" (a launcher)
    facts: Tuple[str, ...] = ()  # the data facts (data/sources.json ids or id prefixes) its claims rest on


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


# ---------------------------------------------------------------- building blocks of the examples

def _opts_chunks(chunks: Tuple[str, ...]) -> str:
    """Like _opts, with the options written as implicitly concatenated literals (long strings)."""
    body = "\n".join(f"    '{c}'" for c in chunks)
    return _HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n{body})\n" + _TAIL


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


def _estimator(profiling_config_line: str, run_config: str) -> str:
    return ("import tensorflow as tf\n"
            "from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n"
            "from npu_bridge.estimator.npu.npu_estimator import NPUEstimator\n" + _MODEL_FN +
            profiling_config_line +
            f"run_config = NPURunConfig(\n    model_dir=\"/tmp/model\",\n    save_checkpoints_steps=1000,\n{run_config})\n"
            "estimator = NPUEstimator(model_fn=model_fn, config=run_config)\n")


_PROFILING_CONFIG = ("profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
                     f"    profiling_options='{GOOD_OPTIONS}')\n")


def _tf_estimator(run_config_args: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n" + _MODEL_FN + _NPU_ENTRY + _PROFILING +
            f"run_config = tf.estimator.RunConfig(\n{run_config_args})\n"
            "estimator = tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))\n")


def _keras(init_resource_args: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n" + _NPU_ENTRY + _PROFILING +
            f"init_sess, npu_init = init_resource({init_resource_args})\n"
            "npu_keras_sess = set_keras_session_npu_config(config=config)\n"
            "model = tf.keras.applications.ResNet50(weights=None)\n")


def _env(mode: str) -> str:
    return ("import os\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
            f"os.environ[\"PROFILING_MODE\"] = \"{mode}\"\n"
            f"os.environ[\"PROFILING_OPTIONS\"] = '{GOOD_OPTIONS}'\n\n"
            "sess = tf.Session(config=npu_config_proto())\n")


_TF2_SETTINGS = ("npu.global_options().profiling_config.enable_profiling = True\n"
                 f"npu.global_options().profiling_config.profiling_options = '{GOOD_OPTIONS}'\n")


def _tf2(before_open: str, after_open: str) -> str:
    return ("import npu_device as npu\nimport tensorflow as tf\n\n" + before_open +
            "npu.open().as_default()\n" + after_open +
            "\nmodel = tf.keras.applications.ResNet50(weights=None)\n")


def _profiler_scope(config_lines: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
            "from npu_bridge.profiler.profiler import Profiler\n\n" + _NPU_ENTRY + config_lines +
            "train_op = tf.no_op(name=\"train_step\")\n\n"
            "with tf.Session(config=npu_config_proto(config_proto=config)) as sess:\n"
            "    with Profiler(level=\"L1\", aic_metrics=\"PipeUtilization\", output_path=\"/tmp/prof\"):\n"
            "        sess.run(train_op)\n")


# The runtime's own default set (tfadapter r1.8+), written out with the points the guide asks for.
_DEFAULTS_EXPLICIT = EXPLICIT_DEFAULTS

# A deeply nested scope, for op names long enough to overflow the 2048-byte options buffer.
_DEEP = "".join(f"stage{i}/unit{i}/" for i in range(70))
_LONG_OPTIONS_CHUNKS = (
    ('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",',)
    + ('"fp_point":"',) + tuple(_DEEP[k:k + 80] for k in range(0, len(_DEEP), 80)) + ('conv1/Conv2D",',)
    + ('"bp_point":"gradients/',) + tuple(_DEEP[k:k + 80] for k in range(0, len(_DEEP), 80))
    + ('conv1/Conv2D_grad/Conv2DBackpropFilter"}',))

_DOC_RESNET_FP = "resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce"


_LAUNCHERS_NOT_REWRITTEN = ("`npuprof fix` applies it to msprof runs in Python calls; shell launchers are checked, "
                            "not rewritten.")


def _launcher(msprof_options: str) -> str:
    """A shell launcher that profiles train.py with msprof and the given options."""
    return ("#!/bin/bash\n# run_prof.sh: profile a short training run on one device\n"
            "export ASCEND_DEVICE_ID=0\n"
            f"msprof --output=/tmp/prof {msprof_options} \\\n    python3 train.py --max_steps=20\n")


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
REF_MSPROF_CLI = ("msprof command-line parser (hicann/oam-tools src/msprof/collector/dvvp/msprofbin: "
                  "input_parser.h, input_parser.cpp, input_parser_open.cpp; legacy Ascend/msprof collector/dvvp/msprofbin "
                  "and params_adapter)")
REF_MSPROF_DOC = ("msprof quick start: collecting with `msprof --application=... --output=...` and the PROF_XXX "
                  "directory it leaves (Ascend/msprof docs/en/getting_started/quick_start.md)")
REF_MODELZOO = "Ascend/ModelZoo-TensorFlow: recurring profiling-configuration mistakes in committed training scripts"

_ANY_CANN = ("--npuprof-cann (default `any`) decides which versions count: with `any` the rule reports only "
             "what every supported CANN version rejects, with `portable` what at least one version rejects, "
             "and with a version such as `8.0` or `8.5` what that version rejects.")
_ANY_SOC = ("--npuprof-soc (default `any`) picks the product: with `any` only what every product rejects is "
            "reported; name a product (`310`, `910`, `310P`, `910B`, `910C`, `310B`, `950`) to check for it.")
_PREFLIGHT = ("Runs only with --npuprof-preflight (flake8) and always in `npuprof emulate`; it looks at the "
              "machine the check runs on, so run it where the job will run.")

RULES: Tuple[Rule, ...] = (
    # ================================================================ NPP0xx: wiring
    Rule(
        code="NPP000",
        name="analysis-internal-error",
        summary="internal error while analysing this file (reported instead of crashing flake8)",
        default=True,
        what="The checker itself failed on this file (an unexpected construct, or code nested too deeply). "
             "It reports the exception in one finding on line 1 instead of letting flake8 stop.",
        why="Nothing is wrong on the Ascend side as far as the checker knows, but none of the other NPP checks "
            "ran for this file, so its profiling setup is unchecked and a broken options string would still "
            "make GE initialisation fail at run time.",
        example=_opts(GOOD_OPTIONS),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: report the file (or a reduced copy) so the checker can be corrected. Any correct "
                 "script can hit it; the example shows an ordinary script only because the error depends on "
                 "the checker, not on the code.",
        group="wiring",
    ),
    Rule(
        code="NPP001",
        name="profiling-options-without-mode",
        summary="profiling options are set but profiling is not switched on for that config (`profiling_mode` "
                "absent, or False where profiling is evidently meant — e.g. inside `if args.profiling:`; "
                "`enable_profiling` False/absent likewise; `PROFILING_OPTIONS` without `PROFILING_MODE`) — the "
                "options are ignored. An explicit, unconditional off switch beside parked options "
                "(`PROFILING_MODE=false  # true to profile`) is deliberate: not NPP001",
        default=True,
        what="A config that carries profiling options while its on-switch is missing, or false where "
             "profiling is evidently meant: `profiling_options` without any `profiling_mode`, "
             "`profiling_mode = False` inside an `if args.profiling:` branch, `ProfilingConfig(profiling_options=...)` "
             "without `enable_profiling`, or `PROFILING_OPTIONS` in an environment without `PROFILING_MODE`. "
             "An explicit, unconditional off switch next to the options (`PROFILING_MODE=false  # true to "
             "profile`, `enable_profiling=False`) parks them on purpose and is not reported; problems in such "
             "parked options are still reported, worded as latent (\"latent (profiling is switched off here); "
             "once GE reads these options: ...\"), because they break the run the day the switch is turned on.",
        why="The adapter forwards the options only together with the switch, and GE reads them only when "
            "the mode is on, so the string is never used: no PROF_* directory appears and nothing is logged. "
            "Environment variables still win in that case, so a stray `PROFILING_MODE` can profile with "
            "other options than the script shows.",
        example=_flagged(_STORE_TRUE, 'custom_op.parameter_map["profiling_mode"].b = False\n' + _SET_OPTIONS),
        fixed=_flagged(_STORE_TRUE, _PROFILING),
        fix_safety="unsafe",
        fix_note="Sets the switch to on (`profiling_mode.b = True`, `enable_profiling=True`) when the options "
                 "sit inside a branch that is clearly meant for profiling. Unsafe: it starts collection, "
                 "which slows the job and writes data, and the `False` might have been deliberate.",
        references=(REF_SESSION, REF_TF_APIS, REF_GE_INIT, REF_MODELZOO),
        group="wiring",
    ),
    Rule(
        code="NPP002",
        name="profiling-mode-without-options",
        summary="profiling switched on without options: the runtime substitutes its default set (output `./`, "
                "training/task trace, hccl, aicpu, PipeUtilization), or fails / collects nothing on some routes",
        default=True,
        what="Profiling is switched on (`profiling_mode`, `enable_profiling`, `PROFILING_MODE=true`) but no "
             "options string is given, or it is empty. For `PROFILING_MODE=true` (in a launcher or from "
             "Python) it is reported only when the file never mentions `PROFILING_OPTIONS` at all, since the "
             "calling environment may provide them.",
        why="What happens then depends on the route and the adapter release: TF Adapter r1.8 and later "
            "quietly use a built-in set that writes to the current directory, r1.2-r1.7 stop with "
            "\"profiling_options must be set when use profiling\" (as `npu_resource_init` still does for "
            "`None`), and with TF2 or `npu_resource_init` an empty string makes GE fall back on the "
            "environment variables, so usually nothing is collected.",
        example=_HEAD + _TAIL,
        fixed=_opts(_DEFAULTS_EXPLICIT),
        fix_safety="safe",
        fix_note="Writes out the option set the current adapter would substitute, plus empty `fp_point`/"
                 "`bp_point` (the automatic search the runtime uses anyway, and what NPP104 asks for). "
                 "Behaviour stays the same where the adapter fills in its defaults and becomes explicit where "
                 "it would fail or collect nothing.",
        references=(REF_SESSION, REF_PROFILING_CONFIG, REF_ENV_OPTIONS, REF_NPU_ATTRS),
        group="wiring",
        facts=("collection.runtime_default_options.", "collection.emulation.adapter_default"),
    ),
    Rule(
        code="NPP003",
        name="npu-optimizer-misnamed",
        summary="a custom optimizer carries NPU parameters but its name is not exactly `NpuOptimizer` — "
                "the adapter never reads it",
        default=True,
        what="A `custom_optimizers.add()` entry that receives NPU `parameter_map` settings while its "
             "`name` is something other than `NpuOptimizer` (or is never set). Only parameters no other "
             "optimizer takes count: TF-TRT's `TensorRTOptimizer` has its own `precision_mode`, so that "
             "name alone (or a few generic words such as `deterministic`) says nothing; a name that can only "
             "mean the NPU optimizer (`NPUOptimizer`, `npu_optimiser`) counts with any NPU parameter.",
        why="The TF adapter looks only for custom optimizers whose name is exactly `NpuOptimizer`. "
            "An entry called `NPUOptimizer` is silently skipped, so profiling, precision and every other "
            "NPU setting on it never reach the runtime.",
        example=_HEAD.replace('"NpuOptimizer"', '"NPUOptimizer"') +
        f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n" + _TAIL,
        fixed=_HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n"
        + _TAIL,
        fix_safety="safe",
        fix_note="Renames a near-miss (`NPUOptimizer`, `npu_optimizer`) to `NpuOptimizer`: the user "
                 "evidently meant the NPU optimizer.",
        references=(REF_SESSION, REF_NPU_ATTRS),
        group="wiring",
    ),
    Rule(
        code="NPP004",
        name="wrong-attr-value-field",
        summary="wrong AttrValue field: `profiling_mode` must be set with `.b`, `profiling_options` with `.s` "
                "(others read as false/empty); `precision_mode.b = True` next to profiling options is almost "
                "surely meant as `profiling_mode`",
        default=True,
        what="A `parameter_map` entry written through the wrong member of the AttrValue: "
             "`profiling_mode` through `.s`/`.i` instead of the bool `.b`, `profiling_options` through "
             "anything but the bytes `.s`, or `parameter_map[\"precision_mode\"].b = True` in a block that "
             "sets profiling options but no `profiling_mode`.",
        why="The adapter reads `profiling_mode` with the bool accessor and `profiling_options` with the bytes "
            "accessor; a value stored in another member reads as false or empty without any error. Profiling "
            "then stays off, or the adapter swaps in its default options. `precision_mode` is a string "
            "setting, so the `.b` write changes nothing and the intended switch is never set.",
        example=_HEAD.replace('["profiling_mode"].b = True', '["profiling_mode"].s = b"true"') + _SET_OPTIONS + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="sometimes",
        fix_note="`profiling_mode.s = b\"true\"` becomes `profiling_mode.b = True` (safe: the literal says what "
                 "was meant). Renaming `precision_mode.b` to `profiling_mode.b` is unsafe: it is a guess that "
                 "switches profiling on.",
        references=(REF_SESSION, REF_NPU_ATTRS, REF_MODELZOO),
        group="wiring",
    ),
    Rule(
        code="NPP005",
        name="profiling-options-str-not-bytes",
        summary="`profiling_options` `.s` assigned a `str`: protobuf raises TypeError — wrap in "
                "`tf.compat.as_bytes(...)`",
        default=True,
        what="`parameter_map[\"profiling_options\"].s = '{...}'` with a Python `str` (a plain or f-string "
             "literal, or a str-valued name) instead of bytes.",
        why="`.s` is a protobuf bytes field; assigning a str raises TypeError while the session config is "
            "being built, so the script stops before it ever reaches the NPU. The Ascend guide always wraps "
            "the JSON in `tf.compat.as_bytes`.",
        example=_HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = '{GOOD_OPTIONS}'\n" + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="safe",
        fix_note="Wraps the value in `tf.compat.as_bytes(...)` (or `.encode()` when `tf` is not imported); "
                 "the bytes carry the same text, so nothing else changes.",
        references=(REF_SESSION,),
        group="wiring",
    ),
    Rule(
        code="NPP006",
        name="profiling-config-not-passed",
        summary="a config carrying profiling is built but never handed to a Session / RunConfig / "
                "NPURunConfig / NPUEstimator / init_resource / npu_config_proto / "
                "set_keras_session_npu_config / initialize_system (or a `ProfilingConfig` never passed as "
                "`profiling_config=`)",
        default=True,
        what="A `ConfigProto` with profiling settings, or a `ProfilingConfig`, that no session, run config, "
             "estimator or NPU helper in the file ever receives, typically because the `profiling_config=` "
             "argument was commented out.",
        why="Profiling settings are GE initialisation options, and GE only sees the config of the first "
            "session or `initialize_system`. A config that is never passed is simply dropped: training runs "
            "normally and no profiling data is written, with nothing in the log to say why.",
        example=_estimator(_PROFILING_CONFIG, "    # profiling_config=profiling_config,\n"),
        fixed=_estimator(_PROFILING_CONFIG, "    profiling_config=profiling_config,\n"),
        fix_safety="none",
        fix_note="No fix: which session or run config should receive the profiling config is a design "
                 "decision the checker cannot make.",
        references=(REF_PROFILING_CONFIG, REF_INIT_SYSTEM, REF_SESSION_OVERVIEW, REF_MODELZOO),
        group="wiring",
    ),
    Rule(
        code="NPP007",
        name="run-config-without-session-config",
        summary="an Estimator `RunConfig` is built without `session_config` while the file builds a profiling "
                "session config",
        default=True,
        what="`tf.estimator.RunConfig(...)` (usually wrapped by `npu_run_config_init`) with no "
             "`session_config=` argument, in a file that prepares a `ConfigProto` with profiling settings.",
        why="`npu_run_config_init` turns a missing session config into a fresh ConfigProto with an empty "
            "`NpuOptimizer` entry, so the estimator initialises GE with profiling off and the prepared "
            "options are never used; the run finishes without profiling data.",
        example=_tf_estimator('    model_dir="/tmp/model",\n    save_checkpoints_steps=1000'),
        fixed=_tf_estimator('    model_dir="/tmp/model",\n    save_checkpoints_steps=1000,\n    session_config=config'),
        fix_safety="unsafe",
        fix_note="Adds `session_config=<the profiling config>` to the RunConfig. Unsafe: it switches profiling "
                 "on for the estimator and brings along every other setting of that config.",
        references=(REF_NPU_INIT, REF_SESSION_OVERVIEW, REF_ESTIMATOR),
        group="wiring",
    ),
    Rule(
        code="NPP008",
        name="npu-helper-without-profiling-config",
        summary="an NPU helper (`npu_config_proto`, `set_keras_session_npu_config`, `init_resource`, "
                "`npu_run_config_init`) is called without the config that carries profiling, so it builds a "
                "fresh one without it; or profiling is set on the Keras session config while `init_resource` "
                "initialises GE",
        default=True,
        what="A call of one of the migration helpers without the profiling config as its argument while the "
             "file builds one, or a Keras script where `init_resource()` initialises GE with a bare config "
             "and the profiling settings only go to `set_keras_session_npu_config`.",
        why="Without a ConfigProto argument these helpers create a new one with a bare `NpuOptimizer` "
            "entry. GE takes its profiling options only at initialisation, which `init_resource` performs, "
            "so profiling set on a later session is ignored (\"Ge has already initialized\") and no data is "
            "collected.",
        example=_keras(""),
        fixed=_keras("config=config"),
        fix_safety="unsafe",
        fix_note="Passes the profiling config to the helper (`init_resource(config=config)`, "
                 "`npu_config_proto(config_proto=config)`). Unsafe: the helper then also receives every other "
                 "setting of that config.",
        references=(REF_KERAS, REF_INIT_SYSTEM, REF_NPU_INIT),
        group="wiring",
    ),
    Rule(
        code="NPP009",
        name="duplicate-npu-optimizer",
        summary="more than one `NpuOptimizer` entry on one ConfigProto (entries are read in turn; a later entry "
                "without profiling_options resets them to the defaults)",
        default=True,
        what="Two or more `custom_optimizers.add()` entries named `NpuOptimizer` on the same ConfigProto, as "
             "produced by inlined migration helpers or by `NPUEstimator`, which always appends its own.",
        why="The adapter walks all entries and lets a later one overwrite each key an earlier one set. "
            "Profiling is worse: once an entry switched `profiling_mode` on, the flag stays on for the later "
            "entries, and each later entry re-reads its own `profiling_options`, so an entry without them (such "
            "as the one NPUEstimator appends) replaces the user's options with the adapter's default set. Which "
            "options GE finally gets depends on the order of the entries rather than on what the script seems "
            "to say.",
        example=_HEAD + _SET_OPTIONS + (
            "custom_op2 = config.graph_options.rewrite_options.custom_optimizers.add()\n"
            "custom_op2.name = \"NpuOptimizer\"\n"
            "custom_op2.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precision\")\n") + _TAIL,
        fixed=_HEAD + _SET_OPTIONS +
        "custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precision\")\n" + _TAIL,
        fix_safety="none",
        fix_note="No fix: merging entries changes which value wins for keys set on both.",
        references=(REF_NPU_ATTRS, REF_ESTIMATOR, REF_MODELZOO),
        group="wiring",
    ),
    Rule(
        code="NPP010",
        name="profiling-switch-not-bool",
        summary="`enable_profiling` / `profiling_mode` given a non-bool (a string like `\"True\"` raises or "
                "reads wrong)",
        default=True,
        what="`parameter_map[\"profiling_mode\"].b`, `ProfilingConfig(enable_profiling=...)`, "
             "`npu_resource_init(enable_profiling=...)` or TF2 `profiling_config.enable_profiling` given a "
             "string, float or None instead of True/False.",
        why="The switch is typed: the protobuf bool field and the TF2 option raise TypeError for a string, "
            "`npu_resource_init` refuses anything but a real bool, and the Estimator route fails when it "
            "copies the value into the session config. The job stops before training starts.",
        example=_HEAD.replace(".b = True", '.b = "True"') + _SET_OPTIONS + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="safe",
        fix_note="Replaces a `\"True\"`/`\"False\"` literal with the bool it spells. Safe: the string could "
                 "only ever have meant that bool.",
        references=(REF_SESSION, REF_PROFILING_CONFIG, REF_TF2_API),
        group="wiring",
    ),
    Rule(
        code="NPP011",
        name="profiling-mode-env-not-true",
        summary="`PROFILING_MODE` environment value that means \"on\" to a reader but is not exactly `true` "
                "(`True`, `TRUE`, `1`, `on`, `yes` all mean off to GE). Values that mean off (`false`, `FALSE`, "
                "`0`, `off`) and unsubstituted template placeholders are not NPP011",
        default=True,
        what="`PROFILING_MODE` set (from Python or in a shell launcher) to a value meant as on but not the "
             "exact lowercase `true`: `True`, `TRUE`, `1`, `on`, `yes`. Values meant as off (`false`, `FALSE`, "
             "`0`, `off`) are off to GE as well and are not reported; nor are template placeholders left for a "
             "generator (`{PROFILING_MODE}`, `@MODE@`, `${MODE}`), which are not values. A value written over "
             "later in the same scope is judged by the last one.",
        why="GE compares the variable with `true` byte for byte; every other value counts as off. The job "
            "runs normally and the `PROFILING_OPTIONS` next to it are never read, so no data is collected.",
        example=_env("True"),
        fixed=_env("true"),
        fix_safety="safe",
        fix_note="Rewrites `True`/`TRUE`/`1`-style values to `true`. Safe: only `true` turns the mode on, so "
                 "the written value was clearly meant as on.",
        references=(REF_ENV_MODE, REF_TF_APIS, REF_GE_INIT),
        group="wiring",
    ),
    Rule(
        code="NPP012",
        name="tf2-profiling-after-npu-open",
        summary="TF2 `global_options().profiling_config` set after `npu.open()` — ignored",
        default=True,
        what="In a TF2 (`npu_device`) script, `npu.global_options().profiling_config` fields assigned after "
             "`npu.open()` has already run — also when the device is opened at import and the options are set "
             "later in a function (the same execution order `npuprof emulate` follows).",
        why="`npu.open()` initialises the device and GE with the global options as they are at that moment. "
            "Later changes to the profiling config are never applied, so the run collects nothing although "
            "the script appears to enable profiling.",
        example=_tf2("", _TF2_SETTINGS),
        fixed=_tf2(_TF2_SETTINGS, ""),
        fix_safety="none",
        fix_note="No fix: moving the assignments above `npu.open()` may move them past code they depend on.",
        references=(REF_TF2, REF_TF2_API),
        group="wiring",
    ),
    Rule(
        code="NPP013",
        name="profiler-scope-with-profiling-mode",
        summary="`npu_bridge` `Profiler` scope used while `profiling_mode`/`PROFILING_MODE` is on — "
                "InvalidArgument at runtime",
        default=True,
        what="A `with Profiler(...)` block from `npu_bridge.profiler` in a script whose session config sets "
             "`profiling_mode` on or whose environment sets `PROFILING_MODE=true`.",
        why="Local (scoped) profiling and global profiling exclude each other: the adapter raises "
            "InvalidArgument (\"'profiling_mode' or env variables 'PROFILING_MODE' cannot be set to true when "
            "using 'profiler.Profiler'\") when the graph runs, and the training step fails.",
        example=_profiler_scope(_PROFILING),
        fixed=_profiler_scope(""),
        fix_safety="none",
        fix_note="No fix: whether to keep the scoped or the global collection is the user's choice.",
        references=(REF_PROFILER, REF_LOCAL_PROFILER),
        group="wiring",
    ),
    Rule(
        code="NPP014",
        name="legacy-profiling-api",
        summary="removed pre-2021 API: `ProfilingConfig(enable_options=…, fp_point=…, bp_point=…)`, "
                "`parameter_map[\"fp_point\"]`, …",
        default=True,
        what="Profiling configured through the interface the adapter dropped at the end of 2020: "
             "`ProfilingConfig` or `npu_resource_init` with `enable_options`, `fp_point`, `bp_point`, or "
             "`parameter_map[\"fp_point\"]`/`[\"bp_point\"]` on the NpuOptimizer.",
        why="Current adapters do not accept those arguments: the constructor raises TypeError for the removed "
            "keywords, and the stray parameter_map keys are no longer read, so the trace points are silently "
            "lost. Options must be one JSON string.",
        example=_estimator(
            "profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
            "    enable_options=[\"training_trace\", \"task_trace\"],\n"
            "    fp_point=\"resnet_model/conv2d/Conv2D\",\n    bp_point=\"gradients/AddN_70\")\n",
            "    profiling_config=profiling_config,\n"),
        fixed=_estimator(
            "profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
            "    profiling_options='{\"output\":\"/tmp/prof\",\"training_trace\":\"on\",\"task_trace\":\"on\",'\n"
            "                      '\"fp_point\":\"resnet_model/conv2d/Conv2D\",\"bp_point\":\"gradients/AddN_70\"}')\n",
            "    profiling_config=profiling_config,\n"),
        fix_safety="unsafe",
        fix_note="Rewrites the old arguments into one `profiling_options` JSON string with an `output` "
                 "directory. Unsafe: the output location has to be chosen, and `op_trace` maps only "
                 "approximately to `task_trace`.",
        references=(REF_ADAPTER_R111, REF_INIT_SYSTEM_80, REF_PROFILING_CONFIG, REF_MODELZOO),
        group="wiring",
    ),
    # ================================================================ NPP1xx: the options JSON
    Rule(
        code="NPP100",
        name="options-not-json",
        summary="not valid JSON or not a JSON object (the legacy colon list `\"training_trace:task_trace\"` "
                "gets its own hint) — GE init fails",
        default=True,
        what="A profiling options string that does not parse as a JSON object: the pre-2021 colon list, "
             "Python dict syntax with single quotes or `True`, trailing commas, or valid JSON of another "
             "type (a list, a bare string).",
        why="GE parses the string as JSON when it initialises; on a parse error or a non-object it rejects "
            "the parameter with E10001, GE initialisation fails and the adapter aborts the process at the "
            "first session. The colon format has not been accepted since the adapter moved to JSON options.",
        example=_opts("training_trace:task_trace"),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="sometimes",
        fix_note="Python-dict quoting (single quotes, `True`/`False`/`None`) is rewritten as the equivalent "
                 "JSON, which is safe because the meaning is unambiguous. A colon list becomes a JSON object "
                 "with the listed traces on, `output` \"./\" and empty trace points; that is unsafe because the "
                 "output directory and the `op_trace` mapping are guesses.",
        references=(REF_ENV_OPTIONS, REF_GE_INIT, REF_E10001, REF_INIT_SYSTEM_80, REF_MODELZOO),
        group="options",
    ),
    Rule(
        code="NPP101",
        name="unknown-options-key",
        summary="unknown key, with did-you-mean (L2→l2, result_path→output) — whole profiling init fails",
        default=True,
        what="A key in profiling_options that no supported CANN version knows, such as `L2`, "
             "`result_path` or `aicpu_trace`.",
        why="Keys are matched exactly, case included. Every collector generation keeps a whitelist and "
            "refuses the whole options string when one key is not on it, so GE initialisation fails at "
            "the first session and the job aborts before the first step.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","L2":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","l2":"on"}'),
        fix_safety="sometimes",
        fix_note="Renames the key when exactly one known key is close. A rename that only changes case "
                 "(`L2` → `l2`) is safe; other renames guess what was meant and are unsafe.",
        options="Keys known to some CANN version but not to the target are NPP113, not NPP101.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_MODELZOO),
        group="options",
        facts=("collection.documented_rejected_keys.",),
    ),
    Rule(
        code="NPP102",
        name="invalid-option-value",
        summary="invalid value for an enumerated option (`on`/`off` switches are exact and lowercase; "
                "task_trace levels, llc_profiling, host_sys, host_sys_usage per target)",
        default=True,
        what="A switch such as `aicpu`, `hccl`, `l2`, `msproftx` or `runtime_api` given something other than "
             "`\"on\"`/`\"off\"` (`\"ON\"`, `\"true\"`, `\"1\"`), a `task_trace`/`task_time` level the target "
             "does not know, or an `llc_profiling`, `host_sys` or `host_sys_usage` value outside its list.",
        why="Old documentation claimed unknown switch values count as off, but every collector in use checks "
            "them and rejects the whole configuration; GE initialisation then fails and the job aborts.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"ON"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"on"}'),
        fix_safety="sometimes",
        fix_note="Fixing the case of `on`/`off` is safe. Turning `\"true\"`/`\"false\"`/`\"1\"` into "
                 "`\"on\"`/`\"off\"` is unsafe: it is a guess, and \"on\" starts a collection that adds overhead.",
        options=_ANY_CANN + " Levels such as `l2` for `task_trace` exist only from CANN 8.5, `host_sys` "
                "items (`numa` from 9.1) and `llc_profiling` values differ per version (8.5+ refuses an empty "
                "`llc_profiling` too), and `llc_profiling` also per product (--npuprof-soc; the Ascend 310 took "
                "`capacity`/`bandwidth` up to CANN 8.0). On 9.0 and 9.1 any non-empty `task_time` is refused.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        group="options",
        facts=("schema.aicpu", "schema.task_trace", "schema.task_time", "schema.llc_profiling", "schema.host_sys",
               "schema.task_block"),
    ),
    Rule(
        code="NPP103",
        name="training-trace-not-on",
        summary="`training_trace` present with a value other than `\"on\"` or `\"\"` (`\"off\"` makes GE init fail)",
        default=True,
        what="`\"training_trace\"` set to `\"off\"`, `\"ON\"`, `true` or any other value except `\"on\"` and "
             "the empty string.",
        why="GE checks this one key itself before the collector sees the options: a non-empty value other "
            "than `on` is reported as an invalid training trace parameter, GE initialisation fails and the "
            "job aborts. `\"off\"` is not a way to switch it off; leaving the key out is.",
        example=_opts('{"output":"/tmp/prof","training_trace":"off","task_trace":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="safe",
        fix_note="`\"off\"` (and other off-like values) drops the key, which is what off means; `\"ON\"` "
                 "becomes `\"on\"`. Both keep the intent unchanged.",
        references=(REF_GE_INIT, REF_PROFILING_CONFIG_504, REF_ENV_OPTIONS),
        group="options",
        facts=("schema.training_trace",),
    ),
    Rule(
        code="NPP104",
        name="training-trace-without-points",
        summary="`training_trace` is `\"on\"` but `fp_point`/`bp_point` are missing (give them, `\"\"` means "
                "automatic)",
        default=True,
        what="Options that switch `training_trace` on but do not contain `fp_point` and `bp_point`.",
        why="This is not a runtime failure: without the keys GE searches for the forward start and backward "
            "end by itself. The Ascend guide nevertheless requires both keys with the training trace; writing "
            "them as `\"\"` says that the automatic search is wanted and leaves an obvious place for real op "
            "names should the search pick the wrong nodes.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on"}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="safe",
        fix_note="Adds `\"fp_point\":\"\",\"bp_point\":\"\"`, which asks for exactly what the runtime does "
                 "without them.",
        options="Not reported when the target product has no step trace (--npuprof-soc 310); that case is NPP114.",
        references=(REF_FP_BP, REF_SESSION, REF_ENV_OPTIONS),
        group="options",
    ),
    Rule(
        code="NPP105",
        name="trace-points-without-training-trace",
        summary="`fp_point`/`bp_point` set while `training_trace` is not `\"on\"` — ignored",
        default=True,
        what="A non-empty `fp_point` or `bp_point` in options where `training_trace` is absent or empty.",
        why="GE reads the forward and backward points only to place the iteration-trace marks, which exist "
            "only with the training trace on. Otherwise the names are dropped without a message, and whoever "
            "set them will look in vain for step-trace data.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","fp_point":"resnet_model/conv2d/Conv2D",'
                      '"bp_point":"gradients/AddN_70"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="unsafe",
        fix_note="Drops the unused points. Unsafe: the user may rather have wanted `training_trace` on.",
        references=(REF_FP_BP, REF_GE_INIT),
        group="options",
        facts=("schema.fp_point",),
    ),
    Rule(
        code="NPP106",
        name="invalid-aic-metrics",
        summary="unknown `aic_metrics` for the target product, or a malformed `Custom:` event list, with "
                "did-you-mean",
        default=True,
        what="An `aic_metrics` (or `aiv_metrics`) value that is not a metric set of the target product, a "
             "misspelt one such as `PipeUtilisation`, or a `Custom:` list with bad, too many or repeated "
             "events.",
        why="The metric sets differ per chip: `L2Cache` and `MemoryAccess` exist on Atlas A2/A3 but not on "
            "the Ascend 910 or 310P, `PipelineExecuteUtilization` only on the 310B. The collector validates "
            "the value against the chip it runs on and rejects the whole configuration, so GE "
            "initialisation fails and the job aborts. `MemoryAccess` reached the Atlas A2 table of the 8.0 "
            "collector only in its 2024-12 builds (none in 7.0); 8.5+ still limits the whole value to 70 "
            "characters.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aic_metrics":"MemoryAccess"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","aic_metrics":"Memory"}'),
        fix_safety="sometimes",
        fix_note="Replaces the value with the single close metric name when there is one. Case-only "
                 "corrections are safe; other replacements change which counters are collected and are "
                 "unsafe.",
        options=_ANY_SOC + " A name that no product knows is reported with any target.",
        references=(REF_AIC_PRODUCTS, REF_GE_AIC, REF_OPTIONS_80, REF_COLLECTOR),
        settings=(("soc", "910"),),
        group="options",
        facts=("schema.aic_metrics", "products.910B.aic_metrics", "products.910B.metric_builds."),
    ),
    Rule(
        code="NPP107",
        name="invalid-storage-limit",
        summary="invalid `storage_limit` (`<N>MB`, 200 ≤ N ≤ 4294967295)",
        default=True,
        what="A `storage_limit` that is not a string of digits followed by exactly `MB`, or whose number is "
             "below 200 or above 4294967295 (`\"2GB\"`, `\"500\"`, `\"100MB\"`, `\"1.5MB\"`).",
        why="Up to CANN 8.0 the collector rejects the value and GE initialisation fails, aborting the job. "
            "From 8.5 on it only warns: `<N>MB` below 200 is raised to 200MB, and any other text is kept as "
            "it is; the data ageing then drops its last two characters and reads the leading digits of the "
            "rest as megabytes (`\"2GB\"` becomes a 2 MB limit, `\"500\"` a 5 MB one), or fails on text "
            "without digits. An empty `storage_limit` means no limit on every version.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"2GB"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"2048MB"}'),
        fix_safety="sometimes",
        fix_note="Converting another unit to MB (`2GB` → `2048MB`) keeps the limit and is safe. Raising a value "
                 "below 200 to `200MB` is unsafe: it changes the limit the user chose.",
        options=_ANY_CANN + " The finding is reported with `any` because every version mishandles the value, "
                "but the consequence it names depends on the version.",
        references=(REF_ENV_OPTIONS, REF_PROFILING_CONFIG_601, REF_COLLECTOR, REF_OAM),
        group="options",
        facts=("schema.storage_limit",),
    ),
    Rule(
        code="NPP108",
        name="invalid-output-path",
        summary="invalid `output`: missing or empty where the target requires it, longer than 1024, or characters "
                "some CANN 8.0 builds refuse",
        default=True,
        what="No `output`, an empty one, or one longer than 1024 characters, on a version whose collector "
             "checks that; and, for CANN 8.0, characters that some of its collector builds refuse (control "
             "characters from the 2024-03 builds; also quotes, backslash, `%`, `$`, `&`, `;`, `|`, `<`, `>` "
             "and backtick from the 2024-11 builds); also an `output` made from a Python `None` formatted "
             "as text (`'...\"output\":\"%s\"...' % None`), which sends the data to a directory named `None`.",
        why="Up to CANN 8.0 the collector needs a result path: a missing or empty `output`, or one whose "
            "absolute form is longer than 1024 characters, makes it reject the configuration, so GE "
            "initialisation fails and the job aborts. The 7.0 collector checks no characters; 8.0 builds "
            "differ (none, then control characters, then the full list), so with `--npuprof-cann 8.0` such a "
            "character is reported as a failure of some builds. From 8.5 on the collector checks neither "
            "characters nor length, and an empty or missing `output` falls back to `$ASCEND_WORK_PATH`. A "
            "shell variable such as `$HOME` is never expanded: the directory is created with that literal name.",
        example=_opts('{"output":"","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: only the user knows where the data should go.",
        options=_ANY_CANN + " Every `output` check is made only up to CANN 8.0 (8.5+ falls back to "
                "`ASCEND_WORK_PATH`), so they are reported with `portable` or an old version; characters only "
                "some 8.0 builds refuse are reported with `8.0` or `portable` and say so.",
        references=(REF_ENV_OPTIONS, REF_OPTIONS_80, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.output",),
    ),
    Rule(
        code="NPP109",
        name="invalid-sampling-frequency",
        summary="sampling frequency not an integer or out of its range",
        default=True,
        what="A `*_freq` option (`sys_hardware_mem_freq`, `sys_io_sampling_freq`, `sys_interconnection_freq`, "
             "`dvpp_freq`, `host_sys_usage_freq`, `instr_profiling_freq`) whose value is not an integer or "
             "lies outside the range the target accepts (1-100 Hz for most, 1-50 for interconnect and host "
             "usage, 300-30000 for instruction profiling).",
        why="The collector range-checks every frequency and rejects the whole configuration when one is "
            "outside its range, so GE initialisation fails and the job aborts. On CANN 8.0 a non-numeric "
            "string is instead read as 0 and that sampling is silently skipped.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","dvpp_freq":500}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","dvpp_freq":100}'),
        fix_safety="none",
        fix_note="No fix: the right sampling rate is the user's choice.",
        options=_ANY_CANN + " The ranges differ per version and product (the Ascend 950 takes "
                "`sys_hardware_mem_freq` up to 10000), and so does the JSON type a frequency must have "
                "(NPP110).",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.5"),),
        group="options",
        facts=("schema.dvpp_freq", "schema.instr_profiling_freq", "products.950.max_freq"),
    ),
    Rule(
        code="NPP110",
        name="option-value-wrong-json-type",
        summary="value of the wrong JSON type for the target (`\"aicpu\": true`, `\"storage_limit\": 200`, "
                "frequency type per CANN version)",
        default=True,
        what="A JSON boolean or number where the target expects a string, or the reverse: `\"aicpu\": true`, "
             "`\"storage_limit\": 200`, and sampling frequencies, which CANN 8.0 reads as strings and CANN "
             "8.5+ as numbers.",
        why="Up to CANN 8.0 the JSON reader throws on a value of the wrong type and the whole configuration "
            "is rejected, so GE initialisation fails and the job aborts. From 8.5 on a wrongly typed string "
            "option reads as unset and a frequency written as a string reads as 0, so the switch is "
            "silently off or the range check fails.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","sys_hardware_mem_freq":50}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","sys_hardware_mem_freq":"50"}'),
        fix_safety="unsafe",
        fix_note="Rewrites the value in the expected type (`true` → `\"on\"`, `200` → `\"200MB\"`, `50` ↔ "
                 "`\"50\"`). Unsafe: `true` → `\"on\"` starts a collection, and a frequency written for one "
                 "version becomes wrong for the other.",
        options=_ANY_CANN + " No frequency representation works on every version, so pick the version the "
                "job runs on.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.dvpp_freq", "schema.aicpu"),
    ),
    Rule(
        code="NPP111",
        name="duplicate-options-key",
        summary="duplicate key in the options object (the last one silently wins)",
        default=True,
        what="The same key written twice in one options object, for example two `output` entries after an "
             "edit.",
        why="The runtime keeps only the last occurrence and drops the earlier one without a warning, so the "
            "first value, usually the one the reader sees, has no effect.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"on","output":"./prof"}'),
        fixed=_opts('{"task_trace":"on","aicpu":"on","output":"./prof"}'),
        fix_safety="safe",
        fix_note="Removes the earlier occurrence, which the runtime ignores anyway, so behaviour does not "
                 "change.",
        references=(REF_COLLECTOR, REF_GE_INIT),
        group="options",
    ),
    Rule(
        code="NPP112",
        name="options-too-long",
        summary="options string longer than 2047 bytes (the runtime cuts it, then fails to parse)",
        default=True,
        what="A profiling options string of more than 2047 bytes (UTF-8), usually because of long "
             "`fp_point`/`bp_point` op names.",
        why="The options are copied into a fixed 2048-byte buffer before parsing. A longer string is cut "
            "off, the rest is no longer valid JSON, GE initialisation fails and the job aborts.",
        example=_opts_chunks(_LONG_OPTIONS_CHUNKS),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: which keys or names to shorten is the user's decision (empty points select the "
                 "automatic search).",
        references=(REF_GE_INIT, REF_ENV_OPTIONS),
        group="options",
    ),
    Rule(
        code="NPP113",
        name="key-not-in-target-version",
        summary="key not accepted by the target CANN version (e.g. `task_time` on 8.5, "
                "`aiv_metrics`/`power` on 8.5+)",
        default=True,
        what="A key that some CANN versions accept but the target does not: `task_time` on 8.5, "
             "`aiv_metrics` and `power` from 8.5 on, `task_tsfw` and `sys_mem_serviceflow` outside 8.5, newer "
             "keys such as `instr_profiling` before 8.5, or the lowerCamelCase spellings only the protobuf-era "
             "collector read. (On 9.0 and 9.1 `task_time` is whitelisted but any non-empty value is refused; "
             "that is NPP102.)",
        why="Each collector generation has its own key whitelist; a key missing from it is treated like a "
            "typo, the whole configuration is rejected, GE initialisation fails and the job aborts.",
        example=_opts('{"output":"/tmp/prof","task_time":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: the replacement key (`task_trace` for `task_time`) has different levels and "
                 "defaults on each version.",
        options=_ANY_CANN + " With the default `any` this rule never fires, since some version accepts the key; "
                "set --npuprof-cann to the version the job runs on, or `portable`.",
        references=(REF_ENV_OPTIONS, REF_ENV_OPTIONS_80, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.5"),),
        group="options",
        facts=("schema.task_time", "schema.task_tsfw", "schema.power"),
    ),
    Rule(
        code="NPP114",
        name="switch-unsupported-on-product",
        summary="switch not supported on the target product (dropped with a log warning up to 8.0, rejected "
                "from 8.5, e.g. `l2` on 310)",
        default=True,
        what="An option that the target chip's collector of the target version cannot collect: `l2` on the "
             "Ascend 310, `training_trace` on the 310 up to 8.0, `hccl` on the 310B up to 8.0, `aiv_metrics` "
             "on chips without separate vector cores, `instr_profiling` outside Atlas A2/A3 and the 950, "
             "NIC/RoCE sampling on the 310P, `task_trace` level `l3` outside Atlas A2/A3, and similar.",
        why="Up to CANN 8.0 the collector drops the option, with a plog warning (\"Unrecognized option ... "
            "for PlatformType\") for switches and silently for sampling frequencies, so the run succeeds and "
            "that data is missing. From 8.5 on the collector checks the chip's feature table for any "
            "non-empty value, `\"off\"` included, and rejects it (\"Argument [...] is not supported.\"): GE "
            "initialisation fails and the job aborts. `instr_profiling_freq` alone is no longer checked from "
            "8.5 on. Where the collector of a version for a chip is not open source (the 8.5 collector for "
            "the Ascend 310 and 950), nothing is reported for that version.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","l2":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: dropping the switch silently gives up data the user asked for.",
        options=_ANY_SOC + " " + _ANY_CANN,
        references=(REF_AIC_PRODUCTS, REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("soc", "310"), ("cann", "9.1")),
        group="options",
        facts=("products.310.unsupported.", "products.310B.unsupported.", "products.310P.unsupported.",
               "products.910.value_unsupported."),
    ),
    Rule(
        code="NPP115",
        name="instr-profiling-with-trace-switches",
        summary="`instr_profiling_freq` combined with task/trace switches (fails before 8.5)",
        default=True,
        what="`instr_profiling_freq` in the same options as `task_trace`, `task_time`, `training_trace`, "
             "`aicpu`, `l2`, `hccl`, `runtime_api` or a metrics key.",
        why="Instruction sampling must run on its own on the collectors up to CANN 8.0: they refuse the "
            "combination (\"instrProfilingFreq is set, Params ... not allowed\"), GE initialisation fails and "
            "the job aborts. CANN 8.5+ only looks at the frequency when `instr_profiling` is on.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","instr_profiling_freq":"1000"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: keeping the task data or the instruction sampling is the user's choice.",
        options=_ANY_CANN + " Set --npuprof-cann 8.0 (or `portable`) to check for the older collectors.",
        references=(REF_ENV_OPTIONS_80, REF_COLLECTOR),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.instr_profiling_freq",),
    ),
    Rule(
        code="NPP116",
        name="options-collect-nothing",
        summary="profiling is on but the options switch nothing on for the target (no data would be collected)",
        default=True,
        what="Profiling is switched on and the options are valid, but none of them turns on a collection "
             "on the target: only `output`, `storage_limit` or switches set to off, or only switches the "
             "product drops.",
        why="The runtime accepts such options and the job runs with profiling switched on, but no trace "
            "or counter data is collected, so there is nothing to analyse afterwards.",
        example=_opts('{"output":"/tmp/prof","storage_limit":"1000MB"}'),
        fixed=_opts('{"output":"/tmp/prof","storage_limit":"1000MB","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: which data to collect is the user's choice.",
        options=_ANY_CANN + " CANN 8.5+ turns `task_trace` on by default, so options without any switch are "
                "reported only for older versions. " + _ANY_SOC,
        references=(REF_ENV_OPTIONS, REF_OPTIONS_80),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("collection.switch.task_trace", "collection.switch.task_time"),
    ),
    # ================================================================ NPP12x: msprof command lines
    Rule(
        code="NPP120",
        name="msprof-unknown-option",
        summary="msprof command line with an option msprof does not have (`--timeline=on`, `--aicore=on`, "
                "`--aic_metrics=...`), with did-you-mean",
        default=True,
        what="An `msprof` run (in a shell launcher, or in a Python `subprocess`/`os.system` call with a literal "
             "command) that passes a `--name` no msprof version knows: names guessed from other profilers "
             "(`--timeline`), the JSON option spelling (`--aic_metrics`, `--task_trace`), or a missing hyphen "
             "(`--aicore`). Only the words before the application are msprof's; an abbreviation of a real "
             "option (`--app=`) is left alone.",
        why="msprof reads its options with getopt: an unknown name makes it print \"unrecognized option\" "
            "and its usage, and exit before starting the application. The job is scheduled on the NPU host, "
            "runs nothing and collects nothing; the error is only in the job's log.",
        example=_launcher("--timeline=on"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Renames the option when exactly one msprof option is close. Differences of case, `_` or `-` "
                 "only (`--aic_metrics` → `--aic-metrics`, `--aicore` → `--ai-core`) are safe; other close "
                 "spellings are unsafe; a name with no close option (`--timeline`) is not fixed. "
                 + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " An option that only some versions have is NPP126.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_cli.unknown_option", "msprof_cli.app_start"),
    ),
    Rule(
        code="NPP121",
        name="msprof-invalid-option-value",
        summary="msprof option value not accepted: switches other than `on`/`off`, `--task-time` levels, "
                "`--ge-api`, `--aic-mode`, `--llc-profiling`, `--host-sys` items",
        default=True,
        what="An msprof switch (`--ascendcl`, `--task-time`, `--hccl`, `--aicpu`, `--l2`, `--runtime-api`, "
             "`--sys-hardware-mem`, ...) given something other than exactly `on` or `off` (`true`, `ON`, `1`, "
             "empty), a `--task-time` level the version lacks (`l0`/`l1` everywhere, `l2`/`l3` from 8.5), or a "
             "value outside the list of `--ge-api`, `--aic-mode`/`--aiv-mode`, `--llc-profiling`, "
             "`--summary-format`, `--type`, `--host-sys`, `--host-sys-usage`.",
        why="msprof compares each value with its fixed list and, on a mismatch, prints the error and exits "
            "before starting the application, so the job collects nothing.",
        example=_launcher("--task-time=true"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Lowercases a value that differs from an accepted one only in case (`ON` → `on`): safe. Other "
                 "values are not fixed (`true` could mean a level). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " `--task-time=l2` is reported only for 7.0/8.0 targets.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.switches", "msprof_cli.enums", "msprof_cli.lists", "msprof_cli.empty_value"),
    ),
    Rule(
        code="NPP122",
        name="msprof-invalid-aic-metrics",
        summary="`--aic-metrics`/`--aiv-metrics` value that is not a metric set of the target chip, with "
                "did-you-mean",
        default=True,
        what="An msprof `--aic-metrics` or `--aiv-metrics` value that no chip has (a misspelling such as "
             "`PipeUtilisation`), that the target chip lacks (`L2Cache` on the Ascend 910), or that is empty. "
             "`Custom:<events>` lists are not judged.",
        why="msprof checks the metric set against the chip it runs on with the same validator as the "
            "framework options (NPP106) and exits before starting the application when it is not there.",
        example=_launcher("--aic-metrics=PipeUtilisation"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="sometimes",
        fix_note="Replaces the value with the single close metric set: safe when only the case differs, "
                 "unsafe otherwise (it changes which counters are collected). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_SOC + " A name no product knows is reported with any target.",
        references=(REF_MSPROF_CLI, REF_AIC_PRODUCTS),
        group="msprof",
        language="shell",
        facts=("msprof_cli.metrics", "products.910B.aic_metrics"),
    ),
    Rule(
        code="NPP123",
        name="msprof-invalid-frequency",
        summary="msprof sampling frequency not an integer or out of its range",
        default=True,
        what="An msprof `*-freq` option whose value is not a plain integer or lies outside its range: 1-100 Hz "
             "for `--aic-freq`, `--aiv-freq`, `--dvpp-freq`, `--sys-io-sampling-freq`, `--sys-hardware-mem-freq` "
             "(up to 10000 on the Ascend 950 from 8.5), 1-50 for `--sys-cpu-freq`, "
             "`--sys-interconnection-freq`, `--host-sys-usage-freq`, 1-10 for `--sys-sampling-freq` and "
             "`--sys-pid-sampling-freq`. `--instr-profiling-freq` is not judged (msprof range-checks it only "
             "on chips without instruction profiling).",
        why="msprof range-checks each frequency, prints the allowed range and exits before starting the "
            "application.",
        example=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=100"),
        fixed=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=50"),
        fix_safety="none",
        fix_note="No fix: the sampling rate is the user's choice.",
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.ranges",),
    ),
    Rule(
        code="NPP124",
        name="msprof-invalid-storage-limit",
        summary="msprof `--storage-limit` not `<N>MB` with 200 ≤ N ≤ 4294967295",
        default=True,
        what="A `--storage-limit` that is empty, not digits followed by exactly `MB` (`2GB`, `500`, `1.5MB`), "
             "or out of range (`100MB`).",
        why="msprof validates the limit before starting the application and exits on a bad one (the "
            "framework-options path is more lenient from 8.5 on, the command line is not).",
        example=_launcher("--storage-limit=2GB"),
        fixed=_launcher("--storage-limit=2048MB"),
        fix_safety="sometimes",
        fix_note="Converting whole gigabytes to megabytes (`2GB` → `2048MB`) keeps the limit: safe. Other "
                 "values are not fixed. " + _LAUNCHERS_NOT_REWRITTEN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.storage_limit",),
    ),
    Rule(
        code="NPP125",
        name="msprof-invalid-output",
        summary="msprof `--output` given no directory (`--output=`) or a path longer than 1024 characters",
        default=True,
        what="`--output=` with nothing after it (a value the checker cannot see, such as `--output=$OUT`, is "
             "not judged), or an output path longer than 1024 characters.",
        why="msprof needs a directory for the collected data: an empty value is refused (\"expected one "
            "argument\") and a path longer than 1024 characters is refused, both before the application "
            "starts.",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output="),
        fixed=_launcher("--task-time=on"),
        fix_safety="none",
        fix_note="No fix: only the user knows where the data should go.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.output", "msprof_cli.empty_value"),
    ),
    Rule(
        code="NPP126",
        name="msprof-option-not-on-target",
        summary="msprof option the target CANN version or chip does not have (`--aiv-metrics` on Atlas A2, "
                "`--task-block` before 9.0)",
        default=True,
        what="An msprof option that exists, but not in the msprof of the target CANN version (`--task-block` "
             "and `--sys-lp` arrived in 9.0, `--l2-freq` left with 8.5), or that the target chip's msprof "
             "refuses: the AI Vector Core options (`--ai-vector-core`, `--aiv-*`) on the Ascend 910, 310P, "
             "910B/910C (where they follow the AI Core options) and 310B, `--instr-profiling` on the 910, "
             "310P and 310B, `--sys-io-profiling` on the 310P, `--sys-interconnection-*` on the 310B.",
        why="msprof removes the options a chip cannot collect from its parser: it prints \"unrecognized "
            "option\" and exits before starting the application, so a launcher written for another chip "
            "or version collects nothing.",
        example=_launcher("--aic-metrics=PipeUtilization --aiv-metrics=PipeUtilization"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="none",
        fix_note="No fix: removing the option changes what is collected on other targets.",
        options=_ANY_CANN + " " + _ANY_SOC + " The chip lists are known for CANN 8.5+ (only entries shared by "
                "the open and the shipped builds), so name a version as well.",
        references=(REF_MSPROF_CLI,),
        settings=(("cann", "8.5"), ("soc", "910B")),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_cli.refused_on_product"),
    ),
    Rule(
        code="NPP127",
        name="msprof-option-value-not-attached",
        summary="msprof option given its value as a separate word (`--output /tmp/prof`) or no value at all",
        default=True,
        what="An msprof option written argparse-style, with its value in the next word (`--output /tmp/prof`, "
             "`[\"--aic-metrics\", \"Memory\"]` in a subprocess list), or with no value at all (`--ascendcl` "
             "at the end of the line). `--help` takes no value; `--storage-limit` without one is reported only "
             "for CANN 7.0/8.0, where it is refused.",
        why="Every msprof option takes an optional argument, which getopt reads only when it is attached with "
            "`=`. The option therefore arrives without a value and msprof refuses it (\"expected one "
            "argument\", or \"empty value\" in older versions) and exits before starting the application; "
            "the separate word is skipped, not used as the value.",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output /tmp/prof"),
        fixed=_launcher("--task-time=on"),
        fix_safety="safe",
        fix_note="Joins the option and the next word with `=` when both are written literally next to each "
                 "other (`--output /tmp/prof`, or `\"--output\", \"/tmp/prof\"` in a Python list): the value "
                 "the user wrote is the one msprof will then read. " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.value_required", "msprof_cli.app_start"),
    ),
    Rule(
        code="NPP190",
        name="options-undetermined",
        summary="options value could not be determined statically (default off; shows coverage)",
        default=False,
        what="A profiling options expression the checker cannot evaluate: a command-line argument, a value "
             "read from a file, a call it does not model.",
        why="Nothing is known to be wrong; the runtime will validate the string when GE initialises. The "
            "finding marks places where the NPP1xx checks could not look, so you can see how much of the "
            "configuration was actually checked.",
        example=("import argparse\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "parser = argparse.ArgumentParser()\n"
                 "parser.add_argument(\"--profiling_options\", type=str, required=True)\n"
                 "args = parser.parse_args()\n\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(args.profiling_options)\n"
                 + _TAIL),
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="none",
        fix_note="No fix: the value is only known at run time.",
        references=(REF_ENV_OPTIONS,),
        group="options",
    ),
    Rule(
        code="NPP191",
        name="analysis-budget-exhausted",
        summary="analysis budget exhausted: a setup was not fully checked (a finding may be missing there)",
        default=True,
        what="A profiling setup whose values need more evaluation than the checker allows for one file "
             "(steps that grow with the file's size, a nesting depth, astroid inferences). The evaluation "
             "stopped, so the NPP0xx/NPP1xx checks of that setup may have missed a mistake. The message "
             "names the setup's line.",
        why="Every budget is counted in work, so the same file gives the same findings on any machine; but "
            "a budget that runs out must not pass in silence: a real unknown key would otherwise vanish "
            "into the coverage code NPP190, which is off by default. Real training scripts stay far below "
            "the budgets; a file that hits them builds its options in an unusually roundabout way.",
        example=("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "# every line doubles the work of evaluating the next one\n"
                 "p0 = \"/tmp\"\n" + "".join(f"p{k} = p{k - 1} + p{k - 1}\n" for k in range(1, 17)) +
                 "\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                 "    '{\"output\":\"' + p16 + '\",\"task_trace\":\"on\"}')\n" + _TAIL),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: write the value so it can be read (a literal, or `json.dumps({...})` of named "
                 "values), or split the computation.",
        references=(REF_ENV_OPTIONS,),
        group="options",
    ),
    # ================================================================ NPP2xx: hygiene
    Rule(
        code="NPP200",
        name="hand-built-options-json",
        summary="options JSON built by hand (concatenation, `%`, `.format`, f-string with interpolated "
                "values): a quote or backslash in a path breaks it — use `json.dumps({...})`",
        default=False,
        what="A profiling options string assembled from pieces of JSON text and Python values, such as "
             "`'{\"output\":\"' + args.output + '\", ...}'` or the same with `%s`, `.format` or an f-string.",
        why="The interpolated value is pasted in without JSON escaping. A path containing a quote or a "
            "backslash, or a number where a string belongs, produces invalid options; GE initialisation then "
            "fails and the job aborts, on whichever machine happens to have such a path.",
        example=("import argparse\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "parser = argparse.ArgumentParser()\n"
                 "parser.add_argument(\"--profiling_dir\", default=\"./prof\")\n"
                 "args = parser.parse_args()\n\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n"
                 "    '{\"output\":\"' + args.profiling_dir + '\",\"training_trace\":\"on\",\"task_trace\":\"on\",'\n"
                 "    '\"fp_point\":\"\",\"bp_point\":\"\"}')\n" + _TAIL),
        fixed=("import argparse\nimport json\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
               "parser = argparse.ArgumentParser()\n"
               "parser.add_argument(\"--profiling_dir\", default=\"./prof\")\n"
               "args = parser.parse_args()\n\n" + _NPU_ENTRY +
               "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
               "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(json.dumps({\n"
               "    \"output\": args.profiling_dir,\n    \"training_trace\": \"on\",\n    \"task_trace\": \"on\",\n"
               "    \"fp_point\": \"\",\n    \"bp_point\": \"\",\n}))\n" + _TAIL),
        fix_safety="unsafe",
        fix_note="Rewrites the construction as `json.dumps({...})` with the same keys and values (and adds "
                 "`import json`). Unsafe: values that were pasted in unquoted (numbers, booleans) keep their "
                 "Python type, which may differ from the text that was produced before.",
        references=(REF_MODELZOO, REF_ENV_OPTIONS),
        group="hygiene",
    ),
    Rule(
        code="NPP201",
        name="unconditional-profiling",
        summary="profiling switched on unconditionally in a training script (not behind a flag or condition)",
        default=False,
        what="`profiling_mode`, `enable_profiling` or `PROFILING_MODE` turned on at the top level of a "
             "training script, with no command-line flag or other condition around it.",
        why="Profiling is a debugging aid: every run of the committed script then pays the collection "
            "overhead and fills the output directory with PROF_* data, and the timings of normal training "
            "runs are distorted.",
        example=_opts(GOOD_OPTIONS),
        fixed=_flagged(_STORE_TRUE, _PROFILING),
        fix_safety="none",
        fix_note="No fix: the flag name and how the script parses options are project conventions.",
        references=(REF_GLOBAL_VOLUME, REF_MODELZOO),
        group="hygiene",
    ),
    Rule(
        code="NPP202",
        name="profiling-with-data-dump",
        summary="profiling and data dump (`enable_dump`, `enable_dump_debug`) both switched on in one config: "
                "dump distorts the timings",
        default=True,
        what="A config that switches profiling on and also turns on `enable_dump` or `enable_dump_debug`, "
             "under the same conditions; or one `NPURunConfig` given a `ProfilingConfig` with profiling on and "
             "a `DumpConfig` with a dump on. (A dump set on the `session_config`'s own NpuOptimizer entry is "
             "not counted there: NPUEstimator adds a later entry with the `DumpConfig` values, False by default, "
             "which overwrites it.)",
        why="The runtime accepts the combination, but dumping tensors adds copies and file writes to every "
            "step, so the profile measures the dump rather than the model. The profiling documentation says "
            "not to use the two together.",
        example=_HEAD + _SET_OPTIONS + (
            "custom_op.parameter_map[\"enable_dump\"].b = True\n"
            "custom_op.parameter_map[\"dump_path\"].s = tf.compat.as_bytes(\"/tmp/dump\")\n"
            "custom_op.parameter_map[\"dump_step\"].s = tf.compat.as_bytes(\"0|5|10\")\n") + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="none",
        fix_note="No fix: which of the two the run is for is the user's decision.",
        references=(REF_CONSTRAINTS, REF_MODELZOO),
        group="hygiene",
    ),
    Rule(
        code="NPP203",
        name="host-specific-output-path",
        summary="host- or person-specific absolute `output` (`/home/<user>/…`, `/cache/…`) in committed code",
        default=False,
        what="An `output` directory under a home directory, `/root`, the ModelArts `/cache` mount or a "
             "personal work area, written into the script.",
        why="On another machine or for another user the directory is missing or not writable; depending on "
            "the CANN version the collector then fails to start or writes nothing, and the run ends without "
            "profiling data.",
        example=_opts('{"output":"/home/HwHiAiUser/prof","training_trace":"on","task_trace":"on",'
                      '"fp_point":"","bp_point":""}'),
        fixed=_opts('{"output":"./prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
        fix_safety="none",
        fix_note="No fix: a portable location (a flag, a relative path) is the user's choice.",
        references=(REF_PROFILING_CONFIG_601, REF_OPTIONS_80, REF_MODELZOO),
        group="hygiene",
    ),
    Rule(
        code="NPP204",
        name="trace-point-not-one-op-name",
        summary="`fp_point`/`bp_point` that cannot be one op name: copied from the documentation's ResNet "
                "example into another model, or several op names glued together",
        default=True,
        what="A trace point that contains whitespace, or that is the Ascend guide's ResNet-50 example value "
             "in a file that builds no ResNet, or whose top scope names one model family (`resnet_model/...`) "
             "while the rest of the file mentions only another family (a BERT script): copied from another "
             "model. A file that names no model family is not judged (its model may come from elsewhere). Names that merely look glued are not reported: GE names a "
             "fused node by joining the names it fused, so such a name copied from a build dump is real.",
        why="GE looks the point up by exact node name (or a recorded pre-fusion name). No node of this model "
            "has such a name, so GE only logs that the forward or backward op cannot be found; the run goes "
            "on but the step trace lacks its FP/BP marks.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",'
                      f'"fp_point":"{_DOC_RESNET_FP}","bp_point":""}}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: the right names come from the model's graph dump (or use `\"\"` for the automatic "
                 "search).",
        references=(REF_FP_BP, REF_MODELZOO),
        group="hygiene",
    ),
    Rule(
        code="NPP205",
        name="untyped-profiling-flag",
        summary="profiling guarded by an argparse option with no `type` (or `type=bool`): `--profiling False` "
                "is a non-empty string, so profiling turns on",
        default=True,
        what="An `if args.profiling:` (or similar) around the profiling settings, where the argparse option "
             "has a default but no `type`, or `type=bool`; likewise an absl `flags.DEFINE_string` whose "
             "default is a bool or `\"True\"`/`\"False\"` (a string flag meant as a switch). `npuprof check` "
             "also reports it on the line of a shell launcher that passes `--profiling=False` (or `0`) to such "
             "a flag of the script it starts, where that launch then profiles.",
        why="argparse (and an absl string flag) hands over the command-line text unchanged, and "
            "`bool(\"False\")` is True, so passing `--profiling False` switches profiling on: the run slows "
            "down and writes PROF_* data the user asked not to collect.",
        example=_flagged("default=False", _PROFILING),
        fixed=_flagged("type=ast.literal_eval, default=False", _PROFILING, "import ast\n"),
        fix_safety="none",
        fix_note="No fix: the advice is `type=ast.literal_eval` (or a str-to-bool converter), which keeps "
                 "launchers that pass `--profiling=False` or `--profiling True` working; "
                 "`action=\"store_true\"` would make them stop with a usage error. For absl, "
                 "`flags.DEFINE_bool` parses `--profiling=False` as False.",
        references=(REF_MODELZOO,),
        group="hygiene",
    ),
    # ================================================================ NPP9xx: preflight
    Rule(
        code="NPP901",
        name="output-dir-not-writable",
        summary="output directory cannot be created or is not writable (resolved against the launch directory)",
        default=False,
        what="An `output` directory that, on this machine, cannot be created or is not writable by the "
             "current user; relative paths are resolved against the launch directory.",
        why="The collector tries to create the directory when profiling starts. If that fails it reports the "
            "path as not accessible and profiling does not start; depending on the version the job aborts or "
            "runs on with an empty PROF_* tree.",
        example=_opts('{"output":"/etc/passwd/profiling","training_trace":"on","task_trace":"on",'
                      '"fp_point":"","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: create the directory or choose a writable one.",
        options=_PREFLIGHT,
        references=(REF_OPTIONS_80, REF_PROFILING_CONFIG_601, REF_COLLECTOR),
        group="preflight",
    ),
    Rule(
        code="NPP902",
        name="storage-limit-exceeds-free-space",
        summary="`storage_limit` larger than the free space of the output file system",
        default=False,
        what="A `storage_limit` above the space currently free on the file system that holds `output`.",
        why="The limit is meant to make the collector age out old data before the disk fills; set above "
            "the free space it never takes effect, so a long run can fill the disk and take down whatever "
            "else writes there, training checkpoints included.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"4294967295MB"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"1024MB"}'),
        fix_safety="none",
        fix_note="No fix: the right limit depends on the disk the job runs on.",
        options=_PREFLIGHT,
        references=(REF_ENV_OPTIONS, REF_PROFILING_CONFIG_601),
        group="preflight",
    ),
    Rule(
        code="NPP903",
        name="trace-point-not-in-graph",
        summary="`fp_point`/`bp_point` op name not found in the graph dump given with `--npuprof-graph`",
        default=False,
        what="A non-empty `fp_point` or `bp_point` that names no node of the graph dump passed with "
             "--npuprof-graph (a `tf.io.write_graph` pbtxt or a GE build dump).",
        why="GE matches the points by exact node name (or a recorded pre-fusion name). For a name it cannot "
            "find it only logs a warning, and the step trace is produced without usable FP/BP marks.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",'
                      '"fp_point":"no_such_op","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: pick the name from the dump, or use `\"\"` for the automatic search.",
        options="Needs a graph dump given with --npuprof-graph. Like the other NPP9xx checks it runs only with "
                "--npuprof-preflight (flake8) and always in `npuprof emulate`.",
        references=(REF_FP_BP, REF_GE_INIT),
        settings=(("graph", "graph.pbtxt"),),
        group="preflight",
    ),
)

assert [r.code for r in RULES] == sorted(r.code for r in RULES), "keep RULES sorted by code"

BY_CODE: Dict[str, Rule] = {r.code: r for r in RULES}
CODES: Tuple[str, ...] = tuple(BY_CODE)


def sources_for(rule: Rule) -> Tuple[str, ...]:
    """Distinct source lines behind a rule's claims (its facts): `ref` — what it says (standing)."""
    from .datafiles import sources
    from .msprof_options import cli
    facts = dict(sources(), **cli()["sources"])
    out = []
    for prefix in rule.facts:
        for fact, entries in facts.items():
            if fact == prefix or (prefix.endswith(".") and fact.startswith(prefix)):
                for e in entries:
                    where = f" [CANN {', '.join(e['versions'])}]" if e.get("versions") else ""
                    line = f"`{e['ref']}`{where}: {e['says']} ({e['standing']})"
                    if line not in out:
                        out.append(line)
    return tuple(out)


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
                  "Standing: code = read in the runtime's source, doc = documented only, inferred."
                  " Versions in brackets are the CANN versions a source speaks for.", ""] + [f"- {x}" for x in sources]
    return "\n".join(parts) + "\n"
