"""Card pages and the card index, for one language's site (render stage): a card's names in
every language, its printing, its mechanic's rule and its rulings by date (dates in the
locale's long form). This module decides what a card page shows; its shape is
``templates/pages/card.md.j2`` and ``cards.md.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..models import Card
from . import paths
from .context import Lang
from .rules import RulingView, ruling_view
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
class RulingOnPage:
    first_of_date: bool    # the first ruling of its date: a heading with the date before it
    ruling: RulingView


@dataclass(frozen=True)
class CardPage:
    name: str
    name_lang: str
    names: tuple[Name, ...]
    set_code: str
    collector_number: str
    oracle_id: str
    source: str            # the title of its source
    mechanics: tuple[RuleRef, ...]
    rulings: tuple[RulingOnPage, ...]
    api_href: str


@dataclass(frozen=True)
class CardRow:
    href: str
    name: str
    name_lang: str
    others: tuple[Name, ...]   # its names in the other languages
    set_code: str
    collector_number: str
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


def card_view(c: Lang, card: Card) -> CardPage:
    where = Where(paths.card_page(card.id), card=card.id)
    name, name_lang = card_title(c, card)
    rulings = c.shared.rulings_by_card.get(card.id, ())   # sorted by date
    mechanics = (rule_ref(c, where.page, mechanic) for mechanic in sorted({r.mechanic for r in rulings}))
    return CardPage(
        name, name_lang, tuple(Name(lang.code, lang.name, card.names.get(lang.code)) for lang in c.kb.languages),
        card.set_code, card.collector_number, card.oracle_id, c.source_title(card.source),
        tuple(ref for ref in mechanics if ref is not None),
        tuple(RulingOnPage(i == 0 or rulings[i - 1].date != ruling.date,
                           ruling_view(c, ruling, where, show_cards=False, show_date=False))
              for i, ruling in enumerate(rulings)),
        paths.to_site_root(where.page) + paths.api_path(c.lang, "cards", card.id))


def card_page(c: Lang, card: Card) -> str:
    return c.pages.render("pages/card.md.j2", card=card_view(c, card))


def card_rows(c: Lang) -> list[CardRow]:
    """The cards of the index, by their name in this language."""
    rows = []
    for card in sorted(c.kb.cards, key=lambda k: (card_title(c, k)[0].casefold(), k.id)):
        name, name_lang = card_title(c, card)
        others = tuple(Name(lang.code, lang.name, card.names[lang.code]) for lang in c.kb.languages
                       if card.names.get(lang.code) and lang.code != name_lang)
        rows.append(CardRow(paths.href(paths.CARD_INDEX, paths.card_page(card.id)), name, name_lang, others,
                            card.set_code, card.collector_number, len(c.shared.rulings_by_card.get(card.id, ()))))
    return rows


def card_index(c: Lang) -> str:
    return c.pages.render("pages/cards.md.j2", cards=card_rows(c))
