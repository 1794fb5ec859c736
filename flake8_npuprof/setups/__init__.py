"""Setups: the profiling setups of a file (every route), where their configs go, the order GE
meets them, and the one model of each setup's effective state.

May import: values, source, knowledge.
"""
