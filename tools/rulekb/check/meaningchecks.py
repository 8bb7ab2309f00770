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

Each check is one `TextCheck` line in `CHECKS`, a pure function of one text and the shared
`Data`; the comparisons are the pure functions of `meaningpairs`, the English a translation is
compared with that of `meaning` (`meaning.against_english`). The keywords' official names are
`Data.keywords` (`keywords.keyword_table`: the knowledge base's keyword rule titles and the termbase).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..models import M_, SOURCE_LANGUAGE, Severity
from .compare import excerpt, label
from .keywords import keyword_table  # noqa: F401  (re-exported: the table `Data.keywords` holds)
from .meaning import against_english
from .meaningpairs import (
    CONTRASTS,
    Keyword,
    contrasts,
    dropped,
    keyword_pattern,
    keyword_swaps,
    set_phrase_misuses,
)
from .text import Data, Flag, Text, TextCheck, flag

def _contrast_check(name: str):
    contrast = next(c for c in CONTRASTS if c.name == name)

    def run(t: Text, data: Data, english: str) -> Iterator[Flag]:
        for swap in contrasts(english, t.text, t.lang, (contrast,)):
            yield flag(
                M_("{label}: the English says {english} (“{sentence}”), the text in {lang} {said} (“{context}”): "
                   "{why}", label=label(t), english=swap.expected.label, sentence=excerpt(english, swap.sentence),
                   lang=data.lang(t.lang), said=swap.said.label, context=excerpt(t.text, swap.where),
                   why=swap.contrast.fix),
                M_("say {english}, as the English does (not {said})", english=swap.expected.label,
                   said=swap.said.label), span=swap.span, english=(swap.english,))
    return against_english(run)


def dropped_qualifier(t: Text, data: Data, english: str) -> Iterator[Flag]:
    for d in dropped(english, t.text, t.lang):
        yield flag(
            M_("{label}: the English sentence “{sentence}” says {what} (“{english}”); the text in {lang} leaves it "
               "out (“{context}”): the rule then applies to more", label=label(t),
               sentence=excerpt(english, d.sentence), what=d.qualifier.label, english=d.said,
               lang=data.lang(t.lang), context=excerpt(t.text, d.where)),
            M_("say it as the English does (“{english}”)", english=d.said), english=(d.english,))


def _keyword_patterns(data: Data, lang: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    return data.derived("meaning-keyword-patterns", lang,
                        lambda: (keyword_pattern(data.keywords, SOURCE_LANGUAGE), keyword_pattern(data.keywords, lang)))


def _name(k: Keyword, lang: str) -> str:
    names = k.names.get(lang) or k.names.get(SOURCE_LANGUAGE) or (k.id,)
    return names[0]


def keyword(t: Text, data: Data, english: str) -> Iterator[Flag]:
    if not data.keywords:
        return
    for swap in keyword_swaps(english, t.text, t.lang, data.keywords, _keyword_patterns(data, t.lang)):
        said = t.text[slice(*swap.span)]
        yield flag(
            M_("{label}: the English names the keyword “{english}” (“{sentence}”); the text in {lang} names "
               "“{said}” there, the official name of another keyword (“{other}”) (“{context}”)", label=label(t),
               english=_name(swap.expected, SOURCE_LANGUAGE), sentence=excerpt(english, swap.sentence),
               lang=data.lang(t.lang), said=said, other=_name(swap.said, SOURCE_LANGUAGE),
               context=excerpt(t.text, swap.where)),
            M_("write the official name of “{english}” in {lang}: “{name}”",
               english=_name(swap.expected, SOURCE_LANGUAGE), lang=data.lang(t.lang), name=_name(swap.expected, t.lang)),
            span=swap.span, english=(swap.english,))


def set_phrase(t: Text, data: Data, english: str) -> Iterator[Flag]:
    for m in set_phrase_misuses(english, t.text, t.lang):
        phrase = t.text[slice(*m.span)]
        yield flag(
            M_("{label}: the text in {lang} says “{phrase}” (“{context}”), which means {meaning}; the English "
               "sentence says nothing of it (“{sentence}”)", label=label(t), lang=data.lang(t.lang), phrase=phrase,
               context=excerpt(t.text, m.where), meaning=m.phrase.label,
               sentence=excerpt(english, m.sentence)),
            M_("say what the English sentence says: “{phrase}” is a set phrase of another meaning", phrase=phrase),
            span=m.span)


CHECKS = (
    TextCheck("meaning.cost-kind", "an additional cost said as an alternative one, or the other way round",
              Severity.ERROR, _contrast_check("cost")),
    TextCheck("meaning.addition", "'in addition to' said as 'instead of', or the other way round", Severity.ERROR,
              _contrast_check("addition")),
    TextCheck("meaning.order", "'before' and 'after' swapped in a sentence that says both", Severity.ERROR,
              _contrast_check("order")),
    TextCheck("meaning.card-type", "a card type or kind of object said for another (a land card for a creature card)",
              Severity.ERROR, _contrast_check("card-type")),
    TextCheck("meaning.action", "a game action said for another (destroyed for countered)", Severity.ERROR,
              _contrast_check("action")),
    TextCheck("meaning.dropped", "a qualifier of the English ('you control', 'you own') left out", Severity.ERROR,
              against_english(dropped_qualifier)),
    TextCheck("meaning.keyword", "another keyword's official name in place of the one the English names",
              Severity.ERROR, against_english(keyword)),
    TextCheck("meaning.set-phrase", "a set phrase said where the English does not mean it ('mise en jeu' for 'timing')",
              Severity.ERROR, against_english(set_phrase)),
)
