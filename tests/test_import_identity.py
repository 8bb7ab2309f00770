"""Rule identity across releases (importers/identity.py): tables of what must and must not match."""

from __future__ import annotations

import pytest

from rulekb.importers.identity import (Incoming, Known, match_glossary, match_moves, match_rules, match_subrules, similarity,
                                       words)

RETRACE_A = ("Retrace appears on some instants and sorceries. It represents a static ability that functions while "
             "the card with retrace is in a player's graveyard.")
SIDEBOARD = "Each player may also have a sideboard, which is a group of additional cards the player may use."
DECK_SIZE = "There is no maximum deck size."
COINS = "Some cards require coins or traditional dice."


def known(*rows):
    return [Known(rid, number, title, text, subs, i) for i, (rid, number, title, text, subs) in enumerate(rows)]


def incoming(*rows):
    return [Incoming(number, title, text, subs, i) for i, (number, title, text, subs) in enumerate(rows)]


def test_keyword_rules_follow_their_title_across_renumbering():
    old = known(("conspire", "702.75", "Conspire", "", ("Conspire is a keyword.",)),
                ("retrace", "702.78", "Retrace", "", (RETRACE_A,)))
    new = incoming(("702.78", "Conspire", "", ("Conspire is a keyword that represents two abilities.",)),
                   ("702.81", "Retrace", "", ("Retrace is a static ability.",)))
    assert match_rules(old, new) == ["conspire", "retrace"]


def test_a_title_match_prefers_the_nearest_number():
    old = known(("vote-a", "701.30", "Vote", "", ()), ("vote-b", "905.3", "Vote", "", ()))
    assert match_rules(old, incoming(("701.38", "Vote", "", ()))) == ["vote-a"]


def test_sections_match_sections_only():
    old = known(("casting-spells", "601.2", "Casting Spells", "To cast a spell is to take it.", ()),
                ("section-casting", "601", "Casting Spells", "", ()))
    assert match_rules(old, incoming(("601", "Casting Spells", "", ()))) == ["section-casting"]


def test_inserted_and_renumbered_rules_by_text():
    old = known(("sideboard", "100.3", None, SIDEBOARD, ()), ("deck-size", "100.4", None, DECK_SIZE, ()))
    new = incoming(("100.3", None, COINS, ()), ("100.4", None, SIDEBOARD + " Rules may vary.", ()),
                   ("100.5", None, DECK_SIZE, ()))
    assert match_rules(old, new) == [None, "sideboard", "deck-size"]


def test_typography_alone_is_the_same_text():
    old = known(("r", "702.78a", None, "in a player's graveyard. \"Retrace\" means 601.2e-g", ()))
    assert match_rules(old, incoming(("702.81", None, "in a player’s graveyard. “Retrace” means 601.2e–g", ()))) == ["r"]


def test_the_same_text_in_two_places_goes_to_the_nearest():
    text = "The owner of a conspiracy card is the player who put it into the command zone."
    old = known(("conspiracy", "313.6", None, text, ()), ("draft", "905.5", None, text, ()))
    assert match_rules(old, incoming(("315.6", None, text, ()))) == ["conspiracy"]
    assert match_rules(old, incoming(("905.6", None, text, ()))) == ["draft"]


MILL_OLD = "A player with fewer cards in his or her library than N can't put them into his or her graveyard."
MILL_NEW = "A player with fewer cards in their library than N can't mill them."


@pytest.mark.parametrize("old_text, new_number, new_text, same", [
    (SIDEBOARD, "100.7", SIDEBOARD.replace("may use", "may use to modify their deck between games"), True),
    (MILL_OLD, "100.3", MILL_NEW, True),     # a big rewording keeps its number: the same rule
    (MILL_OLD, "100.7", MILL_NEW, False),    # ... under another number it is too far to tell
    (SIDEBOARD, "100.3", COINS, False),
    (DECK_SIZE, "100.3", "There is no minimum number of players.", False),
])
def test_changed_texts_in_a_section(old_text, new_number, new_text, same):
    old = known(("x", "100.3", None, old_text, ()))
    assert match_rules(old, incoming((new_number, None, new_text, ()))) == (["x"] if same else [None])


def test_rules_never_match_across_sections_by_similarity():
    old = known(("x", "100.3", None, SIDEBOARD, ()))
    assert match_rules(old, incoming(("103.3", None, SIDEBOARD + " And more.", ()))) == [None]


