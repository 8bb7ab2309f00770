"""Taking the site along (render stage, and the step of `build` that assembles the site after
mkdocs): ``offline.html``, a per-language archive and an installable offline mode.

- ``rulekb-<lang>.zip`` (`archive_name`): one language's site (its pages, cards and rulings,
  its assets, the search parts all languages share, the front door and the archive's own
  offline.html), no JSON API: what a phone unpacks and opens from its files;
- the offline mode of the published site: a web app manifest (``rulekb.webmanifest``), a
  service worker (``rulekb-sw.js``, ``templates/offline/``) and the script both the page and the
  worker use (``rulekb-offline.js``): the button "Save for offline" of offline.html stores one
  language's files, listed in ``offline/<lang>.json`` with the build's id (`url_list`), in the
  browser's Cache Storage with a progress bar and says how much it stored; the worker then
  serves every stored file without a connection, and replaces the stored copy when
  ``offline/build.json`` names a newer build;
- ``offline.html`` (`offline_page`): per language, the archive with its size, the button, the
  steps; the archive holds another version of it, which says that it is the offline copy.

The lists and the sizes are known once mkdocs has written the language sites: `build` calls
`language_files`, `url_list` and `offline_page` (with the archives' sizes) when it assembles.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Mapping

from babel.numbers import format_decimal
from markupsafe import Markup

from ..i18n import UI
from ..models import SOURCE_LANGUAGE, KnowledgeBase
from . import paths
from .templating import template

MANIFEST = "rulekb.webmanifest"
WORKER = "rulekb-sw.js"
SAVER = "rulekb-offline.js"
LIST_FOLDER = "offline"
BUILD_FILE = f"{LIST_FOLDER}/build.json"
CACHE_PREFIX = "rulekb-"
CHECK_EVERY_MS = 5 * 60 * 1000   # the worker looks for a newer build at most this often as pages open
SHARED_FOLDERS = ("search",)      # site-root folders every language's pages reach (the search parts)
LEFT_OUT = ("sitemap.xml", "sitemap.xml.gz")   # mkdocs' sitemaps: no page asks for them


def archive_name(lang: str) -> str:
    return f"rulekb-{lang}.zip"


def archive_top(lang: str) -> str:
    """The folder a language's archive unpacks into."""
    return f"rulekb-{lang}"


def list_path(lang: str) -> str:
    return f"{LIST_FOLDER}/{lang}.json"


def language_files(site: Path, lang: str) -> list[str]:
    """The site-root paths of one language's offline copy, sorted: its site (``<lang>/…``, the
    sitemaps left out), the search parts all languages share, the front door and offline.html."""
    found = [paths.OFFLINE, "index.html"]
    for folder in (lang, *SHARED_FOLDERS):
        base = site / folder
        found += [p.relative_to(site).as_posix() for p in base.rglob("*") if p.is_file() and p.name not in LEFT_OUT]
    return sorted(set(found))


def url_list(lang: str, files: Iterable[str], build: str) -> str:
    """``offline/<lang>.json``: the build's id and the paths (relative to the site root) the
    button stores."""
    return json.dumps({"build": build, "lang": lang, "files": sorted(files)}, ensure_ascii=False, indent=0) + "\n"


ICON_SIZES = (192, 512)
THEME = (0x3F, 0x51, 0xB5)   # the manifest's theme_color, material's indigo


def icon_path(size: int) -> str:
    return f"icons/rulekb-{size}.png"


