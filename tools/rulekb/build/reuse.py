"""What a build may keep from the last one (part of `rulekb build`, around render and mkdocs):
two records, both keyed by `build_key` — the code's key (`cache.code_key`: every file of this
package, Python's version and the libraries that shape its output) with the versions of mkdocs
and its theme and extensions, plus the inputs of what is kept.

- The site marker (``<site>/.rulekb-site``, `sitefolder.SITE_MARKER`): names the key of
  everything the site is made from (`inputs_key`: every file of rules/, translations/ and
  content/, the root mkdocs.yml, the languages asked for) and the site's languages. When it
  names the key of this build's inputs and the site still holds its main files, nothing is
  loaded or rendered and the site folder is kept as it is (`site_kept`).
- A language's fingerprint (``build/<lang>/fingerprint``): the key of what its mkdocs output
  depends on (`language_key`: its pages as rendered, its mkdocs.yml, its UI catalog, the root
  mkdocs.yml, the build date). When it names the key of this build's pages, mkdocs does not run
  for the language and its last output (``build/<lang>/site``) is used (`reusable`).

Everything here is derived: deleting either record (or the build folder) makes a full build.
"""

from __future__ import annotations

import hashlib
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Sequence

from .. import cache, sitefolder
from ..files import write_atomic
from ..i18n import catalog_path
from ..render import paths

ROOT_CONFIG = "mkdocs.yml"
INPUT_FOLDERS = ("rules", "translations", "content")
FINGERPRINT = "fingerprint"
# beside `cache.LIBRARIES` (in `cache.code_key`): what makes the pages into HTML
MKDOCS_LIBRARIES = ("mkdocs", "mkdocs-material", "Markdown", "pymdown-extensions")


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "absent"


def build_key(*parts: bytes | str) -> str:
    """The key of a build's product: the code's key (`cache.code_key`), Python's version, the
    versions of `MKDOCS_LIBRARIES`, and `parts` (the product's inputs)."""
    digest = hashlib.sha256()
    for part in (cache.code_key(), sys.version, *(f"{name}=={_version(name)}" for name in MKDOCS_LIBRARIES), *parts):
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def tree_digest(folder: Path) -> str:
    """Every file under `folder`: its path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def _file(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b"-"


def inputs_key(root: Path, languages: Sequence[str] | None) -> str:
    """The key of a whole site, read without loading anything: `build_key` of every file under
    rules/, translations/ and content/, the root mkdocs.yml and the languages asked for."""
    parts = [f"languages={' '.join(languages) if languages else '*'}", _file(root / ROOT_CONFIG)]
    parts += [f"{folder}={tree_digest(root / folder) if (root / folder).is_dir() else '-'}" for folder in INPUT_FOLDERS]
    return build_key(*parts)


def language_key(folder: Path, root: Path, lang: str, pages_digest: str, epoch: int) -> str:
    """The key of one language's mkdocs output: its pages (`pages.LanguagePages.digest`), its
    mkdocs.yml (in `folder`), its UI catalog (the theme's strings), the root mkdocs.yml and the
    build date."""
    return build_key(lang, pages_digest, _file(folder / ROOT_CONFIG), _file(catalog_path(root, lang)),
                     _file(root / ROOT_CONFIG), str(epoch))


def reusable(folder: Path, key: str) -> bool:
    """Whether a language's build folder holds the mkdocs output of the inputs of `key`."""
    marker = folder / FINGERPRINT
    try:
        return (folder / "site" / "index.html").is_file() and marker.read_text(encoding="utf-8") == key
    except (OSError, UnicodeDecodeError):
        return False


def forget(folder: Path) -> None:
    """A language's output is about to change: its fingerprint goes first."""
    (folder / FINGERPRINT).unlink(missing_ok=True)


def record(folder: Path, key: str) -> None:
    """A language's mkdocs output in `folder` is that of the inputs of `key`."""
    write_atomic(folder / FINGERPRINT, key.encode("utf-8"))


def marker_text(key: str, languages: Sequence[str]) -> str:
    return (f"built by `rulekb build`; this folder is replaced as a whole by the next build\n"
            f"key: {key}\nlanguages: {' '.join(languages)}\n")


def site_kept(site_dir: Path, key: str) -> tuple[str, ...] | None:
    """The languages of the site folder when its marker names the inputs of `key` and its main
    files are there (the site is kept as it is); None otherwise."""
    try:
        marker = (site_dir / sitefolder.SITE_MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    fields = dict(line.split(": ", 1) for line in marker.splitlines() if ": " in line)
    languages = tuple(fields.get("languages", "").split())
    if fields.get("key") != key or not languages or marker != marker_text(key, languages):
        return None
    needed = [site_dir / "index.html", site_dir / paths.ARCHIVE] + [site_dir / lang / "index.html" for lang in languages]
    return languages if all(p.is_file() for p in needed) else None
