"""The schema reader of the validate stage (load -> validate -> link -> check -> render -> report).

`Reader` offers typed accessors on the positioned nodes of `load` and collects a file's problems
(file, line, column, what is wrong, how to fix it); the patterns here are the shapes of ids,
dates and codes. A `Project` is what a data file is checked against (its `Context`): the
languages of ``translations/languages.yaml``, the sources of ``rules/sources.yaml``
(`read_project`) and the rules releases, named by the files of ``rules/releases/``
(`layout.release_dates`). `read_unit`, `read_history` and `read_releases` read the shapes several
kinds of data file share (a list of releases: `releaseranges`). Used by `validate` (the data files), `termbase`, the check's waivers and
`languages`.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, TypeVar

from .diagnostics import DataError, Problem, did_you_mean
from .layout import LANGUAGES_FILE, SOURCES_FILE
from .load import MapNode, Node, Scalar, SeqNode, SourceFile
from .models import SOURCE_LANGUAGE, HistoryEntry, Language, Pos, Source, Status, Unit, UnitKind, Variant
from .refs import parse_rule_number
from .releaseranges import ReleaseOrder, split

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# An id becomes a file name (rules/<id>.md, api/<lang>/rules/<id>.json, a folder of the site): at
# most this long, it fits every file system the site may be copied to (names of 255 bytes, or
# 143 on an encrypted home folder) and paths of 260 characters (Windows) with room for the rest.
MAX_ID_LENGTH = 100
# names Windows keeps for its devices, refused as file names with any extension (con.html, nul.json)
RESERVED_IDS = frozenset({"con", "prn", "aux", "nul"} | {f"{p}{n}" for p in ("com", "lpt") for n in range(10)})
NOTE_KEY = re.compile(r"^n[1-9][0-9]*$")
LANG_CODE = re.compile(r"^[a-z]{2,3}$")
HASH = re.compile(r"^[0-9a-f]{16}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SUBRULE_LETTER = re.compile(r"^[a-z]$")
# a subrule's letter in a release, or the number it was printed with under another rule ("432.2b")
SUBRULE_LETTER_OR_NUMBER = re.compile(r"^(?:[1-9][0-9]{2}\.[1-9][0-9]{0,2})?[a-z]$")
# A subrule's key in its rule file: its letter, or (for a subrule that came after another one had
# taken that key) letter-N; the key is the stable part of the unit id, `letters` its letter per release.
SUBRULE_KEY = re.compile(r"^[a-z](?:-[1-9][0-9]*)?$")
UNIT_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.(?:text|[a-z](?:-[1-9][0-9]*)?)$")  # a rule's text or subrule
SHA256 = re.compile(r"^[0-9a-f]{64}$")

@functools.lru_cache(maxsize=4096)
def is_date(value: str, partial: bool) -> bool:
    """A real date written YYYY-MM-DD (or YYYY-MM when partial); cached: a knowledge base
    with the whole rules repeats a few release dates tens of thousands of times."""
    forms = ("%Y-%m-%d", "%Y-%m") if partial else ("%Y-%m-%d",)
    for form in forms:
        try:
            parsed = dt.datetime.strptime(value, form)
        except ValueError:
            continue
        if parsed.strftime(form) == value:
            return True
    return False

T = TypeVar("T")

# (required, optional) fields of `Reader.mapping` -> (the allowed ones, the required ones) as sets
_FIELDS: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[frozenset[str], frozenset[str]]] = {}


@dataclass(frozen=True)
class Shape:
    """The fields of one kind of record (a card, a ruling, a text variant …): the required and
    the optional ones, in the order a message lists them, and the sets of them made once, so
    that `Reader.fields` checks a record's keys with two set comparisons (the complete data has
    ~140,000 records: making the sets per record was a tenth of the schema checks)."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    allowed: frozenset[str] = field(init=False, repr=False, compare=False)
    needed: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed", frozenset(self.required + self.optional))
        object.__setattr__(self, "needed", frozenset(self.required))


