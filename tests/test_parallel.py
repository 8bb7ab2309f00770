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


# ---------------------------------------------------------------- waiting jobs (`start_waiting`)


def _resident_mb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) // 1024


@needs_fork
def test_a_waiting_process_gets_its_value_and_this_process_works_meanwhile():
    with parallel.start_waiting([lambda v: (v, os.getpid()), lambda v: (v * 2, os.getpid())], processes=2) as waiting:
        waiting.feed(1, 21)
        waiting.feed(0, "Zurückverfolgen")
        got = waiting.results()
    assert [value for value, _pid in got] == ["Zurückverfolgen", 42]
    assert os.getpid() not in {pid for _value, pid in got}
    assert _no_child_left()


@needs_fork
def test_a_skipped_job_does_not_run_and_is_not_reported_as_done(tmp_path):
    def job(v):
        (tmp_path / "ran").touch()
        return v
    with parallel.start_waiting([job, lambda v: v], processes=2) as waiting:
        waiting.skip(0)
        waiting.feed(1, "fed")
        assert list(waiting.done()) == [(1, "fed")]
        assert waiting.results() == [None, "fed"]
    assert not (tmp_path / "ran").exists()
    assert _no_child_left()


@needs_fork
def test_a_waiting_process_holds_what_this_process_held_when_it_started(tmp_path):
    # forked before the large value exists here: the process holds the value it is sent, not
    # what this process made meanwhile (which a process forked later would hold too)
    with parallel.start_waiting([lambda v: (len(v), _resident_mb())], processes=1) as waiting:
        before = _resident_mb()
        kept = "é" * 150_000_000   # 150 MB here, never sent
        waiting.feed(0, "ü" * 1_000_000)
        ((length, theirs),) = waiting.results()
    assert length == 1_000_000 and theirs < before + 60
    del kept


@needs_fork
def test_a_value_larger_than_the_pipe_travels_whole():
    pages = {f"page{i}.md": f"# {i}\n\n" + "Zurückverfolgen " * 20_000 for i in range(200)}   # 64 MB of text
    with parallel.start_waiting([lambda v: sum(len(text) for text in v.values())], processes=1) as waiting:
        waiting.feed(0, pages)
        assert waiting.results() == [sum(len(text) for text in pages.values())]


@needs_fork
def test_a_job_fed_before_its_process_starts_runs_in_a_later_process():
    with parallel.start_waiting([lambda v: v, lambda v: (v, os.getpid())], processes=1) as waiting:
        waiting.feed(1, "second")      # no process yet: one at a time
        waiting.feed(0, "first")
        first, (second, pid) = waiting.results()
    assert (first, second) == ("first", "second") and pid != os.getpid()


def test_waiting_jobs_without_processes_run_here_in_order():
    calls = []
    with parallel.start_waiting([lambda v: calls.append(v) or os.getpid()] * 3, processes=0) as waiting:
        waiting.feed(2, "c")
        waiting.skip(1)
        waiting.feed(0, "a")
        assert calls == []             # run when their results are asked for
        assert waiting.results() == [os.getpid(), None, os.getpid()]
    assert calls == ["a", "c"]


@needs_fork
def test_asking_for_results_before_every_job_is_fed_or_skipped_is_an_error():
    with parallel.start_waiting([lambda v: v, lambda v: v], processes=2) as waiting:
        waiting.feed(0, 1)
        with pytest.raises(ValueError, match="job 1 was neither fed nor skipped"):
            waiting.results()
        with pytest.raises(ValueError, match="job 0 was fed or skipped already"):
            waiting.skip(0)
    assert _no_child_left()   # the waiting one was ended


@needs_fork
def test_a_fed_job_that_raises_raises_here():
    with pytest.raises(ZeroDivisionError) as raised:
        with parallel.start_waiting([lambda v: 1 / v], processes=1) as waiting:
            waiting.feed(0, 0)
            waiting.results()
    assert isinstance(raised.value.__cause__, parallel.JobFailed)


@needs_fork
def test_a_waiting_process_that_died_fails_when_its_result_is_asked_for():
    with parallel.start_waiting([lambda v: v], processes=1) as waiting:
        ((process, _),) = [(p, None) for p in multiprocessing.active_children() if p.name == "rulekb-job-0"]
        process.kill()
        process.join()
        waiting.feed(0, "x" * 1_000_000)   # into a pipe nobody reads: no error here
        with pytest.raises(parallel.JobFailed, match="job 0's process ended with exit code -9 and no result"):
            waiting.results()
