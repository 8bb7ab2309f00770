"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the JSON report
(`rulekb check --format json`, ``reports/qa.json``).

``{"profile", "languages", "findings", "waived", "coverage", "summary"}``: each finding with
code, severity, lang, entry, file, line, message and suggestion (a waived one also with the
waiver's reason, file and line). Written by ``json.dumps(indent=2, sort_keys=True,
ensure_ascii=False)``: stable keys, the same bytes for the same result.
"""

from __future__ import annotations

import json

from ..check import CheckResult
from ..models import Finding, KnowledgeBase

__all__ = ["finding_dict", "report_data", "to_json"]


def finding_dict(f: Finding) -> dict[str, object]:
    """A finding as the JSON report writes it."""
    return {"code": f.code, "severity": f.severity.value, "lang": f.lang, "entry": f.entry, "file": f.file,
            "line": f.line, "message": f.message, "suggestion": f.suggestion}


def report_data(result: CheckResult) -> dict[str, object]:
    """What the JSON report holds, as plain data."""
    return {
        "profile": result.profile,
        "languages": list(result.langs),
        "findings": [finding_dict(f) for f in result.findings],
        "waived": [dict(finding_dict(w.finding), reason=w.reason, waiver_file=w.waiver_file,
                        waiver_line=w.waiver_line) for w in result.waived],
        "coverage": result.coverage.as_dict(),
        "summary": result.summary,
    }


def to_json(result: CheckResult, kb: KnowledgeBase | None = None) -> str:
    return json.dumps(report_data(result), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
