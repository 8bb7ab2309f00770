"""Tests for rulekb.parallel: jobs run in other processes and their results (or exceptions) come
back here; where processes cannot be forked the same jobs run here; no process outlives the call."""

from __future__ import annotations

import multiprocessing
import os
import time
from types import MappingProxyType

import pytest

from rulekb import parallel
from rulekb.diagnostics import DataError, Problem

needs_fork = pytest.mark.skipif(not parallel.can_fork(), reason="no 'fork' start method on this platform")


def _no_child_left() -> bool:
    """No process that a job ran in is still there (multiprocessing waits for the ended ones here)."""
    return multiprocessing.active_children() == []


@needs_fork
def test_the_results_come_from_other_processes_in_job_order():
    got = parallel.run([lambda: (1, os.getpid()), lambda: (2, os.getpid()), lambda: (3, os.getpid())], processes=2)
    assert [n for n, _pid in got] == [1, 2, 3]
    assert os.getpid() not in {pid for _n, pid in got}
    assert _no_child_left()


@needs_fork
def test_a_child_sees_this_process_memory_and_read_only_mappings_come_back():
    pages = {"de": "Zurückverfolgen"}   # not sent to the child: it sees it as it was
    got = parallel.run([lambda: MappingProxyType(dict(pages))], processes=2)[0]
    assert isinstance(got, MappingProxyType) and got == {"de": "Zurückverfolgen"}


@needs_fork
def test_this_process_works_meanwhile():
    with parallel.start([lambda: time.sleep(0.3) or os.getpid()], processes=1) as running:
        started = time.monotonic()
        mine = os.getpid()          # this process is not blocked by the job
        assert time.monotonic() - started < 0.2
        (theirs,) = running.results()
    assert theirs != mine


@needs_fork
def test_done_reports_each_job_as_it_ends():
    jobs = [lambda: time.sleep(0.6) or "slow", lambda: "quick"]
    with parallel.start(jobs, processes=2) as running:
        assert [i for i, _result in running.done()] == [1, 0]


@needs_fork
def test_at_most_that_many_processes_at_once(tmp_path):
    def job(n: int):
        def run() -> int:
            (tmp_path / f"{n}.start").touch()
            time.sleep(0.2)
            running = len(list(tmp_path.glob("*.start"))) - len(list(tmp_path.glob("*.end")))
            (tmp_path / f"{n}.end").touch()
            return running
        return run
    assert max(parallel.run([job(n) for n in range(4)], processes=2)) <= 2


@needs_fork
def test_an_exception_comes_back_with_the_child_traceback():
    def broken():
        raise DataError([Problem("rules/x.yaml", 3, 1, "bad", "fix it")])
    with pytest.raises(DataError) as raised:
        parallel.run([broken], processes=2)
    assert raised.value.problems[0].file == "rules/x.yaml"
    assert "in broken" in raised.value.__cause__.trace   # the child's traceback


@needs_fork
def test_an_exception_that_does_not_pickle_comes_back_as_its_traceback():
    class Local(Exception):
        pass

    def broken():
        raise Local("local class")
    with pytest.raises(parallel.JobFailed) as failed:
        parallel.run([broken], processes=2)
    assert "Local: local class" in failed.value.trace


@needs_fork
def test_a_process_that_dies_says_so():
    with pytest.raises(parallel.JobFailed, match="exit code 3 and no result"):
        parallel.run([lambda: os._exit(3)], processes=2)
    assert _no_child_left()


@needs_fork
def test_leaving_the_block_ends_what_still_runs():
    with pytest.raises(RuntimeError):
        with parallel.start([lambda: time.sleep(60)], processes=2):
            raise RuntimeError("the caller failed")
    assert _no_child_left()


def test_without_fork_the_jobs_run_here(monkeypatch):
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert parallel.run([lambda: os.getpid(), lambda: os.getpid()], processes=2) == [os.getpid()] * 2


def test_no_process_runs_the_jobs_here_when_asked():
    calls = []
    with parallel.start([lambda: calls.append(1) or os.getpid()], processes=0) as running:
        assert calls == []   # not before its result is asked for
        assert running.results() == [os.getpid()]


@needs_fork
def test_when_no_process_can_be_started_the_jobs_run_here(monkeypatch):
    def refuse() -> int:
        raise OSError("no more processes")
    monkeypatch.setattr(os, "fork", refuse)
    assert parallel.run([lambda: os.getpid(), lambda: os.getpid()], processes=2) == [os.getpid()] * 2
