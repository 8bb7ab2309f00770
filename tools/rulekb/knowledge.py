"""A project's knowledge base, read from disk: the stages load -> validate -> link, one after the
other (then come check -> render -> report). Every command that reads a project starts here.

`load_knowledge_base(root)`:
1. lists the YAML files of the project (`layout.data_files`) and reads each once (`read_files`:
   its bytes and their SHA-256, the digests that key the knowledge cache and, whole, the cache of
   check results);
2. reads the languages and sources (`schema.read_project`), what every data file is checked against;
3. parses each file (`load.parse_bytes`) and schema-checks it into its models (`validate.check_file`);
4. when a file does not parse, raises the parse problems of all files (nothing else is checked:
   one broken file would otherwise show as many unknown ids); else checks across files and
   builds the `KnowledgeBase` (`validate.assemble`), or raises all problems at once.

`load_linked(root)` adds stage 3, the references between units (`link.link`).

Step 3 is what takes the time (~2 s of processor time for the complete rules, 10 MB of YAML; most of
the 16 s of a true-cold validate with all cards and rulings, 38 MB), and its result for a file depends only on the file's path and
digest, the project's languages and sources (and, for the files with lists of releases, the
releases: `validate.reads_releases`), and the code: the knowledge cache (`cache.FileCache`, under the per-user
`cache.cache_dir()`) keeps it under that key, so that `validate`, `check`, `show` and `build` read
again only the files that changed. When the files to read are many (`PARALLEL_BYTES`), step 3 runs
in two processes (a worker of `rulekb.pool` beside this one), the files split by their expected cost
(`split_by_cost`): the worker keeps its files in the cache and sends their models back; the
outcome is the same as in one process. The cross-file checks of step 4 run every time. ``RULEKB_CACHE_DIR=`` (empty) or
`load_knowledge_base(root, cache=False)` reads without it. While the models are made, Python's
cyclic garbage collector is paused (`collection_paused`, which says why).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Iterator, Mapping, Sequence

from . import cache as cache_module
from . import pool
from .diagnostics import DataError, Problem
from .layout import GLOSSARY_DIR, LANGUAGES_FILE, RULINGS_DIR, SOURCES_FILE, data_files, release_dates
from .link import LinkedKB, link
from .load import SourceFile, parse_bytes
from .models import KnowledgeBase, dumps
from .schema import Context, read_project
from .validate import FileContents, assemble, check_file, reads_releases


def load_knowledge_base(root: Path, *, cache: bool = True, files: "ProjectFiles | None" = None,
                        processes: int = 2) -> KnowledgeBase:
    """load + validate: the project under `root` into a KnowledgeBase (or a DataError); with
    `cache`, through the knowledge cache (when there is a cache folder). `files`: the project's
    files as `read_files` read them already (so that they are read once). The files the cache
    does not hold are parsed in `processes` processes when they are many (`PARALLEL_BYTES`; 1:
    in this one)."""
    with collection_paused():
        return _load(files if files is not None else read_files(root), cache, processes)


@dataclass(frozen=True)
class ProjectFiles:
    """The data files of a project (`layout.data_files`) as read once: each file's bytes and
    the SHA-256 of them (hex) by its path relative to the root, in the layout's order, and the
    problems of listing and reading them. The loader keys the knowledge cache by the digests,
    and hands them to what is keyed by the whole project (the cache of check results)."""

    root: Path
    data: Mapping[str, bytes]
    digests: Mapping[str, str]
    problems: tuple[Problem, ...]


def read_files(root: Path) -> ProjectFiles:
    """Read every data file of the project under `root` once."""
    root = Path(root)
    paths, problems = data_files(root)
    data: dict[str, bytes] = {}
    for path in paths:
        rel = path.relative_to(root).as_posix()
        found = _read_bytes(path, rel, problems)
        if found is not None:
            data[rel] = found
    digests = {rel: hashlib.sha256(found).hexdigest() for rel, found in data.items()}
    return ProjectFiles(root, MappingProxyType(data), MappingProxyType(digests), tuple(problems))


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a knowledge base is made, and as it was
    after. The models are trees without cycles (reference counting frees what is dropped), but
    the collector runs whenever allocations outnumber deallocations by 700, and each full
    collection walks every object made so far: loading all rules and cards makes ~1.5 million
    objects, and the collector took 70 % of the load (warm cache, 110 releases and all cards:
    5.3 s of processor time with it, 1.7 s without). A cycle made meanwhile is collected later."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _load(files: ProjectFiles, cache: bool, processes: int) -> KnowledgeBase:
    root = files.root
    problems = list(files.problems)
    context_files: dict[str, SourceFile | None] = {}
    for rel in (LANGUAGES_FILE, SOURCES_FILE):
        data = files.data.get(rel)
        parsed, found = parse_bytes(rel, data) if data is not None else (None, [])
        context_files[rel] = parsed
        problems += found
    languages, sources = context_files[LANGUAGES_FILE], context_files[SOURCES_FILE]
    releases = release_dates(files.data)
    project = read_project(languages, sources, root, releases) if languages and sources else None
    ctx: Context | None = project.context if project else None
    store = knowledge_cache() if cache and ctx is not None else None
    keys = (_context_key(ctx, False), _context_key(ctx, True)) if ctx is not None else ("", "")

    def context_key(rel: str) -> str:
        return keys[reads_releases(rel)]

    def from_cache(rel: str) -> tuple[list[Problem], FileContents | None] | None:
        """The file's entry in the knowledge cache, if it has one."""
        entry = store.get(store.key(context_key(rel), rel, files.digests[rel])) if store is not None else None
        return entry if isinstance(entry, tuple) and len(entry) == 2 else None
    read: dict[str, tuple[list[Problem], FileContents | None]] = {}
    todo: list[str] = []
    for rel in files.data:
        if rel in context_files:
            continue
        entry = from_cache(rel)
        if entry is not None:
            read[rel] = entry
        else:
            todo.append(rel)

    def read_here(rels: list[str]) -> None:
        """Parse and schema-check the files `rels` in this process, keeping each in the knowledge cache."""
        for rel in rels:
            found = _read(rel, files.data[rel], ctx)
            if store is not None:
                store.put(store.key(context_key(rel), rel, files.digests[rel]), found)
            read[rel] = found

    work = todo if sum(len(files.data[rel]) for rel in todo) >= PARALLEL_BYTES else []
    parts = split_by_cost(work, files.data, processes, first=OTHERS_READ) if work and processes > 1 else []
    if len(parts) > 1:  # parts 1… in workers of `rulekb.pool` (which keep their files in the cache), part 0 here
        jobs = [_Part(tuple((rel, files.data[rel], context_key(rel), files.digests[rel]) for rel in part), ctx, store is not None)
                for part in parts[1:]]
        with pool.executor(len(jobs)) as workers:
            futures = [workers.submit(_read_part, job) for job in jobs]
            mine = set(parts[0])
            todo = [rel for rel in todo if rel in mine]
            read_here(todo)
            for part, future in zip(parts[1:], futures):
                read.update((rel, pickle.loads(entry)[1]) for rel, entry in zip(part, future.result()))
    else:
        read_here(todo)
    contents: list[FileContents] = []
    for rel in files.data:  # in the layout's order, whichever process read the file
        if rel in read:
            found, checked = read[rel]
            problems += found
            if checked is not None:
                contents.append(checked)
    if problems:  # the parse (and read) problems alone
        raise DataError(problems)
    if project is None:  # a context file is missing: read_project says which
        project = read_project(languages, sources, root, releases)
    return assemble(project, contents)


