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


EN_QUOTED = "Retrace is an ability. “Retrace” means “You may cast this card.” Casting it follows the rules."


def _fr(inner: str, outside: bool = False) -> str:
    """The French of EN_QUOTED with « » spaced by `inner`, the full stop inside or outside."""
    quote = (f"«{inner}Vous pouvez lancer cette carte{inner}»." if outside
             else f"«{inner}Vous pouvez lancer cette carte.{inner}»")
    return f"Le pistage est une capacité. «{inner}Pistage{inner}» signifie {quote} Lancer ce sort suit les règles."


QUOTED = [
    # (lang, translation of EN_QUOTED): as many sentences, however the language prints its quotes
    ("fr", _fr(" ")),
    ("fr", _fr("\u00a0")),                 # the typography check's own fix
    ("fr", _fr("\u202f")),
    ("fr", _fr(" ", outside=True)),
    ("fr", _fr("\u00a0", outside=True)),
    ("fr", _fr("\u202f", outside=True)),
    ("de", "Zurückverfolgen ist eine Fähigkeit. »Zurückverfolgen« bedeutet: »Du kannst diese Karte wirken.« Das Wirken "
           "folgt den Regeln."),
    ("de", "Zurückverfolgen ist eine Fähigkeit. »Zurückverfolgen« bedeutet: »Du kannst diese Karte wirken«. Das Wirken "
           "folgt den Regeln."),
    ("de", "Zurückverfolgen ist eine Fähigkeit. „Zurückverfolgen“ bedeutet: „Du kannst diese Karte wirken.“ Das Wirken "
           "folgt den Regeln."),
]


@pytest.mark.parametrize("lang,text", QUOTED)
def test_quotes_as_french_and_german_print_them_end_sentences_as_english_quotes_do(lang, text):
    assert len(meaning.sentences(text)) == len(meaning.sentences(EN_QUOTED)) == 3
    assert issues("meaning.sentences", lang, text, EN_QUOTED) == []


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


# ------------------------------------------------------------------ "unless": "falls … nicht" is one negation more

EN_UNLESS = ("You can't use dredge unless you're going to draw a card and the card with dredge is already in your "
             "graveyard.")

UNLESS = [
    ("de", EN_UNLESS, "Du kannst Ausgraben nicht verwenden, falls du nicht gerade eine Karte ziehen würdest und die "
     "Karte mit der Fähigkeit sich bereits in deinem Friedhof befindet.", None),
    ("de", EN_UNLESS, "Du kannst Ausgraben verwenden, falls du nicht gerade eine Karte ziehen würdest und die Karte mit "
     "der Fähigkeit sich bereits in deinem Friedhof befindet.", "lost"),                # one of the two "nicht" lost
    ("de", EN_UNLESS, "Du kannst Ausgraben nicht verwenden, falls du gerade eine Karte ziehen würdest.", "lost"),
    ("de", EN_UNLESS, "Du kannst Ausgraben nicht verwenden, es sei denn, du würdest gerade eine Karte ziehen.", None),
    ("fr", EN_UNLESS, "Vous ne pouvez pas utiliser le dragage à moins que vous ne soyez sur le point de piocher une "
     "carte.", None),                                                                 # "à moins que … ne": no negation
    ("fr", EN_UNLESS, "Vous ne pouvez pas utiliser le dragage si vous n'êtes pas sur le point de piocher une carte.", None),
    ("fr", EN_UNLESS, "Vous pouvez utiliser le dragage si vous n'êtes pas sur le point de piocher une carte.", "lost"),
    ("fr", "Counter target spell unless its controller pays {3}.",
     "Contrecarrez le sort ciblé si son contrôleur paie {3}.", "lost"),
    ("en", EN_UNLESS, None, None),
]


@pytest.mark.parametrize("lang,english,text,kind", UNLESS)
def test_unless_said_with_a_negation_counts_it(lang, english, text, kind):
    found = issues("meaning.negation", lang, text or english, english)
    assert bool(found) is (kind is not None)
    if kind:
        assert "does not negate it there" in found[0].message


