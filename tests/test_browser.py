"""The built site in a real browser (Playwright on Debian's Chromium), served over http from
127.0.0.1 and opened from file://: follow a rule reference to its anchor, switch language on the
same rule, search in German and French, pick the language at the front door; nothing is
requested from anywhere else, no request fails (no sitemap.xml fetched: blocked from file://,
404 over http); and axe-core finds no serious or critical accessibility violation on a rule page,
a card page, a parallel view and a status page of each language, on a desktop and a phone.

axe-core comes from its npm package, installed outside the repository's tracked files by .ci/run
(`npm install --prefix build/axe axe-core@VERSION`; RULEKB_AXE may name another axe.min.js).
Without chromium, playwright or axe-core these tests skip with the reason; with
RULEKB_REQUIRE_BROWSER=1 (CI) they fail instead."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import sitebuild
from browsing import AXE, ARGS, CHROMIUM, DESKTOP, PHONE, axe_violations, missing_browser as _missing_browser, unavailable as _unavailable, watched  # noqa: F401
from served import fetch, rulekb_serve


@pytest.fixture(params=["http", "file"])
def base(request, built, server) -> str:
    return server if request.param == "http" else built.site.resolve().as_uri()


@pytest.fixture
def page(browser, base):
    with watched(browser, base) as tab:
        yield tab


def _in_viewport(tab, element_id: str) -> bool:
    return tab.evaluate("""id => { const e = document.getElementById(id); if (!e) return false;
        const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }""", element_id)


def test_follow_a_reference_to_its_subrule_then_switch_to_french(page, base):
    page.goto(f"{base}/de/rules/retrace.html")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "Zurückverfolgen" in page.title()
    link = page.locator('[id="702.78a"] a.rulekb-ref', has_text="601.2b")
    link.click()
    page.wait_for_url("**/de/rules/casting-spells.html#601.2b")
    assert page.evaluate("location.hash") == "#601.2b"
    page.wait_for_function("() => { const e = document.getElementById('601.2b'); const r = e.getBoundingClientRect();"
                           " return r.top >= 0 && r.top < window.innerHeight; }")
    assert _in_viewport(page, "601.2b")

    page.goto(f"{base}/de/rules/retrace.html")
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.md-select__link[hreflang="fr"]').click()
    page.wait_for_url("**/fr/rules/retrace.html")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").first.inner_text().startswith("702.78 Pistage")


def search(tab, query: str) -> str:
    """Type a query into material's search box; returns the result list's text. The search
    worker loads its index in the background: retype until it answers (bounded)."""
    field = tab.locator("input.md-search__input")
    field.click()
    results = tab.locator(".md-search-result__item")
    for _attempt in range(15):
        field.fill("")
        field.press_sequentially(query, delay=30)
        try:
            results.first.wait_for(timeout=2000)
            return tab.locator(".md-search-result").inner_text()
        except Exception:  # noqa: BLE001 - playwright's TimeoutError: the index is not loaded yet
            continue
    return tab.locator(".md-search-result").inner_text()


@pytest.mark.parametrize("lang, query, title", [("de", "Friedhof", "Zurückverfolgen"), ("fr", "cimetière", "Pistage")])
def test_search_finds_retrace(page, base, lang, query, title):
    page.goto(f"{base}/{lang}/index.html")
    found = search(page, query)
    assert f"702.78 {title}" in found, found[:500]
    page.locator(".md-search-result__link", has_text=f"702.78 {title}").first.click()
    page.wait_for_url(f"**/{lang}/rules/retrace.html*")
    assert page.locator("html").get_attribute("lang") == lang


@pytest.mark.parametrize("lang, query, shown", [("en", "Agent der Königin", "Queen's Agent"),
                                                 ("en", "Agent de la reine", "Queen's Agent"),
                                                 ("fr", "Agent der Königin", "Agent de la reine"),
                                                 ("de", "Agent de la reine", "Agent der Königin")])
def test_search_finds_a_card_by_its_german_and_french_name(page, base, lang, query, shown):
    """The search box of any language's site finds a card by its German or French name, shows it
    under its name in the site's language and leads to its section on its group's page."""
    page.goto(f"{base}/{lang}/index.html")
    found = find(page, query)
    card = next((r for r in found if r["kind"] == "card"), None)
    assert card is not None and card["href"].endswith("cards/qu.html#queens-agent"), found[:3]
    assert shown in card["text"], card
    page.locator('.md-search-result__item a[data-kind="card"]').first.click()
    page.wait_for_url(f"**/{lang}/cards/qu.html#queens-agent")
    assert page.locator("h2#queens-agent").inner_text().startswith(shown)


@pytest.mark.parametrize("locale, lang", [("de-DE", "de"), ("fr-FR", "fr"), ("en-GB", "en")])
def test_the_front_door_follows_the_preferred_language(browser, base, locale, lang):
    context = browser.new_context(locale=locale)
    tab = context.new_page()
    try:
        tab.goto(f"{base}/index.html")
        tab.wait_for_url(f"**/{lang}/index.html")
        assert tab.locator("html").get_attribute("lang") == lang
        tab.goto(f"{base}/index.html#choose")  # the picker itself, without moving on
        assert tab.locator("a.lang").count() == 3
        assert tab.locator(f'a.lang[hreflang="{lang}"]').get_attribute("class") == "lang preferred"
    finally:
        context.close()


# one page of each kind the audit names, in every language
AUDITED = ("rules/retrace.html", "cards/qu.html", "parallel/retrace.html", "status.html")


@pytest.mark.parametrize("path", AUDITED)
def test_no_page_asks_for_a_sitemap(page, base, path):
    """Material fetches sitemap.xml beside every <link rel=alternate>: blocked from file://, a 404
    over http. The `page` fixture fails on any failed request; none may even be attempted."""
    for lang in ("en", "de", "fr"):
        page.goto(f"{base}/{lang}/{path}")
        page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # material's requests start once the document is handled
    assert not [u for u in page.requested if "sitemap" in u]


def repeated_landmarks(tab) -> dict[str, int]:
    """The landmarks of the page (navigation, region, complementary, search …) that share their
    role and name, shown or not (material drew the table of contents twice, one copy hidden at
    any width, and each level under a heading as a landmark again): {"nav Findings": 2}."""
    return tab.evaluate("""() => { const seen = {};
        for (const e of document.querySelectorAll('nav, aside, main, header, footer, section[aria-label], [role=navigation], [role=region], [role=search], [role=complementary], [role=banner], [role=contentinfo], [role=main]')) {
          if ((e.tagName === 'HEADER' || e.tagName === 'FOOTER') && e.closest('article, aside, main, nav, section')) continue;
          const key = (e.getAttribute('role') || e.tagName.toLowerCase()) + ' ' + (e.getAttribute('aria-label') || '');
          seen[key] = (seen[key] || 0) + 1; }
        return Object.fromEntries(Object.entries(seen).filter(([, n]) => n > 1)); }""")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_axe_finds_no_serious_violation(browser, built, axe_source, lang, viewport):
    context = browser.new_context(viewport=viewport, locale=f"{lang}-{lang.upper()}")
    tab = context.new_page()
    try:
        report = {}
        for path in AUDITED:
            tab.goto(f"{built.site.resolve().as_uri()}/{lang}/{path}")
            report[path] = axe_violations(tab, axe_source, also=("landmark-unique",)) + (
                [{"id": "repeated landmarks", "found": repeated}] if (repeated := repeated_landmarks(tab)) else [])
        assert not any(report.values()), {path: found for path, found in report.items() if found}
    finally:
        context.close()


@pytest.fixture(scope="session")
def unpacked(built, tmp_path_factory) -> Path:
    """The offline archive unpacked, as a judge unpacks it."""
    import zipfile
    dest = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(built.site / "rulekb-site.zip") as z:
        z.extractall(dest)
    return dest / "rulekb-site"


def test_the_unpacked_copy_works_from_disk_and_says_it_is_the_offline_copy(browser, unpacked):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    tab = context.new_page()
    failed: list[str] = []
    tab.on("requestfailed", lambda r: failed.append(r.url) if "ERR_ABORTED" not in (r.failure or "") else None)
    try:
        tab.goto(f"{unpacked.as_uri()}/index.html")
        tab.wait_for_url("**/de/index.html")
        tab.locator('a[href="../offline.html#de"]').click()
        tab.wait_for_url("**/offline.html#de")
        assert "Offline-Kopie" in tab.locator("section#de").inner_text()
        assert tab.locator('a[href$="rulekb-site.zip"]').count() == 0
        tab.locator("section#de a", has_text="Zur Startseite").click()
        tab.wait_for_url("**/de/index.html")
        assert not failed, failed
    finally:
        context.close()

# ---------------------------------------------------------------- the search (render/search.py and
# templates/assets/javascripts/rulekb-search*.js), as judges use it: rule numbers open their
# subrule, words are found without their accents, card names in any language lead the results,
# untranslated rules are found on the German and French sites; the language menu keeps the place
# on the page and the query; the search never blocks the page: the long tasks of the main thread
# (PerformanceObserver) and the time to the first result, on a desktop and on a phone (390×844,
# processor slowed down four times).

LONG_TASKS = """window.__longTasks = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
  .observe({type: "longtask", buffered: true});"""
BLOCK_MS = 200          # the longest the page may be blocked
FIRST_RESULT_MS = 1000  # the first result on a desktop, from the first key


def open_search(tab):
    """The search field, its dialog opened as a reader does: the header's search button (on a
    phone; on a desktop the field is in the header and the button hidden), else the field."""
    button = tab.locator('label.md-header__button[for="__search"]')
    if button.is_visible():
        button.click()
    field = tab.locator("input.md-search__input")
    field.click()
    return field


NUMBER_QUERY = re.compile(r"^\d{1,3}(\.\d+[a-z]?)?$", re.I)   # as the worker tells a rule number (NUMBER)


def find(tab, query: str) -> list[dict]:
    """Type a query into the search field; the results once the engine answered that query
    (its last answer: a part of the index that comes later answers again)."""
    field = open_search(tab)
    field.fill(query)
    tab.wait_for_function("q => window.rulekbSearch.shown.some(s => s.query === q)", arg=query, timeout=10000)
    # every part this query reads: the cards, the rulings of cards loaded after them, and for a query
    # that looks like a rule number the numbers of older releases (each arrival answers again, and a
    # click on a result list being replaced lands elsewhere)
    needed = ["cards", "rulings"] + (["numbers"] if NUMBER_QUERY.match(query) else [])
    tab.wait_for_function("parts => parts.every(p => window.rulekbSearch.parts.includes(p))", arg=needed,
                          timeout=10000)
    field.fill("")
    field.fill(query)   # again, with every part in: wait for that answer
    tab.wait_for_function("""([q, parts]) => { const s = window.rulekbSearch, last = s.shown[s.shown.length - 1];
        return last && last.query === q && last.id === s.asked && parts.every(p => last.parts.includes(p)); }""",
                          arg=[query, needed], timeout=10000)
    return tab.evaluate("""() => Array.from(document.querySelectorAll('.md-search-result__item a')).map(a => ({
        href: a.getAttribute('href'), kind: a.dataset.kind, text: a.innerText }))""")


def test_a_rule_number_is_the_first_result_and_opens_its_subrule(page, base):
    page.goto(f"{base}/de/index.html")
    found = find(page, "601.2f")
    first = found[0]
    assert first["href"].endswith("rules/casting-spells.html#601.2f") and first["kind"] == "s", found[:3]
    assert "Englisch — noch nicht übersetzt" in first["text"]   # untranslated: indexed in English, marked
    page.locator(".md-search-result__item a").first.click()
    page.wait_for_url("**/de/rules/casting-spells.html#601.2f")
    page.wait_for_function("() => { const r = document.getElementById('601.2f').getBoundingClientRect();"
                           " return r.top >= 0 && r.top < window.innerHeight; }")
    assert _in_viewport(page, "601.2f")


def test_todays_number_finds_a_rule_numbered_otherwise_on_its_page(page, base):
    page.goto(f"{base}/fr/index.html")
    found = find(page, "702.81a")
    assert found[0]["href"].endswith("rules/retrace.html#702.78a"), found[:3]
    assert "702.81a" in found[0]["text"]


@pytest.mark.parametrize("lang, query, href", [
    ("fr", "CIMETIERE", "rules/retrace.html#702.78a"),     # case and accents aside
    ("de", "koenigin", "cards/qu.html#queens-agent"),  # German: oe for ö
    ("de", "Konigin", "cards/qu.html#queens-agent"),
    ("en", "agent der konigin", "cards/qu.html#queens-agent"),
])
def test_words_are_found_without_their_accents(page, base, lang, query, href):
    page.goto(f"{base}/{lang}/index.html")
    found = find(page, query)
    assert any(r["href"].endswith(href) for r in found[:3]), found[:3]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_card_name_in_any_language_leads_the_results(page, base, lang):
    page.goto(f"{base}/{lang}/index.html")
    found = find(page, "Agent de la reine")
    assert found[0]["href"].endswith("cards/qu.html#queens-agent") and found[0]["kind"] == "card", found[:3]
    assert len(found) < 10   # every word must be there: "de" alone does not find everything


@pytest.mark.parametrize("lang, title", [("de", "Zurückverfolgen"), ("fr", "Pistage")])
def test_the_english_name_of_a_rule_finds_it_on_the_other_sites(page, base, lang, title):
    page.goto(f"{base}/{lang}/rules/index.html")
    found = find(page, "Retrace")
    assert found[0]["kind"] == "title" and found[0]["href"].endswith("rules/retrace.html") and title in found[0]["text"]
    page.locator(".md-search-result__item a").first.click()
    page.wait_for_url(f"**/{lang}/rules/retrace.html")


@pytest.mark.parametrize("lang, query, href", [
    ("en", "retrase", "rules/retrace.html"),                # one letter changed
    ("de", "dregde", "rules/dredge.html"),                  # two letters swapped
    ("en", "Queens Agent", "cards/qu.html#queens-agent"),   # no apostrophe
    ("fr", "Agent de la rein", "cards/qu.html#queens-agent"),   # the last word unfinished: a prefix, as before
    ("en", "sirne lookout", "#siren-lookout"),  # a typo in a card's name
])
def test_typos_and_punctuation_are_forgiven(page, base, lang, query, href):
    page.goto(f"{base}/{lang}/index.html")
    found = find(page, query)
    assert found and found[0]["href"].endswith(href), found[:3]


def switch_keeps_the_place_and_the_query(tab, base: str, back_to: str) -> None:
    """A reader at 601.2f on the German page switches to French (and lands at 601.2f, in view),
    searches, closes the search and switches to `back_to`: the query comes along and is answered."""
    tab.goto(f"{base}/de/rules/casting-spells.html#601.2f")
    tab.locator(".md-header__option .md-select").hover()
    tab.locator('a.md-select__link[hreflang="fr"]').click()
    tab.wait_for_url("**/fr/rules/casting-spells.html#601.2f")
    tab.wait_for_function("() => { const r = document.getElementById('601.2f').getBoundingClientRect();"
                          " return r.top >= 0 && r.top < window.innerHeight; }")
    find(tab, "cimetière")
    tab.keyboard.press("Escape")   # the search closed, its query still typed
    # (the menu's links carry the query once it is typed: the link is clicked once it does, and
    # once the dialog is closed, which hides the menu while open)
    tab.wait_for_function("""lang => !document.getElementById('__search').checked
        && document.querySelector(`a.md-select__link[hreflang="${lang}"]`).getAttribute('href').includes('?q=cimeti%C3%A8re')""",
                          arg=back_to)
    assert tab.locator("input.md-search__input").input_value() == "cimetière"
    tab.locator(".md-header__option .md-select").hover()
    tab.locator(f'a.md-select__link[hreflang="{back_to}"]').click()
    tab.wait_for_url(f"**/{back_to}/rules/casting-spells.html?q=cimeti%C3%A8re#601.2f")
    assert tab.locator("input.md-search__input").input_value() == "cimetière"
    tab.wait_for_function("() => window.rulekbSearch.shown.some(s => s.query === 'cimetière' && s.total > 0)")
    assert tab.locator(".md-search-result__item").count() > 0


def test_the_language_menu_keeps_the_place_and_the_query(page, base):
    switch_keeps_the_place_and_the_query(page, base, "de")


def test_the_search_stays_open_while_its_field_has_the_focus(page, base):
    """Material closes the search (a click on its toggle) 125 ms after a page opens at an anchor,
    as the language menu's links do, and after each hashchange event: a reader who typed at once
    kept the field but lost the dialog, and Escape in the closed dialog's field cleared the query
    (the language menu then lost it: the flaky language-menu test). Here material's close comes
    for sure: a hashchange event at the page's anchor (a navigation to an anchor would move the
    focus itself)."""
    page.goto(f"{base}/de/rules/casting-spells.html#601.2f")
    field = open_search(page)
    field.fill("Friedhof")
    page.evaluate("""() => { window.toggled = [];
        document.getElementById('__search').addEventListener('change', e => window.toggled.push(e.target.checked));
        window.dispatchEvent(new HashChangeEvent('hashchange')); }""")
    page.wait_for_function("() => window.toggled.length > 0")   # material's close came
    assert page.evaluate("() => document.getElementById('__search').checked"), "the search closed under the reader"
    assert page.evaluate("() => document.activeElement.matches('input.md-search__input')")
    page.keyboard.press("Escape")
    assert not page.evaluate("() => document.getElementById('__search').checked")
    assert field.input_value() == "Friedhof"


def _measure(browser, url: str, viewport: dict, query: str, slowdown: int = 1) -> tuple[float, float, str]:
    """(ms from the first key to the first result, longest main-thread task in ms from the
    moment the reader goes to the search field) for a reader who opens `url` and searches at
    once (the engine starts then, and loads every part of the index), and where the engine ran.
    `slowdown`: the processor slowed down that many times (Chromium's CPU throttling)."""
    context = browser.new_context(viewport=viewport, locale="en-US", is_mobile=viewport is PHONE,
                                  has_touch=viewport is PHONE)
    try:
        tab = context.new_page()
        tab.add_init_script(LONG_TASKS)
        if slowdown > 1:
            cdp = context.new_cdp_session(tab)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        tab.goto(url)
        tab.wait_for_load_state("load")
        asked = tab.evaluate("performance.now()")
        field = open_search(tab)
        started = tab.evaluate("performance.now()")
        field.press_sequentially(query, delay=60)
        tab.wait_for_function("q => window.rulekbSearch.shown.some(s => s.query === q && s.total > 0)", arg=query,
                              timeout=30000)
        # every part in, the rulings of cards last (2.1 MB on the complete site): the longest block
        # counts the whole load, not only what came before the first result
        tab.wait_for_function("() => window.rulekbSearch.parts.includes('rulings')", timeout=60000)
        tab.wait_for_timeout(300)   # the tasks that follow the last part
        first = tab.evaluate("() => window.rulekbSearch.shown.find(s => s.total > 0).at")
        longest = tab.evaluate("t => Math.max(0, ...window.__longTasks.filter(([at]) => at >= t).map(([, ms]) => ms))",
                               asked)
        return first - started, longest, tab.evaluate("window.rulekbSearch.engine")
    finally:
        context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_search_answers_without_blocking_the_page(browser, base, device, record_property):
    """The engine and the index are in a worker (never on the page: from file:// too), and the
    reader gets results while typing. (On a phone the layout is the phone's: the header's search
    button, the dialog over the whole screen.) The times are measured and recorded (the JUnit
    report's properties), not asserted: a timed test fails on a busy machine, not on slow code;
    the goals (BLOCK_MS, FIRST_RESULT_MS) and the figures measured are in the README."""
    first, longest, engine = _measure(browser, f"{base}/de/rules/retrace.html", DESKTOP if device == "desktop" else PHONE,
                                      "Friedhof")
    assert engine == "worker"
    assert first > 0
    record_property("first_result_ms", round(first))
    record_property("longest_main_thread_block_ms", round(longest))


# ---------------------------------------------------------------- `rulekb serve`: one language
# with mkdocs' development server, its search the built site's (the same index files, served from
# the language's root).

@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`rulekb serve --lang de` on a copy of the seed project (it writes its build/serve there)."""
    from conftest import data_copy
    project = data_copy(tmp_path_factory.mktemp("served") / "project")
    with rulekb_serve(project, "de") as url:
        yield url


def test_rulekb_serve_serves_the_index_of_the_built_site(served, built):
    for served_path, built_path in (("search/rules.js", "de/search/rules.js"), ("search/cards.js", "search/cards.js"),
                                    ("search/numbers.js", "search/numbers.js")):
        assert fetch(f"{served}/{served_path}") == (built.site / built_path).read_bytes(), served_path
    # a number's page, as built (mkdocs' server adds its reloading script before </body>)
    page = (built.site / "de" / "n" / "502.16.html").read_bytes()
    assert (fetch(f"{served}/n/502.16.html") or b"").startswith(page[:page.rindex(b"</body>")])


@pytest.mark.parametrize("query, kind, lands", [("702.78a", "s", "rules/retrace.html#702.78a"),
                                                ("Agent de la reine", "card", "cards/qu.html#queens-agent"),
                                                ("502.16", "former", "rules/buyback.html")])
def test_rulekb_serve_searches_like_the_built_site(browser, served, query, kind, lands):
    """The search of a page served by `rulekb serve` answers from the index and its results lead to
    served pages: a rule, a card on its group's page, a number of an older release (its n/ page,
    which moves on to the rule)."""
    with watched(browser, served) as tab:
        tab.goto(f"{served}/rules/casting-spells.html")
        found = find(tab, query)
        assert tab.evaluate("window.rulekbSearch.engine") == "worker" and not tab.evaluate("window.rulekbSearch.errors")
        hit = next((r for r in found if r["kind"] == kind), None)
        assert hit is not None, found[:3]
        tab.locator(f'.md-search-result__item a[data-kind="{kind}"]').first.click()
        tab.wait_for_url(f"{served}/{lands}*")


# ---------------------------------------------------------------- the audit of issue 17 on the
# complete data (the committed rules/: every release, the cards and rulings), from file:// as a
# judge uses the unpacked site: the site is built once per session (sitebuild.complete_site), and
# only the tests marked complete_site read it.

complete_site = pytest.mark.complete_site


@pytest.fixture(scope="session")
def complete_built(tmp_path_factory):
    return sitebuild.complete_site(tmp_path_factory)


@pytest.fixture(scope="session")
def complete_base(complete_built) -> str:
    return complete_built.site.resolve().as_uri()


def card_page(site: Path, lang: str, card_id: str) -> str:
    """The page (``cards/qu.html``) of the group of cards that holds a card, found in the site."""
    marker = f'id="{card_id}"'
    found = [p for p in sorted((site / lang / "cards").glob("*.html")) if marker in p.read_text(encoding="utf-8")]
    assert len(found) == 1, found
    return found[0].relative_to(site / lang).as_posix()


@complete_site
@pytest.mark.parametrize("lang, query, page", [("en", "702.81a", "rules/retrace.html"),
                                               ("de", "601.2f", "rules/casting-spells.html"),
                                               ("fr", "702.27a", "rules/buyback.html")])
def test_complete_a_rule_number_opens_its_subrule(browser, complete_base, lang, query, page):
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, query)
        assert found[0]["href"].endswith(f"{page}#{query}") and found[0]["kind"] == "s", found[:3]
        tab.locator(".md-search-result__item a").first.click()
        tab.wait_for_url(f"**/{lang}/{page}#{query}")
        tab.wait_for_function("id => { const r = document.getElementById(id).getBoundingClientRect();"
                              " return r.top >= 0 && r.top < window.innerHeight; }", arg=query)


@complete_site
@pytest.mark.parametrize("lang, query, word", [("fr", "cimetiere", "cimetière"), ("de", "zuruckverfolgen", "Zurückverfolgen")])
def test_complete_words_are_found_without_their_accents(browser, complete_base, lang, query, word):
    """Without its accents a word finds what it finds with them (the first of "cimetière" is 404
    Graveyard, untranslated: found by its French name, which its title does not show)."""
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, query)
        assert found and any(word.casefold() in r["text"].casefold() for r in found[:3]), found[:3]
        assert found[:5] == find(tab, word)[:5]


@complete_site
@pytest.mark.parametrize("lang, title", [("de", "Zurückverfolgen"), ("fr", "Pistage")])
def test_complete_the_english_name_of_a_rule_finds_it_on_the_other_sites(browser, complete_base, lang, title):
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/rules/index.html")
        found = find(tab, "Retrace")
        assert found[0]["href"].endswith("rules/retrace.html") and title in found[0]["text"], found[:3]


# the attributes a reader sees as tooltips or hears from a screen reader
_LABELS = re.compile(r'\b(?:title|aria-label)="([^"]*)"')


def _interface_labels(page: Path) -> set[str]:
    """The page's tooltips and accessible names that are interface text: not a rule number's
    tooltip (the rules it names), not the site's name."""
    return {html.unescape(v) for v in _LABELS.findall(page.read_text(encoding="utf-8"))
            if v and not v[0].isdigit() and v != "rulekb"}


