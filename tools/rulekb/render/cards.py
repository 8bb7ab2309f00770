"""Card pages and the card index, for one language's site (render stage). Cards are shown in
groups, one page per group (`paths.CardPages`: the cards whose ids begin with the same two
letters, ``cards/qu.html#queens-agent``, a larger group cut into pages of at most 100 cards at
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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from markupsafe import Markup

from ..models import Card, Ruling
from . import paths
from .context import Lang, Shared
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


@dataclass(frozen=True)
class CardEntry:
    """What a card's section shows on the site of every language, found once (`CardSite`)."""

    card: Card
    where: Where                   # its section of its group's page, where its rulings' texts are shown
    # the table of its names, the same in every language; when a name is missing, the names to
    # make it from in each language (its word for "missing" in the table)
    names: Markup | tuple[Name, ...]
    printing: str                  # the set and collector number it is shown with: "PM15 #100"
    source: str                    # the title of its source (English)
    rules: tuple[str, ...]         # the rules it links to (`card_rules`)
    rulings: tuple[Ruling, ...]    # by date


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
    """Group -> its cards, by id (`paths.CardPages`: at most 100 cards a page)."""
    groups: dict[str, list[Card]] = {}
    for card in sorted(cards, key=lambda k: k.id):
        groups.setdefault(pages.group(card.id), []).append(card)
    return {group: tuple(found) for group, found in sorted(groups.items())}


def _english(card: Card) -> str:
    return card.names["en"]


class CardSite:
    """The card pages of every language of one site: the groups, the index's rows and each
    card's `CardEntry` are made once (by the first language's pages) and kept for the others;
    `group_page` and `index` are the pages of one language."""

    def __init__(self, shared: Shared):
        self.shared = shared
        self.groups = card_groups(shared.linked.kb.cards, shared.card_pages)
        self._parts: Any = None        # the module of CARD_PARTS (no UI words), made on first use
        self._entries: dict[str, tuple[CardEntry, ...]] = {}   # group -> its cards' entries
        self._rows: tuple[GroupRow, ...] | None = None
        # per language: a rule's "Mechanic" line (every card page is in cards/: the same link
        # from each) and the words of a number of printings
        self._mechanic_lines: dict[tuple[str, str], Markup] = {}
        self._printings_words: dict[tuple[str, int], Markup] = {}

    def entries(self, c: Lang, group: str) -> tuple[CardEntry, ...]:
        found = self._entries.get(group)
        if found is None:
            found = self._entries[group] = tuple(self._entry(c, card) for card in self.groups[group])
        return found

    def _entry(self, c: Lang, card: Card) -> CardEntry:
        if self._parts is None:
            self._parts = template(CARD_PARTS).make_module()
        names = tuple(Name(lang.code, lang.name, card.names.get(lang.code)) for lang in c.kb.languages)
        where = Where(self.shared.card_pages.page(card.id), card=card.id)
        return CardEntry(card, where, self._parts.names(names) if all(name.text for name in names) else names,
                         f"{card.set_code} #{card.collector_number}", c.source_title(card.source),
                         card_rules(self.shared, card), self.shared.rulings_by_card.get(card.id, ()))

    def _mechanic(self, c: Lang, macros: Any, rule_id: str) -> Markup:
        key = (c.lang, rule_id)
        found = self._mechanic_lines.get(key)
        if found is None:
            rule = c.kb.rule(rule_id)
            found = self._mechanic_lines[key] = Markup("") if rule is None else macros.mechanic(
                RuleRef(paths.from_depth_one(paths.rule_page(rule.id)), rule.number, c.inline_title(rule)))
        return found

    def _printings(self, c: Lang, macros: Any, n: int) -> Markup:
        key = (c.lang, n)
        found = self._printings_words.get(key)
        if found is None:
            found = self._printings_words[key] = macros.printings(n)
        return found

    def card_view(self, c: Lang, macros: Any, entry: CardEntry, api_href: str) -> CardView:
        """A card's section in c's language: the entry with the card's name, the page's words,
        the titles of its rules and the blocks of its rulings."""
        card, where = entry.card, entry.where
        # the ruling's anchor on the page of the first card it stands on (its place when it
        # belongs to no rule): a ruling of two cards of one group is on the page twice
        rulings = Markup("").join(
            c.card_ruling_html(ruling_view(c, ruling, where, show_cards=False,
                                           anchor=ruling.id if ruling.cards[0] == card.id else None),
                               len(ruling.cards) > 1) for ruling in entry.rulings)
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
        for entry in self.entries(c, group):
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
