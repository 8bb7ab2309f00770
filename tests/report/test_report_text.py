"""report.text: the terminal report against its golden file; the backlog as coverage figures
(per chapter, section and rule), and the report in the translator's language."""

from __future__ import annotations

from qa_report import checked, golden
from conftest import ROOT
from rulekb.i18n import load_ui
from rulekb.report import render
from rulekb.report.text import to_text


def test_golden():
    kb, result = checked()
    golden("report.txt", render(result, kb, "text"))


def test_the_backlog_is_figures_per_chapter_section_and_rule():
    kb, result = checked()
    text = to_text(result, kb)
    assert "chapter 7" in text and "section 702" in text and "702.78 Retrace" in text
    assert "coverage.missing" not in text


def _ui(kb, code):
    return load_ui(ROOT, next(lang for lang in kb.languages if lang.code == code))


def test_a_german_report_speaks_german():
    kb, result = checked()
    text = render(result, kb, "text", _ui(kb, "de"))
    assert "== Befunde je Familie und Sprache ==" in text and "Fehler" in text
    german = [line for line in text.splitlines() if "(de): " in line]
    assert german and not any("the text in" in line for line in german)


def test_a_french_report_speaks_french():
    kb, result = checked()
    text = render(result, kb, "text", _ui(kb, "fr"))
    assert "== Couverture (textes à jour / périmés / manquants) ==" in text
    french = [line for line in text.splitlines() if "(fr)\u00a0: " in line]   # a no-break space before the colon
    assert french and any("le texte en" in line or "traduit" in line for line in french)
    assert not any("(fr): " in line for line in text.splitlines())
