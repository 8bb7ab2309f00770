"""Small writers of the generated Markdown (render stage): front matter, headings and the
joining of blocks.

The texts of rules and rulings are never handed to Markdown: they go into raw HTML blocks,
escaped by `markupsafe`, so that a ``*``, ``_``, ``[`` or ``<script>`` in a text shows as
written. Only the page skeleton (front matter, section headings for the table of contents)
is Markdown, and every string in it is escaped here.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Iterable

from markupsafe import Markup, escape

__all__ = ["Markup", "escape", "e", "front_matter", "heading", "md_escape", "page", "join", "split_blocks", "BLOCK"]

BLOCK = "rulekb-block-{}"   # the placeholder paragraph of an HTML block taken out of a page

def e(value: object) -> str:
    """str(markupsafe.escape(value)), without making a Markup object for a plain string (the
    same five entities; about twice as fast, and a rule page needs it dozens of times)."""
    if value.__class__ is str:
        return (value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")  # type: ignore[attr-defined]
                .replace("'", "&#39;").replace('"', "&#34;"))
    return str(escape(value))


# (not ~: Python-Markdown without a tilde extension does not read "\~" as an escape, the backslash would show)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")


def md_escape(text: str) -> str:
    """Text that Markdown shows literally (inline): specials backslash-escaped, & and < as entities."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def front_matter(title: str, *, hide: Iterable[str] = (), search_exclude: bool = False,
                 description: str | None = None) -> str:
    """YAML front matter. mkdocs' templates do not escape the title, so it is stored escaped."""
    lines = ["---", f"title: {json.dumps(str(escape(title)), ensure_ascii=False)}"]
    if description:
        lines.append(f"description: {json.dumps(str(escape(description)), ensure_ascii=False)}")
    hidden = list(hide)
    if hidden:
        lines.append("hide:")
        lines += [f"  - {item}" for item in hidden]
    if search_exclude:
        lines += ["search:", "  exclude: true"]
    lines.append("---")
    return "\n".join(lines)


@functools.lru_cache(maxsize=1024)   # the same few section headings on every page
def heading(level: int, text: str, anchor: str, *, search: bool = True) -> str:
    """A Markdown heading with a fixed id (it appears in the page's table of contents). With
    `search=False` its section (up to the next heading) stays out of the search index
    (material's ``data-search-exclude``)."""
    attrs = f"#{anchor}" if search else f"#{anchor} data-search-exclude"
    return f"{'#' * level} {md_escape(text)} {{{attrs}}}"


def join(parts: Iterable[Markup | str]) -> Markup:
    return Markup("").join(parts)


def page(head: str, blocks: Iterable[Markup | str]) -> str:
    """A page: front matter, then blocks separated by blank lines. An HTML block must not
    contain a blank line (Markdown would end the block there), so blank lines are refused."""
    out = [head]
    for block in blocks:
        text = str(block).strip("\n")
        if not text:
            continue
        if "\n\n" in text:
            raise ValueError(f"a generated block contains a blank line: {text[:80]!r}")
        out.append(text)
    return "\n\n".join(out) + "\n"


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
