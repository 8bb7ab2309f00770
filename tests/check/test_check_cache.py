"""The cache of check results (check/cache.py): a run on an unchanged project reuses the last
result; any change of the data, the profile or the languages runs the checks again."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.check import CheckResult
from rulekb.check.driver import run_checks
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


def _check(project: Path, *options: str) -> int:
    from rulekb.commands import main
    return main(["--root", str(project), "check", *options])


def test_a_repeated_check_prints_the_same_report_without_loading_the_knowledge_base(project, monkeypatch, capsys):
    _check(project, "--format", "json")
    first = capsys.readouterr().out

    def no_load(*args, **kwargs):
        raise AssertionError("the knowledge base was loaded although the report is cached")
    monkeypatch.setattr("rulekb.knowledge.load_knowledge_base", no_load)
    code = _check(project, "--format", "json")
    assert capsys.readouterr().out == first
    assert code == 1  # the seed data has error findings: the cached run keeps its exit code
    with pytest.raises(AssertionError, match="was loaded"):
        _check(project, "--format", "text")   # another format: rendered from the knowledge base


def test_a_changed_catalog_renders_the_report_again(project, monkeypatch, capsys):
    _check(project, "--format", "html")
    capsys.readouterr()
    catalog = project / "translations" / "ui" / "de.po"
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    loads: list[int] = []
    real = load_knowledge_base

    def counted(*args, **kwargs):
        loads.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr("rulekb.knowledge.load_knowledge_base", counted)
    _check(project, "--format", "html")
    assert loads == [1]   # the result is cached (same data), the report is made again


def test_the_key_is_made_of_the_digests_the_loader_read(project):
    from rulekb.knowledge import read_files
    files = read_files(project)
    assert set(files.digests) == set(files.data) and "rules/comprehensive/retrace.yaml" in files.digests
    assert inputs_key(files, "full", None) == inputs_key(project, "full", None)
    retrace = project / "rules" / "comprehensive" / "retrace.yaml"
    retrace.write_bytes(retrace.read_bytes() + b"\n")
    assert inputs_key(read_files(project), "full", None) != inputs_key(files, "full", None)
