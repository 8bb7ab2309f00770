"""`rulekb import cr FILE…` and `rulekb import mtgjson FILE…`: official data into the knowledge
base (`rulekb.importers`); prints what each import did."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, project_root


def arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    c = sub.add_parser("cr", help="a Comprehensive Rules text release (.txt, any encoding)",
                       description="Import an official Comprehensive Rules text release: sections, rules, subrules "
                                   "with their examples, glossary; a newer release adds new English versions (older "
                                   "ones and every translation stay); importing the same release again changes nothing: a file "
                                   "imported already, by this version of the importer, is skipped (--force).")
    c.add_argument("file", type=Path, nargs="+",
                   help="the release, e.g. ../shared/data/comprehensive-rules/MagicCompRules-2026-01-16.txt; "
                        "several files are imported oldest first and written once")
    c.add_argument("--effective", metavar="YYYY-MM-DD",
                   help="the effective date, when the file does not say it ('These rules are effective as of ...'); "
                        "one file only")
    c.add_argument("--into", type=Path, metavar="DIR",
                   help="import into the dataset DIR instead of the project (created as a copy of the project's "
                        "data when missing, e.g. build/fullcr; build it with rulekb --root DIR build)")
    c.add_argument("--force", action="store_true",
                   help="import every file again, also those imported already (a release file under rules/releases/ "
                        "records the same SHA-256 and importer version: skipped without --force)")
    m = sub.add_parser("mtgjson", help="the cards and rulings of MTGJSON set files (e.g. XLN.json.gz, or a folder)",
                       description="Import the cards (one per oracle id: names in the knowledge base's languages, "
                                   "keywords, printings with their official printed names and texts) and rulings of "
                                   "MTGJSON set files (.json, .json.gz, .json.xz, .json.bz2, or a folder of them); a "
                                   "ruling shared by several cards is stored once; existing cards and rulings are "
                                   "matched, not duplicated; importing the same files again changes nothing.")
    m.add_argument("file", type=Path, nargs="+",
                   help="set files or folders of them, e.g. ../shared/data/mtgjson/sets/")
    m.add_argument("--into", type=Path, metavar="DIR", help="import into the dataset DIR (see 'import cr --into')")


def run(args: argparse.Namespace) -> Exit:
    root = project_root(args)
    if args.what == "cr":
        from ..importers import cr
        report = cr.import_releases(root, args.file, args.effective, args.into, args.force)
    else:
        from ..importers import mtgjson
        report = mtgjson.import_sets(root, args.file, args.into)
    print("\n".join(report.lines()))
    return Exit.OK


COMMAND = Command("import", "import official data: import cr FILE (a rules release), import mtgjson FILE… (cards, rulings)",
                  arguments, run)
