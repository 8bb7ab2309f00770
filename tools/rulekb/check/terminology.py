"""Check family `terminology` (stage: check), driven by the termbase (``translations/termbase.yaml``).

- `terminology.missing-term`: the English uses a concept (e.g. "pay") and the translation uses
  none of that concept's terms in its language;
- `terminology.deprecated` / `terminology.forbidden`: a deprecated or forbidden term in any text
  (English included); `terminology.old-wording`: an English text that uses a term retired after
  the rules release it belongs to (faithful to that release, outdated today);
- `terminology.untranslated`: an English keyword left in a German or French text (or the keyword
  of another translation, e.g. German in French);
- `terminology.inconsistent`: one concept rendered by different terms within one language, the
  texts that do not write the official one reported (the termbase's preferred term, else the one
  official card texts print; where nothing decides, the finding names the spellings and
  prescribes none);
- `terminology.gender`: an article that does not agree with the term's gender (French);
- `terminology.case`: a term capitalised (or not) against its language's rule in mid-sentence;
- `terminology.zone`: a translation naming a zone its English does not (a change of meaning).

A discouraged verb is read by its object (`readings`): "ihre Manakosten spielen" renders the
English "pay its mana cost", so the fix is 'bezahlen', not 'wirken', and the missing 'pay' is the
same finding; where the English does not say the term's concept, the finding explains instead of
prescribing. A fix keeps the form of the word it replaces ('spielst' -> 'wirkst', 'rejouer' ->
'relancer', 'die offenbarte Karte' -> 'aufgedeckte') or names the termbase's form of several words
that fits the text ('das Schlachtfeld verlassen hat' -> 'das Spiel verlassen hat').

Locale rules (articles per gender, capitalisation of nouns) live in `LOCALE`: adding a language
is one entry there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator

from ..cardnames import inside
from ..models import (
    M_,
    MN_,
    SOURCE_LANGUAGE,
    InLanguages,
    Message,
    Quoted,
    QuotedEach,
    Severity,
    UnitKind,
)
from ..phraseology import RARE_SHARE
from ..termbase import Term, Termbase, TermMatch
from .base import Check, Context, Issue, UnitText, quote
from .compare import ZONES, concept_name, concept_named, concept_names
from .language import foreign_spans
from .text import Data, Flag, Text, TextCheck, flag


@dataclass(frozen=True)
class Locale:
    # articles and determiners that mark a gender, lowercase
    articles: dict[str, frozenset[str]]
    # words that may stand between the article and the noun ("une autre carte")
    between: frozenset[str]
    # True: nouns are capitalised (German) — a capitalised verb form is a nominalisation, not an error
    nouns_capitalised: bool


LOCALE: dict[str, Locale] = {
    "en": Locale({}, frozenset(), False),
    "de": Locale({}, frozenset(), True),  # German articles decline by case: "der" is also feminine dative
    "fr": Locale({"m": frozenset({"le", "un", "ce", "cet", "du", "au", "aucun", "quel", "tout", "nouveau", "seul"}),
                  "f": frozenset({"la", "une", "cette", "aucune", "quelle", "toute", "nouvelle", "seule"})},
                 frozenset({"autre", "même", "seul", "seule", "premier", "première", "dernier", "dernière"}), False),
}
_WORDS = re.compile(r"\S+")
_KIND_NAMES = {"keyword": M_("keyword"), "action": M_("keyword action"), "term": M_("game term")}
_GENDER_NAME = {"m": M_("masculine"), "f": M_("feminine"), "n": M_("neuter")}


def _term_label(term: Term) -> Quoted:
    return Quoted(term.text)


def _group(matches: tuple[TermMatch, ...]) -> dict[tuple[str, str], list[TermMatch]]:
    out: dict[tuple[str, str], list[TermMatch]] = defaultdict(list)
    for m in matches:
        out[(m.concept_id, m.term.text)].append(m)
    return out


# ------------------------------------------------------------------ missing term


def missing_term(t: Text, data: Data) -> Iterator[Flag]:
    # the English the text was made from: a term the English has gained since ('card' -> 'spell') is
    # the stale finding's, once
    en_text = t.source
    if not t.is_translation or en_text is None:
        return
    en_matches = data.terms(en_text, SOURCE_LANGUAGE)
    have = {m.concept_id for m in data.terms(t.text, t.lang)}
    # a concept left in English is terminology.untranslated's finding, not a missing term
    have |= {m.concept_id for m in data.terms(t.text, SOURCE_LANGUAGE)}
    # a concept rendered by a discouraged term ("Manakosten spielen" for "pay its mana cost") is
    # that term's finding, with the fix the context asks for: one defect, one finding
    have |= {reading.concept for reading in readings(t, data).values()}
    seen: set[str] = set()
    for m in en_matches:
        concept = data.termbase.concept(m.concept_id)
        if concept is None or m.concept_id in have or m.concept_id in seen or not concept.required:
            continue
        targets = concept.terms.get(t.lang, ())
        if not targets:
            continue
        seen.add(m.concept_id)
        expected = data.termbase.preferred(concept.id, t.lang) or targets[0]
        forms = QuotedEach(expected.forms[:4])
        said = en_text[m.start:m.end]
        yield flag(M_("{label}: the English says '{said}' (“{context}”) but the text in {lang} has no term "
                             "for it: expected {term} ({forms} …)", label=t.label, said=said,
                             context=quote(en_text, m.start, m.end), lang=data.lang(t.lang),
                             term=_term_label(expected), forms=forms),
                       M_("translate '{said}' as {term} (termbase: {source})", said=said,
                          term=_term_label(expected), source=expected.source), english=((m.start, m.end),))


# ------------------------------------------------------------------ what a term renders, in context


@dataclass(frozen=True)
class Reading:
    """What a discouraged term renders in a translation, judged by the English: `concept` (the
    concept the English says there), `evidence` (the English words that show it, "" when the
    English names the term's own concept somewhere), `sure` (False: the English does not say it)."""
    concept: str
    evidence: str
    sure: bool


NEAR = 40   # characters between a verb and its object


def _clause_gap(text: str, a: int, b: int) -> bool:
    """Whether a sentence or clause boundary lies between positions a < b."""
    return any(ch in ".,;:!?" for ch in text[a:b])


def _nearest(matches, text: str, pos: tuple[int, int], accept) -> TermMatch | None:
    best, distance = None, NEAR + 1
    for m in matches:
        if not accept(m):
            continue
        d = m.start - pos[1] if m.start >= pos[1] else pos[0] - m.end if m.end <= pos[0] else NEAR + 1
        if 0 <= d < distance and not _clause_gap(text, min(m.end, pos[1]), max(m.start, pos[0])):
            best, distance = m, d
    return best


def readings(t: Text, data: Data) -> dict[tuple[int, int], Reading]:
    """For each discouraged action term of a translation (by its span), what it renders here: a
    verb is read by its object (the nearest term of the clause), and the English verb of that
    object says what it means ("ihre Manakosten spielen": the English "pay its mana cost", so
    'spielen' renders 'pay' here, not 'cast'). Made once per run and text."""
    english = t.source if t.lang != SOURCE_LANGUAGE else None
    return data.derived("readings", (t.lang, t.text, english), lambda: _readings(t, data, english))


def _readings(t: Text, data: Data, english: str | None) -> dict[tuple[int, int], Reading]:
    out: dict[tuple[int, int], Reading] = {}
    matches = data.terms(t.text, t.lang)
    if english is not None and any(m.term.discouraged for m in matches):
        en_matches = data.terms(english, SOURCE_LANGUAGE)
        en_concepts = {m.concept_id for m in en_matches}
        kinds = {c.id: c.kind for c in data.termbase.concepts}
        for m in matches:
            if not m.term.discouraged:
                continue
            reading = None
            if kinds.get(m.concept_id) == "action":
                obj = _nearest(matches, t.text, (m.start, m.end),
                               lambda x: kinds.get(x.concept_id) == "term" and x.concept_id not in ZONES)
                en_obj = next((x for x in en_matches if obj is not None and x.concept_id == obj.concept_id), None)
                verb = None if en_obj is None else _nearest(en_matches, english, (en_obj.start, en_obj.end),
                                                             lambda x: kinds.get(x.concept_id) == "action")
                if verb is not None:
                    lo, hi = min(verb.start, en_obj.start), max(verb.end, en_obj.end)  # type: ignore[union-attr]
                    reading = Reading(verb.concept_id, english[lo:hi], True)
            if reading is None:
                reading = Reading(m.concept_id, "", m.concept_id in en_concepts)
            out[(m.start, m.end)] = reading
    return out


def inflected(found: str, term: Term, replacement: Term) -> str:
    """The replacement in the form of `found`: 'spielst' -> 'wirkst', 'jouez' -> 'lancez',
    'rejouer' -> 'relancer' (a prefix before a form is kept); the base form where the
    replacement has no such form."""
    low = found.casefold()
    forms = {f.casefold() for f in term.forms} | {term.text.casefold()}
    prefix, base = "", found
    for k in (1, 2, 3):   # "rejouer": the prefix "re" before the form "jouer"
        if low[:k].isalpha() and low[k:] in forms:
            prefix, base = found[:k], found[k:]
            break
    b, tx = base.casefold(), term.text.casefold()
    common = 0
    while common < min(len(b), len(tx)) and b[common] == tx[common]:
        common += 1
    suffix_term, suffix_found = tx[common:], base[common:]
    text = replacement.text
    out = text
    if common and text.casefold().endswith(suffix_term):
        candidate = text[: len(text) - len(suffix_term)] + suffix_found
        if candidate.casefold() in {f.casefold() for f in replacement.forms} or not suffix_found:
            out = candidate
    out = prefix + out
    return out[:1].upper() + out[1:] if found[:1].isupper() else out


def _ending_like(found: str, replacement: str, term: Term) -> str:
    """Where a discouraged term's `replacement` names one form of `term` ('aufgedeckt' of
    'aufdecken'): the form of `term` that ends as `found` does ('offenbarte' -> 'aufgedeckte',
    'offenbarten' -> 'aufgedeckten'), the replacement itself on a tie."""
    low = found.casefold()

    def shared(form: str) -> int:
        f, n = form.casefold(), 0
        while n < min(len(f), len(low)) and f[-1 - n] == low[-1 - n]:
            n += 1
        return n

    forms = [replacement] + [f for f in (term.text, *term.forms) if f != replacement]
    best = max(forms, key=lambda f: (shared(f), f == replacement))
    return best[:1].upper() + best[1:] if found[:1].isupper() else best


def _form_in_context(text: str, start: int, end: int, term: Term) -> str | None:
    """The form of several words of `term` whose other words surround text[start:end] ('das Spiel
    verlassen hat' where the text says 'das Schlachtfeld verlassen hat'): the phrase to write
    there, the longest such form; None when no form of several words fits."""
    found, low, best = text[start:end], text.casefold(), None
    for form in (term.text, *term.forms):
        words = form.split()
        for k in range(len(words) if len(words) > 1 else 0):
            phrase = " ".join(words[:k] + [found] + words[k + 1:]).casefold()
            at = start - (len(" ".join(words[:k])) + 1 if k else 0)
            if at >= 0 and low[at:at + len(phrase)] == phrase and (best is None or len(form) > len(best)):
                best = form
    return best


def _replacement(termbase: Termbase, concept_id: str, lang: str, text: str | None) -> Term | None:
    """The term of the concept that a discouraged term's `replacement` names (None: the replacement
    is a phrase of its own, 'Zurückverfolgen-Fähigkeit', written as the termbase gives it)."""
    concept = termbase.concept(concept_id)
    if concept is None or text is None:
        return None
    return next((x for x in concept.terms.get(lang, ()) if x.text == text), None)


# ------------------------------------------------------------------ deprecated, forbidden, old wording


def _still_current(release: str | None, retired: str | None) -> bool:
    """Whether a term retired at `retired` may still have been the official wording of `release`."""
    if release is None or retired is None:
        return False
    when = retired.split(" ")[-1]
    if retired.startswith("after "):
        return release[: len(when)] <= when
    if retired.startswith(("by ", "before ")):
        return release < when  # retired some time before `when`: the release may predate it
    return release[: len(when)] <= when if len(when) < 10 else release < when


def _still_right_in_english(t: Text, data: Data, concept_id: str) -> bool:
    """Whether the English of a translation (today's, and the one it was made from) says a
    discouraged English word of the concept where it is still right, and nothing the concept's
    terms count: "play that card" (to play a land or
    cast a spell: 'play' is the old word only before a spell, `Term.only_before`), "land plays".
    A translation's "diese Karte spielen" / "jouer cette carte" renders it."""
    english = t.english
    if t.lang == SOURCE_LANGUAGE or english is None:
        return False
    # the English today and the one it was made from: where either says the concept ("cast"), so must it
    if any(m.concept_id == concept_id for e in {english, t.source or english} for m in data.terms(e, SOURCE_LANGUAGE)):
        return False
    concept = data.termbase.concept(concept_id)
    forms = [f for term in (concept.terms.get(SOURCE_LANGUAGE, ()) if concept is not None else ())
             if term.discouraged for f in term.forms]
    return bool(forms) and re.search(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)", english,
                                     re.IGNORECASE) is not None


