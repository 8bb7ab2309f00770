"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): the QA reports.

Turns a `CheckResult` of the check stage into what people and machines read, one module per
format (each a pure function of the result and the knowledge base: same input, same bytes):

- `text`   the terminal report: compiler-style lines (``file:line: severity [code] …``) grouped
           by language, the coverage matrix and the verdict;
- `json`   ``{"findings", "waived", "coverage", "summary", …}`` by ``json.dumps``, sorted keys;
- `junit`  JUnit XML for CI: one test case per unit and language, failing on error findings;
- `html`   one standalone page (no remote assets) with the coverage chart and every finding,
           from the Jinja2 template ``templates/reports/qa.html.j2``.

What the formats read of a result — owners of units, counts, grouping, the coverage chart's
geometry — is `rulekb.check.view`, which the site's translation-status pages (rendered by the
render stage, `render.status`) read too.
"""

from __future__ import annotations

from ..check import CheckResult
from ..i18n import UI
from ..models import SOURCE_LANGUAGE, KnowledgeBase, Speaker
from .json import to_json
from .junit import to_junit
from .text import to_text

__all__ = ["FORMATS", "render", "to_html", "to_json", "to_junit", "to_text"]

FORMATS = ("text", "json", "junit", "html")


def to_html(result: CheckResult, kb: KnowledgeBase, speaker: Speaker | None = None) -> str:
    """The HTML report (`rulekb.report.html.to_html`). Its module, which sets up Jinja2 through
    the render stage's templating (0.1 s of imports), is imported when an HTML report is made, not
    for the other formats."""
    from .html import to_html as html
    return html(result, kb, speaker)


def render(result: CheckResult, kb: KnowledgeBase, fmt: str, ui: UI | None = None) -> str:
    """The report in `fmt` (one of FORMATS; anything else: text), in the language of `ui` (None:
    English; the JSON report keeps the English and adds the localised message)."""
    speaker = ui if ui is not None and ui.lang != SOURCE_LANGUAGE else None
    if fmt == "json":
        return to_json(result, kb, speaker, ui.lang if speaker is not None else None)  # type: ignore[union-attr]
    if fmt == "junit":
        return to_junit(result, kb, speaker)
    if fmt == "html":
        return to_html(result, kb, speaker)
    return to_text(result, kb, speaker)
