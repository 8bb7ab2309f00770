"""Every input of a project, loaded and checked once (stages load -> validate, for the commands that
read a whole project: `rulekb validate`, `check`, `build` and `serve`).

One list of what a project is made of and what refuses each part, so that `validate` refuses
everything `check` or `build` refuses (issue 31.8: a concept naming a renamed rule stopped check
and build while validate said "ok"):

- the knowledge base: rules/ and the languages, sources, releases, cards, rulings and glossary
  (`knowledge.load_knowledge_base`);
- ``translations/termbase.yaml`` (`termbase.load_termbase`, with the rule ids its concepts name);
- ``translations/phraseology.yaml`` (`phraseology.load_phraseology`; optional);
- ``translations/qa-waivers.yaml`` (`check.waivers.load_waivers`: check codes, unit ids, languages; optional);
- ``translations/official.yaml`` (`official.load_official`; optional);
- ``translations/ui/<lang>.po`` and each language's locale (`i18n.load_uis`);
- the hand-written pages ``content/<lang>/`` (`read_content`: UTF-8, none at a generated page's path);
- ``mkdocs.yml``, the site's configuration (`site_config_problems`: YAML, a mapping).

`load_inputs` loads all of them and raises one `DataError` with the problems of every input (after
the knowledge base's own: what the others are checked against). `check_site_inputs` checks the
inputs a check result does not depend on (the UI catalogs, the pages, mkdocs.yml): a check whose
result comes from its cache checks those alone, every run.

A missing mkdocs.yml is refused where a site is made (`site=True`: validate, build); the checks
need no site and run on a project without one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, TypeVar

import yaml

from .diagnostics import DataError, Problem
from .i18n import UI, load_uis
from . import knowledge
from .knowledge import ProjectFiles
from .models import KnowledgeBase, Language
from .official import Official, load_official
from .phraseology import Phraseology, load_phraseology
from .termbase import Termbase, load_termbase

T = TypeVar("T")

CONTENT_FOLDER = "content"
SITE_CONFIG = "mkdocs.yml"
# where the build puts generated pages (render: `paths`, `render_site`): a hand-written page
# there would hide one, or be hidden (its message and fix are render_site's, word for word)
GENERATED_FOLDERS = ("rules", "parallel", "cards", "changes")
GENERATED_PAGES = ("keywords.md", "glossary.md", "status.md")
GENERATED_HINT = ("rename or move the hand-written page; generated: rules/, parallel/, cards/, changes/, keywords.md, "
                  "glossary.md, status.md")


@dataclass(frozen=True)
class Content:
    """The hand-written pages of ``content/``: per language, Markdown texts by path, and the
    other files (images …) by path."""
    pages: Mapping[str, Mapping[str, str]]
    assets: Mapping[str, Mapping[str, Path]]


@dataclass(frozen=True)
class Inputs:
    """A project's inputs, each loaded and checked."""
    kb: KnowledgeBase
    termbase: Termbase
    phraseology: Phraseology
    waivers: tuple            # of `check.waivers.Waiver`
    official: Official
    uis: Mapping[str, UI]
    content: Content


def load_inputs(root: Path, *, files: ProjectFiles | None = None, site: bool = True) -> Inputs:
    """Every input of the project at `root` (see the module's docstring), or a DataError naming the
    problems of every input that does not load. `files`: the data files as `knowledge.read_files`
    read them already; `site`: refuse a missing mkdocs.yml (a site is to be made)."""
    from .check import all_checks
    from .check.waivers import load_waivers
    kb = knowledge.load_knowledge_base(root, files=files)
    problems: list[Problem] = []
    termbase = _collect(problems, lambda: load_termbase(root, kb))
    phraseology = _collect(problems, lambda: load_phraseology(root))
    waivers = _collect(problems, lambda: load_waivers(root, kb, tuple(c.code for c in all_checks())))
    official = _collect(problems, lambda: load_official(root, kb.language_codes))
    uis, content, more = site_inputs(root, kb.languages, site=site)
    problems += more
    if problems:
        raise DataError(problems)
    assert termbase is not None and phraseology is not None and waivers is not None and official is not None
    assert uis is not None and content is not None
    return Inputs(kb, termbase, phraseology, waivers, official, uis, content)


def site_inputs(root: Path, languages: Iterable[Language], *, site: bool) -> tuple[Mapping[str, UI] | None, Content | None,
                                                                                 list[Problem]]:
    """The UI catalogs and the hand-written pages, and the problems of those and of mkdocs.yml."""
    problems: list[Problem] = []
    uis = _collect(problems, lambda: load_uis(root, languages))
    content = _collect(problems, lambda: read_content(root))
    problems += site_config_problems(root, required=site)
    return uis, content, problems


