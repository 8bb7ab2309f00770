"""Check family `duplicates` (stage: check): texts that repeat one another.

`duplicates.near-duplicate`: two different units whose texts in one language are nearly the same
(similarity >= `THRESHOLD`, difflib's ratio over the normalised texts) while their English texts
are clearly less alike — a text pasted into the wrong unit. The official rules repeat templates
("… is a static ability …"), so similar official English texts are not reported; English texts of
other statuses (community notes, summaries) are compared with each other. Candidate pairs come
from an index of word trigrams (bucketed per language, common trigrams ignored), so the cost
stays near linear in the number of texts. Variants of one unit are the `sources` family's business. `duplicates.same-as-english`:
a translation that is the English text itself.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterator

import cydifflib

from ..models import M_, SOURCE_LANGUAGE, Percent, Severity, Status, normalise
from .base import Check, Context, Issue, UnitText
from .text import Data, Flag, Text, TextCheck, flag

THRESHOLD = 0.9
MIN_CHARS = 40
COMMON = 40          # a trigram found in more texts than this says nothing about duplication
MIN_SHARED = 0.5     # share of the smaller text's trigrams two candidates must have in common
MARGIN = 0.05        # how much more alike two translations must be than their English texts


def _trigrams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def similarity(a: str, b: str) -> float:
    return cydifflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _english_similarity(a: UnitText, b: UnitText) -> float | None:
    ea, eb = a.english, b.english
    if ea is None or eb is None:
        return None
    return similarity(normalise(ea.text).casefold(), normalise(eb.text).casefold())


def near_duplicate(ctx: Context) -> Iterator[Issue]:
    for lang in ctx.languages:
        texts: list[tuple[UnitText, str, set]] = []
        for t in ctx.texts([lang]):
            if lang == SOURCE_LANGUAGE and t.variant.status is Status.OFFICIAL:
                continue
            norm = normalise(t.text).casefold()
            if len(norm) >= MIN_CHARS:
                texts.append((t, norm, _trigrams(norm.split())))
        index: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for i, (_t, _n, grams) in enumerate(texts):
            for g in grams:
                index[g].append(i)
        shared: Counter[tuple[int, int]] = Counter()
        for members in index.values():
            if len(members) > COMMON:
                continue
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    shared[(members[x], members[y])] += 1
        for (i, j), n in sorted(shared.items()):
            (a, na, ga), (b, nb, gb) = texts[i], texts[j]
            if a.unit.id == b.unit.id or n < MIN_SHARED * min(len(ga), len(gb)):
                continue
            matcher = cydifflib.SequenceMatcher(None, na, nb, autojunk=False)
            if matcher.real_quick_ratio() < THRESHOLD or matcher.quick_ratio() < THRESHOLD:
                continue
            ratio = matcher.ratio()
            if ratio < THRESHOLD:
                continue
            english = None if lang == SOURCE_LANGUAGE else _english_similarity(a, b)
            if english is not None and english >= ratio - MARGIN:
                continue  # the English texts are as alike: the translation follows them
            same = M_("identical") if na == nb else M_("{ratio} similar", ratio=Percent(ratio))
            why = (M_(" while their English texts are only {ratio} similar", ratio=Percent(english))
                   if english is not None else "")
            yield Issue.at(b, M_("{label} and {other} have {same} texts in {lang}{why}: “{excerpt}…” ({where})",
                                 label=b.label, other=a.label, same=same, lang=ctx.lang(lang), why=why,
                                 excerpt=b.text[:100], where=f"{a.variant.pos.file}:{a.variant.pos.line}"),
                           M_("check that {label} holds its own text and not a copy of {other}", label=b.label,
                              other=a.label))


def same_as_english(t: Text, data: Data) -> Iterator[Flag]:
    if t.is_translation and t.english is not None:
        if len(t.text.split()) >= 3 and normalise(t.text) == normalise(t.english):
            yield flag(M_("{label}: the text in {lang} is the English text, untranslated: “{excerpt}”",
                       label=t.label, lang=data.lang(t.lang),
                       excerpt=t.text[:100] + ("…" if len(t.text) > 100 else "")),
                    M_("translate it into {lang} (a published text is kept: add the translation as the "
                       "canonical text, the other stays as a variant)", lang=data.lang(t.lang)))


CHECKS = (
    Check("duplicates.near-duplicate", "two units with (nearly) the same text in one language", Severity.WARNING, near_duplicate),
    TextCheck("duplicates.same-as-english", "a translation that is the English text", Severity.ERROR, same_as_english),
)
