"""Tests for rulekb.archive: the offline archive holds every file of the folder under its prefix,
sorted, with fixed timestamps and permissions; the same files give the same bytes; unzip accepts it."""

from __future__ import annotations

import os
import shutil
import subprocess
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


def test_every_file_under_its_prefix_sorted_with_fixed_dates_and_modes(tmp_path):
    tree = make_tree(tmp_path / "tree")
    target = tmp_path / "site.zip"
    archive.zip_folder(tree, target, "top/")
    with zipfile.ZipFile(target) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert names == sorted(f"top/{p.relative_to(tree).as_posix()}" for p in tree.rglob("*") if p.is_file())
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) and i.external_attr == 0o644 << 16 and i.create_system == 3
                   and i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
        assert z.read("top/fr/règles/rétro.html") == (tree / "fr" / "règles" / "rétro.html").read_bytes()
        assert z.read("top/en/assets/blob.bin") == (tree / "en" / "assets" / "blob.bin").read_bytes()


def test_the_same_files_give_the_same_bytes_whatever_their_times_and_order(tmp_path):
    one, two = make_tree(tmp_path / "one"), make_tree(tmp_path / "two")
    for path in (two / "de").rglob("*"):
        os.utime(path, (1_700_000_000, 1_700_000_000))
    archive.zip_folder(one, tmp_path / "one.zip", "top/")
    archive.zip_folder(two, tmp_path / "two.zip", "top/")
    files = [(f"top/{p.relative_to(one).as_posix()}", p.read_bytes()) for p in one.rglob("*") if p.is_file()]
    archive.zip_files(tmp_path / "three.zip", list(reversed(files)))   # bytes in memory, another order
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes() == (tmp_path / "three.zip").read_bytes()


def test_an_archive_written_into_its_own_folder_leaves_itself_out(tmp_path):
    tree = make_tree(tmp_path / "tree")
    target = tree / "site.zip"
    archive.zip_folder(tree, target, "top/")
    with zipfile.ZipFile(target) as z:
        assert "top/site.zip" not in z.namelist() and "top/index.html" in z.namelist()


@pytest.mark.skipif(shutil.which("unzip") is None, reason="no unzip program on this machine")
def test_unzip_accepts_the_archive(tmp_path):
    tree = make_tree(tmp_path / "tree")
    target = tmp_path / "site.zip"
    archive.zip_folder(tree, target, "top/")
    proc = subprocess.run(["unzip", "-t", str(target)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_language_archive_has_no_link_into_the_json_api_it_leaves_out():
    """A language's archive holds no JSON API: a rule's "… · JSON" link goes with its " · ", the
    API page's examples keep their text; other links and pages as they are."""
    page = ('<p>8 von 8 Texten · <a href="../parallel/retrace.html">Parallelansicht</a> · '
            '<a href="../../api/de/rules/retrace.json">JSON</a></p>'
            '<p>z. B. <a href="../api/de/cards/qu.json"><code>api/de/cards/qu.json</code></a></p>').encode()
    kept = archive.own_language_menu("de")("de/rules/retrace.html", page).decode()
    assert kept == ('<p>8 von 8 Texten · <a href="../parallel/retrace.html">Parallelansicht</a></p>'
                    '<p>z. B. <code>api/de/cards/qu.json</code></p>')
    assert archive.own_language_menu("de")("search/x.js", page) == page
