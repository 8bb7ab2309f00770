"""The "Versions" section of a rule page (render stage): for every unit of the rule with two or
more distinct English versions, the releases (or source) of each version and word-level diffs:
each release against the next — the changes of meaning shown open and first, those of
typography alone (quotes, dashes, apostrophes, spaces) folded after them and marked as such,
their versions marked too — and, with three or more, the oldest against the newest, folded;
each English text known only from its source (e.g. an older wording quoted by a seed) against
the text shown on the page. The diffs grow with the versions, not with their pairs.

No script: the diffs are made here, once per pair of distinct texts (a text unchanged over
several releases is one version), and only for the texts that changed — a rule whose texts
never changed gets no section. What a unit's section shows but its words and dates (its versions,
which of them changed typography alone, its diffs in their order: `UnitHistory`) is the same in
every language: it is made once per unit for all of them (`context.Shared.histories`). Each unit is folded in a ``<details>``, and the section is kept
out of the search index like the number history. `rulekb diff NUMBER OLD NEW` prints the same
diffs in the terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..releases import english_versions
from ..models import SOURCE_LANGUAGE, Rule, Unit, Variant, normalise
from .context import Lang
from .diffs import diff_html

__all__ = ["unit_versions", "comparisons", "typography_only", "diff_html", "versions_of", "unit_history", "Version",
           "Diff", "VersionsOfUnit", "UnitHistory"]


def unit_versions(unit: Unit) -> list[tuple[tuple[str, ...], Variant]]:
    """The distinct English versions of a unit: (releases, variant). First the versions of
    official releases, oldest first; then the texts known only from their source (releases
    empty) whose wording differs from every other version, the canonical one last."""
    versions = [(tuple(sorted(releases)), variant) for releases, variant in english_versions(unit)]
    texts = {v.text for _r, v in versions}
    others = sorted((v for v in unit.variants.get(SOURCE_LANGUAGE, ()) if not v.releases), key=lambda v: v.canonical)
    for variant in others:
        if variant.text not in texts:
            texts.add(variant.text)
            versions.append(((), variant))
    return versions


def comparisons(versions: list[tuple[tuple[str, ...], Variant]], shown: Variant | None) -> list[tuple[int, int]]:
    """The pairs of versions (indexes) whose diff is shown: each release's version against the
    next, then, with three or more, the oldest against the newest (never every pair: a rule
    with 30 versions gets 30 diffs, not 435); each text known only from its source against the
    text on the page (or, when it is that text, the newest release against it)."""
    released = [i for i, (releases, _v) in enumerate(versions) if releases]
    pairs = list(zip(released, released[1:]))
    if len(released) >= 3:
        pairs.append((released[0], released[-1]))
    page = next((i for i, (_r, v) in enumerate(versions) if v is shown or (shown is not None and v.text == shown.text)),
                None)
    for i, (releases, _v) in enumerate(versions):
        if releases:
            continue
        if page is not None and i != page:
            pairs.append((i, page))
        elif i == page and released:
            pairs.append((released[-1], i))
    return pairs


def typography_only(old: str, new: str) -> bool:
    """Whether two texts differ only in quotes, dashes, apostrophes or spaces (`models.normalise`,
    the form the translations' hashes are taken of)."""
    return normalise(old) == normalise(new)


@dataclass(frozen=True)
class Version:
    releases: tuple[str, ...]   # empty: known only from its source
    source: str                 # the title of its source
    shown: bool                 # the text on the page
    typography: bool = False    # differs from the release's version before it only in typography
    dates: str = ""             # its releases in the reader's language, "15. März 2003, 1. Oktober 2003"


@dataclass(frozen=True)
class Diff:
    old: int                    # version numbers, from 1
    new: int
    folded: bool                # a span wider than one release to the next, or typography alone
    html: Markup
    typography: bool = False    # one release to the next, in typography alone


@dataclass(frozen=True)
class VersionsOfUnit:
    anchor: str                 # the unit's part of the id (``versions-a``)
    name: str                   # the unit's label on its rule's page
    versions: tuple[Version, ...]
    diffs: tuple[Diff, ...]


@dataclass(frozen=True)
class UnitHistory:
    """What a unit's part of the section shows in every language: its versions (without their
    dates, which are in the reader's language) and its diffs, in their order."""

    versions: tuple[Version, ...]
    diffs: tuple[Diff, ...]


def versions_of(c: Lang, rule: Rule) -> tuple[VersionsOfUnit, ...]:
    """The units of the rule whose English changed, with their versions and diffs (the section's
    shape: the Versions part of ``templates/pages/rule.md.j2``); none: no section."""
    out = []
    histories = c.shared.histories
    for unit in rule.units:
        if unit.id in histories:
            history = histories[unit.id]
        else:
            history = histories[unit.id] = unit_history(c, unit)
        if history is not None:
            out.append(VersionsOfUnit(
                unit.id.rsplit(".", 1)[1], c.unit_name(unit, short=True),
                tuple(Version(v.releases, v.source, v.shown, v.typography, c.release_dates(v.releases))
                      for v in history.versions),
                history.diffs))
    return tuple(out)


def unit_history(c: Lang, unit: Unit) -> UnitHistory | None:
    """The versions of a unit and their diffs (None: fewer than two versions, no section): the
    changes of meaning from one release to the next first (open), then those of typography
    alone (folded, marked), then the wider span and the texts known from their sources. The
    same in every language (the sources' titles are the English of rules/sources.yaml)."""
    versions = unit_versions(unit)
    if len(versions) < 2:
        return None
    shown = unit.text(SOURCE_LANGUAGE)
    released = [i for i, (releases, _v) in enumerate(versions) if releases]
    retypeset = {new for old, new in zip(released, released[1:])
                 if typography_only(versions[old][1].text, versions[new][1].text)}
    listed = tuple(Version(releases, c.source_title(variant.source), shown is not None and variant.text == shown.text,
                           i in retypeset)
                   for i, (releases, variant) in enumerate(versions))
    diffs: list[tuple[int, Diff]] = []
    for i, j in comparisons(versions, shown):
        step = i in released and j in released and released.index(j) - released.index(i) == 1
        typography = step and j in retypeset
        wide = i in released and j in released and not step
        group = 1 if typography else (0 if step else 2)   # meaning, typography alone, the rest
        diffs.append((group, Diff(i + 1, j + 1, wide or typography,
                                  c.shared.diffs.brief(versions[i][1].text, versions[j][1].text), typography)))
    diffs.sort(key=lambda gd: gd[0])   # stable: each group in its order
    return UnitHistory(listed, tuple(d for _g, d in diffs))
