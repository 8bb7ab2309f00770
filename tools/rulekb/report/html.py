"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the standalone
HTML report (`rulekb check --format html`, ``reports/qa.html``).

One page, no remote assets: the verdict, the coverage chart (inline SVG) and table, the keyword
rules' official names and reminder texts per language (figures, the rules no card prints folded), then per
language every finding by rule and text with the English beside the translation, then the
waived findings. The shape is the template ``templates/reports/qa.html.j2`` (with the pieces
``qa/parts.html.j2``, ``qa/chart.svg.j2`` and ``qa/style.css.j2`` that the site's status pages
share); Jinja2's autoescape escapes every text of the data, which comes from `check.view`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..check import CheckResult
from ..check.view import (Counts, Group, Index, Words, chart, count_words, counts, groups, keyword_words, localised,
                          row_key)
from ..models import KnowledgeBase, Speaker
from ..render.templating import template

__all__ = ["to_html"]

TEMPLATE = "reports/qa.html.j2"


@dataclass(frozen=True)
class LanguageSection:
    """One language's part of the report: its counts, its findings by rule and text, its words."""
    code: str
    name: str
    counts: Counts
    count_words: str            # "0 errors, 1 warning, 2 info" in the report's language
    groups: tuple[Group, ...]
    words: Words


def _english(text: str) -> str:
    """The report's words without a speaker: English, the msgids."""
    return text


def to_html(result: CheckResult, kb: KnowledgeBase, speaker: Speaker | None = None) -> str:
    ix = Index.of(kb)
    say = speaker._ if speaker is not None else _english
    titles = {row_key(row): ix.group_title(row_key(row), speaker=speaker) for row in result.coverage.rows}
    sections = []
    for lang in result.langs:
        findings = localised(result.for_lang(lang), speaker, ix)
        c = counts(findings)
        sections.append(LanguageSection(lang, ix.endonym(lang), c, count_words(speaker, c), tuple(groups(findings, ix, lang, speaker)),
                                        Words.of(ix, lang, speaker)))
    coverage = result.coverage
    number = getattr(speaker, "number", str)   # a UI formats counts in its locale
    keywords = [(ix.endonym(lang), keyword_words(speaker, cell, speaker.language_name(lang) if speaker is not None
                                                 else ix.name(lang), number), cell.unprinted)
                for lang, cell in sorted(coverage.keywords.items())]
    return template(TEMPLATE).render(
        _=say, report_lang=getattr(speaker, "lang", "en"), result=result,
        total_words=count_words(speaker, counts(result.findings), len(result.waived)), chart=chart(coverage, titles, None, say),
        percent=speaker.percent if speaker is not None else "{}%".format,
        names=[ix.endonym(lang) for lang in coverage.languages],
        rows=[(titles[row_key(row)], [row.cells[lang] for lang in coverage.languages]) for row in coverage.rows],
        totals=[coverage.totals[lang] for lang in coverage.languages], keywords=keywords,
        languages=sections, waived=[(dataclasses.replace(w, finding=localised((w.finding,), speaker, ix)[0]),
                                     ix.label(w.finding.entry, speaker)) for w in result.waived])