def test_a_reminder_text_the_translation_leaves_out_is_not_read_for_its_negations():
    """The printed German card leaves out the reminder text: its negation is not lost (a missing
    parenthesis is structure.parentheses' finding)."""
    english = ("Ward {2} (Whenever this creature becomes the target of a spell or ability an opponent controls, counter "
               "it unless that player pays {2}.)")
    assert issues("meaning.negation", "de", "Abwehr {2}", english) == []


# ------------------------------------------------------------------ qualifiers

QUALIFIER = [
    # (lang, english, translation, (kind, qualifier) or None)
    ("de", "Target creature gets +2/+2 until end of turn.", "Eine Kreatur deiner Wahl erhält +2/+2 bis zum Ende des Zuges.", None),
    ("de", "Target creature gets +2/+2 until end of turn.", "Eine Kreatur deiner Wahl erhält +2/+2.", ("lost", "turn")),
    ("de", "Target creature gets +2/+2.", "Eine Kreatur deiner Wahl erhält +2/+2 bis zum Ende des Zuges.", ("added", "turn")),
    ("de", "Take an extra turn after this one.", "Du erhältst nach diesem Zug einen zusätzlichen Zug.", None),
    ("fr", "Target creature gets +2/+2 until end of turn.", "La créature ciblée gagne +2/+2 jusqu'à la fin du tour.", None),
    ("fr", "Target creature gets +2/+2 until end of turn.", "La créature ciblée gagne +2/+2.", ("lost", "turn")),
    ("fr", "Until end of turn, you may play that card.", "Jusqu'à fin du tour, vous pouvez jouer cette carte.", None),
    ("de", "You may instead put N cards into your graveyard.", "Du kannst stattdessen N Karten auf deinen Friedhof legen.", None),
    ("de", "You may instead put N cards into your graveyard.", "Du kannst N Karten auf deinen Friedhof legen.", ("lost", "instead")),
    ("fr", "Put it into your hand instead of into your graveyard.", "Mettez-la dans votre main au lieu de votre cimetière.", None),
    ("fr", "Put it into your hand instead.", "Mettez-la dans votre main.", ("lost", "instead")),
    ("de", "Exile another target creature.", "Schicke eine andere Kreatur deiner Wahl ins Exil.", None),
    ("de", "Exile another target creature.", "Schicke eine Kreatur deiner Wahl ins Exil.", ("lost", "another")),
    ("de", "Then those creatures fight each other.", "Dann kämpfen die Kreaturen gegeneinander.", None),
    ("fr", "Exile another target creature.", "Exilez une autre créature ciblée.", None),
    ("fr", "Exile another target creature.", "Exilez une créature ciblée.", ("lost", "another")),
    ("de", "Destroy target creature.", "Zerstöre eine Kreatur deiner Wahl.", None),
    ("de", "Destroy target creature.", "Zerstöre jede Kreatur.", ("lost", "target")),
    ("fr", "Destroy each creature.", "Détruisez la créature ciblée.", ("added", "target")),
    ("de", "Whenever one or more creatures attack, draw a card.",
     "Immer wenn eine oder mehrere Kreaturen angreifen, ziehe eine Karte.", None),
    ("de", "Whenever one or more creatures attack, draw a card.",
     "Immer wenn eine Kreatur angreift, ziehe eine Karte.", ("lost", "one-or-more")),
    ("fr", "Whenever one or more creatures attack, draw a card.",
     "À chaque fois qu'au moins une créature attaque, piochez une carte.", None),
    ("de", "Only cards from the Golgari guild have dredge.", "Nur Karten der Golgari-Gilde haben Ausgraben.", None),
    ("de", "Only cards from the Golgari guild have dredge.", "Alle Karten der Golgari-Gilde haben Ausgraben.", ("lost", "only")),
    ("de", "Activate only as a sorcery.", "Aktiviere diese Fähigkeit wie eine Hexerei.", None),   # official German
    ("fr", "Only cards from the Golgari guild have dredge.", "Seules les cartes de la guilde Golgari ont le dragage.", None),
    ("fr", "Activate only once each turn.", "N'activez cette capacité qu'une fois par tour.", None),   # ne … que
    ("fr", "Activate only once each turn.", "Activez cette capacité une fois par tour.", ("lost", "only")),
    ("de", EN_DRAW, "Ausgraben lässt dich jede Gelegenheit zum Kartenziehen ersetzen, nicht nur die während deines "
     "Ziehsegments.", None),
    ("de", EN_DRAW, "Ausgraben lässt dich jede Gelegenheit zum Kartenziehen ersetzen, nur die während deines "
     "Ziehsegments.", ("added", "only")),                                           # "not just" -> "just"
    ("fr", "Dredge lets you replace any card draw, not only the one during your draw step.",
     "Le dragage vous permet de remplacer n'importe quelle pioche, seulement celle de votre étape de pioche.",
     ("added", "only")),
    ("de", "Each opponent loses 2 life.", "Jeder Gegner verliert 2 Lebenspunkte.", None),
    ("de", "Each opponent loses 2 life.", "Jeder Spieler verliert 2 Lebenspunkte.", ("lost", "opponent")),
    ("fr", "Each opponent loses 2 life.", "Chaque joueur perd 2 points de vie.", ("lost", "opponent")),
    ("en", "Target creature gets +2/+2 until end of turn.", None, None),
]


