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

__all__ = ["checked", "split_blocks", "BLOCK"]

BLOCK = "rulekb-block-{}"   # the placeholder paragraph of an HTML block taken out of a page

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
