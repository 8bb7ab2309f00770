"""Importer for MTGJSON set files (importers/mtgjson.py): cards with their names in the knowledge
base's languages, and rulings stored once for every card that has them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import data_copy, rules_digest
from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.importers.mtgjson import import_set, read_set
from rulekb.models import SOURCE_LANGUAGE
from rulekb.knowledge import load_knowledge_base




@pytest.fixture(scope="module")
def xln(tmp_path_factory, shared):
    root = data_copy(tmp_path_factory.mktemp("xln"))
    file = shared / "data" / "mtgjson" / "XLN.json"
    before = load_knowledge_base(root)
    report = import_set(root, file)
    return root, file, before, load_knowledge_base(root), report


def explore_rulings_of_the_file(file: Path) -> dict[str, set[str]]:
    """English explore ruling text -> the collector number of every card that has it, read here
    (Deadeye Tracker explores but lacks the keyword in MTGJSON: the ruling decides, not the keyword)."""
    doc = json.loads(file.read_text("utf-8"))
    cards_of: dict[str, set[str]] = {}
    explorers: set[str] = set()
    for card in doc["data"]["cards"]:
        for ruling in card.get("rulings", []):
            cards_of.setdefault(ruling["text"], set()).add(card["number"])
            if "Explore" in card.get("keywords", []) and "explor" in ruling["text"].lower():
                explorers.add(ruling["text"])  # explore, explores, exploring
    return {text: cards_of[text] for text in explorers}


def test_each_explore_ruling_is_stored_once_for_all_its_cards(xln):
    root, file, before, kb, _ = xln
    expected = explore_rulings_of_the_file(file)
    assert len(expected) == 3 and all(len(numbers) == 12 for numbers in expected.values())
    number_of = {c.id: c.collector_number for c in kb.cards}
    for text, numbers in expected.items():
        holders = [r for r in kb.rulings if any(v.text == text for v in r.unit.variants.get(SOURCE_LANGUAGE, ()))]
        assert len(holders) == 1, text
        assert {number_of[c] for c in holders[0].cards} == numbers
    # the knowledge base's explore rulings are the same ones, with their German seed texts
    assert [r.id for r in kb.rulings_for(mechanic="explore")] == [r.id for r in before.rulings_for(mechanic="explore")]
    for old in before.rulings:
        new = next(r for r in kb.rulings if r.id == old.id)
        for lang, variants in old.unit.variants.items():
            assert [v.text for v in new.unit.variants[lang]] == [v.text for v in variants]


def test_cards_with_their_names_and_existing_cards_kept(xln):
    root, _, before, kb, report = xln
    assert {c.id: c for c in before.cards} == {c.id: c for c in kb.cards if c.id in {b.id for b in before.cards}}
    agent = kb.card("queens-agent")
    assert dict(agent.names) == {"en": "Queen's Agent", "de": "Agent der Königin", "fr": "Agent de la reine"}
    assert agent.oracle_id == "59104038-28c0-4ebd-9201-d7ae60d79c1c"
    # one card per printing: the faces of a double-faced card are one, the four Plains four
    printings = {(c.set_code, c.collector_number) for c in kb.cards}
    assert len(printings) == len(kb.cards) == report.cards_new + report.cards_same + report.cards_updated
    landing = next(c for c in kb.cards if c.collector_number == "22")
    assert landing.names["de"] == "Landung der Legion // Adanto, das erste Fort"
    assert len([c for c in kb.cards if c.names["en"] == "Plains"]) == 4
    assert report.rulings_skipped > 0
    lines = "\n".join(report.lines())
    assert f"not imported: {report.rulings_skipped} rulings that belong to no rule of this knowledge base" in lines


def test_reimporting_a_set_changes_no_byte(xln):
    root, file, _, _, _ = xln
    before = rules_digest(root)
    report = import_set(root, file)
    assert (report.added, report.changed) == ((), ())
    assert rules_digest(root) == before


def tiny_set(path: Path, cards: list[dict]) -> Path:
    path.write_text(json.dumps({"meta": {"date": "2030-01-01", "version": "5.2.0"},
                                "data": {"code": "TST", "name": "Test Set", "cards": cards}}), "utf-8")
    return path


def card(name, number, keywords=(), rulings=(), oracle="11111111-2222-3333-4444-555555555555", **extra):
    return {"name": name, "number": number, "setCode": "TST", "keywords": list(keywords),
            "identifiers": {"scryfallOracleId": oracle} if oracle else {},
            "rulings": [{"date": "2030-01-01", "text": t} for t in rulings],
            "foreignData": [{"language": "German", "name": f"{name} (de)"}, {"language": "French", "name": f"{name} (fr)"},
                            {"language": "Spanish", "name": f"{name} (es)"}], **extra}


SHARED_RULING = "Retrace lets you cast this card from your graveyard again."


def test_a_ruling_shared_by_cards_is_stored_once_under_its_mechanic(tmp_path, capsys):
    root = data_copy(tmp_path / "kb")
    file = tiny_set(tmp_path / "TST.json", [
        card("Alpha Spell", "1", ["Retrace"], [SHARED_RULING, "Alpha Spell's target must be a creature."]),
        card("Beta Spell", "2", ["Retrace", "Flying"], [SHARED_RULING]),
        card("Two Faces", "3", oracle="66666666-2222-3333-4444-555555555555", faceName="Front", side="a"),
        card("Two Faces", "3", oracle="66666666-2222-3333-4444-555555555555", faceName="Back", side="b"),
        card("No Oracle", "4", oracle=None),
    ])
    assert main(["--root", str(root), "import", "mtgjson", str(file)]) == 0
    out = capsys.readouterr().out
    assert "cards: 3 new" in out and "rulings: 1 new" in out and "retrace 1" in out
    assert "not imported: 1 rulings" in out and "card not imported: No Oracle #4: no Scryfall oracle id" in out
    kb = load_knowledge_base(root)
    ruling = next(r for r in kb.rulings if r.mechanic == "retrace")
    assert ruling.cards == ("alpha-spell", "beta-spell")
    assert ruling.unit.text(SOURCE_LANGUAGE).text == SHARED_RULING
    assert ruling.unit.text(SOURCE_LANGUAGE).source == "mtgjson-tst"
    assert ruling.unit.pos.file == "rules/rulings/retrace.yaml"
    alpha = kb.card("alpha-spell")
    assert dict(alpha.names) == {"en": "Alpha Spell", "de": "Alpha Spell (de)", "fr": "Alpha Spell (fr)"}
    assert [c.id for c in kb.cards if c.set_code == "TST"] == ["alpha-spell", "beta-spell", "two-faces"]
    assert kb.sources["mtgjson-tst"].kind == "mtgjson"
    assert (root / "rules" / "sources.yaml").read_text("utf-8").startswith("# Every source")


@pytest.mark.parametrize("content, fragment", [
    ('{"data": {"cards": [', "not valid JSON"),
    ('{"data": {"code": "TST"}}', "not an MTGJSON set file"),
    ('{"data": {"code": "tst!", "cards": []}}', "is not a set code"),
    ('{"data": {"code": "TST", "cards": [{"name": "X", "number": "1", "identifiers": {"scryfallOracleId": '
     '"11111111-2222-3333-4444-555555555555"}, "rulings": [{"date": "soon", "text": "t"}]}]}}', "lacks a date or text"),
])
def test_bad_set_files_are_refused(content, fragment):
    with pytest.raises(DataError) as err:
        read_set(content.encode(), "bad.json", {"German": "de"})
    assert any(fragment in p.message and p.file == "bad.json" for p in err.value.problems), err.value.problems


def test_without_the_seed_rulings_the_explore_rulings_are_created_once_each(tmp_path, shared):
    root = data_copy(tmp_path / "kb")
    (root / "rules" / "rulings" / "explore.yaml").unlink()
    file = shared / "data" / "mtgjson" / "XLN.json"
    report = import_set(root, file)
    kb = load_knowledge_base(root)
    expected = explore_rulings_of_the_file(file)
    created = kb.rulings_for(mechanic="explore")
    assert report.rulings_new == len(created) == len(expected) == 3
    number_of = {c.id: c.collector_number for c in kb.cards}
    assert {r.unit.text(SOURCE_LANGUAGE).text: {number_of[c] for c in r.cards} for r in created} == expected
