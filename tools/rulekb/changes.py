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
from .models import SOURCE_LANGUAGE, GlossaryEntry, KnowledgeBase, Rule, Unit, Variant, normalise, subrule_number
from .refs import sort_key
from .releases import imported
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

    @property
    def texts(self) -> tuple[str, str]:
        """Its older and its newer side, each as one text ("term: definition"; "" for a missing side)."""
        def joined(side: tuple[str, str] | None) -> str:
            return f"{side[0]}: {side[1]}" if side else ""
        return joined(self.before), joined(self.after)

    def diff(self) -> tuple[tuple[str, str], ...]:
        """The word diff of its term and definition, as one text ("term: definition")."""
        return word_diff(*self.texts)


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


class Releases:
    """Each imported release's texts, indexed once for any number of comparisons (`all_steps`
    compares 109 pairs of releases): unit id -> (its number in the release, its rule, the unit,
    its English there). Built in one pass over the rules, each rule over the
    releases its texts are in (a rule of 2026 is not asked about 2003)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.known = imported(kb)
        self._english: dict[str, dict[str, Variant]] = {}   # unit id -> release -> its English there
        self._units: dict[str, dict[str, tuple[str, Rule, Unit, str | None]]] = {release: {} for release in self.known}
        self.continues: dict[str, str] = {}   # unit id -> the unit id of the text it continues
        self._glossary: dict[str, tuple[tuple[str, str] | None, ...]] = {}   # release -> `glossary`
        for rule in kb.rules:
            self._index(rule)
            for move in rule.moves:
                self.continues[move.unit] = move.previous

    def _english_of(self, unit: Unit) -> dict[str, Variant]:
        found = self._english.get(unit.id)
        if found is None:
            found = {}
            for variant in unit.variants.get(SOURCE_LANGUAGE, ()):
                for release in variant.releases:
                    found.setdefault(release, variant)   # the first variant that lists it (`english_at`)
            self._english[unit.id] = found
        return found

    def _index(self, rule: Rule) -> None:
        """The rule's units in every imported release its texts are in, as `units` gives them:
        its title and text under the rule's number, each subrule under its own."""
        heads = [u for u in (rule.title, rule.text) if u is not None]
        current = rule.subrules
        subs = current + rule.former_subrules
        english = {u.id: self._english_of(u) for u in heads + [s.unit for s in subs]}
        candidates = {release for found in english.values() for release in found}
        for release in sorted(candidates):
            units = self._units.get(release)
            if units is None:     # a release not imported in full
                continue
            found = rule.number_in(release)
            if found is None:
                continue
            base = found[0]
            # a text listed in the release is its English there (what `english` gives), read
            # from the unit's index made above
            for unit in heads:
                variant = english[unit.id].get(release)
                if variant is not None:
                    units[unit.id] = (base, rule, unit, variant.text)
            for sub in subs:
                letter = sub.letters.get(release)
                if letter is None and release == rule.release and sub in current:
                    letter = sub.letter
                if letter is not None:
                    variant = english[sub.unit.id].get(release)
                    if variant is not None:
                        units[sub.unit.id] = (subrule_number(base, letter), rule, sub.unit, variant.text)

    def glossary(self, release: str) -> tuple[tuple[str, str] | None, ...]:
        """Each glossary entry's (term, definition) in `release` (None: not in it), in the
        glossary's order; made once per release (a step's newer release is the next step's older)."""
        found = self._glossary.get(release)
        if found is None:
            sides = []
            for entry in self.kb.glossary:
                term, definition = self.english(entry.term, release), self.english(entry.definition, release)
                sides.append((term, definition or "") if term is not None else None)
            found = self._glossary[release] = tuple(sides)
        return found

    def units(self, release: str) -> dict[str, tuple[str, Rule, Unit, str | None]]:
        """Unit id -> (its number, its rule, the unit, its English) of every text of the
        imported `release`, in the rules' order."""
        return self._units[release]

    def english(self, unit: Unit | None, release: str, rule_release: str | None = None) -> str | None:
        """`releases.english_at(unit, release, rule_release)`, by the index."""
        if unit is None:
            return None
        found = self._english_of(unit).get(release)
        if found is None and release == rule_release:
            variants = unit.variants.get(SOURCE_LANGUAGE, ())
            found = variants[0] if variants else None
        return found.text if found is not None else None