@pytest.mark.parametrize("lang,english,text,expected", QUALIFIER)
def test_qualifier(lang, english, text, expected):
    found = issues("meaning.qualifier", lang, text or english, english)
    changes = meaning.qualifier_changes(english, text or english, lang)
    assert [(kind, q.name) for kind, q, _c in changes] == ([expected] if expected else [])
    assert len(found) == len(changes)
    if expected and expected[0] == "lost":
        assert "says nothing of it" in found[0].message and found[0].span is None
    elif expected:
        assert "which the English sentence does not say" in found[0].message
        assert found[0].span and text[slice(*found[0].span)] == changes[0][2].said


# ------------------------------------------------------------------ opposites

OPPOSITE = [
    # (lang, english, translation, the word the finding points at, or None)
    ("de", "Untap target creature.", "Enttappe eine Kreatur deiner Wahl.", None),
    ("de", "Untap target creature.", "Tappe eine Kreatur deiner Wahl.", "Tappe"),
    ("de", "It enters the battlefield tapped.", "Sie kommt ungetappt ins Spiel.", "ungetappt"),
    ("fr", "Untap target creature.", "Dégagez la créature ciblée.", None),
    ("fr", "Untap target creature.", "Engagez la créature ciblée.", "Engagez"),
    ("de", "Put that card on the bottom of your library.", "Lege die Karte unter deine Bibliothek.", None),
    ("de", "Put that card on top of your library.", "Lege die Karte unter deine Bibliothek.", "unter deine Bibliothek"),
    ("de", "Look at the top card of your library.", "Schau dir die unterste Karte deiner Bibliothek an.", "unterste"),
    ("fr", "Put that card on top of your library.", "Mettez cette carte au-dessus de votre bibliothèque.", None),
    ("fr", "Put that card on top of your library.", "Mettez cette carte au-dessous de votre bibliothèque.", "au-dessous"),
    ("de", "Target attacking creature gets +1/+1.", "Eine blockende Kreatur deiner Wahl erhält +1/+1.", "blockende"),
    ("fr", "Target blocking creature gets +1/+1.", "La créature attaquante ciblée gagne +1/+1.", "attaquante"),
    ("de", "You gain 3 life.", "Du erhältst 3 Lebenspunkte dazu.", None),
    ("de", "You gain 3 life.", "Du verlierst 3 Lebenspunkte.", "verlierst"),
    ("fr", "Each opponent loses 3 life.", "Chaque adversaire gagne 3 points de vie.", "gagne"),
    ("de", "At the beginning of your upkeep, draw a card.", "Zu Beginn deines Versorgungssegments ziehe eine Karte.", None),
    ("de", "At the beginning of combat, draw a card.", "Am Ende des Kampfes ziehe eine Karte.", "Ende"),
    ("fr", "At the beginning of the end step, draw a card.", "Au début de l'étape de fin, piochez une carte.", None),
    ("de", "Do this before you draw.", "Tu dies, bevor du ziehst.", None),
    ("de", "Do this before you draw.", "Tu dies, nachdem du gezogen hast.", "nachdem"),
    ("fr", "Do this after you draw.", "Faites cela avant de piocher.", "avant"),
    ("de", "Its power is equal to X.", "Ihre Widerstandskraft ist gleich X.", "Widerstandskraft"),
    ("fr", "Its toughness is equal to X.", "Son endurance est égale à X.", None),
    ("de", "Creatures with power 2 or less can't block it.", "Kreaturen mit Stärke 2 oder weniger können sie nicht blocken.", None),
    ("de", "A player with fewer cards than that can't do it.", "Ein Spieler mit mehr Karten als das kann es nicht tun.", "mehr"),
    ("fr", "It enters tapped unless you control two or more lands.",
     "Il arrive engagé à moins que vous ne contrôliez au moins deux terrains.", None),   # "à moins que": unless
    ("fr", "A player with fewer cards than that can't do it.", "Un joueur avec plus de cartes que cela ne peut pas le faire.", "plus de"),
    ("de", "When it leaves the battlefield, draw a card.", "Wenn sie ins Spiel kommt, ziehe eine Karte.", "kommt"),
    ("fr", "When it enters the battlefield, draw a card.", "Quand il quitte le champ de bataille, piochez une carte.", "quitte"),
    ("de", "Draw a card.", "Wirf eine Karte ab.", "Wirf"),
    ("fr", "Discard a card.", "Piochez une carte.", "Piochez"),
    ("en", "Untap target creature.", None, None),
]


