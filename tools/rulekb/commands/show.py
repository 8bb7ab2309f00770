"""`rulekb show NUMBER`: a rule or subrule with its texts, sources and statuses, found by an old
or a current number (link); with ``--release DATE``, what the number was in that rules release
and the texts as they were (`rulekb.releases`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence

from ..exitcodes import Exit
from .common import Command, Failure, project_root

if TYPE_CHECKING:
    from ..models import KnowledgeBase, Rule, Unit

NOT_A_NUMBER = "'{ref}' is not a rule number; write it like 702.78 or 702.78a"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", help="a rule or subrule number, old or current (e.g. 702.78a, 702.81a)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--lang", help="the language to show (default: en)")
    group.add_argument("--all-languages", action="store_true", help="show every language side by side")
    p.add_argument("--release", metavar="YYYY-MM-DD",
                   help="what the number is in that rules release, where the rules that had it are there, and the "
                        "texts as they were (exit 1 when the knowledge base cannot tell)")


def languages(kb: KnowledgeBase, args: argparse.Namespace) -> Sequence[str]:
    """The languages to show: every one, the one asked for, or English."""
    from ..models import SOURCE_LANGUAGE
    codes = kb.language_codes
    if args.lang and args.lang not in codes:
        raise Failure(f"unknown language '{args.lang}'; use one of {', '.join(codes)}")
    return codes if args.all_languages else ((args.lang,) if args.lang else (SOURCE_LANGUAGE,))


def run(args: argparse.Namespace) -> Exit:
    from ..link import link
    from ..refs import is_rule_number
    from ..knowledge import load_knowledge_base
    kb = load_knowledge_base(project_root(args))
    if not is_rule_number(args.ref):
        raise Failure(NOT_A_NUMBER.format(ref=args.ref))
    if args.release:
        from ..releases import valid_release
        if not valid_release(args.release):
            raise Failure(f"--release '{args.release}' is not a date; write it as YYYY-MM-DD, e.g. 2026-01-16")
        return show_release(kb, args.ref, args.release, languages(kb, args))
    found = link(kb).lookup(args.ref)
    if found is None:
        numbers = ", ".join(sorted({r.number for r in kb.rules} | {h.number for r in kb.rules for h in r.history}))
        raise Failure(f"no rule {args.ref} in this knowledge base (numbers known: {numbers})")
    langs = languages(kb, args)
    rule = found.target.rule
    print(found.explain())
    title = rule.title.text(langs[0]) if rule.title else None
    name = f" {title.text}" if title else ""
    print(f"rule {rule.number}{name} (id {rule.id}; number today: {rule.current_number})")
    for line in _history(rule):
        print(line)
    units = [found.target.subrule.unit] if found.target.subrule else list(rule.units)
    for unit in units:
        _print_unit(unit, langs, kb)
    return Exit.OK


def _history(rule: Rule) -> list[str]:
    """The rule's number history, oldest first: each number with the releases (imported) or the
    span (from a curated history) it covers, and its source."""
    if not rule.history:
        return []
    out = ["number history:"]
    for entry, end, current in rule.history_spans():
        if entry.releases:
            first, last, n = entry.releases[0], entry.releases[-1], len(entry.releases)
            span = f"{first} … {last} ({n} release{'s' if n != 1 else ''})" if n > 1 else f"{first} (1 release)"
        else:
            span = (f"since {entry.since}" if current else f"until {end}" if entry.since is None
                    else f"{entry.since} … {end}" if end else f"{entry.since}")
        out.append(f"  {entry.number:<10} {span}; source {entry.source}")
    return out


def _print_unit(unit: Unit, langs: Sequence[str], kb: KnowledgeBase) -> None:
    from ..models import SOURCE_LANGUAGE, english_hash
    print(f"{unit.label}  [{unit.id}]")
    for lang in langs:
        variants = unit.variants.get(lang, ())
        if not variants:
            print(f"  {lang}: (missing: no {lang} text)")
            continue
        english = unit.text(SOURCE_LANGUAGE)
        for v in variants:
            flags = [v.status.value] + ([] if v.canonical else ["alternative"])
            if v.translated_from and english and v.translated_from != english_hash(english.text):
                flags.append("stale: its English has changed")
            src = kb.sources[v.source]
            print(f"  {lang}: {v.text}")
            print(f"      source: {src.id} ({src.title}); status: {', '.join(flags)}; {v.pos.file}:{v.pos.line}")


def show_release(kb: KnowledgeBase, ref: str, release: str, langs: Sequence[str]) -> Exit:
    """``rulekb show NUMBER --release DATE``: what NUMBER is in that release, where the rules
    that had NUMBER elsewhere are in it, and the texts as they were in it. Exit 0 when the
    knowledge base knows what NUMBER is there, 1 when it does not (or there is no such rule)."""
    from ..models import SOURCE_LANGUAGE, english_hash
    from ..releases import english_at, explain, units_in
    answer = explain(kb, ref, release)
    print("\n".join(answer.lines))
    meaning = answer.meaning
    if meaning is None:
        return Exit.NOT_FOUND
    rule = meaning.rule
    letter = meaning.number[-1] if meaning.subrule is not None else None
    title = english_at(rule.title, release, rule.release) if rule.title else None
    print(f"rule {meaning.number if letter is None else meaning.number[:-1]}"
          f"{' ' + title.text if title else ''} (id {rule.id}) as in the release of {release}; "
          f"number today: {rule.current_number}")
    for label, unit in units_in(rule, release, letter):
        english = english_at(unit, release, rule.release)
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
    return Exit.OK


COMMAND = Command("show", "print a rule or subrule with its source and status", arguments, run)
