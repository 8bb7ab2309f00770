"""Sentences, for the checks that compare a translation with its English sentence by sentence
(stage: check; read by `meaning`, `qualifiers` and `meaningpairs`): where a text's sentences are
(`sentences`), how an English text and its translation pair up (`aligned`), what a comparison found
(`Change`), and the sentences as compared (`unparenthesised`: a reminder text one side lacks is
blanked).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Span = tuple[int, int]

# A sentence ends at . ! ? (with the closing quotes or parenthesis after it) before a capital, an
# opening quote or parenthesis; or at a line break (the abilities of a card's text). Quotes as
# French and German print them count, with the spaces French sets inside them (a space, a no-break
# or a narrow no-break space): « … » (the full stop inside or outside), German » … « and „ … “.
_END = re.compile(r"[.!?](?:[ \u00a0\u202f]?[»“”\"’)]|«)*"
                  r"(?=[ \u00a0\u202f]+(?:[„“\"«»(‚‘][ \u00a0\u202f]?)*[A-ZÀ-ÖØ-Þ])|\n+")
_ABBREVIATION = re.compile(r"(?:(?<![\w.])[A-Za-z]|\b(?:etc|usw|bzw|ca|vgl|Nr|ex|resp|cf|vs))\.$")


def sentences(text: str) -> tuple[Span, ...]:
    """The spans of a text's sentences ("z. B." or "e.g." end none)."""
    out: list[Span] = []
    start = 0
    for m in _END.finditer(text):
        if m.group()[0] == "." and _ABBREVIATION.search(text, max(0, m.start() - 6), m.start() + 1):
            continue
        if text[start:m.end()].strip():
            out.append((start, m.end()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return tuple(out)


def aligned(english: str, text: str) -> tuple[tuple[Span, Span], ...]:
    """The English and its translation as pairs of sentences when both have as many, else as
    one pair of whole texts."""
    en, tr = sentences(english), sentences(text)
    if len(en) == len(tr) and len(en) > 1:
        return tuple(zip(en, tr))
    return (((0, len(english)), (0, len(text))),)


def around(text: str, pos: int) -> Span:
    """The span of the sentence of `text` that holds `pos`."""
    return next(((a, b) for a, b in sentences(text) if a <= pos < b), (0, len(text)))


@dataclass(frozen=True)
class Change:
    """What a comparison found: `span` in the translation (None: what is missing has no place),
    `said` what the translation says there, `expected` what the English says, `sentence` the span
    of the English sentence it is about, `where` that of the translation's sentence."""
    span: Span | None
    said: str
    expected: tuple[str, ...]
    sentence: Span
    where: Span
    english: tuple[Span, ...] = ()     # the English words it is about, when known (`text.Flag.english`)


_PARENTHESIS = re.compile(r"\([^()]*\)")


def unparenthesised(english: str, text: str) -> tuple[str, str]:
    """The sentences as compared: a parenthesis (a reminder text) one side has and the other has not
    is blanked (the missing one is `structure.parentheses`' finding)."""
    if "(" in english and "(" not in text:
        english = _PARENTHESIS.sub(lambda m: " " * len(m.group()), english)
    elif "(" in text and "(" not in english:
        text = _PARENTHESIS.sub(lambda m: " " * len(m.group()), text)
    return english, text
