"""Card pages and the card index, for one language's site (render stage). Cards are shown in
groups, one page per group (`paths.CardPages`: the cards whose ids begin with the same two
letters, ``cards/qu.html#queens-agent``, a larger group cut into pages of at most 90 cards at
their next letters, ``cards/mac.html``): each card with its names in every language, its printing,
the rules of its keywords and rulings, and its rulings with their dates (in the locale's long
form). The index lists the groups. This module decides what the pages show; their shape is
``templates/pages/card.md.j2`` (a group) and ``cards.md.j2`` (the index).

Why groups: the MTGJSON import brings some 24,000 cards; a page per card and language would be
72,000 mkdocs pages (about 25 minutes of building on two cores). A group page holds up to 100
cards (~0.2 MB: a phone opens it at once); a card's names are in the search index, and its
rulings of no rule in a part of their own (`search.card_rulings_part`).

What is made once for every language (`CardSite`): a card's section says the same things on
each language's site in that language's words. Its names (a table of every language's name),
its printing, its source and the rules it links to are the same on all of them, so they are
found once (`CardEntry`), the names table rendered and escaped once (by
``templates/pages/_card.html.j2``, which has no UI words); the groups and the rows of the index
are the same too. Each language then adds only its own: the card's name in it, its words, the
titles of the rules (one "Mechanic" line per rule and language) and the blocks of the rulings
(their dates and badges are in the page's language), each card written by the page template
as a few values rather than ~30 (some 24,000 cards on each language's pages).

A ruling of several cards is on each of their sections (22,682 of the 45,049 ruling blocks of
all 579 sets, 2,239 rulings): the same block on each but the first card's (where it has its
anchor), unless its text names the card it is shown with (a text does not link to its own
card). `CardRuling` says which: the ruling's text is shown "of" the card only when one of its
texts names it, and the block of a ruling, its anchor and that card is made once per language
(26,887 blocks and their views per language instead of 45,049 views); its texts' links are the
same from every page of cards/ (`text.Inline`), so the block is the same on each page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from markupsafe import Markup

from ..models import Card, Ruling
from . import paths
from .context import Lang, Shared, source_title
from .rules import ruling_view
from .templating import template
from .text import Where

CARD_PAGE = "pages/card.md.j2"
CARD_PARTS = "pages/_card.html.j2"   # the parts of a card's section that are the same in every language


@dataclass(frozen=True)
class Name:
    lang: str
    language: str          # the language's name
    text: str | None       # the card's name in it, if known


@dataclass(frozen=True)
class RuleRef:
    """A link to a rule: where, its number, its title (marked when not in this language)."""

    href: str
    number: str
    title: Markup


class CardRuling(NamedTuple):
    """A ruling on a card's section."""

    ruling: Ruling
    where: Where           # where its text is shown: the card's section; without the card when no text of the ruling names it
    anchor: str | None     # its id on its first card's section (its place when it belongs to no rule), else none


@dataclass(frozen=True)
class CardEntry:
    """What a card's section shows on the site of every language, found once (`CardSite`)."""

    card: Card
    # the table of its names, the same in every language; when a name is missing, the names to
    # make it from in each language (its word for "missing" in the table)
    names: Markup | tuple[Name, ...]
    printing: str                  # the set and collector number it is shown with: "PM15 #100"
    source: str                    # the title of its source (English)
    rules: tuple[str, ...]         # the rules it links to (`card_rules`)
    rulings: tuple[CardRuling, ...]   # by date


class CardView(NamedTuple):
    """One card on its group's page, in the page's language (a named tuple, made quickly: some
    24,000 per language)."""

    id: str                # its anchor
    name: str              # its name in this language, else English
    names: Markup          # the table of its names in every language
    printing: str
    printings: Markup      # how many printings it has, in words ("" for one)
    oracle_id: str
    source: str
    mechanics: Markup      # a "Mechanic" line for each rule it links to
    rulings: int
    rulings_html: Markup   # the block of each ruling, one after the other
    api_href: str


@dataclass(frozen=True)
class CardGroupPage:
    title: str
    cards: tuple[CardView, ...]
    index_href: str


