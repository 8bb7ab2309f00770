"""The `rulekb` command line, on top of the pipeline (load -> validate -> link -> check ->
render -> report). Each command is a small function registered in `COMMANDS`; a data problem
ends the run with exit code 2 and one line per problem (file:line:column), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from . import __version__
from .diagnostics import DataError
from .link import link
from .models import SOURCE_LANGUAGE, KnowledgeBase, Unit, english_hash
from .refs import is_rule_number
from .validate import load_knowledge_base

EXIT_OK, EXIT_FINDINGS, EXIT_DATA = 0, 1, 2


def project_root(args: argparse.Namespace) -> Path:
    return Path(args.root).resolve()


def _load(args: argparse.Namespace) -> KnowledgeBase:
    return load_knowledge_base(project_root(args))


# ---------------------------------------------------------------- validate


def cmd_validate(args: argparse.Namespace) -> int:
    kb = _load(args)
    texts: Counter[str] = Counter()
    for unit in kb.units():
        for lang, variants in unit.variants.items():
            texts[lang] += len(variants)
    print(f"ok: {project_root(args)}")
    print(f"  rules     {len(kb.rules)}")
    print(f"  subrules  {sum(len(r.subrules) for r in kb.rules)}")
    print(f"  notes     {sum(len(r.notes) for r in kb.rules)}")
    print(f"  rulings   {len(kb.rulings)}")
    print(f"  cards     {len(kb.cards)}")
    units = len(kb.units())
    for lang in kb.languages:
        have = sum(1 for u in kb.units() if lang.code in u.variants)
        print(f"  texts {lang.code:<4}{texts[lang.code]:>4}  ({have} of {units} units, {lang.english_name})")
    return EXIT_OK


# ---------------------------------------------------------------- show


def _print_unit(unit: Unit, langs: Sequence[str], kb: KnowledgeBase) -> None:
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


def cmd_show(args: argparse.Namespace) -> int:
    kb = _load(args)
    if not is_rule_number(args.ref):
        print(f"error: '{args.ref}' is not a rule number; write it like 702.78 or 702.78a", file=sys.stderr)
        return EXIT_DATA
    if args.release:
        from .importers.command import show_release
        return show_release(args, kb)
    found = link(kb).lookup(args.ref)
    if found is None:
        numbers = ", ".join(sorted({r.number for r in kb.rules} | {h.number for r in kb.rules for h in r.history}))
        print(f"error: no rule {args.ref} in this knowledge base (numbers known: {numbers})", file=sys.stderr)
        return EXIT_DATA
    codes = kb.language_codes
    if args.all_languages:
        langs: Sequence[str] = codes
    elif args.lang:
        if args.lang not in codes:
            print(f"error: unknown language '{args.lang}'; use one of {', '.join(codes)}", file=sys.stderr)
            return EXIT_DATA
        langs = (args.lang,)
    else:
        langs = (SOURCE_LANGUAGE,)
    rule = found.target.rule
    print(found.explain())
    title = rule.title.text(langs[0]) if rule.title else None
    name = f" {title.text}" if title else ""
    print(f"rule {rule.number}{name} (id {rule.id}; number today: {rule.current_number})")
    units = [found.target.subrule.unit] if found.target.subrule else list(rule.units)
    for unit in units:
        _print_unit(unit, langs, kb)
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    if not is_rule_number(args.ref):
        print(f"error: '{args.ref}' is not a rule number; write it like 702.78 or 702.78a", file=sys.stderr)
        return EXIT_DATA
    from .importers.command import diff
    return diff(args, _load(args))


# ---------------------------------------------------------------- hash


def cmd_hash(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.text == "-" else args.text
    print(english_hash(text))
    return EXIT_OK


# ---------------------------------------------------------------- registry


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    arguments: Callable[[argparse.ArgumentParser], None]


def _args_show(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", help="a rule or subrule number, old or current (e.g. 702.78a, 702.81a)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--lang", help="the language to show (default: en)")
    group.add_argument("--all-languages", action="store_true", help="show every language side by side")
    p.add_argument("--release", metavar="YYYY-MM-DD",
                   help="what the number is in that rules release, where the rules that had it are there, and the "
                        "texts as they were (exit 1 when the knowledge base cannot tell)")


def _args_hash(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", help="the English text, or - to read it from standard input")


def _later(module: str, name: str) -> Callable:
    """A function of a command's module, imported when first called: `rulekb check` does not
    import the site build, the importers or Babel's locale data (a tenth of a second)."""
    def call(*args):  # type: ignore[no-untyped-def]
        return getattr(importlib.import_module(module, __package__), name)(*args)
    call.__qualname__ = f"{module.lstrip('.')}.{name}"
    return call


