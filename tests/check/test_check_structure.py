"""coverage and structure: missing texts, partly translated rules, texts without English, and the
shape of a translation (quotations, parentheses, length) — pass/fail tables in en, de, fr."""

from __future__ import annotations

import pytest

from qa_kb import kb_of, one_text, rule, ruling, run

EN_A = "Retrace appears on some instants and sorceries."
EN_N1 = "A retrace card cast from your graveyard follows the normal timing rules."

COVERAGE = [
    # (lang, texts of subrule a, texts of note n1, units flagged by coverage.missing, by structure.missing-unit)
    ("de", {"en": EN_A}, {"en": EN_N1}, {"retrace.a", "retrace.n1"}, set()),
    ("de", {"en": EN_A, "de": "Zurückverfolgen erscheint auf Spontanzaubern."}, {"en": EN_N1}, set(), {"retrace.n1"}),
    ("de", {"en": EN_A, "de": "Zurückverfolgen erscheint auf Spontanzaubern."},
     {"en": EN_N1, "de": "Eine Karte mit Zurückverfolgen folgt den Regeln."}, set(), set()),
    ("fr", {"en": EN_A}, {"en": EN_N1}, {"retrace.a", "retrace.n1"}, set()),
    ("fr", {"en": EN_A, "fr": "Le pistage apparaît sur certains éphémères."}, {"en": EN_N1}, set(), {"retrace.n1"}),
    ("en", {"en": EN_A}, {"en": EN_N1}, set(), set()),
]


@pytest.mark.parametrize("lang,a,n1,missing,partial", COVERAGE)
def test_missing_units(lang, a, n1, missing, partial):
    kb = kb_of(rule(subrules={"a": a}, notes={"n1": n1}))
    assert {i.entry for i in run("coverage.missing", kb) if i.lang == lang} == missing
    assert {i.entry for i in run("structure.missing-unit", kb) if i.lang == lang} == partial


def test_missing_unit_message_gives_the_english_and_the_hash():
    kb = kb_of(rule(subrules={"a": {"en": EN_A, "fr": "Le pistage apparaît."}}, notes={"n1": {"en": EN_N1}}))
    (issue,) = [i for i in run("structure.missing-unit", kb) if i.lang == "fr"]
    assert "702.78 note 1 is missing in French" in issue.message and EN_N1[:40] in issue.message
    assert "translated_from: " in issue.suggestion


EXTRA = [
    ("de", {"de": "Falls eine Fähigkeit eine Kreatur anweist zu erkunden, deckt ihr Beherrscher die Karte auf."}, True),
    ("de", {"en": "If an ability instructs a creature to explore, reveal.", "de": "Falls eine Fähigkeit …"}, False),
    ("fr", {"fr": "Si une capacité demande à une créature d'explorer, révélez la carte."}, True),
    ("fr", {"en": "If an ability instructs a creature to explore, reveal.", "fr": "Si une capacité …"}, False),
    ("en", {"en": "If an ability instructs a creature to explore, reveal."}, False),
]


@pytest.mark.parametrize("lang,texts,expected", EXTRA)
def test_extra_unit(lang, texts, expected):
    kb = kb_of(rulings=(ruling("explore-reveal", texts),))
    issues = [i for i in run("structure.extra-unit", kb) if i.lang == lang]
    assert bool(issues) is expected
    if expected:
        assert "ruling explore-reveal" in issues[0].message and "no English" in issues[0].message


SHAPE = [
    # (code, lang, english, translation, expected)
    ("structure.quotations", "de", "“Retrace” means “You may cast this card.”",
     "„Zurückverfolgen“ bedeutet: „Du kannst diese Karte wirken.“", False),
    ("structure.quotations", "de", "“Retrace” means “You may cast this card.”",
     "Zurückverfolgen bedeutet, dass du diese Karte wirken kannst.", True),
    ("structure.quotations", "fr", "“Retrace” means “You may cast this card.”",
     "« Pistage » signifie « Vous pouvez lancer cette carte. »", False),
    ("structure.quotations", "fr", "“Retrace” means “You may cast this card.”",
     "« Pistage » signifie que vous pouvez lancer cette carte.", True),
    ("structure.quotations", "en", "“Retrace” means “You may cast this card.”", None, False),
    ("structure.parentheses", "fr", "When it resolves or is countered, it goes back to your graveyard.",
     "Quand elle est contrecarrée ou se résout (si ce n'est pas un permanent), elle retourne au cimetière.", True),
    ("structure.parentheses", "fr", "When it resolves or is countered, it goes back to your graveyard.",
     "Quand elle est contrecarrée ou se résout, elle retourne au cimetière.", False),
    ("structure.parentheses", "de", "It can't be removed „in response.“ (Replacement effects don't use the stack.)",
     "Sie kann nicht „als Antwort darauf“ entfernt werden.", True),
    ("structure.parentheses", "de", "It can't be removed „in response.“ (Replacement effects don't use the stack.)",
     "Sie kann nicht „als Antwort darauf“ entfernt werden. (Ersatzeffekte verwenden den Stapel nicht.)", False),
    ("structure.parentheses", "en", "It can't be removed (Replacement effects don't use the stack.)", None, False),
    ("structure.length", "fr", "Retrace is an ability that enables you to play certain instant and sorcery cards from your graveyard.",
     "Le pistage est une capacité à mot-clé de l'extension Coucheciel qui vous permet de jouer certaines cartes "
     "d'éphémère et de rituel depuis votre cimetière, en défaussant une carte de terrain en plus de leur coût normal.", True),
    ("structure.length", "fr", "Retrace is an ability that enables you to play certain instant and sorcery cards from your graveyard.",
     "Le pistage est une capacité qui vous permet de lancer certaines cartes d'éphémère et de rituel depuis votre cimetière.", False),
    ("structure.length", "de", "Retrace is an ability that enables you to play certain instant and sorcery cards from your graveyard.",
     "Zurückverfolgen ist eine Fähigkeit.", True),
    ("structure.length", "de", "Retrace is an ability that enables you to play certain instant and sorcery cards from your graveyard.",
     "Zurückverfolgen ist eine Fähigkeit, die es dir ermöglicht, Spontanzauber und Hexereien aus deinem Friedhof zu wirken.", False),
    ("structure.length", "en", "Retrace is an ability that enables you to play certain instant and sorcery cards.", None, False),
]


@pytest.mark.parametrize("code,lang,english,text,expected", SHAPE)
def test_shape(code, lang, english, text, expected):
    kb = one_text(lang, text if text else english, english)
    issues = [i for i in run(code, kb) if i.lang == lang]
    assert bool(issues) is expected
