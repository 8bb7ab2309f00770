"""phraseology: phrasings official card texts never use where they consistently use another, and
phrasings they no longer print (pass/fail tables in en, de, fr, on the project's mined data,
translations/phraseology.yaml)."""

from __future__ import annotations

import re

import pytest

from qa_kb import one_text, phraseology, run


def issues(code, lang, text):
    return [i for i in run(code, one_text(lang, text)) if i.lang == lang]


UNOFFICIAL = [
    ("de", "Du kannst diese Karte von deinem Friedhof wirken.", "'aus deinem Friedhof'"),
    ("de", "Du kannst diese Karte aus deinem Friedhof wirken.", None),
    ("de", "Lege sie in deinen Friedhof.", "'auf deinen Friedhof'"),
    ("de", "Lege sie auf deinen Friedhof.", None),
    ("de", "Nimm die Karte in deine Hand.", "'auf deine Hand'"),
    ("de", "Nimm die Karte auf deine Hand.", None),
    ("de", "Solange die Karte in deinem Friedhof ist, …", None),           # where it is: "in" is right
    ("de", "Er lässt die Karte oben auf seiner Bibliothek.", None),         # where it stays, not whence
    ("de", "Du kannst den Zauberspruch mit deinem Friedhof bezahlen.", None),  # "mit": no rival preposition
    ("de", "Er muss seine Manakosten bezahlen.", None),
    ("de", "Er legt sie in seinen Friedhof.", "'auf seinen Friedhof'"),
    ("de", "Er legt sie oben auf seine Bibliothek.", None),              # on top, not beneath ("unter"): both right
    ("de", "Jeder Spieler mischt vor dem Spiel seine Bibliothek.", None),  # "vor" means before: no zone phrase
    ("de", "Bringe sie aus deiner Hand ins Spiel.", None),
    ("de", "Jede Kreatur, welche du kontrollierst, erhält +1/+1.", "'die du kontrollierst'"),
    ("de", "Jede Kreatur, die du kontrollierst, erhält +1/+1.", None),
    ("de", "Jeder Spielstein, den du kontrollierst, erhält +1/+1.", None),
    ("fr", "Elle reste au cimetière.", "'dans le cimetière'"),
    ("fr", "Elle reste dans le cimetière.", None),
    ("fr", "Mettez-la à votre main.", "'dans votre main'"),
    ("fr", "Mettez-la dans votre main.", None),
    ("fr", "Vous pouvez la lancer depuis votre cimetière.", None),
    ("fr", "Exilez une carte de votre cimetière.", None),                   # "de" and "depuis": both official
    ("fr", "Les créatures du champ de bataille gagnent +1/+1.", None),     # "de" is also the genitive: never judged
    ("fr", "Mettez-la au-dessus de sa bibliothèque.", None),             # on top of: a meaning of its own
    ("fr", "Vous pouvez lancer des sorts depuis votre bibliothèque.", None),  # printed in recent cards: official
    ("fr", "Mettez-la dans la pile.", "'sur la pile'"),
    ("fr", "Exilez-la dans l'exil.", "'vers l'exil'"),
    ("fr", "Elle arrive dans le champ de bataille.", "'sur le champ de bataille'"),
    ("fr", "Les créatures dont vous contrôlez gagnent +1/+1.", "'que vous contrôlez'"),
    ("fr", "Les créatures que vous contrôlez gagnent +1/+1.", None),
    ("fr", "Détruisez le sort ciblé.", "'lancez un sort'"),
    ("fr", "Vous pouvez lancer ce sort.", None),
    ("de", "Du kannst diesen Zauberspruch aktivieren.", "'Zauberspruch wirkst'"),
    ("de", "Du kannst diesen Zauberspruch wirken.", None),
    ("en", "You may cast this card from your graveyard.", None),            # no official translation to learn from
]


@pytest.mark.parametrize("lang,text,official", UNOFFICIAL)
def test_unofficial(lang, text, official):
    found = issues("phraseology.unofficial", lang, text)
    assert bool(found) is (official is not None)
    if official:
        assert official in found[0].message and "official" in found[0].message
        assert re.search(r"\([\d,]+×\)", found[0].message)       # how often official cards write it (1,479×)
        assert "translations/phraseology.yaml line " in found[0].suggestion
        # a preposition of the same meaning is the fix; a verb depends on the meaning: no fix prescribed
        zone = any(z in official for z in ("Friedhof", "Hand", "Bibliothek", "cimetière", "main", "pile", "bibliothèque", "exil",
                                           "champ de bataille",
                                           "du kontrollierst", "vous contrôlez"))
        assert (official in found[0].suggestion) is zone


def test_the_message_quotes_the_official_count_from_the_data():
    data = phraseology()
    usual = data.frame("de", "zone", "deinem friedhof").variant("aus")
    old = data.frame("de", "zone", "deinem friedhof").variant("von")
    [issue] = issues("phraseology.unofficial", "de", "Du kannst diese Karte von deinem Friedhof wirken.")
    assert f"official cards in German write 'aus deinem Friedhof' ({usual.texts:,}×)" in issue.message
    expected = f"only {old.texts:,}× (last printed {old.last[:4]})" if old else "never 'von deinem Friedhof'"
    assert expected in issue.message


