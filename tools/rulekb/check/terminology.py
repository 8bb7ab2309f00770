"""Check family `terminology` (stage: check), driven by the termbase (``translations/termbase.yaml``).

- `terminology.missing-term`: the English uses a concept (e.g. "pay") and the translation uses
  none of that concept's terms in its language;
- `terminology.deprecated` / `terminology.forbidden`: a deprecated or forbidden term in any text
  (English included); `terminology.old-wording`: an English text that uses a term retired after
  the rules release it belongs to (faithful to that release, outdated today);
- `terminology.untranslated`: an English keyword left in a German or French text (or the keyword
  of another translation, e.g. German in French);
- `terminology.inconsistent`: one concept rendered by different terms within one language;
- `terminology.gender`: an article that does not agree with the term's gender (French);
- `terminology.case`: a term capitalised (or not) against its language's rule in mid-sentence.

Locale rules (articles per gender, capitalisation of nouns) live in `LOCALE`: adding a language
is one entry there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator

from ..models import SOURCE_LANGUAGE, Severity, UnitKind
from ..termbase import Term, TermMatch
from .base import TERMS, VERDICTS, Check, Context, Issue, Text, quote


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
_GENDER_NAME = {"m": "masculine", "f": "feminine", "n": "neuter"}


def _term_label(term: Term) -> str:
    return f"'{term.text}'"


def _group(matches: tuple[TermMatch, ...]) -> dict[tuple[str, str], list[TermMatch]]:
    out: dict[tuple[str, str], list[TermMatch]] = defaultdict(list)
    for m in matches:
        out[(m.concept_id, m.term.text)].append(m)
    return out


def _concept_name(ctx: Context, concept_id: str) -> str:
    pref = ctx.termbase.preferred(concept_id, SOURCE_LANGUAGE)
    return f"'{pref.text}'" if pref else f"'{concept_id}'"


# ------------------------------------------------------------------ missing term


def missing_term(ctx: Context) -> Iterator[Issue]:
    for t, _english in ctx.translations():
        en_text = ctx.english_text(t)
        assert en_text is not None
        en_matches = ctx.terms(en_text)
        have = {m.concept_id for m in ctx.terms(t)}
        # a concept left in English is terminology.untranslated's finding, not a missing term
        have |= {m.concept_id for m in ctx.termbase.find_terms(t.text, SOURCE_LANGUAGE)}
        seen: set[str] = set()
        for m in en_matches:
            concept = ctx.termbase.concept(m.concept_id)
            if concept is None or m.concept_id in have or m.concept_id in seen or not concept.required:
                continue
            targets = concept.terms.get(t.lang, ())
            if not targets:
                continue
            seen.add(m.concept_id)
            expected = ctx.termbase.preferred(concept.id, t.lang) or targets[0]
            forms = ", ".join(f"'{f}'" for f in expected.forms[:4])
            yield Issue.at(t, f"{t.label}: the English says '{en_text.text[m.start:m.end]}' "
                              f"(“{quote(en_text.text, m.start, m.end)}”) but the {ctx.language_name(t.lang)} text "
                              f"has no term for it: expected {_term_label(expected)} ({forms} …)",
                           f"translate '{en_text.text[m.start:m.end]}' as {_term_label(expected)} "
                           f"(termbase: {expected.source})")


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


def _discouraged_uses(ctx: Context) -> list[tuple[Text, dict[tuple[str, str], list[TermMatch]]]]:
    """The texts that use a deprecated or forbidden term, with their matches grouped by term
    (computed once for the four checks that read them)."""
    key = ("terminology", "discouraged")
    found = ctx.cache.get(key)
    if found is None:
        found = []
        for t in ctx.texts():
            matches = ctx.terms(t)
            if any(m.term.discouraged for m in matches):
                found.append((t, _group(matches)))
        ctx.cache[key] = found
    return found  # type: ignore[return-value]


def _discouraged(ctx: Context, status: str, old_wording: bool) -> Iterator[Issue]:
    for t, groups in _discouraged_uses(ctx):
        for (concept_id, _), matches in groups.items():
            term = matches[0].term
            if term.status != status:
                continue
            current = t.lang == SOURCE_LANGUAGE and _still_current(t.release, term.retired)
            if current != old_wording:
                continue
            first = matches[0]
            found = t.text[first.start:first.end]
            times = f" ({len(matches)} times)" if len(matches) > 1 else ""
            retired = f", retired {term.retired}" if term.retired else ""
            name = ctx.language_name(t.lang)
            if old_wording:
                message = (f"{t.label} uses '{found}'{times} (“{quote(t.text, first.start, first.end)}”), the wording "
                           f"of the {t.release} rules; today's rules say '{term.replacement}'{retired}")
                suggestion = (f"keep it while the text is that of the {t.release} release; when importing a newer "
                              f"release, its text says '{term.replacement}' (termbase: {term.source})")
            else:
                message = (f"{t.label} uses '{found}'{times} (“{quote(t.text, first.start, first.end)}”), a {status} "
                           f"{name} term for {_concept_name(ctx, concept_id)}{retired}")
                if term.note:
                    message += f" — {term.note}"
                suggestion = f"write '{term.replacement}' instead (termbase: {term.source})"
                english = ctx.english_text(t) if t.lang != SOURCE_LANGUAGE else None
                if english is not None and concept_id not in {m.concept_id for m in ctx.terms(english)}:
                    message += (f"; the English does not speak of {_concept_name(ctx, concept_id)} here "
                                f"(“{quote(english.text, 0, 80, 0)}”)")
                    suggestion = (f"check the meaning against the English and reword; where it means "
                                  f"{_concept_name(ctx, concept_id)}, write '{term.replacement}' (termbase: {term.source})")
            yield Issue.at(t, message, suggestion)


def deprecated(ctx: Context) -> Iterator[Issue]:
    return _discouraged(ctx, "deprecated", old_wording=False)


def forbidden(ctx: Context) -> Iterator[Issue]:
    return _discouraged(ctx, "forbidden", old_wording=False)


def old_wording(ctx: Context) -> Iterator[Issue]:
    yield from _discouraged(ctx, "deprecated", old_wording=True)
    yield from _discouraged(ctx, "forbidden", old_wording=True)


# ------------------------------------------------------------------ untranslated keyword


def untranslated(ctx: Context) -> Iterator[Issue]:
    """A term of another language in a translation: an English keyword, action or game term
    left untranslated ('graveyard' in a French text), or e.g. a German one in a French text.
    Words that are also a term of the text's own language ('explore', 'Land') do not count."""
    foreign = _foreign_sentences(ctx)
    own_forms = {lang: {f.casefold() for c in ctx.termbase.concepts for term in c.terms.get(lang, ()) for f in term.forms}
                 for lang in ctx.languages}
    for t in ctx.texts(ctx.targets):
        seen: set[tuple[str, str]] = set()
        others = [SOURCE_LANGUAGE] + [lang for lang in ctx.targets]
        for other in others:
            if other == t.lang:
                continue
            for m in ctx.termbase.find_terms(t.text, other):
                concept = ctx.termbase.concept(m.concept_id)
                found = t.text[m.start:m.end]
                if concept is None or found.casefold() in own_forms[t.lang]:
                    continue
                if (m.concept_id, other) in seen or any(s <= m.start < e for s, e in foreign(t)):
                    continue  # reported once; or inside a sentence the language check reports
                seen.add((m.concept_id, other))
                target = ctx.termbase.preferred(m.concept_id, t.lang)
                instead = f"write {_term_label(target)}" if target else "translate it"
                what = "left untranslated" if other == SOURCE_LANGUAGE else "used"
                yield Issue.at(t, f"{t.label}: the {ctx.language_name(other)} {concept.kind} '{found}' is {what} in the "
                                  f"{ctx.language_name(t.lang)} text (“{quote(t.text, m.start, m.end)}”)",
                               f"{instead}" + (f" (termbase: {target.source})" if target else ""))


