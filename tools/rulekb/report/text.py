"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the terminal
report (`rulekb check`, ``reports/qa.txt``).

Compiler-style lines (``file:line: severity [code] entry (lang): message`` and a ``fix:`` line)
grouped by language, then the waived findings, the coverage (per chapter, section and rule), the
keyword rules' official names and reminder texts per language (figures, and the rules no card of
the language prints), the findings per check family and language, and the verdict; in the language of the report's speaker
(``rulekb check --lang de`` speaks German), English without one.
"""

from __future__ import annotations

import re

from typing import Sequence

from ..check import CheckResult
from ..check.coverage import Coverage
from ..check.view import Index, count_words, counts, keyword_words, localised, localised_finding, row_key
from ..models import KnowledgeBase, Severity, Speaker

__all__ = ["to_text"]


def _english(text: str) -> str:
    return text


def coverage_table(coverage: Coverage, langs: Sequence[str], ix: Index, speaker: Speaker | None = None) -> list[str]:
    """The coverage as aligned columns, up to date/stale/missing per language: per chapter, per
    section, then per rule (and the rulings of each mechanic)."""
    def _(message: str) -> str:
        return speaker._(message) if speaker is not None else message

    def percent(value: int) -> str:
        return speaker.percent(value) if speaker is not None else f"{value}%"

    head = [_("chapter / section / rule")] + [_("{lang} ok/stale/missing").format(lang=lang) for lang in langs]
    rows = []
    for part, label in ([(p, _("chapter {key}").format(key=p.key)) for p in coverage.chapters]
                        + [(p, _("section {key}").format(key=p.key)) for p in coverage.sections]):
        title = f"{label} {part.title}".rstrip() if part.key != "rulings" else _("rulings")
        rows.append([title] + [f"{c.translated}/{c.stale}/{c.missing} ({percent(c.percent)})"
                               for c in (part.cells[lang] for lang in langs)])
    for row in coverage.rows:
        cells = (row.cells[lang] for lang in langs)
        rows.append([ix.group_title(row_key(row), speaker=speaker)] + [f"{c.translated}/{c.stale}/{c.missing}" for c in cells])
    rows.append([_("total")] + [f"{c.translated}/{c.stale}/{c.missing} ({percent(c.percent)})" for c in
                                (coverage.totals[lang] for lang in langs)])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(head)] + [line(r) for r in rows]


def keyword_lines(coverage: Coverage, ix: Index, speaker: Speaker | None = None) -> list[str]:
    """Per language of the official file: how many keyword rules in force have their official name
    and reminder text, then the rules no card of the language prints ("701.2 Activate")."""
    def _(message: str) -> str:
        return speaker._(message) if speaker is not None else message

    out = []
    for lang, cell in sorted(coverage.keywords.items()):
        language = speaker.language_name(lang) if speaker is not None else ix.name(lang)
        words = keyword_words(speaker, cell, language)
        out.append(f"{lang}: " + _("{named}; {reminder}").format(named=words.named, reminder=words.reminder))
        if cell.unprinted:
            out.append(f"{lang}: {words.unprinted} " + ", ".join(f"{k.number} {k.title}" for k in cell.unprinted))
    return out


def _unnamed(message: str, entry: str) -> str:
    """A message without the name of its text where it starts with the entry the line names
    already (a pair's "--translation: the text in German …", and the findings merged into it,
    "… Also: --translation: …")."""
    named = re.compile(re.escape(entry) + r"[ \u00a0\u202f]?:[ \u00a0\u202f]*") if entry else None
    if named is None or not named.match(message):
        return message
    return named.sub("", message)


def to_text(result: CheckResult, kb: KnowledgeBase, speaker: Speaker | None = None) -> str:
    ix = Index.of(kb)
    _ = speaker._ if speaker is not None else _english
    sev = {s.value: _(s.value) for s in Severity}
    out = [_("rulekb check — profile '{profile}', languages {langs}").format(profile=result.profile,
                                                                          langs=", ".join(result.langs))]
    for lang in result.langs:
        findings = localised(result.for_lang(lang), speaker, ix)
        c = counts(findings)
        out.append("")
        name = speaker.language_name(lang) if speaker is not None else ix.name(lang)
        out.append(_("== {name} ({lang}): {counts} ==").format(name=name, lang=lang, counts=count_words(speaker, c)))
        if not findings:
            out.append(_("no findings"))
            continue
        for f in findings:
            also = f" (+{', '.join(f.also)})" if f.also else ""
            # "file:line:" stays as compilers write it (editors jump to it); the rest is the language's
            out.append(f"{f.file}:{f.line}: " + _("{severity} [{code}]{also} {entry} ({lang}): {message}").format(
                severity=sev[f.severity.value], code=f.code, also=also, entry=f.entry, lang=f.lang,
                message=_unnamed(f.message, f.entry)))
            if f.suggestion:
                out.append("    " + _("fix: {suggestion}").format(suggestion=f.suggestion))
    if result.waived:
        out.append("")
        out.append(_("== waived ({n}) ==").format(n=len(result.waived)))
        for w in result.waived:
            f = w.finding
            message, _fix = localised_finding(f, speaker, ix)
            out.append(f"{f.file}:{f.line}: " + _("waived [{code}] {entry} ({lang}): {message}").format(
                code=f.code, entry=f.entry, lang=f.lang, message=message))
            out.append("    " + _("reason ({where}): {reason}").format(where=f"{w.waiver_file}:{w.waiver_line}", reason=w.reason))
    if result.coverage.rows:   # (a pair from the command line has no knowledge base, so no coverage)
        out.append("")
        out.append(_("== coverage (texts up to date / stale / missing) =="))
        out.extend(coverage_table(result.coverage, result.coverage.languages, ix, speaker))
    if result.coverage.keywords:
        out.append("")
        out.append(_("== keyword rules (official names and reminder texts on cards) =="))
        out.extend(keyword_lines(result.coverage, ix, speaker))
    out.append("")
    out.append(_("== findings per family and language =="))
    by_family = result.summary.get("by_family", {})
    assert isinstance(by_family, dict)
    families = sorted(by_family)
    if families:
        width = max(len(f) for f in families + [_("family")])
        out.append(_("family").ljust(width) + "".join(f"{lang:>6}" for lang in result.langs))
        for family in families:
            out.append(family.ljust(width) + "".join(f"{by_family[family].get(lang, 0):>6}" for lang in result.langs))
    else:
        out.append(_("none"))
    total = counts(result.findings)
    verdict = _("FAILED") if result.exit_code else _("passed")
    out.append("")
    out.append(_("{verdict}: {counts} (exit code {code}; errors fail the check)").format(
        verdict=verdict, counts=count_words(speaker, total, len(result.waived)), code=result.exit_code))
    return "\n".join(out) + "\n"
