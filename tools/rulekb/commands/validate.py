"""`rulekb validate`: load every input of the project (load -> validate, `rulekb.inputs`: the
knowledge base, the termbase, the phraseology, the waivers, the official names, the UI catalogs,
the hand-written pages and mkdocs.yml), refusing what `check` or `build` would refuse, and print
what the knowledge base holds."""

from __future__ import annotations

import argparse
from collections import Counter

from ..exitcodes import Exit
from .common import Command, no_arguments, project_root


def run(args: argparse.Namespace) -> Exit:
    from ..knowledge import collection_paused
    # paused until the knowledge base is freed (see `rulekb.commands.check.run`): its first
    # collection after the load would walk every model made, for nothing to collect
    with collection_paused():
        return _run(args)


def _run(args: argparse.Namespace) -> Exit:
    from ..inputs import load_inputs
    root = project_root(args)
    kb = load_inputs(root).kb
    texts: Counter[str] = Counter()   # variants per language
    have: Counter[str] = Counter()    # units with a text in the language
    units = kb.units()
    for unit in units:
        for code, variants in unit.variants.items():
            texts[code] += len(variants)
            have[code] += 1
    print(f"ok: {root}")
    print(f"  rules     {len(kb.rules)}")
    print(f"  subrules  {sum(len(r.subrules) for r in kb.rules)}")
    print(f"  notes     {sum(len(r.notes) for r in kb.rules)}")
    print(f"  rulings   {len(kb.rulings)}")
    print(f"  cards     {len(kb.cards)}")
    for language in kb.languages:
        print(f"  texts {language.code:<4}{texts[language.code]:>4}  ({have[language.code]} of {len(units)} units, "
              f"{language.english_name})")
    return Exit.OK


COMMAND = Command("validate", "load and check every input (YAML data, catalogs, pages, mkdocs.yml); print counts", no_arguments, run)
