"""Helpers of the report tests: the QA fixture project (tests/data/qa/kb), its checked result,
and the golden files under tests/golden/check (RULEKB_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from conftest import DATA
from rulekb.check import CheckResult, run_checks
from rulekb.models import KnowledgeBase
from rulekb.knowledge import load_knowledge_base

KB = DATA / "qa" / "kb"
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "check"


@functools.lru_cache(maxsize=None)
def checked() -> tuple[KnowledgeBase, CheckResult]:
    """The fixture project and the result of its full check (made once per session)."""
    kb = load_knowledge_base(KB)
    return kb, run_checks(kb, KB)


def golden(name: str, text: str) -> None:
    """`text` is the golden file `name` (rewritten instead with RULEKB_UPDATE_GOLDEN=1)."""
    path = GOLDEN / name
    if os.environ.get("RULEKB_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.is_file(), f"{path} is missing: run the tests with RULEKB_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file (RULEKB_UPDATE_GOLDEN=1 updates it)"
