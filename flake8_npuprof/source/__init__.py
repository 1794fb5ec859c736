"""Source: what the tool reads and how it is placed — files and their decoding, configuration,
text positions and decoded literals, the ast walk (sites, imports), JSON and graph-dump readers,
and edits of source text (the building blocks of fixes).

May import: knowledge.
"""
