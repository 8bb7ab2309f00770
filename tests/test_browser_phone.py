"""The site on a phone (390×844, touch) in Chromium over http://127.0.0.1 (issue 32): one
language stored for offline use from offline.html, then the network cut and a page of that
language opened that was never visited; a newer build replaces the stored copy; a language's
archive unpacked and used from file:// (its front door, offline page and every link inside it);
the phone layout (text size, tap targets, the parallel view stacked, the drawer's table of
contents of a page not in the navigation); links in running text set apart by more than colour
(axe-core's link-in-text-block on the link-heaviest rule pages, counted). The browser and the seed site are the session
fixtures of conftest.py (one Playwright per session); screenshots go to /tmp/phone-*.png."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest

import sitebuild
from browsing import DESKTOP, PHONE, axe_violations, link_heaviest, links_in_text, watched


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@contextmanager
def serving(folder: Path):
    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def own_site(built, tmp_path):
    """A copy of the seed site that a test may change (a newer build published), served."""
    site = tmp_path / "site"
    shutil.copytree(built.site, site)
    with serving(site) as base:
        yield site, base


def save_for_offline(tab, base: str, lang: str) -> str:
    """Press the language's button on offline.html; the status line once it is stored."""
    tab.goto(f"{base}/offline.html#{lang}")
    button = tab.locator(f'section#{lang} button.save')
    button.wait_for(state="visible")
    tab.wait_for_function(f"() => !document.querySelector('section#{lang} button.save').disabled")
    button.click()
    tab.wait_for_selector(f"section#{lang}.stored", timeout=60_000)
    return tab.locator(f"section#{lang} .status").inner_text()


def test_a_saved_language_opens_pages_never_visited_without_a_connection(browser, own_site):
    site, base = own_site
    with watched(browser, base, viewport=PHONE, locale="de-DE") as tab:
        status = save_for_offline(tab, base, "de")
        listed = json.loads((site / "offline" / "de.json").read_text(encoding="utf-8"))["files"]
        files = f"{len(listed)} Dateien"
        assert status.startswith("In diesem Browser gespeichert: ") and files in status and " MB" in status, status
        progress = tab.locator("section#de progress")
        assert progress.get_attribute("max") == str(len(listed)) and progress.get_attribute("value") == str(len(listed))
        tab.context.set_offline(True)
        tab.goto(f"{base}/de/rules/dredge.html")          # never opened before
        assert tab.locator("html").get_attribute("lang") == "de"
        assert "702." in tab.locator("h1").inner_text()
        tab.goto(f"{base}/de/cards/index.html")
        assert tab.locator("h1").count() == 1
        tab.context.set_offline(False)


def test_a_newer_build_replaces_the_stored_copy(browser, own_site):
    site, base = own_site
    with watched(browser, base, viewport=PHONE, locale="de-DE") as tab:
        save_for_offline(tab, base, "de")
        # a newer build is published: another id, another text on a page
        page = site / "de" / "about.html"
        page.write_text(page.read_text(encoding="utf-8").replace("</h1>", " NEUER-BUILD</h1>", 1), encoding="utf-8")
        for path in [site / "offline" / "build.json", *sorted((site / "offline").glob("*.json"))]:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["build"] = "newer"
            path.write_text(json.dumps(data), encoding="utf-8")
        tab.goto(f"{base}/offline.html")   # online, the offline page asks the worker to look
        keys = "async () => (await caches.keys()).filter(k => k.startsWith('rulekb-de-'))"
        for _ in range(300):
            if tab.evaluate(keys) == ["rulekb-de-newer"]:
                break
            tab.wait_for_timeout(200)
        assert tab.evaluate(keys) == ["rulekb-de-newer"]
        cached = tab.evaluate("""async url => { const r = await caches.match(url); return r ? (await r.text()).includes('NEUER-BUILD') : null; }""",
                              f"{base}/de/about.html")
        assert cached, cached
        tab.context.set_offline(True)
        tab.goto(f"{base}/de/about.html")
        assert "NEUER-BUILD" in tab.locator("h1").inner_text()
        tab.context.set_offline(False)


def test_the_offline_page_states_each_archive_and_its_size(built):
    page = (built.site / "offline.html").read_text(encoding="utf-8")
    for lang, unit in (("de", "MB"), ("fr", "Mo"), ("en", "MB")):
        size = (built.site / f"rulekb-{lang}.zip").stat().st_size
        assert f'href="rulekb-{lang}.zip" download' in page
        shown = f"{size / 1e6:.1f}".replace(".", "," if lang != "en" else ".")
        assert f"(rulekb-{lang}.zip, {shown}" in page and unit in page


