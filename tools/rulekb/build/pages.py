"""The build's first two steps (pipeline load -> validate -> link -> check -> render, for
`rulekb build` and `rulekb serve`): load every input of the project (`inputs.load_inputs`: the
knowledge base, the termbase, the UI catalogs, the hand-written pages of ``content/`` … checked
as `rulekb validate` checks them); render every page and site-root file (`render`, pure);
and the translation-status pages from the QA (`check`, then `render.status`).

With `prepare(..., concurrent_checks=True)` the QA runs in a process of `rulekb.pool` while this
process renders the other pages (two processor cores: one each). That process is started once
the knowledge base is loaded (its work exists then), loads what it needs itself (from the caches
the load here has just filled) and sends back the status pages, a few pages of text; the
rendered site then gets them (`render.with_status`). Nothing calls back from render into here.

Each language's pages are then handed to its mkdocs run as `LanguagePages` (UTF-8 bytes, each
page encoded once; their digest is the language's part of its reuse key, `reuse`), and split
there into skeleton and HTML blocks (`split_pages`) for the rulekb plugin.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from .. import pool
from ..diagnostics import DataError, Problem
from ..i18n import UI
from ..inputs import Inputs, load_inputs
from ..link import LinkedKB, link
from ..models import KnowledgeBase
from ..render import RenderedSite, render_site, with_status
from ..render.markup import split_blocks
from ..render.numbers import FOLDER as NUMBERS_FOLDER
from ..render.search import CARDS_PART, FOLDER as SEARCH_FOLDER, NUMBERS_PART, RULINGS_PART
from ..timing import Clock, Part, maybe, process_and_children_seconds

SHARED_SEARCH_PARTS = (CARDS_PART, NUMBERS_PART, RULINGS_PART)


def status_pages(root: Path, inputs: Inputs, languages: Sequence[str] | None = None) -> dict[str, str]:
    """The translation-status page of each language: the QA (check stage; its result from the
    check cache when nothing changed, `check.cache`), then each page rendered from its result
    (`render.status`)."""
    from ..check.cache import cached_result
    from ..check.driver import run_checks
    from ..render.status import status_page

    # the result `rulekb check` (profile full, every language) keeps in the check cache: the
    # same run, so `make site` (a build, then a check) runs the checks once, and a build whose
    # data did not change runs them not at all
    kb = inputs.kb
    result = cached_result(root, "full", None,
                           lambda: run_checks(kb, root, profile="full", termbase=inputs.termbase,
                                              phraseology=inputs.phraseology, waivers=inputs.waivers,
                                              official=inputs.official))
    return {lang: status_page(result, kb, inputs.uis[lang]) for lang in (languages or kb.language_codes)}


def qa_status(root: Path, languages: tuple[str, ...] | None) -> tuple[dict[str, str], float]:
    """The QA's process (`prepare` with concurrent checks): the project's inputs loaded here
    (`inputs.load_inputs`, from the caches the build's own load has filled), the checks in this
    one process (the build renders on the other core), the status pages made; those pages and
    the processor seconds they took."""
    start = process_and_children_seconds()
    pages = status_pages(root, load_inputs(root), languages)
    return pages, process_and_children_seconds() - start


def source_date_epoch(kb: KnowledgeBase) -> int:
    """A build date that depends on the data only (newest date in it), for reproducible output."""
    dates = [r.release for r in kb.rules] + [r.date for r in kb.rulings]
    dates += [s.date for s in kb.sources.values() if s.date]
    newest = max(dates) if dates else "2000-01-01"
    return int(dt.datetime.fromisoformat(newest).replace(tzinfo=dt.timezone.utc).timestamp())


@dataclass(frozen=True)
class Prepared:
    kb: KnowledgeBase
    linked: LinkedKB
    uis: Mapping[str, UI]
    site: RenderedSite
    assets: Mapping[str, Mapping[str, Path]]
    epoch: int


def prepare(root: Path, languages: Sequence[str] | None = None, *, concurrent_checks: bool = False,
            clock: Clock | None = None) -> Prepared:
    """Steps 1 and 2: load everything and render (raises DataError on bad input). With
    `concurrent_checks` the QA of the status pages runs in a process of `rulekb.pool`
    (`qa_status`) while this one renders the other pages. With a `clock`, the processor time of
    each part is added to it."""
    # (a cold load parses the files in two processes: the child's processor time counts too)
    with maybe(clock, Part.LOAD, process_and_children_seconds):
        inputs = load_inputs(root)   # every input, checked as `rulekb validate` checks it
        kb = inputs.kb
        if languages:
            unknown = [code for code in languages if code not in kb.language_codes]
            if unknown:
                raise DataError([Problem("translations/languages.yaml", 1, 1, f"unknown language '{unknown[0]}'",
                                         f"use one of {', '.join(kb.language_codes)}")])
        uis, termbase, official = inputs.uis, inputs.termbase, inputs.official
        pages, assets = inputs.content.pages, inputs.content.assets
    with maybe(clock, Part.LINK):
        linked = link(kb)
    if not concurrent_checks:
        with maybe(clock, Part.QA):
            status = status_pages(root, inputs, languages)
        site = render_site(linked, uis, termbase=termbase, official=official, status=status, content=pages,
                           only=languages, clock=clock)
        return Prepared(kb, linked, uis, site, assets, source_date_epoch(kb))

    with pool.executor(1) as qa:
        running = qa.submit(qa_status, root, tuple(languages) if languages else None)
        site = render_site(linked, uis, termbase=termbase, official=official, content=pages, only=languages, clock=clock)
        status, seconds = running.result()   # an exception of the QA (a DataError) is raised here
    if clock is not None:
        clock.add(Part.QA, seconds)
    with maybe(clock, Part.PAGES):
        site = with_status(site, status, uis)
    return Prepared(kb, linked, uis, site, assets, source_date_epoch(kb))


@dataclass(frozen=True)
class LanguagePages:
    """One language's pages as rendered, what this process hands to the language's mkdocs run
    (which splits them, `split_pages`): only its own language's, pickled into
    ``build/<lang>/pages.pickle``. The pages travel as UTF-8 bytes, each page encoded once
    (`language_pages`), and the digest is taken of the bytes that are sent. Not the rendered
    str: pickling a str that is not ASCII keeps a UTF-8 copy of it with the str for as long as
    the str lives (CPython's pickle asks the str for its UTF-8 form, which the str then holds),
    here, where the rendered pages stay until the end."""
    lang: str
    docs: Mapping[str, bytes]                 # docs path -> Markdown, UTF-8 (a generated page: with its HTML blocks)
    generated: frozenset[str]                 # the docs paths of generated pages
    assets: Mapping[str, str]                 # docs path -> absolute path of a file of content/
    digest: str                               # of all of it, for the language's reuse key


@dataclass(frozen=True)
class LanguageInputs:
    """What mkdocs gets for one language, in memory (handed to the rulekb plugin)."""
    lang: str
    pages: Mapping[str, str]                  # docs path -> Markdown (a generated page: its skeleton)
    blocks: Mapping[str, tuple[str, ...]]     # docs path -> the HTML blocks of its placeholders
    assets: Mapping[str, str]                 # docs path -> absolute path of a file of content/
    digest: str                               # of the pages and assets (`LanguagePages.digest`)


def language_pages(prepared: Prepared, lang: str) -> LanguagePages:
    """Step 3 for one language, in this process: its rendered pages, each encoded to UTF-8 once
    (the bytes that are hashed are those that are sent), its assets, and their digest."""
    docs = prepared.site.docs[lang]
    generated = prepared.site.generated[lang]
    digest = hashlib.sha256()
    encoded: dict[str, bytes] = {}
    for path in sorted(docs):
        data = encoded[path] = docs[path].encode("utf-8")
        digest.update(path.encode("utf-8") + (b"\1" if path in generated else b"\0"))
        digest.update(data)
        digest.update(b"\2")
    assets: dict[str, str] = {}
    for rel, source in sorted(_assets_for(prepared.assets, lang, prepared.kb.language_codes).items()):
        if rel not in docs:
            assets[rel] = str(source.resolve())
            digest.update(rel.encode("utf-8") + b"\0" + source.read_bytes() + b"\3")
    return LanguagePages(lang, encoded, generated, assets, digest.hexdigest())


def split_pages(pages: LanguagePages) -> LanguageInputs:
    """Step 3, in the language's mkdocs run: its pages decoded, the generated ones split into
    skeleton and HTML blocks (`render.markup.split_blocks`)."""
    skeletons: dict[str, str] = {}
    blocks: dict[str, tuple[str, ...]] = {}
    generated = pages.generated
    for path, data in sorted(pages.docs.items()):
        text = data.decode("utf-8")
        if path in generated:
            text, html = split_blocks(text)
            blocks[path] = tuple(html)
        skeletons[path] = text
    return LanguageInputs(pages.lang, skeletons, blocks, pages.assets, pages.digest)


def language_inputs(prepared: Prepared, lang: str) -> LanguageInputs:
    """Step 3 for one language: its pages split into skeleton and HTML blocks, and its assets."""
    return split_pages(language_pages(prepared, lang))


def served_files(prepared: Prepared, lang: str) -> dict[str, str]:
    """The site-root files that the pages of one language reach, for `rulekb serve`, which serves
    that language alone at the root of its server (and the plugin adds these to its files): the
    language's own (``<lang>/search/rules.js``, the rule numbers ``<lang>/n/…``) without the
    language's folder, and the search parts all languages share (``search/cards.js``,
    ``search/numbers.js``) beside its own (the theme's ``rulekb_site_root`` is then "."). The same
    index as the built site's: the same files."""
    own = f"{lang}/"
    out = {path[len(own):]: text for path, text in prepared.site.files.items()
           if path.startswith(own) and path[len(own):].split("/")[0] in (SEARCH_FOLDER, NUMBERS_FOLDER)}
    out.update({path: text for path, text in prepared.site.files.items() if path in SHARED_SEARCH_PARTS})
    return dict(sorted(out.items()))


def _assets_for(assets: Mapping[str, Mapping[str, Path]], lang: str, order: Sequence[str]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for donor in (lang, "en", *order, *sorted(assets)):
        for rel, path in assets.get(donor, {}).items():
            out.setdefault(rel, path)
    return out
