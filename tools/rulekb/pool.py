"""The one way rulekb spreads work over processes: the standard library's
`concurrent.futures.ProcessPoolExecutor`. Not a stage of its own: load, check and build map their
work over it (pipeline load -> validate -> link -> check -> render -> report).

Pure Python holds the GIL, so threads would not help. Every pool is started with the explicit
start method "spawn" (`START_METHOD`, the same on every platform): a worker is a new interpreter
that inherits nothing of the process that asked for it — no memory, no open file, no lock — and
gets its work and sends its result pickled. So a pool is made only once its work exists, a
worker holds only what it was sent, and a lock the parent holds is never held by a worker.

Workers end with their parent: each worker asks the kernel to end it when its parent process
ends (Linux's ``PR_SET_PDEATHSIG``) and, where the kernel cannot, watches its parent from a
thread. A build killed with ``kill -9`` leaves no worker behind.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, TypeVar

A = TypeVar("A")
T = TypeVar("T")

__all__ = ["START_METHOD", "available_processors", "executor", "map_in_processes"]

START_METHOD = "spawn"
_PR_SET_PDEATHSIG = 1   # from <linux/prctl.h>


def available_processors() -> int:
    """The processors this process may run on (its affinity where the platform says, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # not on every platform
        return max(1, os.cpu_count() or 1)


def _end_with_parent(parent: int) -> None:
    """A worker's initializer: end this process when its parent ends."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:   # the parent ended before the request: end now
                os._exit(1)
            return
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="rulekb-watch-parent").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def executor(processes: int) -> ProcessPoolExecutor:
    """A pool of at most `processes` workers (`START_METHOD`), which end with this process. Use
    it as a context manager: leaving it waits for the work given to it (or, after an exception,
    cancels what has not started)."""
    return ProcessPoolExecutor(max_workers=max(1, processes), mp_context=multiprocessing.get_context(START_METHOD),
                               initializer=_end_with_parent, initargs=(os.getpid(),))


def map_in_processes(function: Callable[[A], T], items: Iterable[A], *, processes: int) -> list[T]:
    """`[function(item) for item in items]`, the calls spread over at most `processes` workers
    (`function` and every item pickled to the worker, every result back); with one process, or
    one item, the calls run here. An exception of a call is raised here."""
    work = list(items)
    if processes <= 1 or len(work) <= 1:
        return [function(item) for item in work]
    with executor(min(processes, len(work))) as pool:
        return list(pool.map(function, work))
