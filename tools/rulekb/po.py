"""The translators' round trip: gettext PO catalogs, written and read with Babel
(`babel.messages`). Beside the pipeline (load -> validate -> link -> check -> render ->
report): export reads the validated `KnowledgeBase`; import plans targeted edits of the YAML
(`yamledit`), checks the knowledge base they produce and only then writes.

Export (`rulekb po export LANG`): one catalog per language, one message per text unit with
English text - msgctxt the unit id, msgid the canonical English, msgstr the canonical
translation ('' when there is none). A translation that is stale (its `translated_from` is
not the hash of the current English), records no `translated_from`, or is an unreviewed
machine translation is flagged fuzzy; for a stale one the English it was made from is given
as `#| msgid` when the knowledge base still holds that wording. `#.` comments name the rule,
sources, statuses and notes; `#:` the unit's YAML file:line. Units without English are left
out (there is nothing to translate from) and named in the header comment and the summary.
The output depends on the data alone: the header dates are the newest date the exported
texts carry, so exporting twice gives the same bytes.

Import (`rulekb po import FILE`): a translation is written when the catalog's msgstr differs
from the canonical translation, or when a translator confirmed an unchanged one (removed
its fuzzy flag). Fuzzy entries are never written (gettext's own rule: fuzzy means "not
reviewed", msgfmt leaves them out too); they are listed. Written translations get
status `draft`, the project source (`kind: project` in rules/sources.yaml) and as
`translated_from` the hash of the msgid they were translated from. A published text
(any other source) is never overwritten: the translator's text becomes a new canonical
variant and the published one stays, `canonical: false`. The whole catalog is refused, with
every problem at once and nothing written, for a syntax error, a Language header that is not
a registered language, contradicts the file name or --lang, or is confirmed by neither (the
file's folder or name is no registered language and no --lang is given), an unknown or duplicate
msgctxt, and - unless --accept-stale - a changed translation whose msgid is no longer the
current English (with --accept-stale it records that older English's hash, so it shows as
stale).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, PoFileParser, normalize, unescape, write_po

from . import __version__, yamledit
from .diagnostics import DataError, Problem, did_you_mean
from .load import SourceFile, load_files, parse_text
from .models import SOURCE_LANGUAGE, KnowledgeBase, Language, Rule, Status, Unit, UnitKind, Variant, english_hash
from .cardnames import CardNames
from .official import Official
from .schema import LANG_CODE
from .termbase import Termbase
from .termnotes import english_notes
from .validate import build_knowledge_base

DOMAIN = "rules"
WIDTH = 76  # Babel's default wrapping (gettext's is 79); Poedit and Weblate read any width


def default_catalog(lang: str) -> str:
    return f"translations/{lang}/{DOMAIN}.po"


# ---------------------------------------------------------------- export


@dataclass(frozen=True)
class Entry:
    """One exported message and why it is fuzzy ("" when it is not)."""

    unit: Unit
    english: Variant
    translation: Variant | None
    fuzzy_reason: str
    previous: str | None  # the English the translation was made from, when still stored


@dataclass(frozen=True)
class Export:
    language: Language
    data: bytes
    entries: tuple[Entry, ...]
    skipped: tuple[Unit, ...]  # units with no English text

    @property
    def translated(self) -> int:
        return sum(1 for e in self.entries if e.translation and not e.fuzzy_reason)

    @property
    def fuzzy(self) -> int:
        return sum(1 for e in self.entries if e.fuzzy_reason)

    @property
    def untranslated(self) -> int:
        return sum(1 for e in self.entries if e.translation is None)


def _language(kb: KnowledgeBase, code: str) -> Language:
    for lang in kb.languages:
        if lang.code == code:
            return lang
    hint = did_you_mean(code, kb.language_codes) or (
        f"use one of {', '.join(kb.target_languages)}, or register it with 'rulekb lang add {code}'")
    raise DataError([Problem("translations/languages.yaml", 1, 1, f"'{code}' is not a registered language", hint)])


def _entry(unit: Unit, lang: str) -> Entry | None:
    english = unit.text(SOURCE_LANGUAGE)
    if english is None:
        return None
    current = english_hash(english.text)
    translation = unit.text(lang)
    reason, previous = "", None
    if translation is not None:
        if translation.translated_from is None:
            reason = (f"the {lang} text records no translated_from: nobody has confirmed it matches this "
                      "English; check it, then remove the fuzzy flag")
        elif translation.translated_from != current:
            older = [v.text for v in unit.variants[SOURCE_LANGUAGE] if english_hash(v.text) == translation.translated_from]
            previous = older[0] if older else None
            reason = (f"stale: the {lang} text was translated from an older English"
                      + (" (shown as #| msgid)" if previous else
                         f" (hash {translation.translated_from}, a wording no longer stored)")
                      + "; update it to this English, then remove the fuzzy flag")
        elif translation.status is Status.MACHINE:
            reason = "machine translation, not reviewed: check it, then remove the fuzzy flag"
    return Entry(unit, english, translation, reason, previous)


def _contexts(kb: KnowledgeBase, lang: str) -> dict[str, str]:
    """unit id -> where the unit belongs, for the translator's comment."""
    out: dict[str, str] = {}
    for rule in kb.rules:
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        name = f"{rule.number} {title.text}" if title else rule.number
        for unit in rule.units:
            what = {UnitKind.TITLE: "title", UnitKind.SUMMARY: "summary", UnitKind.TEXT: "text",
                    UnitKind.SUBRULE: f"subrule {unit.label}"}.get(unit.kind)
            if what is None:  # a note: its label is "<number> note <k>"
                what = unit.label[len(rule.number):].strip()
            out[unit.id] = f"{what} of rule {name} (rules release {rule.release})"
    for ruling in kb.rulings:
        rule = kb.rule(ruling.mechanic) if ruling.mechanic else None
        title = rule.title.text(SOURCE_LANGUAGE) if rule and rule.title else None
        mechanic = f"{rule.number} {title.text}" if rule and title else ruling.mechanic
        cards = [kb.card(c) for c in ruling.cards]
        names = ", ".join(c.names.get(lang, c.names[SOURCE_LANGUAGE]) for c in cards if c)
        out[ruling.unit.id] = (f"ruling of {ruling.date} on {mechanic}; cards: {names}" if mechanic
                               else f"ruling of {ruling.date}; cards: {names}")
    return out


