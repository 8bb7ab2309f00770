"""`rulekb serve` for the tests that read a served site (test_build, test_browser): the server of a
project's language on a free port, stopped with its whole process group (no server may outlive
its test), and a fetch that answers None while the server is not up."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def fetch(url: str) -> bytes | None:
    """The body at `url`, or None when nothing answers (yet)."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read()
    except OSError:
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def rulekb_serve(project: Path, lang: str, *, seconds: float = 120) -> Iterator[str]:
    """`rulekb --root PROJECT serve --lang LANG` on a free port; its base URL once its index page
    answers (a test fails with the server's output when it does not within `seconds`)."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rulekb", "--root", str(project), "serve", "--lang", lang,
                             "--dev-addr", f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + seconds
        while fetch(f"{url}/index.html") is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
        if fetch(f"{url}/index.html") is None:
            raise AssertionError("rulekb serve did not start: "
                                 + (proc.stdout.read() if proc.poll() is not None else "no answer"))
        yield url
    finally:  # the whole process group: no server may outlive the tests
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
