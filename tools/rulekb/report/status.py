"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the
translation-status page of one language for the site, as Markdown with one-line HTML blocks
(moving to the render stage: `render.status`).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from typing import Callable, Mapping, Sequence

from ..check import CheckResult
from ..check.coverage import Cell, Coverage
from ..check.view import (Index as _Index, by_group as _by_group, counts, grouped_missing as _grouped_missing,
                          has_text as _has_text, row_key as _row_key, translated_rows as _translated_rows)
from ..check.view import COLORS
from ..models import SOURCE_LANGUAGE, Finding, KnowledgeBase, Unit

__all__ = ["status_markdown", "md_escape", "coverage_svg"]

def esc(text: str) -> str:
    return html.escape(text, quote=True)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>&~])")


def md_escape(text: str) -> str:
    """Text safe inside Markdown (headings, link texts): Markdown punctuation backslash-escaped."""
    return _MD_SPECIAL.sub(r"\\\1", text)


CSS = (".rulekb-qa table{border-collapse:collapse;margin:.5em 0}"
       ".rulekb-qa th,.rulekb-qa td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}"
       ".rulekb-qa .parallel td{width:50%}"
       ".rulekb-qa .sev{font-weight:bold;text-transform:uppercase;font-size:.8em}"
       ".rulekb-qa .error .sev{color:#c62828}.rulekb-qa .warning .sev{color:#b26a00}.rulekb-qa .info .sev{color:#1565c0}"
       ".rulekb-qa .fix{color:#555}.rulekb-qa .missing-text{color:#777;font-style:italic}"
       ".rulekb-qa svg text{font:12px sans-serif}")


def coverage_svg(coverage: Coverage, titles: Mapping[str, str], languages: Sequence[str] | None = None) -> str:
    """An inline SVG chart: per rule (row) one stacked bar per language, translated / stale /
    missing, with a legend. `titles` maps a row id to its label."""
    langs = tuple(languages or coverage.languages)
    label_w, bar_w, bar_h, gap, lang_w = 230, 300, 12, 3, 28
    row_h = len(langs) * (bar_h + gap) + 10
    height = 30 + row_h * len(coverage.rows)
    width = label_w + lang_w + bar_w + 10
    parts = [f'<svg class="rulekb-qa-chart" xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}"><title>Translation coverage per rule and '
             f'language: up to date, stale, missing</title>']
    x = label_w + lang_w
    for name in ("translated", "stale", "missing"):
        parts.append(f'<rect x="{x}" y="4" width="10" height="10" fill="{COLORS[name]}"/>'
                     f'<text x="{x + 14}" y="13">{esc("up to date" if name == "translated" else name)}</text>')
        x += 95
    y = 26
    for row in coverage.rows:
        key = row.id if row.kind == "rule" else "rulings:" + row.id
        parts.append(f'<text x="0" y="{y + bar_h}">{esc(titles.get(key, row.id))}</text>')
        for i, lang in enumerate(langs):
            cell = row.cells[lang]
            by = y + i * (bar_h + gap)
            parts.append(f'<text x="{label_w}" y="{by + bar_h - 2}">{esc(lang)}</text>')
            bx = label_w + lang_w
            for name in ("translated", "stale", "missing"):
                n = getattr(cell, name)
                if not n or not cell.total:
                    continue
                w = bar_w * n / cell.total
                parts.append(f'<rect x="{bx:.1f}" y="{by}" width="{w:.1f}" height="{bar_h}" fill="{COLORS[name]}">'
                             f'<title>{esc(f"{lang}: {n} of {cell.total} {name}")}</title></rect>')
                bx += w
        y += row_h
    parts.append("</svg>")
    return "".join(parts)


def _parallel(unit: Unit | None, lang: str, ix: _Index, gettext: Callable[[str], str]) -> str:
    """English beside the translation (one column on the English page), on one line."""
    if unit is None:
        return ""
    english = unit.text(SOURCE_LANGUAGE)
    en_cell = (f'<td lang="en">{esc(english.text)}</td>' if english else
               f'<td class="missing-text">{esc(gettext("no English text"))}</td>')
    if lang == SOURCE_LANGUAGE:
        return (f'<table class="parallel"><thead><tr><th>{esc(ix.endonym(SOURCE_LANGUAGE))}</th></tr></thead>'
                f'<tbody><tr>{en_cell}</tr></tbody></table>')
    variant = unit.text(lang)
    tr_cell = (f'<td lang="{esc(lang)}">{esc(variant.text)}</td>' if variant else
               f'<td class="missing-text">{esc(gettext("not translated"))}</td>')
    return (f'<table class="parallel"><thead><tr><th>{esc(ix.endonym(SOURCE_LANGUAGE))}</th>'
            f'<th>{esc(ix.endonym(lang))}</th></tr></thead><tbody><tr>{en_cell}{tr_cell}</tr></tbody></table>')