@dataclass
class Reader:
    """Collects problems for one file and offers typed accessors on nodes."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, node: Node, message: str, hint: str) -> None:
        self.problems.append(Problem(self.file, node.line, node.column, message, hint))

    def mapping(self, node: Node, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> MapNode | None:
        if not isinstance(node, MapNode):
            self.error(node, f"{what} must be a mapping (key: value lines)", f"write {what} as 'key: value' lines")
            return None
        fields = _FIELDS.get((required, optional))
        if fields is None:
            fields = _FIELDS[(required, optional)] = (frozenset(required + optional), frozenset(required))
        names = {k.value for k, _ in node.items}
        if names <= fields[0] and fields[1] <= names:
            return node   # (nearly always: every field known, the required ones there)
        allowed = required + optional
        keys = set()
        for key, _ in node.items:
            keys.add(key.value)
            if key.value not in allowed:
                hint = did_you_mean(key.value, allowed) or f"allowed fields: {', '.join(allowed)}"
                self.error(key, f"unknown field '{key.value}' in {what}", hint)
        for name in required:
            if name not in keys:
                self.error(node, f"{what} lacks the required field '{name}'", f"add '{name}:'")
        return node

    def fields(self, node: Node, what: str, shape: Shape) -> dict[str, Node] | None:
        """The record `node` (a mapping of `shape`) as key -> value; an unknown or a missing field
        is a problem (as `mapping` names it) and the fields there are returned all the same; None
        (and a problem) when `node` is no mapping. (The loader refuses duplicate keys.)"""
        if type(node) is MapNode:
            found = {key.value: value for key, value in node.items}
            if found.keys() <= shape.allowed and shape.needed <= found.keys():
                return found   # (nearly always: every field known, the required ones there)
        if self.mapping(node, what, shape.required, shape.optional) is None:
            return None
        return {key.value: value for key, value in node.items}  # type: ignore[union-attr]

    def entries(self, node: Node, what: str) -> MapNode | None:
        """A mapping whose keys are data (languages, letters, note ids), checked by the caller."""
        if not isinstance(node, MapNode):
            self.error(node, f"{what} must be a mapping (key: value lines)", f"write {what} as 'key: value' lines")
            return None
        return node

    def text(self, node: Node | None, what: str) -> str | None:
        if node is None:
            return None
        if not isinstance(node, Scalar):
            self.error(node, f"{what} must be text, not a list or mapping", f"write {what} as one text value")
            return None
        return node.value

    def nonempty(self, node: Node | None, what: str) -> str | None:
        if type(node) is Scalar and node.value.strip():
            return node.value   # the valid case first, without the calls below (so in each accessor)
        value = self.text(node, what)
        if value is not None and not value.strip():
            self.error(node, f"{what} is empty", f"give {what} a value or remove the field")  # type: ignore[arg-type]
            return None
        return value

    def pattern(self, node: Node | None, what: str, regex: re.Pattern[str], expected: str) -> str | None:
        if type(node) is Scalar and regex.match(node.value):
            return node.value
        value = self.text(node, what)
        if value is not None and not regex.match(value):
            self.error(node, f"{what} '{value}' is not valid", f"write it as {expected}")  # type: ignore[arg-type]
            return None
        return value

    def slug(self, node: Node | None, what: str) -> str | None:
        if (type(node) is Scalar and SLUG.match(value := node.value) and len(value) <= MAX_ID_LENGTH
                and value not in RESERVED_IDS):
            return value
        value = self.pattern(node, what, SLUG, "lowercase letters, digits and single hyphens "
                             "(it becomes a file name and a URL), e.g. 'queens-agent'")
        if value is not None and len(value) > MAX_ID_LENGTH:
            shorter = value[:40].rsplit("-", 1)[0]
            self.error(node, f"{what} is {len(value)} characters long; an id has at most {MAX_ID_LENGTH}",  # type: ignore[arg-type]
                       f"shorten it (it becomes a file name, and file systems limit their length), e.g. '{shorter}'")
            return None
        if value is not None and value in RESERVED_IDS:
            kind = what.split()[0]
            self.error(node, f"{what} '{value}' is a device name Windows reserves (CON, PRN, AUX, NUL, COM1-9, "  # type: ignore[arg-type]
                       "LPT1-9): no file or folder can have it there, with or without an extension",
                       f"give it another id, e.g. '{value}-{kind}' (it becomes a file name)")
            return None
        return value

    def date(self, node: Node | None, what: str, partial: bool = False) -> str | None:
        if type(node) is Scalar and is_date(node.value, partial):
            return sys.intern(node.value)
        value = self.text(node, what)
        if value is None:
            return None
        if is_date(value, partial):
            return sys.intern(value)   # one string per date: the knowledge cache's pickles store it once
        expected = "YYYY-MM-DD or YYYY-MM" if partial else "YYYY-MM-DD"
        self.error(node, f"{what} '{value}' is not a date", f"write a real date as {expected}, e.g. 2018-01-19")  # type: ignore[arg-type]
        return None

    def boolean(self, node: Node | None, what: str) -> bool | None:
        value = self.text(node, what)
        if value is None:
            return None
        if value in ("true", "false"):
            return value == "true"
        self.error(node, f"{what} '{value}' is not true or false", "write true or false")  # type: ignore[arg-type]
        return None

    def rule_number(self, node: Node | None, what: str) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        try:
            return str(parse_rule_number(value))
        except ValueError as exc:
            self.error(node, f"{what} '{value}' is not a rule number: {exc}",  # type: ignore[arg-type]
                       "write it as in the rules, e.g. \"702.78\" (quoted, so YAML keeps it as text)")
            return None

    def sequence(self, node: Node | None, what: str) -> tuple[Node, ...]:
        if node is None:
            return ()
        if not isinstance(node, SeqNode):
            self.error(node, f"{what} must be a list ('- ' items)", f"write {what} as a list")
            return ()
        return node.items

    def entries_of(self, root: Node, key: str, what: str, read: Callable[[Node, str], T | None]) -> list[T]:
        """The entries of a data file: the file is one entry, or (as the importers write them) a
        list of entries under the single key `key` (``rules:``, ``cards:``); `read(node, what)`
        reads one ("rule #3" or "a rule file" for `what` "rule")."""
        if isinstance(root, MapNode) and root.keys() == (key,):
            return [found for i, item in enumerate(self.sequence(root.get(key), key))
                    if (found := read(item, f"{what} #{i + 1}")) is not None]
        found = read(root, f"a {what} file")
        return [found] if found is not None else []

    def choice(self, node: Node | None, what: str, choices: tuple[str, ...]) -> str | None:
        if type(node) is Scalar and node.value in choices:
            return sys.intern(node.value)
        value = self.text(node, what)
        if value is None:
            return None
        if value not in choices:
            hint = did_you_mean(value, choices) or f"use one of: {', '.join(choices)}"
            self.error(node, f"{what} '{value}' is not known", hint)  # type: ignore[arg-type]
            return None
        return sys.intern(value)   # (a source id, a status: repeated thousands of times)


class Choices(tuple):
    """The values a field may take, in the order a message lists them, with a set's membership
    test: `Reader.choice` asks whether a value is one of them, and with all cards a `source`
    field is asked ~115,000 times of ~700 source ids (a tuple compares them one by one)."""

    def __new__(cls, values: Iterable[str]) -> "Choices":
        made = super().__new__(cls, values)
        made._members = frozenset(made)
        return made

    def __contains__(self, value: object) -> bool:
        return value in self._members


@dataclass(frozen=True)
class Context:
    languages: tuple[str, ...]
    sources: frozenset[str]
    # the project's rules releases, oldest first: what the release lists of texts and histories name
    releases: ReleaseOrder = ReleaseOrder(())

    @functools.cached_property
    def source_ids(self) -> Choices:
        """The source ids, sorted: the choices of a `source` field."""
        return Choices(sorted(self.sources))

    @functools.cached_property
    def name_shape(self) -> Shape:
        """A card's names: the English one, and one in any other language of the project (each
        language named once in a message's list of the allowed fields)."""
        return Shape((SOURCE_LANGUAGE,), tuple(code for code in self.languages if code != SOURCE_LANGUAGE))

    @functools.cached_property
    def printed_shape(self) -> Shape:
        """A card's `printed`: the languages other than English."""
        return Shape((), tuple(code for code in self.languages if code != SOURCE_LANGUAGE))



