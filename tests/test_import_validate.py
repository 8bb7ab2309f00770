"""What the import writes, as the validator reads it (the additive part of validate.py): rules
sections in one file, release lists, subrule letters per release, glossary files, release files;
and every refusal of a broken one, with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.diagnostics import DataError
from rulekb.knowledge import load_knowledge_base

SOURCES = """  cr-2030-01-01:
    title: release 2030
    kind: comprehensive-rules
    date: '2030-01-01'
  cr-2031-06-01:
    title: release 2031
    kind: comprehensive-rules
    date: '2031-06-01'
"""

SECTION = """rules:
- id: section-keywords
  number: '702'
  release: '2031-06-01'
  history:
  - number: '702'
    since: '2030-01-01'
    source: cr-2030-01-01
    releases: 2030-01-01..2031-06-01
  title:
    en:
    - text: Keyword Abilities
      source: cr-2030-01-01
      status: official
      releases: 2030-01-01..2031-06-01
- id: deathtouch
  number: '702.3'
  release: '2031-06-01'
  history:
  - number: '702.2'
    since: '2030-01-01'
    until: '2030-01-01'
    source: cr-2030-01-01
    releases: '2030-01-01'
  - number: '702.3'
    since: '2031-06-01'
    source: cr-2031-06-01
    releases: '2031-06-01'
  title:
    en:
    - text: Deathtouch
      source: cr-2030-01-01
      status: official
      releases: 2030-01-01..2031-06-01
  subrules:
    a:
      en:
      - text: Deathtouch is a static ability.
        source: cr-2030-01-01
        status: official
        releases: 2030-01-01..2031-06-01
      de:
      - text: Todesberührung ist eine statische Fähigkeit.
        source: test-rules
        status: community
    b-2:
      en:
      - text: Damage dealt by a source with deathtouch destroys.
        source: cr-2031-06-01
        status: official
        releases: '2031-06-01'
    b:
      en:
      - text: A creature dealt damage by a source with deathtouch is destroyed.
        source: cr-2030-01-01
        status: official
        releases: 2030-01-01..2031-06-01
    c:
      en:
      - text: An old subrule the newer release dropped.
        source: cr-2030-01-01
        status: official
        releases: '2030-01-01'
  letters:
    b-2: {'2031-06-01': b}
    b: {'2031-06-01': c}
"""

GLOSSARY = """terms:
- id: deathtouch
  term:
    en:
    - text: Deathtouch
      source: cr-2030-01-01
      status: official
      releases: 2030-01-01..2031-06-01
  definition:
    en:
    - text: A keyword ability.
      source: cr-2030-01-01
      status: official
      releases: 2030-01-01..2031-06-01
