"""Rule numbers as URLs (render stage): ``<lang>/n/<number>.html`` for every number of every
imported release (rules and subrules) and every number the rules' histories name, a small page
that leads to the rule's page today, at the subrule's anchor.

- a number that means the same rule (or subrule) today leads there at once (meta refresh and a
  visible link: it works from ``file://``; relative URLs);
- a number that now means another rule leads to today's rule and says what the number meant
  before, with a link (702.78: Conspire today; Retrace from 2009-07-11 to 2011-05-01); it waits
  `WAIT` seconds before it moves on, so that the reader can see which rule they came for;
- a number that no longer exists leads to the rule that had it last (502.16: Buyback, today
  702.27) and says so.

The pages are many (every number × every language) and need no theme: they are site-root files
(`RenderedSite.files`), written beside mkdocs' output, not mkdocs pages. Their shape is
``templates/pages/number.html.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from markupsafe import Markup

from ..models import KnowledgeBase, Rule, Subrule, subrule_number
from ..refs import sort_key
from ..releases import horizon, imported
from . import paths
from .context import Lang
from .templating import fill, template

FOLDER = "n"
WAIT = 10          # seconds before a number that meant another rule moves on to today's rule
TEMPLATE = "pages/number.html.j2"


def number_page(number: str) -> str:
    """The page of a number, relative to a language's site (``n/702.78a.html``)."""
    return f"{FOLDER}/{number}.html"


@dataclass(frozen=True)
class Span:
    """Releases in which a rule or subrule had a number: from `first` to `last` (None: to the
    newest release the knowledge base knows, today); either may be None when a history span
    gives no start."""

    first: str | None
    last: str | None


@dataclass(frozen=True)
class Holder:
    """A rule, or a subrule of it, that had a number, and when."""

    rule: Rule
    subrule: Subrule | None
    spans: tuple[Span, ...]

    @property
    def today(self) -> bool:
        return any(s.last is None for s in self.spans)

    @property
    def latest(self) -> str:
        return max("9999" if s.last is None else s.last for s in self.spans)

    @property
    def anchor(self) -> str:
        """Its place on its rule's page today: the subrule's number, else the rule's (a subrule
        that left the rules is shown under its rule)."""
        if self.subrule is not None and self.subrule in self.rule.subrules:
            return self.subrule.number
        return self.rule.number


def _runs(dates: set[str], order: dict[str, int], newest: str | None) -> Iterator[Span]:
    """Consecutive imported releases as spans; the newest release is "today"."""
    run: list[str] = []
    for date in sorted(dates):
        if run and order[date] != order[run[-1]] + 1:
            yield Span(run[0], None if run[-1] == newest else run[-1])
            run = []
        run.append(date)
    if run:
        yield Span(run[0], None if run[-1] == newest else run[-1])


