"""meaning: numbers in words, bounds, negations, player roles, zones and sentences a translation
changes against its English — pass/fail tables in en, de, fr, the pure comparisons on their own,
and the checks as `rulekb check` runs them (with the families they leave a defect to)."""

from __future__ import annotations

import pytest

from qa_kb import findings, kb_of, one_text, rule, ruling, run
from rulekb.check import meaning
from rulekb.models import Severity


def issues(code, lang, text, english, selected=()):
    return [i for i in run(code, one_text(lang, text, english), selected or (code,)) if i.lang == lang]


# ------------------------------------------------------------------ numbers

EN_EXCEPTIONS = ("Playing a card by using its retrace ability works just like playing any other card, with two "
                 "exceptions: You're playing the card from your graveyard rather than your hand, and you must discard "
                 "a land card in addition to any other costs.")
EN_COUNTER = "If no card is revealed, the exploring creature receives a +1/+1 counter."

NUMBER = [
    # (lang, english, translation, the word the finding names, or None)
    ("de", EN_EXCEPTIONS, "Das Wirken einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte "
     "mit zwei Ausnahmen: Du wirkst sie aus deinem Friedhof statt aus deiner Hand und wirfst eine Länderkarte ab.", None),
    ("de", EN_EXCEPTIONS, "Das Wirken einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte "
     "mit drei Ausnahmen: Du wirkst sie aus deinem Friedhof statt aus deiner Hand und wirfst eine Länderkarte ab.", "drei"),
    ("de", EN_COUNTER, "Falls keine Karte aufgedeckt wird, erhält die erkundende Kreatur eine +1/+1-Marke.", None),
    ("de", EN_COUNTER, "Falls keine Karte aufgedeckt wird, erhält die erkundende Kreatur zwei +1/+1-Marken.", "zwei"),
    ("de", "Draw two cards.", "Ziehe 2 Karten.", None),                         # "two" and "2" agree
    ("de", "It deals both first-strike and regular combat damage.",             # "both" need not be said
     "Sie fügt sowohl Erstschlags- als auch normalen Kampfschaden zu.", None),
    ("de", "Gain twice that much life.", "Erhalte doppelt so viele Lebenspunkte dazu.", None),
    ("de", "Gain twice that much life.", "Erhalte dreimal so viele Lebenspunkte dazu.", "dreimal"),
    ("de", "Sacrifice an Elf.", "Opfere einen Elf.", None),                      # the creature type, not eleven
    ("fr", EN_EXCEPTIONS, "Lancer un sort avec sa capacité de pistage fonctionne comme lancer n'importe quel autre sort, "
     "à deux exceptions près : vous le lancez depuis votre cimetière au lieu de votre main.", None),
    ("fr", EN_EXCEPTIONS, "Lancer un sort avec sa capacité de pistage fonctionne comme lancer n'importe quel autre sort, "
     "à trois exceptions près : vous le lancez depuis votre cimetière au lieu de votre main.", "trois"),
    ("fr", "Return both cards to your hand.", "Renvoyez les deux cartes dans votre main.", None),
    ("fr", "Draw three cards.", "Piochez quatre cartes.", "quatre"),
    ("fr", "Draw three cards.", "Piochez une carte.", ""),                       # a number lost: no place to point at
    ("en", "Draw three cards.", None, None),
]


@pytest.mark.parametrize("lang,english,text,word", NUMBER)
def test_number(lang, english, text, word):
    found = issues("meaning.number", lang, text or english, english)
    assert bool(found) is (word is not None)
    if word:
        assert f"'{word}'" in found[0].message and "a different number changes the rule" in found[0].message
        assert found[0].span and (text or english)[slice(*found[0].span)] == word
    elif word == "":
        assert "no number" in found[0].message and found[0].span is None


def test_digits_against_digits_are_left_to_numbers_mismatch():
    assert meaning.number_change("Draw 3 cards.", "Ziehe 4 Karten.", "de") is None
    assert meaning.number_change("Draw three cards.", "Ziehe 4 Karten.", "de") is not None


