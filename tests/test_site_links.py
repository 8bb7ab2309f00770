"""A link checker over the built site: every internal href and src resolves to a file of the
site, and every fragment to an id on the target page (ids contain dots: #702.78a)."""

from __future__ import annotations

from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
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


def check_links(site: Path) -> tuple[list[str], int]:
    """(problems, number of internal links checked) for every HTML file under `site`."""
    problems: list[str] = []
    checked = 0
    site = site.resolve()
    for html in sorted(site.rglob("*.html")):
        page = parse(html)
        where = html.relative_to(site).as_posix()
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
            if fragment and target.suffix == ".html" and fragment not in parse(target).ids:
                problems.append(f"{where}: {url}: no id '{fragment}' in {target.relative_to(site).as_posix()}")
    return problems, checked


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    return sitebuild.built_site(tmp_path_factory)


def test_every_internal_link_and_fragment_of_the_site_resolves(built):
    problems, checked = check_links(built.site)
    assert checked > 1000
    assert not problems, "\n".join(problems[:50])


def test_the_subrule_links_with_dots_are_checked(built):
    page = parse((built.site / "de" / "rules" / "retrace.html").resolve())
    assert ("a", "../rules/casting-spells.html#601.2b") in page.links
    assert "601.2b" in parse((built.site / "de" / "rules" / "casting-spells.html").resolve()).ids


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
    assert any("no id '702.78b'" in p for p in problems)
    assert any("outside" in p for p in problems)
