"""Tests for rulekb.forking: a function's result comes back from a forked child; its failure
comes back as ChildFailed with the exception and its traceback."""

from __future__ import annotations

import os
from types import MappingProxyType

import pytest

from rulekb import forking
from rulekb.diagnostics import DataError, Problem

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is not available on this platform")


def test_the_result_comes_from_another_process():
    child = forking.fork(lambda: {"pid": os.getpid(), "names": MappingProxyType({"de": "Zurückverfolgen"})},
                         threads_ok=True)
    assert child is not None
    got = child.result()
    assert got["pid"] != os.getpid() and got["names"] == {"de": "Zurückverfolgen"}
    assert isinstance(got["names"], MappingProxyType)   # read-only mappings of the models survive


def test_an_exception_comes_back_with_its_traceback():
    def broken():
        raise DataError([Problem("rules/x.yaml", 3, 1, "bad", "fix it")])
    child = forking.fork(broken, threads_ok=True)
    with pytest.raises(forking.ChildFailed) as failed:
        child.result()
    assert isinstance(failed.value.exception, DataError)
    assert failed.value.exception.problems[0].file == "rules/x.yaml"
    assert "Traceback" in failed.value.trace and "in broken" in failed.value.trace


def test_an_exception_that_does_not_pickle_comes_back_as_its_traceback():
    class Local(Exception):
        pass

    def broken():
        raise Local("local class")
    with pytest.raises(forking.ChildFailed) as failed:
        forking.fork(broken, threads_ok=True).result()
    assert failed.value.exception is None and "Local: local class" in failed.value.trace


def test_a_child_that_dies_says_so():
    with pytest.raises(forking.ChildFailed, match="ended with exit code 3 and no result"):
        forking.fork(lambda: os._exit(3), threads_ok=True).result()


def test_a_cancelled_child_is_gone():
    import time
    child = forking.fork(lambda: time.sleep(60), threads_ok=True)
    child.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


def test_no_fork_where_the_process_cannot(monkeypatch):
    monkeypatch.delattr(os, "fork")
    assert forking.fork(lambda: 1) is None
