"""The compact line of a text's rules releases, for the validate stage (load -> validate -> link ->
check -> render -> report) and the importers that write it.

Every official English text and every number of a rule's history lists the rules releases it is
in (`releases:`). A release is named by its effective date, and the project's releases are the
files ``rules/releases/<date>.yaml``, so their order is the order of their dates (`ReleaseOrder`,
made from the file names by `layout.release_dates` before any data file is read). The list is
one line of items in that order, oldest first, separated by ", ": a run of consecutive releases
is a range ``START..END`` (both ends imported releases; every release between them is in it), a
release alone is its date::

    releases: 2005-10-01..2009-05-01, 2011-06-17..2026-01-16

`ReleaseOrder.line` writes the line (the import's form: a run of two or more releases is a range,
a single release its date), `ReleaseOrder.expand` reads it back into the tuple of dates the models
keep. Reading refuses, as `Flaw`s naming the item: a date that is not a date, a range that is not
``START..END``, a release with no file under rules/releases/, a range that ends before it
starts, items out of order, overlapping or repeated ranges and a release named twice. (Why one
line: the complete rules listed ~490,000 release dates one YAML scalar each, 64 % of their
scalars, and parsing them was most of a cold load.)
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, NamedTuple, Sequence

SEPARATOR = ", "
RANGE = ".."
_ITEM = re.compile(r"(\d{4}-\d{2}-\d{2})(?:\s*\.\.\s*(\d{4}-\d{2}-\d{2}))?")
HOW = "write each release as its date (2026-01-16) and runs of releases as START..END, oldest first, separated by ', '"


class Flaw(NamedTuple):
    """What is wrong with one item of a release list: the item's place (its index among the
    items) and the message and hint of the problem."""

    item: int
    message: str
    hint: str


@functools.lru_cache(maxsize=4096)
def _real_date(value: str) -> bool:
    try:
        return dt.date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def split(line: str) -> list[tuple[str, int]]:
    """The items of a release line with the offset of each (its first character) in `line`."""
    out = []
    offset = 0
    for part in line.split(","):
        stripped = part.strip()
        out.append((stripped, offset + (len(part) - len(part.lstrip())) if stripped else offset))
        offset += len(part) + 1
    return out


@dataclass(frozen=True)
class ReleaseOrder:
    """The project's rules releases, oldest first: what a release line is read against."""

    dates: tuple[str, ...]

    @functools.cached_property
    def index(self) -> Mapping[str, int]:
        return {date: i for i, date in enumerate(self.dates)}

    @functools.cached_property
    def _lines(self) -> dict[str, tuple[str, ...]]:
        """The lines read without a flaw, by their text: the complete rules repeat ~2,800 lines
        22,900 times, and equal lines share one tuple (the knowledge cache's pickles store it once)."""
        return {}

    def expand(self, line: str) -> tuple[str, ...] | None:
        """The releases of a line without a flaw (each date the order's own string), None when
        it has one (`read` says which)."""
        found = self._lines.get(line)
        if found is None:
            found, flaws = self.read([item for item, _ in split(line)])
            if flaws:
                return None
            self._lines[line] = found
        return found

    def read(self, items: Sequence[str]) -> tuple[tuple[str, ...], list[Flaw]]:
        """The releases the items name (dates and ranges, oldest first), and the flaws found."""
        flaws: list[Flaw] = []
        out: list[str] = []
        dates, index = self.dates, self.index
        last = -1                 # the index of the newest release named so far
        last_item = ""            # the item that named it
        if not items or items == [""] or items == ("",):
            return (), [Flaw(0, "the list of releases is empty", "name at least one release, or remove the field")]
        for i, item in enumerate(items):
            if not item:
                flaws.append(Flaw(i, "an empty item in the list of releases", HOW))
                continue
            found = _ITEM.fullmatch(item)
            if found is None:
                flaws.append(Flaw(i, f"'{item}' is neither a release date nor a range START..END", HOW))
                continue
            start, end = found.group(1), found.group(2) or found.group(1)
            bad = [d for d in dict.fromkeys((start, end)) if not _real_date(d) or d not in index]
            for d in bad:
                if not _real_date(d):
                    flaws.append(Flaw(i, f"'{d}' is not a date", "write a real date as YYYY-MM-DD, e.g. 2026-01-16"))
                else:
                    flaws.append(Flaw(i, f"unknown release {d}: there is no rules/releases/{d}.yaml",
                                      self._nearest(d)))
            if bad:
                continue
            a, b = index[start], index[end]
            if b < a:
                flaws.append(Flaw(i, f"the range {item} ends before it starts",
                                  f"write the older release first: {end}{RANGE}{start}"))
                continue
            if a <= last:
                flaws.append(self._clash(i, item, a, b, last_item, last))
                continue
            out.extend(dates[a:b + 1])
            last, last_item = b, item
        return tuple(out), flaws

    def _clash(self, i: int, item: str, a: int, b: int, before: str, last: int) -> Flaw:
        """The flaw of an item that names a release an earlier item (`before`, whose newest
        release is `last`) named too, or comes after it in the list but is older."""
        dates = self.dates
        first = self.index[_ITEM.fullmatch(before).group(1)]  # type: ignore[union-attr]
        if " ".join(item.split()) == " ".join(before.split()):
            return Flaw(i, f"{item} is listed twice", "remove one of them")
        if b < first:
            return Flaw(i, f"{item} comes after {before} but is older", "list the releases oldest first")
        if a == b:
            return Flaw(i, f"the release {dates[a]} is named twice (alone and in {before})",
                        f"remove {dates[a]} alone: {before} holds it")
        if first == last:
            return Flaw(i, f"the release {dates[last]} is named twice (alone and in {item})",
                        f"remove {dates[last]} alone: {item} holds it")
        return Flaw(i, f"the ranges {before} and {item} overlap (both hold {dates[max(a, first)]})",
                    f"write them as one range: {dates[min(a, first)]}{RANGE}{dates[max(b, last)]}")

    def _nearest(self, date: str) -> str:
        """The hint for a release date the project has no file of: the releases around it."""
        at = bisect.bisect_left(self.dates, date)
        around = [d for d in self.dates[max(0, at - 1):at + 1]]
        known = f"; the releases nearest to it are {' and '.join(around)}" if around else "; no release is imported"
        return f"import that release first (rulekb import cr FILE), or correct the date{known}"

    def line(self, releases: Iterable[str]) -> str:
        """The line of `releases` (dates of this order; written alone, where one is not: the
        validator then names it): oldest first, runs of consecutive releases as ranges."""
        key = tuple(sorted(set(releases)))
        found = self._written.get(key)
        if found is None:
            found = self._written[key] = self._line(key)
        return found

    @functools.cached_property
    def _written(self) -> dict[tuple[str, ...], str]:
        """The lines made so far, by their releases (an import writes the same few thousand
        lists tens of thousands of times)."""
        return {}

    def _line(self, releases: tuple[str, ...]) -> str:
        index = self.index
        items: list[str] = []
        run: list[str] = []
        for date in releases:
            if run and date in index and run[-1] in index and index[date] == index[run[-1]] + 1:
                run.append(date)
                continue
            if run:
                items.append(run[0] if len(run) == 1 else f"{run[0]}{RANGE}{run[-1]}")
            run = [date]
        if run:
            items.append(run[0] if len(run) == 1 else f"{run[0]}{RANGE}{run[-1]}")
        return SEPARATOR.join(items)
