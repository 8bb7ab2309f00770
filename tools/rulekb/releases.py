"""Rules releases over a `KnowledgeBase` (a domain module beside the link stage, used by render, the
commands and the importers; pure, no I/O): which rule a
number names in a given release, the English text a unit had in a release, and the answer
to ``rulekb show 702.78 --release 2026-01-16`` and ``rulekb diff 702.78 2011-05-01 2026-01-16``.

What the knowledge base can know about a release:
- a release imported in full (``rules/releases/DATE.yaml``): every number of it is known, so
  "702.78 is Conspire there" and "702.78 is no rule there" are both facts;
- any other release: only the number histories of the rules it holds (e.g. from the archive),
  so it can say where Retrace was, but not what else a number meant. It says so, and never
  guesses.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Mapping

from .link import Moved, link, moves
from .numbering import horizon, imported
from .models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Subrule, Unit, Variant, subrule_number
from .refs import RuleNumber, parse_rule_number


def english_at(unit: Unit | None, release: str, rule_release: str | None = None) -> Variant | None:
    """The English text of `unit` in a release: the variant that lists it, else (for the
    release a curated rule file states) the canonical English; None when unknown."""
    if unit is None:
        return None
    variants = unit.variants.get(SOURCE_LANGUAGE, ())
    for variant in variants:
        if release in variant.releases:
            return variant
    if release == rule_release and variants:
        return variants[0]
    return None


def valid_release(text: str) -> bool:
    """Whether `text` names a release: a date written YYYY-MM-DD."""
    try:
        return dt.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


@dataclass(frozen=True)
class Meaning:
    """What a number names in a release."""

    rule: Rule
    subrule: Subrule | None
    number: str           # the number asked, in that release
    evidence: str         # "" (an imported release says so) or where it is known from


def numbering(kb: KnowledgeBase, release: str) -> dict[str, Meaning]:
    """Every number the knowledge base knows for a release -> what it names there. Complete
    when the release is imported; otherwise only numbers known from rules' histories."""
    out: dict[str, Meaning] = {}
    newest = horizon(kb)
    if newest is None or release > newest:
        return out
    for rule in kb.rules:
        found = rule.number_in(release)
        if found is None:
            continue
        number, entry = found
        if entry is not None and release in entry.releases:
            evidence = ""
        elif entry is not None:
            evidence = f"the number history, source {entry.source}"
        else:
            evidence = "" if release in rule.releases else f"its rule file {rule.file}"
        out.setdefault(number, Meaning(rule, None, number, evidence))
        for sub in rule.subrules + rule.former_subrules:
            letter = sub.letters.get(release)
            if letter is None and release == rule.release and sub in rule.subrules:
                letter = sub.letter
            if letter is not None:
                label = subrule_number(number, letter)
                out.setdefault(label, Meaning(rule, sub, label, evidence))
    return out


def _name(rule: Rule) -> str:
    title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
    return f"{title.text} (id {rule.id})" if title else f"rule id {rule.id}"


@dataclass(frozen=True)
class Answer:
    """The answer to "what is NUMBER in RELEASE?": lines to print and, when known, the meaning."""

    lines: tuple[str, ...]
    meaning: Meaning | None
    complete: bool        # the release is imported: absence is a fact too


def _parent(number: RuleNumber) -> str:
    return str(RuleNumber(number.section, number.rule, None)) if number.letter else str(number)


def _title(rule: Rule) -> str:
    title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
    return title.text if title else f"rule {rule.id}"


def _spans_with(rule: Rule, number: str, release: str) -> list[str]:
    """When `rule` had `number` (other than in `release`), as its history says."""
    spans = []
    covered = False
    for entry, end, current in rule.history_spans():
        if entry.number != number:
            continue
        covered = covered or entry.covers(rule.release, end)
        if entry.releases:
            spans.append("in the release" + ("s " if len(entry.releases) > 1 else " ") + ", ".join(entry.releases))
        else:
            span = " ".join(p for p in (f"from {entry.since}" if entry.since else "",
                                        "(current)" if current else (f"until {end}" if end else "")) if p)
            spans.append(f"{span} (source {entry.source})")
    if rule.number == number and rule.release != release and not covered:
        spans.append(f"in the release {rule.release} (rule file {rule.file})")
    return spans


