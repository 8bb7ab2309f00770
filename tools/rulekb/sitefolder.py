"""The folders a site build writes, kept safe (part of `rulekb build`, the step after render):
one build at a time per site folder and per build folder (a lock), a staging folder of its own
for each build, the swap that replaces the site as a whole, and the recovery from a build that
died halfway.

- `locked(site_dir, work)`: holds an exclusive lock (``fcntl.flock``) on ``.<site>.lock`` beside
  the site folder and on ``.rulekb-build.lock`` in the build folder (both removed when the build
  ends); a second build of the same site or into the same build folder stops at once with `Busy`
  (exit code 3, the `Exit.BUSY` of the commands), nothing written. The operating system
  releases a lock when its process ends, however it ends: a build that died never blocks the
  next one (its lock file stays, unlocked). A lock whose file names a process that no longer
  runs (held by a process that inherited it from a build that was killed) is taken over: its
  file is replaced, under a lock of the folder, so two builds never both take it. (Where
  ``fcntl`` is missing, on Windows, builds are not locked.)
- `new_staging(site_dir)`: ``.<site>.new-XXXXXXXX`` beside the site, unique per build, marked as
  ours (the site marker) from its first moment, with the mode the umask gives a new folder (a
  web server running as another user reads the published site where the umask lets it).
- `swap_in(staging, site_dir)`: the site becomes ``.<site>.old``, the staging folder becomes the
  site, the old one is removed; the marker file goes last, so a half-removed old site is still
  known as ours. A folder of ours that is read-only but the user's own is made writable to be
  removed (`remove`).
- `recover(site_dir)` (under the lock, before anything is written): a swap interrupted between
  its renames gets the old site back; an old site or staging folders left behind by a build that
  died are removed — only those that carry our marker (or are empty); anything else in the way
  is refused with a message.

Errors are `WriteError`s (file, what went wrong, how to fix it), never a traceback.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

from .diagnostics import Problem
from .files import WriteError, os_problem, umask

try:
    import fcntl
except ImportError:  # pragma: no cover  (Windows: no locks)
    fcntl = None  # type: ignore[assignment]

SITE_MARKER = ".rulekb-site"          # marks a folder as a site (or a staging folder) rulekb built
STAGING_TEXT = "a site being built by `rulekb build`; removed by the next build if that one died\n"
BUILD_LOCK = ".rulekb-build.lock"


class Busy(Exception):
    """Another build holds the lock of this site folder or build folder."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def old_folder(site_dir: Path) -> Path:
    return site_dir.with_name(f".{site_dir.name}.old")


def _lock_file(path: Path, what: Path) -> int:
    """Create `path` and take its exclusive lock without waiting; the open descriptor (the lock
    lives as long as it is open). Busy when another running process holds it; a lock whose file
    names a process that no longer runs is taken over (`_take_over`). (A lock file is removed
    when its lock is released, `_unlock`; a lock taken on a file that was removed meanwhile is
    taken again on the new one.) The lock is taken and its holder written under a lock of the
    folder (`_folder_locked`), so that a taker-over never reads a holder not yet written."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise WriteError([os_problem(path, error, "cannot create the build lock")]) from None
        if fcntl is None:  # pragma: no cover
            return fd
        with _folder_locked(path.parent):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                holder = _holder(fd)
                if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES) and _take_over(path, fd, holder):
                    os.close(fd)
                    continue   # the file of a dead holder is gone: lock a new one
                os.close(fd)
                if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise WriteError([os_problem(path, error, "cannot lock")]) from None
                by = f" (process {holder})" if holder else ""
                raise Busy(Problem(str(path), 1, 1, f"another `rulekb build`{by} is building {what} right now",
                                   "wait until it has ended, then run the command again")) from None
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                return fd
        os.close(fd)   # its holder removed the file as we opened it: lock the new one


@contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """An exclusive lock of `folder` for the moment the block lasts (nothing where a folder
    cannot be locked)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)   # (closing releases the lock)


def _running(pid: int) -> bool:
    """Whether a process `pid` runs (one of another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _take_over(path: Path, fd: int, holder: str) -> bool:
    """Remove the lock file `path` (open as `fd`, locked by another) when the build it names no
    longer runs (its lock is held by a process that inherited it from a build that was killed)
    and it is still that file; whether it was removed. Called under the folder's lock."""
    if not holder.isdigit() or _running(int(holder)):
        return False
    try:
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            os.unlink(path)
    except FileNotFoundError:
        pass
    return True


