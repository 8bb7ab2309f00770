"""The names a reader may type for a rule, one input of the search index (render stage; the index
is render/search.py, which calls `search_aliases` once per build and shares the result between the
languages).

A name leads to the rule or subrule that defines it: typed as it is (a typo aside, which the
search forgives), it ranks that rule above the rules that only mention it ("mana value" → 202.3
before the glossary and the passing mentions; "cimetière" → 404 Graveyard on every site). Where
the names come from, each a producer of `SearchAlias` records:

- `glossary_aliases`: a term of the Comprehensive Rules' glossary leads to the rule its
  definition of today names first ("Mana Value: … See rule 202.3.");
- `termbase_aliases`: the usable terms (preferred, admitted, every form) of each concept of the
  termbase (translations/termbase.yaml) in every language: a concept of a rule leads to that rule,
  a concept of the glossary (its source names a glossary entry, "cr-2026-01-16: glossary
  'Graveyard'", or its English term is one) leads where that entry leads ("Friedhof",
  "cimetière" → 404).

- `official_aliases`: the official German and French names of the keywords and game terms as
  printed cards give them (translations/official.yaml, `rulekb.official`): a keyword's name leads
  to its rule ("Zurückverfolgen", "Pistage" → 702.81), a term's to where the glossary's entry of
  its English term leads ("Manabetrag" → 202.3), else to the rule of that title; the names
  printed before today's too ("umgewandelten Manakosten"), which readers still type. The build
  hands them to `search_aliases` (``extra``: any further producer plugs in without touching the
  index).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..models import KnowledgeBase, Unit
from ..official import Official
from ..termbase import Termbase

# "See rule 202.3" / "See rules 702.78 and ..." / "See rule 404, “Graveyard.”": the first number named
SEE_RULE = re.compile(r"\bSee rules? (\d{3}(?:\.\d+[a-z]?)?)")
GLOSSARY_SOURCE = re.compile(r"glossary '([^']+)'")


@dataclass(frozen=True)
class SearchAlias:
    """A name (in `lang`) of the rule or subrule numbered `number` today, from `source`."""

    text: str
    lang: str
    number: str      # a rule's number ("404") or a subrule's ("202.3"), as numbered today
    source: str      # where it comes from: "glossary: mana-value", "termbase: graveyard"


def _today(unit: Unit, lang: str, newest: str | None) -> str | None:
    """The unit's text of today in `lang` (the variant of the newest release, else its canonical)."""
    variants = unit.variants.get(lang, ())
    if not variants:
        return None
    current = next((v for v in variants if newest is not None and newest in v.releases), variants[0])
    return current.text


def glossary_targets(kb: KnowledgeBase) -> dict[str, str]:
    """The glossary's terms of today (casefolded English) -> the number its definition names first."""
    newest = kb.releases[-1].date if kb.releases else None
    out: dict[str, str] = {}
    for entry in kb.glossary:
        term, definition = _today(entry.term, "en", newest), _today(entry.definition, "en", newest)
        found = SEE_RULE.search(definition or "")
        if term and found:
            out.setdefault(term.casefold(), found.group(1))
    return out


def glossary_aliases(kb: KnowledgeBase) -> list[SearchAlias]:
    newest = kb.releases[-1].date if kb.releases else None
    targets = glossary_targets(kb)
    out = []
    for entry in kb.glossary:
        term = _today(entry.term, "en", newest)
        if term and term.casefold() in targets:
            out.append(SearchAlias(term, "en", targets[term.casefold()], f"glossary: {entry.id}"))
    return out


def termbase_aliases(kb: KnowledgeBase, termbase: Termbase | None) -> list[SearchAlias]:
    if termbase is None:
        return []
    targets = glossary_targets(kb)
    numbers = {rule.id: rule.current_number for rule in kb.rules}
    out = []
    for concept in termbase.concepts:
        number = numbers.get(concept.rule) if concept.rule else None
        if number is None:
            named = GLOSSARY_SOURCE.search(concept.source)
            english = [t.text.casefold() for t in concept.usable("en")]
            keys = ([named.group(1).casefold()] if named else []) + english
            number = next((targets[k] for k in keys if k in targets), None)
        if number is None:
            continue
        for lang in sorted(concept.terms):
            for term in concept.usable(lang):
                out += [SearchAlias(form, lang, number, f"termbase: {concept.id}") for form in term.forms]
    return out


def official_aliases(kb: KnowledgeBase, official: Official) -> list[SearchAlias]:
    """The official names of today and before of every keyword whose rule is in force, and of
    every game term whose English term leads to a rule (the glossary's "See rule", else a rule
    titled so), in the file's order."""
    newest = kb.releases[-1].date if kb.releases else None
    in_force = [r for r in kb.rules if newest is None or not r.releases or newest in r.releases]
    numbers = {r.current_number for r in in_force}
    titled: dict[str, str] = {}
    for rule in in_force:
        title = rule.title.text("en") if rule.title is not None else None
        if title is not None:
            titled.setdefault(title.text.casefold(), rule.current_number)
    targets = {**titled, **glossary_targets(kb)}
    out = []
    for keyword in official.keywords:
        if keyword.rule not in numbers:
            continue
        for name in keyword.names:
            source = f"official: {keyword.rule} {name.lang}"
            out += [SearchAlias(text, name.lang, keyword.rule, source)
                    for text in (name.name, *(old.text for old in name.history))]
    for term in official.terms:
        number = targets.get(term.english)
        if number is None:
            continue
        for found in term.names:
            source = f"official: {term.english} {found.lang}"
            out += [SearchAlias(text, found.lang, number, source)
                    for text in (found.term, *(old.text for old in found.history))]
    return out


def search_aliases(kb: KnowledgeBase, termbase: Termbase | None,
                   extra: Iterable[SearchAlias] = ()) -> Mapping[str, tuple[SearchAlias, ...]]:
    """Every alias by the number it leads to, each name once per number (the first producer's),
    in a stable order: the glossary's, the termbase's, then `extra`'s."""
    by_number: dict[str, dict[str, SearchAlias]] = {}
    for alias in (*glossary_aliases(kb), *termbase_aliases(kb, termbase), *extra):
        by_number.setdefault(alias.number, {}).setdefault(alias.text, alias)
    return {number: tuple(found.values()) for number, found in sorted(by_number.items())}