def test_subrules_follow_their_text_when_letters_shift():
    cost = "The player determines the total cost of the spell. Usually this is just the mana cost."
    mana = "If the total cost includes a mana payment, the player then has a chance to activate mana abilities."
    pay = "The player pays the total cost in any order. Partial payments are not allowed."
    legal = "The game checks to see if the proposed spell can legally be cast."
    old = [("b", "b", "If the spell is modal, the player announces the mode choice."),
           ("e", "e", cost), ("f", "f", mana), ("g", "g", pay)]
    new = [("b", "If the spell is modal, the player announces the mode choice (see rule 700.2)."),
           ("e", legal), ("f", cost), ("g", mana + " Mana abilities must be activated before costs are paid."),
           ("h", pay)]
    assert match_subrules(old, new) == ["b", None, "e", "f", "g"]


def test_a_reworded_subrule_in_its_place_between_matched_ones_is_the_same_subrule():
    cost = "The player determines the total cost of the spell. Usually this is just the mana cost."
    mana = "If the total cost includes a mana payment, the player then has a chance to activate mana abilities."
    pay_old = "The player pays the total cost in any order. Partial payments are not allowed."
    pay_new = ("The player pays the total cost. First, they pay all costs that don't involve random elements, "
               "in any order. Then they pay all other costs in any order.")
    cast = "Once the steps described in 601.2a-h are completed, the spell becomes cast."
    old = [("e", "e", cost), ("f", "f", mana), ("g", "g", pay_old)]
    new = [("f", cost), ("g", mana), ("h", pay_new), ("i", cast)]
    assert match_subrules(old, new) == ["e", "f", "g", None]
    # out of place, or sharing too little, it is a new subrule
    assert match_subrules(old, [("f", cost), ("g", pay_new), ("h", mana)])[1] is None
    assert match_subrules(old, [("f", cost), ("g", mana), ("h", cast)]) == ["e", "f", None]


def test_identical_subrules_prefer_their_own_letter():
    text = "If a creature has multiple instances of this ability, each triggers separately."
    assert match_subrules([("a", "a", text), ("b", "b", text)], [("a", text), ("b", text)]) == ["a", "b"]


def test_glossary_terms_match_by_term():
    assert match_glossary([("retrace", "Retrace"), ("vote", "Vote")], ["vote", "Flying", "Retrace"]) == ["vote", None, "retrace"]


def test_similarity_is_the_share_of_common_words():
    assert similarity(words("a b c d"), words("a b c d")) == 1.0
    assert similarity(words("a b"), words("c d")) == 0.0
    assert similarity(words("“Dredge N” means"), words('"dredge n" MEANS')) == 1.0
    assert similarity(words("a b c d"), words("a b x y")) == pytest.approx(0.5)


def test_a_renumbered_section_follows_its_texts_not_its_numbers():
    """2010: 613 Replacement Effects became 614, 614 Prevention Effects 615."""
    replace = "There are no special restrictions on casting a spell that generates a replacement effect."
    prevent = "There are no special restrictions on casting a spell that generates a prevention effect."
    old = known(("replace-3", "613.3", None, replace, ()), ("prevent-3", "614.3", None, prevent, ()))
    new = incoming(("614.3", None, replace, ()), ("615.3", None, prevent, ()))
    assert match_rules(old, new) == ["replace-3", "prevent-3"]


def test_a_curated_rule_with_some_subrules_matches_by_its_own_text():
    """The seed's 601.2 holds four of its subrules; the release has them all."""
    text = "To cast a spell is to take it from where it is, put it on the stack, and pay its costs."
    subs = tuple(f"Step {n} of casting a spell with its own long description of what happens." for n in range(12))
    old = [Known("casting-spells", "601.2", "Casting Spells", text, subs[:2], 0, curated=True)]
    new = incoming(("601.2", None, text.replace("where it is", "the zone it is in"), subs))
    assert match_rules(old, new) == ["casting-spells"]
    # an imported rule is compared as a whole (one subrule in common is not enough for step 5)
    imported = [Known("casting-spells", "601.2", None, text, subs[:1], 0, curated=False)]
    assert match_rules(imported, incoming(("601.7", None, text.replace("where it is", "the zone it is in"), subs))) == [None]


LAYERS = tuple(f"Layer {n}: effects of the kind numbered {n} are applied in this layer of the system." for n in range(1, 8))


def test_a_reworded_rule_is_looked_for_in_the_section_its_section_was():
    """2010: a section was inserted before 612, which became 613; its rule 612.1 was reworded."""
    head = "The values of an object's characteristics are determined by starting with the actual object."
    old = known(("section-612", "612", "Interaction of Continuous Effects", "", ()),
                ("values", "612.1", None, head, LAYERS[:1]),
                ("section-613", "613", "Replacement Effects", "", ()))
    new = incoming(("613", "Interaction of Continuous Effects", "", ()),
                   ("613.1", None, head + " Copiable values come first.", LAYERS[:1]),
                   ("614", "Replacement Effects", "", ()))
    assert match_rules(old, new) == ["section-612", "values", "section-613"]