def _unlock(path: Path, fd: int) -> None:
    """Release a lock of `_lock_file`, removing its file first (so that no lock file stays)."""
    try:
        os.unlink(path)
    except OSError:
        pass
    os.close(fd)


def _holder(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


@contextmanager
def locked(site_dir: Path, work: Path) -> Iterator[None]:
    """Hold the locks of the build folder `work` and of the site folder `site_dir` (Busy when
    another build holds one; nothing is written then)."""
    try:
        work.mkdir(parents=True, exist_ok=True)
        site_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError([os_problem(error.filename or work, error, "cannot create the folder")]) from None
    with ExitStack() as held:
        for path, what in ((work / BUILD_LOCK, work), (site_dir.with_name(f".{site_dir.name}.lock"), site_dir)):
            fd = _lock_file(path, what)
            held.callback(_unlock, path, fd)
        yield


def ours(folder: Path) -> bool:
    """Whether `folder` is a site or staging folder rulekb made (its marker is there)."""
    return folder.is_dir() and not folder.is_symlink() and (folder / SITE_MARKER).is_file()


def _remove(folder: Path) -> None:
    for child in sorted(folder.iterdir()):
        if child.name == SITE_MARKER:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    (folder / SITE_MARKER).unlink(missing_ok=True)
    folder.rmdir()


def _make_writable(folder: Path) -> None:
    """Every folder under `folder` (itself too) that is this user's own: writable and searchable
    for the user (a read-only site, ``chmod -R a-w``), so that its files can be removed."""
    uid = os.geteuid()
    for path, dirs, _files in os.walk(folder):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(path, d))]
        info = os.stat(path)
        if info.st_uid == uid and info.st_mode & 0o700 != 0o700:
            os.chmod(path, info.st_mode | 0o700)


def remove(folder: Path, why: str) -> None:
    """Remove a folder of ours, its marker last (a half-removed folder stays known as ours); one
    that is read-only but the user's own is made writable first."""
    try:
        try:
            _remove(folder)
        except PermissionError:
            _make_writable(folder)
            _remove(folder)
    except OSError as error:
        reason = error.strerror or str(error)
        raise WriteError([Problem(str(folder), 1, 1, f"cannot remove {folder} ({why}): {reason}",
                                  f"make {folder} and everything in it writable for you (or remove it yourself); "
                                  "the next build removes it")]) from None


def new_staging(site_dir: Path) -> Path:
    """A new staging folder beside `site_dir`, unique to this build, marked as ours."""
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.new-", dir=site_dir.parent))
        os.chmod(staging, 0o777 & ~umask())   # not mkdtemp's 0700: the mode of a new folder
        (staging / SITE_MARKER).write_text(STAGING_TEXT, encoding="utf-8")
    except OSError as error:
        raise WriteError([os_problem(error.filename or site_dir.parent, error)]) from None
    return staging


def recover(site_dir: Path) -> None:
    """Undo what a build that died left behind (call it holding the lock): an interrupted swap
    gets the old site back; a leftover old site and staging folders of ours are removed."""
    old = old_folder(site_dir)
    if old.exists() or old.is_symlink():
        if not ours(old):
            raise WriteError([Problem(str(old), 1, 1, f"{old} is in the way of the build and is not a folder rulekb "
                                                       f"made (no {SITE_MARKER} in it)",
                                      "move it away or remove it, then build again")])
        if site_dir.exists() or site_dir.is_symlink():
            remove(old, "the previous site, left by an earlier build")
        else:
            try:
                os.rename(old, site_dir)   # the swap stopped between its two renames: the old site back
            except OSError as error:
                raise WriteError([os_problem(site_dir, error, "cannot put the previous site back to")]) from None
    for stale in sorted(site_dir.parent.glob(f".{site_dir.name}.new*")):
        if ours(stale):
            remove(stale, "the staging folder of a build that did not end")
        elif stale.is_dir() and not stale.is_symlink() and not any(stale.iterdir()):
            try:
                stale.rmdir()
            except OSError:
                pass


def swap_in(staging: Path, site_dir: Path) -> None:
    """Replace the site folder by the staged one. Between the two renames the old site is kept
    as ``.<site>.old``; a later build puts it back if this one was interrupted there. When the
    old site cannot be removed afterwards, the new one is in place and the WriteError says so."""
    old = old_folder(site_dir)
    try:
        if site_dir.exists() or site_dir.is_symlink():
            os.rename(site_dir, old)
        os.rename(staging, site_dir)
    except OSError as error:
        raise WriteError([os_problem(error.filename or site_dir, error, "cannot replace")]) from None
    if old.exists():
        remove(old, f"the previous site; the new one is in place in {site_dir}")
