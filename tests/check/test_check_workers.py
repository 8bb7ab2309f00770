"""workers.run_split and the two-process run of run_checks (with the language model in a helper
process, as `rulekb check` runs it): the same findings as on one core."""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

import rulekb.check as check
from conftest import DATA, run_fresh
from rulekb.check.workers import run_split
from rulekb.report import to_json
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


def test_start_runs_here_only_before_the_jobs_of_this_process():
    calls: list[int] = []
    got = run_split([1, 2, 3], lambda job: [(job, os.getpid(), tuple(calls))], lambda job: job == 2,
                    start=lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()]  # once, here (a call in the child would not show here anyway)
    here = {job: seen for job, pid, seen in got if pid == os.getpid()}
    there = {job: seen for job, pid, seen in got if pid != os.getpid()}
    assert here == {1: (os.getpid(),), 3: (os.getpid(),)} and there == {2: ()}


def test_without_fork_start_runs_first():
    calls: list[str] = []
    got = run_split([1, 2], lambda job: [(job, tuple(calls))], lambda job: True, fork=False, start=lambda: calls.append("start"))
    assert got == [(1, ("start",)), (2, ("start",))]


def test_when_fork_fails_everything_runs_here(monkeypatch):
    def refuse() -> int:
        raise OSError("no more processes")
    monkeypatch.setattr(os, "fork", refuse)
    got = run_split([1, 2], _pid_and, lambda job: job == 2)
    assert {pid for _value, pid in got} == {os.getpid()} and [v for v, _p in got] == [1, 10, 2, 20]


def test_the_two_process_run_finds_what_one_process_finds(monkeypatch):
    kb = load_knowledge_base(KB)
    one = check.run_checks(kb, KB)
    monkeypatch.setattr(check, "PARALLEL_UNITS", 0)
    two = check.run_checks(kb, KB)
    assert two == one  # findings, waivers, coverage matrix (the worker computes it), summary
    assert any(f.code in check.WORKER_CHECKS for f in two.findings)
    assert any(f.code not in check.WORKER_CHECKS for f in two.findings)
    assert any(f.code == "language.wrong-language" for f in two.findings)


def test_the_command_as_it_runs_on_the_whole_rules(tmp_path):
    """`rulekb check` as on the whole rules — the language model in a helper process, the
    checks in two processes — writes the report of a run on one core, and leaves no process
    behind."""
    kb = load_knowledge_base(KB)
    expected = to_json(check.run_checks(kb, KB), kb)
    out = tmp_path / "report.json"
    script = textwrap.dedent(f"""
        import os, sys
        import rulekb.validate as validate
        validate.PARALLEL_BYTES = 0  # the fixture is small: read it on two cores all the same
        import rulekb.check as check
        check.PARALLEL_UNITS = 0
        from rulekb.commands import main
        code = main(["--root", {str(KB)!r}, "check", "--format", "json", "--output", {str(out)!r}])
        try:
            os.waitpid(-1, os.WNOHANG)
            left = True
        except ChildProcessError:
            left = False
        print(code, left, "numpy" in sys.modules)
    """)
    assert run_fresh(script).split() == ["1", "False", "False"]  # exit 1; none left; no numpy
    assert out.read_text(encoding="utf-8") == expected
