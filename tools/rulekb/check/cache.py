"""The cache of check results and their reports (stage: check, load -> validate -> link -> check
-> render -> report).

The checks are pure functions of the project's YAML (rules/ and translations/: the knowledge
base, the termbase, the waivers), the profile and the languages asked for; a report is a pure
function of the result, the knowledge base and the UI catalogs. So `rulekb check` on a project
where nothing changed reuses the last result — and the report it printed — instead of loading
the knowledge base and running the checks again. `RunCache` keys a run by the SHA-256 of every
data file (the digests `knowledge.read_files` took when it read them: nothing is read twice),
the profile and the languages; a report adds its format and the bytes of the UI catalogs. The
entries live under ``<cache dir>/checks/<code key>/`` (`cache.code_key`, a hash of the whole package, so a
change of a check or a report is a new folder),
beside the knowledge cache (`rulekb.cache`); delete the folder to clear it.

With every report of a run cached, `rulekb check` reads the files, hashes them and prints: the
knowledge base is not loaded at all (with all rules and cards, loading it is ~2 s).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Iterable

from .. import cache as cache_module
from ..knowledge import ProjectFiles, read_files
from ..layout import TRANSLATIONS_DIR
from . import CheckResult

UI_CATALOGS = TRANSLATIONS_DIR + "/ui"   # the gettext catalogs a report's labels may come from


def inputs_key(files: ProjectFiles | Path, profile: str, langs: Iterable[str] | None) -> str | None:
    """The key of a check run: every data file's path and digest, the profile, the languages
    (None when a file cannot be read: then the run is not cached). `files` as the loader read
    them (a project folder: read now)."""
    if not isinstance(files, ProjectFiles):
        files = read_files(files)
    if files.problems:
        return None
    parts: list[str] = [profile, repr(None if langs is None else tuple(langs))]
    for rel, digest in files.digests.items():
        parts += [rel, digest]
    return cache_module.FileCache.key(*parts)


class RunCache:
    """The cached result and reports of one check run (a project state, profile and languages);
    nothing is kept when caches are off or a file cannot be read."""

    def __init__(self, files: ProjectFiles, profile: str, langs: Iterable[str] | None):
        folder = cache_module.cache_dir()
        self.files = files
        self.key = inputs_key(files, profile, langs) if folder is not None else None
        self.store = cache_module.store("checks") if self.key is not None else None

    def result(self, compute: Callable[[], CheckResult]) -> CheckResult:
        """The run's result: cached, else `compute()` (and kept)."""
        if self.store is None or self.key is None:
            return compute()
        found = self.store.get(self.key)
        if isinstance(found, CheckResult):
            return found
        result = compute()
        self.store.put(self.key, result)
        return result

    def report(self, fmt: str, make: Callable[[], str]) -> str:
        """The run's report in `fmt`: cached (for the same UI catalogs), else `make()` (and kept)."""
        if self.store is None or self.key is None:
            return make()
        key = cache_module.FileCache.key(self.key, "report", fmt, *_catalogs(self.files.root))
        found = self.store.get(key)
        if isinstance(found, str):
            return found
        text = make()
        self.store.put(key, text)
        return text


def _catalogs(root: Path) -> list[str]:
    """Each UI catalog's name and SHA-256 (the labels of a localised report)."""
    folder = root / UI_CATALOGS
    try:
        paths = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return []
    out = []
    for path in paths:
        try:
            out += [path.name, hashlib.sha256(path.read_bytes()).hexdigest()]
        except OSError:
            out += [path.name, "unreadable"]
    return out


def cached_result(root: Path, profile: str, langs: Iterable[str] | None,
                  compute: Callable[[], CheckResult]) -> CheckResult:
    """The result of `compute()` for this project state, from the cache when it holds one."""
    return RunCache(read_files(root), profile, langs).result(compute)