# words the German or French interface writes as English does (the theme's own translations:
# material's de and fr "nav")
SAME_AS_ENGLISH = {"de": {"Navigation"}, "fr": {"Navigation"}}


def _footer(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text[text.index('<footer'):text.index('</footer>')])).strip()


@complete_site
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_complete_no_interface_text_of_a_german_or_french_page_is_english(complete_built, lang):
    """The audit's "English on German/French pages" on the complete site: every tooltip and
    accessible name of the English pages (permanent links, sources, search, navigation, table of
    contents) and the footer differ on the same pages in German and French."""
    site = complete_built.site
    pages = ("rules/retrace.html", card_page(site, "en", "queens-agent"), "changes/2026-01-16.html", "status.html")
    english = set().union(*(_interface_labels(site / "en" / path) for path in pages))
    assert {"Permanent link", "Table of contents"} <= english, english   # the labels are read
    for path in pages:
        page = site / lang / (path if not path.startswith("cards/") else card_page(site, lang, "queens-agent"))
        found = _interface_labels(page) - SAME_AS_ENGLISH[lang]
        assert not found & english, (path, sorted(found & english))
        assert not any(label.startswith("Source:") for label in found), path
        assert _footer(page) != _footer(site / "en" / path), path


@complete_site
@pytest.mark.parametrize("lang, query, shown", [("en", "Agent der Königin", "Queen's Agent"),
                                                 ("fr", "Agent der Königin", "Agent de la reine"),
                                                 ("de", "Agent de la reine", "Agent der Königin")])
