"""What changed in each rules release, on the site (render stage): ``changes/<release>.md`` for
every imported release but the oldest (against the release before it, as ``rulekb changes``
prints it: `rulekb.changes.compare_releases`) and ``changes/index.md``, the releases with their
counts. Each release's page lists its rules and subrules, then its glossary's terms (new, removed,
reworded, typography alone: `ReleaseChanges.glossary_of`). The texts are the releases' English
(marked ``lang="en"``), every label comes from the UI catalogs. Shapes: ``templates/pages/changes.md.j2`` and ``changes-index.md.j2``.

A release that changed too much for one page (issue 32.3: 2009-07-11 was 1.41 MB, the renumbering
and rewording of 2019 1.01 MB; a phone opens 400 KB at most at once) is split: its changes by
chapter on pages of their own (``changes/2009-07-11/7.md``; a chapter still too large by section,
``changes/2009-07-11/702.md``), its glossary on one more (``changes/2009-07-11/glossary.md``), and
the release's page becomes their index: each part with its counts, and under every heading the
page had (``#reworded``, ``#glossary-new`` …) the links to that heading on each part, so that a
link to the release's page and its headings still leads there (shape: ``changes-split.md.j2``).
Whether a page is split is decided on its Markdown (`SPLIT_OVER`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup, escape

from ..changes import Change, GlossaryChange, ReleaseChanges, all_steps
from ..models import KnowledgeBase
from . import paths
from .context import Lang
from .diffs import text_html
from .rules import chapter_title

FOLDER = "changes"
INDEX = f"{FOLDER}/index.md"
GLOSSARY_PART = "glossary"
KINDS = ("new", "removed", "renumbered", "reworded")
GLOSSARY_KINDS = ("new", "removed", "reworded", "typography")

# a release page whose Markdown is larger than this is split into parts (the page around it,
# the theme's navigation and the table of contents add some 15-40 KB to the 400 KB a page may
# have: issue 32.3)
SPLIT_OVER = 300_000


def release_page(release: str) -> str:
    return f"{FOLDER}/{release}.md"


def part_page(release: str, part: str) -> str:
    """A part of a split release page: a chapter (``7``), a section (``702``) or the glossary."""
    return f"{FOLDER}/{release}/{part}.md"


def all_changes(kb: KnowledgeBase) -> tuple[ReleaseChanges, ...]:
    """Each imported release but the oldest against the release before it, newest first
    (computed once for every language: `changes.all_steps`)."""
    return all_steps(kb)


@dataclass(frozen=True)
class Item:
    """One changed text on a release's page."""

    old: str | None             # its number in the older release
    new: str | None             # its number in the newer release
    href: str                   # its rule's page today, at its place there
    rule: str                   # its rule's title in the reader's language ("" when it has none)
    text: Markup                # its English, or the word diff of it


@dataclass(frozen=True)
class Term:
    """One changed glossary term on a release's page (the glossary of the rules has no page of
    its own: the term and its English are shown here, not linked)."""

    term: str                   # the term in the newer release (the older one's when it was removed)
    text: Markup                # its definition, or the word diff of "term: definition"


@dataclass(frozen=True)
class Row:
    """A release on the index page."""

    date: str
    old_date: str
    href: str
    counts: tuple[int, int, int, int, int]   # new, removed, renumbered, reworded, typography only


def _item(c: Lang, page: str, change: Change, diff: bool) -> Item:
    rule = change.rule
    sub = next((s for s in rule.subrules if s.unit is change.unit), None)
    anchor = sub.number if sub is not None else rule.number
    if diff:
        text = c.shared.diffs.brief(change.before or "", change.after or "")
    else:   # the text itself, as the diffs show a text (escaped, its line breaks kept)
        text = text_html(change.after or change.before or "")
    return Item(change.old_number, change.new_number, paths.href(page, paths.rule_page(rule.id), anchor),
                c.titles.get(rule.id, ""), text)


def _term(c: Lang, change: GlossaryChange, diff: bool) -> Term:
    if diff:
        return Term(change.term, c.shared.diffs.html(*change.texts))
    side = change.after or change.before or ("", "")
    return Term(side[0], text_html(side[1]))


