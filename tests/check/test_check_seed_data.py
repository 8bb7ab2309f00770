"""The checks on the project's own rules/ data find the real defects of the seed documents."""

from __future__ import annotations

import pytest

from rulekb.check.driver import run_checks
from rulekb.knowledge import load_knowledge_base


@pytest.fixture(scope="module")
def result(seed):
    return run_checks(load_knowledge_base(seed), seed)


def find(result, code, entry, lang):
    hits = [f for f in result.findings if (f.code, f.entry, f.lang) == (code, entry, lang)]
    assert hits, f"no {code} finding for {entry} ({lang})"
    return hits


def test_stale_french_702_78a_shows_old_and_new_english(result):
    (f,) = find(result, "staleness.stale", "retrace.a", "fr")
    assert f.severity.value == "warning"   # a two-word clarification of the English, graded as such
    assert "while the card is in a player's graveyard" in f.message            # the old English (seed 002)
    assert "while the card with retrace is in a player's graveyard" in f.message  # the English now
    assert "added 'with retrace' after 'card'" in f.message


def test_english_sentence_in_the_german_noncreature_permanent_ruling(result):
    (f,) = find(result, "language.wrong-language", "explore-noncreature-permanent", "de")
    assert "(Note that some effects target a creature" in f.message


def test_nothing_is_reported_on_a_published_english_text(result):
    """The seeds' English texts are published (kept verbatim, their German quotes, hyphen ranges and
    old terms included): nobody has anything to change in them, so the QA reports nothing on them
    (issue 28.4); their old terms are notes for the translators in the PO export (below)."""
    assert [f for f in result.findings if f.lang == "en"] == []
    assert all("nothing to change" not in f.suggestion for f in result.findings)


@pytest.mark.parametrize("entry,note", [
    ("retrace.n5", "today's term: cast, not plays"),
    ("dredge.a", "today's term: mill N cards, not cards from the top of your library into your graveyard"),
    ("dredge.b", "today's term: their, not his or her"),
    ("buyback.n6", "today's term: mana value, not converted mana cost"),
])
def test_the_old_terms_of_a_published_english_are_notes_of_its_po_unit(seed, entry, note):
    from rulekb.knowledge import load_knowledge_base as load
    from rulekb.po import export
    from rulekb.termbase import load_termbase
    import io
    from babel.messages.pofile import read_po
    kb = load(seed)
    catalog = read_po(io.BytesIO(export(kb, "de", termbase=load_termbase(seed, kb)).data))
    (message,) = [m for m in catalog if m.context == entry]
    assert note in " ".join(message.auto_comments)   # (the lines as written, wrapped)


def test_the_backlog_is_a_figure_not_findings(result):
    """702.24 has no French at all: counted in the coverage, not reported text by text."""
    assert not [f for f in result.findings if f.entry.startswith("buyback.") and f.lang == "fr"]
    row = next(r for r in result.coverage.rows if r.id == "buyback")
    assert row.cells["fr"].missing == 9 and "buyback.a" in row.untranslated["fr"]


def test_manakosten_spielen_is_one_finding_with_the_fix_bezahlen(result):
    found = [f for f in find(result, "terminology.deprecated", "retrace.n3", "de") if "Manakosten" in f.message]
    assert len(found) == 1 and found[0].suggestion.startswith("write 'bezahlen' here")
    assert not [f for f in result.findings if (f.code, f.entry, f.lang) == ("terminology.missing-term", "retrace.n3", "de")]


def test_removed_from_the_game_for_the_graveyard_is_an_error(result):
    (f,) = find(result, "terminology.zone", "dredge.n2", "de")
    assert f.severity.value == "error" and "terminology.deprecated" in f.also and "aus dem Spiel entfernt" in f.message


def test_no_advice_to_remove_a_published_text(result):
    assert not [f for f in result.findings if "remove the translation" in f.suggestion or
                "remove it so" in f.suggestion]


def test_the_official_spelling_is_not_reported(result):
    assert not [f for f in result.findings if f.entry == "explore-same-card-again" and "Nichtland-Karte" in f.message]


def test_spielen_for_cast_in_702_78_note_5_is_one_finding(result):
    """'spielt' (4 times) is one defect: the phrasings 'Zauberspruch spielt' and 'Zauberspruch spielen',
    each on one of those four, are merged into it (audit #19), whichever occurrence the message quotes."""
    found = [f for f in result.findings if (f.entry, f.lang) == ("retrace.n5", "de")]
    assert [(f.code, f.also) for f in found] == [("terminology.deprecated", ("phraseology.unofficial", "phraseology.retired"))]
    assert "(4 times)" in found[0].message and "'Zauberspruch spielen'" in found[0].message


