"""The Markdown frame of the generated pages (render/markup.py): a page split into its skeleton
and its HTML blocks, and the blocks put back into the rendered skeleton."""

from __future__ import annotations

import pytest

from rulekb.render.markup import checked, fill_blocks, split_blocks

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


def test_a_page_with_a_blank_line_inside_a_block_is_refused():
    assert checked(PAGE) is PAGE
    assert checked("---\ntitle: x\n---") == "---\ntitle: x\n---"   # front matter alone
    for bad, shown in ((PAGE.replace("<p>Retrace is", "<p>\n\nRetrace is"), "Retrace is"),   # a blank line in a block
                       (PAGE.replace("## Rule", "Rule"), "Rule {#rule}"),                     # a paragraph of Markdown
                       (PAGE.replace("\n\n## Rule", "\n\n\n## Rule"), "\n## Rule"),          # two blank lines
                       (PAGE.rstrip("\n") + "\n\n", "")):                                      # a blank line at the end
        with pytest.raises(ValueError, match="blank line inside a block") as err:
            checked(bad)
        assert repr(shown)[1:-1] in str(err.value)


def test_a_page_is_its_skeleton_and_its_blocks_in_order():
    skeleton, blocks = split_blocks(checked(PAGE))
    assert blocks == [part for part in PAGE.rstrip("\n").split("\n\n")[1:] if part.startswith("<")]
    assert skeleton.startswith("---\ntitle:") and "## Rule {#rule}" in skeleton and "<" not in skeleton
    # every block has its placeholder paragraph, numbered in order, where the block was
    paragraphs = skeleton.split("\n\n")
    assert [p for p in paragraphs if p.startswith("rulekb-")] == [f"rulekb-block-{i}" for i in range(len(blocks))]
    assert paragraphs.index("rulekb-block-2") == paragraphs.index("## Number history {#history data-search-exclude}") + 1


def test_each_placeholder_gets_its_block():
    html = '<h1>T</h1>\n<p>rulekb-block-0</p>\n<h2 id="rule">Rule</h2>\n<p>rulekb-block-1</p>\n<p>rulekb-block-2</p>'
    blocks = ['<div id="a">one</div>', "<ul><li>two</li></ul>", "<p>three</p>"]
    assert fill_blocks(html, blocks) == ('<h1>T</h1>\n<div id="a">one</div>\n<h2 id="rule">Rule</h2>\n'
                                         "<ul><li>two</li></ul>\n<p>three</p>")
    assert fill_blocks("<p>rulekb-block-1</p><p>rulekb-block-0</p>", ["a", "b"]) == "ba"   # by number, in any order
    assert fill_blocks("<p>no placeholder</p>", []) == "<p>no placeholder</p>"
    with pytest.raises(IndexError):
        fill_blocks("<p>rulekb-block-2</p>", ["a", "b"])


def test_the_blocks_go_back_where_they_were_taken_from():
    skeleton, blocks = split_blocks(checked(PAGE))
    # Markdown renders each placeholder as a paragraph of its own
    rendered = "\n".join(f"<p>{part}</p>" if part.startswith("rulekb-") else part for part in skeleton.split("\n\n")[1:])
    assert fill_blocks(rendered, blocks) == "\n".join(PAGE.rstrip("\n").split("\n\n")[1:])