"""


def release_file(date: str) -> str:
    return (f"release: '{date}'\nsource: cr-{date}\nfile: r-{date}.txt\nsha256: {'0' * 64}\n"
            "encoding: utf-8\nline_endings: LF\nchapters:\n  '7': Additional Rules\n")


@pytest.fixture
def tree(valid_tree: Path) -> Path:
    with (valid_tree / "rules" / "sources.yaml").open("a", encoding="utf-8") as f:
        f.write(SOURCES)
    (valid_tree / "rules" / "comprehensive" / "section-keywords.yaml").write_text(SECTION, "utf-8")
    (valid_tree / "rules" / "glossary").mkdir()
    (valid_tree / "rules" / "glossary" / "d.yaml").write_text(GLOSSARY, "utf-8")
    (valid_tree / "rules" / "releases").mkdir()
    for date in ("2030-01-01", "2031-06-01"):
        (valid_tree / "rules" / "releases" / f"{date}.yaml").write_text(release_file(date), "utf-8")
    return valid_tree


def test_an_imported_section_loads(tree):
    kb = load_knowledge_base(tree)
    rule = kb.rule("deathtouch")
    assert (rule.file, rule.line) == ("rules/comprehensive/section-keywords.yaml", 16)
    assert [(s.letter, s.number, s.unit.id, s.unit.label) for s in rule.subrules] == [
        ("a", "702.3a", "deathtouch.a", "702.3a"), ("b", "702.3b", "deathtouch.b-2", "702.3b"),
        ("c", "702.3c", "deathtouch.b", "702.3c")]
    assert [(s.number, s.release, dict(s.letters)) for s in rule.former_subrules] == [
        ("702.2c", "2030-01-01", {"2030-01-01": "c"})]
    assert rule.subrule_in("2030-01-01", "b").unit.id == "deathtouch.b"
    assert rule.number_in("2030-01-01")[0] == "702.2" and rule.releases == ("2030-01-01", "2031-06-01")
    assert "deathtouch.c" in {u.id for u in rule.units}  # a former subrule keeps its texts
    assert [r.date for r in kb.releases] == ["2030-01-01", "2031-06-01"]
    assert kb.release("2031-06-01").chapters == (("7", "Additional Rules"),)
    assert [g.id for g in kb.glossary] == ["deathtouch"]
    assert [u.id for u in kb.glossary_units()] == ["glossary.deathtouch.term", "glossary.deathtouch.definition"]


def break_it(tree: Path, rel: str, old: str, new: str) -> int:
    path = tree / rel
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")
    return text[: text.index(old)].count("\n") + 1


SECTION_FILE = "rules/comprehensive/section-keywords.yaml"


@pytest.mark.parametrize("rel, old, new, fragment", [
    (SECTION_FILE, "releases: 2030-01-01..2031-06-01\n      de:", "releases: ['2031-06-01', '2030-01-01']\n      de:",
     "2030-01-01 comes after 2031-06-01 but is older"),
    (SECTION_FILE, "status: community\n", "status: community\n        releases: '2030-01-01'\n",
     "only an English text lists 'releases'"),
    (SECTION_FILE, "    b: {'2031-06-01': c}", "    x: {'2031-06-01': c}", "letters: 'x' is not a subrule of this rule"),
    (SECTION_FILE, "    b-2: {'2031-06-01': b}\n", "", "subrule 'b-2' has no letter for the release(s) 2031-06-01"),
    (SECTION_FILE, "    b: {'2031-06-01': c}", "    b: {'2031-06-01': a}",
     "subrules 'a' and 'b' both have the letter 'a' in 2031-06-01"),
    (SECTION_FILE, "    b: {'2031-06-01': c}", "    b: {'2031-06-01': l}", "letter of 'b' in 2031-06-01 is 'l'"),
    (SECTION_FILE, "  - number: '702.3'\n", "  - number: '702'\n", "702 is both section-keywords"),
    ("rules/releases/2031-06-01.yaml", "release: '2031-06-01'", "release: '2031-06-02'",
     "the release 2031-06-02 is in rules/releases/2031-06-01.yaml"),
    ("rules/glossary/d.yaml", "- id: deathtouch", "- id: deathtouch\n  see: x", "unknown field 'see' in a glossary term"),
])
def test_broken_import_data_is_refused_with_file_and_line(tree, rel, old, new, fragment):
    break_it(tree, rel, old, new)
    with pytest.raises(DataError) as err:
        load_knowledge_base(tree)
    found = [p for p in err.value.problems if fragment in p.message]
    assert found, [str(p) for p in err.value.problems]
    assert found[0].file == rel and found[0].line >= 1 and found[0].hint


def test_a_cited_release_needs_its_release_file(tree):
    """A range's ends and a single release are releases of rules/releases/: without the file,
    each list naming the release says so at the item."""
    (tree / "rules" / "releases" / "2030-01-01.yaml").unlink()
    with pytest.raises(DataError) as err:
        load_knowledge_base(tree)
    found = [p for p in err.value.problems if "unknown release 2030-01-01: there is no rules/releases/2030-01-01.yaml"
             in p.message]
    assert (found[0].file, found[0].line, found[0].column) == (SECTION_FILE, 9, 15)   # "releases: 2030-01-01..…"
    assert "the releases nearest to it are 2031-06-01" in found[0].hint
    assert {p.file for p in found} == {SECTION_FILE, "rules/glossary/d.yaml"}


# (the line, the column of the flawed item in "      releases: …" at line 64, the message, the fix)
BAD_LINES = [
    ("2030-01-01..2031-06-02", 19, "unknown release 2031-06-02: there is no rules/releases/2031-06-02.yaml",
     "the releases nearest to it are 2031-06-01"),
    ("2031-06-01..2030-01-01", 19, "the range 2031-06-01..2030-01-01 ends before it starts",
     "write the older release first: 2030-01-01..2031-06-01"),
    ("2030-01-01...2031-06-01", 19, "'2030-01-01...2031-06-01' is neither a release date nor a range START..END",
     "runs of releases as START..END"),
    ("2030-01-01-2031-06-01", 19, "is neither a release date nor a range", "separated by ', '"),
    ("2030-02-30", 19, "'2030-02-30' is not a date", "YYYY-MM-DD"),
    ("2030-01-01..2031-06-01, 2031-06-01", 43, "the release 2031-06-01 is named twice (alone and in 2030-01-01..2031-06-01)",
     "remove 2031-06-01 alone"),
    ("2030-01-01, 2030-01-01..2031-06-01", 31, "the release 2030-01-01 is named twice (alone and in 2030-01-01..2031-06-01)",
     "remove 2030-01-01 alone"),
    ("2030-01-01, 2030-01-01", 31, "2030-01-01 is listed twice", "remove one of them"),
    ("2030-01-01..2031-06-01, 2030-01-01..2031-06-01", 43, "2030-01-01..2031-06-01 is listed twice", "remove one"),
    ("2031-06-01, 2030-01-01", 31, "2030-01-01 comes after 2031-06-01 but is older", "oldest first"),
    ("2030-01-01,", 30, "an empty item in the list of releases", "separated by ', '"),
    ("''", 20, "the list of releases is empty", "remove the field"),
    ("{a: b}", 19, "releases must be one line of release dates and ranges", "START..END"),
]


@pytest.mark.parametrize("line, column, message, hint", BAD_LINES)
def test_a_bad_release_line_is_named_at_its_item(tree, line, column, message, hint):
    """Every flaw of a `releases:` line: file, line, the column of the item, what is wrong and how
    to write it."""
    assert break_it(tree, SECTION_FILE, "        releases: 2030-01-01..2031-06-01\n      de:",
                    f"        releases: {line}\n      de:") == 41
    with pytest.raises(DataError) as err:
        load_knowledge_base(tree)
    (problem,) = err.value.problems
    assert (problem.file, problem.line, problem.column) == (SECTION_FILE, 41, column), str(problem)
    assert problem.message.startswith("'702.3a' en #1 releases") and message in problem.message, str(problem)
    assert hint in problem.hint, str(problem)


def test_overlapping_ranges_are_refused_with_the_one_range_they_make(tree):
    """Three releases: two ranges that share the middle one are one range."""
    (tree / "rules" / "releases" / "2030-06-01.yaml").write_text(release_file("2030-06-01"), "utf-8")
    with (tree / "rules" / "sources.yaml").open("a", encoding="utf-8") as f:
        f.write("  cr-2030-06-01:\n    title: release 2030-06\n    kind: comprehensive-rules\n")
    break_it(tree, SECTION_FILE, "        releases: 2030-01-01..2031-06-01\n      de:",
             "        releases: 2030-01-01..2030-06-01, 2030-06-01..2031-06-01\n      de:")
    with pytest.raises(DataError) as err:
        load_knowledge_base(tree)
    (problem,) = [p for p in err.value.problems if "overlap" in p.message]   # (the histories lack 2030-06-01 too)
    assert (problem.line, problem.column) == (41, 43)
    assert "the ranges 2030-01-01..2030-06-01 and 2030-06-01..2031-06-01 overlap (both hold 2030-06-01)" in problem.message
    assert problem.hint == "write them as one range: 2030-01-01..2031-06-01"


def test_a_range_stands_for_every_release_between_its_ends(tree):
    """A release file added between the ends of a range is in the range: the ranges follow the
    releases' order, their dates (a single release is in no range)."""
    kb = load_knowledge_base(tree)
    assert kb.rule("deathtouch").subrules[0].unit.text("en").releases == ("2030-01-01", "2031-06-01")
    (tree / "rules" / "releases" / "2030-06-01.yaml").write_text(release_file("2030-06-01"), "utf-8")
    with (tree / "rules" / "sources.yaml").open("a", encoding="utf-8") as f:
        f.write("  cr-2030-06-01:\n    title: release 2030-06\n    kind: comprehensive-rules\n")
    kb = load_knowledge_base(tree)
    rule = kb.rule("deathtouch")
    assert rule.subrules[0].unit.text("en").releases == ("2030-01-01", "2030-06-01", "2031-06-01")
    assert [e.releases for e in rule.history] == [("2030-01-01",), ("2031-06-01",)]