def test_complete_a_card_is_found_by_its_german_and_french_name(browser, complete_built, complete_base, lang, query,
                                                                 shown):
    page = card_page(complete_built.site, lang, "queens-agent")
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, query)
        card = next((r for r in found if r["kind"] == "card"), None)
        assert card is not None and card["href"].endswith(f"{page}#queens-agent") and shown in card["text"], found[:3]
        tab.locator('.md-search-result__item a[data-kind="card"]').first.click()
        tab.wait_for_url(f"**/{lang}/{page}#queens-agent")
        assert tab.locator("h2#queens-agent").inner_text().startswith(shown)


@complete_site
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_complete_agent_de_la_reine_is_the_card_first(browser, complete_built, complete_base, lang):
    page = card_page(complete_built.site, lang, "queens-agent")
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, "Agent de la reine")
        assert found[0]["kind"] == "card" and found[0]["href"].endswith(f"{page}#queens-agent"), found[:3]


@complete_site
def test_complete_the_language_menu_keeps_the_place_and_the_query(browser, complete_base):
    with watched(browser, complete_base) as tab:
        switch_keeps_the_place_and_the_query(tab, complete_base, "en")


@complete_site
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_complete_offline_search_answers_within_the_budget(browser, complete_base, device, record_property):
    """The judge's case: the complete site opened from disk (file://) on a desktop and on a phone
    (390×844), the reader searching at once, every part of the index loading meanwhile (the rulings
    of cards last). Three readers one after another; each one's time to the first result and
    longest main-thread block are recorded (JUnit properties). The budget (first result under
    FIRST_RESULT_MS on a desktop, no block over BLOCK_MS on both) is asserted on the best of the
    three: a machine busy with other work makes some readers slow, slow code makes all three slow.
    (Measured on 2 cores at load 6 with other builds running, every part loaded: desktop first
    result 534–1,089 ms, longest block 103–175 ms; phone 1,060–1,853 ms, 99–146 ms.)"""
    runs = []
    for run in range(1, 4):
        first, longest, engine = _measure(browser, f"{complete_base}/de/rules/retrace.html",
                                          DESKTOP if device == "desktop" else PHONE, "Friedhof")
        assert engine == "worker"
        record_property(f"first_result_ms_{run}", round(first))
        record_property(f"longest_main_thread_block_ms_{run}", round(longest))
        runs.append((first, longest))
    if device == "desktop":   # the goal's first-result time is a desktop's; a phone's is recorded
        assert min(first for first, _ in runs) < FIRST_RESULT_MS, runs
    assert min(longest for _, longest in runs) <= BLOCK_MS, runs