def _finding_items(findings: Sequence[Finding], gettext: Callable[[str], str]) -> str:
    items = []
    for f in findings:
        items.append(f'<li class="{f.severity.value}"><span class="sev">{esc(gettext(f.severity.value))}</span> '
                     f'<code>{esc(f.code)}</code> {esc(f.message)}'
                     + (f'<br><span class="fix">{esc(gettext("fix"))}: {esc(f.suggestion)}</span>' if f.suggestion else "")
                     + "</li>")
    return f'<ul class="findings">{"".join(items)}</ul>'

# ------------------------------------------------------------------ site page


def _link(ix: _Index, entry: str, prefix: str) -> str:
    """The docs-relative target of a unit: rules/<id>.md#<number>, or cards/<card>.md for a ruling."""
    rule = ix.rule_of.get(entry)
    if rule is not None:
        sub = next((s for s in rule.subrules if s.unit.id == entry), None)
        anchor = f"#{sub.number}" if sub else ""
        return f"{prefix}rules/{rule.id}.md{anchor}"
    ruling = ix.ruling_of.get(entry)
    if ruling is not None and ruling.cards:
        return f"{prefix}cards/{ruling.cards[0]}.md"
    if ruling is not None:
        return f"{prefix}rules/{ruling.mechanic}.md"
    return ""


def _group_link(ix: _Index, group: str, prefix: str) -> str:
    mechanic = group.split(":", 1)[1] if group.startswith("rulings:") else group
    return f"{prefix}rules/{mechanic}.md" if ix.kb.rule(mechanic) else ""


def _untouched_list(rows: Sequence, lang: str, ix: _Index, titles: Mapping[str, str], link_prefix: str,
                    _: Callable[[str], str]) -> list[str]:
    """The rules without any text in `lang`, folded: one link each, not a table row each."""
    if not rows:
        return []
    links = []
    for row in rows:
        key = _row_key(row)
        target = _group_link(ix, key, link_prefix)
        label = esc(titles[key])
        links.append(f'<a href="{esc(target[:-3] + ".html" if target.endswith(".md") else target)}">{label}</a>'
                     if target else label)
    summary = _("Without any text in this language: {n}").format(n=len(rows))
    return [f'<div class="rulekb-qa"><details><summary>{esc(summary)}</summary><p>{", ".join(links)}</p></details></div>', ""]


def _coverage_section(result: CheckResult, lang: str, ix: _Index, link_prefix: str,
                      _: Callable[[str], str]) -> tuple[list[str], set[str]]:
    """The coverage chart (rows with a translation), the table of the rows with a text in this
    language, and the folded list of the others; with the keys (`_row_key`) of those others."""
    titles = {_row_key(row): ix.group_title(_row_key(row), lang) for row in result.coverage.rows}
    out = [f"## {md_escape(_('Coverage'))}", ""]
    chart = _translated_rows(result.coverage)
    if chart.rows:
        out += [f'<div class="rulekb-qa">{coverage_svg(chart, titles)}</div>', ""]
    header = [_("Rule"), _("up to date"), _("stale"), _("missing"), "%"]
    out.append("| " + " | ".join(md_escape(h) for h in header) + " |")
    out.append("|" + "---|" * len(header))
    untouched = []
    for row in result.coverage.rows:
        cell = row.cells[lang]
        if not _has_text(cell) and cell.total:
            untouched.append(row)
            continue
        key = _row_key(row)
        target = _group_link(ix, key, link_prefix)
        name = md_escape(titles[key])
        label = f"[{name}]({target})" if target else name
        out.append(f"| {label} | {cell.translated} | {cell.stale} | {cell.missing} | {cell.percent}% |")
    total = result.coverage.totals[lang]
    out.append(f"| **{md_escape(_('total'))}** | {total.translated} | {total.stale} | {total.missing} | {total.percent}% |")
    out.append("")
    return out + _untouched_list(untouched, lang, ix, titles, link_prefix, _), {_row_key(row) for row in untouched}


def _missing_block(findings: Sequence[Finding], ix: _Index, link_prefix: str, _: Callable[[str], str]) -> str:
    """The missing-text findings of one rule (3 or more, `_grouped_missing`) as one line of links."""
    first = findings[0]
    links = []
    for f in sorted(findings, key=lambda f: ix.order.get(f.entry, len(ix.order))):
        target = _link(ix, f.entry, link_prefix)
        href = target.replace(".md", ".html", 1) if target else ""
        label = esc(ix.label(f.entry))
        links.append(f'<a href="{esc(href)}">{label}</a>' if href else label)
    return (f'<div class="rulekb-qa"><ul class="findings"><li class="{first.severity.value}"><span class="sev">'
            f'{esc(_(first.severity.value))}</span> <code>{esc(first.code)}</code> '
            f'{esc(_("{n} texts").format(n=len(findings)))}: {", ".join(links)}'
            + (f'<br><span class="fix">{esc(_("fix"))}: {esc(first.suggestion)}</span>' if first.suggestion else "")
            + "</li></ul></div>")


