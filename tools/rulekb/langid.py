"""Language identification for the check stage (the `language` check family): py3langid's
model, in this process or in a helper process. Pipeline position: beside `check`; nothing here
reads the knowledge base.

The model needs numpy and takes about a second to load (numpy's import, then decompressing the
model py3langid ships xz-compressed). Two things keep that second off a check's critical path:

- the helper process: `rulekb check` forks it before it loads the knowledge base
  (`rulekb.commands.check`), so the model loads on the other core while this process reads the YAML (at a low priority when the model
  is in the cache: then its answer is needed after the reading and checking). The check sends
  it every sentence its pre-screen leaves, in one batch (`ask_helper`); the helper answers once
  and ends. This process never imports numpy. Where no helper runs — a library call of
  `run_checks` (the site build, the tests), no `os.fork`, other threads in the process — or the
  helper fails, the model loads in this process (`preload`, `identifier`): the same model, the
  same verdicts;
- the model cache: the decompressed model (~70 MB, the same arrays) is kept in `cache_dir()`
  (``$RULEKB_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulekb`` or ``~/.cache/rulekb``), named by
  py3langid's version and the model file's size, and loaded from there: the model then loads in
  ~0.15 s instead of ~0.65 s. It is derived data, made again when missing (``RULEKB_CACHE_DIR=``
  turns it off); it depends on no project, hence a per-user cache and not a project's
  ``build/`` (which the benchmark makes afresh each time).

Nothing happens at import, and the import is light (`os`, `sys`, `_thread`); everything else is
imported where it is needed.
"""

from __future__ import annotations

import _thread
import os
import sys

TYPE_CHECKING = False  # (typing itself is not imported: this module runs before anything else)
if TYPE_CHECKING:
    import threading
    from pathlib import Path
    from typing import Callable, Sequence

Verdicts = list  # of (language, probability), one per text, in order

HELPER_TIMEOUT = 120.0  # seconds to wait for the helper's verdicts before judging here instead
HELPER_NICENESS = 10    # with the cache, the helper's answer is needed last: reading and checking go first


# ------------------------------------------------------------------ the model


def new_identifier(make_cache: bool = False):  # type: ignore[no-untyped-def]
    """py3langid's identifier with normalised probabilities, from the decompressed copy in the
    cache when there is one, else from py3langid's own file (with `make_cache`, making that
    copy on the way: the helper process does, which removes a half-written copy when ended)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    cached = model_cache_file(MODEL_DIR / MODEL_FILE)
    if cached is not None and (make_cache or cached.is_file()):
        try:
            if not cached.is_file():
                _decompress(MODEL_DIR / MODEL_FILE, cached)
            return _from_decompressed(cached)
        except Exception:  # noqa: BLE001 - the cache only saves time: py3langid's own loading decides
            pass
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def cache_dir() -> Path | None:
    """Where rulekb keeps derived files that depend on no project: $RULEKB_CACHE_DIR (empty:
    none), else $XDG_CACHE_HOME/rulekb, else ~/.cache/rulekb."""
    from pathlib import Path
    configured = os.environ.get("RULEKB_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulekb"


def model_cache_file(model: Path) -> Path | None:
    """The decompressed copy of py3langid's model in the cache, named by py3langid's version and
    the model file's size (so that another model never reads this one's copy)."""
    folder = cache_dir()
    if folder is None:
        return None
    import py3langid
    try:
        size = model.stat().st_size
    except OSError:
        return None
    return folder / f"py3langid-{py3langid.__version__}-model-{size}.npz"


def _decompress(model: Path, target: Path) -> None:
    """Write the model's decompressed form (the .npz inside its .xz) to `target`, atomically."""
    import lzma

    from .files import write_atomic
    target.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(model) as src:
        write_atomic(target, iter(lambda: src.read(1 << 20), b""))


