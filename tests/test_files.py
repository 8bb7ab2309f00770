"""files: the one writer of the project's files (`write_atomic`) and of the outputs a user names
(`write_output`): atomic replace of regular files, symlinks written through, FIFOs written as
they are, '-' to standard output, OS errors as file + fix with no temporary file left behind."""

from __future__ import annotations

from conftest import disk_fills_at

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from rulekb import files
from rulekb.files import WriteError, make_folder, write_atomic, write_output


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".rulekb-tmp"))


def read_fifo(fifo: Path, into: list[bytes]) -> threading.Thread:
    def reader() -> None:
        with open(fifo, "rb") as handle:
            into.append(handle.read())
    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return thread


def test_a_fifo_is_written_as_it_is_and_its_reader_gets_the_bytes(tmp_path):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = read_fifo(fifo, got)
    write_output(fifo, "qa report ✓\n")
    thread.join(timeout=10)
    assert got == ["qa report ✓\n".encode("utf-8")]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # still the FIFO, not a file put in its place
    assert leftovers(tmp_path) == []


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real" / "qa.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "qa-link.json"
    link.symlink_to(target)
    write_output(link, b"new bytes")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"new bytes"


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "made.txt")
    write_output(link, "made")
    assert link.is_symlink() and (tmp_path / "made.txt").read_text() == "made"


def test_a_regular_file_is_replaced_atomically_and_keeps_its_mode(tmp_path):
    path = tmp_path / "qa.txt"
    path.write_bytes(b"old report")
    path.chmod(0o640)
    before = path.stat().st_ino
    with open(path, "rb") as reader:    # a reader of the old file keeps it whole
        write_output(path, b"new report")
        assert reader.read() == b"old report"
    assert path.read_bytes() == b"new report"
    assert path.stat().st_ino != before          # a new file renamed over the old one
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_new_file_gets_the_umask_mode_not_a_private_one(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.yaml", b"a: 1\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o644


def test_unchanged_bytes_are_not_rewritten(tmp_path):
    path = tmp_path / "rule.yaml"
    assert write_atomic(path, b"id: x\n") is True
    inode = path.stat().st_ino
    assert write_atomic(path, b"id: x\n") is False
    assert path.stat().st_ino == inode
    assert write_atomic(path, b"id: y\n") is True and path.read_bytes() == b"id: y\n"


def test_chunks_are_streamed_into_one_file(tmp_path):
    write_atomic(tmp_path / "model.npz", iter([b"ab", b"cd", b"ef"]))
    assert (tmp_path / "model.npz").read_bytes() == b"abcdef"


def test_dash_is_standard_output(capsysbinary, tmp_path):
    write_output("-", "to stdout ✓")
    assert capsysbinary.readouterr().out == "to stdout ✓".encode("utf-8")
    assert list(tmp_path.iterdir()) == [] and not Path("-").exists()


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(WriteError) as caught:
        write_output(tmp_path, "x")
    (problem,) = caught.value.problems
    assert problem.file == str(tmp_path) and "name a file inside it" in problem.hint


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("call", ["fsync", "replace"])
def test_a_full_disk_is_a_write_error_with_file_and_fix_and_leaves_no_temporary_file(tmp_path, monkeypatch, call):
    path = tmp_path / "rules" / "retrace.yaml"
    path.parent.mkdir()
    path.write_bytes(b"the old text\n")
    monkeypatch.setattr(files.os, call, no_space)
    with pytest.raises(WriteError) as caught:
        write_atomic(path, b"the new text\n")
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:1:1: error: cannot write {path}: No space left on device")
    assert "free some disk space" in problem.hint
    assert path.read_bytes() == b"the old text\n"
    assert leftovers(path.parent) == []


def test_derived_data_is_replaced_atomically_without_waiting_for_the_disk(tmp_path, monkeypatch):
    path = tmp_path / "entry.pickle"
    path.write_bytes(b"old")
    synced = []
    monkeypatch.setattr(files.os, "fsync", synced.append)
    assert write_atomic(path, b"new", durable=False)
    assert path.read_bytes() == b"new" and synced == [] and leftovers(tmp_path) == []
    write_atomic(path, b"newer")
    assert path.read_bytes() == b"newer" and len(synced) == 1  # the default: flushed to the disk


def test_a_missing_permission_is_a_write_error(tmp_path, monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    monkeypatch.setattr(files.tempfile, "mkstemp", denied)
    with pytest.raises(WriteError) as caught:
        write_output(tmp_path / "qa.json", "{}")
    assert "make the folder writable" in caught.value.problems[0].hint


def test_a_folder_that_cannot_be_made_is_a_write_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(WriteError) as caught:
        make_folder(tmp_path / "file" / "reports")
    assert "is a file, not a folder" in caught.value.problems[0].hint


def test_write_all_renames_only_when_every_file_is_on_the_disk(tmp_path, monkeypatch):
    paths = [tmp_path / name for name in ("a.yaml", "b.yaml", "c.yaml")]
    for path in paths:
        path.write_bytes(b"old\n")
    assert files.write_all([(paths[0], b"new\n"), (paths[1], b"old\n"), (paths[2], b"new\n")]) == (paths[0], paths[2])
    assert [p.read_bytes() for p in paths] == [b"new\n", b"old\n", b"new\n"]
    disk_fills_at(monkeypatch, 3)
    with pytest.raises(WriteError) as caught:
        files.write_all([(path, b"newer\n") for path in paths])
    assert caught.value.problems[0].file == str(paths[2])
    assert [p.read_bytes() for p in paths] == [b"new\n", b"old\n", b"new\n"]   # none of the three changed
    assert leftovers(tmp_path) == []


def test_write_checked_renames_the_file_it_checked_and_keeps_the_old_one_when_the_check_fails(tmp_path):
    from rulekb.diagnostics import DataError, Problem
    target = tmp_path / "phraseology.yaml"
    target.write_bytes(b"old\n")
    checked: list[bytes] = []

    def reads_back(staged: Path) -> None:
        assert files._TEMPORARY.match(staged.name) and staged.parent == tmp_path
        checked.append(staged.read_bytes())

    assert files.write_checked(target, b"new\n", reads_back) is True
    assert target.read_bytes() == b"new\n" and checked == [b"new\n"] and leftovers(tmp_path) == []
    assert files.write_checked(target, b"new\n", reads_back) is False   # unchanged: checked, not rewritten
    assert checked == [b"new\n", b"new\n"]

    def refuses(staged: Path) -> None:
        raise DataError([Problem(staged.name, 1, 1, "does not read back", "report it")])
    with pytest.raises(DataError):
        files.write_checked(target, b"broken\n", refuses)
    assert target.read_bytes() == b"new\n" and sorted(p.name for p in tmp_path.iterdir()) == ["phraseology.yaml"]
