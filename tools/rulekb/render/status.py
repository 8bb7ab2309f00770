"""The translation-status page of one language's site (render stage, docs path ``status.md``),
from the check stage's `CheckResult`.

The page shows that language's findings by rule and text, the English beside the
translation, links to the rule and card pages, the coverage (the backlog as figures: a chart of
the rules with a translation, a table per chapter, then each section folded with its rules and,
one click away, each rule's untranslated texts as links), and the waived findings; every word in
the page's language.

This module decides what the page shows (with `check.view`, which the QA report reads too); its
shape is ``templates/pages/status.md.j2`` with the pieces ``templates/qa/`` it shares with the
report. Every text is escaped by autoescape; Markdown headings and table cells by the ``md``
filter (HTML-escaped, then Markdown's specials backslash-escaped: shown literally, once).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from ..check import CheckResult, Waived
from ..check.coverage import Cell
from ..check.view import (Chart, Counts, Entry, Index, Words, by_group, chart, counts, entry, grouped_missing,
                          localised, row_key, translated_rows)
from ..i18n import UI
from ..models import SOURCE_LANGUAGE, Finding, KnowledgeBase, Severity
from . import paths
from .templating import Pages

__all__ = ["status_page", "StatusPage"]

TEMPLATE = "pages/status.md.j2"


@dataclass(frozen=True)
class Link:
    text: str
    href: str                   # "" when there is nothing to link to


@dataclass(frozen=True)
class CoverageLine:
    """A row of the coverage table: the rule (or its rulings) and this language's cell."""
    name: str
    href: str                   # the rule page (Markdown path), or ""
    cell: Cell


@dataclass(frozen=True)
class RuleLine:
    """A rule (or its rulings) in a section of the coverage: its cell and its untranslated texts."""
    name: str
    href: str                   # the rule page (HTML path), or ""
    cell: Cell
    missing: tuple[Link, ...]   # the texts without a text in the language (HTML paths): one click away


@dataclass(frozen=True)
class SectionBlock:
    """A section (702) of the coverage, folded: its sum and its rules."""
    title: str
    cell: Cell
    rules: tuple[RuleLine, ...]


@dataclass(frozen=True)
class MissingBlock:
    """A rule's missing texts of one check (3 or more), as one line of links."""
    severity: Severity
    code: str
    suggestion: str
    links: tuple[Link, ...]     # to the texts (HTML paths)


@dataclass(frozen=True)
class Section:
    """The findings of one rule (or of the rulings of one mechanic)."""
    title: str
    href: str                   # the rule page (Markdown path), or ""
    blocks: tuple[MissingBlock, ...]
    entries: tuple[tuple[Entry, str], ...]   # each text's findings and the link to it (Markdown path, or "")


@dataclass(frozen=True)
class StatusPage:
    """What the status page of one language shows."""
    lang: str
    name: str                   # the language's own name
    profile: str
    counts: Counts
    waived: tuple[tuple[Waived, str], ...]   # each waived finding and its unit's label
    chart: Chart | None         # None when no rule has a translation yet
    chapters: tuple[CoverageLine, ...]      # the coverage per chapter (7 Additional Rules)
    coverage: tuple[SectionBlock, ...]      # per section, folded: its rules and their untranslated texts
    total: Cell
    sections: tuple[Section, ...]
    has_findings: bool
    words: Words


def _unit_href(ix: Index, entry_id: str) -> str:
    """The page of a unit (Markdown path): its rule's page at the subrule's anchor, or for a
    ruling its first card's page (else its mechanic's rule page)."""
    rule = ix.rule_of(entry_id)
    if rule is not None:
        sub = next((s for s in rule.subrules if s.unit.id == entry_id), None)
        return paths.rule_page(rule.id) + (f"#{sub.number}" if sub else "")
    ruling = ix.ruling_of(entry_id)
    if ruling is not None and ruling.cards:
        return paths.card_page(ruling.cards[0]) + f"#{ruling.id}"
    if ruling is not None and ruling.mechanic is not None:
        return paths.rule_page(ruling.mechanic)
    return ""