def _discouraged(t: Text, data: Data, status: str, old_wording: bool) -> Iterator[Flag]:
    if t.index:
        return
    if t.lang == SOURCE_LANGUAGE and t.in_release:
        return  # the English of a rules release is that release's official wording, by definition
    matches = data.terms(t.text, t.lang)
    if not any(m.term.discouraged for m in matches):
        return
    reads = readings(t, data)
    for (concept_id, _), matches in _group(matches).items():
        term = matches[0].term
        if term.status != status:
            continue
        current = t.lang == SOURCE_LANGUAGE and _still_current(t.release, term.retired)
        if current != old_wording:
            continue
        # the uses of the term that mean the same here are one finding, with their fix
        by_reading: dict[tuple[str, bool] | None, list[tuple[TermMatch, Reading | None]]] = defaultdict(list)
        for m in matches:
            if t.text[m.start:m.start + 1].isupper() and inside(data.card_names(t.text, t.lang), m.start, m.end):
                continue   # a card's name ("Play with Fire"): its words are capitalised, printed as it is
            reading = reads.get((m.start, m.end))
            if reading is not None and not reading.sure and t.english is not None and t.english != t.source and any(
                    x.concept_id == reading.concept for x in data.terms(t.english, SOURCE_LANGUAGE)):
                # the English it was made from does not say it ("played"), today's does ("cast"): the fix is its term
                reading = Reading(reading.concept, "", True)
            if (reading is None or not reading.sure) and _still_right_in_english(t, data, concept_id):
                continue   # the English says the old word where it is still right ("play that card"): so may this
            by_reading[(reading.concept, reading.sure) if reading else None].append((m, reading))
        for uses in by_reading.values():
            yield _discouraged_flag(t, data, concept_id, term, [m for m, _r in uses], uses[0][1], old_wording)


