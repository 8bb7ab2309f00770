"""The compact line of a text's rules releases (`rulekb.releaseranges`): written by the import,
read by the validator, one the inverse of the other. (The refusals at a data file's line and
column: tests/test_import_validate.py.)"""

from __future__ import annotations

import random

import pytest

from rulekb.releaseranges import ReleaseOrder, split

ORDER = ReleaseOrder(("2003-03-15", "2003-07-01", "2004-02-01", "2005-10-01", "2009-05-01", "2011-06-17", "2026-01-16"))


@pytest.mark.parametrize("releases, line", [
    (["2003-03-15"], "2003-03-15"),
    (["2003-03-15", "2003-07-01"], "2003-03-15..2003-07-01"),
    (["2003-03-15", "2003-07-01", "2004-02-01", "2009-05-01"], "2003-03-15..2004-02-01, 2009-05-01"),
    (["2026-01-16", "2003-07-01", "2011-06-17", "2004-02-01"], "2003-07-01..2004-02-01, 2011-06-17..2026-01-16"),
    (list(ORDER.dates), "2003-03-15..2026-01-16"),
    (["2003-03-15", "2004-02-01", "2009-05-01"], "2003-03-15, 2004-02-01, 2009-05-01"),
])
def test_runs_of_consecutive_releases_are_ranges(releases, line):
    assert ORDER.line(releases) == line
    assert ORDER.expand(line) == tuple(sorted(releases))


def test_every_list_reads_back_as_written():
    """Any subset of the releases: its line names exactly it (random subsets, fixed seed)."""
    rng = random.Random(7)
    for _ in range(300):
        chosen = sorted(d for d in ORDER.dates if rng.random() < 0.5) or [ORDER.dates[0]]
        line = ORDER.line(chosen)
        assert ORDER.expand(line) == tuple(chosen), line
        assert len(split(line)) == line.count(", ") + 1


def test_equal_lines_share_one_tuple_of_the_orders_dates():
    first = ORDER.expand("2003-07-01..2005-10-01")
    assert first is ORDER.expand("2003-07-01..2005-10-01")
    assert all(a is b for a, b in zip(first, ORDER.dates[1:4]))


def test_spaces_around_the_separators_are_read():
    assert ORDER.expand("2003-03-15 .. 2003-07-01 ,2026-01-16") == ("2003-03-15", "2003-07-01", "2026-01-16")


def test_a_date_of_no_release_is_written_alone_and_refused_when_read():
    line = ORDER.line(["2003-03-15", "2003-04-01", "2003-07-01"])
    assert line == "2003-03-15, 2003-04-01, 2003-07-01"
    assert ORDER.expand(line) is None
    found, flaws = ORDER.read([item for item, _ in split(line)])
    assert found == ("2003-03-15", "2003-07-01")
    assert [(f.item, f.message) for f in flaws] == [(1, "unknown release 2003-04-01: there is no rules/releases/2003-04-01.yaml")]
    assert flaws[0].hint.endswith("the releases nearest to it are 2003-03-15 and 2003-07-01")


@pytest.mark.parametrize("line, item, message", [
    ("2003-07-01..2003-03-15", 0, "the range 2003-07-01..2003-03-15 ends before it starts"),
    ("2003-03-15..2004-02-01, 2003-07-01..2005-10-01", 1,
     "the ranges 2003-03-15..2004-02-01 and 2003-07-01..2005-10-01 overlap (both hold 2003-07-01)"),
    ("2003-03-15..2004-02-01, 2003-07-01", 1, "the release 2003-07-01 is named twice (alone and in 2003-03-15..2004-02-01)"),
    ("2003-07-01, 2003-03-15..2004-02-01", 1, "the release 2003-07-01 is named twice (alone and in 2003-03-15..2004-02-01)"),
    ("2009-05-01, 2003-03-15..2004-02-01", 1, "2003-03-15..2004-02-01 comes after 2009-05-01 but is older"),
    ("2003-03-15..2004-02-01, 2003-03-15..2004-02-01", 1, "2003-03-15..2004-02-01 is listed twice"),
    ("2003-03-15; 2003-07-01", 0, "'2003-03-15; 2003-07-01' is neither a release date nor a range START..END"),
    ("2003-03-15..", 0, "'2003-03-15..' is neither a release date nor a range START..END"),
    ("2003-13-15", 0, "'2003-13-15' is not a date"),
    ("", 0, "the list of releases is empty"),
])
def test_a_flawed_line_names_the_item(line, item, message):
    assert ORDER.expand(line) is None
    _found, flaws = ORDER.read([text for text, _ in split(line)])
    assert [(f.item, f.message) for f in flaws] == [(item, message)]
    assert flaws[0].hint


def test_split_gives_each_items_offset():
    assert split("2003-03-15..2003-07-01, 2009-05-01") == [("2003-03-15..2003-07-01", 0), ("2009-05-01", 24)]
    assert split(" 2003-03-15 ,  2009-05-01") == [("2003-03-15", 1), ("2009-05-01", 15)]
