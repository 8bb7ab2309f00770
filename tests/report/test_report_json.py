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
    assert all(set(f) == keys for f in data["findings"])
    assert [(f["code"], f["lang"], f["entry"]) for f in data["findings"]] == \
        [(f.code, f.lang, f.entry) for f in result.findings]
    stale = next(f for f in data["findings"] if f["code"] == "staleness.stale")
    assert stale["entry"] == "retrace.a" and stale["lang"] == "fr" and stale["severity"] == "error"
    assert data["coverage"]["languages"]["fr"] == {"total": 5, "translated": 1, "stale": 1, "missing": 3, "percent": 20}
    assert data["waived"][0]["reason"].startswith("The test release")
    assert data["waived"][0]["waiver_file"] == "translations/qa-waivers.yaml" and data["waived"][0]["waiver_line"] == 2


def test_text_is_kept_as_unicode():
    kb, result = checked()
    text = to_json(result, kb)
    assert "Länderkarte" in text and "\\u00e4" not in text
