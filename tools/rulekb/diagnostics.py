"""Diagnostics shared by every pipeline stage: a `Problem` names file, line, column, what is
wrong and how to fix it; `DataError` carries all problems of one run so that a user sees
every error at once (exit code 2), never a traceback.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    column: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: error: {self.message}"
        if self.hint:
            text += f"\n    fix: {self.hint}"
        return text


class DataError(Exception):
    """The knowledge base did not load. `problems` are sorted by file and position."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        """Pickled with its problems (an error of a worker process is raised again in the build)."""
        return type(self), (self.problems,)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A "did you mean 'x'?" phrase for the closest choice, or "" when nothing is close."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
