"""Check family `coverage` (stage: check): which units have a text in which language.

The backlog is a figure, not findings: `compute_coverage` counts, per rule (and the rulings of
each mechanic), per section (702), per chapter (7) and per language, the texts that are up to
date, stale and missing, and lists each rule's untranslated units; the reports and the status
pages show them as a table and a chart. Only the texts of the newest imported rules release count
(a subrule a later release dropped is history, shown in the versions section, not backlog).

The keywords are a figure too: `keyword_coverage` counts, per language the official file
(``translations/official.yaml``, `rulekb.official`) covers, the keyword rules in force (701.x
keyword actions and 702.x keyword abilities of the newest release) that have their official name
in that language and those that have an official reminder text, and lists the rules no card of
that language prints (by name).

A finding only where something is wrong: `coverage.partial`, a rule some of whose texts a
language has while others are missing, so that its reader sees the rule half in one language
and half in English — one finding per rule and language, naming every missing text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

from ..models import M_, SOURCE_LANGUAGE, Rule, Severity, Unit, english_hash
from ..official import Official, keyword_rule_name
from .base import Check, Context, Issue


@dataclass(frozen=True)
class Cell:
    total: int
    translated: int
    stale: int
    missing: int

    @property
    def percent(self) -> int:
        """Share of up-to-date texts, rounded down (100 only when complete)."""
        return (self.translated * 100) // self.total if self.total else 100

    def as_dict(self) -> dict[str, int]:
        return {"total": self.total, "translated": self.translated, "stale": self.stale,
                "missing": self.missing, "percent": self.percent}


def _sum(cells: Sequence[Cell]) -> Cell:
    return Cell(*(sum(getattr(c, f) for c in cells) for f in ("total", "translated", "stale", "missing")))


@dataclass(frozen=True)
class Row:
    id: str           # rule id, or the mechanic of a group of rulings
    kind: str         # "rule" | "rulings"
    number: str       # the rule number ("" for rulings)
    title: str        # the English title (rulings: the mechanic's rule title)
    cells: Mapping[str, Cell]
    untranslated: Mapping[str, tuple[str, ...]] = None  # type: ignore[assignment]  # lang -> unit ids without a text

    def __post_init__(self) -> None:
        if self.untranslated is None:
            object.__setattr__(self, "untranslated", {})

    @property
    def section(self) -> str:
        """The section of a rule ("702" of 702.81); rulings: "rulings"."""
        return self.number.split(".", 1)[0] if self.kind == "rule" and self.number else "rulings"

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "number": self.number, "title": self.title,
                "languages": {lang: cell.as_dict() for lang, cell in self.cells.items()},
                "untranslated": {lang: list(ids) for lang, ids in sorted(self.untranslated.items()) if ids}}


@dataclass(frozen=True)
class Part:
    """The coverage of a section (702) or a chapter (7), or of the rulings: the sum of its rows."""
    key: str
    title: str
    rows: int
    cells: Mapping[str, Cell]

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "title": self.title, "rules": self.rows,
                "languages": {lang: cell.as_dict() for lang, cell in self.cells.items()}}


@dataclass(frozen=True)
class KeywordRule:
    """A keyword rule in force: its rule id, today's number and its English title."""
    id: str
    number: str
    title: str

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "number": self.number, "title": self.title}


@dataclass(frozen=True)
class KeywordCell:
    """The keyword rules in force in one language: how many (`total`), how many have their official
    name (`named`) and how many an official reminder text (`reminder`), and the rules no card of the
    language prints by name (`unprinted`, in rule order)."""
    total: int
    named: int
    reminder: int
    unprinted: tuple[KeywordRule, ...]

    def as_dict(self) -> dict[str, object]:
        return {"total": self.total, "named": self.named, "reminder": self.reminder,
                "unprinted": [k.as_dict() for k in self.unprinted]}


@dataclass(frozen=True)
class Coverage:
    languages: tuple[str, ...]
    rows: tuple[Row, ...]
    totals: Mapping[str, Cell]
    sections: tuple[Part, ...] = ()
    chapters: tuple[Part, ...] = ()
    # per language of the official file: its keyword rules (`keyword_coverage`); none without the file
    keywords: Mapping[str, KeywordCell] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {"languages": {lang: self.totals[lang].as_dict() for lang in self.languages},
                "chapters": [p.as_dict() for p in self.chapters],
                "sections": [p.as_dict() for p in self.sections],
                "rules": [row.as_dict() for row in self.rows],
                "keywords": {lang: cell.as_dict() for lang, cell in sorted(self.keywords.items())}}


def stale_text(ctx: Context, unit: Unit, lang: str) -> bool:
    """Whether the unit's text in `lang` is a translation of another English than today's (the
    English is hashed only for a translation that says what it was made from)."""
    if lang == SOURCE_LANGUAGE:
        return False
    variant = unit.text(lang)
    if variant is None or variant.translated_from is None:
        return False
    digest = ctx.english_hash(unit)
    return digest is not None and variant.translated_from != digest


def _cell(ctx: Context, units: Sequence[Unit], lang: str) -> tuple[Cell, tuple[str, ...]]:
    translated = stale = 0
    missing: list[str] = []
    for unit in units:
        if unit.text(lang) is None:
            missing.append(unit.id)
        elif stale_text(ctx, unit, lang):
            stale += 1
        else:
            translated += 1
    return Cell(len(units), translated, stale, len(missing)), tuple(missing)


def current_units(ctx: Context, units: Sequence[Unit]) -> tuple[Unit, ...]:
    """The units that count: not history (see `Context.is_history`)."""
    return tuple(u for u in units if not ctx.is_history(u))