# From this many bytes of files to parse (not in the knowledge cache) on, the load parses them in
# `processes` workers of `rulekb.pool`: a spawned worker starts a new interpreter and imports
# rulekb (~0.3 s of processor time) and sends its models back pickled, which pays only for the
# complete data (38 MB); the fixtures and the one-release bench dataset (~2.7 MB) stay in this process.
PARALLEL_BYTES = 5_000_000


# What this process spends besides its own part, as a share of a worker's part: unpickling the
# workers' models, then assembling the knowledge base and loading the other inputs, which the
# worker does not wait for. Measured on the complete data (cold validate, 2026-12-05): with 1/8
# (unpickling alone) the worker ended ~1.3 s of processor time before this process (2.7 s against
# 4.0 s); with 0.45 both end together (3.45 s against 3.5 s).
OTHERS_READ = 0.45


@dataclass(frozen=True)
class _Part:
    """One worker's share of a load: each file's path, bytes, context key and digest, what they
    are checked against, and whether the worker keeps them in the knowledge cache."""

    files: tuple[tuple[str, bytes, str, str], ...]
    ctx: Context | None
    keep: bool


def _read_part(part: _Part) -> list[bytes]:
    """`_read` of each file of `part` (in a worker), each pickled once by `models.dumps` (the
    models hold mapping proxies, which plain pickle refuses) as a knowledge cache entry (its key
    and value), kept in the cache when asked, and sent back as it is. The garbage collector is
    paused meanwhile, as in the parent (`collection_paused`: with it running, the worker's
    collections walked every model made so far and took more than its parsing; measured in
    the commit that added this)."""
    store = knowledge_cache() if part.keep else None
    out = []
    with collection_paused():
        for rel, data, context_key, digest in part.files:
            key = store.key(context_key, rel, digest) if store is not None else ""
            entry = dumps((key, _read(rel, data, part.ctx)))
            if store is not None:
                store.put_pickled(key, entry)
            out.append(entry)
    return out