@dataclass(frozen=True)
class Part:
    """A part of a split release page, on the release's page (its index)."""

    key: str                    # "7", "702", "glossary"
    title: str                  # "Chapter 7: Additional Rules", "Section 702", "Glossary" in the reader's language
    lang: str                   # the language of `title` (an untranslated chapter title stays English)
    href: str                   # from the release's page
    counts: tuple[int, ...]     # new, removed, renumbered, reworded, typography only; the glossary's terms


@dataclass(frozen=True)
class KindLinks:
    """A heading of the release page that was (``#reworded``) and the parts that have it."""

    kind: str                   # its anchor
    total: int
    links: tuple[tuple[Part, str, int], ...]   # (part, href to the heading on it, count)


def _number(change: Change) -> str:
    return change.new_number or change.old_number or ""


def chapter_of(change: Change) -> str:
    """A change's chapter: its number's first digit (``702.78a`` -> ``7``)."""
    return _number(change)[:1]


def section_of(change: Change) -> str:
    """A change's section: its number's first three digits (``702.78a`` -> ``702``)."""
    return _number(change).split(".")[0]


def _filtered(rc: ReleaseChanges, keep: Callable[[Change], bool]) -> ReleaseChanges:
    """The release's changes of rules that `keep` accepts (its glossary aside)."""
    return ReleaseChanges(rc.old, rc.new, *(tuple(x for x in changes if keep(x)) for changes in (
        rc.new_units, rc.removed, rc.renumbered, rc.reworded, rc.typography)), (), (), ())


def _counts(rc: ReleaseChanges) -> tuple[int, int, int, int, int]:
    return len(rc.new_units), len(rc.removed), len(rc.renumbered), len(rc.reworded), len(rc.typography)


def _render(c: Lang, page: str, rc: ReleaseChanges, compared: Markup, *, gone: tuple[str, ...],
            rules: bool = True, glossary: bool = True, part: str = "", release: str = "") -> str:
    """A release page, or a part of one (`part`: its title; `release`: the link to the release's page)."""
    sections = ()
    typography: list[Item] = []
    if rules:
        sections = (
            ("new", [_item(c, page, x, False) for x in rc.new_units]),
            ("removed", [_item(c, page, x, False) for x in rc.removed]),
            ("renumbered", [_item(c, page, x, False) for x in rc.renumbered]),
            ("reworded", [_item(c, page, x, True) for x in rc.reworded]),
        )
        typography = [_item(c, page, x, True) for x in rc.typography]
    terms = ()
    if glossary:
        terms = tuple((kind, [_term(c, g, kind in ("reworded", "typography")) for g in rc.glossary_of(kind)])
                      for kind in GLOSSARY_KINDS)
    return c.pages.render("pages/changes.md.j2", date=c.ui.date(rc.new), compared=compared,
                          index=paths.href(page, INDEX), sections=sections, typography=typography,
                          gone=gone, glossary=terms, part=part, release=release)


def _compared(c: Lang, page: str, rc: ReleaseChanges, oldest: str) -> Markup:
    older = escape(c.ui.date(rc.old))
    if rc.old != oldest:   # the oldest release has no page
        older = Markup('<a href="{}">{}</a>').format(paths.href(page, release_page(rc.old)), older)
    return older


def _chapter_titles(c: Lang, release: str) -> dict[str, str]:
    found = next((r for r in c.kb.releases if r.date == release), None)
    if found is None and c.kb.releases:
        found = c.kb.releases[-1]
    return dict(found.chapters) if found is not None else {}


