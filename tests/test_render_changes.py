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


def test_a_release_page_lists_the_glossary_terms_that_changed(recent_site):
    """2026-01-16 added the term Blight and removed Friends Forever (as `rulekb changes` says):
    the release's page lists them under the glossary, with their English definitions, in every
    language with the labels of that language."""
    site, kb = recent_site
    found = compare_releases(kb, "2026-01-16")
    assert [g.term for g in found.glossary_of("new")] == ["Blight"]
    assert [g.term for g in found.glossary_of("removed")] == ["Friends Forever"]
    en = site.docs["en"]["changes/2026-01-16.md"]
    assert "## Glossary \\(2\\) {#glossary}" in en
    new = en.split("{#glossary-new}")[1].split("{#glossary-removed}")[0]
    blight = found.glossary_of("new")[0].after
    assert f"<dt>Blight</dt><dd class=\"rulekb-diff\">{html.escape(blight[1], quote=False)}</dd>" in new
    removed = en.split("{#glossary-removed}")[1].split("{#glossary-reworded}")[0]
    assert "<dt>Friends Forever</dt>" in removed and "Blight" not in removed
    assert "### Reworded terms \\(0\\) {#glossary-reworded}" in en
    for lang in kb.language_codes:   # a heading is Markdown only after a blank line (not inside an HTML block)
        page = site.docs[lang]["changes/2026-01-16.md"]
        headings = [line for line in page.split("\n") if line.startswith("#")]
        assert len(headings) == 10 and all(f"\n\n{h}\n" in page for h in headings), page[-1500:]
    de = site.docs["de"]["changes/2026-01-16.md"]
    assert "## Glossar \\(2\\) {#glossary}" in de and "### Neue Begriffe \\(1\\) {#glossary-new}" in de
    assert "### Entfernte Begriffe \\(1\\) {#glossary-removed}" in de
    fr = site.docs["fr"]["changes/2026-01-16.md"]
    assert "### Nouveaux termes \\(1\\) {#glossary-new}" in fr and "### Termes supprimés \\(1\\)" in fr
    assert '<dl class="rulekb-changes rulekb-changes--glossary rulekb-changes--new" lang="en">' in fr


def test_a_reworded_term_shows_its_word_diff_and_typography_is_folded(recent):
    """A reworded glossary term shows the word diff of "term: definition"; one changed only in
    its typography is listed apart, folded, with its count in the reader's language."""
    from dataclasses import replace

    from rulekb.changes import GlossaryChange
    from rulekb.i18n import load_uis
    from rulekb.link import link
    from rulekb.render.changes import changes_pages
    from rulekb.render.context import Lang, Shared
    root, kb = recent
    entry = kb.glossary[0]
    term = entry.term.variants["en"][-1].text
    reworded = GlossaryChange(entry, (term, "A word of the rules."), (term, "A new word of the rules."))
    typography = GlossaryChange(entry, (term, "A player's card."), (term, "A player’s card."))
    step = replace(compare_releases(kb, "2026-01-16"), glossary=(reworded, typography))
    c = Lang(Shared.of(link(kb), None), load_uis(root, kb.languages)["de"])
    page = changes_pages(c, (step,))["changes/2026-01-16.md"]
    assert "### Umformulierte Begriffe \\(1\\) {#glossary-reworded}" in page
    assert f"<dt>{html.escape(term)}</dt><dd class=\"rulekb-diff\">{html.escape(term)}: A<ins> new</ins> word of the rules.</dd>" in page
    folded = page.split("{#glossary-typography}")[1]
    assert "<summary>1 Begriff nur typografisch geändert</summary>" in folded
    assert "A <del>player&#39;s</del><ins>player’s</ins> card.</dd></dl></details>" in folded


def _lang_of(site, kb, lang):
    from rulekb.i18n import load_uis
    from rulekb.link import link
    from rulekb.render.context import Lang, Shared
    return Lang(Shared.of(link(kb)), load_uis(site, kb.languages)[lang])


def test_a_release_page_over_the_budget_is_split_by_chapter_and_its_headings_lead_to_the_parts(recent):
    """Issue 32.3: a release page larger than the budget becomes the index of its parts (a page
    per chapter, one for the glossary); every heading it had (#reworded, #glossary-new) is still
    there and links to that heading on each part that has it; each part links back."""
    from rulekb.render.changes import chapter_of, part_page, release_page, release_pages
    root, kb = recent
    found = compare_releases(kb, "2026-01-16")
    c = _lang_of(root, kb, "de")
    whole = release_pages(c, found, "2025-11-14")
    assert list(whole) == [release_page("2026-01-16")]          # under the budget: one page
    size = len(whole[release_page("2026-01-16")].encode("utf-8"))
    split = release_pages(c, found, "2025-11-14", split_over=size - 1)
    chapters = sorted({chapter_of(x) for x in found.new_units + found.removed + found.renumbered
                       + found.reworded + found.typography})
    assert sorted(split) == sorted([release_page("2026-01-16")] + [part_page("2026-01-16", k) for k in chapters]
                                   + [part_page("2026-01-16", "glossary")])
    index = split[release_page("2026-01-16")]
    for anchor in ("new", "removed", "renumbered", "reworded", "typography", "glossary", "glossary-new",
                   "glossary-removed"):
        assert "{#" + anchor in index, anchor
    for href in HREF.findall(index):
        path, _, anchor = html.unescape(href).partition("#")
        if path.startswith("2026-01-16/"):
            target = split["changes/" + path[:-5] + ".md"]
            assert not anchor or "{#" + anchor in target, href
    assert "2026-01-16/7.html#reworded" in index
    for k in chapters:
        part = split[part_page("2026-01-16", k)]
        assert '<a href="../../changes/2026-01-16.html">Alle Änderungen dieser Ausgabe</a>' in part
        assert f"Änderungen der Regelausgabe vom 16. Januar 2026: Kapitel {k}" in part
        assert "{#glossary" not in part
        for change in found.reworded:   # each change on its chapter's part, on no other
            assert (f'<span class="rulekb-number">{change.new_number}</span>' in part) == (chapter_of(change) == k)
    glossary = split[part_page("2026-01-16", "glossary")]
    assert "<dt>Blight</dt>" in glossary and "{#reworded}" not in glossary
    # each part's links to rules lead one folder further up
    assert '<a href="../../rules/' in split[part_page("2026-01-16", "7")]


def test_a_chapter_over_the_budget_is_split_by_section(recent):
    from rulekb.render.changes import part_page, release_page, release_pages, section_of
    root, kb = recent
    found = compare_releases(kb, "2026-01-16")
    c = _lang_of(root, kb, "en")
    split = release_pages(c, found, "2025-11-14", split_over=1)   # every part is over: chapters by section
    sections = {section_of(x) for x in found.new_units + found.removed + found.renumbered + found.reworded
                + found.typography}
    assert set(split) == ({release_page("2026-01-16"), part_page("2026-01-16", "glossary")}
                          | {part_page("2026-01-16", s) for s in sections})
    assert "Changes of the rules release of January 16, 2026: Section 702" in split[part_page("2026-01-16", "702")]
