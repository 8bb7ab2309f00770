"""Importer step 1: reading a Comprehensive Rules text release (importers/crtext.py).

The synthetic releases of tests/data/cr/ are written here in every encoding and line ending the
official files come in; each must read the same. The four official releases are read too."""

from __future__ import annotations

import codecs
import re

import pytest

from conftest import DATA
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


@pytest.mark.parametrize("old, new, fragment", [
    ("702.3a Retrace", "702.4a Retrace", "subrule 702.4a is not under its rule 702.4"),
    ("100.2. To play", "100.1. To play", "100.1 appears twice (first at line {100.1. These})"),
    ("702.1. Most", "703.1. Most", "rule 703.1 is not under its section 703"),
    ("702.2a Deathtouch", "702.2l Deathtouch", "never use the letter 'l'"),
    ("702.2a Deathtouch", "702.2.a Deathtouch", "looks like a rule number but is not one"),
    ("Deathtouch\nA keyword", "Deathtouch\n\nA keyword", "glossary entry 'Deathtouch' has no definition"),
])
def test_malformed_releases_are_refused_with_file_line_and_fix(old, new, fragment):
    assert old in RELEASE
    bad = RELEASE.replace(old, new, 1)
    fragment = re.sub(r"\{(.+?)\}", lambda m: str(line_of(bad, m.group(1))), fragment)
    with pytest.raises(DataError) as err:
        parse_release(bad, "bad.txt")
    found = [p for p in err.value.problems if fragment in p.message]
    assert found, [str(p) for p in err.value.problems]
    assert (found[0].file, found[0].line) == ("bad.txt", line_of(bad, new)) and found[0].hint


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
