"""Issue 32.1's measurement: the project's own search engine (templates/assets/javascripts/
rulekb-search-worker.js, its prebuilt index render/search.py) against MiniSearch (a well-kept
engine with fuzzy and prefix search that loads a prebuilt index without fetch), on a built
complete site, as a judge's phone would use them.

    .venv/bin/python benchmarks/search_engines.py SITE_DIR [--langs en,de,fr] [--json OUT]

SITE_DIR is a site `rulekb build` made of the complete data (``rulekb build --site-dir DIR``).
For each language the script builds MiniSearch's index from the same documents the project's
engine searches (decoded from the site's index parts: the rules in force and the glossary of
the language, every card's names, the rulings of cards), in node, with the options of
benchmarks/search_minisearch.js, into ``SITE_DIR/<lang>/bench/`` with a page that loads it as a
script (as the site's parts: from file:// a page may not fetch). Then it measures, in Chromium
(/usr/bin/chromium, Playwright) at a phone's 390×844 with the processor slowed 4× (CDP
Emulation.setCPUThrottlingRate) and the pages opened from file://:

- the index's size per language: what a language's reader loads (the project's: the language's
  rules part and the shared card and ruling parts; MiniSearch's: its prebuilt index with the
  stored fields its results show), on disk and gzipped;
- the time the whole index takes to load, from the search's start (focus) to every part in;
- the time to first results after the last key: the query typed (80 ms between keys) right
  after the search opened on a freshly loaded page ("cold": the index loads meanwhile; also
  from the search's opening, as an engine that loads on the page holds the keys back until it
  is done), and again with the index loaded ("warm"), from the keydown of the last key to the
  results shown;
  the project's engine in its worker (as the site runs it) and both engines on the page (a
  worker's time is not slowed by the throttling, and a worker's heap is not the page's);
- the JS heap the search holds (the page's heap once every part is in and a query answered,
  minus the heap before the search started, after a garbage collection; both engines on the
  page for this);
- the quality queries of the issue: the first result of each, and whether it is the one meant.

MiniSearch is vendored (benchmarks/vendor/minisearch-7.2.0/, MIT, its licence beside it; the
file is dist/umd/index.js of the npm package minisearch 7.2.0, sha256 below), so the measurement
runs on a machine without network. The figures of a run are in the commit that added this script
and in benchmarks/HISTORY.md.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

from rulekb.render.search import decode

VENDOR = HERE / "vendor" / "minisearch-7.2.0" / "minisearch.js"
VENDOR_SHA256 = "03c27931eb603af1d3358579e9885eafdb6a2f5fa9929557b3e77d7e99d06d03"
OPTIONS = HERE / "search_minisearch.js"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
THROTTLE = 4
KEY_DELAY_MS = 80


@dataclass(frozen=True)
class Query:
    lang: str
    text: str
    wanted: str          # what the first result must show: a rule number, or a card's name
    kind: str            # "rule" (its number first in the result) or "card"


QUERIES = (
    Query("en", "retrase", "702.81", "rule"),
    Query("de", "dregde", "702.52", "rule"),
    Query("en", "lighting bolt", "Lightning Bolt", "card"),
    Query("en", "Queens Agent", "Queen's Agent", "card"),
    Query("fr", "Queens Agent", "Agent de la reine", "card"),
    Query("en", "mana value", "202.3", "rule"),
    Query("fr", "cimetière", "404", "rule"),
    Query("de", "Manabetrag", "202.3", "rule"),
    Query("de", "zustandsbasierte Aktionen", "704", "rule"),
    Query("fr", "valeur de mana", "202.3", "rule"),
    Query("de", "Ausgraben", "702.52", "rule"),
    Query("fr", "Dragage", "702.52", "rule"),
    Query("fr", "Rappel", "702.27", "rule"),
    Query("de", "Zurückverfolgen", "702.81", "rule"),
    Query("fr", "Pistage", "702.81", "rule"),
    Query("en", "702.81", "702.81", "rule"),
)


# ------------------------------------------------------------------ the documents


def documents(site: Path, lang: str) -> list[dict]:
    """The documents the project's engine makes of the parts (rulekb-search-worker.js: addRules,
    addCards, addRulings), with the same names and texts."""
    rules = decode((site / lang / "search" / "rules.js").read_text(encoding="utf-8"))
    cards = decode((site / "search" / "cards.js").read_text(encoding="utf-8"))
    rulings = decode((site / "search" / "rulings.js").read_text(encoding="utf-8"))
    docs: list[dict] = []

    def add(kind, url, label, title, names, text, text_lang, today=""):
        docs.append({"id": len(docs), "kind": kind, "url": url, "label": label, "title": title,
                     "names": "\t".join(n for n in (*names, label, today) if n), "text": text, "lang": text_lang})

    for rid, number, today, title, title_lang, aliases, units in rules["rules"]:
        page = f"rules/{rid}.html"
        add("title", page, number, title, [title, *aliases], "", title_lang, today)
        for kind, anchor, text, text_lang, names in units:
            numbered = kind in ("t", "s")
            add(kind, f"{page}#{anchor}", anchor if numbered else "", title, names, text, text_lang,
                today + anchor[len(number):] if numbered and today else "")
    for anchor, head, head_lang, others, definition, definition_lang in rules["glossary"]:
        add("glossary", f"glossary.html#{anchor}", "", head, [head, *others], definition, head_lang or definition_lang)
    here = cards["langs"].index(lang) if lang in cards["langs"] else -1
    shown_names = []
    for card in cards["cards"]:
        shown = card[here + 1] if here >= 0 and card[here + 1] else card[1]
        shown_names.append(shown)
        names = list(dict.fromkeys(n for n in card[1:] if n))
        add("card", card[0], "", shown, names, "", "" if here >= 0 and shown == card[here + 1] else cards["langs"][0])
    for link, places, english, others in rulings["rulings"]:
        text, shown = (english, "") if lang == "en" else (others.get(lang), "")
        if not text:
            shown = "en" if english else next(iter(others))
            text = english or others[shown]
        add("r", link, "", " · ".join(shown_names[i] for i in places), [], text, shown)
    return docs


# ------------------------------------------------------------------ MiniSearch's index and page

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>MiniSearch</title></head><body>
<input class="q" type="search" autocomplete="off"><p class="meta"></p><ol class="out"></ol>
<script src="minisearch.js"></script>
<script src="search_minisearch.js"></script>
<script>
(function () {{
  "use strict";
  var input = document.querySelector("input.q"), out = document.querySelector("ol.out");
  var meta = document.querySelector("p.meta");
  var state = window.rulekbSearch = {{ started: null, ready: null, shown: [], parts: [] }};
  var ms = null, pending = null;
  function esc(t) {{ return String(t).replace(/[&<>"]/g, function (c) {{ return "&#" + c.charCodeAt(0) + ";"; }}); }}
  function run(q) {{
    if (!q.trim()) {{ out.innerHTML = ""; return; }}
    if (!ms) {{ pending = q; return; }}
    var found = ms.search(q), top = found.slice(0, 30);
    meta.textContent = found.length + " results";
    out.innerHTML = top.map(function (r) {{
      return '<li><a href="' + esc(r.url) + '" data-kind="' + esc(r.kind) + '">' + esc(r.kind === "card" ? "Card" : "Rule") + " " +
        esc(r.label) + " " + esc(r.title) + "</a><p>" + esc((r.text || "").slice(0, 320)) + "</p></li>";
    }}).join("");
    state.shown.push({{ query: q, at: performance.now(), total: found.length, parts: ["rules", "cards", "rulings"] }});
  }}
  window.rulekbMiniIndex = function (base64) {{
    var t = performance.now(), binary = atob(base64), bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).text().then(function (json) {{
      state.unpackMs = performance.now() - t;
      ms = MiniSearch.loadJSON(json, rulekbMiniOptions());
      state.ready = performance.now();
      state.loadMs = state.ready - t;
      state.parts = ["rules", "cards", "rulings"];
      if (pending !== null) run(pending);
    }});
  }};
  function start() {{
    if (state.started) return;
    state.started = performance.now();
    var s = document.createElement("script");
    s.src = "index.js";
    document.head.appendChild(s);
  }}
  input.addEventListener("focus", start);
  input.addEventListener("input", function () {{ run(input.value); }});
}})();
</script></body></html>
"""


