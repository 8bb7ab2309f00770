"""The phraseology miner (`rulekb phrases mine`): the printed German and French texts of a few
cut-down MTGJSON set files (tests/data/phrases) counted per frame and filler, dated, weighted,
written sorted and read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import DATA
from rulekb.commands import main
from rulekb.importers.phrases import MIN_TEXTS, REMINDER_MIN_TEXTS, mine, mine_into, phraseology_yaml
from rulekb.phraseology import PHRASEOLOGY_FILE, load_phraseology, weight
from rulekb.importers.mtgjson import read_bytes, read_set

SETS = DATA / "phrases"
LANGUAGES = {"German": "de", "French": "fr"}


@pytest.fixture(scope="module")
def mined():
    return mine([SETS], LANGUAGES, min_texts=1, min_reminder_texts=1)


def _official_texts(lang: str) -> dict[str, tuple[str, str]]:
    """Each distinct printed text of `lang` in the fixture sets with its first and last printing,
    read with the importer's reader (a second count, beside the miner's)."""
    out: dict[str, tuple[str, str]] = {}
    for path in sorted(SETS.glob("*.json")):
        found = read_set(read_bytes(path), str(path), LANGUAGES)
        if not found.release:
            continue
        for card in found.cards:
            for code, _name, text in card.foreign:
                if code == lang and text:
                    first, last = out.get(text, (found.release, found.release))
                    out[text] = (min(first, found.release), max(last, found.release))
    return out


@pytest.mark.parametrize("lang,frame,filler,phrase", [
    ("de", "deinem friedhof", "aus", "aus deinem Friedhof"),
    ("de", "deinen friedhof", "auf", "auf deinen Friedhof"),
    ("de", "das spiel", "in", "ins Spiel"),
    ("fr", "votre cimetière", "depuis", "depuis votre cimetière"),
    ("fr", "votre cimetière", "dans", "dans votre cimetière"),
    ("fr", "∅ jeu", "en", "en jeu"),
    ("fr", "le champ de bataille", "sur", "sur le champ de bataille"),
])
def test_each_filler_counts_the_distinct_texts_that_print_it(mined, lang, frame, filler, phrase):
    data, _sets, _skipped = mined
    texts = _official_texts(lang)
    having = {t: span for t, span in texts.items() if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", t)}
    variant = data.frame(lang, "zone", frame).variant(filler)
    assert variant.phrase == phrase
    assert variant.texts == len(having) > 0
    assert variant.first == min(first for first, _ in having.values())
    assert variant.last == max(last for _, last in having.values())
    newest = data.corpus_of(lang).newest
    assert variant.weight == round(sum(weight(last, newest) for _, last in having.values()), 1)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_reminder_texts_are_paired_with_the_english_reminder_of_the_same_line(mined, lang):
    data, _sets, _skipped = mined
    english = "This creature can't be blocked except by creatures with flying or reach."
    frame = data.frame(lang, "reminder", english.lower())
    printed = {"de": "Diese Kreatur kann außer von fliegenden Kreaturen und Kreaturen mit Reichweite nicht geblockt werden.",
               "fr": "Cette créature ne peut être bloquée que par des créatures avec le vol ou la portée."}[lang]
    having = {t: span for t, span in _official_texts(lang).items() if f"({printed})" in t}
    assert [v.phrase for v in frame.variants] == [printed]
    assert frame.variants[0].texts == len(having) >= 1          # Snapping Drake (10E, M20)
    assert frame.variants[0].first == min(a for a, _ in having.values()) == "2007-07-13"
    assert frame.variants[0].last == max(b for _, b in having.values())


def test_a_reprint_counts_once_dated_by_its_newest_printing(mined):
    data, _sets, _skipped = mined
    # Gorging Vulture: M20 (2019) and the same texts in TRP (2022): one text, last printed 2022
    variant = data.frame("de", "zone", "deinen friedhof").variant("auf")
    assert variant.last == "2022-02-18" and variant.first == "2019-07-12"
    assert variant.texts == 2          # Gorging Vulture and Cavalier of Thorns, not three


def test_older_texts_weigh_less_and_recent_counts_the_last_eight_years(mined):
    data, _sets, _skipped = mined
    en_jeu = data.frame("fr", "zone", "∅ jeu").variant("en")          # 10E only (2007)
    sur = data.frame("fr", "zone", "le champ de bataille").variant("sur")  # 2019 and 2022
    assert en_jeu.recent == 0 and sur.recent == sur.texts == 3
    assert en_jeu.weight / en_jeu.texts < 0.15 < 0.6 < sur.weight / sur.texts


def test_a_set_without_release_date_is_left_out_and_said(mined):
    data, sets, skipped = mined
    assert sets == 4 and skipped == ("NOD.json: no release date",)
    assert [c.sets for c in data.corpus] == [3, 3]
    assert [c.texts for c in data.corpus] == [len(_official_texts("de")), len(_official_texts("fr"))]


def test_the_file_is_sorted_and_the_same_files_give_the_same_bytes(mined):
    text = phraseology_yaml(mined[0])
    assert text == phraseology_yaml(mine(list(reversed(sorted(SETS.glob("*.json")))), LANGUAGES, min_texts=1, min_reminder_texts=1)[0])
    keys = re.findall(r"  - lang: (\w+)\n    family: (\w+)\n    frame: \"([^\"]+)\"", text)
    assert keys == sorted(keys) and len(keys) == len(mined[0].frames)


def test_frames_of_fewer_than_min_texts_texts_are_left_out(mined):
    kept = mine([SETS], LANGUAGES)[0].frames
    least = {f: MIN_TEXTS if f.family != "reminder" else REMINDER_MIN_TEXTS for f in mined[0].frames}
    assert kept and set(kept) == {f for f in mined[0].frames if sum(v.texts for v in f.variants) >= least[f]}
    assert any(f.family == "reminder" for f in mined[0].frames) and not any(f.family == "reminder" for f in kept)


def test_mine_into_writes_the_file_the_checks_read(valid_tree: Path):
    report = mine_into(valid_tree, [SETS])
    assert report.written and (valid_tree / PHRASEOLOGY_FILE).is_file()
    # the project's target languages (this tree has German only)
    assert load_phraseology(valid_tree) == mine([SETS], {"German": "de"})[0] == report.phraseology
    again = mine_into(valid_tree, [SETS])
    assert not again.written                                  # unchanged: not rewritten
    assert not list((valid_tree / "translations").glob(".*"))  # no staging file left behind


def test_the_command_prints_what_it_mined(valid_tree: Path, capsys):
    assert main(["--root", str(valid_tree), "phrases", "mine", str(SETS)]) == 0
    out = capsys.readouterr().out
    assert f"{PHRASEOLOGY_FILE}: written (4 set files" in out
    assert "  de: 8 distinct official texts" in out and "left out: NOD.json: no release date" in out


def test_a_damaged_set_file_is_named_and_nothing_is_written(valid_tree: Path, tmp_path: Path, capsys):
    bad = tmp_path / "BAD.json"
    bad.write_text('{"data": {"code": "BAD", "cards": [', encoding="utf-8")
    assert main(["--root", str(valid_tree), "phrases", "mine", str(SETS), str(bad)]) == 2
    assert f"{bad}:1:" in capsys.readouterr().err
    assert not (valid_tree / PHRASEOLOGY_FILE).exists()
