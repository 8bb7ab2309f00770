"""Importer step 1: reading a Comprehensive Rules text release (importers/crtext.py).

The synthetic releases of tests/data/cr/ are written here in every encoding and line ending the
official files come in; each must read the same. The four official releases are read too."""

from __future__ import annotations

import codecs
import re

import pytest

from conftest import DATA, SHARED
from rulekb.diagnostics import DataError
from rulekb.importers.crtext import decode, effective_date, is_heading, line_endings, parse_release, read_release

RELEASE = (DATA / "cr" / "release-2030-01-01.txt").read_text("utf-8")
NEXT = (DATA / "cr" / "release-2031-06-01.txt").read_text("utf-8")

ENCODINGS = [
    # (how the bytes are made, the encoding the reader must report)
    (lambda t: t.encode("utf-8"), "utf-8"),
    (lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
    (lambda t: t.encode("cp1252"), "cp1252"),
    (lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"), "utf-16-le (BOM)"),
    (lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"), "utf-16-be (BOM)"),
    (lambda t: t.encode("utf-16-le"), "utf-16-le"),
    (lambda t: t.encode("utf-16-be"), "utf-16-be"),
]
ENDINGS = [("\r\n", "CRLF"), ("\r", "CR"), ("\n", "LF")]


def structure(release):
    return (release.effective, release.chapters, release.sections, release.rules, release.glossary)


@pytest.mark.parametrize("encode, encoding", ENCODINGS, ids=[e for _, e in ENCODINGS])
@pytest.mark.parametrize("newline, endings", ENDINGS, ids=[e for _, e in ENDINGS])
def test_every_encoding_and_line_ending_reads_the_same(encode, encoding, newline, endings):
    reference = parse_release(NEXT, "next.txt")
    data = encode(NEXT.replace("\n", newline))
    release = read_release(data, "next.txt")
    assert release.encoding == encoding
    assert release.line_endings == endings
    assert structure(release) == structure(reference)
    assert len(release.sha256) == 64


def test_mixed_line_endings_are_reported_and_normalised():
    text = NEXT.replace("\n", "\r")
    text = text.replace("\r", "\r\n", 3)  # as the 2026 release: bare CR, a few CRLF
    normal, what = line_endings(text)
    assert what == "mixed (CR " + str(NEXT.count("\n") - 3) + ", CRLF 3)"
    assert "\r" not in normal and normal == NEXT


def test_ascii_is_reported_as_ascii():
    assert decode(b"100.1. Rules.\n", "x.txt") == ("100.1. Rules.\n", "ascii")


@pytest.mark.parametrize("text, codec", [
    # 2004-02-01 was saved in Mac OS Roman, 2013-07-11 in the DOS code page 437: read as cp1252 they
    # said "DCIª", "Basic Land Ð Mountain", "Dandƒn", "Ghazb\xa0n"
    ('Example: "Basic Land – Mountain" and the DCI™ Floor Rules.\n', "mac-roman"),
    ("Dandân, Ghazbán Ogre, Junún Efreet; Æther Storm.\n", "cp437"),
    ("El-Hajjâj, Dandân’s “deathtouch” – Æther™.\n", "cp1252"),
])
def test_an_8bit_file_is_read_in_the_code_page_it_was_saved_in(text, codec):
    assert decode(text.encode(codec), "x.txt") == (text, codec)


def test_bytes_neither_utf8_nor_cp1252_are_refused_with_file_and_line():
    data = "100.1. One.\n".encode() + b"100.2. Two \x81 three.\n"
    with pytest.raises(DataError) as err:
        decode(data, "bad.txt")
    problem = err.value.problems[0]
    assert (problem.file, problem.line) == ("bad.txt", 2)
    assert "0x81" in problem.message and "UTF-8" in problem.hint


def test_effective_date_is_read_from_the_text():
    assert effective_date("These rules are effective as of May 1, 2011.") == "2011-05-01"
    assert effective_date("These rules are effective as of January 16, 2026.") == "2026-01-16"
    assert effective_date("These rules are effective as of February 30, 2026.") is None
    assert effective_date("no date here") is None
    assert parse_release(RELEASE, "r.txt").effective == "2030-01-01"
    assert parse_release(RELEASE.replace("These rules are effective as of January 1, 2030.", ""), "r.txt").effective is None


def test_rules_subrules_examples_and_continuations():
    release = parse_release(RELEASE, "r.txt")
    assert [c.number for c in release.chapters] == ["1", "7"]
    assert [(s.number, s.title, s.chapter) for s in release.sections] == [
        ("100", "General", "1"), ("702", "Keyword Abilities", "7")]
    rules = {r.number: r for r in release.rules}
    assert list(rules) == ["100.1", "100.2", "702.1", "702.2", "702.3"]
    # an "Example:" line belongs to the rule before it, an indented line too; each stays one line
    assert rules["100.2"].lines == ("To play, each player needs their own deck of traditional Magic cards.",
                                    "Example: A deck of sixty cards and a way to track life totals.")
    assert rules["702.1"].text == ("Most abilities describe exactly what they do in the card’s rules text.\n"
                                   "Continuation lines like this one belong to the rule before them.")
    # keyword rules are titled, their subrules carry the text
    assert rules["702.3"].title == "Retrace" and rules["702.3"].text is None
    assert [(s.number, s.letter) for s in rules["702.2"].subrules] == [("702.2a", "a"), ("702.2b", "b")]
    assert rules["100.1"].subrules[0].text == "A two-player game is a game that begins with only two players."
    assert [(g.term, g.line) for g in release.glossary] == [("Deathtouch", line_of(RELEASE, "Deathtouch\nA")),
                                                            ("Retrace", line_of(RELEASE, "Retrace\nA"))]
    assert release.glossary[1].definition == "A keyword ability that lets a player cast a card from their graveyard. See rule 702.3, “Retrace.”"
    assert release.numbered_lines() == 2 + 2 + 5 + 4


@pytest.mark.parametrize("text, heading", [
    ("Retrace", True), ("Single Planar Deck Option", True), ("Active Player, Nonactive Player Order", True),
    ("There is no maximum deck size.", False), ("Example: “Retrace”", False),
    ("Any characteristic-defining ability that refers to the defending player refers to one player", False),
])
def test_title_lines(text, heading):
    assert is_heading(text) is heading


def test_a_stray_space_inside_a_number_is_read_with_a_warning():
    text = RELEASE.replace("702.2b A creature", "702. 2b A creature")
    release = parse_release(text, "r.txt")
    deathtouch = next(r for r in release.rules if r.number == "702.2")
    assert [s.number for s in deathtouch.subrules] == ["702.2a", "702.2b"]
    assert any("space inside the number" in w.message and "702.2b" in w.message for w in release.warnings)


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


def warned(release, line: int, fragment: str) -> bool:
    return any(w.line == line and fragment in w.message and w.file == release.path for w in release.warnings)


def rule(release, number: str):
    return next(r for r in release.rules if r.number == number)


def test_a_subrule_under_another_rule_stays_there_with_its_own_number():
    bad = RELEASE.replace("702.3a Retrace", "702.4a Retrace", 1)   # as 432.2b under 423.2 (2006-10-01)
    release = parse_release(bad, "r.txt")
    retrace = rule(release, "702.3")
    assert [(s.number, s.letter) for s in retrace.subrules] == [("702.4a", "a")]
    assert retrace.subrules[0].text.startswith("Retrace appears")
    assert warned(release, line_of(bad, "702.4a"), "subrule 702.4a is under rule 702.3")


def test_a_rule_outside_its_section_stays_there_with_its_own_number():
    bad = RELEASE.replace("702.1. Most", "703.1. Most", 1)   # as 501.2 in section 510 (2006-05-01)
    release = parse_release(bad, "r.txt")
    moved = rule(release, "703.1")
    assert moved.section == "702" and moved.lines[0].startswith("Most abilities")
    assert [r.number for r in release.rules] == ["100.1", "100.2", "703.1", "702.2", "702.3"]
    assert warned(release, line_of(bad, "703.1."), "rule 703.1 is in section 702")


def test_a_number_twice_keeps_both_texts_in_order():
    bad = RELEASE.replace("702.2b A creature", "702.2a A creature", 1)   # as 702.30d of 2009-09-04
    release = parse_release(bad, "r.txt")
    subs = rule(release, "702.2").subrules
    assert [s.number for s in subs] == ["702.2a", "702.2a"]
    assert subs[1].text.startswith("A creature with toughness")
    assert warned(release, line_of(bad, "702.2a A creature"),
                  f"702.2a appears twice (first at line {line_of(bad, '702.2a Deathtouch')})")
    bad = RELEASE.replace("100.2. To play", "100.1. To play", 1)
    assert [r.number for r in parse_release(bad, "r.txt").rules][:2] == ["100.1", "100.1"]


@pytest.mark.parametrize("old, new, number, text, fragment", [
    ("100.1. These", "100.1.These", "100.1", "These Magic rules", "no space after '100.1.'"),   # 901.4.All
    ("100.1. These", "100.1.  These", "100.1", "These Magic rules", "2 spaces after 100.1."),   # 201.3.  Some
    ("702.2b A creature", "702.b A creature", "702.2b", "A creature with", "has no rule number"),  # 306.b
])
def test_a_number_written_oddly_is_read_with_a_warning(old, new, number, text, fragment):
    bad = RELEASE.replace(old, new, 1)
    release = parse_release(bad, "r.txt")
    units = {u.number: u for r in release.rules for u in (r, *r.subrules)}
    assert units[number].lines[0].startswith(text)
    assert warned(release, line_of(bad, new), fragment)


@pytest.mark.parametrize("continuation", [
    "See rule\n702.3, “Retrace.”",              # a number with a comma: never a rule
    "(see rule\n100.1a).",                       # a subrule reference
    "See rule\n100.2. It is not a new rule.",    # rule-shaped, after a line ending mid-sentence
    "See also\n103.4 “Other.”",                  # rule-shaped, a number that does not continue the rules
])
def test_a_reference_at_the_start_of_a_continuation_line_is_no_new_rule(continuation):
    bad = RELEASE.replace("belong to the rule before them.", "belong to the rule before them. " + continuation, 1)
    release = parse_release(bad, "r.txt")
    assert [r.number for r in release.rules] == ["100.1", "100.2", "702.1", "702.2", "702.3"]
    assert rule(release, "702.1").lines[-1] == continuation.split("\n")[1]
    assert warned(release, line_of(bad, continuation.split("\n")[1]), "")


def test_a_rule_after_a_line_without_a_full_stop_is_still_a_rule_when_it_continues_the_rules():
    bad = RELEASE.replace("702.2a Deathtouch is a static ability.\n\n", "702.2a Deathtouch is a static ability.\nf\n", 1)
    release = parse_release(bad, "r.txt")   # 2021-11-15: a stray "f" line right before 702.149. Training
    assert [s.number for s in rule(release, "702.2").subrules] == ["702.2a", "702.2b"]
    assert rule(release, "702.2").subrules[0].lines == ("Deathtouch is a static ability.", "f")


def test_a_glossary_term_without_definition_is_kept_with_a_warning():
    bad = RELEASE.replace("Deathtouch\nA keyword", "Deathtouch\n\n     A keyword", 1)   # 2003: indented paragraphs
    release = parse_release(bad, "r.txt")
    assert release.glossary[0].term == "Deathtouch" and release.glossary[0].definition.startswith("A keyword ability")
    assert warned(release, line_of(bad, "\nDeathtouch\n\n") + 1, "glossary term 'Deathtouch' has no definition line")
    bad = RELEASE.replace("Retrace\nA keyword ability that lets a player cast a card from their graveyard. "
                          "See rule 702.3, “Retrace.”\n", "Retrace\n", 1)
    release = parse_release(bad, "r.txt")
    assert [(g.term, g.definition) for g in release.glossary][1] == ("Retrace", "")


def test_current_as_of_is_the_effective_date_before_2009():
    old = RELEASE.replace("These rules are effective as of January 1, 2030.", "These rules are current as of January 1, 2030.")
    release = parse_release(old, "r.txt")
    assert release.effective == "2030-01-01"
    assert warned(release, 3, "'current as of' read as the effective date 2030-01-01")


def test_the_text_not_the_file_name_says_the_date():
    release = parse_release(RELEASE, "archive/2029-12-30.txt")
    assert release.effective == "2030-01-01"
    assert warned(release, 3, "the file's name says 2029-12-30, its text 2030-01-01")
    assert not parse_release(RELEASE, "archive/2030-01-01.txt").warnings


def test_a_subrule_letter_the_rules_never_use_is_refused():
    bad = RELEASE.replace("702.2a Deathtouch", "702.2l Deathtouch", 1)
    with pytest.raises(DataError) as err:
        parse_release(bad, "bad.txt")
    assert "never use the letter 'l'" in err.value.problems[0].message
    assert err.value.problems[0].line == line_of(bad, "702.2l")


# ---------------------------------------------------------------- completeness (issue 20)


def refused(text: str) -> tuple[int, str]:
    with pytest.raises(DataError) as err:
        parse_release(text, "bad.txt")
    problem = err.value.problems[0]
    assert problem.file == "bad.txt" and problem.hint
    return problem.line, problem.message


def test_a_release_cut_before_its_glossary_is_refused():
    cut = RELEASE[: RELEASE.index("702.3a Retrace") + 40]   # as the first 100 KB of 2026-01-16
    line, message = refused(cut)
    assert line == cut.count("\n") + 1
    assert "stops at line" in message and "before its glossary and credits" in message


def test_a_release_cut_inside_its_glossary_is_read_with_a_warning():
    cut = RELEASE[: RELEASE.index("Retrace\nA keyword") + len("Retrace")]   # as 2013-02-01 of the archive
    release = parse_release(cut, "r.txt")
    assert [r.number for r in release.rules] == ["100.1", "100.2", "702.1", "702.2", "702.3"]
    assert [g.term for g in release.glossary] == ["Deathtouch", "Retrace"]
    assert warned(release, cut.count("\n") + 1, "stops inside the glossary")


def test_two_releases_in_one_file_are_refused():
    line, message = refused(RELEASE + NEXT)    # cat 2030.txt 2031.txt
    assert line == RELEASE.count("\n") + line_of(NEXT, "These rules are effective")
    assert "a second effective date, 2031-06-01, differs from 2030-01-01 (line 3)" in message
    line, message = refused(RELEASE + RELEASE)   # the same release twice
    assert line == RELEASE.count("\n") + line_of(RELEASE, "100. General")   # the contents of the second
    assert "after the credits" in message and "second release" in message


def test_a_second_different_effective_date_is_refused():
    bad = RELEASE.replace("Example: A deck", "These rules are effective as of March 3, 2031.\nExample: A deck", 1)
    line, message = refused(bad)
    assert line == line_of(bad, "These rules are effective as of March")
    assert "second effective date" in message
    # the same date again (the official files repeat it in the credits) is fine
    same = RELEASE.replace("Test fixture.", "Test fixture. These rules are effective as of January 1, 2030.")
    assert parse_release(same, "r.txt").effective == "2030-01-01"


def test_a_file_without_rules_is_not_a_release():
    with pytest.raises(DataError) as err:
        parse_release("Just some text.\nNothing numbered.\n", "notes.txt")
    assert "not a Comprehensive Rules text release" in err.value.problems[0].message


NUMBERED = re.compile(r"^\s*([1-9][0-9]{2})\.\s?([1-9][0-9]{0,2})([a-z]?)\.? (.*)$")


@pytest.mark.parametrize("name, effective, encoding, rules, subrules", [
    ("MagicCompRules-2009-07-11.txt", "2009-07-11", "ascii", 648, 824),
    ("MagicCompRules-2011-05-01.txt", "2011-05-01", "ascii", 799, 1017),
    ("MagicCompRules-2018-01-19.txt", "2018-01-19", "utf-8", 921, 1327),
    ("MagicCompRules-2026-01-16.txt", "2026-01-16", "utf-8-sig", 1157, 1957),
])
def test_official_releases_read(shared, name, effective, encoding, rules, subrules):
    data = (shared / "data" / "comprehensive-rules" / name).read_bytes()
    release = read_release(data, name)
    assert (release.effective, release.encoding) == (effective, encoding)
    assert len(release.rules) == rules and sum(len(r.subrules) for r in release.rules) == subrules
    # every numbered line of the rules part is one rule or subrule, counted independently here
    text = data.decode(encoding.split()[0].replace("ascii", "utf-8"))
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next(i for i, line in enumerate(lines) if re.match(r"^100\.1\.? ", line))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "Glossary")
    numbered = [m for line in lines[start:end] if (m := NUMBERED.match(line))]
    assert len(numbered) == rules + subrules


# ---------------------------------------------------------------- every release of the archive

ARCHIVE = SHARED / "data" / "comprehensive-rules" / "archive"
ARCHIVE_FILES = sorted(p.name for p in ARCHIVE.glob("*.txt")) if ARCHIVE.is_dir() else []
# a rule or subrule line as a reader sees one: "100.1. …", "400.2 Public …", "702. 37a …", "901.4.All …"
RULE_LINE = re.compile(r"^([1-9][0-9]{2})\. ?([1-9][0-9]{0,2})([a-z]?)\.?(?: +|(?<=\.)(?=[A-Z]))\S")


def placed(release) -> dict[int, list[str]]:
    """Line number -> the texts the release keeps for it, from every place a line can go."""
    out: dict[int, list[str]] = {}

    def put(line: int, text: str) -> None:
        out.setdefault(line, []).append(text)

    for line, text in release.front + release.credits:
        put(line, text)
    for c in release.chapters:
        put(c.line, f"{c.number}. {c.title}")
    for s in release.sections:
        put(s.line, f"{s.number}. {s.title}")
        for line, text in zip(s.lines_at, s.lines, strict=True):
            put(line, text)
    for unit in (u for r in release.rules for u in (r, *r.subrules)):
        assert unit.lines_at[0] == unit.line
        for line, text in zip(unit.lines_at, unit.lines, strict=True):
            put(line, text)
    for g in release.glossary:
        put(g.line, g.term)
        for line, text in zip(g.lines_at, g.lines, strict=True):
            put(line, text)
    return out


@pytest.mark.skipif(not ARCHIVE_FILES, reason=f"the archive of all releases is not at {ARCHIVE} (../shared/data)")
@pytest.mark.parametrize("name", ARCHIVE_FILES)
def test_every_archive_release_is_read_whole(name):
    """Each of the 110 official releases is read (none refused); every numbered line is the
    rule or subrule of that number at that line, or a warning at that line says how it was
    read; every line of text is kept exactly once, in one place."""
    data = (ARCHIVE / name).read_bytes()
    release = read_release(data, name)
    assert release.effective and release.glossary and len(release.rules) > 250
    text, _ = decode(data, name)
    lines = line_endings(text.removeprefix("\ufeff"))[0].split("\n")
    units = {u.line: u for r in release.rules for u in (r, *r.subrules)}
    warned_at = {w.line for w in release.warnings}
    read_otherwise = []
    for i, line in enumerate(lines[: release.glossary_at], 1):
        m = RULE_LINE.match(line.strip())
        if m is None:
            continue
        if i in units:
            assert units[i].number == f"{m[1]}.{m[2]}{m[3]}", f"{name}:{i}: {line[:40]}"
        else:
            assert i in warned_at, f"{name}:{i}: '{line[:40]}' is neither a rule nor warned about"
            read_otherwise.append(i)
    assert len(read_otherwise) <= 3, read_otherwise   # a few references at the start of a wrapped line
    for i, unit in units.items():   # and no rule or subrule from elsewhere
        assert RULE_LINE.match(lines[i - 1].strip()) or i in warned_at, f"{name}:{i}: {unit.number}"
    kept = placed(release)
    for i, line in enumerate(lines, 1):
        s = line.strip()
        assert (i in kept) == bool(s), f"{name}:{i}: '{s[:40]}' {'dropped' if s else 'invented'}"
        if s:
            assert len(kept[i]) == 1 and s.endswith(kept[i][0]) and kept[i][0], f"{name}:{i}: {kept[i]} for '{s[:40]}'"
