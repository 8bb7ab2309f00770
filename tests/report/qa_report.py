"""Helpers of the report tests: the QA fixture project (tests/data/qa/kb), its checked result,
and the golden files under tests/golden/check (RULEKB_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

from conftest import golden as conftest_golden

import functools

from conftest import DATA
from rulekb.check import CheckResult
from rulekb.check.driver import run_checks
from rulekb.models import KnowledgeBase
from rulekb.knowledge import load_knowledge_base

KB = DATA / "qa" / "kb"


@functools.lru_cache(maxsize=None)
def checked() -> tuple[KnowledgeBase, CheckResult]:
    """The fixture project and the result of its full check (made once per session)."""
    kb = load_knowledge_base(KB)
    return kb, run_checks(kb, KB)


def golden(name: str, text: str) -> None:
    conftest_golden("check/" + name, text)