def _retired(when: str) -> Message:
    """When a term was retired, in the reader's words: "2009-07-11", "by 2026-01-16" (`RETIRED`)."""
    if when.startswith("by "):
        return M_(", retired by {when}", when=when[3:])
    if when.startswith("before "):
        return M_(", retired before {when}", when=when[7:])
    if when.startswith("after "):
        return M_(", retired after {when}", when=when[6:])
    return M_(", retired {when}", when=when)


def _discouraged_flag(t: Text, data: Data, concept_id: str, term: Term, uses: list[TermMatch],
                      reading: Reading | None, old_wording: bool) -> Flag:
    first = uses[0]
    found = t.text[first.start:first.end]
    times = M_(" ({n} times)", n=len(uses)) if len(uses) > 1 else ""
    retired = _retired(term.retired) if term.retired else ""
    context = quote(t.text, first.start, first.end)
    span = (first.start, first.end)
    spans = tuple((m.start, m.end) for m in uses) if len(uses) > 1 else ()   # what "(4 times)" counts
    if old_wording:
        return flag(M_("{label} uses '{found}'{times} (“{context}”), the wording of the {release} rules; today's "
                              "rules say '{replacement}'{retired}", label=t.label, found=found, times=times,
                              context=context, release=t.release, replacement=term.replacement, retired=retired),
                        M_("check that the text is the {release} release's own wording (then it stays as it is); "
                           "otherwise write '{replacement}', today's term (termbase: {source})", release=t.release,
                           replacement=term.replacement, source=term.source), span=span, spans=spans)
    if term.status == "deprecated":
        message: Message = M_("{label} uses '{found}'{times} (“{context}”), a deprecated term in {lang} for "
                              "{concept}{retired}", label=t.label, found=found, times=times, context=context,
                              lang=data.lang(t.lang), concept=concept_named(data.termbase, concept_id), retired=retired)
    else:
        message = M_("{label} uses '{found}'{times} (“{context}”), a forbidden term in {lang} for {concept}{retired}",
                     label=t.label, found=found, times=times, context=context, lang=data.lang(t.lang),
                     concept=concept_named(data.termbase, concept_id), retired=retired)
    if term.note:
        message = M_("{message} — {note}", message=message, note=InLanguages(term.note, term.note_translated))
    if reading is not None and reading.concept != concept_id:
        # the English says another thing here: the fix is that concept's term ("bezahlen", not "wirken")
        target = data.termbase.preferred(reading.concept, t.lang)
        message = M_("{message}; here it renders {meant} (English: “{evidence}”)", message=message,
                     meant=concept_named(data.termbase, reading.concept), evidence=reading.evidence)
        if target is not None:
            suggestion: Message = M_("write '{word}' here: the English says {meant} (termbase: {source})",
                                     word=inflected(found, term, target), meant=concept_name(data.termbase, reading.concept),
                                     source=target.source)
        else:
            suggestion = M_("reword it after the English, which says {meant} here", meant=concept_name(data.termbase, reading.concept))
    elif reading is not None and not reading.sure:
        english = t.english
        message = M_("{message}; the English does not speak of {concept} here (“{english}”)", message=message,
                     concept=concept_name(data.termbase, concept_id), english=quote(english, 0, 80, 0) if english else "")
        suggestion = M_("reword it after the English: what does the English say here? (the termbase's term for "
                        "{concept} would not fit)", concept=concept_named(data.termbase, concept_id))
    else:
        target = _replacement(data.termbase, concept_id, t.lang, term.replacement)
        word = inflected(found, term, target) if target is not None else (term.replacement or "")
        concept = data.termbase.concept(concept_id)
        holder = next((x for x in concept.terms.get(t.lang, ()) if term.replacement in x.forms), None) \
            if target is None and concept is not None and term.replacement else None
        if holder is not None:   # the replacement is one form of a term: the form that fits here
            word = _ending_like(found, word, holder)
        if target is None and not word:
            preferred = data.termbase.preferred(concept_id, t.lang)
            word = inflected(found, term, preferred) if preferred is not None else found
        suggestion = M_("write '{word}' instead (termbase: {source})", word=word, source=term.source)
    return flag(message, suggestion, span=span, spans=spans)


