"""`rulekb official mine SETS…`: the official German and French names of the keywords and terms
mined from MTGJSON set files into ``translations/official.yaml`` (`rulekb.importers.official`),
which the site, `rulekb show --lang` and the PO export read; prints what was mined."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, project_root


def arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    m = sub.add_parser("mine", help="mine the official German and French keyword names, reminder texts and terms",
                       description="Read the printed German and French card texts (foreignData) of MTGJSON set files "
                                   "beside their English texts: the printed name and reminder text of every keyword "
                                   "rule (701.x, 702.x) the cards print, and the printed term of the glossary's and "
                                   "termbase's game terms, the newest printings deciding, older ones kept as history. "
                                   "Write them with their sources (card, set, date) to translations/official.yaml "
                                   "(sorted: the same files give the same bytes). Review the diff and commit it.")
    m.add_argument("file", type=Path, nargs="+",
                   help="set files (.json, .json.gz, .json.xz, .json.bz2) or folders of them, e.g. "
                        "../shared/data/mtgjson/sets/")


def run(args: argparse.Namespace) -> Exit:
    from ..importers import official
    from ..importers.store import remove_stale_temporaries_of
    root = project_root(args)
    remove_stale_temporaries_of(root)   # what a killed writer left (issue 31.7)
    report = official.mine_into(root, args.file)
    print("\n".join(report.lines()))
    return Exit.OK


COMMAND = Command("official", "official names: official mine SETS… (keyword names, reminder texts and game terms "
                              "as German and French cards print them)", arguments, run)
