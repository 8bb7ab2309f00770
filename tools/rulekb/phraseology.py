"""Phraseology: how the official German and French card texts write the game's recurring
phrases, read by the check stage (``phraseology`` checks). Pipeline position: loaded beside the
knowledge base like the termbase (load -> validate), used by check; nothing here reads rules/.
The data is mined from MTGJSON's printed card texts by `rulekb.importers.phrases` (``rulekb
phrases mine``) into ``translations/phraseology.yaml``; nobody writes it by hand.

A phrase *family* is a pattern with one variable slot, the rest of the match being its *frame*:

- ``zone``: a preposition (or a preposition fused with its article: "ins", "du", "au") before an
  optional determiner and a zone ("aus deinem Friedhof", "dans votre main", "en exil"). The slot
  is the preposition; the frame is the determiner and the zone ("deinem friedhof"), so the case
  the determiner shows is part of it: "auf deinen Friedhof" (where to) and "in deinem Friedhof"
  (where) are different frames.
- ``verb``: a verb and the noun it takes as object, German "Zauberspruch wirken", "Manakosten
  (zu) bezahlen" (the verb after its object: infinitives and verb-final clauses), French
  "lancer ce sort", "payer son coût" (the verb before its object). The slot is the verb; the
  frame is the noun.
- ``relative``: a relative pronoun before the subject and verb of its clause ("die du
  kontrollierst", "que vous contrôlez"). The slot is the pronoun; the frame the subject and verb.
- ``reminder``: the reminder text of a keyword, a card's line "Keyword (…)" paired with the same
  line of its English text: the frame is the English reminder ("you may cast this card from your
  graveyard by discarding a land card in addition to paying its other costs."), the filler the
  printed translation (`reminders`). A rules text that quotes a keyword's English reminder
  should quote the official translation of it.

For each frame and language the data counts each filler of the slot: in how many distinct
official texts (`texts`), weighted by how recent they are (`weight`: a text last printed `y`
years before the newest set counts ``0.5 ** (y / HALF_LIFE)``, so the retired "ins Spiel"-era
wordings weigh less), the oldest and newest printing with it and the form printed most often
("aus deinem Friedhof"). The check (`rulekb.check.phraseology`) reports a translation whose
filler official texts never or hardly use in a frame where they consistently use another
(`Phraseology.verdict`).

The same compiled patterns (`patterns(lang)`, made once per language and run) find the phrases
in the official texts when mining and in the translations when checking.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Iterator, Mapping

from .cache import cached
from .diagnostics import DataError, Problem
from .layout import LANGUAGES_FILE
from .load import Node, parse_file
from .models import Language
from .schema import Reader, languages_from

PHRASEOLOGY_FILE = "translations/phraseology.yaml"
FAMILIES = ("zone", "verb", "relative", "reminder")
OPEN_SLOTS = ("verb",)    # families whose slot is any word of a form, not a closed list
HALF_LIFE = 5.0        # years: a text printed last five years before the newest set counts half

# The verdict's thresholds (`Phraseology.verdict`), on weights:
FRAME_MIN = 15.0       # a frame needs this much official use before it says what is unusual
DOMINANT_MIN = 10.0    # the variant quoted as the official one carries at least this much, …
DOMINANT_SHARE = 0.6   # … and with the next one at most, this share of the frame: official texts
                       # use them consistently
RARE_SHARE = 0.05      # a filler with less than this share of its frame's weight is unusual …
RECENT_MIN = 5         # … unless official texts printed it this often in the last RETIRED_YEARS years
FAMILIAR_MIN = 20.0    # … when official texts use it in other frames of its family this much (a
                       # word of the slot's class, not a word the patterns caught by chance)
RETIRED_YEARS = 8      # a variant is retired when fewer than RETIRED_SHARE of its texts were printed in
RETIRED_SHARE = 0.05   # the last RETIRED_YEARS years before the newest set, …
RETIRED_TEXTS = 20     # … though it was common before (this many texts)


# ------------------------------------------------------------------ the grammar of the families


@dataclass(frozen=True)
class Grammar:
    """What the families need to know of one language."""

    prepositions: tuple[str, ...]
    fused: Mapping[str, tuple[str, str]]        # "ins" -> ("in", "das"), "du" -> ("de", "le")
    determiners: tuple[str, ...]                # articles, possessives, demonstratives
    elided: tuple[str, ...]                     # determiners written with an apostrophe: "l'"
    zones: tuple[str, ...]                      # the zones' nouns with their inflected forms
    objects: tuple[str, ...]                    # nouns whose verb the `verb` family looks at
    verb_after_object: bool                     # German: "… Zauberspruch wirken"; French: "lancer ce sort"
    particles: tuple[str, ...] = ()             # words between object and verb that are not the verb ("zu")
    verb_endings: tuple[str, ...] = ()          # how the verb forms of the slot end
    not_verbs: tuple[str, ...] = ()             # words with those endings that are not the verbs sought
    # prepositions that compete for one meaning ("aus"/"von": from; "in"/"auf": where, where to);
    # a preposition of no class ("mit", "pour") is never judged against another
    classes: tuple[tuple[str, ...], ...] = ()
    not_objects_after: tuple[str, ...] = ()     # a noun after these is no object ("… einer Karte spielst")
    relatives: tuple[str, ...] = ()             # relative pronouns ("die", "welche"; "que", "dont")
    subjects: tuple[str, ...] = ()              # subjects of a relative clause ("du", "ein Gegner"; "vous")
    relative_classes: tuple[tuple[str, ...], ...] = ()   # pronouns that compete ("die"/"welche")
    finite_endings: tuple[str, ...] = ()        # how the verb of a relative clause ends ("kontrollierst", "contrôlez")
    # nouns of a meaning of their own that hold a zone phrase: the French "une mise en jeu (de
    # terrain)" is a land play, current wording, not the retired "en jeu" (in play, the battlefield)
    set_phrases: tuple[str, ...] = ()


_DE_DETERMINERS = tuple(
    ["der", "die", "das", "dem", "den", "des", "ein", "eine", "einem", "einen", "einer", "eines"]
    + [p + e for p in ("dein", "sein", "ihr", "mein", "unser", "jed", "dies", "jen", "kein", "ander", "welch")
       for e in ("", "e", "em", "en", "er", "es") if p + e not in ("jed", "dies", "jen", "ander", "welch")])

GRAMMARS: Mapping[str, Grammar] = MappingProxyType({
    "de": Grammar(
        prepositions=("aus", "von", "in", "auf", "an", "unter", "zu", "mit", "nach", "über", "bei", "für", "durch",
                      "vor", "hinter", "neben"),
        fused=MappingProxyType({"ins": ("in", "das"), "im": ("in", "dem"), "vom": ("von", "dem"), "zum": ("zu", "dem"),
                                "zur": ("zu", "der"), "aufs": ("auf", "das"), "am": ("an", "dem"), "ans": ("an", "das"),
                                "beim": ("bei", "dem"), "unters": ("unter", "das"), "übers": ("über", "das")}),
        determiners=_DE_DETERMINERS,
        elided=(),
        zones=("friedhof", "friedhofs", "friedhöfe", "friedhöfen", "hand", "hände", "händen", "bibliothek",
               "bibliotheken", "exil", "exils", "spiel", "spiels", "schlachtfeld", "schlachtfelds", "stapel", "stapels",
               "kommandozone"),
        objects=("zauberspruch", "zaubersprüche", "karte", "karten", "manakosten", "kosten", "land", "länder",
                 "fähigkeit", "fähigkeiten", "kreatur", "kreaturen", "bleibende karte", "bleibende karten",
                 "spielstein", "spielsteine", "marke", "marken", "mana"),
        verb_after_object=True,
        particles=("zu",),
        # whence; where and where to ("unter deine Bibliothek" is beneath it: a meaning of its own)
        classes=(("aus", "von"), ("in", "auf", "an")),
        not_objects_after=("einer", "eines", "des", "einem", "dem", "deiner", "deines", "deinem", "seiner", "seines",
                           "seinem", "ihrer", "ihres", "ihrem", "jener", "jenes", "jenem", "diesem", "jedem", "jeder",
                           "keiner", "keines", "keinem", "anderer", "anderen", "mit", "von", "aus", "zu"),
        relatives=("die", "der", "das", "den", "dem", "welche", "welcher", "welches", "welchen", "welchem"),
        subjects=("du", "er", "sie", "ein spieler", "ein gegner", "dein gegner", "jeder spieler", "dieser spieler",
                  "jener spieler", "ihr besitzer", "sein besitzer", "sein beherrscher", "ihr beherrscher"),
        relative_classes=(("die", "welche"), ("der", "welcher"), ("das", "welches"), ("den", "welchen"),
                          ("dem", "welchem")),
        finite_endings=("st", "t", "n"),
        verb_endings=("n", "t"),    # infinitives (wirken, opfern), 2nd and 3rd person (wirkst, wirkt)
        not_verbs=("ist", "hat", "hast", "bist", "wird", "wirst", "kann", "kannst", "darf", "darfst", "muss", "musst",
                   "soll", "sollst", "will", "willst", "sein", "haben", "werden", "können", "dürfen", "müssen",
                   "sollen", "wollen", "waren", "hatten", "wurden", "würden", "könnten", "nicht", "jetzt", "erst",
                   "zuerst", "zuletzt", "selbst", "sonst", "fast", "bereits", "mindestens", "höchstens", "meist",
                   "oben", "unten", "zwischen", "neben", "gegen", "wegen", "einen", "keinen", "allen", "deren", "denen",
                   "ihnen", "stattdessen", "dann", "wenn", "man", "an", "in", "ein", "kein", "mehr"),
    ),
    "fr": Grammar(
        prepositions=("de", "depuis", "dans", "sur", "en", "à", "vers", "par", "sous", "pour", "avec", "hors de",
                      "au-dessus de", "au-dessous de", "contre", "entre", "parmi"),
        fused=MappingProxyType({"du": ("de", "le"), "des": ("de", "les"), "au": ("à", "le"), "aux": ("à", "les"),
                                "d'": ("de", "")}),
        determiners=("le", "la", "les", "un", "une", "votre", "vos", "son", "sa", "ses", "leur", "leurs", "ce", "cet",
                     "cette", "ces", "notre", "nos", "mon", "ma", "mes", "ton", "ta", "tes", "chaque", "aucun",
                     "aucune", "tout", "toute", "tous", "toutes"),
        elided=("l'",),
        zones=("cimetière", "cimetières", "main", "mains", "bibliothèque", "bibliothèques", "exil", "champ de bataille",
               "pile", "jeu", "zone de commandement"),
        objects=("sort", "sorts", "carte", "cartes", "coût", "coûts", "coût de mana", "terrain", "terrains",
                 "capacité", "capacités", "créature", "créatures", "permanent", "permanents", "jeton", "jetons",
                 "marqueur", "marqueurs", "mana"),
        verb_after_object=False,
        # where and where to ("de" is also the genitive's "of": it competes with no other preposition;
        # "au-dessus de" is on top of: a meaning of its own)
        classes=(("dans", "sur", "en", "à", "vers"),),
        relatives=("que", "qu'", "dont", "lequel", "laquelle", "lesquels", "lesquelles"),
        subjects=("vous", "il", "elle", "ils", "elles", "un adversaire", "un joueur", "ce joueur", "votre adversaire",
                  "son propriétaire", "son contrôleur", "chaque joueur"),
        relative_classes=(("que", "qu'", "dont", "lequel", "laquelle", "lesquels", "lesquelles"),),
        finite_endings=("ez", "e", "ent", "it", "ont"),
        verb_endings=("er", "ir", "re", "ez"),  # infinitives (lancer) and imperatives (lancez)
        # the noun after an article or "de" ("les règles de mise en jeu"); the participle ("les forêts mises en
        # jeu", 2007) is the zone phrase
        set_phrases=("une mise en jeu", "la mise en jeu", "de mise en jeu"),
        not_verbs=("contre", "entre", "outre", "autre", "notre", "votre", "leur", "chaque", "lettre", "titre",
                   "nombre", "ordre", "premier", "dernier", "entier", "plusieurs"),
    ),
})


def _alternation(words) -> str:
    """A regex matching any of the words, as a trie (shared beginnings matched once: several
    times faster than a flat alternation), longest first; a space matches any white space, an
    apostrophe either apostrophe."""
    trie: dict = {}
    for word in sorted(set(words)):
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        branches = []
        for ch in sorted(k for k in node if k):
            piece = r"\s+" if ch == " " else "['’]" if ch == "'" else re.escape(ch)
            branches.append(piece + build(node[ch]))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


_APOSTROPHES = str.maketrans({"’": "'", "ʼ": "'"})
_L = r"[^\W\d_]"
_WORD_OR_HYPHEN = re.compile(r"[\w-]")


@dataclass(frozen=True)
class Occurrence:
    """One phrase of a family in a text: where, its frame, the slot's filler as written
    (fused forms resolved: "ins" -> filler "in"), and the phrase as written."""

    family: str
    frame: str       # normalised: lowercase, single spaces, apostrophes straight ("deinem friedhof", "∅ exil")
    filler: str      # normalised ("aus", "de", "lancer")
    start: int
    end: int

    def phrase(self, text: str) -> str:
        return " ".join(text[self.start:self.end].split())


NO_DETERMINER = "∅"


@dataclass(frozen=True)
class Patterns:
    """The compiled patterns of one language's families (`patterns`)."""

    lang: str
    grammar: Grammar
    zone: re.Pattern[str]
    verb: re.Pattern[str]
    relative: re.Pattern[str] | None
    excluded: frozenset[str]     # words the verb slot skips: determiners, prepositions, objects, not_verbs
    set_phrases: re.Pattern[str] | None = None   # `Grammar.set_phrases`: no zone phrase inside them

    def find(self, text: str) -> Iterator[Occurrence]:
        """The occurrences of every family in `text`, in text order within a family."""
        g = self.grammar
        inside = [m.span() for m in self.set_phrases.finditer(text)] if self.set_phrases is not None else []
        for m in self.zone.finditer(text):
            if inside and any(a <= m.start() < b for a, b in inside):
                continue  # "une mise en jeu": a land play, not the zone
            prep = _norm(m.group("prep"))
            det = _norm(m.group("det") or "")
            noun = _norm(m.group("noun"))
            if prep in g.fused:
                prep, fused_det = g.fused[prep]
                if fused_det and det:
                    continue  # "ins dem": not a phrase of the family
                det = fused_det or det
            yield Occurrence("zone", f"{det or NO_DETERMINER} {noun}", prep, m.start(), m.end())
        for m in self.verb.finditer(text):
            verb = _norm(m.group("verb"))
            if not verb.endswith(g.verb_endings) or verb in self.excluded:
                continue
            if g.not_objects_after:
                before = _LAST_WORD.search(text, max(0, m.start("obj") - 20), m.start("obj"))
                if before is not None and _norm(before.group(1)) in g.not_objects_after:
                    continue
            yield Occurrence("verb", _norm(m.group("obj")), verb, m.start(), m.end())
        if self.relative is not None:
            for m in self.relative.finditer(text):
                if not m.group("verb").endswith(g.finite_endings) or _norm(m.group("verb")) in self.excluded:
                    continue
                yield Occurrence("relative", f"{_norm(m.group('subj'))} {_norm(m.group('verb'))}", _norm(m.group("rel")),
                                 m.start(), m.end())


