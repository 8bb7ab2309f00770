"""`rulekb build`: the whole pipeline (load -> validate -> link -> check -> render -> report)
into the static site, one mkdocs-material site per language.

1. load the knowledge base, the termbase, the UI catalogs and the hand-written pages;
2. render every page and JSON file (`render`, pure), with the translation-status pages
   (`check`, then `render.status`);
3. hand each language's pages to mkdocs in memory: a generated page is a Markdown skeleton
   (headings, placeholders) plus its HTML blocks, which the rulekb plugin puts back after
   Markdown (Markdown never parses the texts, and is not slowed down by thousands of HTML
   blocks); only a small generated ``build/<lang>/mkdocs.yml`` is written, which INHERITs the
   root ``mkdocs.yml`` and sets the language and its navigation;
4. run mkdocs for the languages in processes side by side (`parallel.start_waiting`): the
   processes are forked right after loading, before anything is rendered (as many as run at
   once, `default_jobs`: on one CPU, the third starts after a first has ended), and each is sent
   its own language's pages only (a forked process's resident set counts every page it
   inherits, so a process forked after rendering held the pages of every language: 2.07 GB
   each on the complete data, where it now holds ~0.75 GB); they import nothing again. A
   language whose inputs did not change since its last build (same fingerprint) is not built
   again (its process ends unused);
5. assemble the site next to the target folder (language sites, ``index.html``, ``api/``, the
   offline archive ``rulekb-site.zip`` of all of it, see `archive`) and swap it in: a failed
   build leaves the previous site whole. When nothing changed (the site's marker names the same
   fingerprint: every language's, the root files', the assembling code's), the site folder is
   kept as it is.

Before step 1, the inputs themselves are compared (`inputs_fingerprint`: every file of rules/,
translations/, content/ and mkdocs.yml, the code and templates of this package, the versions of
the installed packages and of Python): when the build folder's record (``build/site-inputs``)
says the site folder was built from the same inputs and still holds its main files, nothing is
loaded or rendered and the site is kept as it is (a second or so on the whole rules, where
loading and rendering take a minute). Delete ``build/site-inputs`` to force a full build.

Deterministic: same input, byte-identical files (SOURCE_DATE_EPOCH from the data, sorted
zip entries with fixed timestamps).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import shutil
import sys
import time
import traceback
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence, TextIO, TypeVar

from . import __version__, archive, parallel, sitefolder
from .diagnostics import DataError, Problem
from .files import WriteError, make_folder, os_problem, write_atomic
from .i18n import N_, UI, catalog_path, load_uis
from .link import LinkedKB, link
from .models import KnowledgeBase
from .render import RenderedSite, offline, paths, render_site
from .render.offline import offline_page as render_offline_page
from .render.markup import split_blocks
from .render.numbers import FOLDER as NUMBERS_FOLDER
from .render.search import CARDS_PART, FOLDER as SEARCH_FOLDER, NUMBERS_PART, RULINGS_PART
from markupsafe import escape
from .timing import PAGE_PIPELINE, Clock, Part, maybe, process_and_children_seconds
from .knowledge import load_knowledge_base

TEMPLATES = Path(__file__).resolve().parent / "templates"
CONTENT_FOLDER = "content"
ROOT_CONFIG = "mkdocs.yml"
SITE_MARKER = sitefolder.SITE_MARKER   # marks a folder as a site this command built (and may replace)
FINGERPRINT = "fingerprint"
SITE_INPUTS = "site-inputs"      # in the build folder: which inputs the site folder was last built from
INPUT_FOLDERS = ("rules", "translations", CONTENT_FOLDER)
ARCHIVE_TOP = "rulekb-site"      # the folder the offline archive unpacks into


class BuildError(Exception):
    """mkdocs failed for a language, or the site folder cannot be replaced."""


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
class LanguageBuild:
    lang: str
    pages: int
    seconds: float          # wall-clock time of its mkdocs process (0 when reused)
    reused: bool
    mkdocs_cpu: float = 0.0  # processor time in mkdocs itself (without the rulekb plugin's hooks)
    hooks_cpu: float = 0.0   # processor time in the rulekb plugin's hooks
    split_cpu: float = 0.0   # processor time splitting its pages (`split_pages`, the hand-over's part in its process)


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


# ---------------------------------------------------------------- inputs


def read_content(root: Path) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Path]]]:
    """Hand-written pages per language: Markdown texts, and the other files (images …)."""
    pages: dict[str, dict[str, str]] = {}
    assets: dict[str, dict[str, Path]] = {}
    base = root / CONTENT_FOLDER
    if not base.is_dir():
        return pages, assets
    for lang_dir in sorted(p for p in base.iterdir() if p.is_dir()):
        for path in sorted(p for p in lang_dir.rglob("*") if p.is_file()):
            rel = path.relative_to(lang_dir).as_posix()
            if rel.endswith(".md"):
                try:
                    pages.setdefault(lang_dir.name, {})[rel] = path.read_text(encoding="utf-8")
                except UnicodeDecodeError as exc:
                    raise DataError([Problem(path.relative_to(root).as_posix(), 1, 1, f"not UTF-8: {exc}",
                                             "save the page as UTF-8")]) from None
            else:
                assets.setdefault(lang_dir.name, {})[rel] = path
    return pages, assets


def load_termbase_if_any(root: Path, kb: KnowledgeBase):
    from .termbase import TERMBASE_FILE, load_termbase
    if not (root / TERMBASE_FILE).is_file():
        return None
    return load_termbase(root, kb)


def status_pages(root: Path, kb: KnowledgeBase, uis: Mapping[str, UI], termbase=None,
                 languages: Sequence[str] | None = None, processes: int = 2) -> dict[str, str]:
    """The translation-status page of each language: the QA (check stage; its result from the
    check cache when nothing changed, `check.cache`), then each page rendered from its result
    (`render.status`) where the QA ran: a few pages of text travel back
    from its process, not the result (unpickling 6,700 findings would cost more than the pages)."""
    from .check import run_checks
    from .check.cache import cached_result
    from .render.status import status_page

    # the result `rulekb check` (profile full, every language) keeps in the check cache: the
    # same run, so `make site` (a build, then a check) runs the checks once, and a build whose
    # data did not change runs them not at all
    result = cached_result(root, "full", None,
                           lambda: run_checks(kb, root, profile="full", termbase=termbase, processes=processes))
    return {lang: status_page(result, kb, uis[lang]) for lang in (languages or kb.language_codes)}


def qa_job(root: Path, kb: KnowledgeBase, uis: Mapping[str, UI], termbase=None,
           languages: Sequence[str] | None = None) -> Callable[[], tuple[dict[str, str], float]]:
    """`status_pages` as a job of `parallel` (the other core renders the pages meanwhile, so the
    checks keep to one process): the pages and the processor seconds they took."""

    def job() -> tuple[dict[str, str], float]:
        start = process_and_children_seconds()
        pages = status_pages(root, kb, uis, termbase, languages, processes=1)
        return pages, process_and_children_seconds() - start

    return job


def source_date_epoch(kb: KnowledgeBase) -> int:
    """A build date that depends on the data only (newest date in it), for reproducible output."""
    dates = [r.release for r in kb.rules] + [r.date for r in kb.rulings]
    dates += [s.date for s in kb.sources.values() if s.date]
    newest = max(dates) if dates else "2000-01-01"
    return int(dt.datetime.fromisoformat(newest).replace(tzinfo=dt.timezone.utc).timestamp())


# ---------------------------------------------------------------- mkdocs configs


def material_languages() -> frozenset[str]:
    import material
    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"
    return frozenset(p.stem for p in folder.glob("*.html"))


COPYRIGHT = N_("Rules texts from the sources named on each page; Magic: The Gathering is a trademark of Wizards of the Coast.")


def language_config(root: Path, work: Path, lang: str, kb: KnowledgeBase, ui: UI,
                    nav: Sequence[tuple[str, str]], *, regenerate: bool = False) -> str:
    """The mkdocs.yml of one language: INHERITs the root config. Relative paths of an inherited
    config are resolved from the child's folder, so the paths are set here."""
    folder = work / lang
    rel = lambda p: os.path.relpath(p, folder).replace(os.sep, "/")  # noqa: E731
    theme_language = lang if lang in material_languages() else "en"
    config = {
        "INHERIT": rel(root / ROOT_CONFIG),
        "docs_dir": "docs",
        "site_dir": "site",
        "site_description": ui._("The Magic: The Gathering rules and rulings in {language}").format(
            language=ui.language_name(lang)),
        # the footer: the one mkdocs setting material shows as it is, so the build translates it
        "copyright": ui._(COPYRIGHT),
        "theme": {"language": theme_language, "custom_dir": rel(TEMPLATES)},
        "nav": [{str(escape(title)): path} for title, path in nav],
        "plugins": {
            "rulekb": {"lang": lang, "root": rel(root), "regenerate": regenerate,
                       "languages": [[l.code, l.name] for l in kb.languages],
                       "permalink_title": ui._("Permanent link")},
        },
        # `alternate: true` shows the language menu; its links are per page (templates/partials/alternate.html)
        "extra": {"alternate": True},
    }
    if regenerate:
        config["watch"] = [rel(root / "rules"), rel(root / "translations"), rel(root / CONTENT_FOLDER)]
    return "# generated by `rulekb build`; edit the root mkdocs.yml instead\n" + json.dumps(config, ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------- writing


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write a file unless it already holds exactly `data` (mtimes of unchanged pages stay);
    atomically, through a temporary file of its own (`files.write_atomic`)."""
    make_folder(path.parent)
    return write_atomic(path, data)


def sync_tree(folder: Path, files: Mapping[str, bytes]) -> int:
    """Make `folder` hold exactly `files`; returns how many files were written or removed."""
    changed = sum(write_if_changed(folder / rel, data) for rel, data in files.items())
    if folder.is_dir():
        for path in sorted(folder.rglob("*"), reverse=True):
            rel = path.relative_to(folder).as_posix()
            if path.is_file() and rel not in files:
                path.unlink()
                changed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    folder.mkdir(parents=True, exist_ok=True)
    return changed


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class SharedInputs:
    """What the mkdocs output of every language depends on alike (`fingerprint`): the root
    mkdocs.yml, the templates, the plugin and the versions of the programs; read once per build,
    not once per language."""
    root_config: str
    templates: str
    plugin: str
    versions: tuple[str, ...]

    @classmethod
    def of(cls, root: Path) -> "SharedInputs":
        return cls((root / ROOT_CONFIG).read_text("utf-8"), tree_digest(TEMPLATES),
                   hashlib.sha256(Path(__file__).with_name("mkdocs_plugin.py").read_bytes()).hexdigest(),
                   tuple(f"{name}={_version(name)}" for name in ("mkdocs", "mkdocs-material", "Markdown", "pymdown-extensions")))


def fingerprint(folder: Path, root: Path, epoch: int, lang: str, digest: str, shared: SharedInputs) -> str:
    """Everything a language's mkdocs output depends on: its pages (in memory; `digest` of
    `LanguagePages`), its mkdocs.yml, the UI catalog of its language (the theme's strings), the
    build date, and what all languages share (`shared`, `SharedInputs.of`, read once per build): the root
    mkdocs.yml, the templates and the plugin, the versions of the programs."""
    catalog = catalog_path(root, lang)
    parts = [digest, hashlib.sha256(catalog.read_bytes() if catalog.is_file() else b"").hexdigest(), (folder / "mkdocs.yml").read_text("utf-8"),
             shared.root_config, shared.templates, shared.plugin, __version__, str(epoch), sys.version, *shared.versions]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "-"


# ---------------------------------------------------------------- preparing a language


@dataclass(frozen=True)
class Prepared:
    kb: KnowledgeBase
    linked: LinkedKB
    uis: Mapping[str, UI]
    site: RenderedSite
    assets: Mapping[str, Mapping[str, Path]]
    epoch: int


def prepare(root: Path, languages: Sequence[str] | None = None, *, concurrent_checks: bool = False,
            clock: Clock | None = None,
            loaded: Callable[[KnowledgeBase, Mapping[str, UI]], None] | None = None) -> Prepared:
    """Steps 1 and 2: load everything and render (raises DataError on bad input). With
    `concurrent_checks` the QA of the status pages runs in a child process while the pages
    are rendered (two processor cores: one each). With a `clock`, the processor time of each
    part is added to it. `loaded` is called with the knowledge base and the UI strings once
    they are loaded, before anything is rendered (`build_site` starts its mkdocs processes
    there, while this process is still small)."""
    # (a cold load parses the files in two processes: the child's processor time counts too)
    with maybe(clock, Part.LOAD, process_and_children_seconds):
        kb = load_knowledge_base(root)
        if languages:
            unknown = [code for code in languages if code not in kb.language_codes]
            if unknown:
                raise DataError([Problem("translations/languages.yaml", 1, 1, f"unknown language '{unknown[0]}'",
                                         f"use one of {', '.join(kb.language_codes)}")])
        uis = load_uis(root, kb.languages)
        termbase = load_termbase_if_any(root, kb)
        pages, assets = read_content(root)
    if loaded is not None:
        loaded(kb, uis)
    with maybe(clock, Part.LINK):
        linked = link(kb)
    if not concurrent_checks:
        with maybe(clock, Part.QA):
            status = status_pages(root, kb, uis, termbase, languages)
        site = render_site(linked, uis, termbase=termbase, status=status, content=pages, only=languages, clock=clock)
        return Prepared(kb, linked, uis, site, assets, source_date_epoch(kb))

    with parallel.start([qa_job(root, kb, uis, termbase, languages)], processes=1) as qa:

        def status_when_needed() -> Mapping[str, str]:   # called by render once the other pages are made
            ((status, seconds),) = _build_errors(qa.results)
            if clock is not None:
                clock.add(Part.QA, seconds)
            return status

        site = render_site(linked, uis, termbase=termbase, status=status_when_needed, content=pages, only=languages,
                           clock=clock)
    return Prepared(kb, linked, uis, site, assets, source_date_epoch(kb))


@dataclass(frozen=True)
class LanguagePages:
    """One language's pages as rendered, what this process hands to the language's mkdocs
    process (which splits them, `split_pages`): only its own language's, pickled through a pipe.
    The pages travel as UTF-8 bytes, each page encoded once (`language_pages`), and the digest
    is taken of the bytes that are sent. Not the rendered str: pickling a str that is not ASCII
    keeps a UTF-8 copy of it with the str for as long as the str lives (CPython's pickle asks
    the str for its UTF-8 form, which the str then holds), here, where the rendered pages stay
    until the end. (Holding a language's bytes from the digest to the pipe costs no more memory
    than pickling them: the pickler keeps every object it wrote, its memo, until it is done.)"""
    lang: str
    docs: Mapping[str, bytes]                 # docs path -> Markdown, UTF-8 (a generated page: with its HTML blocks)
    generated: frozenset[str]                 # the docs paths of generated pages
    assets: Mapping[str, str]                 # docs path -> absolute path of a file of content/
    digest: str                               # of all of it, for the language's fingerprint


@dataclass(frozen=True)
class LanguageInputs:
    """What mkdocs gets for one language, in memory (handed to the rulekb plugin)."""
    lang: str
    pages: Mapping[str, str]                  # docs path -> Markdown (a generated page: its skeleton)
    blocks: Mapping[str, tuple[str, ...]]     # docs path -> the HTML blocks of its placeholders
    assets: Mapping[str, str]                 # docs path -> absolute path of a file of content/
    digest: str                               # of the pages and assets (`LanguagePages.digest`), for the language's fingerprint


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
    """Step 3, in the language's mkdocs process: its pages decoded, the generated ones split into
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


SHARED_SEARCH_PARTS = (CARDS_PART, NUMBERS_PART, RULINGS_PART)


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


def write_config(root: Path, work: Path, prepared: Prepared, lang: str, *, regenerate: bool = False) -> bool:
    """The language's build folder: its generated mkdocs.yml, and an empty docs folder (every
    page comes from memory). Returns whether the config changed."""
    folder = work / lang
    sync_tree(folder / "docs", {})   # a build folder of an older rulekb held the pages here
    for stale in ("blocks.json", "inputs.sha256", "site.zip"):
        (folder / stale).unlink(missing_ok=True)
    config = language_config(root, work, lang, prepared.kb, prepared.uis[lang], prepared.site.nav[lang], regenerate=regenerate)
    return write_if_changed(folder / "mkdocs.yml", config.encode("utf-8"))


def _assets_for(assets: Mapping[str, Mapping[str, Path]], lang: str, order: Sequence[str]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for donor in (lang, "en", *order, *sorted(assets)):
        for rel, path in assets.get(donor, {}).items():
            out.setdefault(rel, path)
    return out


# ---------------------------------------------------------------- mkdocs


def check_plugin_installed() -> None:
    names = {ep.name for ep in importlib.metadata.entry_points(group="mkdocs.plugins")}
    if "rulekb" not in names:
        raise BuildError("the rulekb mkdocs plugin is not registered: install the project first "
                         "(`pip install -e .` in the project folder; `make site` does it)")


def mkdocs_env(epoch: int) -> dict[str, str]:
    """The environment of `rulekb serve`'s mkdocs process."""
    env = dict(os.environ)
    env["SOURCE_DATE_EPOCH"] = str(epoch)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")   # mkdocs-material's banner about its successor
    package_parent = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


class _Messages(logging.Handler):
    """mkdocs' warnings and errors of one build, for the error message of a failed build."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def build_language(folder: Path, inputs: LanguageInputs, epoch: int, ui: UI | None = None) -> LanguageBuild:
    """Step 4 for one language, in this process: mkdocs, strict (a warning fails the build),
    with the pages of `inputs` and the UI strings of `ui` for the theme."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    logger = logging.getLogger("mkdocs")
    messages = _Messages()
    logger.addHandler(messages)
    propagate, logger.propagate = logger.propagate, False
    wall, cpu = time.monotonic(), time.process_time()
    try:
        config = load_config(config_file=str(folder / "mkdocs.yml"), strict=True)
        plugin = config.plugins["rulekb"]
        plugin.provide(inputs.pages, inputs.blocks, inputs.assets, ui)
        build(config)
    except OSError as exc:  # a full disk, a missing permission: the file and the fix, not mkdocs' traceback
        raise WriteError([os_problem(exc.filename or folder, exc)]) from None
    except Exception as exc:  # noqa: BLE001  (mkdocs' own errors and a theme's or plugin's)
        details = "\n".join(messages.lines + [f"{type(exc).__name__}: {exc}"])
        raise BuildError(f"mkdocs failed for '{inputs.lang}' ({folder / 'mkdocs.yml'}):\n{details}") from None
    finally:
        logger.removeHandler(messages)
        logger.propagate = propagate
    mkdocs_cpu = time.process_time() - cpu - plugin.own_seconds
    seconds = time.monotonic() - wall
    pages = sum(1 for _ in (folder / "site").rglob("*.html"))
    return LanguageBuild(inputs.lang, pages, seconds, False, mkdocs_cpu, plugin.own_seconds)


def build_handed_over(folder: Path, epoch: int, ui: UI | None, pages: LanguagePages) -> LanguageBuild:
    """Step 4 in a language's mkdocs process (`build_languages`): the pages this process was
    sent split (`split_pages`), then mkdocs (`build_language`)."""
    cpu = time.process_time()
    inputs = split_pages(pages)
    split = time.process_time() - cpu
    built = build_language(folder, inputs, epoch, ui)
    return dataclasses.replace(built, split_cpu=split)


def default_jobs(languages: int) -> int:
    """How many mkdocs processes run at once: every language, up to twice the CPUs. The
    languages are of equal size, so three at once on two cores end together after 1.5 times
    one language's time, where two and then one take twice that time."""
    return max(1, min(languages, 2 * (os.cpu_count() or 1)))


T = TypeVar("T")


def _build_errors(call: Callable[[], T]) -> T:
    """call(), with the failure of a job's process as a BuildError (a DataError and a BuildError
    of the job are raised as they are)."""
    try:
        return call()
    except parallel.JobFailed as failed:
        raise BuildError(f"a build process failed:\n{failed.trace or failed}") from None
    except (BuildError, DataError):
        raise
    except Exception as exc:  # noqa: BLE001  (a job's unexpected exception, with its traceback)
        raise BuildError("a build process failed:\n" + "".join(traceback.format_exception(exc))) from None


def collect(running: parallel.Running[T], done: Callable[[int, T], None],
            meanwhile: Callable[[], None] = lambda: None) -> None:
    """`meanwhile()` here, then done(index, result) as each job of `running` ends; a failed job
    fails the build (BuildError; leaving `running`'s context ends the others)."""
    meanwhile()
    results = running.done()
    while True:
        item = _build_errors(lambda: next(results, None))
        if item is None:
            return
        done(*item)


def reusable(folder: Path, fp: str) -> bool:
    """Whether a language's build folder holds the output of inputs with fingerprint `fp`."""
    marker = folder / FINGERPRINT
    return ((folder / "site" / "index.html").is_file() and marker.is_file()
            and marker.read_text() == fp)


def _reused(folder: Path, lang: str) -> LanguageBuild:
    return LanguageBuild(lang, sum(1 for _ in (folder / "site").rglob("*.html")), 0.0, True)


def _reused_site(site_dir: Path, lang: str) -> LanguageBuild:
    """A language of a site kept as it is: its pages, those of mkdocs (not the n/ pages beside them)."""
    folder = site_dir / lang
    pages = sum(1 for p in folder.rglob("*.html") if p.relative_to(folder).parts[0] != NUMBERS_FOLDER)
    return LanguageBuild(lang, pages, 0.0, True)


def start_language_processes(work: Path, langs: Sequence[str], epoch: int, uis: Mapping[str, UI],
                             jobs: int) -> parallel.Waiting[LanguagePages, LanguageBuild]:
    """Step 4's processes, one per language (at most `jobs` at a time), started before the pages
    are rendered: each holds only what this process holds then (the knowledge base, not the
    pages of every language), and waits for its language's pages (`hand_over`)."""
    import mkdocs.commands.build  # noqa: F401  (imported once, here: the forked processes share it)
    takes = [functools.partial(build_handed_over, work / lang, epoch, uis[lang]) for lang in langs]
    return parallel.start_waiting(takes, processes=max(1, min(jobs, len(langs))))


@dataclass(frozen=True)
class HandedOver:
    pages: Mapping[str, int]          # lang -> how many pages
    fingerprints: Mapping[str, str]   # lang -> `fingerprint`
    todo: tuple[str, ...]             # the languages sent to their mkdocs process (the others are reusable)
    changed: int                      # how many configs changed


def hand_over(root: Path, work: Path, prepared: Prepared, langs: Sequence[str],
              processes: parallel.Waiting[LanguagePages, LanguageBuild]) -> HandedOver:
    """Step 3: each language's config written and its fingerprint taken; its pages sent to its
    mkdocs process (`start_language_processes`), which starts on them at once, unless the
    language's last build is reusable (the same fingerprint): then its process ends unused."""
    pages: dict[str, int] = {}
    fingerprints: dict[str, str] = {}
    todo = []
    changed = 0
    shared = SharedInputs.of(root)
    for i, lang in enumerate(langs):
        handed = language_pages(prepared, lang)
        changed += write_config(root, work, prepared, lang)
        fp = fingerprint(work / lang, root, prepared.epoch, lang, handed.digest, shared)
        pages[lang], fingerprints[lang] = len(handed.docs), fp
        if reusable(work / lang, fp):
            processes.skip(i)
        else:
            (work / lang / FINGERPRINT).unlink(missing_ok=True)
            processes.feed(i, handed)
            todo.append(lang)
        # its bytes go now, not when the next language's are made (one language's UTF-8 at a
        # time: holding two made the complete build's largest process 76 MB larger); a language
        # whose process starts later (more languages than `jobs`) is kept by `processes` until then
        del handed
    return HandedOver(pages, fingerprints, tuple(todo), changed)


def build_languages(work: Path, langs: Sequence[str], handed: HandedOver,
                    processes: parallel.Waiting[LanguagePages, LanguageBuild], progress: Progress,
                    meanwhile: Callable[[], None] = lambda: None) -> tuple[LanguageBuild, ...]:
    """Step 4: mkdocs per language, in the processes `hand_over` sent the pages to; unchanged
    languages (the same fingerprint as their last build) are reused. `meanwhile` runs in this
    process while the languages build."""
    results: dict[str, LanguageBuild] = {}
    for lang in langs:
        if lang not in handed.todo:
            results[lang] = _reused(work / lang, lang)
            progress.say(f"      {lang}: unchanged since the last build, reused ({results[lang].pages} pages)")

    def finished(i: int, built: LanguageBuild) -> None:
        lang = langs[i]
        write_atomic(work / lang / FINGERPRINT, handed.fingerprints[lang].encode())
        results[lang] = built
        progress.say(f"      {lang}: {built.pages} pages in {built.seconds:.1f} s")

    collect(processes, finished, meanwhile)
    return tuple(results[lang] for lang in langs)


# ---------------------------------------------------------------- assembling


def link_tree(source: Path, target: Path) -> None:
    """The files of `source` in `target`, hard-linked (copied where links cannot be made); an
    OSError (a full disk) is raised as it is, naming its file."""
    for folder, _dirs, names in os.walk(source):
        into = target / Path(folder).relative_to(source)
        into.mkdir(parents=True, exist_ok=True)
        for name in names:
            try:
                os.link(os.path.join(folder, name), into / name)
            except OSError:
                shutil.copy2(os.path.join(folder, name), into / name)


def site_fingerprint(prepared: Prepared, fingerprints: Mapping[str, str]) -> str:
    """Everything a built site folder depends on: each language's fingerprint, the root files
    (``index.html``, the JSON API) and the code that assembles the site and its archive."""
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0".encode())
    for name in ("build.py", "archive.py", "render/offline.py"):
        digest.update((Path(__file__).parent / name).read_bytes() + b"\0")
    for lang, fp in fingerprints.items():
        digest.update(f"{lang}={fp}\0".encode())
    # each file's text encoded once and hashed as it is (not copied into one bytes with its path),
    # read straight from the dicts (no tuple of all their items: 13,749 objects on the bench data,
    # enough to set off a full run of the garbage collector over the knowledge base and the pages)
    update = digest.update
    for files in (prepared.site.files, prepared.site.archive_files):
        for rel, text in files.items():
            update(rel.encode("utf-8"))
            update(b"\0")
            update(text.encode("utf-8"))
            update(b"\1")
    return digest.hexdigest()


def marker_text(site_fp: str) -> str:
    return f"built by `rulekb build`; this folder is replaced as a whole by the next build\nfingerprint: {site_fp}\n"


def unchanged_site(site_dir: Path, work: Path, fingerprints: Mapping[str, str], site_fp: str) -> bool:
    """Whether `site_dir` is already the site these inputs build: its marker names the same
    fingerprint, its main files are there and every language's build is reusable."""
    marker = site_dir / SITE_MARKER
    try:
        if marker.read_text(encoding="utf-8") != marker_text(site_fp):
            return False
    except (OSError, UnicodeDecodeError):
        return False
    needed = [site_dir / "index.html", site_dir / paths.ARCHIVE] + [site_dir / lang / "index.html" for lang in fingerprints]
    return all(p.is_file() for p in needed) and all(reusable(work / lang, fp) for lang, fp in fingerprints.items())


def inputs_fingerprint(root: Path, languages: Sequence[str] | None) -> str:
    """Everything a site is made from, read without loading anything: every file under rules/,
    translations/ and content/ (path and bytes), the root mkdocs.yml, the files of this package
    (code and templates), the name and version of every installed distribution (mkdocs, its
    theme, Markdown, Babel …), Python's version and the languages asked for."""
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0{tuple(languages) if languages else None}\0".encode())
    for folder in INPUT_FOLDERS:
        base = root / folder
        if base.is_dir():
            digest.update(f"{folder}\0{tree_digest(base)}\0".encode())
    config = root / ROOT_CONFIG
    digest.update(config.read_bytes() if config.is_file() else b"-")
    digest.update(tree_digest(Path(__file__).resolve().parent).encode())
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    digest.update("\n".join(dists).encode())
    return digest.hexdigest()


def inputs_record(site_dir: Path, site_fp: str, inputs_fp: str, languages: Sequence[str]) -> str:
    return (f"site: {site_dir}\nsite fingerprint: {site_fp}\ninputs: {inputs_fp}\n"
            f"languages: {' '.join(languages)}\n")


def kept_as_built(site_dir: Path, work: Path, inputs_fp: str) -> tuple[str, ...] | None:
    """The languages of the site folder when the build folder's record says it was built from
    inputs of fingerprint `inputs_fp` and the site is still the one recorded (its marker, its
    main files); None otherwise."""
    try:
        record = dict(line.split(": ", 1) for line in (work / SITE_INPUTS).read_text(encoding="utf-8").splitlines())
        marker = (site_dir / SITE_MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if (record.get("site") != str(site_dir) or record.get("inputs") != inputs_fp
            or marker != marker_text(record.get("site fingerprint", ""))):
        return None
    langs = tuple(record.get("languages", "").split())
    needed = [site_dir / "index.html", site_dir / paths.ARCHIVE] + [site_dir / lang / "index.html" for lang in langs]
    return langs if langs and all(p.is_file() for p in needed) else None


def write_root_files(staging: Path, prepared: Prepared, site_fp: str) -> None:
    """Step 5a, first part: the root files of the new site (``index.html``, the JSON API, the
    marker) in the staging folder, each encoded as it is written (not all of them at once)."""
    files = {**prepared.site.files, SITE_MARKER: marker_text(site_fp)}
    folders = {str((staging / rel).parent) for rel in files}
    for folder in sorted(folders):
        os.makedirs(folder, exist_ok=True)
    for rel, text in files.items():
        with open(staging / rel, "wb") as f:
            f.write(text.encode("utf-8"))


def assemble(work: Path, staging: Path, languages: Sequence[str], clock: Clock | None = None,
             archive_files: Mapping[str, str] | None = None,
             offline_page: Callable[[Mapping[str, int]], str] | None = None, build_id: str = "") -> None:
    """Step 5a: the complete new site in `staging` (which `write_root_files` started): the
    language sites linked in, then the offline archive of all of it and one per language, with
    `archive_files` (site-root path -> text) in place of the site's files of those paths; then
    (`offline_page`: offline.html given the archives' sizes) the offline mode's lists of files
    of build `build_id` (`render.offline.assembled_files`)."""
    for lang in languages:
        link_tree(work / lang / "site", staging / lang)
    replace = {rel: text.encode("utf-8") for rel, text in (archive_files or {}).items()}
    with maybe(clock, Part.ARCHIVE):
        archive.zip_folder(staging, staging / paths.ARCHIVE, f"{ARCHIVE_TOP}/", replace)
        sizes = archive.language_archives(staging, languages, replace)
    if offline_page is not None:
        for rel, text in offline.assembled_files(staging, languages, build_id, offline_page(sizes)).items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).unlink(missing_ok=True)   # a hard link into the previous site: not written through
            (staging / rel).write_bytes(text.encode("utf-8"))


def check_replaceable(site_dir: Path) -> None:
    if site_dir.exists() and (not site_dir.is_dir() or (any(site_dir.iterdir()) and not (site_dir / SITE_MARKER).exists())):
        raise BuildError(f"refusing to replace {site_dir}: it is not a site built by rulekb (no {SITE_MARKER} in it); "
                         "choose another --site-dir or remove the folder")


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


@contextmanager
def _writing(site_dir: Path) -> Iterator[None]:
    """An OSError of the block (a full disk, a missing permission) as a WriteError naming its file."""
    try:
        yield
    except OSError as exc:
        raise WriteError([os_problem(exc.filename or site_dir, exc)]) from None


def _build(root: Path, site_dir: Path, work: Path, languages: Sequence[str] | None, jobs: int | None,
           progress: Progress, after_render: Callable[[Prepared], None] | None) -> BuildResult:
    """`build_site` holding the locks."""
    cpu = process_and_children_seconds()
    clock = Clock()
    inputs_fp = inputs_fingerprint(root, languages)
    kept = kept_as_built(site_dir, work, inputs_fp)
    if kept is not None:
        progress.say(f"[1/5] nothing changed since the last build (the same data, code and programs): "
                     f"{_shown_path(site_dir)} is kept as it is")
        built = tuple(_reused_site(site_dir, lang) for lang in kept)
        return _finish(progress, clock, cpu, site_dir, built, [p for p in site_dir.rglob("*") if p.is_file()])
    progress.say("[1/5] loading rules/, translations/ and content/ …")
    step = time.monotonic()
    with ExitStack() as stack:
        started: list[parallel.Waiting[LanguagePages, LanguageBuild]] = []
        langs: tuple[str, ...] = ()

        def start_processes(kb: KnowledgeBase, uis: Mapping[str, UI]) -> None:
            # the mkdocs processes, forked now: before rendering, this process is a fraction of its size after
            nonlocal langs, jobs
            langs = tuple(languages or kb.language_codes)
            jobs = jobs or default_jobs(len(langs))
            started.append(stack.enter_context(start_language_processes(work, langs, source_date_epoch(kb), uis, jobs)))

        prepared = prepare(root, languages, concurrent_checks=True, clock=clock, loaded=start_processes)
        kb = prepared.kb
        progress.say(f"      {len(kb.rules)} rules, {len(kb.cards)} cards, {len(kb.rulings)} rulings; "
                     f"languages: {', '.join(langs)} ({time.monotonic() - step:.1f} s)")
        if after_render is not None:
            after_render(prepared)

        with _writing(site_dir):
            (work / SITE_INPUTS).unlink(missing_ok=True)
            return _write(root, site_dir, work, prepared, langs, jobs or 1, started[0], progress, clock, cpu, inputs_fp)


def _write(root: Path, site_dir: Path, work: Path, prepared: Prepared, langs: tuple[str, ...], jobs: int,
           processes: parallel.Waiting[LanguagePages, LanguageBuild],
           progress: Progress, clock: Clock, cpu: float, inputs_fp: str) -> BuildResult:
    """Steps 3 to 5 of `build_site`: the configs, mkdocs (in `processes`), assembling, the swap;
    then the record of the inputs the site folder holds (`kept_as_built`)."""
    progress.say("[2/5] handing the pages to mkdocs …")
    step = time.monotonic()
    with clock.part(Part.HANDOVER):
        handed = hand_over(root, work, prepared, langs, processes)
        fingerprints = handed.fingerprints
        site_fp = site_fingerprint(prepared, fingerprints)
    counts = ", ".join(f"{lang} {handed.pages[lang]}" for lang in langs)
    progress.say(f"      pages: {counts}; {handed.changed} config(s) changed ({time.monotonic() - step:.1f} s)")

    if unchanged_site(site_dir, work, fingerprints, site_fp):
        # nothing to write: the site folder is left as it is (no copy, no swap)
        progress.say(f"[3/5] nothing changed since the last build: {_shown_path(site_dir)} is kept as it is")
        built = tuple(_reused(work / lang, lang) for lang in langs)
        write_atomic(work / SITE_INPUTS, inputs_record(site_dir, site_fp, inputs_fp, langs).encode("utf-8"))
        return _finish(progress, clock, cpu, site_dir, built, [p for p in site_dir.rglob("*") if p.is_file()])

    staging = sitefolder.new_staging(site_dir)
    try:
        progress.say(f"[3/5] building the language sites with mkdocs ({min(jobs, len(langs))} at a time) …")
        built = build_languages(work, langs, handed, processes, progress,  # the site root files meanwhile
                                meanwhile=lambda: write_root_files(staging, prepared, site_fp))
        progress.say("[4/5] assembling the site, the JSON API and the archive …")
        assemble(work, staging, langs, clock, prepared.site.archive_files,
                 lambda sizes: render_offline_page(prepared.kb, prepared.uis, copy=False, sizes=sizes), site_fp)
        files = [p for p in staging.rglob("*") if p.is_file()]
        progress.say(f"[5/5] replacing {site_dir} …")
        sitefolder.swap_in(staging, site_dir)
        write_atomic(work / SITE_INPUTS, inputs_record(site_dir, site_fp, inputs_fp, langs).encode("utf-8"))
    finally:
        if staging.exists():
            try:
                sitefolder.remove(staging, "the staging folder of this build")
            except WriteError:
                pass   # the next build removes it (it carries our marker)
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
