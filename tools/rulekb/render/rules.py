"""Rule pages, the parallel view of a rule, the rule index and the keyword index, for one
language's site (render stage). This module decides what each page shows, as frozen values
(`RulePage` …); the shapes are ``templates/pages/rule.md.j2``, ``parallel.md.j2``,
``rules.md.j2`` and ``keywords.md.j2``, which escape every value (autoescape). The only HTML the
render modules make is a text with its links (`text`) and a word diff (`versions`): `Markup`,
escaped where it is made.
"""

from __future__ import annotations

import unicodedata

from dataclasses import dataclass
from typing import NamedTuple

from markupsafe import Markup

from ..i18n import N_
from ..releases import english_versions
from ..link import Moved
from ..models import Rule, Ruling, Unit
from . import paths
from .context import Lang, UnitView, keyword_name
from .official import OfficialBox, TermRow, official_box, official_name, official_plain_title, official_title, term_rows
from .text import State, Where
from .versions import VersionsOfUnit, versions_of


class Progress(NamedTuple):
    done: int               # texts translated (current or stale)
    total: int
    stale: int


class CardLink(NamedTuple):
    href: str
    name: str
    lang: str | None        # None: a card id not in the knowledge base


class RulingView(NamedTuple):
    date: str
    show_date: bool
    unit: UnitView
    cards: tuple[CardLink, ...]   # empty: not shown


class RulingCard(NamedTuple):
    """A card on a rule page that lists the cards of its rulings: the rulings whose first card it
    is are shown with it (their ids stay on the rule page, on the card's line, where links to
    them led before)."""

    href: str
    name: str
    lang: str | None
    anchors: tuple[str, ...]   # the ids of its rulings
    count: int


class NoteView(NamedTuple):
    """A rule note; a note that is an official card ruling is shown as that ruling: its date and
    the cards it stands on beside its text."""

    unit: UnitView
    ruling: RulingView | None


class HistoryEntry(NamedTuple):
    number: str
    start: str | None       # dates in this language's long form
    end: str | None
    current: bool           # the number the rule has today
    shown: bool             # the number of the text on this page


class MoveView(NamedTuple):
    """A text that moved into this rule (`here`) or out of it into another rule."""

    here: bool
    number: str             # its number in this rule
    other_href: str
    other_number: str       # its number in the other rule
    other_title: Markup
    date: str | None        # until (moved here) or since (moved away)
    diff: Markup | None     # the rewording on the way, if any


class SourceView(NamedTuple):
    title: str
    kind: str | None        # None: not in rules/sources.yaml
    texts: tuple[tuple[str, tuple[str, ...]], ...]   # (language name, labels of its texts)


class Backlink(NamedTuple):
    href: str
    name: str
    title: Markup           # the title of the rule the text belongs to (may be empty)


class RulePage(NamedTuple):
    name: str               # "702.78 Retrace" (the page title)
    number: str
    title: Markup
    h1_anchor: bool         # a rule without a text of its own: its number is the heading's id
    release: str
    today: str | None       # its number today, when it differs
    progress: Progress | None   # not on the English site
    parallel_href: str | None
    api_href: str
    summary: UnitView | None
    texts: tuple[UnitView, ...]     # its text and subrules
    notes: tuple[NoteView, ...]
    rulings: tuple[RulingView, ...]
    history: tuple[HistoryEntry, ...]
    history_sources: tuple[str, ...]
    moves: tuple[MoveView, ...]
    versions: tuple[VersionsOfUnit, ...]
    sources: tuple[SourceView, ...]
    backlinks: tuple[Backlink, ...]
    cards: tuple[CardLink, ...] = ()   # the cards that have the rule's keyword
    official: OfficialBox | None = None   # on a de/fr page of a keyword the cards print: what they print
    terms: tuple[TermRow, ...] = ()       # on a de/fr page whose text is still English: its game terms, official
    ruling_cards: tuple[RulingCard, ...] = ()   # the cards of its rulings, when it has too many to show


