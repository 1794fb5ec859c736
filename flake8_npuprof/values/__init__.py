"""Values: what the expressions feeding a profiling setting evaluate to, in one file and across
the project (the resolver, its value operations, the astroid fallback, flags given at launch).

May import: source, knowledge.
"""
