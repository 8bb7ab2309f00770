"""The site's offline archives (last step of `rulekb build`, after render), written with the
standard library's `zipfile`: ``rulekb-site.zip``, every file of the assembled site, and
``rulekb-<lang>.zip``, one language's site without the JSON API (`language_archives`; which
files: `render.offline.language_files`).

Deterministic: entries sorted by name, a fixed timestamp (1980-01-01, the earliest a zip can
hold) and fixed permissions (rw-r--r--, Unix), the same deflate level; the same files give the
same bytes. A language's archive holds no other language, so the language menu of its pages
offers its own language alone (`own_language_menu`: the entries of the others, which led to
missing files, are left out as the pages are zipped), and links into the JSON API, which
it does not hold, are not links there (`without_api_links`: a page's " · JSON" link is left
out, a link elsewhere keeps its text). Archives beyond the plain zip limits (65,535 entries, 4 GB) get zipfile's ZIP64
records.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Callable, Iterable, Mapping

from .render.offline import archive_name, archive_top, language_files

DATE = (1980, 1, 1, 0, 0, 0)
LEVEL = 4        # deflate level (measured on 166 MB of the complete site: 1: 37.0 MB in 2.1 s, 4: 33.1 MB in 2.8 s, 6: 31.7 MB in 5.1 s)
_MODE = 0o644 << 16   # rw-r--r--
_UNIX = 3


# an entry of the language menu (templates/partials/alternate.html): its language in group 1
_MENU_ENTRY = re.compile(rb'<li class="md-select__item">\s*<a href="[^"]*" hreflang="([^"]*)"[^>]*>[^<]*</a>\s*</li>\s*')


def own_language_menu(lang: str) -> Callable[[str, bytes], bytes]:
    """What a page of `lang`'s archive holds: an HTML page's language menu without the entries of
    the other languages, and no link into the JSON API (`without_api_links`); any other file as it is."""
    own = lang.encode()

    def page(name: str, data: bytes) -> bytes:
        if not name.endswith(".html"):
            return data
        if b"api/" in data:
            data = without_api_links(data)
        if b"md-select__item" not in data:
            return data
        return _MENU_ENTRY.sub(lambda m: m.group(0) if m.group(1) == own else b"", data)
    return page


# a link into the JSON API (``../../api/de/rules/retrace.json``): the link, with the " · " before it
# when it ends a line of links (a rule's or card's "… · JSON"), and its content in group 2
_API_LINK = re.compile(rb'( \xc2\xb7 )?<a href="(?:\.\./)*api/[^"]*\.json">(.*?)</a>')


def without_api_links(data: bytes) -> bytes:
    """A page of a language's archive, which holds no JSON API: a link into it that follows a
    " · " (the rule's and card's "… · JSON") goes, with its " · "; any other (the API page's
    examples) leaves its content as text."""
    return _API_LINK.sub(lambda m: b"" if m.group(1) else m.group(2), data)


def zip_files(target: Path, files: Iterable[tuple[str, Path | bytes]],
              transform: Callable[[str, bytes], bytes] | None = None) -> None:
    """An archive of `files` ((name in the archive, file on disk or its bytes)), sorted by name;
    `transform` (name, bytes) gives the bytes a file is stored with."""
    ordered = sorted(files, key=lambda f: f[0])
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=LEVEL) as archive:
        for name, content in ordered:
            info = zipfile.ZipInfo(name, date_time=DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = _MODE
            info.create_system = _UNIX
            data = content if isinstance(content, bytes) else content.read_bytes()
            if transform is not None:
                data = transform(name, data)
            archive.writestr(info, data, compresslevel=LEVEL)


def zip_folder(folder: Path, target: Path, prefix: str, replace: Mapping[str, bytes] | None = None) -> None:
    """Every file below `folder` as ``<prefix><path relative to folder>`` (the archive itself
    left out, when it is written into `folder`); a file whose relative path is in `replace`
    gets those bytes instead of its own (the archive's version of offline.html)."""
    replace = replace or {}
    entries: list[tuple[str, Path | bytes]] = []
    for path in folder.rglob("*"):
        if path.is_file() and path != target:
            rel = path.relative_to(folder).as_posix()
            entries.append((prefix + rel, replace.get(rel, path)))
    zip_files(target, entries)


def language_archives(site: Path, languages: Iterable[str], replace: Mapping[str, bytes] | None = None,
                      own: Mapping[str, Mapping[str, bytes]] | None = None) -> dict[str, int]:
    """``rulekb-<lang>.zip`` of each language in `site` (under ``rulekb-<lang>/``, a file of
    `own[lang]`, else of `replace`, with those bytes: the archive's picker index.html and
    offline.html); returns each archive's size."""
    replace = replace or {}
    sizes: dict[str, int] = {}
    for lang in languages:
        target = site / archive_name(lang)
        top = archive_top(lang) + "/"
        instead = {**replace, **(own or {}).get(lang, {})}
        zip_files(target, [(top + rel, instead.get(rel, site / rel)) for rel in language_files(site, lang)],
                  own_language_menu(lang))
        sizes[lang] = target.stat().st_size
    return sizes