@pytest.mark.parametrize("lang,english,text,word", OPPOSITE)
def test_opposite(lang, english, text, word):
    found = issues("meaning.opposite", lang, text or english, english)
    assert bool(found) is (word is not None)
    if word:
        assert "the opposite" in found[0].message and text[slice(*found[0].span)] == word


def test_qualifiers_and_opposites_are_errors_and_speak_the_translators_language():
    from rulekb.check import check
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    assert check("meaning.qualifier").severity is check("meaning.opposite").severity is Severity.ERROR
    ui = load_ui(ROOT_DIR(), Language("fr", "Français", "French", "fr_FR"))
    (issue,) = run("meaning.opposite", one_text("fr", "Engagez la créature ciblée.", "Untap target creature."))
    text = issue.msg.render(ui)
    assert "le contraire" in text and "dégagé" in text and "engagé" in text
    (issue,) = run("meaning.qualifier", one_text("fr", "La créature ciblée gagne +2/+2.",
                                                 "Target creature gets +2/+2 until end of turn."))
    assert "n’en dit rien" in issue.msg.render(ui)


def ROOT_DIR():
    from conftest import ROOT
    return ROOT


# ------------------------------------------------------------------ texts beside the canonical one

def test_a_second_translation_is_compared_with_the_english_too():
    """A unit's second German text (published beside the canonical one) is read as the canonical
    is: its defect is reported at its own line, named as the variant it is, and the fix keeps it."""
    english = "Untap target creature. It gains haste until end of turn."
    kb = kb_of(rule(subrules={"a": {"en": english,
                                    "de": ["Enttappe eine Kreatur deiner Wahl. Sie erhält Eile bis zum Ende des Zuges.",
                                           ("Tappe eine Kreatur deiner Wahl. Sie erhält Eile bis zum Ende des Zuges.",
                                            {"source": "other"})]}}))
    found = findings(kb, ("meaning.opposite",))
    (f,) = found
    assert f.line == kb.rules[0].subrules[0].unit.variants["de"][1].pos.line
    assert "(variant 2, source other)" in f.message and f.span is None
    assert "not the canonical one and stays as it is" in f.suggestion


