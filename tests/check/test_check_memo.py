"""The per-text results kept between runs (check/memo.py): a run after an edit computes the terms,
references and language verdicts of the changed texts only, and its findings are those of a run
without the memo."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb import langid
from rulekb.check import run_checks
from rulekb.check.memo import FOLDER, TextMemo
from rulekb.knowledge import load_knowledge_base, read_files
from rulekb.termbase import Termbase

from conftest import data_copy


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    return data_copy(tmp_path / "project")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The texts the termbase searches, the sentences the language model judges and the kinds of
    the per-text results a run computed."""
    calls: dict[str, list[str]] = {"terms": [], "classify": [], "computed": []}
    find_terms, classify, put = Termbase.find_terms, langid.classify, TextMemo.put

    def counting_find_terms(self, text, lang):  # type: ignore[no-untyped-def]
        calls["terms"].append(text)
        return find_terms(self, text, lang)

    def counting_classify(languages, texts):  # type: ignore[no-untyped-def]
        calls["classify"].extend(texts)
        return classify(languages, texts)
    def counting_put(self, key, value):  # type: ignore[no-untyped-def]
        calls["computed"].append(self.kind)
        return put(self, key, value)
    monkeypatch.setattr(Termbase, "find_terms", counting_find_terms)
    monkeypatch.setattr(TextMemo, "put", counting_put)
    monkeypatch.setattr(langid, "classify", counting_classify)
    return calls


def _run(root: Path):
    return run_checks(load_knowledge_base(root), root, processes=1)


GERMAN = ("Zurückverfolgen ist eine Fähigkeit, die es dir ermöglicht, Karten mit Spontanzaubern und Hexereien "
          "aus deinem Friedhof zu spielen.")


def test_a_second_run_computes_nothing_again_and_finds_the_same(project, counted):
    first = _run(project)
    assert counted["terms"] and counted["classify"]
    assert list((project.parent / "cache" / FOLDER).rglob("*.pickle"))
    assert set(counted["computed"]) == {"terms", "refs", "language"}
    entries = {path: path.stat().st_mtime_ns for path in (project.parent / "cache" / FOLDER).rglob("*.pickle")}
    for calls in counted.values():
        calls.clear()
    again = _run(project)
    # every text's terms, references and verdicts kept: none computed, the model not asked,
    # nothing written
    assert counted["computed"] == [] and counted["classify"] == []
    assert {path: path.stat().st_mtime_ns for path in entries} == entries
    assert again == first


def test_an_edited_text_alone_is_computed_again(project, counted, monkeypatch):
    _run(project)
    retrace = project / "rules" / "comprehensive" / "retrace.yaml"
    edited = GERMAN.replace("Friedhof", "Friedhof heraus. Play this card from your graveyard, and then exile it")
    retrace.write_text(retrace.read_text(encoding="utf-8").replace(GERMAN, edited, 1), encoding="utf-8")
    for calls in counted.values():
        calls.clear()
    after = _run(project)
    # the edited text's terms and verdicts (it has no rule reference)
    assert sorted(counted["computed"]) == ["language", "terms"]
    assert edited in counted["terms"]
    # the model judges the sentences of the edited text alone
    assert counted["classify"] and all(word in edited for sentence in counted["classify"] for word in sentence.split())
    # the same findings as a run that keeps nothing
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    assert _run(project) == after


def _run_by_file(root: Path, profile: str = "full"):
    files = read_files(root)
    return run_checks(load_knowledge_base(root, files=files), root, profile=profile, processes=1, files=files)


def test_a_narrow_run_keeps_the_texts_it_did_not_ask_for(project, counted):
    _run_by_file(project)
    _run_by_file(project, "typography")   # its by-file findings kept per file
    counted["computed"].clear()
    retrace = project / "rules" / "comprehensive" / "retrace.yaml"
    edited = GERMAN.replace("Friedhof", "Friedhof (siehe Regel 702.81)")
    retrace.write_text(retrace.read_text(encoding="utf-8").replace(GERMAN, edited, 1), encoding="utf-8")
    # the typography checks run on the changed file alone: the references of its edited text
    # are the one result computed
    _run_by_file(project, "typography")
    assert counted["computed"] == ["refs"]
    counted["computed"].clear()
    _run_by_file(project)
    # the full run computes the edited text's terms and verdicts, which the narrow run did not
    # ask for, and nothing of the texts that run left aside
    assert sorted(counted["computed"]) == ["language", "terms"]


def test_no_cache_folder_keeps_nothing(project, monkeypatch, counted):
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    first = _run(project)
    searched = len(counted["terms"])
    second = _run(project)
    assert len(counted["terms"]) == 2 * searched and second == first
    assert not (project.parent / "cache").exists()


def test_another_termbase_is_another_memo(project, counted):
    _run(project)
    termbase = project / "translations" / "termbase.yaml"
    text = termbase.read_text(encoding="utf-8")
    termbase.write_text(text + "\n", encoding="utf-8")   # the same concepts: the kept terms hold
    counted["computed"].clear()
    _run(project)
    assert counted["computed"] == []
    assert "status: preferred" in text
    termbase.write_text(text.replace("status: preferred", "status: admitted", 1), encoding="utf-8")
    _run(project)
    assert set(counted["computed"]) == {"terms"}   # every text searched again; references and verdicts kept


def test_two_projects_in_one_cache_keep_their_own_texts(project, counted, tmp_path):
    other = data_copy(tmp_path / "other")
    retrace = other / "rules" / "comprehensive" / "retrace.yaml"
    retrace.write_text(retrace.read_text(encoding="utf-8").replace(GERMAN, GERMAN + " Neu.", 1), encoding="utf-8")
    _run(project)
    _run(other)
    counted["computed"].clear()
    _run(project)   # the other project's run has not dropped this one's texts
    assert counted["computed"] == []
