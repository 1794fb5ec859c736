"""Commands: the CLI's subcommands (check, fix and its unified diff, add-noqa, validate, emulate's command
line) and where their report goes; each file's text goes through engine/.

A front-end: may import every layer below (engine, emulate, checks, shell, setups, values, source, knowledge) and
report/.
"""
