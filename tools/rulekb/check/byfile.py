"""The findings of the by-file checks, kept per data file between runs (stage: check, load -> validate
-> link -> check -> render -> report).

Most of a run's work is checks that look at one text at a time (typography, the terms of a text, its
language): what such a check finds in a text depends on the unit that holds it and its rule or
ruling, which one data file holds, and on the project's files that hold no rule or ruling (the
termbase, the phraseology, the languages, sources and releases, the cards). A check registered with
``by_file=True`` promises that much (`Check.by_file`); `ByFile` keeps its findings per data file,
keyed by that file's path and SHA-256 (`knowledge.read_files` took them), the SHA-256 of every file
that holds no rule or ruling, the by-file checks that run and the code's key (`cache.code_key`);
not the other selected checks, which no by-file check reads (`Context.selected`), so two profiles
with the same by-file checks share the entries. A run after an edit of one file runs these checks on the rules and
rulings of the changed files alone (`Context.part`) and takes the rest as kept; the checks that
compare texts across files (duplicates, inconsistent terms, references, coverage) run on everything,
as before. The findings are those of a run that keeps nothing (tests/check/test_check_byfile.py
compares them on every by-file check).

The entries live under ``<cache dir>/check-files/<code key>/``, one per data file state (a
mapping from check code to the findings of that file's units, in the order the check gave them);
with caches off (``RULEKB_CACHE_DIR=``) or without the files' digests nothing is kept. Delete the
folder to clear it.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .. import cache as cache_module
from ..knowledge import ProjectFiles
from ..models import Finding, KnowledgeBase, Rule
from .base import Context

FOLDER = "check-files"
def unit_files(kb: KnowledgeBase) -> dict[str, str]:
    """Unit id -> the data file that holds its rule or ruling (`KnowledgeBase.owners`)."""
    return {unit: owner.file if isinstance(owner, Rule) else owner.unit.pos.file for unit, owner in kb.owners.items()}


class ByFile:
    """The kept findings of the by-file checks `codes` for the data files of one run."""

    def __init__(self, files: ProjectFiles | None, kb: KnowledgeBase, codes: Sequence[str]):
        self.codes = tuple(codes)
        self.owner_file = unit_files(kb)
        holding = sorted(set(self.owner_file.values()))
        folder = cache_module.cache_dir()
        usable = (folder is not None and files is not None and not files.problems and bool(self.codes)
                  and all(rel in files.digests for rel in holding))
        self.store: cache_module.FileCache | None = None
        self.keys: dict[str, str] = {}
        self.kept: dict[str, Mapping[str, list[Finding]]] = {}
        if usable:
            assert files is not None and folder is not None
            held = set(holding)
            others = [part for rel, digest in sorted(files.digests.items()) if rel not in held for part in (rel, digest)]
            shared = cache_module.FileCache.key(*others, "codes", *self.codes)
            self.store = cache_module.store(FOLDER)
            for rel in holding:
                self.keys[rel] = cache_module.FileCache.key(shared, rel, files.digests[rel])
                found = self.store.get(self.keys[rel])
                if isinstance(found, dict) and all(code in found for code in self.codes):
                    self.kept[rel] = found
        self.files = holding
        self.changed = frozenset(rel for rel in holding if rel not in self.kept)

    @property
    def share(self) -> float:
        """The part of the data files the by-file checks run on (1.0: all, nothing kept)."""
        return len(self.changed) / len(self.files) if self.kept and self.files else 1.0

    def part(self, ctx: Context) -> Context:
        """The context the by-file checks run on: over the changed files, or `ctx` when none is kept."""
        return ctx.part(self.changed) if self.kept else ctx

    def findings(self, code: str, fresh: Sequence[Finding]) -> list[Finding]:
        """The findings of check `code`: the kept ones of the unchanged files and `fresh`, those of
        the changed files, file by file in path order (each file's in the check's order)."""
        if not self.kept:
            return list(fresh)
        by_file: dict[str, list[Finding]] = {}
        for f in fresh:
            by_file.setdefault(self.owner_file.get(f.entry, ""), []).append(f)
        out: list[Finding] = []
        for rel in self.files:   # every finding is on a unit of one of them: a by-file check reports on units
            out += self.kept[rel][code] if rel in self.kept else by_file.get(rel, [])
        return out

    def keep(self, fresh: Mapping[str, Sequence[Finding]]) -> None:
        """Keep the findings of the changed files (`fresh`: check code -> its findings on them)."""
        if self.store is None:
            return
        by_file: dict[str, dict[str, list[Finding]]] = {rel: {code: [] for code in self.codes} for rel in self.changed}
        for code in self.codes:
            for f in fresh[code]:
                rel = self.owner_file.get(f.entry)
                if rel in by_file:
                    by_file[rel][code].append(f)
        for rel, found in by_file.items():
            self.store.put(self.keys[rel], found)
