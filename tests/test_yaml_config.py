"""mindspore-ai/models' configuration module (values/yaml_config.py): `config = get_config()` reads a YAML and makes a
flag of each scalar key, so in a launch `config.need_profiler` is the launcher's --need_profiler, else the YAML's value.
Before, the test stayed a condition ("yes (where its conditions hold)") where the YAML switches profiling off."""

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.values import yaml_config

# the shape of the module as that repository has it (its five parts; strings and docstrings are ours)
CONFIG = '''\
import os
import ast
import argparse
from pprint import pprint, pformat
import yaml


class Config:
    def __init__(self, cfg_dict):
        for k, v in cfg_dict.items():
            if isinstance(v, (list, tuple)):
                setattr(self, k, [Config(x) if isinstance(x, dict) else x for x in v])
            else:
                setattr(self, k, Config(v) if isinstance(v, dict) else v)

    def __str__(self):
        return pformat(self.__dict__)

    def __repr__(self):
        return self.__str__()


def parse_cli_to_yaml(parser, cfg, helper=None, choices=None, cfg_path="x.yaml"):
    parser = argparse.ArgumentParser(description="flags", parents=[parser])
    helper = {} if helper is None else helper
    choices = {} if choices is None else choices
    for item in cfg:
        if not isinstance(cfg[item], list) and not isinstance(cfg[item], dict):
            help_description = helper[item] if item in helper else "see {}".format(cfg_path)
            choice = choices[item] if item in choices else None
            if isinstance(cfg[item], bool):
                parser.add_argument("--" + item, type=ast.literal_eval, default=cfg[item], choices=choice,
                                    help=help_description)
            else:
                parser.add_argument("--" + item, type=type(cfg[item]), default=cfg[item], choices=choice,
                                    help=help_description)
    args = parser.parse_args()
    return args


def parse_yaml(yaml_path):
    with open(yaml_path, 'r') as fin:
        try:
            cfgs = yaml.load_all(fin.read(), Loader=yaml.FullLoader)
            cfgs = [x for x in cfgs]
            if len(cfgs) == 1:
                cfg_helper = {}
                cfg = cfgs[0]
                cfg_choices = {}
            elif len(cfgs) == 2:
                cfg, cfg_helper = cfgs
                cfg_choices = {}
            elif len(cfgs) == 3:
                cfg, cfg_helper, cfg_choices = cfgs
            else:
                raise ValueError("too many documents")
            print(cfg_helper)
        except:
            raise ValueError("not read")
    return cfg, cfg_helper, cfg_choices


def merge(args, cfg):
    args_var = vars(args)
    for item in args_var:
        cfg[item] = args_var[item]
    return cfg


def get_config():
    parser = argparse.ArgumentParser(description="config", add_help=False)
    current_dir = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--config_path", type=str, default=os.path.join(current_dir, "../default_config.yaml"),
                        help="the YAML")
    path_args, _ = parser.parse_known_args()
    default, helper, choices = parse_yaml(path_args.config_path)
    args = parse_cli_to_yaml(parser=parser, cfg=default, helper=helper, choices=choices, cfg_path=path_args.config_path)
    final_config = merge(args, default)
    pprint(final_config)
    return Config(final_config)

config = get_config()
'''

YAML = "# profiling\nlr: 0.1\nname: 'yolo'\nneed_profiler: 0\nrun_profiler: False\nprof_dir: './prof'\n"

TRAIN = '''\
import mindspore as ms
from model_utils.config import config


def network_init(args):
    profiler = None
    if args.need_profiler:
        profiler = ms.Profiler(output_path=args.prof_dir)
    return profiler


def run_train():
    network_init(config)


if __name__ == "__main__":
    run_train()
'''

DIRECT = '''\
import mindspore as ms
from model_utils.config import config

if config.run_profiler:
    profiler = ms.Profiler(output_path=config.prof_dir)
'''


