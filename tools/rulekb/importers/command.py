"""The command-line side of the importers (`cli` stays thin): ``rulekb import cr|mtgjson``,
``rulekb show NUMBER --release DATE`` and ``rulekb diff NUMBER OLD NEW``."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Sequence

from ..models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Unit, english_hash
from . import cr, mtgjson
from ..worddiff import format_diff, word_diff
from ..releases import english_at, explain, horizon, imported, numbering

EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE = 0, 1, 2


def arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    c = sub.add_parser("cr", help="a Comprehensive Rules text release (.txt, any encoding)",
                       description="Import an official Comprehensive Rules text release: sections, rules, subrules "
                                   "with their examples, glossary; a newer release adds new English versions (older "
                                   "ones and every translation stay); importing the same release again changes nothing.")
    c.add_argument("file", type=Path, nargs="+",
                   help="the release, e.g. ../shared/data/comprehensive-rules/MagicCompRules-2026-01-16.txt; "
                        "several files are imported oldest first and written once")
    c.add_argument("--effective", metavar="YYYY-MM-DD",
                   help="the effective date, when the file does not say it ('These rules are effective as of ...'); "
                        "one file only")
    c.add_argument("--into", type=Path, metavar="DIR",
                   help="import into the dataset DIR instead of the project (created as a copy of the project's "
                        "data when missing, e.g. build/fullcr; build it with rulekb --root DIR build)")
    m = sub.add_parser("mtgjson", help="the cards and rulings of an MTGJSON set file (e.g. XLN.json)",
                       description="Import the cards (names in the knowledge base's languages, oracle id, set and "
                                   "number) and rulings of an MTGJSON set file; a ruling shared by several cards is "
                                   "stored once; existing cards and rulings are matched, not duplicated.")
    m.add_argument("file", type=Path, help="the set file, e.g. ../shared/data/mtgjson/XLN.json")
    m.add_argument("--into", type=Path, metavar="DIR", help="import into the dataset DIR (see 'import cr --into')")


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve()
    if args.what == "cr":
        report = cr.import_releases(root, args.file, args.effective, args.into)
    else:
        report = mtgjson.import_set(root, args.file, args.into)
    print("\n".join(report.lines()))
    return EXIT_OK


# ---------------------------------------------------------------- show --release


def valid_release(text: str) -> bool:
    try:
        return dt.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def _units_in(rule: Rule, release: str, letter: str | None) -> list[tuple[str, Unit]]:
    """(label in that release, unit) of the rule as it was in `release`."""
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
            subs.append((sub_letter, f"{base}{sub_letter}", sub.unit))
    out += [(label, unit) for _, label, unit in sorted(subs, key=lambda s: s[0])]
    return out


def show_release(args: argparse.Namespace, kb: KnowledgeBase) -> int:
    """``rulekb show NUMBER --release DATE``: what NUMBER is in that release, where the rules
    that had NUMBER elsewhere are in it, and the texts as they were in it. Exit 0 when the
    knowledge base knows what NUMBER is there, 1 when it does not (or there is no such rule)."""
    if not valid_release(args.release):
        print(f"error: --release '{args.release}' is not a date; write it as YYYY-MM-DD, e.g. 2026-01-16", file=sys.stderr)
        return EXIT_USAGE
    codes = kb.language_codes
    if args.lang and args.lang not in codes:
        print(f"error: unknown language '{args.lang}'; use one of {', '.join(codes)}", file=sys.stderr)
        return EXIT_USAGE
    langs: Sequence[str] = codes if args.all_languages else ((args.lang,) if args.lang else (SOURCE_LANGUAGE,))
    answer = explain(kb, args.ref, args.release)
    print("\n".join(answer.lines))
    meaning = answer.meaning
    if meaning is None:
        return EXIT_UNKNOWN
    rule = meaning.rule
    letter = meaning.number[-1] if meaning.subrule is not None else None
    title = english_at(rule.title, args.release, rule.release) if rule.title else None
    print(f"rule {meaning.number if letter is None else meaning.number[:-1]}"
          f"{' ' + title.text if title else ''} (id {rule.id}) as in the release of {args.release}; "
          f"number today: {rule.current_number}")
    for label, unit in _units_in(rule, args.release, letter):
        english = english_at(unit, args.release, rule.release)
        print(f"{label}  [{unit.id}]")
        for lang in langs:
            if lang == SOURCE_LANGUAGE:
                if english is None:
                    print(f"  {lang}: (no English text known for this release)")
                    continue
                src = kb.sources[english.source]
                print(f"  {lang}: {english.text}")
                print(f"      source: {src.id} ({src.title}); {english.pos.file}:{english.pos.line}")
                continue
            variant = unit.text(lang)
            if variant is None:
                print(f"  {lang}: (missing: no {lang} text)")
                continue
            made_from = ("made from this release's English" if english is not None and variant.translated_from
                         == english_hash(english.text) else "made from another English version")
            print(f"  {lang}: {variant.text}")
            print(f"      source: {variant.source}; status: {variant.status.value}; {made_from}; "
                  f"{variant.pos.file}:{variant.pos.line}")
    return EXIT_OK


# ---------------------------------------------------------------- diff


def diff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", help="a rule or subrule number as in either release, or today (e.g. 702.78 of 2011, 702.81)")
    p.add_argument("old", metavar="OLD", help="the older release, YYYY-MM-DD (e.g. 2011-05-01)")
    p.add_argument("new", metavar="NEW", help="the newer release, YYYY-MM-DD (e.g. 2026-01-16)")


def diff(args: argparse.Namespace, kb: KnowledgeBase) -> int:
    """``rulekb diff NUMBER OLD NEW``: what changed in a rule's English texts between any two
    releases, word by word ([-deleted-]{+inserted+}). NUMBER is looked up in OLD, then NEW, then
    today's numbers and the number histories. Exit 0; 1 when the rule or its texts in a release
    are not known; 2 on a malformed date."""
    from ..link import link
    for release in (args.old, args.new):
        if not valid_release(release):
            print(f"error: '{release}' is not a date; write a release as YYYY-MM-DD, e.g. 2026-01-16", file=sys.stderr)
            return EXIT_USAGE
    meaning = numbering(kb, args.old).get(args.ref) or numbering(kb, args.new).get(args.ref)
    if meaning is not None:
        rule, subrule = meaning.rule, meaning.subrule
    else:
        found = link(kb).lookup(args.ref)
        if found is None:
            print(f"error: no rule {args.ref} in this knowledge base, in {args.old}, {args.new} or today", file=sys.stderr)
            return EXIT_UNKNOWN
        rule, subrule = found.target.rule, found.target.subrule
    # a subrule is followed by its identity, whatever its letter in each release (601.2e of 2011 is 601.2f now)
    sides = {release: {unit.id: (label, unit) for label, unit in _units_in(rule, release, None)
                       if subrule is None or unit is subrule.unit}
             for release in (args.old, args.new)}
    newest = horizon(kb) or ""
    names = {release: (rule.number_in(release) or ("?",))[0] if release <= newest else "?" for release in sides}
    title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
    print(f"{title.text if title else rule.number} (id {rule.id}): {names[args.old]} in the release of {args.old}, "
          f"{names[args.new]} in the release of {args.new}")
    unknown = [release for release, units in sides.items() if not units]
    if unknown:
        print(f"The knowledge base has no English text of this rule for the release of {', '.join(unknown)} "
              f"(imported releases: {', '.join(imported(kb)) or 'none'}); import it first: rulekb import cr FILE.")
        return EXIT_UNKNOWN
    order = list(sides[args.new]) + [uid for uid in sides[args.old] if uid not in sides[args.new]]
    counts = {"changed": 0, "unchanged": 0, "added": 0, "removed": 0}
    for uid in order:
        old_label, unit = sides[args.old].get(uid) or sides[args.new][uid]
        new_label = sides[args.new].get(uid, (None,))[0]
        before, after = english_at(unit, args.old, rule.release), english_at(unit, args.new, rule.release)
        label = old_label if new_label in (None, old_label) else f"{old_label} -> {new_label}"
        if uid not in sides[args.new] or after is None:
            counts["removed"] += 1
            print(f"{label}  [{uid}]: not in the release of {args.new}\n  [-{before.text if before else ''}-]")
        elif uid not in sides[args.old] or before is None:
            counts["added"] += 1
            print(f"{new_label}  [{uid}]: new in the release of {args.new}\n  {{+{after.text}+}}")
        elif before.text == after.text:
            counts["unchanged"] += 1
        else:
            counts["changed"] += 1
            print(f"{label}  [{uid}]\n  {format_diff(word_diff(before.text, after.text))}")
    print(", ".join(f"{n} {what}" for what, n in counts.items()) + f" (texts of {args.old} -> {args.new})")
    return EXIT_OK


__all__ = ["arguments", "diff", "diff_arguments", "run", "show_release"]
