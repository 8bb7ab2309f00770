"""report.junit: the JUnit XML report against its golden file; a case fails on its error findings."""

from __future__ import annotations

from dataclasses import replace
from xml.etree import ElementTree as ET

from qa_report import checked, golden
from rulekb.report import render
from rulekb.report.junit import to_junit


def test_golden():
    kb, result = checked()
    golden("report.junit.xml", render(result, kb, "junit"))


def test_the_cases_with_errors_fail():
    kb, result = checked()
    root = ET.fromstring(to_junit(result, kb))
    failed = {(s.get("name"), c.get("name")) for s in root for c in s if c.find("failure") is not None}
    assert failed == {("rulekb.check.de", "ruling retrace-sample-ruling (retrace-sample-ruling)"),
                      ("rulekb.check.fr", "702.78a (retrace.a)")}
    assert root.get("failures") == "2" and root.get("tests") == str(3 * 5)


def test_control_characters_do_not_break_the_xml():
    kb, result = checked()
    odd = replace(result, findings=tuple(replace(f, message="bell \x07 here") for f in result.findings))
    root = ET.fromstring(to_junit(odd, kb))
    messages = [c.find("failure").get("message") for s in root for c in s if c.find("failure") is not None]
    assert messages and all(m == "bell \ufffd here" for m in messages)
