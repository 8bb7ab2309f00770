"""Check family `meaning` (stage: check): does a translation say what its English says?

Each check compares a translation with the English it was made from (`source_english`): sentence
by sentence where both have as many sentences (`aligned`), else as whole texts. What differs is a
change of meaning, an error:

- `meaning.number`: a number said in words that the English does not say ("with two exceptions" /
  "mit drei Ausnahmen", "a +1/+1 counter" / "zwei +1/+1-Marken"); digits count as the same number
  ("two" and "2" agree; digits against digits are `numbers.mismatch`'s);
- `meaning.bound`: "at least" read as "at most" ("höchstens N"), or a bound added or lost;
- `meaning.negation`: a sentence whose negation is lost ("no player may" / "darf jeder Spieler"), or
  one that negates where the English does not ("You may" / "Vous ne pouvez pas", "any card draw" /
  "keine Gelegenheit"); a text without any negation at all is `structure.negation`'s finding;
- `meaning.player`: a player role the English does not name ("a player's graveyard" / "im Friedhof
  eines Gegners"): player, opponent, teammate, and the termbase's owner and controller;
- `meaning.zone`: the zones of a sentence changed although the text as a whole names only zones of
  its English (`terminology.zone` reports a zone the English never names), or the zone something
  comes *from* swapped with another ("from your graveyard rather than your hand" / "depuis votre
  main au lieu de votre cimetière"), or something goes to a zone the English only takes things from
  ("from the top of your library into your graveyard" / "von deinem Friedhof in deine Bibliothek");
- `meaning.modality`: a translation that obliges where the English permits ("You may pay" / "Du musst
  bezahlen") or permits where it obliges;
- `meaning.qualifier`: a qualifier of the English left out ("until end of turn", "instead", "another",
  "target", "one or more", "only", "an opponent") or added ("nur" for "not just");
- `meaning.opposite`: one of two opposites said for the other (tapped/untapped, top/bottom …);
- `meaning.colour`: a colour the English sentence does not name ("white" / "schwarz");
- `meaning.sentences` (a warning: two sentences may rightly become one): fewer sentences than the
  English, one may be missing.

The comparisons are pure functions of two strings (`number_change`, `bound_change`,
`negation_change`, `role_change`, `zone_change`; the qualifiers', opposites' and colours' are
`qualifiers`', the sentences they compare `sentences`'); the word lists are one compiled pattern per
language and purpose (`LEXICON`), the zones, owner and controller the termbase's. Adding a language
is one `_LEXICON_SOURCES` entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ..models import M_, MN_, SOURCE_LANGUAGE, Message, Quoted, QuotedEach, Severity
from ..refs import find_references
from .base import quote
from .compare import ZONES, concept_name, concept_names, excerpt, label
from .qualifiers import COLOURS, colour_change, opposite_change, qualifier_changes
from .sentences import Change, Span, aligned, around, sentences, unparenthesised
from .structure import negations as whole_negations
from .text import Data, Flag, Text, TextCheck, TextCheckFunction, flag

__all__ = ["CHECKS", "Change", "aligned", "qualifier_changes", "sentences"]   # re-exported: the tests read them here
# ------------------------------------------------------------------ the words of each language


@dataclass(frozen=True)
class Lexicon:
    """How one language says what the checks compare, each one compiled pattern (case-insensitive,
    whole words): number words with their values (`soft` ones, like "both" or "les deux", need not
    be said in the other language), bounds (groups min, max; `soft_bounds` like "one or more" are
    no bound), negations and what may stand for one (`allowance`: "without", "nur"), and roles."""
    numbers: re.Pattern[str]
    values: Mapping[str, tuple[int, bool]]     # word -> (value, soft)
    cased: re.Pattern[str] | None              # number words that count in lowercase only
    bounds: re.Pattern[str]
    soft_bounds: re.Pattern[str]
    negation: re.Pattern[str]
    exempt: re.Pattern[str] | None             # phrases whose negative word negates nothing ("no more than")
    allowance: re.Pattern[str]                 # words that may be rendered by a negation, or render one
    roles: re.Pattern[str]                     # groups player, opponent, teammate
    source: re.Pattern[str]                    # the preposition before a zone something comes from ("from", not
                                               # "rather than from"), at the end
    target: re.Pattern[str] | None             # the preposition before a zone something goes to (None: not told
                                               # apart from "in", as French "dans")
    may: re.Pattern[str]                       # a permission ("may", "kannst", "pouvez")
    must: re.Pattern[str]                      # an obligation ("must", "musst", "devez")


_NUMBER_WORDS: dict[str, dict[str, tuple[int, bool]]] = {
    "en": {"zero": (0, False), "two": (2, False), "three": (3, False), "four": (4, False), "five": (5, False),
           "six": (6, False), "seven": (7, False), "eight": (8, False), "nine": (9, False), "ten": (10, False),
           "eleven": (11, False), "twelve": (12, False), "thirteen": (13, False), "fourteen": (14, False),
           "fifteen": (15, False), "sixteen": (16, False), "seventeen": (17, False), "eighteen": (18, False),
           "nineteen": (19, False), "twenty": (20, False), "thrice": (3, False), "three times": (3, False),
           "four times": (4, False), "five times": (5, False),
           "twice": (2, True), "both": (2, True), "double": (2, True), "triple": (3, True)},
    "de": {"null": (0, False), "zwei": (2, False), "drei": (3, False), "vier": (4, False), "fünf": (5, False),
           "sechs": (6, False), "sieben": (7, False), "neun": (9, False), "zehn": (10, False), "zwölf": (12, False),
           "dreizehn": (13, False), "vierzehn": (14, False), "fünfzehn": (15, False), "sechzehn": (16, False),
           "siebzehn": (17, False), "achtzehn": (18, False), "neunzehn": (19, False), "zwanzig": (20, False),
           "zweier": (2, False), "dreier": (3, False), "dreimal": (3, False), "viermal": (4, False),
           "fünfmal": (5, False), "dreifach": (3, True), "dreifache": (3, True), "dreifachen": (3, True),
           "das Dreifache": (3, True),
           "zweimal": (2, True), "beide": (2, True), "beiden": (2, True), "beider": (2, True), "beides": (2, True),
           "doppelt": (2, True), "doppelte": (2, True), "doppelten": (2, True), "doppelter": (2, True),
           "doppeltes": (2, True), "das Doppelte": (2, True), "verdopple": (2, True), "verdoppelt": (2, True)},
    "fr": {"zéro": (0, False), "deux": (2, False), "trois": (3, False), "quatre": (4, False), "cinq": (5, False),
           "six": (6, False), "sept": (7, False), "huit": (8, False), "dix": (10, False), "onze": (11, False),
           "douze": (12, False), "treize": (13, False), "quatorze": (14, False), "quinze": (15, False),
           "seize": (16, False), "dix-sept": (17, False), "dix-huit": (18, False), "dix-neuf": (19, False),
           "vingt": (20, False), "trois fois": (3, False),
           "deux fois": (2, True), "les deux": (2, True), "des deux": (2, True), "aux deux": (2, True),
           "tous deux": (2, True), "toutes deux": (2, True), "tous les deux": (2, True),
           "toutes les deux": (2, True), "double": (2, True), "doublez": (2, True), "au double": (2, True),
           "triple": (3, True), "au triple": (3, True)},
}
# German "acht" and "elf" are also "Acht" (heed) and "Elf" (the creature type), French "neuf" also
# "new": the number only in lowercase.
_CASED_WORDS: dict[str, dict[str, int]] = {"de": {"acht": 8, "elf": 11}, "fr": {"neuf": 9}}

_N = (r"(?:\d|X\b|two|three|four|five|twice|zwei|drei|vier|fünf|deux|trois|quatre|cinq|one|an?\b|eine?\w*|je\b"
      r"|une?\b|l['’]une?\b)")

# the words between "from"/"into" and the zone ("from the top of your library")
_EN_DET = (r"(?:(?:your|their|his|her|its|the|a|an|that|this|target|each|any|all|another|opponent['’]s|player['’]s"
           r"|owner['’]s|top|bottom|of|or)\s+){0,4}")

_LEXICON_SOURCES: dict[str, dict[str, str]] = {
    "en": dict(
        bounds=r"(?P<min>\bat least\b|\bor (?:more|greater|higher)\b|\bno (?:fewer|less) than\b|\bgreater than or equal to\b)"
               rf"|(?P<max>\bat most\b|\bor (?:fewer|less|lesser|lower)\b|\bup to (?={_N})|\bno more than\b"
               r"|\bless than or equal to\b|\b(?:can['’]t|cannot|not)\b[^.]{0,40}?\bmore than\b)",
        soft_bounds=r"\bone or more\b|\bat least (?:one|an?)\b",
        negation=r"(?<![\w-])(?:not|no|never|none|nothing|neither|cannot|nobody|nowhere)(?![\w-])|\w+(?:n't|n’t)(?!\w)",
        exempt=r"\bno (?:more|fewer|less|later) than\b",
        allowance=r"\bnon-?\w|\bun\w+(?:ed|able)\b|\bwithout\b|\bother than\b|\bexcept\b|\bunless\b|\bonly\b"
                  r"|\binstead\b|\brather than\b|\bno (?:more|fewer|less|later) than\b|\bfewer\b|\bless\b",
        roles=r"(?P<player>\bplayers?(?:['’]s?)?(?!\w))|(?P<opponent>\bopponents?(?:['’]s?)?(?!\w))"
              r"|(?P<teammate>\bteammates?\b)",
        source=rf"(?<!than )(?<!instead of )\bfrom\s+{_EN_DET}$",
        target=rf"\b(?:into|onto|to|on top of|on the bottom of|enters?|entered|entering)\s+{_EN_DET}$",
        may=r"\b(?:may|might|could|can(?!['’]t))\b",
        must=r"\b(?:must|have to|has to|is required to|are required to)\b",
    ),
    "de": dict(
        bounds=r"(?P<min>\bmindestens\b|\bwenigstens\b|\boder mehr\b|\boder (?:höher|größer)\w*|\bgrößer oder gleich\b)"
               rf"|(?P<max>\bhöchstens\b|\bbis zu (?={_N})|\boder weniger\b|\boder (?:niedriger|kleiner|geringer)\w*|\bmaximal\b"
               r"|\bkleiner oder gleich\b|\bnicht mehr als\b)",
        soft_bounds=r"\bmindestens ein\w*|\bein\w* oder mehrere\w*",
        negation=r"(?<![\w-])(?:nicht(?!-)|kein|keine|keinen|keinem|keiner|keines|keinerlei|nie|niemals|nichts"
                 r"|niemand|niemandem|niemanden|weder|nirgends|nirgendwo)(?![\w-])",
        exempt=r"\bnicht (?:mehr|weniger) als\b",
        allowance=r"\bnur\b|\baußer\b|\bausschließlich\b|\bohne\b|\bnicht (?:mehr|weniger) als\b",
        roles=r"(?P<player>\b(?:Spieler|Spielers|Spielern|Spielerin)\b)|(?P<opponent>\b(?:Gegner|Gegners|Gegnern)\b)"
              r"|(?P<teammate>\b(?:Teamkamerad\w*|Mitspieler\w*)\b)",
        source=r"(?<!statt )(?<!anstelle )\b(?:aus|von)\s+(?:(?:deinem|deiner|dem|der|seinem|seiner|ihrem|ihrer|einem"
               r"|einer|jedem|jeder|allen|oben|unten|von)\s+){0,3}$",
        target=r"\b(?:in|auf|unter)\s+(?:deinen|deine|den|die|das|seinen|seine|ihren|ihre|einen|eine)\s+(?:\w+\s+)?$",
        may=r"\b(?:kann|kannst|können|könnt|darf|darfst|dürfen|dürft)\b",
        must=r"\b(?:muss|musst|müssen|müsst|musste|mussten|müsste|müssten)\b(?![^.;,]*\bnicht\b)",
    ),
    "fr": dict(
        bounds=r"(?P<min>\bau moins\b|\bou plus\b|\bau minimum\b|\bsupérieure?s? ou égale?s?\b)"
               r"|(?P<max>\bau plus\b(?!\s+(?:grande?s?|petite?s?|élevée?s?|faibles?|haute?s?|bas|basse|tard|tôt|vite|proche))"
               rf"|\bou moins\b|\bau maximum\b|\binférieure?s? ou égale?s?\b|\bjusqu['’]à (?={_N})|\bpas plus (?:de|d['’]|que)\b)",
        soft_bounds=r"\bau moins une?\b|\bune? ou plusieurs\b|\b(?:l['’])?une? ou plus\b",
        negation="",   # French negation is read by `_french_negations`
        exempt=r"",
        allowance=r"\bsauf\b|\bseulement\b|\bsans\b|\bexcepté\b|\buniquement\b|\bautre que\b",
        roles=r"(?P<player>\b(?:joueur|joueurs|joueuse|joueuses)\b)|(?P<opponent>\badversaires?\b)"
              r"|(?P<teammate>\bcoéquipi\w*\b)",
        source=r"(?<!lieu )(?<!plutôt que )\b(?:depuis|hors\s+de)\s+(?:(?:votre|son|sa|ses|leur|leurs|le|la|les|un|une"
               r"|chaque|tous|des|du|dessus|dessous|de)\s+|l['’]|d['’]){0,4}$",
        target="",
        may=r"\b(?:peut|peuvent|pouvez|pouvons|peux|pourra|pourront|pourrait|pourraient|pourriez)\b",
        must=r"\b(?:doit|doivent|devez|devons|dois|devra|devront|il faut)\b",
    ),
}


def _words(table: Mapping[str, object], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    alternatives = sorted(table, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, alternatives)) + r")(?![\w-])", flags)


def _lexicon(lang: str) -> Lexicon:
    s = _LEXICON_SOURCES[lang]
    values = {k.casefold(): v for k, v in _NUMBER_WORDS[lang].items()}
    cased = _CASED_WORDS.get(lang)
    return Lexicon(_words(values), values, _words(cased, 0) if cased else None,
                   re.compile(s["bounds"], re.IGNORECASE), re.compile(s["soft_bounds"], re.IGNORECASE),
                   re.compile(s["negation"], re.IGNORECASE) if s["negation"] else re.compile(r"(?!)"),
                   re.compile(s["exempt"], re.IGNORECASE) if s["exempt"] else None,
                   re.compile(s["allowance"], re.IGNORECASE), re.compile(s["roles"], re.IGNORECASE),
                   re.compile(s["source"], re.IGNORECASE), re.compile(s["target"], re.IGNORECASE) if s["target"] else None,
                   re.compile(s["may"], re.IGNORECASE), re.compile(s["must"], re.IGNORECASE))


LEXICON: dict[str, Lexicon] = {lang: _lexicon(lang) for lang in _LEXICON_SOURCES}

# A loyalty cost at the start of a line ("[−3]:", "+1:"): no number of the text.
_LOYALTY = re.compile(r"(?m)^[ \t]*\[?[+−\-—–]?(?:\d+|X)\]?[ \t]*:")
_DIGITS = re.compile(r"(?<![\w.,/{])\d+(?![\w/}])")

# French: "ne"/"n'" with what completes it; "ne … que" (only) and an expletive "ne" negate nothing
_FR_CLAUSE = re.compile(r"[^.;:!?,()«»\"“”\n]+")
_FR_NE = re.compile(r"(?<![\w-])(?:ne|n['’])(?=\s|\w)", re.IGNORECASE)
_FR_CLOSER = re.compile(r"(?<![\w-])(?:pas|jamais|rien|aucun|aucune|personne|nul|nulle|ni|guère"
                        r"|plus(?!\s+(?:d['’]|de\b|que\b|tard\b)))(?![\w-])", re.IGNORECASE)
_FR_ALONE = re.compile(r"(?<![\w-])(?:aucun|aucune|rien|jamais|nul|nulle|pas|non)(?![\w-])", re.IGNORECASE)
# an English exception that a translation may render as a restriction ("can't … except" / "kann nur")
_EXCEPTION = re.compile(r"\b(?:except|other than|unless|without|but|only|rather than|instead)\b", re.IGNORECASE)
# the negations that are determiners ("keine Gelegenheit", "aucune carte", "no card"): a quantifier's flip
_DETERMINER = re.compile(r"(?:kein|aucun|nul|no\b|none|nothing|nichts|niemand|rien|personne)", re.IGNORECASE)
_FR_QUE = re.compile(r"(?<![\w-])qu(?:e|['’])", re.IGNORECASE)
_FR_NON = re.compile(r"(?<![\w-])non(?![\w-])", re.IGNORECASE)
# "ne" before these forms negates on its own ("Les blessures ne peuvent être prévenues")
_FR_MODAL = re.compile(r"\s*(?:(?:le|la|les|lui|leur|y|en|se|me|te|nous|vous)\s+|[lsmt]['’])*"
                       r"(?:peut|peuvent|pouvez|pouvons|peux|pourra|pourront|pourrait|pourraient|sait|savent|ose|osent"
                       r"|cesse|cessent)\b", re.IGNORECASE)


# ------------------------------------------------------------------ what a text says


def numbers(text: str, lang: str) -> dict[int, tuple[Span, bool]]:
    """The numbers a text says, each with where it first says it and whether only softly (a
    "both", "twice", "beide", "les deux": the other language may leave it unsaid): in words, or in
    digits outside rule references, mana symbols, +1/+1 values and loyalty costs. One is not
    counted: "a", "ein", "un" are also articles."""
    lex = LEXICON.get(lang)
    if lex is None:
        return {}
    out: dict[int, tuple[Span, bool]] = {}

    def add(value: int, span: Span, soft: bool) -> None:
        if value not in out or (out[value][1] and not soft):
            out[value] = (span, soft)

    for m in lex.numbers.finditer(text):
        value, soft = lex.values[m.group().casefold()]
        add(value, m.span(), soft)
    if lex.cased is not None:
        for m in lex.cased.finditer(text):
            add(_CASED_WORDS[lang][m.group()], m.span(), False)
    if any(ch.isdigit() for ch in text):
        skip = [(r.start, r.end) for r in find_references(text)] + [m.span() for m in _LOYALTY.finditer(text)]
        for m in _DIGITS.finditer(text):
            value = int(m.group())
            if value != 1 and not any(a <= m.start() < b for a, b in skip):
                add(value, m.span(), False)
    return out


def bounds(text: str, lang: str) -> dict[str, Span]:
    """The bounds a text sets: "min" (at least, or more) and "max" (at most, up to, or fewer);
    "one or more" (and "mindestens ein", "au moins un") is no bound."""
    lex = LEXICON.get(lang)
    out: dict[str, Span] = {}
    if lex is None:
        return out
    soft = [m.span() for m in lex.soft_bounds.finditer(text)]
    for m in lex.bounds.finditer(text):
        if not any(a <= m.start() < b or m.start() <= a < m.end() for a, b in soft):
            out.setdefault(m.lastgroup or "", m.span())
    return out


def negations(text: str, lang: str) -> list[Span]:
    """Where a text negates: "not", "no", "can't"; "nicht", "kein"; French "ne … pas" once, "aucun
    joueur ne peut" once, "aucun" alone once, "ne peuvent être" (literary) once; an expletive "ne"
    ("à moins qu'il ne paie") and "ne … que" (only) not at all; "no more than" not at all."""
    lex = LEXICON.get(lang)
    if lex is None:
        return []
    if lang == "fr":
        return _french_negations(text)
    exempt = [m.span() for m in lex.exempt.finditer(text)] if lex.exempt is not None else []
    return [m.span() for m in lex.negation.finditer(text) if not any(a <= m.start() < b for a, b in exempt)]


def _french_negations(text: str, restrictions: list[Span] | None = None) -> list[Span]:
    """French negations; with `restrictions`, the "ne … que" (only) found are added to it."""
    out: list[Span] = []
    for clause in _FR_CLAUSE.finditer(text):
        a, b = clause.span()
        nes = list(_FR_NE.finditer(text, a, b))
        closers = list(_FR_CLOSER.finditer(text, a, b))
        if nes:
            for ne in nes:
                if closers or (_FR_MODAL.match(text, ne.end(), b) and not _FR_QUE.search(text, ne.end(), b)):
                    out.append(ne.span())
                elif restrictions is not None and _FR_QUE.search(text, ne.end(), b):
                    restrictions.append(ne.span())
            out += [m.span() for m in _FR_NON.finditer(text, a, b)]
        else:
            out += [m.span() for m in _FR_ALONE.finditer(text, a, b)]
    return out


def allowances(text: str, lang: str) -> int:
    """How many words of a text may be rendered by a negation in another language, or render one
    ("nontoken" / "der kein Spielstein ist", "can't … except" / "kann nur …", "ne … que")."""
    lex = LEXICON.get(lang)
    if lex is None:
        return 0
    restrictions: list[Span] = []
    if lang == "fr":
        _french_negations(text, restrictions)
    return len(lex.allowance.findall(text)) + len(restrictions)


def roles(text: str, lang: str) -> dict[str, Span]:
    """The player roles a text names (player, opponent, teammate), with where it first names each."""
    lex = LEXICON.get(lang)
    out: dict[str, Span] = {}
    if lex is not None:
        for m in lex.roles.finditer(text):
            out.setdefault(m.lastgroup or "", m.span())
    return out


# ------------------------------------------------------------------ comparisons (pure)


def number_change(english: str, text: str, lang: str) -> Change | None:
    """The first sentence whose numbers differ from its English's: a number the translation says
    (not softly) that the English does not, or one the English says (not softly) the translation
    does not. Digits on both sides are left to `numbers.mismatch`."""
    for (ea, eb), (ta, tb) in aligned(english, text):
        en, tr = numbers(english[ea:eb], SOURCE_LANGUAGE), numbers(text[ta:tb], lang)
        extra = [v for v, (_s, soft) in tr.items() if not soft and v not in en]
        lacking = [v for v, (_s, soft) in en.items() if not soft and v not in tr]
        if not extra and not lacking:
            continue
        if all(text[ta + tr[v][0][0]:ta + tr[v][0][1]].isdigit() for v in extra) and \
                all(english[ea + en[v][0][0]:ea + en[v][0][1]].isdigit() for v in lacking):
            continue
        expected = tuple(english[ea + s:ea + e] for (s, e), _soft in en.values())
        if extra:
            s, e = tr[extra[0]][0]
            return Change((ta + s, ta + e), text[ta + s:ta + e], expected, (ea, eb), (ta, tb))
        return Change(None, "", expected, (ea, eb), (ta, tb))
    return None


def bound_change(english: str, text: str, lang: str) -> Change | None:
    """A bound the translation sets that the English does not ("höchstens" for "at least"), or
    one of the English it lacks."""
    en, tr = bounds(english, SOURCE_LANGUAGE), bounds(text, lang)
    if set(en) == set(tr):
        return None
    expected = tuple(sorted(en))
    at = min((s for s, _e in en.values()), default=0)
    extra = sorted((span, kind) for kind, span in tr.items() if kind not in en)
    sentence = next(((a, b) for a, b in sentences(english) if a <= at < b), (0, len(english)))
    if extra:
        span, kind = extra[0]
        return Change(span, kind, expected, sentence, around(text, span[0]))
    return Change(None, "", expected, sentence, (0, len(text)))


def negation_changes(english: str, text: str, lang: str) -> list[tuple[str, Change]]:
    """The sentences that negate less than their English ("lost": `said` is the English negation)
    or more, beyond what a word such as "without" or "nontoken" may render ("added": `span` is the
    translation's extra negation, a "kein"/"aucun" before a "nicht"/"ne … pas": the flip of a
    quantifier). A parenthesis one side has and the other has not is `structure.parentheses`' finding."""
    out: list[tuple[str, Change]] = []
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_text, tr_text = unparenthesised(english[ea:eb], text[ta:tb])
        en, tr = negations(en_text, SOURCE_LANGUAGE), negations(tr_text, lang)
        excused = allowances(tr_text, lang) if _EXCEPTION.search(en_text) else 0
        # "unless" said as "falls … nicht" / "si … ne … pas" is one negation more ("es sei denn",
        # "à moins que … ne" are none): "can't … unless" has two negations then, and losing either is lost
        needed = sorted(en + _unless_negations(en_text, tr_text, lang))
        if len(tr) + excused < len(needed):
            s, e = needed[len(tr)]
            out.append(("lost", Change(None, en_text[s:e], (en_text[s:e],), (ea, eb), (ta, tb))))
        elif len(tr) > len(en) + allowances(en_text, SOURCE_LANGUAGE):
            s, e = next((span for span in tr if _DETERMINER.match(tr_text, span[0])), tr[len(en)])
            out.append(("added", Change((ta + s, ta + e), tr_text[s:e], (), (ea, eb), (ta, tb))))
    return out


