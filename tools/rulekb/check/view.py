"""Pipeline stage 4 of 6 (load -> validate -> link -> check -> render -> report): a `CheckResult`
arranged for reading, the data both later stages show it from.

The report stage (the QA reports) and the render stage (each language's translation-status
page) read the same arrangement, so it lives here, below both, and imports nothing of either:

- `Index`            unit id -> unit, owning rule or ruling, knowledge-base order; language names;
                     the group (rule id, or ``rulings:<mechanic>``) of a finding and its title;
- `Counts`/`counts`  findings per severity;
- `grouped_missing`  a rule's many missing texts (3 or more) as one block;
- `by_group`         findings by rule, then by text, in knowledge-base order;
- `row_key`, `has_text`, `translated_rows`: rows of the coverage matrix;
- `Chart`/`chart`    the geometry of the coverage chart (stacked bars per rule and language),
                     which the templates ``qa/chart.svg.j2`` draw as inline SVG.

Pure functions of their inputs, no text markup: escaping is the templates' (autoescape).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Sequence

from ..models import SOURCE_LANGUAGE, Finding, KnowledgeBase, Language, Rule, Ruling, Severity, Speaker, Unit
from .coverage import Cell, Coverage, Row

__all__ = ["SEVERITIES", "GROUPED", "RULINGS", "Index", "Entry", "entry", "Group", "groups", "Words", "rule_title", "Counts", "counts", "grouped_missing", "by_group",
           "row_key", "has_text", "localised", "translated_rows", "COLORS", "Chart", "ChartRow", "Lane", "Bar", "LegendItem",
           "chart"]

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
RULINGS = "rulings:"   # the group of the rulings of one mechanic: "rulings:<mechanic>"


@dataclass(frozen=True)
class Index:
    """Unit id -> unit and owner, language code -> names, for reading findings (`Index.of`)."""

    kb: KnowledgeBase
    units: Mapping[str, Unit]
    order: Mapping[str, int]            # unit id -> its place in kb.units()
    languages: Mapping[str, Language]   # code -> language

    @classmethod
    def of(cls, kb: KnowledgeBase) -> Index:
        found = kb.units()
        units = {unit.id: unit for unit in found}
        order = {unit.id: i for i, unit in enumerate(found)}
        return cls(kb, MappingProxyType(units), MappingProxyType(order), MappingProxyType({lang.code: lang for lang in kb.languages}))

    def rule_of(self, entry: str) -> Rule | None:
        """The rule that holds the unit `entry` (`KnowledgeBase.owner`), or None."""
        owner = self.kb.owner(entry)
        return owner if isinstance(owner, Rule) else None

    def ruling_of(self, entry: str) -> Ruling | None:
        """The ruling that is the unit `entry` (`KnowledgeBase.owner`), or None."""
        owner = self.kb.owner(entry)
        return owner if isinstance(owner, Ruling) else None

    def name(self, code: str) -> str:
        """The English name of a language ("German"), or its code when unknown."""
        lang = self.languages.get(code)
        return lang.english_name if lang else code

    def endonym(self, code: str) -> str:
        """The language's own name ("Deutsch"), or its code when unknown."""
        lang = self.languages.get(code)
        return lang.name if lang else code

    def group(self, entry: str) -> str:
        """The rule id, or 'rulings:<mechanic>', a finding's entry belongs to ('?' for neither)."""
        owner = self.kb.owner(entry)
        if isinstance(owner, Rule):
            return owner.id
        if isinstance(owner, Ruling):
            return RULINGS + (owner.mechanic or "")
        return "?"

    def group_title(self, group: str, lang: str = SOURCE_LANGUAGE) -> str:
        """"702.78 Retrace", "Rulings: 702.78 Retrace" (the title in `lang`, else in English)."""
        if group.startswith(RULINGS):
            mechanic = group[len(RULINGS):]
            rule = self.kb.rule(mechanic)
            return f"Rulings: {rule_title(rule, lang) if rule else mechanic}"
        rule = self.kb.rule(group)
        return rule_title(rule, lang) if rule else group

    def label(self, entry: str) -> str:
        """The unit's label (702.78a), or the entry itself when it is not a unit."""
        unit = self.units.get(entry)
        return unit.label if unit else entry

    def position(self, entry: str) -> int:
        """The entry's place in knowledge-base order (entries that are not units last)."""
        return self.order.get(entry, len(self.order))


