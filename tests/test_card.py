"""`rulekb card NAME` (commands/card.py, cardlookup.py): a card found by its English, German or
French name, case and accents aside, with its names, printings, dated rulings and the rules of
its keywords; several matches listed; read entry by entry, at the entries' own line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import data_copy
from rulekb.cardlookup import Lookup, _holding, entries, fold, name_lines
from rulekb.commands import main
from rulekb.importers.mtgjson import import_sets
from rulekb.knowledge import load_knowledge_base

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


def test_the_text_search_reads_names_and_printed_names_not_printed_rules_text():
    """Without a name index a card file is searched in the lines that can hold a name: the
    names, and each printed block's first line (the printed name); the printed rules text below
    it is left out (it names other cards: "Golgari" in a rules text is not a card's name), and
    every line stays where it was, so the entries found are the right ones."""
    text = ("cards:\n- id: gaddock-teeg\n  name:\n    en: Gaddock Teeg\n    de: Gaddock Teeg\n"
            "  printed:\n    de:\n      LRW 248: |-\n        Gaddock Teeg, der Alte\n"
            "        Golgari-Zauberspr\u00fcche kosten mehr.\n\n        Noch eine Zeile.\n"
            "- id: golgari-grave-troll\n  name:\n    en: Golgari Grave-Troll\n")
    kept = name_lines(text)
    assert kept.count("\n") == text.count("\n")
    assert "Gaddock Teeg, der Alte" in kept and "Golgari Grave-Troll" in kept
    assert "Zauberspr" not in kept and "Noch eine" not in kept
    assert [e.line for e in _holding("f.yaml", text, "golgari")] == [13]
    assert [e.line for e in _holding("f.yaml", text, "der alte")] == [2]


def test_a_card_is_found_in_its_file_as_it_is_now_and_nothing_is_cached(tmp_path, monkeypatch):
    """The card files are searched as text, as they are now: after a load, and after a file
    changed; no name index is kept (it did not pay)."""
    root = data_copy(tmp_path / "kb")
    import_sets(root, [FIXTURES])
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(cache))
    before = Lookup(root).find("golgari")
    load_knowledge_base(root)
    found = Lookup(root).find("golgari")
    assert [c.id for c in found.cards] == [c.id for c in before.cards] == ["golgari-findbroker", "golgari-grave-troll"]
    assert not found.exact and Lookup(root).find("Troll des tombes GOLGARI").cards == (found.cards[1],)
    path = root / "rules" / "cards" / "g.yaml"
    path.write_text(path.read_text("utf-8").replace("    de: Golgari-Grabtroll\n", "    de: Golgari-Grabungstroll\n"), "utf-8")
    assert [c.id for c in Lookup(root).find("grabungstroll").cards] == ["golgari-grave-troll"]
    assert not (cache / "card-names").exists()


def test_the_rules_of_a_card_are_read_against_the_projects_releases(tmp_path, capsys):
    """A rule imported from a release lists its releases as ranges, which stand for the releases
    of rules/releases/: the lookup reads them against those (their names), as the load does."""
    from rulekb.importers.cr import import_release
    root = data_copy(tmp_path / "kb")
    import_sets(root, [FIXTURES])
    import_release(root, FIXTURES.parent / "cr" / "release-2030-01-01.txt")
    assert "releases: '2030-01-01'" in (root / "rules" / "comprehensive" / "retrace.yaml").read_text("utf-8")
    code, out, err = card(root, capsys, "Flame Jab")
    assert code == 0, err
    assert "702.3 Retrace  [retrace]" in out and out.count("[rules: retrace]") == 4
