"""Tests for rulekb.refs: rule-number grammar and reference finding in en/de/fr texts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekb.refs import (
    Reference,
    RuleNumber,
    expand_range,
    find_references,
    is_rule_number,
    parse_rule_number,
    referenced_numbers,
    sort_key,
)

RETRACE = ("601.2b", "601.2e", "601.2f", "601.2g")


def numbers(text: str) -> tuple[str, ...]:
    """All numbers found, expanded, in text order."""
    return tuple(number for reference in find_references(text) for number in reference.numbers)


# --- find_references: texts that must yield exactly these numbers -------------------------------

SEEDS = [
    # real sentences from the data
    ("Casting a spell using its retrace ability follows the rules for paying additional costs "
     "in rules 601.2b and 601.2e-g.", RETRACE),
    ("“Retrace” means “You may cast this card …” … in rules 601.2b and 601.2e–g.", RETRACE),
    ("Das Bezahlen der Rückkauf-Kosten eines Zauberspruchs folgt den Regeln für das Bezahlen "
     "zusätzlicher Kosten in den Regeln 601.2b und 601.2e–g.", RETRACE),
    ("Lancer un sort en utilisant sa capacité de retrace suit les règles pour payer des coûts "
     "supplémentaires indiquées dans les règles 601.2b et 601.2e-g.", RETRACE),
    ("702.78a. Zurückverfolgen erscheint auf einigen Spontanzaubern", ("702.78a",)),
    # plain numbers, trailing sentence dot
    ("see 702.78a.", ("702.78a",)),
    ("702.78. Retrace", ("702.78",)),
    ("See rule 702.49.", ("702.49",)),
    ("Siehe Regel 702.49.", ("702.49",)),
    ("Voir la règle 702.49.", ("702.49",)),
    ("rule 100.1", ("100.1",)),
    ("(see rule 702.78a)", ("702.78a",)),
    ("„Regel 702.78a“", ("702.78a",)),
    ("« règle 702.78a »", ("702.78a",)),
    ("see 702.499 now", ("702.499",)),
    # ranges
    ("601.2e–g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e-g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e\u2011g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e\u2012g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e – g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e - g", ("601.2e", "601.2f", "601.2g")),
    ("601.2e–601.2g", ("601.2e", "601.2f", "601.2g")),
    ("702.78–702.80", ("702.78", "702.79", "702.80")),
    ("702.78a–c", ("702.78a", "702.78b", "702.78c")),
    ("601.2k–n", ("601.2k", "601.2m", "601.2n")),
    ("rules 601–603", ("601", "602", "603")),
    # lists
    ("601.2b and 601.2e–g", RETRACE),
    ("601.2b und 601.2e–g", RETRACE),
    ("601.2b et 601.2e–g", RETRACE),
    ("601.2b, 601.2c, and 601.2e–g", ("601.2b", "601.2c", "601.2e", "601.2f", "601.2g")),
    ("601.2b, 601.2c ou 601.2e", ("601.2b", "601.2c", "601.2e")),
    # bare sections after a rule word
    ("rule 702", ("702",)),
    ("Rule 702", ("702",)),
    ("rules 601 and 602", ("601", "602")),
    ("Regeln 601, 602 und 603", ("601", "602", "603")),
    ("Regel 702", ("702",)),
    ("Regeln 601", ("601",)),
    ("règle 702", ("702",)),
    ("Règle 702.", ("702",)),
    ("règles 702", ("702",)),
    ("règles 601 ou 602", ("601", "602")),
    ("section 702", ("702",)),
    ("Abschnitt 702", ("702",)),
    ("rule\u00a0702", ("702",)),
    ("ABSCHNITTEN \n\u00a0 601 und 602", ("601", "602")),   # the longest word, a run of white space
    ("see 601.2 and rules 603", ("601.2", "603")),           # a rule word after an earlier number
    ("(rules 601, 602)", ("601", "602")),
    # invalid ranges keep their full-number endpoints
    ("702.80–702.78", ("702.80", "702.78")),
    ("601.2g–e", ("601.2g",)),
    ("702.78–702.79a", ("702.78", "702.79a")),
    ("702.1–702.99", ("702.1", "702.99")),
]


@pytest.mark.parametrize(("text", "expected"), SEEDS)
def test_find_references_yields_numbers(text: str, expected: tuple[str, ...]) -> None:
    assert numbers(text) == expected


NOTHING = [
    "+1/+1", "-2/-2", "+1/+0", "19/01/2018", "2018-01-19", "19.01.2018", "12.5.2018", "1.5", "3.14",
    "N", "X", "two", "7 cards", "100 cards", "Put 702 counters", "5.2.0", "10.30.2020",
    "1702.49", "702.4999", "702.78ab", "702.78A", "702.78l", "702.78o", "702.05", "012.3",
    "€3.50", "€350.50", "$100.25", "-702.78", "+702.78", "1.702.49", "702.49.1", "100.000 Karten",
    "702.", "page 702", "v702.78", "702.78x1", "ab702.78",
    "subrules 601", "rule601", "rules, 601", "rules 601x", "Regelwerk 601",
    "legst du auf nichts eine +1/+1-Marke",
    "„Ausgraben N“ bedeutet: „Solange du mindestens N Karten",
    "Mets 100 marqueurs +1/+1 le 19/01/2018.",
    "Version 10.30.2020, Stand 19.01.2018",
    "",
]


@pytest.mark.parametrize("text", NOTHING)
def test_find_references_yields_nothing(text: str) -> None:
    assert find_references(text) == ()


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("in rules 601.2b and 601.2e–g.", ["601.2b", "601.2e–g"]),
        ("Regeln 601.2b und 601.2e - g", ["601.2b", "601.2e - g"]),
        ("rule 702 and 702.78–702.80", ["702", "702.78–702.80"]),
    ],
)
def test_reference_text_is_the_number_expression(text: str, spans: list[str]) -> None:
    references = find_references(text)
    assert [reference.text for reference in references] == spans
    assert all(text[r.start : r.end] == r.text for r in references)


def test_reference_fields() -> None:
    assert find_references("see 601.2e–g") == (Reference(4, 12, "601.2e–g", ("601.2e", "601.2f", "601.2g")),)


def test_referenced_numbers_sorted_and_deduplicated() -> None:
    text = "rules 702.80, 601.2e–g and 601.2f; see also 702.9 and 702.10"
    assert referenced_numbers(text) == ("601.2e", "601.2f", "601.2g", "702.9", "702.10", "702.80")


# --- parse_rule_number / is_rule_number ---------------------------------------------------------

VALID = [
    ("100.1", RuleNumber(100, 1, None)),
    ("702", RuleNumber(702, None, None)),
    ("702.78", RuleNumber(702, 78, None)),
    ("702.78a", RuleNumber(702, 78, "a")),
    ("601.2k", RuleNumber(601, 2, "k")),
    ("601.2m", RuleNumber(601, 2, "m")),
    ("601.2p", RuleNumber(601, 2, "p")),
    ("999.999z", RuleNumber(999, 999, "z")),
]


@pytest.mark.parametrize(("text", "expected"), VALID)
def test_parse_valid(text: str, expected: RuleNumber) -> None:
    parsed = parse_rule_number(text)
    assert parsed == expected
    assert str(parsed) == text
    assert is_rule_number(text)


INVALID = [
    ("", "empty"),
    (" 702.78", "whitespace"),
    ("702.78\n", "whitespace"),
    ("702.", "ends with a dot"),
    ("70.1", "3 digits"),
    ("7020.1", "3 digits"),
    ("012.3", "100 to 999"),
    ("702a", "3 digits"),
    ("७०२.७८", "3 digits"),
    ("702.a", "1 to 3 digits"),
    ("702.1234", "more than 3 digits"),
    ("702.0", "must not start with 0"),
    ("702.05", "must not start with 0"),
    ("702.78aa", "only one subrule letter"),
    ("702.78A", "lowercase"),
    ("702.78l", "'l' and 'o'"),
    ("702.78o", "'l' and 'o'"),
    ("702.78-", "unexpected"),
    ("702.78.", "unexpected"),
    ("702.78ä", "unexpected"),
]


@pytest.mark.parametrize(("text", "problem"), INVALID)
def test_parse_invalid(text: str, problem: str) -> None:
    assert not is_rule_number(text)
    with pytest.raises(ValueError, match="invalid rule number") as error:
        parse_rule_number(text)
    assert problem in str(error.value)
    assert "expected" in str(error.value) and "702.78a" in str(error.value)


@pytest.mark.parametrize(
    ("section", "rule", "letter"),
    [(99, None, None), (1000, None, None), (702, 0, None), (702, None, "a"), (702, 78, "l"), (702, 78, "A")],
)
def test_rule_number_rejects_invalid_parts(section: int, rule: int | None, letter: str | None) -> None:
    with pytest.raises(ValueError, match="invalid rule number"):
        RuleNumber(section, rule, letter)


def test_parent_chain() -> None:
    number = parse_rule_number("702.78a")
    assert str(number.parent) == "702.78"
    assert str(number.parent.parent) == "702"
    assert number.parent.parent.parent is None


# --- sort_key -----------------------------------------------------------------------------------

ORDERED = ["701.1", "702", "702.9", "702.10", "702.78", "702.78a", "702.78b", "702.100", "703"]


def test_sort_key_is_numeric() -> None:
    shuffled = ["702.100", "702.78b", "703", "702", "702.9", "702.78a", "702.10", "702.78", "701.1"]
    assert sorted(shuffled, key=sort_key) == ORDERED


def test_rule_numbers_order_like_sort_key() -> None:
    assert [str(n) for n in sorted(map(parse_rule_number, reversed(ORDERED)))] == ORDERED


@pytest.mark.parametrize(("smaller", "larger"), list(zip(ORDERED, ORDERED[1:])))
def test_sort_key_pairs(smaller: str, larger: str) -> None:
    assert sort_key(smaller) < sort_key(larger)


def test_sort_key_rejects_invalid() -> None:
    with pytest.raises(ValueError):
        sort_key("702.78l")


# --- expand_range -------------------------------------------------------------------------------

RANGES = [
    ("601.2e", "601.2g", ("601.2e", "601.2f", "601.2g")),
    ("601.2k", "601.2m", ("601.2k", "601.2m")),
    ("601.2n", "601.2p", ("601.2n", "601.2p")),
    ("601.2j", "601.2q", ("601.2j", "601.2k", "601.2m", "601.2n", "601.2p", "601.2q")),
    ("702.78", "702.80", ("702.78", "702.79", "702.80")),
    ("702.9", "702.11", ("702.9", "702.10", "702.11")),
    ("702.78", "702.78", ("702.78",)),
    ("601", "603", ("601", "602", "603")),
]


@pytest.mark.parametrize(("first", "last", "expected"), RANGES)
def test_expand_range(first: str, last: str, expected: tuple[str, ...]) -> None:
    assert expand_range(first, last) == expected


def test_expand_range_allows_60_items() -> None:
    assert len(expand_range("702.1", "702.60")) == 60


@pytest.mark.parametrize(
    ("first", "last", "problem"),
    [
        ("601.2g", "601.2e", "reversed"),
        ("702.80", "702.78", "reversed"),
        ("601.2e", "602.2g", "same parent"),
        ("601.2e", "601.3g", "same parent"),
        ("702.78", "702.78a", "same parent"),
        ("702", "702.78", "same parent"),
        ("702.1", "702.61", "more than 60"),
        ("100", "999", "more than 60"),
        ("601.2e", "601.2l", "invalid rule number"),
    ],
)
def test_expand_range_errors(first: str, last: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        expand_range(first, last)


# --- properties ---------------------------------------------------------------------------------

LETTERS = "abcdefghijkmnpqrstuvwxyz"
sections = st.integers(100, 999)
rules_and_subrules = st.builds(RuleNumber, sections, st.integers(1, 999), st.none() | st.sampled_from(LETTERS))
all_numbers = st.builds(RuleNumber, sections, st.none(), st.none()) | rules_and_subrules
templates = st.sampled_from(["see {} now", "siehe {} jetzt", "voir {}.", "({})", "„{}“", "« {} »", "{}"])
rule_words = st.sampled_from(["rule", "Rule", "rules", "Regel", "Regeln", "règle", "règles", "section", "Abschnitt"])


@given(rules_and_subrules, templates)
def test_property_single_number_is_found(number: RuleNumber, template: str) -> None:
    assert numbers(template.format(number)) == (str(number),)


@given(sections, rule_words)
def test_property_section_after_rule_word_is_found(section: int, word: str) -> None:
    assert numbers(f"{word} {section}") == (str(section),)
    assert numbers(f"see {section} now") == ()


@given(all_numbers)
def test_property_parse_round_trip(number: RuleNumber) -> None:
    assert str(parse_rule_number(str(number))) == str(number)
    assert parse_rule_number(str(number)) == number
    assert is_rule_number(str(number))


@given(st.text(alphabet=st.characters(blacklist_categories=("Nd",))))
def test_property_no_digits_no_references(text: str) -> None:
    assert find_references(text) == ()


@given(st.dates())
def test_property_dates_are_not_references(date) -> None:
    for text in (date.strftime("%d/%m/%Y"), date.isoformat(), date.strftime("%d.%m.%Y"),
                 f"{date.day}.{date.month}.{date.year}", f"am {date:%d.%m.%Y}."):
        assert find_references(text) == (), text


TOKENS = ["601", "702", "100", ".", "2", "78", "e", "g", "a", "l", "–", "-", " ", ", ", " and ", " und ", " et ",
          "rule ", "Regeln ", "règles ", "+1/+1", "/", "€", "x", "9", "601.2e", "702.78a", "\u00a0"]


@given(st.lists(st.sampled_from(TOKENS), max_size=20).map("".join))
def test_property_spans_are_consistent(text: str) -> None:
    references = find_references(text)
    previous_end = 0
    for reference in references:
        assert 0 <= previous_end <= reference.start < reference.end <= len(text)
        assert text[reference.start : reference.end] == reference.text
        assert reference.numbers and all(is_rule_number(n) for n in reference.numbers)
        previous_end = reference.end
    assert set(referenced_numbers(text)) == {n for r in references for n in r.numbers}