# Processor time per byte to parse, check and keep a data file, by folder, relative to a rule's
# file (measured on the complete data, 2026-12-02): the rulings' short entries cost more per byte,
# the glossary's long texts less.
COST_PER_BYTE = {RULINGS_DIR: 1.35, GLOSSARY_DIR: 0.75}


def cost(rel: str, size: int) -> float:
    """The expected processor time of parsing, checking and keeping the file `rel` of `size` bytes."""
    return size * COST_PER_BYTE.get(rel.rpartition("/")[0], 1.0)


def split_by_cost(rels: Sequence[str], data: Mapping[str, bytes], parts: int, first: float = 0.0) -> list[list[str]]:
    """`rels` in `parts` lists of about equal cost (`cost`: bytes, weighted by folder; the costliest
    file first, each into the lightest list), each list in the order of `rels`; the first list is
    never empty while `rels` is not. `first`: the share of the others' cost the first list's process
    spends besides (reading their results), so that all end together."""
    costs = {rel: cost(rel, len(data[rel])) for rel in rels}
    sizes = [0.0] * max(1, parts)
    members: list[list[str]] = [[] for _ in sizes]
    order = {rel: i for i, rel in enumerate(rels)}
    for rel in sorted(rels, key=lambda rel: (-costs[rel], order[rel])):
        lightest = min(range(len(sizes)), key=lambda i: (sizes[i] + (first * sum(sizes[1:]) if i == 0 else 0), i))
        sizes[lightest] += costs[rel]
        members[lightest].append(rel)
    return [sorted(m, key=order.__getitem__) for m in members if m] or [[]]


def _context_key(ctx: Context, releases: bool) -> str:
    """What a data file is checked against, as a part of its knowledge cache key: the languages
    and sources, and for a file with release lists (`validate.reads_releases`) the releases, which
    its ranges stand for (a new release makes its entries new; those of the cards stay)."""
    return repr((ctx.languages, ctx.source_ids, ctx.releases.dates) if releases else (ctx.languages, ctx.source_ids))


def load_linked(root: Path) -> LinkedKB:
    """load + validate + link: the project under `root`, its references resolved."""
    return link(load_knowledge_base(root))


def knowledge_cache() -> cache_module.FileCache | None:
    """The knowledge cache of this code (`cache.store`), or None when caches are turned off."""
    return cache_module.store("knowledge")


def _read_bytes(path: Path, rel: str, problems: list[Problem]) -> bytes | None:
    """The file's bytes, or None and a problem when the OS refuses them (permissions, I/O)."""
    try:
        return path.read_bytes()
    except OSError as error:
        problems.append(Problem(rel, 1, 1, f"cannot read {rel}: {error.strerror or error}",
                                "make the file readable for you (or move it out of the project), then run the command again"))
        return None


def _read(rel: str, data: bytes, ctx: Context | None) -> tuple[list[Problem], FileContents | None]:
    """A file's parse problems and (given the context) its schema-checked contents."""
    parsed, problems = parse_bytes(rel, data)
    if parsed is None or ctx is None:
        return problems, None
    return problems, check_file(parsed, ctx)
