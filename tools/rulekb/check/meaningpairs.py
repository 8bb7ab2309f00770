"""The comparisons behind the `meaning` checks of what a translation says *in place of* what its
English says (stage: check; wired up as checks in `check.meaningchecks`).

Each is a pure function of (English, translation, language) and tables, returning frozen results:

- `contrasts`: one of a set of words that rule texts tell apart said where the English says
  another of them, sentence by sentence (`CONTRASTS`): the kind of a cost (additional ↔
  alternative), "in addition to" ↔ "instead of", before ↔ after where the English sentence says
  both (where it says one, `meaning.opposite` reads it), a card type or kind of object swapped
  (a land card for a creature card), a game action swapped (countered for destroyed). A
  translation says X in place of Y when it says X more often than its English sentence and Y less
  often: a faithful paraphrase that drops a word without saying another of the set draws nothing.
- `dropped`: a qualifier of the English sentence that the translation leaves out (`DROPPED`: "you
  control" / "die du kontrollierst" / "que vous contrôlez", "you own").
- `keyword_swaps`: another keyword's official name in place of the one the English names (a
  French retrace note naming "rappel", buyback's French name); the names (`Keyword`) are the
  knowledge base's keyword titles and the termbase's keywords, never a list of this module's.
- `set_phrase_misuses`: a set phrase said where the English does not mean it (`SET_PHRASES`: the
  French "mise en jeu" is putting onto the battlefield or a land play, not "timing").

The English sentence and its translation are paired as `sentences.aligned` pairs them (sentence by
sentence where both have as many, else the whole texts).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..models import M_, SOURCE_LANGUAGE, Message
from .keywords import Keyword
from .sentences import aligned

Span = tuple[int, int]

_I = re.IGNORECASE


def _per_lang(en: str, de: str, fr: str) -> Mapping[str, re.Pattern[str]]:
    return {"en": re.compile(en, _I), "de": re.compile(de, _I), "fr": re.compile(fr, _I)}


# ------------------------------------------------------------------ contrasts


@dataclass(frozen=True)
class Side:
    """One of the words of a `Contrast`: how a message names it, how each language says it."""
    name: str
    label: Message
    words: Mapping[str, re.Pattern[str]]


@dataclass(frozen=True)
class Contrast:
    """Words a rule tells apart (two or more `sides`), each changing the rule when said for another.
    `both`: read only where the English sentence says two sides (the other case is another
    check's); `fix`: why it matters, for the message."""
    name: str
    sides: tuple[Side, ...]
    fix: Message
    both: bool = False


# German compounds hold a card type anywhere ("Länderkarte", "Artefaktkreatur"), but not after
# "nicht" (noncreature: "Nichtkreatur", "Nicht-Land-Karte")
def _de(stem: str) -> str:
    return rf"(?<!nicht)(?<!nicht-)(?<!\bnicht )(?:{stem})"


CONTRASTS: tuple[Contrast, ...] = (
    Contrast("cost", (
        Side("additional", M_("an additional cost"),
             _per_lang(r"\badditional\b(?=[^.;:]{0,25}\bcosts?\b)",
                       r"\bzusätzliche[nrs]?\b(?=[^.;:]{0,30}kosten)|\bZusatzkosten\b",
                       r"\bco[uû]ts?\s+(?:\w+\s+)?(?:supplémentaires?|additionnels?)\b")),
        Side("alternative", M_("an alternative cost"),
             _per_lang(r"\balternative\b(?=[^.;:]{0,25}\bcosts?\b)",
                       r"\balternative[nrs]?\b(?=[^.;:]{0,30}kosten)|\bAlternativkosten\b",
                       r"\bco[uû]ts?\s+(?:\w+\s+)?alternatifs?\b"))),
        M_("an additional cost is paid besides the others, an alternative cost in place of the mana cost")),
    Contrast("addition", (
        Side("in-addition", M_("“in addition to”"),
             _per_lang(r"\bin addition to\b|\bas well as\b",
                       r"\bzusätzlich zu\w*|\bsowohl\b|\bnebst\b",
                       r"\ben plus d(?:e|u|es|['’])|\bainsi que\b|\boutre\b")),
        Side("instead", M_("“instead of”"),
             _per_lang(r"\binstead of\b|\brather than\b|\bin place of\b",
                       r"\b(?:an)?statt\b|\banstelle\b|\ban Stelle\b",
                       r"\bau lieu d(?:e|u|es|['’])|\bà la place d(?:e|u|es|['’])|\bplutôt que\b"))),
        M_("“in addition to” adds something, “instead of” replaces it")),
    Contrast("order", (
        Side("before", M_("“before”"),
             _per_lang(r"\bbefore\b", r"\bbevor\b|\bvor\b(?![.,;:])|\bvorher\b|\bzuvor\b|\behe\b", r"\bavant\b")),
        Side("after", M_("“after”"),
             _per_lang(r"\bafter\b", r"\bnachdem\b|\bnach\b|\bdanach\b|\bnachher\b", r"\baprès\b"))),
        M_("the order in time is the rule: what happens before, what after"), both=True),
    Contrast("card-type", (
        Side("land", M_("a land"),
             _per_lang(r"(?<![\w-])lands?\b", _de(r"land(?!ung)|länder"), r"(?<!non-)\bterrains?\b")),
        Side("creature", M_("a creature"),
             _per_lang(r"(?<![\w-])creatures?\b", _de(r"kreatur"), r"(?<!non-)\bcréatures?\b")),
        Side("artifact", M_("an artifact"),
             _per_lang(r"(?<![\w-])artifacts?\b", _de(r"artefakt"), r"(?<!non-)\bartefacts?\b")),
        Side("enchantment", M_("an enchantment"),
             _per_lang(r"(?<![\w-])enchantments?\b", _de(r"verzauberung"), r"(?<!non-)\benchantements?\b")),
        Side("instant", M_("an instant"),
             _per_lang(r"(?<![\w-])instants?\b", _de(r"spontanzauber"), r"\béphémères?\b")),
        Side("sorcery", M_("a sorcery"),
             _per_lang(r"(?<![\w-])sorcer(?:y|ies)\b", _de(r"hexerei"), r"\brituels?\b")),
        Side("planeswalker", M_("a planeswalker"),
             _per_lang(r"(?<![\w-])planeswalkers?\b", _de(r"planeswalker"), r"\bplaneswalkers?\b")),
        Side("token", M_("a token"),
             _per_lang(r"(?<![\w-])tokens?\b", _de(r"spielstein"), r"\bjetons?\b"))),
        M_("the kind of card or object is what the rule applies to")),
    Contrast("action", (
        Side("counter", M_("countering"),
             _per_lang(r"\bcountered\b|\bcountering\b|\bcounters?\s+(?:target\s+|that\s+|the\s+|this\s+|all\s+|each\s+"
                       r"|an?\s+)?(?:\w+\s+)?(?:spells?|abilit(?:y|ies))\b",
                       r"\bneutralisier\w*", r"\bcontrecarr\w*")),
        Side("destroy", M_("destroying"),
             _per_lang(r"\bdestroy\w*|\bdestruction\b", r"\bzerstör\w*", r"\bdétrui\w*|\bdestruction\b")),
        Side("exile", M_("exiling"),
             _per_lang(r"\bexile[ds]?\b|\bexiling\b", r"\bExil\w*|\bexilier\w*", r"\bexil\w*")),
        Side("sacrifice", M_("sacrificing"),
             _per_lang(r"\bsacrific\w*", r"\bopfer\w*|\bgeopfert\w*", r"\bsacrifi\w*"))),
        M_("each game action does something else to the card")),
)


@dataclass(frozen=True)
class Swap:
    """A translation that says one side of a `Contrast` where its English says another: `span` in
    the translation (the word said), `sentence` the English sentence, `where` the translation's,
    `english` the English words it says in place of."""
    contrast: Contrast
    said: Side
    expected: Side
    span: Span
    sentence: Span
    where: Span
    english: Span


def _count(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[Span]:
    return [m.span() for m in pattern.finditer(text, start, end)]


def contrasts(english: str, text: str, lang: str, table: Sequence[Contrast] = CONTRASTS) -> tuple[Swap, ...]:
    """The sides of `table` a translation says in place of others its English says, one per
    contrast and sentence: the side the translation says more often than the English (at the place
    nearest to where the English says the side the translation says less often)."""
    out: list[Swap] = []
    for (ea, eb), (ta, tb) in aligned(english, text):
        for c in table:
            if any(lang not in s.words for s in c.sides):
                continue
            en = [_count(s.words[SOURCE_LANGUAGE], english, ea, eb) for s in c.sides]
            tr = [_count(s.words[lang], text, ta, tb) for s in c.sides]
            if c.both and sum(1 for spans in en if spans) < 2:
                continue
            more = [i for i in range(len(c.sides)) if len(tr[i]) > len(en[i])]
            fewer = [i for i in range(len(c.sides)) if len(tr[i]) < len(en[i])]
            if not more or not fewer:
                continue
            x, y = more[0], fewer[0]
            # where the English says y, relative to its sentence: the translation's x nearest to it
            at = (en[y][0][0] - ea) / max(1, eb - ea)
            span = min(tr[x], key=lambda s: abs((s[0] - ta) / max(1, tb - ta) - at))
            out.append(Swap(c, c.sides[x], c.sides[y], span, (ea, eb), (ta, tb), en[y][0]))
    return tuple(out)


# ------------------------------------------------------------------ dropped qualifiers


@dataclass(frozen=True)
class Qualifier:
    """A qualifier whose absence widens what a rule applies to ("creatures you control" / "die
    Kreaturen")."""
    name: str
    label: Message
    words: Mapping[str, re.Pattern[str]]


_WHO = r"(?:you|they|he or she|that player|a player|each player|target player|an opponent|your opponents?|who|it)"

DROPPED: tuple[Qualifier, ...] = (
    Qualifier("control", M_("whose control it is under"),
              _per_lang(rf"\b{_WHO}\s+(?:(?:don['’]t|doesn['’]t|do not|does not|didn['’]t)\s+)?control(?:s|led)?\b",
                        r"\bkontroll\w*|\bKontrolle\b|\bbeherrsch\w*|\bBeherrscher\w*",
                        r"\bcontr[ôo]l\w*")),
    Qualifier("own", M_("whose card it is"),
              _per_lang(rf"\b{_WHO}\s+(?:(?:don['’]t|doesn['’]t|do not|does not|didn['’]t)\s+)?owns?\b",
                        r"\bbesitz\w*|\bBesitzer\w*|\bgehör\w*",
                        r"\bposs[éèe]d\w*|\bpropriétaire\w*|\bappartien\w*")),
)


@dataclass(frozen=True)
class Dropped:
    """A qualifier of the English sentence that its translation does not say: `said` the English
    words (at `english`), `sentence` the English sentence, `where` the translation's."""
    qualifier: Qualifier
    said: str
    sentence: Span
    where: Span
    english: Span


def dropped(english: str, text: str, lang: str, table: Sequence[Qualifier] = DROPPED) -> tuple[Dropped, ...]:
    """The qualifiers of `table` an English sentence says and its translation leaves out, each
    once per text."""
    out: list[Dropped] = []
    seen: set[str] = set()
    for (ea, eb), (ta, tb) in aligned(english, text):
        for q in table:
            if q.name in seen or lang not in q.words:
                continue
            m = q.words[SOURCE_LANGUAGE].search(english, ea, eb)
            if m and not q.words[lang].search(text, ta, tb):
                seen.add(q.name)
                out.append(Dropped(q, m.group(), (ea, eb), (ta, tb), m.span()))
    return tuple(out)


# ------------------------------------------------------------------ keywords


@dataclass(frozen=True)
class KeywordSwap:
    """A translation sentence that names `said` where its English names `expected` (at `english`)
    and not `said`."""
    said: Keyword
    expected: Keyword
    span: Span
    sentence: Span
    where: Span
    english: Span


def keyword_pattern(keywords: Sequence[Keyword], lang: str) -> re.Pattern[str] | None:
    """One pattern of every name of `keywords` in `lang` (the longest first; a German name counts
    at the start of a hyphenated compound, "Rückkauf-Kosten"), each name in a group of its own."""
    names = sorted({(n, i) for i, k in enumerate(keywords) for n in k.names.get(lang, ()) if n.strip()},
                   key=lambda p: (-len(p[0]), p))
    if not names:
        return None
    return re.compile("|".join(rf"(?P<k{i}_{j}>(?<![\w-]){re.escape(n)}(?!\w))" for j, (n, i) in enumerate(names)), _I)


def _named(pattern: re.Pattern[str] | None, text: str, start: int, end: int) -> list[tuple[int, Span]]:
    """(index of the keyword, span) of each name `pattern` finds in text[start:end]."""
    if pattern is None:
        return []
    return [(int((m.lastgroup or "k0_0")[1:].split("_")[0]), m.span()) for m in pattern.finditer(text, start, end)]


def keyword_swaps(english: str, text: str, lang: str, keywords: Sequence[Keyword],
                  patterns: tuple[re.Pattern[str] | None, re.Pattern[str] | None] | None = None
                  ) -> tuple[KeywordSwap, ...]:
    """The sentences whose translation names a keyword the English text never names, where the
    English sentence names another the translation sentence does not name. `patterns`: the
    English and the translation's `keyword_pattern`s, when the caller keeps them."""
    en_pattern, tr_pattern = patterns if patterns is not None else (keyword_pattern(keywords, SOURCE_LANGUAGE),
                                                                   keyword_pattern(keywords, lang))
    in_english = {i for i, _s in _named(en_pattern, english, 0, len(english))}
    if not in_english:
        return ()
    out: list[KeywordSwap] = []
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_named = _named(en_pattern, english, ea, eb)
        en = {i for i, _s in en_named}
        tr = _named(tr_pattern, text, ta, tb)
        said = {i for i, _s in tr}
        other = next(((i, span) for i, span in tr if i not in in_english), None)
        lost = sorted(en - said)
        if other is not None and lost:
            at = next(span for i, span in en_named if i == lost[0])
            out.append(KeywordSwap(keywords[other[0]], keywords[lost[0]], other[1], (ea, eb), (ta, tb), at))
    return tuple(out)


# ------------------------------------------------------------------ set phrases


@dataclass(frozen=True)
class SetPhrase:
    """A phrase of a meaning of its own in one language (the French "mise en jeu": putting onto the
    battlefield, a land play), right only where the English says that (`means`)."""
    lang: str
    phrase: re.Pattern[str]
    label: Message
    means: re.Pattern[str]


SET_PHRASES: tuple[SetPhrase, ...] = (
    SetPhrase("fr", re.compile(r"\bmises?\s+en\s+jeu\b", _I),
              M_("putting onto the battlefield (or a land play)"),
              re.compile(r"\bbattlefield\b|\binto play\b|\bin play\b|\bland plays?\b|\bplay(?:s|ed|ing)?\s+(?:\w+\s+){0,2}"
                         r"lands?\b|\benters?\b|\bentered\b|\bentering\b", _I)),
)


@dataclass(frozen=True)
class Misuse:
    """A set phrase said in a translation sentence whose English does not mean it."""
    phrase: SetPhrase
    span: Span
    sentence: Span
    where: Span


def set_phrase_misuses(english: str, text: str, lang: str, table: Sequence[SetPhrase] = SET_PHRASES
                       ) -> tuple[Misuse, ...]:
    """The set phrases of `table` a translation says in a sentence whose English does not mean
    them (the French "règles normales de mise en jeu" for "normal timing rules")."""
    out: list[Misuse] = []
    for p in table:
        if p.lang != lang:
            continue
        for (ea, eb), (ta, tb) in aligned(english, text):
            m = p.phrase.search(text, ta, tb)
            if m and not p.means.search(english, ea, eb):
                out.append(Misuse(p, m.span(), (ea, eb), (ta, tb)))
    return tuple(out)