@pytest.mark.parametrize(("old_subrules", "new_subrules", "same"), [
    (LAYERS[:3], LAYERS[:3], True),                 # all three kept
    (LAYERS[:3], LAYERS[:2] + ("New.",), True),     # two of three
    (LAYERS[:4], LAYERS[:2] + ("A.", "B."), True),  # two of four: half
    (LAYERS[:5], LAYERS[:2] + ("A.", "B.", "C."), False),  # two of five: less than half
    (LAYERS[:3], LAYERS[:1] + ("A.", "B."), False),  # one subrule is not enough
])
def test_a_rule_that_moved_to_another_section_is_found_by_its_subrules(old_subrules, new_subrules, same):
    """700.6 of 2018 ("Some cards refer to cards with a name originally printed in …") is 206.3 of
    2026: its own text reworded, its subrules the same."""
    old = known(("refers", "700.6", None, "Some cards refer to cards with a name originally printed in a set.", old_subrules))
    new = incoming(("206.3", None, "Previously, a spell or ability that referred to a name did so.", new_subrules))
    assert match_rules(old, new) == (["refers"] if same else [None])


def _subrules(shared, date: str, number: str) -> list[tuple[str, str]]:
    from rulekb.importers.crtext import read_release
    path = shared / "data" / "comprehensive-rules" / f"MagicCompRules-{date}.txt"
    rule = next(r for r in read_release(path.read_bytes(), str(path)).rules if r.number == number)
    return [(s.letter, s.text) for s in rule.subrules]


@pytest.mark.parametrize(("old", "new", "expected"), [
    # 806.9b "… set the life total of each player on a team to a number, the result is the sum …" is
    # 810.9d "… that team chooses one of its members"; 806.9d (paying life) is 810.9b (both members
    # paying life), not the 810.9d that took its letter
    (("2009-07-11", "806.9"), ("2011-05-01", "810.9"), {"b": "d", "d": "b", "a": "a", "c": "c"}),
    # the legend rule (704.5k) became 704.5j; the planeswalker uniqueness rule (704.5j) ended
    (("2011-05-01", "704.5"), ("2018-01-19", "704.5"), {"k": "j", "i": "i"}),
    # "If an effect attempts to attach an Aura on the battlefield …" moved from 303.4h to 303.4j
    (("2011-05-01", "303.4"), ("2018-01-19", "303.4"), {"h": "j", "g": "g"}),
])
def test_a_moved_and_reworded_subrule_is_found_before_the_one_left_in_its_place(shared, old, new, expected):
    before = _subrules(shared, *old)
    after = _subrules(shared, *new)
    found = match_subrules([(letter, letter, text) for letter, text in before], after)
    became = {key: after[i][0] for i, key in enumerate(found) if key is not None}
    for old_letter, new_letter in expected.items():
        assert became.get(old_letter) == new_letter, (old_letter, became)
    if old[1] == "704.5":
        assert "j" not in became   # the planeswalker uniqueness rule has no successor


# texts of the releases in ../shared/data (110.5e of 2018 is 111.6 of 2026; 306.7b of 2009 is 606.6 of 2011)
TOKEN = ("A token is subject to anything that affects permanents in general or that affects the token’s card type "
         "or subtype. A token isn’t a card (even if represented by a card that has a Magic back or that came from a "
         "Magic booster pack).")
LOYALTY_2009 = "An ability with a negative loyalty cost can't be activated unless the planeswalker has at least that many loyalty counters on it."
LOYALTY_2011 = "A loyalty ability with a negative loyalty cost can't be activated unless the permanent has at least that many loyalty counters on it."
TEAM_2009 = "The team who plays first skips the draw step of their first turn."
TEAM_2011 = "The team who plays first skips the draw step of its first turn."


