"""Source: what the tool reads and how it is placed — files and their decoding, configuration,
text positions and decoded literals, the ast walk (sites and its site_* parts, imports), JSON and graph-dump readers,
edits of source text (the building blocks of fixes), the work budget a file is checked within
(prefilter), and the all-or-nothing write of a fixed file (writes).

May import: knowledge.
"""
