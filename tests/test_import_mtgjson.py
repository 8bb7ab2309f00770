"""Importer for MTGJSON set files (importers/mtgjson.py): cards with their names in the knowledge
base's languages, and rulings stored once for every card that has them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import data_copy, rules_digest
from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.importers.mtgjson import import_sets, read_bytes, read_set

FIXTURES = Path(__file__).resolve().parent / "data" / "mtgjson"


def import_set(root: Path, file: Path):
    return import_sets(root, [file])
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
    for old in before.cards:  # same id, names and file; the printing it was shown with stays first
        new = kb.card(old.id)
        assert (dict(new.names), new.pos.file, new.printings[0].set_code, new.printings[0].number) == (
            dict(old.names), old.pos.file, old.set_code, old.collector_number)
    agent = kb.card("queens-agent")
    assert dict(agent.names) == {"en": "Queen's Agent", "de": "Agent der Königin", "fr": "Agent de la reine"}
    assert agent.oracle_id == "59104038-28c0-4ebd-9201-d7ae60d79c1c"
    assert "Explore" in agent.keywords
    assert agent.printings[0].texts["de"].startswith("Lebensverknüpfung\nWenn der Agent der Königin ins Spiel kommt, erkundet er.")
    # one card per oracle id: the faces of a double-faced card are one printing, the four Plains one card
    assert len({c.oracle_id for c in kb.cards}) == len(kb.cards) == report.cards_new + report.cards_same + report.cards_updated
    landing = next(c for c in kb.cards if c.names["en"].startswith("Legion's Landing"))
    assert landing.names["de"] == "Landung der Legion // Adanto, das erste Fort"
    assert [(p.set_code, p.number) for p in landing.printings] == [("XLN", "22")]
    assert "\n//\n" in landing.printings[0].texts["fr"]   # the printed texts of both faces
    plains = [c for c in kb.cards if c.names["en"] == "Plains"]
    assert len(plains) == 1 and len(plains[0].printings) == 4
    assert report.rulings_cards_only > 0
    assert f"{report.rulings_cards_only} belong to their cards only" in "\n".join(report.lines())


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
        card("Beta Spell", "2", ["Retrace", "Flying"], [SHARED_RULING], oracle="22222222-2222-3333-4444-555555555555"),
        card("Two Faces", "3", oracle="66666666-2222-3333-4444-555555555555", faceName="Front", side="a"),
        card("Two Faces", "3", oracle="66666666-2222-3333-4444-555555555555", faceName="Back", side="b"),
        card("No Oracle", "4", oracle=None),
    ])
    assert main(["--root", str(root), "import", "mtgjson", str(file)]) == 0
    out = capsys.readouterr().out
    assert "cards: 3 new" in out and "rulings: 2 new" in out and "retrace 1" in out
    assert "1 belong to their cards only" in out and "No Oracle #4 (TST): no Scryfall oracle id" in out
    kb = load_knowledge_base(root)
    ruling = next(r for r in kb.rulings if r.mechanic == "retrace")
    assert ruling.cards == ("alpha-spell", "beta-spell") and ruling.rules == ("retrace",)
    assert ruling.unit.text(SOURCE_LANGUAGE).text == SHARED_RULING
    assert ruling.unit.text(SOURCE_LANGUAGE).source == "mtgjson-tst"
    assert ruling.unit.pos.file == "rules/rulings/a.yaml"
    own = next(r for r in kb.rulings if r.cards == ("alpha-spell",))
    assert own.rules == () and own.mechanic is None   # a ruling of its card only
    alpha = kb.card("alpha-spell")
    assert dict(alpha.names) == {"en": "Alpha Spell", "de": "Alpha Spell (de)", "fr": "Alpha Spell (fr)"}
    assert alpha.pos.file == "rules/cards/a.yaml"
    assert [c.id for c in kb.cards if c.set_code == "TST"] == ["alpha-spell", "beta-spell", "two-faces"]
    assert kb.sources["mtgjson-tst"].kind == "mtgjson"
    assert (root / "rules" / "sources.yaml").read_text("utf-8").startswith("# Every source")


@pytest.mark.parametrize("content, fragment", [
    ('{"data": {"cards": [', "not valid JSON"),
    ('{"data": {"code": "TST"}}', "not an MTGJSON set file"),
    ('{"data": {"code": "tst!", "cards": []}}', "is not a set code"),
    ('{"data": {"code": "TST", "cards": [{"name": "X", "number": "1", "identifiers": {"scryfallOracleId": '
     '"11111111-2222-3333-4444-555555555555"}, "rulings": [{"date": "soon", "text": "t"}]}]}}', "lacks a date or text"),
    ('{"data": {"code": "TST", "cards": [{"name": "X", "number": "1", "identifiers": {"scryfallOracleId": '
     '"11111111-2222-3333-4444-555555555555"}, "foreignData": [{"language": "German", "name": 7}]}]}}',
     "data.cards[0].foreignData[0].name (X, German) is 7, not text"),
    ('{"data": {"code": "TST", "cards": [{"name": "X", "number": "1", "identifiers": {"scryfallOracleId": '
     '"11111111-2222-3333-4444-555555555555"}, "foreignData": [{"language": "German", "name": "Y", "text": ["a"]}]}]}}',
     'data.cards[0].foreignData[0].text (X, German) is ["a"], not text'),
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
    assert len(created) == len(expected) == 3 and dict(report.by_mechanic)["explore"] == 3
    number_of = {c.id: c.collector_number for c in kb.cards}
    assert {r.unit.text(SOURCE_LANGUAGE).text: {number_of[c] for c in r.cards} for r in created} == expected


# ---------------------------------------------------------------- several sets, any compression

@pytest.fixture(scope="module")
def fixture_sets(tmp_path_factory):
    """The cut-down set files of tests/data/mtgjson imported into a copy of the project's data."""
    root = data_copy(tmp_path_factory.mktemp("sets"))
    before = load_knowledge_base(root)
    report = import_sets(root, [FIXTURES])
    return root, before, load_knowledge_base(root), report


