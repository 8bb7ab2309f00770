"""terminology: missing, deprecated, forbidden, untranslated, inconsistent terms, gender and case
(pass/fail tables in en, de, fr; the project's termbase, or a small one made here)."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from qa_kb import findings, kb_of, one_text, rule, run, termbase
from rulekb.termbase import Concept, Term, Termbase


def codes_for(code, lang, text, english="Retrace appears on some instants and sorceries."):
    return [i for i in run(code, one_text(lang, text, english)) if i.lang == lang]


DEPRECATED = [
    ("en", "Playing a spell by using its retrace ability works like casting any other spell.", True),
    # to play a card is to play a land or cast a spell: today's word (issue 28.4)
    ("en", "Playing a card by using its retrace ability works like casting any other card.", False),
    ("en", "Casting a spell by using its retrace ability works like casting any other spell.", False),
    ("en", "You may play a land during your main phase.", False),
    ("en", "If the card would be removed from the game, exile it instead.", True),
    ("de", "Das Spielen einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte.", True),
    ("de", "Das Wirken einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte.", False),
    ("de", "Spiele Ausrüsten wie eine Hexerei.", False),
    ("de", "Die Karte kann nicht mehr aus dem Spiel entfernt werden.", True),
    ("de", "Die Karte kann nicht mehr ins Exil geschickt werden.", False),
    ("de", "Falls du eine Nichtland-Karte offenlegst, legst du eine Marke auf sie.", True),
    ("de", "Falls du eine Nichtland-Karte aufdeckst, legst du eine Marke auf sie.", False),
    ("de", "Falls du eine Nichtlandkarte aufdeckst, legst du eine Marke auf sie.", True),   # official cards: Nichtland-Karte
    ("fr", "Le pistage vous permet de jouer certaines cartes depuis votre cimetière.", True),
    ("fr", "Le pistage vous permet de lancer certaines cartes depuis votre cimetière.", False),
    ("fr", "Vous pouvez jouer un terrain pendant votre phase principale.", False),
]


# The contexts where the old word is still right (issue 28.4): 'play' is the old word for casting only
# before a spell ("play a spell", "play instants"); "play that card", "land plays", "continue playing"
# are today's words, and a translation that renders them with "spielen" / "jouer" is right too.
# (lang, english, text (None: the English itself), a deprecated-term finding?)
PLAY_IN_CONTEXT = [
    ("en", "You may play that card this turn.", None, False),
    ("en", "You still have an available land play this turn.", None, False),
    ("en", "The players continue playing the game with the card revealed.", None, False),
    ("en", "If the active player plays a spell that has retrace, the card goes to the graveyard.", None, True),
    ("en", "Retrace lets you play certain instant and sorcery cards from your graveyard.", None, True),
    ("de", "You may play that card this turn.", "Du kannst diese Karte in diesem Zug spielen.", False),
    ("de", "You may cast that spell this turn.", "Du kannst diesen Zauberspruch in diesem Zug spielen.", True),
    ("de", "You still have an available land play this turn.", "Du hast in diesem Zug noch einen Landspielzug frei.",
     False),
    ("fr", "You may play that card this turn.", "Vous pouvez jouer cette carte ce tour-ci.", False),
    ("fr", "You may cast that spell this turn.", "Vous pouvez jouer ce sort ce tour-ci.", True),
]


@pytest.mark.parametrize("lang,english,text,expected", PLAY_IN_CONTEXT)
def test_the_old_word_where_it_is_still_right(lang, english, text, expected):
    issues = [i for i in run("terminology.deprecated", one_text(lang, text or english, english)) if i.lang == lang]
    assert bool(issues) is expected, [i.message for i in issues]


def test_a_card_name_is_no_term():
    """"Path to Exile", "Sylvan Library": the names come from the knowledge base's cards; the same
    words outside a name are terms."""
    import dataclasses
    from qa_kb import kb_of as kb_with
    from rulekb.models import Card, Pos
    cards = tuple(Card(name.casefold().replace(" ", "-"), MappingProxyType({"en": name}), (), "", "test",
                       Pos("rules/cards/x.yaml", 1)) for name in ("Path to Exile", "Sylvan Library"))
    kb = kb_with(rule(subrules={"a": {"en": "You may cast Path to Exile. Sylvan Library lets you draw."}}))
    assert [i.message for i in run("terminology.case", dataclasses.replace(kb, cards=cards))] == []
    # without the cards, 'Exile' and 'Library' are terms written against the rule
    assert len(run("terminology.case", kb)) == 2


@pytest.mark.parametrize("lang,text,expected", DEPRECATED)
def test_deprecated(lang, text, expected):
    issues = codes_for("terminology.deprecated", lang, text)
    assert bool(issues) is expected
    if expected:
        # the English says nothing of the concept: the finding explains instead of prescribing
        assert "702.78a" in issues[0].message
        assert ("write '" in issues[0].suggestion) is (lang == "en")


# A fix only where it is right in context: a verb by its object (what the English says of that
# object), in the form of the word it replaces, its prefix kept.
IN_CONTEXT = [
    ("de", "you must pay its mana cost as well as discard a land card.",
     "musst du sowohl ihre Manakosten spielen als auch eine Länderkarte abwerfen.", "write 'bezahlen' here"),
    ("de", "If the active player plays a spell that has retrace, that player may play that card again.",
     "Falls der aktive Spieler einen Zauberspruch spielt, der Zurückverfolgen hat, kann er ihn erneut wirken.",
     "write 'wirkt' instead"),
    ("de", "You cast the card from your graveyard.",
     "Du spielst die Karte aus deinem Friedhof.", "write 'wirkst' instead"),
    ("fr", "you must pay its mana cost as well as discard a land card.",
     "vous devez jouer son coût de mana et vous défausser d'une carte de terrain.", "write 'payer' here"),
    ("fr", "You may use the retrace ability to cast it again.",
     "Vous pouvez utiliser la capacité de pistage pour la rejouer.", "write 'relancer' instead"),
    ("fr", "You may cast it from your graveyard.", "Vous jouez la carte depuis votre cimetière.",
     "write 'lancez' instead"),
    # a replacement that is a phrase of its own is written as the termbase gives it
    ("de", "You may use its retrace ability.", "Du kannst ihre Zurückverfolgungsfähigkeit verwenden.",
     "write 'Zurückverfolgen-Fähigkeit' instead"),
]


@pytest.mark.parametrize("lang,english,text,fix", IN_CONTEXT)
def test_deprecated_fix_in_context(lang, english, text, fix):
    kb = one_text(lang, text or english, english)
    found = [f for f in findings(kb, ("terminology.deprecated", "terminology.missing-term")) if f.lang == lang]
    # one defect, one finding: the 'pay' the verb renders is not also a missing term
    assert [f.code for f in found] == ["terminology.deprecated"] and found[0].suggestion.startswith(fix), found


@pytest.mark.parametrize("english,hint", [
    ("Casting a retrace card works like casting any other card.", False),
    ("Using a card's dredge ability, you replace a draw.", True),  # 'spielst' is not about casting here
])
def test_deprecated_term_where_the_english_means_something_else(english, hint):
    issues = codes_for("terminology.deprecated", "de", "Indem du die Fähigkeit einer Karte spielst, ersetzt du das Ziehen.",
                       english)
    assert len(issues) == 1
    assert ("the English does not speak of 'cast' here" in issues[0].message) is hint
    assert issues[0].suggestion.startswith("reword it after the English" if hint else "write 'wirkst' instead")


@pytest.mark.parametrize("release,code", [("2011-05-01", "terminology.old-wording"), ("2026-01-16", "terminology.deprecated")])
def test_english_old_wording_depends_on_the_release(release, code):
    """'his or her' (retired 2018) is the wording of a 2011 text (info), a defect in a 2026 text."""
    kb = kb_of(rule(release=release, subrules={"b": {"en": "A player with fewer cards in his or her library can't."}}))
    assert [i.entry for i in run(code, kb)] == ["retrace.b"]
    other = {"terminology.old-wording", "terminology.deprecated"} - {code}
    assert run(other.pop(), kb) == []


MISSING = [
    ("de", "you must pay its mana cost as well as discard a land card.",  # 'spielen' renders 'pay': its finding
     "musst du sowohl ihre Manakosten spielen als auch eine Länderkarte abwerfen.", False),
    ("de", "you must pay its mana cost as well as discard a land card.",
     "musst du sowohl ihre Manakosten abwerfen als auch eine Länderkarte.", True),
    ("de", "you must pay its mana cost as well as discard a land card.",
     "musst du sowohl ihre Manakosten bezahlen als auch eine Länderkarte abwerfen.", False),
    ("fr", "you must pay its mana cost as well as discard a land card.",
     "vous devez jouer son coût de mana et vous défausser d'une carte de terrain.", False),
    ("fr", "you must pay its mana cost as well as discard a land card.",
     "vous devez défausser son coût de mana et une carte de terrain.", True),
    ("fr", "you must pay its mana cost as well as discard a land card.",
     "vous devez payer son coût de mana et vous défausser d'une carte de terrain.", False),
    ("en", "you must pay its mana cost as well as discard a land card.", None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", MISSING)
def test_missing_term(lang, english, text, expected):
    issues = codes_for("terminology.missing-term", lang, text if text else english, english)
    assert bool(issues) is expected
    if expected:
        assert "'pay'" in issues[0].message


SEPARABLE = [
    # a German separable verb split at the end of its clause, or joined, is the term (issue 28)
    ("Discard a land card.", "Wirf eine Länderkarte ab.", False),
    ("Discard a land card, then reveal the top card of your library.",
     "Wirf eine Länderkarte ab und decke dann die oberste Karte deiner Bibliothek auf.", False),
    ("You may discard a land card to cast it.", "Du kannst eine Länderkarte abwerfen, um sie zu wirken.", False),
    ("You may discard a land card to cast it.", "Um sie zu wirken, hast du eine Länderkarte abzuwerfen.", False),
    ("Reveal the top card of your library.", "Du deckst die oberste Karte deiner Bibliothek auf.", False),
    ("A land card was discarded this turn.", "In diesem Zug wurde eine Länderkarte abgeworfen.", False),
    # another verb, or the verb without its particle, still lacks the term
    ("Discard a land card.", "Lege eine Länderkarte ab.", True),
    ("Discard a land card.", "Wirf eine Länderkarte weg.", True),
    ("Reveal the top card of your library.", "Zeige die oberste Karte deiner Bibliothek.", True),
    ("Reveal the top card of your library.", "Lege die oberste Karte deiner Bibliothek auf den Stapel.", True),
]


@pytest.mark.parametrize("english,text,expected", SEPARABLE)
def test_a_split_separable_verb_is_no_missing_term(english, text, expected):
    issues = codes_for("terminology.missing-term", "de", text, english)
    assert bool(issues) is expected, issues
    assert codes_for("terminology.case", "de", text, english) == []


def test_a_term_the_english_gained_since_the_translation_is_the_stale_findings():
    """The English now says 'spell' where the English the German was made from said 'card': the
    stale finding says what changed; the German lacks no term of its own English."""
    from rulekb.models import english_hash
    old = "Playing a card works just like playing any other card."
    new = "Casting a card works just like casting any other spell."
    kb = kb_of(rule(subrules={"a": {"en": [new, old],
                                    "de": ("Das Wirken einer Karte funktioniert wie das Wirken jeder anderen Karte.",
                                           {"translated_from": english_hash(old)})}}))
    assert run("terminology.missing-term", kb) == []
    kb = kb_of(rule(subrules={"a": {"en": new, "de": "Das Wirken einer Karte funktioniert wie das Wirken jeder "
                                                     "anderen Karte."}}))
    assert ["'spell'" in i.message for i in run("terminology.missing-term", kb)] == [True]


UNTRANSLATED = [
    ("fr", "Lancer un sort en utilisant sa capacité de retrace suit les règles.", True),
    ("fr", "Lancer un sort en utilisant sa capacité de pistage suit les règles.", False),
    ("fr", "Quand la créature arrive sur le champ de bataille, elle explore.", False),  # 'explore' is French too
    ("de", "Das Wirken eines Zauberspruchs mit seiner Retrace-Fähigkeit folgt den Regeln.", True),
    ("de", "Das Wirken eines Zauberspruchs mit seiner Zurückverfolgen-Fähigkeit folgt den Regeln.", False),
    ("en", "Casting a spell using its retrace ability follows the rules.", False),
    ("en", "Casting a spell using its Zurückverfolgen ability follows the rules.", False),  # the source is not checked
    ("fr", "Lancer un sort en utilisant sa capacité de Zurückverfolgen suit les règles.", True),
    ("de", "Das Wirken eines Zauberspruchs mit seiner Pistage-Fähigkeit folgt den Regeln.", True),
    # zone and game terms too, not only keywords
    ("fr", "Une carte avec le pistage lancée depuis votre graveyard suit les règles.", True),
    ("de", "Du kannst diese Karte von deinem graveyard wirken.", True),
    ("fr", "Une carte avec le pistage lancée depuis votre cimetière suit les règles.", False),
    ("de", "Lege die Karte in ein Land deiner Wahl.", False),  # 'Land' is German too
]


@pytest.mark.parametrize("lang,text,expected", UNTRANSLATED)
def test_untranslated_term(lang, text, expected):
    issues = codes_for("terminology.untranslated", lang, text)
    assert bool(issues) is expected
    if expected:
        assert ("left untranslated" in issues[0].message or " is used in the " in issues[0].message)
        assert "702.78a" in issues[0].message


GENDER = [
    ("fr", "La pistage apparaît sur certains éphémères.", True),
    ("fr", "Le pistage apparaît sur certains éphémères.", False),
    ("fr", "Cela fonctionne comme lancer n'importe quelle autre sort.", True),
    ("fr", "Cela fonctionne comme lancer n'importe quel autre sort.", False),
    ("fr", "Mettez cette créature et une marqueur +1/+1 sur la pile.", True),
    ("de", "Die Zurückverfolgen erscheint auf einigen Spontanzaubern.", False),  # German articles decline: no rule
    ("en", "The retrace appears on some instants.", False),
]


@pytest.mark.parametrize("lang,text,expected", GENDER)
def test_gender(lang, text, expected):
    assert bool(codes_for("terminology.gender", lang, text)) is expected


CASE = [
    ("fr", "Le pistage est une Capacité à mot-clé de l'extension.", True),
    ("fr", "Le pistage est une capacité à mot-clé de l'extension.", False),
    ("fr", "Capacité à mot-clé, le pistage existe.", False),
    ("fr", "Vous défaussez une carte de Terrain en plus.", True),
    ("de", "Die Karte ist im friedhof eines Spielers.", True),
    ("de", "Die Karte ist im Friedhof eines Spielers.", False),
    ("de", "Beim Erkunden deckst du eine Karte auf.", False),
    ("en", "The card is in a player's Graveyard now.", True),
    ("en", "The card is in a player's graveyard now.", False),
    ("en", 'Activate mana abilities (see rule 605, "Mana Abilities").', False),
    # a sentence starting right after a closing quote or parenthesis is a sentence start
    ("fr", "« Pistage » signifie « Vous pouvez la lancer. » Capacité à mot-clé, le pistage existe.", False),
    ("fr", "« Pistage » signifie « Vous pouvez la lancer » Capacité à mot-clé.", True),
    ("de", "„Zurückverfolgen“ bedeutet „Du kannst sie wirken.“ Friedhof ist eine Zone.", False),
    ("en", '(See rule 416, "Effects.") Abilities can affect objects.', False),
    ("en", "The player's Graveyard (see rule 404) holds it.", True),
    # a capitalised word beside another one is a name, not a term
    ("en", "Cards such as Library of Alexandria and Elephant Graveyard are named here.", False),
    ("fr", "La carte Cimetière Oublié est nommée ainsi.", False),
]


@pytest.mark.parametrize("lang,text,expected", CASE)
def test_case(lang, text, expected):
    assert bool(codes_for("terminology.case", lang, text)) is expected


# ---------------------------------------------------------------- inconsistent and forbidden: own termbase

def _term(text, status="preferred", **kw):
    return Term(text, status, (text,) + tuple(kw.pop("forms", ())), kw.pop("gender", None), kw.pop("replacement", None),
                kw.pop("retired", None), "test: made in the test", kw.pop("note", None), ())


TB = Termbase((
    Concept("land-card", "term", None, MappingProxyType({}), MappingProxyType({
        "en": (_term("land card"), _term("land-type card", "admitted")),
        "de": (_term("Länderkarte"), _term("Landkarte", "admitted")),
        "fr": (_term("carte de terrain"), _term("carte terrain", "admitted")),
    }), "test: made in the test"),
    Concept("exile", "action", None, MappingProxyType({}), MappingProxyType({
        "en": (_term("exile"), _term("remove from the game", "forbidden", replacement="exile")),
        "de": (_term("ins Exil schicken"), _term("aus dem Spiel entfernen", "forbidden", replacement="ins Exil schicken")),
        "fr": (_term("exiler"), _term("retirer de la partie", "forbidden", replacement="exiler")),
    }), "test: made in the test"),
))

INCONSISTENT = [
    # (lang, first text, second text, flagged entry or None)
    ("en", "Discard a land card.", "Discard a land-type card.", "retrace.b"),
    ("en", "Discard a land card.", "Discard another land card.", None),
    ("de", "Wirf eine Länderkarte ab.", "Wirf eine Landkarte ab.", "retrace.b"),
    ("de", "Wirf eine Landkarte ab.", "Wirf eine Länderkarte ab.", "retrace.a"),  # the preferred term wins
    ("de", "Wirf eine Länderkarte ab.", "Wirf noch eine Länderkarte ab.", None),
    ("fr", "Défaussez une carte de terrain.", "Défaussez une carte terrain.", "retrace.b"),
    ("fr", "Défaussez une carte de terrain.", "Défaussez une autre carte de terrain.", None),
]


@pytest.mark.parametrize("lang,first,second,flagged", INCONSISTENT)
def test_inconsistent(lang, first, second, flagged):
    english = {"a": "Discard a land card.", "b": "Discard another land card."}
    subs = {letter: ({"en": text} if lang == "en" else {"en": english[letter], lang: text})
            for letter, text in (("a", first), ("b", second))}
    issues = [i for i in run("terminology.inconsistent", kb_of(rule(subrules=subs)), tb=TB) if i.lang == lang]
    assert [i.entry for i in issues] == ([flagged] if flagged else [])
    if flagged:
        assert "use one term for one concept" in issues[0].suggestion


# No term preferred in the termbase: official card texts decide (the phrases quoted in
# translations/phraseology.yaml print 'Nichtland-Karte' and 'carte non-terrain', never
# 'Nichtlandkarte' or 'carte non terrain'), not how many texts of the project use each; where
# nothing decides, the finding names the spellings and prescribes none.
TB_SPELLING = Termbase((
    Concept("nonland-card", "term", None, MappingProxyType({}), MappingProxyType({
        "en": (_term("nonland card"),),
        "de": (_term("Nichtlandkarte", "admitted"), _term("Nichtland-Karte", "admitted"),
               _term("Nicht-Land-Karte", "admitted")),
        "fr": (_term("carte non terrain", "admitted"), _term("carte non-terrain", "admitted"),
               _term("carte autre que terrain", "admitted")),
    }), "test: made in the test"),
))

SPELLING = [
    # (lang, first text, second text, third text, flagged entries, the official spelling or None: nothing decides)
    ("de", "Eine Nichtlandkarte.", "Eine Nichtlandkarte.", "Eine Nichtland-Karte.", ["retrace.a", "retrace.b"],
     "Nichtland-Karte"),                                   # the project's majority is no evidence
    ("de", "Eine Nichtland-Karte.", "Eine Nichtland-Karte.", "Eine Nichtlandkarte.", ["retrace.c"], "Nichtland-Karte"),
    ("de", "Eine Nichtlandkarte.", "Eine Nicht-Land-Karte.", "Eine Nicht-Land-Karte.", ["retrace.a"], None),
    ("fr", "Une carte non terrain.", "Une carte non-terrain.", "Une carte non-terrain.", ["retrace.a"], "carte non-terrain"),
    ("fr", "Une carte non terrain.", "Une carte autre que terrain.", "Une carte autre que terrain.", ["retrace.a"], None),
    ("en", "A nonland card.", "Another nonland card.", "A nonland card.", [], None),
]


@pytest.mark.parametrize("lang,first,second,third,flagged,official", SPELLING)
def test_inconsistent_spelling_follows_official_cards(lang, first, second, third, flagged, official):
    subs = {letter: ({"en": text} if lang == "en" else {"en": "A nonland card.", lang: text})
            for letter, text in (("a", first), ("b", second), ("c", third))}
    issues = [i for i in run("terminology.inconsistent", kb_of(rule(subrules=subs)), tb=TB_SPELLING) if i.lang == lang]
    assert [i.entry for i in issues] == flagged
    for issue in issues:
        if official:
            assert f"use one term for one concept: '{official}' (official card texts" in issue.suggestion
        else:
            assert "neither the termbase nor the official card texts decide" in issue.suggestion


def test_the_termbase_prefers_nichtland_karte_as_official_cards_print_it():
    tb = termbase()
    assert tb.preferred("nonland-card", "de").text == "Nichtland-Karte"
    [old] = [t for t in tb.concept("nonland-card").terms["de"] if t.text == "Nichtlandkarte"]
    assert old.status == "deprecated" and old.replacement == "Nichtland-Karte"


FORBIDDEN = [
    ("en", "Remove from the game target creature.", True),
    ("en", "Exile target creature.", False),
    ("de", "Die Karte wird aus dem Spiel entfernen.", True),
    ("de", "Die Karte wird ins Exil schicken.", False),
    ("fr", "Vous devez retirer de la partie la carte.", True),
    ("fr", "Vous devez exiler la carte.", False),
]


@pytest.mark.parametrize("lang,text,expected", FORBIDDEN)
def test_forbidden(lang, text, expected):
    issues = [i for i in run("terminology.forbidden", one_text(lang, text, "Exile the card."), tb=TB) if i.lang == lang]
    assert bool(issues) is expected


# ---------------------------------------------------------------- a zone the English does not name

ZONE = [
    ("de", "That card can't be removed from your graveyard.",
     "Die Karte kann nicht mehr aus deinem Friedhof entfernt werden.", False),
    ("de", "That card can't be removed from your graveyard.",
     "Die Karte kann nicht mehr aus deinem Friedhof ganz aus dem Spiel entfernt werden.", True),
    ("de", "Put it into your hand.", "Nimm sie auf deine Hand.", False),
    ("de", "Put it into your hand.", "Lege sie in deine Bibliothek.", True),
    ("fr", "Put it into your hand.", "Mettez-la dans votre main.", False),
    ("fr", "Put it into your hand.", "Mettez-la dans votre cimetière.", True),
    ("en", "Put it into your hand.", None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", ZONE)
def test_a_zone_the_english_does_not_name_is_an_error(lang, english, text, expected):
    found = [f for f in findings(one_text(lang, text or english, english), ("terminology.zone", "terminology.deprecated"))
             if f.lang == lang and f.code == "terminology.zone"]
    assert bool(found) is expected
    if expected:
        assert found[0].severity.value == "error"


INFLECTED = [
    # (found, term, its forms, replacement, its forms, expected)
    ("spielst", "spielen", ("spielst", "spielt", "Spielen"), "wirken", ("wirkst", "wirkt", "Wirken"), "wirkst"),
    ("Spielen", "spielen", ("spielst", "spielt", "Spielen"), "wirken", ("wirkst", "wirkt", "Wirken"), "Wirken"),
    ("spielen", "spielen", ("spielst",), "bezahlen", ("bezahlst",), "bezahlen"),
    ("rejouer", "jouer", ("joue", "jouez", "rejouer"), "lancer", ("lance", "lancez"), "relancer"),
    ("jouez", "jouer", ("joue", "jouez"), "lancer", ("lance", "lancez"), "lancez"),
    ("played", "play", ("plays", "played"), "cast", ("casts", "casting"), "cast"),
]


@pytest.mark.parametrize("found,term,forms,replacement,rforms,expected", INFLECTED)
def test_a_fix_keeps_the_form_of_the_word_it_replaces(found, term, forms, replacement, rforms, expected):
    from rulekb.check.terminology import inflected
    assert inflected(found, _term(term, "deprecated", forms=forms), _term(replacement, forms=rforms)) == expected


@pytest.mark.parametrize("lang, concept, note", [
    ("fr", "«\u00a0lancer\u00a0»", ("les cartes françaises impriment «\u00a0lancer\u00a0» pour les sorts et réservent "
                                   "«\u00a0jouer\u00a0» aux terrains")),
    ("de", "„wirken“", "französische Kartentexte schreiben „lancer“ für Zaubersprüche"),   # the German reader's term
    ("en", "'cast'", "French card texts write 'lancer' for spells"),
])
def test_a_deprecated_term_reads_in_the_readers_language_its_concept_and_its_note_too(lang, concept, note):
    """The concept of the message is the reader's term ('lancer' for a French reader, not 'cast'),
    the termbase's note is in the reader's language; the English message for tools is unchanged,
    and where the message speaks of the English text it names the English word."""
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language, quoted
    issue = codes_for("terminology.deprecated", "fr", DEPRECATED[-3][1])[0]
    assert "a deprecated term in French for 'cast'" in issue.message
    reader = None if lang == "en" else load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    text = issue.msg.render(reader)
    assert f"{concept} —" in text and note in text
    # "the English does not speak of 'cast' here", quoted as the reader's language quotes
    assert quoted("cast", lang) in text.split(" — ", 1)[1]


@pytest.mark.parametrize("lang, expected, forms", [
    ("fr", "«\u00a0se défausser\u00a0»", "«\u00a0se défausser\u00a0», «\u00a0défausser\u00a0»"),
    ("de", "„abwerfen“", "„abwerfen“, „abwirfst“"),
])
def test_a_missing_term_is_quoted_as_the_reader_quotes(lang, expected, forms):
    """The expected term and its forms in the reader's quotation marks, not the English '…' (issue 28.6)."""
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    english = "you must pay its mana cost as well as discard a land card."
    text = {"fr": "vous devez payer son coût de mana et une carte de terrain.",
            "de": "musst du sowohl ihre Manakosten bezahlen als auch eine Länderkarte."}[lang]
    [issue] = codes_for("terminology.missing-term", lang, text, english)
    reader = load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    message, fix = issue.msg.render(reader), issue.fix.render(reader)
    assert expected in message and forms in message and expected in fix, (message, fix)
    assert "'" not in message.replace("l’", "") + fix.split("(", 1)[0], (message, fix)


