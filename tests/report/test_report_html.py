"""report.html: the standalone HTML report against its golden file; every text escaped once;
no remote asset."""

from __future__ import annotations

import re
from dataclasses import replace

from qa_report import checked, golden
from rulekb.report import render
from rulekb.report.html import to_html

EVIL = "<script>alert(1)</script> & [link](http://x) *bold* \\<b>"


def test_golden():
    kb, result = checked()
    golden("report.html", render(result, kb, "html"))


def test_every_text_shows_literally_escaped_once():
    kb, result = checked()
    bad = replace(result, findings=tuple(replace(f, message=EVIL, suggestion=EVIL) if f.entry == "retrace.a" else f
                                         for f in result.findings))
    html = to_html(bad, kb)
    assert "<script>" not in html
    once = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; [link](http://x) *bold* \\&lt;b&gt;"
    assert html.count(once) == 2 * sum(1 for f in bad.findings if f.entry == "retrace.a")
    assert "&amp;lt;" not in html and "\\&lt;script" not in html


def test_standalone():
    kb, result = checked()
    html = to_html(result, kb)
    assert html.startswith("<!DOCTYPE html>\n") and html.endswith("</html>\n") and html.count("\n") == 2
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html)
    assert "<svg" in html and "Waived findings" in html and 'id="fr-retrace.a"' in html


def test_a_german_html_report_speaks_german():
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.report import render
    kb, result = checked()
    ui = load_ui(ROOT, next(lang for lang in kb.languages if lang.code == "de"))
    page = render(result, kb, "html", ui)
    assert '<html lang="de">' in page and f"<h1>{ui._('Translation QA')}</h1>" in page
    assert "Translation QA" not in page and "Waived findings" not in page and "auf Deutsch" in page