def test_every_compression_reads_as_the_json_it_holds(tmp_path):
    for name in ("RAV.json.gz", "XLN.json.xz", "EVE.json.bz2", "GRN.json"):
        doc = json.loads(read_bytes(FIXTURES / name))
        assert doc["data"]["code"] == name.split(".")[0]


def test_a_card_is_one_oracle_id_with_all_its_printings(fixture_sets):
    _, _, kb, report = fixture_sets
    assert report.sets == ("RAV", "EVE", "XLN", "GRN", "UMA")   # oldest first
    troll = kb.card("golgari-grave-troll")
    assert dict(troll.names) == {"en": "Golgari Grave-Troll", "de": "Golgari-Grabtroll", "fr": "Troll des tombes golgari"}
    assert [(p.set_code, p.number) for p in troll.printings] == [("RAV", "167"), ("UMA", "167")]
    assert troll.printings[0].names["de"] == "Golgari-Grabtroll"
    assert "Ausgraben 6" in troll.printings[0].texts["de"] and "Dragage 6" in troll.printings[0].texts["fr"]
    assert troll.keywords == ("Dredge", "Mill") and troll.source == "mtgjson-rav"
    assert all(set(p.names) <= {"de", "fr"} for c in kb.cards for p in c.printings)   # no Spanish


def test_rulings_belong_to_their_cards_and_to_the_rules_they_are_about(fixture_sets):
    _, before, kb, _ = fixture_sets
    dredge = kb.rulings_for(mechanic="dredge")
    assert len(dredge) == 3 and all(r.cards == ("golgari-grave-troll", "life-from-the-loam") for r in dredge)
    assert {r.date for r in dredge} == {"2013-06-07"}
    retrace = kb.rulings_for(mechanic="retrace")
    assert len(retrace) == 4 and all(r.cards == ("cenns-enlistment", "flame-jab") for r in retrace)
    assert any(r.unit.text("en").text.startswith("Casting a card by using its retrace ability") for r in retrace)
    troll_only = [r for r in kb.rulings_for(card="golgari-grave-troll") if not r.rules]
    assert len(troll_only) == 2
    # the seed's explore rulings: same ids and German texts, Sunrise Seeker's printing named
    assert [r.id for r in kb.rulings_for(mechanic="explore")] == [r.id for r in before.rulings_for(mechanic="explore")]
    for old in before.rulings:
        new = next(r for r in kb.rulings if r.id == old.id)
        assert {lang: [v.text for v in vs] for lang, vs in new.unit.variants.items()} == {
            lang: [v.text for v in vs] for lang, vs in old.unit.variants.items()}
        assert new.cards[:len(old.cards)] == old.cards


def test_reimporting_the_sets_changes_no_byte(fixture_sets, capsys):
    root = fixture_sets[0]
    before = rules_digest(root)
    assert main(["--root", str(root), "import", "mtgjson", *map(str, sorted(FIXTURES.glob("*.json*")))]) == 0
    assert "nothing changed" in capsys.readouterr().out
    assert rules_digest(root) == before