def test_the_french_finding_on_rejouer_reads_as_french():
    """'rejouer' for "cast it again": the French reader is told, in French, that 'jouer' is the
    deprecated word for casting and to write 'relancer' (issue 28)."""
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    issue = codes_for("terminology.deprecated", "fr", "Vous pouvez utiliser la capacité de pistage pour la rejouer.",
                      "You may use the retrace ability to cast it again.")[0]
    reader = load_ui(ROOT, Language("fr", "fr", "fr", "fr_FR"))
    message, fix = issue.msg.render(reader), issue.fix.render(reader)
    nb = "\u00a0"
    assert (f"emploie «{nb}rejouer{nb}» (" in message
            and f"un terme déconseillé en français pour dire «{nb}lancer{nb}» — les cartes françaises impriment "
                f"«{nb}lancer{nb}» pour les sorts et réservent «{nb}jouer{nb}» aux terrains" in message), message
    assert fix.startswith(f"écrivez plutôt «{nb}relancer{nb}»"), fix


@pytest.mark.parametrize("lang,text,uses", [
    ("de", "Du spielst sie, dann spielst du sie erneut.", ((3, 10), (21, 28))),
    ("de", "Du wirkst sie, dann wirkst du sie erneut.", None),
    ("fr", "Vous la jouez, puis vous la jouez à nouveau.", ((8, 13), (28, 33))),
    ("en", "You play spells, then you play spells again.", ((4, 8), (26, 30))),
])
def test_a_deprecated_term_used_several_times_carries_every_occurrence(lang, text, uses):
    english = "You cast it, then you cast it again."
    issues = [i for i in run("terminology.deprecated", one_text(lang, text, english)) if i.lang == lang]
    if uses is None:
        assert issues == []
    else:
        [issue] = issues
        assert "(2 times)" in issue.message and issue.spans == uses and issue.span == uses[0]