def test_a_second_translation_that_says_what_the_canonical_says_is_read_once():
    english = "Untap target creature."
    same = "Tappe eine Kreatur deiner Wahl."
    kb = kb_of(rule(subrules={"a": {"en": english, "de": [same, (same, {"source": "other"})]}}))
    assert len(run("meaning.opposite", kb)) == 1


def test_a_second_translation_without_any_negation_is_this_checks_finding():
    """structure.negation reads canonical texts only: a second text that lost its only negation is
    meaning.negation's finding, also when both checks run."""
    english = "If you reveal a nonland card this way, you won't put a +1/+1 counter on anything."
    kb = kb_of(rule(subrules={"a": {"en": english, "de": [
        "Falls du auf diese Weise eine Nichtlandkarte aufdeckst, legst du auf nichts eine +1/+1-Marke.",
        ("Falls du auf diese Weise eine Nichtlandkarte aufdeckst, legst du auf alles eine +1/+1-Marke.",
         {"source": "other"})]}}))
    found = findings(kb, ("meaning.negation", "structure.negation"))
    assert [(f.code, "(variant 2, source other)" in f.message) for f in found] == [("meaning.negation", True)]


# ------------------------------------------------------------------ first and last, colours

FIRST_LAST = [
    ("de", "Reveal the first card you draw each turn.", "Decke die erste Karte auf, die du in jedem Zug ziehst.", None),
    ("de", "Reveal the first card you draw each turn.", "Decke die letzte Karte auf, die du in jedem Zug ziehst.", "letzte"),
    ("fr", "When the last time counter is removed, cast it.", "Quand le dernier marqueur « temps » est retiré, lancez-la.", None),
    ("fr", "When the last time counter is removed, cast it.", "Quand le premier marqueur « temps » est retiré, lancez-la.", "premier"),
]


@pytest.mark.parametrize("lang,english,text,word", FIRST_LAST)
def test_first_and_last_are_opposites(lang, english, text, word):
    found = issues("meaning.opposite", lang, text, english)
    assert [text[slice(*i.span)] for i in found] == ([word] if word else [])


COLOUR = [
    # (lang, english, translation, the colour word the finding points at, or None)
    ("de", "Create a 1/1 white Soldier creature token.", "Erzeuge einen 1/1 weißen Soldat-Kreaturenspielstein.", None),
    ("de", "Create a 1/1 white Soldier creature token.", "Erzeuge einen 1/1 schwarzen Soldat-Kreaturenspielstein.", "schwarzen"),
    ("de", "Only cards from the Golgari guild (black, green, or black-green) have dredge.",
     "Nur Karten der Golgari-Gilde (schwarz, grün oder schwarz-grün) haben Ausgraben.", None),
    ("de", "Only cards from the Golgari guild (black, green, or black-green) have dredge.",
     "Nur Karten der Golgari-Gilde (weiß, grün oder weiß-grün) haben Ausgraben.", "weiß"),
    ("de", "Add one mana of any color.", "Erzeuge ein Mana einer beliebigen Farbe.", None),      # no colour named
    ("fr", "Create a 1/1 white Soldier creature token.", "Créez un jeton de créature 1/1 blanche Soldat.", None),
    ("fr", "Destroy target red creature.", "Détruisez la créature verte ciblée.", "verte"),
    ("en", "Destroy target red creature.", None, None),
]


@pytest.mark.parametrize("lang,english,text,word", COLOUR)
def test_colour(lang, english, text, word):
    found = issues("meaning.colour", lang, text or english, english)
    assert [(text or english)[slice(*i.span)] for i in found] == ([word] if word else [])
    if word:
        assert "names the colour" in found[0].message
