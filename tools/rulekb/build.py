"""`rulekb build`: the whole pipeline (load -> validate -> link -> check -> render -> report)
into the static site, one mkdocs-material site per language.

1. load the knowledge base, the termbase, the UI catalogs and the hand-written pages;
2. render every page and JSON file (`render`, pure), with the translation-status pages of the
   QA (`check` + `report`);
3. write them into the build folder ``build/<lang>/docs/`` (a file is rewritten only when its
   text changed), with a generated ``build/<lang>/mkdocs.yml`` that INHERITs the root
   ``mkdocs.yml`` and sets the language, its search stemmer and its navigation. A generated
   page is written as a Markdown skeleton (headings, placeholders) and its HTML blocks (all
   pages' in one file, ``build/<lang>/blocks.json``: thousands of small files are slow to
   write), which the rulekb plugin puts back after Markdown: Markdown
   never parses the texts, and is not slowed down by thousands of HTML blocks;
4. run mkdocs for the languages in parallel processes; a language whose inputs did not change
   since its last build (same fingerprint) is not built again;
5. assemble the site next to the target folder (language sites, ``index.html``, ``api/``,
   ``rulekb-site.zip``) and swap it in: a failed build leaves the previous site whole.

Deterministic: same input, byte-identical files (SOURCE_DATE_EPOCH from the data, sorted
zip entries with fixed timestamps).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence, TextIO

from . import __version__
from .diagnostics import DataError, Problem
from .i18n import UI, load_uis
from .link import LinkedKB, link
from .models import KnowledgeBase
from .render import RenderedSite, paths, render_site
from .render.markup import split_blocks
from .validate import load_knowledge_base

TEMPLATES = Path(__file__).resolve().parent / "templates"
CONTENT_FOLDER = "content"
ROOT_CONFIG = "mkdocs.yml"
SITE_MARKER = ".rulekb-site"     # marks a folder as a site this command built (and may replace)
FINGERPRINT = "fingerprint"
INPUTS = "inputs.sha256"          # build/<lang>/inputs.sha256: the digest of its docs and blocks, as written
BLOCKS = "blocks.json"           # build/<lang>/blocks.json: {docs path: the HTML blocks of that generated page}


class BuildError(Exception):
    """mkdocs failed for a language, or the site folder cannot be replaced."""


@dataclass
class Progress:
    out: TextIO | None = None   # None: the sys.stdout of the moment
    started: float = field(default_factory=time.monotonic)

    def say(self, text: str) -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    def elapsed(self) -> float:
        return time.monotonic() - self.started


@dataclass(frozen=True)
class LanguageBuild:
    lang: str
    pages: int
    seconds: float
    reused: bool


@dataclass(frozen=True)
class BuildResult:
    site_dir: Path
    languages: tuple[LanguageBuild, ...]
    files: int
    size: int
    seconds: float


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
                 languages: Sequence[str] | None = None) -> dict[str, str]:
    """The translation-status page of each language, from the QA stages (check -> report),
    in the language's UI words."""
    from .check import run_checks
    from .report import status_markdown

    result = run_checks(kb, root, profile="full", termbase=termbase)
    return {lang: status_markdown(result, kb, lang, gettext=uis[lang]._) for lang in (languages or kb.language_codes)}


def status_pages_in_child(root: Path, kb: KnowledgeBase, uis: Mapping[str, UI], termbase=None,
                          languages: Sequence[str] | None = None) -> Callable[[], dict[str, str]]:
    """`status_pages` started in a forked child process; returns the function that waits for
    its pages (and raises the DataError of the child, e.g. a broken waiver file). Where a
    process cannot be forked, the pages are made at once."""
    import multiprocessing
    if "fork" not in multiprocessing.get_all_start_methods():
        pages = status_pages(root, kb, uis, termbase, languages)
        return lambda: pages
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)

    def child() -> None:
        try:
            send.send(("ok", status_pages(root, kb, uis, termbase, languages)))
        except DataError as exc:
            send.send(("data-error", list(exc.problems)))
        except BaseException as exc:  # noqa: BLE001  (reported by the parent)
            import traceback
            send.send(("failed", "".join(traceback.format_exception(exc))))

    process = multiprocessing.get_context("fork").Process(target=child, name="rulekb-checks", daemon=True)
    process.start()
    send.close()

    def wait() -> dict[str, str]:
        try:
            kind, value = receive.recv()
        except EOFError:
            kind, value = "failed", f"the QA process ended with exit code {process.exitcode} and no result"
        finally:
            process.join()
            receive.close()
        if kind == "data-error":
            raise DataError(value)
        if kind == "failed":
            raise BuildError(f"the translation QA failed:\n{value}")
        return value

    return wait


