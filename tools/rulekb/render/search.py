"""The site's search index, prebuilt (render stage): what the search box of each language's
site searches, made from the knowledge base, not from the rendered pages.

Only today's texts, as the pages of the language show them: every rule in force (its title,
summary, text, subrules, notes and the rulings on its page) in the page's language, or — where
there is no translation — in the language the page shows instead (English), marked with that
language; the glossary's concepts; the names of every card in every language. No older
wordings, no sources, no number history: they are on the pages, but they would only add noise
(and size) to the results. A rule's titles in the other languages are kept as its aliases, so
that "Retrace" finds 702.81 Zurückverfolgen on the German site.

The index is a few JavaScript files that hand their part to the search
(``templates/assets/javascripts/rulekb-search-worker.js``) when a worker imports them
(``importScripts``: also from ``file://``, where a page may not fetch a JSON file): a call
``rulekbSearchPart(<format>, "<part>", "<base64 of the gzipped JSON>")``. Gzipped, because the
complete knowledge base's index would not fit in the size a phone should load otherwise (the
browser unpacks it natively, in the worker); deterministic (gzip without a time stamp).

- ``<lang>/search/rules.js``: the rules and the glossary of one language (`rules_part`);
- ``search/cards.js`` at the site root: the card names, the same for every language, each
  card with its place on its group's page (``cards/qu.html#queens-agent``, relative to a
  language's site: `paths.CardPages`), so that the worker never has to know how cards are
  grouped (`cards_part`);
- ``search/numbers.js`` at the site root: the rule numbers that are no longer today's (of
  older releases), each leading to its page ``<lang>/n/<number>.html`` (`numbers_part`), loaded
  only for a query that looks like a rule number;
- ``search/rulings.js`` at the site root: the rulings shown on card pages (those of no rule:
  most of the 24,600 rulings of all MTGJSON sets), each with its place on its first card's page,
  its cards (by their place in the card part) and its texts: the English, and the few
  translations (`card_rulings_part`); the worker shows a ruling in the page's language, else in
  English, marked, as the card pages do. Shared by the languages (it is almost all English: one
  part of 2 MB, not one per language), loaded after the card names, so that the rules answer
  first; a budget of its own in `make bench`.
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..models import KnowledgeBase, Rule, Unit
from .context import Lang, Shared
from .numbers import Holder
from .paths import CardPages, html_path
from .search_aliases import SearchAlias
from .text import State

FORMAT = 3                        # the shape of the parts; the worker refuses another (3: a unit's names)
FOLDER = "search"
RULES_PART = f"{FOLDER}/rules.js"       # in each language's site
CARDS_PART = f"{FOLDER}/cards.js"       # at the site root, for every language
NUMBERS_PART = f"{FOLDER}/numbers.js"   # at the site root, for every language
RULINGS_PART = f"{FOLDER}/rulings.js"   # at the site root, for every language: the rulings of cards only


@dataclass(frozen=True)
class Today:
    """What the index holds: the rules in force (all but those that left the rules: not in the
    newest imported release although imported), and the rule numbers that meant something else
    before (of older releases, or of the rules' number histories), each leading to its page
    ``n/<number>.html``, which says what it meant and where that rule is today."""

    rules: frozenset[str]          # rule ids
    former: tuple[str, ...]        # in rule-number order
    aliases: Mapping[str, tuple[SearchAlias, ...]]   # by the number they lead to (search_aliases)

    @classmethod
    def of(cls, kb: KnowledgeBase, holders: Mapping[str, Sequence[Holder]],
           aliases: Mapping[str, tuple[SearchAlias, ...]]) -> "Today":
        newest = kb.releases[-1].date if kb.releases else None
        rules = [r for r in kb.rules if newest is None or not r.releases or newest in r.releases]
        placed: dict[str, tuple[str, str]] = {}   # a number the index leads to -> (rule id, anchor)
        for rule in rules:
            for number, anchor in numbers_of(rule):
                placed.setdefault(number, (rule.id, anchor))
        former = tuple(number for number, found in holders.items()
                       if any((h.rule.id, h.anchor) != placed.get(number) for h in found))
        return cls(frozenset(r.id for r in rules), former, aliases)


def numbers_of(rule: Rule) -> list[tuple[str, str]]:
    """The numbers of a rule and its subrules with their anchors on its page: as numbered on the
    page, and as numbered today where the rule's history says it was renumbered since
    (702.78a on the page of Retrace from the 2011 release, 702.81a today)."""
    today = rule.current_number
    out = [(rule.number, rule.number)] + [(sub.number, sub.number) for sub in rule.subrules]
    if today != rule.number:
        out += [(today, rule.number)] + [(today + sub.letter, sub.number) for sub in rule.subrules]
    return out


def encode(part: str, data: Any) -> str:
    """A part of the index as the script the search imports."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    packed = base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")
    return f'rulekbSearchPart({FORMAT},"{part}","{packed}");\n'


def decode(script: str) -> Any:
    """The data of a part (`encode`'s inverse; for tests and measurements)."""
    prefix = f'rulekbSearchPart({FORMAT},"'
    if not script.startswith(prefix):
        raise ValueError("not a search index part of this format")
    _part, packed = script[len(prefix):].split('","', 1)
    return json.loads(gzip.decompress(base64.b64decode(packed.split('"', 1)[0])))