def _comments(kb: KnowledgeBase, entry: Entry, lang: str, context: str) -> list[str]:
    en, tr = entry.english, entry.translation
    lines = [context, f"English: {en.status.value}, source {en.source}"]
    if en.note:
        lines.append(f"English note: {en.note}")
    if tr is None:
        lines.append(f"{lang}: no text yet")
    else:
        made = f", translated from English {tr.translated_from}" if tr.translated_from else ""
        lines.append(f"{lang}: {tr.status.value}, source {tr.source}{made}")
        if tr.note:
            lines.append(f"{lang} note: {tr.note}")
    others = entry.unit.variants.get(lang, ())[1:]
    if others:
        where = ", ".join(f"{v.pos.file}:{v.pos.line}" for v in others)
        lines.append(f"{lang} has {len(others)} more variant(s), not in this catalog and kept by the import: {where}")
    if entry.fuzzy_reason:
        lines.append(f"why fuzzy: {entry.fuzzy_reason}")
    return lines


def _catalog_date(kb: KnowledgeBase, entries: Sequence[Entry]) -> dt.datetime:
    """The newest date the exported texts carry (their sources' dates, the rules releases and
    ruling dates): the catalog's header dates, so that the same data gives the same bytes."""
    dates = set()
    for e in entries:
        for v in (e.english, e.translation):
            if v is not None and kb.sources[v.source].date:
                dates.add(kb.sources[v.source].date)
        owner = kb.owner(e.unit.id)
        if isinstance(owner, Rule):
            dates.add(owner.release)
        elif owner is not None:
            dates.add(owner.date)
    newest = max(dates) if dates else "1970-01-01"
    return dt.datetime.strptime(newest, "%Y-%m-%d").replace(tzinfo=dt.timezone.utc)


