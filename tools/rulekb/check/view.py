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
- `KeywordWords`/`keyword_words`: the keyword rules' official names and reminder texts as figures
                     ("Official name: 180 of 252 keyword rules") in the reader's language;
- `Chart`/`chart`    the geometry of the coverage chart (stacked bars per rule and language),
                     which the templates ``qa/chart.svg.j2`` draw as inline SVG.

Pure functions of their inputs, no text markup: escaping is the templates' (autoescape).
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Sequence

from ..models import M_, SOURCE_LANGUAGE, Finding, KnowledgeBase, Language, Message, Rule, Ruling, Severity, Speaker, Unit
from .coverage import Cell, Coverage, KeywordCell, Row

__all__ = ["SEVERITIES", "GROUPED", "RULINGS", "Index", "Entry", "entry", "Group", "groups", "Words", "rule_title", "Counts", "counts", "grouped_missing", "by_group",
           "row_key", "has_text", "localised", "localised_finding", "label_message", "plural", "say", "count_words",
           "translated_rows", "KeywordWords", "keyword_words", "COLORS", "Chart", "ChartRow", "Lane", "Bar", "LegendItem",
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
    labels: frozenset[str] = frozenset()   # every unit's (English) label

    @classmethod
    def of(cls, kb: KnowledgeBase) -> Index:
        found = kb.units()
        units = {unit.id: unit for unit in found}
        order = {unit.id: i for i, unit in enumerate(found)}
        return cls(kb, MappingProxyType(units), MappingProxyType(order), MappingProxyType({lang.code: lang for lang in kb.languages}),
                   frozenset(unit.label for unit in found))

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

    def group_title(self, group: str, lang: str = SOURCE_LANGUAGE, speaker: Speaker | None = None) -> str:
        """"702.78 Retrace", "Rulings: 702.78 Retrace" (the title in `lang`, else in English; the
        words in the speaker's language: "Entscheidungen: 702.78 Zurückverfolgen")."""
        if group.startswith(RULINGS):
            mechanic = group[len(RULINGS):]
            if not mechanic:
                return M_("Rulings of cards").render(speaker)
            rule = self.kb.rule(mechanic)
            return M_("Rulings: {title}", title=rule_title(rule, lang) if rule else mechanic).render(speaker)
        rule = self.kb.rule(group)
        return rule_title(rule, lang) if rule else group

    def label(self, entry: str, speaker: Speaker | None = None) -> str:
        """The unit's label (702.78a, "702.78 note 1"; "702.78 Anmerkung 1" for a German speaker), or
        the entry itself when it is not a unit."""
        unit = self.units.get(entry)
        if unit is None:
            return entry
        if speaker is not None:
            ruling = self.ruling_of(entry)
            if ruling is not None and ruling.cards:   # its id is no name (issue 32.4): its card and date
                return M_("ruling of {date} on {card}", date=ruling.date,
                          card=self.card_name(ruling.cards[0], speaker.lang)).render(speaker)
        return label_message(unit.label).render(speaker) if speaker is not None else unit.label

    def card_name(self, card_id: str, lang: str) -> str:
        """A card's name in `lang`, else its English name, else its id (a card not in the knowledge base)."""
        card = self.kb.card(card_id)
        if card is None:
            return card_id
        return card.names.get(lang) or card.names.get(SOURCE_LANGUAGE) or card_id

    def position(self, entry: str) -> int:
        """The entry's place in knowledge-base order (entries that are not units last)."""
        return self.order.get(entry, len(self.order))


def rule_title(rule: Rule, lang: str = SOURCE_LANGUAGE) -> str:
    """"702.78 Retrace": the number and the title in `lang` (else the English one)."""
    title = None
    if rule.title is not None:
        title = rule.title.text(lang) or rule.title.text(SOURCE_LANGUAGE)
    return f"{rule.number} {title.text}" if title else rule.number


# How the validate stage labels units (rulekb.validate, validate_cards): "702.78 summary",
# "702.78 note 1", "ruling explore-reveal", "glossary mana term"; a subrule's label is its number.
_LABEL_FORMS = (
    (re.compile(r"(?P<number>\S+) title"), "{number} title"),
    (re.compile(r"(?P<number>\S+) summary"), "{number} summary"),
    (re.compile(r"(?P<number>\S+) text"), "{number} text"),
    (re.compile(r"(?P<number>\S+) note (?P<n>\S+)"), "{number} note {n}"),
    (re.compile(r"ruling (?P<id>\S+)"), "ruling {id}"),
    (re.compile(r"glossary (?P<id>\S+) term"), "glossary {id} term"),
    (re.compile(r"glossary (?P<id>\S+) definition"), "glossary {id} definition"),
)
# the same as msgids, for extraction (the table above holds them as data)
_LABEL_MESSAGES = (M_("{number} title"), M_("{number} summary"), M_("{number} text"), M_("{number} note {n}"),
                   M_("ruling {id}"), M_("glossary {id} term"), M_("glossary {id} definition"))


def label_message(label: str) -> Message:
    """A unit's label as a `Message`, so that it reads in the reader's language ("702.78 note 1" ->
    "702.78 Anmerkung 1", "702.78 note 1" -> "702.78 remarque 1"); rendered without a speaker it is
    the label again. A subrule's label (its number) has no words."""
    for pattern, template in _LABEL_FORMS:
        m = pattern.fullmatch(label)
        if m:
            return M_(template, **m.groupdict())
    return Message("{label}", (("label", label),))


# the fields of the check messages that hold unit labels: one label, or several joined by ", "
_LABEL_FIELDS = frozenset({"label", "other", "first"})
_LABEL_LIST_FIELDS = frozenset({"labels", "units", "where"})


_RULING_LABEL = re.compile(r"ruling (?P<id>\S+)")


def _label(label: str, ix: Index, lang: str) -> Message:
    """A unit's label in a message, as `label_message`; a ruling's by its card and date in `lang`
    ("ruling of 2018-01-19 on Brazen Buccaneers"), not by its id, which is no name (issue 32.4)."""
    m = _RULING_LABEL.fullmatch(label)
    ruling = ix.kb.ruling(m.group("id")) if m else None
    if ruling is not None and ruling.cards:
        return M_("ruling of {date} on {card}", date=ruling.date, card=ix.card_name(ruling.cards[0], lang))
    return label_message(label)


def _with_labels(value: object, ix: Index, lang: str) -> object:
    """A message argument with the unit labels in it as label `Message`s (nested messages too)."""
    labels = ix.labels
    if isinstance(value, Message):
        args = []
        for key, arg in value.args:
            if isinstance(arg, str) and key in _LABEL_FIELDS and arg in labels:
                arg = _label(arg, ix, lang)
            elif isinstance(arg, str) and key in _LABEL_LIST_FIELDS and arg:
                parts = arg.split(", ")
                if all(part in labels for part in parts):
                    # "{l0}, {l1}": no msgid (gettext gives it back as it is), each label rendered
                    arg = Message(", ".join(f"{{l{i}}}" for i in range(len(parts))),
                                  tuple((f"l{i}", _label(part, ix, lang)) for i, part in enumerate(parts)))
            else:
                arg = _with_labels(arg, ix, lang)
            args.append((key, arg))
        return dataclasses.replace(value, args=tuple(args))
    if isinstance(value, tuple):
        return tuple(_with_labels(v, ix, lang) for v in value)
    return value


def localised_finding(f: Finding, speaker: Speaker | None, ix: Index | None = None) -> tuple[str, str]:
    """(message, suggestion) of a finding in the speaker's language, its unit labels too (English
    without a speaker: the finding's own message and suggestion)."""
    if speaker is None or ix is None:
        return f.localised(speaker)
    message = _with_labels(f.msg, ix, speaker.lang).render(speaker) if f.msg is not None else f.message  # type: ignore[union-attr]
    fix = _with_labels(f.fix, ix, speaker.lang).render(speaker) if f.fix is not None else f.suggestion  # type: ignore[union-attr]
    return message, fix


def localised(findings: Iterable[Finding], speaker: Speaker | None, ix: Index | None = None) -> tuple[Finding, ...]:
    """The findings with their message and fix in the speaker's language (unchanged without one);
    with the index, the unit labels in them too."""
    if speaker is None:
        return tuple(findings)
    out = []
    for f in findings:
        message, suggestion = localised_finding(f, speaker, ix)
        out.append(dataclasses.replace(f, message=message, suggestion=suggestion))
    return tuple(out)


def plural(speaker: Speaker | None, singular: str, plural_: str, n: int, /) -> str:
    """ngettext of the speaker (English without one), formatted with n."""
    if speaker is None:
        return (singular if n == 1 else plural_).format(n=n)
    return speaker.ngettext(singular, plural_, n).format(n=n)


def say(speaker: Speaker | None, text: str, /, **values: object) -> str:
    """gettext of the speaker (English without one), formatted with `values`."""
    return (speaker._(text) if speaker is not None else text).format(**values)


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


def count_words(speaker: Speaker | None, c: Counts, waived: int | None = None) -> str:
    """"1 error, 2 warnings, 0 info" (", 3 waived"), each count with its plural form in the
    speaker's language ("0 Fehler, 1 Warnung, 0 Hinweise"; "0 erreur, 2 avertissements, 1 info")."""
    text = say(speaker, "{errors}, {warnings}, {infos}",
               errors=plural(speaker, "{n} error", "{n} errors", c.errors),
               warnings=plural(speaker, "{n} warning", "{n} warnings", c.warnings),
               infos=plural(speaker, "{n} info", "{n} info", c.infos))
    if waived is None:
        return text
    return say(speaker, "{counts}; {waived}", counts=text, waived=plural(speaker, "{n} waived", "{n} waived", waived))


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


def groups(findings: Iterable[Finding], ix: Index, lang: str, speaker: Speaker | None = None) -> list[Group]:
    """`by_group` with each text's `Entry` and each group's title in `lang` (their words and the
    texts' labels in the speaker's language)."""
    return [Group(key, ix.group_title(key, lang, speaker),
                  tuple(dataclasses.replace(entry(ix, e, lang, items), label=ix.label(e, speaker)) for e, items in entries))
            for key, entries in by_group(findings, ix)]


@dataclass(frozen=True)
class Words:
    """The words beside the findings of one language's page, made once per page by `Words.of`
    in that page's language (the report's: English without a speaker)."""
    source: str                         # the source language's code
    source_name: str                    # its name ("English"; "Englisch" on a German page)
    lang_name: str                      # the page language's own name ("Deutsch")
    fix: str                            # "fix: {suggestion}" in the language ("correction : {suggestion}")
    no_english: str
    not_translated: str
    severity: Mapping[str, str]         # Severity value -> its word

    @classmethod
    def of(cls, ix: Index, lang: str, speaker: Speaker | None = None) -> Words:
        def _(message: str) -> str:
            return speaker._(message) if speaker is not None else message

        if speaker is not None:
            source_name = _capitalised(speaker.language_name(SOURCE_LANGUAGE))
            lang_name = _capitalised(speaker.language_name(lang))
        else:
            source_name, lang_name = ix.endonym(SOURCE_LANGUAGE), ix.endonym(lang)
        return cls(SOURCE_LANGUAGE, source_name, lang_name, _("fix: {suggestion}"), _("no English text"),
                   _("not translated"), MappingProxyType({s.value: _(s.value) for s in SEVERITIES}))


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class KeywordWords:
    """The keyword figures of one language as a reader reads them: "Official name: 180 of 252
    keyword rules", "Official reminder text: 150 of 252 keyword rules", and the lead of the list of
    the rules no card of the language prints ("72 keyword rules whose name no German card prints:")."""
    named: str
    reminder: str
    unprinted: str


def keyword_words(speaker: Speaker | None, cell: KeywordCell, language: str,
                  number: Callable[[int], str] = str) -> KeywordWords:
    """The words of `cell` (the keyword rules of one language, named `language` in the reader's
    language) in the speaker's language (English without one); `number` formats a count in the
    reader's locale (`UI.number`)."""
    def ngettext(singular: str, plural_: str, n: int) -> str:
        return speaker.ngettext(singular, plural_, n) if speaker is not None else (singular if n == 1 else plural_)

    total = number(cell.total)
    return KeywordWords(
        ngettext("Official name: {count} of {total} keyword rule", "Official name: {count} of {total} keyword rules",
                 cell.total).format(count=number(cell.named), total=total),
        ngettext("Official reminder text: {count} of {total} keyword rule",
                 "Official reminder text: {count} of {total} keyword rules", cell.total).format(count=number(cell.reminder),
                                                                                              total=total),
        ngettext("{n} keyword rule whose name no card in {language} prints:",
                 "{n} keyword rules whose name no card in {language} prints:", len(cell.unprinted)).format(
                     n=number(len(cell.unprinted)), language=language))


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
# a phone's width (390 px, less the page's margins) holds the whole chart at its natural size: each
# row's label on a line of its own above its bars, so that the 12 px labels are never scaled down
# and nothing scrolls sideways
_LANG_W, _BAR_W, _BAR_H, _GAP, _LABEL_H = 28, 300, 14, 3, 18   # bars as tall as the 12 px labels
_LABEL_CHARS = 48   # what fits the chart's width at 12 px; a longer label is cut, whole in its tooltip


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
    label: str          # as shown (cut to the chart's width)
    title: str          # the whole label
    y: int              # the baseline of the label (the row's first line)
    lanes: tuple[Lane, ...]


@dataclass(frozen=True)
class Chart:
    """Per coverage row its label and one stacked bar (translated / stale / missing) per language
    below it, and a legend; coordinates in pixels. Drawn by the template ``qa/chart.svg.j2``."""
    width: int
    height: int
    legend: tuple[LegendItem, ...]
    rows: tuple[ChartRow, ...]
    label_x: int        # x of the language codes
    bar_x: int          # x where the bars start
    bar_height: int


_PART_WORDS = {"translated": "up to date", "stale": "stale", "missing": "missing"}


def _cut(label: str) -> str:
    return label if len(label) <= _LABEL_CHARS else label[:_LABEL_CHARS - 1].rstrip() + "…"


def chart(coverage: Coverage, titles: Mapping[str, str], languages: Sequence[str] | None = None,
          _: Callable[[str], str] = str) -> Chart:
    """The chart of `coverage`; `titles` maps a row's key (`row_key`) to its label; `_` translates
    its words (the legend, each bar's title)."""
    langs = tuple(languages or coverage.languages)
    row_h = _LABEL_H + len(langs) * (_BAR_H + _GAP) + 8
    bar_x = _LANG_W
    legend = tuple(LegendItem(110 * i, COLORS[name], _(_PART_WORDS[name])) for i, name in enumerate(_PARTS))
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
            lanes.append(Lane(lang, y + _LABEL_H + i * (_BAR_H + _GAP), tuple(bars)))
        label = titles.get(row_key(row), row.id)
        rows.append(ChartRow(_cut(label), label, y + 13, tuple(lanes)))
        y += row_h
    return Chart(bar_x + _BAR_W + 10, y, legend, tuple(rows), 0, bar_x, _BAR_H)
