"""One text unit as HTML, for one language's site (render stage).

`choose` decides what a page in language L shows for a unit: its L text (current, or stale
when its English has changed since it was translated), else the English (or, for a unit
without English, the first language that has it) clearly marked as untranslated, with the
`lang` attribute of the language actually shown.

`Inline` turns one text into escaped HTML with links: rule references (via the link stage)
to the exact subrule anchor, a number that is not in the knowledge base as a marked span
(never a broken link), card names of any language to the card page, and keyword terms of the
termbase (German hyphen compounds included) to their rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Mapping, Sequence

from markupsafe import Markup, escape

from ..i18n import UI
from ..link import Link, LinkedKB, Target
from ..models import SOURCE_LANGUAGE, Card, Unit, Variant, english_hash
from . import paths


class State(str, Enum):
    SOURCE = "source"          # the English original, on any page
    CURRENT = "current"        # a translation made from the current English
    STALE = "stale"            # a translation of an English text that has changed since
    FALLBACK = "untranslated"  # no text in the page language: another language is shown
    MISSING = "missing"        # no text in any language


@dataclass(frozen=True)
class Shown:
    unit: Unit
    variant: Variant | None
    lang: str | None          # language of the text shown
    state: State
    english: Variant | None   # the canonical English text of the unit


def is_stale(variant: Variant, english: Variant | None) -> bool:
    return (variant.translated_from is not None and english is not None
            and variant.translated_from != english_hash(english.text))


def choose(unit: Unit, lang: str, order: Sequence[str]) -> Shown:
    """What a page in `lang` shows for `unit` (`order`: the knowledge base's languages)."""
    english = unit.text(SOURCE_LANGUAGE)
    own = unit.text(lang)
    if own is not None:
        if lang == SOURCE_LANGUAGE:
            return Shown(unit, own, lang, State.SOURCE, english)
        return Shown(unit, own, lang, State.STALE if is_stale(own, english) else State.CURRENT, english)
    for other in (SOURCE_LANGUAGE, *order):
        found = unit.text(other)
        if found is not None:
            return Shown(unit, found, other, State.FALLBACK, english)
    return Shown(unit, None, None, State.MISSING, english)


@dataclass(frozen=True)
class Where:
    """The page a text is shown on, and what it belongs to (no links to itself)."""

    page: str
    rule: str | None = None
    card: str | None = None


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    html: str


class CardNames:
    """Finds the names of the knowledge base's cards, in any language, in a text: names of two
    words or more (a one-word name, "Flash", "Island", "Shock", is far more often a word of the
    rules than the card). Names are looked up by their first two words, so that 70,000 names
    (24,000 cards in three languages) cost a dictionary look-up per word of a text."""

    def __init__(self, cards: Iterable[Card]):
        by_name: dict[str, str] = {}
        for card in cards:
            for name in card.names.values():
                folded = _fold_quotes(name)
                if len(folded.split()) >= 2:
                    by_name.setdefault(folded, card.id)
        self._by_name = by_name
        heads: dict[tuple[str, str], list[str]] = {}
        for name in sorted(by_name, key=lambda n: (-len(n), n)):   # the longest name first
            words = _WORD_RUN.findall(name)
            if len(words) >= 2 and name.startswith(words[0]):
                heads.setdefault((words[0], words[1]), []).append(name)
        self._heads = heads

    def find(self, text: str) -> list[tuple[int, int, str]]:
        if not self._heads:
            return []
        folded = _fold_quotes(text)
        # the words (runs of letters and digits) where a name may begin: a pair of words next to
        # each other that begins a name; most texts have none and name no card
        plain = _WORD_RUN.findall(folded)
        heads = self._heads
        if heads.keys().isdisjoint(zip(plain, plain[1:])):
            return []
        pairs = list(zip(plain, plain[1:]))
        hits = [i for i, pair in enumerate(pairs) if pair in heads]
        starts = [m.start() for m in _WORD_RUN.finditer(folded)]
        out: list[tuple[int, int, str]] = []
        after = 0
        for i in hits:
            start = starts[i]
            if start < after or (start > 0 and _is_letter(folded[start - 1])):
                continue
            for name in heads[pairs[i]]:
                end = start + len(name)
                if folded.startswith(name, start) and not (end < len(folded) and _is_letter(folded[end])):
                    out.append((start, end, self._by_name[name]))
                    after = end
                    break
        return out


_WORD_RUN = re.compile(r"[^\W_]+")


def _is_letter(ch: str) -> bool:
    """A letter or digit (not "_"): what may not touch a name found in a text."""
    return ch.isalnum()


def _fold_quotes(text: str) -> str:
    return text.replace("’", "'")


_RANGE_TAIL = re.compile(r"^(\s*[\-\u2010-\u2013]\s*)(\S+)$")




# Language-dependent words inside a rendered text (tooltips), filled in per site language
_MISSING = "\x00M\x00"                       # "not in this knowledge base"
_TITLE = "\x00T:{}\x00"                      # the title of a rule
_SLOT = re.compile(r"\x00(M|T:[^\x00]*)\x00")


class Inline:
    """Renders texts with links, once for all site languages.

    Texts are shown on pages one folder deep (``rules/``, ``parallel/``, ``cards/``), so their
    links are written from that depth (``../rules/retrace.html#702.78a``) and the HTML of a text
    is the same on every such page and in every language's site, but for its tooltips: those
    are slots that `Localised` fills with the words of one language.
    """

    def __init__(self, linked: LinkedKB, links: Mapping[tuple[str, str, int], tuple[Link, ...]],
                 cards: CardNames, termbase=None, card_pages: paths.CardPages | None = None):
        self.linked = linked
        self.links = links        # (unit id, lang, variant index) -> links, built once
        self.cards = cards
        self.termbase = termbase
        self.card_pages = card_pages if card_pages is not None else paths.CardPages.of(())
        self.missing_title = _MISSING
        self._cache: dict[tuple, str] = {}
        # the card names and terms found in a text, by (text, its language): a ruling of twelve
        # cards is rendered on each card's section, where only its link to that card differs
        self._found: dict[tuple[str, str], tuple[tuple[tuple[int, int, str], ...], tuple]] = {}
        # the termbase's concepts a text links to, each to its rule: those of a rule of the
        # knowledge base (`find_terms` finds no others)
        kb = linked.kb
        self._concept_rules: dict[str, str] = {c.id: c.rule for c in termbase.concepts if c.rule is not None
                                               and kb.rule(c.rule) is not None} if termbase is not None else {}
        self.linked_concepts = frozenset(self._concept_rules)

    @staticmethod
    def _href(page: str, fragment: str | None = None) -> str:
        return paths.from_depth_one(page, fragment)

    def _ref_link(self, text: str, number: str, target: Target | None, title: str | None = None) -> str:
        if target is None:
            return (f'<span class="rulekb-ref rulekb-ref--missing" title="{escape(number)}: {escape(self.missing_title)}" '
                    f'data-number="{escape(number)}">{escape(text)}</span>')
        label = title or f"{target.number} {_TITLE.format(target.rule.id)}"
        return (f'<a class="rulekb-ref" href="{escape(self._href(paths.rule_page(target.rule.id), target.anchor))}" '
                f'title="{escape(label)}">{escape(text)}</a>')

    def reference_html(self, link: Link) -> str:
        ref = link.reference
        numbers, targets = ref.numbers, link.targets
        if len(numbers) == 1:
            return self._ref_link(ref.text, numbers[0], targets[0])
        listed = ", ".join(numbers)
        first = numbers[0]
        rest = ref.text[len(first):] if ref.text.startswith(first) else None
        tail = _RANGE_TAIL.match(rest) if rest is not None else None
        if tail is None:  # an unusual spelling: link the whole expression to its first number
            return self._ref_link(ref.text, first, targets[0], listed)
        return (self._ref_link(first, first, targets[0], listed) + str(escape(tail.group(1)))
                + self._ref_link(tail.group(2), numbers[-1], targets[-1], listed))

    def html(self, text: str, unit_id: str, text_lang: str, variant: int, where: Where) -> str:
        """The text as HTML with slots for the tooltips' words (see `Localised`)."""
        key = (unit_id, text_lang, variant, where.rule, where.card, text)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._render(text, unit_id, text_lang, variant, where)
        return found

    def found_in(self, text: str, text_lang: str) -> tuple[tuple[tuple[int, int, str], ...], tuple]:
        """The card names (start, end, card id) and the termbase's terms that link to a rule
        (`TermMatch`) in a text, looked for once per text and language (`_found`)."""
        key = (text, text_lang)
        found = self._found.get(key)
        if found is None:
            terms = self.termbase.find_terms(text, text_lang, self.linked_concepts) if self.termbase is not None else ()
            found = self._found[key] = (tuple(self.cards.find(text)), terms)
        return found

    def _render(self, text: str, unit_id: str, text_lang: str, variant: int, where: Where) -> str:
        spans: list[_Span] = []

        def free(start: int, end: int) -> bool:
            return all(end <= s.start or start >= s.end for s in spans)

        for link in self.links.get((unit_id, text_lang, variant), ()):
            spans.append(_Span(link.reference.start, link.reference.end, self.reference_html(link)))
        card_matches, term_matches = self.found_in(text, text_lang)
        seen_cards: set[str] = set()
        for start, end, card_id in card_matches:
            if card_id == where.card or card_id in seen_cards or not free(start, end):
                continue
            seen_cards.add(card_id)
            spans.append(_Span(start, end, f'<a class="rulekb-card" href="{escape(self._href(self.card_pages.page(card_id), card_id))}">'
                                           f'{escape(text[start:end])}</a>'))
        if self.termbase is not None:
            seen_rules: set[str] = set()
            kb = self.linked.kb
            for match in term_matches:   # of `linked_concepts` only: a rule of the knowledge base each
                rule_id = self._concept_rules[match.concept_id]
                if rule_id == where.rule or rule_id in seen_rules or not free(match.start, match.end):
                    continue
                seen_rules.add(rule_id)
                title = f"{kb.rule(rule_id).number} {_TITLE.format(rule_id)}"
                spans.append(_Span(match.start, match.end,
                                   f'<a class="rulekb-term" href="{escape(self._href(paths.rule_page(rule_id)))}" '
                                   f'title="{escape(title)}">{escape(text[match.start:match.end])}</a>'))
        out: list[str] = []
        pos = 0
        for span in sorted(spans, key=lambda s: s.start):
            out.append(escape(text[pos:span.start]))
            out.append(span.html)
            pos = span.end
        out.append(escape(text[pos:]))
        return "".join(out).replace("\n", "<br>")


class Localised:
    """The texts of `Inline` for one site language: its tooltip slots filled in."""

    def __init__(self, inline: Inline, ui: UI, titles: Mapping[str, str]):
        self.inline = inline
        self.words = {"M": escape(ui._("not in this knowledge base"))}
        self.words.update({f"T:{rule_id}": escape(title) for rule_id, title in titles.items()})
        self._cache: dict[tuple, Markup] = {}

    def _filled(self, raw: str) -> str:
        """`raw` with its slots filled: split at the slots (text, slot name, text, …), each slot
        name replaced by its words, joined (no call back per slot, as a `re.sub` would make)."""
        parts = _SLOT.split(raw)
        words = self.words
        parts[1::2] = [words.get(name, "") for name in parts[1::2]]
        return "".join(parts)

    def html(self, text: str, unit_id: str, text_lang: str, variant: int, where: Where) -> Markup:
        key = (unit_id, text_lang, variant, where.rule, where.card, text)
        found = self._cache.get(key)
        if found is None:
            raw = self.inline.html(text, unit_id, text_lang, variant, where)
            found = self._cache[key] = Markup(self._filled(raw) if "\x00" in raw else raw)
        return found


def link_index(linked: LinkedKB) -> dict[tuple[str, str, int], tuple[Link, ...]]:
    """The links of every text, grouped once (LinkedKB.links_of scans all links per call)."""
    grouped: dict[tuple[str, str, int], list[Link]] = {}
    for link in linked.links:
        grouped.setdefault((link.unit, link.lang, link.variant), []).append(link)
    return {key: tuple(value) for key, value in grouped.items()}
