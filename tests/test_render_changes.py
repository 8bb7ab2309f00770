"""What changed in each release, on the site (render/changes.py): ``<lang>/changes/<release>.html``
and the index of releases, from the same comparison as ``rulekb changes``."""

from __future__ import annotations

import html
import re

import pytest

from rulekb.changes import compare_releases
from test_render import render_tree

HREF = re.compile(r'<a href="([^"]+)">')


@pytest.fixture(scope="module")
def recent_site(recent):
    root, kb = recent
    site, *_ = render_tree(root)
    return site, kb


def test_a_release_page_lists_what_changed_with_links_that_exist(recent_site):
    site, kb = recent_site
    found = compare_releases(kb, "2026-01-16")
    for lang in kb.language_codes:
        page = site.docs[lang]["changes/2026-01-16.md"]
        for href in HREF.findall(page):
            path, _, anchor = html.unescape(href).partition("#")
            docs_path = ("changes/" + path if not path.startswith("../") else path[3:])[:-5] + ".md"
            assert docs_path in site.docs[lang], href
            if anchor:
                assert f' id="{anchor}"' in site.docs[lang][docs_path], href
        for change in found.new_units + found.renumbered + found.reworded:
            assert change.new_number in page
    en = site.docs["en"]["changes/2026-01-16.md"]
    assert "## New rules and subrules \\(6\\) {#new}" in en
    assert '<span class="rulekb-number">702.124p → 702.124n</span>' in en
    assert "Soltari,<ins> Sorcerer,</ins> Spawn" in en
    assert "Numbers this release no longer has: 702.124p" in en


def test_labels_are_in_the_readers_language(recent_site):
    site, _ = recent_site
    de = site.docs["de"]["changes/2026-01-16.md"]
    assert '<h1>Änderungen der Regelausgabe vom 16. Januar 2026</h1>' in de
    assert "## Neue Regeln und Unterregeln \\(6\\) {#new}" in de
    assert "## Umnummeriert \\(3\\)" in de and "## Umformuliert \\(6\\)" in de
    fr = site.docs["fr"]["changes/index.md"]
    assert "<h1>Ce qui a changé dans chaque version des règles</h1>" in fr
    assert '<a href="2026-01-16.html">16 janvier 2026</a></th><td>14 novembre 2025</td><td>6</td><td>1</td><td>3</td><td>6</td><td>0</td>' in fr
    assert ("Änderungen", "changes/index.md") in site.nav["de"]
    assert ("Modifications", "changes/index.md") in site.nav["fr"]


def test_without_two_imported_releases_there_is_no_changes_page(seed):
    site, *_ = render_tree(seed)
    for lang, docs in site.docs.items():
        assert not [path for path in docs if path.startswith("changes/")]
        assert all(path != "changes/index.md" for _, path in site.nav[lang])
