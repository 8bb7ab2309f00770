"""The official German and French names and card wordings of the keywords on the site (render
stage): what a de/fr keyword rule page shows in its title ("702.81 Zurückverfolgen (Retrace)")
and in its box "Auf deutschen Karten" / "Sur les cartes en français" (the reminder text of the
newest printing, card, set and date, the earlier wordings folded with their dates: card text,
not a translation of the rule), the keyword index's names, the rule's JSON, and the search's
aliases (`search_extra`, for `search_aliases.search_aliases(extra=…)`).

The data is `rulekb.official.Official` (``translations/official.yaml``, mined from the card
files by ``rulekb official mine``); it reaches the render stage through `context.Shared.official`.
The shape of the box is ``templates/pages/rule.md.j2``; this module decides its values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..i18n import N_
from ..models import SOURCE_LANGUAGE, KnowledgeBase, Rule
from ..official import Keyword, KeywordName, Official, Reminder
from .search_aliases import SearchAlias

# the box's heading per language of the cards (the catalogs: "Auf deutschen Karten", "Sur les cartes en français")
ON_CARDS = {"de": N_("On German cards"), "fr": N_("On French cards")}
CARD_TEXT = N_("Card text as printed, not a translation of the rule")
EARLIER = N_("Earlier wordings")


@dataclass(frozen=True)
class Wording:
    """A reminder text as printed: on which card (its printed name), set and number, its first
    and last printing (dates in the page's language)."""

    text: str
    card: str
    set_code: str
    number: str
    date: str          # the newest printing's date, in the page's language
    first: str
    last: str


@dataclass(frozen=True)
class OfficialBox:
    """The box of a keyword rule on a de/fr page."""

    heading: str       # "Auf deutschen Karten"
    lang: str          # the cards' language
    name: str          # the official name ("Affinität zu …" where words follow it)
    english: str
    named_on: str      # the card the name was read from, with set and date
    note: str          # "Card text as printed, not a translation of the rule" in the page's language
    reminder: Wording | None
    earlier_heading: str
    earlier: tuple[Wording, ...]


def official_name(official: Official, rule: Rule, lang: str) -> tuple[Keyword, KeywordName] | None:
    """The keyword of a keyword rule (by its number today) and its official name in `lang`;
    None for another rule, for English, or where no card of `lang` prints it."""
    if lang == SOURCE_LANGUAGE:
        return None
    keyword = official.keyword(rule.current_number)
    name = keyword.name(lang) if keyword is not None else None
    return (keyword, name) if keyword is not None and name is not None else None


def official_title(official: Official, rule: Rule, lang: str) -> Markup | None:
    """"Zurückverfolgen (Retrace)": the official name, the English after it (marked English)."""
    found = official_name(official, rule, lang)
    if found is None:
        return None
    keyword, name = found
    return Markup('<span lang="{}">{}</span> <span lang="en">({})</span>').format(lang, name.display, keyword.english)


def official_plain_title(official: Official, rule: Rule, lang: str) -> str | None:
    """The same as text (the page's name: "702.81 Zurückverfolgen (Retrace)")."""
    found = official_name(official, rule, lang)
    return None if found is None else f"{found[1].display} ({found[0].english})"


def _wording(r: Reminder, date) -> Wording:
    return Wording(r.text, r.source.card, r.source.set_code, r.source.number, date(r.source.date), date(r.first), date(r.last))


def official_box(official: Official, rule: Rule, lang: str, ui) -> OfficialBox | None:
    """The box "Auf deutschen Karten" of a keyword rule on the page in `lang` (`ui`: that
    language's UI), None where no card of that language prints the keyword."""
    found = official_name(official, rule, lang)
    if found is None:
        return None
    keyword, name = found
    reminder = name.reminder
    src = name.source
    return OfficialBox(ui._(ON_CARDS[lang]) if lang in ON_CARDS else lang, lang, name.display,
                       keyword.english, f"{src.card} ({src.set_code} {src.number}, {ui.date(src.date)})",
                       ui._(CARD_TEXT), _wording(reminder, ui.date) if reminder else None, ui._(EARLIER),
                       tuple(_wording(e, ui.date) for e in reminder.earlier) if reminder else ())


def official_json(official: Official, rule: Rule) -> dict[str, Any] | None:
    """The rule's official names and reminder texts per language, for its JSON (the same in
    every language's API), None for a rule that is no keyword the cards print."""
    keyword = official.keyword(rule.current_number)
    if keyword is None or not keyword.names:
        return None

    def ref(r) -> dict[str, str]:
        return {"card": r.card, "english": r.english, "set": r.set_code, "number": r.number, "date": r.date}

    def reminder(r: Reminder) -> dict[str, Any]:
        return {"text": r.text, "source": ref(r.source), "first": r.first, "last": r.last, "printed": r.printed}

    return {n.lang: {"name": n.name, "parameter": n.parameter, "printed": n.printed, "source": ref(n.source),
                     "reminder": dict(reminder(n.reminder), earlier=[reminder(e) for e in n.reminder.earlier])
                     if n.reminder else None,
                     "history": [{"name": h.text, "first": h.first, "last": h.last, "source": ref(h.source)}
                                 for h in n.history]}
            for n in keyword.names}


def search_extra(kb: KnowledgeBase, official: Official) -> list[SearchAlias]:
    """The official names of the keywords as search aliases (`search_aliases(extra=…)`): each
    leads to its keyword rule ("Zurückverfolgen", "Pistage" -> 702.81), for the rules of today."""
    today = {rule.current_number for rule in kb.rules}
    return [SearchAlias(n.name, n.lang, k.rule, f"official: {k.rule}")
            for k in official.keywords if k.rule in today for n in k.names]


# ------------------------------------------------------------------ the game terms of a rule (issue 29.2)

TERMS_HEADING = N_("Terms in this rule")
TERMS_INTRO = N_("The game terms the English text of this rule uses, with the term the cards in this language print.")
UNTIL = N_("until {year}: {term}")


@dataclass(frozen=True)
class TermRow:
    """A game term or keyword an English text uses, with its official term in the page's language."""

    english: str
    official: str
    history: str | None   # "bis 2021: umgewandelte Manakosten"


def term_rows(official: Official, english_text: str, lang: str, ui, own_rule: str | None = None) -> tuple[TermRow, ...]:
    """The keywords (other than the rule's own, `own_rule`) and game terms an English text uses
    that cards in `lang` print, each with its official term; today's term, the older one as
    history ("bis 2021: …")."""
    if lang == SOURCE_LANGUAGE or not english_text:
        return ()
    rows = [TermRow(k.english, k.name(lang).display, None)   # type: ignore[union-attr]
            for k in official.keywords_in(english_text, lang) if k.rule != own_rule]
    for term in official.terms_in(english_text, lang):
        name = term.name(lang)
        assert name is not None   # terms_in gives only terms with a term in `lang`
        history = name.history[0] if name.history else None
        rows.append(TermRow(term.english, name.term,
                            ui._(UNTIL).format(year=name.since[:4], term=history.text) if history else None))
    return tuple(rows)


def official_term(official: Official, english: str, lang: str):
    """The official term (`official.TermName`) of an English game term in `lang`, None where the
    cards print none (or for English)."""
    if lang == SOURCE_LANGUAGE:
        return None
    term = official.term(english)
    return term.name(lang) if term is not None else None
