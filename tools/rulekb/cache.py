"""Per-user caches of derived data: where they live, the one recipe of their keys, the table of
every cache, and the store of pickled values they share. Not a stage of its own: the load ->
validate step of `knowledge`, the check and the render stages keep what they derive here.

`cache_dir()`: ``$RULEKB_CACHE_DIR`` (set but empty: no cache at all), else
``$XDG_CACHE_HOME/rulekb``, else ``~/.cache/rulekb``. Everything in it is derived data, made again
when missing: deleting the folder (or a part of it) is always safe.

`code_key()`: the one recipe of the code's part of every key: a hash of every file of the
installed package (its modules and templates) and of the versions of Python and of the libraries
that shape what is kept (`LIBRARIES`), computed once per process. Any change to the package or
an upgrade of one of those libraries starts every cache afresh.

`CACHES`: every cache, with what keys an entry, where it lives and what makes it stale; `store(name)`
opens one of them (a name that is not in the table is a programming error).

`FileCache`: values kept under ``<cache_dir>/<name>/<code_key>/``, one entry per key. An entry's
name is the SHA-256 of its input parts (a data file's path and bytes and what it was checked
against), and the folder's name is the code's key, so an entry is only ever found for the same
input read by the same code. The entry holds that key again and the value, pickled (the cache
is as trusted as the user's own home folder: pickles run code when read). An entry that cannot
be read — cut short, corrupt, of another key, from another Python — is ignored and written
anew; entries are written with `files.write_atomic` (not waited for on the disk: a power cut
may cost an entry, which is then read as corrupt), so a reader never sees half an entry. When a
run writes entries, the folders of other code keys not used for `STALE_DAYS` days are removed.
A cache that cannot be written (read-only, disk full) is left alone for the rest of the run: it
only ever saves time.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import shutil
import sys
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from .models import dumps

STALE_DAYS = 7

T = TypeVar("T")

# The libraries whose version can change what a cache keeps: the YAML parser, the templates'
# engine and escaping, the catalogs' compiler, the language model and its arrays, the diff
# matcher. (mkdocs is not here: nothing it makes is kept in these caches.)
LIBRARIES = ("PyYAML", "Jinja2", "MarkupSafe", "Babel", "py3langid", "numpy", "cydifflib")


@dataclass(frozen=True)
class Cache:
    """One cache of `CACHES`: its folder under `cache_dir()`, what keys an entry (beside the
    code's key, which names the folder of every cache), what it holds and what makes it stale."""
    name: str
    key: str
    holds: str


CACHES: tuple[Cache, ...] = (
    Cache("knowledge", "a data file's path and bytes, the project's languages and sources",
          "the file parsed and schema-checked (its models or its problems)"),
    Cache("ui-catalogs", "a translations/ui/<lang>.po file's bytes and language", "the catalog compiled (.mo)"),
    Cache("phraseology", "translations/phraseology.yaml's bytes and the project's languages",
          "the official phraseology parsed"),
    Cache("official", "translations/official.yaml's bytes and the project's languages",
          "the official keyword names and game terms parsed"),
    Cache("templates", "a template's name and source", "the template compiled by Jinja2"),
    Cache("language-model", "py3langid's model file", "the model's arrays, uncompressed"),
    Cache("checks", "every data, termbase, waiver and catalog file's bytes, the profile and languages",
          "the last check result and its reports"),
    Cache("check-files", "a data file's bytes, the files that hold no rule or ruling, the by-text checks that run",
          "the findings of the by-text checks on that file's texts (check.driver)"),
)


def cache_dir() -> Path | None:
    """Where rulekb keeps derived files: $RULEKB_CACHE_DIR (empty: none), else
    $XDG_CACHE_HOME/rulekb, else ~/.cache/rulekb."""
    configured = os.environ.get("RULEKB_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulekb"


def _library_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


def package_digest(package: Path, parts: Iterable[str]) -> str:
    """A hash of every file under `package` (its path and bytes; compiled files aside) and of
    the strings `parts`."""
    digest = hashlib.sha256()
    files = sorted(p for p in package.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    for path in files:
        data = path.read_bytes()
        digest.update(path.relative_to(package).as_posix().encode() + b"\0"
                      + len(data).to_bytes(8, "big") + data)
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:24]


@functools.cache
def code_key() -> str:
    """The code's part of every cache key: `package_digest` of this package with Python's
    version and the versions of `LIBRARIES` (and whether PyYAML has its C parser). Computed once
    per process."""
    import yaml
    return package_digest(Path(__file__).resolve().parent,
                          (sys.version, f"libyaml={getattr(yaml, '__with_libyaml__', False)}",
                           *(f"{name}=={_library_version(name)}" for name in LIBRARIES)))


def store(name: str) -> "FileCache | None":
    """The cache `name` of `CACHES` for this code (`code_key`), or None when caches are turned off."""
    if name not in _NAMES:
        raise ValueError(f"'{name}' is not a cache of rulekb.cache.CACHES")
    folder = cache_dir()
    return None if folder is None else FileCache(folder / name, code_key())


_NAMES = frozenset(c.name for c in CACHES)


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
        if self.writable:
            self.put_pickled(key, dumps((key, value)))

    def put_pickled(self, key: str, entry: bytes) -> None:
        """Store the entry `entry`, ``models.dumps((key, value))`` made already (a worker sends
        the same bytes back to its parent), under `key`; nothing when the cache cannot be written."""
        if not self.writable:
            return
        from .files import WriteError, write_atomic
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path(key), entry, if_changed=False, durable=False)
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


def cached(name: str, key: Iterable[bytes | str], make: Callable[[], T], kind: type[T]) -> T:
    """`make()`, kept in the cache `name` (`store`) under the `FileCache.key` of the parts of
    `key` (a file's bytes and what it is read against): the value kept for the same parts by the
    same code is returned instead of made again. A value that `make` does not return (its
    problems raised as `DataError`) is never kept, so they are reported every time; without a
    cache folder, `make()`."""
    found_store = store(name)
    if found_store is None:
        return make()
    entry = FileCache.key(*key)
    found = found_store.get(entry)
    if isinstance(found, kind):
        return found
    value = make()
    found_store.put(entry, value)
    return value