def _parts(rows: Sequence[Row], langs: Sequence[str], key, titles: Mapping[str, str]) -> tuple[Part, ...]:
    grouped: dict[str, list[Row]] = {}
    for row in rows:
        grouped.setdefault(key(row), []).append(row)
    order = sorted(grouped, key=lambda k: (k == "rulings", k.zfill(4)))
    return tuple(Part(k, titles.get(k, ""), len(grouped[k]), {lang: _sum([r.cells[lang] for r in grouped[k]])
                                                                 for lang in langs}) for k in order)


def _number_key(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


def keyword_rules_in_force(ctx: Context) -> tuple[tuple[Rule, str], ...]:
    """The keyword rules of the newest release with their English names (`official.keyword_rule_name`:
    by today's number, 701.x actions and 702.x abilities, named by their title or by a text that is
    a name, "For Mirrodin!"; not 701.1, a text; a rule of former releases only is history), in rule order."""
    found = [(rule, name) for rule in ctx.kb.rules
             if (name := keyword_rule_name(rule)) is not None and current_units(ctx, rule.units)]
    return tuple(sorted(found, key=lambda found: _number_key(found[0].current_number)))


def keyword_coverage(ctx: Context, official: Official) -> dict[str, KeywordCell]:
    """Per language the official file covers (among the languages texts are translated into): how
    many keyword rules in force have their official name and reminder text in it, and the rules
    no card of that language prints. Nothing without official data."""
    langs = [lang for lang in ctx.targets if lang in official.languages]
    if not langs:
        return {}
    rules = keyword_rules_in_force(ctx)
    out: dict[str, KeywordCell] = {}
    for lang in langs:
        named = reminder = 0
        unprinted: list[KeywordRule] = []
        for rule, english in rules:
            keyword = official.keyword(rule.current_number)
            name = keyword.name(lang) if keyword is not None else None
            if name is None:
                unprinted.append(KeywordRule(rule.id, rule.current_number, english))
                continue
            named += 1
            reminder += name.reminder is not None
        out[lang] = KeywordCell(len(rules), named, reminder, tuple(unprinted))
    return out


def compute_coverage(ctx: Context, official: Official | None = None) -> Coverage:
    """The coverage of the knowledge base's texts, and of the keywords' official names and
    reminder texts when `official` (the official file) is given."""
    kb = ctx.kb
    groups: list[tuple[str, str, str, str, tuple[Unit, ...]]] = []
    for rule in kb.rules:
        units = current_units(ctx, rule.units)
        if not units:
            continue  # a rule of former releases only
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        groups.append((rule.id, "rule", rule.number, title.text if title else "", units))
    by_mechanic: dict[str, list[Unit]] = {}   # (one pass over the rulings: there are ~25,000 of them)
    for ruling in kb.rulings:
        by_mechanic.setdefault(ruling.mechanic or "", []).append(ruling.unit)
    for mechanic, ruling_units in sorted(by_mechanic.items()):   # "": the rulings of cards only
        rule = kb.rule(mechanic)
        title = rule.title.text(SOURCE_LANGUAGE) if rule and rule.title else None
        groups.append((mechanic, "rulings", "", title.text if title else mechanic, tuple(ruling_units)))
    rows = []
    for gid, kind, number, title, units in groups:
        cells, untranslated = {}, {}
        for lang in ctx.languages:
            cells[lang], untranslated[lang] = _cell(ctx, units, lang)
        rows.append(Row(gid, kind, number, title, cells, untranslated))
    totals = {lang: _sum([row.cells[lang] for row in rows]) for lang in ctx.languages}
    chapter_titles = dict(kb.releases[-1].chapters) if kb.releases else {}
    chapter_titles["rulings"] = "Rulings"
    section_titles = {r.number: (r.title.text(SOURCE_LANGUAGE).text if r.title and r.title.text(SOURCE_LANGUAGE) else "")
                      for r in kb.rules if "." not in r.number}
    section_titles["rulings"] = "Rulings"
    sections = _parts(rows, ctx.languages, lambda r: r.section, section_titles)
    chapters = _parts(rows, ctx.languages, lambda r: r.section[:1] if r.section != "rulings" else "rulings",
                      chapter_titles)
    keywords = keyword_coverage(ctx, official) if official is not None else {}
    return Coverage(ctx.languages, tuple(rows), totals, sections, chapters, keywords)


def partial(ctx: Context) -> Iterator[Issue]:
    """A rule that a language has some texts of, and lacks others (once per rule and language)."""
    for rule in ctx.kb.rules:
        units = [u for u in current_units(ctx, rule.units) if u.text(SOURCE_LANGUAGE) is not None]
        for lang in ctx.targets:
            have = [u for u in units if lang in u.variants]
            lacking = [u for u in units if lang not in u.variants]
            if not have or not lacking:
                continue
            labels = ", ".join(u.label for u in lacking)
            first = lacking[0]
            yield Issue.on_unit(first, lang, M_("{number}: {have} of its {total} texts are in {lang}, these are "
                                                "not, so its reader sees them in English: {labels}",
                                                number=rule.number, have=len(have), total=len(units),
                                                lang=ctx.lang(lang), labels=labels),
                                M_("translate them and give each the translated_from of its English (the first, "
                                   "{first}: {digest}); `rulekb po export {lang_code}` lists them with their English",
                                   first=first.label, digest=english_hash(first.text(SOURCE_LANGUAGE).text),  # type: ignore[union-attr]
                                   lang_code=lang))


CHECKS = (
    Check("coverage.partial", "a rule is translated in part: some of its texts are missing in a language",
          Severity.WARNING, partial),
)