def _header(language: Language, skipped: Sequence[Unit]) -> str:
    name = f"{language.english_name} ({language.code})"
    lines = [
        f"# {name} translations of the rulekb rules and rulings.",
        "# One message per text unit: msgctxt is the unit's id, msgid the English,",
        "# msgstr the translation. Fuzzy: stale, unconfirmed or machine-made; the",
        "# #| msgid of a stale entry is the English its translation was made from.",
        "# Fuzzy entries are not imported: remove the flag when the text is right.",
        f"# Made by 'rulekb po export {language.code}'; back with 'rulekb po import FILE'.",
    ]
    if skipped:
        listed = ", ".join(f"{u.id} ({u.pos.file}:{u.pos.line})" for u in skipped)
        lines.append(f"# Not in this catalog (no English text to translate from): {listed}.")
    return "\n".join(lines) + "\n#"


def _inject_previous(text: str, previous: dict[str, str]) -> str:
    """Add the `#| msgid` lines of stale entries. Babel's write_po(include_previous=True)
    runs the quoted, wrapped msgid through a text wrapper that breaks lines inside the
    quotes (msgfmt: "end-of-line within string"), so they are written here, as gettext does."""
    by_line = {f"msgctxt {normalize(ctx, width=WIDTH)}": old for ctx, old in previous.items()}
    out: list[str] = []
    for line in text.split("\n"):
        old = by_line.get(line)
        if old is not None:
            # (normalize's prefix= is counted once per word; wrap 3 narrower instead)
            wrapped = normalize(old, width=WIDTH - 3).split("\n")
            out += ["#| msgid " + wrapped[0]] + ["#| " + w for w in wrapped[1:]]
        out.append(line)
    return "\n".join(out)


PARTS = ("rules", "rulings")   # `po export --part`: the texts of the rules, or the card rulings


def units_of(kb: KnowledgeBase, part: str | None = None, set_code: str | None = None) -> tuple[Unit, ...]:
    """The units a catalog holds: all (rules, then rulings), the rules' (`part` "rules": titles,
    texts, subrules, notes) or the rulings' (`part` "rulings"); with `set_code`, only the rulings
    of the cards printed in that set (the rulings of 579 sets are 24,000 messages: a translator
    takes them a set at a time). DataError for an unknown part or a set no card is printed in."""
    if part is not None and part not in PARTS:
        raise DataError([Problem("rulekb po export", 1, 1, f"unknown part '{part}'",
                                 f"use --part {' or --part '.join(PARTS)}")])
    rules = () if part == "rulings" or set_code else tuple(u for r in kb.rules for u in r.units)
    if part == "rules":
        return rules
    rulings = kb.rulings
    if set_code is not None:
        wanted = set_code.upper()
        in_set = {c.id for c in kb.cards if any(p.set_code == wanted for p in c.printings)}
        if not in_set:
            raise DataError([Problem("rules/cards", 1, 1, f"no card of the knowledge base is printed in the set "
                                     f"'{set_code}'", "name a set code of rules/cards/ (e.g. XLN), as MTGJSON writes it")])
        rulings = tuple(r for r in rulings if in_set.intersection(r.cards))
    return rules + tuple(r.unit for r in rulings)


def default_part_catalog(lang: str, part: str | None, set_code: str | None) -> str:
    """Where `po export` writes a catalog by default: the whole catalog at `default_catalog`,
    a part beside it (translations/de/rulings.po, translations/de/rulings-xln.po)."""
    if set_code is not None:
        return f"translations/{lang}/rulings-{set_code.lower()}.po"
    if part is not None:
        return f"translations/{lang}/{part}-only.po" if part == "rules" else f"translations/{lang}/{part}.po"
    return default_catalog(lang)


def official_comments(official: Official | None, english: str, lang: str) -> list[str]:
    """The official names, reminder texts and game terms in `lang` of what an English text uses,
    as cards print them (`rulekb.official`), for the translator's comments."""
    if official is None:
        return []
    lines = []
    for k in official.keywords_in(english, lang):
        name = k.name(lang)
        lines.append(f"official {lang} name of {k.english} ({k.rule}): {name.display} — {name.source.label()}")
        if name.reminder:
            lines.append(f"official {lang} reminder text of {k.english}: ({name.reminder.text}) — {name.reminder.source.label()}")
    for t in official.terms_in(english, lang):
        n = t.name(lang)
        old = "".join(f"; until {h.last[:4]}: {h.text}" for h in n.history)
        lines.append(f"official {lang} term of '{t.english}': {n.term} — {n.source.label()}{old}")
    return lines