COMMANDS: tuple[Command, ...] = (
    Command("validate", "load and check the YAML data; print counts", cmd_validate, lambda p: None),
    Command("show", "print a rule or subrule with its source and status", cmd_show, _args_show),
    Command("diff", "what changed in a rule's English texts between two rules releases, word by word", cmd_diff,
            _later(".importers.command", "diff_arguments")),
    Command("hash", "print the English hash a translation records as translated_from", cmd_hash, _args_hash),
    Command("po", "translators' gettext catalogs: po export LANG, po import FILE", _later(".po", "run"),
            _later(".po", "arguments")),
    Command("lang", "languages: lang add CODE registers one", _later(".languages", "run"),
            _later(".languages", "arguments")),
    Command("check", "translation QA: run the checks, report findings (exit 1 on errors)", _later(".check.command", "run"),
            _later(".check.command", "arguments")),
    Command("build", "build the static site, one mkdocs site per language, into site/", _later(".build", "run"),
            _later(".build", "arguments")),
    Command("serve", "serve one language of the site (--lang de); rebuilds when a YAML file changes", _later(".build", "serve"),
            _later(".build", "serve_arguments")),
    Command("import", "import official data: import cr FILE (a rules release), import mtgjson FILE (cards, rulings)",
            _later(".importers.command", "run"), _later(".importers.command", "arguments")),
)


def _command_in(argv: Sequence[str]) -> str | None:
    """The command a command line runs (the first word that is not an option or --root's value)."""
    args = iter(argv)
    for arg in args:
        if arg == "--root":
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return None


def parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the command line, only its command's options are set up
    (each command's module is imported when its options or its run are needed)."""
    chosen = _command_in(sys.argv[1:] if argv is None else argv)
    if chosen not in {c.name for c in COMMANDS}:
        chosen = None
    p = argparse.ArgumentParser(
        prog="rulekb",
        description="The multilingual (en/de/fr) knowledge base of the Magic: The Gathering Comprehensive Rules "
                    "and card rulings: check the data, show rules, run the translation QA, build the site, "
                    "exchange PO catalogs with translators, import rules releases.",
        epilog="'rulekb COMMAND --help' describes each command. Exit codes: 0 ok, 1 QA errors found, "
               "2 the data or the options are wrong (each problem as file:line:column with a fix).")
    p.add_argument("--version", action="version", version=f"rulekb {__version__}")
    p.add_argument("--root", default=os.environ.get("RULEKB_ROOT", "."),
                   help="the project folder holding rules/ and translations/ (default: .)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for c in COMMANDS:
        cp = sub.add_parser(c.name, help=c.help, description=c.help)
        if chosen in (None, c.name):
            c.arguments(cp)
        cp.set_defaults(run=c.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser(argv).parse_args(argv)
    try:
        return args.run(args)
    except DataError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s); nothing was written.", file=sys.stderr)
        return EXIT_DATA
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and closed early
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover  (`rulekb` and `python -m rulekb` start in rulekb.early)
    from .early import start
    start(sys.argv[1:])
    sys.exit(main())
