"""What every page of one language's site is rendered with (render stage): the UI, the inline
linker, display titles, where each text unit is shown, and what the block of a unit shows
(`UnitView`: its text, its badges — untranslated, stale — and other versions); the block's
shape is the ``unit`` macro of ``templates/pages/_macros.html.j2``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple, Sequence

from markupsafe import Markup

from ..i18n import UI, N_
from ..link import LinkedKB
from ..official import Official, text_name
from ..models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Ruling, Status, Unit, UnitKind, english_hash
from . import paths
from .diffs import Diffs, diff_html
from .templating import Pages
from .text import CardNames, Inline, Localised, Shown, State, Where, choose, link_index


class Alternative(NamedTuple):
    """Another version of a text in the language shown."""

    text: Markup
    source: str             # its source, named in the page's language
    status: str             # its status, in words
    note: str | None


class UnitView(NamedTuple):
    """The block of one text unit on a page."""

    kind: str               # title, summary, text, subrule, note, ruling
    state: str              # State.value of the text shown
    anchor: str | None      # the block's id
    label: str | None       # the number or label at the start of the text (a link to the anchor)
    meta_title: str         # the label's tooltip: source and status
    badge: Markup           # empty when the text needs none
    lang: str | None        # the language of the text shown; None: no text in any language
    text: Markup            # the text with its links
    english: Markup | None  # the current English of a stale translation
    alternatives: tuple[Alternative, ...]
    changes: Markup | None = None   # a stale translation: its English against today's, word by word


@dataclass(frozen=True)
class Place:
    """Where a unit is shown: its page, its anchor there, its label and its rule."""

    page: str
    anchor: str
    label: str
    rule: str


def unit_anchor(rule: Rule, unit: Unit) -> str:
    """The id of a unit's element on its rule page: subrules by number (``702.78a``), the
    rule's own text by the rule number, notes ``n1`` …, title and summary by kind; a former
    subrule (one the rule no longer has, no element of its own) by the rule's number, where a
    link to it from "referenced by" lands (it led to ``phasing.html#502.15f``, issue 29.7)."""
    kind = unit.kind
    if kind is UnitKind.SUBRULE:
        return rule.number if any(s.unit is unit for s in rule.former_subrules) else unit.label
    if kind in (UnitKind.TEXT, UnitKind.TITLE):
        return rule.number
    if kind is UnitKind.NOTE:
        return unit.id.rsplit(".", 1)[1]
    return kind.value


# a rule with more rulings than this lists the cards they stand on instead of showing them: each
# ruling is shown with its first card (rules/enchant held the rulings of 575 Aura cards, 594 KB in
# English and 762 KB in French; a phone took 1.75 s to open it: issue 32.3)
RULINGS_SHOWN_MAX = 100


def rules_listing_cards(rulings_by_mechanic: Mapping[str, tuple[Ruling, ...]],
                        most: int = RULINGS_SHOWN_MAX) -> frozenset[str]:
    """The rules whose page lists the cards of its rulings rather than the rulings: more than `most`."""
    return frozenset(rule_id for rule_id, rulings in rulings_by_mechanic.items() if len(rulings) > most)


def places(kb: KnowledgeBase, cards: paths.CardPages, listing_cards: frozenset[str] = frozenset()) -> dict[str, Place]:
    """unit id -> its place; a ruling is shown on the page of its (first) rule, a ruling of
    cards only on its first card's page, and so is a ruling of cards whose rule lists the cards
    of its rulings (`listing_cards`)."""
    out: dict[str, Place] = {}
    for rule in kb.rules:
        for unit in rule.units:
            out[unit.id] = Place(paths.rule_page(rule.id), unit_anchor(rule, unit), unit.label, rule.id)
    noted = notes_that_are_rulings(kb)
    for ruling in kb.rulings:
        if ruling.id in noted:   # shown as the note it is, on the note's rule page
            out[ruling.unit.id] = out[noted[ruling.id].id]
        elif ruling.mechanic is not None and ruling.mechanic in listing_cards and ruling.cards:
            # its rule's page lists its card: shown there, still the ruling of its rule (the search
            # finds it with the rule, at its id on the rule's page, on its card's line)
            out[ruling.unit.id] = Place(cards.page(ruling.cards[0]), ruling.id, ruling.unit.label, ruling.mechanic)
        elif ruling.mechanic is not None:
            out[ruling.unit.id] = Place(paths.rule_page(ruling.mechanic), ruling.id, ruling.unit.label, ruling.mechanic)
        elif ruling.cards:
            out[ruling.unit.id] = Place(cards.page(ruling.cards[0]), ruling.id, ruling.unit.label, "")
    return out


def notes_that_are_rulings(kb: KnowledgeBase) -> dict[str, Unit]:
    """Ruling id -> the rule note that is that ruling (`ruling:`): the note, with its
    translations, stands for the ruling on the rule's page and on its cards' pages."""
    return {note.ruling: note for rule in kb.rules for note in rule.notes if note.ruling is not None}


@dataclass(frozen=True)
class Shared:
    """Computed once for all languages."""

    linked: LinkedKB
    links: Mapping
    cards: CardNames
    places: Mapping[str, Place]
    rulings_by_mechanic: Mapping[str, tuple[Ruling, ...]]
    rulings_by_card: Mapping[str, tuple[Ruling, ...]]
    termbase: object | None
    units: Mapping[str, Unit]
    parallel: frozenset[str] = frozenset()   # the ids of the rules with a parallel-view page
    notes: Mapping[str, Unit] = field(default_factory=dict)   # ruling id -> the rule note that is it
    card_pages: paths.CardPages = field(default_factory=lambda: paths.CardPages.of(()))   # which page shows each card
    keyword_rules: Mapping[str, str] = field(default_factory=dict)   # keyword (casefolded) -> its rule's id
    cards_by_rule: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # rule id -> its keyword's cards
    official: Official = field(default_factory=lambda: Official((), (), ()))   # the keywords' official names (render.official)
    # the rules whose page lists the cards of its rulings rather than the rulings (`rules_listing_cards`)
    listing_cards: frozenset[str] = frozenset()
    inline: Inline = field(init=False)
    diffs: Diffs = field(init=False, default_factory=Diffs)   # the word diffs of the English, made once for every language
    # unit id -> its versions and diffs on its rule page (`versions.unit_history`; None: it has
    # no versions to show), made once for every language
    histories: dict = field(init=False, default_factory=dict)
    # rule id -> the sources of its page's texts, by language (`rules.source_groups`), made once for every language
    source_groups: dict = field(init=False, default_factory=dict)
    _chosen: dict = field(init=False, default_factory=dict)
    order: tuple[str, ...] = field(init=False, default=())   # the knowledge base's languages

    def __post_init__(self) -> None:
        object.__setattr__(self, "inline", Inline(self.linked, self.links, self.cards, self.termbase, self.card_pages))
        object.__setattr__(self, "order", self.linked.kb.language_codes)

    def choose(self, unit: Unit, lang: str) -> Shown:
        """What a page in `lang` shows for `unit`, computed once."""
        key = (unit.id, lang)
        found = self._chosen.get(key)
        if found is None:
            found = self._chosen[key] = choose(unit, lang, self.order)
        return found

    @classmethod
    def of(cls, linked: LinkedKB, termbase=None, official: Official | None = None,
           rulings_shown_max: int = RULINGS_SHOWN_MAX) -> "Shared":
        kb = linked.kb
        by_mechanic: dict[str, list[Ruling]] = {}
        by_card: dict[str, list[Ruling]] = {}
        notes = notes_that_are_rulings(kb)
        for ruling in kb.rulings:
            for rule_id in ruling.rules:
                if ruling.id not in notes:   # a ruling a note is shows as that note on the rule's page
                    by_mechanic.setdefault(rule_id, []).append(ruling)
            for card in ruling.cards:
                by_card.setdefault(card, []).append(ruling)
        order = lambda rs: tuple(sorted(rs, key=lambda r: (r.date, r.id)))  # noqa: E731
        card_pages = paths.CardPages.of(card.id for card in kb.cards)
        mechanics = {k: order(v) for k, v in by_mechanic.items()}
        listing = rules_listing_cards(mechanics, rulings_shown_max)
        return cls(linked, link_index(linked), CardNames(kb.cards), places(kb, card_pages, listing),
                   mechanics, {k: order(v) for k, v in by_card.items()}, termbase,
                   {u.id: u for u in kb.units()}, parallel_view_rules(kb), notes, card_pages, *keyword_cards(kb),
                   official=official or Official((), (), ()), listing_cards=listing)


def keyword_cards(kb: KnowledgeBase) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The keyword rules (701, 702) by their English title, casefolded, and for each the cards
    that have the keyword (MTGJSON's keywords), by English name."""
    titles: dict[str, str] = {}
    for rule in sorted(kb.rules, key=lambda r: r.number):
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        if title is not None and rule.number.startswith(("701.", "702.")):
            titles.setdefault(title.text.casefold(), rule.id)
    cards: dict[str, list[tuple[str, str]]] = {}
    for card in kb.cards:
        for keyword in card.keywords:
            rule_id = titles.get(keyword.casefold())
            if rule_id is not None:
                cards.setdefault(rule_id, []).append((card.names[SOURCE_LANGUAGE].casefold(), card.id))
    return titles, {rule_id: tuple(cid for _name, cid in sorted(found)) for rule_id, found in sorted(cards.items())}


def parallel_view_rules(kb: KnowledgeBase) -> frozenset[str]:
    """The rules that get a parallel-view page: those with a translated text, and the curated
    rules (a rule kept in a YAML file of its own, e.g. rules/comprehensive/explore.yaml). The
    rest — the sections of an imported rules release, English only — would show nothing but
    "missing" beside the English of their own page; leaving their views out halves the pages
    of the whole Comprehensive Rules (build time, site size)."""
    per_file = Counter(rule.file for rule in kb.rules)
    return frozenset(rule.id for rule in kb.rules
                     if per_file[rule.file] == 1
                     or any(lang != SOURCE_LANGUAGE for unit in rule.units for lang in unit.variants))


# what kind of document a source is, in words (rules/sources.yaml `kind`)
SOURCE_KINDS = {
    "comprehensive-rules": N_("Comprehensive Rules"),
    "archive": N_("rules archive"),
    "mtgjson": N_("MTGJSON card data"),
    "seed": N_("seed document"),
    "project": N_("the project's translators"),
}

STATUS_LABELS = {
    Status.OFFICIAL: N_("official text"),
    Status.COMMUNITY: N_("community text"),
    Status.DRAFT: N_("draft translation"),
    Status.MACHINE: N_("machine translation, not reviewed"),
}


def keyword_name(rule: Rule) -> str | None:
    """The English name of a keyword rule that has no title, its text being the name: 702.163
    "For Mirrodin!" (`official.text_name`); None for any other rule."""
    return text_name(rule)


def source_title(kb: KnowledgeBase, source_id: str) -> str:
    """The source's title as rules/sources.yaml has it (English: data, shown marked lang="en")."""
    source = kb.sources.get(source_id)
    return source.title if source else source_id


class Lang:
    """The rendering context of one language's site."""

    def __init__(self, shared: Shared, ui: UI):
        self.shared = shared
        self.kb: KnowledgeBase = shared.linked.kb
        self.ui = ui
        self.lang = ui.lang
        self.order: Sequence[str] = self.kb.language_codes
        self.title_shown: dict[str, Shown | None] = {
            r.id: self.shared.choose(r.title, self.lang) if r.title else None for r in self.kb.rules}
        self.titles: dict[str, str] = {
            rid: (s.variant.text if s and s.variant else "") for rid, s in self.title_shown.items()}
        self.inline = Localised(shared.inline, ui, self.titles)
        self._titles_html: dict[str, Markup] = {}
        _ = ui._
        self.status_labels = {status: _(label) for status, label in STATUS_LABELS.items()}
        # a badge depends on the state, the language shown and the status only: made once each
        self._badges: dict[tuple[State, str | None, Status | None], Markup] = {}
        self._meta_titles: dict[tuple[str, Status], str] = {}
        self._release_dates: dict[tuple[str, ...], str] = {}
        self._language_names: dict[str, str] = {}
        self._counts: dict[str, dict[State, int]] = {}   # rule id -> its texts by state (`translated_counts`)
        # the card pages' pieces in this language, each made once (`cards.CardSite`): a rule's
        # "Mechanic" line (every card page is in cards/: the same link from each), the words of a
        # number of printings, and the block of a ruling of several cards by its id, anchor and
        # the card its text is shown of (None: of none)
        self.mechanic_lines: dict[str, Markup] = {}
        self.printings_words: dict[int, Markup] = {}
        self.card_ruling_blocks: dict[tuple[str, str | None, str | None], Markup] = {}
        # the page templates in this language; their macros make the pieces kept here (badges, titles)
        self.pages = Pages(ui)
        self.macros = self.pages.macros

    # ------------------------------------------------------------ helpers

    def choose(self, unit: Unit, lang: str | None = None) -> Shown:
        return self.shared.choose(unit, lang or self.lang)

    def rule_name(self, rule: Rule) -> str:
        """"702.78 Retrace" in this language (English when the title is untranslated)."""
        title = self.titles.get(rule.id) or keyword_name(rule) or ""
        return f"{rule.number} {title}".strip()

    def source_title(self, source_id: str) -> str:
        return source_title(self.kb, source_id)

    def release_dates(self, releases: tuple[str, ...]) -> str:
        """Releases as a list of dates in this language ("15. März 2003, 1. Oktober 2003"), each
        list made once: a text unchanged over many releases lists them all, on every page that
        shows its versions (half a million dates on the pages of all 110 releases)."""
        found = self._release_dates.get(releases)
        if found is None:
            found = self._release_dates[releases] = ", ".join(self.ui.date(release) for release in releases)
        return found

    def language_name(self, code: str) -> str:
        """`UI.language_name`, looked up once per language named (every rule page names the
        languages of its sources)."""
        found = self._language_names.get(code)
        if found is None:
            found = self._language_names[code] = self.ui.language_name(code)
        return found

    def source_kind(self, kind: str) -> str:
        return self.ui._(SOURCE_KINDS[kind]) if kind in SOURCE_KINDS else kind

    def source_name(self, source_id: str) -> str:
        """A source named in the page's language, for tooltips and notes: "Comprehensive Rules
        of 16. Januar 2026", "Seed-Dokument (seed-000)"; its English title is on the rule page."""
        source = self.kb.sources.get(source_id)
        if source is None:
            return source_id
        if source.kind == "comprehensive-rules" and source.date:
            return self.ui._("Comprehensive Rules of {date}").format(date=self.ui.date(source.date))
        if source.kind == "project":
            return self.source_kind(source.kind)
        return f"{self.source_kind(source.kind)} ({source.id})"

    def badge(self, shown: Shown) -> Markup:
        key = (shown.state, shown.lang, shown.variant.status if shown.variant is not None else None)
        found = self._badges.get(key)
        if found is None:
            found = self._badges[key] = self._make_badge(shown)
        return found

    def _make_badge(self, shown: Shown) -> Markup:
        _ = self.ui._
        if shown.state is State.FALLBACK and shown.lang == SOURCE_LANGUAGE:
            return self.macros.badge("untranslated", _("English original — not yet translated"),
                                     _("There is no text in this language yet: the English original is shown."))
        if shown.state is State.FALLBACK:   # no English either: the one language the text exists in
            language = self.ui.language_name(shown.lang or "")
            return self.macros.badge("untranslated", _("Only in {language}: no English original").format(language=language),
                                     _("This text exists only in {language}: it has no English original and no "
                                       "translation into this language yet.").format(language=language))
        if shown.state is State.STALE:
            return self.macros.badge("stale", _("Stale: the English has changed"),
                                     _("This translation was made from an older English text; compare it with the current English below."))
        if shown.state is State.MISSING:
            return self.macros.badge("missing", _("No text in any language"))
        if shown.variant is not None and shown.variant.status in (Status.DRAFT, Status.MACHINE):
            return self.macros.badge("draft", self.status_labels[shown.variant.status])
        return Markup("")

    def text_html(self, shown: Shown, where: Where, variant_index: int = 0) -> Markup:
        variant = shown.unit.variants[shown.lang][variant_index] if shown.lang else None
        if variant is None:
            return Markup("")
        return self.inline.html(variant.text, shown.unit.id, shown.lang, variant_index, where)  # type: ignore[arg-type]

    def meta_title(self, shown: Shown) -> str:
        v = shown.variant
        if v is None:
            return ""
        key = (v.source, v.status)
        found = self._meta_titles.get(key)
        if found is None:
            found = self._meta_titles[key] = self.ui._("Source: {source} · {status}").format(
                source=self.source_name(v.source), status=self.status_labels[v.status])
        return found

    def unit_view(self, unit: Unit, where: Where, *, anchor: str | None, label: str | None, kind: str) -> "UnitView":
        """What the block of a unit shows (its shape: the ``unit`` macro of
        ``templates/pages/_macros.html.j2``): the text chosen for this language with its badge,
        the current English of a stale translation, and the other versions of the text."""
        shown = self.choose(unit)
        english = changes = None
        if shown.state is State.STALE and shown.english is not None:
            english = self.text_html(Shown(unit, shown.english, SOURCE_LANGUAGE, State.SOURCE, shown.english), where)
            changes = self.english_changes(unit, shown)
        return UnitView(kind, shown.state.value, anchor, label, self.meta_title(shown), self.badge(shown), shown.lang,
                        self.text_html(shown, where), english, self.alternatives(shown, where), changes)

    @staticmethod
    def english_changes(unit: Unit, shown: Shown) -> Markup | None:
        """What changed in the English since a stale translation was made (play -> cast), word by
        word, when the knowledge base keeps the English it was made from."""
        made_from = shown.variant.translated_from if shown.variant is not None else None
        old = next((v for v in unit.variants.get(SOURCE_LANGUAGE, ()) if english_hash(v.text) == made_from), None)
        if old is None or shown.english is None:
            return None
        return diff_html(old.text, shown.english.text)

    def alternatives(self, shown: Shown, where: Where) -> tuple["Alternative", ...]:
        """Other versions of the text in the language shown (an older wording, a second
        published translation): never dropped, shown folded."""
        if shown.lang is None:
            return ()
        others = shown.unit.variants.get(shown.lang, ())[1:]
        return tuple(Alternative(self.inline.html(variant.text, shown.unit.id, shown.lang, i, where),
                                 self.source_name(variant.source), self.status_labels[variant.status], variant.note)
                     for i, variant in enumerate(others, start=1))

    def inline_title(self, rule: Rule) -> Markup:
        """A rule's title for headings and links, marked when it is not in this language."""
        found = self._titles_html.get(rule.id)
        if found is None:
            shown = self.title_shown.get(rule.id)
            if shown is None or shown.variant is None:
                found = Markup("")
            else:
                badge = self.badge(shown) if shown.state in (State.FALLBACK, State.STALE) else None
                found = self.macros.inline_title(shown.lang, shown.variant.text, badge)
            self._titles_html[rule.id] = found
        return found

    def named_title(self, rule: Rule) -> Markup:
        """What an index shows as a rule's name: its title (`inline_title`), else the English
        name of a keyword rule (`keyword_name`), marked as English, else "Rule 100.1": a
        number or a title, never its id."""
        title = self.inline_title(rule)
        if title:
            return title
        name = keyword_name(rule)
        if name is not None:
            return Markup('<span lang="en">{}</span>').format(name) if self.lang != SOURCE_LANGUAGE else Markup.escape(name)
        return Markup.escape(self.ui._("Rule {number}").format(number=rule.number))

    def unit_name(self, unit: Unit, short: bool = False) -> str:
        """A unit's label in this language: "702.78a", "702.78 Note 1" ("Note 1" when `short`,
        on the rule's own page), "Ruling of 19. Januar 2018"."""
        kind = unit.kind
        if kind is UnitKind.SUBRULE:   # its number, wherever it is named
            return unit.label
        _ = self.ui._
        if kind is UnitKind.RULING:
            owner = self.kb.owner(unit.id)
            ruling = owner if isinstance(owner, Ruling) else None
            return _("Ruling of {date}").format(date=self.ui.date(ruling.date)) if ruling else unit.label
        place = self.shared.places.get(unit.id)
        rule = self.kb.rule(place.rule) if place else None
        prefix = "" if short or rule is None else f"{rule.number} "
        if kind is UnitKind.NOTE:
            return prefix + _("Note {n}").format(n=unit.id.rsplit(".", 1)[1][1:])
        if kind is UnitKind.SUMMARY:
            return prefix + _("Summary")
        if kind is UnitKind.TITLE:
            return prefix + _("Title")
        if kind is UnitKind.TEXT and rule is not None:
            return rule.number
        return unit.label

    def translated_counts(self, rule: Rule) -> Mapping[State, int]:
        """How many of the rule's texts the page shows in each state (its page and the rule
        index both show it: counted once per rule, kept; not to be changed)."""
        counts = self._counts.get(rule.id)
        if counts is None:
            counts = self._counts[rule.id] = {}
            for unit in rule.units:
                state = self.choose(unit).state
                counts[state] = counts.get(state, 0) + 1
        return counts
