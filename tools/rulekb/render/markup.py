"""The Markdown frame of the generated pages (render stage): the check that a page is made of
headings and HTML blocks, and the split of a page into its Markdown skeleton and its HTML
blocks.

A generated page (``templates/pages/*.md.j2``) is front matter, then blocks separated by one
blank line, each a heading (Markdown, for the table of contents) or one HTML block. The texts of
rules and rulings are never handed to Markdown: they are inside the HTML blocks, escaped by the
templates' autoescape (markupsafe), so that a ``*``, ``_``, ``[`` or ``<script>`` in a text shows
as written.
"""

from __future__ import annotations

import re

from typing import Sequence

__all__ = ["checked", "split_blocks", "fill_blocks", "BLOCK", "BLOCK_MARK"]

BLOCK = "rulekb-block-{}"   # the placeholder paragraph of an HTML block taken out of a page
BLOCK_MARK = BLOCK.format("")   # in every page that has placeholders: "rulekb-block-"
# a placeholder paragraph as Markdown renders it, its block's number in group 1
_PLACEHOLDER = re.compile("<p>" + r"(\d+)".join(map(re.escape, BLOCK.split("{}"))) + "</p>")

# a blank line that neither a heading nor an HTML block follows (nor anything: the page's end)
_LOOSE = re.compile(r"\n\n(?![<#])")


def checked(page: str) -> str:
    """A generated page, refused (ValueError) when a part between blank lines is neither a
    heading nor an HTML block: a blank line inside an HTML block would end the block for
    Markdown, and the rest would be read as Markdown. (One scan of the page for such a blank
    line, not a split of every page into its parts: the parts are made once, by `split_blocks`.)"""
    loose = _LOOSE.search(page)
    if loose is not None:
        part = page[loose.end():].split("\n\n", 1)[0]
        raise ValueError(f"a generated page has a blank line inside a block: {part[:80]!r}")
    return page


def split_blocks(markdown: str) -> tuple[str, list[str]]:
    """A generated page as a Markdown skeleton (front matter, headings, one placeholder
    paragraph per HTML block) and its HTML blocks. Markdown then never parses the blocks (it
    is slow on large HTML); the rulekb mkdocs plugin puts them back into the rendered page."""
    parts = markdown.split("\n\n")
    blocks: list[str] = []
    out: list[str] = []
    for i, part in enumerate(parts):
        if i > 0 and part.startswith("<"):   # parts[0] is the front matter
            out.append(BLOCK.format(len(blocks)))
            blocks.append(part.rstrip("\n"))
        else:
            out.append(part)
    return "\n\n".join(out), blocks


def fill_blocks(html: str, blocks: Sequence[str]) -> str:
    """The inverse of `split_blocks`, once Markdown has rendered the skeleton: a page's HTML
    with each placeholder paragraph (``<p>rulekb-block-N</p>``) replaced by its HTML block N
    (IndexError: a placeholder without a block)."""
    parts = _PLACEHOLDER.split(html)     # text, number, text, number, …, text
    parts[1::2] = [blocks[int(n)] for n in parts[1::2]]
    return "".join(parts)
