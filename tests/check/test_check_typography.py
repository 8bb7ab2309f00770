"""typography: quotation marks, spacing, range dashes per locale (pass/fail tables in en, de, fr)."""

from __future__ import annotations

import pytest

from qa_kb import flags, one_text, run
from rulekb.check.typography import CHECKS

CODES = tuple(c.code for c in CHECKS)
NB = "\u00a0"

CASES = [
    # (lang, text, codes expected)
    ("en", "Retrace means “You may cast this card.”", set()),
    ("en", 'Retrace means "You may cast this card."', set()),
    ("en", "Retrace means „You may cast this card.“", {"typography.quotes"}),
    ("en", "Retrace means « You may cast this card. »", {"typography.quotes"}),
    ("en", "It follows rules 601.2b and 601.2e–g.", set()),
    ("en", "It follows rules 601.2b and 601.2e-g.", {"typography.range-dash"}),
    ("en", "Retrace appears on some  instants.", {"typography.double-space"}),
    ("en", "Retrace means : cast it.", {"typography.punctuation-spacing"}),
    ("en", "Retrace appears on instants , and sorceries.", {"typography.punctuation-spacing"}),
    ("en", "{T}: Add {G}.", set()),
    ("en", "retrace appears on some instants.", {"typography.lowercase-start"}),
    ("en", "If you don’t own it, it wouldn't be put there.", {"typography.mixed-apostrophes"}),
    ("en", "If you don’t own it, it won’t be put there.", set()),
    ("de", "„Zurückverfolgen“ bedeutet: „Du kannst diese Karte wirken.“", set()),
    ("de", '"Zurückverfolgen" bedeutet: "Du kannst diese Karte wirken."', {"typography.quotes"}),
    ("de", "“Zurückverfolgen” bedeutet: “Du kannst diese Karte wirken.”", {"typography.quotes"}),
    ("de", "„Zurückverfolgen bedeutet: Du kannst diese Karte wirken.", {"typography.quotes"}),
    ("de", "Es folgt den Regeln 601.2b und 601.2e–g.", set()),
    ("de", "Es folgt den Regeln 601.2b und 601.2e-g.", {"typography.range-dash"}),
    ("de", "Zurückverfolgen bedeutet : „Du kannst sie wirken.“", {"typography.punctuation-spacing"}),
    ("de", "Es  folgt den Regeln.", {"typography.double-space"}),
    ("de", "zurückverfolgen erscheint auf Hexereien.", {"typography.lowercase-start"}),
    ("fr", f"«{NB}Pistage{NB}» signifie{NB}: «{NB}Vous pouvez lancer cette carte.{NB}»", set()),
    ("fr", f'"Pistage" signifie{NB}: "Vous pouvez lancer cette carte."', {"typography.quotes"}),
    ("fr", f"„Pistage“ signifie{NB}: „Vous pouvez lancer cette carte.“", {"typography.quotes"}),
    ("fr", f"« Pistage » signifie{NB}: «{NB}Vous pouvez lancer cette carte.{NB}»", {"typography.quote-spacing"}),
    ("fr", f"«{NB}Pistage{NB}» signifie: «{NB}Vous pouvez lancer cette carte.{NB}»", {"typography.punctuation-spacing"}),
    ("fr", f"«{NB}Pistage{NB}» signifie : «{NB}Vous pouvez lancer cette carte.{NB}»", {"typography.nbsp"}),
    ("fr", "Est-ce un sort\u202f? Oui.", set()),
    ("fr", "Il suit les règles 601.2b et 601.2e–g.", set()),
    ("fr", "Il suit les règles 601.2b et 601.2e-g.", {"typography.range-dash"}),
    ("fr", "Il suit  les règles.", {"typography.double-space"}),
    ("fr", "lancer un sort avec sa capacité de pistage.", {"typography.lowercase-start"}),
    ("fr", "Lancer l'éphémère d’un joueur.", {"typography.mixed-apostrophes"}),
]


@pytest.mark.parametrize("lang,text,expected", CASES)
def test_typography(lang, text, expected):
    """Each check called directly: a pure function of the text (and the shared data)."""
    found = {code for code in CODES if flags(code, text, lang, "Retrace appears on some instants and sorceries.")}
    assert found == expected


@pytest.mark.parametrize("lang,text,expected", CASES)
def test_the_driver_finds_what_the_functions_find(lang, text, expected):
    kb = one_text(lang, text)
    found = {code for code in CODES for issue in run(code, kb) if issue.lang == lang}
    assert found == expected


def test_message_quotes_the_fragment_and_names_the_rule():
    issues = run("typography.quotes", one_text("en", "Retrace means „You may cast this card.“"))
    assert len(issues) == 1
    assert issues[0].entry == "retrace.a"
    assert "702.78a" in issues[0].message and "„You may cast" in issues[0].message
    assert "“…”" in issues[0].suggestion


def test_range_dash_suggests_the_en_dash_form():
    issues = run("typography.range-dash", one_text("de", "Es folgt den Regeln 601.2e-g."))
    assert issues[0].suggestion.startswith("write “601.2e–g”")
