"""`rulekb validate`: load the knowledge base (load -> validate) and print what it holds."""

from __future__ import annotations

import argparse
from collections import Counter

from ..exitcodes import Exit
from .common import Command, no_arguments, project_root


def run(args: argparse.Namespace) -> Exit:
    from ..knowledge import load_knowledge_base
    root = project_root(args)
    kb = load_knowledge_base(root)
    texts: Counter[str] = Counter()
    for unit in kb.units():
        for code, variants in unit.variants.items():
            texts[code] += len(variants)
    print(f"ok: {root}")
    print(f"  rules     {len(kb.rules)}")
    print(f"  subrules  {sum(len(r.subrules) for r in kb.rules)}")
    print(f"  notes     {sum(len(r.notes) for r in kb.rules)}")
    print(f"  rulings   {len(kb.rulings)}")
    print(f"  cards     {len(kb.cards)}")
    units = len(kb.units())
    for language in kb.languages:
        have = sum(1 for u in kb.units() if language.code in u.variants)
        print(f"  texts {language.code:<4}{texts[language.code]:>4}  ({have} of {units} units, {language.english_name})")
    return Exit.OK


COMMAND = Command("validate", "load and check the YAML data; print counts", no_arguments, run)
