"""Pipeline stage 2 of 6 (load -> validate -> link -> check -> render -> report).

Checks the positioned YAML nodes of `load` against the schema and builds the typed, frozen
`KnowledgeBase`. Every refusal names file, line and column, says what is wrong and how to fix
it; all problems of a run are raised together as one `DataError`.

Project layout read here:
- ``translations/languages.yaml``  the languages (code, name, locale); ``en`` is the source
- ``rules/sources.yaml``           every source a text may cite
- ``rules/comprehensive/*.yaml``   one rule per file (title, summary, text, subrules, notes)
- ``rules/cards/*.yaml``           one card per file
- ``rules/rulings/*.yaml``         the rulings of one mechanic (a rule id) per file
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Callable, TypeVar

from .diagnostics import DataError, Problem, did_you_mean
from .load import MapNode, Node, Scalar, SeqNode, SourceFile, load_files
from .models import (SOURCE_LANGUAGE, Card, HistoryEntry, KnowledgeBase, Language, Pos, Rule,
                     Ruling, Source, Status, Subrule, Unit, UnitKind, Variant)
from .refs import parse_rule_number

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
NOTE_KEY = re.compile(r"^n[1-9][0-9]*$")
LANG_CODE = re.compile(r"^[a-z]{2,3}$")
HASH = re.compile(r"^[0-9a-f]{16}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SUBRULE_LETTER = re.compile(r"^[a-z]$")

T = TypeVar("T")


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
        allowed = required + optional
        for key, _ in node.items:
            if key.value not in allowed:
                hint = did_you_mean(key.value, allowed) or f"allowed fields: {', '.join(allowed)}"
                self.error(key, f"unknown field '{key.value}' in {what}", hint)
        for name in required:
            if node.get(name) is None:
                self.error(node, f"{what} lacks the required field '{name}'", f"add '{name}:'")
        return node

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
        value = self.text(node, what)
        if value is not None and not value.strip():
            self.error(node, f"{what} is empty", f"give {what} a value or remove the field")  # type: ignore[arg-type]
            return None
        return value

    def pattern(self, node: Node | None, what: str, regex: re.Pattern[str], expected: str) -> str | None:
        value = self.text(node, what)
        if value is not None and not regex.match(value):
            self.error(node, f"{what} '{value}' is not valid", f"write it as {expected}")  # type: ignore[arg-type]
            return None
        return value

    def slug(self, node: Node | None, what: str) -> str | None:
        return self.pattern(node, what, SLUG, "lowercase letters, digits and single hyphens "
                            "(it becomes a file name and a URL), e.g. 'queens-agent'")

    def date(self, node: Node | None, what: str, partial: bool = False) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        forms = ("%Y-%m-%d", "%Y-%m") if partial else ("%Y-%m-%d",)
        for form in forms:
            try:
                parsed = dt.datetime.strptime(value, form)
            except ValueError:
                continue
            if parsed.strftime(form) == value:
                return value
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

    def choice(self, node: Node | None, what: str, choices: tuple[str, ...]) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        if value not in choices:
            hint = did_you_mean(value, choices) or f"use one of: {', '.join(choices)}"
            self.error(node, f"{what} '{value}' is not known", hint)  # type: ignore[arg-type]
            return None
        return value


@dataclass(frozen=True)
class Context:
    languages: tuple[str, ...]
    sources: frozenset[str]


VARIANT_FIELDS = ("text", "source", "status")
VARIANT_OPTIONAL = ("canonical", "translated_from", "note")
STATUSES = tuple(s.value for s in Status)


def _variant(r: Reader, ctx: Context, node: Node, lang: str, single: bool, what: str) -> Variant | None:
    m = r.mapping(node, what, VARIANT_FIELDS, VARIANT_OPTIONAL)
    if m is None:
        return None
    text = r.nonempty(m.get("text"), f"{what} text")
    source = r.choice(m.get("source"), f"{what} source", tuple(sorted(ctx.sources)))
    status = r.choice(m.get("status"), f"{what} status", STATUSES)
    canonical = r.boolean(m.get("canonical"), f"{what} canonical") if m.get("canonical") else None
    translated_from = None
    if m.get("translated_from") is not None:
        if lang == SOURCE_LANGUAGE:
            r.error(m.key_node("translated_from"), f"{what}: an English text has no 'translated_from'",  # type: ignore[arg-type]
                    "remove the field; it records which English a translation was made from")
        translated_from = r.pattern(m.get("translated_from"), f"{what} translated_from", HASH,
                                    "16 hex digits, as printed by 'rulekb hash'")
    note = r.nonempty(m.get("note"), f"{what} note") if m.get("note") is not None else None
    if text is None or source is None or status is None:
        return None
    return Variant(text=text, source=source, status=Status(status),
                   canonical=bool(canonical) or single, pos=Pos(r.file, m.line),
                   translated_from=translated_from, note=note)


def _unit(r: Reader, ctx: Context, node: Node, uid: str, kind: UnitKind, label: str) -> Unit | None:
    m = r.entries(node, f"'{label}'")
    if m is None:
        return None
    for key, _ in m.items:
        if key.value not in ctx.languages:
            hint = did_you_mean(key.value, ctx.languages) or (
                f"use one of {', '.join(ctx.languages)}, or register the language with 'rulekb lang add {key.value}'")
            r.error(key, f"unknown language code '{key.value}' in '{label}'", hint)
    variants: dict[str, tuple[Variant, ...]] = {}
    for key, value in m.items:
        lang = key.value
        if lang not in ctx.languages:
            continue
        items = r.sequence(value, f"'{label}' {lang}")
        if not items:
            r.error(value, f"'{label}' {lang} has no text", f"give at least one '- text:' item or remove '{lang}:'")
            continue
        found = [v for i, item in enumerate(items)
                 if (v := _variant(r, ctx, item, lang, len(items) == 1, f"'{label}' {lang} #{i + 1}")) is not None]
        canon = [v for v in found if v.canonical]
        if len(items) > 1 and len(found) == len(items) and len(canon) != 1:
            r.error(key, f"'{label}' {lang} has {len(items)} variants and {len(canon)} marked canonical",
                    "mark exactly one variant 'canonical: true'")
            continue
        variants[lang] = tuple(sorted(found, key=lambda v: not v.canonical))
    return Unit(uid, kind, label, MappingProxyType(variants), Pos(r.file, m.line))


def _history(r: Reader, ctx: Context, node: Node | None) -> tuple[HistoryEntry, ...]:
    out = []
    for item in r.sequence(node, "history"):
        m = r.mapping(item, "a history entry", ("number", "source"), ("since", "until"))
        if m is None:
            continue
        number = r.rule_number(m.get("number"), "history number")
        since = r.date(m.get("since"), "history since", partial=True)
        until = r.date(m.get("until"), "history until", partial=True)
        source = r.choice(m.get("source"), "history source", tuple(sorted(ctx.sources)))
        if since and until and since > until:
            r.error(m, f"history entry {number}: since {since} is after until {until}", "swap or correct the dates")
        if number and source:
            out.append(HistoryEntry(number, since, until, source))
    return tuple(out)


RULE_FIELDS = ("id", "number", "release")
RULE_OPTIONAL = ("history", "title", "summary", "text", "subrules", "notes")


def rule_from(f: SourceFile, ctx: Context) -> tuple[Rule | None, list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "a rule file", RULE_FIELDS, RULE_OPTIONAL)
    if m is None:
        return None, r.problems
    rid = r.slug(m.get("id"), "rule id")
    number = r.rule_number(m.get("number"), "rule number")
    release = r.date(m.get("release"), "rule release")
    if rid is None or number is None:
        return None, r.problems
    head = {}
    for kind in (UnitKind.TITLE, UnitKind.SUMMARY, UnitKind.TEXT):
        node = m.get(kind.value)
        head[kind] = _unit(r, ctx, node, f"{rid}.{kind.value}", kind, f"{number} {kind.value}") if node else None
    subrules = []
    sub_node = m.get("subrules")
    if sub_node is not None:
        sm = r.entries(sub_node, "subrules")
        for key, value in sm.items if sm else ():
            letter = key.value
            if not SUBRULE_LETTER.match(letter) or letter in "lo":
                r.error(key, f"subrule key '{letter}' is not a subrule letter",
                        "use the subrule's letter as in the rules (a, b, c …; the rules skip l and o)")
                continue
            unit = _unit(r, ctx, value, f"{rid}.{letter}", UnitKind.SUBRULE, f"{number}{letter}")
            if unit:
                subrules.append(Subrule(letter, f"{number}{letter}", unit))
    notes = []
    notes_node = m.get("notes")
    if notes_node is not None:
        nm = r.entries(notes_node, "notes")
        for key, value in nm.items if nm else ():
            if not NOTE_KEY.match(key.value):
                r.error(key, f"note key '{key.value}' is not a note id", "name notes n1, n2, … (never reuse a retired id)")
                continue
            unit = _unit(r, ctx, value, f"{rid}.{key.value}", UnitKind.NOTE, f"{number} note {key.value[1:]}")
            if unit:
                notes.append(unit)
    history = _history(r, ctx, m.get("history"))
    if release is None:
        return None, r.problems
    rule = Rule(rid, number, release, history, head[UnitKind.TITLE], head[UnitKind.SUMMARY],
                head[UnitKind.TEXT], tuple(subrules), tuple(notes), f.path)
    return rule, r.problems


CARD_FIELDS = ("id", "name", "set", "collector_number", "oracle_id", "source")


def card_from(f: SourceFile, ctx: Context) -> tuple[Card | None, list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "a card file", CARD_FIELDS)
    if m is None:
        return None, r.problems
    cid = r.slug(m.get("id"), "card id")
    names: dict[str, str] = {}
    names_node = m.get("name")
    nm = r.mapping(names_node, "card name", (SOURCE_LANGUAGE,), ctx.languages) if names_node else None
    for key, value in nm.items if nm else ():
        if key.value in ctx.languages and (text := r.nonempty(value, f"card name {key.value}")):
            names[key.value] = text
    set_code = r.pattern(m.get("set"), "card set", re.compile(r"^[A-Z0-9]{2,6}$"), "the set code, e.g. XLN")
    number = r.nonempty(m.get("collector_number"), "card collector_number")
    oracle = r.pattern(m.get("oracle_id"), "card oracle_id", UUID, "a lowercase UUID")
    source = r.choice(m.get("source"), "card source", tuple(sorted(ctx.sources)))
    if None in (cid, set_code, number, oracle, source) or SOURCE_LANGUAGE not in names:
        return None, r.problems
    return Card(cid, MappingProxyType(names), set_code, number, oracle, source, Pos(f.path, m.line)), r.problems  # type: ignore[arg-type]


def rulings_from(f: SourceFile, ctx: Context) -> tuple[list[Ruling], list[Problem], list[tuple[Scalar, str]]]:
    """Rulings of one file, plus (node, id) pairs of the cards and mechanic they cite, checked later."""
    r = Reader(f.path)
    cites: list[tuple[Scalar, str]] = []
    m = r.mapping(f.root, "a rulings file", ("mechanic", "rulings"))
    if m is None:
        return [], r.problems, cites
    mechanic = r.slug(m.get("mechanic"), "rulings mechanic")
    if mechanic:
        cites.append((m.get("mechanic"), "rule:" + mechanic))  # type: ignore[arg-type]
    out = []
    for item in r.sequence(m.get("rulings"), "rulings"):
        rm = r.mapping(item, "a ruling", ("id", "date", "cards", "text"))
        if rm is None:
            continue
        rid = r.slug(rm.get("id"), "ruling id")
        date = r.date(rm.get("date"), "ruling date")
        cards = []
        for c in r.sequence(rm.get("cards"), "ruling cards"):
            if (cid := r.slug(c, "ruling card")) is not None:
                cards.append(cid)
                cites.append((c, "card:" + cid))  # type: ignore[arg-type]
        if rid is None or rm.get("text") is None:
            continue
        unit = _unit(r, ctx, rm.get("text"), rid, UnitKind.RULING, f"ruling {rid}")  # type: ignore[arg-type]
        if unit and date and mechanic:
            out.append(Ruling(rid, date, mechanic, tuple(cards), unit))
    return out, r.problems, cites


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


LANGUAGES_FILE = "translations/languages.yaml"
SOURCES_FILE = "rules/sources.yaml"


def _single(files: dict[str, SourceFile], path: str, root: Path) -> SourceFile:
    if path not in files:
        raise DataError([Problem(path, 1, 1, f"{path} is missing", f"create it (see README.md, 'Data model'); project root: {root}")])
    return files[path]


def build_knowledge_base(files: tuple[SourceFile, ...], root: Path = Path(".")) -> KnowledgeBase:
    """Schema-check all parsed files and build the KnowledgeBase, or raise DataError."""
    by_path = {f.path: f for f in files}
    problems: list[Problem] = []
    languages, found = languages_from(_single(by_path, LANGUAGES_FILE, root))
    problems += found
    sources, found = sources_from(_single(by_path, SOURCES_FILE, root))
    problems += found
    ctx = Context(tuple(lang.code for lang in languages), frozenset(sources))

    rules: list[Rule] = []
    cards: list[Card] = []
    rulings: list[Ruling] = []
    cites: list[tuple[str, Scalar, str]] = []
    for f in files:
        if f.path.startswith("rules/comprehensive/"):
            rule, found = rule_from(f, ctx)
            rules += [rule] if rule else []
        elif f.path.startswith("rules/cards/"):
            card, found = card_from(f, ctx)
            cards += [card] if card else []
        elif f.path.startswith("rules/rulings/"):
            got, found, cited = rulings_from(f, ctx)
            rulings += got
            cites += [(f.path, node, what) for node, what in cited]
        elif f.path in (LANGUAGES_FILE, SOURCES_FILE) or f.path.startswith("translations/"):
            continue
        else:
            found = [Problem(f.path, 1, 1, "this YAML file is in no known folder",
                             "rules go in rules/comprehensive/, cards in rules/cards/, rulings in rules/rulings/")]
        problems += found

    problems += _cross_file(rules, cards, rulings, cites)
    if problems:
        raise DataError(problems)
    return KnowledgeBase(languages, MappingProxyType(sources),
                         tuple(sorted(rules, key=lambda r: _number_key(r.number))),
                         tuple(sorted(cards, key=lambda c: c.id)),
                         tuple(sorted(rulings, key=lambda r: (r.mechanic, r.date, r.unit.pos.file, r.unit.pos.line))))


def _number_key(number: str) -> tuple:
    from .refs import sort_key
    return sort_key(number)


def _duplicates(items: list[T], key: Callable[[T], str], pos: Callable[[T], Pos], what: str, hint: str) -> list[Problem]:
    seen: dict[str, Pos] = {}
    out = []
    for item in items:
        k, p = key(item), pos(item)
        if k in seen:
            first = seen[k]
            out.append(Problem(p.file, p.line, 1, f"duplicate {what} '{k}' (also at {first.file}:{first.line})", hint))
        else:
            seen[k] = p
    return out


def _cross_file(rules: list[Rule], cards: list[Card], rulings: list[Ruling],
                cites: list[tuple[str, Scalar, str]]) -> list[Problem]:
    rule_pos = lambda r: Pos(r.file, 1)  # noqa: E731 - the id is on the first lines
    problems = _duplicates(rules, lambda r: r.id, rule_pos, "rule id", "give each rule its own id")
    problems += _duplicates(rules, lambda r: r.number, rule_pos, "rule number",
                            "one rule per number: merge the files or correct the number")
    problems += _duplicates(cards, lambda c: c.id, lambda c: c.pos, "card id", "give each card its own id")
    problems += _duplicates(rulings, lambda r: r.id, lambda r: r.unit.pos, "ruling id", "give each ruling its own id")
    rule_ids = {r.id for r in rules}
    card_ids = {c.id for c in cards}
    for path, node, what in cites:
        kind, ident = what.split(":", 1)
        known = rule_ids if kind == "rule" else card_ids
        if ident not in known:
            hint = did_you_mean(ident, known) or f"add rules/{'comprehensive' if kind == 'rule' else 'cards'}/{ident}.yaml"
            problems.append(Problem(path, node.line, node.column, f"unknown {kind} id '{ident}'", hint))
    return problems


DATA_FOLDERS = ("rules", "translations")


def load_knowledge_base(root: Path) -> KnowledgeBase:
    """load + validate: the whole project tree under `root` into a KnowledgeBase (or DataError)."""
    return build_knowledge_base(load_files(root, DATA_FOLDERS), root)