def languages_from(f: SourceFile) -> tuple[tuple[Language, ...], list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "the languages file", ("languages",))
    out: list[Language] = []
    items = r.sequence(m.get("languages"), "languages") if m else ()
    for item in items:
        lm = r.mapping(item, "a language", ("code", "name", "english_name", "locale"))
        if lm is None:
            continue
        code = r.pattern(lm.get("code"), "language code", LANG_CODE, "a two-letter ISO 639-1 code, e.g. 'it'")
        name = r.nonempty(lm.get("name"), "language name")
        english = r.nonempty(lm.get("english_name"), "language english_name")
        locale = r.pattern(lm.get("locale"), "language locale", re.compile(r"^[a-z]{2,3}(_[A-Z]{2})?$"), "a locale such as de_DE")
        if code and name and english and locale:
            if any(lang.code == code for lang in out):
                r.error(lm, f"language '{code}' is listed twice", "remove one entry")
                continue
            out.append(Language(code, name, english, locale))
    if m and not any(lang.code == SOURCE_LANGUAGE for lang in out):
        r.error(m, "the languages file does not list the source language 'en'", "add en first")
    return tuple(out), r.problems


def sources_from(f: SourceFile) -> tuple[dict[str, Source], list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "the sources file", ("sources",))
    out: dict[str, Source] = {}
    sm = m.get("sources") if m else None
    if isinstance(sm, MapNode):
        for key, value in sm.items:
            sid = r.slug(key, "source id")
            vm = r.mapping(value, f"source '{key.value}'", ("title", "kind"), ("file", "date"))
            if sid is None or vm is None:
                continue
            title = r.nonempty(vm.get("title"), "source title")
            kind = r.choice(vm.get("kind"), "source kind", ("seed", "comprehensive-rules", "mtgjson", "archive", "project"))
            file = r.nonempty(vm.get("file"), "source file") if vm.get("file") else None
            date = r.date(vm.get("date"), "source date") if vm.get("date") else None
            if title and kind:
                out[sid] = Source(sid, title, kind, file, date)
    elif m is not None and sm is not None:
        r.error(sm, "'sources' must be a mapping of source id to its description", "write 'source-id:' entries")
    return out, r.problems


