"""The standard pool (`rulekb.pool`): results in order, errors raised here, nothing inherited,
and no worker outlives its parent, however the parent ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rulekb import pool


def _pid_and_square(n: int) -> tuple[int, int]:
    return os.getpid(), n * n


def _broken(n: int) -> int:
    raise LookupError(f"no card {n}")


def test_the_results_come_in_the_order_of_the_items_from_other_processes():
    got = pool.map_in_processes(_pid_and_square, range(6), processes=2)
    assert [square for _pid, square in got] == [0, 1, 4, 9, 16, 25]
    assert os.getpid() not in {pid for pid, _square in got}


@pytest.mark.parametrize("processes, items", [(1, range(3)), (4, [7])])
def test_one_process_or_one_item_runs_here(processes, items):
    got = pool.map_in_processes(_pid_and_square, items, processes=processes)
    assert {pid for pid, _square in got} == {os.getpid()}


def test_an_exception_of_a_call_is_raised_here():
    with pytest.raises(LookupError, match="no card 2"):
        pool.map_in_processes(_broken, [2, 3], processes=2)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is ended, only not yet collected by its new parent
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


PARENT = textwrap.dedent("""
    import os, sys, time
    from rulekb import pool

    def work(path):
        with open(path, "a") as out:
            out.write(f"{os.getpid()}\\n")
        time.sleep(600)

    if __name__ == "__main__":
        with pool.executor(2) as workers:
            list(workers.map(work, [sys.argv[1], sys.argv[1]]))
""")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see which processes live")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_no_worker_outlives_its_parent(tmp_path, how):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    pids = tmp_path / "workers"
    parent = subprocess.Popen([sys.executable, str(script), str(pids)], start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.05)
            workers = [int(line) for line in pids.read_text().split()] if pids.exists() else []
        assert len(workers) == 2, "the workers did not start"
        parent.send_signal(how)
        parent.wait(timeout=60)
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if parent.poll() is None:
            parent.kill()
            parent.wait()
