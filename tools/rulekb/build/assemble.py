"""The build's last step (after render and mkdocs): the new site put together in a staging folder
beside the site folder, then swapped in as a whole (`sitefolder`), so a failed build leaves the
previous site whole.

The staging folder gets the site-root files (``index.html``, the JSON API, the rule numbers
``<lang>/n/``, the search index, the site marker of `reuse`), each language's mkdocs output
linked in from ``build/<lang>/site`` (hard links; copied where they cannot be made, as on
another disk), then the offline archive ``rulekb-site.zip`` of all of it (`archive`).

Before anything moves (`check_replaceable`), the site folder must be one rulekb built, and every
folder in it removable by this user: writable, or the user's own (a read-only site of the user's
own is made writable when it is removed, `sitefolder.remove`). An OSError while writing (a full
disk) is a `WriteError` naming the file as it would be in the site folder, on the disk that is
full, never a file of the build folder it was copied from.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from .. import archive, sitefolder
from ..diagnostics import Problem
from ..files import WriteError, os_problem
from ..render import offline, paths
from ..render.numbers import FOLDER as NUMBERS_FOLDER
from ..timing import Clock, Part, maybe
from .languages import BuildError, LanguageBuild

ARCHIVE_TOP = "rulekb-site"      # the folder the offline archive unpacks into


def link_tree(source: Path, target: Path) -> None:
    """The files of `source` in `target`, hard-linked (copied where links cannot be made, as
    across disks); an OSError (a full disk) names the file of `target` it could not write."""
    for folder, _dirs, names in os.walk(source):
        into = target / Path(folder).relative_to(source)
        into.mkdir(parents=True, exist_ok=True)
        for name in names:
            try:
                os.link(os.path.join(folder, name), into / name)
            except OSError:
                try:
                    shutil.copy2(os.path.join(folder, name), into / name)
                except OSError as error:   # shutil names the source (build/…): the target is what failed
                    raise OSError(error.errno, error.strerror, str(into / name)) from None


def write_root_files(staging: Path, files: Mapping[str, str], marker: str,
                     binary: Mapping[str, bytes] | None = None) -> None:
    """The root files of the new site (``index.html``, the JSON API, the marker; `binary`: the
    offline mode's icons) in the staging folder, each encoded as it is written (not all of them at once)."""
    files = {**files, sitefolder.SITE_MARKER: marker}
    binary = binary or {}
    for folder in sorted({str((staging / rel).parent) for rel in (*files, *binary)}):
        os.makedirs(folder, exist_ok=True)
    for rel, text in files.items():
        with open(staging / rel, "wb") as f:
            f.write(text.encode("utf-8"))
    for rel, data in binary.items():
        with open(staging / rel, "wb") as f:
            f.write(data)


def assemble(work: Path, staging: Path, languages: Sequence[str], clock: Clock | None = None,
             archive_files: Mapping[str, str] | None = None,
             offline_page: Callable[[Mapping[str, int]], str] | None = None, build_id: str = "",
             language_archive_files: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """The complete new site in `staging` (which `write_root_files` started): the language sites
    linked in, then the offline archive of all of it and one per language, with `archive_files`
    (site-root path -> text) in place of the site's files of those paths (a language's archive:
    `language_archive_files` of its language over them); then (`offline_page`:
    offline.html given the archives' sizes) the offline mode's lists of files of build
    `build_id` (`render.offline.assembled_files`)."""
    for lang in languages:
        link_tree(work / lang / "site", staging / lang)
    replace = {rel: text.encode("utf-8") for rel, text in (archive_files or {}).items()}
    with maybe(clock, Part.ARCHIVE):
        archive.zip_folder(staging, staging / paths.ARCHIVE, f"{ARCHIVE_TOP}/", replace)
        sizes = archive.language_archives(staging, languages, replace, {
            lang: {rel: text.encode("utf-8") for rel, text in files.items()}
            for lang, files in (language_archive_files or {}).items()})
    if offline_page is not None:
        for rel, text in offline.assembled_files(staging, languages, build_id, offline_page(sizes)).items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).unlink(missing_ok=True)   # a hard link into the previous site: not written through
            (staging / rel).write_bytes(text.encode("utf-8"))


@contextmanager
def writing(staging: Path, site_dir: Path) -> Iterator[None]:
    """An OSError of the block (a full disk, a missing permission) as a WriteError naming its
    file; a file of the staging folder by its place in the site folder (the same disk)."""
    try:
        yield
    except OSError as exc:
        name = Path(exc.filename) if exc.filename else site_dir
        try:
            name = site_dir / name.relative_to(staging)
        except ValueError:
            pass
        raise WriteError([os_problem(name, exc)]) from None


def _writable(folder: Path) -> bool:
    mode = os.W_OK | os.X_OK
    if os.access in os.supports_effective_ids:
        return os.access(folder, mode, effective_ids=True)
    return os.access(folder, mode)   # pragma: no cover


def check_replaceable(site_dir: Path) -> None:
    """Before anything is written: `site_dir` is missing, empty or a site rulekb built, and each
    of its folders is writable or this user's own (so the previous site can be removed once the
    new one is in place)."""
    if not site_dir.exists():
        return
    if not site_dir.is_dir() or (any(site_dir.iterdir()) and not (site_dir / sitefolder.SITE_MARKER).exists()):
        raise BuildError(f"refusing to replace {site_dir}: it is not a site built by rulekb (no {sitefolder.SITE_MARKER} in it); "
                         "choose another --site-dir or remove the folder")
    for folder, dirs, _files in os.walk(site_dir):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
        if not _writable(Path(folder)) and os.stat(folder).st_uid != os.geteuid():
            raise WriteError([Problem(folder, 1, 1, f"cannot replace {site_dir}: {folder} is neither writable for you "
                                                    "nor yours, so the previous site could not be removed",
                                      f"make {site_dir} writable for you (chmod -R u+w, as its owner) or choose "
                                      "another --site-dir; nothing was written")])


def publish(staging: Path, site_dir: Path) -> None:
    """Swap the staging folder in as the site folder (`sitefolder.swap_in`)."""
    sitefolder.swap_in(staging, site_dir)


def reused_site(site_dir: Path, lang: str) -> LanguageBuild:
    """A language of a site kept as it is: its pages, those of mkdocs (not the n/ pages beside them)."""
    folder = site_dir / lang
    pages = sum(1 for p in folder.rglob("*.html") if p.relative_to(folder).parts[0] != NUMBERS_FOLDER)
    return LanguageBuild(lang, pages, 0.0, True)