def rule_view(c: Lang, rule: Rule) -> RulePage:
    """What a rule's page shows (its shape: ``templates/pages/rule.md.j2``)."""
    _ = c.ui._
    where = Where(paths.rule_page(rule.id), rule=rule.id)
    progress = None
    if c.lang != "en":
        counts = c.translated_counts(rule)
        progress = Progress(counts.get(State.CURRENT, 0) + counts.get(State.STALE, 0), len(rule.units),
                            counts.get(State.STALE, 0))
    texts = []
    if rule.text is not None:
        texts.append(c.unit_view(rule.text, where, anchor=rule.number, label=rule.number, kind="text"))
    texts += [c.unit_view(sub.unit, where, anchor=sub.number, label=sub.number, kind="subrule") for sub in rule.subrules]
    notes = []
    for note in rule.notes:
        anchor = note.id.rsplit(".", 1)[1]
        view = c.unit_view(note, where, anchor=anchor, label=_("Note {n}").format(n=anchor[1:]), kind="note")
        ruling = c.kb.ruling(note.ruling) if note.ruling is not None else None
        notes.append(NoteView(view, ruling_view(c, ruling, where, unit=view) if ruling is not None else None))
    moved = c.shared.linked.moved.get(rule.id, ())
    official = c.shared.official
    plain = official_plain_title(official, rule, c.lang)
    rulings = c.shared.rulings_by_mechanic.get(rule.id, ())
    listed: tuple[RulingCard, ...] = ()
    if rule.id in c.shared.listing_cards:
        listed = ruling_cards(c, [r for r in rulings if r.cards], where)
        rulings = tuple(r for r in rulings if not r.cards)
    return RulePage(
        f"{rule.number} {plain}" if plain else c.rule_name(rule), rule.number,
        official_title(official, rule, c.lang) or c.inline_title(rule), rule.text is None, rule.release,
        rule.current_number if rule.current_number != rule.number else None, progress,
        paths.href(where.page, paths.parallel_page(rule.id)) if has_parallel_view(c, rule) else None,
        paths.to_site_root(where.page) + paths.api_path(c.lang, "rules", rule.id),
        c.unit_view(rule.summary, where, anchor="summary", label=None, kind="summary") if rule.summary is not None else None,
        tuple(texts), tuple(notes),
        tuple(ruling_view(c, ruling, where) for ruling in rulings),
        history(c, rule), tuple(c.source_title(s) for s in sorted({h.source for h in rule.history})),
        moves(c, rule, moved, where), versions_of(c, rule), sources(c, rule), backlinks(c, rule, where),
        tuple(CardLink(c.shared.card_pages.href(where.page, cid), *_card_name(c, cid)) for cid in c.shared.cards_by_rule.get(rule.id, ())),
        official_box(official, rule, c.lang, c.ui),
        term_rows(official, _english_text(rule), c.lang, c.ui, rule.current_number)
        if progress is not None and progress.done < progress.total else (),
        listed)


def _english_text(rule: Rule) -> str:
    """The English of a rule's title, text and subrules (their first variants), for its game terms."""
    units = [u for u in (rule.title, rule.text) if u is not None] + [sub.unit for sub in rule.subrules]
    return "\n".join(v.text for u in units if (v := u.text("en")) is not None)


def ruling_cards(c: Lang, rulings: list[Ruling], where: Where) -> tuple[RulingCard, ...]:
    """The first card of each ruling (where the ruling has its anchor: `cards.CardSite`), with
    the ids of its rulings, by the card's name in this language."""
    by_card: dict[str, list[str]] = {}
    for ruling in rulings:
        by_card.setdefault(ruling.cards[0], []).append(ruling.id)
    out = []
    for card_id, ids in by_card.items():
        name, lang = _card_name(c, card_id)
        out.append(RulingCard(c.shared.card_pages.href(where.page, card_id), name, lang, tuple(ids), len(ids)))
    return tuple(sorted(out, key=lambda card: (_sort_key(card.name), card.href)))


def rule_page(c: Lang, rule: Rule) -> str:
    return c.pages.render("pages/rule.md.j2", page=rule_view(c, rule))


_SAME = object()


def ruling_view(c: Lang, ruling: Ruling, where: Where, *, show_cards: bool = True, show_date: bool = True,
                unit: UnitView | None = None, anchor: str | None | object = _SAME) -> RulingView:
    """A ruling's block: its date, its text (`unit`, else the rule note that is the ruling, with
    its translations, else the ruling's own text) and the cards it stands on; its anchor is its
    id unless `anchor` says otherwise (None: none)."""
    cards = ()
    if show_cards:
        cards = tuple(CardLink(c.shared.card_pages.href(where.page, cid), *_card_name(c, cid)) for cid in ruling.cards)
    if unit is None:
        unit = c.unit_view(c.shared.notes.get(ruling.id, ruling.unit), where,
                           anchor=ruling.id if anchor is _SAME else anchor, label=None, kind="ruling")  # type: ignore[arg-type]
    return RulingView(ruling.date, show_date, unit, cards)


