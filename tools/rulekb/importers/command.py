"""The command-line side of the importers (`cli` stays thin): ``rulekb import cr|mtgjson`` and
``rulekb show NUMBER --release DATE``."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Sequence

from ..models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Unit, english_hash
from . import cr, mtgjson
from .releases import english_at, explain

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


__all__ = ["arguments", "run", "show_release"]