_UNLESS = re.compile(r"\bunless\b", re.IGNORECASE)
_UNLESS_PLAIN = {"de": re.compile(r"\bes sei denn\b|\baußer\b|\bausgenommen\b|\bohne dass\b", re.IGNORECASE),
                 "fr": re.compile(r"\bà moins\b|\bsauf\b|\bexcepté\b|\bhormis\b|\bsans que\b", re.IGNORECASE)}


def _unless_negations(english: str, text: str, lang: str) -> list[Span]:
    """The English "unless" that the translation says with a negation ("falls … nicht", "si … ne …
    pas"): those it does not say with "es sei denn", "außer", "à moins que", "sauf si"."""
    plain = _UNLESS_PLAIN.get(lang)
    if plain is None or "unless" not in english.casefold():
        return []
    unless = [m.span() for m in _UNLESS.finditer(english)]
    return unless[len(plain.findall(text)):]


def role_change(english: str, text: str, lang: str, en_extra: Mapping[str, Span] = {},
                tr_extra: Mapping[str, Span] = {}) -> Change | None:
    """A player role the translation names and the English does not; `en_extra`/`tr_extra` add
    the roles the termbase finds (owner, controller)."""
    en = {**roles(english, SOURCE_LANGUAGE), **en_extra}
    tr = {**roles(text, lang), **tr_extra}
    extra = sorted((span, role) for role, span in tr.items() if role not in en)
    if not extra:
        return None
    span, role = extra[0]
    # where the English names its roles: the words the translation's role stands in place of
    named = tuple(m.span() for m in LEXICON[SOURCE_LANGUAGE].roles.finditer(english)) + tuple(en_extra.values())
    return Change(span, role, tuple(sorted(en)), (0, len(english)), around(text, span[0]), tuple(sorted(named)))


