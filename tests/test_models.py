"""Tests for rulekb.models: the normalised English that translations' hashes are taken of must
not change (a changed hash would make every translation look stale)."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, strategies as st

from rulekb.models import english_hash, normalise

_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'",
                       "‚": "'", "–": "-", "—": "-", "\u00a0": " ", "\u202f": " "})


def reference(text: str) -> str:
    """The definition as first written: NFC, fold, collapse \\s+ runs, strip."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text).translate(_FOLD)).strip()


def test_every_white_space_character_is_collapsed_as_before():
    spaces = "".join(chr(c) for c in range(0x110000) if re.fullmatch(r"\s", chr(c)))
    assert all(c.isspace() for c in spaces)
    assert not [chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) not in spaces]
    assert normalise(f"a{spaces}b") == reference(f"a{spaces}b") == "a b"


@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from(" \t\n\u00a0\u202f\u2009“”„«»‘’‚–—e\u0301"))))
def test_normalise_is_the_definition(text):
    assert normalise(text) == reference(text)


def test_white_space_and_typography_do_not_change_the_hash():
    assert english_hash("Retrace  appears on some instants and sorceries.") == english_hash(
        "Retrace appears on some instants and sorceries. ")
    assert english_hash("a “quoted” – text") == english_hash('a "quoted" - text')
