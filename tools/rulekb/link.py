"""Pipeline stage 3 of 6 (load -> validate -> link -> check -> render -> report).

Resolves what the texts point at: rule numbers (with the shared parser of `refs`) to rules and
subrules of the knowledge base, and builds the backlinks ("referenced by") and both ends of the
texts that moved from one rule to another (`Rule.moves`). Also answers look-ups by an old or
current number through each rule's number history (`rulekb show 702.81a`).
Pure functions over a `KnowledgeBase`; nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .models import SOURCE_LANGUAGE, HistoryEntry, KnowledgeBase, Rule, Subrule, Unit, subrule_number
from .numbering import ReleaseNumbers, text_release
from .refs import Reference, RuleNumber, find_references, parse_rule_number


@dataclass(frozen=True)
class Target:
    """A resolved rule number: the rule, and the subrule when the number names one."""

    rule: Rule
    subrule: Subrule | None

    @property
    def number(self) -> str:
        """The number as the knowledge base stores it (the rule's release)."""
        return self.subrule.number if self.subrule else self.rule.number

    @property
    def anchor(self) -> str:
        """Its place on its rule's page: the subrule's number, else the rule's (a former subrule,
        one the rule no longer has, is shown under its rule)."""
        if self.subrule is not None and any(s is self.subrule for s in self.rule.subrules):
            return self.subrule.number
        return self.rule.number


@dataclass(frozen=True)
class Lookup:
    """The answer to "what is rule N?": the target, and how the number was matched."""

    target: Target
    asked: str
    history: HistoryEntry | None  # the history entry matched, None when N is the stored number

    def explain(self) -> str:
        t = self.target
        if self.history is None:
            return f"{self.asked} is {t.number} in the rules release of {t.rule.release}"
        entry, end, current = next(s for s in t.rule.history_spans() if s[0] == self.history)
        if current:
            span = f"since {entry.since} (current)"
        else:
            span = " ".join(p for p in (f"from {entry.since}" if entry.since else "",
                                        f"until {end}" if end else "") if p)
        return (f"{self.asked} is the number of {t.rule.id} in the rules releases {span}; "
                f"the text here is {t.number} of the release of {t.rule.release}")


@dataclass(frozen=True)
class Link:
    """One reference in one text of one unit, with the targets of its expanded numbers
    (None for a number that is not in the knowledge base)."""

    unit: str
    lang: str
    variant: int
    reference: Reference
    targets: tuple[Target | None, ...]


@dataclass(frozen=True)
class Moved:
    """A text that moved from one rule to another (a `Move` of the newer rule), both ends
    resolved: the subrule 110.5e until 2018-01-19 is the rule 111.6 since 2026-01-16."""

    rule: Rule
    unit: Unit
    number: str             # its number in `rule` in the release `since` ("111.6")
    since: str | None       # the first imported release with it there
    previous_rule: Rule
    previous: Unit
    previous_number: str    # its number before ("110.5e")
    until: str | None       # the last imported release with it there


@dataclass(frozen=True)
class LinkedKB:
    kb: KnowledgeBase
    links: tuple[Link, ...]
    backlinks: Mapping[str, tuple[str, ...]]   # rule id -> ids of the units that reference it
    _by_number: Mapping[str, Target]
    moved: Mapping[str, tuple[Moved, ...]]     # rule id -> the texts that moved into or out of it

    def resolve(self, number: str) -> Target | None:
        """A number as the texts use it: the knowledge base's stored numbering."""
        return self._by_number.get(number)

    def links_of(self, unit_id: str, lang: str, variant: int = 0) -> tuple[Link, ...]:
        return tuple(l for l in self.links if l.unit == unit_id and l.lang == lang and l.variant == variant)

    def lookup(self, number: str) -> Lookup | None:
        """Find a rule by its stored number first, then by any number of its history."""
        parsed = parse_rule_number(number)
        if (target := self.resolve(str(parsed))) is not None:
            return Lookup(target, str(parsed), None)
        rule_part, letter = _split(parsed)
        for rule in self.kb.rules:
            for entry in rule.history:
                if entry.number == rule_part:
                    sub = rule.subrule(letter) if letter else None
                    if letter and sub is None:
                        return None
                    return Lookup(Target(rule, sub), str(parsed), entry)
        return None


def _split(number: RuleNumber) -> tuple[str, str | None]:
    if number.letter is None:
        return str(number), None
    return str(RuleNumber(number.section, number.rule, None)), number.letter


def number_index(kb: KnowledgeBase) -> dict[str, Target]:
    index: dict[str, Target] = {}
    for rule in kb.rules:
        index[rule.number] = Target(rule, None)
        for sub in rule.subrules:
            index[sub.number] = Target(rule, sub)
    return index


def _releases(unit: Unit) -> list[str]:
    return sorted(r for v in unit.variants.get(SOURCE_LANGUAGE, ()) for r in v.releases)


def moves(kb: KnowledgeBase) -> dict[str, tuple[Moved, ...]]:
    """Rule id -> the texts that moved into or out of that rule, oldest move first. (validate
    has checked that every `moved_from` names a text or subrule of another rule.)"""
    where: dict[str, tuple[Rule, Unit, str, Subrule | None]] = {}
    for rule in kb.rules:
        if rule.text is not None:
            where[rule.text.id] = (rule, rule.text, rule.number, None)
        for sub in rule.subrules + rule.former_subrules:
            where[sub.unit.id] = (rule, sub.unit, sub.number, sub)   # (a former one: its number when last in)
    out: dict[str, list[Moved]] = {}
    for rule in kb.rules:
        for move in rule.moves:
            _, unit, number, sub = where[move.unit]
            old_rule, previous, old_number, _ = where[move.previous]
            since, until = _releases(unit), _releases(previous)
            first = since[0] if since else None
            found = rule.number_in(first) if first else None
            if found is not None:  # its number when it moved here
                letter = sub.letters.get(first) if sub is not None else ""
                number = subrule_number(found[0], letter) if letter is not None else number
            moved = Moved(rule, unit, number, first, old_rule, previous, old_number, until[-1] if until else None)
            out.setdefault(rule.id, []).append(moved)
            out.setdefault(old_rule.id, []).append(moved)
    order = lambda m: (m.since or "", m.number, m.previous_number)  # noqa: E731
    return {rid: tuple(sorted(found, key=order)) for rid, found in sorted(out.items())}


class _Resolver:
    """A number of a text as its release printed it (`numbering`): a text of the newest release
    (or of none) by the stored numbers; an older one by its release's, each (number, release)
    resolved once."""

    def __init__(self, kb: KnowledgeBase, index: Mapping[str, Target]):
        self.index = index
        self.numbers = ReleaseNumbers.of(kb)
        self.newest = max(self.numbers.imported) if self.numbers.imported else None
        self._found: dict[tuple[str, str], Target | None] = {}

    def target(self, number: str, release: str | None) -> Target | None:
        if release is None or release == self.newest:
            return self.index.get(number)
        key = (number, release)
        if key not in self._found:
            had = self.numbers.resolve(number, release)
            # a release that is neither imported nor in a history span that names the number:
            # the knowledge base cannot tell, the stored numbers stand (as before)
            self._found[key] = (Target(*had) if had is not None
                                else None if release in self.numbers.imported else self.index.get(number))
        return self._found[key]


def link(kb: KnowledgeBase) -> LinkedKB:
    index = number_index(kb)
    resolver = _Resolver(kb, index)
    links: list[Link] = []
    back: dict[str, set[str]] = {}
    units: tuple[Unit, ...] = kb.units()
    for unit in units:
        owner = kb.owner(unit.id)
        home = owner.id if isinstance(owner, Rule) else owner.mechanic if owner is not None else None  # its rule's id
        for lang, variants in sorted(unit.variants.items()):
            for i, variant in enumerate(variants):
                refs = find_references(variant.text)
                if not refs:
                    continue
                release = text_release(variant, unit, owner, lang)
                for ref in refs:
                    targets = tuple(resolver.target(n, release) for n in ref.numbers)
                    links.append(Link(unit.id, lang, i, ref, targets))
                    for t in targets:
                        if t is not None and t.rule.id != home:
                            back.setdefault(t.rule.id, set()).add(unit.id)
    backlinks = MappingProxyType({k: tuple(sorted(v)) for k, v in sorted(back.items())})
    return LinkedKB(kb, tuple(links), backlinks, MappingProxyType(index), MappingProxyType(moves(kb)))
