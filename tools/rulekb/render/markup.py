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

__all__ = ["checked", "split_blocks", "BLOCK", "DEFERRED"]

BLOCK = "rulekb-block-{}"   # the placeholder paragraph of an HTML block taken out of a page
# the placeholder paragraph of a block that the search never reads (in a section kept out of the
# search: the placeholder's words are not indexed either)
DEFERRED = "rulekb-deferred-{}"

_EXCLUDED_HEADING = re.compile(r"^#{1,6} .*\{#[^}]*\bdata-search-exclude\}$")
_HEADING_TAG = re.compile(r"<h[1-6][\s>]", re.IGNORECASE)


def checked(page: str) -> str:
    """A generated page, refused (ValueError) when a part between blank lines is neither a
    heading nor an HTML block: a blank line inside an HTML block would end the block for
    Markdown, and the rest would be read as Markdown."""
    parts = page.split("\n\n")
    for part in parts[1:]:   # parts[0] is the front matter
        if not part.startswith(("<", "#")):
            raise ValueError(f"a generated page has a blank line inside a block: {part[:80]!r}")
    return page


def split_blocks(markdown: str) -> tuple[str, list[str]]:
    """A generated page as a Markdown skeleton (front matter, headings, one placeholder
    paragraph per HTML block) and its HTML blocks. Markdown then never parses the blocks (it
    is slow on large HTML); the rulekb mkdocs plugin puts them back into the rendered page.

    A block in a section whose heading keeps it out of the search (``{#versions
    data-search-exclude}``: the number history, versions, sources, backlinks of a rule page)
    and that holds no heading of its own gets the placeholder `DEFERRED` instead: the plugin
    puts it into the finished page (``on_post_page``), after the search has read the page's
    content, which it skips entirely. The search index is the same; the search's HTML parser,
    more than half of mkdocs' time on the pages of all 110 releases, reads half as much."""
    parts = markdown.split("\n\n")
    blocks: list[str] = []
    out: list[str] = []
    excluded = False   # in a section kept out of the search
    for i, part in enumerate(parts):
        if i > 0 and part.startswith("<"):   # parts[0] is the front matter
            deferred = excluded and not _HEADING_TAG.search(part)
            out.append((DEFERRED if deferred else BLOCK).format(len(blocks)))
            blocks.append(part.rstrip("\n"))
        else:
            if i > 0 and part.startswith("#"):
                excluded = bool(_EXCLUDED_HEADING.match(part.rstrip("\n")))
            out.append(part)
    return "\n\n".join(out), blocks