def deprecated(t: Text, data: Data) -> Iterator[Flag]:
    return _discouraged(t, data, "deprecated", old_wording=False)


def forbidden(t: Text, data: Data) -> Iterator[Flag]:
    return _discouraged(t, data, "forbidden", old_wording=False)


def old_wording(t: Text, data: Data) -> Iterator[Flag]:
    yield from _discouraged(t, data, "deprecated", old_wording=True)
    yield from _discouraged(t, data, "forbidden", old_wording=True)


# ------------------------------------------------------------------ untranslated keyword


def _own_forms(data: Data, lang: str) -> frozenset[str]:
    return data.derived("own-forms", lang, lambda: frozenset(
        f.casefold() for c in data.termbase.concepts for term in c.terms.get(lang, ()) for f in term.forms))


def untranslated(t: Text, data: Data) -> Iterator[Flag]:
    """A term of another language in a translation: an English keyword, action or game term
    left untranslated ('graveyard' in a French text), or e.g. a German one in a French text.
    Words that are also a term of the text's own language ('explore', 'Land') do not count; one
    inside a sentence in another language is the language check's finding (`covered_by`)."""
    if t.index or t.lang == SOURCE_LANGUAGE:
        return
    own_forms = _own_forms(data, t.lang)
    foreign = foreign_spans(t, data)
    seen: set[tuple[str, str]] = set()
    for other in (SOURCE_LANGUAGE, *data.targets):
        if other == t.lang:
            continue
        for m in data.terms(t.text, other):
            concept = data.termbase.concept(m.concept_id)
            found = t.text[m.start:m.end]
            if concept is None or found.casefold() in own_forms or (m.concept_id, other) in seen:
                continue   # reported once
            inside = any(s <= m.start < e for s, e in foreign)   # a sentence the language check reports
            if not inside:
                seen.add((m.concept_id, other))
            target = data.termbase.preferred(m.concept_id, t.lang)
            if other == SOURCE_LANGUAGE:
                message = M_("{label}: the English {kind} '{found}' is left untranslated in the text in {lang} "
                             "(“{context}”)", label=t.label, kind=_KIND_NAMES.get(concept.kind, concept.kind),
                             found=found, lang=data.lang(t.lang), context=quote(t.text, m.start, m.end))
            else:
                message = M_("{label}: the {kind} '{found}' of {other} is used in the text in {lang} (“{context}”)",
                             label=t.label, kind=_KIND_NAMES.get(concept.kind, concept.kind), found=found,
                             other=data.lang(other), lang=data.lang(t.lang), context=quote(t.text, m.start, m.end))
            fix = (M_("write {term} (termbase: {source})", term=_term_label(target), source=target.source)
                   if target else M_("translate it"))
            yield flag(message, fix, span=(m.start, m.end), covered_by="language.wrong-language" if inside else "")