def number_holders(kb: KnowledgeBase) -> dict[str, tuple[Holder, ...]]:
    """Every number of every imported release and of the rules' histories -> the rules and
    subrules that had it, the one it leads to first (today's, else the latest)."""
    releases = imported(kb)
    order = {date: i for i, date in enumerate(releases)}
    newest = releases[-1] if releases else horizon(kb)
    found: dict[str, dict[str, tuple[Rule, Subrule | None, set[str], list[Span]]]] = {}

    def add(number: str, rule: Rule, sub: Subrule | None) -> tuple[set[str], list[Span]]:
        # one holder per rule and number: two units of one subrule number (the import kept two
        # where releases between broke the thread) are one place, the current one preferred
        held = found.setdefault(number, {})
        entry = held.get(rule.id)
        if entry is None or (sub is not None and sub in rule.subrules and entry[1] not in rule.subrules):
            entry = held[rule.id] = (rule, sub, entry[2] if entry else set(), entry[3] if entry else [])
        return entry[2], entry[3]

    for rule in kb.rules:
        by_release: dict[str, str] = {}
        for entry, end, current in rule.history_spans():
            for date in entry.releases:
                by_release[date] = entry.number
                add(entry.number, rule, None)[0].add(date)
            if not entry.releases and (entry.since or end):
                add(entry.number, rule, None)[1].append(Span(entry.since, None if current else end))
        curated = rule.release not in order
        spans = rule.history_spans()
        if curated and not any(entry.number == rule.number and entry.covers(rule.release, end) for entry, end, _ in spans):
            # a curated rule: its number in its own release, where no history span says so
            add(rule.number, rule, None)[1].append(Span(rule.release, None if rule.release == newest else rule.release))
        for sub in rule.subrules + rule.former_subrules:
            for date, letter in sub.letters.items():
                if date in by_release:
                    add(subrule_number(by_release[date], letter), rule, sub)[0].add(date)
                elif curated and date == rule.release:
                    add(subrule_number(rule.number, letter), rule, sub)[1].append(
                        Span(date, None if date == newest else date))
    out: dict[str, tuple[Holder, ...]] = {}
    for number in sorted(found, key=sort_key):
        holders = [Holder(rule, sub, tuple(sorted(list(_runs(dates, order, newest)) + spans,
                                                  key=lambda s: (s.first or "", s.last or "9999"))))
                   for rule, sub, dates, spans in found[number].values()]
        out[number] = tuple(sorted(holders, key=lambda h: (not h.today, _negated(h.latest), h.rule.id,
                                                             h.subrule.unit.id if h.subrule else "")))
    return out


def _negated(date: str) -> tuple[int, ...]:
    """A sort key that puts the latest date first."""
    return tuple(-ord(ch) for ch in date)


@dataclass(frozen=True)
class Other:
    """Another rule that had the number: a link to it and when."""

    href: str
    name: str
    spans: str


def _name(c: Lang, holder: Holder) -> str:
    """"702.81 Retrace" or "702.81a (Retrace)" in the reader's language, as it is numbered today
    (`Rule.current_number`; a rule that left the rules: as it was last)."""
    rule = holder.rule
    title = c.titles.get(rule.id, "")
    if holder.subrule is None:
        return f"{rule.current_number} {title}".strip()
    number = rule.current_number + holder.subrule.letter
    return f"{number} ({title})" if title else number


def _spans(c: Lang, holder: Holder) -> str:
    _ = c.ui._
    parts = []
    for span in holder.spans:
        first = c.ui.date(span.first) if span.first else None
        last = c.ui.date(span.last) if span.last else None
        if first and span.last is None:
            parts.append(_("since {first}").format(first=first))
        elif first and last and first != last:
            parts.append(_("{first} … {last}").format(first=first, last=last))
        elif first or last:
            parts.append(first or _("until {last}").format(last=last))
    return ", ".join(parts)


def number_pages(c: Lang, holders: dict[str, tuple[Holder, ...]]) -> dict[str, str]:
    """The pages of one language, by path relative to the site root (``en/n/702.78.html``)."""
    _ = c.ui._
    page = template(TEMPLATE)
    out: dict[str, str] = {}
    for number, found in holders.items():
        here = number_page(number)
        target, others = found[0], found[1:]
        href = paths.href(here, paths.rule_page(target.rule.id), target.anchor)
        link = Markup('<a href="{}">{}</a>').format(href, _name(c, target))
        if target.today:
            lead = fill(_("Today, {number} is {target}."), number=number, target=link)
        else:
            lead = fill(_("{number} is no longer a rule number; it was the number of {target} ({spans})."),
                        number=number, target=link, spans=_spans(c, target))
        before = [fill(_("Before, {number} was the number of {other} ({spans})."), number=number,
                       other=Markup('<a href="{}">{}</a>').format(
                           paths.href(here, paths.rule_page(h.rule.id), h.anchor), _name(c, h)), spans=_spans(c, h))
                  for h in others]
        out[f"{c.lang}/{here}"] = page.render(
            lang=c.lang, title=_("Rule {number}").format(number=number), href=href, lead=lead, before=before,
            wait=WAIT if others else 0)
    return out