@dataclass(frozen=True)
class Project:
    """The languages, sources and rules releases of a project: what its data files are checked against."""

    languages: tuple[Language, ...]
    sources: Mapping[str, Source]
    problems: tuple[Problem, ...]
    releases: tuple[str, ...] = ()   # the dates of the files of rules/releases/ (`layout.release_dates`)

    @property
    def context(self) -> Context:
        return Context(tuple(lang.code for lang in self.languages), frozenset(self.sources), ReleaseOrder(self.releases))


def read_project(languages_file: SourceFile | None, sources_file: SourceFile | None, root: Path,
                 releases: tuple[str, ...] = ()) -> Project:
    """The languages and sources out of their parsed files, and the releases (`releases`: the
    dates the files of rules/releases/ are named by); a DataError when a file is missing."""
    for path, found in ((LANGUAGES_FILE, languages_file), (SOURCES_FILE, sources_file)):
        if found is None:
            raise DataError([Problem(path, 1, 1, f"{path} is missing",
                                     f"create it (see README.md, 'Data model'); project root: {root}")])
    languages, problems = languages_from(languages_file)  # type: ignore[arg-type]
    sources, found = sources_from(sources_file)  # type: ignore[arg-type]
    return Project(languages, MappingProxyType(sources), tuple(problems + found), releases)



