"""check.view: what the reports and the status pages read of a check result — owners of units,
counts, grouping in knowledge-base order, folding of missing texts, the chart's geometry."""

from __future__ import annotations

from conftest import DATA
from rulekb.check.driver import run_checks
from rulekb.check.coverage import Cell, Coverage, Row
from rulekb.check.view import (Index, Words, by_group, chart, counts, entry, grouped_missing, groups, row_key,
                               translated_rows)
from rulekb.models import Finding, Severity
from rulekb.knowledge import load_knowledge_base

import pytest

KB = DATA / "qa" / "kb"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base(KB)


@pytest.fixture(scope="module")
def ix(kb):
    return Index.of(kb)


def finding(entry: str, lang: str = "fr", code: str = "coverage.missing", severity=Severity.WARNING) -> Finding:
    return Finding(code, severity, lang, entry, "f.yaml", 1, "m", "s")


def test_owners_and_titles(ix):
    assert ix.group("retrace.a") == "retrace" and ix.group("retrace-sample-ruling") == "rulings:retrace"
    assert ix.group("nothing") == "?"
    assert ix.group_title("retrace") == "702.78 Retrace" and ix.group_title("retrace", "fr") == "702.78 Pistage"
    assert ix.group_title("rulings:retrace") == "Rulings: 702.78 Retrace"
    assert ix.label("retrace.a") == "702.78a" and ix.label("nothing") == "nothing"
    assert (ix.name("de"), ix.endonym("de"), ix.endonym("xx")) == ("German", "Deutsch", "xx")


def test_counts():
    c = counts([finding("a", severity=Severity.ERROR), finding("b"), finding("c"), finding("d", severity=Severity.INFO)])
    assert (c.errors, c.warnings, c.infos) == (1, 2, 1)


def test_groups_follow_the_knowledge_base(kb, ix):
    units = [u.id for u in kb.units()]
    shuffled = [finding(u) for u in reversed(units)] + [finding(units[1], code="other")]
    grouped = by_group(shuffled, ix)
    assert [g for g, _ in grouped] == ["retrace", "rulings:retrace"]
    entries = [e for _, es in grouped for e, _ in es]
    assert entries == units
    assert [f.code for f in dict(grouped[0][1])[units[1]]] == ["coverage.missing", "other"]


def test_three_missing_texts_of_a_rule_fold(kb, ix):
    units = [u.id for u in kb.rule("retrace").units]
    single, blocks = grouped_missing([finding(u) for u in units[:3]] + [finding(units[3], code="x")], ix)
    assert [f.entry for f in single] == [units[3]]
    assert list(blocks) == [("coverage.missing", "fr", "retrace")] and len(blocks[("coverage.missing", "fr", "retrace")]) == 3
    single, blocks = grouped_missing([finding(u) for u in units[:2]], ix)
    assert len(single) == 2 and not blocks


def test_entry_has_the_english_beside_the_text(ix):
    e = entry(ix, "retrace.a", "fr", [finding("retrace.a")])
    assert e.label == "702.78a" and e.is_unit and e.english.startswith("Retrace appears")
    assert e.text.startswith("La pistage")
    missing = entry(ix, "retrace.n1", "fr", [finding("retrace.n1")])
    assert missing.text is None and missing.english
    other = entry(ix, "not-a-unit", "fr", [finding("not-a-unit")])
    assert not other.is_unit and other.english is None
    assert [g.title for g in groups([finding("retrace.a")], ix, "fr")] == ["702.78 Pistage"]


class _Upper:
    """A speaker whose catalog writes every message in capitals."""
    lang = "de"

    def _(self, message):
        return message.upper()

    def ngettext(self, singular, plural, n):
        return (singular if n == 1 else plural).upper()

    def language_name(self, code):
        return {"en": "englisch", "de": "deutsch"}[code]

    def percent(self, value):
        return f"{value} %"


def test_words_come_from_the_speaker_given(ix):
    w = Words.of(ix, "de", _Upper())
    assert (w.source_name, w.lang_name, w.fix, w.severity["error"]) == ("Englisch", "Deutsch", "FIX: {SUGGESTION}", "ERROR")
    english = Words.of(ix, "de")
    assert (english.source_name, english.lang_name, english.fix) == ("English", "Deutsch", "fix: {suggestion}")


def test_chart_words_come_from_the_gettext_given():
    cells = {"en": Cell(4, 4, 0, 0), "de": Cell(4, 1, 1, 2)}
    coverage = Coverage(("en", "de"), (Row("r", "rule", "1", "R", cells),), cells)
    c = chart(coverage, {"r": "1 R"}, None, lambda s: {"up to date": "aktuell", "stale": "veraltet"}.get(s, s))
    assert [item.label for item in c.legend][:2] == ["aktuell", "veraltet"]
    assert c.bar_height >= 12   # bars as tall as the 12 px labels


