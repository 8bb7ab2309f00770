"""Where a project's data lives, for the load stage (load -> validate -> link -> check -> render -> report).

- ``translations/languages.yaml``  the languages (code, name, locale); ``en`` is the source
- ``rules/sources.yaml``           every source a text may cite
- ``rules/comprehensive/*.yaml``   one rule per file (title, summary, text, subrules, notes), or a
                                   list of rules under ``rules:`` (an imported section of the rules)
- ``rules/cards/*.yaml``           one card per file
- ``rules/rulings/*.yaml``         the rulings of one mechanic (a rule id) per file
- ``rules/glossary/*.yaml``        terms of the Comprehensive Rules' glossary (imported), under ``terms:``
- ``rules/releases/*.yaml``        one imported rules release per file (its chapters, its input file)
- ``translations/``                the languages file, the termbase, the QA waivers, the catalogs

`data_files` lists the YAML files under ``rules/`` and ``translations/``.
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import Problem

DATA_FOLDERS = ("rules", "translations")
LANGUAGES_FILE = "translations/languages.yaml"
SOURCES_FILE = "rules/sources.yaml"
RULES_DIR = "rules/comprehensive"
CARDS_DIR = "rules/cards"
RULINGS_DIR = "rules/rulings"
GLOSSARY_DIR = "rules/glossary"
RELEASES_DIR = "rules/releases"
TRANSLATIONS_DIR = "translations"
YAML_SUFFIXES = (".yaml", ".yml")


def data_files(root: Path) -> tuple[list[Path], list[Problem]]:
    """The YAML files under the data folders of `root` (sorted per folder), and the problems of
    the walk."""
    paths: list[Path] = []
    for folder in DATA_FOLDERS:
        base = root / folder
        if base.is_dir():
            paths += sorted(p for p in base.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())
    return paths, []