# The shapes shared by the data files: a text unit (its variants per language), a list of
# releases, a rule's history.

VARIANT_FIELDS = ("text", "source", "status")
VARIANT_OPTIONAL = ("canonical", "translated_from", "note", "releases")
VARIANT = Shape(VARIANT_FIELDS, VARIANT_OPTIONAL)
STATUSES = tuple(s.value for s in Status)
_STATUS = {s.value: s for s in Status}


def read_variant(r: Reader, ctx: Context, node: Node, lang: str, single: bool, what: str,
                 kind: UnitKind | None = None) -> Variant | None:
    fields = r.fields(node, what, VARIANT)
    if fields is None:
        return None
    m: MapNode = node  # type: ignore[assignment]
    # a valid field is read without its message being made (~50,000 variants with all cards)
    node = fields.get("text")
    text = node.value if type(node) is Scalar and node.value.strip() else r.nonempty(node, f"{what} text")
    node = fields.get("source")
    source = (sys.intern(node.value) if type(node) is Scalar and node.value in ctx.source_ids
              else r.choice(node, f"{what} source", ctx.source_ids))
    node = fields.get("status")
    status = _STATUS.get(node.value) if type(node) is Scalar else None
    if status is None:
        found = r.choice(node, f"{what} status", STATUSES)
        status = Status(found) if found is not None else None
    canonical = r.boolean(fields["canonical"], f"{what} canonical") if fields.get("canonical") else None
    translated_from = None
    if fields.get("translated_from") is not None:
        if lang == SOURCE_LANGUAGE:
            r.error(m.key_node("translated_from"), f"{what}: an English text has no 'translated_from'",  # type: ignore[arg-type]
                    "remove the field; it records which English a translation was made from")
        translated_from = r.pattern(fields["translated_from"], f"{what} translated_from", HASH,
                                    "16 hex digits, as printed by 'rulekb hash'")
    note = r.nonempty(fields["note"], f"{what} note") if fields.get("note") is not None else None
    releases: tuple[str, ...] = ()
    if fields.get("releases") is not None:
        if lang != SOURCE_LANGUAGE:
            r.error(m.key_node("releases"), f"{what}: only an English text lists 'releases'",  # type: ignore[arg-type]
                    "remove the field; it lists the rules releases whose official English this is")
        if kind is UnitKind.RULING:   # (and a ruling file's contents do not depend on the releases: validate.reads_releases)
            r.error(m.key_node("releases"), f"{what}: a ruling lists no rules releases",  # type: ignore[arg-type]
                    "remove the field; a ruling has its date")
        else:
            releases = read_releases(r, ctx, fields["releases"], f"{what} releases")
    if text is None or source is None or status is None:
        return None
    return Variant(text=text, source=source, status=status,
                   canonical=bool(canonical) or single, pos=Pos(r.file, m.line),
                   translated_from=translated_from, note=note, releases=releases)


def read_releases(r: Reader, ctx: Context, node: Node | None, what: str) -> tuple[str, ...]:
    """A list of rules releases: one line of dates and ranges in release order
    (``2005-10-01..2009-05-01, 2011-06-17``, `releaseranges`), or a YAML list of dates, oldest
    first (the form the import wrote before; it is read the same), each an imported release
    (a file of rules/releases/), named once. The tuple of the dates, oldest first; equal lines
    give one shared tuple. A flaw is named at the item's line and column."""
    order = ctx.releases
    if type(node) is Scalar:
        found = order.expand(node.value)
        if found is not None:   # (nearly every line: the complete rules repeat ~2,800 lines 22,900 times)
            return found
        items = split(node.value)
        found, flaws = order.read([item for item, _ in items])
        start = node.column + (1 if node.quoted else 0)   # the line as written on one line, as the import does
        for flaw in flaws:
            offset = items[flaw.item][1] if items else 0
            _release_flaw(r, node.line, start + offset, what, flaw.message, flaw.hint)
        return found
    if not isinstance(node, SeqNode):
        r.error(node, f"{what} must be one line of release dates and ranges",  # type: ignore[arg-type]
                "write them as START..END or single dates, oldest first, separated by ', ' (2005-10-01..2009-05-01, 2011-06-17)")
        return ()
    listed = node.items
    values = [item.value if type(item) is Scalar else "" for item in listed]
    found, flaws = order.read(values)
    for flaw in flaws:
        at = listed[flaw.item] if listed else node
        if type(at) is not Scalar and listed:
            r.error(at, f"{what}: an item is not a date", "write each release as its date, e.g. '2026-01-16'")
        else:
            _release_flaw(r, at.line, at.column, what, flaw.message, flaw.hint)
    return found


