"""duplicates and sources: near-duplicate texts within a language, translations that are the English,
and variants of one unit that disagree — pass/fail tables in en, de, fr."""

from __future__ import annotations

import pytest

from qa_kb import kb_of, rule, ruling, run
from rulekb.models import Status

EN_A = "Retrace appears on some instants and sorceries and represents a static ability."
EN_B = "A retrace card cast from your graveyard follows the normal timing rules for its card type."
TR = {
    "de": ("Zurückverfolgen erscheint auf einigen Spontanzaubern und Hexereien und ist eine statische Fähigkeit.",
           "Eine Karte mit Zurückverfolgen, die aus dem Friedhof gewirkt wird, folgt den normalen Timing-Regeln."),
    "fr": ("Le pistage apparaît sur certains éphémères et rituels et représente une capacité statique.",
           "Une carte avec le pistage lancée depuis votre cimetière suit les règles normales de son type de carte."),
}

NEAR = [
    # (lang, text of a, text of b, flagged)
    ("de", TR["de"][0], TR["de"][1], False),
    ("de", TR["de"][0], TR["de"][0], True),                      # b holds a copy of a
    ("de", TR["de"][0], TR["de"][0].replace("einigen", "manchen"), True),
    ("fr", TR["fr"][0], TR["fr"][1], False),
    ("fr", TR["fr"][0], TR["fr"][0].replace("certains", "quelques"), True),
    ("en", EN_A, EN_B, False),
]


@pytest.mark.parametrize("lang,a,b,flagged", NEAR)
def test_near_duplicate(lang, a, b, flagged):
    kb = kb_of(rule(subrules={"a": {"en": EN_A, lang: a} if lang != "en" else {"en": a},
                              "b": {"en": EN_B, lang: b} if lang != "en" else {"en": b}}))
    issues = [i for i in run("duplicates.near-duplicate", kb) if i.lang == lang]
    assert [i.entry for i in issues] == (["retrace.b"] if flagged else [])
    if flagged:
        assert "702.78b and 702.78a" in issues[0].message
        assert "similar" in issues[0].message or "identical" in issues[0].message


def test_translations_as_alike_as_their_english_are_no_duplicates():
    kb = kb_of(rule(subrules={"a": {"en": EN_A, "de": TR["de"][0]}, "b": {"en": EN_A + " Also.", "de": TR["de"][0] + " Auch."}}))
    assert run("duplicates.near-duplicate", kb) == []


@pytest.mark.parametrize("status,flagged", [(Status.COMMUNITY, True), (Status.OFFICIAL, False)])
def test_english_near_duplicates_only_outside_the_official_rules(status, flagged):
    notes = {"n1": {"en": (EN_B, {"status": status})}, "n2": {"en": (EN_B.replace("normal", "usual"), {"status": status})}}
    issues = run("duplicates.near-duplicate", kb_of(rule(notes=notes)))
    assert bool(issues) is flagged


SAME = [("de", EN_A, True), ("de", TR["de"][0], False), ("fr", EN_A, True), ("fr", TR["fr"][0], False), ("en", EN_A, False)]


@pytest.mark.parametrize("lang,text,expected", SAME)
def test_same_as_english(lang, text, expected):
    texts = {"en": EN_A} if lang == "en" else {"en": EN_A, lang: text}
    issues = [i for i in run("duplicates.same-as-english", kb_of(rule(subrules={"a": texts}))) if i.lang == lang]
    assert bool(issues) is expected


DE_1 = ("Falls du auf diese Weise eine Nichtland-Karte aufdeckst, kannst du sie auf deinen Friedhof legen, "
        "diese Kreatur hat aber das Spiel verlassen.")
DE_2 = ("Wenn du auf diese Weise eine Nichtlandkarte offenlegst, kannst du sie in deinen Friedhof legen, "
        "diese Kreatur hat aber das Schlachtfeld verlassen.")
FR_1 = "Si vous révélez ainsi une carte non-terrain, vous pouvez la mettre dans votre cimetière."
FR_2 = "Si vous révélez une carte non-terrain de cette manière, mettez-la dans votre cimetière si vous le voulez."
EN_R = "If you reveal a nonland card this way, you may put it into your graveyard."