def test_chart_bars_fill_each_lane():
    cells = {"en": Cell(4, 4, 0, 0), "de": Cell(4, 1, 1, 2)}
    coverage = Coverage(("en", "de"), (Row("r", "rule", "1", "R", cells), Row("m", "rulings", "", "M", cells)),
                        cells)
    c = chart(coverage, {"r": "1 R", "rulings:m": "Rulings: M"})
    assert [row.label for row in c.rows] == ["1 R", "Rulings: M"]
    de = c.rows[0].lanes[1]
    assert [b.title for b in de.bars] == ["de: 1 of 4 up to date", "de: 1 of 4 stale", "de: 2 of 4 missing"]
    assert de.bars[0].x == c.bar_x and sum(b.width for b in de.bars) == pytest.approx(300)
    assert all(b.x == a.x + a.width for a, b in zip(de.bars, de.bars[1:]))
    lane = c.rows[0].lanes[1].y - c.rows[0].lanes[0].y
    assert c.rows[0].lanes[0].y > c.rows[0].y        # the bars below their row's label
    assert c.rows[1].y - c.rows[0].y == 18 + 2 * lane + 8   # the label's line, two lanes and a gap
    assert c.height == 26 + 2 * (c.rows[1].y - c.rows[0].y)


def test_the_chart_fits_a_phone_and_cuts_a_long_label_keeping_it_whole_in_its_tooltip():
    cells = {"en": Cell(4, 4, 0, 0), "de": Cell(4, 1, 1, 2)}
    coverage = Coverage(("en", "de"), (Row("r", "rule", "1", "R", cells),), cells)
    long = "Rulings: 702.190 " + "A very long title of a rule " * 3
    c = chart(coverage, {"r": long})
    assert c.width <= 358   # a 390 px phone less the page's margins: the 12 px labels never scaled down
    assert c.rows[0].title == long and c.rows[0].label.endswith("…") and len(c.rows[0].label) < len(long)
    assert len(c.rows[0].label) * 6.5 <= c.width   # ~6 px per character of a 12 px sans-serif


def test_translated_rows_keep_the_rows_with_a_text():
    none = {"en": Cell(2, 2, 0, 0), "de": Cell(2, 0, 0, 2)}
    some = {"en": Cell(2, 2, 0, 0), "de": Cell(2, 0, 1, 1)}
    coverage = Coverage(("en", "de"), (Row("a", "rule", "1", "A", none), Row("b", "rule", "2", "B", some)), some)
    assert [row_key(r) for r in translated_rows(coverage).rows] == ["b"]


def test_real_result_groups_every_finding(kb, ix):
    result = run_checks(kb, KB)
    for lang in result.langs:
        findings = result.for_lang(lang)
        assert sum(len(e.findings) for g in groups(findings, ix, lang) for e in g.entries) == len(findings)


def test_the_keyword_figures_speak_the_reader_s_language_with_its_numbers():
    """Issue 29.4: the counts as the locale writes them (Babel), the plural form of the language."""
    from conftest import ROOT
    from rulekb.check.coverage import KeywordCell, KeywordRule
    from rulekb.check.view import keyword_words
    from rulekb.i18n import load_uis
    from rulekb.models import Language
    uis = load_uis(ROOT, (Language("de", "Deutsch", "German", "de_DE"), Language("fr", "Français", "French", "fr_FR")))
    cell = KeywordCell(1234, 1001, 2, (KeywordRule("activate", "701.2", "Activate"),))
    de = keyword_words(uis["de"], cell, uis["de"].language_name("de"), uis["de"].number)
    assert de.named == "Offizieller Name: 1.001 von 1.234 Schlüsselwortregeln"
    assert de.reminder == "Offizieller Erinnerungstext: 2 von 1.234 Schlüsselwortregeln"
    assert de.unprinted == "1 Schlüsselwortregel, deren Namen keine Karte auf Deutsch druckt:"
    fr = keyword_words(uis["fr"], cell, uis["fr"].language_name("fr"), uis["fr"].number)
    assert fr.named == "Nom officiel\u00a0: 1\u202f001 sur 1\u202f234 règles de mot-clé"
    assert keyword_words(None, cell, "German").unprinted == "1 keyword rule whose name no card in German prints:"


def test_a_finding_names_a_ruling_by_its_card_and_date_not_its_id(kb, ix):
    """Issue 32.4: the status pages said "Entscheidung explore-reveal-top-card"; a ruling a
    message cites is its card (in the reader's language) and its date, whatever the language."""
    from conftest import ROOT
    from rulekb.i18n import load_uis
    from rulekb.check.view import localised_finding
    from rulekb.models import M_
    f = Finding("meaning.dropped", Severity.WARNING, "de", "retrace-sample-ruling", "f.yaml", 1, "", "",
                msg=M_("{label} drops a sentence", label="ruling retrace-sample-ruling"))
    card = kb.card(kb.ruling("retrace-sample-ruling").cards[0])
    uis = load_uis(ROOT, kb.languages)
    for lang in ("en", "de"):
        message, _ = localised_finding(f, uis[lang], ix)
        assert "retrace-sample-ruling" not in message, message
        assert "2018-01-19" in message and (card.names.get(lang) or card.names["en"]) in message, message
    assert localised_finding(f, uis["de"], ix)[0].startswith("Entscheidung vom 2018-01-19 zu ")