def _release_flaw(r: Reader, line: int, column: int, what: str, message: str, hint: str) -> None:
    r.problems.append(Problem(r.file, line, column, f"{what}: {message}", hint))


RULING_LINK = "ruling"   # the key of a rule note that is an official card ruling: the ruling's id


def read_unit(r: Reader, ctx: Context, node: Node, uid: str, kind: UnitKind, label: str) -> Unit | None:
    """A unit: language code -> its variants; a rule note may also say which card ruling it is
    (``ruling: ID``, checked across files)."""
    m = node if type(node) is MapNode else r.entries(node, f"'{label}'")
    if m is None:
        return None
    ruling = None
    for key, value in m.items:
        if key.value == RULING_LINK and kind is UnitKind.NOTE:
            ruling = r.slug(value, f"'{label}' ruling")
        elif key.value not in ctx.languages:
            hint = did_you_mean(key.value, ctx.languages) or (
                f"use one of {', '.join(ctx.languages)}, or register the language with 'rulekb lang add {key.value}'")
            r.error(key, f"unknown language code '{key.value}' in '{label}'", hint)
    variants: dict[str, tuple[Variant, ...]] = {}
    for key, value in m.items:
        lang = sys.intern(key.value)
        if lang not in ctx.languages:
            continue
        items = value.items if type(value) is SeqNode else r.sequence(value, f"'{label}' {lang}")
        if not items:
            r.error(value, f"'{label}' {lang} has no text", f"give at least one '- text:' item or remove '{lang}:'")
            continue
        found = [v for i, item in enumerate(items)
                 if (v := read_variant(r, ctx, item, lang, len(items) == 1, f"'{label}' {lang} #{i + 1}", kind)) is not None]
        canon = [v for v in found if v.canonical]
        if len(items) > 1 and len(found) == len(items) and len(canon) != 1:
            r.error(key, f"'{label}' {lang} has {len(items)} variants and {len(canon)} marked canonical",
                    "mark exactly one variant 'canonical: true'")
            continue
        variants[lang] = (found[0],) if len(found) == 1 else tuple(sorted(found, key=lambda v: not v.canonical))
    return Unit(uid, kind, label, MappingProxyType(variants), Pos(r.file, m.line), ruling)


def read_history(r: Reader, ctx: Context, node: Node | None) -> tuple[HistoryEntry, ...]:
    out = []
    for item in r.sequence(node, "history"):
        m = r.mapping(item, "a history entry", ("number", "source"), ("since", "until", "releases"))
        if m is None:
            continue
        number = r.rule_number(m.get("number"), "history number")
        since = r.date(m.get("since"), "history since", partial=True)
        until = r.date(m.get("until"), "history until", partial=True)
        source = r.choice(m.get("source"), "history source", ctx.source_ids)
        releases = read_releases(r, ctx, m.get("releases"), "history releases") if m.get("releases") is not None else ()
        if since and until and since > until:
            r.error(m, f"history entry {number}: since {since} is after until {until}", "swap or correct the dates")
        if number and source:
            out.append(HistoryEntry(number, since, until, source, releases))
    return tuple(out)
