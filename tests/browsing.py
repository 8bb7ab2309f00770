"""What the browser tests share (test_browser, test_browser_phone): Chromium's path and flags,
the viewports, axe-core, a watched tab. The session fixtures that start the browser and serve
the seed site are in conftest.py (one Playwright per session: a second one in the same process
fails with "Sync API inside the asyncio loop")."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

import sitebuild

CHROMIUM = "/usr/bin/chromium"
AXE = Path(os.environ.get("RULEKB_AXE") or sitebuild.ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def unavailable(reason: str) -> None:
    if os.environ.get("RULEKB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required (RULEKB_REQUIRE_BROWSER=1) but {reason}")
    pytest.skip(f"browser tests skipped: {reason}")


def missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright (Python) is not installed: pip install -e '.[test]'"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM}: apt-get install chromium"
    return None


@contextmanager
def watched(browser, base: str, viewport: dict = DESKTOP, locale: str = "en-US"):
    """A tab of a new browser context that fails the test, once the tab is done with, when it
    requested anything outside the site at `base`, when a request failed or a script raised."""
    context = browser.new_context(viewport=viewport, locale=locale, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    tab = context.new_page()
    requested: list[str] = []
    tab.on("request", lambda r: requested.append(r.url))
    failed: list[str] = []
    # (a request cut short by leaving the page, net::ERR_ABORTED, has not failed)
    tab.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})") if "ERR_ABORTED" not in (r.failure or "") else None)
    tab.on("response", lambda r: failed.append(f"{r.url} ({r.status})") if r.status >= 400 else None)
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.requested = requested  # type: ignore[attr-defined]
    tab.errors = errors  # type: ignore[attr-defined]
    try:
        yield tab
    finally:
        context.close()
    # (blob: the search's worker, made by the page itself)
    foreign = [u for u in requested if not (u.startswith(base + "/") or u.startswith(("about:", "data:", "blob:")))]
    assert not foreign, f"requests outside the site: {foreign[:5]}"
    assert not errors, f"script errors: {errors[:5]}"
    assert not failed, f"failed requests: {failed[:5]}"


def axe_violations(tab, source: str, also: tuple[str, ...] = ()) -> list[dict]:
    """axe-core's serious and critical violations of the page (WCAG 2.x A/AA and best practices),
    and those of the rules `also` names whatever their impact. (preload: false: axe would fetch
    the page's stylesheets again for one rule, css-orientation-lock, which fails from file://
    and leaves that rule undecided anyway; the pages' own requests are then all there is.)"""
    tab.add_script_tag(content=source)
    found = tab.evaluate("""async also => (await axe.run(document, {resultTypes: ["violations"], preload: false})).violations
        .filter(v => v.impact === "serious" || v.impact === "critical" || also.includes(v.id))
        .map(v => ({id: v.id, impact: v.impact, count: v.nodes.length,
                    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))""", list(also))
    return found


# a link in a page's text (the article: not the navigation, header or footer)
_LINK = re.compile(r"<a\s")


def links_in_text(page: Path) -> int:
    """How many links the page's article holds (its text, not the navigation around it)."""
    text = page.read_text(encoding="utf-8")
    start = text.find("<article")
    return len(_LINK.findall(text, start, text.find("</article>", start))) if start >= 0 else 0


def link_heaviest(folder: Path, count: int) -> list[str]:
    """The names of the `count` pages of `folder` (not its index) with the most links in their
    text, most first (ties by name): where links inside running text are closest together."""
    pages = [page for page in folder.glob("*.html") if page.name != "index.html"]
    return [page.name for page in sorted(pages, key=lambda p: (-links_in_text(p), p.name))[:count]]
