"""What the by-text checks share (stage: check, load -> validate -> link -> check -> render ->
report): the termbase's zones and how a message names a concept, how a message names a text (a
variant beside the canonical one says which it is), and a sentence's excerpt. Pure functions of
their arguments, read by the meaning and terminology families (`rulekb.check.text` says what a
by-text check is).
"""

from __future__ import annotations

from typing import Iterable

from ..models import M_, SOURCE_LANGUAGE, Message, Named, Quoted, QuotedEach
from ..termbase import Termbase
from .base import quote
from .text import Text

ZONES = ("library", "hand", "battlefield", "graveyard", "stack", "exile")   # concept ids of the termbase

Span = tuple[int, int]


def _english_term(termbase: Termbase, concept_id: str) -> str:
    pref = termbase.preferred(concept_id, SOURCE_LANGUAGE)
    return pref.text if pref else concept_id


def concept_name(termbase: Termbase, concept_id: str) -> Quoted:
    """The concept's English term, quoted as the reader quotes: for a message about what the English text says."""
    return Quoted(_english_term(termbase, concept_id))


def concept_names(termbase: Termbase, concept_ids: Iterable[str]) -> QuotedEach:
    """Several concepts' English terms, each quoted as the reader quotes."""
    return QuotedEach(tuple(_english_term(termbase, concept_id) for concept_id in concept_ids))


def concept_named(termbase: Termbase, concept_id: str) -> Named:
    """The concept named in the reader's language: its preferred term there ('wirken', 'lancer'),
    the English one for an English reader or where the termbase has none."""
    pref = termbase.preferred(concept_id, SOURCE_LANGUAGE)
    concept = termbase.concept(concept_id)
    terms = []
    for lang in sorted(concept.terms if concept is not None else ()):
        term = termbase.preferred(concept_id, lang)
        if lang != SOURCE_LANGUAGE and term is not None:
            terms.append((lang, term.text))
    return Named(pref.text if pref else concept_id, tuple(terms))


def label(t: Text) -> Message | str:
    """How a message names the text: its unit, and for a text beside the canonical one which it is."""
    if not t.index:
        return t.label
    return M_("{label}{which}", label=t.label,
              which=M_(" (variant {n}, source {source})", n=t.index + 1, source=t.origin))


def excerpt(text: str, span: Span) -> str:
    """The text of a span (a sentence), up to 160 characters."""
    return quote(text, span[0], min(span[1], span[0] + 160), 0)
