"""language: a sentence in another language inside a text (py3langid restricted to en/de/fr,
sentences of at least six words), pass/fail tables in en, de, fr."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qa_kb import kb_of, one_text, rule, run
from rulekb.check.language import _MIN_CHARS, _WORD, MIN_WORDS, sentences
from rulekb.models import Status

CASES = [
    ("de", "Du führst alle dieselben Aktionen aus und legst möglicherweise eine +1/+1-Marke auf die bleibende Karte. "
           "(Note that some effects target a creature, and those effects would still require a legal target to have it explore.)",
     "en"),
    ("de", "Du führst alle dieselben Aktionen aus und legst möglicherweise eine +1/+1-Marke auf die bleibende Karte. "
           "(Beachte, dass einige Effekte eine Kreatur als Ziel haben und dafür weiterhin ein legales Ziel brauchen.)",
     None),
    ("de", "Zurückverfolgen erscheint auf einigen Spontanzaubern. Note that.", None),  # too short to judge
    ("fr", "Le joueur actif a la priorité après la résolution du sort. "
           "Der aktive Spieler hat Vorrang, nachdem der Zauberspruch verrechnet wurde.", "de"),
    ("fr", "Le joueur actif a la priorité après la résolution du sort, alors il peut immédiatement lancer un nouveau sort.", None),
    ("en", "The active player has priority after the spell resolves, so they can immediately cast a new spell.", None),
]


@pytest.mark.parametrize("lang,text,foreign", CASES)
def test_wrong_language(lang, text, foreign):
    issues = [i for i in run("language.wrong-language", one_text(lang, text)) if i.lang == lang]
    assert len(issues) == (1 if foreign else 0)
    if foreign:
        names = {"en": "English", "de": "German", "fr": "French"}
        assert f"is in {names[foreign]}" in issues[0].message and "702.78a" in issues[0].message


ENGLISH_AND_FRENCH = ("The active player has priority after the spell resolves. "
                      "Le joueur actif a la priorité après la résolution du sort, alors il peut lancer un sort.")


@pytest.mark.parametrize("status, found", [(Status.COMMUNITY, 1), (Status.OFFICIAL, 0)])
def test_english_is_judged_unless_an_official_source_establishes_it(status, found):
    """A French sentence in a community English text is found; an official English text (a rules
    release, the Oracle, a ruling) is English by its source and kept verbatim: not judged."""
    kb = kb_of(rule(subrules={"a": {"en": (ENGLISH_AND_FRENCH, {"status": status})}}))
    issues = [i for i in run("language.wrong-language", kb) if i.lang == "en"]
    assert len(issues) == found
    if found:
        assert "is in French" in issues[0].message


def test_a_parenthesis_is_a_sentence_of_its_own():
    text = "Du legst eine Marke auf die Karte. (Note that some effects target a creature.)"
    spans = [text[s:e] for s, e, _ in sentences(text)]
    assert spans == ["Du legst eine Marke auf die Karte.", "(Note that some effects target a creature.)"]


@pytest.mark.parametrize("text, expected", [
    ("One. Two.", ["One.", "Two."]),
    ("Wait… Next one", ["Wait…", "Next one"]),
    ("Ende. „Neuer Satz.“ Weiter", ["Ende.", "„Neuer Satz.", "Weiter"]),  # a closing mark is part of the gap
    ('He said "Stop." Then left', ['He said "Stop.', "Then left"]),
    ("a.. b", ["a..", "b"]),
    ("Rule 601.2. Then", ["Rule 601.2.", "Then"]),
    ("See no. 5 here", ["See no. 5 here"]),  # a digit does not start a sentence
    ("e.g.this stays", ["e.g.this stays"]),  # no space: no boundary
    ("One!  Two? Three", ["One!", "Two?", "Three"]),
])
def test_sentence_boundaries(text, expected):
    assert [text[s:e] for s, e, _ in sentences(text)] == expected


@given(st.text(alphabet=st.sampled_from("ab é1_.-' \u00a0"), max_size=40))
def test_too_short_to_judge_is_decided_by_length(chunk):
    """A sentence shorter than _MIN_CHARS never has MIN_WORDS words (the check skips it unread)."""
    if len(_WORD.findall(chunk)) >= MIN_WORDS:
        assert len(chunk) >= _MIN_CHARS
