"""report.json: the JSON report against its golden file, and the shape CI scripts read."""

from __future__ import annotations

import json

from qa_report import checked, golden
from rulekb.report import render, to_json


def test_golden():
    kb, result = checked()
    golden("report.json", render(result, kb, "json"))


def test_shape():
    kb, result = checked()
    data = json.loads(to_json(result, kb))
    assert set(data) == {"findings", "waived", "coverage", "summary", "profile", "languages"}
    keys = {"code", "severity", "lang", "entry", "file", "line", "message", "suggestion"}
    assert all(keys <= set(f) <= keys | {"also"} for f in data["findings"])
    # the top of the report first: errors, then warnings, then info, each in report order
    ranks = {"error": 0, "warning": 1, "info": 2}
    assert [(f["code"], f["lang"], f["entry"]) for f in data["findings"]] == \
        [(f.code, f.lang, f.entry) for f in sorted(result.findings, key=lambda f: ranks[f.severity.value])]
    assert [f["severity"] for f in data["findings"]] == sorted((f["severity"] for f in data["findings"]), key=ranks.get)
    stale = next(f for f in data["findings"] if f["code"] == "staleness.stale")
    assert stale["entry"] == "retrace.a" and stale["lang"] == "fr" and stale["severity"] == "warning"
    assert data["coverage"]["languages"]["fr"] == {"total": 5, "translated": 1, "stale": 1, "missing": 3, "percent": 20}
    assert [p["key"] for p in data["coverage"]["chapters"]] == ["7", "rulings"]
    assert data["coverage"]["rules"][0]["untranslated"]["fr"] == ["retrace.n1", "retrace.n2"]
    assert data["waived"][0]["reason"].startswith("The test release")
    assert data["waived"][0]["waiver_file"] == "translations/qa-waivers.yaml" and data["waived"][0]["waiver_line"] == 2


def test_a_localised_report_keeps_the_english_and_the_codes():
    from conftest import ROOT
    from rulekb.i18n import load_ui
    kb, result = checked()
    ui = load_ui(ROOT, next(lang for lang in kb.languages if lang.code == "de"))
    data = json.loads(to_json(result, kb, ui, "de"))
    english = json.loads(to_json(result, kb))
    assert [(f["code"], f["message"]) for f in data["findings"]] == [(f["code"], f["message"]) for f in english["findings"]]
    german = [f for f in data["findings"] if f["lang"] == "de"]
    assert all(f["localised"]["lang"] == "de" for f in data["findings"])
    assert any("auf Deutsch" in f["localised"]["message"] for f in german)


def test_text_is_kept_as_unicode():
    kb, result = checked()
    text = to_json(result, kb)
    assert "Länderkarte" in text and "\\u00e4" not in text