# ------------------------------------------------------------------ inconsistent variants


def _official_spelling(ctx: Context, lang: str, concept_id: str, used: list[str]) -> tuple[str | None, Message | str]:
    """Which of the terms a language's texts use for one concept is the official one, and why: the
    termbase's preferred term; else the one official card texts print (the phrases quoted in
    ``translations/phraseology.yaml``) where the others' share of those prints is under
    RARE_SHARE; else None: nothing decides, and the finding says so instead of prescribing (how
    many texts of the project use each is no evidence: the seed's two rulings with 'Nichtlandkarte'
    against the 88 official texts with 'Nichtland-Karte')."""
    preferred = ctx.termbase.preferred(concept_id, lang)
    if preferred is not None and preferred.status == "preferred" and preferred.text in used:
        return preferred.text, M_(" (termbase: {source})", source=preferred.source)
    concept = ctx.termbase.concept(concept_id)
    terms = {t.text: t for t in concept.terms.get(lang, ())} if concept is not None else {}
    printed = {text: ctx.phraseology.printed(lang, (text, *terms[text].forms)) if text in terms else 0 for text in used}
    best = max(used, key=lambda k: (printed[k], -used.index(k)))
    if printed[best] and sum(printed.values()) - printed[best] < RARE_SHARE * sum(printed.values()):
        ranked = sorted(used, key=lambda k: -printed[k])
        counts = QuotedEach(tuple(ranked), tuple(printed[k] for k in ranked))
        return best, M_(" (official card texts quoted in translations/phraseology.yaml: {counts})", counts=counts)
    return None, ""


