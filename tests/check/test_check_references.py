"""references and numbers: cited rules and kept numbers/symbols, pass/fail tables in en, de, fr."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qa_kb import kb_of, one_text, rule, ruling, run
from rulekb.check.text import _SECTION_DIGITS
from rulekb.refs import find_references

EN = "Casting it follows the rules for paying additional costs in rules 601.2b and 601.2e–g."

MISMATCH = [
    ("de", "Es folgt den Regeln für zusätzliche Kosten in den Regeln 601.2b und 601.2e–g.", False),
    ("de", "Es folgt den Regeln für zusätzliche Kosten in den Regeln 601.2b und 601.2e-g.", False),  # same numbers
    ("de", "Es folgt den Regeln für zusätzliche Kosten in den Regeln 601.2b und 601.2e–h.", True),
    ("de", "Es folgt den Regeln für zusätzliche Kosten.", True),
    ("fr", "Il suit les règles pour payer des coûts supplémentaires dans les règles 601.2b et 601.2e–g.", False),
    ("fr", "Il suit les règles pour payer des coûts supplémentaires dans les règles 601.2c et 601.2e–g.", True),
    ("fr", "Il suit les règles 601.2b, 601.2e, 601.2f et 601.2g.", False),  # a list is a range spelled out
    ("en", EN, False),
]


@pytest.mark.parametrize("lang,text,expected", MISMATCH)
def test_references_mismatch(lang, text, expected):
    issues = [i for i in run("references.mismatch", one_text(lang, text, EN)) if i.lang == lang]
    assert bool(issues) is expected
    if expected:
        assert "702.78a" in issues[0].message and "601.2" in issues[0].suggestion


HISTORY = (("702.78", "2009-07-11", "2011-05-01"), ("702.79", "2011-06", None), ("702.81", "2021-04", None))

OTHER_RELEASE = [
    # (lang, text of 702.78b in the 2011 rules, expected)
    ("en", "A retrace card follows rule 702.81a.", True),
    ("en", "A retrace card follows rule 702.78a.", False),
    ("en", "Some spell follows rule 702.81a.", False),  # not about retrace: 702.81 may be another rule in 2011
    ("de", "Eine Karte mit Zurückverfolgen folgt Regel 702.81a.", True),
    ("de", "Eine Karte mit Zurückverfolgen folgt Regel 702.78a.", False),
    ("fr", "Une carte avec le pistage suit la règle 702.81a.", True),
    ("fr", "Une carte avec le pistage suit la règle 702.78a.", False),
]


@pytest.mark.parametrize("lang,text,expected", OTHER_RELEASE)
def test_reference_to_a_number_of_another_release(lang, text, expected):
    en = {"en": "A retrace card follows rule 702.78a."}
    texts = en if lang == "en" else dict(en, **{lang: text})
    if lang == "en":
        texts = {"en": text}
    kb = kb_of(rule(subrules={"a": {"en": "Retrace appears on some instants."}, "b": texts}, history=HISTORY))
    issues = [i for i in run("references.other-release", kb) if i.lang == lang]
    assert bool(issues) is expected
    if expected:
        assert "702.81" in issues[0].message and issues[0].suggestion == "write 702.78a, the number of the text's own rules release"


UNKNOWN_SUBRULE = [
    ("en", "See rule 702.78c.", True),
    ("en", "See rule 702.78b.", False),
    ("de", "Siehe Regel 702.78c.", True),
    ("de", "Siehe Regel 702.78a.", False),
    ("fr", "Voir la règle 702.78c.", True),
    ("fr", "Voir la règle 702.78b.", False),
]


@pytest.mark.parametrize("lang,text,expected", UNKNOWN_SUBRULE)
def test_unknown_subrule(lang, text, expected):
    subs = {"a": {"en": "Retrace appears on some instants."}, "b": {"en": "See rule 702.78b."}}
    if lang == "en":
        subs["b"] = {"en": text}
    else:
        subs["b"][lang] = text
    issues = [i for i in run("references.unknown-subrule", kb_of(rule(subrules=subs))) if i.lang == lang]
    assert bool(issues) is expected


def test_unknown_subrule_is_silent_where_the_kb_cannot_know():
    """601.2 holds b, e, f, g only (not from a on): a reference to 601.2c may exist in the release."""
    cast = rule("casting-spells", "601.2", subrules={k: {"en": f"Step {k}."} for k in "befg"})
    kb = kb_of(cast, rulings=(ruling("r", {"en": "See rule 601.2c."}, date="2011-05-01"),))
    assert run("references.unknown-subrule", kb) == []


NUMBERS = [
    ("de", "If no card is revealed, the exploring creature receives a +1/+1 counter.",
     "Falls keine Karte aufgedeckt wird, erhält die erkundende Kreatur eine +1/+1-Marke.", False),
    ("de", "If no card is revealed, the exploring creature receives a +1/+1 counter.",
     "Falls keine Karte aufgedeckt wird, erhält die erkundende Kreatur eine +2/+2-Marke.", True),
    ("de", "“Dredge N” means “If you have at least N cards, put N cards …”",
     "„Ausgraben N“ bedeutet: „Falls du mindestens N Karten hast, lege N Karten …“", False),
    ("de", "“Dredge N” means “If you have at least N cards, put N cards …”",
     "„Ausgraben N“ bedeutet: „Falls du mindestens X Karten hast, lege N Karten …“", True),
    ("fr", "It can't be reduced to less than {0}. Pay {X}.", "Il ne peut pas être réduit à moins de {0}. Payez {X}.", False),
    ("fr", "It can't be reduced to less than {0}. Pay {X}.", "Il ne peut pas être réduit à moins de 0. Payez {X}.", True),
    ("fr", "“Buyback [cost]” means “You may pay an additional [cost].”",
     "« Rappel [coût] » signifie « Vous pouvez payer un [coût] supplémentaire. »", False),
    ("fr", "“Buyback [cost]” means “You may pay an additional [cost].”",
     "« Rappel » signifie « Vous pouvez payer un coût supplémentaire. »", True),
    ("en", "Pay 2 life: draw 2 cards (see rule 601.2b).", None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", NUMBERS)
def test_numbers(lang, english, text, expected):
    issues = [i for i in run("numbers.mismatch", one_text(lang, text if text else english, english)) if i.lang == lang]
    assert bool(issues) is expected


@given(st.text(alphabet=st.sampled_from("0123456789.–-abcdefgh rule Regel règle,"), max_size=40))
def test_a_text_without_three_digits_has_no_reference(text):
    """Context.refs skips the parser on texts without a section number (three digits in a row):
    such a text has no rule reference."""
    if find_references(text):
        assert _SECTION_DIGITS.search(text)


def _reader(lang):
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    return load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))


@pytest.mark.parametrize("lang,english,text,reads", [
    # a number the English has not: "dem Text auf Deutsch hat" and "au texte en français, a" were no sentences
    ("de", "Draw two cards.", "Ziehe 2 Karten.", "im Text auf Deutsch steht 2, was das Englische nicht hat"),
    ("fr", "Draw two cards.", "Piochez 2 cartes.", "dans le texte en français, il y a 2 que l’anglais n’a pas"),
    ("de", "Pay {2}.", "Bezahle {3}.", "im Text auf Deutsch fehlt {2}, und es steht {3} darin, was das Englische nicht hat"),
    ("fr", "Pay {2}.", "Payez {3}.", "dans le texte en français, il manque {2} et il y a {3} que l’anglais n’a pas"),
    ("fr", "Pay {2}.", "Payez.", "dans le texte en français, il manque {2}"),
])
def test_a_numbers_finding_reads_as_german_and_french(lang, english, text, reads):
    [issue] = [i for i in run("numbers.mismatch", one_text(lang, text, english)) if i.lang == lang]
    assert reads in issue.msg.render(_reader(lang)).replace("\u00a0", " ")
