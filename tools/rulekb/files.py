"""Writing files, in one place for every stage and command.

Two kinds of destination, two functions:

- `write_atomic(path, data)`: a file the project owns (YAML under ``rules/``, a catalog under
  ``translations/``, a cache entry, a page of the site). The bytes go to a temporary file beside
  it, are flushed and renamed over it, so a reader sees the old file or the new one, never half;
  the temporary file is removed whatever happens. Unchanged bytes are not rewritten. The file
  keeps its permissions; a new one gets those `open` would give it (0666 less the umask), not
  the temporary file's private 0600.
- `write_all(files)`: several project files as one change: all are written to temporary files
  first and renamed only when every one is on the disk, so a full disk changes none of them.
- `write_output(target, data)`: a path a user named on the command line (``--output FILE``,
  ``--reports DIR``'s files). ``-`` is standard output; a regular file or a new path is replaced
  atomically as above; a symlink is written through to its target (the link stays); a device
  or a FIFO is opened and written as it is, never replaced (``--output /dev/stdout`` works, and
  a FIFO's reader gets the bytes).

A temporary file's name carries the machine and the process that write it
(``.NAME.HOST.PID.RANDOM.rulekb-tmp``, a pattern .gitignore ignores); `remove_stale_temporaries`
removes those a killed process left, and every command that writes into a project's rules/ or
translations/ (the imports, the mining of the official names and of the phrases, the catalog
import, `lang add`) removes them under the project's rules/ and translations/ before it writes
(`importers.store.remove_stale_temporaries_of`).
`write_checked` writes a file that must read back first: the bytes checked are those of its
temporary file, which is then renamed (no second, differently named copy to leave behind).

Both raise `WriteError` (a `DataError`: file, what went wrong, how to fix it) for OS errors
such as a full disk, a missing permission or a name too long, never a traceback.
"""

from __future__ import annotations

import errno
import os
import re
import socket
import stat
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from .diagnostics import DataError, Problem

__all__ = ["WriteError", "make_folder", "os_problem", "remove_stale_temporaries", "write_all", "write_atomic", "write_checked",
           "write_output"]


class WriteError(DataError):
    """A file could not be written; `problems` says which and why."""


_FIXES = {
    errno.ENOSPC: "free some disk space, then run the command again",
    errno.EDQUOT: "free some disk space (your quota is used up), then run the command again",
    errno.EACCES: "make the folder writable for you, or choose another path",
    errno.EPERM: "make the folder writable for you, or choose another path",
    errno.EROFS: "the file system is read-only: choose a path on a writable one",
    errno.ENAMETOOLONG: "shorten the file name (ids longer than the file system allows cannot be written)",
    errno.ENOENT: "create the folder first, or choose an existing one",
    errno.ENOTDIR: "a part of the path is a file, not a folder: choose another path",
    errno.EISDIR: "the path is a folder: name a file inside it",
}


def os_problem(path: Path | str, error: OSError, action: str = "cannot write") -> Problem:
    """The `Problem` for an OS error on a file: what happened, and the fix that fits its errno."""
    reason = error.strerror or str(error)
    hint = _FIXES.get(error.errno or 0, "check the path and its permissions, then run the command again")
    return Problem(str(path), 1, 1, f"{action} {path}: {reason}", hint)


