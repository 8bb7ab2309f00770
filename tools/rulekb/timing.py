"""Where a build's processor time goes: `Clock` adds up the processor seconds of named parts
(`Part`) of the pipeline (load -> validate -> link -> check -> render -> report) and of the
build around it. Not a stage itself: `build`, `render` and the mkdocs plugin call it around
their parts, and `make bench` compares the parts with mkdocs' own time on the same pages.

Processor time, not wall-clock time, because the build runs its parts side by side in several
processes: a part done in a child process is measured there and added here (`Clock.add`).
"""

from __future__ import annotations

import enum
import os
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Mapping


class Part(enum.Enum):
    """The parts of a build, in pipeline order; the value is what the bench prints."""
    LOAD = "load and validate"
    LINK = "link"
    PAGES = "render the pages"
    HANDOVER = "hand the pages to mkdocs"
    HOOKS = "rulekb plugin hooks"
    QA = "QA of the status pages"
    API = "render the JSON API"
    NUMBERS = "rule-number pages (n/)"
    SEARCH = "search index"
    ARCHIVE = "offline archive"
    ASSEMBLE = "assemble the site"


# The pipeline that makes the pages mkdocs builds: the "pipeline overhead" on the same pages.
# The other parts make other products of the build (the QA report behind the status pages, the
# JSON API, the rule-number pages n/, the search index, the offline archive) or put the site folder together.
PAGE_PIPELINE = (Part.LOAD, Part.LINK, Part.PAGES, Part.HANDOVER, Part.HOOKS)


def process_seconds() -> float:
    """Processor time of this process (user + system)."""
    return time.process_time()


def process_and_children_seconds() -> float:
    """Processor time of this process and of the child processes it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Clock:
    """Processor seconds per part. Not shared between processes: a child's figure is sent back
    with its result and added."""

    def __init__(self) -> None:
        self._seconds: dict[Part, float] = {}

    @contextmanager
    def part(self, part: Part, timer: Callable[[], float] = process_seconds) -> Iterator[None]:
        """Time the block as `part`. With `timer=process_and_children_seconds` the child
        processes the block started and waited for count too."""
        start = timer()
        try:
            yield
        finally:
            self.add(part, timer() - start)

    def add(self, part: Part, seconds: float) -> None:
        self._seconds[part] = self._seconds.get(part, 0.0) + seconds

    def seconds(self) -> Mapping[Part, float]:
        """Every part (0 when it did not run), in pipeline order."""
        return {part: self._seconds.get(part, 0.0) for part in Part}


@contextmanager
def maybe(clock: Clock | None, part: Part, timer: Callable[[], float] = process_seconds) -> Iterator[None]:
    """`clock.part(part, timer)`, or nothing without a clock."""
    if clock is None:
        yield
    else:
        with clock.part(part, timer):
            yield
