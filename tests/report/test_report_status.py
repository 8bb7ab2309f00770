"""The site's translation-status page against its golden files: escaping, links."""

from __future__ import annotations

from dataclasses import replace

import pytest

from qa_report import checked, golden
from rulekb.report import status_markdown


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_golden(lang):
    kb, result = checked()
    golden(f"status-{lang}.md", status_markdown(result, kb, lang))


def test_every_text_is_escaped():
    kb, result = checked()
    unit = next(u for u in kb.units() if u.id == "retrace.a")
    evil = "<script>alert(1)</script> & [link](http://x) *bold*"
    bad = replace(result, findings=tuple(replace(f, message=evil) if f.entry == "retrace.a" else f for f in result.findings))
    page = status_markdown(bad, kb, "fr")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert unit.label in page


def test_links_to_rules_and_cards():
    kb, result = checked()
    page = status_markdown(result, kb, "de", link_prefix="../")
    assert "(../rules/retrace.md#702.78a)" in page
    assert "(../cards/sample-card.md)" in page
    assert "<svg" in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
