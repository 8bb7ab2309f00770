"""Check family `sources` (stage: check): several texts of one unit in one language.

A unit may hold several variants per language (two published translations of one ruling, the
English of each rules release). History is not disagreement: English versions of different
releases of a rule are its history (the versions section shows them). Only texts that claim to
be the same can disagree:

- `sources.disagree`: two translations of one unit in one language that differ, with their
  similarity and what differs (the terms they render differently are the terminology checks'
  findings, not repeated here);
- `sources.english-variant`: two English texts of the same rules release (but where the release
  itself prints the number twice, as the rules of 2009-10-01 print two 702.30d: nothing to act on),
  or an English text of another kind of source (a seed, a community copy) that matches none of the
  official releases' versions though it is close to one: a copy that altered the official text.

The similarity is difflib's ratio, computed by cydifflib (the same algorithm compiled, the same
numbers).
"""

from __future__ import annotations

from typing import Iterator

import cydifflib

from ..models import M_, SOURCE_LANGUAGE, Percent, Severity, Status, normalise
from .base import Check, Context, Issue, UnitText
from .staleness import changes

SAME = 0.995  # variants this similar (after normalising typography) do not disagree


def _variants(ctx: Context, langs) -> Iterator[tuple[UnitText, UnitText, float]]:
    by_unit: dict[tuple[str, str], list[UnitText]] = {}
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


def _describe(t: UnitText) -> str:
    return f"{t.variant.source}, {t.variant.pos.file}:{t.variant.pos.line}"


def disagree(ctx: Context) -> Iterator[Issue]:
    for canonical, other, ratio in _variants(ctx, ctx.targets):
        yield Issue.at(canonical, M_("{label} has two texts in {lang} that differ ({ratio} similar): the canonical "
                                     "[{first}] and [{second}]; from the other to the canonical: {changes}",
                                     label=canonical.label, lang=ctx.lang(canonical.lang), ratio=Percent(ratio),
                                     first=_describe(canonical), second=_describe(other),
                                     changes=changes(other.text, canonical.text)),
                       M_("compare both with the English and make the better one canonical; both stay, each with its "
                          "source (a note on the other says why)"))


MIN_SIMILAR = 0.8   # an English text of another source this close to an official version is a copy of it


def _kind(ctx: Context, source: str) -> str:
    found = ctx.kb.sources.get(source)
    return found.kind if found is not None else ""


def _printed_twice(ctx: Context, a: UnitText, b: UnitText) -> bool:
    """Whether two English texts that share a release are both that release's official print."""
    return (a.variant.status is Status.OFFICIAL and b.variant.status is Status.OFFICIAL
            and _kind(ctx, a.variant.source) == _kind(ctx, b.variant.source))


def english_variant(ctx: Context) -> Iterator[Issue]:
    for unit in ctx.units:
        variants = unit.variants.get(SOURCE_LANGUAGE, ())
        if len(variants) < 2 or ctx.is_history(unit):
            continue
        rule, ruling = ctx.owner(unit)
        texts = [UnitText(unit, SOURCE_LANGUAGE, i, v, rule, ruling, v.releases[-1] if v.releases else None)
                 for i, v in enumerate(variants)]
        released = [t for t in texts if t.variant.releases]
        normal: dict[int, str] = {}   # normalised when compared (a rule's versions seldom share a release)

        def normalised(t: UnitText) -> str:
            found = normal.get(t.index)
            if found is None:
                found = normal[t.index] = normalise(t.text)
            return found
        # two texts of one release: the pairs that share one (the texts of each release, not every pair)
        in_release: dict[str, list[UnitText]] = {}
        for t in released:
            for release in t.variant.releases:
                in_release.setdefault(release, []).append(t)
        shared = sorted({(a.index, b.index) for same in in_release.values() if len(same) > 1
                         for i, a in enumerate(same) for b in same[i + 1:]})
        for i, j in shared:
            a, b = texts[i], texts[j]
            both = sorted(set(a.variant.releases) & set(b.variant.releases))
            if normalised(a) != normalised(b) and _printed_twice(ctx, a, b):
                # both official texts of one kind of source, imported from the release itself: the release
                # prints the number twice (the rules of 2009-10-01 print two 702.30d); the knowledge base
                # keeps both as the release prints them, and nobody has anything to change
                continue
            if normalised(a) != normalised(b):
                yield Issue.at(a, M_("{label} has two English texts in the rules release of {release}: "
                                     "[{first}] and [{second}]; from one to the other: {changes}",
                                     label=unit.label, release=both[-1], first=_describe(a),
                                     second=_describe(b), changes=changes(b.text, a.text)),
                               M_("check which one the release prints for this number; the import keeps both"))
        # a text of another kind of source against the official versions
        kinds = {_kind(ctx, t.variant.source) for t in released}
        for t in texts:
            if t.variant.releases or _kind(ctx, t.variant.source) in kinds or not released:
                continue
            if any(normalised(t) == normalised(r) for r in released):
                continue  # a faithful copy of one version
            best, ratio = max(((r, cydifflib.SequenceMatcher(None, normalised(t), normalised(r),
                                                            autojunk=False).ratio()) for r in released),
                              key=lambda pair: pair[1])
            if ratio < MIN_SIMILAR:
                continue
            yield Issue.at(t, M_("{label}: the English of [{source}] is a version of the official text of {release} "
                                 "({ratio} similar) that differs from it: {changes}", label=unit.label,
                                 source=_describe(t), release=best.variant.releases[-1], ratio=Percent(ratio),
                                 changes=changes(best.text, t.text)),
                           M_("check the copy against the official release; translations made from it may need "
                              "the same correction"))


CHECKS = (
    Check("sources.disagree", "two texts of one unit in one language disagree", Severity.WARNING, disagree),
    Check("sources.english-variant", "English texts of one release, or a copy of the official text, that differ",
          Severity.WARNING, english_variant),
)