# The fix in the form the text needs, as the termbase lists it (audit #23, #25).
FIX_FORM = [
    # (code, lang, English, text, the fix's word or None: no finding)
    ("terminology.deprecated", "de", "You may put the revealed card into your graveyard.",
     "Du kannst die offenbarte Karte auf deinen Friedhof legen.", "'aufgedeckte'"),
    ("terminology.deprecated", "de", "You may put the revealed cards into your graveyard.",
     "Du kannst die offenbarten Karten auf deinen Friedhof legen.", "'aufgedeckten'"),
    ("terminology.deprecated", "de", "You may put the revealed card into your graveyard.",
     "Du kannst die aufgedeckte Karte auf deinen Friedhof legen.", None),
    ("terminology.deprecated", "fr", "You may put the revealed card into your graveyard.",
     "Vous pouvez mettre la carte révélée dans votre cimetière.", None),
    ("terminology.inconsistent", "de", "If the creature has left the battlefield, it still explores.",
     "Falls die Kreatur das Schlachtfeld verlassen hat, erkundet sie trotzdem.", "'das Spiel verlassen hat'"),
    ("terminology.inconsistent", "de", "The creature enters the battlefield.",
     "Die Kreatur kommt auf das Schlachtfeld.", "'ins Spiel'"),       # no form of several words fits: the term
    ("terminology.inconsistent", "de", "If the creature has left the battlefield, it still explores.",
     "Falls die Kreatur das Spiel verlassen hat, erkundet sie trotzdem.", None),
    ("terminology.inconsistent", "fr", "If the creature has left the battlefield, it still explores.",
     "Si la créature a quitté le champ de bataille, elle explore quand même.", None),
]