def _one_term(standard: str, why: Message | str) -> Message:
    """The fix of an inconsistent term: the official one (`standard`, as it fits the text), and why."""
    return M_("use one term for one concept: '{standard}'{source}", standard=standard, source=why)


def inconsistent(ctx: Context) -> Iterator[Issue]:
    for lang in ctx.languages:
        uses: dict[str, dict[str, list[tuple[UnitText, TermMatch]]]] = defaultdict(lambda: defaultdict(list))
        for t in ctx.texts([lang]):
            for m in ctx.terms(t):
                if not m.term.discouraged:
                    uses[m.concept_id][m.term.text].append((t, m))
        for concept_id, by_term in uses.items():
            if len(by_term) < 2:
                continue
            concept = ctx.termbase.concept(concept_id)
            assert concept is not None
            order = [term.text for term in concept.terms.get(lang, ())]
            units = {k: len({x.unit.id for x, _ in v}) for k, v in by_term.items()}
            standard, why = _official_spelling(ctx, lang, concept_id, sorted(by_term, key=order.index))
            # the texts to report: those that do not write the official term; with none, those of the
            # less used ones (the finding then prescribes neither)
            compared = standard or min(by_term, key=lambda k: (-units[k], order.index(k)))
            standard_units = sorted({x.label for x, _ in by_term[compared]})
            surface = sorted({x.text[m.start:m.end] for x, m in by_term[compared]})
            spelled = "', '".join(surface[:3])
            where: object = ", ".join(standard_units[:3])
            if len(standard_units) > 3:
                where = MN_("{units} and {more} more", "{units} and {more} more", "more", units=where,
                            more=len(standard_units) - 3)
            standard_term = _replacement(ctx.termbase, concept_id, lang, standard)
            if standard is None:
                ranked = sorted(by_term, key=order.index)
                spellings = QuotedEach(tuple(ranked), tuple(units[k] for k in ranked))
                fix: Message = M_("use one term for one concept; the texts in {lang} write {spellings}, and neither "
                                  "the termbase nor the official card texts decide between them: choose the one "
                                  "official cards print and mark it preferred in translations/termbase.yaml",
                                  lang=ctx.lang(lang), spellings=spellings)
            else:
                fix = _one_term(standard, why)
            for term_text, items in sorted(by_term.items()):
                if term_text == compared:
                    continue
                done: set[str] = set()
                for t, m in items:
                    if t.unit.id in done:
                        continue
                    done.add(t.unit.id)
                    phrase = _form_in_context(t.text, m.start, m.end, standard_term) if standard_term else None
                    yield Issue.at(t, M_("{label} writes '{found}' (“{context}”) for {concept}, but the texts in "
                                         "{lang} elsewhere write '{spelled}' ({where})", label=t.label,
                                         found=t.text[m.start:m.end], context=quote(t.text, m.start, m.end),
                                         concept=concept_named(ctx.termbase, concept_id), lang=ctx.lang(lang),
                                         spelled=spelled, where=where),
                                   fix if phrase is None else _one_term(phrase, why),
                                   span=(m.start, m.end))