def test_land_card_rendered_two_ways_in_german(result):
    (f,) = find(result, "terminology.inconsistent", "retrace.a", "de")
    assert "'Landkarte'" in f.message and "'Länderkarte'" in f.message


@pytest.mark.parametrize("code,entry,lang,fragment", [
    ("terminology.untranslated", "retrace.a", "fr", "capacité de retrace"),
    ("terminology.gender", "retrace.a", "fr", "La pistage"),
    ("terminology.gender", "retrace.n1", "fr", "quelle autre sort"),
    ("typography.quotes", "retrace.a", "fr", '"Pistage"'),
    ("typography.lowercase-start", "retrace.n1", "fr", "lancer"),
    ("coverage.partial", "retrace.n3", "fr", "702.78 note 3"),
    ("structure.parentheses", "retrace.n4", "fr", "(si ce n'est pas un permanent)"),
    ("structure.length", "retrace.summary", "fr", "2.1 times"),
    ("terminology.case", "retrace.summary", "fr", "Capacité à mot-clé"),
    ("terminology.deprecated", "retrace.summary", "fr", "jouer"),
    ("terminology.deprecated", "retrace.n1", "de", "Zurückverfolgungsfähigkeit"),
    ("terminology.deprecated", "retrace.n3", "de", "spielen"),
    ("terminology.deprecated", "retrace.n3", "de", "renders 'pay'"),
    ("terminology.zone", "dredge.n2", "de", "aus dem Spiel entfernt"),
    ("terminology.deprecated", "explore-no-actions-while-resolving", "de", "offenlegst"),
    ("terminology.inconsistent", "explore-creature-left-battlefield", "de", "Schlachtfeld"),
    # official cards print 'Nichtland-Karte' (88 German texts) and 'Nichtlandkarte' once (1998): the two rulings
    # with 'Nichtlandkarte' are the ones to change, not explore-same-card-again (audit #30)
    ("terminology.deprecated", "explore-creature-left-battlefield", "de", "Nichtlandkarte"),
    ("terminology.deprecated", "explore-no-actions-while-resolving", "de", "Nichtlandkarte"),
    ("sources.disagree", "explore-creature-left-battlefield", "de", "'Falls' -> 'Wenn'"),
    ("structure.extra-unit", "explore-reveal-top-card", "de", "none in English"),
])
def test_seed_defect(result, code, entry, lang, fragment):
    assert any(fragment in f.message for f in find(result, code, entry, lang))


def test_the_official_hyphen_ranges_are_kept_and_the_copied_one_reported(result):
    """The 2011 English prints "601.2e-g" with a hyphen: kept verbatim, so not reported (no waiver
    needed); the French copied the hyphen and should not."""
    assert not [f for f in result.findings if f.code == "typography.range-dash" and f.lang == "en"]
    assert result.waived == ()
    french = find(result, "typography.range-dash", "retrace.a", "fr")
    assert french and "en dash" in french[0].suggestion


def test_little_noise(result):
    """Every finding names its text and what to do; clean texts stay clean."""
    assert all(f.message and f.suggestion for f in result.findings)
    flagged = {(f.entry, f.lang) for f in result.findings}
    for clean in [("dredge.summary", "de"), ("explore-no-card-revealed", "de"), ("retrace.title", "fr")]:
        assert clean not in flagged
    # dredge.b (de) is clean but for its "in seinen Friedhof", where official cards write "auf seinen Friedhof"
    assert {f.code for f in result.findings if (f.entry, f.lang) == ("dredge.b", "de")} == {"phraseology.unofficial"}
    assert result.exit_code == 1


@pytest.mark.parametrize("entry,lang,written,official", [
    ("retrace.a", "de", "von deinem Friedhof", "aus deinem Friedhof"),   # issue 15: "aus" 1,492×, "von" never
    ("dredge.a", "de", "in deinen Friedhof", "auf deinen Friedhof"),      # issue 15: "auf" 433×, "in" 6×
    ("dredge.a", "de", "von deinem Friedhof", "aus deinem Friedhof"),
    ("dredge.b", "de", "in seinen Friedhof", "auf seinen Friedhof"),
    ("buyback.a", "de", "in den Friedhof", "auf den Friedhof"),
    ("explore-creature-left-battlefield", "de", "in deinen Friedhof", "auf deinen Friedhof"),
    ("retrace.n5", "fr", "au cimetière", "dans le cimetière"),
])
def test_phrasings_official_cards_do_not_use(result, entry, lang, written, official):
    hits = [f for f in find(result, "phraseology.unofficial", entry, lang) if f"writes '{written}'" in f.message]
    assert len(hits) == 1 and f"official cards in {'German' if lang == 'de' else 'French'} write '{official}' (" in hits[0].message
