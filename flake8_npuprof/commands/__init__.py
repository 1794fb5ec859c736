"""Commands: the CLI's subcommands other than emulate (check, fix and its unified diff, add-noqa,
validate) and where their report goes.

A front-end: may import every layer below (emulate, checks, setups, values, source, knowledge) and
report/.
"""
