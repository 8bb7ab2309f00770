"""`rulekb po export LANG` and `rulekb po import FILE`: the translators' gettext catalogs
(`rulekb.po` writes and reads them; this module prints what it did)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, project_root, shown


def arguments(p: argparse.ArgumentParser) -> None:
    from ..po import default_catalog
    sub = p.add_subparsers(dest="po_command", required=True, metavar="ACTION")
    ex = sub.add_parser("export", help="write the PO catalog of one language",
                        description="Write the gettext PO catalog of one language (one message per text unit).")
    ex.add_argument("lang", help="the language code, e.g. de")
    ex.add_argument("--output", "-o", help=f"the file to write (default: {default_catalog('LANG')}; - for standard output)")
    ex.add_argument("--part", choices=("rules", "rulings"),
                    help="only the texts of the rules (default file translations/LANG/rules-only.po) or only the card "
                         "rulings (translations/LANG/rulings.po)")
    ex.add_argument("--set", dest="set_code", metavar="CODE",
                    help="only the rulings of the cards printed in this set, e.g. XLN (translations/LANG/rulings-xln.po)")
    ex.set_defaults(po_run=export)
    im = sub.add_parser("import", help="write a translated PO catalog back into the YAML",
                        description="Write the translations of a PO catalog into the YAML: only changed units, "
                                    "every other byte stays; fuzzy entries are not imported.")
    im.add_argument("file", help="the PO catalog, e.g. translations/de/rules.po")
    im.add_argument("--lang", help="refuse the catalog unless it is for this language")
    im.add_argument("--accept-stale", action="store_true",
                    help="import translations made from an English that has changed since (they show as stale)")
    im.add_argument("--source", help="the source (kind project) to credit (default: the only project source)")
    im.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    im.set_defaults(po_run=import_)


def run(args: argparse.Namespace) -> Exit:
    return args.po_run(args)


def export(args: argparse.Namespace) -> Exit:
    from .. import po
    from ..files import make_folder, write_atomic, write_output
    from ..knowledge import load_knowledge_base
    root = project_root(args)
    kb = load_knowledge_base(root)
    from ..official import load_official
    from ..termbase import load_termbase
    result = po.export(kb, args.lang, args.part, args.set_code, load_official(root, kb.language_codes),
                       load_termbase(root, kb))
    to_stdout = args.output == "-"
    out = Path(args.output) if args.output else root / po.default_part_catalog(args.lang, args.part, args.set_code)
    if not to_stdout:
        make_folder(out.parent)
    if args.output:   # a path the user names: '-', a file, a symlink, a FIFO
        write_output(args.output, result.data)
    else:             # the project's own catalog
        write_atomic(out, result.data)
    report = sys.stderr if to_stdout else sys.stdout
    where = "standard output" if to_stdout else shown(out)
    print(f"wrote {where}: {len(result.entries)} messages for {result.language.english_name} ({args.lang}): "
          f"{result.translated} translated, {result.fuzzy} fuzzy, {result.untranslated} untranslated", file=report)
    for e in result.entries:
        if e.fuzzy_reason:
            print(f"  fuzzy  {e.unit.id} ({e.unit.label}): {e.fuzzy_reason.split(':')[0]}", file=report)
    if result.skipped:
        print(f"not exported: {len(result.skipped)} unit(s) without English text to translate from:", file=report)
        for u in result.skipped:
            print(f"  {u.id} ({u.label})  {u.pos.file}:{u.pos.line}", file=report)
    return Exit.OK


DETAILS = {
    "replaced": "replaced the {source} draft",
    "added": "first {lang} text, status draft, source {source}",
    "new canonical": "new canonical draft (source {source}); the published text stays as an alternative",
    "confirmed": "unchanged text confirmed against the English (translated_from updated)",
}


def import_(args: argparse.Namespace) -> Exit:
    from .. import po
    from ..knowledge import load_knowledge_base
    root = project_root(args)
    kb = load_knowledge_base(root)
    path = Path(args.file)
    plan = po.plan_import(root, kb, path, shown=shown(path), lang=args.lang, accept_stale=args.accept_stale,
                          source=args.source)
    if not args.dry_run:
        from ..importers.store import remove_stale_temporaries_of
        remove_stale_temporaries_of(root)   # what a killed writer left (issue 31.7)
        po.write_import(root, plan)
    verb = "would write" if args.dry_run else "wrote"
    name = f"{plan.language.english_name} ({plan.language.code})"
    print(f"{shown(path)}: {name}: {len(plan.changes)} translation(s) to write" if args.dry_run else
          f"{shown(path)}: {name}: {len(plan.changes)} translation(s) written")
    after = {u.id: u for u in plan.after.units()}
    for c in plan.changes:
        variant = after[c.unit.id].text(plan.language.code)
        where = f"{variant.pos.file}:{variant.pos.line}" if variant else c.unit.pos.file
        detail = DETAILS[c.action].format(source=plan.source, lang=plan.language.code)
        stale = "; recorded as translated from an OLDER English: shows as stale" if c.stale else ""
        print(f"  {c.action:<13} {c.unit.id} ({c.unit.label})  {where}  {detail}{stale}")
    if plan.fuzzy:
        print(f"not imported: {len(plan.fuzzy)} edited entr{'y' if len(plan.fuzzy) == 1 else 'ies'} still marked "
              f"fuzzy (remove the fuzzy flag once the translation matches the English):")
        for unit, line in plan.fuzzy:
            print(f"  {unit.id} ({unit.label})  {shown(path)}:{line}")
    changed_files = [f.path for f in plan.files if f.changed]
    if changed_files:
        print(f"{verb}: {', '.join(changed_files)}")
    else:
        print("no file changed: the knowledge base already holds every translation of this catalog")
    if args.dry_run:
        print("dry run: nothing was written")
    return Exit.OK


COMMAND = Command("po", "translators' gettext catalogs: po export LANG, po import FILE", arguments, run)