def check_site_inputs(root: Path, languages: Iterable[Language], *, site: bool = False) -> None:
    """Raise a DataError when a UI catalog, a hand-written page or mkdocs.yml does not load (what
    a cached check result does not depend on, but every command refuses)."""
    _uis, _content, problems = site_inputs(root, languages, site=site)
    if problems:
        raise DataError(problems)


def _collect(problems: list[Problem], load: Callable[[], T]) -> T | None:
    """`load()`, or None with its problems added to `problems`."""
    try:
        return load()
    except DataError as exc:
        problems += exc.problems
        return None


def read_content(root: Path) -> Content:
    """Hand-written pages per language: Markdown texts (UTF-8; a DataError for a page that is
    not, or that lies where the build puts a generated page), and the other files (images …)."""
    pages: dict[str, dict[str, str]] = {}
    assets: dict[str, dict[str, Path]] = {}
    problems: list[Problem] = []
    base = root / CONTENT_FOLDER
    if not base.is_dir():
        return Content(pages, assets)
    for lang_dir in sorted(p for p in base.iterdir() if p.is_dir()):
        for path in sorted(p for p in lang_dir.rglob("*") if p.is_file()):
            rel = path.relative_to(lang_dir).as_posix()
            shown = path.relative_to(root).as_posix()
            if not rel.endswith(".md"):
                assets.setdefault(lang_dir.name, {})[rel] = path
                continue
            if ("/" in rel and rel.split("/", 1)[0] in GENERATED_FOLDERS) or rel in GENERATED_PAGES:
                problems.append(Problem(shown, 1, 1, f"the hand-written page {rel} has the path of a generated page",
                                        GENERATED_HINT))
                continue
            try:
                pages.setdefault(lang_dir.name, {})[rel] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                problems.append(Problem(shown, _line_of_byte(path.read_bytes(), exc.start), 1, f"not UTF-8: {exc}",
                                        "save the page as UTF-8"))
            except OSError as exc:
                problems.append(Problem(shown, 1, 1, f"cannot read the page: {exc.strerror or exc}",
                                        "make the file readable for you, or move it out of content/"))
    if problems:
        raise DataError(problems)
    return Content(pages, assets)


def _line_of_byte(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def site_config_problems(root: Path, *, required: bool) -> list[Problem]:
    """The problems of the site's configuration, mkdocs.yml, which each language's generated
    config INHERITs: it must read as YAML (mkdocs' own tags such as ``!ENV`` allowed) and hold a
    mapping of settings. Missing: a problem when `required`."""
    path = root / SITE_CONFIG
    if not path.is_file():
        return [Problem(SITE_CONFIG, 1, 1, f"{SITE_CONFIG} is missing: the site's configuration",
                        "restore it from the project (git checkout mkdocs.yml)")] if required else []
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        return [Problem(SITE_CONFIG, 1, 1, f"cannot read {SITE_CONFIG}: {exc.strerror or exc}", "make it readable for you")]
    except UnicodeDecodeError as exc:
        return [Problem(SITE_CONFIG, _line_of_byte(path.read_bytes(), exc.start), 1, f"{SITE_CONFIG} is not UTF-8",
                        "save it as UTF-8")]
    try:
        config = yaml.load(text, Loader=_ConfigLoader)  # a SafeLoader that keeps unknown tags' values
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return [Problem(SITE_CONFIG, line, column, f"{SITE_CONFIG} is not valid YAML: {exc.problem or exc}",
                        "correct the line (mkdocs reads this file for every language's site)")]
    except yaml.YAMLError as exc:
        return [Problem(SITE_CONFIG, 1, 1, f"{SITE_CONFIG} is not valid YAML: {exc}", "correct the file")]
    if not isinstance(config, dict):
        return [Problem(SITE_CONFIG, 1, 1, f"{SITE_CONFIG} does not hold a mapping of settings",
                        "restore it from the project (git checkout mkdocs.yml)")]
    return []


class _ConfigLoader(yaml.SafeLoader):
    """PyYAML's safe loader that reads mkdocs' own tags (``!ENV``, ``!relative``) as plain values."""


def _plain(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


for _prefix in ("!", "tag:yaml.org,2002:python/"):   # !ENV, !relative; !!python/name:… (mkdocs' loader reads them)
    _ConfigLoader.add_multi_constructor(_prefix, _plain)
