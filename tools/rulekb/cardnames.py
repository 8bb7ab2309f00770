"""Card names in running text (beside the pipeline: read by the checks and by the PO export's
notes): where a text names a card whose name holds a game term ("Path to Exile", "Sylvan
Library", "Play with Fire"). A term inside a card's name is the name, printed as the card prints
it: neither an old term nor a capital against the rule. The names are the knowledge base's cards'
(rules/cards/), in each language they are printed in — never a list of this module's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .models import Card

Span = tuple[int, int]

_WORD = re.compile(r"[^\W_][\w'’-]*")


@dataclass(frozen=True)
class CardNames:
    """The names of several words of some cards, by language and first word (casefolded), the
    longest first. A name of one word ("Exile", "Library") is left out: it is the word itself far
    more often than the card."""
    by_first: Mapping[str, Mapping[str, tuple[str, ...]]]

    @classmethod
    def of(cls, cards: Iterable[Card], langs: Iterable[str] | None = None) -> CardNames:
        """The names of `cards` (in `langs`; None: every language)."""
        wanted = None if langs is None else frozenset(langs)
        found: dict[str, dict[str, list[str]]] = {}
        for card in cards:
            for lang, name in card.names.items():
                if " " not in name or (wanted is not None and lang not in wanted):
                    continue
                first = name.split(" ", 1)[0].rstrip(",.:;!?")
                if first:
                    found.setdefault(lang, {}).setdefault(first.casefold(), []).append(name)
        return cls({lang: {first: tuple(sorted(set(names), key=lambda n: (-len(n), n))) for first, names in by.items()}
                    for lang, by in found.items()})

    def spans(self, text: str, lang: str) -> tuple[Span, ...]:
        """Where `text` names a card in `lang` (as the card prints it, capitals included)."""
        by_first = self.by_first.get(lang)
        if not by_first:
            return ()
        out: list[Span] = []
        end = 0
        for m in _WORD.finditer(text):
            if m.start() < end:
                continue
            for name in by_first.get(m.group().casefold(), ()):
                stop = m.start() + len(name)
                if text.startswith(name, m.start()) and not text[stop:stop + 1].isalnum():
                    out.append((m.start(), stop))
                    end = stop
                    break
        return tuple(out)


def inside(spans: Iterable[Span], start: int, end: int) -> bool:
    """Whether text[start:end] lies within one of `spans`."""
    return any(a <= start and end <= b for a, b in spans)
