"""Notes for translators on a published English text (beside the pipeline; read by the PO
export, `po.export`): the terms it uses that today's rules say otherwise ("converted mana cost":
today's term is "mana value"), written as comments of its unit, where a translator meets them.
A published English text is kept verbatim, its old words included: the QA reports nothing on it
(`check.asks_nothing`), and a translation says today's term.

The terms are the termbase's deprecated and forbidden English terms as it finds them (so with its
`exceptions` and `only_before`: "play that card" and "land plays" are today's words); a term inside
a card's name ("Play with Fire") is the name (`cardnames`).
"""

from __future__ import annotations

from .cardnames import CardNames, inside
from .models import SOURCE_LANGUAGE
from .termbase import Termbase


def english_notes(text: str, termbase: Termbase, names: CardNames | None = None) -> tuple[str, ...]:
    """One note per old term of an English text, in text order: "today's term: mana value, not
    converted mana cost", with the termbase's note on it."""
    spans = names.spans(text, SOURCE_LANGUAGE) if names is not None else ()
    out: dict[str, None] = {}
    for m in termbase.find_terms(text, SOURCE_LANGUAGE):
        term = m.term
        if not term.discouraged or inside(spans, m.start, m.end):
            continue
        found = text[m.start:m.end]
        today = term.replacement or (termbase.preferred(m.concept_id, SOURCE_LANGUAGE) or term).text
        why = f" ({term.note})" if term.note else ""
        out.setdefault(f"today's term: {today}, not {found.casefold()}{why}", None)
    return tuple(out)