def zone_change(english: str, text: str, lang: str, en_zones: Sequence[tuple[int, str]],
                tr_zones: Sequence[tuple[int, str]]) -> tuple[str, Change] | None:
    """Zones (position, zone id: the termbase's matches) of a sentence that differ from its
    English's ("changed"), or the zone something comes from swapped with another zone of the
    sentence ("swapped"). Texts that name a zone the English never names are left to
    `terminology.zone`."""
    if not en_zones or {z for _p, z in tr_zones} - {z for _p, z in en_zones}:
        return None
    en_lex, tr_lex = LEXICON[SOURCE_LANGUAGE], LEXICON.get(lang)
    for (ea, eb), (ta, tb) in aligned(english, text):
        en = [(p, z) for p, z in en_zones if ea <= p < eb]
        tr = [(p, z) for p, z in tr_zones if ta <= p < tb]
        en_set, tr_set = {z for _p, z in en}, {z for _p, z in tr}
        if tr_set - en_set and en_set - tr_set:
            p, z = next((p, z) for p, z in tr if z not in en_set)
            return "changed", Change((p, p + 1), z, tuple(sorted(en_set)), (ea, eb), (ta, tb))
        if tr_lex is None or len(en_set) < 2:
            continue
        en_from = {z for p, z in en if en_lex.source.search(english, max(ea, p - 40), p)}
        en_to = {z for p, z in en if _goes_to(english, ea, p, en_lex)}
        tr_from = [(p, z) for p, z in tr if tr_lex.source.search(text, max(ta, p - 40), p)]
        tr_to = [(p, z) for p, z in tr if _goes_to(text, ta, p, tr_lex)]
        tr_from_set = {z for _p, z in tr_from}
        # the zone something comes from is another (and named otherwise in the English), or it goes to
        # a zone the English only takes things from
        moved = (en_to - {z for _p, z in tr_to}) & tr_from_set   # an English destination the translation takes from
        swapped = [(p, z) for p, z in tr_from if en_from and not en_from & tr_from_set and en_from <= tr_set
                   and tr_from_set <= en_set] + [(p, z) for p, z in tr_to if z in en_from - en_to and moved]
        if swapped:
            p, z = min(swapped)
            return "swapped", Change((p, p + 1), z, tuple(sorted(en_from)), (ea, eb), (ta, tb))
    return None