RETIRED = [
    ("fr", "Quand cette créature arrive en jeu, piochez une carte.", "'en jeu'"),
    ("fr", "Quand cette créature arrive sur le champ de bataille, piochez une carte.", None),
    ("fr", "Vous pouvez jouer ce sort.", "'lancez un sort'"),
    ("de", "Wenn ein Spieler einen Zauberspruch spielt, …", "'Zauberspruch wirkst'"),
    ("de", "Wenn ein Spieler einen Zauberspruch wirkt, …", None),
    ("de", "Wenn die Kreatur ins Spiel kommt, …", None),                   # German cards still say "ins Spiel"
    ("fr", "Le terrain que vous jouez arrive sur le champ de bataille.", None),  # "jouer" stays for lands
    # "une mise en jeu (de terrain)" is today's French for a land play, not the retired "en jeu" (in play)
    ("fr", "Cela ne compte pas comme une mise en jeu de terrain.", None),
    ("fr", "Le sort suit les règles normales de mise en jeu de son type de carte.", None),
    ("fr", "Les forêts mises en jeu de cette manière arrivent engagées.", "'en jeu'"),
    ("de", "Das zählt nicht als das Spielen eines Landes.", None),
    ("de", "Jede Kreatur, die du beherrschst, erhält +1/+1.", None),        # retired verb, not pronoun: the termbase's
    ("en", "When this creature comes into play, draw a card.", None),
]


@pytest.mark.parametrize("lang,text,official", RETIRED)
def test_retired(lang, text, official):
    found = issues("phraseology.retired", lang, text)
    assert bool(found) is (official is not None)
    if official:
        assert official in found[0].message + found[0].suggestion
        # "only 0 of them" reads as a slip: none
        assert re.search(r"in [\d,]+ texts, (?:only [1-9]\d* of them|none of them) printed since \d{4}", found[0].message)


def test_a_retired_phrase_reads_in_french_with_french_quotes_and_numbers():
    """The French report quotes the official forms « … » with their counts, and says "aucun" where
    no card printed the old phrase recently (issue 28.6)."""
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    found = issues("phraseology.retired", "fr", "Vous pouvez jouer ce sort.")[0]
    assert "none of them printed since" in found.message
    text = found.msg.render(load_ui(ROOT, Language("fr", "fr", "fr", "fr_FR")))
    assert "dont aucun n’a été imprimé depuis" in text and "'" not in text.replace("l’", ""), text
    assert re.search(r"elles écrivent «\u00a0lancez un sort\u00a0» \(\d+×\)", text), text


def test_one_finding_per_phrase_and_text_with_how_often():
    found = issues("phraseology.unofficial", "de", "Lege sie in deinen Friedhof, dann die andere in deinen Friedhof.")
    assert len(found) == 1 and "(2 times)" in found[0].message
    # the finding carries both occurrences, so a finding of another check on the second merges into it
    assert found[0].spans == ((9, 27), (45, 63)) and found[0].span == (9, 27)


def test_a_project_without_phraseology_data_has_no_findings():
    from rulekb.check import Data, Text, check
    from rulekb.models import UnitKind
    from rulekb.phraseology import Phraseology
    from qa_kb import termbase
    data = Data(termbase(), Phraseology((), ()), ("en", "de", "fr"))
    t = Text("x.a", "1.1a", UnitKind.SUBRULE, "de", "Lege sie in deinen Friedhof.", "x", "x")
    assert list(check("phraseology.unofficial").run(t, data)) == []


RETRACE_EN = ('"Retrace" means "You may cast this card from your graveyard by discarding a land card in addition to '
              'paying its other costs."')
REMINDER = [
    ("de", "„Zurückverfolgen“ bedeutet „Du kannst diese Karte aus deinem Friedhof wirken, indem du zusätzlich zu ihren "
           "anderen Kosten eine Länderkarte abwirfst.“", None),
    ("de", "„Zurückverfolgen“ bedeutet „Du kannst diese Karte von deinem Friedhof wirken, indem du als zusätzliche Kosten, "
           "um sie zu wirken, eine Landkarte abwirfst.“", "this text words it otherwise"),
    ("de", "„Zurückverfolgen“ bedeutet „Du kannst diese Karte aus deinem Friedhof spielen, indem du zusätzlich zu ihren "
           "anderen Kosten eine Länderkarte aus deiner Hand abwirfst.“", "the wording of older cards"),
    ("fr", "« Pistage » signifie « Vous pouvez lancer cette carte depuis votre cimetière en vous défaussant d'une carte de "
           "terrain en plus de payer ses autres coûts. »", None),
    ("fr", "« Pistage » signifie « Vous pouvez lancer cette carte depuis votre cimetière en défaussant une carte de "
           "terrain en plus de payer ses autres coûts. »", "this text words it otherwise"),
]


@pytest.mark.parametrize("lang,text,why", REMINDER)
def test_reminder(lang, text, why):
    found = [i for i in run("phraseology.reminder", one_text(lang, text, RETRACE_EN)) if i.lang == lang]
    assert bool(found) is (why is not None)
    if why:
        official = {"de": "'Du kannst diese Karte aus deinem Friedhof wirken, indem du zusätzlich",
                    "fr": "'Vous pouvez lancer cette carte depuis votre cimetière en vous défaussant"}[lang]
        assert official in found[0].message and why in found[0].message
        assert re.search(r"\(\d+×, last printed \d{4}\)", found[0].message)


def test_no_reminder_finding_where_the_english_quotes_no_reminder():
    text = "„Zurückverfolgen“ bedeutet „Du kannst diese Karte von deinem Friedhof spielen.“"
    assert run("phraseology.reminder", one_text("de", text, '"Retrace" means "You may play this card from your graveyard."')) == []
