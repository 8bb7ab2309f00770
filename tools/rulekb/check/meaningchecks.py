"""Check family `meaning`, the checks of `check.meaningpairs` (stage: check): what a translation
says in place of what its English says, each an error whose message names both and the fix.

- `meaning.cost-kind`, `meaning.addition`, `meaning.order`, `meaning.card-type`,
  `meaning.action`: one of the words a rule tells apart said for another (`meaningpairs.CONTRASTS`:
  an additional cost for an alternative one, "instead of" for "in addition to", before for after
  where the English sentence says both, a creature card for a land card, destroyed for countered);
- `meaning.dropped`: "you control" or "you own" left out;
- `meaning.keyword`: another keyword's official name in place of the one the English names;
- `meaning.set-phrase`: a set phrase said where the English does not mean it ("mise en jeu" for
  "timing").

Each check is one `Check` line in `CHECKS`; the comparisons are the pure functions of
`meaningpairs`, the pairs of texts those of `meaning` (`meaning._pairs`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..models import M_, SOURCE_LANGUAGE, Severity
from .base import Check, Context, Issue
from .meaning import _excerpt, _label, _pairs
from .meaningpairs import (
    CONTRASTS,
    Keyword,
    contrasts,
    dropped,
    keyword_pattern,
    keyword_swaps,
    set_phrase_misuses,
)


def _contrast_check(name: str):
    contrast = next(c for c in CONTRASTS if c.name == name)

    def run(ctx: Context) -> Iterator[Issue]:
        for t, english in _pairs(ctx):
            for swap in contrasts(english.text, t.text, t.lang, (contrast,)):
                yield Issue.at(
                    t, M_("{label}: the English says {english} (“{sentence}”), the text in {lang} {said} (“{context}”): "
                          "{why}", label=_label(t), english=swap.expected.label, sentence=_excerpt(english.text, swap.sentence),
                          lang=ctx.lang(t.lang), said=swap.said.label, context=_excerpt(t.text, swap.where),
                          why=swap.contrast.fix),
                    M_("say {english}, as the English does (not {said})", english=swap.expected.label,
                       said=swap.said.label), span=swap.span)
    return run


def dropped_qualifier(ctx: Context) -> Iterator[Issue]:
    for t, english in _pairs(ctx):
        for d in dropped(english.text, t.text, t.lang):
            yield Issue.at(
                t, M_("{label}: the English sentence “{sentence}” says {what} (“{english}”); the text in {lang} leaves it "
                      "out (“{context}”): the rule then applies to more", label=_label(t),
                      sentence=_excerpt(english.text, d.sentence), what=d.qualifier.label, english=d.said,
                      lang=ctx.lang(t.lang), context=_excerpt(t.text, d.where)),
                M_("say it as the English does (“{english}”)", english=d.said))


def keywords(ctx: Context) -> tuple[Keyword, ...]:
    """The keywords with their official names: the titles of the knowledge base's keyword rules
    (702.*) in every language, and the termbase's keywords and keyword actions (every term of a
    concept with a rule), joined by rule id (made once per run)."""
    found = ctx.cache.get(("meaning-keywords",))
    if found is None:
        names: dict[str, dict[str, list[str]]] = {}
        for rule in ctx.kb.rules:
            if rule.number.startswith("702.") and rule.title is not None:
                for lang, variants in rule.title.variants.items():
                    names.setdefault(rule.id, {}).setdefault(lang, []).extend(v.text for v in variants)
        for concept in ctx.termbase.concepts:
            if concept.rule is not None:
                for lang, terms in concept.terms.items():
                    names.setdefault(concept.rule, {}).setdefault(lang, []).extend(
                        form for term in terms for form in (term.text, *term.forms))
        found = ctx.cache[("meaning-keywords",)] = tuple(
            Keyword(kid, {lang: tuple(dict.fromkeys(n for n in ns if n.strip())) for lang, ns in sorted(by_lang.items())})
            for kid, by_lang in sorted(names.items()))
    return found  # type: ignore[return-value]


def _keyword_patterns(ctx: Context, lang: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    key = ("meaning-keyword-patterns", lang)
    found = ctx.cache.get(key)
    if found is None:
        table = keywords(ctx)
        found = ctx.cache[key] = (keyword_pattern(table, SOURCE_LANGUAGE), keyword_pattern(table, lang))
    return found  # type: ignore[return-value]


def _name(k: Keyword, lang: str) -> str:
    names = k.names.get(lang) or k.names.get(SOURCE_LANGUAGE) or (k.id,)
    return names[0]


def keyword(ctx: Context) -> Iterator[Issue]:
    table = keywords(ctx)
    for t, english in _pairs(ctx):
        for swap in keyword_swaps(english.text, t.text, t.lang, table, _keyword_patterns(ctx, t.lang)):
            said = t.text[slice(*swap.span)]
            yield Issue.at(
                t, M_("{label}: the English names the keyword “{english}” (“{sentence}”); the text in {lang} names "
                      "“{said}” there, the official name of another keyword (“{other}”) (“{context}”)", label=_label(t),
                      english=_name(swap.expected, SOURCE_LANGUAGE), sentence=_excerpt(english.text, swap.sentence),
                      lang=ctx.lang(t.lang), said=said, other=_name(swap.said, SOURCE_LANGUAGE),
                      context=_excerpt(t.text, swap.where)),
                M_("write the official name of “{english}” in {lang}: “{name}”",
                   english=_name(swap.expected, SOURCE_LANGUAGE), lang=ctx.lang(t.lang), name=_name(swap.expected, t.lang)),
                span=swap.span)


def set_phrase(ctx: Context) -> Iterator[Issue]:
    for t, english in _pairs(ctx):
        for m in set_phrase_misuses(english.text, t.text, t.lang):
            phrase = t.text[slice(*m.span)]
            yield Issue.at(
                t, M_("{label}: the text in {lang} says “{phrase}” (“{context}”), which means {meaning}; the English "
                      "sentence says nothing of it (“{sentence}”)", label=_label(t), lang=ctx.lang(t.lang), phrase=phrase,
                      context=_excerpt(t.text, m.where), meaning=m.phrase.label,
                      sentence=_excerpt(english.text, m.sentence)),
                M_("say what the English sentence says: “{phrase}” is a set phrase of another meaning", phrase=phrase),
                span=m.span)


CHECKS = (
    Check("meaning.cost-kind", "an additional cost said as an alternative one, or the other way round", Severity.ERROR,
          _contrast_check("cost"), cost=1),
    Check("meaning.addition", "'in addition to' said as 'instead of', or the other way round", Severity.ERROR,
          _contrast_check("addition"), cost=1),
    Check("meaning.order", "'before' and 'after' swapped in a sentence that says both", Severity.ERROR,
          _contrast_check("order"), cost=1),
    Check("meaning.card-type", "a card type or kind of object said for another (a land card for a creature card)",
          Severity.ERROR, _contrast_check("card-type"), cost=2),
    Check("meaning.action", "a game action said for another (destroyed for countered)", Severity.ERROR,
          _contrast_check("action"), cost=1),
    Check("meaning.dropped", "a qualifier of the English ('you control', 'you own') left out", Severity.ERROR,
          dropped_qualifier, cost=1),
    Check("meaning.keyword", "another keyword's official name in place of the one the English names", Severity.ERROR,
          keyword, cost=1),
    Check("meaning.set-phrase", "a set phrase said where the English does not mean it ('mise en jeu' for 'timing')",
          Severity.ERROR, set_phrase, cost=1),
)