def _goes_to(text: str, start: int, pos: int, lex: Lexicon) -> bool:
    """Whether the zone named at `pos` is where something goes ("into your graveyard", "ins Exil")."""
    if lex.target is None:
        return False
    return text.startswith("ins ", pos) or bool(lex.target.search(text, max(start, pos - 40), pos))


def modality_change(english: str, text: str, lang: str) -> tuple[str, Change] | None:
    """The first sentence whose translation obliges where its English permits ("You may pay" /
    "Du musst bezahlen": "obliges"), or permits where it obliges ("must" / "kannst": "permits")."""
    en_lex, tr_lex = LEXICON[SOURCE_LANGUAGE], LEXICON.get(lang)
    if tr_lex is None:
        return None
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_text, tr_text = english[ea:eb], text[ta:tb]
        en_must, tr_must = en_lex.must.search(en_text), tr_lex.must.search(tr_text)
        if tr_must and not en_must and en_lex.may.search(en_text):
            return "obliges", Change((ta + tr_must.start(), ta + tr_must.end()), tr_must.group(), (), (ea, eb), (ta, tb))
        tr_may = tr_lex.may.search(tr_text)
        if en_must and not tr_must and tr_may:
            return "permits", Change((ta + tr_may.start(), ta + tr_may.end()), tr_may.group(), (en_must.group(),),
                                     (ea, eb), (ta, tb))
    return None


