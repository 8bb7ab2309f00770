"""Shared fixtures: paths of the project, of the reference material and of the fixture trees."""

from __future__ import annotations

import atexit
import errno
import functools
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared"
# the official releases of ../shared/data/comprehensive-rules/ (the `full` fixture imports them)
RELEASES = ("2009-07-11", "2011-05-01", "2018-01-19", "2026-01-16")


# The seed content: the curated rules, cards and rulings (rules/ before the archive was imported),
# a fixture tree of its own, so that the tests of the code do not grow with the project's data.
SEED = DATA / "seed"
# what a project tree needs besides rules/ to be loaded (translations/) and built (content/, mkdocs.yml):
# the project's own, which do not grow with the data
PROJECT_FILES = ("translations", "content", "mkdocs.yml")


def data_copy(dest: Path) -> Path:
    """A writable project in a scratch folder: the seed content (tests/data/seed/rules) with the
    project's translations/, content/ and mkdocs.yml: it loads, checks and builds as the project does."""
    shutil.copytree(SEED / "rules", dest / "rules")
    for name in PROJECT_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name)
        else:
            shutil.copy(ROOT / name, dest / name)
    return dest


_SEED_PROJECT: list[Path] = []


def seed_project() -> Path:
    """The seed project (see data_copy), made once per test process in a temporary folder that is
    removed at exit; read it, never write into it. For collection time (parametrizing over the seed's
    texts); tests take the `seed` fixture."""
    if not _SEED_PROJECT:
        base = Path(tempfile.mkdtemp(prefix="rulekb-seed-"))
        atexit.register(shutil.rmtree, base, ignore_errors=True)
        _SEED_PROJECT.append(data_copy(base / "project"))
    return _SEED_PROJECT[0]


@pytest.fixture(scope="session")
def seed() -> Path:
    """The seed project (see data_copy), made once per session: read it, never write into it."""
    return seed_project()


@pytest.fixture(scope="session")
def complete():
    """The repository's own data as committed (ROOT: every imported rules release), loaded once per
    session: only for the tests meant to run on the complete data."""
    from rulekb.knowledge import load_knowledge_base
    return ROOT, load_knowledge_base(ROOT)


def rules_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under root/rules: compare two to prove that nothing changed."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "rules").rglob("*")) if p.is_file()}

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden(name: str, text: str) -> None:
    """`text` is the golden file tests/golden/`name` (rewritten instead with RULEKB_UPDATE_GOLDEN=1)."""
    path = GOLDEN / name
    if os.environ.get("RULEKB_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.is_file(), f"{path} is missing: run the tests with RULEKB_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file (RULEKB_UPDATE_GOLDEN=1 updates it)"


def disk_fills_at(monkeypatch: pytest.MonkeyPatch, flush: int) -> list[int]:
    """Make the `flush`-th flush to the disk of rulekb.files fail as a full disk does (ENOSPC);
    the list collects every flush. Tests run as root, which no read-only folder stops."""
    from rulekb import files
    synced: list[int] = []

    def fills_up(fd: int) -> None:
        synced.append(fd)
        if len(synced) == flush:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "fsync", fills_up)
    return synced


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


def release_file(shared: Path, date: str) -> Path:
    return shared / "data" / "comprehensive-rules" / f"MagicCompRules-{date}.txt"


@pytest.fixture(scope="session")
def full(tmp_path_factory, shared):
    """The project's data with the four official releases imported (in one run, oldest first)."""
    from rulekb.importers.cr import import_releases
    from rulekb.knowledge import load_knowledge_base
    root = data_copy(tmp_path_factory.mktemp("fullcr"))
    before = load_knowledge_base(root)
    result = import_releases(root, [release_file(shared, d) for d in reversed(RELEASES)])
    return root, before, load_knowledge_base(root), result


ARCHIVE = SHARED / "data" / "comprehensive-rules" / "archive"


def archive_names() -> list[str]:
    """The file names of the archive of every official release (2003-03-15.txt …), [] without it."""
    return sorted(p.name for p in ARCHIVE.glob("*.txt")) if ARCHIVE.is_dir() else []


def archive_file(shared: Path, date: str) -> Path:
    """A release of the archive of every official release (../shared/data/comprehensive-rules/archive/)."""
    return shared / "data" / "comprehensive-rules" / "archive" / f"{date}.txt"


@pytest.fixture(scope="session")
def recent(tmp_path_factory, shared):
    """The project's data with the releases 2025-11-14 (from the archive) and 2026-01-16 imported
    (in one run): the knowledge base of the last two releases, without the older ones."""
    from rulekb.importers.cr import import_releases
    from rulekb.knowledge import load_knowledge_base
    root = data_copy(tmp_path_factory.mktemp("recentcr"))
    import_releases(root, [release_file(shared, "2026-01-16"), archive_file(shared, "2025-11-14")])
    return root, load_knowledge_base(root)


NUMBERED = re.compile(r"^\s*(?P<number>[1-9][0-9]{2}\.\s?[1-9][0-9]{0,2}[a-z]?|[1-9][0-9]{2})\.? (?P<text>\S.*)$")


def official_lines(path: Path) -> tuple[list[tuple[str, str, list[str]]], list[tuple[str, str]]]:
    """Read a release independently of the importer: the numbered lines of the rules (number,
    text, the unnumbered lines after it) and the glossary (term, definition)."""
    data = path.read_bytes()
    text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    first_rule = next(i for i, line in enumerate(lines) if re.match(r"^100\.1\.? ", line))
    start = max(i for i in range(first_rule) if lines[i].startswith("100. "))
    glossary = next(i for i in range(start, len(lines)) if lines[i] == "Glossary")
    credits = next(i for i in range(glossary, len(lines)) if lines[i] == "Credits")
    numbered: list[tuple[str, str, list[str]]] = []
    for line in lines[start:glossary]:
        if not line.strip() or re.match(r"^[1-9]\. ", line):
            continue
        m = NUMBERED.match(line)
        if m:
            numbered.append((m["number"].replace(" ", ""), m["text"], []))
        else:
            numbered[-1][2].append(line.strip())
    terms = []
    block: list[str] = []
    for line in lines[glossary + 1:credits] + [""]:
        if line.strip():
            block.append(line.strip())
        elif block:
            terms.append((block[0], "\n".join(block[1:])))
            block = []
    return numbered, terms


# ---------------------------------------------------------------- the browser tests' session fixtures
# (test_browser, test_browser_phone: one Playwright and one seed site per session; their helpers: browsing.py)


@pytest.fixture(scope="session")
def browser():
    from browsing import missing_browser, unavailable
    reason = missing_browser()
    if reason:
        unavailable(reason)
    from playwright.sync_api import sync_playwright
    from browsing import ARGS, CHROMIUM

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    import sitebuild
    return sitebuild.built_site(tmp_path_factory)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="session")
def server(built):
    handler = functools.partial(_Quiet, directory=str(built.site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def axe_source() -> str:
    from browsing import AXE, unavailable
    if not AXE.is_file():
        unavailable(f"no axe-core at {AXE}: npm install --prefix build/axe axe-core (see .ci/run)")
    return AXE.read_text(encoding="utf-8")


