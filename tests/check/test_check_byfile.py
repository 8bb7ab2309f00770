"""The findings of the by-file checks kept per data file (check/byfile.py): a check registered
`by_file` finds in each file's rules and rulings alone what it finds in the whole knowledge base,
and a run after an edit checks the changed file again and finds what a run that keeps nothing finds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekb.check import Context, all_checks, run_checks, stamp
from rulekb.check.byfile import FOLDER, unit_files
from rulekb.knowledge import load_knowledge_base, read_files
from rulekb.phraseology import load_phraseology
from rulekb.termbase import load_termbase

from conftest import data_copy

BY_FILE = [c for c in all_checks() if c.by_file]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    return data_copy(tmp_path / "project")


def _run(root: Path, monkeypatch: pytest.MonkeyPatch | None = None, keep: bool = True):
    if not keep and monkeypatch is not None:
        monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    files = read_files(root)
    return run_checks(load_knowledge_base(root, files=files), root, processes=1, files=files)


def _entries(project: Path) -> set[Path]:
    return set((project.parent / "cache" / FOLDER).rglob("*.pickle"))


def test_there_are_by_file_checks_and_the_costly_ones_are_among_them():
    codes = {c.code for c in BY_FILE}
    assert {"terminology.case", "typography.quotes", "language.wrong-language"} <= codes
    # the checks that compare texts across files are not
    assert not codes & {"terminology.inconsistent", "duplicates.near-duplicate", "references.unknown-subrule",
                        "coverage.partial"}


@pytest.mark.parametrize("check", BY_FILE, ids=lambda c: c.code)
def test_a_by_file_check_finds_in_each_file_what_it_finds_in_the_whole(seed, check):
    kb = load_knowledge_base(seed)
    ctx = Context(kb, load_termbase(seed, kb), load_phraseology(seed), seed)
    ctx.selected = frozenset(c.code for c in all_checks())
    whole = [stamp(ctx, check, issue) for issue in check.run(ctx)]
    apart = []
    for rel in sorted(set(unit_files(kb).values())):
        part = ctx.part(frozenset({rel}))
        apart += [stamp(part, check, issue) for issue in check.run(part)]
    assert Counter(apart) == Counter(whole)
    # each unit's findings in the same order (what merging the findings of one text reads)
    assert [f for f in apart if f.entry == "retrace.summary"] == [f for f in whole if f.entry == "retrace.summary"]


GERMAN = ("Zurückverfolgen ist eine Fähigkeit, die es dir ermöglicht, Karten mit Spontanzaubern und Hexereien "
          "aus deinem Friedhof zu spielen.")


def test_a_run_after_an_edit_checks_the_edited_file_and_finds_what_a_run_keeping_nothing_finds(project, monkeypatch):
    first = _run(project)
    entries = _entries(project)
    assert entries and _run(project) == first and _entries(project) == entries   # nothing new to keep
    retrace = project / "rules" / "comprehensive" / "retrace.yaml"
    edited = GERMAN.replace("deinem Friedhof", "deinem  Friedhof „heraus“ ( siehe Regel 702.81 - 702.82 )")
    retrace.write_text(retrace.read_text(encoding="utf-8").replace(GERMAN, edited, 1), encoding="utf-8")
    after = _run(project)
    assert len(_entries(project) - entries) == 1   # the edited file's findings, kept anew
    assert after != first
    found = {code for f in after.findings if f.entry == "retrace.summary" and f.lang == "de" for code in (f.code, *f.also)}
    assert "typography.double-space" in found and "typography.double-space" not in {
        code for f in first.findings if f.entry == "retrace.summary" for code in (f.code, *f.also)}
    assert after == _run(project, monkeypatch, keep=False)


def test_a_changed_file_that_holds_no_rule_checks_every_file_again(project, monkeypatch):
    _run(project)
    entries = _entries(project)
    termbase = project / "translations" / "termbase.yaml"
    text = termbase.read_text(encoding="utf-8")
    assert "status: preferred" in text
    termbase.write_text(text.replace("status: preferred", "status: admitted", 1), encoding="utf-8")
    after = _run(project)
    assert len(_entries(project) - entries) == len(entries)
    assert after == _run(project, monkeypatch, keep=False)


def test_another_profile_or_language_reads_the_same_files_rightly(project, monkeypatch):
    _run(project)
    files = read_files(project)
    kb = load_knowledge_base(project, files=files)
    for profile, langs in (("ci", None), ("full", ("de",)), ("typography", ("fr",))):
        kept = run_checks(kb, project, profile=profile, langs=langs, processes=1, files=files)
        monkeypatch.setenv("RULEKB_CACHE_DIR", "")
        assert kept == run_checks(kb, project, profile=profile, langs=langs, processes=1)
        monkeypatch.setenv("RULEKB_CACHE_DIR", str(project.parent / "cache"))