def source_date_epoch(kb: KnowledgeBase) -> int:
    """A build date that depends on the data only (newest date in it), for reproducible output."""
    dates = [r.release for r in kb.rules] + [r.date for r in kb.rulings]
    dates += [s.date for s in kb.sources.values() if s.date]
    newest = max(dates) if dates else "2000-01-01"
    return int(dt.datetime.fromisoformat(newest).replace(tzinfo=dt.timezone.utc).timestamp())


# ---------------------------------------------------------------- mkdocs configs


def lunr_languages() -> frozenset[str]:
    """The languages material's search has a stemmer for (its lunr.<code>.min.js files)."""
    import material
    folder = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "lunr" / "min"
    found = {p.name.split(".")[1] for p in folder.glob("lunr.*.min.js")}
    return frozenset(found - {"stemmer", "multi"}) | {"en"}


def material_languages() -> frozenset[str]:
    import material
    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"
    return frozenset(p.stem for p in folder.glob("*.html"))


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
        "theme": {"language": theme_language, "custom_dir": rel(TEMPLATES)},
        "nav": [{str(escape_html(title)): path} for title, path in nav],
        "plugins": {
            "search": {"lang": [lang if lang in lunr_languages() else "en"]},
            "rulekb": {"lang": lang, "root": rel(root), "regenerate": regenerate, "blocks_file": BLOCKS,
                       "languages": [[l.code, l.name] for l in kb.languages]},
        },
        # `alternate: true` shows the language menu; its links are per page (templates/partials/alternate.html)
        "extra": {"alternate": True},
    }
    if regenerate:
        config["watch"] = [rel(root / "rules"), rel(root / "translations"), rel(root / CONTENT_FOLDER)]
    return "# generated by `rulekb build`; edit the root mkdocs.yml instead\n" + json.dumps(config, ensure_ascii=False, indent=2) + "\n"


def escape_html(text: str) -> str:
    from markupsafe import escape
    return str(escape(text))


# ---------------------------------------------------------------- writing


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write a file unless it already holds exactly `data` (mtimes of unchanged pages stay)."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


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
    return changed


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def files_digest(files: Mapping[str, bytes]) -> str:
    """The digest of a folder's files given in memory (what `tree_digest` gives once written)."""
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + files[rel] + b"\0")
    return digest.hexdigest()


def fingerprint(folder: Path, root: Path, epoch: int) -> str:
    """Everything a language's mkdocs output depends on. The digest of its docs and blocks is
    the one `write_language` noted (it wrote them), not read back from disk."""
    versions = [f"{name}={_version(name)}" for name in ("mkdocs", "mkdocs-material", "Markdown", "pymdown-extensions")]
    try:
        written = (folder / INPUTS).read_text("utf-8")
    except FileNotFoundError:
        blocks = folder / BLOCKS
        written = tree_digest(folder / "docs") + (hashlib.sha256(blocks.read_bytes()).hexdigest() if blocks.is_file() else "")
    parts = [written, (folder / "mkdocs.yml").read_text("utf-8"), (root / ROOT_CONFIG).read_text("utf-8"),
             tree_digest(TEMPLATES), __version__, str(epoch), sys.version, *versions]
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


def prepare(root: Path, languages: Sequence[str] | None = None, *, concurrent_checks: bool = False) -> Prepared:
    """Steps 1 and 2: load everything and render (raises DataError on bad input). With
    `concurrent_checks` the QA of the status pages runs in a child process while the pages
    are rendered (two processor cores: one each)."""
    kb = load_knowledge_base(root)
    if languages:
        unknown = [code for code in languages if code not in kb.language_codes]
        if unknown:
            raise DataError([Problem("translations/languages.yaml", 1, 1, f"unknown language '{unknown[0]}'",
                                     f"use one of {', '.join(kb.language_codes)}")])
    linked = link(kb)
    uis = load_uis(root, kb.languages)
    termbase = load_termbase_if_any(root, kb)
    pages, assets = read_content(root)
    status = (status_pages_in_child(root, kb, uis, termbase, languages) if concurrent_checks
              else status_pages(root, kb, uis, termbase, languages))
    site = render_site(linked, uis, termbase=termbase, status=status, content=pages, only=languages)
    return Prepared(kb, linked, uis, site, assets, source_date_epoch(kb))


