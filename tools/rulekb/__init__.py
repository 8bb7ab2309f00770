"""rulekb: a multilingual (en/de/fr) knowledge base of the Magic: The Gathering Comprehensive
Rules and card rulings.

The pipeline, one module per stage: load -> validate -> link -> check -> render -> report,
with `commands` on top (the command line: one module per command, all argument parsing and
printing) and `mkdocs_plugin` as the thin mkdocs integration.
"""

__version__ = "0.1.0"
