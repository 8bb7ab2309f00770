"""meaningpairs: what a translation says in place of what its English says — pass/fail tables in
German and French for each class (the kind of a cost, "in addition to"/"instead of", before/after,
card types, game actions, a dropped "you control", another keyword's name, a set phrase where the
English does not mean it), on the pure comparisons; a faithful translation of each row draws no
error from any meaning check (tests/check/test_check_meaningchecks.py runs them as `rulekb check` does)."""

from __future__ import annotations

import pytest
from rulekb.check import meaningpairs as mp

# ------------------------------------------------------------------ contrasts

EN_RETRACE = "You may cast this card from your graveyard by discarding a land card as an additional cost to cast it."
EN_ALT = "You may pay an alternative cost rather than pay this spell's mana cost."
EN_INSTEAD = ("You cast the card from your graveyard rather than your hand, and you discard a land card in addition "
              "to paying its other costs.")
EN_ORDER = "You may cast it again after it resolves, before another player can exile it."
EN_SORCERIES = "Retrace appears on some instants and sorceries."
EN_COUNTERED = "When it is countered, it's put into your graveyard."

CONTRAST = [
    # (contrast, lang, english, translation, the side the translation says in place of the English's, or None)
    ("cost", "de", EN_RETRACE, "Du kannst diese Karte aus deinem Friedhof wirken, indem du als zusätzliche Kosten, um sie "
     "zu wirken, eine Landkarte abwirfst.", None),
    ("cost", "de", EN_RETRACE, "Du kannst diese Karte aus deinem Friedhof wirken, indem du als alternative Kosten, um sie "
     "zu wirken, eine Landkarte abwirfst.", "alternative"),
    ("cost", "de", EN_ALT, "Du kannst alternative Kosten bezahlen, statt die Manakosten dieses Zauberspruchs zu bezahlen.",
     None),
    ("cost", "de", EN_ALT, "Du kannst zusätzliche Kosten bezahlen, statt die Manakosten dieses Zauberspruchs zu bezahlen.",
     "additional"),
    ("cost", "fr", EN_RETRACE, "Vous pouvez lancer cette carte depuis votre cimetière en vous défaussant d'une carte de "
     "terrain en tant que coût supplémentaire pour la lancer.", None),
    ("cost", "fr", EN_RETRACE, "Vous pouvez lancer cette carte depuis votre cimetière en vous défaussant d'une carte de "
     "terrain en tant que coût alternatif pour la lancer.", "alternative"),
    ("cost", "fr", EN_ALT, "Vous pouvez payer un coût supplémentaire plutôt que de payer le coût de mana de ce sort.",
     "additional"),
    ("addition", "de", EN_INSTEAD, "Du wirkst die Karte aus deinem Friedhof anstatt aus deiner Hand und wirfst zusätzlich "
     "zu ihren anderen Kosten eine Landkarte ab.", None),
    ("addition", "de", EN_INSTEAD, "Du wirkst die Karte aus deinem Friedhof anstatt aus deiner Hand und wirfst anstelle "
     "ihrer anderen Kosten eine Landkarte ab.", "instead"),
    ("addition", "fr", EN_INSTEAD, "Vous lancez la carte depuis votre cimetière au lieu de votre main, et vous vous "
     "défaussez d'une carte de terrain en plus de payer ses autres coûts.", None),
    ("addition", "fr", EN_INSTEAD, "Vous lancez la carte depuis votre cimetière au lieu de votre main, et vous vous "
     "défaussez d'une carte de terrain au lieu de payer ses autres coûts.", "instead"),
    ("addition", "fr", "Pay {2} instead of its mana cost.", "Payez {2} en plus de son coût de mana.", "in-addition"),
    ("order", "de", EN_ORDER, "Du kannst sie erneut wirken, nachdem sie verrechnet wurde, bevor ein anderer Spieler sie "
     "ins Exil schicken kann.", None),
    ("order", "de", EN_ORDER, "Du kannst sie erneut wirken, bevor sie verrechnet wurde, bevor ein anderer Spieler sie "
     "ins Exil schicken kann.", "before"),
    ("order", "fr", EN_ORDER, "Vous pouvez la lancer à nouveau après sa résolution, avant qu'un autre joueur ne puisse "
     "l'exiler.", None),
    ("order", "fr", EN_ORDER, "Vous pouvez la lancer à nouveau avant sa résolution, avant qu'un autre joueur ne puisse "
     "l'exiler.", "before"),
    ("card-type", "de", "Discard a land card.", "Wirf eine Landkarte ab.", None),
    ("card-type", "de", "Discard a land card.", "Wirf eine Kreaturenkarte ab.", "creature"),
    ("card-type", "de", EN_SORCERIES, "Zurückverfolgen erscheint auf einigen Spontanzaubern und Hexereien.", None),
    ("card-type", "de", EN_SORCERIES, "Zurückverfolgen erscheint auf einigen Spontanzaubern und Kreaturen.", "creature"),
    ("card-type", "de", "Exile target noncreature permanent.",
     "Schicke eine bleibende Nichtkreatur-Karte deiner Wahl ins Exil.", None),
    ("card-type", "de", "Destroy target artifact creature.", "Zerstöre eine Artefaktkreatur deiner Wahl.", None),
    ("card-type", "fr", "Discard a land card.", "Défaussez-vous d'une carte de terrain.", None),
    ("card-type", "fr", "Discard a land card.", "Défaussez-vous d'une carte de créature.", "creature"),
    ("card-type", "fr", EN_SORCERIES, "Le pistage apparaît sur certains éphémères et rituels.", None),
    ("card-type", "fr", EN_SORCERIES, "Le pistage apparaît sur certains éphémères et enchantements.", "enchantment"),
    ("action", "de", EN_COUNTERED, "Wenn sie neutralisiert wird, wird sie in deinen Friedhof gelegt.", None),
    ("action", "de", EN_COUNTERED, "Wenn sie zerstört wird, wird sie in deinen Friedhof gelegt.", "destroy"),
    ("action", "de", "Destroy target creature.", "Opfere eine Kreatur.", "sacrifice"),
    ("action", "fr", EN_COUNTERED, "Quand elle est contrecarrée, elle est mise dans votre cimetière.", None),
    ("action", "fr", EN_COUNTERED, "Quand elle est détruite, elle est mise dans votre cimetière.", "destroy"),
    ("action", "fr", "Sacrifice a creature.", "Exilez une créature.", "exile"),
]