@complete_site
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_complete_axe_finds_no_serious_violation_nor_a_repeated_landmark(browser, complete_built, axe_source, lang):
    site = complete_built.site
    pages = ("rules/retrace.html", card_page(site, lang, "queens-agent"), "changes/2026-01-16.html", "status.html")
    with watched(browser, complete_built.site.resolve().as_uri(), locale=f"{lang}-{lang.upper()}") as tab:
        report = {}
        for path in pages:
            tab.goto(f"{site.resolve().as_uri()}/{lang}/{path}")
            report[path] = axe_violations(tab, axe_source, also=("landmark-unique",)) + (
                [{"id": "repeated landmarks", "found": repeated}] if (repeated := repeated_landmarks(tab)) else [])
        assert not any(report.values()), {path: found for path, found in report.items() if found}


# the index pages a reader scrolls on a phone: nothing on them is wider than the screen (every
# chapter and section opened); the status page's chart scrolls in its own focusable region
INDEXES = ("rules/index.html", "keywords.html", "cards/index.html", "changes/index.html", "glossary.html")


@complete_site
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_complete_the_index_pages_fit_a_phone(browser, complete_base, lang):
    with watched(browser, complete_base, viewport=PHONE, locale=f"{lang}-{lang.upper()}") as tab:
        wide = {}
        for path in INDEXES:
            tab.goto(f"{complete_base}/{lang}/{path}")
            tab.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            found = tab.evaluate("""() => { const w = document.documentElement.clientWidth;
                const over = Array.from(document.querySelectorAll('.md-content *'))
                  .filter(e => e.getBoundingClientRect().right > w + 0.5 && !e.closest('[role=region]'))
                  .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''));
                return {page: document.documentElement.scrollWidth, screen: w, wider: over}; }""")
            if found["page"] > found["screen"] or found["wider"]:
                wide[path] = found
        assert not wide, wide


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_axe_finds_no_serious_violation_with_the_phone_menu_open(browser, built, axe_source, lang):
    """On a phone the navigation and the table of contents of a page in it live in the drawer: a
    reader opens the menu, then the page's table of contents in it; axe checks the contrast of
    what shows, so each state is audited (the title of the table of contents was 4.41:1)."""
    context = browser.new_context(viewport=PHONE, locale=f"{lang}-{lang.upper()}")
    tab = context.new_page()
    try:
        report = {}
        for path in ("status.html", "about.html"):
            tab.goto(f"{built.site.resolve().as_uri()}/{lang}/{path}")
            tab.click("label.md-header__button[for='__drawer']")
            tab.wait_for_timeout(400)
            drawer = axe_violations(tab, axe_source)
            tab.click(".md-nav--primary label.md-nav__link[for='__toc']")
            tab.wait_for_timeout(400)
            report[path] = drawer + axe_violations(tab, axe_source)
        assert not any(report.values()), {path: found for path, found in report.items() if found}
    finally:
        context.close()


