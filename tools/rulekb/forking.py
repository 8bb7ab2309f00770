"""A function run in a forked child process, its result sent back pickled: how the pipeline
puts its second processor core to work (the checks' second process, the build's QA pages and its languages). Pure Python code holds the GIL, so
threads would not help; a forked child sees the parent's memory as it was — the knowledge base,
the rendered pages — and nothing is loaded twice.

`fork(fn)` starts fn() in a child and returns a `Forked` (None where this process cannot fork:
no os.fork, the fork failed, or — unless the caller allows it — other threads run, whose locks
a child could inherit held). `result()`
waits for fn's return value, or raises `ChildFailed` with the child's exception (when it can be
pickled) and its traceback; `cancel()` ends a child whose result is not needed. A `Forked` has
a `fileno()`, so several can be awaited together (multiprocessing.connection.wait).
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import signal
import threading
import traceback
from types import MappingProxyType
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class ChildFailed(Exception):
    """The child raised (`exception`, when it could be sent, and its `trace`) or died."""

    def __init__(self, message: str, exception: BaseException | None = None, trace: str = "") -> None:
        super().__init__(message)
        self.exception = exception
        self.trace = trace


def _mapping_proxy(items: dict) -> MappingProxyType:
    return MappingProxyType(items)


class _Pickler(pickle.Pickler):
    """Pickles the models too, whose mappings are read-only proxies (which pickle refuses)."""

    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[MappingProxyType] = lambda proxy: (_mapping_proxy, (dict(proxy),))


def _dumps(value: object) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


class Forked(Generic[T]):
    """fn() running in a forked child process."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self._fd, self._done = pid, fd, False

    def fileno(self) -> int:
        return self._fd

    def result(self) -> T:
        """Wait for fn's return value; ChildFailed when it raised or the child died."""
        if self._done:
            raise ChildFailed("the result was taken already")
        self._done = True
        with os.fdopen(self._fd, "rb") as pipe:
            payload = pipe.read()
        _pid, status = os.waitpid(self.pid, 0)
        if not payload:
            raise ChildFailed(f"the child process ended with exit code {os.waitstatus_to_exitcode(status)} "
                              "and no result")
        kind, value, trace = pickle.loads(payload)
        if kind == "ok":
            return value
        raise ChildFailed(f"the child process failed:\n{trace}", value, trace)

    def cancel(self) -> None:
        """End the child; its result is not needed."""
        if self._done:
            return
        self._done = True
        os.close(self._fd)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def can_fork(*, threads_ok: bool = False) -> bool:
    """Whether `fork` may start a child here: os.fork exists and (unless `threads_ok`) this
    process runs no other thread."""
    return hasattr(os, "fork") and (threads_ok or threading.active_count() == 1)


def fork(fn: Callable[[], T], *, threads_ok: bool = False) -> Forked[T] | None:
    """Start fn() in a forked child process; None where this process cannot fork (see
    `can_fork`) or the fork fails."""
    if not can_fork(threads_ok=threads_ok):
        return None
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # the child: run, send, leave without any cleanup of the parent's
        try:
            os.close(read_fd)
            try:
                payload = _dumps(("ok", fn(), ""))
            except BaseException as exc:  # noqa: BLE001  (sent to the parent, which decides)
                trace = "".join(traceback.format_exception(exc))
                try:
                    payload = _dumps(("raised", exc, trace))
                except Exception:  # noqa: BLE001  (an exception that does not pickle: its text)
                    payload = _dumps(("raised", None, trace))
            with os.fdopen(write_fd, "wb") as out:
                out.write(payload)
        finally:
            os._exit(0)
    os.close(write_fd)
    return Forked(pid, read_fd)
