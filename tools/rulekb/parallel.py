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

`start_waiting(jobs, processes=n)` forks the processes at once, before their input exists:
each job is a function of one argument, and its process waits until `Waiting.feed(i, value)`
sends it the value (pickled into a pipe frame by frame, and unpickled there as it arrives) or `Waiting.skip(i)` tells it that it is not
needed. A process forked early holds only what this process held then: `build` starts its
mkdocs processes right after loading, before the pages of every language are rendered here,
and sends each only its own language's pages (a process's resident set counts every page it
inherits, shared or not).

Where "fork" is not a start method of the platform (Windows), with ``processes=0``, or when a
process cannot be started (no more processes), a job runs in this process when its result is
asked for: the same results, one after another.

No process outlives the call: `Running` is a context manager, and leaving it — normally, by an
exception, by Ctrl-C — ends what still runs and waits for it. A job's exception is raised again
here (caused by a `JobFailed` holding the child's traceback); an exception that cannot be pickled, or a child
that dies without a result, raises `JobFailed`.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import traceback
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar

from .models import dump, dumps

T = TypeVar("T")
A = TypeVar("A")

__all__ = ["JobFailed", "Running", "Waiting", "can_fork", "run", "start", "start_waiting"]


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


def _wait_in_child(take: Callable[[Any], object], inbox: Connection, inherited: Sequence[Connection],
                   out: Connection) -> None:
    """The child's side of a waiting job: the parent's ends of the waiting pipes closed here
    (its own and those of the processes forked before it), then ("run", value) or ("skip",)
    read from `inbox` (unpickled as it arrives); the job run with the value, as
    `_run_in_child` runs a job."""
    for end in inherited:
        end.close()
    try:
        with open(inbox.fileno(), "rb", closefd=False) as stream:
            message = pickle.load(stream)
    except EOFError:   # the parent ended without a word: nothing to do
        message = ("skip",)
    inbox.close()
    if message[0] == "skip":
        out.send_bytes(dumps(("skipped", None, "")))
        out.close()
        return
    _run_in_child(functools.partial(take, message[1]), out)


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
            target, args, after = self._target(i, context)
            process = context.Process(target=target, args=(*args, writer), name=f"rulekb-job-{i}")
            try:
                process.start()
            except OSError:  # no more processes: this one and the rest run here
                reader.close()
                writer.close()
                after(False)
                self._fork = False
                self._here.append(i)
                break
            writer.close()
            after(True)
            self._running[reader] = (i, process)
        if not self._fork:
            self._here.extend(range(self._next, len(self._jobs)))
            self._next = len(self._jobs)

    def _target(self, i: int, context: Any) -> tuple[Callable[..., None], tuple, Callable[[bool], None]]:
        """The function a process of job `i` runs, its arguments before the result pipe, and
        what to do once the process started (True) or could not be started (False)."""
        return _run_in_child, (self._jobs[i],), lambda started: None

    def _run_here(self, i: int) -> T:
        return self._jobs[i]()

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
            self._results[i] = self._run_here(i)
            yield i, self._results[i]

    def _take(self, i: int, payload: bytes | None, exitcode: int | None) -> T:
        if payload is None:
            raise JobFailed(f"job {i}'s process ended with exit code {exitcode} and no result")
        kind, value, trace = pickle.loads(payload)
        if kind in ("ok", "skipped"):
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


class Waiting(Running[T], Generic[A, T]):
    """Jobs of one argument started by `start_waiting`: each process waits for its value
    (`feed`) or its end (`skip`). Every job must be fed or skipped before its result is
    asked for (`done`, `results`); a skipped job's result is None and `done` does not yield it."""

    def __init__(self, jobs: Sequence[Callable[[A], T]], processes: int) -> None:
        self._takes = list(jobs)
        self._told: dict[int, tuple] = {}           # ("run", value) or ("skip",), of jobs without a waiting process
        self._inboxes: dict[int, Connection] = {}    # the waiting processes' pipes
        self._skipped: set[int] = set()
        self._answered: set[int] = set()             # fed or skipped
        super().__init__([lambda: None] * len(self._takes), processes)

    def _target(self, i: int, context: Any) -> tuple[Callable[..., None], tuple, Callable[[bool], None]]:
        if i in self._told:   # told before its process could start: the process inherits the value
            message = self._told[i]
            forget = lambda started: self._told.pop(i) if started else None  # noqa: E731
            if message[0] == "skip":
                return _run_in_child, (lambda: None,), forget
            take, value = self._takes[i], message[1]
            return _run_in_child, (lambda: take(value),), forget
        inbox, end = context.Pipe(duplex=False)

        def after(started: bool) -> None:
            inbox.close()
            if started:
                self._inboxes[i] = end
            else:
                end.close()

        return _wait_in_child, (self._takes[i], inbox, [end, *self._inboxes.values()]), after

    def _tell(self, i: int, message: tuple) -> None:
        if i in self._answered:
            raise ValueError(f"job {i} was fed or skipped already")
        self._answered.add(i)
        if message[0] == "skip":
            self._skipped.add(i)
        inbox = self._inboxes.pop(i, None)
        if inbox is None:   # its process starts later, or it runs here
            self._told[i] = message
            return
        try:   # pickled into the pipe as it goes: the pickle is never whole in this process
            with open(inbox.fileno(), "wb", closefd=False) as stream:
                dump(message, stream)
        except BrokenPipeError:
            pass   # its process died waiting: `done` reports it (JobFailed)
        finally:
            inbox.close()

    def feed(self, i: int, value: A) -> None:
        """Send job `i` its value: its process runs the job now (or, without one, later)."""
        self._tell(i, ("run", value))

    def skip(self, i: int) -> None:
        """Job `i` is not needed: its process ends without running it."""
        self._tell(i, ("skip",))

    def _run_here(self, i: int) -> T:
        message = self._told.pop(i, None)
        if message is None:
            raise ValueError(f"job {i} was neither fed nor skipped")
        return self._takes[i](message[1]) if message[0] == "run" else None  # type: ignore[return-value]

    def done(self) -> Iterator[tuple[int, T]]:
        untold = [i for i in range(len(self._takes)) if i not in self._answered]
        if untold:
            raise ValueError(f"job {untold[0]} was neither fed nor skipped")
        for i, result in super().done():
            if i not in self._skipped:
                yield i, result

    def cancel(self) -> None:
        for inbox in self._inboxes.values():
            inbox.close()
        self._inboxes.clear()
        super().cancel()


def start_waiting(jobs: Sequence[Callable[[A], T]], *, processes: int) -> Waiting[A, T]:
    """Start a process for each job (at most `processes` at a time, 0: none, the jobs run here
    when their results are asked for) that waits for the job's argument: `Waiting.feed(i,
    value)` runs job i with `value`, `Waiting.skip(i)` ends it unrun. Use the result as a
    context manager, as that of `start`."""
    return Waiting(jobs, processes)


def start(jobs: Sequence[Callable[[], T]], *, processes: int) -> Running[T]:
    """Start the jobs, each in a process of its own, at most `processes` at a time (0: none,
    the jobs run here); use the result as a context manager so that no process outlives the
    work."""
    return Running(jobs, processes)


def run(jobs: Sequence[Callable[[], T]], *, processes: int) -> list[T]:
    """Every job's result, in job order, the jobs spread over `processes` processes (0: here)."""
    with start(jobs, processes=processes) as running:
        return running.results()