# ------------------------------------------------------------------ checks


def _english(t: Text) -> str | None:
    """The English a translation in a language the lexicon knows was made from (`Text.source`), for
    the canonical text and every other text of the unit in that language (a second published
    translation is read too), except one that says what the canonical says; None otherwise."""
    if t.lang == SOURCE_LANGUAGE or t.lang not in LEXICON or t.english is None:
        return None
    if t.index and t.text == t.canonical:
        return None
    return t.source


def against_english(compare: Callable[[Text, Data, str], Iterable[Flag]]) -> TextCheckFunction:
    """The by-text check that runs `compare(t, data, english)` on a text with the English it was
    made from (`_english`), and finds nothing in a text without one."""
    def run(t: Text, data: Data) -> Iterable[Flag]:
        english = _english(t)
        return () if english is None else compare(t, data, english)
    return run


def _at(text: str, change: Change) -> str:
    return quote(text, *change.span) if change.span else excerpt(text, change.where)


def number(t: Text, data: Data, english: str) -> Iterator[Flag]:
    change = number_change(english, t.text, t.lang)
    if change is None:
        return
    said = Quoted(change.said) if change.said else M_("no number")
    expected = QuotedEach(tuple(change.expected)) if change.expected else M_("no number")
    yield flag(M_("{label}: the text in {lang} says {said} (“{context}”) where the English says {english} "
                         "(“{sentence}”): a different number changes the rule", label=label(t),
                         lang=data.lang(t.lang), said=said, context=_at(t.text, change), english=expected,
                         sentence=excerpt(english, change.sentence)),
                   M_("say the number the English says"), span=change.span)