def icon_png(size: int) -> bytes:
    """The app's icon, a PNG of `size`×`size` pixels drawn here (no image from elsewhere; the same
    bytes on every build): a white page with three lines of text on the theme's indigo."""
    import struct
    import zlib

    def inside(x: int, y: int) -> tuple[int, int, int]:
        u, v = x / size, y / size
        if not (0.25 <= u < 0.75 and 0.18 <= v < 0.82):
            return THEME
        for top in (0.32, 0.46, 0.60):   # the lines of text on the page
            if top <= v < top + 0.05 and 0.33 <= u < (0.67 if top < 0.6 else 0.55):
                return THEME
        return (255, 255, 255)

    rows = b"".join(b"\x00" + bytes(c for x in range(size) for c in inside(x, y)) for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def icon_files() -> dict[str, bytes]:
    """The manifest's icons, by path relative to the site root."""
    return {icon_path(size): icon_png(size) for size in ICON_SIZES}


def build_file(build: str) -> str:
    """``offline/build.json``: the published build's id, what the worker compares."""
    return json.dumps({"build": build}) + "\n"


def manifest(kb: KnowledgeBase, uis: Mapping[str, UI]) -> str:
    english = uis.get(SOURCE_LANGUAGE)
    description = english._("The Magic: The Gathering rules and rulings in {language}").format(
        language=", ".join(l.name for l in kb.languages)) if english else "rulekb"
    return json.dumps({"name": "rulekb", "short_name": "rulekb", "description": description,
                       "start_url": "index.html", "scope": "./", "display": "standalone",
                       "background_color": "#ffffff", "theme_color": "#3f51b5",
                       "icons": [{"src": icon_path(size), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                                 for size in ICON_SIZES]}, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def scripts(kb: KnowledgeBase) -> dict[str, str]:
    """The worker and the script that stores a language, at the site root."""
    return {SAVER: template("offline/rulekb-offline.js.j2").render(prefix=CACHE_PREFIX, list_folder=LIST_FOLDER,
                                                                  build_file=BUILD_FILE),
            WORKER: template("offline/rulekb-sw.js.j2").render(languages=list(kb.language_codes), every=CHECK_EVERY_MS)}


def root_files(kb: KnowledgeBase, uis: Mapping[str, UI]) -> dict[str, str]:
    """The site-root files of the offline mode known before mkdocs runs."""
    return {MANIFEST: manifest(kb, uis), **scripts(kb)}


def megabytes(ui: UI, size: int) -> str:
    """A size in the locale's format: "31,9 MB" (de), "31,9 Mo" (fr)."""
    return ui._("{size} MB").format(size=format_decimal(size / 1_000_000, format="#,##0.0", locale=ui.locale))


def offline_page(kb: KnowledgeBase, uis: Mapping[str, UI], *, copy: bool, sizes: Mapping[str, int] | None = None,
                 only: str | None = None) -> str:
    """``offline.html`` of the published site (`copy` false: each language's archive with its
    size from `sizes`, the button that stores it in the browser, how to unpack an archive), or
    of an archive (`copy` true); `only`: a language's archive, which holds that language alone
    (the others' sections linked to folders it does not have)."""
    section = template("pages/offline-section.html.j2")
    sizes = sizes or {}
    sections = []
    for language in kb.languages:
        if only is not None and language.code != only:
            continue
        ui = uis[language.code]
        size = sizes.get(language.code)
        sections.append(Markup(section.render(
            lang=language.code, name=language.name, copy=copy, archive_path=archive_name(language.code),
            folder=archive_top(language.code), size=megabytes(ui, size) if size is not None else None,
            home=f"{language.code}/index.html", _=ui._)))
    english = uis.get(SOURCE_LANGUAGE)
    title = english._("Use the site offline") if english else "Use the site offline"
    return template("pages/offline.html.j2").render(sections=sections, title=f"rulekb — {title}", copy=copy,
                                                    manifest=MANIFEST, saver=SAVER, worker=WORKER)


def assembled_files(site: Path, languages: Iterable[str], build: str, page: str) -> dict[str, str]:
    """What `build` writes once the language sites and the archives are in `site`: each
    language's list (`url_list`, of the files as they are then), the published build's id, and
    `page` (offline.html with the archives' sizes)."""
    out = {paths.OFFLINE: page, BUILD_FILE: build_file(build)}
    for lang in languages:
        out[list_path(lang)] = url_list(lang, (*language_files(site, lang), MANIFEST), build)
    return out
