"""Tests for rulekb.models: numbers and quotes in messages as the reader writes them; the normalised English that translations' hashes are taken of must
not change (a changed hash would make every translation look stale)."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, strategies as st

import pytest

from rulekb.models import M_, Number, Percent, Quoted, QuotedEach, english_hash, normalise

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


def _reader(lang):
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    return None if lang == "en" else load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))


@pytest.mark.parametrize("value, lang, written", [
    (Number(2.1, 1), "en", "2.1"), (Number(2.1, 1), "de", "2,1"), (Number(2.1, 1), "fr", "2,1"),
    (Number(1234), "en", "1,234"), (Number(1234), "de", "1.234"), (Number(1234), "fr", "1\u202f234"),
    (Percent(0.854), "en", "85%"), (Percent(0.854), "de", "85\u00a0%"), (Percent(0.854), "fr", "85\u00a0%"),
    (Quoted("cast"), "en", "'cast'"), (Quoted("cast"), "de", "„cast“"), (Quoted("cast"), "fr", "«\u00a0cast\u00a0»"),
    (QuotedEach(("hand", "library")), "de", "„hand“, „library“"),
    (QuotedEach(("lancez un sort", "lancer ce sort"), (1234, 436)), "fr",
     "«\u00a0lancez un sort\u00a0» (1\u202f234×), «\u00a0lancer ce sort\u00a0» (436×)"),
    (QuotedEach(("a", "b"), (1234, 2)), "en", "'a' (1,234×), 'b' (2×)"),
])
def test_numbers_and_quotes_in_a_message_are_written_as_the_reader_writes_them(value, lang, written):
    """A French report says "2,1 fois", a German one "1.234 Zeichen"; words are quoted „…“ / « … »."""
    assert M_("{x}", x=value).render(_reader(lang)) == written