def vendored() -> Path:
    digest = hashlib.sha256(VENDOR.read_bytes()).hexdigest()
    if digest != VENDOR_SHA256:
        raise SystemExit(f"{VENDOR}: sha256 {digest}, not the vendored MiniSearch 7.2.0's {VENDOR_SHA256}")
    return VENDOR


def build_minisearch(site: Path, lang: str) -> dict:
    """MiniSearch's index of one language into SITE/<lang>/bench/ with its page; its figures."""
    folder = site / lang / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(vendored(), folder / "minisearch.js")
    shutil.copy(OPTIONS, folder / "search_minisearch.js")
    (folder / "index.html").write_text(PAGE.format(lang=lang), encoding="utf-8")
    docs = documents(site, lang)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(docs, f, ensure_ascii=False)
    try:
        done = subprocess.run(["node", str(OPTIONS), str(folder / "minisearch.js"), f.name, str(folder / "index.js")],
                              capture_output=True, text=True, check=True)
    finally:
        Path(f.name).unlink()
    built = json.loads(done.stdout)
    data = (folder / "index.js").read_bytes()
    return {"docs": built["docs"], "build_ms": built["ms"], "bytes": len(data), "gzip": len(gzip.compress(data, 9))}


def project_sizes(site: Path, lang: str) -> dict:
    parts = [site / lang / "search" / "rules.js", site / "search" / "cards.js", site / "search" / "rulings.js"]
    data = [p.read_bytes() for p in parts]
    return {"bytes": sum(map(len, data)), "gzip": sum(len(gzip.compress(d, 9)) for d in data)}


