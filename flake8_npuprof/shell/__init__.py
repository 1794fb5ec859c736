"""Shell: a launcher read as bash would run it, without running anything. Its parsing (words, statements,
here-documents, quoting), the interpreter that walks it (variables, arguments, tests, `case`, functions, loops,
sourced and child scripts, the directory), and the recognition of what each command starts (Python, msprof, a
child script) with which words. What `check` judges of it is in checks/, what a run would do in emulate/.

May import: setups, values, source, knowledge.
"""
