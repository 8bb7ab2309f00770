"""The keywords' official names, read off the knowledge base and the termbase (stage: check): the
table the meaning checks compare a translation's keyword names with (`Data.keywords`). A module of
its own, importing nothing of the checks, so that the context and the driver build the table
without importing a check family."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..models import KnowledgeBase
from ..termbase import Termbase


@dataclass(frozen=True)
class Keyword:
    """A keyword with its official names in each language (its rule's titles, the termbase's terms)."""
    id: str
    names: Mapping[str, tuple[str, ...]]


def keyword_table(kb: KnowledgeBase | None, termbase: Termbase) -> tuple[Keyword, ...]:
    """The keywords with their official names: the titles of the knowledge base's keyword rules
    (702.*) in every language, and the termbase's keywords and keyword actions (every term of a
    concept with a rule), joined by rule id."""
    names: dict[str, dict[str, list[str]]] = {}
    for rule in (kb.rules if kb is not None else ()):
        if rule.number.startswith("702.") and rule.title is not None:
            for lang, variants in rule.title.variants.items():
                names.setdefault(rule.id, {}).setdefault(lang, []).extend(v.text for v in variants)
    for concept in termbase.concepts:
        if concept.rule is not None:
            for lang, terms in concept.terms.items():
                names.setdefault(concept.rule, {}).setdefault(lang, []).extend(
                    form for term in terms for form in (term.text, *term.forms))
    return tuple(
        Keyword(kid, {lang: tuple(dict.fromkeys(n for n in ns if n.strip())) for lang, ns in sorted(by_lang.items())})
        for kid, by_lang in sorted(names.items()))