@complete_site
@pytest.mark.parametrize("lang, query, kind, shows", [
    ("en", "retrase", "title", "Retrace"),            # a letter changed
    ("de", "dregde", "title", "Ausgraben"),           # two letters swapped
    ("en", "lighting bolt", "card", "Lightning Bolt"),  # a letter dropped
    ("en", "Queens Agent", "card", "Queen's Agent"),  # no apostrophe
    ("fr", "Queens Agent", "card", "Agent de la reine"),
])
def test_complete_typos_and_punctuation_are_forgiven(browser, complete_base, lang, query, kind, shows):
    """The queries of issue 32.1 that found nothing: the thing meant comes first."""
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, query)
        assert found and found[0]["kind"] == kind and shows in found[0]["text"], found[:3]


def _official():
    """The project's official names (translations/official.yaml), as the build reads them."""
    from rulekb.official import OFFICIAL_FILE, official_from
    return official_from((sitebuild.ROOT / OFFICIAL_FILE).read_bytes(), OFFICIAL_FILE, ("en", "de", "fr"))


@complete_site
@pytest.mark.parametrize("lang, english", [("de", "Dredge"), ("fr", "Dredge"), ("de", "Retrace"), ("fr", "Retrace"),
                                           ("fr", "Buyback"), ("de", "Buyback")])