def _foreign_sentences(ctx: Context):
    """Spans of sentences the language check finds in another language, when it runs."""
    if "language.wrong-language" not in ctx.selected:
        return lambda t: ()
    from .language import foreign_spans
    return lambda t: foreign_spans(ctx, t)


# ------------------------------------------------------------------ inconsistent variants


def inconsistent(ctx: Context) -> Iterator[Issue]:
    for lang in ctx.languages:
        uses: dict[str, dict[str, list[tuple[Text, TermMatch]]]] = defaultdict(lambda: defaultdict(list))
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
            preferred = ctx.termbase.preferred(concept_id, lang)
            if preferred is not None and preferred.status == "preferred" and preferred.text in by_term:
                standard = preferred.text
            else:
                standard = min(by_term, key=lambda k: (-len({x.unit.id for x, _ in by_term[k]}), order.index(k)))
            standard_units = sorted({x.label for x, _ in by_term[standard]})
            surface = sorted({x.text[m.start:m.end] for x, m in by_term[standard]})
            spelled = "', '".join(surface[:3])
            where = ", ".join(standard_units[:3]) + (f" and {len(standard_units) - 3} more" if len(standard_units) > 3 else "")
            for term_text, items in sorted(by_term.items()):
                if term_text == standard:
                    continue
                done: set[str] = set()
                for t, m in items:
                    if t.unit.id in done:
                        continue
                    done.add(t.unit.id)
                    name = ctx.language_name(lang)
                    yield Issue.at(t, f"{t.label} writes '{t.text[m.start:m.end]}' (“{quote(t.text, m.start, m.end)}”) "
                                      f"for {_concept_name(ctx, concept_id)}, but the {name} texts elsewhere write "
                                      f"'{spelled}' ({where})",
                                   f"use one term for one concept: the term '{standard}'"
                                   + (f" (as in '{spelled}')" if spelled != standard else "")
                                   + (f" (termbase: {preferred.source})" if preferred and preferred.text == standard else ""))


