"""The translation-status page of one language's site (render stage, docs path ``status.md``),
from the check stage's `CheckResult`.

The page shows, top first, that language's findings by rule and text (errors and warnings in
full, the English beside the translation; the info findings of each rule folded), links to the
rule and card pages, the coverage (the backlog as figures: a chart of the rules with a
translation, a table per chapter, then each section folded with its rules and, one click away,
each partly translated rule's untranslated texts as links; a rule with no text translated links
its page, which lists them all; the rulings of cards by the card pages that show them), the
keyword rules as figures (how many have their official name and reminder text in the page's
language, and, folded, those no card of the language prints, each linked), and the waived findings; every word in the page's language, counts with their plural forms, French
punctuation spaced by the catalog. On a phone at the scale of the complete data (1,671 rules,
24,606 rulings) it stays a page one reads from the top: what is folded takes one line.

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
from ..check.coverage import Cell, KeywordCell
from ..check.view import (Chart, Counts, Entry, Index, Words, by_group, chart, count_words, counts, entry,
                          grouped_missing, keyword_words, localised, plural, row_key, say, translated_rows)
from ..i18n import N_, UI
from ..models import Finding, KnowledgeBase, Severity
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
    """A row of the coverage table: the chapter and this language's figures."""
    name: str
    href: str                   # the chapter's part of the page (an anchor), or ""
    cell: "Figures"


@dataclass(frozen=True)
class Figures:
    """A cell of the coverage as the page writes it: the counts and the share in the locale's
    format ("25%", "25 %")."""
    translated: int
    stale: int
    missing: int
    percent: str
    summary: str                # "6 up to date, 1 stale, 17 missing (25%)" in the page's language


@dataclass(frozen=True)
class RuleLine:
    """A rule (or its rulings) in a section of the coverage: its figures and its untranslated
    texts (none listed when nothing of it is translated: its page lists them all)."""
    name: str
    href: str                   # the rule page (HTML path), or ""
    cell: Figures
    missing: tuple[Link, ...]   # the texts without a text in the language (HTML paths): one click away
    all_missing: bool           # nothing of it is in the language


@dataclass(frozen=True)
class SectionBlock:
    """A section (702) of the coverage, folded: its sum and its rules."""
    title: str
    cell: Figures
    rules: tuple[RuleLine, ...]


@dataclass(frozen=True)
class ChapterBlock:
    """A chapter (7) of the coverage, folded: its sum and its sections, each folded (a chapter of one
    section of its own, the rulings, holds that section's rules): ten lines on a phone, not 150."""
    anchor: str                 # "coverage-7", "coverage-rulings": the chapter table links it
    title: str
    cell: Figures
    sections: tuple[SectionBlock, ...]
    rules: tuple[RuleLine, ...]  # the rules of a chapter that is its one section


@dataclass(frozen=True)
class MissingBlock:
    """A rule's missing texts of one check (3 or more), as one line of links."""
    severity: Severity
    code: str
    suggestion: str
    links: tuple[Link, ...]     # to the texts (HTML paths)
    lead: str                   # "5 texts:" in the page's language


@dataclass(frozen=True)
class Section:
    """The findings of one rule (or of the rulings of one mechanic): errors and warnings in full,
    its info findings folded (`infos`, with the words of their fold)."""
    title: str
    href: str                   # the rule page (Markdown path), or ""
    blocks: tuple[MissingBlock, ...]
    entries: tuple[tuple[Entry, str], ...]   # each text's findings and the link to it (Markdown path, or "")
    infos: tuple[tuple[Entry, str], ...] = ()
    infos_summary: str = ""     # "3 info: 702.78a, 702.78 note 1"


@dataclass(frozen=True)
class KeywordLine:
    """A keyword rule no card of the page's language prints: today's number, its English title, its page."""
    number: str
    title: str
    href: str                   # the rule page (HTML path)


@dataclass(frozen=True)
class KeywordBlock:
    """The keyword rules of the page's language as figures (`check.coverage.keyword_coverage`)."""
    heading: str                # "Keyword rules" in the page's language
    named: str                  # "Official name: 180 of 252 keyword rules"
    reminder: str               # "Official reminder text: 150 of 252 keyword rules"
    unprinted_lead: str         # "72 keyword rules whose name no card in German prints:"
    unprinted: tuple[KeywordLine, ...]


@dataclass(frozen=True)
class StatusPage:
    """What the status page of one language shows."""
    lang: str
    name: str                   # the language's own name
    profile: str
    counts: Counts
    heading: str                # "Translation status: Deutsch" in the page's language
    summary: str                # "Findings: 1 error, …; 0 waived." in the page's language
    waived: tuple[tuple[Waived, str], ...]   # each waived finding and its unit's label
    chart: Chart | None         # None when no rule has a translation yet
    chapters: tuple[CoverageLine, ...]      # the coverage per chapter (7 Additional Rules)
    coverage: tuple[ChapterBlock, ...]      # per chapter, then section, folded: the rules and their untranslated texts
    total: Figures
    sections: tuple[Section, ...]
    has_findings: bool
    words: Words
    info_only: tuple[Section, ...] = ()     # the rules with nothing but info findings: one folded line each
    info_only_heading: str = ""             # "40 rules with info findings only"
    keywords: KeywordBlock | None = None    # None where the official file has no names of the language