@pytest.mark.parametrize(("ended", "started", "expected"), [
    # a subrule that became a rule of its own, the same text
    ([("tokens.e", "110.5e", TOKEN)], [("token-subject", "111.6", TOKEN)], ["tokens.e"]),
    # typography aside (straight and curly apostrophes)
    ([("tokens.e", "110.5e", TOKEN.replace("’", "'"))], [("token-subject", "111.6", TOKEN)], ["tokens.e"]),
    # reworded on the way (a planeswalker's ability is a permanent's loyalty ability now)
    ([("planeswalkers.b", "306.7b", LOYALTY_2009)], [("loyalty-cost", "606.6", LOYALTY_2011)], ["planeswalkers.b"]),
    # 806.6b of 2009 is 810.6 of 2011, "their" now "its"
    ([("teams.b", "806.6b", TEAM_2009)], [("first-team", "810.6", TEAM_2011)], ["teams.b"]),
    # a short text (under MOVED_ACROSS_WORDS content words) matches only word for word
    ([("teams.c", "806.6c", "Teams have priority, not individual players.")],
     [("priority", "805.5", "Teams have priority, not single players.")], [None]),
    ([("teams.c", "806.6c", "Teams have priority, not individual players.")],
     [("priority", "805.5", "Teams have priority, not individual players.")], ["teams.c"]),
    # the same text twice: the nearest number first, each ended text once
    ([("far.a", "903.4a", TOKEN), ("near.e", "110.5e", TOKEN)], [("x", "111.6", TOKEN), ("y", "111.7", TOKEN)],
     ["near.e", "far.a"]),
    # a unit of the same rule is not a move (its new letter is the subrule matcher's business)
    ([("tokens.e", "110.5e", TOKEN)], [("tokens", "110.5f", TOKEN)], [None]),
    # unrelated texts stay apart
    ([("planeswalkers.b", "306.7b", LOYALTY_2009)], [("token-subject", "111.6", TOKEN)], [None]),
])
def test_a_text_that_moved_to_another_rule(ended, started, expected):
    assert match_moves(ended, started) == expected


# ---------------------------------------------------------------- across the 2009 renumbering

# releases around each change of number of the seed rules (Buyback 502.16 → 702.24 → 702.25 →
# 702.26 → 702.27; Dredge, Retrace alike; Explore 701.38 → 701.39 → 701.40 → 701.44), and those
# before and after the releases that brought Dredge (2005-10-01) and Retrace (2008-07-15)
SPANNING = ("2003-03-15", "2005-08-01", "2005-10-01", "2008-05-01", "2008-07-15", "2009-05-01", "2009-07-11",
            "2011-05-01", "2011-06-17", "2013-04-29", "2013-07-11", "2017-09-25", "2018-07-13", "2020-06-01",
            "2020-07-03", "2021-02-24", "2021-04-19", "2025-04-04", "2025-06-06", "2026-01-16")
KEYWORDS = {"buyback": "Buyback", "dredge": "Dredge", "retrace": "Retrace", "explore": "Explore"}


@pytest.fixture(scope="module")
def spanning(shared, tmp_path_factory):
    """The project's data with twenty archive releases from 2003 to 2026 imported in one run;
    the knowledge base before and after, the parsed releases by effective date."""
    from conftest import data_copy
    from rulekb.importers.cr import import_releases
    from rulekb.importers.crtext import read_release
    from rulekb.knowledge import load_knowledge_base
    archive = shared / "data" / "comprehensive-rules" / "archive"
    files = [archive / f"{name}.txt" for name in SPANNING]
    root = data_copy(tmp_path_factory.mktemp("spanning"))
    before = load_knowledge_base(root)
    import_releases(root, files)
    parsed = {r.effective: r for r in (read_release(f.read_bytes(), f.name) for f in files)}
    return before, load_knowledge_base(root), parsed


@pytest.mark.parametrize("rule_id", sorted(KEYWORDS))
def test_number_histories_across_the_2009_renumbering_agree_three_ways(spanning, rule_id):
    """For each imported release: the number the release's own text gives the keyword ("502.16.
    Buyback"), the number the import computed (the rule's history), and the number the seed's
    curated history gives for that date are the same; every computed number lands in a curated
    span (no span of its own), and the rule is in every release from the first that has it."""
    before, kb, parsed = spanning
    curated, rule = before.rule(rule_id), kb.rule(rule_id)
    computed = {rel: entry.number for entry in rule.history for rel in entry.releases}
    in_text = {date: r.number for date, release in parsed.items() for r in release.rules if r.title == KEYWORDS[rule_id]}
    assert computed == in_text
    assert len(in_text) >= 5 and max(in_text) == "2026-01-16"
    assert sorted(in_text) == [d for d in sorted(parsed) if d >= min(in_text)]
    for date, number in computed.items():   # the curated spans, the first one open towards the past
        spans = [entry.number for entry, end, _ in curated.history_spans() if entry.covers(date, end)]
        assert spans == [number], (date, number)
    assert all(entry.source == "cr-archive" for entry in rule.history)
    assert [e.number for e in rule.history] == [e.number for e in curated.history]
    assert rule.number == curated.history[-1].number and rule.release == "2026-01-16"
