"""Work spread over processes, in one place. Not a stage of its own: `check` runs its groups of
checks with it, `build` the QA behind the status pages and the languages' mkdocs runs
(pipeline load -> validate -> link -> check -> render -> report).

Pure Python holds the GIL, so threads would not help. `start(jobs, processes=n)` runs each job
(a function without arguments) in a process of its own, at most `n` at a time, started with
the standard library's multiprocessing and its explicit "fork" start method: the child sees
this process's memory as it was when the job started (the knowledge base, the rendered pages),
so nothing is sent to it; only its result comes back, pickled through a pipe. This process is
free meanwhile: the caller does its own part of the work, then takes the results
(`Running.done()` as each job ends, `Running.results()` all of them in job order).

Where "fork" is not a start method of the platform (Windows), with ``processes=0``, or when a
process cannot be started (no more processes), a job runs in this process when its result is
asked for: the same results, one after another.

No process outlives the call: `Running` is a context manager, and leaving it — normally, by an
exception, by Ctrl-C — ends what still runs and waits for it. A job's exception is raised again
here (caused by a `JobFailed` holding the child's traceback); an exception that cannot be pickled, or a child
that dies without a result, raises `JobFailed`.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import traceback
from multiprocessing.connection import Connection, wait
from typing import Callable, Generic, Iterator, Sequence, TypeVar

from .models import dumps

T = TypeVar("T")

__all__ = ["JobFailed", "Running", "can_fork", "run", "start"]


class JobFailed(Exception):
    """A job's process died without a result, or raised an exception that could not be sent."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.trace = trace


def can_fork() -> bool:
    """Whether jobs can run in forked processes on this platform."""
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()




def _run_in_child(job: Callable[[], object], out: Connection) -> None:
    """The child's side: run the job, send ("ok", result) or ("raised", exception, traceback)."""
    try:
        payload = dumps(("ok", job(), ""))
    except BaseException as exc:  # noqa: BLE001  (sent to the parent, which raises it again)
        trace = "".join(traceback.format_exception(exc))
        try:
            payload = dumps(("raised", exc, trace))
        except Exception:  # noqa: BLE001  (an exception that does not pickle: its traceback)
            payload = dumps(("raised", None, trace))
    out.send_bytes(payload)
    out.close()


class Running(Generic[T]):
    """Jobs started by `start`; a context manager that ends every process it started."""

    def __init__(self, jobs: Sequence[Callable[[], T]], processes: int) -> None:
        self._jobs = list(jobs)
        self._at_once = max(1, processes)
        self._fork = processes > 0 and can_fork()
        self._next = 0                                        # the next job to start
        self._here: list[int] = []                            # jobs that run in this process
        self._running: dict[Connection, tuple[int, multiprocessing.process.BaseProcess]] = {}
        self._results: dict[int, T] = {}
        self._fill()

    def _fill(self) -> None:
        while self._fork and self._next < len(self._jobs) and len(self._running) < self._at_once:
            i = self._next
            self._next += 1
            context = multiprocessing.get_context("fork")
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_run_in_child, args=(self._jobs[i], writer), name=f"rulekb-job-{i}")
            try:
                process.start()
            except OSError:  # no more processes: this one and the rest run here
                reader.close()
                writer.close()
                self._fork = False
                self._here.append(i)
                break
            writer.close()
            self._running[reader] = (i, process)
        if not self._fork:
            self._here.extend(range(self._next, len(self._jobs)))
            self._next = len(self._jobs)

    def done(self) -> Iterator[tuple[int, T]]:
        """(index, result) of each job as it ends; the jobs without a process of their own run
        here, after the others have ended."""
        while self._running:
            for reader in wait(list(self._running)):
                i, process = self._running.pop(reader)   # type: ignore[index]
                try:
                    payload = reader.recv_bytes()
                except EOFError:
                    payload = None
                finally:
                    reader.close()
                process.join()
                result = self._take(i, payload, process.exitcode)
                self._fill()
                yield i, result
        while self._here:
            i = self._here.pop(0)
            self._results[i] = self._jobs[i]()
            yield i, self._results[i]

    def _take(self, i: int, payload: bytes | None, exitcode: int | None) -> T:
        if payload is None:
            raise JobFailed(f"job {i}'s process ended with exit code {exitcode} and no result")
        kind, value, trace = pickle.loads(payload)
        if kind == "ok":
            self._results[i] = value
            return value
        if value is None:
            raise JobFailed(f"job {i} failed in its process:\n{trace}", trace)
        raise value from JobFailed(f"job {i} raised in its process:\n{trace}", trace)

    def results(self) -> list[T]:
        """Every job's result, in job order (waiting for those still running)."""
        for _ in self.done():
            pass
        return [self._results[i] for i in range(len(self._jobs))]

    def cancel(self) -> None:
        """End the jobs still running; their results are not needed."""
        for reader, (_i, process) in list(self._running.items()):
            process.kill()
            process.join()
            reader.close()
        self._running.clear()
        self._here.clear()

    def __enter__(self) -> "Running[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


def start(jobs: Sequence[Callable[[], T]], *, processes: int) -> Running[T]:
    """Start the jobs, each in a process of its own, at most `processes` at a time (0: none,
    the jobs run here); use the result as a context manager so that no process outlives the
    work."""
    return Running(jobs, processes)


def run(jobs: Sequence[Callable[[], T]], *, processes: int) -> list[T]:
    """Every job's result, in job order, the jobs spread over `processes` processes (0: here)."""
    with start(jobs, processes=processes) as running:
        return running.results()
