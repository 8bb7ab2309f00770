"""report.text: the terminal report against its golden file; a rule's many missing texts fold
into one line."""

from __future__ import annotations

from dataclasses import replace

from qa_report import checked, golden
from rulekb.models import Finding, Severity
from rulekb.report import render
from rulekb.report.text import plural, to_text


def test_golden():
    kb, result = checked()
    golden("report.txt", render(result, kb, "text"))


def test_three_missing_texts_of_a_rule_are_one_line():
    kb, result = checked()
    rule = kb.rule("retrace")
    missing = tuple(Finding("coverage.missing", Severity.WARNING, "fr", unit.id, unit.pos.file, unit.pos.line,
                            f"{unit.label} has no French text", "translate it") for unit in rule.units[1:])
    text = to_text(replace(result, findings=missing), kb)
    labels = ", ".join(unit.label for unit in rule.units[1:])
    assert (f"warning [coverage.missing] retrace.* (fr): 702.78 Retrace: 3 texts have no French text: {labels}"
            in text)
    assert "has no French text" not in text   # not one line each


def test_two_missing_texts_stay_apart():
    kb, result = checked()
    units = kb.rule("retrace").units[1:3]
    missing = tuple(Finding("coverage.missing", Severity.WARNING, "fr", unit.id, unit.pos.file, unit.pos.line,
                            f"{unit.label} has no French text", "translate it") for unit in units)
    text = to_text(replace(result, findings=missing), kb)
    assert all(f"{unit.label} has no French text" in text for unit in units) and "texts have no" not in text


def test_plural():
    assert [plural(1, "error"), plural(2, "error"), plural(0, "warning"), plural(2, "class")] == \
        ["1 error", "2 errors", "0 warnings", "2 classes"]