def _unit(c: Lang, kind: str, anchor: str, unit: Unit | None, names: Sequence[str] = ()) -> list[Any] | None:
    """[kind, anchor, text, language of the text ("" for the page's own), names (a subrule's:
    the terms it defines, `search_aliases`)]; None without text."""
    if unit is None:
        return None
    shown = c.choose(unit)
    if shown.variant is None or shown.state is State.MISSING:
        return None
    return [kind, anchor, " ".join(shown.variant.text.split()), "" if shown.lang == c.lang else shown.lang or "",
            list(names)]


def _names(today: Today, number: str, shown: str = "") -> list[str]:
    """The aliases that lead to a number today, the shown title aside."""
    return [alias.text for alias in today.aliases.get(number, ()) if alias.text != shown]


def _aliases(c: Lang, rule: Rule, today: Today) -> list[str]:
    """The rule's titles in the other languages, the termbase's forms of its name here, and the
    names that lead to its number (`search_aliases`)."""
    out: list[str] = []
    shown = c.titles.get(rule.id, "")
    if rule.title is not None:
        for lang in c.order:
            variant = rule.title.text(lang)
            if variant is not None and variant.text != shown and variant.text not in out:
                out.append(variant.text)
    termbase = c.shared.termbase
    if termbase is not None:
        for concept in termbase.for_rule(rule.id):
            for term in concept.usable(c.lang):
                for form in term.forms:
                    if form != shown and form not in out:
                        out.append(form)
    return out + [name for name in _names(today, rule.current_number, shown) if name not in out]


def rule_entry(c: Lang, rule: Rule, today: Today) -> list[Any]:
    """[id, number, its number today where it was renumbered since (else ""), title, language
    of the title ("" for the page's), aliases, units]: a rule as its page in this language shows
    it today."""
    title = c.title_shown.get(rule.id)
    title_lang = "" if title is None or title.lang in (None, c.lang) else title.lang
    units = [_unit(c, "u", "summary", rule.summary), _unit(c, "t", rule.number, rule.text)]
    units += [_unit(c, "s", sub.number, sub.unit, _names(today, rule.current_number + sub.letter))
              for sub in rule.subrules]
    units += [_unit(c, "n", note.id.rsplit(".", 1)[1], note) for note in rule.notes]
    units += [_unit(c, "r", ruling.id, ruling.unit) for ruling in c.shared.rulings_by_mechanic.get(rule.id, ())]
    number = rule.current_number if rule.current_number != rule.number else ""
    return [rule.id, rule.number, number, c.titles.get(rule.id, ""), title_lang, _aliases(c, rule, today),
            [u for u in units if u is not None]]


def glossary_entries(c: Lang) -> list[list[Any]]:
    """[anchor, head term, its language, other terms, definition, its language, rule id]."""
    from .glossary import glossary_entries as entries
    out = []
    for e in entries(c):
        others = list(e.forms) + [name.text for name in e.others if name.text]
        out.append([e.id, e.head, "" if e.head_lang == c.lang else e.head_lang, others,
                    " ".join((e.definition or "").split()), "" if e.definition_lang == c.lang else e.definition_lang])
    return out


def rules_part(c: Lang, today: Today) -> str:
    """The rules in force and the glossary, in this language (``<lang>/search/rules.js``)."""
    rules = [rule_entry(c, rule, today) for rule in c.kb.rules if rule.id in today.rules]
    return encode("rules", {"lang": c.lang, "rules": rules, "glossary": glossary_entries(c)})


def numbers_part(today: Today) -> str:
    """The numbers that are no longer today's: each has its page ``n/<number>.html``."""
    return encode("numbers", {"numbers": list(today.former)})


def card_link(pages: CardPages, card_id: str) -> str:
    """Where a card is shown, relative to a language's site: its group's page at its id."""
    return f"{html_path(pages.page(card_id))}#{card_id}"


def cards_part(kb: KnowledgeBase) -> str:
    """Every card's link (`card_link`) and its names in the knowledge base's languages ("" where
    it has none)."""
    langs = list(kb.language_codes)
    pages = CardPages.of(card.id for card in kb.cards)
    cards = [[card_link(pages, card.id)] + [card.names.get(lang, "") for lang in langs] for card in kb.cards]
    return encode("cards", {"langs": langs, "cards": cards})


def card_rulings_part(shared: Shared) -> str:
    """The rulings that are shown on a card's page and on no rule's (a ruling of a rule is in
    the rules part, with its rule), in the order of the knowledge base, each as [its link, its
    cards (their places in the card part, `cards_part`), its English text ("" without one), its
    texts in the other languages that have one ({language: text})]."""
    kb = shared.linked.kb
    position = {card.id: i for i, card in enumerate(kb.cards)}
    others = [lang for lang in kb.language_codes if lang != "en"]
    rulings = []
    for ruling in kb.rulings:
        place = shared.places.get(ruling.unit.id)
        if place is None or place.rule:
            continue
        texts = {lang: " ".join(variant.text.split()) for lang in ("en", *others)
                 if (variant := ruling.unit.text(lang)) is not None}
        if not texts:
            continue
        english = texts.pop("en", "")
        rulings.append([f"{html_path(place.page)}#{place.anchor}",
                        [position[card_id] for card_id in ruling.cards if card_id in position], english, texts])
    return encode("rulings", {"rulings": rulings})


def shared_files(shared: Shared, today: Today) -> dict[str, str]:
    """The parts every language shares, by path relative to the site root."""
    kb = shared.linked.kb
    return {CARDS_PART: cards_part(kb), NUMBERS_PART: numbers_part(today), RULINGS_PART: card_rulings_part(shared)}


def language_files(c: Lang, today: Today) -> dict[str, str]:
    """The parts of one language, by path relative to the site root."""
    return {f"{c.lang}/{RULES_PART}": rules_part(c, today)}
