"""Pipeline stage 2 of 6 (load -> validate -> link -> check -> render -> report).

Checks the positioned YAML nodes of `load` against the schema and builds the typed, frozen
`KnowledgeBase`. Every refusal names file, line and column, says what is wrong and how to fix
it; all problems of a run are raised together as one `DataError`.

Project layout read here:
- ``translations/languages.yaml``  the languages (code, name, locale); ``en`` is the source
- ``rules/sources.yaml``           every source a text may cite
- ``rules/comprehensive/*.yaml``   one rule per file (title, summary, text, subrules, notes), or a
                                   list of rules under ``rules:`` (an imported section of the rules)
- ``rules/cards/*.yaml``           one card per file
- ``rules/rulings/*.yaml``         the rulings of one mechanic (a rule id) per file
- ``rules/glossary/*.yaml``        terms of the Comprehensive Rules' glossary (imported), under ``terms:``
- ``rules/releases/*.yaml``        one imported rules release per file (its chapters, its input file)
"""

from __future__ import annotations

import datetime as dt
import functools
import gc
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Sequence, TypeVar

from . import forking
from .diagnostics import DataError, Problem, did_you_mean
from .load import MapNode, Node, Scalar, SeqNode, SourceFile, gc_paused, parse_file, yaml_files
from .models import (SOURCE_LANGUAGE, Card, GlossaryEntry, HistoryEntry, KnowledgeBase, Language, Move, Pos, Rule, RulesRelease,
                     Ruling, Source, Status, Subrule, Unit, UnitKind, Variant)
