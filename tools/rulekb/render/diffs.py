"""Word diffs as HTML (render stage), for the Versions section of rule pages, the texts that
moved between rules and the pages of what changed in each release.

`diff_html` makes one diff; `Diffs` keeps every diff of one rendering of the site, so that each
pair of texts is compared once for all pages and languages (the English diffs are the same on
every language's pages). With all 110 releases that is ~16,000 pairs, which a bounded cache
(16,384 entries, shared with the unchanged texts of the release pages) compared once per
language again: 59,790 diffs where 16,000 are needed. A text is in several pairs (a version
against the one before it, the one after it, the oldest or newest), so `Diffs` also keeps each
text's tokens (`worddiff.tokenise`): 16,180 texts for the 20,985 pairs of all 110 releases. A
`Diffs` lives as long as the rendering that made it (`context.Shared`), so a `rulekb serve`
rebuild starts afresh.
"""

from __future__ import annotations

from typing import Callable

from markupsafe import Markup, escape

from ..worddiff import Tokenised, diff_tokens, tokenise

_TAG = {"delete": "del", "insert": "ins"}


def text_html(text: str) -> Markup:
    """A text as the diffs show one (escaped, its line breaks kept): what `diff_html` gives for
    a text against itself, without comparing it."""
    return Markup(str(escape(text)).replace("\n", "<br>"))


def diff_html(old: str, new: str, tokens: Callable[[str], Tokenised] = tokenise) -> Markup:
    """The word-level diff as escaped HTML: deleted words in <del>, inserted ones in <ins>
    (`tokens`: how a text is tokenised, `worddiff.tokenise` or a cache of it)."""
    if old == new:
        return text_html(old)
    out = []
    for op, text in diff_tokens(tokens(old), tokens(new)):
        html = str(escape(text)).replace("\n", "<br>")
        tag = _TAG.get(op)
        out.append(f"<{tag}>{html}</{tag}>" if tag else html)
    return Markup("".join(out))


class Diffs:
    """The diffs of one rendering, each pair of texts made once (`diff_html`)."""

    def __init__(self) -> None:
        self._html: dict[tuple[str, str], Markup] = {}
        self._tokens: dict[str, Tokenised] = {}

    def html(self, old: str, new: str) -> Markup:
        key = (old, new)
        found = self._html.get(key)
        if found is None:
            found = self._html[key] = diff_html(old, new, self.tokens)
        return found

    def tokens(self, text: str) -> Tokenised:
        """The text's tokens, made once (`worddiff.tokenise`)."""
        found = self._tokens.get(text)
        if found is None:
            found = self._tokens[text] = tokenise(text)
        return found

    def __len__(self) -> int:
        return len(self._html)
