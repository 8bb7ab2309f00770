"""The qualifiers, opposites and colours a translation must keep (stage: check; the comparisons
behind `meaning.qualifier`, `meaning.opposite` and `meaning.colour`): each a table of how the
English, German and French say it, and a pure function of (English, translation, language) that
says what changed, sentence by sentence (`sentences.aligned`).

- `qualifier_changes`: a qualifier of the English ("until end of turn", "instead", "another",
  "target", "one or more", "only", "an opponent") left out, or one added ("nur" for "not just");
- `opposite_change`: one of two opposites said for the other (tapped/untapped, top/bottom …);
- `colour_change`: a colour the English sentence does not name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..models import M_, SOURCE_LANGUAGE, Message
from .sentences import Change, aligned, unparenthesised

_I = re.IGNORECASE


def _per_lang(en: str, de: str, fr: str) -> Mapping[str, re.Pattern[str]]:
    return {"en": re.compile(en, _I), "de": re.compile(de, _I), "fr": re.compile(fr, _I)}


@dataclass(frozen=True)
class Qualifier:
    """A word of the English that limits what a sentence does ("until end of turn", "instead",
    "another", "target", "only"), with how each language says it: `said` is what counts as
    keeping it (a translation without it has lost it), `added` what counts as adding it where
    the English does not say it (None: a translation may rightly say it unbidden, as German cards
    add "deiner Wahl"), and `unless` what in the English sentence lets a translation leave it
    unsaid ("Activate only as a sorcery" / "Aktiviere … wie eine Hexerei": official German)."""
    name: str
    label: Message
    said: Mapping[str, re.Pattern[str]]
    added: Mapping[str, re.Pattern[str]] | None = None
    unless: re.Pattern[str] | None = None


_EOT_EN = r"\buntil (?:the )?end of (?:the |that |this )?turn\b|\b(?:this|that) turn\b"
_EOT_DE = r"\bbis zum Ende des (?:\w+ )?Zug(?:e)?s\b|\b(?:in |an )?(?:diesem|jenem|dem) Zug\b|\bdiesen Zug\b"
_EOT_FR = r"\bjusqu['’]à (?:la )?fin (?:du|de ce) tour\b|\bce tour(?:-ci|-là)?\b|\b(?:de|à|pendant) ce tour\b"

QUALIFIERS: tuple[Qualifier, ...] = (
    Qualifier("turn", M_("a duration to the end of the turn (“until end of turn”, “this turn”)"),
              _per_lang(_EOT_EN, r"\bZug\w*", r"\btours?\b"), _per_lang(r"\bturns?\b", _EOT_DE, _EOT_FR)),
    Qualifier("next-turn", M_("a duration to a next turn (“until your next turn”)"),
              _per_lang(r"\bnext turn\b", r"\bnächsten Zug\w*", r"\bprochain tour\b"),
              _per_lang(r"\bnext turn\b", r"\bnächsten Zug\w*", r"\bprochain tour\b")),
    Qualifier("combat", M_("a duration to the end of combat (“until end of combat”)"),
              _per_lang(r"\bend of combat\b(?! step)|\bthis combat\b(?! phase)", r"\bKampf\w*", r"\bcombats?\b"),
              _per_lang(r"\bcombat\b", r"\bEnde des Kampf\w*|\bdiesem Kampf\b", r"\bfin du combat\b|\bce combat\b")),
    Qualifier("instead", M_("a replacement (“instead”, “rather than”)"),
              _per_lang(r"\binstead\b|\brather than\b",
                        r"\bstattdessen\b|\b(?:an)?statt\b|\banstelle\b|\bersetz\w*|\bersatz\w*",
                        r"\bà la place\b|\bau lieu\b|\bplutôt\b|\bremplac\w*"),
              _per_lang(r"\binstead\b|\brather than\b|\breplac\w*|\bin place of\b|\binstead of\b",
                        r"\bstattdessen\b|\banstatt\b|\banstelle\b", r"\bà la place\b|\bau lieu\b")),
    Qualifier("another", M_("“another” or “other” (not this one)"),
              _per_lang(r"(?<!one )\banother\b|(?<!each )\bother\b(?! than)|\belse\b",
                        r"\bzusammen mit\b|\bander\w*|\bsonst\w*|\bweitere\w*|\bzusätzlich\w*|\baußer\b|\bnoch\b",
                        r"\bautres?\b|\bd['’]autre|\bsupplémentaire\w*|\bsauf\b|\bde plus\b|\bencore\b")),
    Qualifier("target", M_("a target (“target”)"),
              _per_lang(r"\btarget\w*", r"\bZiel\w*|\bWahl\b|\bbestimm\w*|\banvisier\w*", r"\bcibl\w*|\bcibles?\b"),
              _per_lang(r"\btarget\w*", r"\bZiel\w*", r"\bciblée?s?\b")),
    Qualifier("one-or-more", M_("“one or more”"),
              _per_lang(r"\bone or more\b",
                        r"\bein\w* oder mehrere\w*|\bmindestens ein\w*|\bein- oder mehr\w*|\bein\w* oder mehr\b",
                        r"\bune? ou plusieurs\b|\bau moins une?\b|\bune? ou plus\b")),
    Qualifier("only", M_("a restriction (“only”)"),
              _per_lang(r"\bonly\b", r"\bnur\b|\bausschließlich\b|\blediglich\b|\beinzig\w*|\berst\b|\bbloß\b",
                        r"\bseul\w*|\buniquement\b|\bexclusivement\b|\bne\b[^.;:]*\bqu(?:e\b|['’])|\bn['’][^.;:]*\bqu(?:e\b|['’])"),
              unless=re.compile(r"\bonly as an? (?:sorcery|instant)\b", _I)),
    Qualifier("opponent", M_("an opponent"),
              _per_lang(r"\bopponents?\b|\bopponent['’]s\b", r"\bGegner\w*", r"\badversaires?\b")),
)

# "not just" / "not only": a translation that keeps the restriction but drops its negation says the opposite
_NOT_ONLY = _per_lang(r"\bnot (?:just|only|merely)\b",
                      r"\bnicht (?:nur|bloß|lediglich|allein|ausschließlich)\b",
                      r"\b(?:non|pas) (?:seulement|uniquement|que)\b|\bne\b[^.;:]*\bpas (?:seulement|uniquement|que)\b")
_ONLY_WORD = _per_lang(r"\b(?:just|only|merely)\b", r"\b(?:nur|bloß|lediglich|ausschließlich)\b",
                       r"\b(?:seulement|uniquement)\b|\bne\b[^.;:]*\bqu(?:e\b|['’])")


@dataclass(frozen=True)
class Opposite:
    """Two things a rule tells apart that a translation may swap (tapped and untapped, the top and
    the bottom of a library, attacking and blocking …), each with how each language says it."""
    name: str
    labels: tuple[Message, Message]
    sides: tuple[Mapping[str, re.Pattern[str]], Mapping[str, re.Pattern[str]]]


OPPOSITES: tuple[Opposite, ...] = (
    Opposite("tap", (M_("tapped (tap)"), M_("untapped (untap)")),
             (_per_lang(r"(?<![\w-])tap(?:s|ped|ping)?\b", r"\b(?:tapp\w*|getappt\w*)", r"\bengag\w*"),
              _per_lang(r"\buntap\w*", r"\b(?:enttapp\w*|ungetappt\w*)", r"\bdégag\w*"))),
    Opposite("top", (M_("the top"), M_("the bottom")),
             (_per_lang(r"\btop\b", r"\boben\b|\bober(?:st)?e\w*", r"\b(?:au-)?dessus\b"),
              _per_lang(r"\bbottom\b", r"\bunten\b|\bunter(?:st)?e\w*|\bunter (?:deine|seine|ihre|die|eine|jede) Bibliothek",
                        r"\b(?:au-)?dessous\b"))),
    Opposite("attack", (M_("attacking"), M_("blocking")),
             (_per_lang(r"\battack\w*", r"\bangr\w*|\bAngriff\w*|\bgreif\w*", r"\battaqu\w*"),
              _per_lang(r"\bblock\w*", r"\bblock\w*|\bgeblockt\w*", r"\bbloqu\w*"))),
    Opposite("gain", (M_("gaining or winning"), M_("losing")),
             (_per_lang(r"\b(?:gain\w*|win\w*|won|gets?|getting|receives?|receiving)\b", r"\b(?:erhält\w*|erhalte\w*|dazu|gewinn\w*|gewonnen)\b",
                        r"\bgagn\w*|\bacqui\w*|\bobtien\w*"),
              _per_lang(r"\blos(?:e|es|t|ing)\b", r"\bverl(?:ier|or)\w*|\bverloren\b", r"\bperd\w*"))),
    Opposite("begin", (M_("the beginning"), M_("the end")),
             (_per_lang(r"\bbeginning\b|\bbegins?\b", r"\bBeginn\w*|\bbeginn\w*|\bAnfang\w*", r"\bdébut\w*|\bcommence\w*"),
              _per_lang(r"\bend\b(?!\s+step)|\bends\b", r"\bEnde\b|\bendet\b", r"(?<!étape de )\bfin\b"))),
    Opposite("before", (M_("before"), M_("after")),
             (_per_lang(r"\bbefore\b", r"\bbevor\b|\bvor\b|\bvorher\b|\bzuvor\b", r"\bavant\b"),
              _per_lang(r"\bafter\w*\b", r"\bnachdem\b|\bnach\b", r"\baprès\b"))),
    Opposite("power", (M_("power"), M_("toughness")),
             (_per_lang(r"\bpower\b", r"\bStärke\b", r"\bforce\b"),
              _per_lang(r"\btoughness\b", r"\bWiderstandskraft\b", r"\bendurance\b"))),
    Opposite("more", (M_("more (greater, higher)"), M_("fewer (less, lower)")),
             (_per_lang(r"(?<!or )\b(?:more|greater|higher)\b|\bgreatest\b|\bhighest\b|(?<!at )\bmost\b",
                        r"(?<!oder )\b(?:mehr|größer\w*|höher\w*)|\bhöchst(?!ens)\w*",
                        r"(?<!ne )(?<!n['’])(?<!au )\bplus (?:de|d['’]|que|grande?s?|élevée?s?)\b"
                        r"|\bsupérieur\w*"),
              _per_lang(r"(?<!or )\b(?:fewer|less|lower)\b|\blowest\b|\bsmallest\b|(?<!at )\bleast\b",
                        r"(?<!oder )\bweniger\b|\bkleiner\w*|\bniedriger\w*|\bniedrigst\w*|\bgeringer\w*|\bgeringst\w*",
                        r"(?<!au )(?<!à )(?<!ou )\bmoins\b|\binférieur\w*|\bplus petite?s?\b|\bplus faibles?\b"))),
    Opposite("enter", (M_("entering"), M_("leaving")),
             (_per_lang(r"\benter\w*", r"\bkomm\w*|\bbetr[ie]\w*|\bgelang\w*", r"\barriv\w*|\bentr\w*"),
              _per_lang(r"\bleaves?\b|\bleaving\b|\bleft\b", r"\bverl[äa]ss\w*|\bverließ\w*", r"\bquitt\w*"))),
    Opposite("first", (M_("the first"), M_("the last")),
             (_per_lang(r"\bfirst\b", r"\berst(?:e|en|er|es|em)\b|\bzuerst\b", r"\bpremi(?:er|ère)s?\b|\bd['’]abord\b"),
              _per_lang(r"\blast\b", r"\bletzt\w*", r"\bderni(?:er|ère)s?\b"))),
    Opposite("draw", (M_("drawing"), M_("discarding")),
             (_per_lang(r"\bdraw\w*|\bdrew\b", r"\bzieh\w*|\bgezogen\w*|\bzog\w*", r"\bpioch\w*"),
              _per_lang(r"\bdiscard\w*", r"\babw[iue]rf\w*|\bwirf\w*|\babgeworfen\w*|\bwarf\w*", r"\bdéfauss\w*"))),
)


# the five colours (the words, not mana symbols, which are the same in every language)
COLOURS: dict[str, Message] = {"white": M_("white"), "blue": M_("blue"), "black": M_("black"), "red": M_("red"),
                               "green": M_("green")}
_COLOUR_WORDS = {
    "en": {"white": r"\bwhite\b", "blue": r"\bblue\b", "black": r"\bblack\b", "red": r"\bred\b", "green": r"\bgreen\b"},
    "de": {"white": r"\bweiß(?:e|en|er|es|em)?\b", "blue": r"\bblau(?:e|en|er|es|em)?\b",
           "black": r"\bschwarz(?:e|en|er|es|em)?\b", "red": r"\brot(?:e|en|er|es|em)?\b",
           "green": r"\bgrün(?:e|en|er|es|em)?\b"},
    "fr": {"white": r"\bblanc(?:he)?s?\b", "blue": r"\bbleue?s?\b", "black": r"\bnoire?s?\b", "red": r"\brouges?\b",
           "green": r"\bverte?s?\b"},
}
_COLOUR = {lang: re.compile("|".join(f"(?P<{c}>{p})" for c, p in words.items()), _I)
           for lang, words in _COLOUR_WORDS.items()}


def colour_change(english: str, text: str, lang: str) -> Change | None:
    """The first sentence whose translation names a colour its English does not, where the English
    names one ("a white Soldier" / "einen schwarzen Soldaten"): `said` is the colour's id, `expected`
    the English's."""
    pattern = _COLOUR.get(lang)
    if pattern is None:
        return None
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_text, tr_text = unparenthesised(english[ea:eb], text[ta:tb])
        en = {m.lastgroup for m in _COLOUR[SOURCE_LANGUAGE].finditer(en_text)}
        if not en:
            continue
        extra = next((m for m in pattern.finditer(tr_text) if m.lastgroup not in en), None)
        if extra is not None:
            return Change((ta + extra.start(), ta + extra.end()), extra.lastgroup or "",
                          tuple(c for c in COLOURS if c in en), (ea, eb), (ta, tb))
    return None



