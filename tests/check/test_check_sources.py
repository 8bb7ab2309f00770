"""The `sources`, `staleness` and `duplicates` checks measure texts with cydifflib: its numbers
and edits must be difflib's (the similarity percentages and "what changed" in the findings)."""

import difflib

import cydifflib
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(alphabet="ab cdé—'", max_size=60)
WORDS = st.lists(st.sampled_from(["the", "card", "with", "retrace", "a", "player"]), max_size=25)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_ratio_and_bounds_are_difflibs(a, b):
    ours = cydifflib.SequenceMatcher(None, a, b, autojunk=False)
    theirs = difflib.SequenceMatcher(None, a, b, autojunk=False)
    assert (ours.ratio(), ours.quick_ratio(), ours.real_quick_ratio()) == \
        (theirs.ratio(), theirs.quick_ratio(), theirs.real_quick_ratio())


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_word_edits_are_difflibs(a, b):
    assert cydifflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() == \
        difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
