"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the JUnit XML
report (`rulekb check --format junit`, ``reports/qa.xml``) for CI.

One test suite per language, one test case per unit (file and line of its text), failing on
its error findings; warnings, infos and waived findings go to the case's ``system-out``. A
language's suite carries its keyword figures as properties (``keyword-rules``,
``keyword-rules-named``, ``keyword-rules-reminder``, ``keyword-rules-unprinted``: the rule numbers
no card of the language prints), for a CI to chart.
Findings about something that is not a unit get a case of their own (none today; kept visible).
"""

from __future__ import annotations

import re
from collections import defaultdict
from xml.etree import ElementTree as ET

from ..check import CheckResult, Waived
from ..check.view import Index, localised, localised_finding, say
from ..models import Finding, KnowledgeBase, Rule, Severity, Speaker

__all__ = ["to_junit"]

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _xml(text: str) -> str:
    """Text XML 1.0 can hold: its forbidden control characters replaced by U+FFFD."""
    return _XML_BAD.sub("\ufffd", text)


def _note(f: Finding, speaker: Speaker | None) -> str:
    return say(speaker, "{severity} [{code}] {message}", severity=say(speaker, f.severity.value), code=f.code,
               message=f.message) + "\n  " + say(speaker, "fix: {suggestion}", suggestion=f.suggestion)


def to_junit(result: CheckResult, kb: KnowledgeBase, speaker: Speaker | None = None) -> str:
    ix = Index.of(kb)
    by_case: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in localised(result.findings, speaker, ix):
        by_case[(f.lang, f.entry)].append(f)
    waived: dict[tuple[str, str], list[Waived]] = defaultdict(list)
    for w in result.waived:
        waived[(w.finding.lang, w.finding.entry)].append(w)
    units = kb.units()
    root = ET.Element("testsuites", {"name": "rulekb check"})
    total = failures = 0
    for lang in result.langs:
        suite = ET.SubElement(root, "testsuite", {"name": f"rulekb.check.{lang}"})
        keywords = result.coverage.keywords.get(lang)
        if keywords is not None:
            properties = ET.SubElement(suite, "properties")
            for name, value in (("keyword-rules", str(keywords.total)), ("keyword-rules-named", str(keywords.named)),
                                ("keyword-rules-reminder", str(keywords.reminder)),
                                ("keyword-rules-unprinted", " ".join(k.number for k in keywords.unprinted))):
                ET.SubElement(properties, "property", {"name": name, "value": value})
        tests = fails = 0
        for unit in units:
            findings = by_case.get((lang, unit.id), [])
            tests += 1
            owner = ix.kb.owner(unit.id)
            group = owner.id if isinstance(owner, Rule) else "rulings." + (owner.mechanic or "cards")  # type: ignore[union-attr]
            variant = unit.text(lang)
            pos = variant.pos if variant else unit.pos
            case = ET.SubElement(suite, "testcase", {"classname": f"rulekb.{lang}.{group}",
                                                     "name": f"{unit.label} ({unit.id})",
                                                     "file": pos.file, "line": str(pos.line)})
            errors = [f for f in findings if f.severity is Severity.ERROR]
            if errors:
                fails += 1
                failure = ET.SubElement(case, "failure", {"type": errors[0].code, "message": _xml(errors[0].message)})
                failure.text = _xml("\n".join(_note(f, speaker) for f in errors))
            notes = [_note(f, speaker) for f in findings if f.severity is not Severity.ERROR]
            notes += [say(speaker, "waived [{code}] {message}", code=w.finding.code,
                          message=localised_finding(w.finding, speaker, ix)[0])
                      + "\n  " + say(speaker, "reason: {reason}", reason=w.reason)
                      for w in waived.get((lang, unit.id), [])]
            if notes:
                ET.SubElement(case, "system-out").text = _xml("\n".join(notes))
        for f in (f for f in localised(result.findings, speaker, ix) if f.lang == lang and f.entry not in ix.units):
            tests += 1
            case = ET.SubElement(suite, "testcase", {"classname": f"rulekb.{lang}", "name": f.entry,
                                                     "file": f.file, "line": str(f.line)})
            if f.severity is Severity.ERROR:
                fails += 1
                ET.SubElement(case, "failure", {"type": f.code, "message": _xml(f.message)}).text = _xml(f.suggestion)
            else:
                ET.SubElement(case, "system-out").text = _xml(_note(f, speaker))
        suite.set("tests", str(tests))
        suite.set("failures", str(fails))
        suite.set("errors", "0")
        suite.set("skipped", "0")
        total += tests
        failures += fails
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