def rule_title(rule: Rule, lang: str = SOURCE_LANGUAGE) -> str:
    """"702.78 Retrace": the number and the title in `lang` (else the English one)."""
    title = None
    if rule.title is not None:
        title = rule.title.text(lang) or rule.title.text(SOURCE_LANGUAGE)
    return f"{rule.number} {title.text}" if title else rule.number


def localised(findings: Iterable[Finding], speaker: Speaker | None) -> tuple[Finding, ...]:
    """The findings with their message and fix in the speaker's language (unchanged without one)."""
    if speaker is None:
        return tuple(findings)
    out = []
    for f in findings:
        message, suggestion = f.localised(speaker)
        out.append(dataclasses.replace(f, message=message, suggestion=suggestion))
    return tuple(out)


@dataclass(frozen=True)
class Counts:
    errors: int
    warnings: int
    infos: int


def counts(findings: Iterable[Finding]) -> Counts:
    tally = {s: 0 for s in SEVERITIES}
    for f in findings:
        tally[f.severity] += 1
    return Counts(tally[Severity.ERROR], tally[Severity.WARNING], tally[Severity.INFO])


# The missing-text findings that are folded per rule, with the words of the text report's block.
GROUPED = MappingProxyType({
    "coverage.missing": "have no {lang} text",
    "structure.missing-unit": "are missing in {lang} (other texts of the rule are translated)",
})


def grouped_missing(findings: Sequence[Finding], ix: Index
                    ) -> tuple[list[Finding], dict[tuple[str, str, str], list[Finding]]]:
    """Split the missing-text findings of one rule (3 or more of one code and language) off into
    one block each: (the other findings, {(code, lang, rule id): findings})."""
    by_group: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in findings:
        if f.code in GROUPED and not ix.group(f.entry).startswith(RULINGS):
            by_group[(f.code, f.lang, ix.group(f.entry))].append(f)
    blocks = {k: v for k, v in by_group.items() if len(v) >= 3}
    grouped = {id(f) for v in blocks.values() for f in v}
    return [f for f in findings if id(f) not in grouped], blocks


