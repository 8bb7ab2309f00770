"""What changed in a rules release (a domain module beside the link stage, like `releases`: pure,
no I/O; used by ``rulekb changes`` and by render for ``<lang>/changes/<release>.html``).

A release is compared with an older one (by default the imported release before it) unit by
unit, following each rule and subrule by its identity, whatever its number in either release:

- new: a rule or subrule the newer release has and the older one has not;
- removed: one the older release has and the newer one has not;
- renumbered: one whose number differs (702.78 -> 702.81; a subrule whose letter changed; a text
  that moved to another rule, `Rule.moves`, counts as renumbered from where it was);
- reworded: one whose English changed in meaning, with the word diff;
- typography: one whose English changed only in quotes, dashes, apostrophes or spaces (the same
  `models.normalise` form the translations' hashes are taken of), counted and listed apart;
- the glossary likewise: terms new, removed, reworded (term or definition) or changed in typography alone.

Both releases must be imported in full: only then is the absence of a number a fact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .diagnostics import did_you_mean
from .models import SOURCE_LANGUAGE, GlossaryEntry, KnowledgeBase, Rule, Unit, normalise, subrule_number
from .refs import sort_key
from .releases import english_at, imported
from .worddiff import word_diff


class TextChange(str, enum.Enum):
    SAME = "same"
    TYPOGRAPHY = "typography"   # only quotes, dashes, apostrophes, spaces differ
    REWORDED = "reworded"


@dataclass(frozen=True)
class Change:
    """One text (a rule's title or text, or a subrule) between two releases. `old_number` is
    None for a new one, `new_number` None for a removed one; `before`/`after` its English."""

    rule: Rule
    unit: Unit
    old_number: str | None
    new_number: str | None
    before: str | None
    after: str | None
    moved: bool = False      # its text continues a text of another rule (`Rule.moves`)

    @property
    def text(self) -> TextChange:
        if self.before is None or self.after is None or self.before == self.after:
            return TextChange.SAME
        if normalise(self.before) == normalise(self.after):
            return TextChange.TYPOGRAPHY
        return TextChange.REWORDED

    @property
    def renumbered(self) -> bool:
        return self.old_number is not None and self.new_number is not None and self.old_number != self.new_number

    @property
    def number(self) -> str:
        """The number it has in the newer release, else the one it had."""
        return self.new_number or self.old_number or ""

    def diff(self) -> tuple[tuple[str, str], ...]:
        """The word diff of its English (`worddiff.word_diff`); only for a changed text."""
        return word_diff(self.before or "", self.after or "")


@dataclass(frozen=True)
class GlossaryChange:
    """A glossary term between two releases: its term and definition in the older (None: it is
    new) and in the newer release (None: it was removed)."""

    entry: GlossaryEntry
    before: tuple[str, str] | None   # (term, definition)
    after: tuple[str, str] | None

    @property
    def term(self) -> str:
        return (self.after or self.before or ("", ""))[0]

    @property
    def text(self) -> TextChange:
        if self.before is None or self.after is None or self.before == self.after:
            return TextChange.SAME
        if all(normalise(a) == normalise(b) for a, b in zip(self.before, self.after)):
            return TextChange.TYPOGRAPHY
        return TextChange.REWORDED

    def diff(self) -> tuple[tuple[str, str], ...]:
        """The word diff of its term and definition, as one text ("term: definition")."""
        def joined(side: tuple[str, str] | None) -> str:
            return f"{side[0]}: {side[1]}" if side else ""
        return word_diff(joined(self.before), joined(self.after))


@dataclass(frozen=True)
class ReleaseChanges:
    """What changed from release `old` to release `new`, each list in the newer (else older)
    release's numeric order."""

    old: str
    new: str
    new_units: tuple[Change, ...]
    removed: tuple[Change, ...]
    renumbered: tuple[Change, ...]
    reworded: tuple[Change, ...]
    typography: tuple[Change, ...]   # changes of typography alone, apart from those of meaning
    numbers_gone: tuple[str, ...]    # numbers of the older release that the newer one does not use
    numbers_added: tuple[str, ...]   # numbers of the newer release that the older one did not use
    glossary: tuple[GlossaryChange, ...] = ()   # the glossary terms that changed, by term

    @property
    def unchanged(self) -> bool:
        return not (self.new_units or self.removed or self.renumbered or self.reworded or self.typography
                    or self.glossary)

    def glossary_of(self, kind: str) -> tuple[GlossaryChange, ...]:
        """The glossary changes of one kind: "new", "removed", "reworded" or "typography"."""
        wanted = {"reworded": TextChange.REWORDED, "typography": TextChange.TYPOGRAPHY}
        return tuple(g for g in self.glossary
                     if (kind == "new" and g.before is None) or (kind == "removed" and g.after is None)
                     or (g.before is not None and g.after is not None and g.text is wanted.get(kind)))


class UnknownRelease(ValueError):
    """A release the knowledge base has not imported in full: `message` says which, and `hint`
    names the imported releases (the closest one first, when one is close)."""

    def __init__(self, release: str, known: tuple[str, ...], what: str = "release"):
        self.release = release
        self.message = f"the {what} {release} is not imported in this knowledge base"
        close = did_you_mean(release, known)
        listed = ", ".join(known) if len(known) <= 12 else f"{', '.join(known[:3])} … {', '.join(known[-3:])}"
        self.hint = (f"{close} " if close else "") + (
            f"imported releases ({len(known)}): {listed}" if known else
            "no release is imported: rulekb import cr FILE") + "; rulekb import cr FILE imports another"
        super().__init__(self.message)


def previous(kb: KnowledgeBase, release: str) -> str | None:
    """The imported release before `release` (None for the oldest)."""
    older = [d for d in imported(kb) if d < release]
    return max(older) if older else None


def _in(unit: Unit, release: str) -> bool:
    """Whether the imported `release` has a text of `unit` (a curated title such as Casting
    Spells, which no release prints, has none)."""
    return any(release in v.releases for v in unit.variants.get(SOURCE_LANGUAGE, ()))


def _units(rule: Rule, release: str) -> dict[str, tuple[str, Unit]]:
    """Unit id -> (its number in `release`, the unit) of `rule` as it was in the imported
    `release`: its title and text under the rule's number, each subrule under its own."""
    found = rule.number_in(release)
    if found is None:
        return {}
    base = found[0]
    out: dict[str, tuple[str, Unit]] = {}
    for unit in (rule.title, rule.text):
        if unit is not None and _in(unit, release):
            out[unit.id] = (base, unit)
    current = rule.subrules
    for sub in current + rule.former_subrules:
        letter = sub.letters.get(release)
        if letter is None and release == rule.release and sub in current:
            letter = sub.letter
        if letter is not None and _in(sub.unit, release):
            out[sub.unit.id] = (subrule_number(base, letter), sub.unit)
    return out


def compare_releases(kb: KnowledgeBase, new: str, old: str | None = None) -> ReleaseChanges:
    """What changed from `old` (default: the imported release before `new`) to `new`. Raises
    `UnknownRelease` when either is not imported in full, ValueError when `old` is not older."""
    known = imported(kb)
    if new not in known:
        raise UnknownRelease(new, known)
    if old is None:
        old = previous(kb, new)
        if old is None:
            raise ValueError(f"{new} is the oldest imported release: there is no release before it to compare with")
    elif old not in known:
        raise UnknownRelease(old, known, "older release")
    if old >= new:
        raise ValueError(f"--since {old} is not older than {new}")
    olds: dict[str, tuple[str, Rule, Unit]] = {}
    news: dict[str, tuple[str, Rule, Unit]] = {}
    continues: dict[str, str] = {}   # unit id -> the unit id of the text it continues
    for rule in kb.rules:
        for uid, (number, unit) in _units(rule, old).items():
            olds[uid] = (number, rule, unit)
        for uid, (number, unit) in _units(rule, new).items():
            news[uid] = (number, rule, unit)
        for move in rule.moves:
            continues[move.unit] = move.previous
    # a unit of the newer release the older one has not, and one of the older release the newer one
    # has not, both of the same rule under the same number: the same text (the import kept two
    # units where the releases between them broke the thread)
    left = {(rule.id, number): uid for uid, (number, rule, _) in olds.items() if uid not in news}
    changes: list[Change] = []
    paired: set[str] = set()
    for uid, (number, rule, unit) in news.items():
        previous_id = uid if uid in olds else continues.get(uid)
        moved = previous_id is not None and previous_id != uid
        if previous_id is None or previous_id not in olds or previous_id in news or previous_id in paired:
            previous_id = uid if uid in olds else left.get((rule.id, number))
            moved = False
        if previous_id is not None and previous_id not in paired and (previous_id == uid or previous_id not in news):
            paired.add(previous_id)
            old_number, old_rule, old_unit = olds[previous_id]
            before = english_at(old_unit, old, old_rule.release)
        else:
            old_number, before = None, None
        after = english_at(unit, new, rule.release)
        changes.append(Change(rule, unit, old_number, number, before.text if before else None,
                              after.text if after else None, moved))
    for uid, (number, rule, unit) in olds.items():
        if uid not in news and uid not in paired:
            before = english_at(unit, old, rule.release)
            changes.append(Change(rule, unit, number, None, before.text if before else None, None))
    changes.sort(key=lambda c: (sort_key(c.number), c.old_number is None, c.unit.id))
    glossary = []
    for entry in kb.glossary:
        sides = []
        for release in (old, new):
            term, definition = english_at(entry.term, release), english_at(entry.definition, release)
            sides.append((term.text, definition.text if definition else "") if term is not None else None)
        if sides[0] != sides[1]:
            glossary.append(GlossaryChange(entry, sides[0], sides[1]))
    glossary.sort(key=lambda g: (g.term.casefold(), g.entry.id))
    old_numbers = {number for number, _, _ in olds.values()}
    new_numbers = {number for number, _, _ in news.values()}
    return ReleaseChanges(
        old, new,
        new_units=tuple(c for c in changes if c.old_number is None),
        removed=tuple(sorted((c for c in changes if c.new_number is None),
                             key=lambda c: (sort_key(c.number), c.unit.id))),
        renumbered=tuple(c for c in changes if c.renumbered),
        reworded=tuple(c for c in changes if c.text is TextChange.REWORDED),
        typography=tuple(c for c in changes if c.text is TextChange.TYPOGRAPHY),
        numbers_gone=tuple(sorted(old_numbers - new_numbers, key=sort_key)),
        numbers_added=tuple(sorted(new_numbers - old_numbers, key=sort_key)),
        glossary=tuple(glossary))
