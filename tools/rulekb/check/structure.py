"""Check family `structure` (stage: check): does a translation have the shape of the English?

Across units: a language that lacks subrules, notes or a title of a rule it translates
(`structure.missing-unit`), or has a text where the English has none (`structure.extra-unit`,
e.g. a ruling known only in German). Within a unit: a different number of quoted passages or of
parenthesised passages than the English, or a length so far from the English that content was
probably added or left out.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..models import SOURCE_LANGUAGE, Severity, UnitKind, english_hash
from .base import Check, Context, Issue, quote
from .coverage import partly_translated

# A translation's length in characters, relative to the English. German and French run
# longer than English; outside these bounds a sentence was most likely added or dropped.
MIN_RATIO = 0.6
MAX_RATIO = 1.8
MIN_LENGTH = 60  # shorter texts (titles, short notes) vary too much to judge

_QUOTE_CHARS = re.compile('["„“”«»]')
_PAREN = re.compile(r"\(([^()]*)\)")


def missing_unit(ctx: Context) -> Iterator[Issue]:
    for unit in ctx.units:
        english = unit.text(SOURCE_LANGUAGE)
        if english is None:
            continue
        rule, _ = ctx.owner(unit)
        for lang in ctx.targets:
            if lang in unit.variants or not partly_translated(ctx, unit, lang):
                continue
            name = ctx.language_name(lang)
            have = ctx.translated_in(rule, lang)  # type: ignore[arg-type]
            yield Issue.on_unit(unit, lang,
                                f"{unit.label} is missing in {name} although {have} of the {len(rule.units)} texts "  # type: ignore[union-attr]
                                f"of {rule.number} are translated: a {name} reader of {rule.number} does not "  # type: ignore[union-attr]
                                f"see it; English: “{english.text[:120]}{'…' if len(english.text) > 120 else ''}”",
                                f"translate {unit.label} and add a '{lang}:' text with translated_from: "
                                f"{english_hash(english.text)}")


def extra_unit(ctx: Context) -> Iterator[Issue]:
    for unit in ctx.units:
        if unit.text(SOURCE_LANGUAGE) is not None:
            continue
        for lang in ctx.targets:
            variant = unit.text(lang)
            if variant is None:
                continue
            what = "ruling" if unit.kind is UnitKind.RULING else unit.kind.value
            yield Issue(lang, unit.id, variant.pos.file, variant.pos.line,
                        f"{unit.label} has a {ctx.language_name(lang)} text but no English one: this {what} "
                        f"cannot be checked against its original (“{quote(variant.text, 0, 60, 0)}”)",
                        "add the English original (with its source, e.g. the card's rulings in MTGJSON) or, "
                        "if it has none, remove the translation")


def _quoted(text: str) -> int:
    return len(_QUOTE_CHARS.findall(text)) // 2


def quotations(ctx: Context) -> Iterator[Issue]:
    for t, english in ctx.translations():
        n_en, n_tr = _quoted(english.text), _quoted(t.text)
        if n_en != n_tr:
            yield Issue.at(t, f"{t.label}: the English has {n_en} quoted passage(s), the "
                              f"{ctx.language_name(t.lang)} text {n_tr}",
                           "quote what the English quotes (ability texts, keywords), no more and no less")


def parentheses(ctx: Context) -> Iterator[Issue]:
    for t, english in ctx.translations():
        en, tr = _PAREN.findall(english.text), _PAREN.findall(t.text)
        if len(en) == len(tr):
            continue
        name = ctx.language_name(t.lang)
        if len(tr) > len(en):
            yield Issue.at(t, f"{t.label}: the {name} text has {len(tr)} parenthesised passage(s), the English "
                              f"{len(en)}; e.g. “({tr[-1]})” is not in the English",
                           "remove what the English does not say, or add it to the English first")
        else:
            yield Issue.at(t, f"{t.label}: the {name} text has {len(tr)} parenthesised passage(s), the English "
                              f"{len(en)}: “({en[-1]})” seems untranslated",
                           "translate the English parenthesis too")


def length(ctx: Context) -> Iterator[Issue]:
    for t, english in ctx.translations():
        if len(english.text) < MIN_LENGTH:
            continue
        ratio = len(t.text) / len(english.text)
        if MIN_RATIO <= ratio <= MAX_RATIO:
            continue
        name = ctx.language_name(t.lang)
        how = "longer" if ratio > 1 else "shorter"
        yield Issue.at(t, f"{t.label}: the {name} text is {ratio:.1f} times as long as the English "
                          f"({len(t.text)} vs {len(english.text)} characters): it is much {how} than a "
                          f"translation usually is; English: “{english.text}”",
                       "compare it sentence by sentence with the English: "
                       + ("remove what the English does not say" if ratio > 1 else "translate what is missing"))


CHECKS = (
    Check("structure.missing-unit", "a rule is translated but lacks a subrule, note or title", Severity.WARNING, missing_unit, cost=15),
    Check("structure.extra-unit", "a text exists in a language but not in English", Severity.WARNING, extra_unit, cost=2),
    Check("structure.quotations", "a different number of quoted passages than the English", Severity.WARNING, quotations, cost=1),
    Check("structure.parentheses", "a different number of parenthesised passages than the English", Severity.WARNING, parentheses, cost=1),
    Check("structure.length", "a translation far longer or shorter than the English", Severity.WARNING, length, cost=1),
)