_BOUND = {"min": M_("a lower bound (at least)"), "max": M_("an upper bound (at most)")}


def bound(t: Text, data: Data, english: str) -> Iterator[Flag]:
    change = bound_change(english, t.text, t.lang)
    if change is None:
        return
    said: Message = _BOUND[change.said] if change.said else M_("no bound")
    expected = tuple(_BOUND[k] for k in change.expected) or M_("no bound")
    yield flag(M_("{label}: the text in {lang} sets {said} (“{context}”) where the English sets {english} "
                         "(“{sentence}”)", label=label(t), lang=data.lang(t.lang), said=said,
                         context=_at(t.text, change), english=expected,
                         sentence=excerpt(english, change.sentence)),
                   M_("keep the bound of the English: 'at least' is a lower bound, 'at most' and 'up to' "
                      "an upper one"), span=change.span)


def negation(t: Text, data: Data, english: str) -> Iterator[Flag]:
    whole = not t.index and whole_negations(t.text, t.lang) == 0
    for kind, change in negation_changes(english, t.text, t.lang):
        # no negation at all: structure.negation's finding (which reads canonical texts only)
        yield _negation_flag(t, data, english, kind, change, "structure.negation" if whole and kind == "lost" else "")


def _negation_flag(t: Text, data: Data, english: str, kind: str, change: Change, covered_by: str) -> Flag:
    if kind == "lost":
        return flag(M_("{label}: the English sentence “{sentence}” negates (“{negation}”); the text in {lang} "
                       "does not negate it there (“{text}”): it may say the opposite", label=label(t),
                       sentence=excerpt(english, change.sentence), negation=change.said,
                       lang=data.lang(t.lang), text=_at(t.text, change)),
                    M_("compare it with the English and write the negation (it is a change of meaning)"),
                    covered_by=covered_by)
    return flag(M_("{label}: the text in {lang} negates (“{context}”) where the English does not (“{sentence}”): "
                   "it may say the opposite", label=label(t), lang=data.lang(t.lang), context=_at(t.text, change),
                   sentence=excerpt(english, change.sentence)),
                M_("say what the English says, without the negation"), span=change.span, covered_by=covered_by)


