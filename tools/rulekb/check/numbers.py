"""Check family `numbers` (stage: check): numbers and symbols a translation must keep.

Compares the English and a translation, outside their rule references (the `references` family
checks those): numbers ("2 cards"), power/toughness and counter values ("+1/+1"), variables
(N, X), mana and other symbols ({X}, {T}, {0}) and bracketed placeholders ("[cost]", whose
content is translated, so only their count is compared).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterator

from ..models import M_, Severity
from ..refs import find_references
from .text import Data, Flag, Text, TextCheck, flag

_TOKEN = re.compile(
    r"(?P<symbol>\{[^{}\s]{1,6}\})"
    r"|(?P<pt>(?<![\w/])[+\-−]?(?:\d+|X|\*)/[+\-−]?(?:\d+|X|\*)(?![\w/]))"
    r"|(?P<placeholder>\[[^\[\]]{1,40}\])"
    r"|(?P<number>(?<![\w.,])\d+(?:[.,]\d+)?(?![\w]))"
    r"|(?P<variable>(?<![\w'’\-])[NXY](?![\w'’\-]))"
)
_KINDS = {"symbol": "symbol", "pt": "value", "number": "number", "variable": "variable", "placeholder": "placeholder"}


def tokens(text: str) -> Counter[str]:
    """The numbers and symbols of a text outside its rule references; placeholders as '[…]'."""
    for ref in reversed(find_references(text)):
        text = text[: ref.start] + " " + text[ref.end :]
    out: Counter[str] = Counter()
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        value = "[…]" if kind == "placeholder" else m.group().replace("−", "-")
        out[f"{_KINDS[kind or 'number']} {value}"] += 1
    return out


def _describe(counter: Counter[str]) -> str:
    return ", ".join(f"{key.split(' ', 1)[1]}" + (f" ×{n}" if n > 1 else "") for key, n in sorted(counter.items()))


def mismatch(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.source is None:
        return
    en, tr = tokens(t.source), tokens(t.text)  # the English it was made from (what changed since: staleness)
    if en == tr:
        return
    lacking, extra = en - tr, tr - en
    if lacking and extra:
        what = M_("lacks {lacking} and has {extra} that the English has not", lacking=_describe(lacking),
                  extra=_describe(extra))
    elif lacking:
        what = M_("lacks {lacking}", lacking=_describe(lacking))
    else:
        what = M_("has {extra} that the English has not", extra=_describe(extra))
    yield flag(M_("{label}: the text in {lang} {what} (English: {english})", label=t.label,
                         lang=data.lang(t.lang), what=what,
                         english=_describe(en) or M_("no numbers or symbols")),
                   M_("keep every number, variable, symbol and +1/+1 value of the English exactly as written"))


CHECKS = (
    TextCheck("numbers.mismatch", "numbers, variables, symbols or +1/+1 values differ from the English", Severity.ERROR, mismatch),
)