def by_group(findings: Iterable[Finding], ix: Index) -> list[tuple[str, list[tuple[str, list[Finding]]]]]:
    """[(group, [(entry, findings)])]: groups and entries in knowledge-base order."""
    groups: dict[str, dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
    for f in findings:
        groups[ix.group(f.entry)][f.entry].append(f)
    out = [(group, sorted(entries.items(), key=lambda kv: ix.position(kv[0]))) for group, entries in groups.items()]
    out.sort(key=lambda g: ix.position(g[1][0][0]))
    return out


@dataclass(frozen=True)
class Entry:
    """The findings of one text in one language, with what a reader needs beside them: the
    unit's label and place, its English and its text in the language (None: there is none)."""
    id: str
    label: str
    file: str
    line: int
    is_unit: bool               # False: a finding about something that is not a unit
    english: str | None
    text: str | None            # the text in `lang` (the English again on the English page)
    lang: str
    findings: tuple[Finding, ...]


def entry(ix: Index, entry_id: str, lang: str, findings: Sequence[Finding]) -> Entry:
    unit = ix.units.get(entry_id)
    english = unit.text(SOURCE_LANGUAGE) if unit else None
    variant = unit.text(lang) if unit else None
    return Entry(entry_id, ix.label(entry_id), findings[0].file, findings[0].line, unit is not None,
                 english.text if english else None, variant.text if variant else None, lang, tuple(findings))


@dataclass(frozen=True)
class Group:
    """The findings of one rule (or of the rulings of one mechanic) in one language, by text."""
    key: str                    # the rule id, or "rulings:<mechanic>"
    title: str                  # in the language, else in English
    entries: tuple[Entry, ...]


def groups(findings: Iterable[Finding], ix: Index, lang: str) -> list[Group]:
    """`by_group` with each text's `Entry` and each group's title in `lang`."""
    return [Group(key, ix.group_title(key, lang), tuple(entry(ix, e, lang, items) for e, items in entries))
            for key, entries in by_group(findings, ix)]


@dataclass(frozen=True)
class Words:
    """The words beside the findings of one language's page, made once per page by `Words.of`
    with that page's gettext (the report's: English)."""
    source: str                         # the source language's code
    source_name: str                    # its own name ("English")
    lang_name: str                      # the page language's own name ("Deutsch")
    fix: str
    no_english: str
    not_translated: str
    severity: Mapping[str, str]         # Severity value -> its word

    @classmethod
    def of(cls, ix: Index, lang: str, _: Callable[[str], str]) -> Words:
        return cls(SOURCE_LANGUAGE, ix.endonym(SOURCE_LANGUAGE), ix.endonym(lang), _("fix"), _("no English text"),
                   _("not translated"), MappingProxyType({s.value: _(s.value) for s in SEVERITIES}))


def row_key(row: Row) -> str:
    """The group of a coverage row: the rule id, or 'rulings:<mechanic>'."""
    return row.id if row.kind == "rule" else RULINGS + row.id


def has_text(cell: Cell) -> bool:
    """Whether a language has any text (up to date or stale) in a row of the coverage."""
    return bool(cell.translated or cell.stale)


def translated_rows(coverage: Coverage) -> Coverage:
    """The coverage of the rows that some target language has a text in (the status page's
    chart; the rows nobody has translated yet, most of an imported release, are listed apart)."""
    targets = [lang for lang in coverage.languages if lang != SOURCE_LANGUAGE]
    rows = tuple(row for row in coverage.rows if any(has_text(row.cells[lang]) for lang in targets))
    return Coverage(coverage.languages, rows, coverage.totals)


# ------------------------------------------------------------------ the coverage chart


COLORS = MappingProxyType({"translated": "#2e7d32", "stale": "#f9a825", "missing": "#c62828"})
_PARTS = ("translated", "stale", "missing")
_LABEL_W, _BAR_W, _BAR_H, _GAP, _LANG_W = 230, 300, 14, 3, 28   # bars as tall as the 12 px labels


@dataclass(frozen=True)
class LegendItem:
    x: int
    color: str
    label: str          # "up to date", "stale", "missing"


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    color: str
    title: str          # "de: 3 of 4 translated"


@dataclass(frozen=True)
class Lane:
    """One language's stacked bar in a row."""
    lang: str
    y: int              # top of the bar
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class ChartRow:
    label: str
    y: int              # top of the row
    lanes: tuple[Lane, ...]


@dataclass(frozen=True)
class Chart:
    """Per coverage row one stacked bar (translated / stale / missing) per language, and a
    legend; coordinates in pixels. Drawn by the template ``qa/chart.svg.j2``."""
    width: int
    height: int
    legend: tuple[LegendItem, ...]
    rows: tuple[ChartRow, ...]
    label_x: int        # x of the language codes
    bar_x: int          # x where the bars start
    bar_height: int


_PART_WORDS = {"translated": "up to date", "stale": "stale", "missing": "missing"}


def chart(coverage: Coverage, titles: Mapping[str, str], languages: Sequence[str] | None = None,
          _: Callable[[str], str] = str) -> Chart:
    """The chart of `coverage`; `titles` maps a row's key (`row_key`) to its label; `_` translates
    its words (the legend, each bar's title)."""
    langs = tuple(languages or coverage.languages)
    row_h = len(langs) * (_BAR_H + _GAP) + 10
    bar_x = _LABEL_W + _LANG_W
    legend = tuple(LegendItem(bar_x + 110 * i, COLORS[name], _(_PART_WORDS[name])) for i, name in enumerate(_PARTS))
    rows = []
    y = 26
    for row in coverage.rows:
        lanes = []
        for i, lang in enumerate(langs):
            cell = row.cells[lang]
            bars = []
            x: float = bar_x
            for name in _PARTS:
                n = getattr(cell, name)
                if not n or not cell.total:
                    continue
                width = _BAR_W * n / cell.total
                bars.append(Bar(x, width, COLORS[name], _("{lang}: {n} of {total} {part}").format(
                    lang=lang, n=n, total=cell.total, part=_(_PART_WORDS[name]))))
                x += width
            lanes.append(Lane(lang, y + i * (_BAR_H + _GAP), tuple(bars)))
        rows.append(ChartRow(titles.get(row_key(row), row.id), y, tuple(lanes)))
        y += row_h
    return Chart(bar_x + _BAR_W + 10, 30 + row_h * len(coverage.rows), legend, tuple(rows), _LABEL_W, bar_x, _BAR_H)
