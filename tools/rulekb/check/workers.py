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

from typing import Callable, Sequence, TypeVar

from .. import forking

Job = TypeVar("Job")
Result = TypeVar("Result")


def run_split(jobs: Sequence[Job], run: Callable[[Job], list[Result]], in_child: Callable[[Job], bool],
              *, fork: bool = True, start: Callable[[], None] | None = None) -> list[Result]:
    """run(job) for every job, concatenated in the order of `jobs`; the jobs with in_child(job)
    run in a forked child process when `fork` (and the process can fork). `start()` runs in
    this process (only), before its jobs."""
    child_jobs = [job for job in jobs if in_child(job)] if fork else []
    child = forking.fork(lambda: [run(job) for job in child_jobs], threads_ok=True) if child_jobs else None
    if start is not None:
        start()
    if child is None:
        return [r for job in jobs for r in run(job)]
    try:
        mine = {id(job): run(job) for job in jobs if not in_child(job)}
    except BaseException:
        child.cancel()
        raise
    try:
        mine.update(zip((id(job) for job in child_jobs), child.result()))
    except forking.ChildFailed:  # the child failed: its jobs run here (an exception is raised again, with its traceback)
        mine.update((id(job), run(job)) for job in child_jobs)
    return [r for job in jobs for r in mine[id(job)]]
