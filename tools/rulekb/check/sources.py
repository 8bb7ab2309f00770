"""Check family `sources` (stage: check): several texts of one unit in one language.

A unit may hold several variants per language (two published translations of one ruling, an
older English wording quoted by another seed). `sources.disagree` reports translations whose
variants differ, with their similarity and the terms they render differently, so that a
translator settles on one; `sources.english-variant` notes English variants that differ (the
older wording is kept on purpose, for staleness: informational).

The similarity is difflib's ratio, computed by cydifflib (the same algorithm compiled, the same
numbers): with all 110 rules releases a rule keeps up to ~100 English texts, 9,300 pairs of up
to 2,800 letters, and difflib's letter-by-letter matching took 475 s of the 510 s of `rulekb
check`; cydifflib takes 11 s for them.
"""

from __future__ import annotations

from typing import Iterator

import cydifflib

from ..models import SOURCE_LANGUAGE, Severity, normalise
from .base import Check, Context, Issue, Text
from .staleness import changes

SAME = 0.995  # variants this similar (after normalising typography) do not disagree


def _term_differences(ctx: Context, a: Text, b: Text, limit: int = 4) -> list[str]:
    """"'x' vs 'y'" for each concept the two texts render with different terms."""
    def by_concept(t: Text) -> dict[str, str]:
        out: dict[str, str] = {}
        for m in ctx.terms(t):
            out.setdefault(m.concept_id, t.text[m.start:m.end])
        return out
    ta, tb = by_concept(a), by_concept(b)
    diffs = []
    for concept_id in ta.keys() & tb.keys():
        x, y = ta[concept_id], tb[concept_id]
        term_x = next(m.term.text for m in ctx.terms(a) if m.concept_id == concept_id)
        term_y = next(m.term.text for m in ctx.terms(b) if m.concept_id == concept_id)
        if term_x != term_y:
            diffs.append((a.text.find(x), f"'{x}' vs '{y}'"))
    return [d for _pos, d in sorted(diffs)][:limit]


def _variants(ctx: Context, langs) -> Iterator[tuple[Text, Text, float]]:
    by_unit: dict[tuple[str, str], list[Text]] = {}
    for t in ctx.texts(langs, variants=True):
        by_unit.setdefault((t.unit.id, t.lang), []).append(t)
    for texts in by_unit.values():
        canonical = texts[0]
        first = normalise(canonical.text)
        for other in texts[1:]:
            second = normalise(other.text)
            if second == first:   # ratio 1.0, and difflib would still compare every letter with every other
                continue
            ratio = cydifflib.SequenceMatcher(None, first, second, autojunk=False).ratio()
            if ratio < SAME:
                yield canonical, other, ratio


def _describe(t: Text) -> str:
    return f"{t.variant.source}, {'canonical' if t.index == 0 else f'variant {t.index + 1}'}, {t.variant.pos.file}:{t.variant.pos.line}"


def disagree(ctx: Context) -> Iterator[Issue]:
    for canonical, other, ratio in _variants(ctx, ctx.targets):
        name = ctx.language_name(canonical.lang)
        terms = _term_differences(ctx, canonical, other)
        detail = f"; they render terms differently: {', '.join(terms)}" if terms else f"; changes: {changes(other.text, canonical.text)}"
        yield Issue.at(canonical, f"{canonical.label} has {name} texts that disagree ({ratio:.0%} similar): "
                                  f"[{_describe(canonical)}] and [{_describe(other)}]{detail}",
                       "compare both with the English and keep one reviewed text (canonical), or note why both "
                       "are kept; align the terms with the termbase")


def english_variant(ctx: Context) -> Iterator[Issue]:
    for canonical, other, ratio in _variants(ctx, (SOURCE_LANGUAGE,)):
        why = f" ({other.variant.note})" if other.variant.note else ""
        yield Issue.at(canonical, f"{canonical.label} has another English text{why} [{_describe(other)}], "
                                  f"{ratio:.0%} similar to the canonical one [{_describe(canonical)}]; from it to the "
                                  f"canonical: {changes(other.text, canonical.text)}",
                       "nothing to do if the other text is an older wording kept on purpose; otherwise remove it")


CHECKS = (
    Check("sources.disagree", "two texts of one unit in one language disagree", Severity.WARNING, disagree, cost=6),
    Check("sources.english-variant", "a unit keeps several English texts", Severity.INFO, english_variant, cost=85),
)