def test_the_former_list_of_dates_reads_as_the_line(tree):
    """A YAML list of dates (as the import wrote them before the ranges) gives the same models."""
    kb = load_knowledge_base(tree, cache=False)
    text = (tree / SECTION_FILE).read_text("utf-8")
    listed = (text.replace("releases: 2030-01-01..2031-06-01", "releases: ['2030-01-01', '2031-06-01']")
              .replace("releases: '2030-01-01'", "releases: ['2030-01-01']"))
    assert listed != text
    (tree / SECTION_FILE).write_text(listed, "utf-8")
    again = load_knowledge_base(tree, cache=False)
    assert again.rule("deathtouch").history == kb.rule("deathtouch").history
    assert [u.variants for u in again.rule("deathtouch").units] == [u.variants for u in kb.rule("deathtouch").units]


def test_the_same_number_in_two_releases_is_two_rules(tree):
    """702.9 was Sample in 2011 (rules/comprehensive/sample.yaml); a rule of 2031 may have it too,
    but two rules of one release may not."""
    text = (tree / SECTION_FILE).read_text("utf-8").replace("number: '702.3'\n  release", "number: '702.9'\n  release")
    text = text.replace("  - number: '702.3'\n    since: '2031-06-01'", "  - number: '702.9'\n    since: '2031-06-01'")
    (tree / SECTION_FILE).write_text(text, "utf-8")
    kb = load_knowledge_base(tree)
    assert [r.id for r in kb.rules if r.number == "702.9"] == ["sample", "deathtouch"]  # the newest release last
    sample = (tree / "rules" / "comprehensive" / "sample.yaml").read_text("utf-8")
    (tree / "rules" / "comprehensive" / "sample.yaml").write_text(
        sample.replace('release: "2011-05-01"', 'release: "2031-06-01"'), "utf-8")
    with pytest.raises(DataError) as err:
        load_knowledge_base(tree)
    assert any("duplicate rule number '702.9' in the release 2031-06-01" in p.message for p in err.value.problems)


