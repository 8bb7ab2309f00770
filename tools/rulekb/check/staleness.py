"""Check family `staleness` (stage: check): translations made from another English.

A translation records in `translated_from` the hash (`rulekb hash`) of the English it was made
from. When that hash is not the hash of today's canonical English the translation is stale: the
finding shows the new English and, when the knowledge base still holds the old English (a
non-canonical English variant with that hash, e.g. an older wording of the rule), the old one,
so that a translator sees what changed.
"""

from __future__ import annotations

from typing import Iterator

import cydifflib

from ..models import SOURCE_LANGUAGE, Severity, Unit, Variant, english_hash, normalise
from .base import Check, Context, Issue


def is_stale(unit: Unit, variant: Variant) -> bool:
    english = unit.text(SOURCE_LANGUAGE)
    return (variant.translated_from is not None and english is not None
            and variant.translated_from != english_hash(english.text))


def old_english(unit: Unit, digest: str) -> Variant | None:
    """The English variant of `unit` whose hash is `digest`, if the knowledge base keeps it."""
    return next((v for v in unit.variants.get(SOURCE_LANGUAGE, ()) if english_hash(v.text) == digest), None)


def changes(old: str, new: str, limit: int = 3) -> str:
    """What changed between two texts, word by word, typography aside: "added 'with retrace' after 'card'"."""
    a, b = normalise(old).split(), normalise(new).split()
    out = []
    for op, i1, i2, j1, j2 in cydifflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        before, after = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if op == "insert":
            ctx_word = a[i1 - 1] if i1 > 0 else ""
            out.append(f"added '{after}'" + (f" after '{ctx_word}'" if ctx_word else ""))
        elif op == "delete":
            out.append(f"removed '{before}'")
        else:
            out.append(f"'{before}' -> '{after}'")
    more = f" and {len(out) - limit} more" if len(out) > limit else ""
    return "; ".join(out[:limit]) + more


def stale(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts(ctx.targets, variants=True):
        english = t.english
        if english is None or not is_stale(t.unit, t.variant):
            continue
        assert t.variant.translated_from is not None
        now = english_hash(english.text)
        old = old_english(t.unit, t.variant.translated_from)
        which = "" if t.index == 0 else f" (variant {t.index + 1}, source {t.variant.source})"
        if old is not None:
            what = changes(old.text, english.text) or "typography only"
            message = (f"{t.label}{which}: the {ctx.language_name(t.lang)} text translates an older English "
                       f"(source {old.source}): “{old.text}” — the English is now: “{english.text}” "
                       f"(changed: {what})")
        else:
            message = (f"{t.label}{which}: the {ctx.language_name(t.lang)} text was made from an English "
                       f"whose hash {t.variant.translated_from} is not the current one ({now}); the old "
                       f"English is not in the knowledge base — the English is now: “{english.text}”")
        yield Issue.at(t, message, f"update the translation to the current English, then set translated_from: {now}")


def untracked(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts(ctx.targets):
        english = t.english
        if english is None or t.variant.translated_from is not None:
            continue
        yield Issue.at(t, f"{t.label}: the {ctx.language_name(t.lang)} text does not record which English it "
                          f"was made from, so a change of the English will not mark it stale",
                       f"compare it with the English, then add translated_from: {english_hash(english.text)}")


CHECKS = (
    Check("staleness.stale", "a translation was made from an English that has changed since", Severity.ERROR, stale, cost=2),
    Check("staleness.untracked", "a translation does not record the English it was made from", Severity.WARNING, untracked, cost=1),
)
