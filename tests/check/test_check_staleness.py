"""staleness: a translation made from another English, with old and new English shown
(pass/fail tables in de and fr; English itself is never stale)."""

from __future__ import annotations

import pytest

from qa_kb import kb_of, rule, run
from rulekb.models import english_hash

OLD = "Retrace represents a static ability that functions while the card is in a player's graveyard."
NEW = "Retrace represents a static ability that functions while the card with retrace is in a player's graveyard."

STALE = [
    # (lang, translated_from, keep the old English as a variant, expected)
    ("de", english_hash(NEW), False, False),
    ("de", english_hash(OLD), False, True),
    ("de", english_hash(OLD), True, True),
    ("fr", english_hash(NEW), True, False),
    ("fr", english_hash(OLD), True, True),
    ("fr", "0123456789abcdef", False, True),
    ("en", None, True, False),
]


def _kb(lang, translated_from, keep_old):
    english = [NEW, (OLD, {"source": "test", "note": "older wording"})] if keep_old else NEW
    texts = {"en": english}
    if lang != "en":
        texts[lang] = ("Eine Übersetzung." if lang == "de" else "Une traduction.", {"translated_from": translated_from})
    return kb_of(rule(subrules={"a": texts}))


@pytest.mark.parametrize("lang,translated_from,keep_old,expected", STALE)
def test_stale(lang, translated_from, keep_old, expected):
    issues = [i for i in run("staleness.stale", _kb(lang, translated_from, keep_old)) if i.lang == lang]
    assert bool(issues) is expected
    if expected:
        message = issues[0].message
        assert "702.78a" in message and f"“{NEW}”" in message
        if keep_old and translated_from == english_hash(OLD):
            assert f"“{OLD}”" in message and "added 'with retrace' after 'card'" in message
        else:
            assert "not in the knowledge base" in message
        assert issues[0].suggestion.endswith(f"translated_from: {english_hash(NEW)}")


def test_typography_alone_does_not_make_a_translation_stale():
    kb = kb_of(rule(subrules={"a": {"en": "“Retrace” means “cast it” (601.2e–g).",
                                    "de": ("„Zurückverfolgen“ bedeutet …", {"translated_from": english_hash('"Retrace" means "cast it" (601.2e-g).')})}}))
    assert run("staleness.stale", kb) == []


UNTRACKED = [("de", None, True), ("de", english_hash(NEW), False), ("fr", None, True), ("fr", english_hash(NEW), False),
             ("en", None, False)]


@pytest.mark.parametrize("lang,translated_from,expected", UNTRACKED)
def test_untracked(lang, translated_from, expected):
    texts = {"en": NEW} if lang == "en" else {"en": NEW, lang: ("Text.", {"translated_from": translated_from})}
    issues = [i for i in run("staleness.untracked", kb_of(rule(subrules={"a": texts}))) if i.lang == lang]
    assert bool(issues) is expected


DREDGE = ("Dredge is a static ability that functions only while the card with dredge is in a player’s graveyard. "
          "“Dredge N” means “As long as you have at least N cards in your library, if you would draw a card, you "
          "may instead ")
GRADE = [
    # (old English, new English, severity): graded by how much of the English changed
    ("It's put into your graveyard.", "It’s put into your graveyard.", "info"),            # typography only
    (OLD, NEW, "warning"),                                                                # two words
    ("Discard a land card as an additional cost.", "Discard two land cards as an additional cost.", "error"),  # a number
    ("You may cast it.", "You can't cast it.", "error"),                                  # a negation
    ("Put the card into your hand.", "Exile the card, then put a token onto the battlefield.", "error"),  # most words
    # zones: another zone, or the same zones in another order, is another meaning; the keyword
    # action "mill" says "from the top of your library into your graveyard" (dredge 702.52a/b)
    ("Return it from your graveyard to your hand, then draw a card.",
     "Return it from your graveyard to your library, then draw a card.", "error"),
    ("Move a card from your hand onto the battlefield, then shuffle your library.",
     "Move a card from the battlefield into your hand, then shuffle your library.", "error"),
    (DREDGE + "put N cards from the top of your library into your graveyard and return this card from your "
     "graveyard to your hand.”",
     DREDGE + "mill N cards and return this card from your graveyard to your hand.”", "warning"),
    (DREDGE + "put N cards from the top of your library into your graveyard and return this card from your "
     "graveyard to your hand.”",
     DREDGE + "mill N cards and return this card from your graveyard to your library.”", "error"),
    (DREDGE + "put N cards from the top of your library into your graveyard and return this card from your "
     "graveyard to your hand.”",
     DREDGE + "exile N cards and return this card from your graveyard to your hand.”", "error"),
]


