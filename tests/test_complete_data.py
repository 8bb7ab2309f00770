"""The project's own data, complete (the `complete` fixture: the committed rules/, every release of
../shared/data/comprehensive-rules/archive/ and all 579 MTGJSON sets of ../shared/data/mtgjson/sets/
imported): each release file's numbered lines and glossary are in the knowledge base for that
release, read independently of the importer; a number history across the 2009 renumbering; what
`rulekb show 502.16` and `rulekb changes 2026-01-16` say; issue 14's cards and rulings (`rulekb
validate`'s counts, `rulekb card` by a German, French and English name, `rulekb show 702.81`).

These are the only tests that read the complete data; the tests of the code run on the seed
project (conftest.data_copy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ARCHIVE, archive_names, official_lines, rules_digest
from rulekb.changes import compare_releases
from rulekb.importers.cr import import_releases, imported_already, importer_version
from rulekb.commands import main
from rulekb.models import SOURCE_LANGUAGE, Unit, subrule_number

# a numbered line as a reader sees it: a section "702. Keyword Abilities", a rule "100.1. …",
# "400.2 Public …" (2009, no dot), "702. 37a …" (a stray space), "901.4.All …" (no space), a subrule "702.81a …"
NUMBER_LINE = re.compile(r"^([1-9][0-9]{2})\.(?: ?([1-9][0-9]{0,2})([a-z]?)\.?(?: +|(?<=\.)(?=[A-Z“\"]))| +(?=[A-Z]))(\S.*)$")


def folded(text: str) -> str:
    """`text` with every character outside ASCII as "?": the 8-bit code page of an old file (cp1252,
    Mac OS Roman, DOS 437) is the importer's to find; here a byte is a character whatever it reads as."""
    return re.sub(r"[^\x00-\x7f]", "?", text)


def file_lines(path: Path) -> list[str]:
    """The lines of a release file, whatever its encoding and line ends (read here, not by rulekb),
    folded (see `folded`)."""
    data = path.read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252")
    return [folded(line.strip()) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]


def english(unit: Unit | None, release: str) -> list[str]:
    """The English texts of a unit in a release (two where the release gave a number twice)."""
    if unit is None:
        return []
    return [folded(v.text) for v in unit.variants.get(SOURCE_LANGUAGE, ()) if release in v.releases]


def units_by_number(kb, release: str) -> dict[str, list[Unit]]:
    """Every number of a release -> the units that had it there (a rule's title and text, or a
    subrule; two where the release printed a number twice, as 605.2c in 2005-08-01)."""
    out: dict[str, list[Unit]] = {}
    for rule in kb.rules:
        found = rule.number_in(release)
        if found is None or release not in rule.releases:
            continue
        out.setdefault(found[0], []).extend(u for u in (rule.title, rule.text) if u is not None)
        for sub in rule.subrules + rule.former_subrules:
            if release in sub.letters:
                out.setdefault(subrule_number(found[0], sub.letters[release]), []).append(sub.unit)
    return out


@pytest.fixture(scope="module")
def kb(complete):
    _, kb = complete
    return kb


def test_every_archive_release_is_imported(kb, shared):
    assert sorted(r.date for r in kb.releases) == sorted({r.date for r in kb.releases})
    assert len(kb.releases) == len(archive_names()) == 110
    assert sorted(Path(r.file).name for r in kb.releases) == archive_names()