@pytest.mark.parametrize("name,lang,english,text,said", CONTRAST)
def test_contrasts(name, lang, english, text, said):
    contrast = next(c for c in mp.CONTRASTS if c.name == name)
    found = mp.contrasts(english, text, lang, (contrast,))
    assert [s.said.name for s in found] == ([said] if said else [])
    if said:
        (swap,) = found
        m = swap.said.words[lang].match(text, swap.span[0])
        assert m is not None and m.span() == swap.span
        assert swap.expected.name != said and swap.where == (0, len(text))


def test_before_for_after_where_the_english_says_one_of_them_is_meaning_opposites_finding():
    order = next(c for c in mp.CONTRASTS if c.name == "order")
    assert mp.contrasts("You may cast it after it resolves.", "Du kannst ihn wirken, bevor er verrechnet wurde.", "de",
                        (order,)) == ()


def test_the_swapped_word_is_the_one_where_the_english_says_the_other():
    """Before and after both in the English: the translation's 'avant' that stands where the English
    says 'after' is the one pointed at, not the one the English says too."""
    text = "Vous pouvez la lancer à nouveau avant sa résolution, avant qu'un autre joueur ne puisse l'exiler."
    (swap,) = mp.contrasts(EN_ORDER, text, "fr", mp.CONTRASTS)
    assert swap.span == (text.index("avant"), text.index("avant") + 5)


def test_contrasts_are_read_sentence_by_sentence():
    english = "Discard a land card. Then draw a creature card."
    assert mp.contrasts(english, "Wirf eine Kreaturenkarte ab. Ziehe dann eine Landkarte.", "de") != ()
    assert mp.contrasts(english, "Wirf eine Landkarte ab. Ziehe dann eine Kreaturenkarte.", "de") == ()


# ------------------------------------------------------------------ dropped qualifiers

