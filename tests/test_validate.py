"""Stage validate: every refused input names file and line, says what is wrong and how to fix it;
all problems of a run are reported together, with exit code 2 and no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.knowledge import load_knowledge_base

RULE = "rules/comprehensive/sample.yaml"


def _replace(tree: Path, rel: str, old: str, new: str) -> None:
    path = tree / rel
    text = path.read_text("utf-8")
    assert old in text, f"fixture {rel} lacks {old!r}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def _line_of(tree: Path, rel: str, needle: str, nth: int = 1) -> int:
    lines = (tree / rel).read_text("utf-8").splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if re.search(re.escape(needle) + r"(?![\w-])", line)]
    return hits[nth - 1]


# (case, file, old text, new text, needle giving the expected line, message fragment, fix fragment)
CASES = [
    ("duplicate key", RULE, "  de:\n    - text: Beispiel", "  en:\n    - text: Beispiel",
     ("  en:", 2), "duplicate key 'en'", "lose"),
    ("unknown field", RULE, "      - text: A note.", "      - txet: A note.",
     ("txet", 1), "unknown field 'txet'", "did you mean 'text'"),
    ("unknown language", RULE, "  de:\n", "  es:\n",
     ("  es:", 1), "unknown language code 'es'", "rulekb lang add es"),
    ("malformed rule number", RULE, 'number: "702.9"', 'number: "70.29"',
     ("number: \"70.29\"", 1), "is not a rule number", "702.78"),
    ("malformed history number", RULE, 'number: "502.9"', 'number: "502.9.1"',
     ("502.9.1", 1), "is not a rule number", "702.78"),
    ("impossible date", RULE, 'release: "2011-05-01"', 'release: "2011-02-30"',
     ("release:", 1), "'2011-02-30' is not a date", "YYYY-MM-DD"),
    ("date in another format", "rules/rulings/sample.yaml", 'date: "2018-01-19"', 'date: "19/01/2018"',
     ("date:", 1), "'19/01/2018' is not a date", "2018-01-19"),
    ("anchor and alias", "rules/rulings/sample.yaml", "cards: [sample-card]", "cards: &c [sample-card]\n    x: *c",
     ("&c", 1), "anchor '&c' is not allowed", "write the value out"),
    ("id not slug-safe", RULE, "id: sample", "id: Sample Rule",
     ("id: Sample Rule", 1), "rule id 'Sample Rule' is not valid", "URL"),
    ("unknown source", RULE, "      - text: A note.\n        source: test-rules", "      - text: A note.\n        source: test-rule",
     ("source: test-rule", 1), "source 'test-rule' is not known", "did you mean 'test-rules'"),
    ("unknown status", RULE, "status: community", "status: comunity",
     ("status: comunity", 1), "status 'comunity' is not known", "did you mean 'community'"),
    ("unknown card in ruling", "rules/rulings/sample.yaml", "cards: [sample-card]", "cards: [sample-crd]",
     ("sample-crd", 1), "unknown card id 'sample-crd'", "did you mean 'sample-card'"),
    ("bad subrule letter", RULE, "  a:\n    en:", "  l:\n    en:",
     ("  l:", 1), "subrule key 'l'", "skip l and o"),
    ("translated_from on English", RULE, "      - text: Sample is a keyword. See rule 601.2b.\n",
     "      - text: Sample is a keyword. See rule 601.2b.\n        translated_from: 95a2f1edb08a7612\n",
     ("translated_from: 95a2f1edb08a7612", 2), "English text has no 'translated_from'", "remove"),
    ("two canonical variants missing", RULE, "      - text: A note.\n        source: test-rules\n        status: community\n",
     "      - text: A note.\n        source: test-rules\n        status: community\n      - text: B note.\n        source: test-rules\n        status: community\n",
     ("    en:", 2), "2 variants and 0 marked canonical", "canonical: true"),
    ("over-long id", RULE, "id: sample", "id: " + "long-" * 65 + "id",
     ("id: " + "long-" * 65 + "id", 1), "rule id is 327 characters long; an id has at most 100", "shorten it"),
    ("id a device name (con)", RULE, "id: sample", "id: con",
     ("id: con", 1), "rule id 'con' is a device name Windows reserves", "give it another id, e.g. 'con-rule'"),
    ("id a device name (lpt1)", "rules/rulings/sample.yaml", "id: sample-ruling", "id: lpt1",
     ("id: lpt1", 1), "ruling id 'lpt1' is a device name Windows reserves", "e.g. 'lpt1-ruling'"),
    ("unknown ruling of a note", RULE, "  n1:\n    en:", "  n1:\n    ruling: sample-rulng\n    en:",
     ("ruling: sample-rulng", 1), "unknown ruling id 'sample-rulng'", "did you mean 'sample-ruling'"),
    ("unknown rule of a ruling", "rules/rulings/sample.yaml", "cards: [sample-card]", "cards: [sample-card]\n    rules: [sampel]",
     ("sampel", 1), "unknown rule id 'sampel'", "did you mean 'sample'"),
    ("a printing twice", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprintings: TST 2, TST 3, TST 2', ("printings:", 1), "card printing TST #2 is listed twice", "once"),
    ("a printing without its number", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprintings: TST 2, TST', ("printings:", 1), "card printing 'TST' is not a set code and a collector number",
     "SET NUMBER (e.g. XLN 114)"),
    ("a printed text of no printing of the card", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprintings: TST 2\nprinted:\n  de:\n    TST 2, TST 9: "Beispielkarte\\nText."',
     ("TST 2, TST 9", 1), "card printed de: TST 9 is not one of the card's printings", "add it to 'printings'"),
    ("a printed text without a name", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprintings: TST 2\nprinted:\n  de:\n    TST 2: "\\nText."',
     ('TST 2: "', 1), "card printed de TST 2 has no name on its first line", "printed name on the first line"),
    ("a printing printed twice in a language", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprintings: TST 2\nprinted:\n  de:\n    TST 2: Eins\n    TST 2, XLN 114: Zwei',
     ("TST 2, XLN 114", 1), "card printed de: TST 2 is given twice", "once per language"),
    ("releases of a ruling", "rules/rulings/sample.yaml", "          status: official",
     "          status: official\n          releases: '2018-01-19'", ("releases:", 1), "a ruling lists no rules releases",
     "a ruling has its date"),
    ("unknown field of a card", "rules/cards/sample-card.yaml", "set: TST", "sett: TST\nset: TST",
     ("sett:", 1), "unknown field 'sett' in a card file", "did you mean 'set'"),
    ("a card without its required field", "rules/cards/sample-card.yaml", "source: test-cards\n", "",
     ("id: sample-card", 1), "a card file lacks the required field 'source'", "add 'source:'"),
    ("a card name in an unknown language", "rules/cards/sample-card.yaml", "  de: Beispielkarte", "  es: Carta de ejemplo",
     ("  es:", 1), "unknown field 'es' in card name", "allowed fields: en, de"),
    ("a card name without English", "rules/cards/sample-card.yaml", "  en: Sample Card\n", "",
     ("  de: Beispielkarte", 1), "card name lacks the required field 'en'", "add 'en:'"),
    ("a printed text in an unknown language", "rules/cards/sample-card.yaml", 'source: test-cards',
     'source: test-cards\nprinted:\n  es:\n    TST 1: Carta', ("  es:", 1), "unknown field 'es' in card printed",
     "allowed fields: de"),
    ("unknown field of a ruling", "rules/rulings/sample.yaml", 'date: "2018-01-19"', 'date: "2018-01-19"\n    dat: x',
     ("dat: x", 1), "unknown field 'dat' in a ruling", "did you mean 'date'"),
    ("YAML syntax", RULE, "title:\n", "title: [\n",
     ("status: official", 1), "YAML syntax error", "indentation"),
]


@pytest.mark.parametrize("case, rel, old, new, needle, message, fix", CASES, ids=[c[0] for c in CASES])
def test_refused_input_names_file_line_and_fix(valid_tree, capsys, case, rel, old, new, needle, message, fix):
    _replace(valid_tree, rel, old, new)
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    line = _line_of(valid_tree, rel, *needle)
    matching = [p for p in err.value.problems if message in p.message]
    assert matching, [str(p) for p in err.value.problems]
    if case != "YAML syntax":  # the parser reports where it noticed the error
        assert any(p.file == rel and p.line == line for p in matching), [str(p) for p in matching]
    assert all(p.file == rel for p in matching)
    assert any(fix in p.hint for p in matching), [p.hint for p in matching]
    # the command line gives the same, with exit code 2 and no traceback
    assert main(["--root", str(valid_tree), "validate"]) == 2
    out = capsys.readouterr()
    assert f"{rel}:" in out.err and message in out.err and "Traceback" not in out.err


def test_duplicate_rule_id_and_number_across_files(valid_tree):
    text = (valid_tree / RULE).read_text("utf-8")
    (valid_tree / "rules/comprehensive/copy.yaml").write_text(text, "utf-8")
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    messages = [str(p) for p in err.value.problems]
    assert any("duplicate rule id 'sample'" in m and "rules/comprehensive/sample.yaml:1" in m for m in messages), messages
    assert any("duplicate rule number '702.9'" in m for m in messages), messages


def test_file_not_utf8(valid_tree):
    path = valid_tree / RULE
    path.write_bytes(path.read_text("utf-8").replace("A note.", "Une règle.").encode("cp1252"))
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    (problem,) = err.value.problems
    assert problem.file == RULE and "not UTF-8" in problem.message and "0xe8" in problem.message
    assert problem.line == _line_of_bytes(path.read_bytes(), b"Une r")
    assert "utf-8" in problem.hint


def _line_of_bytes(data: bytes, needle: bytes) -> int:
    return data[: data.index(needle)].count(b"\n") + 1


def test_all_errors_of_all_files_in_one_run(valid_tree):
    _replace(valid_tree, RULE, "status: community", "status: comunity")
    _replace(valid_tree, "rules/cards/sample-card.yaml", "set: TST", "sett: TST")
    _replace(valid_tree, "rules/rulings/sample.yaml", 'date: "2018-01-19"', 'date: "2018-13-01"')
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    files = {p.file for p in err.value.problems}
    assert files == {RULE, "rules/cards/sample-card.yaml", "rules/rulings/sample.yaml"}


def test_valid_tree_loads(valid_tree):
    kb = load_knowledge_base(valid_tree)
    (rule,) = kb.rules
    assert rule.number == "702.9" and rule.current_number == "702.9"
    assert rule.subrules[0].number == "702.9a" and rule.notes[0].id == "sample.n1"
    assert kb.rulings[0].cards == ("sample-card",)
    assert kb.card("sample-card").names["de"] == "Beispielkarte"


def test_an_over_long_id_stops_validate_and_build_before_any_file_is_written(valid_tree, capsys):
    """A 329-character id passed validate and made the build fail with 'File name too long' and a
    traceback: it is refused at its line, with exit code 2, before the build writes anything."""
    long_id = "x" * 329
    _replace(valid_tree, "rules/cards/sample-card.yaml", "id: sample-card", f"id: {long_id}")
    _replace(valid_tree, "rules/rulings/sample.yaml", "cards: [sample-card]", f"cards: [{long_id}]")
    line = _line_of(valid_tree, "rules/cards/sample-card.yaml", f"id: {long_id}")
    for command in (["validate"], ["build"]):
        assert main(["--root", str(valid_tree), *command]) == 2
        err = capsys.readouterr().err
        assert f"rules/cards/sample-card.yaml:{line}:5: error: card id is 329 characters long" in err, err
        assert "Traceback" not in err
    assert not (valid_tree / "site").exists()


def test_an_id_of_the_longest_length_is_taken(valid_tree):
    longest = "x" * 100
    _replace(valid_tree, "rules/cards/sample-card.yaml", "id: sample-card", f"id: {longest}")
    _replace(valid_tree, "rules/rulings/sample.yaml", "cards: [sample-card]", f"cards: [{longest}]")
    assert load_knowledge_base(valid_tree).card(longest) is not None


def test_cards_and_rulings_in_files_of_many(valid_tree):
    """The import's layout: several cards under `cards:`, rulings of cards only under `rulings:`,
    a printing's official names and texts, a note that is a ruling."""
    (valid_tree / "rules/cards/o.yaml").write_text(
        "cards:\n- id: other-card\n  name: {en: Other Card, de: Andere Karte}\n  oracle_id: 00000000-0000-4000-8000-000000000002\n"
        "  source: test-cards\n  keywords: [Sample]\n  printings: TST 7, TS2 7a\n  printed:\n    de:\n"
        "      TST 7: |-\n        Andere Karte\n        Beispiel.\n", "utf-8")
    (valid_tree / "rules/rulings/o.yaml").write_text(
        "rulings:\n- id: other-ruling\n  date: '2020-01-01'\n  cards: [other-card, sample-card]\n  text:\n    en:\n"
        "    - text: Other works.\n      source: test-cards\n      status: official\n"
        "- id: both-ruling\n  date: '2020-01-02'\n  cards: [other-card]\n  rules: [sample]\n  text:\n    en:\n"
        "    - text: Both work.\n      source: test-cards\n      status: official\n", "utf-8")
    _replace(valid_tree, RULE, "  n1:\n    en:", "  n1:\n    ruling: other-ruling\n    en:")
    kb = load_knowledge_base(valid_tree)
    other = kb.card("other-card")
    assert [(p.set_code, p.number) for p in other.printings] == [("TST", "7"), ("TS2", "7a")]
    assert other.printings[0].texts["de"] == "Beispiel." and other.keywords == ("Sample",)
    assert dict(other.printings[0].names) == {"de": "Andere Karte"} and not other.printings[1].names
    assert (other.set_code, other.collector_number) == ("TST", "7")
    ruling = next(r for r in kb.rulings if r.id == "other-ruling")
    assert ruling.rules == () and ruling.mechanic is None and ruling.cards == ("other-card", "sample-card")
    assert [r.id for r in kb.rulings_for(mechanic="sample")] == ["sample-ruling", "both-ruling"]
    assert [r.id for r in kb.rulings_for(card="other-card")] == ["other-ruling", "both-ruling"]
    assert kb.rule("sample").notes[0].ruling == "other-ruling"
