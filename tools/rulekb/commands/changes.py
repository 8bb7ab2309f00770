"""`rulekb changes RELEASE [--since OLDER]`: what changed in a rules release against the release
before it (or OLDER): new, removed, renumbered and reworded rules and subrules, the changes of
typography alone apart, and the glossary's new, removed and reworded terms (`rulekb.changes`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..exitcodes import Exit
from .common import Command, Failure, project_root

if TYPE_CHECKING:
    from ..changes import Change

SHORT = 100   # characters of a text shown beside a number that was added, removed or renumbered


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("release", metavar="RELEASE", help="an imported rules release, YYYY-MM-DD (e.g. 2026-01-16)")
    p.add_argument("--since", metavar="OLDER",
                   help="compare with this imported release instead of the one before RELEASE")


def _short(text: str | None) -> str:
    line = " ".join((text or "").split())
    return line if len(line) <= SHORT else line[:SHORT - 1] + "…"


def _diff(c: Change) -> str:
    """The word diff of a changed text, its lines indented under the number."""
    from ..worddiff import format_diff
    return "    " + format_diff(c.diff()).replace("\n", "\n    ")


def _moved(c: Change) -> str:
    return " (moved from another rule)" if c.moved else ""


def run(args: argparse.Namespace) -> Exit:
    """Exit 0; 1 when a release is not imported; 2 on a malformed date or an OLDER that is
    not older. Changed texts are printed [-deleted-]{+inserted+}."""
    from ..changes import UnknownRelease, compare_releases, previous
    from ..releases import imported, valid_release
    from ..knowledge import load_knowledge_base
    from ..worddiff import format_diff
    for option, release in (("RELEASE", args.release), ("--since", args.since)):
        if release is not None and not valid_release(release):
            raise Failure(f"{option} '{release}' is not a date", hint="write a release as YYYY-MM-DD, e.g. 2026-01-16")
    kb = load_knowledge_base(project_root(args))
    if args.since is None and args.release in imported(kb) and previous(kb, args.release) is None:
        raise Failure(f"{args.release} is the oldest imported release: there is no release before it to compare with",
                      Exit.NOT_FOUND, "import an older release first: rulekb import cr FILE")
    try:
        found = compare_releases(kb, args.release, args.since)
    except UnknownRelease as exc:
        raise Failure(exc.message, Exit.NOT_FOUND, exc.hint) from None
    except ValueError as exc:
        raise Failure(str(exc), hint="name an older imported release with --since OLDER") from None  # not older
    print(f"Changes of the rules release {found.new} against {found.old} (English texts)")
    print(f"\nNew ({len(found.new_units)}):")
    for c in found.new_units:
        print(f"  {c.new_number}  {_short(c.after)}")
    print(f"\nRemoved ({len(found.removed)}):")
    for c in found.removed:
        print(f"  {c.old_number}  {_short(c.before)}")
    print(f"\nRenumbered ({len(found.renumbered)}):")
    for c in found.renumbered:
        print(f"  {c.old_number} -> {c.new_number}{_moved(c)}  {_short(c.after)}")
    print(f"\nReworded ({len(found.reworded)}):")
    for c in found.reworded:
        number = c.new_number if not c.renumbered else f"{c.old_number} -> {c.new_number}"
        print(f"  {number}{_moved(c)}\n{_diff(c)}")
    print(f"\nTypography only: quotes, dashes, apostrophes, spaces ({len(found.typography)}):")
    for c in found.typography:
        number = c.new_number if not c.renumbered else f"{c.old_number} -> {c.new_number}"
        print(f"  {number}\n{_diff(c)}")
    if found.numbers_gone:
        print(f"\nNumbers of {found.old} that {found.new} no longer has ({len(found.numbers_gone)}): "
              + ", ".join(found.numbers_gone))
    if found.numbers_added:
        print(f"Numbers that {found.new} has and {found.old} had not ({len(found.numbers_added)}): "
              + ", ".join(found.numbers_added))
    kinds = (("new", "Glossary, new terms"), ("removed", "Glossary, removed terms"),
             ("reworded", "Glossary, reworded"), ("typography", "Glossary, typography only"))
    for kind, heading in kinds:
        terms = found.glossary_of(kind)
        print(f"\n{heading} ({len(terms)}):")
        for g in terms:
            side = g.after or g.before or ("", "")
            if kind in ("new", "removed"):
                print(f"  {side[0]}  {_short(side[1])}")
            else:
                print(f"  {g.term}\n    " + format_diff(g.diff()).replace("\n", "\n    "))
    print(f"\n{len(found.new_units)} new, {len(found.removed)} removed, {len(found.renumbered)} renumbered, "
          f"{len(found.reworded)} reworded, {len(found.typography)} typography only; glossary: "
          + ", ".join(f"{len(found.glossary_of(kind))} {kind}" for kind, _ in kinds)
          + f" ({found.old} -> {found.new})")
    return Exit.OK


COMMAND = Command("changes", "what changed in a rules release: new, removed, renumbered and reworded rules",
                  arguments, run)
