"""The glossary page of one language's site, from the termbase (render stage): every concept
with its terms in this language (preferred, admitted, and the discouraged ones with what to
write instead), its terms in the other languages, its definition and its rule; on the de/fr
sites the term today's cards print heads the entry (`official.official_term`), the older one as
history. This module
decides what each entry shows; its shape is ``templates/pages/glossary.md.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import paths
from .cards import Name, RuleRef, rule_ref
from .context import Lang
from .official import UNTIL, official_term
from .rules import _sort_key


@dataclass(frozen=True)
class Discouraged:
    text: str
    deprecated: bool            # "deprecated", else "do not use"
    replacement: str | None     # what to write instead


@dataclass(frozen=True)
class Entry:
    id: str
    head: str                   # the preferred term in this language (else English, else any)
    head_lang: str
    forms: tuple[str, ...]      # the other forms of the usable terms in this language
    discouraged: tuple[Discouraged, ...]
    definition: str | None
    definition_lang: str
    others: tuple[Name, ...]    # the preferred term in each other language
    rule: RuleRef | None
    on_cards: str | None = None   # the official term cards in this language print (`official.official_term`)
    until: str | None = None      # the term they printed before ("bis 2021: umgewandelte Manakosten")


def glossary_entries(c: Lang) -> list[Entry]:
    """The concepts of the termbase, alphabetically by their head term in this language."""
    termbase = c.shared.termbase
    concepts = termbase.concepts if termbase is not None else ()
    entries = []
    for concept in concepts:
        head, head_lang = _head(c, concept)
        entries.append((_sort_key(head), concept.id, _entry(c, concept, head, head_lang)))
    entries.sort(key=lambda e: (e[0], e[1]))
    return [entry for _key, _id, entry in entries]


def glossary_page(c: Lang) -> str:
    return c.pages.render("pages/glossary.md.j2", entries=glossary_entries(c))


def _head(c: Lang, concept) -> tuple[str, str]:
    """The entry's head: the term today's cards print in this language where they print one
    (it wins over a termbase that still gives an older term), else the termbase's preferred term."""
    termbase = c.shared.termbase
    printed = _printed(c, concept)
    if printed is not None:
        return printed.term, c.lang
    for lang in (c.lang, "en", *c.order):
        term = termbase.preferred(concept.id, lang)
        if term is not None:
            return term.text, lang
    return concept.id, "en"


def _entry(c: Lang, concept, head: str, head_lang: str) -> Entry:
    own = concept.terms.get(c.lang, ())
    forms = tuple(f for t in own if not t.discouraged for f in t.forms if f != head)
    discouraged = tuple(Discouraged(t.text, t.status == "deprecated", t.replacement or None) for t in own if t.discouraged)
    definition = concept.definition.get(c.lang)
    def_lang = c.lang
    if definition is None and concept.definition:
        def_lang = "en" if "en" in concept.definition else sorted(concept.definition)[0]
        definition = concept.definition[def_lang]
    others = []
    for lang in c.kb.languages:
        if lang.code == c.lang:
            continue
        preferred = c.shared.termbase.preferred(concept.id, lang.code)
        if preferred is not None:
            others.append(Name(lang.code, lang.name, preferred.text))
    rule = rule_ref(c, paths.GLOSSARY, concept.rule) if concept.rule else None
    printed = _printed(c, concept)
    preferred = c.shared.termbase.preferred(concept.id, c.lang)
    if printed is not None and preferred is not None and preferred.text != head and preferred.text not in forms:
        forms = (preferred.text, *forms)   # the termbase's term, kept visible beside the printed one
    until = None
    if printed is not None and printed.history:
        until = c.ui._(UNTIL).format(year=printed.since[:4], term=printed.history[0].text)
    return Entry(concept.id, head, head_lang, forms, discouraged, definition or None, def_lang, tuple(others), rule,
                 printed.term if printed is not None else None, until)


def _printed(c: Lang, concept):
    """The official term in this language of the concept's English terms, if cards print one."""
    for term in concept.terms.get("en", ()):
        found = official_term(c.shared.official, term.text, c.lang)
        if found is not None:
            return found
    return None