def _unit_href(ix: Index, entry_id: str, cards: paths.CardPages) -> str:
    """The page of a unit (Markdown path): its rule's page at the subrule's anchor, or for a
    ruling its first card's page (else its mechanic's rule page)."""
    rule = ix.rule_of(entry_id)
    if rule is not None:
        sub = next((s for s in rule.subrules if s.unit.id == entry_id), None)
        return paths.rule_page(rule.id) + (f"#{sub.number}" if sub else "")
    ruling = ix.ruling_of(entry_id)
    if ruling is not None and ruling.cards:
        return cards.page(ruling.cards[0]) + f"#{ruling.id}"
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


def _sections(findings: list[Finding], ix: Index, lang: str, ui: UI, cards: paths.CardPages) -> list[Section]:
    speaker = ui   # English too: the msgids, with their plural forms
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
                                       tuple(Link(ix.label(f.entry, speaker), _html(_unit_href(ix, f.entry, cards))) for f in ordered),
                                       plural(speaker, "{n} text:", "{n} texts:", len(ordered))))
        folded = {id(f) for items in blocks_of.get(group, ()) for f in items}
        shown, infos = [], []
        for entry_id, items in entries:
            items = [f for f in items if id(f) not in folded]
            top = [f for f in items if f.severity is not Severity.INFO]
            rest = [f for f in items if f.severity is Severity.INFO]
            if top:
                shown.append((_entry(ix, entry_id, lang, top, speaker), _unit_href(ix, entry_id, cards)))
            if rest:
                infos.append((_entry(ix, entry_id, lang, rest, speaker), _html(_unit_href(ix, entry_id, cards))))
        n_infos = sum(len(e.findings) for e, _href in infos)
        what = plural(speaker, "{n} info", "{n} info", n_infos)
        # the texts named while they fit a line; else how many
        infos_summary = (say(speaker, "{what}: {texts}", what=what, texts=", ".join(e.label for e, _href in infos))
                         if len(infos) <= 4 else
                         say(speaker, "{what}: {texts}", what=what, texts=plural(speaker, "{n} text", "{n} texts", len(infos))))
        out.append(Section(ix.group_title(group, lang, speaker), _group_href(ix, group), tuple(blocks), tuple(shown),
                           tuple(infos), infos_summary))
    return out


def _entry(ix: Index, entry_id: str, lang: str, findings: list[Finding], speaker: UI | None) -> Entry:
    """The text's findings with its label in the page's language."""
    found = entry(ix, entry_id, lang, findings)
    return dataclasses.replace(found, label=ix.label(entry_id, speaker)) if speaker is not None else found


def _figures(cell: Cell, ui: UI, speaker: UI | None) -> Figures:
    percent = ui.percent(cell.percent)
    summary = say(speaker, "{translated}, {stale}, {missing} ({percent})",
                  translated=plural(speaker, "{n} up to date", "{n} up to date", cell.translated),
                  stale=plural(speaker, "{n} stale", "{n} stale", cell.stale),
                  missing=plural(speaker, "{n} missing", "{n} missing", cell.missing), percent=percent)
    return Figures(cell.translated, cell.stale, cell.missing, percent, summary)


def _card_rulings(ix: Index, units: tuple[str, ...], speaker: UI | None, cards: paths.CardPages) -> tuple[Link, ...]:
    """The untranslated rulings of cards, by the card pages that show them: "cards/qu (12)"."""
    pages: dict[str, int] = defaultdict(int)
    for unit in units:
        href = _unit_href(ix, unit, cards)
        pages[href.split("#", 1)[0]] += 1
    return tuple(Link(say(speaker, "{page} ({n})", page=page.removesuffix(".md"), n=n), _html(page))
                 for page, n in sorted(pages.items()) if page)


def _keywords(cell: KeywordCell | None, lang: str, ui: UI) -> KeywordBlock | None:
    if cell is None:
        return None
    words = keyword_words(ui, cell, ui.language_name(lang), ui.number)
    return KeywordBlock(ui._("Keyword rules"), words.named, words.reminder, words.unprinted,
                        tuple(KeywordLine(k.number, k.title, _html(paths.rule_page(k.id))) for k in cell.unprinted))


