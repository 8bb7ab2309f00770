"""The Markdown frame of the generated pages (render/markup.py): a page split into its skeleton
and its HTML blocks, the blocks of sections the search never reads given to mkdocs late."""

from __future__ import annotations

import pytest

from rulekb.render.markup import checked, split_blocks

PAGE = "\n\n".join([
    "---\ntitle: \"702.81 Retrace\"\n---",
    '<h1 class="rulekb-title">702.81 Retrace</h1>',
    "## Rule {#rule}",
    '<div class="rulekb-unit" id="702.81a"><p>Retrace is a static ability.</p></div>',
    "## Number history {#history data-search-exclude}",
    '<ul class="rulekb-history"><li>702.78 until 2011</li></ul>',
    '<p class="rulekb-meta">Source: the archive</p>',
    "## Versions {#versions data-search-exclude}",
    '<div class="rulekb-versions"><h3 id="v">a heading inside</h3></div>',
    "## Referenced by {#referenced-by}",
    '<ul class="rulekb-backlinks"><li>702.81a</li></ul>',
]) + "\n"


def test_a_page_is_its_skeleton_and_its_blocks_in_order():
    skeleton, blocks = split_blocks(checked(PAGE))
    assert blocks == [part for part in PAGE.rstrip("\n").split("\n\n")[1:] if part.startswith("<")]
    assert skeleton.startswith("---\ntitle:") and "## Rule {#rule}" in skeleton and "<" not in skeleton
    # every block has its placeholder, numbered in order
    for i in range(len(blocks)):
        assert f"rulekb-block-{i}" in skeleton or f"rulekb-deferred-{i}" in skeleton


def test_only_blocks_of_sections_kept_out_of_the_search_are_deferred():
    skeleton, blocks = split_blocks(PAGE)
    paragraphs = skeleton.split("\n\n")
    assert "rulekb-block-0" in paragraphs and "rulekb-block-1" in paragraphs        # the title, a rule text
    assert "rulekb-deferred-2" in paragraphs and "rulekb-deferred-3" in paragraphs  # the number history
    assert "rulekb-block-4" in paragraphs   # holds a heading: the search would make it a section of its own
    assert "rulekb-block-5" in paragraphs   # referenced-by is searched here


@pytest.mark.parametrize("heading", ["## Notes {#notes}", "## Notes data-search-exclude", "Notes {#notes data-search-exclude}"])
def test_a_block_after_a_searched_heading_is_not_deferred(heading):
    skeleton, _ = split_blocks(f"---\n---\n\n{heading}\n\n<p>text</p>\n")
    assert "rulekb-block-0" in skeleton