def _card_name(c: Lang, card_id: str) -> tuple[str, str | None]:
    card = c.kb.card(card_id)
    if card is None:
        return card_id, None
    lang = c.lang if c.lang in card.names else "en"
    return card.names[lang], lang


def history(c: Lang, rule: Rule) -> tuple[HistoryEntry, ...]:
    return tuple(HistoryEntry(entry.number, c.ui.date(entry.since) if entry.since else None,
                              c.ui.date(end) if end else None, current, entry.number == rule.number)
                 for entry, end, current in rule.history_spans())


def moves(c: Lang, rule: Rule, moved: tuple[Moved, ...], where: Where) -> tuple[MoveView, ...]:
    """The texts that moved into this rule from another one, or out of it into another one,
    each with a link to the other rule; a text that was reworded on the way shows the change."""
    out = []
    for m in moved:
        if m.rule is rule:  # moved here
            diff = None
            old, new = (english_versions(u) for u in (m.previous, m.unit))
            if old and new and old[-1][1].text != new[0][1].text:
                diff = c.shared.diffs.html(old[-1][1].text, new[0][1].text)
            out.append(MoveView(True, m.number, paths.href(where.page, paths.rule_page(m.previous_rule.id), "history"),
                                m.previous_number, c.inline_title(m.previous_rule), m.until, diff))
        else:  # moved away
            # the anchor of the text on its page today (renumbered since, or "history" if it is gone again)
            anchor = m.rule.number if m.unit is m.rule.text else next(
                (sub.number for sub in m.rule.subrules if sub.unit is m.unit), "history")
            out.append(MoveView(False, m.previous_number, paths.href(where.page, paths.rule_page(m.rule.id), anchor),
                                m.number, c.inline_title(m.rule), m.since, None))
    return tuple(out)


SourceGroups = tuple[tuple[str, tuple[tuple[str, tuple[Unit, ...]], ...]], ...]


def source_groups(c: Lang, rule: Rule) -> SourceGroups:
    """Every source of the rule's texts and of the rulings on its page (in the order of their
    titles), with the languages it gives texts in (in the knowledge base's order) and those
    texts: the same in every language, made once per rule (`context.Shared.source_groups`)."""
    found = c.shared.source_groups.get(rule.id)
    if found is not None:
        return found
    by_source: dict[str, dict[str, list[Unit]]] = {}
    units = list(rule.units) + [r.unit for r in c.shared.rulings_by_mechanic.get(rule.id, ())]
    for unit in units:
        for lang, variants in unit.variants.items():
            for _variant in variants:
                by_source.setdefault(_variant.source, {}).setdefault(lang, []).append(unit)
    order = {code: i for i, code in enumerate(c.order)}
    found = c.shared.source_groups[rule.id] = tuple(
        (source_id, tuple((lang, tuple(units)) for lang, units in sorted(by_source[source_id].items(),
                                                                         key=lambda kv: order.get(kv[0], 99))))
        for source_id in sorted(by_source, key=lambda s: (c.source_title(s), s)))
    return found


def sources(c: Lang, rule: Rule) -> tuple[SourceView, ...]:
    """Every source of the rule's texts and of the rulings on its page, with the languages and
    texts it gives (`source_groups`), named in this language."""
    out = []
    for source_id, by_lang in source_groups(c, rule):
        texts = tuple((c.language_name(lang), tuple(dict.fromkeys(c.unit_name(unit, short=True) for unit in units)))
                      for lang, units in by_lang)
        source = c.kb.sources.get(source_id)
        out.append(SourceView(c.source_title(source_id), c.source_kind(source.kind) if source else None, texts))
    return tuple(out)


def backlinks(c: Lang, rule: Rule, where: Where) -> tuple[Backlink, ...]:
    out = []
    for unit_id in c.shared.linked.backlinks.get(rule.id, ()):
        place = c.shared.places.get(unit_id)
        unit = c.shared.units.get(unit_id)
        if place is None or unit is None:
            continue
        owner = c.kb.rule(place.rule)
        out.append(Backlink(paths.href(where.page, place.page, place.anchor), c.unit_name(unit),
                            c.inline_title(owner) if owner else Markup("")))
    return tuple(out)


# ---------------------------------------------------------------- parallel view


def has_parallel_view(c: Lang, rule: Rule) -> bool:
    """Whether the rule has a parallel-view page (`context.parallel_view_rules`)."""
    return rule.id in c.shared.parallel


@dataclass(frozen=True)
class Cell:
    """One language's text of a unit in the parallel view."""

    lang: str
    text: Markup | None     # None: missing in this language
    badge: Markup | None    # the stale badge of a stale translation
    others: int             # its other versions in this language


