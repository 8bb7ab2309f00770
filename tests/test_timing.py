"""Tests for rulekb.timing: processor time per part of a build."""

from __future__ import annotations

import os
import time

import pytest

from rulekb.timing import Clock, Part, maybe, process_and_children_seconds


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_part_counts_the_processor_time_of_its_block():
    clock = Clock()
    with clock.part(Part.PAGES):
        spin(0.05)
    with clock.part(Part.PAGES):
        spin(0.05)
    with clock.part(Part.API):
        pass
    seconds = clock.seconds()
    assert 0.1 <= seconds[Part.PAGES] < 0.5
    assert seconds[Part.API] < 0.05
    assert list(seconds) == list(Part)   # every part, in pipeline order
    assert seconds[Part.ARCHIVE] == 0.0


def test_sleeping_is_not_processor_time():
    clock = Clock()
    with clock.part(Part.QA):
        time.sleep(0.1)
    assert clock.seconds()[Part.QA] < 0.05


def test_a_part_is_counted_when_its_block_raises():
    clock = Clock()
    with pytest.raises(KeyError):
        with clock.part(Part.LINK):
            spin(0.02)
            raise KeyError("x")
    assert clock.seconds()[Part.LINK] >= 0.02


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_children_count_with_the_children_timer():
    clock = Clock()
    # the child spins 0.5 s; the parent's own share is the fork, which grows with the parent's memory
    # (a test process holding a built site forks in ~0.05 s): far below the child's, whatever the host
    with clock.part(Part.LOAD, timer=process_and_children_seconds):
        pid = os.fork()
        if pid == 0:
            spin(0.5)
            os._exit(0)
        os.waitpid(pid, 0)
    with clock.part(Part.LINK):
        pid = os.fork()
        if pid == 0:
            spin(0.5)
            os._exit(0)
        os.waitpid(pid, 0)
    seconds = clock.seconds()
    assert seconds[Part.LOAD] >= 0.48   # os.times() counts in clock ticks
    assert seconds[Part.LINK] < 0.25


def test_maybe_without_a_clock_does_nothing_and_with_one_counts():
    with maybe(None, Part.PAGES):
        pass
    clock = Clock()
    with maybe(clock, Part.PAGES):
        spin(0.02)
    assert clock.seconds()[Part.PAGES] >= 0.02