_LAST_WORD = re.compile(r"([^\W\d_]+)\s+$")


_REMINDER_LINE = re.compile(r"^(?P<keyword>[^\n()]{2,60}?)\s*\((?P<reminder>[^()]{15,})\)\s*$")


def reminders(english: str, text: str) -> Iterator[tuple[str, Occurrence]]:
    """The reminder texts of a printed card text, each paired with the English (Oracle) reminder
    of the same line: (the English reminder as written, its occurrence in `text`: frame = the
    English reminder normalised, filler = the printed one normalised). Texts whose lines do not
    correspond (another number of lines) give none."""
    english_lines = english.split("\n")
    lines = text.split("\n")
    if len(english_lines) != len(lines):
        return
    offset = 0
    for en, line in zip(english_lines, lines):
        m_en = _REMINDER_LINE.match(en.strip())
        m = _REMINDER_LINE.match(line.strip()) if m_en else None
        if m_en and m:
            start = offset + (len(line) - len(line.lstrip())) + m.start("reminder")
            yield m_en.group("reminder"), Occurrence("reminder", _norm(m_en.group("reminder")), _norm(m.group("reminder")),
                                                     start, start + len(m.group("reminder")))
        offset += len(line) + 1


def fold(text: str) -> str:
    """A text as the reminder family compares it: `_norm` (lowercase, apostrophes straight, single
    spaces)."""
    return _norm(text)


