"""`rulekb show NUMBER`: a rule or subrule with its texts, sources and statuses, found by an old
or a current number (link); with ``--release DATE``, what the number was in that rules release
and the texts as they were (`rulekb.releases`). The lines come from `rulekb.describe`; this
module parses, prints them and chooses the exit code."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence

from ..exitcodes import Exit
from .common import Command, Failure, project_root

if TYPE_CHECKING:
    from ..models import KnowledgeBase

NOT_A_NUMBER = ("'{ref}' is neither a rule number nor a keyword's name; write a number like 702.78 or 702.78a, "
                "or a keyword as English, German or French cards print it (Retrace, Zurückverfolgen, Pistage)")


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", help="a rule or subrule number, old or current (e.g. 702.78a, 702.81a), or a keyword's "
                               "name in English, German or French (Retrace, Zurückverfolgen, Pistage)")
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
    from ..describe import release_lines, rule_lines
    from ..link import link
    from ..refs import is_rule_number
    from ..knowledge import load_knowledge_base
    from ..official import load_official
    root = project_root(args)
    kb = load_knowledge_base(root)
    official = load_official(root, kb.language_codes)
    if not is_rule_number(args.ref):
        keyword = official.find_keyword(args.ref)
        if keyword is None:
            raise Failure(NOT_A_NUMBER.format(ref=args.ref))
        args.ref = keyword.rule
    if args.release:
        from ..releases import valid_release
        if not valid_release(args.release):
            raise Failure(f"--release '{args.release}' is not a date; write it as YYYY-MM-DD, e.g. 2026-01-16")
        # what the number was in that release (exit 1 when the knowledge base cannot tell)
        lines, meaning = release_lines(kb, args.ref, args.release, languages(kb, args))
        print("\n".join(lines))
        return Exit.OK if meaning is not None else Exit.NOT_FOUND
    found = link(kb).lookup(args.ref)
    if found is None:
        numbers = ", ".join(sorted({r.number for r in kb.rules} | {h.number for r in kb.rules for h in r.history}))
        raise Failure(f"no rule {args.ref} in this knowledge base (numbers known: {numbers})")
    from ..i18n import load_ui
    langs = languages(kb, args)
    language = next(lang for lang in kb.languages if lang.code == langs[0])
    print("\n".join(rule_lines(found, langs, kb, official, load_ui(root, language))))
    return Exit.OK


COMMAND = Command("show", "print a rule or subrule with its source and status", arguments, run)