def make_folder(folder: Path | str) -> None:
    """Create `folder` and its parents when missing (the folder of an output or a new file)."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError([os_problem(folder, error, "cannot create the folder")]) from None


def umask() -> int:
    """The process's umask (read by setting it and setting it back: there is no other portable way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _unchanged(path: Path, data: bytes) -> bool:
    try:
        current = path.stat()
        return stat.S_ISREG(current.st_mode) and current.st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _mode(path: Path) -> int:
    """The permissions `path` has, or those a new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~umask()


def _unlink(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


TEMPORARY_SUFFIX = ".rulekb-tmp"
# .NAME.HOST.PID.RANDOM.rulekb-tmp: the machine and the process that wrote it, so that a later
# command can tell the temporary files of a process that died (kill -9) from a live one's
_TEMPORARY = re.compile(r"^\..*\.(?P<host>[A-Za-z0-9-]{1,32})\.(?P<pid>[0-9]{1,10})\.[A-Za-z0-9_]+"
                        + re.escape(TEMPORARY_SUFFIX) + "$")


def _host() -> str:
    """This machine's name as it goes into a temporary file's name (letters, digits, hyphens)."""
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:32] or "host"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True      # another user's live process (or a pid the system cannot hold): left alone
    return True


def remove_stale_temporaries(folders: Iterable[Path]) -> tuple[Path, ...]:
    """Remove, under `folders`, the temporary files (``.NAME.HOST.PID.RANDOM.rulekb-tmp``) that a
    process of this machine left when it was killed: its pid runs no more. Those of a live
    process and of another machine (a shared folder) stay; the paths removed, sorted."""
    host, removed = _host(), []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*" + TEMPORARY_SUFFIX)):
            found = _TEMPORARY.match(path.name)
            if found is None or found["host"] != host or _alive(int(found["pid"])):
                continue
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            except OSError as error:
                raise WriteError([os_problem(path, error, "cannot remove the stale temporary file")]) from None
            removed.append(path)
    return tuple(removed)


def write_checked(path: Path, data: bytes, check: Callable[[Path], object]) -> bool:
    """`write_atomic` of a file that must read back before it replaces the old one: `data` is
    written to its temporary file, `check(temporary path)` reads it (and raises, e.g. a
    DataError, when it does not read back: the old file stays), then the temporary file is
    renamed over `path` — unless `path` holds the same bytes already. True when it was written.
    A process killed meanwhile leaves only the temporary file, which the next writer removes."""
    path = Path(path)
    tmp = _stage(path, (data,))
    try:
        check(Path(tmp))
        if _unchanged(path, data):
            return False
        try:
            os.replace(tmp, path)
        except OSError as error:
            raise WriteError([os_problem(path, error)]) from None
        return True
    finally:
        _unlink(tmp)


def _stage(path: Path, chunks: Iterable[bytes], durable: bool = True) -> str:
    """Write `chunks` to a new temporary file beside `path`, with `path`'s mode, flushed to the
    disk (unless not `durable`); its name. WriteError (and no temporary file left) when that fails."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:40]}.{_host()}.{os.getpid()}.",
                                   suffix=TEMPORARY_SUFFIX)
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fchmod(handle.fileno(), _mode(path))
            if durable:
                os.fsync(handle.fileno())
        staged, tmp = tmp, None
        return staged
    except OSError as error:
        raise WriteError([os_problem(path, error)]) from None
    finally:
        if tmp is not None:
            _unlink(tmp)


def write_atomic(path: Path, data: bytes | Iterable[bytes], *, if_changed: bool = True, durable: bool = True) -> bool:
    """Replace the project-owned file `path` by `data` atomically; True when it was written.

    `data` is the bytes, or an iterable of chunks of them (a large file streamed, e.g. a
    decompressed model). With `if_changed` (the default) a file that already holds exactly the
    bytes `data` is left alone, so its modification time stays and an unchanged build or import
    rewrites nothing. Derived data that may be lost in a power cut (a cache entry, checked when
    read) passes `durable=False`: the replacement is as atomic, but not waited for on the disk
    (192 fsyncs cost 0.7 s of a cold `rulekb validate` on the whole rules).
    """
    path = Path(path)
    if isinstance(data, bytes):
        if if_changed and _unchanged(path, data):
            return False
        data = (data,)
    tmp = _stage(path, data, durable)
    try:
        os.replace(tmp, path)
    except OSError as error:
        _unlink(tmp)
        raise WriteError([os_problem(path, error)]) from None
    return True


def write_all(files: Iterable[tuple[Path, bytes]]) -> tuple[Path, ...]:
    """Replace several project-owned files as one change (an import's YAML files): every new
    text is written and flushed to its temporary file first, and only when all are on the disk
    are they renamed over their files. A full disk, a missing permission or a name too long
    therefore leaves every file as it was (WriteError; the temporary files are removed). Files
    whose bytes are unchanged are not rewritten; the paths written."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            path = Path(path)
            if not _unchanged(path, data):
                staged.append((_stage(path, (data,)), path))
        for tmp, path in staged:
            try:
                os.replace(tmp, path)
            except OSError as error:
                raise WriteError([os_problem(path, error)]) from None
        return tuple(path for _, path in staged)
    finally:
        for tmp, _ in staged:
            if os.path.lexists(tmp):
                _unlink(tmp)


def write_output(target: str | Path, data: bytes | str) -> None:
    """Write a user-named output: ``-`` (stdout), a regular file or new path (atomic replace),
    a symlink (written through to its target), a device or FIFO (written directly)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if str(target) == "-":
        stream = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if stream is None:
            sys.stdout.write(raw.decode("utf-8"))
        else:
            stream.write(raw)
        sys.stdout.flush()
        return
    path = Path(target)
    try:
        if path.is_symlink():
            path = Path(os.path.realpath(path))
        mode = path.stat().st_mode if path.exists() else None
    except OSError as error:
        raise WriteError([os_problem(target, error)]) from None
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise WriteError([os_problem(target, IsADirectoryError(errno.EISDIR, "is a folder"))])
        try:  # a device, a FIFO, a socket: written as it is, never replaced
            with open(path, "wb") as handle:
                handle.write(raw)
        except OSError as error:
            raise WriteError([os_problem(target, error)]) from None
        return
    write_atomic(path, raw, if_changed=False)
