"""rulekb.phraseology: the families' patterns (German, French), the verdict on a phrase, and the
strict reader of translations/phraseology.yaml (file:line:column problems)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.diagnostics import DataError
from rulekb.phraseology import (PHRASEOLOGY_FILE, Corpus, Frame, Occurrence, Phraseology, Variant, load_phraseology,
                                patterns, reminders)


def found(lang: str, text: str) -> list[tuple[str, str, str, str]]:
    return [(o.family, o.frame, o.filler, o.phrase(text)) for o in patterns(lang).find(text)]


@pytest.mark.parametrize("lang,text,expected", [
    ("de", "Bringe sie aus deinem Friedhof auf deine Hand zurück.",
     [("zone", "deinem friedhof", "aus", "aus deinem Friedhof"), ("zone", "deine hand", "auf", "auf deine Hand")]),
    ("de", "Wenn X ins Spiel kommt", [("zone", "das spiel", "in", "ins Spiel")]),             # fused: in + das
    ("de", "vom Stapel", [("zone", "dem stapel", "von", "vom Stapel")]),
    ("de", "Du kannst diesen Zauberspruch wirken.", [("verb", "zauberspruch", "wirken", "Zauberspruch wirken")]),
    ("de", "ohne seine Manakosten zu bezahlen, und", [("verb", "manakosten", "bezahlen", "Manakosten zu bezahlen")]),
    ("de", "die Fähigkeit einer Karte spielst.", []),          # "einer Karte" is no object of "spielst"
    ("de", "ein Zauberspruch ist.", []),                       # not a verb of the slot
    ("fr", "renvoyez-la depuis votre cimetière dans votre main",
     [("zone", "votre cimetière", "depuis", "depuis votre cimetière"), ("zone", "votre main", "dans", "dans votre main")]),
    ("fr", "arrive en jeu", [("zone", "∅ jeu", "en", "en jeu")]),
    ("fr", "cela reste une mise en jeu de terrain", []),        # a land play (a noun of its own), not the zone
    ("fr", "les règles de mise en jeu", []),
    ("fr", "les forêts mises en jeu de cette manière", [("zone", "∅ jeu", "en", "en jeu")]),  # the participle: the zone
    ("fr", "mettez-la au cimetière", [("zone", "le cimetière", "à", "au cimetière")]),       # fused: à + le
    ("fr", "exilez-la de l’exil ou d'un cimetière",
     [("zone", "l' exil", "de", "de l’exil"), ("zone", "un cimetière", "de", "d'un cimetière")]),
    ("fr", "sur le champ de bataille", [("zone", "le champ de bataille", "sur", "sur le champ de bataille")]),
    ("fr", "Vous pouvez lancer ce sort.", [("verb", "sort", "lancer", "lancer ce sort")]),
    ("fr", "la carte contre un sort", []),                      # a preposition, not a verb
    ("de", "Kreaturen, die du kontrollierst, und", [("relative", "du kontrollierst", "die", "die du kontrollierst")]),
    ("de", "jede Karte, welche ein Gegner besitzt.", [("relative", "ein gegner besitzt", "welche", "welche ein Gegner besitzt")]),
    ("fr", "les créatures que vous contrôlez", [("relative", "vous contrôlez", "que", "que vous contrôlez")]),
    ("fr", "les sorts qu'un adversaire lance", [("relative", "un adversaire lance", "qu'", "qu'un adversaire lance")]),
    ("fr", "la carte dont vous êtes le propriétaire", []),   # "êtes": no verb form of the slot's
])
def test_patterns_find_the_phrases_of_each_family(lang, text, expected):
    assert sorted(found(lang, text)) == sorted(expected)


def test_reminder_texts_pair_the_lines_of_the_english_and_the_printed_text():
    english = "Flying (This creature can't be blocked except by creatures with flying or reach.)\nWhen X dies, draw a card."
    printed = "Fliegend (Diese Kreatur kann nur von Kreaturen mit Flugfähigkeit geblockt werden.)\nWenn X stirbt, ziehe eine Karte."
    [(en, occ)] = list(reminders(english, printed))
    assert en == "This creature can't be blocked except by creatures with flying or reach."
    assert occ.frame == en.lower() and occ.phrase(printed) == "Diese Kreatur kann nur von Kreaturen mit Flugfähigkeit geblockt werden."
    assert occ.filler == occ.phrase(printed).lower()
    assert list(reminders(english, printed.split("\n")[0])) == []      # lines that do not correspond: none


def test_english_has_no_grammar():
    assert patterns("en") is None


def v(filler: str, phrase: str, texts: int, weight: float, recent: int | None = None, last: str = "2022-01-01") -> Variant:
    return Variant(filler, phrase, texts, texts if recent is None else recent, weight, "2000-01-01", last)


DATA = Phraseology(
    (Corpus("de", 1000, "2022-02-18", 10), Corpus("fr", 1000, "2022-02-18", 10)),
    (Frame("zone", "de", "deinem friedhof", (v("aus", "aus deinem Friedhof", 1479, 700.0),
                                            v("in", "in deinem Friedhof", 370, 160.0),
                                            v("von", "von deinem Friedhof", 3, 0.1, 0, "1999-01-01"))),
     Frame("zone", "de", "deiner bibliothek", (v("von", "von deiner Bibliothek", 107, 53.0),
                                              v("aus", "aus deiner Bibliothek", 14, 7.0))),
     Frame("zone", "de", "deine hand", (v("auf", "auf deine Hand", 1000, 630.0),)),
     Frame("zone", "fr", "∅ jeu", (v("en", "en jeu", 1634, 175.0, 3, "2020-04-17"),)),
     Frame("verb", "fr", "sort", (v("lancez", "lancez un sort", 726, 429.0), v("lancer", "lancer ce sort", 436, 284.0),
                                  v("contrecarrez", "Contrecarrez le sort", 366, 159.0),
                                  v("jouez", "jouez un sort", 282, 29.0, 0, "2009-04-30"))),
     Frame("verb", "fr", "terrain", (v("jouer", "jouer un terrain", 100, 60.0),)),
     Frame("verb", "fr", "carte", (v("piochez", "piochez une carte", 900, 300.0), v("exilez", "exilez la carte", 300, 250.0),
                                   v("renvoyez", "renvoyez la carte", 300, 220.0), v("mettez", "mettez la carte", 300, 200.0),
                                   v("jouez", "jouez la carte", 100, 5.0, 0, "2008-01-01")))))


def verdict(lang: str, family: str, frame: str, filler: str):
    return DATA.verdict(lang, Occurrence(family, frame, filler, 0, 1))


@pytest.mark.parametrize("lang,family,frame,filler,kind,usual", [
    ("de", "zone", "deinem friedhof", "von", "unofficial", "aus"),   # 3 old texts of 1,479 + 3
    ("de", "zone", "deinem friedhof", "aus", None, None),
    ("de", "zone", "deinem friedhof", "in", None, None),            # where, not whence: another class
    ("de", "zone", "deinem friedhof", "mit", None, None),           # a preposition of no class
    ("de", "zone", "deiner bibliothek", "auf", None, None),         # "oben auf deiner Bibliothek": no rival of "von"
    ("de", "zone", "deine hand", "in", "unofficial", "auf"),        # never "in deine Hand"
    ("de", "zone", "seine hand", "in", None, None),                 # a frame the data does not know
    ("fr", "zone", "∅ jeu", "en", "retired", "en"),                 # 1,634 texts, 3 of them recent
    ("fr", "verb", "sort", "jouez", "retired", "lancez"),
    ("fr", "verb", "sort", "jouer", "unofficial", "lancez"),        # "jouer" is a verb of the family (terrain)
    ("fr", "verb", "sort", "copiez", None, None),                   # never seen anywhere in the family: no verdict
    ("fr", "verb", "carte", "jouer", None, None),                   # no variant carries the frame: nothing to prescribe
    ("fr", "verb", "carte", "jouez", None, None),                   # retired, but nothing clearly replaced it
])
def test_verdict(lang, family, frame, filler, kind, usual):
    found = verdict(lang, family, frame, filler)
    assert (found.kind if found else None) == kind
    assert (found.usual.filler if found else None) == usual


def test_the_runner_up_is_quoted_when_it_carries_half_as_much():
    assert [x.filler for x in verdict("fr", "verb", "sort", "jouer").also] == ["lancer"]
    assert verdict("de", "zone", "deine hand", "in").also == ()


# ------------------------------------------------------------------ the file


GOOD = """\
half_life: 5.0
corpus:
  - {lang: de, texts: 10, newest: "2022-02-18", sets: 2}