def _from_decompressed(path: Path):  # type: ignore[no-untyped-def]
    """The identifier as LanguageIdentifier.from_model_file builds it (py3langid.modelio.load_model
    after its decompression step), from the decompressed model."""
    import numpy as np
    from py3langid.langid import LanguageIdentifier
    from py3langid.modelio import _to_array
    with np.load(path, allow_pickle=False) as data:
        ptc, pc, classes = data["ptc"], data["pc"], data["classes"].tolist()
        nextmove, row, output = _to_array(data["nextmove"]), _to_array(data["nextmove_row"]), data["out_feat"].tolist()
    return LanguageIdentifier(np.asarray(ptc), np.asarray(pc), classes, nextmove, output, norm_probs=True, tk_row=row)


# ------------------------------------------------------------------ the model in this process


_lock = _thread.allocate_lock()
_model: dict[str, object] = {}
_loader: list[threading.Thread] = []


def _thread_count() -> int:
    """The threads of this process (1 where the threading module was never imported)."""
    threading = sys.modules.get("threading")
    return threading.active_count() if threading is not None else 1


def _background(target: Callable[[], None]) -> threading.Thread:
    import threading
    return threading.Thread(target=target, name="rulekb-langid", daemon=True)


def _load() -> None:
    identifier = new_identifier()
    with _lock:
        _model.setdefault("identifier", identifier)


def preload() -> None:
    """Start loading the model in a background thread (once per process; not while a helper
    process of this process loads it)."""
    with _lock:
        if _model or _loader or helper_of_this_process() is not None:
            return
        thread = _background(_load)
        _loader.append(thread)
    thread.start()


def wait_loaded() -> None:
    """Wait until the model is loaded in this process (loading it now if need be)."""
    with _lock:
        if not _model and not _loader:
            thread = _background(_load)
            _loader.append(thread)
            thread.start()
    if _loader:
        _loader[0].join()
    if "identifier" not in _model:  # the background load failed: load here, raising its error
        _load()


def settle() -> None:
    """Before forking: let a background load of the model finish (a forked child has no
    threads, and could find a lock of that thread held)."""
    if _loader and _loader[0].is_alive():
        _loader[0].join()