def export(kb: KnowledgeBase, code: str, part: str | None = None, set_code: str | None = None,
           official: Official | None = None, termbase: Termbase | None = None) -> Export:
    """The catalog of language `code` as bytes, with what went into it: every unit, or those of
    a part or a set (`units_of`); with `official`, each entry's comments give the official names,
    reminder texts and game terms its English uses (`official_comments`); with `termbase`, the
    old terms a published English uses, with today's (`termnotes.english_notes`: the QA reports
    nothing on a published English text, kept verbatim)."""
    language = _language(kb, code)
    if code == SOURCE_LANGUAGE:
        raise DataError([Problem("translations/languages.yaml", 1, 1,
                                 f"'{code}' is the source language: there is nothing to translate into it",
                                 f"export a target language: {', '.join(kb.target_languages)}")])
    entries: list[Entry] = []
    skipped: list[Unit] = []
    for unit in units_of(kb, part, set_code):
        entry = _entry(unit, code)
        if entry is None:
            skipped.append(unit)
        else:
            entries.append(entry)
    when = _catalog_date(kb, entries)
    catalog = Catalog(locale=code, domain=DOMAIN, header_comment=_header(language, skipped),
                      project="rulekb", version=__version__, creation_date=when, revision_date=when,
                      language_team=language.english_name, charset="utf-8", fuzzy=False)
    catalog.last_translator = ""      # unknown; the translator's tool fills it in
    catalog.msgid_bugs_address = ""   # as xgettext writes it when there is no address
    contexts = _contexts(kb, code)
    names = CardNames.of(kb.cards) if termbase is not None else None
    for e in entries:
        notes = (english_notes(e.english.text, termbase, names)
                 if termbase is not None and e.english.status in (Status.OFFICIAL, Status.COMMUNITY) else ())
        message = catalog.add(e.english.text, e.translation.text if e.translation else "",
                              locations=[(e.unit.pos.file, e.unit.pos.line)],
                              auto_comments=_comments(kb, e, code, contexts[e.unit.id])
                              + official_comments(official, e.english.text, code) + list(notes), context=e.unit.id)
        # Babel guesses python-format / python-brace-format flags from '%' and '{X}'; rule texts
        # are no format strings ({X} is a mana symbol), so the entry gets exactly its own flags.
        message.flags = {"fuzzy"} if e.fuzzy_reason else set()
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, include_previous=False)
    text = _inject_previous(buffer.getvalue().decode("utf-8"),
                            {e.unit.id: e.previous for e in entries if e.previous})
    return Export(language, text.encode("utf-8"), tuple(entries), tuple(skipped))


# ---------------------------------------------------------------- reading a catalog


class _RecordingCatalog(Catalog):
    """A Catalog that also keeps every message in file order, duplicates included (Babel
    merges a repeated msgid/msgctxt pair silently; the import must refuse it)."""

    def __init__(self) -> None:
        super().__init__(charset="utf-8")
        self.in_order: list[Message] = []
        self.language_line = 1  # the line of the Language header (else 1), for problems about it

    def __setitem__(self, id, message: Message) -> None:  # noqa: A002 - Babel's signature
        if id:
            self.in_order.append(message)
        super().__setitem__(id, message)


# the escapes Babel's reader turns back into characters (\a \b \f \v since Babel 2.16)
_ESCAPES = '"\\\\ntr' + ("abfv" if unescape('"\\a"') == "\a" else "")
_STRING = rf'"(?:[^"\\]|\\[{_ESCAPES}])*"'
_KEYWORD = re.compile(rf"^(msgctxt|msgid|msgid_plural|msgstr(?:\[[0-9]+\])?)\s*({_STRING})$")
_CONTINUATION = re.compile(rf"^{_STRING}$")
_BAD_ESCAPE = re.compile(rf'\\([^{_ESCAPES}])')