@pytest.mark.parametrize("old,new,severity", GRADE)
def test_stale_is_graded_by_the_change_of_the_english(old, new, severity):
    from rulekb.check.staleness import grade
    assert grade(old, new).value == severity


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_stale_translation_is_compared_with_the_english_it_was_made_from(lang):
    """The references of a stale translation are those of its older English: what the English
    changed since is the stale finding's, not a second finding."""
    old, new = "Follow rules 601.2e-g.", "Follow rules 601.2f-h."
    text = "Folge den Regeln 601.2e–g." if lang == "de" else "Suivez les règles 601.2e–g."
    kb = kb_of(rule(subrules={"a": {"en": [new, (old, {"source": "test", "note": "older"})],
                                    lang: (text, {"translated_from": english_hash(old)})}}))
    assert [i.entry for i in run("staleness.stale", kb)] == ["retrace.a"]
    assert run("references.mismatch", kb) == []


# A stale translation that already says what the English says now (issue 28.5): the English put terms in
# place of other words, and the translation writes today's term of each: to confirm, not stale.
OLD_PLAY = "Each card played this way is exiled."
NEW_CAST = "Each spell cast this way is exiled."
OLD_RESOLVES = "When it resolves, put it into your graveyard."
NEW_COUNTERED = "When it resolves or is countered, put it into your graveyard."
CONFIRM = [
    # (lang, old English, new English, translation, already says the new English?)
    ("fr", OLD_PLAY, NEW_CAST, "Chaque sort lancé de cette façon est exilé.", True),
    ("fr", OLD_PLAY, NEW_CAST, "Chaque carte jouée de cette façon est exilée.", False),
    ("de", OLD_PLAY, NEW_CAST, "Jeder Zauberspruch, der so gewirkt wird, wird ins Exil geschickt.", True),
    ("de", OLD_PLAY, NEW_CAST, "Jede Karte, die so gespielt wird, wird ins Exil geschickt.", False),
    # words of no term added: the translation must follow, whatever it says
    ("fr", OLD_RESOLVES, NEW_COUNTERED, "Quand il se résout, mettez-le dans votre cimetière.", False),
    ("de", OLD_RESOLVES, NEW_COUNTERED, "Wenn er verrechnet wird, lege ihn in deinen Friedhof.", False),
]


@pytest.mark.parametrize("lang,old,new,text,confirm", CONFIRM)
def test_a_stale_translation_that_says_the_new_english_is_to_confirm(lang, old, new, text, confirm):
    kb = kb_of(rule(subrules={"a": {"en": [new, (old, {"source": "test"})],
                                    lang: (text, {"translated_from": english_hash(old)})}}))
    confirmed = [i for i in run("staleness.confirm", kb) if i.lang == lang]
    stale = [i for i in run("staleness.stale", kb) if i.lang == lang]
    assert (len(confirmed), len(stale)) == ((1, 0) if confirm else (0, 1))
    if confirm:
        assert "already says what the English says now" in confirmed[0].message
        assert f"translated_from: {english_hash(new)}" in confirmed[0].suggestion
        assert "rulekb hash" in confirmed[0].suggestion


@pytest.mark.parametrize("lang,reads", [("fr", "et 1 autre"), ("de", "und 1 weitere"), ("en", "and 1 more")])
def test_the_changes_count_the_rest_in_the_readers_grammar(lang, reads):
    """Four edits, three shown: "et 1 autre", not "et 1 autres"."""
    from conftest import ROOT
    from rulekb.check.staleness import changes
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    reader = None if lang == "en" else load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    text = changes("a b c d e f g h", "a X c Y e Z g W").render(reader)
    assert text.endswith(reads), text