MOVED_RULE = """- id: old-subrule
  number: '702.4'
  release: '2031-06-01'
  history:
  - number: '702.4'
    since: '2031-06-01'
    source: cr-2031-06-01
    releases: '2031-06-01'
  text:
    en:
    - text: An old subrule the newer release made a rule.
      source: cr-2031-06-01
      status: official
      releases: '2031-06-01'
  moved_from:
    text: deathtouch.c
"""


@pytest.fixture
def moved(tree: Path) -> Path:
    with (tree / SECTION_FILE).open("a", encoding="utf-8") as f:
        f.write(MOVED_RULE)
    return tree


def test_a_text_that_moved_to_another_rule_loads_with_both_ends(moved):
    from rulekb.link import link
    kb = load_knowledge_base(moved)
    rule = kb.rule("old-subrule")
    assert [(m.unit, m.previous, m.pos.file) for m in rule.moves] == [
        ("old-subrule.text", "deathtouch.c", SECTION_FILE)]
    linked = link(kb)
    (into,) = linked.moved["old-subrule"]
    assert linked.moved["deathtouch"] == (into,)  # both rules know of it
    assert (into.number, into.since, into.previous_number, into.until) == ("702.4", "2031-06-01", "702.2c", "2030-01-01")


@pytest.mark.parametrize("old, new, fragment", [
    ("    text: deathtouch.c\n", "    text: deathtouch.x\n", "moved_from: no rule has the text 'deathtouch.x'"),
    ("    text: deathtouch.c\n", "    text: deathtouch\n", "moved_from of 'text' 'deathtouch' is not valid"),
    ("    text: deathtouch.c\n", "    a: deathtouch.c\n", "moved_from: 'a' is not a text of this rule"),
    ("    text: deathtouch.c\n", "    text: old-subrule.text\n", "moved_from: 'old-subrule.text' is a text of the same rule"),
])
def test_a_broken_moved_from_is_refused_with_file_and_line(moved, old, new, fragment):
    line = break_it(moved, SECTION_FILE, old, new)
    with pytest.raises(DataError) as err:
        load_knowledge_base(moved)
    found = [p for p in err.value.problems if fragment in p.message]
    assert found, [str(p) for p in err.value.problems]
    assert found[0].file == SECTION_FILE and found[0].line in (line, line - 1) and found[0].hint


def test_a_text_moves_to_one_place(moved):
    twice = MOVED_RULE.replace("old-subrule", "old-subrule-again").replace("'702.4'", "'702.5'")
    with (moved / SECTION_FILE).open("a", encoding="utf-8") as f:
        f.write(twice)
    with pytest.raises(DataError) as err:
        load_knowledge_base(moved)
    assert any("'deathtouch.c' is continued twice" in p.message for p in err.value.problems)
