"""Check family `staleness` (stage: check): translations made from another English.

A translation records in `translated_from` the hash (`rulekb hash`) of the English it was made
from. When that hash is not the hash of today's canonical English the translation is stale: the
finding shows the new English and, when the knowledge base still holds the old English (a
non-canonical English variant with that hash, e.g. an older wording of the rule), the old one,
so that a translator sees what changed. A stale translation is graded by how much of the English
changed (`grade`): typography alone is info, a few words a warning, a number, a reference, a
negation or more than a quarter of the words an error.

A stale translation may already say what the English says now: the English swapped a term for
another ("played" -> "cast", "card" -> "spell", "he or she" -> "they") and the translation writes
today's term of each ("lancée", "sort"). Then it is not stale but unconfirmed
(`staleness.confirm`): the translator compares it and records the new English's hash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import cydifflib

from ..models import M_, MN_, SOURCE_LANGUAGE, Message, Severity, Unit, Variant, english_hash, normalise
from ..termbase import Termbase, TermMatch
from .base import Check, Context, Issue, UnitText


def is_stale(unit: Unit, variant: Variant) -> bool:
    english = unit.text(SOURCE_LANGUAGE)
    return (variant.translated_from is not None and english is not None
            and variant.translated_from != english_hash(english.text))


def old_english(unit: Unit, digest: str) -> Variant | None:
    """The English variant of `unit` whose hash is `digest`, if the knowledge base keeps it."""
    return next((v for v in unit.variants.get(SOURCE_LANGUAGE, ()) if english_hash(v.text) == digest), None)


def _edits(old: str, new: str) -> tuple[list[tuple[str, str, str, str]], int, int]:
    """The word edits from `old` to `new` (typography aside): (op, before, after, word before) each,
    the number of words of `old`, and how many of them changed."""
    a, b = normalise(old).split(), normalise(new).split()
    out = []
    changed = 0
    for op, i1, i2, j1, j2 in cydifflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        changed += max(i2 - i1, j2 - j1)
        out.append((op, " ".join(a[i1:i2]), " ".join(b[j1:j2]), a[i1 - 1] if i1 > 0 else ""))
    return out, len(a), changed


def source_english(ctx: Context, t: UnitText) -> UnitText | None:
    """The English a translation was made from: the older English it records when it is stale and
    the knowledge base keeps that one, else today's. What a translation says is compared with it
    (its references, numbers, zones, negations): what changed since is the stale finding's, once."""
    english = ctx.english_text(t)
    if english is not None and is_stale(t.unit, t.variant) and t.variant.translated_from:
        old = old_english(t.unit, t.variant.translated_from)
        if old is not None:
            index = t.unit.variants[SOURCE_LANGUAGE].index(old)   # its place: the per-text caches key on it
            return UnitText(t.unit, SOURCE_LANGUAGE, index, old, t.rule, t.ruling, t.release)
    return english


def changes(old: str, new: str, limit: int = 3) -> Message:
    """What changed between two texts, word by word, typography aside: "added 'with retrace' after 'card'"."""
    edits, _n, _changed = _edits(old, new)
    out: list[Message] = []
    for op, before, after, word in edits[:limit]:
        if op == "insert":
            out.append(M_("added '{after}' after '{word}'", after=after, word=word) if word
                       else M_("added '{after}'", after=after))
        elif op == "delete":
            out.append(M_("removed '{before}'", before=before))
        else:
            out.append(M_("'{before}' -> '{after}'", before=before, after=after))
    if not out:
        return M_("typography only")
    if len(edits) > limit:
        return MN_("{edits} and {more} more", "{edits} and {more} more", "more", edits=tuple(out),
                   more=len(edits) - limit)
    return M_("{edits}", edits=tuple(out))


# Stale translations are graded by how much of the English changed: typography alone does not
# change what a reader understands (info); a few words are a warning; a change of a number, a
# rule reference, a negation or of the zones the text names, or of more than this share of the
# words, an error.
MAJOR_SHARE = 0.25
_MEANING = re.compile(r"\d|\b(?:not|no|never|can't|cannot|don't|doesn't|isn't|aren't|won't"        # negations
                      r"|zero|one|two|three|four|five|six|seven|eight|nine|ten|twice)\b",         # numbers
                      re.IGNORECASE)
_ZONE = re.compile(r"\b(library|hand|battlefield|graveyard|stack|exiled?|game|mill(?:s|ed)?)\b", re.IGNORECASE)
# a keyword action that names its zones: to mill a card is to put it from the top of its owner's
# library into their graveyard (701.17a in the release of 2026-01-16), so "mill N cards" says what
# "put the top N cards of your library into your graveyard" said
_ZONES_OF = {"mill": ("library", "graveyard"), "mills": ("library", "graveyard"),
             "milled": ("library", "graveyard"), "exiled": ("exile",)}


def zones(text: str) -> tuple[str, ...]:
    """The zones a text names, in order, each run of one zone once ("from your library into your
    graveyard and return it from your graveyard" -> library, graveyard): what moves where."""
    out: list[str] = []
    for match in _ZONE.finditer(normalise(text)):
        word = match.group(1).lower()
        for zone in _ZONES_OF.get(word, (word,)):
            if not out or out[-1] != zone:
                out.append(zone)
    return tuple(out)


def grade(old: str, new: str) -> Severity:
    """How bad a translation of `old` is where the English is now `new`."""
    edits, n, changed = _edits(old, new)
    if not edits:
        return Severity.INFO
    if zones(old) != zones(new) or any(_MEANING.search(before + " " + after) for _op, before, after, _w in edits):
        return Severity.ERROR
    return Severity.ERROR if changed > MAJOR_SHARE * max(n, 1) else Severity.WARNING


