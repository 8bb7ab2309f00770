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

A long text (over `LONG_TEXT` characters: the lists of subtypes of rule 205.3, ~4,000 characters,
changed in most releases) shows in its diffs only the words around each change (`brief_diff_html`,
`Diffs.brief`): its whole diff on every version of rules/subtypes made that page 444 KB, on each
release's page of changes the same (issue 32.3); the text itself is on its rule's page.
"""

from __future__ import annotations

import re
from typing import Callable

from markupsafe import Markup, escape

from ..worddiff import Tokenised, diff_tokens, tokenise

_TAG = {"delete": "del", "insert": "ins"}

LONG_TEXT = 1_000      # characters: a longer text's diffs show the unchanged words near each change only
CONTEXT_WORDS = 12     # the unchanged words kept on each side of a change
ELIDED = "…"             # where unchanged words are left out
_WORDS = re.compile(r"(\s+)")


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


def _elide(text: str, keep_start: bool, keep_end: bool, context: int) -> str:
    """An unchanged run of a diff with only `context` words kept after the change before it
    (`keep_start`) and before the change after it (`keep_end`)."""
    core = text.strip()
    lead = text[:len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()):]
    parts = _WORDS.split(core)   # words at even places, the white space between them at odd ones
    words = (len(parts) + 1) // 2
    head = context if keep_start else 0
    tail = context if keep_end else 0
    if words <= head + tail + 2:
        return text
    start = lead + "".join(parts[:2 * head - 1]) + " " if head else ""
    end = " " + "".join(parts[len(parts) - 2 * tail + 1:]) + trail if tail else ""
    return start + ELIDED + end


def brief_diff_html(old: str, new: str, tokens: Callable[[str], Tokenised] = tokenise,
                    context: int = CONTEXT_WORDS) -> Markup:
    """`diff_html` with each run of unchanged words cut to the `context` words on each side of a
    change (the rest: "…"); the text unchanged: its start and end only."""
    ops = diff_tokens(tokens(old), tokens(new)) if old != new else (("equal", old),)
    out = []
    last = len(ops) - 1
    for k, (op, text) in enumerate(ops):
        if op == "equal":
            text = _elide(text, keep_start=k > 0, keep_end=k < last, context=context)
        html = str(escape(text)).replace("\n", "<br>")
        tag = _TAG.get(op)
        out.append(f"<{tag}>{html}</{tag}>" if tag else html)
    return Markup("".join(out))


class Diffs:
    """The diffs of one rendering, each pair of texts made once (`diff_html`)."""

    def __init__(self) -> None:
        self._html: dict[tuple[str, str], Markup] = {}
        self._tokens: dict[str, Tokenised] = {}
        self._brief: dict[tuple[str, str, str], Markup] = {}

    def html(self, old: str, new: str) -> Markup:
        key = (old, new)
        found = self._html.get(key)
        if found is None:
            found = self._html[key] = diff_html(old, new, self.tokens)
        return found

    def brief(self, old: str, new: str) -> Markup:
        """The diff of two texts, only the words around each change when either is longer than
        `LONG_TEXT` (`brief_diff_html`), else the whole (`html`)."""
        if len(old) <= LONG_TEXT and len(new) <= LONG_TEXT:
            return self.html(old, new)
        key = ("brief", old, new)
        found = self._brief.get(key)
        if found is None:
            found = self._brief[key] = brief_diff_html(old, new, self.tokens)
        return found

    def tokens(self, text: str) -> Tokenised:
        """The text's tokens, made once (`worddiff.tokenise`)."""
        found = self._tokens.get(text)
        if found is None:
            found = self._tokens[text] = tokenise(text)
        return found

    def __len__(self) -> int:
        return len(self._html)
