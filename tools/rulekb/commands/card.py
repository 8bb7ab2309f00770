"""`rulekb card NAME`: a card found by its English, German or French name (case and accents
aside), with its names, printings, rulings (dated) and the rules of its keywords; several
matches are listed. Reads only what the card needs (`rulekb.cardlookup`)."""

from __future__ import annotations

import argparse

from ..exitcodes import Exit
from .common import Command, Failure, project_root

LISTED = 40   # matches listed by name when a name finds several cards


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="+", help="the card's name in English, German or French, e.g. Golgari-Grabtroll, "
                                           "\"Agent de la reine\" (quotes or several words; case and accents do not matter)")


def run(args: argparse.Namespace) -> Exit:
    from ..cardlookup import Lookup
    from ..models import SOURCE_LANGUAGE
    name = " ".join(args.name)
    lookup = Lookup(project_root(args))
    found = lookup.find(name)
    if not found.cards:
        raise Failure(f"no card is named '{name}' in English, German or French, nor has a name containing it",
                      Exit.NOT_FOUND, "check the spelling; 'rulekb validate' says how many cards the knowledge base holds")
    if len(found.cards) > 1:
        how = "are named" if found.exact else "have a name containing"
        print(f"{len(found.cards)} cards {how} '{name}':")
        for card in found.cards[:LISTED]:
            others = ", ".join(f"{lang}: {n}" for lang, n in card.names.items() if lang != SOURCE_LANGUAGE)
            printings = ", ".join(f"{p.set_code} #{p.number}" for p in card.printings[:3])
            more = " …" if len(card.printings) > 3 else ""
            print(f"  {card.names[SOURCE_LANGUAGE]} ({card.id}; {others or 'no other names'}; {printings}{more})")
        if len(found.cards) > LISTED:
            print(f"  … and {len(found.cards) - LISTED} more")
        print("give the whole name, or the id in the brackets' name, to see one card")
        return Exit.OK
    info = lookup.info(found.cards[0])
    card = info.card
    print(f"{card.names[SOURCE_LANGUAGE]}  [{card.id}]  ({card.pos.file}:{card.pos.line})")
    for lang, value in card.names.items():
        print(f"  {lang}: {value}")
    print(f"  oracle id: {card.oracle_id}; source: {card.source}")
    if card.keywords:
        print(f"  keywords: {', '.join(card.keywords)}")
    print(f"printings ({len(card.printings)}): " + ", ".join(f"{p.set_code} #{p.number}" for p in card.printings))
    print(f"rulings ({len(info.rulings)}):")
    for ruling in info.rulings:
        about = f"  [rules: {', '.join(ruling.rules)}]" if ruling.rules else ""
        print(f"  {ruling.date}  {ruling.id}{about}")
        for lang, variants in ruling.unit.variants.items():
            print(f"    {lang}: {variants[0].text}")
    if info.rules:
        print("rules of its keywords and rulings:")
    for rule in info.rules:
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        print(f"  {rule.number} {title.text if title else ''}  [{rule.id}]  ({rule.file}:{rule.line})")
        for sub in rule.subrules:
            text = sub.unit.text(SOURCE_LANGUAGE)
            if text is not None:
                print(f"    {sub.number} {text.text}")
    return Exit.OK


COMMAND = Command("card", "find a card by its English, German or French name: names, printings, rulings, rules",
                  arguments, run)