# ------------------------------------------------------------------ gender and case


def gender(ctx: Context) -> Iterator[Issue]:
    for lang, locale in LOCALE.items():
        if not locale.articles or lang not in ctx.languages:
            continue
        for t in ctx.texts([lang]):
            for m in ctx.terms(t):
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
                        yield Issue.at(t, f"{t.label}: “{t.text[start:m.end]}” — '{m.term.text}' is "
                                          f"{_GENDER_NAME[m.term.gender]}, '{article}' is {_GENDER_NAME[g]} "
                                          f"(“{quote(t.text, start, m.end)}”)",
                                       f"make the article agree with the {_GENDER_NAME[m.term.gender]} "
                                       f"'{m.term.text}' (termbase: {m.term.source})")


def in_quotes(text: str, pos: int, lang: str) -> bool:
    """Whether `pos` lies inside a quotation (straight, « », „ “, or English “ ”)."""
    if text.count('"', 0, pos) % 2:
        return True
    pairs = [("«", "»")] + ([("„", "“")] if lang != "en" else [("„", "“"), ("“", "”")])
    return any(text.rfind(a, 0, pos) > text.rfind(b, 0, pos) for a, b in pairs)


_SENTENCE_START = re.compile(r"(?:^|[.!?:;•]\s*|[„“”\"«(]\s*|—\s*)$")


def case(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        if t.unit.kind is UnitKind.TITLE:
            continue
        locale = LOCALE.get(t.lang, Locale({}, frozenset(), False))
        for m in ctx.terms(t):
            found = t.text[m.start:m.end]
            if found in m.term.forms or not found[:1].isalpha():
                continue
            if in_quotes(t.text, m.start, t.lang):
                continue  # a quoted title ("Mana Abilities") keeps its capitals
            key = " ".join(found.casefold().split())
            expected = next((f for f in m.term.forms if " ".join(f.casefold().split()) == key), m.term.text)
            if found[1:] == expected[1:]:  # only the first letter differs
                upper = found[:1].isupper()
                if upper and (locale.nouns_capitalised or _SENTENCE_START.search(t.text[: m.start])):
                    continue  # a sentence start, or a German nominalisation ("das Erkunden")
                if not upper and any(f[:1].islower() and f[1:] == found[1:] for f in m.term.forms):
                    continue
            yield Issue.at(t, f"{t.label} writes '{found}' (“{quote(t.text, m.start, m.end)}”); the "
                              f"{ctx.language_name(t.lang)} term is written '{expected}'",
                           f"write '{expected}'")


CHECKS = (
    Check("terminology.missing-term", "the translation lacks the term of a concept the English uses", Severity.WARNING, missing_term, cost=1, needs=(TERMS,)),
    Check("terminology.deprecated", "a deprecated term (old rules wording, replaced term)", Severity.WARNING, deprecated, cost=13, needs=(TERMS,)),
    Check("terminology.forbidden", "a forbidden term", Severity.ERROR, forbidden, cost=10, needs=(TERMS,)),
    Check("terminology.old-wording", "English wording of its rules release, outdated today", Severity.INFO, old_wording, cost=10, needs=(TERMS,)),
    Check("terminology.untranslated", "a keyword or game term left in English (or in another language's form)", Severity.ERROR, untranslated, cost=2, needs=(VERDICTS,)),
    Check("terminology.inconsistent", "one concept rendered by different terms within one language", Severity.WARNING, inconsistent, cost=15, needs=(TERMS,)),
    Check("terminology.gender", "an article that does not agree with the term's gender", Severity.WARNING, gender, cost=1, needs=(TERMS,)),
    Check("terminology.case", "a term capitalised against its language's rule", Severity.WARNING, case, cost=20, needs=(TERMS,)),
)
