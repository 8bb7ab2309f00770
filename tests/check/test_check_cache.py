"""The cache of check results (check/cache.py): a run on an unchanged project reuses the last
result; any change of the data, the profile or the languages runs the checks again."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.check import CheckResult, run_checks
from rulekb.check.cache import cached_result, inputs_key
from rulekb.knowledge import load_knowledge_base

from conftest import data_copy


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    return data_copy(tmp_path / "project")


def _counted(root: Path, profile: str = "full", langs: tuple[str, ...] | None = None):
    calls: list[int] = []

    def compute() -> CheckResult:
        calls.append(1)
        return run_checks(load_knowledge_base(root), root, profile=profile, langs=langs)
    return calls, compute


def test_an_unchanged_project_reuses_the_result(project):
    calls, compute = _counted(project)
    first = cached_result(project, "full", None, compute)
    again = cached_result(project, "full", None, compute)
    assert len(calls) == 1
    assert again == first and again.findings  # the seed data has findings: the same ones come back


def test_a_changed_file_runs_the_checks_again(project):
    calls, compute = _counted(project)
    before = cached_result(project, "full", None, compute)
    retrace = project / "rules" / "comprehensive" / "retrace.yaml"
    retrace.write_text(retrace.read_text(encoding="utf-8").replace("La pistage", "Le pistage", 1), encoding="utf-8")
    after = cached_result(project, "full", None, compute)
    assert len(calls) == 2
    assert after != before


@pytest.mark.parametrize("profile, langs", [("ci", None), ("full", ("de",))])
def test_another_profile_or_language_is_another_run(project, profile, langs):
    calls, compute = _counted(project)
    cached_result(project, "full", None, compute)
    cached_result(project, profile, langs, compute)
    assert len(calls) == 2
    assert inputs_key(project, "full", None) != inputs_key(project, profile, langs)


def test_no_cache_folder_means_no_cache(project, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    calls, compute = _counted(project)
    cached_result(project, "full", None, compute)
    cached_result(project, "full", None, compute)
    assert len(calls) == 2


def test_a_corrupt_entry_is_a_miss(project):
    calls, compute = _counted(project)
    cached_result(project, "full", None, compute)
    for entry in (project.parent / "cache" / "checks").rglob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    cached_result(project, "full", None, compute)
    assert len(calls) == 2