SOURCES = [
    ("sources.disagree", "de", [DE_2, DE_1], True),
    ("sources.disagree", "de", [DE_1, DE_1.replace("„", "\"")], False),
    ("sources.disagree", "fr", [FR_1, FR_2], True),
    ("sources.disagree", "fr", [FR_1], False),
    # English texts of one unit without releases and of one kind of source: versions, not disagreement
    ("sources.english-variant", "en", [EN_R, EN_R.replace("this way", "so")], False),
    ("sources.english-variant", "en", [EN_R, EN_R.replace("'", "’")], False),
]


@pytest.mark.parametrize("code,lang,variants,expected", SOURCES)
def test_sources(code, lang, variants, expected):
    texts = {"en": variants} if lang == "en" else {"en": EN_R, lang: variants}
    issues = run(code, kb_of(rulings=(ruling("explore-left", texts),)))
    assert bool([i for i in issues if i.lang == lang]) is expected
    if expected and lang == "de":
        # what differs, word by word; the terms rendered differently are the terminology checks' findings
        assert "'Falls' -> 'Wenn'" in issues[0].message and "' vs '" not in issues[0].message


HISTORY = [
    # (English variants as (text, releases, source), a finding?) — history is not disagreement
    ([(EN_R, ("2018-01-19",), "cr-2018"), (EN_R.replace("this way", "so"), ("2011-05-01",), "cr-2011")], False),
    # one release printing the number twice: kept as printed, nothing to act on (issue 28.4)
    ([(EN_R, ("2018-01-19",), "cr-2018"), (EN_R.replace("this way", "so"), ("2018-01-19",), "cr-2018")], False),
    ([(EN_R, ("2018-01-19",), "cr-2018"), (EN_R.replace("this way", "so"), (), "seed")], True),
    ([(EN_R, ("2018-01-19",), "cr-2018"), (EN_R.replace("'", "’"), (), "seed")], False),
]


@pytest.mark.parametrize("variants,expected", HISTORY)
def test_history_is_not_disagreement(variants, expected):
    import dataclasses
    from types import MappingProxyType
    from rulekb.models import KnowledgeBase, Source
    r = ruling("explore-left", {"en": [text for text, _r, _s in variants]})
    en = tuple(dataclasses.replace(v, releases=releases, source=source)
               for v, (_t, releases, source) in zip(r.unit.variants["en"], variants))
    r = dataclasses.replace(r, unit=dataclasses.replace(r.unit, variants=MappingProxyType({"en": en})))
    kb = kb_of(rulings=(r,))
    sources = {"cr-2018": Source("cr-2018", "CR", "comprehensive-rules", None, "2018-01-19"),
               "cr-2011": Source("cr-2011", "CR", "comprehensive-rules", None, "2011-05-01"),
               "seed": Source("seed", "Seed", "seed", None, None)}
    kb = KnowledgeBase(kb.languages, MappingProxyType(sources), kb.rules, kb.cards, kb.rulings)
    assert bool(run("sources.english-variant", kb)) is expected


def test_a_number_the_release_prints_twice_is_info():
    """The official release of 2009-10-01 prints two 702.30d: both official texts of one kind of
    source share the release; nobody has anything to change, so nothing is reported (issue 28.4).
    A seed text against it is a warning."""
    import dataclasses
    from types import MappingProxyType
    from rulekb.models import KnowledgeBase, Severity, Source, Status
    other = EN_R.replace("this way", "so")
    for source, status, severity in (("cr-2018", Status.OFFICIAL, None), ("seed", Status.COMMUNITY, Severity.WARNING)):
        r = ruling("explore-left", {"en": [EN_R, other]})
        a, b = r.unit.variants["en"]
        en = (dataclasses.replace(a, releases=("2018-01-19",), source="cr-2018"),
              dataclasses.replace(b, releases=("2018-01-19",), source=source, status=status))
        r = dataclasses.replace(r, unit=dataclasses.replace(r.unit, variants=MappingProxyType({"en": en})))
        sources = {"cr-2018": Source("cr-2018", "CR", "comprehensive-rules", None, "2018-01-19"),
                   "seed": Source("seed", "Seed", "seed", None, None)}
        kb = kb_of(rulings=(r,))
        kb = KnowledgeBase(kb.languages, MappingProxyType(sources), kb.rules, kb.cards, kb.rulings)
        issues = run("sources.english-variant", kb)
        if severity is None:
            assert issues == []
            continue
        (issue,) = issues
        assert (issue.severity or severity) is severity and "prints two texts" not in issue.message