def _findings_section(findings: Sequence[Finding], ix: _Index, lang: str, link_prefix: str,
                      _: Callable[[str], str], untouched: set[str] = frozenset()) -> list[str]:
    """The findings by rule and text, the English beside the translation; a rule's many missing
    texts as one line of links, not one block each. The missing texts of the rules without any
    text in the language (`untouched`, listed under the coverage) are not repeated here."""
    out = [f"## {md_escape(_('Findings'))}", ""]
    if not findings:
        return out + [md_escape(_("No findings.")), ""]
    findings = [f for f in findings if not (f.code == "coverage.missing" and ix.group(f.entry) in untouched)]
    single, grouped = _grouped_missing(findings, ix)
    by_rule: dict[str, list[list[Finding]]] = defaultdict(list)
    for (_code, _lang, group), items in sorted(grouped.items()):
        by_rule[group].append(items)
    listed = {g for g, _entries in _by_group(single, ix)}
    for group in by_rule:
        if group not in listed:
            single.append(by_rule[group][0][0])   # gives the rule its place in the order below
    for group, entries in _by_group(single, ix):
        target = _group_link(ix, group, link_prefix)
        title = md_escape(ix.group_title(group, lang))
        out += [f"### [{title}]({target})" if target else f"### {title}", ""]
        for items in by_rule.get(group, ()):
            out += [_missing_block(items, ix, link_prefix, _), ""]
        grouped_ids = {id(f) for items in by_rule.get(group, ()) for f in items}
        for entry, items in entries:
            items = [f for f in items if id(f) not in grouped_ids]
            if not items:
                continue
            target = _link(ix, entry, link_prefix)
            label = md_escape(ix.label(entry))
            out += [f"#### [{label}]({target})" if target else f"#### {label}", ""]
            out += [f'<div class="rulekb-qa">{_parallel(ix.units.get(entry), lang, ix, _)}'
                    f'{_finding_items(items, _)}</div>', ""]
    return out


def status_markdown(result: CheckResult, kb: KnowledgeBase, lang: str, *, link_prefix: str = "",
                    gettext: Callable[[str], str] | None = None) -> str:
    """The translation-status page of one language (Markdown with one-line HTML blocks).

    Links point to the rule pages (``rules/<rule-id>.md#<subrule number>``) and, for rulings, to
    the first card's page (``cards/<card-id>.md``), relative to the docs root; pass `link_prefix`
    (e.g. "../") when the page is not at the docs root. `gettext` translates the page's own words.
    Sized for the whole rules: the chart shows the rules with a translation, the rules without
    any text in the language are one folded list, and a rule's missing texts one line.
    """
    _ = gettext or (lambda s: s)
    ix = _Index.of(kb)
    findings = result.for_lang(lang)
    tally = counts(findings)
    waived = [w for w in result.waived if w.finding.lang == lang]
    out = [f"# {md_escape(_('Translation status'))}: {md_escape(ix.endonym(lang))}", ""]
    errors, warnings = tally.errors, tally.warnings
    out.append(f'<div class="rulekb-qa"><style>{CSS}</style><p>'
               f'{esc(_("Findings"))}: {errors} {esc(_("error") if errors == 1 else _("errors"))}, '
               f'{warnings} {esc(_("warning") if warnings == 1 else _("warnings"))}, {tally.infos} '
               f'{esc(_("info"))}; {len(waived)} {esc(_("waived"))}. {esc(_("Profile"))}: '
               f'<code>{esc(result.profile)}</code>.</p></div>')
    out.append("")
    coverage, untouched = _coverage_section(result, lang, ix, link_prefix, _)
    out += coverage
    out += _findings_section(findings, ix, lang, link_prefix, _, untouched)
    if waived:
        out.append(f"## {md_escape(_('Waived findings'))}")
        out.append("")
        out.append('<div class="rulekb-qa"><ul>' + "".join(
            f"<li><code>{esc(w.finding.code)}</code> {esc(ix.label(w.finding.entry))}: {esc(w.finding.message)}"
            f"<br><em>{esc(_('reason'))}:</em> {esc(w.reason)}</li>" for w in waived) + "</ul></div>")
        out.append("")
    return "\n".join(out)

