"""Rule numbers as URLs (render/numbers.py): ``<lang>/n/<number>.html`` for every number of every
imported release and of the rules' histories, link-checked against the rendered rule pages."""

from __future__ import annotations

import html
import re

import pytest

from rulekb.releases import imported, numbering
from test_render import render_tree

REFRESH = re.compile(r'<meta http-equiv="refresh" content="(\d+); url=([^"]+)">')
LINK = re.compile(r'<a href="([^"]+)">')


@pytest.fixture(scope="module")
def four(full):
    root, _, kb, _ = full
    site, *_ = render_tree(root)
    return site, kb


def target(site, lang: str, page: str, href: str) -> tuple[str, str]:
    """The docs page and anchor a relative link of an n/ page leads to."""
    assert href.startswith("../") and "#" in href, href
    path, anchor = html.unescape(href[3:]).split("#", 1)
    assert path.endswith(".html")
    return path[:-5] + ".md", anchor


def test_every_number_page_leads_to_a_page_and_anchor_that_exist(four):
    site, kb = four
    for lang in kb.language_codes:
        pages = {path: text for path, text in site.files.items() if path.startswith(f"{lang}/n/")}
        for path, text in pages.items():
            wait, href = REFRESH.search(text).groups()
            links = LINK.findall(text)
            assert links[0] == href, path          # the visible link is where the page leads
            for link in links:
                page, anchor = target(site, lang, path, link)
                assert page in site.docs[lang], (path, link)
                assert f' id="{anchor}"' in site.docs[lang][page], (path, link)


def test_every_number_of_every_imported_release_has_its_page(four):
    site, kb = four
    numbers = {number for release in imported(kb) for number in numbering(kb, release)}
    assert len(numbers) > 3000
    for lang in kb.language_codes:
        have = {path[len(f"{lang}/n/"):-5] for path in site.files if path.startswith(f"{lang}/n/")}
        assert numbers <= have


def test_a_number_that_means_another_rule_today_says_what_it_meant(four):
    site, _ = four
    page = site.files["en/n/702.78.html"]
    wait, href = REFRESH.search(page).groups()
    assert href == "../rules/conspire.html#702.78" and int(wait) > 0   # time to read what it meant
    assert 'Today, 702.78 is <a href="../rules/conspire.html#702.78">702.78 Conspire</a>.' in page
    assert ('Before, 702.78 was the number of <a href="../rules/retrace.html#702.81">702.81 Retrace</a> '
            '(July 11, 2009 … May 1, 2011).') in page
    german = site.files["de/n/702.78.html"]
    assert '<html lang="de">' in german and "<title>Regel 702.78</title>" in german
    assert "Früher war 702.78 die Nummer von" in german and "(11. Juli 2009 … 1. Mai 2011)" in german
    assert "Aujourd’hui, 702.78 est" in site.files["fr/n/702.78.html"]


def test_a_number_that_means_the_same_rule_leads_there_at_once(four):
    site, _ = four
    page = site.files["en/n/601.2.html"]
    assert REFRESH.search(page).groups() == ("0", "../rules/casting-spells.html#601.2")
    assert "Before," not in page
    # 702.81a is Retrace's today, and was Devour's (2018) and Unearth's (2009, 2011) before
    page = site.files["en/n/702.81a.html"]
    assert REFRESH.search(page).groups() == ("10", "../rules/retrace.html#702.81a")
    assert page.index("702.82a (Devour)") < page.index("702.84a (Unearth)")   # the latest first


def test_a_number_that_is_gone_leads_to_the_rule_that_had_it(four):
    """The subrule 601.2e of 2011 is 601.2f today; the number 110.5e of 2018 is gone."""
    site, kb = four
    gone = sorted(set(numbering(kb, "2009-07-11")) - set(numbering(kb, "2026-01-16")))
    assert gone
    page = site.files[f"en/n/{gone[0]}.html"]
    assert f"{gone[0]} is no longer a rule number; it was the number of" in page


def test_the_seed_data_leads_old_numbers_to_their_rule(seed, tmp_path):
    """Without any imported release, the numbers of the rules' histories: 502.16 (before 2009) is
    Buyback, today 702.27."""
    site, *_ = render_tree(seed)
    page = site.files["en/n/502.16.html"]
    assert REFRESH.search(page).groups() == ("0", "../rules/buyback.html#702.24")
    assert ('502.16 is no longer a rule number; it was the number of <a href="../rules/buyback.html#702.24">'
            '702.27 Buyback</a> (until May 2009).') in page
    assert ' id="702.24"' in site.docs["en"]["rules/buyback.md"]
    assert "502.16 ist keine Regelnummer mehr; es war die Nummer von" in site.files["de/n/502.16.html"]