def _parts(c: Lang, rc: ReleaseChanges, oldest: str, split_over: int) -> tuple[dict[str, str], list[Part]]:
    """The part pages of a release (chapters, a chapter too large by its sections, the glossary)
    and the parts as its index shows them."""
    page = release_page(rc.new)
    chapters = sorted({chapter_of(x) for changes in (rc.new_units, rc.removed, rc.renumbered, rc.reworded,
                                                     rc.typography) for x in changes}, key=lambda k: (k == "", k))
    titles = _chapter_titles(c, rc.new)
    _ = c.ui._
    docs: dict[str, str] = {}
    parts: list[Part] = []

    def add(key: str, title: str, lang: str, mine: ReleaseChanges, text: str) -> None:
        path = part_page(rc.new, key)
        docs[path] = text
        parts.append(Part(key, title, lang, paths.href(page, path), _counts(mine)))

    for chapter in chapters:
        mine = _filtered(rc, lambda x, k=chapter: chapter_of(x) == k)
        name, lang = chapter_title(c, titles.get(chapter, ""))
        title = (_("Chapter {n}: {title}").format(n=chapter, title=name) if name else
                 _("Chapter {n}").format(n=chapter))
        path = part_page(rc.new, chapter or "0")
        text = _render(c, path, mine, _compared(c, path, rc, oldest), gone=(), glossary=False,
                       part=title, release=paths.href(path, page))
        if len(text.encode("utf-8")) <= split_over:
            add(chapter or "0", title, lang, mine, text)
            continue
        for section in sorted({section_of(x) for changes in (mine.new_units, mine.removed, mine.renumbered,
                                                             mine.reworded, mine.typography) for x in changes}):
            sub = _filtered(mine, lambda x, k=section: section_of(x) == k)
            title = _("Section {key}").format(key=section)
            path = part_page(rc.new, section)
            add(section, title, c.lang, sub, _render(c, path, sub, _compared(c, path, rc, oldest), gone=(),
                                                     glossary=False, part=title, release=paths.href(path, page)))
    if rc.glossary:
        path = part_page(rc.new, GLOSSARY_PART)
        title = _("Glossary")
        docs[path] = _render(c, path, rc, _compared(c, path, rc, oldest), gone=(), rules=False,
                             part=title, release=paths.href(path, page))
        parts.append(Part(GLOSSARY_PART, title, c.lang, paths.href(page, path),
                          tuple(len(rc.glossary_of(kind)) for kind in GLOSSARY_KINDS)))
    return docs, parts


def _split_page(c: Lang, rc: ReleaseChanges, oldest: str, parts: list[Part]) -> str:
    """The page of a split release: its parts, and under each heading it had the parts that have it."""
    page = release_page(rc.new)
    rules = [p for p in parts if p.key != GLOSSARY_PART]
    kinds = tuple(KindLinks(kind, sum(p.counts[i] for p in rules),
                            tuple((p, f"{p.href}#{kind}", p.counts[i]) for p in rules if p.counts[i]))
                  for i, kind in enumerate(KINDS + ("typography",)))
    glossary = next((p for p in parts if p.key == GLOSSARY_PART), None)
    terms = tuple(KindLinks(f"glossary-{kind}", glossary.counts[i] if glossary else 0,
                            ((glossary, f"{glossary.href}#glossary-{kind}", glossary.counts[i]),)
                            if glossary and glossary.counts[i] else ())
                  for i, kind in enumerate(GLOSSARY_KINDS))
    return c.pages.render("pages/changes-split.md.j2", date=c.ui.date(rc.new), compared=_compared(c, page, rc, oldest),
                          index=paths.href(page, INDEX), parts=tuple(rules), kinds=kinds, glossary=glossary,
                          terms=terms, gone=rc.numbers_gone)


def release_pages(c: Lang, rc: ReleaseChanges, oldest: str, split_over: int = SPLIT_OVER) -> dict[str, str]:
    """A release's page, split into parts when its Markdown is larger than `split_over` bytes
    (`oldest`: the older release of the oldest comparison, which has no page)."""
    page = release_page(rc.new)
    whole = _render(c, page, rc, _compared(c, page, rc, oldest), gone=rc.numbers_gone)
    if len(whole.encode("utf-8")) <= split_over:
        return {page: whole}
    docs, parts = _parts(c, rc, oldest, split_over)
    docs[page] = _split_page(c, rc, oldest, parts)
    return docs


def changes_pages(c: Lang, found: tuple[ReleaseChanges, ...]) -> dict[str, str]:
    """The release pages (and the parts of a large one) and the index of one language (none when
    fewer than two releases are imported)."""
    if not found:
        return {}
    ui = c.ui
    docs: dict[str, str] = {}
    rows = []
    for rc in found:
        page = release_page(rc.new)
        docs.update(release_pages(c, rc, found[-1].old))
        rows.append(Row(ui.date(rc.new), ui.date(rc.old), paths.href(INDEX, page), _counts(rc)))
    docs[INDEX] = c.pages.render("pages/changes-index.md.j2", rows=rows)
    return docs
