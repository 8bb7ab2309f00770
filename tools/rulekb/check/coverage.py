"""Check family `coverage` (stage: check): which units have a text in which language.

`compute_coverage` builds the matrix rule x language (translated / stale / missing) that the
reports show as a table and a chart; the check `coverage.missing` names each unit of a rule (or
each ruling) that has no text at all in a language. A rule translated only in part is the
`structure` family's business (structure.missing-unit), so that each gap is reported once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping

from ..models import SOURCE_LANGUAGE, Severity
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


@dataclass(frozen=True)
class Row:
    id: str           # rule id, or the mechanic of a group of rulings
    kind: str         # "rule" | "rulings"
    number: str       # the rule number ("" for rulings)
    title: str        # the English title (rulings: the mechanic's rule title)
    cells: Mapping[str, Cell]

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "number": self.number, "title": self.title,
                "languages": {lang: cell.as_dict() for lang, cell in self.cells.items()}}


@dataclass(frozen=True)
class Coverage:
    languages: tuple[str, ...]
    rows: tuple[Row, ...]
    totals: Mapping[str, Cell]

    def as_dict(self) -> dict[str, object]:
        return {"languages": {lang: self.totals[lang].as_dict() for lang in self.languages},
                "rules": [row.as_dict() for row in self.rows]}


def _cell(ctx: Context, units, lang: str) -> Cell:
    translated = stale = missing = 0
    for unit in units:
        variant = unit.text(lang)
        if variant is None:
            missing += 1
        elif lang != SOURCE_LANGUAGE and variant.translated_from is not None and \
                variant.translated_from != ctx.english_hash(unit) and ctx.english_hash(unit) is not None:
            stale += 1
        else:
            translated += 1
    return Cell(len(units), translated, stale, missing)


def compute_coverage(ctx: Context) -> Coverage:
    kb = ctx.kb
    groups: list[tuple[str, str, str, str, tuple]] = []
    for rule in kb.rules:
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        groups.append((rule.id, "rule", rule.number, title.text if title else "", rule.units))
    for mechanic in sorted({r.mechanic or "" for r in kb.rulings}):   # "": the rulings of cards only
        rule = kb.rule(mechanic)
        title = rule.title.text(SOURCE_LANGUAGE) if rule and rule.title else None
        units = tuple(r.unit for r in kb.rulings if (r.mechanic or "") == mechanic)
        groups.append((mechanic, "rulings", "", title.text if title else mechanic, units))
    rows = tuple(Row(gid, kind, number, title, {lang: _cell(ctx, units, lang) for lang in ctx.languages})
                 for gid, kind, number, title, units in groups)
    totals = {}
    for lang in ctx.languages:
        cells = [row.cells[lang] for row in rows]
        totals[lang] = Cell(*(sum(getattr(c, f) for c in cells) for f in ("total", "translated", "stale", "missing")))
    return Coverage(ctx.languages, rows, totals)


def partly_translated(ctx: Context, unit, lang: str) -> bool:
    """Whether the rule of `unit` has a text in `lang` in some other unit (rulings: never)."""
    rule, _ = ctx.owner(unit)
    if rule is None:
        return False
    return ctx.translated_in(rule, lang) - (1 if lang in unit.variants else 0) > 0


def missing(ctx: Context) -> Iterator[Issue]:
    names = {lang: ctx.language_name(lang) for lang in ctx.targets}
    for unit in ctx.units:
        english = unit.text(SOURCE_LANGUAGE)
        if english is None:
            continue  # structure.extra-unit names units without English
        lacking = [lang for lang in ctx.targets
                   if lang not in unit.variants and not partly_translated(ctx, unit, lang)]
        if not lacking:
            continue
        rule, _ = ctx.owner(unit)
        excerpt = f"{english.text[:120]}{'…' if len(english.text) > 120 else ''}"
        digest = ctx.english_hash(unit)
        for lang in lacking:
            name = names[lang]
            whole = f" (nothing of {rule.number} is in {name} yet)" if rule else ""
            yield Issue.on_unit(unit, lang, f"{unit.label} has no {name} text{whole}; English: “{excerpt}”",
                                f"translate it and add a '{lang}:' text to {unit.label} with translated_from: {digest}")


CHECKS = (
    Check("coverage.missing", "a unit has no text in a language", Severity.WARNING, missing, cost=60),
)
