"""Shared fixtures: paths of the project, of the reference material and of the fixture trees."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared"


def data_copy(dest: Path) -> Path:
    """The project's data (rules/, translations/) in a scratch folder."""
    for folder in ("rules", "translations"):
        shutil.copytree(ROOT / folder, dest / folder)
    return dest


def rules_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under root/rules: compare two to prove that nothing changed."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "rules").rglob("*")) if p.is_file()}


@pytest.fixture
def valid_tree(tmp_path: Path) -> Path:
    """A writable copy of the tiny valid project tree tests/data/kb/valid."""
    dest = tmp_path / "kb"
    shutil.copytree(DATA / "kb" / "valid", dest)
    return dest


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "seeds").is_dir():
        if os.environ.get("CI"):  # CI lays shared/ beside the clone: its absence is a failure there
            pytest.fail(f"reference material not found at {SHARED}")
        pytest.skip(f"reference material not found at {SHARED}")
    return SHARED


def run_fresh(code: str, *args: str, timeout: float = 120) -> str:
    """Run Python `code` in a new process with the project's package importable (as `rulekb`
    starts: one thread, nothing loaded; the test process may run other threads, from which
    nothing forks) and return what it printed; fails the test when it does not exit 0."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tools"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          env=env, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