_ROLE = {"player": M_("a player"), "opponent": M_("an opponent"), "teammate": M_("a teammate"),
         "owner": M_("an owner"), "controller": M_("a controller")}
_TERMBASE_ROLES = ("owner", "controller")


def _termbase_roles(data: Data, text: str, lang: str) -> dict[str, Span]:
    out: dict[str, Span] = {}
    for m in data.terms(text, lang):
        if m.concept_id in _TERMBASE_ROLES:
            out.setdefault(m.concept_id, (m.start, m.end))
    return out


def player(t: Text, data: Data, english: str) -> Iterator[Flag]:
    change = role_change(english, t.text, t.lang, _termbase_roles(data, english, SOURCE_LANGUAGE),
                         _termbase_roles(data, t.text, t.lang))
    if change is None:
        return
    yield flag(M_("{label}: the text in {lang} names {role} (“{context}”), whom the English does not name; "
                         "the English names {english} (“{sentence}”)", label=label(t), lang=data.lang(t.lang),
                         role=_ROLE[change.said], context=_at(t.text, change),
                         english=tuple(_ROLE[r] for r in change.expected) or M_("no player"),
                         sentence=excerpt(english, change.sentence)),
                   M_("name the player the English names: who does something is the rule"), span=change.span,
               english=change.english)