@pytest.mark.parametrize("code,lang,english,text,word", FIX_FORM)
def test_the_fix_takes_the_form_the_text_needs(code, lang, english, text, word):
    # a second text writes the preferred term, so that the inconsistency check has two to compare
    other = {"de": "Die Karte ist im Spiel.", "fr": "La carte est sur le champ de bataille."}[lang]
    kb = kb_of(rule(subrules={"a": {"en": english, lang: text}, "b": {"en": "The card is on the battlefield.", lang: other}}))
    issues = [i for i in run(code, kb) if i.lang == lang and i.entry == "retrace.a"]
    assert bool(issues) is (word is not None)
    if word:
        assert word in issues[0].suggestion


@pytest.mark.parametrize("lang,text,fix", [
    ("de", "Eine Karte mit Zurückverfolgen, die du aus deinem Friedhof spielst, folgt den normalen Regeln.", "write 'wirkst'"),
    ("fr", "Une carte avec le pistage que vous jouez depuis votre cimetière suit les règles normales.", "write 'lancez'"),
])
def test_a_stale_translation_is_fixed_after_todays_english(lang, text, fix):
    """Made from an English that says "played" (still right before a card), where today's English says
    "cast": the old word is to be replaced by today's term, not reworded "after the English"."""
    old = "A retrace card played from your graveyard follows the normal rules."
    new = "A retrace card cast from your graveyard follows the normal rules."
    from rulekb.models import english_hash
    kb = kb_of(rule(subrules={"a": {"en": [new, (old, {"source": "test"})],
                                    lang: (text, {"translated_from": english_hash(old)})}}))
    (issue,) = [i for i in run("terminology.deprecated", kb) if i.lang == lang]
    assert "does not speak of" not in issue.message and issue.suggestion.startswith(fix)


