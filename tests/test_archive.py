"""Tests for rulekb.archive: the offline archive joined from parts equals the archive of the
whole folder, entry for entry and byte for byte."""

from __future__ import annotations

import subprocess
import shutil
import zipfile
from pathlib import Path

import pytest

from rulekb import archive


def make_tree(base: Path) -> Path:
    files = {
        "index.html": "<html>root</html>\n",
        "api/index.json": '{"languages": []}\n',
        "de/index.html": "<html lang=\"de\">Rückverfolgung</html>\n" * 50,
        "de/rules/retrace.html": "Friedhof " * 400,
        "en/rules/retrace.html": "graveyard " * 400,
        "en/assets/empty.txt": "",
        "fr/règles/rétro.html": "cimetière « » " * 30,
    }
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (base / "en" / "assets" / "blob.bin").write_bytes(bytes(range(256)) * 64)
    return base


def parts_of(tree: Path, work: Path) -> list[Path]:
    """The archive in parts as the build makes them: one per language folder, one for the rest."""
    work.mkdir()
    parts = []
    for lang in ("de", "en", "fr"):
        part = work / f"{lang}.zip"
        archive.zip_folder(tree / lang, part, f"top/{lang}/")
        parts.append(part)
    root = work / "root.zip"
    archive.zip_files(root, [(f"top/{p.relative_to(tree).as_posix()}", p) for p in tree.rglob("*")
                             if p.is_file() and p.relative_to(tree).parts[0] not in ("de", "en", "fr")])
    return [root] + parts


def test_joined_parts_are_the_archive_of_the_whole_folder(tmp_path):
    tree = make_tree(tmp_path / "tree")
    whole = tmp_path / "whole.zip"
    archive.zip_folder(tree, whole, "top/")
    joined = tmp_path / "joined.zip"
    archive.merge(joined, parts_of(tree, tmp_path / "parts"))
    assert joined.read_bytes() == whole.read_bytes()
    with zipfile.ZipFile(joined) as z:
        assert z.testzip() is None
        assert z.namelist() == sorted(z.namelist())
        assert z.read("top/fr/règles/rétro.html") == (tree / "fr" / "règles" / "rétro.html").read_bytes()
        assert z.read("top/en/assets/blob.bin") == (tree / "en" / "assets" / "blob.bin").read_bytes()


@pytest.mark.skipif(shutil.which("unzip") is None, reason="no unzip program on this machine")
def test_unzip_accepts_the_joined_archive(tmp_path):
    tree = make_tree(tmp_path / "tree")
    joined = tmp_path / "joined.zip"
    archive.merge(joined, parts_of(tree, tmp_path / "parts"))
    proc = subprocess.run(["unzip", "-t", str(joined)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_an_entry_in_two_parts_is_refused(tmp_path):
    tree = make_tree(tmp_path / "tree")
    one, two = tmp_path / "one.zip", tmp_path / "two.zip"
    archive.zip_folder(tree / "de", one, "top/de/")
    archive.zip_folder(tree / "de", two, "top/de/")
    with pytest.raises(archive.ArchiveError, match="'top/de/index.html' is in two parts"):
        archive.merge(tmp_path / "joined.zip", [one, two])


def test_archives_too_large_for_plain_zip_are_joined_by_zipfile(tmp_path, monkeypatch):
    tree = make_tree(tmp_path / "tree")
    parts = parts_of(tree, tmp_path / "parts")
    monkeypatch.setattr(archive, "_MAX_ENTRIES", 3)   # as if there were more than 65,535 entries
    joined = tmp_path / "joined.zip"
    archive.merge(joined, parts)
    whole = tmp_path / "whole.zip"
    archive.zip_folder(tree, whole, "top/")
    with zipfile.ZipFile(joined) as a, zipfile.ZipFile(whole) as b:
        assert a.namelist() == b.namelist()
        assert all(a.read(name) == b.read(name) for name in a.namelist())


def zipfile_archive(target: Path, tree: Path, prefix: str) -> None:
    """The archive as zipfile writes it for the same entries: the reference of the writer."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=archive.LEVEL) as z:
        for path in sorted((p for p in tree.rglob("*") if p.is_file()), key=lambda p: prefix + p.relative_to(tree).as_posix()):
            info = zipfile.ZipInfo(prefix + path.relative_to(tree).as_posix(), date_time=archive.DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, path.read_bytes(), compresslevel=archive.LEVEL)


@pytest.mark.parametrize("prefix", ["top/", "rulekb-site/fr/", "règles/"])
def test_the_writer_writes_the_bytes_zipfile_writes(tmp_path, prefix):
    tree = make_tree(tmp_path / "tree")
    ours, reference = tmp_path / "ours.zip", tmp_path / "reference.zip"
    archive.zip_folder(tree, ours, prefix)
    zipfile_archive(reference, tree, prefix)
    assert ours.read_bytes() == reference.read_bytes()


def test_more_entries_than_a_plain_zip_holds_are_written_by_zipfile(tmp_path, monkeypatch):
    tree = make_tree(tmp_path / "tree")
    monkeypatch.setattr(archive, "_MAX_ENTRIES", 3)
    target = tmp_path / "many.zip"
    archive.zip_folder(tree, target, "top/")
    with zipfile.ZipFile(target) as z:
        assert z.testzip() is None
        assert z.namelist() == sorted(f"top/{p.relative_to(tree).as_posix()}" for p in tree.rglob("*") if p.is_file())
        assert z.read("top/fr/règles/rétro.html") == (tree / "fr" / "règles" / "rétro.html").read_bytes()


@pytest.mark.parametrize(("sizes", "fits"), [
    ([("a", 10)], True),
    ([("a", 0xFFFFFFFF)], False),                 # one entry of 4 GB
    ([("a", 2**31), ("b", 2**31)], False),        # together over 4 GB
    ([("a", 2**31), ("b", 2**30)], True),
])
def test_which_archives_need_zip64(sizes, fits):
    assert archive._fits_plain_zip(sizes) is fits
