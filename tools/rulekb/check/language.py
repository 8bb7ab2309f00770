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
The sentences of every text of a run go to the model in one batch (`_judge_all`), which loads in
the process that runs the check (see `rulekb.langid`); its verdicts are the run's shared data
`VERDICTS`, which `terminology.untranslated` reads too.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from .. import langid
from ..models import M_, SOURCE_LANGUAGE, Number, Severity, Status
from .base import VERDICTS, Check, Context, Issue, Text

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


def _candidates(ctx: Context, t: Text) -> list[tuple[int, int, str]]:
    """(start, end, words) of the sentences of a text that the pre-screen leaves to the model."""
    out = []
    for start, end, chunk in sentences(_masked(t.text, ctx.refs(t))):
        if len(chunk) < _MIN_CHARS:
            continue
        words = _WORD.findall(chunk)
        if len(words) >= MIN_WORDS and not plainly_in(words, t.lang):
            out.append((start, end, " ".join(words)))
    return out


def _foreign(t: Text, candidates: Sequence[tuple[int, int, str]],
             verdicts: Sequence[tuple[str, float]]) -> tuple[tuple[int, int, str, float], ...]:
    return tuple((start, end, lang, float(prob)) for (start, end, _words), (lang, prob) in zip(candidates, verdicts)
                 if lang != t.lang and prob >= MIN_PROBABILITY)


def _key(t: Text) -> tuple[str, ...]:
    return ("language", t.unit.id, t.lang, str(t.index))


def established(t: Text) -> bool:
    """Whether the text's language is established by its source: an official English text (a rules
    release, the Oracle text, a ruling as published) is English by definition, and is kept
    verbatim besides (a finding on it could only say that nothing is to be changed). Such texts are
    not judged: with the complete rules they are 524 of the 529 sentences the pre-screen leaves."""
    return t.lang == SOURCE_LANGUAGE and t.variant.status is Status.OFFICIAL


def _verdicts_memo(ctx: Context):  # type: ignore[no-untyped-def]
    """The verdicts kept between runs (`rulekb.check.memo`), for the project's languages and this
    model (py3langid's version)."""
    return ctx.memo("language", repr(ctx.languages), langid.model_version())


def _judge_all(ctx: Context) -> None:
    """Judge the sentences of every canonical text of the run whose language is not established
    (`established`) in one batch; the verdicts of a text judged by an earlier run are kept
    (`rulekb.check.memo`), and the model does not load when there are none to make."""
    memo = _verdicts_memo(ctx)
    batch = []
    for t in ctx.texts():
        if _key(t) in ctx.cache or established(t):
            continue
        kept = memo.peek(ctx.text_key(t))
        if kept is not None:
            ctx.cache[_key(t)] = kept
        else:
            batch.append((t, _candidates(ctx, t)))
    texts = [words for _t, candidates in batch for *_span, words in candidates]
    verdicts = iter(langid.classify(ctx.languages, texts))
    for t, candidates in batch:
        found = _foreign(t, candidates, [next(verdicts) for _ in candidates])
        ctx.cache[_key(t)] = found
        memo.put(ctx.text_key(t), found)


def judged(ctx: Context, t: Text) -> tuple[tuple[int, int, str, float], ...]:
    """(start, end, language, probability) of the sentences of a text that are in another language
    (none in a text whose language is `established`)."""
    if established(t):
        return ()
    key = _key(t)
    found = ctx.cache.get(key)
    if found is None and ("language", "all") not in ctx.cache:
        ctx.cache[("language", "all")] = True
        _judge_all(ctx)
        found = ctx.cache.get(key)
    if found is None:  # not a canonical text of the run (a variant)
        def judge() -> tuple[tuple[int, int, str, float], ...]:
            candidates = _candidates(ctx, t)
            return _foreign(t, candidates, langid.classify(ctx.languages, [words for *_span, words in candidates]))
        found = _verdicts_memo(ctx).get(ctx.text_key(t), judge)
        ctx.cache[key] = found
    return found  # type: ignore[return-value]


def foreign_spans(ctx: Context, t: Text) -> tuple[tuple[int, int], ...]:
    return tuple((s, e) for s, e, _lang, _p in judged(ctx, t))


def wrong_language(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        for start, end, lang, prob in judged(ctx, t):
            sentence = t.text[start:end]
            yield Issue.at(t, M_("{label}: a sentence of the text in {lang} is in {other} (confidence {prob}): "
                                 "“{sentence}”", label=t.label, lang=ctx.lang(t.lang), other=ctx.lang(lang),
                                 prob=Number(prob, 2), sentence=sentence),
                           M_("translate the sentence into {lang}", lang=ctx.lang(t.lang)), span=(start, end))


CHECKS = (
    Check("language.wrong-language", "a sentence in another language than its text", Severity.ERROR, wrong_language, cost=21, needs=(VERDICTS,), by_file=True),
)