def _where(rule: Rule, release: str, complete: bool) -> str:
    """Where `rule` is in `release`, or why that is not known."""
    found = rule.number_in(release)
    if found is None:
        return (f"{_title(rule)} is not in the release of {release}" if complete
                else f"the knowledge base does not know {_title(rule)}'s number in the release of {release}")
    number, entry = found
    source = "" if entry is None or release in entry.releases else f" (source {entry.source})"
    return f"{_title(rule)} is {number} in the release of {release}{source}"


def explain(kb: KnowledgeBase, number: str, release: str) -> Answer:
    """Say what `number` is in the rules release of `release`, and where the rules that had
    that number in other releases are in it."""
    parsed = parse_rule_number(number)
    asked = str(parsed)
    complete = kb.release(release) is not None
    newest = horizon(kb)
    if newest is None or release > newest:
        return Answer((f"This knowledge base knows no rules release after {newest or '(none)'}, so it cannot say what "
                       f"{asked} is in the release of {release}.",
                       "Import that release first: rulekb import cr FILE (or --into build/fullcr)."), None, False)
    names = numbering(kb, release)
    moved = moves(kb)
    meaning = names.get(asked)
    rule_part = _parent(parsed)
    parent = names.get(rule_part) if rule_part != asked else None
    lines: list[str] = []
    if meaning is not None:
        what = _name(meaning.rule)
        sub = f", subrule {asked}" if meaning.subrule is not None else ""
        how = f" (known from {meaning.evidence})" if meaning.evidence else ""
        lines.append(f"In the rules release of {release}, {asked} is {what}{sub}{how}.")
        lines += _moved_lines(moved, meaning)
    elif parent is not None and not complete:
        how = f" (known from {parent.evidence})" if parent.evidence else ""
        lines.append(f"In the rules release of {release}, {rule_part} is {_name(parent.rule)}{how}; which of its "
                     f"subrules was {asked} then is not known: that release is not imported.")
    elif complete:
        lines.append(f"In the rules release of {release}, there is no rule {asked} "
                     f"(that release is imported in full, with {sum(1 for _ in names)} numbers).")
    else:
        known = ", ".join(imported(kb)) or "none"
        lines.append(f"This knowledge base cannot say which rule {asked} is in the rules release of {release}: "
                     f"that release is not imported (imported releases: {known}); it knows only the number "
                     f"histories of the {len(kb.rules)} rules it holds, and none of them had {asked} then.")
    # the rules that had this number in other releases, and where they are in `release`
    for rule in kb.rules:
        if any(m is not None and rule.id == m.rule.id for m in (meaning, parent)):
            continue
        spans = _spans_with(rule, rule_part, release)
        if spans:
            lines.append(f"{rule_part} was {_name(rule)} {'; '.join(spans)}; {_where(rule, release, complete)}.")
            if rule.number_in(release) is None:
                lines += _moved_in(moved, rule, release)
    if meaning is None and not complete:
        lines.append(f"To know every number of that release, import it: rulekb import cr FILE --into build/fullcr, "
                     f"then rulekb --root build/fullcr show {asked} --release {release}.")
    return Answer(tuple(lines), meaning, complete)


def _moved_lines(moved: Mapping[str, tuple[Moved, ...]], meaning: Meaning) -> list[str]:
    """Where the text of a rule or subrule moved to, or came from, in another rule."""
    unit = meaning.subrule.unit if meaning.subrule is not None else meaning.rule.text
    lines = []
    for m in moved.get(meaning.rule.id, ()):
        if m.previous is unit:
            since = f"since the release of {m.since}, " if m.since else "later "
            lines.append(f"Its text moved to another rule: {since}it is {m.number}, {_name(m.rule)}.")
        elif m.unit is unit:
            until = f"until the release of {m.until}, " if m.until else "before, "
            lines.append(f"Its text moved here from another rule: {until}it was {m.previous_number}, "
                         f"{_name(m.previous_rule)}.")
    return lines


def _moved_in(moved: Mapping[str, tuple[Moved, ...]], rule: Rule, release: str) -> list[str]:
    """Which number the texts that moved into `rule` had in `release`, when they were elsewhere then."""
    return [f"The text of {m.number} was {m.previous_number} ({_name(m.previous_rule)}) in the release of {release}."
            for m in moved.get(rule.id, ())
            if m.rule is rule and any(release in v.releases for v in m.previous.variants.get(SOURCE_LANGUAGE, ()))]


