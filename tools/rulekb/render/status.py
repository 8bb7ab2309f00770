"""The translation-status page of one language's site (render stage, docs path ``status.md``),
from the check stage's `CheckResult`.

The page shows that language's findings by rule and text, the English beside the
translation, links to the rule and card pages, a coverage table and chart (inline SVG), and the
waived findings. Sized for the whole rules: the chart shows the rules with a translation, the
rules without any text in the language are one folded list (and their missing texts are not
listed again under the findings), and a rule's many missing texts are one line of links.

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
                          has_text, localised, row_key, translated_rows)
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
    lines: tuple[CoverageLine, ...]
    total: Cell
    untouched: tuple[Link, ...]   # the rules without any text in the language (HTML paths)
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
        return paths.card_page(ruling.cards[0])
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
    lines, untouched, untouched_keys = [], [], set()
    for row in result.coverage.rows:
        cell, key = row.cells[lang], row_key(row)
        if not has_text(cell) and cell.total:
            untouched.append(Link(titles[key], _html(_group_href(ix, key))))
            untouched_keys.add(key)
        else:
            lines.append(CoverageLine(titles[key], _group_href(ix, key), cell))
    translated = translated_rows(result.coverage)
    # the missing texts of the rules without any text here are listed under the coverage, not again
    listed = [f for f in findings if not (f.code == "coverage.missing" and ix.group(f.entry) in untouched_keys)]
    return StatusPage(
        lang, ix.endonym(lang), result.profile, counts(findings),
        tuple((dataclasses.replace(w, finding=localised((w.finding,), ui if lang != SOURCE_LANGUAGE else None)[0]),
               ix.label(w.finding.entry)) for w in result.waived if w.finding.lang == lang),
        chart(translated, titles, None, ui._) if translated.rows else None,
        tuple(lines), result.coverage.totals[lang], tuple(untouched),
        tuple(_sections(listed, ix, lang)) if findings else (), bool(findings), Words.of(ix, lang, ui._))


def status_page(result: CheckResult, kb: KnowledgeBase, ui: UI) -> str:
    """The translation-status page (Markdown with one-line HTML blocks) of the language of `ui`."""
    # the page ends with its last block: one newline (the template leaves a block's blank line after it)
    return Pages(ui).render(TEMPLATE, page=status_data(result, kb, ui.lang, ui)).rstrip("\n") + "\n"
