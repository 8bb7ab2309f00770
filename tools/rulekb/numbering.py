"""Rule numbers as each rules release printed them (a helper of stage 3, link: load -> validate
-> link -> check -> render -> report).

A text refers to rules by the numbers of its own release: the 2009-05-01 text of 217.8
("Phased-out permanents") says "rule 502.15", which was phasing then and is 702.26 today, and
nothing by 2026. `link` resolves a reference in the numbering of the text's release
(`ReleaseNumbers.resolve`), so that it lands on the rule — and the subrule — that had the
number then, rather than on whatever has it today or on an anchor its page does not have.

- `ReleaseNumbers.of(kb)`: every rule number of every imported release (the rules' number
  histories) and every subrule letter of those releases, indexed once;
- `text_release(variant, unit, owner, newest)`: the release whose numbering a text uses: the
  newest release an English text is the text of; for a translation, that of the English it was
  made from; for a text without releases, its rule's own release; None for today's numbering.
- `number_holders(kb)`: every number of every release -> the rules and subrules that had it and
  when (the site's number pages, and `rulekb show` saying what a number meant before).

Pure functions over a `KnowledgeBase`; nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterator, Mapping

from .models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Ruling, Subrule, Unit, Variant, english_hash, subrule_number
from .refs import parse_rule_number, sort_key

__all__ = ["imported", "horizon", "ReleaseNumbers", "text_release", "Span", "Holder", "number_holders"]


@dataclass(frozen=True)
class ReleaseNumbers:
    """The rules and subrules by their number in each imported release."""

    imported: frozenset[str]
    # (rule or section number, release) -> the rule that had it in that imported release
    rules: Mapping[tuple[str, str], Rule]
    # (subrule number printed under another rule's number, release) -> its rule and subrule
    printed: Mapping[tuple[str, str], tuple[Rule, Subrule]]
    # rules whose number history has spans without imported releases (from the archive, curated)
    spans: tuple[Rule, ...]

    @classmethod
    def of(cls, kb: KnowledgeBase) -> "ReleaseNumbers":
        imported = frozenset(r.date for r in kb.releases)
        rules: dict[tuple[str, str], Rule] = {}
        printed: dict[tuple[str, str], tuple[Rule, Subrule]] = {}
        spans: list[Rule] = []
        for rule in kb.rules:
            for entry in rule.history:
                for date in entry.releases:
                    rules.setdefault((entry.number, date), rule)
            if any(not entry.releases and entry.since is not None for entry in rule.history):
                spans.append(rule)
            for sub in rule.subrules + rule.former_subrules:
                for date, letter in sub.letters.items():
                    if "." in letter:
                        printed.setdefault((letter, date), (rule, sub))
        return cls(imported, MappingProxyType(rules), MappingProxyType(printed), tuple(spans))

    def rule_in(self, number: str, release: str) -> Rule | None:
        """The rule (or section) that had `number` in `release`: from the imported releases, else
        from a history span that covers the date; None when the knowledge base does not know."""
        found = self.rules.get((number, release))
        if found is not None or release in self.imported:
            return found
        for rule in self.spans:
            had = rule.number_in(release)
            if had is not None and had[0] == number:
                return rule
        return None

    def resolve(self, number: str, release: str) -> tuple[Rule, Subrule | None] | None:
        """What `number` (702.78, 702.78a, 702) named in `release`: the rule, and the subrule
        that had the letter there (current or former); None when nothing had it."""
        printed = self.printed.get((number, release))
        if printed is not None:
            return printed
        parsed = parse_rule_number(number)
        if parsed.letter is None:
            rule = self.rule_in(number, release)
            return (rule, None) if rule is not None else None
        rule = self.rule_in(str(parsed.parent), release)
        if rule is None:
            return None
        sub = rule.subrule_in(release, parsed.letter)
        return (rule, sub) if sub is not None else None


def imported(kb: KnowledgeBase) -> tuple[str, ...]:
    """The imported rules releases, oldest first."""
    return tuple(r.date for r in kb.releases)


def horizon(kb: KnowledgeBase) -> str | None:
    """The newest rules release the knowledge base knows of (imported or registered as a
    source). Number histories say nothing about later releases: "current" means up to here."""
    dates = [s.date for s in kb.sources.values() if s.kind == "comprehensive-rules" and s.date]
    dates += list(imported(kb))
    return max(dates) if dates else None


def text_release(variant: Variant, unit: Unit, owner: Rule | Ruling | None, lang: str) -> str | None:
    """The release whose numbering the text `variant` (of `unit`, in `lang`) uses: the newest
    release an English text is the text of; a translation's, that of the English it was made
    from (else of the unit's canonical English); a text without releases of a rule, the rule's
    own release; None when the text says nothing of a release (a card ruling: today's numbers)."""
    if variant.releases:
        return max(variant.releases)
    english = unit.variants.get(SOURCE_LANGUAGE, ())
    if lang != SOURCE_LANGUAGE and english:
        made_from = next((e for e in english if variant.translated_from is not None
                          and e.releases and english_hash(e.text) == variant.translated_from), None)
        source = made_from if made_from is not None else english[0]
        if source.releases:
            return max(source.releases)
    return owner.release if isinstance(owner, Rule) else None


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