def _zone_words(data: Data, lang: str, zones: frozenset[str]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One pattern per language and run of the termbase's words for the zones (every form, deprecated
    ones too: "removed from the game"), matched on their own: a zone inside a longer term of
    another concept ("cards from the top of your library into your graveyard", the old 'mill') counts."""
    def make() -> tuple[re.Pattern[str] | None, dict[str, str]]:
        forms: dict[str, str] = {}
        for zone in sorted(zones):
            concept = data.termbase.concept(zone)
            for term in concept.terms.get(lang, ()) if concept is not None else ():
                for form in (term.text, *term.forms):
                    forms.setdefault(form.casefold(), zone)
        pattern = (re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
                              + r")(?![\w])", re.IGNORECASE) if forms else None)
        return pattern, forms
    return data.derived("meaning-zones", (lang, zones), make)


def _zones(data: Data, text: str, lang: str, zones: frozenset[str]) -> list[tuple[int, str]]:
    pattern, forms = _zone_words(data, lang, zones)
    if pattern is None:
        return []
    return [(m.start(), forms[m.group().casefold()]) for m in pattern.finditer(text) if m.group().casefold() in forms]


def zone(t: Text, data: Data, english: str) -> Iterator[Flag]:
    zones = frozenset(z for z in ZONES if data.termbase.concept(z) is not None)
    found = zone_change(english, t.text, t.lang, _zones(data, english, SOURCE_LANGUAGE, zones),
                        _zones(data, t.text, t.lang, zones))
    if found is None:
        return
    kind, change = found
    names = concept_names(data.termbase, change.expected)
    assert change.span is not None
    sentence = next(((a, b) for a, b in sentences(t.text) if a <= change.span[0] < b), (0, len(t.text)))
    if kind == "changed":
        msg = M_("{label}: the English sentence “{sentence}” names {english}; the text in {lang} names {zone} "
                 "there instead (“{context}”)", label=label(t), sentence=excerpt(english, change.sentence),
                 english=names, lang=data.lang(t.lang), zone=concept_name(data.termbase, change.said),
                 context=excerpt(t.text, sentence))
    else:
        msg = M_("{label}: in the English sentence “{sentence}” something comes from {english}; in the text in "
                 "{lang} it comes from {zone} (“{context}”): the zones are swapped", label=label(t),
                 sentence=excerpt(english, change.sentence), english=names, lang=data.lang(t.lang),
                 zone=concept_name(data.termbase, change.said), context=excerpt(t.text, sentence))
    yield flag(msg, M_("name the zones the English names, in their roles (from which zone, to which): a "
                              "wrong zone changes what the rule does"), span=change.span)


def modality(t: Text, data: Data, english: str) -> Iterator[Flag]:
    found = modality_change(english, t.text, t.lang)
    if found is None:
        return
    kind, change = found
    if kind == "obliges":
        msg = M_("{label}: the text in {lang} obliges (“{context}”) where the English permits (“{sentence}”)",
                 label=label(t), lang=data.lang(t.lang), context=_at(t.text, change),
                 sentence=excerpt(english, change.sentence))
    else:
        msg = M_("{label}: the text in {lang} permits (“{context}”) where the English obliges (“{sentence}”)",
                 label=label(t), lang=data.lang(t.lang), context=_at(t.text, change),
                 sentence=excerpt(english, change.sentence))
    yield flag(msg, M_("keep what the English permits and what it obliges: 'may' is not 'must'"),
                   span=change.span)


def qualifier(t: Text, data: Data, english: str) -> Iterator[Flag]:
    for kind, q, change in qualifier_changes(english, t.text, t.lang):
        if kind == "lost":
            msg = M_("{label}: the English sentence “{sentence}” says {what} (“{english}”); the text in {lang} "
                     "says nothing of it (“{context}”)", label=label(t), sentence=excerpt(english, change.sentence),
                     what=q.label, english=change.said, lang=data.lang(t.lang), context=excerpt(t.text, change.where))
            fix = M_("say it as the English does: without it the rule does something else")
        else:
            msg = M_("{label}: the text in {lang} says {what} (“{context}”), which the English sentence does not "
                     "say (“{sentence}”)", label=label(t), lang=data.lang(t.lang), what=q.label,
                     context=_at(t.text, change), sentence=excerpt(english, change.sentence))
            fix = M_("say what the English says, no more: what the text adds changes the rule")
        yield flag(msg, fix, span=change.span, english=change.english)


def opposite(t: Text, data: Data, english: str) -> Iterator[Flag]:
    found = opposite_change(english, t.text, t.lang)
    if found is None:
        return
    o, side, change = found
    yield flag(M_("{label}: the English sentence “{sentence}” says {english}; the text in {lang} says {said} "
                         "there (“{context}”): the opposite", label=label(t),
                         sentence=excerpt(english, change.sentence), english=o.labels[1 - side],
                         lang=data.lang(t.lang), said=o.labels[side], context=_at(t.text, change)),
                   M_("say {english}, as the English does", english=o.labels[1 - side]), span=change.span)


def colour(t: Text, data: Data, english: str) -> Iterator[Flag]:
    change = colour_change(english, t.text, t.lang)
    if change is None:
        return
    yield flag(M_("{label}: the text in {lang} names the colour {said} (“{context}”), which the English sentence "
                         "does not name; it names {english} (“{sentence}”)", label=label(t), lang=data.lang(t.lang),
                         said=COLOURS[change.said], context=_at(t.text, change),
                         english=tuple(COLOURS[c] for c in change.expected),
                         sentence=excerpt(english, change.sentence)),
                   M_("name the colours the English names"), span=change.span)


def sentence_change(english: str, text: str) -> tuple[int, int] | None:
    """(English sentences, translated sentences) when the translation has fewer: one may be
    missing. Uncertain (two sentences may rightly become one), so a warning."""
    en, tr = len(sentences(english)), len(sentences(text))
    return (en, tr) if tr < en else None


def sentence(t: Text, data: Data, english: str) -> Iterator[Flag]:
    from .structure import MAX_RATIO, MIN_LENGTH, MIN_RATIO
    found = sentence_change(english, t.text)
    if found is None:
        return
    current = t.english
    # far too short: structure.length's finding, once
    short = current is not None and len(current) >= MIN_LENGTH and not MIN_RATIO <= len(t.text) / len(current) <= MAX_RATIO
    en_spans = sentences(english)
    yield flag(MN_("{label}: the English has {en} sentence, the text in {lang} {tr}: a sentence may be "
                   "missing (the English ends “{last}”)",
                   "{label}: the English has {en} sentences, the text in {lang} {tr}: a sentence may be "
                   "missing (the English ends “{last}”)", "en", label=label(t), en=found[0], tr=found[1],
                   lang=data.lang(t.lang), last=excerpt(english, en_spans[-1])),
               M_("compare it sentence by sentence with the English: translate what is missing"),
               covered_by="structure.length" if short else "")


CHECKS = (
    TextCheck("meaning.number", "a number said in words that differs from the English", Severity.ERROR, against_english(number)),
    TextCheck("meaning.bound", "'at least' and 'at most' read the other way, or a bound added or lost", Severity.ERROR, against_english(bound)),
    TextCheck("meaning.negation", "a sentence that negates where the English does not, or the other way round", Severity.ERROR, against_english(negation)),
    TextCheck("meaning.player", "a player role (opponent, owner, controller …) the English does not name", Severity.ERROR, against_english(player)),
    TextCheck("meaning.zone", "the zones of a sentence changed or swapped against the English", Severity.ERROR, against_english(zone)),
    TextCheck("meaning.modality", "'may' read as 'must', or 'must' as 'may'", Severity.ERROR, against_english(modality)),
    TextCheck("meaning.qualifier", "a qualifier of the English (until end of turn, instead, another, target, only, one or "
              "more, an opponent) left out, or one added", Severity.ERROR, against_english(qualifier)),
    TextCheck("meaning.opposite", "one of two opposites said for the other (tapped/untapped, top/bottom, attacking/"
              "blocking, gain/lose …)", Severity.ERROR, against_english(opposite)),
    TextCheck("meaning.colour", "a colour the English sentence does not name", Severity.ERROR, against_english(colour)),
    TextCheck("meaning.sentences", "fewer sentences than the English: one may be missing", Severity.WARNING, against_english(sentence)),
)