def _norm(text: str) -> str:
    return " ".join(text.translate(_APOSTROPHES).casefold().split())


@functools.lru_cache(maxsize=None)
def patterns(lang: str) -> Patterns | None:
    """The compiled patterns of `lang` (once per process), None for a language without grammar."""
    g = GRAMMARS.get(lang)
    if g is None:
        return None
    # a word written with an apostrophe ("l'", "d'") may touch the next word; others are followed by a space
    gap = r"(?:(?<=['’])\s*|\s+)"
    preps = _alternation(list(g.prepositions) + list(g.fused))
    dets = _alternation(list(g.determiners) + list(g.elided))
    zone = re.compile(rf"(?<!{_L})(?P<prep>{preps}){gap}(?:(?P<det>{dets}){gap})?(?P<noun>{_alternation(g.zones)})"
                      rf"(?!{_L})", re.IGNORECASE)
    objects = _alternation(g.objects)
    if g.verb_after_object:
        particles = rf"(?:(?:{_alternation(g.particles)})\s+)?" if g.particles else ""
        # the verb ends its clause: a punctuation mark, "und"/"oder" or the end of the text follows
        verb = re.compile(rf"(?<!{_L})(?P<obj>(?i:{objects}))\s+{particles}(?P<verb>[a-zäöüß]+)"
                          rf"(?=\s*(?:[.,;:)]|$)|\s+(?:und|oder)\s)")
    else:
        verb = re.compile(rf"(?<!{_L})(?P<verb>{_L}+){gap}(?i:{dets}){gap}(?P<obj>(?i:{objects}))"
                          rf"(?!{_L})")
    relative = re.compile(rf"(?<!{_L})(?P<rel>{_alternation(g.relatives)}){gap}(?P<subj>{_alternation(g.subjects)})"
                          rf"\s+(?P<verb>{_L}+)", re.IGNORECASE) if g.relatives else None
    excluded = frozenset(_norm(w) for w in g.determiners + g.prepositions + tuple(g.fused) + g.particles + g.objects
                         + g.not_verbs)
    set_phrases = re.compile(rf"(?<!{_L})(?:{_alternation(g.set_phrases)})(?!{_L})", re.IGNORECASE) \
        if g.set_phrases else None
    return Patterns(lang, g, zone, verb, relative, excluded, set_phrases)


