"""Per-user caches of derived data: where they live and the cache of parsed and validated files
(used by the load -> validate step of `knowledge`; `cached` keeps one value per file content for
the termbase, the UI catalogs and the phraseology; the card lookup, the checks and the language
check keep theirs there too).

`cache_dir()`: ``$RULEKB_CACHE_DIR`` (set but empty: no cache at all), else
``$XDG_CACHE_HOME/rulekb``, else ``~/.cache/rulekb``. Everything in it is derived data, made again
when missing: deleting the folder (or a part of it) is always safe.

`FileCache`: what one data file holds once parsed and schema-checked, kept under
``<cache_dir>/knowledge/<code version>/``, one entry per file content. An entry's name is the
SHA-256 of the file's path, its bytes and what it was checked against (the project's languages
and sources), and the folder's name is the code's version (a hash of the modules that parse and
check; any change to them starts a new folder), so an entry is only ever found for the same
input read by the same code. The entry holds that key again and the value, pickled (the cache
is as trusted as the user's own home folder: pickles run code when read). An entry that cannot
be read — cut short, corrupt, of another key, from another Python — is ignored and written
anew; entries are written with `files.write_atomic` (not waited for on the disk: a power cut
may cost an entry, which is then read as corrupt), so a reader never sees half an entry. When a
run writes entries, the folders of other code versions not used for `STALE_DAYS` days are
removed. A cache that cannot be written (read-only, disk full) is left alone for the rest of
the run: it only ever saves time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import time
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from .models import dumps

STALE_DAYS = 7

T = TypeVar("T")


def cache_dir() -> Path | None:
    """Where rulekb keeps derived files: $RULEKB_CACHE_DIR (empty: none), else
    $XDG_CACHE_HOME/rulekb, else ~/.cache/rulekb."""
    configured = os.environ.get("RULEKB_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulekb"


def code_version(paths: Iterable[Path], *extra: str) -> str:
    """A hash of the source files `paths` (and `extra` strings, such as library versions)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for text in extra:
        digest.update(text.encode() + b"\0")
    return digest.hexdigest()[:24]


class FileCache:
    """Values keyed by the SHA-256 of their input, under `folder`/`version`/."""

    def __init__(self, folder: Path, version: str):
        self.root = folder
        self.folder = folder / version
        self.writable = True
        self.written = 0

    @staticmethod
    def key(*parts: bytes | str) -> str:
        digest = hashlib.sha256()
        for part in parts:
            data = part.encode("utf-8") if isinstance(part, str) else part
            digest.update(len(data).to_bytes(8, "big") + data)
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.pickle"

    def get(self, key: str) -> object | None:
        """The value stored under `key`, or None (no entry, or one that cannot be read)."""
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return None
        try:
            stored, value = pickle.loads(data)
        except Exception:  # noqa: BLE001 - any unreadable entry (truncated, corrupt, old classes) is a miss
            return None
        return value if stored == key else None

    def put(self, key: str, value: object) -> None:
        """Store `value` under `key` (atomically); nothing when the cache cannot be written."""
        if not self.writable:
            return
        from .files import WriteError, write_atomic
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path(key), dumps((key, value)), if_changed=False, durable=False)
        except (OSError, WriteError):
            self.writable = False
            return
        if not self.written:
            self._prune()
        self.written += 1

    def _prune(self) -> None:
        """Remove the folders of other code versions not written for STALE_DAYS days."""
        limit = time.time() - STALE_DAYS * 86400
        try:
            others = [p for p in self.root.iterdir() if p.is_dir() and p != self.folder and p.stat().st_mtime < limit]
        except OSError:
            return
        for other in others:
            shutil.rmtree(other, ignore_errors=True)


def cached(name: str, version: str, key: Iterable[bytes | str], make: Callable[[], T], kind: type[T]) -> T:
    """`make()`, kept in the cache ``<cache_dir>/<name>/<version>/`` under the `FileCache.key` of
    the parts of `key` (a file's bytes and what it is read against): the value kept for the same
    parts by the same code (`version`) is returned instead of made again. A value that `make`
    does not return (its problems raised as `DataError`) is never kept, so they are reported
    every time; without a cache folder, `make()`."""
    folder = cache_dir()
    if folder is None:
        return make()
    store = FileCache(folder / name, version)
    entry = FileCache.key(*key)
    found = store.get(entry)
    if isinstance(found, kind):
        return found
    value = make()
    store.put(entry, value)
    return value
