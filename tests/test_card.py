"""`rulekb card NAME` (commands/card.py, cardlookup.py): a card found by its English, German or
French name, case and accents aside, with its names, printings, dated rulings and the rules of
its keywords; several matches listed; read entry by entry, at the entries' own line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import data_copy
from rulekb.cardlookup import entries, fold
from rulekb.commands import main
from rulekb.importers.mtgjson import import_sets

FIXTURES = Path(__file__).resolve().parent / "data" / "mtgjson"


@pytest.fixture(scope="module")
def kb(tmp_path_factory) -> Path:
    root = data_copy(tmp_path_factory.mktemp("cards"))
    import_sets(root, [FIXTURES])
    return root


def card(root: Path, capsys, *name: str) -> tuple[int, str, str]:
    code = main(["--root", str(root), "card", *name])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fold_ignores_case_accents_and_spacing():
    assert fold("Agent der  Königin") == fold("AGENT DER KONIGIN") == "agent der konigin"
    assert fold("Æther Vial") == "aether vial" and fold("Troll des tombes golgari") == "troll des tombes golgari"


def test_a_card_by_its_german_name_with_its_dredge_rulings_and_rule(kb, capsys):
    code, out, _ = card(kb, capsys, "golgari-grabtroll")
    assert code == 0
    assert out.startswith("Golgari Grave-Troll  [golgari-grave-troll]")
    assert "  de: Golgari-Grabtroll\n" in out and "  fr: Troll des tombes golgari\n" in out
    assert "printings (2): RAV #167, UMA #167" in out
    assert out.count("2013-06-07  ") == 3 and out.count("[rules: dredge]") == 3
    assert "en: Dredge lets you replace any card draw" in out
    assert "2018-12-07  " in out   # its own rulings too
    assert "702.49 Dredge  [dredge]" in out and "702.49a Dredge is a static ability" in out


def test_a_card_by_its_french_name_with_the_explore_rulings_and_their_german(kb, capsys):
    code, out, _ = card(kb, capsys, "Agent", "de", "la", "REINE")
    assert code == 0 and out.startswith("Queen's Agent  [queens-agent]")
    assert out.count("[rules: explore]") == 6
    assert "explore-no-card-revealed" in out
    assert "de: Falls keine Karte aufgedeckt wird, wahrscheinlich weil die Bibliothek des Spielers leer ist" in out
    assert "701.38 Explore  [explore]" in out
    _, accentless, _ = card(kb, capsys, "agent der konigin")
    assert accentless == out


def test_flame_jab_has_the_retrace_rulings(kb, capsys):
    code, out, _ = card(kb, capsys, "Flame Jab")
    assert code == 0 and "  de: Flammenhieb\n" in out
    assert out.count("2008-08-01  ") == 4 and out.count("[rules: retrace]") == 4
    assert "en: Casting a card by using its retrace ability" in out
    assert "Retrace  [retrace]" in out


def test_several_matches_are_listed(kb, capsys):
    code, out, _ = card(kb, capsys, "golgari")
    assert code == 0
    assert out.startswith("2 cards have a name containing 'golgari':")
    assert "Golgari Findbroker (golgari-findbroker; de: Golgari-Fundhändler" in out
    assert "Golgari Grave-Troll (golgari-grave-troll;" in out


def test_no_card_found(kb, capsys):
    code, out, err = card(kb, capsys, "Grabtroll der Nacht")
    assert code == 1 and out == ""
    assert "error: no card is named 'Grabtroll der Nacht'" in err


def test_a_broken_entry_is_named_at_its_line(kb, tmp_path, capsys):
    root = data_copy(tmp_path / "kb")
    import_sets(root, [FIXTURES])
    path = root / "rules" / "cards" / "g.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace("  oracle_id: 686f4a37", "  oracle_id: 686F4A37"), "utf-8")
    line = next(i + 1 for i, ln in enumerate(path.read_text("utf-8").splitlines()) if "686F4A37" in ln)
    code, _, err = card(root, capsys, "Golgari-Grabtroll")
    assert code == 2 and f"rules/cards/g.yaml:{line}:" in err and "oracle_id" in err and "Traceback" not in err


def test_entries_keep_their_lines():
    text = "mechanic: x\nrulings:\n- id: a\n  date: '1'\n- id: b\n  cards:\n  - c\n"
    found = list(entries("f.yaml", text))
    assert [(e.line, e.text.splitlines()[0]) for e in found] == [(3, "- id: a"), (5, "- id: b")]
    assert found[1].source().splitlines()[4] == "- id: b" and found[1].source().startswith("mechanic: x\nrulings:\n")