def _syntax(shown: str, lines: Sequence[str]) -> list[Problem]:
    """Check the PO grammar line by line; Babel's reader would mangle a string with a missing
    quote or an unknown escape without a word, and drop a msgstr that has no msgid."""
    problems: list[Problem] = []
    state = "between"  # between entries | ctxt | id | str
    last_keyword_line = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("#~"):
            continue  # obsolete entries: not imported
        if not line:
            continue  # blank lines separate entries but may also stand inside one
        if line.startswith("#"):
            if state in ("ctxt", "id"):
                problems.append(Problem(shown, last_keyword_line, 1, "PO syntax error: the entry has no msgstr",
                                        'add msgstr "" after the msgid'))
            state = "between"
            continue
        keyword = _KEYWORD.match(line)
        if keyword is None and _CONTINUATION.match(line) is None:
            word = line.split()[0] if line.split() else line
            bad = _BAD_ESCAPE.search(line)
            if bad:
                message, hint = (f"unsupported escape '\\{bad.group(1)}' in a string",
                                 "write the character itself, or one of the escapes \\n \\t \\r \\\" \\\\")
            elif word in ("msgctxt", "msgid", "msgid_plural") or word.startswith("msgstr") or line.startswith('"'):
                message, hint = ("a string is not closed or has an unescaped quote",
                                 'strings are written "…" on one line; write a quote inside a string as \\"')
            else:
                message, hint = (f"unknown keyword '{word}'",
                                 "a line is a comment (#…), a keyword (msgctxt, msgid, msgstr) with a string, or a string")
            problems.append(Problem(shown, number, 1, f"PO syntax error: {message}", hint))
            continue
        if keyword is None:
            if state == "between":
                problems.append(Problem(shown, number, 1, "PO syntax error: a string outside an entry",
                                        "continuation strings follow a msgctxt, msgid or msgstr line"))
            continue
        word = keyword.group(1)
        order_ok = {"msgctxt": state in ("between", "str"), "msgid": state in ("between", "str", "ctxt"),
                    "msgid_plural": state == "id"}.get(word, state in ("id", "str"))
        if word in ("msgctxt", "msgid") and state == "id":
            problems.append(Problem(shown, last_keyword_line, 1, "PO syntax error: the entry has no msgstr",
                                    'add msgstr "" after the msgid'))
        elif not order_ok:
            problems.append(Problem(shown, number, 1, f"PO syntax error: '{word}' is out of place",
                                    "an entry is: [msgctxt \"…\"] msgid \"…\" msgstr \"…\""))
        state = {"msgctxt": "ctxt", "msgid": "id", "msgid_plural": "id"}.get(word, "str")
        last_keyword_line = number
    if state in ("ctxt", "id"):
        problems.append(Problem(shown, last_keyword_line, 1, "PO syntax error: the entry has no msgstr",
                                'add msgstr "" after the msgid'))
    return problems


