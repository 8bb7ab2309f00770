"""Check family `language` (stage: check): a sentence in the wrong language inside a text.

Identification uses py3langid (an offline n-gram model) restricted to the knowledge base's
languages, and only on sentences long enough to judge (`MIN_WORDS` words, rule numbers and
blanked out); a parenthesised passage counts as a sentence of its own, so that "(Note that
some effects target a creature, …)" inside a German ruling is judged by itself.

Speed: py3langid walks every byte in Python, too slow for every sentence of the whole rules. Texts
whose language their source establishes (official English: the rules, the Oracle, the rulings) are
not judged at all (`established`). A pre-screen skips the sentences that plainly are in their
text's language — those with more distinct common function words (`FUNCTION_WORDS`) of that
language than of any other; every other sentence goes to py3langid, which alone decides. Adding a
language is one entry in `FUNCTION_WORDS` (without one, every sentence of that language is judged).
The model loads on the first sentence the pre-screen leaves to it (see `rulekb.langid`); its
verdicts on a text are made once per run (`Data.derived`), and `terminology.untranslated` reads them too.
"""

from __future__ import annotations

import re
from typing import Iterator

from .. import langid
from ..models import M_, SOURCE_LANGUAGE, Number, Severity, Status
from .text import Data, Flag, Text, TextCheck, flag

MIN_WORDS = 6
MIN_PROBABILITY = 0.95  # of the other language, normalised over the knowledge base's languages

# The most common function words of each language, lowercase; a pre-screen only (see above).
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the of and to is that it you your this with for its are be by as from if or "
                    "can may would was not any each their they".split()),
    "de": frozenset("der die das und ist nicht du deine deiner deinen dein mit den dem des eine ein einer "
                    "einen zu von sie auf wird werden kann falls wenn oder sich".split()),
    "fr": frozenset("le la les et est une un des du vous votre vos qui que pas sur dans ce cette il elle "
                    "peut si ou au aux son sa ses".split()),
}

_ALL_FUNCTION_WORDS = frozenset().union(*FUNCTION_WORDS.values())
_WORD = re.compile(r"[^\W\d_]{2,}")
_MIN_CHARS = MIN_WORDS * 3 - 1  # MIN_WORDS words of two letters and more, apart: no shorter sentence has them
_PAREN = re.compile(r"\([^()]+\)")
# A sentence boundary: the end mark, then a closing quote and space before the next sentence;
# the boundary (the gap between the sentences) starts after the mark. (The mark is matched, not
# looked behind for: the regex engine then jumps from mark to mark instead of trying every position.)
_BOUNDARY = re.compile(r"[.!?…][\"“”»]?\s+(?=[\"„“«(\[]?[^\W\d_])")


def sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, words) of the sentences of a text, in text order. Each parenthesised passage
    is a sentence of its own, and is masked out of the sentence around it."""
    if "(" in text:
        out = [(m.start(), m.end(), m.group()) for m in _PAREN.finditer(text)]
        masked = _PAREN.sub(lambda m: " " * len(m.group()), text)
    else:
        out, masked = [], text
    start = 0
    pieces = []
    for m in _BOUNDARY.finditer(masked):
        pieces.append((start, m.start() + 1))
        start = m.end()
    pieces.append((start, len(masked)))
    for s, e in pieces:
        chunk = masked[s:e]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            end = s + len(chunk.rstrip())
            out.append((s + lead, end, masked[s + lead:end]))
    return sorted(out)


def plainly_in(words: list[str], lang: str) -> bool:
    """Whether a sentence has more distinct function words of `lang` than of any other language."""
    own = FUNCTION_WORDS.get(lang)
    if not own:
        return False
    present = _ALL_FUNCTION_WORDS.intersection(map(str.casefold, words))  # the function words among them
    mine = len(present & own)
    if mine < 2:
        return False
    for code, other in FUNCTION_WORDS.items():
        if code != lang and len(present & other) >= mine:
            return False
    return True


def _masked(text: str, refs) -> str:
    """The text with its rule references blanked out (same length, so offsets hold)."""
    for ref in refs:
        text = text[: ref.start] + " " * (ref.end - ref.start) + text[ref.end :]
    return text


def _candidates(text: str, lang: str, data: Data) -> list[tuple[int, int, str]]:
    """(start, end, words) of the sentences of a text that the pre-screen leaves to the model."""
    out = []
    for start, end, chunk in sentences(_masked(text, data.refs(text))):
        if len(chunk) < _MIN_CHARS:
            continue
        words = _WORD.findall(chunk)
        if len(words) >= MIN_WORDS and not plainly_in(words, lang):
            out.append((start, end, " ".join(words)))
    return out


def _judge(text: str, lang: str, data: Data) -> tuple[tuple[int, int, str, float], ...]:
    candidates = _candidates(text, lang, data)
    if not candidates:
        return ()   # the model is not even loaded
    verdicts = langid.classify(data.languages, [words for *_span, words in candidates])
    return tuple((start, end, found, float(prob)) for (start, end, _words), (found, prob) in zip(candidates, verdicts)
                 if found != lang and prob >= MIN_PROBABILITY)


def established(t: Text) -> bool:
    """Whether the text's language is established by its source: an official English text (a rules
    release, the Oracle text, a ruling as published) is English by definition, and is kept
    verbatim besides (a finding on it could only say that nothing is to be changed). Such texts are
    not judged: with the complete rules they are 524 of the 529 sentences the pre-screen leaves."""
    return t.lang == SOURCE_LANGUAGE and t.status is Status.OFFICIAL


def judged(t: Text, data: Data) -> tuple[tuple[int, int, str, float], ...]:
    """(start, end, language, probability) of the sentences of a text that are in another language
    (none in a text whose language is `established`); made once per run and text."""
    if established(t):
        return ()
    return data.derived("language", (t.lang, t.text), lambda: _judge(t.text, t.lang, data))


def foreign_spans(t: Text, data: Data) -> tuple[tuple[int, int], ...]:
    return tuple((s, e) for s, e, _lang, _p in judged(t, data))


def wrong_language(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    for start, end, lang, prob in judged(t, data):
        sentence = t.text[start:end]
        yield flag(M_("{label}: a sentence of the text in {lang} is in {other} (confidence {prob}): "
                      "“{sentence}”", label=t.label, lang=data.lang(t.lang), other=data.lang(lang),
                      prob=Number(prob, 2), sentence=sentence),
                   M_("translate the sentence into {lang}", lang=data.lang(t.lang)), span=(start, end))


CHECKS = (
    TextCheck("language.wrong-language", "a sentence in another language than its text", Severity.ERROR, wrong_language),
)
