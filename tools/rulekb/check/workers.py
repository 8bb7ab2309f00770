"""Running the checks on two cores (stage: check), for large knowledge bases.

The checks are pure Python and hold the GIL, so threads would not help: `run_split` forks the
process once the knowledge base and the termbase are loaded, runs one group of checks in the
child (which sees the same memory: nothing is loaded twice) and the other in the parent, and
sends the child's findings back through a pipe. The findings are the same as on one core —
`run_checks` sorts them — so the output does not depend on where a check ran.

Where `os.fork` is missing (or fails), or the run is small (forking costs ~10 ms), or the child
fails, everything runs in this process. `start()` runs in this process before its own jobs
(after the fork): what only this process's jobs need starts there, e.g. a thread loading a
model, so that the child is not forked from a process with other threads.
"""

from __future__ import annotations

import os
import pickle
from typing import Callable, Sequence, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


def run_split(jobs: Sequence[Job], run: Callable[[Job], list[Result]], in_child: Callable[[Job], bool],
              *, fork: bool = True, start: Callable[[], None] | None = None) -> list[Result]:
    """run(job) for every job, concatenated in the order of `jobs`; the jobs with in_child(job)
    run in a forked child process when `fork` (and the platform can). `start()` runs in this
    process (only), before its jobs."""
    child_jobs = [job for job in jobs if in_child(job)] if fork and hasattr(os, "fork") else []
    pid = -1
    if child_jobs:
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
    if pid == -1:
        if start is not None:
            start()
        return [r for job in jobs for r in run(job)]
    if pid == 0:  # the child: run its jobs, send the results, leave without any cleanup of the parent's
        status = 1
        try:
            os.close(read_fd)
            payload = pickle.dumps([run(job) for job in child_jobs], protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as out:
                out.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    try:
        if start is not None:
            start()
        mine = {id(job): run(job) for job in jobs if not in_child(job)}
    finally:  # also when a check of this process raises: collect the child
        with os.fdopen(read_fd, "rb") as pipe:
            payload = pipe.read()
        _pid, status = os.waitpid(pid, 0)
    if status == 0 and payload:
        mine.update(zip((id(job) for job in child_jobs), pickle.loads(payload)))
    else:  # the child failed (an exception is raised again here, with its traceback)
        mine.update((id(job), run(job)) for job in child_jobs)
    return [r for job in jobs for r in mine[id(job)]]
