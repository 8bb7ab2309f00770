"""`rulekb check`: the translation QA (load -> validate -> link -> check -> report) and its
report on standard output, in a file or, with ``--reports DIR``, in every format at once.
The files are written by `rulekb.files.write_output`: a regular file is replaced atomically, a
symlink is written through to its target, a FIFO or device is written as it is, ``-`` is
standard output.

    rulekb check [--lang L] [--format text|json|junit|html] [--output FILE] [--profile NAME]
    rulekb check --reports DIR      (every format from one run: DIR/qa.txt, qa.json, qa.xml, qa.html)
    rulekb check --lang L --english TEXT --translation TEXT [--format …] [--output FILE]

The last form checks one pair, for a translator or a tool (a CAT tool, a Weblate hook): every check
that needs only the pair, the termbase and the official phraseology (the by-text checks,
`rulekb.check.driver.check_pair`), its findings printed as the full report prints them.

With one `--lang L`, the report speaks that language (its messages, fixes and words from the
UI catalog ``translations/ui/L.po``; the JSON report keeps the English beside them).

Exit code 0 when no error-severity finding remains after the waivers, 1 when one does, 2 when
the data (knowledge base, termbase, waivers) does not load or an option is wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, Failure, project_root

REPORT_FILES = (("text", "qa.txt"), ("json", "qa.json"), ("junit", "qa.xml"), ("html", "qa.html"))  # --reports DIR


def arguments(p: argparse.ArgumentParser) -> None:
    # the profiles' names and the formats, not the checks themselves: a run whose report is
    # cached does not import them
    from ..check import PROFILE_HELP, profile_names
    from ..report import FORMATS
    names = ", ".join(f"{name} ({PROFILE_HELP.get(name, 'the ' + name + ' checks')})" for name in profile_names())
    p.add_argument("--lang", action="append", metavar="L",
                   help="report this language only (repeatable; default: every language)")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--reports", metavar="DIR",
                   help="write the report in every format from one run: DIR/qa.txt, qa.json, qa.xml (JUnit), qa.html")
    p.add_argument("--profile", default="full", metavar="NAME", help=f"which checks to run: {names}")
    p.add_argument("--english", metavar="TEXT", help="check one pair: the English text (with --translation and one --lang)")
    p.add_argument("--translation", metavar="TEXT",
                   help="check one pair: its translation into the --lang language (with --english)")


def run(args: argparse.Namespace) -> Exit:
    from ..knowledge import collection_paused
    # The cyclic garbage collector stays paused for the whole run, until the knowledge base is
    # freed (by reference counting: it has no cycles) when `_run` returns. Paused only while the
    # models are made, its first collection after the load walked every one of them (~900,000
    # objects, 0.5-1 s) and a later one all of them again (1.4 s of a cold check's 24 s of
    # processor time in all), for nothing to collect.
    with collection_paused():
        return _run(args)


def _pair_options(args: argparse.Namespace) -> str:
    """The language of a pair (`--english` and `--translation` with one `--lang`), or a Failure
    naming what is missing or contradicts."""
    given = [name for name, value in (("--english", args.english), ("--translation", args.translation)) if value is not None]
    if len(given) == 1:
        other = "--translation" if given[0] == "--english" else "--english"
        raise Failure(f"{given[0]} needs {other}: a pair is an English text and its translation",
                      hint='give both: --lang de --english "TEXT" --translation "TEXT"')
    if not args.lang:
        raise Failure("a pair needs the language of its translation",
                      hint='add --lang L (e.g. --lang de --english "TEXT" --translation "TEXT")')
    if len(set(args.lang)) > 1:
        raise Failure(f"a pair has one translation, in one language; --lang was given {len(set(args.lang))} times "
                      f"({', '.join(sorted(set(args.lang)))})", hint="give the language of --translation once")
    if args.reports:
        raise Failure("--reports writes the reports of the knowledge base; a pair prints its findings",
                      hint="drop --reports, or give --output FILE (with --format)")
    if args.profile != "full":
        raise Failure(f"--profile {args.profile} selects checks of the knowledge base; a pair runs every check "
                      "that needs only the pair, the termbase and the phraseology", hint="drop --profile")
    for name, value in (("--english", args.english), ("--translation", args.translation)):
        if not value.strip():
            raise Failure(f"{name} is empty", hint=f"give the text to check: {name} \"TEXT\"")
    return args.lang[0]


def _pair(args: argparse.Namespace) -> Exit:
    """`rulekb check --lang L --english TEXT --translation TEXT`: the by-text checks on one pair."""
    from ..check.driver import check_pair
    from ..check.view import plural, say
    from ..files import make_folder, write_output
    from ..i18n import load_ui
    from ..report import render
    lang = _pair_options(args)
    root = project_root(args)
    result, kb = check_pair(root, lang, args.english, args.translation)
    language = next(x for x in kb.languages if x.code == lang)
    ui = load_ui(root, language)
    text = render(result, kb, args.format, ui)
    if args.output:
        if args.output != "-":
            make_folder(Path(args.output).parent)
        write_output(args.output, text)
        speaker = _speaker(root, args.lang)
        summary = say(speaker, "{findings} ({errors}), {waived}; exit code {code}",
                      findings=plural(speaker, "{n} finding", "{n} findings", int(result.summary["findings"])),  # type: ignore[call-overload]
                      errors=plural(speaker, "{n} error", "{n} errors", int(result.summary["errors"])),  # type: ignore[call-overload]
                      waived=plural(speaker, "{n} waived", "{n} waived", 0), code=result.exit_code)
        print(say(speaker, "wrote {files}: {summary}", files=args.output, summary=summary), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return Exit(result.exit_code)


def _run(args: argparse.Namespace) -> Exit:
    if args.english is not None or args.translation is not None:
        return _pair(args)
    from ..check.driver import run_checks
    from ..check.cache import RunCache
    from ..check.view import plural, say
    from ..files import make_folder, write_output
    from ..inputs import check_site_inputs, load_inputs
    from ..knowledge import read_files
    if args.reports and args.output:
        raise Failure("--reports writes every format itself; give --reports DIR or --output FILE, not both")
    if args.reports:
        _check_reports_folder(args.reports)
    root = project_root(args)
    files = read_files(root)   # read once: the loader and the cache key share the bytes and digests
    cache = RunCache(files, args.profile, args.lang)
    loaded: list = []

    def inputs():   # loaded only when a result or a report is not cached
        if not loaded:
            # every input, checked as `rulekb validate` checks it (no site is made: mkdocs.yml may be absent)
            loaded.append(load_inputs(root, files=files, site=False))
        return loaded[0]

    # nothing changed since the last run (same YAML, profile, languages, code): its result and reports
    result = cache.result(lambda: run_checks(inputs().kb, root, profile=args.profile, langs=args.lang, files=files,
                                             termbase=inputs().termbase, phraseology=inputs().phraseology,
                                             waivers=inputs().waivers, official=inputs().official))
    if not loaded:
        # a cached result was made from valid YAML (its key); what it does not depend on is checked every run
        from ..phraseology import project_languages
        check_site_inputs(root, project_languages(root))

    def report(fmt: str) -> str:
        """The report in `fmt`, rendered (when the cache has none) in the language it is about:
        `--lang de` alone gives a German report (the catalogs are part of the report's key)."""
        def make() -> str:
            from ..report import render
            kb = inputs().kb
            spoken = [lang for lang in kb.languages if args.lang and len(set(args.lang)) == 1 and lang.code == args.lang[0]]
            ui = inputs().uis[spoken[0].code] if spoken else None
            return render(result, kb, fmt, ui)
        return cache.report(fmt, make)

    code = Exit(result.exit_code)
    speaker = _speaker(root, args.lang)
    summary = say(speaker, "{findings} ({errors}), {waived}; exit code {code}",
                  findings=plural(speaker, "{n} finding", "{n} findings", int(result.summary["findings"])),  # type: ignore[call-overload]
                  errors=plural(speaker, "{n} error", "{n} errors", int(result.summary["errors"])),  # type: ignore[call-overload]
                  waived=plural(speaker, "{n} waived", "{n} waived", len(result.waived)), code=result.exit_code)
    if args.reports:
        folder = Path(args.reports)
        make_folder(folder)
        for fmt, name in REPORT_FILES:
            write_output(folder / name, report(fmt))
        print(say(speaker, "wrote {files}: {summary}", files=", ".join(str(folder / name) for _, name in REPORT_FILES),
                  summary=summary), file=sys.stderr)
        return code
    text = report(args.format)
    if args.output:
        if args.output != "-":
            make_folder(Path(args.output).parent)
        write_output(args.output, text)
        print(say(speaker, "wrote {files}: {summary}", files=args.output, summary=summary), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return code


def _check_reports_folder(reports: str) -> None:
    """Refuse a `--reports` that cannot be a folder before the checks run: ``-`` (four reports
    have no one standard output; ``--output -`` or no ``--output`` is the report there) and a
    path that is a file, a FIFO or a device."""
    if reports == "-":
        raise Failure("--reports names a folder for its four files (qa.txt, qa.json, qa.xml, qa.html); "
                      "'-' is not one", hint="for one report on standard output give --format FORMAT without "
                      "--reports (or --output -); else name a folder, e.g. --reports reports/")
    path = Path(reports)
    if (path.exists() or path.is_symlink()) and not path.is_dir():
        raise Failure(f"--reports {reports} is not a folder", hint="name a new or existing folder for the four "
                      "report files, or write one report there with --output FILE")


def _speaker(root: Path, langs: list[str] | None):
    """The UI of the one language a run is about (`--lang de`), which its report and summary speak;
    None (English) otherwise. Read from translations/languages.yaml alone: a cached run loads
    nothing else."""
    if not langs or len(set(langs)) != 1:
        return None
    from ..i18n import load_ui
    from ..layout import LANGUAGES_FILE
    from ..load import parse_file
    from ..schema import languages_from
    parsed, problems = parse_file(root / LANGUAGES_FILE, root)
    found, more = languages_from(parsed) if parsed is not None else ([], [])
    language = next((lang for lang in found if lang.code == langs[0]), None)
    return load_ui(root, language) if language is not None and not problems and not more else None


COMMAND = Command("check", "translation QA: run the checks, report findings (exit 1 on errors)", arguments, run)