@dataclass(frozen=True)
class GroupRow:
    href: str
    first: str             # the English names of the group's first and last cards
    last: str
    cards: int
    rulings: int


def card_title(c: Lang, card: Card) -> tuple[str, str]:
    """The card's name in this language (else English) and the language of that name."""
    if c.lang in card.names:
        return card.names[c.lang], c.lang
    return card.names["en"], "en"


def rule_ref(c: Lang, page: str, rule_id: str) -> RuleRef | None:
    rule = c.kb.rule(rule_id)
    if rule is None:
        return None
    return RuleRef(paths.href(page, paths.rule_page(rule.id)), rule.number, c.inline_title(rule))


def card_rules(shared: Shared, card: Card) -> tuple[str, ...]:
    """The rules a card's page links to: those of its rulings, then those of its keywords."""
    out: list[str] = []
    for ruling in shared.rulings_by_card.get(card.id, ()):
        out += [r for r in ruling.rules if r not in out]
    for keyword in card.keywords:
        rule = shared.keyword_rules.get(keyword.casefold())
        if rule is not None and rule not in out:
            out.append(rule)
    return tuple(out)


def card_groups(cards: tuple[Card, ...], pages: paths.CardPages) -> dict[str, tuple[Card, ...]]:
    """Group -> its cards, by id (`paths.CardPages`: at most 90 cards a page)."""
    groups: dict[str, list[Card]] = {}
    for card in sorted(cards, key=lambda k: k.id):
        groups.setdefault(pages.group(card.id), []).append(card)
    return {group: tuple(found) for group, found in sorted(groups.items())}


def _english(card: Card) -> str:
    return card.names["en"]