def test_a_language_archive_unpacked_works_from_disk(browser, built, tmp_path):
    with zipfile.ZipFile(built.site / "rulekb-de.zip") as z:
        names = z.namelist()
        z.extractall(tmp_path)
    assert all(n.startswith("rulekb-de/") for n in names)
    assert not any(n.startswith(("rulekb-de/api/", "rulekb-de/en/", "rulekb-de/fr/")) for n in names)
    top = tmp_path / "rulekb-de"
    base = top.resolve().as_uri()
    with watched(browser, base, viewport=PHONE, locale="de-DE") as tab:
        tab.goto(f"{base}/de/rules/retrace.html")
        link = tab.locator('[id="702.78a"] a.rulekb-ref', has_text="601.2b")
        link.click()
        tab.wait_for_url("**/de/rules/casting-spells.html#601.2b")
        tab.goto(f"{base}/offline.html#de")
        assert "Offline-Kopie" in tab.locator("section#de").inner_text()


@pytest.mark.parametrize("lang, browser_locale", [("de", "en-US"), ("fr", "de-DE"), ("en", "fr-FR")])
def test_the_front_door_of_a_language_archive_leads_only_into_it(browser, built, tmp_path, lang, browser_locale):
    """Issue 32.2/32.5: the German archive's index.html offered English and French (folders it
    does not hold) and sent a browser that prefers English to en/index.html, a missing file;
    its offline.html linked the other languages' folders too. Unpacked, each link of an
    archive's index.html and offline.html resolves in it, and opened from file:// by a reader of
    another language it shows its own language."""
    from test_site_links import check_links
    with zipfile.ZipFile(built.site / f"rulekb-{lang}.zip") as z:
        z.extractall(tmp_path)
    top = tmp_path / f"rulekb-{lang}"
    problems, checked = check_links(top, lambda path: path in ("index.html", "offline.html"))
    assert checked >= 2 and not problems, problems
    base = top.resolve().as_uri()
    with watched(browser, base, viewport=PHONE, locale=browser_locale) as tab:
        tab.goto(f"{base}/index.html")
        assert [a.get_attribute("hreflang") for a in tab.locator("a.lang").all()] == [lang]
        tab.locator("a.lang").click()
        tab.wait_for_url(f"**/rulekb-{lang}/{lang}/index.html")
        assert tab.locator("html").get_attribute("lang") == lang
    published = (built.site / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{code}/index.html" hreflang="{code}"' in published for code in ("en", "de", "fr"))


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_every_link_of_a_language_archive_resolves_in_it(built, tmp_path, lang):
    """Unpacked, a language's archive is a site of its own: every link and anchor of every page
    resolves inside it (its rule and card pages linked their JSON, which it does not hold: 21
    broken links per language on the seed)."""
    from test_site_links import check_links
    with zipfile.ZipFile(built.site / f"rulekb-{lang}.zip") as z:
        z.extractall(tmp_path)
    problems, checked = check_links(tmp_path / f"rulekb-{lang}")
    assert checked > 500 and not problems, problems[:20]


def test_the_language_menu_of_a_language_archive_offers_only_its_language(built, tmp_path):
    """Issue 32: the German archive holds no English or French page, so its pages' language
    menu leads to none (it led to ../../en/… and ../../fr/…, missing files); the published
    site's pages keep every language."""
    import re
    with zipfile.ZipFile(built.site / "rulekb-de.zip") as z:
        z.extractall(tmp_path)
    top = tmp_path / "rulekb-de"
    pages = sorted((top / "de").rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if "md-select__item" not in text:
            continue
        assert re.findall(r'hreflang="([^"]*)"', text) == ["de"], page
        for href in re.findall(r'<a href="([^"#]+)[^"]*" hreflang', text):
            assert (page.parent / href).resolve().is_file(), (page, href)
    published = (built.site / "de" / "rules" / "retrace.html").read_text(encoding="utf-8")
    assert sorted(re.findall(r'hreflang="([^"]*)"', published)) == ["de", "en", "fr"]


# the smallest font size (px) of any visible text of the page, with the element's tag and text
_SMALLEST_TEXT = """() => {
  let found = [1000, ''];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('script, style, svg')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden' || !el.checkVisibility()) continue;
    const size = parseFloat(style.fontSize);
    if (size < found[0]) found = [size, el.tagName + ': ' + node.textContent.trim().slice(0, 40)];
  }
  return found;
}"""

# the smallest tap target (width, height) among the elements of a selector that are visible
_SMALLEST_TARGET = """(selector) => {
  let found = [1000, 1000, ''];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || !el.checkVisibility()) continue;
    if (Math.min(box.width, box.height) < Math.min(found[0], found[1])) found = [box.width, box.height, el.outerHTML.slice(0, 80)];
  }
  return found;
}"""


def test_on_a_phone_text_is_12px_or_more_and_tap_targets_24px(browser, built):
    """Issue 32.5 at 390×844: the French status page with its info folds open has no text under
    12 px (10.2 px before); the "¶" links and the "N other versions" toggles of a rule page are at
    least 24 px each way (13×35 and 22 px tall before)."""
    base = built.site.resolve().as_uri()
    with watched(browser, base, viewport=PHONE, locale="fr-FR") as tab:
        tab.goto(f"{base}/fr/status.html")
        tab.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        size, where = tab.evaluate(_SMALLEST_TEXT)
        assert size >= 12, f"{size} px: {where}"
        tab.goto(f"{base}/de/rules/explore.html")
        for selector in (".md-content .headerlink", ".rulekb-alternatives > summary"):
            assert tab.locator(selector).count(), selector
            width, height, what = tab.evaluate(_SMALLEST_TARGET, selector)
            assert width >= 24 and height >= 24, f"{selector}: {width}×{height} {what}"


def test_on_a_phone_the_parallel_view_stacks_its_languages(browser, built):
    """Issue 32.5: at 390 px the parallel view showed four columns of ~80 px that broke words
    mid-word; each language's text now takes the width of the screen, under its language's name."""
    base = built.site.resolve().as_uri()
    with watched(browser, base, viewport=PHONE, locale="fr-FR") as tab:
        tab.goto(f"{base}/fr/parallel/retrace.html")
        widths = tab.evaluate("() => [...document.querySelectorAll('table.rulekb-parallel td')].map(td => td.getBoundingClientRect().width)")
        assert widths and min(widths) > 300, widths
        label = tab.evaluate("() => getComputedStyle(document.querySelector('table.rulekb-parallel td[lang=de]'), '::before').content")
        assert label == '"Deutsch"'
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= 390
        tab.screenshot(path="/tmp/phone-fr-parallel.png")


def test_the_manifest_names_its_icons_drawn_at_build_time(built):
    """Issue 32: the manifest's icons, PNGs of 192 and 512 pixels made by the build (no image from
    elsewhere), the same bytes on every build."""
    import struct
    import zlib

    from rulekb.render.offline import icon_png
    manifest = json.loads((built.site / "rulekb.webmanifest").read_text(encoding="utf-8"))
    assert [(i["sizes"], i["type"]) for i in manifest["icons"]] == [("192x192", "image/png"), ("512x512", "image/png")]
    for icon in manifest["icons"]:
        data = (built.site / icon["src"]).read_bytes()
        size = int(icon["sizes"].split("x")[0])
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (size, size)
        assert data == icon_png(size)
        idat = data.index(b"IDAT")
        length = struct.unpack(">I", data[idat - 4:idat])[0]
        pixels = zlib.decompress(data[idat + 4:idat + 4 + length])
        assert len(pixels) == size * (1 + 3 * size)
        assert pixels[1:4] == bytes((0x3F, 0x51, 0xB5))   # the corner: the theme's indigo
        middle = (size // 2) * (1 + 3 * size) + 1 + 3 * (size // 2)
        assert len(set(pixels[1:])) > 2
        assert pixels[middle:middle + 3] in (b"\xff\xff\xff", bytes((0x3F, 0x51, 0xB5)))


# the links of the page's headings in the phone's drawer that a reader sees: on the screen and
# not covered (the element at the link's middle is the link)
_DRAWER_HEADINGS = """() => [...document.querySelectorAll('.md-nav--primary .md-nav--secondary a.md-nav__link')]
  .filter(a => { const r = a.getBoundingClientRect(); if (!r.width || !r.height) return false;
                 const x = r.left + r.width / 2, y = r.top + r.height / 2;
                 if (x < 0 || x >= innerWidth || y < 0 || y >= innerHeight) return false;
                 const hit = document.elementFromPoint(x, y); return hit !== null && a.contains(hit); })
  .map(a => a.getAttribute('href'))"""


@pytest.mark.parametrize("lang, path", [("de", "rules/retrace.html"), ("fr", "rules/casting-spells.html"),
                                        ("en", "cards/qu.html")])
def test_on_a_phone_the_drawer_offers_the_pages_table_of_contents(browser, built, axe_source, lang, path):
    """Issue 32.5: a rule page (a card group) is not in the navigation, and material offers a
    page's table of contents in the drawer only under the page's entry: the drawer of a phone had
    none. Now the page has its entry (after its folder's index): the reader opens the menu, taps
    the page's title, sees a link to each heading of the page and follows one; axe finds nothing
    serious in either state of the drawer. On a desktop the entry is hidden (the table of
    contents has its sidebar)."""
    base = built.site.resolve().as_uri()
    headings = [h for h in parse_headings((built.site / lang / path).read_text(encoding="utf-8"))]
    assert headings, path
    with watched(browser, base, viewport=PHONE, locale=f"{lang}-{lang.upper()}") as tab:
        tab.goto(f"{base}/{lang}/{path}")
        assert tab.evaluate(_DRAWER_HEADINGS) == []
        tab.click("label.md-header__button[for='__drawer']")
        entry = tab.locator(".md-nav--primary label.md-nav__link[for='__toc']")
        entry.wait_for(state="visible")
        title = entry.inner_text().strip()
        assert title and tab.locator("h1").first.inner_text().startswith(title), title   # (the heading adds its badges)
        tab.wait_for_timeout(400)
        report = axe_violations(tab, axe_source)
        entry.click()
        tab.wait_for_timeout(400)
        shown = tab.evaluate(_DRAWER_HEADINGS)
        assert shown == [f"#{h}" for h in headings]
        report += axe_violations(tab, axe_source)
        assert not report, report
        if lang == "de":
            tab.screenshot(path="/tmp/phone-de-rule-drawer.png")
        tab.locator(f'.md-nav--primary .md-nav--secondary a.md-nav__link[href="#{headings[-1]}"]').click()
        tab.wait_for_function(f"() => location.hash === '#{headings[-1]}'")
    with watched(browser, base, viewport=DESKTOP) as tab:
        tab.goto(f"{base}/{lang}/{path}")
        assert not tab.locator(".md-nav--primary .rulekb-nav-here").is_visible()
        assert tab.locator(".md-sidebar--secondary a.md-nav__link").first.is_visible()


def parse_headings(text: str) -> list[str]:
    """The ids of the page's headings of level 2 (the table of contents' first level), in order."""
    import re
    article = text[text.index('<article'):]
    return re.findall(r'<h2\b[^>]*\sid="([^"]+)"', article)


def test_the_link_heaviest_pages_are_found_by_counting_their_links(tmp_path):
    article = '<nav><a href="x">n</a><a href="y">n</a><a href="z">n</a></nav><article>{}</article>'
    (tmp_path / "few.html").write_text(article.format('<p>a <a href="1">1</a></p>'), encoding="utf-8")
    (tmp_path / "many.html").write_text(article.format('<p><a href="1">1</a>, <a\nhref="2">2</a></p>'), encoding="utf-8")
    (tmp_path / "index.html").write_text(article.format('<a href="1">1</a>' * 9), encoding="utf-8")
    (tmp_path / "none.html").write_text("<p><a href='1'>no article</a></p>", encoding="utf-8")
    assert links_in_text(tmp_path / "many.html") == 2 and links_in_text(tmp_path / "none.html") == 0
    assert link_heaviest(tmp_path, 2) == ["many.html", "few.html"]


def _audit_links(browser, axe_source, site: Path, lang: str, paths: list[str], viewport: dict) -> dict:
    """axe-core's serious and critical violations of each page (its link-in-text-block whatever
    its impact), opened from disk: {path: violations} of those that have any."""
    base = site.resolve().as_uri()
    report = {}
    with watched(browser, base, viewport=viewport, locale=f"{lang}-{lang.upper()}") as tab:
        for path in paths:
            tab.goto(f"{base}/{path}")
            found = axe_violations(tab, axe_source, also=("link-in-text-block",))
            if found:
                report[path] = found
    return report


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_links_in_running_text_are_set_apart_by_more_than_colour(browser, built, axe_source, lang, viewport):
    """Issue 32.5: axe-core reported link-in-text-block (serious) on the home page and on rule
    pages with links in their text (the "cited by" list of 601 Casting Spells); the home page
    and the three rule pages of the seed with the most links, in each language, have none."""
    rules = link_heaviest(built.site / lang / "rules", 3)
    paths = ["index.html", f"{lang}/index.html"] + [f"{lang}/rules/{name}" for name in rules]
    assert not (report := _audit_links(browser, axe_source, built.site, lang, paths, viewport)), report


@pytest.fixture(scope="session")
def complete_built(tmp_path_factory):
    return sitebuild.complete_site(tmp_path_factory)


@pytest.mark.complete_site
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_complete_the_link_heaviest_rule_pages_set_links_apart(browser, complete_built, axe_source, lang, record_property):
    """Issue 32.5 at its scale: the six rule pages of each language with the most links in their
    text (counted, whichever they are in this build) and the home page: no serious or critical
    violation, no link-in-text-block."""
    rules = link_heaviest(complete_built.site / lang / "rules", 6)
    record_property("pages", {name: links_in_text(complete_built.site / lang / "rules" / name) for name in rules})
    paths = [f"{lang}/index.html"] + [f"{lang}/rules/{name}" for name in rules]
    assert not (report := _audit_links(browser, axe_source, complete_built.site, lang, paths, PHONE)), report