def test_complete_a_keyword_is_found_first_by_its_official_name(browser, complete_base, lang, english):
    """Issue 29.3: Ausgraben, Dragage, Zurückverfolgen, Pistage, Rappel … (the names printed cards
    give the keyword, translations/official.yaml) lead to the keyword's rule first, in the page's
    language."""
    keyword = _official().find_keyword(english)
    name = keyword.name(lang)
    assert name is not None, (english, lang)
    with watched(browser, complete_base, viewport=PHONE) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, name.name)
        assert found and found[0]["kind"] == "title" and found[0]["text"].split()[1] == keyword.rule, (name.name, found[:3])


def _defining_rule(site: Path, english: str) -> str:
    """The number of today's rule that the English term names in the built site's English index:
    the rule titled so ("404 Graveyard"), else the one the glossary's entry leads to (its names:
    "Mana Value … See rule 202.3.")."""
    from rulekb.render.search import decode
    rules = decode((site / "en" / "search" / "rules.js").read_text(encoding="utf-8"))["rules"]
    titled = [today or number for _id, number, today, title, *_ in rules if title.casefold() == english]
    named = [today or number for _id, number, today, _t, _l, aliases, _u in rules
             if english in {a.casefold() for a in aliases}]
    return (titled + named)[0]


@complete_site
@pytest.mark.parametrize("lang, english", [("de", "mana value"), ("fr", "mana value"), ("de", "graveyard"),
                                           ("fr", "graveyard")])