def compare_releases(kb: KnowledgeBase, new: str, old: str | None = None, *,
                     releases: Releases | None = None) -> ReleaseChanges:
    """What changed from `old` (default: the imported release before `new`) to `new`. Raises
    `UnknownRelease` when either is not imported in full, ValueError when `old` is not older.
    `releases`: the index of the releases, when several comparisons share it (`all_steps`)."""
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
    index = releases if releases is not None else Releases(kb)
    olds = index.units(old)
    news = index.units(new)
    continues = index.continues
    # a unit of the newer release the older one has not, and one of the older release the newer one
    # has not, both of the same rule under the same number: the same text (the import kept two
    # units where the releases between them broke the thread)
    left = {(rule.id, number): uid for uid, (number, rule, _, _) in olds.items() if uid not in news}
    changes: list[Change] = []   # only what changed: a text the same in both, under the same number, is left out
    paired: set[str] = set()
    for uid, (number, rule, unit, after) in news.items():
        previous_id = uid if uid in olds else continues.get(uid)
        moved = previous_id is not None and previous_id != uid
        if previous_id is None or previous_id not in olds or previous_id in news or previous_id in paired:
            previous_id = uid if uid in olds else left.get((rule.id, number))
            moved = False
        if previous_id is not None and previous_id not in paired and (previous_id == uid or previous_id not in news):
            paired.add(previous_id)
            old_number, _, _, before = olds[previous_id]
        else:
            old_number, before = None, None
        if old_number == number and before == after and before is not None:
            continue
        changes.append(Change(rule, unit, old_number, number, before, after, moved))
    for uid, (number, rule, unit, before) in olds.items():
        if uid not in news and uid not in paired:
            changes.append(Change(rule, unit, number, None, before, None))
    keys: dict[str, tuple[int, int, str]] = {}

    def key(number: str) -> tuple[int, int, str]:
        found = keys.get(number)
        if found is None:
            found = keys[number] = sort_key(number)
        return found

    changes.sort(key=lambda c: (key(c.number), c.old_number is None, c.unit.id))
    glossary = [GlossaryChange(entry, before, after)
                for entry, before, after in zip(kb.glossary, index.glossary(old), index.glossary(new)) if before != after]
    glossary.sort(key=lambda g: (g.term.casefold(), g.entry.id))
    old_numbers = {entry[0] for entry in olds.values()}
    new_numbers = {entry[0] for entry in news.values()}
    return ReleaseChanges(
        old, new,
        new_units=tuple(c for c in changes if c.old_number is None),
        removed=tuple(sorted((c for c in changes if c.new_number is None),
                             key=lambda c: (key(c.number), c.unit.id))),
        renumbered=tuple(c for c in changes if c.renumbered),
        reworded=tuple(c for c in changes if c.text is TextChange.REWORDED),
        typography=tuple(c for c in changes if c.text is TextChange.TYPOGRAPHY),
        numbers_gone=tuple(sorted(old_numbers - new_numbers, key=key)),
        numbers_added=tuple(sorted(new_numbers - old_numbers, key=key)),
        glossary=tuple(glossary))


def all_steps(kb: KnowledgeBase) -> tuple[ReleaseChanges, ...]:
    """Each imported release but the oldest against the release before it, newest first; the
    releases indexed once for all of them (`Releases`), not at all when fewer than two are
    imported (nothing to compare)."""
    if len(kb.releases) < 2:
        return ()
    index = Releases(kb)
    known = index.known
    return tuple(compare_releases(kb, new, old, releases=index) for old, new in reversed(list(zip(known, known[1:]))))
