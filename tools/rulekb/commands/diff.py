"""`rulekb diff NUMBER OLD NEW`: what changed in a rule's English texts between two rules
releases, word by word (`rulekb.releases.compare`, `rulekb.worddiff`)."""

from __future__ import annotations

import argparse

from ..exitcodes import Exit
from .common import Command, Failure, project_root
from .show import NOT_A_NUMBER


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", help="a rule or subrule number as in either release, or today (e.g. 702.78 of 2011, 702.81)")
    p.add_argument("old", metavar="OLD", help="the older release, YYYY-MM-DD (e.g. 2011-05-01)")
    p.add_argument("new", metavar="NEW", help="the newer release, YYYY-MM-DD (e.g. 2026-01-16)")


def run(args: argparse.Namespace) -> Exit:
    """Exit 0; 1 when the rule or its texts in a release are not known; 2 on a malformed
    number or date. Changed texts are printed [-deleted-]{+inserted+}."""
    from ..models import SOURCE_LANGUAGE
    from ..refs import is_rule_number
    from ..releases import KINDS, compare, imported, valid_release
    from ..knowledge import load_knowledge_base
    from ..worddiff import format_diff, word_diff
    if not is_rule_number(args.ref):
        raise Failure(NOT_A_NUMBER.format(ref=args.ref))
    kb = load_knowledge_base(project_root(args))
    old, new = args.old, args.new
    for release in (old, new):
        if not valid_release(release):
            raise Failure(f"'{release}' is not a date; write a release as YYYY-MM-DD, e.g. 2026-01-16")
    diff = compare(kb, args.ref, old, new)
    if diff is None:
        raise Failure(f"no rule {args.ref} in this knowledge base, in {old}, {new} or today", Exit.NOT_FOUND)
    rule = diff.rule
    title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
    print(f"{title.text if title else rule.number} (id {rule.id}): {diff.numbers[old]} in the release of {old}, "
          f"{diff.numbers[new]} in the release of {new}")
    if diff.unknown:
        print(f"The knowledge base has no English text of this rule for the release of {', '.join(diff.unknown)} "
              f"(imported releases: {', '.join(imported(kb)) or 'none'}); import it first: rulekb import cr FILE.")
        return Exit.NOT_FOUND
    for c in diff.changes:
        if c.kind == "removed":
            print(f"{c.label}  [{c.unit_id}]: not in the release of {new}\n  [-{c.before or ''}-]")
        elif c.kind == "added":
            print(f"{c.label}  [{c.unit_id}]: new in the release of {new}\n  {{+{c.after}+}}")
        elif c.kind == "changed":
            print(f"{c.label}  [{c.unit_id}]\n  {format_diff(word_diff(c.before or '', c.after or ''))}")
    counts = {kind: sum(1 for c in diff.changes if c.kind == kind) for kind in KINDS}
    print(", ".join(f"{n} {what}" for what, n in counts.items()) + f" (texts of {old} -> {new})")
    return Exit.OK


COMMAND = Command("diff", "what changed in a rule's English texts between two rules releases, word by word",
                  arguments, run)