def test_the_same_sets_give_the_same_bytes_in_another_order(tmp_path, fixture_sets):
    other = data_copy(tmp_path / "kb")
    import_sets(other, sorted(FIXTURES.glob("*.json*"), reverse=True))
    assert rules_digest(other) == rules_digest(fixture_sets[0])


def truncated_gzip(path: Path) -> Path:
    data = (FIXTURES / "RAV.json.gz").read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize("name, content, fragment", [
    ("RAV.json.gz", truncated_gzip, "the gzip data is damaged or cut short"),
    ("BAD.json.xz", b"not xz at all", "the xz data is damaged or cut short"),
    ("BAD.json.bz2", b"BZh9 broken", "the bzip2 data is damaged or cut short"),
    ("BAD.json", b'{"data": {"cards": [', "not valid JSON"),
    ("DEEP.json", b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    ("BAD.txt", b"{}", "not an MTGJSON set file name"),
])
def test_a_bad_file_is_named_and_nothing_is_written(tmp_path, capsys, name, content, fragment):
    root = data_copy(tmp_path / "kb")
    before = rules_digest(root)
    path = tmp_path / name
    if callable(content):
        content(path)
    else:
        path.write_bytes(content)
    assert main(["--root", str(root), "import", "mtgjson", str(FIXTURES / "GRN.json"), str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:1: error: " in err or f"{path}:1:" in err
    assert fragment in err and "Traceback" not in err and "nothing was written" in err
    assert rules_digest(root) == before


def test_a_folder_without_set_files_is_refused(tmp_path, capsys):
    root = data_copy(tmp_path / "kb")
    (tmp_path / "empty").mkdir()
    assert main(["--root", str(root), "import", "mtgjson", str(tmp_path / "empty")]) == 2
    assert "the folder holds no MTGJSON set file" in capsys.readouterr().err


def test_the_source_file_is_named_as_it_lies_in_the_shared_reference_material(tmp_path):
    root = data_copy(tmp_path / "kb")
    sets = tmp_path / "shared" / "data" / "mtgjson" / "sets"   # ../shared beside the project, as in the repository
    sets.mkdir(parents=True)
    tiny_set(sets / "TST.json", [card("Alpha Spell", "1")])
    elsewhere = tmp_path / "downloads"
    elsewhere.mkdir()
    file = tiny_set(elsewhere / "TST.json", [card("Alpha Spell", "1")])
    file.with_name("XYZ.json").write_text(file.read_text("utf-8").replace('"TST"', '"XYZ"'), "utf-8")
    import_sets(root, [sets / "TST.json", elsewhere / "XYZ.json"])
    kb = load_knowledge_base(root)
    assert kb.sources["mtgjson-tst"].file == "data/mtgjson/sets/TST.json"
    assert kb.sources["mtgjson-xyz"].file == "XYZ.json"   # not in ../shared: its name


def test_printings_printed_alike_are_stored_once_per_language(tmp_path):
    """`printings: TST 5, TST 5s, …` and per language one entry for the printings with the same
    printed name and text; an entry's key stays short enough to be a plain YAML key."""
    root = data_copy(tmp_path / "kb")
    def printing(number, german):
        found = card("Alpha Spell", number)
        found["foreignData"] = [{"language": "German", "name": "Alphazauber", "text": german},
                                {"language": "French", "name": "Sort alpha", "text": "Texte."}]
        return found
    many = [printing(f"{100000 + i}", "Zweiter Text.") for i in range(30)]
    file = tiny_set(tmp_path / "TST.json", [printing("5", "Erster Text."), printing("5s", "Erster Text."),
                                            printing("5p", "Zweiter Text."), *many])
    import_sets(root, [file])
    text = (root / "rules" / "cards" / "a.yaml").read_text("utf-8")
    assert "  printings: TST 5, TST 5p, TST 5s, TST 100000, TST 100001," in text
    assert "    de:\n      TST 5, TST 5s: |-\n        Alphazauber\n        Erster Text.\n      TST 5p, TST 100000," in text
    assert "? " not in text and all(len(line.split(": ")[0]) < 134 for line in text.splitlines())
    alpha = load_knowledge_base(root).card("alpha-spell")
    assert len(alpha.printings) == 33
    assert {(p.names["de"], p.texts["de"], p.names["fr"], p.texts["fr"]) for p in alpha.printings} == {
        ("Alphazauber", "Erster Text.", "Sort alpha", "Texte."), ("Alphazauber", "Zweiter Text.", "Sort alpha", "Texte.")}
    assert [p.texts["de"] for p in alpha.printings[:3]] == ["Erster Text.", "Zweiter Text.", "Erster Text."]
    before = rules_digest(root)
    import_sets(root, [file])
    assert rules_digest(root) == before
