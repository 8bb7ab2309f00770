"""`rulekb phrases mine SETS…`: the official phraseology mined from MTGJSON set files into
``translations/phraseology.yaml`` (`rulekb.importers.phrases`), which the phraseology checks of
`rulekb check` read; prints what was mined."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, project_root


def arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    m = sub.add_parser("mine", help="mine the German and French printed card texts of MTGJSON set files",
                       description="Read the printed German and French card texts (foreignData) of MTGJSON set files "
                                   "and count how they write the game's recurring phrases (a preposition before a "
                                   "zone, a verb with its object), each text weighted by how recent its newest "
                                   "printing is; write the counts to translations/phraseology.yaml (sorted: the same "
                                   "files give the same bytes). Review the diff and commit it.")
    m.add_argument("file", type=Path, nargs="+",
                   help="set files (.json, .json.gz, .json.xz, .json.bz2) or folders of them, e.g. "
                        "../shared/data/mtgjson/sets/")


def run(args: argparse.Namespace) -> Exit:
    from ..importers import phrases
    from ..importers.store import remove_stale_temporaries_of
    root = project_root(args)
    remove_stale_temporaries_of(root)   # what a killed writer left (issue 31.7)
    report = phrases.mine_into(root, args.file)
    print("\n".join(report.lines()))
    return Exit.OK


COMMAND = Command("phrases", "official phraseology: phrases mine SETS… (how German and French cards word recurring phrases)",
                  arguments, run)
