"""`rulekb build`: the whole pipeline (load -> validate -> link -> check -> render -> report)
into the static site, one mkdocs-material site per language. This module runs the steps; each
has a module of its own:

1. `pages`: load the knowledge base, the termbase, the UI catalogs and the hand-written pages,
   and render every page and JSON file (`render`, pure); the QA behind the translation-status
   pages runs meanwhile in a process of `rulekb.pool` (`check`, then `render.status`);
2. hand each language's pages to its mkdocs run: its generated ``build/<lang>/mkdocs.yml``
   (which INHERITs the root ``mkdocs.yml``) and its pages, pickled into
   ``build/<lang>/pages.pickle`` (a generated page is a Markdown skeleton plus its HTML blocks,
   which the rulekb plugin puts back after Markdown);
3. `languages`: mkdocs for the languages whose pages changed, side by side in processes of
   `rulekb.pool`, started once the pages are written (each holds its own language only); a
   language whose key did not change (`reuse`) keeps its last output;
4. `assemble`: the new site in a staging folder beside the site folder (language sites, root
   files, the offline archive ``rulekb-site.zip`` of all of it, see `archive`), swapped in as a
   whole (`sitefolder`): a failed build leaves the previous site whole.

Before step 1 the site folder's marker is read (`reuse.site_kept`): when it names the key of
this build's inputs (the data, the code, the programs) and the site holds its main files,
nothing is loaded or rendered and the site folder is kept as it is. One build at a time per site
and build folder (`sitefolder.locked`); every process the build starts ends with it, however it
ends (`rulekb.pool`).

Deterministic: same input, byte-identical files (SOURCE_DATE_EPOCH from the data, sorted
zip entries with fixed timestamps).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence, TextIO

from .. import sitefolder
from ..render.offline import icon_files, offline_page
from ..timing import PAGE_PIPELINE, Clock, Part, process_and_children_seconds
from . import reuse
from .assemble import assemble, check_replaceable, link_tree, publish, reused_site, write_root_files, writing
from .languages import (BuildError, LanguageBuild, build_language, build_languages, check_plugin_installed,
                        collect, default_jobs, language_config, mkdocs_env, write_config, write_pages)
from .pages import (LanguageInputs, LanguagePages, Prepared, language_inputs, language_pages, prepare, served_files,
                    split_pages, status_pages)

__all__ = ["BuildError", "BuildResult", "Busy", "HandedOver", "LanguageBuild", "LanguageInputs", "LanguagePages",
           "Prepared", "Progress", "SITE_MARKER", "assemble", "build_language", "build_site", "check_plugin_installed",
           "collect", "default_jobs", "hand_over", "language_config", "language_inputs", "language_pages", "link_tree",
           "mkdocs_env", "prepare", "served_files", "split_pages", "status_pages", "write_config"]

SITE_MARKER = sitefolder.SITE_MARKER   # marks a folder as a site this command built (and may replace)
Busy = sitefolder.Busy   # another build holds the lock of the site or build folder


@dataclass
class Progress:
    """Where the build's progress lines go: the stream the caller gives (the build command:
    standard output), or nowhere (None: a library call prints nothing)."""

    out: TextIO | None = None
    started: float = field(default_factory=time.monotonic)

    def say(self, text: str) -> None:
        if self.out is not None:
            self.out.write(text + "\n")
            self.out.flush()

    def elapsed(self) -> float:
        return time.monotonic() - self.started


@dataclass(frozen=True)
class BuildResult:
    site_dir: Path
    languages: tuple[LanguageBuild, ...]
    files: int
    size: int
    seconds: float
    cpu: float = 0.0        # processor time of the whole build: this process and every child it waited for
    parts: Mapping[Part, float] = field(default_factory=dict)   # processor time of everything but mkdocs, by part

    @property
    def mkdocs_cpu(self) -> float:
        return sum(b.mkdocs_cpu for b in self.languages)

    @property
    def pipeline_cpu(self) -> float:
        """Everything that is not mkdocs: load, render, QA, plugin hooks, archive, assembling."""
        return self.cpu - self.mkdocs_cpu

    @property
    def page_pipeline_cpu(self) -> float:
        """The pipeline that makes the pages mkdocs builds (`timing.PAGE_PIPELINE`)."""
        return sum(self.parts.get(part, 0.0) for part in PAGE_PIPELINE)


@dataclass(frozen=True)
class HandedOver:
    pages: Mapping[str, int]          # lang -> how many pages
    keys: Mapping[str, str]           # lang -> its `reuse.language_key`
    todo: tuple[str, ...]             # the languages whose pages were handed over (the others are reusable)
    changed: int                      # how many configs changed


def hand_over(root: Path, work: Path, prepared: Prepared, langs: Sequence[str]) -> HandedOver:
    """Step 2: each language's config written and its key taken (`reuse.language_key`); its
    pages written to ``build/<lang>/pages.pickle`` for its mkdocs run, unless the language's
    last build is reusable. One language's encoded pages at a time: they go once written."""
    pages: dict[str, int] = {}
    keys: dict[str, str] = {}
    todo = []
    changed = 0
    for lang in langs:
        handed = language_pages(prepared, lang)
        changed += write_config(root, work, prepared, lang)
        key = reuse.language_key(work / lang, root, lang, handed.digest, prepared.epoch)
        pages[lang], keys[lang] = len(handed.docs), key
        if not reuse.reusable(work / lang, key):
            reuse.forget(work / lang)
            write_pages(work / lang, handed)
            todo.append(lang)
        del handed
    return HandedOver(pages, keys, tuple(todo), changed)