# words an English edit may add or drop without a change of meaning the translation must follow
_FUNCTION_WORDS = frozenset("a an the it its it's it’s they them their he she his her him or and of this that".split())
_TOKEN = re.compile(r"[\w'’-]+")


def _term_words(termbase: Termbase) -> dict[tuple[str, ...], str]:
    """Every English form of the termbase (deprecated ones too, out of context), as its words
    (casefolded) -> its concept."""
    return {tuple(form.casefold().split()): c.id for c in termbase.concepts
            for term in c.terms.get(SOURCE_LANGUAGE, ()) for form in term.forms}


def _concepts_of(words: str, forms: dict[tuple[str, ...], str]) -> set[str] | None:
    """The concepts a run of English words names, each word a term's or a function word's (the
    longest form first); None when a word is neither (the edit says something new)."""
    tokens = [w.casefold().strip("'’") for w in _TOKEN.findall(words)]
    out: set[str] = set()
    i = 0
    while i < len(tokens):
        for n in (4, 3, 2, 1):
            concept = forms.get(tuple(tokens[i:i + n]))
            if concept is not None:
                out.add(concept)
                i += n
                break
        else:
            if tokens[i] not in _FUNCTION_WORDS:
                return None
            i += 1
    return out


def says_the_new_english(termbase: Termbase, matches: Sequence[TermMatch], old: str, new: str) -> bool:
    """Whether a translation whose terms are `matches` already says what the English says now,
    where the English changed from `old` to `new` by putting terms in place of other words alone
    ("played" -> "cast", "card" -> "spell", "playing the card" -> "casting it", "he or she" ->
    "they"): it writes each concept the new words name with a term that is not discouraged, and no
    discouraged one of it ("jouer" for "cast"). An edit that adds words of no term ("resolves" ->
    "resolves, fails to resolve") or drops words of meaning is a change the translation must follow."""
    edits, _n, _changed = _edits(old, new)
    if not edits:
        return False
    forms = _term_words(termbase)
    current = {m.concept_id for m in matches if not m.term.discouraged}
    old_terms = {m.concept_id for m in matches if m.term.discouraged}
    for _op, before, after, _word in edits:
        said = _concepts_of(after, forms)
        if said is None or not (said <= current) or said & old_terms:
            return False   # the new English says something beyond terms, or the translation does not say them
        if not said and _concepts_of(before, forms) != set():
            return False   # words of meaning dropped ("into his or her graveyard"): the translation may still say them
    return True


def stale(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts(ctx.targets, variants=True):
        english = t.english
        if english is None or not is_stale(t.unit, t.variant):
            continue
        assert t.variant.translated_from is not None
        now = english_hash(english.text)
        old = old_english(t.unit, t.variant.translated_from)
        which = M_(" (variant {n}, source {source})", n=t.index + 1, source=t.variant.source) if t.index else ""
        if old is not None and says_the_new_english(ctx.termbase, ctx.terms(t), old.text, english.text):
            continue   # already says it: staleness.confirm's
        if old is not None:
            severity = grade(old.text, english.text)
            message = M_("{label}{which}: the text in {lang} translates an older English (source {source}): "
                         "“{old}” — the English is now: “{new}” (changed: {what})", label=t.label, which=which,
                         lang=ctx.lang(t.lang), source=old.source, old=old.text, new=english.text,
                         what=changes(old.text, english.text))
        else:
            severity = Severity.WARNING  # what changed is not known: a translator compares
            message = M_("{label}{which}: the text in {lang} was made from an English whose hash {old} is not the "
                         "current one ({now}); the old English is not in the knowledge base — the English is now: "
                         "“{new}”", label=t.label, which=which, lang=ctx.lang(t.lang),
                         old=t.variant.translated_from, now=now, new=english.text)
        yield Issue.at(t, message, M_("update the translation to the current English, then set translated_from: {now}",
                                      now=now), severity=severity)


def confirm(ctx: Context) -> Iterator[Issue]:
    """A stale translation that already says what the English says now (`says_the_new_english`):
    the translator confirms it and records the new English's hash."""
    for t in ctx.texts(ctx.targets, variants=True):
        english = t.english
        if english is None or not is_stale(t.unit, t.variant):
            continue
        old = old_english(t.unit, t.variant.translated_from or "")
        if old is None or not says_the_new_english(ctx.termbase, ctx.terms(t), old.text, english.text):
            continue
        which = M_(" (variant {n}, source {source})", n=t.index + 1, source=t.variant.source) if t.index else ""
        yield Issue.at(t, M_("{label}{which}: the English has changed since the text in {lang} was made from it "
                             "(changed: {what}), and the text in {lang} already says what the English says now",
                             label=t.label, which=which, lang=ctx.lang(t.lang), what=changes(old.text, english.text)),
                       M_("compare it with the English now: if it says the same, confirm it by setting translated_from: "
                          "{now} (`rulekb hash` prints the hash of an English text)", now=english_hash(english.text)))


def untracked(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts(ctx.targets):
        english = t.english
        if english is None or t.variant.translated_from is not None:
            continue
        yield Issue.at(t, M_("{label}: the text in {lang} does not record which English it was made from, so a change "
                             "of the English will not mark it stale", label=t.label, lang=ctx.lang(t.lang)),
                       M_("compare it with the English, then add translated_from: {now}",
                          now=english_hash(english.text)))


CHECKS = (
    Check("staleness.stale", "a translation was made from an English that has changed since (graded by the change)",
          Severity.ERROR, stale),
    Check("staleness.confirm", "a stale translation that already says what the English says now: to confirm",
          Severity.INFO, confirm, edits_text=False),
    Check("staleness.untracked", "a translation does not record the English it was made from", Severity.WARNING, untracked,
          edits_text=False),
)