def read_catalog(path: Path, shown: str) -> _RecordingCatalog:
    """Read a PO file strictly into a catalog; DataError with file:line for what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError([Problem(shown, 1, 1, f"cannot read the catalog: {exc.strerror}", "check the path")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError([Problem(shown, line, 1, f"the catalog is not UTF-8 (byte 0x{data[exc.start]:02x})",
                                 f"convert it: msgconv --to-code=UTF-8 {shown}")]) from None
    lines = text.lstrip("\ufeff").splitlines()
    problems = _syntax(shown, lines)
    if problems:
        raise DataError(problems)
    catalog = _RecordingCatalog()
    try:
        PoFileParser(catalog, ignore_obsolete=True, abort_invalid=True).parse(lines)
    except PoFileError as exc:
        message = str(exc).rsplit(" on ", 1)[0]
        raise DataError([Problem(shown, exc.lineno + 1, 1, f"PO syntax error: {message}",
                                 "compare the entry with the others in the file")]) from None
    except (ValueError, IndexError) as exc:
        raise DataError([Problem(shown, 1, 1, f"PO syntax error: {exc}", "check the file with 'msgfmt --check'")]) from None
    catalog.language_line = next((i for i, line in enumerate(lines, 1) if line.lstrip().startswith('"Language:')), 1)
    if catalog.charset.lower().replace("_", "-") not in ("utf-8", "utf8") and not text.isascii():
        raise DataError([Problem(shown, 1, 1, f"the catalog declares charset={catalog.charset} but is UTF-8",
                                 "set 'Content-Type: text/plain; charset=UTF-8' in the header")])
    return catalog


# ---------------------------------------------------------------- import


@dataclass(frozen=True)
class Change:
    """One unit whose translation the import writes."""

    unit: Unit
    action: str        # "replaced" | "added" | "new canonical" | "confirmed"
    text: str
    translated_from: str
    po_line: int
    stale: bool        # recorded as translated from an English that is not the current one


@dataclass(frozen=True)
class ImportPlan:
    language: Language
    source: str
    changes: tuple[Change, ...]
    fuzzy: tuple[tuple[Unit, int], ...]   # edited but still fuzzy: not imported
    files: tuple[yamledit.FileEdit, ...]
    after: KnowledgeBase                  # the knowledge base the written files load as


def _catalog_language(kb: KnowledgeBase, catalog: _RecordingCatalog, shown: str, path: Path,
                      requested: str | None) -> Language:
    header = catalog.locale_identifier
    line = catalog.language_line
    problems: list[Problem] = []
    if not header:
        raise DataError([Problem(shown, 1, 1, "the catalog has no Language header",
                                 f"add \"Language: xx\\n\" to the header entry, xx one of {', '.join(kb.target_languages)}")])
    wanted = header.replace("-", "_")
    found = next((lang for lang in kb.languages if wanted in (lang.code, lang.locale)), None)
    if found is None:
        hint = did_you_mean(wanted.split("_")[0], kb.language_codes) or (
            f"registered languages: {', '.join(kb.language_codes)}; "
            f"register a new one with 'rulekb lang add {wanted.split('_')[0]}'")
        raise DataError([Problem(shown, line, 1, f"the catalog's language '{header}' is not a registered language", hint)])
    if found.code == SOURCE_LANGUAGE:
        raise DataError([Problem(shown, line, 1, "the catalog is for English, the source language",
                                 "English is edited in the YAML files; import catalogs of the target languages")])
    # The header alone does not decide: a catalog's place (its folder or file name, a registered
    # language) or --lang must say the same language, else a German catalog copied into
    # translations/it/ would overwrite the German texts.
    implied = [p for p in (path.stem, path.parent.name) if p in kb.language_codes]
    if implied and implied[0] != found.code:
        problems.append(Problem(shown, line, 1, f"the catalog says Language: {header}, but its file name says "
                                f"'{implied[0]}'", f"import it from a file named for its language "
                                f"(translations/{found.code}/{DOMAIN}.po), or correct the Language header"))
    elif not implied and requested is None:
        folder = path.parent.name
        new = (f"; to translate into '{folder}', register it first: rulekb lang add {folder}"
               if LANG_CODE.match(folder) and path.parent.parent.name == "translations" else "")
        problems.append(Problem(
            shown, line, 1, f"the catalog says Language: {header}, but neither its folder ({folder}) nor its file "
            f"name ({path.stem}) names a registered language, so nothing confirms it is {found.english_name}",
            f"import it as translations/{found.code}/{DOMAIN}.po, or pass --lang {found.code} if it is the "
            f"{found.english_name} catalog{new}"))
    if requested and requested != found.code:
        problems.append(Problem(shown, line, 1, f"the catalog is for '{found.code}' ({found.english_name}), "
                                f"not '{requested}' as requested", "import the catalog of the language you mean"))
    if problems:
        raise DataError(problems)
    return found


def _project_source(kb: KnowledgeBase, chosen: str | None) -> str:
    project = sorted(s.id for s in kb.sources.values() if s.kind == "project")
    if chosen is not None:
        if chosen not in kb.sources:
            hint = did_you_mean(chosen, kb.sources) or f"sources of kind project: {', '.join(project) or 'none'}"
            raise DataError([Problem("rules/sources.yaml", 1, 1, f"unknown source '{chosen}'", hint)])
        if kb.sources[chosen].kind != "project":
            raise DataError([Problem("rules/sources.yaml", 1, 1,
                                     f"source '{chosen}' is of kind {kb.sources[chosen].kind}, not project",
                                     "imported translations are the project's own work: credit a source of kind project")])
        return chosen
    if len(project) == 1:
        return project[0]
    if not project:
        raise DataError([Problem("rules/sources.yaml", 1, 1,
                                 "no source of kind 'project' to credit imported translations to",
                                 "add one under 'sources:', e.g. 'translators:' with 'title: Translations by "
                                 "the project's translators' and 'kind: project'")])
    raise DataError([Problem("rules/sources.yaml", 1, 1, f"several project sources ({', '.join(project)})",
                             "choose the one to credit with --source")])


def _plan_unit(unit: Unit, message: Message, lang: str, credit: Callable[[], str],
               kb: KnowledgeBase) -> tuple[Change, list[yamledit.Edit]] | None:
    """The change and edits that bring the catalog's translation of `unit` into the YAML, or
    None when the knowledge base holds it already."""
    current = unit.text(lang)
    made_from = english_hash(message.id)
    english_now = english_hash(unit.text(SOURCE_LANGUAGE).text)  # type: ignore[union-attr]
    text = message.string
    stale = made_from != english_now
    if current is not None and current.text == text:
        status = Status.DRAFT if current.status is Status.MACHINE else current.status
        if current.translated_from == made_from and status is current.status:
            return None
        fields: tuple = (("status", status.value), ("translated_from", made_from))
        return (Change(unit, "confirmed", text, made_from, message.lineno, stale),
                [yamledit.SetFields(current.pos.file, current.pos.line, fields)])
    source = credit()
    new_fields: tuple = (("text", text), ("source", source), ("status", Status.DRAFT.value))
    if current is None:
        return (Change(unit, "added", text, made_from, message.lineno, stale),
                [yamledit.AddVariant(unit.pos.file, unit.pos.line, lang, new_fields + (("translated_from", made_from),),
                                     kb.language_codes)])
    if kb.sources[current.source].kind == "project":
        return (Change(unit, "replaced", text, made_from, message.lineno, stale),
                [yamledit.SetFields(current.pos.file, current.pos.line, new_fields + (("translated_from", made_from),))])
    return (Change(unit, "new canonical", text, made_from, message.lineno, stale),
            [yamledit.AddVariant(unit.pos.file, unit.pos.line, lang,
                                 new_fields + (("canonical", True), ("translated_from", made_from)), kb.language_codes),
             yamledit.SetFields(current.pos.file, current.pos.line, (("canonical", False),))])


def plan_import(root: Path, kb: KnowledgeBase, path: Path, *, shown: str | None = None, lang: str | None = None,
                accept_stale: bool = False, source: str | None = None) -> ImportPlan:
    """Everything the import of catalog `path` would write, checked; raises DataError."""
    shown = shown or str(path)
    catalog = read_catalog(path, shown)
    language = _catalog_language(kb, catalog, shown, path, lang)
    units = {u.id: u for u in kb.units()}
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    changes: list[Change] = []
    edits: list[yamledit.Edit] = []
    fuzzy: list[tuple[Unit, int]] = []
    credited: list[str] = []

    def credit() -> str:  # the project source, looked up only when a text is written
        if not credited:
            credited.append(_project_source(kb, source))
        return credited[0]

    for message in catalog.in_order:
        line = message.lineno or 1
        ctx = message.context
        if isinstance(message.id, (list, tuple)):
            problems.append(Problem(shown, line, 1, "a plural entry (msgid_plural)", "rulekb catalogs have no plurals: remove it"))
            continue
        if not ctx:
            problems.append(Problem(shown, line, 1, "the entry has no msgctxt: rulekb cannot tell which unit it is",
                                    "keep the msgctxt lines of the exported catalog"))
            continue
        if ctx in seen:
            problems.append(Problem(shown, line, 1, f"msgctxt '{ctx}' appears twice (first at line {seen[ctx]})",
                                    "keep one entry per unit"))
            continue
        seen[ctx] = line
        unit = units.get(ctx)
        if unit is None:
            hint = did_you_mean(ctx, units) or "the catalog is for another knowledge base, or the unit was removed: re-export"
            problems.append(Problem(shown, line, 1, f"unknown msgctxt '{ctx}': no text unit has this id", hint))
            continue
        english = unit.text(SOURCE_LANGUAGE)
        if english is None:
            problems.append(Problem(shown, line, 1, f"unit '{ctx}' has no English text to translate from",
                                    "remove the entry; add the English to the YAML first"))
            continue
        current = unit.text(language.code)
        if message.fuzzy:
            if message.string and (current is None or current.text != message.string):
                fuzzy.append((unit, line))
            continue
        if not message.string:
            continue
        planned = _plan_unit(unit, message, language.code, credit, kb)
        if planned is None:
            continue
        change, unit_edits = planned
        if change.stale and not accept_stale:
            problems.append(Problem(
                shown, line, 1, f"the msgid of '{ctx}' ({unit.label}) is no longer the current English: the "
                f"translation was made from English that has changed since the export",
                f"re-export ('rulekb po export {language.code}') and carry the translation over (msgmerge does), or "
                f"pass --accept-stale to record it as translated from this older English (it then shows as stale)"))
            continue
        changes.append(change)
        edits += unit_edits
    if catalog.in_order and not any(m.context for m in catalog.in_order):
        raise DataError([Problem(shown, catalog.in_order[0].lineno or 1, 1,
                                 "no entry of this catalog names a text unit (msgctxt): it is no rules catalog",
                                 f"import a catalog written by 'rulekb po export {language.code}'; the site's "
                                 "interface messages (translations/ui/) are not imported")])
    if problems:
        raise DataError(problems)
    files = yamledit.plan(root, edits) if edits else ()
    after = _check_result(root, kb, files, changes, language.code)
    return ImportPlan(language, credited[0] if credited else "", tuple(changes), tuple(fuzzy), files, after)


def _check_result(root: Path, kb: KnowledgeBase, files: Sequence[yamledit.FileEdit], changes: Sequence[Change],
                  lang: str) -> KnowledgeBase:
    """Load the knowledge base as the edited files would make it and check that exactly the
    planned translations changed."""
    if not files:
        return kb
    edited = {f.path: f.new for f in files}
    sources: list[SourceFile] = []
    for f in load_files(root):
        if f.path in edited:
            node, problems = parse_text(f.path, edited[f.path].lstrip("\ufeff"))
            if problems or node is None:
                raise DataError(problems)
            sources.append(SourceFile(f.path, node))
        else:
            sources.append(f)
    after = build_knowledge_base(tuple(sources), root)
    changed = {c.unit.id: c for c in changes}

    def fingerprint(unit: Unit, skip: str | None) -> dict:
        return {code: tuple((v.text, v.source, v.status, v.translated_from, v.note) for v in variants)
                for code, variants in unit.variants.items() if code != skip}

    before_units = {u.id: u for u in kb.units()}
    wrong: list[str] = []
    for unit in after.units():
        change = changed.get(unit.id)
        old = before_units.get(unit.id)
        if old is None:
            wrong.append(f"unit {unit.id} would appear")
        elif change is None:
            if fingerprint(unit, None) != fingerprint(old, None):
                wrong.append(f"unit {unit.id} would change")
        else:
            now = unit.text(lang)
            kept = {v.text for v in old.variants.get(lang, ())} - {change.text}
            if fingerprint(unit, lang) != fingerprint(old, lang):
                wrong.append(f"another language of {unit.id} would change")
            elif now is None or now.text != change.text or now.translated_from != change.translated_from:
                wrong.append(f"{unit.id} would not hold the imported text as its canonical {lang} text")
            elif change.action != "replaced" and not kept <= {v.text for v in unit.variants.get(lang, ())}:
                wrong.append(f"a {lang} variant of {unit.id} would be lost")
    if wrong or len(after.units()) != len(kb.units()):
        raise DataError([Problem(files[0].path, 1, 1, f"internal error: {'; '.join(wrong) or 'units would be lost'}",
                                 "nothing was written; please report this with the catalog that caused it")])
    return after


def write_import(root: Path, plan: ImportPlan) -> None:
    """Write the planned YAML files, all or none (a full disk changes none: WriteError)."""
    yamledit.write(root, plan.files)