@dataclass(frozen=True)
class ParallelRow:
    id: str                 # the unit's part of its id (``p-a``)
    href: str               # the unit on the rule's page
    name: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class ParallelPage:
    name: str
    number: str
    title: Markup
    rule_href: str
    languages: tuple[tuple[str, str], ...]   # (code, name), one column each
    rows: tuple[ParallelRow, ...]


def parallel_view(c: Lang, rule: Rule) -> ParallelPage:
    """The rule's texts side by side, one column per language, one row per unit."""
    where = Where(paths.parallel_page(rule.id), rule=rule.id)
    languages = c.kb.languages
    rows = []
    for unit in rule.units:
        cells = []
        for lang in languages:
            variants = unit.variants.get(lang.code, ())
            if not variants:
                cells.append(Cell(lang.code, None, None, 0))
                continue
            shown = c.choose(unit, lang.code)
            badge = c.badge(shown) if shown.state is State.STALE else None
            cells.append(Cell(lang.code, c.text_html(shown, where), badge, len(variants) - 1))
        anchor = c.shared.places[unit.id].anchor
        rows.append(ParallelRow(unit.id.rsplit(".", 1)[1], paths.href(where.page, paths.rule_page(rule.id), anchor),
                                c.unit_name(unit, short=True), tuple(cells)))
    return ParallelPage(c.rule_name(rule), rule.number, c.inline_title(rule), paths.href(where.page, paths.rule_page(rule.id)),
                        tuple((lang.code, lang.name) for lang in languages), tuple(rows))


def parallel_page(c: Lang, rule: Rule) -> str:
    return c.pages.render("pages/parallel.md.j2", page=parallel_view(c, rule))


# ---------------------------------------------------------------- indexes


class IndexRow(NamedTuple):
    id: str
    number: str
    href: str
    title: Markup           # its title, else its keyword's name, else "Rule 100.1" (`Lang.named_title`)
    today: str
    total: int              # its texts
    progress: Progress | None   # not on the English site
    parallel_href: str | None


def rule_rows(c: Lang) -> tuple[IndexRow, ...]:
    rows = []
    for rule in c.kb.rules:
        progress = None
        if c.lang != "en":
            counts = c.translated_counts(rule)
            progress = Progress(counts.get(State.CURRENT, 0) + counts.get(State.STALE, 0), len(rule.units),
                                counts.get(State.STALE, 0))
        rows.append(IndexRow(rule.id, rule.number, paths.href(paths.RULE_INDEX, paths.rule_page(rule.id)),
                             c.named_title(rule), rule.current_number, len(rule.units), progress,
                             paths.href(paths.RULE_INDEX, paths.parallel_page(rule.id)) if has_parallel_view(c, rule) else None))
    return tuple(rows)


@dataclass(frozen=True)
class IndexSection:
    number: str                  # "702"; "" for the rules of a chapter outside any section
    title: Markup                # the section's title in this language; empty: not in the knowledge base
    href: str | None             # the section's own page
    rows: tuple[IndexRow, ...]


@dataclass(frozen=True)
class IndexChapter:
    number: str                  # "7"
    title: str                   # its title in the newest imported release (English); "" when none is imported
    lang: str                    # the language of `title`: the page's where the UI catalog translates it, else "en"
    sections: tuple[IndexSection, ...]
    rules: int                   # its rules, the sections' own pages aside


# an index of more rules than this shows its chapters and sections folded (the whole
# Comprehensive Rules: ~1,300 rows, some 40,000 px on a phone when listed flat)
FOLD_OVER = 30


def _number_key(number: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in number.split("."))


def index_chapters(c: Lang, rows: tuple[IndexRow, ...]) -> tuple[IndexChapter, ...]:
    """The rows by chapter (the number's first digit) and section (its first three digits),
    in the order of their numbers; a section's own rule ("702") heads its section."""
    chapter_titles = dict(c.kb.releases[-1].chapters) if c.kb.releases else {}
    sections: dict[str, list[IndexRow]] = {}
    heads: dict[str, IndexRow] = {}
    for row in sorted(rows, key=lambda r: (_number_key(r.number), r.id)):
        section = row.number.split(".")[0]
        if "." not in row.number and section not in heads:
            heads[section] = row
        else:
            sections.setdefault(section, []).append(row)
    for section in heads:
        sections.setdefault(section, [])
    chapters: dict[str, list[IndexSection]] = {}
    for section in sorted(sections, key=_number_key):
        head = heads.get(section)
        chapters.setdefault(section[:1], []).append(
            IndexSection(section, head.title if head else Markup(""), head.href if head else None, tuple(sections[section])))
    out = []
    for number, parts in chapters.items():
        title, lang = chapter_title(c, chapter_titles.get(number, ""))
        out.append(IndexChapter(number, title, lang, tuple(parts), sum(len(s.rows) for s in parts)))
    return tuple(out)