def status_data(result: CheckResult, kb: KnowledgeBase, lang: str, ui: UI) -> StatusPage:
    """What the status page of `lang` shows, from the check result."""
    ix = Index.of(kb)
    cards = paths.CardPages.of(card.id for card in kb.cards)
    speaker = ui   # English too: the msgids, with their plural forms
    findings = localised(result.for_lang(lang), speaker, ix)
    titles = {row_key(row): ix.group_title(row_key(row), lang, speaker) for row in result.coverage.rows}
    coverage = result.coverage
    chapters = tuple(CoverageLine(_part_title(ui, "chapter", p.key, p.title), f"#coverage-{p.key}",
                                  _figures(p.cells[lang], ui, speaker)) for p in coverage.chapters)
    blocks: list[tuple[str, SectionBlock]] = []
    for part in coverage.sections:
        rows = [row for row in coverage.rows if row.section == part.key]
        rules = []
        for row in rows:
            cell = row.cells[lang]
            untranslated = row.untranslated.get(lang, ())
            nothing = not (cell.translated or cell.stale)
            href = _html(_group_href(ix, row_key(row)))
            if row.kind == "rulings" and not href:
                missing = _card_rulings(ix, untranslated, speaker, cards)   # rulings of cards: by their card pages
            elif nothing and href:
                missing = ()                                         # the rule page lists them all
            else:
                missing = tuple(Link(ix.label(u, speaker), _html(_unit_href(ix, u, cards))) for u in untranslated)
            rules.append(RuleLine(titles[row_key(row)], href, _figures(cell, ui, speaker), missing,
                                  nothing and bool(cell.missing) and not missing))
        blocks.append((part.key, SectionBlock(_part_title(ui, "section", part.key, part.title),
                                              _figures(part.cells[lang], ui, speaker), tuple(rules))))
    folds = []
    for p in coverage.chapters:
        mine = [block for key, block in blocks if (key[:1] if key != "rulings" else key) == p.key]
        own = [block for key, block in blocks if key == p.key]   # the rulings: a chapter of one section
        folds.append(ChapterBlock(f"coverage-{p.key}", _part_title(ui, "chapter", p.key, p.title),
                                  _figures(p.cells[lang], ui, speaker), () if own else tuple(mine),
                                  own[0].rules if own else ()))
    translated = translated_rows(coverage)
    c = counts(findings)
    sections = _sections(list(findings), ix, lang, ui, cards) if findings else []
    info_only = _shown_infos(tuple(s for s in sections if not s.blocks and not s.entries))
    waived = tuple((dataclasses.replace(w, finding=localised((w.finding,), speaker, ix)[0]), ix.label(w.finding.entry, speaker))
                   for w in result.waived if w.finding.lang == lang)
    return StatusPage(
        lang, ix.endonym(lang), profile_title(ui, result.profile), c,
        say(speaker, "Translation status: {language}", language=ix.endonym(lang)),
        say(speaker, "Findings: {counts}.", counts=count_words(speaker, c, len(waived))),
        waived,
        chart(translated, titles, None, ui._) if translated.rows else None,
        chapters, tuple(folds), _figures(coverage.totals[lang], ui, speaker),
        tuple(s for s in sections if s.blocks or s.entries), bool(findings), Words.of(ix, lang, speaker),
        info_only, plural(speaker, "{n} rule with info findings only", "{n} rules with info findings only", len(info_only)),
        _keywords(coverage.keywords.get(lang), lang, ui))


# the info findings listed in full under "rules with info findings only"; the rules after them show
# their count alone (the English page listed 805, 544 KB, over the 400 KB a phone opens at once:
# issue 32.3); `rulekb check` lists them all
INFOS_SHOWN_MAX = 150


def _shown_infos(sections: tuple[Section, ...], most: int = INFOS_SHOWN_MAX) -> tuple[Section, ...]:
    """The info-only sections, each with its findings while `most` findings are not yet listed,
    the rest with their summary alone (no entries)."""
    out = []
    listed = 0
    for section in sections:
        n = sum(len(e.findings) for e, _href in section.infos)
        if listed + n > most:
            section = dataclasses.replace(section, infos=())
        else:
            listed += n
        out.append(section)
    return tuple(out)


# what the page says of the profile it was checked with: its name is a command-line word ("full"),
# not one a reader knows (issue 32.4); a profile of one family keeps its name
PROFILE_TITLES = {"full": N_("every check"), "ci": N_("the checks of errors and warnings")}


def profile_title(ui: UI, profile: str) -> str:
    """The profile in the page's language."""
    title = PROFILE_TITLES.get(profile)
    return ui._(title) if title is not None else profile


def _part_title(ui: UI, kind: str, key: str, title: str) -> str:
    """"Chapter 7: Additional Rules", "Section 702", "Rulings" in the page's language."""
    if key == "rulings":
        return ui._("Rulings")
    if title:
        return (ui._("Chapter {key}: {title}") if kind == "chapter" else ui._("Section {key}: {title}")).format(key=key, title=title)
    return (ui._("Chapter {key}") if kind == "chapter" else ui._("Section {key}")).format(key=key)


def status_page(result: CheckResult, kb: KnowledgeBase, ui: UI) -> str:
    """The translation-status page (Markdown with one-line HTML blocks) of the language of `ui`."""
    # the page ends with its last block: one newline (the template leaves a block's blank line after it)
    return Pages(ui).render(TEMPLATE, page=status_data(result, kb, ui.lang, ui)).rstrip("\n") + "\n"