@pytest.mark.parametrize("name", archive_names())
def test_every_numbered_line_of_a_release_is_in_the_knowledge_base_for_that_release(kb, shared, name):
    """Each section, rule and subrule line of the file is the unit of that number in that release
    (its English there starts with the line's text), or a line of the text of another unit of that
    release (a reference at the start of a wrapped line); every glossary line is a term or a line of
    a definition of that release."""
    release = next(r for r in kb.releases if Path(r.file).name == name)
    date = release.date
    lines = file_lines(ARCHIVE / name)
    first = next(i for i, line in enumerate(lines) if re.match(r"^100\.1\.? ", line))
    start = max(i for i in range(first) if lines[i].startswith("100. "))
    glossary = next(i for i in range(start, len(lines)) if lines[i] == "Glossary")
    numbers = units_by_number(kb, date)
    texts = [t for rule in kb.rules for u in rule.units for t in english(u, date)]
    lines_of_texts = {line for t in texts for line in t.split("\n")}
    missing = []
    for i in range(start, glossary):
        m = NUMBER_LINE.match(lines[i])
        if m is None:
            continue
        section, rule, letter, rest = m.groups()
        number = f"{section}.{rule}{letter}" if rule else section
        if any(t.startswith(rest) for u in numbers.get(number, ()) for t in english(u, date)):
            continue
        if lines[i] in lines_of_texts:   # read as a line of the text above it
            continue
        missing.append(f"{name}:{i + 1}: {lines[i][:60]}")
    assert not missing, missing[:10]
    terms = {t for g in kb.glossary for t in english(g.term, date)}
    definitions = {line for g in kb.glossary for t in english(g.definition, date) for line in t.split("\n")}
    credits = next((i for i in range(glossary, len(lines)) if lines[i] == "Credits"), len(lines))
    dropped = [f"{name}:{i + 1}: {lines[i][:60]}" for i in range(glossary + 1, credits)
               if lines[i] and lines[i] not in terms and lines[i] not in definitions]
    assert not dropped, dropped[:10]


def test_show_502_16_finds_buyback_with_its_whole_number_history(complete, capsys):
    """Buyback was 502.16 until the 2009 renumbering, then 702.24 … 702.27: `rulekb show 502.16`
    finds it and prints every number it had, each with the releases it had it in."""
    root, kb = complete
    buyback = kb.rule("buyback")
    by_release = {rel: e.number for e in buyback.history for rel in e.releases}
    assert by_release["2009-05-01"] == "502.16" and by_release["2009-07-11"] == "702.24"
    assert set(by_release) == {r.date for r in kb.releases}   # in every release since 2003
    assert main(["--root", str(root), "show", "502.16"]) == 0
    out = capsys.readouterr().out
    assert "Buyback" in out
    for number in sorted(set(by_release.values())):
        assert number in out, number


def test_changes_of_2026_01_16_agree_with_a_line_diff_of_the_two_files(kb, shared):
    """On the complete data, 2026-01-16 against the release before it (2025-11-14): every text the
    line diff of the two files shows as changed, and only those; the glossary's too."""
    from test_changes import line_diff, sides
    found = compare_releases(kb, "2026-01-16")
    assert found.old == "2025-11-14"
    assert sides(found) == line_diff(ARCHIVE / "2025-11-14.txt", ARCHIVE / "2026-01-16.txt")
    assert [c.new_number for c in found.reworded] == ["115.7e", "205.3m", "207.2c", "601.2a", "702.124a", "702.124i"]
    assert found.typography == ()
    _, old_terms = official_lines(ARCHIVE / "2025-11-14.txt")
    _, new_terms = official_lines(ARCHIVE / "2026-01-16.txt")
    assert {g.before for g in found.glossary if g.before} == set(old_terms) - set(new_terms)
    assert {g.after for g in found.glossary if g.after} == set(new_terms) - set(old_terms)



def test_the_committed_data_is_this_importers_import_of_every_archive_file(shared):
    """Each release file of rules/releases/ records the SHA-256 and place of its archive file and
    the version of this importer (a change to the importer's code is a new version): importing the
    archive again is a no-op that reads nothing but those records, skips every file and writes
    nothing. When this fails, the committed data is another importer's (or other files'): import
    the archive again, `rulekb import cr --force ../shared/data/comprehensive-rules/archive/*.txt`,
    read what changed, and commit rules/."""
    from conftest import ROOT
    files = [ARCHIVE / name for name in archive_names()]
    found = imported_already(ROOT, ROOT, [(f, f.read_bytes()) for f in files])
    stale = sorted(set(archive_names()) - {files[i].name for i in found})
    assert not stale, (f"{len(stale)} archive files are not recorded as imported by importer {importer_version()} "
                       f"(e.g. {stale[:3]}): rulekb import cr --force {ARCHIVE}/*.txt, then commit rules/")
    before = rules_digest(ROOT)
    result = import_releases(ROOT, files)   # every file skipped: nothing is loaded or written
    assert result.reports == () and len(result.skipped) == len(files)
    assert (result.added, result.changed, result.deleted) == ((), (), ())
    assert rules_digest(ROOT) == before