def english_versions(unit: Unit | None) -> tuple[tuple[tuple[str, ...], Variant], ...]:
    """The official English versions of a unit, oldest first: (the releases with that text,
    the variant). For the history of a rule page: consecutive versions are what changed."""
    if unit is None:
        return ()
    found = [(v.releases, v) for v in unit.variants.get(SOURCE_LANGUAGE, ()) if v.releases]
    return tuple(sorted(found, key=lambda rv: rv[0][0]))


def units_in(rule: Rule, release: str, letter: str | None = None) -> list[tuple[str, Unit]]:
    """(label in that release, unit) of `rule` as it was in `release`: its title and text
    (unless `letter` asks for one subrule) and its subrules by their letters then."""
    number = rule.number_in(release)
    base = number[0] if number else rule.number
    out: list[tuple[str, Unit]] = []
    for name, unit in (("title", rule.title), ("text", rule.text)):
        if unit is not None and letter is None and english_at(unit, release, rule.release) is not None:
            out.append((f"{base} {name}", unit))
    subs = []
    for sub in rule.subrules + rule.former_subrules:
        sub_letter = sub.letters.get(release) or (sub.letter if release == rule.release and sub in rule.subrules else None)
        if sub_letter is not None and (letter is None or sub_letter == letter):
            subs.append((sub_letter, subrule_number(base, sub_letter), sub.unit))
    out += [(label, unit) for _, label, unit in sorted(subs, key=lambda s: s[0][-1])]
    return out


@dataclass(frozen=True)
class TextChange:
    """One unit of a rule compared between two releases."""

    unit_id: str
    label: str            # its label in the older release ("OLD -> NEW" when its letter changed)
    kind: str             # "changed" | "unchanged" | "added" | "removed"
    before: str | None    # the English in the older release
    after: str | None     # the English in the newer release


@dataclass(frozen=True)
class RuleDiff:
    """A rule's English texts in two releases (``rulekb diff``)."""

    rule: Rule
    old: str
    new: str
    numbers: Mapping[str, str]      # release -> the rule's number in it ("?" when not known)
    unknown: tuple[str, ...]        # releases of which the knowledge base has no text of the rule
    changes: tuple[TextChange, ...]  # empty when `unknown` is not


KINDS = ("changed", "unchanged", "added", "removed")


def compare(kb: KnowledgeBase, number: str, old: str, new: str) -> RuleDiff | None:
    """The English texts of the rule `number` names in release `old`, else in `new`, else today
    (or in its number history), compared between the two releases; None when no rule has that
    number. A subrule is followed by its identity, whatever its letter in each release (601.2e
    of 2011 is 601.2f now)."""
    meaning = numbering(kb, old).get(number) or numbering(kb, new).get(number)
    if meaning is not None:
        rule, subrule = meaning.rule, meaning.subrule
    else:
        found = link(kb).lookup(number)
        if found is None:
            return None
        rule, subrule = found.target.rule, found.target.subrule
    sides = {release: {unit.id: (label, unit) for label, unit in units_in(rule, release)
                       if subrule is None or unit is subrule.unit}
             for release in (old, new)}
    newest = horizon(kb) or ""
    numbers = {release: (rule.number_in(release) or ("?",))[0] if release <= newest else "?" for release in sides}
    unknown = tuple(release for release, units in sides.items() if not units)
    if unknown:
        return RuleDiff(rule, old, new, numbers, unknown, ())
    changes: list[TextChange] = []
    for uid in list(sides[new]) + [uid for uid in sides[old] if uid not in sides[new]]:
        old_label, unit = sides[old].get(uid) or sides[new][uid]
        new_label = sides[new].get(uid, (None,))[0]
        before, after = english_at(unit, old, rule.release), english_at(unit, new, rule.release)
        if uid not in sides[new] or after is None:
            label = old_label if new_label in (None, old_label) else f"{old_label} -> {new_label}"
            changes.append(TextChange(uid, label, "removed", before.text if before else None, None))
        elif uid not in sides[old] or before is None:
            changes.append(TextChange(uid, new_label, "added", None, after.text))
        else:
            label = old_label if new_label in (None, old_label) else f"{old_label} -> {new_label}"
            kind = "unchanged" if before.text == after.text else "changed"
            changes.append(TextChange(uid, label, kind, before.text, after.text))
    return RuleDiff(rule, old, new, numbers, (), tuple(changes))