def test_numbers_skip_references_symbols_values_and_loyalty():
    said = meaning.numbers("[−3]: Follow rules 601.2b and 601.2e–g. Pay {2} and put a +1/+1 counter on it. Draw 20.", "en")
    assert set(said) == {20}


# ------------------------------------------------------------------ bounds

EN_DREDGE = ("„Dredge N“ means „As long as you have at least N cards in your library, if you would draw a card, you "
             "may instead put N cards from the top of your library into your graveyard.“")

BOUND = [
    ("de", EN_DREDGE, "„Ausgraben N“ bedeutet: „Solange du mindestens N Karten in deiner Bibliothek hast, falls du eine "
     "Karte ziehen würdest, kannst du stattdessen N Karten von oben von deiner Bibliothek in deinen Friedhof legen.“", False),
    ("de", EN_DREDGE, "„Ausgraben N“ bedeutet: „Solange du höchstens N Karten in deiner Bibliothek hast, falls du eine "
     "Karte ziehen würdest, kannst du stattdessen N Karten von oben von deiner Bibliothek in deinen Friedhof legen.“", True),
    ("de", "Return up to two target creatures.", "Bringe bis zu zwei Kreaturen deiner Wahl zurück.", False),
    ("de", "Return up to two target creatures.", "Bringe mindestens zwei Kreaturen deiner Wahl zurück.", True),
    ("de", "Whenever one or more creatures attack, draw a card.",            # "one or more" is no bound
     "Immer wenn mindestens eine Kreatur angreift, ziehe eine Karte.", False),
    ("de", "Until your next turn, it can't block.", "Bis zu deinem nächsten Zug kann sie nicht blocken.", False),
    ("fr", "Destroy each creature with power 4 or greater.",
     "Détruisez chaque créature de force supérieure ou égale à 4.", False),
    ("fr", "Destroy each creature with power 4 or greater.",
     "Détruisez chaque créature de force inférieure ou égale à 4.", True),
    ("fr", EN_DREDGE, "« Dragage N » signifie « Tant que vous avez au plus N cartes dans votre bibliothèque, si vous "
     "deviez piocher une carte, vous pouvez à la place mettre N cartes dans votre cimetière. »", True),
    ("fr", "It gets +1/+1 for each card, until end of turn.",               # "jusqu'à la fin" is no bound
     "Elle gagne +1/+1 pour chaque carte jusqu'à la fin du tour.", False),
    ("fr", "Draw cards equal to the greatest number of cards.",
     "Piochez autant de cartes que le plus grand nombre de cartes.", False),
    ("en", EN_DREDGE, None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", BOUND)
def test_bound(lang, english, text, expected):
    found = issues("meaning.bound", lang, text or english, english)
    assert bool(found) is expected
    if expected:
        assert "bound" in found[0].message


# ------------------------------------------------------------------ negations

EN_RULING = ("Once an ability that causes a creature to explore begins to resolve, no player may take any other "
             "actions until it’s done. Notably, opponents can’t try to remove the exploring creature after you reveal "
             "a nonland card.")
EN_NOTE = ("When a retrace card you play from your graveyard resolves or is countered, it's put back into your "
           "graveyard. You may use the retrace ability to play it again.")
EN_DRAW = "Dredge lets you replace any card draw, not just the one during your draw step."

NEGATION = [
    # (lang, english, translation, "lost" / "added" / None)
    ("de", EN_RULING, "Sobald die Verrechnung einer Fähigkeit, die eine Kreatur erkunden lässt, beginnt, darf kein "
     "Spieler weitere Aktionen durchführen. Insbesondere können Gegner nicht versuchen, die Kreatur zu entfernen.", None),
    ("de", EN_RULING, "Sobald die Verrechnung einer Fähigkeit, die eine Kreatur erkunden lässt, beginnt, darf jeder "
     "Spieler weitere Aktionen durchführen. Insbesondere können Gegner nicht versuchen, die Kreatur zu entfernen.", "lost"),
    ("de", EN_DRAW, "Ausgraben lässt dich jede Gelegenheit zum Kartenziehen ersetzen, nicht nur die während deines "
     "Ziehsegments.", None),
    ("de", EN_DRAW, "Ausgraben lässt dich keine Gelegenheit zum Kartenziehen ersetzen, nicht nur die während deines "
     "Ziehsegments.", "added"),
    ("de", "Destroy target nontoken creature.", "Zerstöre eine Kreatur deiner Wahl, die kein Spielstein ist.", None),
    ("de", "It can't be blocked except by two or more creatures.",
     "Sie kann nur von zwei oder mehr Kreaturen geblockt werden.", None),
    ("fr", EN_NOTE, "Quand une carte avec le pistage que vous lancez depuis votre cimetière se résout, elle est remise "
     "dans votre cimetière. Vous pouvez utiliser la capacité de pistage pour la relancer.", None),
    ("fr", EN_NOTE, "Quand une carte avec le pistage que vous lancez depuis votre cimetière se résout, elle est remise "
     "dans votre cimetière. Vous ne pouvez pas utiliser la capacité de pistage pour la relancer.", "added"),
    ("fr", "Counter target spell unless its controller pays {3}.",          # an expletive "ne" negates nothing
     "Contrecarrez le sort ciblé à moins que son contrôleur ne paie {3}.", None),
    ("fr", "Damage can't be prevented this turn.", "Les blessures ne peuvent être prévenues ce tour-ci.", None),
    ("fr", "Each player can't cast more than one spell each turn.",
     "Aucun joueur ne peut lancer plus d'un sort par tour.", None),
    ("fr", "Enchanted creature can't attack or block.", "La créature enchantée ne peut ni attaquer ni bloquer.", None),
    ("fr", "It can't be blocked except by creatures with flying.",          # "ne … que": only
     "Elle ne peut être bloquée que par des créatures avec le vol.", None),
    ("fr", "No player may take actions. Opponents can't respond.",
     "Chaque joueur peut agir. Les adversaires ne peuvent pas répondre.", "lost"),
    ("en", EN_RULING, None, None),
]


@pytest.mark.parametrize("lang,english,text,kind", NEGATION)
def test_negation(lang, english, text, kind):
    found = issues("meaning.negation", lang, text or english, english)
    assert bool(found) is (kind is not None)
    if kind == "added":
        assert "negates" in found[0].message and "where the English does not" in found[0].message
        assert text[slice(*found[0].span)].casefold() in ("keine", "ne")
    elif kind == "lost":
        assert "does not negate it there" in found[0].message


def test_a_text_without_any_negation_is_structure_negations_finding_once():
    kb = one_text("de", "Ein Spieler kann sie in seinen Friedhof legen.",
                  "A player can't put any of them into his or her graveyard this way.")
    found = findings(kb, ("structure.negation", "meaning.negation"))
    assert [f.code for f in found] == ["structure.negation"]
    assert [i.lang for i in run("meaning.negation", kb)] == ["de"]   # alone, it reports it


def test_an_added_parenthesis_is_left_to_structure_parentheses():
    assert meaning.negation_changes("When it resolves, it goes back to your graveyard.",
                                    "Quand elle se résout (si ce n'est pas un permanent), elle retourne au cimetière.",
                                    "fr") == []


@pytest.mark.parametrize("lang,text,count", [
    ("en", "You can't cast it, and no player may respond; there's no more than one.", 2),
    ("de", "Du kannst sie nicht wirken und kein Spieler darf antworten.", 2),
    ("fr", "Vous ne pouvez pas la lancer et aucun joueur ne peut répondre.", 2),
    ("fr", "Vous ne pouvez lancer qu'un sort, à moins qu'il ne paie.", 0),
])
def test_negations_are_counted_once_each(lang, text, count):
    assert len(meaning.negations(text, lang)) == count


# ------------------------------------------------------------------ players

EN_DREDGE_A = "Dredge is a static ability that functions only while the card with dredge is in a player's graveyard."

PLAYER = [
    ("de", EN_DREDGE_A, "Ausgraben ist eine statische Fähigkeit, die nur wirkt, während die Karte mit Ausgraben im "
     "Friedhof eines Spielers ist.", None),
    ("de", EN_DREDGE_A, "Ausgraben ist eine statische Fähigkeit, die nur wirkt, während die Karte mit Ausgraben im "
     "Friedhof eines Gegners ist.", "Gegners"),
    ("de", "Return it to its owner's hand.", "Bringe sie auf die Hand ihres Besitzers zurück.", None),
    ("de", "Return it to its owner's hand.", "Bringe sie auf die Hand ihres Beherrschers zurück.", "Beherrschers"),
    ("fr", EN_DREDGE_A, "Le dragage est une capacité statique qui ne fonctionne que lorsque la carte se trouve dans le "
     "cimetière d'un joueur.", None),
    ("fr", EN_DREDGE_A, "Le dragage est une capacité statique qui ne fonctionne que lorsque la carte se trouve dans le "
     "cimetière d'un adversaire.", "adversaire"),
    ("fr", "Its controller loses 2 life.", "Son propriétaire perd 2 points de vie.", "propriétaire"),
    ("fr", "Its controller loses 2 life.", "Son contrôleur perd 2 points de vie.", None),
    ("en", EN_DREDGE_A, None, None),
]


@pytest.mark.parametrize("lang,english,text,word", PLAYER)
def test_player(lang, english, text, word):
    found = issues("meaning.player", lang, text or english, english)
    assert bool(found) is (word is not None)
    if word:
        assert text[slice(*found[0].span)] == word and "whom the English does not name" in found[0].message


# ------------------------------------------------------------------ zones

ZONE = [
    ("fr", EN_EXCEPTIONS, "Lancer une carte avec le pistage fonctionne comme lancer n'importe quelle autre carte, à deux "
     "exceptions près : vous la lancez depuis votre cimetière au lieu de votre main, et vous devez vous défausser "
     "d'une carte de terrain.", None),
    ("fr", EN_EXCEPTIONS, "Lancer une carte avec le pistage fonctionne comme lancer n'importe quelle autre carte, à deux "
     "exceptions près : vous la lancez depuis votre main au lieu de votre cimetière, et vous devez vous défausser "
     "d'une carte de terrain.", "swapped"),
    ("de", EN_EXCEPTIONS, "Das Wirken einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte "
     "mit zwei Ausnahmen: Du wirkst sie aus deinem Friedhof statt aus deiner Hand und wirfst eine Länderkarte ab.", None),
    ("de", EN_EXCEPTIONS, "Das Wirken einer Karte mit Zurückverfolgen funktioniert wie das Wirken jeder anderen Karte "
     "mit zwei Ausnahmen: Du wirkst sie aus deiner Hand statt aus deinem Friedhof und wirfst eine Länderkarte ab.",
     "swapped"),
    ("de", "Reveal the top card of your library. If it's a land card, put it into your hand. Otherwise, you may put it "
     "into your graveyard.", "Decke die oberste Karte deiner Bibliothek auf. Falls es eine Länderkarte ist, nimm sie "
     "auf deine Hand. Andernfalls kannst du sie auf deinen Friedhof legen.", None),
    ("de", "Reveal the top card of your library. If it's a land card, put it into your hand. Otherwise, you may put it "
     "into your graveyard.", "Decke die oberste Karte deiner Bibliothek auf. Falls es eine Länderkarte ist, lege sie "
     "auf deinen Friedhof. Andernfalls kannst du sie auf deinen Friedhof legen.", "changed"),
    ("fr", "Return target creature card from your graveyard to the battlefield.",   # the order differs, the roles not
     "Renvoyez sur le champ de bataille une carte de créature ciblée depuis votre cimetière.", None),
    ("en", EN_EXCEPTIONS, None, None),
]


@pytest.mark.parametrize("lang,english,text,kind", ZONE)
def test_zone(lang, english, text, kind):
    found = issues("meaning.zone", lang, text or english, english)
    assert bool(found) is (kind is not None)
    if kind == "swapped":
        assert "the zones are swapped" in found[0].message
    elif kind == "changed":
        assert "there instead" in found[0].message and "'graveyard'" in found[0].message


def test_a_zone_the_english_never_names_is_terminology_zones_finding():
    english = "Return this card from your graveyard to your hand."
    kb = one_text("de", "Schicke diese Karte aus deinem Friedhof ins Exil.", english)
    assert run("meaning.zone", kb) == []
    assert [i.lang for i in run("terminology.zone", kb)] == ["de"]


# ------------------------------------------------------------------ sentences

SENTENCES = [
    ("de", EN_NOTE, "Wenn eine Karte mit Zurückverfolgen, die du aus deinem Friedhof wirkst, verrechnet oder "
     "neutralisiert wird, wird sie zurück auf deinen Friedhof gelegt. Du kannst sie erneut wirken.", False),
    ("de", EN_NOTE, "Wenn eine Karte mit Zurückverfolgen, die du aus deinem Friedhof wirkst, verrechnet oder "
     "neutralisiert wird, wird sie zurück auf deinen Friedhof gelegt, und du kannst sie erneut wirken.", True),
    ("fr", EN_NOTE, "Quand une carte avec le pistage que vous lancez depuis votre cimetière se résout, elle est remise "
     "dans votre cimetière. Vous pouvez la relancer.", False),
    ("fr", EN_NOTE, "Quand une carte avec le pistage que vous lancez depuis votre cimetière se résout, elle est remise "
     "dans votre cimetière.", True),
    ("fr", "See rule 601.2b, e.g. the costs. Then pay them.",                  # "e.g." ends no sentence
     "Voir la règle 601.2b, p. ex. les coûts. Puis payez-les.", False),
    ("en", EN_NOTE, None, False),
]


@pytest.mark.parametrize("lang,english,text,expected", SENTENCES)
def test_sentences(lang, english, text, expected):
    found = issues("meaning.sentences", lang, text or english, english)
    assert bool(found) is expected
    if expected:
        assert "the English has 2 sentences" in found[0].message and "1" in found[0].message


def test_a_text_far_too_short_is_structure_lengths_finding_once():
    kb = one_text("fr", "Elle est remise dans votre cimetière.", EN_NOTE)
    assert [f.code for f in findings(kb, ("structure.length", "meaning.sentences"))] == ["structure.length"]


@pytest.mark.parametrize("text,count", [
    ("One. Two! Three? „Four.“ Five.", 5),
    ("„Retrace“ means „You may cast this card.“ Casting it follows rules 601.2b and 601.2e–g.", 2),
    ("Vous pouvez la lancer. » Payer le coût est facultatif.", 2),
    ("Flying\nWhen it enters, draw a card.", 2),
    ("Siehe z. B. Regel 601.2b.", 1),
])
def test_sentences_are_split_where_a_sentence_ends(text, count):
    assert len(meaning.sentences(text)) == count


# ------------------------------------------------------------------ as `rulekb check` runs them


def test_the_meaning_checks_compare_with_the_english_a_stale_text_was_made_from():
    """A stale translation is compared with its older English (what changed since is staleness's)."""
    old, new = "Draw two cards.", "Draw three cards."
    kb = kb_of(rule(subrules={"a": {"en": [new, old],
                                    "de": ("Ziehe zwei Karten.", {"translated_from": _hash(old)})}}))
    assert run("meaning.number", kb) == []


def _hash(text):
    from rulekb.models import english_hash
    return english_hash(text)


def test_rulings_are_checked_too():
    kb = kb_of(rulings=(ruling("explore-no-card", {"en": EN_COUNTER, "de": "Falls keine Karte aufgedeckt wird, erhält "
                                                                         "die erkundende Kreatur zwei +1/+1-Marken."}),))
    (issue,) = run("meaning.number", kb)
    assert issue.entry == "explore-no-card" and "ruling explore-no-card" in issue.message


def test_severities_a_change_of_meaning_is_an_error_a_missing_sentence_a_warning():
    from rulekb.check import check
    assert {check(c).severity for c in ("meaning.number", "meaning.bound", "meaning.negation", "meaning.player",
                                        "meaning.zone")} == {Severity.ERROR}
    assert check("meaning.sentences").severity is Severity.WARNING


def test_messages_speak_the_translators_language():
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    kb = one_text("de", "Ziehe drei Karten.", "Draw two cards.")
    (issue,) = run("meaning.number", kb)
    ui = load_ui(ROOT, Language("de", "Deutsch", "German", "de_DE"))
    text = issue.msg.render(ui)
    assert "der Text auf" in text and "eine andere Zahl ändert die Regel" in text


# ------------------------------------------------------------------ may and must

EN_BUYBACK = "„Buyback [cost]“ means „You may pay an additional [cost] as you cast this spell.“"

MODALITY = [
    ("de", EN_BUYBACK, "„Rückkauf [Kosten]“ bedeutet „Du kannst zusätzlich [Kosten] bezahlen, sowie du diesen "
     "Zauberspruch wirkst.“", None),
    ("de", EN_BUYBACK, "„Rückkauf [Kosten]“ bedeutet „Du musst zusätzlich [Kosten] bezahlen, sowie du diesen "
     "Zauberspruch wirkst.“", "musst"),
    ("de", "You may cast it. It doesn't need to have attacked.",               # "muss nicht": need not
     "Du kannst sie wirken. Sie muss nicht angegriffen haben.", None),
    ("de", "This effect reduces only the colored mana you pay.",               # no permission in the English
     "Dieser Effekt reduziert nur das farbige Mana, das du bezahlen musst.", None),
    ("fr", "To play it, you must discard a land card.", "Pour la jouer, vous devez vous défausser d'une carte de terrain.",
     None),
    ("fr", "To play it, you must discard a land card.", "Pour la jouer, vous pouvez vous défausser d'une carte de terrain.",
     "pouvez"),
    ("fr", "You may play it again.", "Vous devez la rejouer.", "devez"),
    ("fr", "If it would die, exile it instead.", "Si elle devait mourir, exilez-la à la place.", None),  # "devait": would
    ("en", EN_BUYBACK, None, None),
]


@pytest.mark.parametrize("lang,english,text,word", MODALITY)
def test_modality(lang, english, text, word):
    found = issues("meaning.modality", lang, text or english, english)
    assert bool(found) is (word is not None)
    if word:
        assert text[slice(*found[0].span)] == word
        assert ("obliges" if word in ("musst", "devez") else "permits") in found[0].message


def test_something_going_to_the_zone_the_english_takes_it_from_is_a_swap():
    english = ("You may instead put N cards from the top of your library into your graveyard and return this card "
               "from your graveyard to your hand.")
    right = ("Du kannst stattdessen N Karten von oben von deiner Bibliothek in deinen Friedhof legen und diese Karte "
             "von deinem Friedhof auf deine Hand zurückbringen.")
    swapped = ("Du kannst stattdessen N Karten von oben von deinem Friedhof in deine Bibliothek legen und diese Karte "
               "von deinem Friedhof auf deine Hand zurückbringen.")
    assert issues("meaning.zone", "de", right, english) == []
    (issue,) = issues("meaning.zone", "de", swapped, english)
    assert "the zones are swapped" in issue.message and swapped[issue.span[0]:].startswith("Bibliothek")
    assert meaning.zone_change("Put it into a graveyard from the battlefield.",
                               "Lege sie aus dem Spiel auf einen Friedhof.", "de",
                               [(12, "graveyard"), (30, "battlefield")], [(30, "graveyard")]) is None