def test_validate_counts_every_card_and_ruling_of_the_579_sets(complete, shared, capsys):
    root, kb = complete
    assert main(["--root", str(root), "validate"]) == 0
    counts = {line.split()[0]: int(line.split()[1]) for line in capsys.readouterr().out.splitlines()
              if line.startswith("  ") and line.split()[0] in ("cards", "rulings")}
    assert counts == {"cards": len(kb.cards), "rulings": len(kb.rulings)}
    assert counts["cards"] >= 23_000 and counts["rulings"] >= 23_000
    # each set a source whose file lies in ../shared as sources.yaml names it
    sets = [s for s in kb.sources.values() if s.kind == "mtgjson"]
    assert len(sets) >= 579 and all((shared / s.file).is_file() for s in sets)


@pytest.mark.parametrize("name, rule, first_words, count", [
    ("Golgari-Grabtroll", "dredge", "Dredge lets you replace any card draw", 3),       # German
    ("Agent de la reine", "explore", "If no card is revealed", 3),                    # French
    ("Flame Jab", "retrace", "Casting a card by using its retrace ability", 4),         # English
])
def test_card_by_name_prints_its_keyword_rulings(complete, capsys, name, rule, first_words, count):
    root, kb = complete
    assert main(["--root", str(root), "card", name]) == 0
    out = capsys.readouterr().out
    card = next(c for c in kb.cards if name in c.names.values())
    assert out.startswith(f"{card.names['en']}  [{card.id}]")
    expected = [r for r in kb.rulings_for(card=card.id) if rule in r.rules]
    assert len(expected) >= count and out.count(f"[rules: {rule}") == len(expected)
    assert all(f"  {r.date}  {r.id}" in out for r in expected)
    assert f"en: {first_words}" in out


def test_show_702_81_names_the_cards_its_notes_stand_on(complete, capsys):
    root, kb = complete
    assert main(["--root", str(root), "show", "702.81"]) == 0
    out = capsys.readouterr().out
    retrace = kb.rule("retrace")
    rulings = [kb.ruling(n.ruling) for n in retrace.notes if n.ruling]
    assert len(rulings) == 4 and all(len(r.cards) >= 12 for r in rulings)
    names = [kb.card(c).names["en"] for c in rulings[0].cards]
    assert {"Flame Jab", "Cenn's Enlistment"} <= set(names)
    assert all(name in out for name in names)


def test_show_an_old_number_says_what_it_was_and_is_today(complete, capsys):
    """Issue 29.5: 702.78a is Conspire's today; show says it was Retrace's from 2009-07-11 to
    2011-05-01, 702.81a today (from the number history, read here), and the title line falls back
    to English where French has no title."""
    root, kb = complete
    retrace = kb.rule("retrace")
    spans = [e.releases for e in retrace.history if e.number == "702.78"]
    assert len(spans) == 1
    assert main(["--root", str(root), "show", "702.78a", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    today = kb.rule("conspire")
    title = today.title.text("fr") or today.title.text("en")
    assert f"rule 702.78 {title.text} (id conspire" in out
    assert (f"702.78a was Retrace (id retrace) from {spans[0][0]} to {spans[0][-1]}; it is "
            f"{retrace.current_number}a today") in out
    assert spans[0][0] == "2009-07-11" and spans[0][-1] == "2011-05-01" and retrace.current_number == "702.81"


def test_the_french_retrace_notes_1_and_2_are_to_confirm_not_stale(complete):
    """They say "lancer" (and "sort") already, as the official English says "cast" now, where the
    seed's English they were made from said "play" (issue 28.5): to confirm, with the new hash."""
    from rulekb.check.driver import run_checks
    root, kb = complete
    result = run_checks(kb, root, profile="staleness", langs=("fr",))
    found = {(f.code, f.entry) for f in result.findings}
    assert {("staleness.confirm", "retrace.n1"), ("staleness.confirm", "retrace.n2")} <= found
    assert not {("staleness.stale", "retrace.n1"), ("staleness.stale", "retrace.n2")} & found