DROPPED = [
    ("de", "Sacrifice a creature you control.", "Opfere eine Kreatur, die du kontrollierst.", None),
    ("de", "Sacrifice a creature you control.", "Opfere eine Kreatur.", "control"),
    ("de", "Return a card you own from exile to your hand.",
     "Bringe eine Karte, die du besitzt, aus dem Exil auf deine Hand zurück.", None),
    ("de", "Return a card you own from exile to your hand.", "Bringe eine Karte aus dem Exil auf deine Hand zurück.",
     "own"),
    ("fr", "Sacrifice a creature you control.", "Sacrifiez une créature que vous contrôlez.", None),
    ("fr", "Sacrifice a creature you control.", "Sacrifiez une créature.", "control"),
    ("fr", "Gain control of target creature.", "Acquérez le contrôle de la créature ciblée.", None),
    ("fr", "Each creature your opponents control gets -1/-1.", "Chaque créature adverse gagne -1/-1.", "control"),
]


@pytest.mark.parametrize("lang,english,text,name", DROPPED)
def test_dropped(lang, english, text, name):
    found = mp.dropped(english, text, lang)
    assert [d.qualifier.name for d in found] == ([name] if name else [])
    if name:
        assert found[0].said in english


# ------------------------------------------------------------------ keywords

KEYWORDS = (mp.Keyword("buyback", {"en": ("Buyback",), "de": ("Rückkauf",), "fr": ("rappel",)}),
            mp.Keyword("retrace", {"en": ("Retrace", "retrace"), "de": ("Zurückverfolgen",), "fr": ("pistage", "Pistage")}))
EN_TIMING = "A retrace card played from your graveyard follows the normal timing rules for its card type."

KEYWORD = [
    ("de", EN_TIMING, "Eine Karte mit Zurückverfolgen, die du aus deinem Friedhof wirkst, folgt den normalen "
     "Zeitpunktregeln ihres Kartentyps.", None),
    ("de", EN_TIMING, "Eine Karte mit Rückkauf, die du aus deinem Friedhof wirkst, folgt den normalen "
     "Zeitpunktregeln ihres Kartentyps.", "Rückkauf"),
    ("de", "Buyback and retrace both let you cast a card again.",
     "Rückkauf und Zurückverfolgen lassen dich beide eine Karte erneut wirken.", None),
    ("fr", EN_TIMING, "Une carte avec le pistage lancée depuis votre cimetière suit les règles normales de moment de "
     "lancement de son type de carte.", None),
    ("fr", EN_TIMING, "Une carte avec le rappel lancée depuis votre cimetière suit les règles normales de moment de "
     "lancement de son type de carte.", "rappel"),
    ("fr", "Retrace appears on some instants and sorceries.", "Le pistage apparaît sur certains éphémères et rituels. ",
     None),
]


@pytest.mark.parametrize("lang,english,text,said", KEYWORD)
def test_keyword_swaps(lang, english, text, said):
    found = mp.keyword_swaps(english, text, lang, KEYWORDS)
    assert [text[slice(*k.span)] for k in found] == ([said] if said else [])
    if said:
        assert (found[0].said.id, found[0].expected.id) == ("buyback", "retrace")


# ------------------------------------------------------------------ set phrases

SET_PHRASE = [
    ("fr", EN_TIMING, "Une carte avec le pistage lancée depuis votre cimetière utilise les règles normales de mise en "
     "jeu de son type de carte.", "mise en jeu"),          # the seeds' French retrace note 2
    ("fr", EN_TIMING, "Une carte avec le pistage lancée depuis votre cimetière suit les règles normales de moment de "
     "lancement de son type de carte.", None),
    ("fr", "This doesn't count as a land play.", "Cela ne compte pas comme une mise en jeu de terrain.", None),
    ("fr", "The Forests put onto the battlefield this way are tapped.",
     "Les forêts mises en jeu de cette manière sont engagées.", None),
    ("de", EN_TIMING, "Eine Karte mit Zurückverfolgen folgt den normalen Zeitpunktregeln ihres Kartentyps.", None),
]


@pytest.mark.parametrize("lang,english,text,phrase", SET_PHRASE)
def test_set_phrase_misuses(lang, english, text, phrase):
    found = mp.set_phrase_misuses(english, text, lang)
    assert [text[slice(*m.span)] for m in found] == ([phrase] if phrase else [])