def _group_href(ix: Index, group: str) -> str:
    """The rule page of a group (a rule, or the rulings of a mechanic), or "" when it has none."""
    mechanic = group.split(":", 1)[1] if group.startswith("rulings:") else group
    return paths.rule_page(mechanic) if ix.kb.rule(mechanic) else ""


def _html(href: str) -> str:
    """A Markdown path as the HTML path mkdocs writes (for links inside HTML blocks)."""
    return href.replace(".md", ".html", 1) if href else ""


def _sections(findings: list[Finding], ix: Index, lang: str) -> list[Section]:
    single, grouped = grouped_missing(findings, ix)
    blocks_of: dict[str, list[list[Finding]]] = defaultdict(list)
    for (_code, _lang, group), items in sorted(grouped.items()):
        blocks_of[group].append(items)
    listed = {g for g, _entries in by_group(single, ix)}
    for group in blocks_of:
        if group not in listed:
            single.append(blocks_of[group][0][0])   # gives the rule its place in the order below
    out = []
    for group, entries in by_group(single, ix):
        blocks = []
        for items in blocks_of.get(group, ()):
            first = items[0]
            ordered = sorted(items, key=lambda f: ix.position(f.entry))
            blocks.append(MissingBlock(first.severity, first.code, first.suggestion,
                                       tuple(Link(ix.label(f.entry), _html(_unit_href(ix, f.entry))) for f in ordered)))
        folded = {id(f) for items in blocks_of.get(group, ()) for f in items}
        shown = []
        for entry_id, items in entries:
            items = [f for f in items if id(f) not in folded]
            if items:
                shown.append((entry(ix, entry_id, lang, items), _unit_href(ix, entry_id)))
        out.append(Section(ix.group_title(group, lang), _group_href(ix, group), tuple(blocks), tuple(shown)))
    return out


def status_data(result: CheckResult, kb: KnowledgeBase, lang: str, ui: UI) -> StatusPage:
    """What the status page of `lang` shows, from the check result."""
    ix = Index.of(kb)
    findings = localised(result.for_lang(lang), ui if lang != SOURCE_LANGUAGE else None)
    titles = {row_key(row): ix.group_title(row_key(row), lang) for row in result.coverage.rows}
    coverage = result.coverage
    chapters = tuple(CoverageLine(_part_title(ui, "chapter", p.key, p.title), "", p.cells[lang])
                     for p in coverage.chapters)
    blocks = []
    for part in coverage.sections:
        rows = [row for row in coverage.rows if row.section == part.key]
        rules = tuple(RuleLine(titles[row_key(row)], _html(_group_href(ix, row_key(row))), row.cells[lang],
                               tuple(Link(ix.label(u), _html(_unit_href(ix, u))) for u in row.untranslated.get(lang, ())))
                      for row in rows)
        blocks.append(SectionBlock(_part_title(ui, "section", part.key, part.title), part.cells[lang], rules))
    translated = translated_rows(coverage)
    return StatusPage(
        lang, ix.endonym(lang), result.profile, counts(findings),
        tuple((dataclasses.replace(w, finding=localised((w.finding,), ui if lang != SOURCE_LANGUAGE else None)[0]),
               ix.label(w.finding.entry)) for w in result.waived if w.finding.lang == lang),
        chart(translated, titles, None, ui._) if translated.rows else None,
        chapters, tuple(blocks), coverage.totals[lang],
        tuple(_sections(list(findings), ix, lang)) if findings else (), bool(findings), Words.of(ix, lang, ui._))


def _part_title(ui: UI, kind: str, key: str, title: str) -> str:
    """"Chapter 7: Additional Rules", "Section 702", "Rulings" in the page's language."""
    if key == "rulings":
        return ui._("Rulings")
    name = (ui._("Chapter {key}") if kind == "chapter" else ui._("Section {key}")).format(key=key)
    return f"{name}: {title}" if title else name


def status_page(result: CheckResult, kb: KnowledgeBase, ui: UI) -> str:
    """The translation-status page (Markdown with one-line HTML blocks) of the language of `ui`."""
    # the page ends with its last block: one newline (the template leaves a block's blank line after it)
    return Pages(ui).render(TEMPLATE, page=status_data(result, kb, ui.lang, ui)).rstrip("\n") + "\n"
