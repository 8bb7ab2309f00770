"""termnotes: the old terms of a published English text, as notes for the translators of its PO
unit — today's term, where the old word is the old word (not "play that card", not a card's name)."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from conftest import ROOT
from rulekb.cardnames import CardNames
from rulekb.models import Card, Pos
from rulekb.termbase import load_termbase
from rulekb.termnotes import english_notes

NAMES = CardNames.of(Card(name.casefold().replace(" ", "-"), MappingProxyType({"en": name}), (), "", "test",
                          Pos("rules/cards/x.yaml", 1)) for name in ("Play with Fire", "Path to Exile"))


@pytest.mark.parametrize("text,notes", [
    ("Its converted mana cost is 3.", ["today's term: mana value, not converted mana cost"]),
    ("If the active player plays a spell that has retrace, the card goes to the graveyard.",
     ["today's term: cast, not plays"]),
    ("You may play that card this turn.", []),
    ("You still have an available land play this turn.", []),
    ("The players continue playing the game.", []),
    ("Play with Fire deals 2 damage to any target.", []),          # a card's name
    ("If Play with Fire is removed from the game, nothing happens.", ["today's term: exile, not removed from the game"]),
])
def test_notes(text, notes):
    found = english_notes(text, load_termbase(ROOT), NAMES)
    assert [n.split(" (")[0] for n in found] == notes


def test_card_names_of_one_word_are_no_names():
    """"Exile" is a card and a word: a name of one word is left out."""
    names = CardNames.of([Card("exile", MappingProxyType({"en": "Exile"}), (), "", "test", Pos("x", 1))])
    assert names.spans("Exile target creature.", "en") == ()
    assert NAMES.spans("Cast Path to Exile, then Play with Fire.", "en") == ((5, 18), (25, 39))
