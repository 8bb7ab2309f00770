"""coverage and structure: missing texts, partly translated rules, texts without English, and the
shape of a translation (quotations, parentheses, length) — pass/fail tables in en, de, fr."""

from __future__ import annotations

import pytest

from qa_kb import flags, kb_of, rule, ruling, run

EN_A = "Retrace appears on some instants and sorceries."
EN_N1 = "A retrace card cast from your graveyard follows the normal timing rules."

COVERAGE = [
    # (lang, texts of subrule a, texts of note n1, units named by coverage.partial). The backlog (nothing
    # of a rule in a language) is a figure of the coverage, not a finding.
    ("de", {"en": EN_A}, {"en": EN_N1}, set()),
    ("de", {"en": EN_A, "de": "Zurückverfolgen erscheint auf Spontanzaubern."}, {"en": EN_N1}, {"702.78 note 1"}),
    ("de", {"en": EN_A, "de": "Zurückverfolgen erscheint auf Spontanzaubern."},
     {"en": EN_N1, "de": "Eine Karte mit Zurückverfolgen folgt den Regeln."}, set()),
    ("fr", {"en": EN_A}, {"en": EN_N1}, set()),
    ("fr", {"en": EN_A, "fr": "Le pistage apparaît sur certains éphémères."}, {"en": EN_N1}, {"702.78 note 1"}),
    ("fr", {"en": EN_A}, {"en": EN_N1, "fr": "Une carte avec le pistage suit les règles."}, {"702.78a"}),
    ("en", {"en": EN_A}, {"en": EN_N1}, set()),
]


@pytest.mark.parametrize("lang,a,n1,partial", COVERAGE)
def test_partly_translated_rule(lang, a, n1, partial):
    kb = kb_of(rule(subrules={"a": a}, notes={"n1": n1}))
    issues = [i for i in run("coverage.partial", kb) if i.lang == lang]
    assert len(issues) == (1 if partial else 0)   # once per rule, not per unit
    for label in partial:
        assert label in issues[0].message


def test_partial_names_every_missing_text_once_per_rule():
    kb = kb_of(rule(subrules={"a": {"en": EN_A, "fr": "Le pistage apparaît."}, "b": {"en": EN_N1}},
                    notes={"n1": {"en": EN_N1}, "n2": {"en": EN_N1}}))
    (issue,) = [i for i in run("coverage.partial", kb) if i.lang == "fr"]
    assert "1 of its 4 texts are in French" in issue.message
    assert "702.78b, 702.78 note 1, 702.78 note 2" in issue.message
    assert "translated_from" in issue.suggestion


def test_backlog_is_counted_per_rule_section_and_chapter():
    from rulekb.check.base import Context
    from rulekb.check.coverage import compute_coverage
    from qa_kb import termbase
    kb = kb_of(rule(subrules={"a": {"en": EN_A, "de": "Zurückverfolgen erscheint."}}, notes={"n1": {"en": EN_N1}}),
               rule("dredge", "702.49", subrules={"a": {"en": EN_A}}))
    cov = compute_coverage(Context(kb, termbase()))
    assert [(p.key, p.cells["de"].translated, p.cells["de"].missing) for p in cov.sections] == [("702", 1, 2)]
    assert [(p.key, p.cells["de"].total) for p in cov.chapters] == [("7", 3)]
    assert cov.rows[0].untranslated["de"] == ("retrace.n1",) and cov.rows[1].untranslated["fr"] == ("dredge.a",)


NEGATION = [
    ("de", "It can't be removed from your graveyard.", "Sie kann nicht aus deinem Friedhof entfernt werden.", False),
    ("de", "It can't be removed from your graveyard.", "Sie kann aus deinem Friedhof entfernt werden.", True),
    ("de", "No player may take actions.", "Kein Spieler darf Aktionen durchführen.", False),
    ("fr", "It can't be removed from your graveyard.", "Elle ne peut pas être retirée de votre cimetière.", False),
    ("fr", "It can't be removed from your graveyard.", "Elle peut être retirée de votre cimetière.", True),
    ("fr", "You never lose.", "Vous ne perdez jamais.", False),
    ("en", "It can't be removed from your graveyard.", None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", NEGATION)
def test_missing_negation(lang, english, text, expected):
    assert bool(flags("structure.negation", text or english, lang, english)) is expected


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
        assert "ruling explore-reveal" in issues[0].message and "none in English" in issues[0].message
        assert "remove" not in issues[0].suggestion   # published texts are kept


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
    assert bool(flags(code, text if text else english, lang, english)) is expected
