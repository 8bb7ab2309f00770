"""A readable word-level diff between two versions of a text (e.g. 702.78a of 2009 and 702.81a
of 2026), for the history on rule pages and for the terminal. Pure functions, no I/O.

`word_diff(old, new)` returns operations ``("equal" | "delete" | "insert", text)``; joining the
texts of the "equal" and "delete" operations gives `old` back, "equal" and "insert" give `new`
(white space and punctuation included). Words are compared whole, so "his or her" -> "their"
reads as one replacement, not as letters; a change of a dash or quotation mark is a change of
that token only. Adjacent deletions and insertions are grouped: a reader sees
"[-his or her-]{+their+}" rather than interleaved fragments.

The site calls it per unit and pair of releases::

    from rulekb.worddiff import word_diff
    from rulekb.releases import english_at, english_versions
    ops = word_diff(english_at(unit, "2009-07-11").text, english_at(unit, "2026-01-16").text)
    # render: equal -> text, delete -> <del>text</del>, insert -> <ins>text</ins> (escaped)

The matching is difflib's SequenceMatcher as compiled by cydifflib (the same operations): the
rule pages of all 110 releases take 59,790 diffs, whose matching cost 25 s in difflib, ~3 s here.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

import cydifflib

Op = Literal["equal", "delete", "insert"]

# a word (letters, digits, and inner apostrophes, dots or hyphens: "can't", "601.2e", "+1/+1") or
# any other single character, each with the white space after it; white space at the start.
# Spaces ride on their words (and are ignored when words are compared): a token as common as
# " " made the matcher's longest-match search crawl on long texts (the whole rules: ~8x slower).
_TOKEN = re.compile(r"\s+|(?:[\w’'./+]*\w|.)\s*", re.UNICODE | re.DOTALL)
# what is compared of each token (`_key`), found by a scan of its own: the same words where
# white space is not matched, a white space that begins the text aside (it is a token alone)
_KEY = re.compile(r"[\w’'./+]*\w|\S", re.UNICODE)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


class Tokenised(NamedTuple):
    """A text's tokens and what is compared of each (`_key`), in one pass of each regex."""

    tokens: list[str]
    keys: list[str]


def tokenise(text: str) -> Tokenised:
    found = _TOKEN.findall(text)
    keys = _KEY.findall(text)
    if found and found[0].isspace():   # white space that begins the text: its own token and key
        keys.insert(0, found[0])
    return Tokenised(found, keys)


def word_diff(old: str, new: str) -> tuple[tuple[Op, str], ...]:
    """The word-level difference from `old` to `new` as (operation, text) pairs."""
    return diff_tokens(tokenise(old), tokenise(new))


def diff_tokens(old: Tokenised, new: Tokenised) -> tuple[tuple[Op, str], ...]:
    """`word_diff` of two tokenised texts (`tokenise`): a caller that compares each text with
    several others tokenises it once."""
    a, b = old.tokens, new.tokens
    matcher = cydifflib.SequenceMatcher(None, old.keys, new.keys, autojunk=False)
    ops: list[tuple[Op, str]] = []

    def add(op: Op, text: str) -> None:
        _append(ops, op, text)

    blocks = matcher.get_matching_blocks()
    i = j = 0
    for block in blocks:
        # an "equal" of white space alone between two changes reads better inside the change
        if i < block.a or j < block.b:
            add("delete", "".join(a[i:block.a]))
            add("insert", "".join(b[j:block.b]))
        equal = _equal_part(a[block.a:block.a + block.size], b[block.b:block.b + block.size], add)
        i, j = block.a + block.size, block.b + block.size
        if equal.isspace() and (i < len(a) or j < len(b)) and ops and ops[-1][0] != "equal":
            add("delete", equal)
            add("insert", equal)
        else:
            add("equal", equal)
    return _group(ops)


def _key(token: str) -> str:
    """What is compared of a token: the word without the white space after it."""
    return token.rstrip() or token


