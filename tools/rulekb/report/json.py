"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the JSON report
(`rulekb check --format json`, ``reports/qa.json``).

``{"profile", "languages", "findings", "waived", "coverage", "summary"}``: the findings with the
top of the report first (errors, then warnings, then info; within each, report order), each with
its stable code, severity, lang, entry, file, line, the English message and suggestion (for
tools), the codes merged into it (``also``) and, when the report speaks another language
(``rulekb check --lang de``), ``localised``: its message and suggestion in that language (a
waived one also with the waiver's reason, file and line). The coverage holds the figures per
chapter, section and rule with each rule's untranslated units. Written by ``json.dumps(indent=2, sort_keys=True,
ensure_ascii=False)``: stable keys, the same bytes for the same result.
"""

from __future__ import annotations

import json

from ..check import CheckResult
from ..check.view import Index, localised_finding
from ..models import Finding, KnowledgeBase, Severity, Speaker

__all__ = ["finding_dict", "report_data", "to_json"]


def finding_dict(f: Finding, speaker: Speaker | None = None, lang: str | None = None,
                 ix: Index | None = None) -> dict[str, object]:
    """A finding as the JSON report writes it (with the index, the localised message names units
    in the reader's language too)."""
    out: dict[str, object] = {"code": f.code, "severity": f.severity.value, "lang": f.lang, "entry": f.entry,
                              "file": f.file, "line": f.line, "message": f.message, "suggestion": f.suggestion}
    if f.also:
        out["also"] = list(f.also)
    if speaker is not None and lang is not None:
        message, suggestion = localised_finding(f, speaker, ix)
        out["localised"] = {"lang": lang, "message": message, "suggestion": suggestion}
    return out


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def report_data(result: CheckResult, speaker: Speaker | None = None, lang: str | None = None,
                ix: Index | None = None) -> dict[str, object]:
    """What the JSON report holds, as plain data."""
    top_first = sorted(result.findings, key=lambda f: _RANK[f.severity])   # stable: report order within
    return {
        "profile": result.profile,
        "languages": list(result.langs),
        "findings": [finding_dict(f, speaker, lang, ix) for f in top_first],
        "waived": [dict(finding_dict(w.finding, speaker, lang, ix), reason=w.reason, waiver_file=w.waiver_file,
                        waiver_line=w.waiver_line) for w in result.waived],
        "coverage": result.coverage.as_dict(),
        "summary": result.summary,
    }


def to_json(result: CheckResult, kb: KnowledgeBase | None = None, speaker: Speaker | None = None,
            lang: str | None = None) -> str:
    ix = Index.of(kb) if kb is not None and speaker is not None else None
    return json.dumps(report_data(result, speaker, lang, ix), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