# ------------------------------------------------------------------ the data


@dataclass(frozen=True)
class Variant:
    """One filler of a frame as official texts use it."""

    filler: str
    phrase: str        # the form printed most often: "aus deinem Friedhof"
    texts: int         # distinct official texts with it
    recent: int        # those of them printed in the last RETIRED_YEARS years before the newest set
    weight: float      # those texts weighted by how recent they are (HALF_LIFE)
    first: str         # its oldest printing (set release date)
    last: str          # its newest printing
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Frame:
    """The variants of one frame of one family in one language, the most used first."""

    family: str
    lang: str
    frame: str
    variants: tuple[Variant, ...]
    line: int = field(default=0, compare=False)

    @property
    def weight(self) -> float:
        return sum(v.weight for v in self.variants)

    def variant(self, filler: str) -> Variant | None:
        return next((v for v in self.variants if v.filler == filler), None)


@dataclass(frozen=True)
class Corpus:
    """What the data was mined from, per language."""

    lang: str
    texts: int          # distinct official card texts read
    newest: str         # the newest printing's date: weights count back from it
    sets: int


@dataclass(frozen=True)
class Verdict:
    """Why a filler in a frame is unusual: `kind` "unofficial" (official texts never or hardly
    use it there, `usual` is what they write) or "retired" (they used it until `found.last`)."""

    kind: str
    frame: Frame
    found: Variant | None       # the filler's own variant, None when official texts never use it
    usual: Variant              # the variant official texts use most in its place (retired: or itself)
    also: tuple[Variant, ...] = ()   # the next variant official texts use in its place, when it carries half as much


