"""Check family `structure` (stage: check): does a translation have the shape of the English?

Across units: a language that has a text where the English has none (`structure.extra-unit`, e.g.
a ruling known only in German; a rule translated in part is `coverage.partial`). Within a unit: a
negation of the English missing in the translation (`structure.negation`: "can't" read as "can"
turns a rule around), a different number of quoted or parenthesised passages than the English,
or a length so far from the English that content was probably added or left out.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..models import M_, MN_, SOURCE_LANGUAGE, Number, Severity
from .base import Check, Context, Issue, quote
from .text import Data, Flag, Text, TextCheck, flag

# A translation's length in characters, relative to the English. German and French run
# longer than English; outside these bounds a sentence was most likely added or dropped.
MIN_RATIO = 0.6
MAX_RATIO = 1.8
MIN_LENGTH = 60  # shorter texts (titles, short notes) vary too much to judge

_QUOTE_CHARS = re.compile('["„“”«»]')
_PAREN = re.compile(r"\(([^()]*)\)")


def extra_unit(ctx: Context) -> Iterator[Issue]:
    for unit in ctx.units:
        if unit.text(SOURCE_LANGUAGE) is not None:
            continue
        for lang in ctx.targets:
            variant = unit.text(lang)
            if variant is None:
                continue
            yield Issue(lang, unit.id, variant.pos.file, variant.pos.line,
                        M_("{label} has a text in {lang} but none in English, so it cannot be checked against its "
                           "original (“{excerpt}”)", label=unit.label, lang=ctx.lang(lang),
                           excerpt=quote(variant.text, 0, 60, 0)),
                        M_("add the English original with its source (for a card's ruling: MTGJSON's rulings); "
                           "the text stays as it is"))


# Negations, as whole words (lowercase; "n't" and French "n'" are matched apart).
NEGATIONS: dict[str, frozenset[str]] = {
    "en": frozenset("not no never none nothing neither nor cannot nobody".split()),
    "de": frozenset("nicht kein keine keinen keinem keiner keines nie niemals nichts weder niemand".split()),
    "fr": frozenset("ne pas jamais aucun aucune rien ni personne".split()),
}
_NEG_WORD = re.compile(r"[^\W\d_]+?(?:n't|n’t)(?![^\W\d_])|\bn['’]|[^\W\d_]+", re.IGNORECASE)


def negations(text: str, lang: str) -> int:
    """How many negations a text has (English "can't" counts once; French "ne … pas" once)."""
    words = NEGATIONS.get(lang)
    if not words:
        return -1
    count = 0
    for m in _NEG_WORD.finditer(text):
        w = m.group().casefold()
        if w.endswith(("n't", "n’t")) or (lang == "fr" and w in ("n'", "n’", "ne")):
            count += 1
        elif w in words and not (lang == "fr" and w in ("pas", "jamais", "rien", "personne", "aucun", "aucune")
                                 and _after_ne(text, m.start())):
            count += 1
    return count


def _after_ne(text: str, pos: int) -> bool:
    """Whether a French "pas"/"jamais"/… completes a "ne"/"n'" shortly before it (counted there)."""
    before = text[max(0, pos - 40):pos].casefold()
    return bool(re.search(r"(?:\bne\b|\bn['’])[^.;:!?]*$", before))


def negation(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.source is None:
        return
    en, tr = negations(t.source, SOURCE_LANGUAGE), negations(t.text, t.lang)
    if tr < 0 or en == 0 or tr > 0:
        return
    m = next(m for m in _NEG_WORD.finditer(t.source)
             if m.group().casefold().endswith(("n't", "n’t")) or m.group().casefold() in NEGATIONS[SOURCE_LANGUAGE])
    yield flag(M_("{label}: the English says “{english}”, a negation; the text in {lang} has none: "
                         "it may say the opposite", label=t.label, lang=data.lang(t.lang),
                         english=quote(t.source, m.start(), m.end())),
                   M_("compare it with the English and write the negation (it is a change of meaning)"))


def _quoted(text: str) -> int:
    return len(_QUOTE_CHARS.findall(text)) // 2


def quotations(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.english is None:
        return
    n_en, n_tr = _quoted(t.english), _quoted(t.text)
    if n_en != n_tr:
        yield flag(MN_("{label}: the English has {en} quoted passage, the text in {lang} {tr}",
                              "{label}: the English has {en} quoted passages, the text in {lang} {tr}", "en",
                              label=t.label, en=n_en, tr=n_tr, lang=data.lang(t.lang)),
                       M_("quote what the English quotes (ability texts, keywords), no more and no less"))


def parentheses(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.english is None:
        return
    en, tr = _PAREN.findall(t.english), _PAREN.findall(t.text)
    if len(en) == len(tr):
        return
    if len(tr) > len(en):
        yield flag(MN_("{label}: the text in {lang} has {tr} parenthesised passage, the English {en}; "
                              "e.g. “({extra})” is not in the English",
                              "{label}: the text in {lang} has {tr} parenthesised passages, the English {en}; "
                              "e.g. “({extra})” is not in the English", "tr", label=t.label, lang=data.lang(t.lang),
                             tr=len(tr), en=len(en), extra=tr[-1]),
                       M_("compare it with the English: say what the English says, no more"))
    else:
        yield flag(MN_("{label}: the text in {lang} has {tr} parenthesised passage, the English {en}: "
                              "“({missing})” seems untranslated",
                              "{label}: the text in {lang} has {tr} parenthesised passages, the English {en}: "
                              "“({missing})” seems untranslated", "tr", label=t.label, lang=data.lang(t.lang),
                             tr=len(tr), en=len(en), missing=en[-1]),
                       M_("translate the English parenthesis too"))


def length(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.english is None:
        return
    english = t.english
    if len(english) < MIN_LENGTH:
        return
    ratio = len(t.text) / len(english)
    if MIN_RATIO <= ratio <= MAX_RATIO:
        return
    if ratio > 1:
        msg = M_("{label}: the text in {lang} is {ratio} times as long as the English ({tr} vs {en} characters), "
                 "much longer than a translation usually is; English: “{english}”", label=t.label,
                 lang=data.lang(t.lang), ratio=Number(ratio, 1), tr=Number(len(t.text)), en=Number(len(english)),
                 english=english)
        fix = M_("compare it sentence by sentence with the English: say what the English says, no more")
    else:
        msg = M_("{label}: the text in {lang} is {ratio} times as long as the English ({tr} vs {en} characters), "
                 "much shorter than a translation usually is; English: “{english}”", label=t.label,
                 lang=data.lang(t.lang), ratio=Number(ratio, 1), tr=Number(len(t.text)), en=Number(len(english)),
                 english=english)
        fix = M_("compare it sentence by sentence with the English: translate what is missing")
    yield flag(msg, fix)


CHECKS = (
    Check("structure.extra-unit", "a text exists in a language but not in English", Severity.WARNING, extra_unit,
          edits_text=False),
    TextCheck("structure.negation", "the English has a negation the translation lacks", Severity.ERROR, negation),
    TextCheck("structure.quotations", "a different number of quoted passages than the English", Severity.WARNING, quotations),
    TextCheck("structure.parentheses", "a different number of parenthesised passages than the English", Severity.WARNING, parentheses),
    TextCheck("structure.length", "a translation far longer or shorter than the English", Severity.WARNING, length),
)
