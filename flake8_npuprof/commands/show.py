"""`npuprof check --show-settings` and `--show-files`: what a run would use and read, without checking.

The answer to "which configuration file was used?" and "why was this file (not) checked?": the settings are
printed with where each came from (a flag, the file and its key, or the default), the files one per line.
"""

from __future__ import annotations

from .inputs import EXIT_CLEAN, exclude_patterns, given_paths


def _origin(config, key: str, flag_value, configured) -> str:
    if flag_value not in (None, (), False, ""):
        return "command line"
    if configured not in (None, (), False, ""):
        return f"{config.path}: {config.key(key)}"
    return "default"


def show_settings(args, config, settings, selection) -> int:
    from . import batch, cache as caches
    from ..source.files import DEFAULT_OFF
    lines = []
    if config is None:
        lines.append("configuration: none found (searched from the working directory up to the repository root: "
                     "pyproject.toml with [tool.npuprof], setup.cfg, tox.ini, .flake8 with [flake8])")
    else:
        section = "[tool.npuprof]" if config.path.endswith(".toml") else "[flake8]"
        lines.append(f"configuration: {config.path} {section}")
    target = settings.target
    lines.append(f"cann: {target.cann} ({_origin(config, 'cann', args.cann, getattr(config, 'cann', None))})")
    lines.append(f"soc: {target.soc} ({_origin(config, 'soc', args.soc, getattr(config, 'soc', None))})")
    lines.append(f"torch-npu: {target.torch_npu} ({_origin(config, 'torch-npu', getattr(args, 'torch_npu', None), getattr(config, 'torch_npu', None))})")
    for key in ("select", "extend_select", "ignore", "extend_ignore"):
        value = getattr(selection, key)
        lines.append(f"{key.replace('_', '-')}: {', '.join(value) or '-'}")
    off = sorted(set(DEFAULT_OFF) | set(selection.default_off))
    lines.append(f"off unless selected: {', '.join(off)}")
    if config is not None and config.per_file_ignores:
        lines.append("per-file-ignores:")
        lines.extend(f"  {pattern}: {', '.join(codes)}" for pattern, codes in config.per_file_ignores)
    else:
        lines.append("per-file-ignores: -")
    lines.append(f"preflight: {'on' if settings.preflight else 'off'}" +
                 (" (implied by --graph)" if settings.graph and not getattr(args, "preflight", False)
                  and not (config and config.preflight) else ""))
    lines.append(f"graph: {settings.graph or '-'}")
    lines.append(f"exclude: {', '.join(exclude_patterns(args, config))}")
    lines.append(f"respect .gitignore: {'yes' if getattr(args, 'respect_gitignore', True) else 'no'}")
    lines.append(f"force-exclude: {'yes' if getattr(args, 'force_exclude', False) else 'no'}")
    cache = caches.for_run(args, config, settings)
    if cache is None:
        why = "--no-cache" if getattr(args, "no_cache", False) else "preflight checks read this machine"
        lines.append(f"cache: off ({why})")
    else:
        lines.append(f"cache: {caches.folder_for(args, config)}")
    lines.append(f"jobs: {batch.workers(args)}")
    print("\n".join(lines))
    return EXIT_CLEAN


def show_files(args, config) -> int:
    """Each file a run would read, as the report would name it, one per line."""
    from .inputs import display, note_outside
    from ..source.files import discover
    outside: list = []
    for path in discover(given_paths(args), exclude=exclude_patterns(args, config),
                         gitignore=getattr(args, "respect_gitignore", True),
                         force_exclude=getattr(args, "force_exclude", False), outside=outside):
        print("-" if path == "-" else display(path))
    note_outside(args, outside)
    return EXIT_CLEAN

