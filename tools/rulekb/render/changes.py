"""What changed in each rules release, on the site (render stage): ``changes/<release>.md`` for
every imported release but the oldest (against the release before it, as ``rulekb changes``
prints it: `rulekb.changes.compare_releases`) and ``changes/index.md``, the releases with their
counts. Each release's page lists its rules and subrules, then its glossary's terms (new, removed,
reworded, typography alone: `ReleaseChanges.glossary_of`). The texts are the releases' English
(marked ``lang="en"``), every label comes from the UI catalogs. Shapes: ``templates/pages/changes.md.j2`` and ``changes-index.md.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from ..changes import Change, GlossaryChange, ReleaseChanges, all_steps
from ..models import KnowledgeBase
from . import paths
from .context import Lang
from .diffs import text_html

FOLDER = "changes"
INDEX = f"{FOLDER}/index.md"


def release_page(release: str) -> str:
    return f"{FOLDER}/{release}.md"


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
        text = c.shared.diffs.html(change.before or "", change.after or "")
    else:   # the text itself, as the diffs show a text (escaped, its line breaks kept)
        text = text_html(change.after or change.before or "")
    return Item(change.old_number, change.new_number, paths.href(page, paths.rule_page(rule.id), anchor),
                c.titles.get(rule.id, ""), text)


def _term(c: Lang, change: GlossaryChange, diff: bool) -> Term:
    if diff:
        return Term(change.term, c.shared.diffs.html(*change.texts))
    side = change.after or change.before or ("", "")
    return Term(side[0], text_html(side[1]))


def changes_pages(c: Lang, found: tuple[ReleaseChanges, ...]) -> dict[str, str]:
    """The release pages and the index of one language (none when fewer than two releases are
    imported)."""
    if not found:
        return {}
    ui = c.ui
    docs: dict[str, str] = {}
    rows = []
    for rc in found:
        page = release_page(rc.new)
        sections = (
            ("new", [_item(c, page, x, False) for x in rc.new_units]),
            ("removed", [_item(c, page, x, False) for x in rc.removed]),
            ("renumbered", [_item(c, page, x, False) for x in rc.renumbered]),
            ("reworded", [_item(c, page, x, True) for x in rc.reworded]),
        )
        typography = [_item(c, page, x, True) for x in rc.typography]
        glossary = tuple((kind, [_term(c, g, kind in ("reworded", "typography")) for g in rc.glossary_of(kind)])
                         for kind in ("new", "removed", "reworded", "typography"))
        older = escape(ui.date(rc.old))
        if rc.old != found[-1].old:   # the oldest release has no page
            older = Markup('<a href="{}">{}</a>').format(paths.href(page, release_page(rc.old)), older)
        docs[page] = c.pages.render("pages/changes.md.j2", date=ui.date(rc.new), compared=older,
                            index=paths.href(page, INDEX), sections=sections, typography=typography,
                            gone=rc.numbers_gone, glossary=glossary)
        rows.append(Row(ui.date(rc.new), ui.date(rc.old), paths.href(INDEX, page),
                        (len(rc.new_units), len(rc.removed), len(rc.renumbered), len(rc.reworded), len(rc.typography))))
    docs[INDEX] = c.pages.render("pages/changes-index.md.j2", rows=rows)
    return docs
