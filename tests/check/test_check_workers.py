"""workers.run_split and the two-process run of run_checks: the same findings as on one core."""

from __future__ import annotations

import os

import pytest

import rulekb.check as check
from conftest import DATA
from rulekb.check.workers import run_split
from rulekb.validate import load_knowledge_base

KB = DATA / "qa" / "kb"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is not available on this platform")


def _pid_and(job: int) -> list[tuple[int, int]]:
    return [(job, os.getpid()), (job * 10, os.getpid())]


def test_child_jobs_run_in_another_process_and_keep_their_place():
    got = run_split([1, 2, 3, 4], _pid_and, lambda job: job % 2 == 0)
    assert [value for value, _pid in got] == [1, 10, 2, 20, 3, 30, 4, 40]
    assert {pid for value, pid in got if value in (1, 10, 3, 30)} == {os.getpid()}
    assert os.getpid() not in {pid for value, pid in got if value in (2, 20, 4, 40)}


def test_without_fork_everything_runs_here():
    got = run_split([1, 2], _pid_and, lambda job: True, fork=False)
    assert got == [(1, os.getpid()), (10, os.getpid()), (2, os.getpid()), (20, os.getpid())]


def test_a_failing_child_job_fails_again_here():
    def run(job: int) -> list[int]:
        if job == 2:
            raise ValueError("job 2 is broken")
        return [job]

    with pytest.raises(ValueError, match="job 2 is broken"):
        run_split([1, 2], run, lambda job: job == 2)


def test_the_two_process_run_finds_what_one_process_finds(monkeypatch):
    kb = load_knowledge_base(KB)
    one = check.run_checks(kb, KB)
    monkeypatch.setattr(check, "PARALLEL_UNITS", 0)
    two = check.run_checks(kb, KB)
    assert two == one
    assert any(f.code.startswith(("language.", "terminology.")) for f in two.findings)  # the worker's families