def qualifier_changes(english: str, text: str, lang: str) -> list[tuple[str, Qualifier, Change]]:
    """The qualifiers a translation loses ("lost": the English sentence says "until end of turn",
    its translation nothing of the kind; `said` is the English words) or adds ("added": `span` is
    the translation's words), sentence by sentence; each qualifier once per text. A "not just" whose
    negation is lost ("nicht nur" → "nur") is the qualifier "only" added."""
    if lang not in _NOT_ONLY:
        return []
    out: list[tuple[str, Qualifier, Change]] = []
    seen: set[str] = set()
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_text, tr_text = unparenthesised(english[ea:eb], text[ta:tb])
        for q in QUALIFIERS:
            if q.name in seen:
                continue
            m = q.said[SOURCE_LANGUAGE].search(en_text)
            if m and not q.said[lang].search(tr_text) and not (q.unless and q.unless.search(en_text)):
                seen.add(q.name)
                out.append(("lost", q, Change(None, m.group(), (m.group(),), (ea, eb), (ta, tb),
                                              ((ea + m.start(), ea + m.end()),))))
                continue
            added = q.added[lang].search(tr_text) if q.added is not None else None
            if added and not q.added[SOURCE_LANGUAGE].search(en_text):   # type: ignore[index]
                seen.add(q.name)
                out.append(("added", q, Change((ta + added.start(), ta + added.end()), added.group(), (), (ea, eb),
                                               (ta, tb))))
        if "only" not in seen and _NOT_ONLY[SOURCE_LANGUAGE].search(en_text) and not _NOT_ONLY[lang].search(tr_text):
            only = _ONLY_WORD[lang].search(tr_text)
            if only:
                seen.add("only")
                q = next(q for q in QUALIFIERS if q.name == "only")
                out.append(("added", q, Change((ta + only.start(), ta + only.end()), only.group(), (), (ea, eb),
                                               (ta, tb))))
    return out


def opposite_change(english: str, text: str, lang: str) -> tuple[Opposite, int, Change] | None:
    """The first sentence whose translation says one of two opposites where its English says the
    other and not this one ("untap" / "tappe", "the top of your library" / "unter deine Bibliothek"):
    the opposite, the side the translation says (0 or 1) and where."""
    if lang not in _NOT_ONLY:
        return None
    for (ea, eb), (ta, tb) in aligned(english, text):
        en_text, tr_text = unparenthesised(english[ea:eb], text[ta:tb])
        for o in OPPOSITES:
            en = [bool(side[SOURCE_LANGUAGE].search(en_text)) for side in o.sides]
            if en[0] == en[1]:
                continue
            said = 1 if en[0] else 0        # the side the English does not say
            m = o.sides[said][lang].search(tr_text)
            if m and not o.sides[1 - said][lang].search(tr_text):
                return o, said, Change((ta + m.start(), ta + m.end()), m.group(), (), (ea, eb), (ta, tb))
    return None