def identifier(languages: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The model of this process, restricted to `languages`."""
    wait_loaded()
    ident = _model["identifier"]
    key = ("languages",) + languages
    if _model.get("restricted") != key:
        ident.set_languages(list(languages))  # type: ignore[attr-defined]
        _model["restricted"] = key
    return ident


def classify_here(languages: tuple[str, ...], texts: Sequence[str]) -> Verdicts:
    ident = identifier(languages)
    return [ident.classify(text) for text in texts]  # type: ignore[attr-defined]


def classify(languages: tuple[str, ...], texts: Sequence[str]) -> Verdicts:
    """(language, probability) of each text: by the helper process where one runs, else here."""
    if not texts:
        return []
    verdicts = ask_helper(languages, texts)()
    return classify_here(languages, texts) if verdicts is None else verdicts


# ------------------------------------------------------------------ the helper process


class _Helper:
    """The helper process: its pid, the pipe its one request goes to, the pipe of its answer."""

    def __init__(self, pid: int, request: int, answer: int):
        self.pid = pid
        self.request = request
        self.answer = answer
        self.owner = os.getpid()  # a forked child of the owner must not use the pipes


_helpers: list[_Helper] = []


def helper_of_this_process() -> _Helper | None:
    return next((h for h in _helpers if h.owner == os.getpid()), None)


def _send(fd: int, payload: bytes) -> None:
    import struct
    data = memoryview(struct.pack(">Q", len(payload)) + payload)
    while data:
        data = data[os.write(fd, data):]


def _receive(fd: int, deadline: float | None = None) -> bytes | None:
    """One message (8-byte length, then the bytes); None at the end of the pipe or the deadline."""
    import select
    import struct
    import time
    chunks: list[bytes] = []
    need, size = 8, None
    while True:
        if deadline is not None:
            ready, _w, _x = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
        chunk = os.read(fd, min(need, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        need -= len(chunk)
        if need == 0:
            if size is not None:
                return b"".join(chunks)
            (size,) = struct.unpack(">Q", b"".join(chunks))
            chunks, need = [], size
            if size == 0:
                return b""


def _serve(request: int, answer: int) -> None:
    """The helper's work: load the model while a thread reads the request, judge, answer."""
    import pickle
    received: list[bytes | None] = []
    reader = _background(lambda: received.append(_receive(request)))
    reader.start()  # the request is read while the model loads: the sender never waits on a full pipe
    os.environ["OPENBLAS_NUM_THREADS"] = "1"  # numpy's own threads would take the other core
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    cached = model_cache_file(MODEL_DIR / MODEL_FILE)
    if cached is not None and cached.is_file():
        try:  # a quick load: it can wait for the reading and checking; a slow one (no cache yet) cannot
            os.nice(HELPER_NICENESS)
        except OSError:
            pass
    ident = new_identifier(make_cache=True)
    reader.join()
    if not received or received[0] is None:
        return  # nothing was asked
    languages, texts = pickle.loads(received[0])
    ident.set_languages(list(languages))
    _send(answer, pickle.dumps([ident.classify(text) for text in texts], protocol=pickle.HIGHEST_PROTOCOL))


def start_helper() -> bool:
    """Fork the helper process that loads the model (once per process); False where none can
    run: no os.fork, other threads in this process, or the model already loaded here."""
    if helper_of_this_process() is not None:
        return True
    if not hasattr(os, "fork") or _thread_count() > 1 or _model or _loader:
        return False
    request_read, request_write = os.pipe()
    answer_read, answer_write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (request_read, request_write, answer_read, answer_write):
            os.close(fd)
        return False
    if pid == 0:  # the helper: never returns, never runs the cleanup of the process it was forked from
        status = 1
        try:
            import signal
            signal.signal(signal.SIGTERM, signal.default_int_handler)  # ended (stop_helper): clean up, e.g. a half-written cache file
            os.close(request_write)
            os.close(answer_read)
            _serve(request_read, answer_write)
            status = 0
        finally:
            os._exit(status)
    os.close(request_read)
    os.close(answer_write)
    _helpers.append(_Helper(pid, request_write, answer_read))
    return True


def stop_helper() -> None:
    """End and collect this process's helper (at once: what it has not answered is not needed).
    It is asked to end (SIGTERM: it removes a cache file it was writing), and killed if it has
    not after a while."""
    import signal
    import time
    helper = helper_of_this_process()
    if helper is None:
        return
    _helpers.remove(helper)
    for fd in (helper.request, helper.answer):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        os.kill(helper.pid, signal.SIGTERM)
        deadline = time.monotonic() + 5.0
        while os.waitpid(helper.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(helper.pid, signal.SIGKILL)
                os.waitpid(helper.pid, 0)
                break
            time.sleep(0.002)
    except (ProcessLookupError, ChildProcessError):
        pass


class model_helper:  # noqa: N801 - used as a context manager, like contextlib's
    """``with model_helper(start) as running:`` runs the block with the model loading in a helper
    process (when `start` and one can run), and ends
    the helper afterwards, used or not. `running`: whether a helper runs."""

    def __init__(self, start: bool = True):
        self.start = start

    def __enter__(self) -> bool:
        if not self.start:
            stop_helper()  # one started before, for a profile without the language check
        self.running = self.start and start_helper()
        return self.running

    def __exit__(self, *exc: object) -> None:
        if self.running:
            stop_helper()


def ask_helper(languages: tuple[str, ...], texts: Sequence[str]) -> Callable[[], Verdicts | None]:
    """Send `texts` to this process's helper; returns the function that waits for its verdicts
    (None without a working helper). The helper answers once and is ended afterwards."""
    import pickle
    import time
    helper = helper_of_this_process()
    if helper is None:
        return lambda: None
    try:
        _send(helper.request, pickle.dumps((languages, list(texts)), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        stop_helper()
        return lambda: None

    def receive() -> Verdicts | None:
        try:
            payload = _receive(helper.answer, time.monotonic() + HELPER_TIMEOUT)
            verdicts = pickle.loads(payload) if payload else None
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
            verdicts = None
        finally:
            stop_helper()
        return verdicts if isinstance(verdicts, list) and len(verdicts) == len(texts) else None

    return receive