def _reused(folder: Path, lang: str) -> LanguageBuild:
    return LanguageBuild(lang, sum(1 for _ in (folder / "site").rglob("*.html")), 0.0, True)


# ---------------------------------------------------------------- the command


def build_site(root: Path, site_dir: Path, *, work: Path | None = None, languages: Sequence[str] | None = None,
               jobs: int | None = None, out: TextIO | None = None,
               after_render: Callable[[Prepared], None] | None = None) -> BuildResult:
    """Build the site into `site_dir` (atomically). `work` is the build folder (default
    ``<root>/build``); `languages` limits the build to some languages (for tests and
    `serve`); `after_render` is called with the rendered site before mkdocs runs; `out`
    receives the progress lines (none when None).

    One build at a time per site and build folder: `Busy` when another holds their lock.
    Raises DataError for bad data and WriteError (a DataError) for a file that cannot be
    written (a full disk, a missing permission); the previous site stays whole then, and no
    staging folder is left behind."""
    root = root.resolve()
    site_dir = site_dir.resolve()
    work = (work or root / "build").resolve()
    check_plugin_installed()
    with sitefolder.locked(site_dir, work):
        sitefolder.recover(site_dir)
        check_replaceable(site_dir)
        return _build(root, site_dir, work, languages, jobs, Progress(out), after_render)


def _build(root: Path, site_dir: Path, work: Path, languages: Sequence[str] | None, jobs: int | None,
           progress: Progress, after_render: Callable[[Prepared], None] | None) -> BuildResult:
    """`build_site` holding the locks."""
    cpu = process_and_children_seconds()
    clock = Clock()
    inputs = reuse.inputs_key(root, languages)
    kept = reuse.site_kept(site_dir, inputs)
    if kept is not None:
        progress.say(f"[1/5] nothing changed since the last build (the same data, code and programs): "
                     f"{_shown_path(site_dir)} is kept as it is")
        built = tuple(reused_site(site_dir, lang) for lang in kept)
        return _finish(progress, clock, cpu, site_dir, built, [p for p in site_dir.rglob("*") if p.is_file()])
    progress.say("[1/5] loading rules/, translations/ and content/ …")
    step = time.monotonic()
    prepared = prepare(root, languages, concurrent_checks=True, clock=clock)
    kb = prepared.kb
    langs = tuple(languages or kb.language_codes)
    progress.say(f"      {len(kb.rules)} rules, {len(kb.cards)} cards, {len(kb.rulings)} rulings; "
                 f"languages: {', '.join(langs)} ({time.monotonic() - step:.1f} s)")
    if after_render is not None:
        after_render(prepared)
    return _write(root, site_dir, work, prepared, langs, jobs or default_jobs(len(langs)), progress, clock, cpu, inputs)