# ------------------------------------------------------------------ the browser

FIELD = {"project": "input.md-search__input", "minisearch": "input.q"}


def _page(engine: str, site: Path, lang: str) -> str:
    return (site / lang / ("index.html" if engine == "project" else "bench/index.html")).resolve().as_uri()


class Tab:
    """A phone-sized tab, its processor slowed, on one engine's page (`on_page`: no worker)."""

    def __init__(self, browser, engine: str, on_page: bool):
        self.context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        if on_page:
            self.context.add_init_script("window.Worker = undefined;")
        self.tab = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.tab)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        self.cdp.send("HeapProfiler.enable")
        self.engine = engine
        self.timeline: list[dict] = []
        self.tab.add_init_script("""document.addEventListener("keydown", () => { window.lastKey = performance.now(); }, true);""")

    def close(self):
        self.context.close()

    def open(self, site: Path, lang: str):
        self.tab.goto(_page(self.engine, site, lang))

    def heap(self) -> int:
        self.cdp.send("HeapProfiler.collectGarbage")
        return int(self.cdp.send("Runtime.getHeapUsage")["usedSize"])

    def type(self, query: str) -> float:
        """Type the query into the emptied field; ms from its last key to its results."""
        field = self.tab.locator(FIELD[self.engine])
        button = self.tab.locator('label.md-header__button[for="__search"]')
        if self.engine == "project" and not self.tab.evaluate("() => document.getElementById('__search').checked") \
                and button.is_visible():    # on a phone the site's field is behind the header's search button
            button.click()
        field.click()
        field.fill("")
        self.tab.keyboard.type(query, delay=KEY_DELAY_MS)
        answered = "q => window.rulekbSearch.shown.filter(s => s.query === q && s.at >= window.lastKey)[0]"
        self.tab.wait_for_function(f"q => !!({answered})(q)", arg=query, timeout=120000)
        self.timeline.append(self.tab.evaluate("""() => { const s = window.rulekbSearch;
            return {started: s.started, ready: s.ready, lastKey: window.lastKey, shown: s.shown.length}; }"""))
        return self.tab.evaluate(f"q => ({answered})(q).at - window.lastKey", query)

    def loaded(self):
        self.tab.wait_for_function("() => ['rules', 'cards', 'rulings'].every(p => window.rulekbSearch.parts.includes(p))",
                                   timeout=300000)

    def first(self) -> str:
        return self.tab.evaluate("""() => { const a = document.querySelector('.md-search-result__item a, ol.out a');
                                            return a ? a.innerText.replace(/\\s+/g, ' ').trim() : ''; }""")