def test_complete_a_game_term_is_found_first_by_its_official_term(browser, complete_built, complete_base, lang, english):
    """Issue 32.1: today's official term ("Manabetrag", as cards print it since 2021) leads to the
    rule that defines the term, where the glossary's entry of its English term points."""
    term = _official().term(english).name(lang)
    number = _defining_rule(complete_built.site, english)
    with watched(browser, complete_base, viewport=PHONE) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, term.term)
        assert found and found[0]["text"].split()[1] == number, (term.term, found[:3])


@complete_site
@pytest.mark.parametrize("lang, query, number", [("en", "mana value", "202.3"), ("fr", "cimetière", "404"),
                                                 ("de", "Friedhof", "404"), ("de", "Manabetrag", "202.3"),
                                                 ("fr", "valeur de mana", "202.3")])
def test_complete_the_rule_that_defines_a_term_comes_first(browser, complete_base, lang, query, number):
    """"mana value" put the glossary first and 202.3 fourth or fifth; "cimetière" never showed 404
    Graveyard: the rule a term leads to (the glossary's "See rule", the termbase's terms) first."""
    with watched(browser, complete_base) as tab:
        tab.goto(f"{complete_base}/{lang}/index.html")
        found = find(tab, query)
        assert found and found[0]["text"].split(maxsplit=2)[1] == number, found[:3]
