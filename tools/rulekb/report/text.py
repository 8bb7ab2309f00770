"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the terminal
report (`rulekb check`, ``reports/qa.txt``).

Compiler-style lines (``file:line: severity [code] entry (lang): message`` and a ``fix:`` line)
grouped by language, a rule's many missing texts folded into one line, then the waived
findings, the coverage matrix, the findings per check family and language, and the verdict.
"""

from __future__ import annotations

from typing import Sequence

from ..check import CheckResult
from ..check.coverage import Coverage
from ..check.view import GROUPED, Index, counts, grouped_missing, row_key
from ..models import KnowledgeBase

__all__ = ["to_text"]


def plural(n: int, word: str) -> str:
    """"1 error", "2 errors"; a word ending in s takes "es"."""
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("s") else "s"))


def coverage_table(coverage: Coverage, langs: Sequence[str], ix: Index) -> list[str]:
    """The coverage matrix as aligned columns: per rule (and rulings) up to date/stale/missing."""
    head = ["rule / rulings"] + [f"{lang} ok/stale/missing" for lang in langs]
    rows = []
    for row in coverage.rows:
        cells = (row.cells[lang] for lang in langs)
        rows.append([ix.group_title(row_key(row))] + [f"{c.translated}/{c.stale}/{c.missing}" for c in cells])
    rows.append(["total"] + [f"{c.translated}/{c.stale}/{c.missing} ({c.percent}%)" for c in
                             (coverage.totals[lang] for lang in langs)])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(head)] + [line(r) for r in rows]


def to_text(result: CheckResult, kb: KnowledgeBase) -> str:
    ix = Index.of(kb)
    out = [f"rulekb check — profile '{result.profile}', languages {', '.join(result.langs)}"]
    for lang in result.langs:
        findings = result.for_lang(lang)
        c = counts(findings)
        out.append("")
        out.append(f"== {ix.name(lang)} ({lang}): {plural(c.errors, 'error')}, "
                   f"{plural(c.warnings, 'warning')}, {c.infos} info ==")
        if not findings:
            out.append("no findings")
            continue
        single, blocks = grouped_missing(findings, ix)
        for (code, block_lang, group), items in sorted(blocks.items(),
                                                       key=lambda kv: (ix.order.get(kv[1][0].entry, 0), kv[0])):
            labels = ", ".join(ix.label(f.entry) for f in items)
            first = items[0]
            what = GROUPED[code].format(lang=ix.name(block_lang))
            out.append(f"{first.file}:{first.line}: {first.severity.value} [{code}] {group}.* ({block_lang}): "
                       f"{ix.group_title(group)}: {len(items)} texts {what}: {labels}")
            out.append("    fix: translate them (`rulekb check --format json` gives each one's English and translated_from)")
        for f in single:
            out.append(f"{f.file}:{f.line}: {f.severity.value} [{f.code}] {f.entry} ({f.lang}): {f.message}")
            if f.suggestion:
                out.append(f"    fix: {f.suggestion}")
    if result.waived:
        out.append("")
        out.append(f"== waived ({len(result.waived)}) ==")
        for w in result.waived:
            f = w.finding
            out.append(f"{f.file}:{f.line}: waived [{f.code}] {f.entry} ({f.lang}): {f.message}")
            out.append(f"    reason ({w.waiver_file}:{w.waiver_line}): {w.reason}")
    out.append("")
    out.append("== coverage (texts up to date / stale / missing) ==")
    out.extend(coverage_table(result.coverage, result.coverage.languages, ix))
    out.append("")
    out.append("== findings per family and language ==")
    by_family = result.summary.get("by_family", {})
    assert isinstance(by_family, dict)
    families = sorted(by_family)
    if families:
        width = max(len(f) for f in families + ["family"])
        out.append("family".ljust(width) + "".join(f"{lang:>6}" for lang in result.langs))
        for family in families:
            out.append(family.ljust(width) + "".join(f"{by_family[family].get(lang, 0):>6}" for lang in result.langs))
    else:
        out.append("none")
    total = counts(result.findings)
    verdict = "FAILED" if result.exit_code else "passed"
    out.append("")
    out.append(f"{verdict}: {plural(total.errors, 'error')}, {plural(total.warnings, 'warning')}, "
               f"{total.infos} info, {len(result.waived)} waived (exit code {result.exit_code}; "
               f"errors fail the check)")
    return "\n".join(out) + "\n"