from .refs import SUBRULE_LETTERS, parse_rule_number

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
NOTE_KEY = re.compile(r"^n[1-9][0-9]*$")
LANG_CODE = re.compile(r"^[a-z]{2,3}$")
HASH = re.compile(r"^[0-9a-f]{16}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SUBRULE_LETTER = re.compile(r"^[a-z]$")
# A subrule's key in its rule file: its letter, or (for a subrule that came after another one had
# taken that key) letter-N; the key is the stable part of the unit id, `letters` its letter per release.
SUBRULE_KEY = re.compile(r"^[a-z](?:-[1-9][0-9]*)?$")
UNIT_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.(?:text|[a-z](?:-[1-9][0-9]*)?)$")  # a rule's text or subrule
SHA256 = re.compile(r"^[0-9a-f]{64}$")

T = TypeVar("T")


@functools.lru_cache(maxsize=4096)
def _is_date(value: str, partial: bool) -> bool:
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
        if _is_date(value, partial):
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

    @functools.cached_property
    def source_ids(self) -> tuple[str, ...]:
        """The source ids, sorted: the choices of a `source` field."""
        return tuple(sorted(self.sources))


VARIANT_FIELDS = ("text", "source", "status")
VARIANT_OPTIONAL = ("canonical", "translated_from", "note", "releases")
STATUSES = tuple(s.value for s in Status)


def _variant(r: Reader, ctx: Context, node: Node, lang: str, single: bool, what: str) -> Variant | None:
    m = r.mapping(node, what, VARIANT_FIELDS, VARIANT_OPTIONAL)
    if m is None:
        return None
    fields = m.fields()
    text = r.nonempty(fields.get("text"), f"{what} text")
    source = r.choice(fields.get("source"), f"{what} source", ctx.source_ids)
    status = r.choice(fields.get("status"), f"{what} status", STATUSES)
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
        releases = _release_list(r, fields["releases"], f"{what} releases")
    if text is None or source is None or status is None:
        return None
    return Variant(text=text, source=source, status=Status(status),
                   canonical=bool(canonical) or single, pos=Pos(r.file, m.line),
                   translated_from=translated_from, note=note, releases=releases)


def _release_list(r: Reader, node: Node | None, what: str) -> tuple[str, ...]:
    """A list of rules release dates, oldest first, each once."""
    dates = [d for item in r.sequence(node, what) if (d := r.date(item, f"{what} item")) is not None]
    if dates != sorted(set(dates)):
        r.error(node, f"{what} must list each release once, oldest first",  # type: ignore[arg-type]
                f"write them as [{', '.join(repr(d) for d in sorted(set(dates)))}]")
    return tuple(sorted(set(dates)))


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
        m = r.mapping(item, "a history entry", ("number", "source"), ("since", "until", "releases"))
        if m is None:
            continue
        number = r.rule_number(m.get("number"), "history number")
        since = r.date(m.get("since"), "history since", partial=True)
        until = r.date(m.get("until"), "history until", partial=True)
        source = r.choice(m.get("source"), "history source", ctx.source_ids)
        releases = _release_list(r, m.get("releases"), "history releases") if m.get("releases") is not None else ()
        if since and until and since > until:
            r.error(m, f"history entry {number}: since {since} is after until {until}", "swap or correct the dates")
        if number and source:
            out.append(HistoryEntry(number, since, until, source, releases))
    return tuple(out)


RULE_FIELDS = ("id", "number", "release")
RULE_OPTIONAL = ("history", "title", "summary", "text", "subrules", "letters", "moved_from", "notes")


def _letters(r: Reader, node: Node | None, keys: set[str]) -> dict[str, dict[str, str]]:
    """`letters`: subrule key -> {release: letter}, where an imported release gave a subrule
    another letter than its key (or the key is not a plain letter)."""
    out: dict[str, dict[str, str]] = {}
    lm = r.entries(node, "letters") if node is not None else None
    for key, value in lm.items if lm else ():
        if key.value not in keys:
            hint = did_you_mean(key.value, keys) or "list only subrules of this rule"
            r.error(key, f"letters: '{key.value}' is not a subrule of this rule", hint)
            continue
        vm = r.entries(value, f"letters of '{key.value}'")
        per: dict[str, str] = {}
        for rel, letter_node in vm.items if vm else ():
            date = r.date(rel, f"letters of '{key.value}' release")
            letter = r.pattern(letter_node, f"letter of '{key.value}' in {rel.value}", SUBRULE_LETTER, "one lowercase letter")
            if letter is not None and letter in "lo":
                r.error(letter_node, f"letter of '{key.value}' in {rel.value} is '{letter}'", "the rules skip 'l' and 'o'")
            elif date and letter:
                per[date] = letter
        out[key.value] = per
    return out


def _relabel(unit: Unit, label: str) -> Unit:
    return unit if unit.label == label else Unit(unit.id, unit.kind, label, unit.variants, unit.pos)


def rule_from(f: SourceFile, ctx: Context) -> tuple[Rule | None, list[Problem]]:
    r = Reader(f.path)
    return _rule(r, f.root, ctx, "a rule file"), r.problems


def rules_from(f: SourceFile, ctx: Context) -> tuple[list[Rule], list[Problem]]:
    """A rule file: one rule, or (as the import writes a section of the rules) a list of
    rules under the single key ``rules``."""
    if isinstance(f.root, MapNode) and f.root.keys() == ("rules",):
        r = Reader(f.path)
        items = r.sequence(f.root.get("rules"), "rules")
        found = [rule for i, item in enumerate(items) if (rule := _rule(r, item, ctx, f"rule #{i + 1}")) is not None]
        return found, r.problems
    rule, problems = rule_from(f, ctx)
    return ([rule] if rule else []), problems


def _rule(r: Reader, node: Node, ctx: Context, what: str) -> Rule | None:
    m = r.mapping(node, what, RULE_FIELDS, RULE_OPTIONAL)
    if m is None:
        return None
    fields = m.fields()
    rid = r.slug(fields.get("id"), "rule id")
    number = r.rule_number(fields.get("number"), "rule number")
    release = r.date(fields.get("release"), "rule release")
    if rid is None or number is None:
        return None
    head = {}
    for kind in (UnitKind.TITLE, UnitKind.SUMMARY, UnitKind.TEXT):
        node = fields.get(kind.value)
        head[kind] = _unit(r, ctx, node, f"{rid}.{kind.value}", kind, f"{number} {kind.value}") if node else None
    history = _history(r, ctx, fields.get("history"))
    subrules, former = _subrules(r, ctx, m, rid, number, release, history)
    notes = []
    notes_node = fields.get("notes")
    if notes_node is not None:
        nm = r.entries(notes_node, "notes")
        for key, value in nm.items if nm else ():
            if not NOTE_KEY.match(key.value):
                r.error(key, f"note key '{key.value}' is not a note id", "name notes n1, n2, … (never reuse a retired id)")
                continue
            unit = _unit(r, ctx, value, f"{rid}.{key.value}", UnitKind.NOTE, f"{number} note {key.value[1:]}")
            if unit:
                notes.append(unit)
    if release is None:
        return None
    moves = _moved_from(r, fields.get("moved_from"), rid, head[UnitKind.TEXT], subrules + former)
    return Rule(rid, number, release, history, head[UnitKind.TITLE], head[UnitKind.SUMMARY],
                head[UnitKind.TEXT], tuple(subrules), tuple(notes), r.file, tuple(former), m.line, moves)


def _moved_from(r: Reader, node: Node | None, rid: str, text: Unit | None, subrules: list[Subrule]) -> tuple[Move, ...]:
    """`moved_from`: a unit key of this rule ('text' or a subrule key) -> the id of the unit of
    another rule it continues (checked across files by `_moves_cross`)."""
    mm = r.entries(node, "moved_from") if node is not None else None
    if not mm:
        return ()
    mine = {sub.unit.id.split(".", 1)[1]: sub.unit.id for sub in subrules}
    if text is not None:
        mine["text"] = text.id
    out = []
    for key, value in mm.items:
        if key.value not in mine:
            hint = did_you_mean(key.value, mine) or ("name the rule's own text ('text') or one of its subrule keys: "
                                                     + (", ".join(mine) or "this rule has neither"))
            r.error(key, f"moved_from: '{key.value}' is not a text of this rule", hint)
            continue
        previous = r.pattern(value, f"moved_from of '{key.value}'", UNIT_ID,
                             "the id of a unit of another rule: RULE-ID.text or RULE-ID.SUBRULE-KEY")
        if previous is not None:
            out.append(Move(mine[key.value], previous, Pos(r.file, value.line)))
    return tuple(out)


def _subrules(r: Reader, ctx: Context, m: MapNode, rid: str, number: str, release: str | None,
              history: tuple[HistoryEntry, ...]) -> tuple[list[Subrule], list[Subrule]]:
    """The subrules of the rule's release (by letter) and its former subrules.

    A subrule is in the releases its English texts list plus those of its `letters` entry; its
    letter in a release is the `letters` entry, else its key. A subrule with no release at all
    (curated data) is in the rule's release under its key."""
    subrules: list[Subrule] = []
    former: list[Subrule] = []
    sub_node = m.get("subrules")
    sm = r.entries(sub_node, "subrules") if sub_node is not None else None
    keys = {k.value for k, _ in sm.items} if sm else set()
    letters = _letters(r, m.get("letters"), keys)
    taken: dict[tuple[str, str], str] = {}
    numbers = {rel: e.number for e in history for rel in e.releases}
    for key, value in sm.items if sm else ():
        k = key.value
        if not SUBRULE_KEY.match(k) or k[0] in "lo":
            r.error(key, f"subrule key '{k}' is not a subrule letter",
                    "use the subrule's letter as in the rules (a, b, c …; the rules skip l and o)")
            continue
        unit = _unit(r, ctx, value, f"{rid}.{k}", UnitKind.SUBRULE, f"{number}{k[0]}")
        if unit is None:
            continue
        plain_letter = k if len(k) == 1 else None
        known: dict[str, str | None] = {rel: plain_letter for v in unit.variants.get(SOURCE_LANGUAGE, ())
                                        for rel in v.releases}
        known.update(letters.get(k, {}))
        if not known and release is not None:  # curated: in the rule's release, under its key
            known[release] = plain_letter
        lacking = sorted(rel for rel, letter in known.items() if letter is None)
        if lacking or not known:
            r.error(key, f"subrule '{k}' has no letter for the release(s) {', '.join(lacking) or '(none listed)'}",
                    f"add 'letters: {{{k}: {{RELEASE: LETTER}}}}' for each release the subrule is in")
            continue
        for rel, letter in sorted(known.items()):
            if (rel, letter) in taken:  # type: ignore[comparison-overlap]
                r.error(key, f"subrules '{taken[(rel, letter)]}' and '{k}' both have the letter '{letter}' in {rel}",  # type: ignore[index]
                        "correct the 'letters' entries: one subrule per letter and release")
            taken[(rel, letter)] = k  # type: ignore[index]
        if release in known:
            letter = known[release]
            subrules.append(Subrule(letter, f"{number}{letter}", _relabel(unit, f"{number}{letter}"),  # type: ignore[arg-type]
                                    MappingProxyType(dict(sorted(known.items())))))  # type: ignore[arg-type]
        else:
            last = max(known)
            if last not in numbers:
                for i, entry in enumerate(history):
                    end = entry.until or (history[i + 1].since if i + 1 < len(history) else None)
                    if entry.since is not None and entry.covers(last, end):
                        numbers[last] = entry.number
            if last not in numbers:
                r.error(key, f"subrule '{k}' is in the release {last}, but the rule's history gives no number for it",
                        f"add {last} to the 'releases' of the history entry with the rule's number in that release")
                continue
            label = f"{numbers[last]}{known[last]}"
            former.append(Subrule(known[last], label, _relabel(unit, label),  # type: ignore[arg-type]
                                  MappingProxyType(dict(sorted(known.items()))), last))  # type: ignore[arg-type]
    subrules.sort(key=lambda s: SUBRULE_LETTERS.index(s.letter))
    return subrules, former


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
    source = r.choice(m.get("source"), "card source", ctx.source_ids)
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


def glossary_from(f: SourceFile, ctx: Context) -> tuple[list[GlossaryEntry], list[Problem]]:
    """A glossary file: ``terms``, a list of {id, term, definition}."""
    r = Reader(f.path)
    m = r.mapping(f.root, "a glossary file", ("terms",))
    out: list[GlossaryEntry] = []
    for item in r.sequence(m.get("terms"), "terms") if m else ():
        em = r.mapping(item, "a glossary term", ("id", "term", "definition"))
        if em is None:
            continue
        gid = r.slug(em.get("id"), "glossary id")
        if gid is None or em.get("term") is None or em.get("definition") is None:
            continue
        term = _unit(r, ctx, em.get("term"), f"glossary.{gid}.term", UnitKind.TITLE, f"glossary {gid} term")  # type: ignore[arg-type]
        definition = _unit(r, ctx, em.get("definition"), f"glossary.{gid}.definition", UnitKind.TEXT,  # type: ignore[arg-type]
                           f"glossary {gid}")
        if term is not None and definition is not None:
            out.append(GlossaryEntry(gid, term, definition, f.path, em.line))
    return out, r.problems


def release_from(f: SourceFile, ctx: Context) -> tuple[RulesRelease | None, list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "a release file", ("release", "source", "file", "sha256"),
                  ("encoding", "line_endings", "chapters"))
    if m is None:
        return None, r.problems
    date = r.date(m.get("release"), "release date")
    source = r.choice(m.get("source"), "release source", ctx.source_ids)
    file = r.nonempty(m.get("file"), "release file")
    r.pattern(m.get("sha256"), "release sha256", SHA256, "the 64 hex digits of the file's SHA-256")
    for name in ("encoding", "line_endings"):
        if m.get(name) is not None:
            r.nonempty(m.get(name), f"release {name}")
    chapters = []
    cm = r.entries(m.get("chapters"), "chapters") if m.get("chapters") is not None else None
    for key, value in cm.items if cm else ():
        if not re.match(r"^[1-9]$", key.value):
            r.error(key, f"chapter '{key.value}' is not a chapter number", "chapters are numbered 1 to 9")
        elif (title := r.nonempty(value, f"chapter {key.value}")) is not None:
            chapters.append((key.value, title))
    if date is not None and f.path.rsplit("/", 1)[-1] != f"{date}.yaml":
        r.error(m.get("release"), f"the release {date} is in {f.path}",  # type: ignore[arg-type]
                f"name the file rules/releases/{date}.yaml")
    if date is None or source is None or file is None:
        return None, r.problems
    return RulesRelease(date, source, file, tuple(chapters), Pos(f.path, m.line)), r.problems


LANGUAGES_FILE = "translations/languages.yaml"
SOURCES_FILE = "rules/sources.yaml"


def _single(files: dict[str, SourceFile], path: str, root: Path) -> SourceFile:
    if path not in files:
        raise DataError([Problem(path, 1, 1, f"{path} is missing", f"create it (see README.md, 'Data model'); project root: {root}")])
    return files[path]


@dataclass(frozen=True)
class Checked:
    """A rule or glossary file parsed and schema-checked ahead of `_build` (by `load_knowledge_base`,
    on two cores): what it holds and the problems found in it, taken in the file's place."""

    path: str
    rules: tuple[Rule, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    problems: tuple[Problem, ...] = ()


def build_knowledge_base(files: tuple[SourceFile, ...], root: Path = Path(".")) -> KnowledgeBase:
    """Schema-check all parsed files and build the KnowledgeBase, or raise DataError."""
    with gc_paused():
        return _build(files, root)


def _build(files: Sequence[SourceFile | Checked], root: Path) -> KnowledgeBase:
    by_path = {f.path: f for f in files if isinstance(f, SourceFile)}
    problems: list[Problem] = []
    languages, found = languages_from(_single(by_path, LANGUAGES_FILE, root))
    problems += found
    sources, found = sources_from(_single(by_path, SOURCES_FILE, root))
    problems += found
    ctx = Context(tuple(lang.code for lang in languages), frozenset(sources))

    rules: list[Rule] = []
    cards: list[Card] = []
    rulings: list[Ruling] = []
    glossary: list[GlossaryEntry] = []
    releases: list[RulesRelease] = []
    cites: list[tuple[str, Scalar, str]] = []
    for f in files:
        if isinstance(f, Checked):
            rules += f.rules
            glossary += f.glossary
            found = list(f.problems)
        elif f.path.startswith("rules/comprehensive/"):
            got_rules, found = rules_from(f, ctx)
            rules += got_rules
        elif f.path.startswith("rules/cards/"):
            card, found = card_from(f, ctx)
            cards += [card] if card else []
        elif f.path.startswith("rules/rulings/"):
            got, found, cited = rulings_from(f, ctx)
            rulings += got
            cites += [(f.path, node, what) for node, what in cited]
        elif f.path.startswith("rules/glossary/"):
            entries, found = glossary_from(f, ctx)
            glossary += entries
        elif f.path.startswith("rules/releases/"):
            rel, found = release_from(f, ctx)
            releases += [rel] if rel else []
        elif f.path in (LANGUAGES_FILE, SOURCES_FILE) or f.path.startswith("translations/"):
            continue
        else:
            found = [Problem(f.path, 1, 1, "this YAML file is in no known folder",
                             "rules go in rules/comprehensive/, cards in rules/cards/, rulings in rules/rulings/, "
                             "glossary terms in rules/glossary/, imported releases in rules/releases/")]
        problems += found

    problems += _cross_file(rules, cards, rulings, cites)
    problems += _releases_cross(rules, glossary, releases)
    problems += _moves_cross(rules)
    if problems:
        raise DataError(problems)
    # Rules of older releases may share a number with a rule of a newer one (702.78 was Retrace,
    # is Conspire): for the same number the newest release comes last.
    return KnowledgeBase(languages, MappingProxyType(sources),
                         tuple(sorted(rules, key=lambda r: (_number_key(r.number), r.release))),
                         tuple(sorted(cards, key=lambda c: c.id)),
                         tuple(sorted(rulings, key=lambda r: (r.mechanic, r.date, r.unit.pos.file, r.unit.pos.line))),
                         glossary=tuple(sorted(glossary, key=lambda g: g.id)),
                         releases=tuple(sorted(releases, key=lambda r: r.date)))


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
    rule_pos = lambda r: Pos(r.file, r.line)  # noqa: E731 - the id is on the rule's first line
    problems = _duplicates(rules, lambda r: r.id, rule_pos, "rule id", "give each rule its own id")
    seen_numbers: dict[tuple[str, str], Rule] = {}
    for rule in rules:  # a number names one rule per release (702.78 was Retrace, is Conspire)
        first = seen_numbers.setdefault((rule.number, rule.release), rule)
        if first is not rule:
            problems.append(Problem(rule.file, rule.line, 1, f"duplicate rule number '{rule.number}' in the release "
                                    f"{rule.release} (also at {first.file}:{first.line})",
                                    "one rule per number: merge the files or correct the number"))
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


def _moves_cross(rules: list[Rule]) -> list[Problem]:
    """Each `moved_from` names a text or subrule of another rule, and each text moved to one place."""
    units = {u.id: rule for rule in rules for u in ((rule.text,) if rule.text else ()) + tuple(
        s.unit for s in rule.subrules + rule.former_subrules)}
    problems = []
    claimed: dict[str, Move] = {}
    for rule in rules:
        for move in rule.moves:
            owner = units.get(move.previous)
            if owner is None:
                problems.append(Problem(move.pos.file, move.pos.line, 1, f"moved_from: no rule has the text '{move.previous}'",
                                        did_you_mean(move.previous, units) or
                                        "name a unit as RULE-ID.text or RULE-ID.SUBRULE-KEY of a rule of rules/comprehensive/"))
            elif owner is rule:
                problems.append(Problem(move.pos.file, move.pos.line, 1,
                                        f"moved_from: '{move.previous}' is a text of the same rule",
                                        "a subrule that changed its letter is recorded in 'letters', not 'moved_from'"))
            elif move.previous in claimed:
                first = claimed[move.previous]
                problems.append(Problem(move.pos.file, move.pos.line, 1,
                                        f"moved_from: '{move.previous}' is continued twice ({first.unit} at "
                                        f"{first.pos.file}:{first.pos.line}, and {move.unit})",
                                        "a text moves to one place: keep one of the two"))
            else:
                claimed[move.previous] = move
    return problems


def _releases_cross(rules: list[Rule], glossary: list[GlossaryEntry], releases: list[RulesRelease]) -> list[Problem]:
    """Each imported release cited by a text or a history has its release file; in each
    release a number names one rule and a rule has one number."""
    problems: list[Problem] = []
    known = {r.date for r in releases}
    owner: dict[tuple[str, str], Rule] = {}
    cited: dict[str, Pos] = {}
    for rule in rules:
        mine: dict[str, str] = {}
        for entry in rule.history:
            for rel in entry.releases:
                cited.setdefault(rel, Pos(rule.file, rule.line))
                if rel in mine and mine[rel] != entry.number:
                    problems.append(Problem(rule.file, rule.line, 1, f"rule {rule.id} has two numbers in the release {rel}: "
                                            f"{mine[rel]} and {entry.number}", "keep the release in one history entry"))
                mine[rel] = entry.number
                other = owner.setdefault((rel, entry.number), rule)
                if other is not rule:
                    problems.append(Problem(rule.file, rule.line, 1, f"{entry.number} is both {other.id} ({other.file}) and "
                                            f"{rule.id} in the release {rel}",
                                            "one rule per number and release: correct one history entry"))
        for unit in rule.units:
            for v in unit.variants.get(SOURCE_LANGUAGE, ()):
                for rel in v.releases:
                    cited.setdefault(rel, v.pos)
    for entry in glossary:
        for unit in entry.units:
            for v in unit.variants.get(SOURCE_LANGUAGE, ()):
                for rel in v.releases:
                    cited.setdefault(rel, v.pos)
    for rel, pos in sorted(cited.items()):
        if rel not in known:
            problems.append(Problem(pos.file, pos.line, 1, f"the release {rel} is cited but rules/releases/{rel}.yaml is missing",
                                    f"import the release again (rulekb import cr FILE) or remove {rel} from the texts"))
    return problems


DATA_FOLDERS = ("rules", "translations")


# Reading the whole Comprehensive Rules (~175 rule and glossary files, 1.8 MB of YAML) takes most
# of a second on one core. From PARALLEL_BYTES of such files on, `load_knowledge_base` forks a child
# process that parses and schema-checks a part of them (CHILD_SHARE of all bytes) and sends back
# what they hold, pickled, while this process reads and checks the other files. Each file's
# contents and problems take the file's place, so the knowledge base and the problems are those
# of a read on one core; where the child fails (or cannot be forked, or other threads run), this
# process reads its files too. `rulekb check …` (rulekb.early) starts that child before the rest
# of the command is imported (`read_early`): it then reads EARLY_SHARE of the bytes.
PARALLEL_BYTES = 400_000
CHILD_SHARE = 0.5
EARLY_SHARE = 0.6
CHECKED_APART = ("rules/comprehensive/", "rules/glossary/")  # files checked one by one, apart


def load_knowledge_base(root: Path) -> KnowledgeBase:
    """load + validate: the whole project tree under `root` into a KnowledgeBase (or DataError)."""
    started = _take_early(root)
    if started is not None:
        paths, theirs, child = started
    else:
        paths = [path for folder in DATA_FOLDERS for path in yaml_files(root, folder)]
        theirs = _child_share(root, paths, CHILD_SHARE)
        child = _read_in_child(root, theirs) if theirs else None
    with gc_paused():
        done: dict[Path, Read] = {}
        ctx = _file_context(root, done) if theirs else None
        for path in paths:
            if path not in theirs and path not in done:
                done[path] = _read(path, root, ctx)
        read = None
        if child is not None:
            try:
                read = child.result()
            except forking.ChildFailed:
                pass
        if read is None:  # no child, or it failed: its files are read here
            read = {path: _read(path, root, ctx) for path in theirs}
        done.update(read)
        problems: list[Problem] = []
        items: list[SourceFile | Checked] = []
        for path in paths:  # in the order of load_files
            found, item = done[path]
            problems.extend(found)
            if item is not None:
                items.append(item)
        if problems:  # as load_files: the parse problems alone
            raise DataError(problems)
        return _build(items, root)


_early: list[tuple[int, Path, list[Path], frozenset[Path], forking.Forked]] = []


def read_early(root: Path) -> None:
    """Fork the child that reads its part of the files under `root` now, ahead of the command
    that will load the knowledge base of `root` (`load_knowledge_base` takes its work up; at the
    process's end it is ended, if nothing took it up)."""
    root = root.resolve()
    if not (root / "rules").is_dir():
        return
    paths = [path for folder in DATA_FOLDERS for path in yaml_files(root, folder)]
    theirs = _child_share(root, paths, EARLY_SHARE)
    child = _read_in_child(root, theirs) if theirs else None
    if child is not None:
        import atexit
        _early.append((os.getpid(), root, paths, theirs, child))
        atexit.register(_end_early)


def _take_early(root: Path) -> tuple[list[Path], frozenset[Path], forking.Forked] | None:
    for entry in _early:
        pid, early_root, paths, theirs, child = entry
        if pid == os.getpid() and early_root == root:
            _early.remove(entry)
            return paths, theirs, child
    return None


def _end_early() -> None:
    while _early:
        pid, _root, _paths, _theirs, child = _early.pop()
        if pid == os.getpid():
            child.cancel()


Read = tuple[list[Problem], "SourceFile | Checked | None"]  # a file's parse problems, and what was read


def _checked_apart(root: Path, path: Path) -> bool:
    return path.relative_to(root).as_posix().startswith(CHECKED_APART)


def _child_share(root: Path, paths: list[Path], share: float) -> frozenset[Path]:
    """The files a child process reads: rule and glossary files up to `share` of all bytes,
    when there are enough and this process can fork."""
    if not forking.can_fork():
        return frozenset()
    sizes = {p: p.stat().st_size for p in paths}
    candidates = [p for p in paths if _checked_apart(root, p)]
    if sum(sizes[p] for p in candidates) < PARALLEL_BYTES:
        return frozenset()
    budget = share * sum(sizes.values())
    chosen: list[Path] = []
    for path in candidates:
        if sizes[path] <= budget:
            budget -= sizes[path]
            chosen.append(path)
    return frozenset(chosen)


def _file_context(root: Path, done: dict[Path, Read]) -> Context | None:
    """What a rule or glossary file is checked against: the languages and sources (parsed into
    `done`); None when they do not parse (`_build` reports why)."""
    context = []
    for rel in (LANGUAGES_FILE, SOURCES_FILE):
        path = root / rel
        parsed, problems = parse_file(path, root) if path.is_file() else (None, [])
        done[path] = (problems, parsed)
        if parsed is None:
            return None
        context.append(parsed)
    languages, _ = languages_from(context[0])
    sources, _ = sources_from(context[1])
    return Context(tuple(lang.code for lang in languages), frozenset(sources))


def _read(path: Path, root: Path, ctx: Context | None) -> Read:
    """Parse a file; given a `ctx`, schema-check a rule or glossary file too (a Checked; the
    other files, and all without a `ctx`, are checked by `_build`)."""
    parsed, problems = parse_file(path, root)
    if parsed is None or ctx is None:
        return problems, parsed
    if parsed.path.startswith("rules/comprehensive/"):
        rules, found = rules_from(parsed, ctx)
        return problems, Checked(parsed.path, rules=tuple(rules), problems=tuple(found))
    if parsed.path.startswith("rules/glossary/"):
        entries, found = glossary_from(parsed, ctx)
        return problems, Checked(parsed.path, glossary=tuple(entries), problems=tuple(found))
    return problems, parsed


def _read_in_child(root: Path, paths: frozenset[Path]) -> forking.Forked | None:
    """Fork the child that reads `paths` (None when this process cannot fork)."""
    def read() -> dict[Path, Read]:
        gc.disable()   # the child ends when it has sent its result
        ctx = _file_context(root, {})
        return {path: _read(path, root, ctx) for path in paths}
    return forking.fork(read)