def good(query: Query, first: str) -> bool:
    if query.kind == "card":
        return first.split(" ", 1)[0] in ("Card", "Karte", "Carte") and query.wanted in first
    words = first.split()
    return len(words) > 1 and words[1] == query.wanted


def measure(site: Path, langs: list[str]) -> dict:
    from playwright.sync_api import sync_playwright
    results: dict = {"size": {}, "load": {}, "opened": {}, "cold": {}, "warm": {}, "heap": {}, "quality": []}
    for lang in langs:
        results["size"][lang] = {"project": project_sizes(site, lang), "minisearch": build_minisearch(site, lang)}
        print(lang, "size", results["size"][lang], flush=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for engine, on_page in (("project", False), ("project", True), ("minisearch", True)):
            name = f"{engine}{' (page)' if on_page and engine == 'project' else ''}"
            for lang in langs:
                queries = [q for q in QUERIES if q.lang == lang] or [QUERIES[0]]
                # cold: a fresh page, the search opened and the first query typed at once
                tab = Tab(browser, engine, on_page)
                try:
                    tab.open(site, lang)
                    before = tab.heap() if on_page else None
                    cold = tab.type(queries[0].text)
                    opened = tab.tab.evaluate("""q => window.rulekbSearch.shown.filter(s => s.query === q)[0].at
                                                      - window.rulekbSearch.started""", queries[0].text)
                    results["opened"].setdefault(name, {})[lang] = round(opened)
                    tab.loaded()
                    results["load"].setdefault(name, {})[lang] = round(tab.tab.evaluate(
                        """() => { const s = window.rulekbSearch;
                                   return (s.timings ? Math.max(...s.timings.map(t => t[3])) : s.ready) - s.started; }"""))
                    warm = [tab.type(q.text) for q in queries for _ in range(2)]
                    results["cold"].setdefault(name, {})[lang] = round(cold)
                    results["warm"].setdefault(name, {})[lang] = round(statistics.median(warm))
                    if on_page:
                        results["heap"].setdefault(name, {})[lang] = tab.heap() - before
                    for q in queries:
                        tab.type(q.text)
                        first = tab.first()
                        results["quality"].append({"engine": name, "lang": lang, "query": q.text, "first": first[:90],
                                                   "good": good(q, first)})
                finally:
                    tab.close()
                print(name, lang, "cold", results["cold"][name][lang], "warm", results["warm"][name][lang],
                      "heap", results["heap"].get(name, {}).get(lang), flush=True)
        browser.close()
    return results


def table(results: dict, langs: list[str]) -> str:
    mb = lambda n: f"{n / 1e6:.2f} MB"
    lines = ["index per language (on disk / gzipped): project (rules part + cards + rulings) | MiniSearch (prebuilt, stored fields)"]
    for lang in langs:
        s = results["size"][lang]
        lines.append(f"  {lang}: {mb(s['project']['bytes'])} / {mb(s['project']['gzip'])} | "
                     f"{mb(s['minisearch']['bytes'])} / {mb(s['minisearch']['gzip'])} ({s['minisearch']['docs']} docs)")
    for what, label in (("load", "every part loaded, from the search's start (ms)"),
                        ("opened", "fresh page: the query typed at once, from the search's opening to its results (ms)"),
                        ("cold", "fresh page: the same, from the last key to the results (ms)"),
                        ("warm", "results after the last key, index loaded, median (ms)"),
                        ("heap", "JS heap the search holds (MB)")):
        lines.append(f"{label}:")
        for name, by_lang in results[what].items():
            shown = ", ".join(f"{lang} {v / 1e6:.1f}" if what == "heap" else f"{lang} {v}" for lang, v in by_lang.items())
            lines.append(f"  {name}: {shown}")
    lines.append("quality (first result; ok/not):")
    for name in dict.fromkeys(r["engine"] for r in results["quality"]):
        rows = [r for r in results["quality"] if r["engine"] == name]
        lines.append(f"  {name}: {sum(r['good'] for r in rows)}/{len(rows)}; not: "
                     + "; ".join(f"{r['lang']} '{r['query']}' -> {r['first'][:50] or '(nothing)'}" for r in rows if not r["good"]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--langs", default="en,de,fr")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    langs = args.langs.split(",")
    results = measure(args.site, langs)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(results, langs))


if __name__ == "__main__":
    main()