@dataclass(frozen=True)
class Phraseology:
    corpus: tuple[Corpus, ...]
    frames: tuple[Frame, ...]
    half_life: float = HALF_LIFE
    _index: Mapping[tuple[str, str, str], Frame] = field(init=False, repr=False, compare=False)
    _familiar: Mapping[tuple[str, str, str], float] = field(init=False, repr=False, compare=False)
    # language -> its variants' phrases joined by NUL, where each starts, how many texts each has
    # (`printed`; made on a language's first question)
    _printed: dict[str, tuple[str, tuple[int, ...], tuple[int, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", MappingProxyType({(f.lang, f.family, f.frame): f for f in self.frames}))
        familiar: dict[tuple[str, str, str], float] = {}
        for f in self.frames:
            for v in f.variants:
                key = (f.lang, f.family, v.filler)
                familiar[key] = familiar.get(key, 0.0) + v.weight
        object.__setattr__(self, "_familiar", MappingProxyType(familiar))
        object.__setattr__(self, "_printed", {})

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(c.lang for c in self.corpus)

    def corpus_of(self, lang: str) -> Corpus | None:
        return next((c for c in self.corpus if c.lang == lang), None)

    def frame(self, lang: str, family: str, frame: str) -> Frame | None:
        return self._index.get((lang, family, frame))

    def familiar(self, lang: str, family: str, filler: str) -> float:
        """How much official texts use `filler` in the slot of `family`, over all frames."""
        return self._familiar.get((lang, family, filler), 0.0)

    def printed(self, lang: str, forms: tuple[str, ...]) -> int:
        """How many official texts of `lang` the data quotes with one of `forms` (a word or words,
        case-insensitive; a space matches any white space, an apostrophe either one): the phrases are printed texts, so this is how often official cards
        spell a term so, counted over the phrases mined (a lower bound: 'Nichtland-Karte' is in
        the quoted cascade reminder, 5 texts; 'Nichtlandkarte' in none)."""
        if not forms:
            return 0
        phrases = self._printed.get(lang)
        if phrases is None:
            variants = [v for f in self.frames if f.lang == lang for v in f.variants]
            starts, at = [], 0
            for v in variants:
                starts.append(at)
                at += len(v.phrase) + 1
            phrases = self._printed[lang] = ("\0".join(v.phrase for v in variants), tuple(starts),
                                             tuple(v.texts for v in variants))
        joined, starts, texts = phrases
        # a form between neither letters, digits nor hyphens ('Land' is not in 'Nichtland-Karte'); NUL,
        # which ends a phrase, is none of them and no form holds it: a match lies within one phrase.
        # The start is tested here rather than by a lookbehind, which would keep the regex engine
        # from skipping to the places a form can begin (half the time of a call)
        found = re.compile(rf"(?:{_alternation(forms)})(?![\w-])", re.IGNORECASE)
        count, at = 0, 0
        while (m := found.search(joined, at)) is not None:
            start = m.start()
            if start and _WORD_OR_HYPHEN.match(joined, start - 1):
                at = start + 1     # within a word: a form may still begin further on
                continue
            i = bisect.bisect_right(starts, start) - 1
            count += texts[i]       # the phrase counts once: on to the next
            at = starts[i + 1] if i + 1 < len(starts) else len(joined)
        return count

    def competing(self, lang: str, frame: Frame, filler: str) -> tuple[Variant, ...]:
        """The variants of `frame` that compete with `filler`: in the `zone` family those of the
        prepositions of its class (`Grammar.classes`; none for a preposition of no class), in the
        `relative` family those of its pronoun's class ("die"/"welche"), in the `verb` family all."""
        if frame.family in OPEN_SLOTS:
            return frame.variants
        grammar = GRAMMARS.get(lang)
        classes = (grammar.classes if frame.family == "zone" else grammar.relative_classes) if grammar else ()
        cls = next((c for c in classes if filler in c), None)
        return tuple(v for v in frame.variants if v.filler in cls) if cls else ()

    def verdict(self, lang: str, occurrence: Occurrence) -> Verdict | None:
        """Whether official texts would write the phrase otherwise.

        "retired": official texts used the variant often once (RETIRED_TEXTS) and hardly print
        it any more (less than RETIRED_SHARE of its texts in the last RETIRED_YEARS years);
        `usual` is then what they write today in its place (the most used current variant
        competing with it, when one carries DOMINANT_SHARE of them), else the variant itself (a
        zone phrase; a verb or relative clause without a clear replacement gets no verdict).
        "unofficial": in a frame they use often (FRAME_MIN), a filler they never or hardly use
        there (less than RARE_SHARE of the variants competing with it, `competing`, and printed
        less than RECENT_MIN times in the last RETIRED_YEARS years) though they
        use it elsewhere in the family (FAMILIAR_MIN, for a family of open slot: a word of the
        slot's class, not one the pattern caught by chance), while one or
        two variants carry the frame (DOMINANT_MIN, DOMINANT_SHARE): they write it consistently
        otherwise. None: nothing to say."""
        frame = self._index.get((lang, occurrence.family, occurrence.frame))
        if frame is None or not frame.variants:
            return None
        found = frame.variant(occurrence.filler)
        competing = self.competing(lang, frame, occurrence.filler)
        if found is not None and retired(found):
            current = [v for v in competing if not retired(v)]
            total = sum(v.weight for v in current)
            if current and current[0].weight >= DOMINANT_MIN and \
                    sum(v.weight for v in current[:2]) >= DOMINANT_SHARE * total:
                return Verdict("retired", frame, found, current[0], _second(current))
            # a zone phrase official texts stopped printing is retired whatever replaced it ("en jeu");
            # one with a verb only where another word replaced it: "Karte spielst" and "que vous
            # jouez" are retired for spells, not for lands
            return Verdict("retired", frame, found, found) if frame.family == "zone" else None
        if not competing:
            return None
        usual = competing[0]
        if found is usual:
            return None
        total = sum(v.weight for v in competing)
        if total < FRAME_MIN or usual.weight < DOMINANT_MIN:
            return None
        if sum(v.weight for v in competing[:2] if v is not found) < DOMINANT_SHARE * total:
            return None
        own = found.weight if found is not None else 0.0
        if own >= RARE_SHARE * total or (found is not None and found.recent >= RECENT_MIN):
            return None
        if occurrence.family in OPEN_SLOTS and self.familiar(lang, occurrence.family, occurrence.filler) - own < FAMILIAR_MIN:
            return None
        return Verdict("unofficial", frame, found, usual, _second([v for v in competing if v is not found]))


def _second(ranked: list[Variant] | tuple[Variant, ...]) -> tuple[Variant, ...]:
    """The runner-up worth quoting beside the usual variant: current, half as much use or more."""
    if len(ranked) > 1 and not retired(ranked[1]) and ranked[1].weight * 2 >= ranked[0].weight:
        return (ranked[1],)
    return ()


def retired(variant: Variant) -> bool:
    """Whether official texts stopped using a variant they once used often (see `verdict`)."""
    return variant.texts >= RETIRED_TEXTS and variant.recent < RETIRED_SHARE * variant.texts


def weight(last: str, newest: str, half_life: float = HALF_LIFE) -> float:
    """The weight of a text last printed on `last`, counted back from `newest` (YYYY-MM-DD)."""
    years = (dt.date.fromisoformat(newest).toordinal() - dt.date.fromisoformat(last).toordinal()) / 365.25
    return 0.5 ** (max(0.0, years) / half_life)


# ------------------------------------------------------------------ loading


_INT = re.compile(r"^(?:0|[1-9][0-9]*)$")
_NUMBER = re.compile(r"^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$")
_DATE = re.compile(r"^[12][0-9]{3}-[01][0-9]-[0-3][0-9]$")


def _number(r: Reader, node: Node | None, what: str, integer: bool) -> float | None:
    value = r.pattern(node, what, _INT if integer else _NUMBER,
                      "a whole number such as 12" if integer else "a number such as 12.5")
    return None if value is None else (int(value) if integer else float(value))


def _variant(r: Reader, node: Node, what: str) -> Variant | None:
    m = r.mapping(node, what, ("phrase", "texts", "recent", "weight", "first", "last"), ("filler",))
    if m is None:
        return None
    phrase = r.nonempty(m.get("phrase"), f"{what} phrase")
    # the filler is written only where it is not the phrase itself (a reminder text is its own filler)
    filler = r.nonempty(m.get("filler"), f"{what} filler") if m.get("filler") is not None else \
        (fold(phrase) if phrase is not None else None)
    texts = _number(r, m.get("texts"), f"{what} texts", True)
    recent = _number(r, m.get("recent"), f"{what} recent", True)
    if texts is not None and recent is not None and recent > texts:
        r.error(m.get("recent"), f"{what}: recent ({recent}) is more than texts ({texts})",  # type: ignore[arg-type]
                "recent counts some of its texts; regenerate the file: rulekb phrases mine ../shared/data/mtgjson/sets/")
    w = _number(r, m.get("weight"), f"{what} weight", False)
    first = r.date(m.get("first"), f"{what} first")
    last = r.date(m.get("last"), f"{what} last")
    if first is not None and last is not None and first > last:
        r.error(m, f"{what}: its first printing ({first}) is after its last ({last})",
                "regenerate the file: rulekb phrases mine ../shared/data/mtgjson/sets/")
    if None in (filler, phrase, texts, recent, w, first, last):
        return None
    return Variant(filler, phrase, int(texts), int(recent), float(w), first, last, m.line)  # type: ignore[arg-type]


def phraseology_from(root: Path, path: Path, languages: tuple[str, ...]) -> Phraseology:
    """Parse and check one phraseology file (see `load_phraseology`)."""
    parsed, problems = parse_file(path, root)
    if parsed is None:
        raise DataError(problems)
    r = Reader(parsed.path, list(problems))
    m = r.mapping(parsed.root, "the phraseology file", ("half_life", "corpus", "frames"))
    half_life = _number(r, m.get("half_life"), "half_life", False) if m else None
    if half_life is not None and half_life <= 0:
        r.error(m.get("half_life"), "half_life must be more than 0 years", "regenerate the file")  # type: ignore[union-attr,arg-type]
    corpus: list[Corpus] = []
    for item in r.sequence(m.get("corpus") if m else None, "corpus"):
        c = r.mapping(item, "a corpus entry", ("lang", "texts", "newest", "sets"))
        if c is None:
            continue
        lang = r.choice(c.get("lang"), "corpus lang", languages)
        texts = _number(r, c.get("texts"), "corpus texts", True)
        newest = r.date(c.get("newest"), "corpus newest")
        sets = _number(r, c.get("sets"), "corpus sets", True)
        if lang in {x.lang for x in corpus}:
            r.error(item, f"corpus language '{lang}' is listed twice", "list each language once")
        elif None not in (lang, texts, newest, sets):
            corpus.append(Corpus(lang, int(texts), newest, int(sets)))  # type: ignore[arg-type]
    frames: list[Frame] = []
    seen: dict[tuple[str, str, str], int] = {}
    for item in r.sequence(m.get("frames") if m else None, "frames"):
        f = r.mapping(item, "a frame", ("family", "lang", "frame", "variants"))
        if f is None:
            continue
        family = r.choice(f.get("family"), "frame family", FAMILIES)
        lang = r.choice(f.get("lang"), "frame lang", languages)
        key = r.nonempty(f.get("frame"), "frame")
        if lang is not None and lang not in {c.lang for c in corpus}:
            r.error(f.get("lang"), f"frame language '{lang}' has no corpus entry",  # type: ignore[arg-type]
                    "add it under 'corpus:' or regenerate the file")
        variants: list[Variant] = []
        fillers: set[str] = set()
        for i, v in enumerate(r.sequence(f.get("variants"), "frame variants")):
            variant = _variant(r, v, f"frame '{key}' variant #{i + 1}")
            if variant is None:
                continue
            if variant.filler in fillers:
                r.error(v, f"frame '{key}' lists the filler '{variant.filler}' twice", "list each filler once")
                continue
            fillers.add(variant.filler)
            variants.append(variant)
        if family is None or lang is None or key is None:
            continue
        if (lang, family, key) in seen:
            r.error(item, f"duplicate {lang} {family} frame '{key}' (first at line {seen[(lang, family, key)]})",
                    "list each frame once")
            continue
        seen[(lang, family, key)] = item.line
        if not variants:
            r.error(item, f"frame '{key}' has no variants", "regenerate the file or remove the frame")
            continue
        ordered = tuple(sorted(variants, key=lambda v: (-v.weight, -v.texts, v.filler)))
        frames.append(Frame(family, lang, key, ordered, item.line))
    if r.problems:
        raise DataError(r.problems)
    return Phraseology(tuple(corpus), tuple(frames), half_life or HALF_LIFE)


def project_languages(root: Path) -> tuple[Language, ...]:
    """The languages of ``translations/languages.yaml`` (DataError when it is missing or wrong)."""
    parsed, problems = parse_file(root / LANGUAGES_FILE, root) if (root / LANGUAGES_FILE).is_file() else (None, [
        Problem(LANGUAGES_FILE, 1, 1, f"{LANGUAGES_FILE} is missing", "the phraseology needs the languages")])
    if parsed is None:
        raise DataError(problems)
    langs, found = languages_from(parsed)
    if problems or found:
        raise DataError(list(problems) + list(found))
    return langs


def load_phraseology(root: Path) -> Phraseology:
    """Read ``translations/phraseology.yaml`` of the project at `root`, strictly (unknown fields,
    unknown languages or families, numbers and dates that are not, a frame or filler twice: a
    `DataError` naming file, line and column). Without the file: no phrases (nothing mined yet).
    A file read before comes from the per-user cache (`rulekb.cache`, keyed by its bytes and the
    project's languages): parsing its ~2,000 lines costs 0.2 s of processor time, the cache 0.01 s."""
    path = root / PHRASEOLOGY_FILE
    if not path.is_file():
        return Phraseology((), ())
    languages = tuple(lang.code for lang in project_languages(root))
    try:
        data = path.read_bytes()
    except OSError:
        return phraseology_from(root, path, languages)   # which names the problem
    return cached("phraseology", (data, *languages), lambda: phraseology_from(root, path, languages), Phraseology)


__all__ = ["PHRASEOLOGY_FILE", "FAMILIES", "HALF_LIFE", "GRAMMARS", "Grammar", "Occurrence", "Patterns", "patterns",
           "OPEN_SLOTS", "reminders", "fold", "Variant", "Frame", "Corpus", "Verdict", "Phraseology", "retired", "weight", "phraseology_from", "project_languages",
           "load_phraseology"]