def _answer(capsys, tmp_path, train=TRAIN, config=CONFIG, yaml=YAML, flags=""):
    (tmp_path / "model_utils").mkdir()
    (tmp_path / "model_utils" / "__init__.py").write_text("")
    (tmp_path / "model_utils" / "config.py").write_text(config)
    (tmp_path / "default_config.yaml").write_text(yaml)
    (tmp_path / "train.py").write_text(train)
    (tmp_path / "run.sh").write_text(f"python3 train.py --lr=0.01 {flags}\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    return [line for line in capsys.readouterr().out.splitlines() if line.startswith(("train.py", "usable"))]


OFF = ("line 8: not run in this launch: `args.need_profiler` is false in this launch (need_profiler: 0 in "
       "default_config.yaml:4, and the launcher does not pass --need_profiler; --need_profiler=1 would switch it on)")


def test_the_yaml_switches_it_off(capsys, tmp_path):
    # (the launcher's answer names the script with its line)
    assert _answer(capsys, tmp_path) == [f"train.py: MindSpore's profiler is off: {OFF}",
                                         f"usable data: no ({OFF.replace('line 8', 'line 8 of train.py')})"]


def test_the_launch_switches_it_on(capsys, tmp_path):
    assert _answer(capsys, tmp_path, flags="--need_profiler=1") == [
        "train.py: MindSpore's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_its_yaml_value_is_the_output_path(capsys, tmp_path, monkeypatch):
    # not a launch: the YAML's value is the flag's default, as an argparse default is (before: not known here)
    _answer(capsys, tmp_path, DIRECT)
    monkeypatch.chdir(tmp_path)
    main(["emulate", "train.py"])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (f"train.py:5 Profiler: COLLECTS from its construction until stop()/analyse() into "
                      f"{tmp_path}/prof (when config.run_profiler)")
    assert out[5] == f"  output directory: {tmp_path}/prof (output_path)"


def test_a_bool_key_given_as_a_literal(capsys, tmp_path):
    off = ("line 5: not run in this launch: `config.run_profiler` is false in this launch (run_profiler: False in "
           "default_config.yaml:5, and the launcher does not pass --run_profiler; --run_profiler=True would switch "
           "it on)")
    assert _answer(capsys, tmp_path, DIRECT) == [f"train.py: MindSpore's profiler is off: {off}",
                                                 f"usable data: no ({off.replace('line 5', 'line 5 of train.py')})"]


def test_a_bool_key_switched_on(capsys, tmp_path):
    assert _answer(capsys, tmp_path, DIRECT, flags="--run_profiler=True")[-1] == "usable data: yes"


def test_another_yaml_given_by_config_path(capsys, tmp_path):
    (tmp_path / "other.yaml").write_text(YAML.replace("need_profiler: 0", "need_profiler: 1"))
    assert _answer(capsys, tmp_path, flags="--config_path=other.yaml")[-1] == "usable data: yes"


def test_a_config_path_not_known_leaves_the_condition(capsys, tmp_path):
    assert _answer(capsys, tmp_path, flags='--config_path="$CFG"')[-1] == "usable data: yes (where its conditions hold)"


def test_an_option_not_in_the_yaml_keeps_the_condition(capsys, tmp_path):
    # argparse stops on it, or takes it as an abbreviation (`--need_prof=1` is --need_profiler=1): not decided here
    assert _answer(capsys, tmp_path, flags="--need_prof=1")[-1] == "usable data: yes (where its conditions hold)"


@pytest.mark.parametrize("edit", [
    # the YAML's values copied over the flags: not the shape read
    ("        cfg[item] = args_var[item]\n", "        args_var[item] = cfg[item]\n"),
    # another module-level statement
    ("config = get_config()\n", "config = get_config()\nconfig.need_profiler = 1\n"),
])
def test_another_shape_keeps_the_condition(capsys, tmp_path, edit):
    assert _answer(capsys, tmp_path, config=CONFIG.replace(*edit))[-1] == \
        "usable data: yes (where its conditions hold)"


@pytest.mark.parametrize("text", ["a: 1\n---\n{}\n---\n{}\n---\n{}\n", "- 1\n", "1: a\n", "a: !!python/tuple [1]\n"])
def test_a_yaml_not_read_as_the_module_reads_it(text):
    assert yaml_config._keys(text) is None


def test_the_keys_and_their_lines():
    keys = yaml_config._keys(YAML + "lst: [1]\n---\nneed_profiler: help\n---\nname: [yolo, v3]\n")
    assert {k: (v.value, v.line, v.choices) for k, v in keys.items()} == {
        "lr": (0.1, 2, None), "name": ("yolo", 3, ["yolo", "v3"]), "need_profiler": (0, 4, None),
        "run_profiler": (False, 5, None), "prof_dir": ("./prof", 6, None)}


def test_an_option_the_config_parser_does_not_make_stops_the_script(capsys, tmp_path):
    # python 3.11 ran the module: `-x` and `--xyz=1` are unrecognized arguments of its parse_args (status 2) when
    # train.py imports it; the answer was "no" for the YAML's value with `-x` (a single dash was not looked at)
    for k, flags in enumerate(("-x", "--xyz=1")):
        (tmp_path / str(k)).mkdir()
        stop = (f"line 8: not run in this launch: argparse stops the script in parse_args: {flags} from run.sh:1 is no "
                "option model_utils/config.py makes (the keys of default_config.yaml and --config_path), so "
                "argparse exits with status 2 (\"error: unrecognized arguments\", naming "
                f"{flags}) when train.py imports it")
        assert _answer(capsys, tmp_path / str(k), flags=flags) == [
            f"train.py: MindSpore's profiler is off: {stop}",
            f"usable data: no ({stop.replace('line 8', 'line 8 of train.py')})"]


@pytest.mark.parametrize("train, flags, stop", [
    # mindspore-ai/models' YOLOv3 (`need_profiler: 0`, so type=int) given --need_profiler=True; python 3.9 and 3.13
    # ran the module: "argument --need_profiler: invalid int value: 'True'", status 2
    (TRAIN, "--need_profiler=True", "line 8: not run in this launch: argparse stops the script in parse_args: int(), "
     "the type of --need_profiler (default_config.yaml:4), raises ValueError on --need_profiler=True from run.sh:1, "
     "so argparse exits with status 2"),
    # JDE's `enable_profiling: False` (type=ast.literal_eval) given as `false`: "invalid literal_eval value: 'false'"
    (DIRECT, "--run_profiler=false", "line 5: not run in this launch: argparse stops the script in parse_args: "
     "literal_eval(), the type of --run_profiler (default_config.yaml:5), raises ValueError on --run_profiler=false "
     "from run.sh:1, so argparse exits with status 2")])
def test_a_value_the_flag_type_does_not_convert_stops_the_script(capsys, tmp_path, train, flags, stop):
    # it said "MindSpore's profiler collects (when args.need_profiler)", "usable data: yes (where its conditions hold)"
    line = stop.split(":")[0]
    assert _answer(capsys, tmp_path, train, flags=flags) == [
        f"train.py: MindSpore's profiler is off: {stop}",
        f"usable data: no ({stop.replace(line, line + ' of train.py', 1)})"]


# the shape of the centernet family's module (mindspore-ai/models' centernet, centernet_resnet101,
# centernet_resnet50_v1): its Config turns an `np.array(...)` string into an array, get_config calls
# extra_operations(config_obj), and module-level names read parts of the configuration (the body of extra_operations,
# the strings and the names are ours)
ARRAY_CONFIG = CONFIG.replace('''        for k, v in cfg_dict.items():
            if isinstance(v, (list, tuple)):''', '''        for k, v in cfg_dict.items():
            if isinstance(v, str) and (v[:9] == 'np.array(' and v[-17:] == 'dtype=np.float32)'):
                v = np.array(ast.literal_eval(v[9:v.rfind(']') + 1]), dtype=np.float32)
            if isinstance(v, (list, tuple)):''').replace('''    pprint(final_config)
    return Config(final_config)
''', '''    pprint(final_config)
    config_obj = Config(final_config)
    extra_operations(config_obj)
    return config_obj
''').replace("config = get_config()\n", '''config = get_config()
net = config.net
opt = config.net.opt


if __name__ == '__main__':
    print(config)
''')
EXTRA = '''

def extra_operations(cfg):
    cfg.net.opt.rule = lambda x: x.name.endswith('.w')
    cfg.net.width = cfg.net.depth
    if cfg.name:
        cfg.net.title = cfg.name
'''
ARRAY_YAML = YAML + "net:\n  depth: 2\n  opt:\n    mean: np.array([[0.5, 0.25], [1, 2]], dtype=np.float32)\n"


def _array_config(extra=EXTRA):
    return ARRAY_CONFIG.replace("\n\ndef get_config():", extra + "\n\ndef get_config():")


@pytest.mark.parametrize("flags, usable", [("", "no"), ("--run_profiler=True", "yes")])
def test_the_centernet_shape_is_read(capsys, tmp_path, flags, usable):
    # centernet's run_standalone_train_ascend.sh passes --need_profiler=false: the answer was "yes (where its
    # conditions hold)" with its module not recognised (python 3.11 ran centernet's module on a copy: 'false')
    assert _answer(capsys, tmp_path, DIRECT, _array_config(), ARRAY_YAML, flags)[-1].startswith(
        f"usable data: {usable}")


@pytest.mark.parametrize("extra, yaml", [
    # extra_operations sets the key the test reads
    (EXTRA + "    cfg.run_profiler = True\n", ARRAY_YAML),
    # a call in it (int() may raise), a subscript, cfg handed on
    (EXTRA + "    cfg.net.depth = int(cfg.net.depth)\n", ARRAY_YAML),
    (EXTRA + "    cfg.net.width = cfg.net.sizes[0]\n", ARRAY_YAML),
    (EXTRA + "    print(cfg)\n", ARRAY_YAML),
    # a path it reads (or the module reads) that the YAML lacks: AttributeError when train.py imports it
    (EXTRA, YAML + "net:\n  depth: 2\n"),
    (EXTRA + "    cfg.net.title = cfg.title\n", ARRAY_YAML),
    # a key it sets below a scalar: AttributeError
    (EXTRA + "    cfg.lr.x = 1\n", ARRAY_YAML),
    # an array string numpy refuses (ragged), or one literal_eval does not read
    (EXTRA, ARRAY_YAML + "rows: np.array([[1, 2], [3]], dtype=np.float32)\n"),
    (EXTRA, ARRAY_YAML + "rows: np.array([a], dtype=np.float32)\n")])
def test_the_centernet_shape_not_as_read_keeps_the_condition(capsys, tmp_path, extra, yaml):
    assert _answer(capsys, tmp_path, DIRECT, _array_config(extra), yaml)[-1] == \
        "usable data: yes (where its conditions hold)"


def test_a_value_outside_the_yaml_choices_stops_the_script(capsys, tmp_path):
    # python 3.11 ran YOLOv3's module with `need_profiler: [0, 1]` in its third document: --need_profiler=2 exits
    # with status 2 ("invalid choice: 2 (choose from 0, 1)"); the answer was "unknown: --need_profiler is not one of
    # its choices"
    stop = ("line 8: not run in this launch: argparse stops the script in parse_args: --need_profiler=2 from run.sh:1 "
            "is not one of the choices of --need_profiler (default_config.yaml:4), so argparse exits with status 2 "
            "(\"invalid choice\")")
    assert _answer(capsys, tmp_path, yaml=YAML + "---\n{}\n---\nneed_profiler: [0, 1]\n",
                   flags="--need_profiler=2") == [
        f"train.py: MindSpore's profiler is off: {stop}",
        f"usable data: no ({stop.replace('line 8', 'line 8 of train.py', 1)})"]


def test_an_option_of_the_script_s_own_parser_stops_the_config_module_s(capsys, tmp_path):
    # python 3.9.18-3.13.0 ran the module (with pyyaml 6.0.3): train.py's own --device_id (parse_known_args) is no
    # option of config.py's parse_args, which exits with status 2 ("unrecognized arguments: --device_id=1") when
    # train.py imports it; the answer gave the YAML's value ("no (... need_profiler: 0 ...)")
    own = "import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--device_id', type=int)\n" \
        "args, _ = parser.parse_known_args()\n"
    stop = ("line 9: not run in this launch: argparse stops the script in parse_args: --device_id=1 from run.sh:1 is "
            "no option model_utils/config.py makes (the keys of default_config.yaml and --config_path), so argparse "
            "exits with status 2 (\"error: unrecognized arguments\", naming --device_id=1) when train.py imports it")
    assert _answer(capsys, tmp_path, train=own + DIRECT, flags="--device_id=1") == [
        f"train.py: MindSpore's profiler is off: {stop}",
        f"usable data: no ({stop.replace('line 9', 'line 9 of train.py')})"]


def test_no_outside_reads_no_yaml_outside_the_project(capsys, tmp_path, tmp_path_factory):
    """A launcher from an untrusted pull request names the YAML: it was read, and decided the answer."""
    other = tmp_path_factory.mktemp("runner")
    (other / "x.yaml").write_text(YAML.replace("need_profiler: 0", "need_profiler: 1"))
    (tmp_path / ".git").mkdir()
    assert _answer(capsys, tmp_path, flags=f"--config_path={other}/x.yaml") == [
        "train.py: MindSpore's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]
    main(["emulate", "--no-outside", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith(("train.py", "usable"))] == [
        "train.py: MindSpore's profiler collects (when args.need_profiler) (emulate train.py for its steps and "
        "folders)", "usable data: yes (where its conditions hold)"]      # as for a --config_path not known



@pytest.mark.parametrize("how", ["variable", "link"])
def test_no_outside_reads_no_yaml_outside_the_project_however_named(capsys, tmp_path, tmp_path_factory, how):
    """A --config_path from a variable, relative with `..`; one through a link in the project."""
    import os
    other = tmp_path_factory.mktemp("runner")
    (other / "x.yaml").write_text(YAML.replace("need_profiler: 0", "need_profiler: 1"))
    (tmp_path / ".git").mkdir()
    (tmp_path / "lnk").symlink_to(other)
    flags = "--config_path=lnk/x.yaml" if how == "link" else "--config_path=$C"
    _answer(capsys, tmp_path, flags=flags)
    if how == "variable":
        (tmp_path / "run.sh").write_text(f"C={os.path.relpath(other / 'x.yaml', tmp_path)}\n"
                                         f"python3 train.py --lr=0.01 {flags}\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    assert "usable data: yes" in capsys.readouterr().out.splitlines()           # read by default
    main(["emulate", "--no-outside", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith(("train.py", "usable"))] == [
        "train.py: MindSpore's profiler collects (when args.need_profiler) (emulate train.py for its steps and "
        "folders)", "usable data: yes (where its conditions hold)"]      # as for a --config_path not known
