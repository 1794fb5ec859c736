"""Emulate: what a profiling run of a script would do, without an NPU (runtime replay, the PROF_*
layout, shell launchers as entry points).

May import: checks, shell, setups, values, source, knowledge.
"""
