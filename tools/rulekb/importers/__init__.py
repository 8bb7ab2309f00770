"""Importers: bring official data into the knowledge base's YAML, beside the pipeline
(load -> validate -> link -> check -> render -> report) rather than in it.

- `crtext`   reads an official Comprehensive Rules text release (any of its encodings and line
             ends) into a typed `Release`: effective date, chapters, sections, rules, subrules
             with their example and continuation lines, glossary.
- `identity` matches the rules of a release to the rules the knowledge base already holds,
             across renumbering (title for keyword rules, text similarity, neighbours).
- `cr`       turns a parsed release into rule, glossary and release YAML files and merges it
             with what is there: new English versions, number histories, nothing dropped.
- `mtgjson`  imports the cards and rulings of MTGJSON set files (compressed or not), each card and ruling
             stored once.
- `releases` answers "what is 702.78 in the release of 2026-01-16?" over a `KnowledgeBase`.
- `diff`     a word-level diff of two text versions, for the history on rule pages.
- `store`    reads and writes the YAML files of a project tree as plain data, deterministically
             (a fast port of PyYAML's output), and makes dataset copies (``--into DIR``).
- `command`  the command-line side: ``rulekb import cr|mtgjson`` and ``rulekb show N --release D``.

Nothing here runs on import; the CLI calls `cr.import_releases` and `mtgjson.import_sets`.
"""