def _write(root: Path, site_dir: Path, work: Path, prepared: Prepared, langs: tuple[str, ...], jobs: int,
           progress: Progress, clock: Clock, cpu: float, inputs: str) -> BuildResult:
    """Steps 2 to 4 of `build_site`: the hand-over, mkdocs, assembling, the swap."""
    progress.say("[2/5] handing the pages to mkdocs …")
    step = time.monotonic()
    with clock.part(Part.HANDOVER):
        handed = hand_over(root, work, prepared, langs)
    counts = ", ".join(f"{lang} {handed.pages[lang]}" for lang in langs)
    progress.say(f"      pages: {counts}; {handed.changed} config(s) changed ({time.monotonic() - step:.1f} s)")

    results: dict[str, LanguageBuild] = {}
    for lang in langs:
        if lang not in handed.todo:
            results[lang] = _reused(work / lang, lang)
            progress.say(f"      {lang}: unchanged since the last build, reused ({results[lang].pages} pages)")

    def finished(built: LanguageBuild) -> None:
        reuse.record(work / built.lang, handed.keys[built.lang])
        results[built.lang] = built
        progress.say(f"      {built.lang}: {built.pages} pages in {built.seconds:.1f} s")

    staging = sitefolder.new_staging(site_dir)
    try:
        with writing(staging, site_dir):
            marker = reuse.marker_text(inputs, langs)
            todo = [language for language in prepared.kb.languages if language.code in handed.todo]
            progress.say(f"[3/5] building the language sites with mkdocs ({max(1, min(jobs, len(todo)))} at a time) …")
            build_languages(root, work, todo, prepared.epoch, jobs, finished,   # the site root files meanwhile
                            meanwhile=lambda: write_root_files(staging, prepared.site.files, marker, icon_files()))
            progress.say("[4/5] assembling the site, the JSON API and the archive …")
            assemble(work, staging, langs, clock, prepared.site.archive_files,
                     lambda sizes: offline_page(prepared.kb, prepared.uis, copy=False, sizes=sizes),
                     reuse.build_key(marker), prepared.site.language_archive_files)
            files = [p for p in staging.rglob("*") if p.is_file()]
        progress.say(f"[5/5] replacing {site_dir} …")
        publish(staging, site_dir)
    finally:
        if staging.exists():
            try:
                sitefolder.remove(staging, "the staging folder of this build")
            except Exception:  # noqa: BLE001  (the next build removes it: it carries our marker)
                pass
    built = tuple(results[lang] for lang in langs)
    return _finish(progress, clock, cpu, site_dir, built, [site_dir / p.relative_to(staging) for p in files])


def _finish(progress: Progress, clock: Clock, cpu: float, site_dir: Path, built: tuple[LanguageBuild, ...],
            files: Sequence[Path]) -> BuildResult:
    size = sum(p.stat().st_size for p in files)
    seconds = progress.elapsed()
    progress.say(f"done in {seconds:.1f} s: {len(files)} files, {size / 1e6:.1f} MB")
    index = site_dir / "index.html"
    progress.say(f"open {_shown_path(index)} in a browser ({index.as_uri()})")
    for b in built:
        clock.add(Part.HOOKS, b.hooks_cpu)
        clock.add(Part.HANDOVER, b.split_cpu)
    total = process_and_children_seconds() - cpu
    parts = dict(clock.seconds())
    # the rest: writing the site root, linking the language folders in, the swap, starting processes
    parts[Part.ASSEMBLE] += total - sum(b.mkdocs_cpu for b in built) - sum(parts.values())
    return BuildResult(site_dir, built, len(files), size, seconds, total, parts)


def _shown_path(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)