# the chapter titles of the Comprehensive Rules (every release since 2009-07-11 has these nine):
# UI strings, so that a chapter heading is in the page's language ("Kapitel 1: Spielkonzepte")
CHAPTER_TITLES = (N_("Game Concepts"), N_("Parts of a Card"), N_("Card Types"), N_("Zones"), N_("Turn Structure"),
                  N_("Spells, Abilities, and Effects"), N_("Additional Rules"), N_("Multiplayer Rules"),
                  N_("Casual Variants"))


def chapter_title(c: Lang, title: str) -> tuple[str, str]:
    """A chapter's title in the page's language and that language: from the UI catalog when it
    translates it, else the English as it is (older releases' chapters: "The Game")."""
    if not title or c.lang == "en":
        return title, "en"
    translated = c.ui._(title) if title in CHAPTER_TITLES else title
    return (translated, c.lang) if translated != title else (title, "en")


def rule_index(c: Lang) -> str:
    rows = rule_rows(c)
    return c.pages.render("pages/rules.md.j2", chapters=index_chapters(c, rows), folded=len(rows) > FOLD_OVER)


def _sort_key(text: str) -> tuple[str, str]:
    """The collation key of a name in German or French (and English): letters with accents
    sort with their base letter ("Ä" with "A", "É" with "E", DIN 5007-1 and French primary
    order), "ß" as "ss", case ignored; the name itself breaks ties (not code-point order)."""
    base = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return base.casefold(), text


def keyword_rules(c: Lang) -> list[Rule]:
    """The keyword abilities (702) and keyword actions (701) of the knowledge base."""
    return [r for r in c.kb.rules if r.number.split(".")[0] in ("701", "702") and "." in r.number]


@dataclass(frozen=True)
class Keyword:
    href: str
    title: Markup           # its title in this language (marked when not)
    name: str               # shown when it has no title
    number: str
    others: tuple[tuple[str, str], ...]   # (language code, its name in that language)
    forms: tuple[str, ...]  # the termbase's other forms of it in this language


@dataclass(frozen=True)
class Letter:
    letter: str
    anchor: str             # the heading's id
    keywords: tuple[Keyword, ...]


def keyword_letters(c: Lang) -> tuple[Letter, ...]:
    """Keywords alphabetically in this language, with their names in the other languages and
    the forms of the termbase, so that any name leads to the rule."""
    entries: list[tuple[tuple[str, str], Keyword]] = []
    for rule in keyword_rules(c):
        found = official_name(c.shared.official, rule, c.lang)
        name = (found[1].display if found else None) or c.titles.get(rule.id) or keyword_name(rule) \
            or c.ui._("Rule {number}").format(number=rule.number)
        others = []
        if rule.title is not None:
            for lang in c.kb.languages:
                variant = rule.title.text(lang.code)
                if lang.code != c.lang and variant is not None and not (found and lang.code == "en"):   # the title gives it
                    others.append((lang.code, variant.text))
        title = official_title(c.shared.official, rule, c.lang) or c.named_title(rule)
        entries.append((_sort_key(name), Keyword(paths.href(paths.KEYWORDS, paths.rule_page(rule.id)), title,
                                                 name, rule.number, tuple(others), tuple(_term_forms(c, rule.id)))))
    entries.sort(key=lambda item: item[0])
    groups: dict[str, list[Keyword]] = {}
    for key, keyword in entries:
        groups.setdefault(key[0][:1].upper() or "#", []).append(keyword)
    return tuple(Letter(letter, f"letter-{ord(letter)}", tuple(keywords)) for letter, keywords in groups.items())


def keyword_index(c: Lang) -> str:
    return c.pages.render("pages/keywords.md.j2", letters=keyword_letters(c))


def _term_forms(c: Lang, rule_id: str) -> list[str]:
    termbase = c.shared.termbase
    if termbase is None:
        return []
    title = (c.titles.get(rule_id) or "").casefold()
    out: list[str] = []
    for concept in termbase.for_rule(rule_id):
        for term in concept.usable(c.lang):
            for form in term.forms:
                if form.casefold() != title and form not in out:
                    out.append(form)
    return out

