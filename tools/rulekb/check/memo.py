"""Per-text results the checks share, kept between runs (stage: check, load -> validate -> link ->
check -> render -> report).

Three of a run's shared data (`rulekb.check.base.Shared`) are pure functions of one text: the
termbase's terms found in it (given the termbase: `Context.terms`), its rule references
(`Context.refs`) and the language model's verdicts on its sentences (given the project's
languages: `language.judged`). With all rules, cards and rulings they are ~28,000 texts, and a run
after an edit of one file asks for the same results of every text but the edited ones. A
`TextMemo` keeps one kind of them in the per-user cache, keyed by a hash of each text and its
language: a run computes them only for the texts it has not seen (and the language model, with
numpy, is not even loaded when every verdict is kept).

The entries live under ``<cache dir>/check-texts/<code key>/``, one per kind, project folder
and inputs (the termbase's concepts, the languages), each a mapping from a text's hash to its result: the code
key hashes the whole package (`cache.code_key`), so a change to any module starts a new folder (an old one is removed after a week unused, `cache.FileCache`). A run
that computed something new writes the entry again: what it holds now (read again, as another
process of the run may have written it meanwhile) with the results this run asked for. A run
need not ask for every text (a narrow profile, the by-file checks on the changed files only,
one process of two), so none is dropped: whether a run asked for every text is not known here. The
results of texts that no longer exist stay until the code changes (a new folder) or the inputs
do (a new entry); an edit adds the results of the edited texts alone. Delete the folder to clear it; with
caches off (``RULEKB_CACHE_DIR=``) every result is computed. The findings do not depend on it: a
kept result is the one the function gives for that text.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Generic, TypeVar

from .. import cache as cache_module

T = TypeVar("T")

FOLDER = "check-texts"
def text_key(lang: str, text: str) -> bytes:
    """The key of a text in a memo: a hash of its language and its characters."""
    return hashlib.blake2b(f"{lang}\0{text}".encode("utf-8", "surrogatepass"), digest_size=16).digest()


class TextMemo(Generic[T]):
    """The results of one kind (`kind`, computed from `inputs` besides the text) of the texts a run
    asks for, read from the cache on the first question and written back by `save` when the
    run computed one it did not hold."""

    def __init__(self, kind: str, project: Path | None, *inputs: str) -> None:
        self.kind = kind
        # one entry per project folder: two projects (or worktrees) in one cache do not drop each
        # other's texts; None: nothing is kept (a context made without its project)
        self.project = project
        self.key = cache_module.FileCache.key(kind, str(project), *inputs)
        self._store: cache_module.FileCache | None = None
        self._kept: dict[bytes, T] | None = None    # what the cache held (None: not read yet)
        self.used: dict[bytes, T] = {}              # the results this run asked for
        self.computed = 0                           # how many of them it had to compute

    def _read(self) -> dict[bytes, T]:
        if self._kept is None:
            self._store = cache_module.store(FOLDER) if self.project is not None else None
            found = self._store.get(self.key) if self._store is not None else None
            self._kept = found if isinstance(found, dict) else {}
        return self._kept

    def peek(self, key: bytes) -> T | None:
        """The result of the text whose `text_key` is `key`, when the cache (or this run) holds it."""
        found = self.used.get(key)
        if found is None:
            found = self._read().get(key)
            if found is not None:
                self.used[key] = found
        return found

    def put(self, key: bytes, value: T) -> None:
        """The result of a text, computed by this run."""
        self.used[key] = value
        self.computed += 1

    def get(self, key: bytes, make: Callable[[], T]) -> T:
        """The result of the text whose `text_key` is `key`: kept, else `make()` (and kept)."""
        found = self.peek(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def save(self) -> None:
        """Add the results this run asked for to the entry, when it computed any (else the entry
        holds them): the entry's other texts are kept, whether or not this run asked for them."""
        if self.computed and self._store is not None:
            stored = self._store.get(self.key)
            self._store.put(self.key, {**stored, **self.used} if isinstance(stored, dict) else self.used)
            self.computed = 0
