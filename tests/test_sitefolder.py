"""Tests for rulekb.sitefolder: the build lock (a second build of the same site or into the same
build folder is refused while the first runs, and a lock dies with its process), unique staging
folders, the swap, and the recovery from what a build that died left behind. The tests run as
root in CI, where chmod does not stop a removal: a folder that cannot be removed is simulated by
an injected PermissionError (EACCES) in the removal."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulekb import sitefolder
from rulekb.files import WriteError
from rulekb.sitefolder import SITE_MARKER, Busy

needs_flock = pytest.mark.skipif(sitefolder.fcntl is None, reason="no fcntl (file locks) on this platform")


def a_site(folder: Path, text: str = "old") -> Path:
    (folder / "de").mkdir(parents=True)
    (folder / "index.html").write_text(text)
    (folder / "de" / "index.html").write_text(text)
    (folder / SITE_MARKER).write_text("built by `rulekb build`\n")
    return folder


@needs_flock
def test_a_second_build_of_the_same_site_or_build_folder_is_busy(tmp_path):
    site, work = tmp_path / "site", tmp_path / "build"
    with sitefolder.locked(site, work):
        with pytest.raises(Busy) as same_site:
            with sitefolder.locked(site, tmp_path / "other-build"):
                pass
        with pytest.raises(Busy) as same_work:
            with sitefolder.locked(tmp_path / "other-site", work):
                pass
    assert "is building" in str(same_site.value) and str(site) in same_site.value.problem.message
    assert f"(process {os.getpid()})" in same_site.value.problem.message
    assert same_site.value.problem.hint.startswith("wait until it has ended")
    assert str(work) in same_work.value.problem.message
    with sitefolder.locked(site, work):   # released with the block
        pass


@needs_flock
def test_the_lock_of_a_build_that_died_is_gone_with_its_process(tmp_path):
    site, work = tmp_path / "site", tmp_path / "build"
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from rulekb import sitefolder
        with sitefolder.locked(Path({str(site)!r}), Path({str(work)!r})):
            os._exit(9)   # killed while building: no cleanup at all
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parent.parent / "tools"),
                                                      os.environ.get("PYTHONPATH", "")]))
    assert subprocess.run([sys.executable, "-c", script], env=env).returncode == 9
    with sitefolder.locked(site, work):
        pass


@needs_flock
def test_a_lock_held_by_a_process_that_outlived_its_dead_build_is_taken_over(tmp_path):
    """Issue 31: the lock of a killed build, still held by a process that inherited it (a worker
    the build had forked), named a build that no longer runs and blocked every later build. It is
    taken over; a lock whose holder runs stays Busy."""
    site, work = tmp_path / "site", tmp_path / "build"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()   # a process id that no longer runs
    lock = work / sitefolder.BUILD_LOCK
    work.mkdir()
    lock.write_text(f"{dead.pid}\n")
    # an orphan that inherited the lock: it holds it and sleeps
    orphan = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, sys, time
        fd = os.open({str(lock)!r}, os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(120)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert orphan.stdout.readline() == "held\n"
        with sitefolder.locked(site, work):
            assert lock.read_text() == f"{os.getpid()}\n"
            with pytest.raises(Busy, match=f"process {os.getpid()}"):   # a live holder is not taken over
                with sitefolder.locked(site, work):
                    pass
        with sitefolder.locked(site, work):   # the orphan still holds the lock of a file that is gone
            pass
    finally:
        orphan.kill()
        orphan.wait()
    assert not lock.exists()


@needs_flock
def test_a_lock_held_by_a_running_process_is_not_taken_over(tmp_path):
    site, work = tmp_path / "site", tmp_path / "build"
    work.mkdir()
    lock = work / sitefolder.BUILD_LOCK
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, time
        fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b"%d\\n" % os.getpid())
        print("held", flush=True)
        time.sleep(120)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(Busy, match=f"process {holder.pid}"):
            with sitefolder.locked(site, work):
                pass
        assert lock.read_text() == f"{holder.pid}\n"
    finally:
        holder.kill()
        holder.wait()


def test_a_staging_folder_has_the_mode_of_a_new_folder_not_a_private_one(tmp_path):
    """Issue 31: the published site was 0700 (mkdtemp's mode), so a web server running as
    another user could not read it; it follows the umask."""
    previous = os.umask(0o022)
    try:
        staging = sitefolder.new_staging(tmp_path / "site")
    finally:
        os.umask(previous)
    assert staging.stat().st_mode & 0o777 == 0o755
    previous = os.umask(0o077)
    try:
        private = sitefolder.new_staging(tmp_path / "site")
    finally:
        os.umask(previous)
    assert private.stat().st_mode & 0o777 == 0o700


def test_each_build_stages_in_a_folder_of_its_own_marked_as_ours(tmp_path):
    site = tmp_path / "site"
    one, two = sitefolder.new_staging(site), sitefolder.new_staging(site)
    assert one != two and one.parent == two.parent == tmp_path
    assert one.name.startswith(".site.new-") and sitefolder.ours(one) and sitefolder.ours(two)


def test_the_swap_replaces_the_site_and_removes_the_old_one(tmp_path):
    site = a_site(tmp_path / "site", "old")
    staging = sitefolder.new_staging(site)
    a_site_in = a_site(staging / "x", "new").parent
    sitefolder.swap_in(a_site_in, site)
    assert (site / "x" / "index.html").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_an_interrupted_swap_gets_the_old_site_back(tmp_path):
    site = tmp_path / "site"
    a_site(sitefolder.old_folder(site))   # killed between the two renames: no site, the old one beside
    sitefolder.recover(site)
    assert (site / "index.html").read_text() == "old" and not sitefolder.old_folder(site).exists()


def test_what_a_build_that_died_left_behind_is_removed_if_ours(tmp_path):
    site = a_site(tmp_path / "site", "current")
    a_site(sitefolder.old_folder(site))                       # a swap that could not remove the old site
    staged = sitefolder.new_staging(site)                      # a staging folder of a build that died
    (staged / "de").mkdir()
    (staged / "de" / "half.html").write_text("…")
    empty = tmp_path / ".site.new-empty"                       # died right after making its folder
    empty.mkdir()
    foreign = tmp_path / ".site.new-notes"                     # not ours: kept
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    sitefolder.recover(site)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.new-notes", "site"]
    assert (site / "index.html").read_text() == "current"


def test_an_old_site_that_is_not_ours_is_refused(tmp_path):
    site = a_site(tmp_path / "site")
    old = sitefolder.old_folder(site)
    old.mkdir()
    (old / "thesis.tex").write_text("years of work")
    with pytest.raises(WriteError) as refused:
        sitefolder.recover(site)
    problem = refused.value.problems[0]
    assert "is not a folder rulekb made" in problem.message and problem.hint.startswith("move it away")
    assert (old / "thesis.tex").read_text() == "years of work"


def _refuse_removal_under(monkeypatch, part: str) -> list[str]:
    """shutil.rmtree fails with EACCES below any folder named `part` (as a read-only folder
    would for a user who is not root): an injected failure."""
    refused: list[str] = []
    real = shutil.rmtree

    def rmtree(path, *args, **kwargs):
        if part in Path(path).parts:
            refused.append(str(path))
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(shutil, "rmtree", rmtree)
    return refused


def test_an_old_site_that_cannot_be_removed_is_a_clear_error_and_the_next_build_removes_it(tmp_path, monkeypatch):
    site = a_site(tmp_path / "site", "old")
    staging = sitefolder.new_staging(site)
    (staging / "index.html").write_text("new")
    refused = _refuse_removal_under(monkeypatch, ".site.old")
    with pytest.raises(WriteError) as failed:
        sitefolder.swap_in(staging, site)
    assert refused
    problem = failed.value.problems[0]
    assert problem.file.endswith(".site.old") and "Permission denied" in problem.message
    assert "the new one is in place" in problem.message and "the next build removes it" in problem.hint
    assert (site / "index.html").read_text() == "new"                       # the new site is there
    assert sitefolder.ours(sitefolder.old_folder(site))                     # half removed, still known as ours
    monkeypatch.undo()
    sitefolder.recover(site)                                                # the next build
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


@needs_flock
def test_no_lock_file_stays_after_a_build(tmp_path):
    site, work = tmp_path / "site", tmp_path / "build"
    with sitefolder.locked(site, work):
        assert (tmp_path / ".site.lock").read_text() == f"{os.getpid()}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"] and list(work.iterdir()) == []