def _reader(lang):
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    return load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))


@pytest.mark.parametrize("lang,text,reads", [
    # the kind's gender no longer meets a fixed article ("das englische Spielbegriff", "le action à mot-clé")
    ("de", "Du kannst diese Karte von deinem graveyard wirken.",
     "der englische Ausdruck „graveyard“ (Spielbegriff) steht unübersetzt im Text auf Deutsch"),
    ("fr", "Une carte avec le pistage lancée depuis votre graveyard suit les règles.",
     "le terme anglais « graveyard » (terme de jeu) n’est pas traduit dans le texte en français"),
    ("fr", "Lancer un sort en utilisant sa capacité de Zurückverfolgen suit les règles.",
     "le terme « Zurückverfolgen » (mot-clé, en allemand) figure dans le texte en français"),
])
def test_an_untranslated_term_reads_as_german_and_french(lang, text, reads):
    [issue] = codes_for("terminology.untranslated", lang, text)
    assert reads in issue.msg.render(_reader(lang)).replace("\u00a0", " ")


@pytest.mark.parametrize("when,lang,reads", [
    ("by 2026-01-16", "de", ", spätestens seit 2026-01-16 abgelöst"),
    ("by 2026-01-16", "fr", ", hors d’usage au plus tard depuis 2026-01-16"),
    ("by 2026-01-16", "en", ", retired by 2026-01-16"),
    ("2009-07-11", "de", ", seit 2009-07-11 abgelöst"),
    ("after 2009", "fr", ", abandonné après 2009"),
])
def test_when_a_term_was_retired_reads_in_the_readers_words(when, lang, reads):
    """"by 2026-01-16" is the termbase's English: the German report said "abgelöst by 2026-01-16"."""
    from rulekb.check.terminology import _retired
    assert _retired(when).render(None if lang == "en" else _reader(lang)) == reads
