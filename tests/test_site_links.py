"""A link checker over the built site: every internal href and src resolves to a file of the
site, and every fragment to an id on the target page (ids contain dots: #702.78a)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

import pytest

import sitebuild

LINK_ATTRS = {"a": "href", "link": "href", "area": "href", "script": "src", "img": "src", "iframe": "src",
              "source": "src", "audio": "src", "video": "src"}
EXTERNAL = ("http:", "https:", "mailto:", "javascript:", "data:", "tel:")


class Page(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []   # (tag, url)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        values = {k: v for k, v in attrs if v is not None}
        for key in ("id", "name"):
            if key in values and (key == "id" or tag == "a"):
                self.ids.add(values[key])
        attr = LINK_ATTRS.get(tag)
        if attr and attr in values:
            self.links.append((tag, values[attr]))


@lru_cache(maxsize=None)
def parse(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


# the ids of a page a link points into, read with two expressions rather than the parser: six
# times faster on the complete data's rule pages (150 MB of them), the same ids (an id or an
# <a name> in a tag; the site writes its attributes in double quotes)
_TAG_ID = re.compile(r'<[a-zA-Z][^<>]*?\sid="([^"]*)"')
_A_NAME = re.compile(r'<a\s[^<>]*?\bname="([^"]*)"')


@lru_cache(maxsize=None)
def ids_of(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    return frozenset(html.unescape(v) for pattern in (_TAG_ID, _A_NAME) for v in pattern.findall(text))


def check_links(site: Path, pages: Callable[[str], bool] | None = None) -> tuple[list[str], int]:
    """(problems, number of internal links checked) for every HTML file under `site`, or for those
    whose path in the site (``en/n/702.81.html``) `pages` accepts."""
    problems: list[str] = []
    checked = 0
    site = site.resolve()
    for html in sorted(site.rglob("*.html")):
        where = html.relative_to(site).as_posix()
        if pages is not None and not pages(where):
            continue
        page = parse(html)
        for tag, url in page.links:
            if url.startswith(EXTERNAL) or url.startswith("//"):
                continue
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                problems.append(f"{where}: <{tag}> {url}: an unexpected URL scheme")
                continue
            checked += 1
            target = html if not parts.path else (html.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            if site not in target.parents and target != site:
                problems.append(f"{where}: {url} leads outside the site")
                continue
            if not target.is_file():
                problems.append(f"{where}: {url}: no file {target.relative_to(site).as_posix()}")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html" and fragment not in ids_of(target):
                problems.append(f"{where}: {url}: no id '{fragment}' in {target.relative_to(site).as_posix()}")
    return problems, checked


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    return sitebuild.built_site(tmp_path_factory)


@pytest.fixture(scope="session")
def complete_built(tmp_path_factory):
    return sitebuild.complete_site(tmp_path_factory)


def test_every_internal_link_and_fragment_of_the_site_resolves(built):
    problems, checked = check_links(built.site)
    assert checked > 1000
    assert not problems, "\n".join(problems[:50])


def test_the_subrule_links_with_dots_are_checked(built):
    page = parse((built.site / "de" / "rules" / "retrace.html").resolve())
    assert ("a", "../rules/casting-spells.html#601.2b") in page.links
    target = (built.site / "de" / "rules" / "casting-spells.html").resolve()
    assert "601.2b" in parse(target).ids
    assert ids_of(target) == parse(target).ids   # the quick reading of ids is the parser's


@pytest.mark.complete_site
@pytest.mark.parametrize("folder", ["n", "changes"])
def test_the_number_and_changes_pages_of_the_complete_data_lead_where_they_say(complete_built, folder):
    """Issue 13 at its scale: every number of every release (``<lang>/n/<number>.html``, some
    5,500 per language) and every release's page of changes (110 per language) of the complete
    data, in every language: each internal link resolves, each anchor to an id of its page."""
    site = complete_built.site
    languages = sorted(p.name for p in site.iterdir() if (p / "rules").is_dir())
    assert languages == ["de", "en", "fr"]
    for lang in languages:
        pages = sorted((site / lang / folder).glob("*.html"))
        assert len(pages) > (5000 if folder == "n" else 100), f"{lang}/{folder}: {len(pages)} pages"
    problems, checked = check_links(site, lambda path: path.split("/")[1:2] == [folder])
    assert checked > (3 * 5000 if folder == "n" else 3 * 100 * 10)
    assert not problems, f"{len(problems)} broken links, the first:\n" + "\n".join(problems[:50])


@pytest.mark.complete_site
def test_no_link_or_anchor_of_the_complete_site_is_broken(complete_built):
    """Issue 29.7: every internal link and anchor of every page of the complete site resolves; a
    reference in an older text to a number of its release lands on the rule that had it then
    (81 links led to anchors their page lacks: phasing.html#502.15f, kicker.html#702.30d …), and
    no page shows text escaped twice (issue 31.5: 1,617 en, 227 de, 2,459 fr)."""
    problems, checked = check_links(complete_built.site)
    assert checked > 100_000
    assert not problems, f"{len(problems)} broken links, the first:\n" + "\n".join(problems[:50])
    shown = shown_entities(complete_built.site)
    assert not shown, f"{len(shown)} places:\n" + "\n".join(shown[:30])


# an entity a reader would see as it is written: text escaped twice (issue 31.5)
_SHOWN_ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);")


class Shown(HTMLParser):
    """What a reader sees of a page: its text (not scripts or styles) and its titles, tooltips
    and labels, with each character reference read once, as a browser reads it."""

    SEEN_ATTRS = ("title", "aria-label", "alt", "placeholder", "content")

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.seen: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.seen += [v for k, v in attrs if k in self.SEEN_ATTRS and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data):
        if not self.hidden:
            self.seen.append(data)


def shown_entities(site: Path) -> list[str]:
    """Each place of the site's pages where a reader would see a character reference
    (``&#39;``, ``&amp;``) instead of the character: the page and the text around it."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for text in Shown(page.read_text(encoding="utf-8")).seen:
            for m in _SHOWN_ENTITY.finditer(text):
                found.append(f"{page.relative_to(site).as_posix()}: …{text[max(0, m.start() - 30):m.end() + 10]}…")
    return found


def test_no_page_of_the_site_shows_text_escaped_twice(built):
    """Apostrophes and quotes of card names and rule texts ("Queen's Agent", "Émissaire de
    l'aurore", the word diffs of rule pages) reach the page escaped once: in the tables of
    contents too, which showed "Queen&#39;s Agent" on 8 pages."""
    assert not shown_entities(built.site), "\n".join(shown_entities(built.site)[:30])
    toc = (built.site / "en" / "cards" / "qu.html").read_text(encoding="utf-8")
    entry = re.search(r'<a href="#queens-agent" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]*?)\s*</span>',
                      toc)
    assert entry is not None and html.unescape(entry.group(1)) == "Queen's Agent"


def test_the_scan_finds_text_escaped_twice(tmp_path):
    (tmp_path / "p.html").write_text('<p>Queen&#39;s Agent &amp; &lt;x&gt;</p><script>var a = "&amp;amp;";</script>'
                                     '<a title="l&amp;#39;aurore">x</a><p>Queen&amp;#39;s Agent</p>', "utf-8")
    found = shown_entities(tmp_path)
    assert len(found) == 2 and "Queen&#39;s" in found[1] and "l&#39;aurore" in found[0]


def test_the_checker_finds_broken_links_and_fragments(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "page.html").write_text('<p id="702.78a">x</p><a href="#702.78a">ok</a>'
                                              '<a href="other.html">missing file</a>'
                                              '<a href="page.html#702.78b">missing id</a>'
                                              '<a href="../../outside.html">outside</a>'
                                              '<script src="x.js"></script>'
                                              '<a href="https://example.com/">external</a>', encoding="utf-8")
    problems, checked = check_links(tmp_path)
    assert checked == 5
    assert len(problems) == 4
    assert check_links(tmp_path, lambda path: path != "a/page.html") == ([], 0)
    assert any("no id '702.78b'" in p for p in problems)
    assert any("outside" in p for p in problems)


PAGE_BUDGET = 400_000   # bytes: the most a phone opens at once (issue 32.3)


def pages_over(site: Path, budget: int = PAGE_BUDGET) -> list[tuple[int, str]]:
    """(size, path) of every HTML page of the site larger than `budget` bytes, largest first."""
    return sorted(((page.stat().st_size, page.relative_to(site).as_posix()) for page in site.rglob("*.html")
                   if page.stat().st_size > budget), reverse=True)


def test_the_scan_finds_pages_over_the_budget(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "big.html").write_text("x" * 1001, encoding="utf-8")
    (tmp_path / "small.html").write_text("x" * 1000, encoding="utf-8")
    assert pages_over(tmp_path, 1000) == [(1001, "a/big.html")]


@pytest.mark.complete_site
def test_no_page_of_the_complete_site_is_over_400_kb(complete_built):
    """Issue 32.3: 47 pages were over 400 KB (the release of 2009-07-11 1.41 MB, rules/enchant
    594-762 KB, the English status page 785 KB …): release pages are split by chapter, a rule
    with too many rulings lists their cards, long texts' diffs keep the words around a change."""
    over = pages_over(complete_built.site)
    assert not over, f"{len(over)} pages over {PAGE_BUDGET} bytes:\n" + "\n".join(f"{s} {p}" for s, p in over[:50])


# a word of a page's text as the scan reads it: letters, digits and the separators of ids
_WORD = re.compile(r"[\w.-]+")


@dataclass(frozen=True)
class InternalNames:
    """The names that are the project's and no reader's (issue 32.4): `shown` are never a whole
    text of a page (a link, a cell, a heading), `anywhere` never even a word of one."""

    shown: frozenset[str]      # rule ids: a slug such as "these-magic-rules-apply-to-any-magic", "for-mirrodin"
    anywhere: frozenset[str]   # ruling ids ("explore-reveal-top-card") and check codes ("staleness.stale")


def internal_names(kb) -> InternalNames:
    """The ids of the knowledge base's rules and rulings and the codes of the checks, those of
    several words (a one-word id such as "buyback" is also the word of the English text). A rule's
    id may be a word of the text too ("first-strike damage", "jump-start"): only a text that is
    the id alone is one shown as a name."""
    from rulekb.check import all_checks
    several = re.compile(r"[-._]")
    anywhere = frozenset(name for name in [ruling.id for ruling in kb.rulings] + [check.code for check in all_checks()]
                         if several.search(name))
    return InternalNames(frozenset(rule.id for rule in kb.rules if several.search(rule.id)) | anywhere, anywhere)


class NamedTexts(Shown):
    """What a reader sees of a page (`Shown`), each text with the element it is the text of when
    that element names something (a link, a cell, a heading, a term, a fold's summary; "@title"
    for a tooltip, "@aria-label" …), or None (running text, a word diff's <del>/<ins>)."""

    NAMING = frozenset({"a", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary", "li", "option",
                        "label", "title", "caption", "legend", "button"})

    def __init__(self, text: str):
        self.current: str | None = None
        self.named: list[tuple[str | None, str]] = []
        super().__init__(text)

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        self.current = tag if tag in self.NAMING else None
        self.named += [(f"@{k}", v) for k, v in attrs if k in self.SEEN_ATTRS and v]   # a tooltip, a label: a name

    def handle_endtag(self, tag):
        super().handle_endtag(tag)
        self.current = None

    def handle_data(self, data):
        super().handle_data(data)
        if not self.hidden:
            self.named.append((self.current, data))


def shown_names(site: Path, names: InternalNames, skip: Callable[[str], bool] = lambda path: False) -> list[str]:
    """Each place of the site's pages (but those whose path `skip` accepts) where a reader sees an
    internal name: the whole text of an element that names something (a link, a cell, a heading;
    `NamedTexts`) that is one of `names.shown`, or a word of any text that is one of
    `names.anywhere` (not a part of a path: "rules/for-mirrodin.html")."""
    found = []
    for page in sorted(site.rglob("*.html")):
        where = page.relative_to(site).as_posix()
        if skip(where):
            continue
        for tag, text in NamedTexts(page.read_text(encoding="utf-8")).named:
            if tag is not None and text.strip() in names.shown:
                found.append(f"{where}: {text.strip()!r}")
                continue
            for m in _WORD.finditer(text):
                word = m.group().strip(".")
                if word in names.anywhere and text[m.start() - 1:m.start()] != "/" and text[m.end():m.end() + 1] != "/":
                    found.append(f"{where}: {word!r} in …{' '.join(text[max(0, m.start() - 40):m.end() + 20].split())}…")
    return found


def test_the_scan_finds_internal_names_shown_as_names(tmp_path):
    names = InternalNames(frozenset({"for-mirrodin", "first-strike", "in-play", "staleness.stale", "explore-reveal-top-card"}),
                          frozenset({"staleness.stale", "explore-reveal-top-card"}))
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "keywords.html").write_text(
        '<ul><li><a href="rules/for-mirrodin.html">for-mirrodin</a></li><li><a href="rules/retrace.html">retrace</a></li>'
        '<li>deals first-strike damage</li><li>the <del>in-play</del><ins>battlefield</ins></li></ul>'
        '<script>var x = "for-mirrodin";</script>',
        encoding="utf-8")
    (tmp_path / "de" / "status.html").write_text(
        '<p><code>staleness.stale</code> Entscheidung explore-reveal-top-card (Variante 2).</p>'
        '<p>siehe rules/explore-reveal-top-card.html und <a title="for-mirrodin" href="x">Für Mirrodin!</a></p>',
        encoding="utf-8")
    (tmp_path / "de" / "api.html").write_text("<p>for-mirrodin</p>", encoding="utf-8")
    found = shown_names(tmp_path, names, skip=lambda path: path.endswith("/api.html"))
    assert found == ["de/keywords.html: 'for-mirrodin'",
                     "de/status.html: 'staleness.stale' in …staleness.stale…",
                     "de/status.html: 'explore-reveal-top-card' in …Entscheidung explore-reveal-top-card (Variante 2).…",
                     "de/status.html: 'for-mirrodin'"]


def _api_page(path: str) -> bool:
    """The JSON API's page, which documents the ids a program reads (the one page where an id is the subject)."""
    return path.endswith("/api.html")


def test_no_page_of_the_site_shows_an_internal_name(built):
    """Issue 32.4 on the seed site: no rule or ruling id, no check code on screen (the status
    page showed "terminology.deprecated" and "Entscheidung explore-reveal-top-card")."""
    from rulekb.knowledge import load_knowledge_base
    names = internal_names(load_knowledge_base(built.site.parent / "project"))
    assert "explore-reveal-top-card" in names.anywhere and "staleness.stale" in names.anywhere
    found = shown_names(built.site, names, skip=_api_page)
    assert not found, f"{len(found)} places:\n" + "\n".join(found[:40])


@pytest.mark.complete_site
def test_no_page_of_the_complete_site_shows_an_internal_name(complete_built, record_property):
    """Issue 32.4 at its scale: every page of the complete site, every rule and ruling id and
    check code (untitled rules by their slug on the rules index, keywords such as "for-mirrodin",
    check codes and ruling ids on the status pages)."""
    from rulekb.knowledge import load_knowledge_base
    result = complete_built.result
    record_property("build", {"wall_s": round(result.seconds, 1), "cpu_s": round(result.cpu, 1),
                              "mkdocs_cpu_s": round(result.mkdocs_cpu, 1),
                              "log": [line.strip() for line in complete_built.log.splitlines() if " in " in line]})
    names = internal_names(load_knowledge_base(sitebuild.ROOT))
    found = shown_names(complete_built.site, names, skip=_api_page)
    assert not found, f"{len(found)} places:\n" + "\n".join(found[:60])