# ------------------------------------------------------------------ gender and case


def gender(t: Text, data: Data) -> Iterator[Flag]:
    locale = LOCALE.get(t.lang)
    if t.index or locale is None or not locale.articles:
        return
    for m in data.terms(t.text, t.lang):
        if m.term.gender is None:
            continue
        spans = [w.span() for w in _WORDS.finditer(t.text, max(0, m.start - 60), m.start)][-3:]
        before = [t.text[a:b] for a, b in spans]
        words = [w.strip("«»“”\"(").casefold() for w in before]
        while words and words[-1] in locale.between:
            words.pop()
        if not words:
            continue
        article = words[-1]
        for g, articles in locale.articles.items():
            if g != m.term.gender and article in articles:
                start = spans[len(words) - 1][0]
                yield flag(M_("{label}: “{phrase}” — '{term}' is {gender}, '{article}' is {other} "
                                     "(“{context}”)", label=t.label, phrase=t.text[start:m.end],
                                     term=m.term.text, gender=_GENDER_NAME[m.term.gender], article=article,
                                     other=_GENDER_NAME[g], context=quote(t.text, start, m.end)),
                               M_("make the article agree with the {gender} '{term}' (termbase: {source})",
                                  gender=_GENDER_NAME[m.term.gender], term=m.term.text, source=m.term.source),
                               span=(start, m.end))


def in_quotes(text: str, pos: int, lang: str) -> bool:
    """Whether `pos` lies inside a quotation (straight, « », „ “, or English “ ”)."""
    if text.count('"', 0, pos) % 2:
        return True
    pairs = [("«", "»")] + ([("„", "“")] if lang != "en" else [("„", "“"), ("“", "”")])
    return any(text.rfind(a, 0, pos) > text.rfind(b, 0, pos) for a, b in pairs)


# A sentence starts at the text's start, after an end mark (and the closing quotes or parenthesis
# that may follow it: '… la lancer. » Payer le coût'), after an opening quote, or after a dash.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;•…]\s*[\"”“»)’]*\s*|[„“”\"«(]\s*|—\s*)$")


_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’-]*)[ \u00a0]+$")
_WORD_AFTER = re.compile(r"^[ \u00a0]+(?:of |de |du |des )?([^\W\d_][\w'’-]*)")


