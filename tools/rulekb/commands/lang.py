"""`rulekb lang add CODE`: register a language (`rulekb.languages` checks and writes it)."""

from __future__ import annotations

import argparse

from ..exitcodes import Exit
from .common import Command, Failure, project_root


def arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="lang_command", required=True, metavar="ACTION")
    a = sub.add_parser("add", help="register a language in translations/languages.yaml",
                       description="Register a language; names and locale default to Babel's locale data.")
    a.add_argument("code", help="ISO 639-1 language code, e.g. it")
    a.add_argument("--name", help="the language's own name (default from Babel, e.g. Italiano)")
    a.add_argument("--english-name", help="its English name (default from Babel, e.g. Italian)")
    a.add_argument("--locale", help="its locale (default: Babel's most likely one, e.g. it_IT)")
    a.set_defaults(lang_run=add_language)


def run(args: argparse.Namespace) -> Exit:
    return args.lang_run(args)


def add_language(args: argparse.Namespace) -> Exit:
    from ..languages import LanguageError, add, language_for
    try:
        language = language_for(args.code, args.name, args.english_name, args.locale)
    except LanguageError as exc:
        raise Failure(str(exc), Exit.DATA, exc.hint) from None
    from ..importers.store import remove_stale_temporaries_of
    root = project_root(args)
    remove_stale_temporaries_of(root)   # what a killed writer left (issue 31.7)
    added = add(root, language)
    print(f"registered {language.code}: {language.name} ({language.english_name}), locale {language.locale}"
          f"  {added.file}:{added.line}")
    print(f"next: 'rulekb po export {language.code}' writes translations/{language.code}/rules.po for the "
          f"translators; 'rulekb validate', the QA and the site list {language.english_name} from now on")
    return Exit.OK


COMMAND = Command("lang", "languages: lang add CODE registers one", arguments, run)
