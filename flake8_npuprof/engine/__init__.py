"""The engine every front-end runs one text through: the target a run is checked for (`target`), which
codes it reports (`selection`), the check of one text with its noqa and per-file-ignores (`run`), and the
fixes, each re-checked (`fix`). The flake8 plugin, the language server and the CLI's commands call it; it
knows nothing of their flags (no argparse namespace) and imports none of them.

May import: emulate, checks, shell, setups, values, source, knowledge.
"""
