"""Report: renderings of findings (text, JSON, SARIF, GitHub annotations) shared by the CLI, the
flake8 formatters and the language server.

A front-end: may import every layer below (engine, emulate, checks, shell, setups, values, source, knowledge).
"""
