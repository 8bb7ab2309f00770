"""The per-user caches (`rulekb.cache`) and the knowledge cache of `knowledge.load_knowledge_base`:
a second load reads no unchanged file again and gives the same knowledge base, or the same
problems at the same file:line:column; a changed file, another context or another code version
is read again; a corrupt entry is ignored and rewritten; a cache that cannot be written costs
nothing but time."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from rulekb import cache, knowledge
from rulekb.diagnostics import DataError
from rulekb.knowledge import load_knowledge_base


@pytest.fixture
def cache_home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The files parsed and checked (not taken from the cache), in order."""
    done: list[str] = []
    real = knowledge._read

    def counted(rel, data, ctx):
        done.append(rel)
        return real(rel, data, ctx)
    monkeypatch.setattr(knowledge, "_read", counted)
    return done


def _entries(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "knowledge").glob("*/*.pickle"))


@pytest.mark.parametrize("env, expected", [
    ({"RULEKB_CACHE_DIR": ""}, None),
    ({"RULEKB_CACHE_DIR": "/x/y"}, "/x/y"),
    ({"XDG_CACHE_HOME": "/c"}, "/c/rulekb"),
    ({"HOME": "/h"}, "/h/.cache/rulekb"),
])
def test_cache_dir(monkeypatch, env, expected):
    for name in ("RULEKB_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found = cache.cache_dir()
    assert (None if found is None else found.as_posix()) == expected


def test_a_second_load_reads_no_file_again(seed, cache_home, reads):
    first = load_knowledge_base(seed)
    cold = list(reads)
    assert cold and len(_entries(cache_home)) == len(cold)
    reads.clear()
    second = load_knowledge_base(seed)
    assert reads == [] and second == first
    assert load_knowledge_base(seed, cache=False) == first and reads == cold  # and without the cache: the same


def test_a_changed_file_alone_is_read_again(cache_home, reads, valid_tree):
    load_knowledge_base(valid_tree)
    reads.clear()
    rule = valid_tree / "rules/comprehensive/sample.yaml"
    rule.write_text(rule.read_text("utf-8").replace("A note.", "A changed note."), "utf-8")
    kb = load_knowledge_base(valid_tree)
    assert reads == ["rules/comprehensive/sample.yaml"]
    assert kb.rule("sample").notes[0].text("en").text == "A changed note."


def test_problems_from_the_cache_keep_their_positions(cache_home, reads, valid_tree):
    rule = valid_tree / "rules/comprehensive/sample.yaml"
    rule.write_text(rule.read_text("utf-8").replace("status: community", "status: comunity"), "utf-8")
    line = next(i + 1 for i, text in enumerate(rule.read_text("utf-8").splitlines()) if "comunity" in text)
    found = []
    for _ in range(2):
        with pytest.raises(DataError) as err:
            load_knowledge_base(valid_tree)
        found.append([str(p) for p in err.value.problems])
    assert reads.count("rules/comprehensive/sample.yaml") == 1  # the second time: from the cache
    assert found[0] == found[1]
    assert any(p.startswith(f"rules/comprehensive/sample.yaml:{line}:") and "comunity" in p for p in found[1])


def test_another_language_list_reads_every_file_again(cache_home, reads, valid_tree):
    load_knowledge_base(valid_tree)
    reads.clear()
    languages = valid_tree / "translations/languages.yaml"
    text = languages.read_text("utf-8")
    languages.write_text(text + "  - code: it\n    name: Italiano\n    english_name: Italian\n    locale: it_IT\n", "utf-8")
    load_knowledge_base(valid_tree)
    assert "rules/comprehensive/sample.yaml" in reads


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_a_corrupt_entry_is_ignored_and_rewritten(cache_home, reads, valid_tree, damage):
    expected = load_knowledge_base(valid_tree)
    for entry in _entries(cache_home):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] if damage is None else damage)
    reads.clear()
    assert load_knowledge_base(valid_tree) == expected
    assert reads  # read again …
    reads.clear()
    assert load_knowledge_base(valid_tree) == expected and reads == []  # … and written anew


def test_an_entry_of_another_key_is_not_taken(cache_home, reads, valid_tree):
    expected = load_knowledge_base(valid_tree)
    entries = _entries(cache_home)
    biggest = max(entries, key=lambda p: p.stat().st_size)
    for entry in entries:
        if entry != biggest:
            shutil.copyfile(biggest, entry)  # another file's entry under this file's name
    reads.clear()
    assert load_knowledge_base(valid_tree) == expected
    assert len(reads) == len(entries) - 1  # every copied entry was refused


def test_the_code_key_changes_with_any_file_of_the_package_and_with_the_libraries(tmp_path):
    package = tmp_path / "rulekb"
    (package / "templates").mkdir(parents=True)
    (package / "validate.py").write_text("A = 1\n")
    (package / "templates" / "rule.md.j2").write_text("{{ rule }}\n")
    before = cache.package_digest(package, ["3.11", "PyYAML==6.0"])
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "validate.cpython-311.pyc").write_bytes(b"compiled")
    assert cache.package_digest(package, ["3.11", "PyYAML==6.0"]) == before    # compiled files aside
    assert cache.package_digest(package, ["3.11", "PyYAML==6.1"]) != before    # a library upgraded
    (package / "templates" / "rule.md.j2").write_text("{{ rule.title }}\n")
    assert cache.package_digest(package, ["3.11", "PyYAML==6.0"]) != before    # a template changed


def test_every_cache_is_opened_from_the_table(cache_home):
    for entry in cache.CACHES:
        store = cache.store(entry.name)
        assert store is not None and store.folder == cache_home / entry.name / cache.code_key()
    with pytest.raises(ValueError, match="not a cache of rulekb.cache.CACHES"):
        cache.store("unlisted")


def test_old_code_versions_are_removed_when_entries_are_written(cache_home, valid_tree):
    old, recent = cache_home / "knowledge" / "0ld", cache_home / "knowledge" / "recent"
    for folder in (old, recent):
        folder.mkdir(parents=True)
        (folder / "x.pickle").write_bytes(b"x")
    long_ago = time.time() - (cache.STALE_DAYS + 1) * 86400
    os.utime(old, (long_ago, long_ago))
    load_knowledge_base(valid_tree)
    assert not old.exists() and recent.exists()


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch, reads, valid_tree):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(blocked))
    expected = load_knowledge_base(valid_tree, cache=False)
    assert load_knowledge_base(valid_tree) == expected
    assert blocked.read_text() == "not a folder" and not list(tmp_path.glob("**/*.rulekb-tmp"))


def test_no_cache_when_turned_off(monkeypatch, reads, valid_tree, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_knowledge_base(valid_tree)
    first = len(reads)
    load_knowledge_base(valid_tree)
    assert len(reads) == 2 * first and not (tmp_path / "xdg").exists()
