"""Where a project's data lives, for the load stage (load -> validate -> link -> check -> render -> report).

- ``translations/languages.yaml``  the languages (code, name, locale); ``en`` is the source
- ``rules/sources.yaml``           every source a text may cite
- ``rules/comprehensive/*.yaml``   one rule per file (title, summary, text, subrules, notes), or a
                                   list of rules under ``rules:`` (an imported section of the rules)
- ``rules/cards/*.yaml``           one card per file, or the cards of one initial under ``cards:`` (imported)
- ``rules/rulings/*.yaml``         the rulings of one mechanic (``mechanic:``, a rule id) per file, or (imported)
                                   those of one initial of their first card under ``rulings:``
- ``rules/glossary/*.yaml``        terms of the Comprehensive Rules' glossary (imported), under ``terms:``
- ``rules/releases/*.yaml``        one imported rules release per file (its chapters, its input file)
- ``translations/``                the languages file, the termbase, the QA waivers, the catalogs

`data_files` lists the YAML files under ``rules/`` and ``translations/``. It follows no link to a
folder and reads only names ending in ``.yaml`` or ``.yml``: a linked folder (its files would be
written through the link by an import, and lost when the tree is copied without it) and a name
such as ``X.YAML`` are refused with a problem each, never skipped without a word.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path
from typing import Iterable

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
    """The YAML files under the data folders of `root` (sorted per folder), and a problem for
    each linked folder, each YAML file whose suffix is not written in lowercase and each folder
    that cannot be read."""
    paths: list[Path] = []
    problems: list[Problem] = []
    for folder in DATA_FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        found: list[Path] = []
        def unreadable(error: OSError) -> None:
            rel = Path(error.filename).relative_to(root).as_posix() if error.filename else folder
            problems.append(Problem(rel, 1, 1, f"cannot read the folder {rel}: {error.strerror or error}",
                                    "make the folder readable for you, or move it out of the project"))
        for top, dirs, names in os.walk(base, onerror=unreadable):
            here = Path(top)
            for name in sorted(dirs):
                if (here / name).is_symlink():
                    rel = (here / name).relative_to(root).as_posix()
                    problems.append(Problem(rel, 1, 1, f"{rel} is a link to a folder; rulekb does not follow "
                                            f"links to folders under {folder}/",
                                            "put the folder itself (or its files) here instead of a link"))
            dirs[:] = [d for d in dirs if not (here / d).is_symlink()]
            for name in names:
                path = here / name
                suffix = path.suffix
                if suffix in YAML_SUFFIXES:
                    if path.is_file():
                        found.append(path)
                elif suffix.lower() in YAML_SUFFIXES and path.is_file():
                    rel = path.relative_to(root).as_posix()
                    problems.append(Problem(rel, 1, 1, f"the file name ends in '{suffix}'; rulekb reads only "
                                            "names ending in '.yaml' or '.yml'",
                                            f"rename it to {path.stem}{suffix.lower()}"))
        paths += sorted(found)
    return paths, problems


def release_dates(paths: Iterable[str]) -> tuple[str, ...]:
    """The rules releases of a project, oldest first: the dates the files of ``rules/releases/``
    are named by (``2026-01-16.yaml``; the validator checks that each holds its release), from
    the paths of its data files (relative to the root). The release lists of the data name them
    (`releaseranges`), so they are known before any data file is parsed."""
    prefix = RELEASES_DIR + "/"
    out = set()
    for path in paths:
        if path.startswith(prefix) and path.endswith(".yaml"):
            name = path.rsplit("/", 1)[-1][:-len(".yaml")]
            try:
                if dt.date.fromisoformat(name).isoformat() == name:
                    out.add(sys.intern(name))
            except ValueError:
                continue
    return tuple(sorted(out))