class CardSite:
    """The card pages of every language of one site: the groups, the index's rows and each
    card's `CardEntry` are made once (by the first language's pages) and kept for the others;
    `group_page` and `index` are the pages of one language, the pieces made once per language
    kept on its `Lang`."""

    def __init__(self, shared: Shared):
        self.shared = shared
        self.groups = card_groups(shared.linked.kb.cards, shared.card_pages)
        self._parts: Any = None        # the module of CARD_PARTS (no UI words), made on first use
        self._entries: dict[str, tuple[CardEntry, ...]] = {}   # group -> its cards' entries
        self._rows: tuple[GroupRow, ...] | None = None
        self._named: dict[str, frozenset[str]] = {}   # ruling id -> the cards its texts name

    def entries(self, group: str) -> tuple[CardEntry, ...]:
        found = self._entries.get(group)
        if found is None:
            found = self._entries[group] = tuple(self._entry(card) for card in self.groups[group])
        return found

    def _entry(self, card: Card) -> CardEntry:
        if self._parts is None:
            self._parts = template(CARD_PARTS).make_module()
        kb = self.shared.linked.kb
        names = tuple(Name(lang.code, lang.name, card.names.get(lang.code)) for lang in kb.languages)
        where = Where(self.shared.card_pages.page(card.id), card=card.id)
        return CardEntry(card, self._parts.names(names) if all(name.text for name in names) else names,
                         f"{card.set_code} #{card.collector_number}", source_title(kb, card.source),
                         card_rules(self.shared, card),
                         tuple(self._card_ruling(ruling, card, where) for ruling in self.shared.rulings_by_card.get(card.id, ())))

    def _card_ruling(self, ruling: Ruling, card: Card, where: Where) -> CardRuling:
        # the ruling's anchor on the page of the first card it stands on (its place when it
        # belongs to no rule): a ruling of two cards of one group is on the page twice
        anchor = ruling.id if ruling.cards[0] == card.id else None
        if len(ruling.cards) > 1 and card.id not in self._names_in(ruling):
            where = Where(where.page)   # no text of it names this card: nothing to keep from linking to itself
        return CardRuling(ruling, where, anchor)

    def _names_in(self, ruling: Ruling) -> frozenset[str]:
        """The cards named in any text of a ruling (its own, or the rule note it is shown as)."""
        found = self._named.get(ruling.id)
        if found is None:
            units = (ruling.unit, self.shared.notes.get(ruling.id, ruling.unit))
            found = self._named[ruling.id] = frozenset(
                card_id for unit in units for variants in unit.variants.values() for variant in variants
                for _start, _end, card_id in self.shared.cards.find(variant.text))
        return found

    def _ruling_block(self, c: Lang, item: CardRuling) -> Markup:
        """The block of a ruling on a card's section (the ``ruling`` macro of its view). A ruling
        of several cards is on each card's section: the same block on every card but its first
        (where it has its anchor) and one whose name its text links, so its block is made once
        per language for its anchor and the card its text is shown of (some 20,000 of the 45,000
        blocks of all 579 sets); the block of a ruling of one card is not kept."""
        ruling = item.ruling
        if len(ruling.cards) == 1:
            return c.macros.ruling(ruling_view(c, ruling, item.where, show_cards=False, anchor=item.anchor))
        key = (ruling.id, item.anchor, item.where.card)
        found = c.card_ruling_blocks.get(key)
        if found is None:
            found = c.card_ruling_blocks[key] = c.macros.ruling(
                ruling_view(c, ruling, item.where, show_cards=False, anchor=item.anchor))
        return found

    def _mechanic(self, c: Lang, macros: Any, rule_id: str) -> Markup:
        found = c.mechanic_lines.get(rule_id)
        if found is None:
            ref = rule_ref(c, paths.CARD_INDEX, rule_id)   # the same link from every page of cards/
            found = c.mechanic_lines[rule_id] = Markup("") if ref is None else macros.mechanic(ref)
        return found

    def _printings(self, c: Lang, macros: Any, n: int) -> Markup:
        found = c.printings_words.get(n)
        if found is None:
            found = c.printings_words[n] = macros.printings(n)
        return found

    def card_view(self, c: Lang, macros: Any, entry: CardEntry, api_href: str) -> CardView:
        """A card's section in c's language: the entry with the card's name, the page's words,
        the titles of its rules and the blocks of its rulings."""
        card = entry.card
        rulings = Markup("").join(self._ruling_block(c, item) for item in entry.rulings)
        return CardView(card.id, card_title(c, card)[0],
                        entry.names if isinstance(entry.names, Markup) else macros.names(entry.names),
                        entry.printing, self._printings(c, macros, len(card.printings)), card.oracle_id,
                        entry.source, Markup("").join(self._mechanic(c, macros, rule) for rule in entry.rules),
                        len(entry.rulings), rulings, api_href)

    def group_page(self, c: Lang, group: str) -> str:
        """The page of a group of cards (`card_groups`), in the order of their ids (their English
        names), the group's first and last names in its title."""
        cards = self.groups[group]
        page = paths.card_group_page(group)
        title = c.ui._("Cards {first} – {last}").format(first=_english(cards[0]), last=_english(cards[-1]))
        macros = c.pages.module(CARD_PAGE)
        root = paths.to_site_root(page)
        api: dict[str, str] = {}   # the JSON file of the cards' group
        views = []
        for entry in self.entries(group):
            api_group = paths.card_group(entry.card.id)
            href = api.get(api_group)
            if href is None:
                href = api[api_group] = root + paths.api_path(c.lang, "cards", api_group)
            views.append(self.card_view(c, macros, entry, href))
        return c.pages.render(CARD_PAGE, page=CardGroupPage(title, tuple(views), paths.href(page, paths.CARD_INDEX)))

    def rows(self) -> tuple[GroupRow, ...]:
        """The groups of the index, each with its first and last card's English names (the same
        in every language)."""
        if self._rows is None:
            by_card = self.shared.rulings_by_card
            self._rows = tuple(GroupRow(paths.href(paths.CARD_INDEX, paths.card_group_page(group)), _english(cards[0]),
                                        _english(cards[-1]), len(cards), sum(len(by_card.get(card.id, ())) for card in cards))
                               for group, cards in self.groups.items())
        return self._rows

    def index(self, c: Lang) -> str:
        return c.pages.render("pages/cards.md.j2", groups=self.rows(), cards=sum(len(g) for g in self.groups.values()))
