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
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..models import Card
from . import paths
from .context import Lang
from .rules import ruling_view
from .text import Where


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
class CardView:
    """One card on its group's page."""

    id: str                # its anchor
    name: str
    name_lang: str
    names: tuple[Name, ...]
    set_code: str
    collector_number: str
    printings: int
    oracle_id: str
    source: str            # the title of its source
    mechanics: tuple[RuleRef, ...]
    rulings: tuple[Markup, ...]    # the block of each ruling (the ``ruling`` macro of its `RulingView`)
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


def card_rules(c: Lang, card: Card) -> tuple[str, ...]:
    """The rules a card's page links to: those of its rulings, then those of its keywords."""
    out: list[str] = []
    for ruling in c.shared.rulings_by_card.get(card.id, ()):
        out += [r for r in ruling.rules if r not in out]
    for keyword in card.keywords:
        rule = c.shared.keyword_rules.get(keyword.casefold())
        if rule is not None and rule not in out:
            out.append(rule)
    return tuple(out)


def card_view(c: Lang, card: Card, page: str) -> CardView:
    where = Where(page, card=card.id)
    name, name_lang = card_title(c, card)
    rulings = c.shared.rulings_by_card.get(card.id, ())   # sorted by date
    mechanics = (rule_ref(c, page, rule) for rule in card_rules(c, card))
    return CardView(
        card.id, name, name_lang,
        tuple(Name(lang.code, lang.name, card.names.get(lang.code)) for lang in c.kb.languages),
        card.set_code, card.collector_number, len(card.printings), card.oracle_id, c.source_title(card.source),
        tuple(ref for ref in mechanics if ref is not None),
        # the ruling's anchor on the page of the first card it stands on (its place when it
        # belongs to no rule): a ruling of two cards of one group is on the page twice
        tuple(c.card_ruling_html(ruling_view(c, ruling, where, show_cards=False,
                                             anchor=ruling.id if ruling.cards[0] == card.id else None),
                                 len(ruling.cards) > 1) for ruling in rulings),
        paths.to_site_root(page) + paths.api_path(c.lang, "cards", paths.card_group(card.id)))


def card_groups(cards: tuple[Card, ...], pages: paths.CardPages) -> dict[str, tuple[Card, ...]]:
    """Group -> its cards, by id (`paths.CardPages`: at most 100 cards a page)."""
    groups: dict[str, list[Card]] = {}
    for card in sorted(cards, key=lambda k: k.id):
        groups.setdefault(pages.group(card.id), []).append(card)
    return {group: tuple(found) for group, found in sorted(groups.items())}


def _english(card: Card) -> str:
    return card.names["en"]


def card_group_page(c: Lang, group: str, cards: tuple[Card, ...]) -> str:
    """The page of a group of cards (`card_groups`), in the order of their ids (their English
    names), the group's first and last names in its title."""
    page = paths.card_group_page(group)
    title = c.ui._("Cards {first} – {last}").format(first=_english(cards[0]), last=_english(cards[-1]))
    return c.pages.render("pages/card.md.j2", page=CardGroupPage(
        title, tuple(card_view(c, card, page) for card in cards), paths.href(page, paths.CARD_INDEX)))


def card_rows(c: Lang, groups: dict[str, tuple[Card, ...]]) -> list[GroupRow]:
    """The groups of the index, each with its first and last card's English names."""
    rows = []
    for group, cards in groups.items():
        rows.append(GroupRow(paths.href(paths.CARD_INDEX, paths.card_group_page(group)), _english(cards[0]),
                             _english(cards[-1]), len(cards),
                             sum(len(c.shared.rulings_by_card.get(card.id, ())) for card in cards)))
    return rows


def card_index(c: Lang, groups: dict[str, tuple[Card, ...]]) -> str:
    return c.pages.render("pages/cards.md.j2", groups=card_rows(c, groups), cards=sum(len(g) for g in groups.values()))