def write_language(root: Path, work: Path, prepared: Prepared, lang: str, *, regenerate: bool = False) -> int:
    """Step 3 for one language: its docs folder and mkdocs.yml; returns the files changed."""
    folder = work / lang
    files: dict[str, bytes] = {}
    blocks: dict[str, list[str]] = {}
    generated = prepared.site.generated[lang]
    for path, text in prepared.site.docs[lang].items():
        if path in generated:
            text, html = split_blocks(text)
            blocks[path] = html
        files[path] = text.encode("utf-8")
    for rel, source in _assets_for(prepared.assets, lang, prepared.kb.language_codes).items():
        files.setdefault(rel, source.read_bytes())
    blocks_json = (json.dumps(blocks, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    changed = sync_tree(folder / "docs", files) + write_if_changed(folder / BLOCKS, blocks_json)
    write_if_changed(folder / INPUTS, (files_digest(files) + hashlib.sha256(blocks_json).hexdigest()).encode())
    config = language_config(root, work, lang, prepared.kb, prepared.uis[lang], prepared.site.nav[lang], regenerate=regenerate)
    changed += write_if_changed(folder / "mkdocs.yml", config.encode("utf-8"))
    return changed


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
    env = dict(os.environ)
    env["SOURCE_DATE_EPOCH"] = str(epoch)
    env["PYTHONHASHSEED"] = "0"
    env.setdefault("NO_MKDOCS_2_WARNING", "1")   # mkdocs-material's banner about its successor
    package_parent = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def run_mkdocs(folder: Path, epoch: int) -> tuple[float, int]:
    """Build one language with mkdocs (strict: a warning fails the build); (seconds, pages)."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(folder / "mkdocs.yml")],
                          cwd=folder, env=mkdocs_env(epoch), capture_output=True, text=True)
    if proc.returncode != 0:
        output = "\n".join(s for s in (proc.stdout.strip(), proc.stderr.strip()) if s)
        raise BuildError(f"mkdocs failed for '{folder.name}' ({folder / 'mkdocs.yml'}):\n{output}")
    pages = sum(1 for _ in (folder / "site").rglob("*.html"))
    return time.monotonic() - start, pages


def default_jobs(languages: int) -> int:
    """How many mkdocs processes run at once: every language, up to twice the CPUs. The
    languages are of equal size, so three at once on two cores end together after 1.5 times
    one language's time, where two and then one take twice that time."""
    return max(1, min(languages, 2 * (os.cpu_count() or 1)))


def build_languages(root: Path, work: Path, prepared: Prepared, languages: Sequence[str], jobs: int,
                    progress: Progress) -> tuple[LanguageBuild, ...]:
    """Step 4: mkdocs per language, in parallel processes; unchanged languages are reused."""
    results: dict[str, LanguageBuild] = {}
    todo = []
    for lang in languages:
        folder = work / lang
        fp = fingerprint(folder, root, prepared.epoch)
        marker = folder / FINGERPRINT
        if (folder / "site" / "index.html").is_file() and marker.is_file() and marker.read_text() == fp:
            pages = sum(1 for _ in (folder / "site").rglob("*.html"))
            results[lang] = LanguageBuild(lang, pages, 0.0, True)
            progress.say(f"      {lang}: unchanged since the last build, reused ({pages} pages)")
        else:
            marker.unlink(missing_ok=True)
            todo.append((lang, fp))
    if todo:
        with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
            futures = {pool.submit(run_mkdocs, work / lang, prepared.epoch): (lang, fp) for lang, fp in todo}
            for future in as_completed(futures):
                lang, fp = futures[future]
                seconds, pages = future.result()
                (work / lang / FINGERPRINT).write_text(fp)
                results[lang] = LanguageBuild(lang, pages, seconds, False)
                progress.say(f"      {lang}: {pages} pages in {seconds:.1f} s")
    return tuple(results[lang] for lang in languages)


# ---------------------------------------------------------------- assembling


ZIP_DATE = (1980, 1, 1, 0, 0, 0)
ZIP_LEVEL = 1   # deflate level: twice as fast as 6 on the whole rules (about 15 % larger), the archive is on the critical path


def write_zip(folder: Path, target: Path, top: str = "rulekb-site") -> None:
    """The whole site as one archive: sorted entries, fixed timestamps and permissions."""
    files = sorted((p for p in folder.rglob("*") if p.is_file() and p != target), key=lambda p: p.relative_to(folder).as_posix())
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=ZIP_LEVEL) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{top}/{path.relative_to(folder).as_posix()}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            archive.writestr(info, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=ZIP_LEVEL)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def write_root_files(staging: Path, prepared: Prepared) -> None:
    """Step 5a, first part: the new site folder with its root files (``index.html``, the JSON
    API). It runs while mkdocs builds the languages: writing thousands of files is disk time,
    mkdocs is processor time."""
    staging.mkdir(parents=True)
    for rel, text in prepared.site.files.items():
        path = staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def assemble(work: Path, staging: Path, languages: Sequence[str]) -> None:
    """Step 5a: the complete new site in `staging` (which `write_root_files` started)."""
    for lang in languages:
        shutil.copytree(work / lang / "site", staging / lang, copy_function=_link_or_copy)
    (staging / SITE_MARKER).write_text("built by `rulekb build`; this folder is replaced as a whole by the next build\n")
    write_zip(staging, staging / paths.ARCHIVE)


def swap_in(staging: Path, site_dir: Path) -> None:
    """Step 5b: replace the site folder by the staged one. Between the two renames the old
    site is kept as a sibling; a later build puts it back if this one was interrupted there."""
    old = site_dir.with_name(f".{site_dir.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if site_dir.exists():
        os.rename(site_dir, old)
    os.rename(staging, site_dir)
    if old.exists():
        shutil.rmtree(old)


def recover(site_dir: Path) -> None:
    """Undo an interrupted swap: the old site is back when the new one never arrived."""
    old = site_dir.with_name(f".{site_dir.name}.old")
    if old.exists() and not site_dir.exists():
        os.rename(old, site_dir)


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
    `serve`); `after_render` is called with the rendered site before mkdocs runs."""
    progress = Progress(out)
    root = root.resolve()
    site_dir = site_dir.resolve()
    work = (work or root / "build").resolve()
    recover(site_dir)
    check_replaceable(site_dir)
    check_plugin_installed()

    progress.say("[1/5] loading rules/, translations/ and content/ …")
    step = time.monotonic()
    prepared = prepare(root, languages, concurrent_checks=True)
    kb = prepared.kb
    langs = tuple(languages or kb.language_codes)
    progress.say(f"      {len(kb.rules)} rules, {len(kb.cards)} cards, {len(kb.rulings)} rulings; "
                 f"languages: {', '.join(langs)} ({time.monotonic() - step:.1f} s)")
    if after_render is not None:
        after_render(prepared)

    progress.say("[2/5] writing pages into the build folder …")
    step = time.monotonic()
    with ThreadPoolExecutor(max_workers=len(langs)) as writers:   # mostly disk time: the languages side by side
        changed = sum(writers.map(lambda lang: write_language(root, work, prepared, lang), langs))
    counts = ", ".join(f"{lang} {len(prepared.site.docs[lang])}" for lang in langs)
    progress.say(f"      pages: {counts}; {changed} file(s) changed ({time.monotonic() - step:.1f} s)")

    jobs = jobs or default_jobs(len(langs))
    staging = site_dir.with_name(f".{site_dir.name}.new")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        with ThreadPoolExecutor(max_workers=1) as writer:   # the site root files, while mkdocs runs
            root_files = writer.submit(write_root_files, staging, prepared)
            progress.say(f"[3/5] building the language sites with mkdocs ({min(jobs, len(langs))} at a time) …")
            built = build_languages(root, work, prepared, langs, jobs, progress)
            root_files.result()

        progress.say("[4/5] assembling the site, the JSON API and the archive …")
        assemble(work, staging, langs)
        files = [p for p in staging.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        progress.say(f"[5/5] replacing {site_dir} …")
        swap_in(staging, site_dir)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    seconds = progress.elapsed()
    progress.say(f"done in {seconds:.1f} s: {len(files)} files, {size / 1e6:.1f} MB")
    index = site_dir / "index.html"
    progress.say(f"open {_shown_path(index)} in a browser ({index.as_uri()})")
    return BuildResult(site_dir, built, len(files), size, seconds)


def _shown_path(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- commands (registered in cli.COMMANDS)


def arguments(p) -> None:
    p.add_argument("--site-dir", default="site", help="where to put the site (default: site/ in the project folder)")
    p.add_argument("--jobs", type=int, default=None, help="languages built at the same time (default: all, up to two per CPU)")


def run(args) -> int:
    root = Path(args.root).resolve()
    site_dir = Path(args.site_dir)
    if not site_dir.is_absolute():
        site_dir = root / site_dir
    try:
        build_site(root, site_dir, jobs=args.jobs)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(f"the build failed; {site_dir} was not changed.", file=sys.stderr)
        return 1
    return 0


def serve_arguments(p) -> None:
    p.add_argument("--lang", required=True, help="the language to serve, e.g. de")
    p.add_argument("--dev-addr", default="127.0.0.1:8000", help="address and port (default: 127.0.0.1:8000)")


def serve(args) -> int:
    """Serve one language with mkdocs' dev server; an edited YAML, catalog or page rebuilds it."""
    root = Path(args.root).resolve()
    work = root / "build" / "serve"
    try:
        check_plugin_installed()
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    prepared = prepare(root, [args.lang])
    write_language(root, work, prepared, args.lang, regenerate=True)
    print(f"serving {args.lang} on http://{args.dev_addr}/ — edit rules/, translations/ or content/ and the page reloads; "
          "Ctrl-C stops", flush=True)
    command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(work / args.lang / "mkdocs.yml"), "-a", args.dev_addr]
    # mkdocs replaces this process, so that stopping `rulekb serve` stops the server (no orphan)
    os.chdir(work / args.lang)
    os.execve(sys.executable, command, mkdocs_env(prepared.epoch))
