"""Builds the MindSpore API catalogue from a real MindSpore:
`python -m mindscope_ls.catalogue.build` (writer.py; introspect.py reads one object)."""