frames:
  - lang: de
    family: zone
    frame: "deinem friedhof"
    variants:
      - {filler: "aus", phrase: "aus deinem Friedhof", texts: 8, recent: 5, weight: 6.5, first: "2007-07-13", last: "2022-02-18"}
      - {filler: "in", phrase: "in deinem Friedhof", texts: 2, recent: 2, weight: 1.5, first: "2019-07-12", last: "2022-02-18"}
"""


def write(tree: Path, text: str) -> None:
    (tree / PHRASEOLOGY_FILE).write_text(text, encoding="utf-8")


def test_the_file_loads(valid_tree: Path):
    write(valid_tree, GOOD)
    data = load_phraseology(valid_tree)
    frame = data.frame("de", "zone", "deinem friedhof")
    assert [x.filler for x in frame.variants] == ["aus", "in"] and frame.line == 5 and frame.variants[1].line == 10


def test_a_filler_left_out_is_the_phrase_itself(valid_tree: Path):
    write(valid_tree, GOOD.replace('filler: "in", phrase: "in deinem Friedhof"', 'phrase: "In deinem Friedhof"'))
    assert [x.filler for x in load_phraseology(valid_tree).frame("de", "zone", "deinem friedhof").variants] == [
        "aus", "in deinem friedhof"]


def test_a_file_read_before_comes_from_the_cache(valid_tree: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    write(valid_tree, GOOD)
    first = load_phraseology(valid_tree)
    assert list((tmp_path / "cache" / "phraseology").rglob("*.pickle"))
    assert load_phraseology(valid_tree) == first
    write(valid_tree, GOOD.replace("texts: 8,", "texts: 9,"))      # other bytes: read again
    assert load_phraseology(valid_tree).frame("de", "zone", "deinem friedhof").variants[0].texts == 9


def test_no_file_no_phrases(valid_tree: Path):
    assert load_phraseology(valid_tree) == Phraseology((), ())


@pytest.mark.parametrize("change,needle,message", [
    (("recent: 5,", "recnt: 5,"), "recnt", "unknown field 'recnt'"),
    (("texts: 8,", "texts: many,"), "many", "texts"),
    (("recent: 2,", "recent: 3,"), "3, weight: 1.5", "recent (3) is more than texts (2)"),
    (('first: "2007-07-13"', 'first: "2023-01-01"'), '{filler: "aus"', "first printing (2023-01-01) is after its last"),
    (("family: zone", "family: zones"), "zones", "frame family"),
    (("lang: de\n    family", "lang: it\n    family"), "it\n", "frame lang"),
    (('filler: "in"', 'filler: "aus"'), '{filler: "aus", phrase: "in', "lists the filler 'aus' twice"),
])
def test_a_wrong_file_is_refused_at_file_line_column(valid_tree: Path, change, needle, message):
    text = GOOD.replace(*change, 1)
    write(valid_tree, text)
    at = text.index(needle)
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    with pytest.raises(DataError) as exc:
        load_phraseology(valid_tree)
    assert any((p.file, p.line, p.column) == (PHRASEOLOGY_FILE, line, column) and message in p.message
               for p in exc.value.problems), exc.value.problems


def test_a_frame_twice_is_refused(valid_tree: Path):
    frame = GOOD[GOOD.index("  - lang: de\n    family"):]
    write(valid_tree, GOOD + frame)
    with pytest.raises(DataError) as exc:
        load_phraseology(valid_tree)
    assert [(p.line, p.message) for p in exc.value.problems] == [
        (11, "duplicate de zone frame 'deinem friedhof' (first at line 5)")]


def test_printed_counts_each_official_text_that_spells_a_term_so_once():
    data = Phraseology(
        (Corpus("de", 1000, "2022-02-18", 10), Corpus("fr", 1000, "2022-02-18", 10)),
        (Frame("verb", "de", "karte", (v("a", "jede Nichtland-Karte und jede Nichtland-Karte", 5, 1.0),
                                       v("b", "eine nichtland-karte", 3, 1.0), v("c", "die Land-Karte", 7, 1.0),
                                       v("d", "eine Karte, nicht", 11, 1.0), v("e", "land", 13, 1.0),
                                       v("f", "deine Nichtlandkarte", 17, 1.0))),
         Frame("verb", "fr", "carte", (v("a", "Nichtland-Karte", 19, 1.0),))))
    # case-insensitive, each phrase once however often it holds the form, one language's phrases
    assert data.printed("de", ("Nichtland-Karte",)) == 5 + 3
    # a form within a word or joined by a hyphen is not the form; nor across two phrases ("nicht" "land")
    assert data.printed("de", ("Land",)) == 13
    assert data.printed("de", ("Karte",)) == 11
    assert data.printed("de", ("nichtland",)) == 0
    # any of the forms; asked again, the same
    assert data.printed("de", ("Nichtlandkarte", "Nichtland-Karte")) == 5 + 3 + 17
    assert data.printed("de", ("Nichtlandkarte", "Nichtland-Karte")) == 5 + 3 + 17
    assert data.printed("de", ()) == 0 and data.printed("en", ("Karte",)) == 0