def _in_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised word stands beside another capitalised word (a card's name), not at a
    sentence start."""
    before = _WORD_BEFORE.search(text[max(0, start - 40):start])
    if before and before.group(1)[:1].isupper() and not _SENTENCE_START.search(text[: start - len(before.group(0))]):
        return True
    after = _WORD_AFTER.search(text[end:end + 40])
    return bool(after and after.group(1)[:1].isupper())


def case(t: Text, data: Data) -> Iterator[Flag]:
    if t.index or t.kind is UnitKind.TITLE:
        return
    locale = LOCALE.get(t.lang, Locale({}, frozenset(), False))
    for m in data.terms(t.text, t.lang):
        found = t.text[m.start:m.end]
        if found in m.term.forms or not found[:1].isalpha():
            continue
        if in_quotes(t.text, m.start, t.lang):
            continue  # a quoted title ("Mana Abilities") keeps its capitals
        if not locale.nouns_capitalised and _in_name(t.text, m.start, m.end):
            continue  # part of a name ("Library of Alexandria", "Elephant Graveyard")
        key = " ".join(found.casefold().split())
        expected = next((f for f in m.term.forms if " ".join(f.casefold().split()) == key), None)
        if expected is None:   # a form the termbase need not list ("Wirf … ab" of 'abwerfen'): as the term is cased
            expected = (found[:1].upper() if m.term.text[:1].isupper() else found[:1].lower()) + found[1:]
            if found == expected:
                continue
        if found[1:] == expected[1:]:  # only the first letter differs
            upper = found[:1].isupper()
            if upper and (locale.nouns_capitalised or _SENTENCE_START.search(t.text[: m.start])):
                continue  # a sentence start, or a German nominalisation ("das Erkunden")
            if not upper and any(f[:1].islower() and f[1:] == found[1:] for f in m.term.forms):
                continue
        if inside(data.card_names(t.text, t.lang), m.start, m.end):
            continue  # a card's name ("Path to Exile", "Sylvan Library"), as the card prints it
        yield flag(M_("{label} writes '{found}' (“{context}”); the term in {lang} is written '{expected}'",
                             label=t.label, found=found, context=quote(t.text, m.start, m.end),
                             lang=data.lang(t.lang), expected=expected),
                       M_("write '{expected}'", expected=expected), span=(m.start, m.end))


# ------------------------------------------------------------------ zones


def zone(t: Text, data: Data) -> Iterator[Flag]:
    """A translation that names a zone its English does not (a card "removed from the game"
    where the English removes it from the graveyard): a change of meaning."""
    english = t.source
    if not t.is_translation or english is None:
        return
    zones = [z for z in ZONES if data.termbase.concept(z) is not None]
    en_zones = {m.concept_id for m in data.terms(english, SOURCE_LANGUAGE) if m.concept_id in zones}
    seen: set[str] = set()
    for m in data.terms(t.text, t.lang):
        if m.concept_id not in zones or m.concept_id in en_zones or m.concept_id in seen:
            continue
        seen.add(m.concept_id)
        said = concept_names(data.termbase, (z for z in zones if z in en_zones))
        yield flag(M_("{label}: the text in {lang} speaks of {zone} (“{context}”), which the English does "
                             "not: the English names {zones} (“{english}”)", label=t.label, lang=data.lang(t.lang),
                             zone=concept_named(data.termbase, m.concept_id), context=quote(t.text, m.start, m.end),
                             zones=said or M_("no zone"), english=quote(english, 0, 100, 0)),
                       M_("name the zone the English names: a wrong zone changes what the rule does"),
                       span=(m.start, m.end))


CHECKS = (
    TextCheck("terminology.zone", "a translation names a zone its English does not (a change of meaning)", Severity.ERROR, zone),
    TextCheck("terminology.missing-term", "the translation lacks the term of a concept the English uses", Severity.WARNING, missing_term),
    TextCheck("terminology.deprecated", "a deprecated term (old rules wording, replaced term)", Severity.WARNING, deprecated),
    TextCheck("terminology.forbidden", "a forbidden term", Severity.ERROR, forbidden),
    TextCheck("terminology.old-wording", "English wording of its rules release, outdated today", Severity.INFO, old_wording),
    TextCheck("terminology.untranslated", "a keyword or game term left in English (or in another language's form)", Severity.WARNING, untranslated),
    Check("terminology.inconsistent", "one concept rendered by different terms within one language", Severity.WARNING, inconsistent),
    TextCheck("terminology.gender", "an article that does not agree with the term's gender", Severity.WARNING, gender),
    TextCheck("terminology.case", "a term capitalised against its language's rule (style)", Severity.INFO, case),
)
