"""Word-level diff of two text versions (worddiff.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekb.worddiff import changed_words, format_diff, new_text, old_text, word_diff


@pytest.mark.parametrize("old, new, shown", [
    ("functions while the card is in a graveyard", "functions while the card with retrace is in a graveyard",
     "functions while the card{+ with retrace+} is in a graveyard"),
    ("fewer cards in his or her library", "fewer cards in their library", "fewer cards in [-his or her-]{+their+} library"),
    ("rules 601.2b and 601.2e-g.", "rules 601.2b and 601.2f–h.", "rules 601.2b and [-601.2e-g-]{+601.2f–h+}."),
    ("a player's graveyard", "a player’s graveyard", "a [-player's-]{+player’s+} graveyard"),
    ("same text", "same text", "same text"),
    ("", "new text", "{+new text+}"),
    ("old text", "", "[-old text-]"),
    ("Dredge N means put N cards from the top of your library into your graveyard and return",
     "Dredge N means mill N cards and return",
     "Dredge N means [-put-]{+mill+} N cards[- from the top of your library into your graveyard-] and return"),
])
def test_word_diff_reads_like_the_change(old, new, shown):
    ops = word_diff(old, new)
    assert format_diff(ops) == shown
    assert old_text(ops) == old and new_text(ops) == new


def test_operations_are_grouped_and_count_words():
    ops = word_diff("a b c d e", "a x y d e")
    assert [op for op, _ in ops] == ["equal", "delete", "insert", "equal"]
    assert changed_words(ops) == 4


@given(st.text(alphabet=st.sampled_from(list("ab c,.’'-–\n601é")), max_size=40),
       st.text(alphabet=st.sampled_from(list("ab c,.’'-–\n601é")), max_size=40))
def test_the_diff_gives_back_both_texts(old, new):
    ops = word_diff(old, new)
    assert old_text(ops) == old and new_text(ops) == new
    assert all(text for _, text in ops)
    assert all(a[0] != b[0] for a, b in zip(ops, ops[1:]) if "equal" in (a[0], b[0]))
