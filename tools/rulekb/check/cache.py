"""The cache of check results (stage: check, load -> validate -> link -> check -> render -> report).

The checks are pure functions of the project's YAML (rules/ and translations/: the knowledge
base, the termbase, the waivers), the profile and the languages asked for. So `rulekb check` on a
project where nothing changed reuses the last result instead of running the checks again:
`cached_result` keys it by the SHA-256 of every data file's path and bytes, the profile and the
languages, under ``<cache dir>/checks/<code version>/`` (the code version hashes the check
package and the modules it reads, so a change of a check is a new folder). It sits beside the
knowledge cache (`rulekb.cache`); delete the folder to clear it.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path
from typing import Callable, Iterable

from .. import cache as cache_module
from ..layout import data_files
from . import CheckResult

# The modules whose code decides a check result, besides the check package itself.
_INPUT_MODULES = ("models.py", "refs.py", "termbase.py", "phraseology.py", "langid.py", "schema.py", "validate.py", "validate_cards.py",
                  "link.py", "load.py")


@functools.cache
def code_version() -> str:
    """A hash of the check package's sources and of the modules it reads, with Python's version."""
    package = Path(__file__).resolve().parent
    paths = sorted(package.glob("*.py")) + [package.parent / name for name in _INPUT_MODULES]
    return cache_module.code_version(paths, sys.version)


def inputs_key(root: Path, profile: str, langs: Iterable[str] | None) -> str | None:
    """The key of a check run: every data file's path and bytes, the profile, the languages
    (None when a file cannot be read: then the run is not cached)."""
    paths, problems = data_files(root)
    if problems:
        return None
    parts: list[str] = [profile, repr(None if langs is None else tuple(langs))]
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        parts += [path.relative_to(root).as_posix(), hashlib.sha256(data).hexdigest()]
    return cache_module.FileCache.key(*parts)


def cached_result(root: Path, profile: str, langs: Iterable[str] | None,
                  compute: Callable[[], CheckResult]) -> CheckResult:
    """The result of `compute()` for this project state, from the cache when it holds one."""
    folder = cache_module.cache_dir()
    key = inputs_key(root, profile, langs) if folder is not None else None
    if folder is None or key is None:
        return compute()
    store = cache_module.FileCache(folder / "checks", code_version())
    found = store.get(key)
    if isinstance(found, CheckResult):
        return found
    result = compute()
    store.put(key, result)
    return result