def _equal_part(a: list[str], b: list[str], add) -> str:  # type: ignore[no-untyped-def]
    """The text of a matched run of tokens. Where the two sides differ in the white space after a
    word only, everything before that difference is emitted as equal and the space as a change;
    the rest is returned for the caller to place."""
    done = 0
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            stem = x.rstrip()
            add("equal", "".join(a[done:k]) + stem)
            add("delete", x[len(stem):])
            add("insert", y[len(stem):])
            done = k + 1
    return "".join(a[done:])


def _group(ops: list[tuple[Op, str]]) -> tuple[tuple[Op, str], ...]:
    """Merge runs of deletions and insertions between two equal parts: delete first, then insert."""
    out: list[tuple[Op, str]] = []
    pending: dict[str, str] = {"delete": "", "insert": ""}
    for op, text in ops:
        if op == "equal":
            for kind in ("delete", "insert"):
                if pending[kind]:
                    out.append((kind, pending[kind]))  # type: ignore[arg-type]
                    pending[kind] = ""
            if out and out[-1][0] == "equal":
                out[-1] = ("equal", out[-1][1] + text)
            else:
                out.append((op, text))
        else:
            pending[op] += text
    for kind in ("delete", "insert"):
        if pending[kind]:
            out.append((kind, pending[kind]))  # type: ignore[arg-type]
    return _slide(out)


def _slide(ops: list[tuple[Op, str]]) -> tuple[tuple[Op, str], ...]:
    """Keep white space out of the marked parts where the texts allow: a replacement ending with
    the same space on both sides gives it to what follows ("[-his or her-]{+their+} library"), and
    a lone insertion or deletion that could start or end with the same space starts with it
    ("card{+ with retrace+} is", not "card {+with retrace +}is")."""
    out = list(ops)
    for k in range(len(out) - 2):  # a replacement whose two sides end with the same space: keep it outside
        (first_op, first), (second_op, second), (after_op, after) = out[k], out[k + 1], out[k + 2]
        if (first_op, second_op, after_op) != ("delete", "insert", "equal"):
            continue
        space = first[len(first.rstrip()):]
        if space and second.endswith(space) and (first.strip() or second.strip()):
            out[k], out[k + 1] = (first_op, first[: -len(space)]), (second_op, second[: -len(space)])
            out[k + 2] = ("equal", space + after)
    for k in range(1, len(out) - 1):
        (before_op, before), (op, text), (after_op, after) = out[k - 1], out[k], out[k + 1]
        if before_op != "equal" or after_op != "equal" or op == "equal":
            continue
        space = text[len(text.rstrip()):]
        if space and before.endswith(space) and text.strip():
            out[k - 1] = ("equal", before[: -len(space)])
            out[k] = (op, space + text[: -len(space)])
            out[k + 1] = ("equal", space + after)
    merged: list[tuple[Op, str]] = []
    for op, text in out:
        _append(merged, op, text)
    return tuple(merged)


def _append(ops: list[tuple[Op, str]], op: Op, text: str) -> None:
    """Add `text` to the operations, joined to the last one when it is of the same kind."""
    if not text:
        return
    if ops and ops[-1][0] == op:
        ops[-1] = (op, ops[-1][1] + text)
    else:
        ops.append((op, text))


def old_text(ops: tuple[tuple[Op, str], ...]) -> str:
    return "".join(text for op, text in ops if op != "insert")


def new_text(ops: tuple[tuple[Op, str], ...]) -> str:
    return "".join(text for op, text in ops if op != "delete")


def format_diff(ops: tuple[tuple[Op, str], ...]) -> str:
    """The diff for a terminal or a plain-text report, in git's word-diff notation:
    [-deleted-]{+inserted+}."""
    marks = {"equal": ("", ""), "delete": ("[-", "-]"), "insert": ("{+", "+}")}
    return "".join(marks[op][0] + text + marks[op][1] for op, text in ops)


def changed_words(ops: tuple[tuple[Op, str], ...]) -> int:
    """How many words the change touches (deleted plus inserted), for a one-line summary."""
    return sum(len(re.findall(r"\w+", text)) for op, text in ops if op != "equal")
