"""Language identification for the check stage (the `language` check family): py3langid's
model, through its public API only. Pipeline position: beside `check`; nothing here reads the
knowledge base.

The model needs numpy and takes a while to load: numpy's import, then decompressing the model
py3langid ships xz-compressed (about a second). So it is loaded once per process, the first
time a check asks (`identifier`), and kept in the model cache:

- the model cache: the identifier's arrays, as `LanguageIdentifier` exposes them (its public
  attributes ``nb_ptc``, ``nb_pc``, ``nb_classes``, ``tk_nextmove``, ``tk_output``, ``tk_row``),
  saved uncompressed with numpy's public ``savez``/``load`` in the ``language-model`` cache
  (`cache.store`: under ``$RULEKB_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulekb`` or
  ``~/.cache/rulekb``, in the folder of the code's key), named by py3langid's version and its
  model file's size; the identifier is then built from them with
  its public constructor, in ~0.2 s instead of ~1 s. It is derived data, made again when
  missing or unreadable (``RULEKB_CACHE_DIR=`` turns it off); it depends on no project, hence a
  per-user cache and not a project's ``build/``. Delete the file to clear it.

When the checks run in several processes, the model loads in each process that
runs the language checks. Nothing happens at import; numpy is imported when the model loads.
"""

from __future__ import annotations

import array
import functools
from pathlib import Path
from typing import Sequence

from . import cache
from .files import WriteError, write_atomic

Verdicts = list  # of (language, probability), one per text, in order

CACHE_FORMAT = "identifier-1"   # the layout of the cached arrays (below); another layout, another file name


@functools.cache
def model_version() -> str:
    """py3langid's version (its model's), from the installed package's metadata: neither the
    model nor numpy is loaded. What a verdict was made by."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("py3langid")
    except PackageNotFoundError:
        return "unknown"


def model_cache_file(model: Path) -> Path | None:
    """The model's arrays in the cache, named by py3langid's version, the model file's size and
    the layout (so that another model never reads this one's copy)."""
    store = cache.store("language-model")
    if store is None:
        return None
    import py3langid
    try:
        size = model.stat().st_size
    except OSError:
        return None
    return store.folder / f"py3langid-{py3langid.__version__}-model-{size}-{CACHE_FORMAT}.npz"


def new_identifier():  # type: ignore[no-untyped-def]
    """py3langid's identifier with normalised probabilities: from the cache when it holds the
    model, else from py3langid's own file (then saved to the cache on the way)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    cached = model_cache_file(MODEL_DIR / MODEL_FILE)
    if cached is not None and cached.is_file():
        try:
            return _load(cached)
        except Exception:  # noqa: BLE001 - the cache only saves time: py3langid's own loading decides
            pass
    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    if cached is not None:
        try:
            _save(ident, cached)
        except (OSError, WriteError):
            pass   # a cache that cannot be written only costs time
    return ident


def _save(ident, target: Path) -> None:  # type: ignore[no-untyped-def]
    """The identifier's public arrays, uncompressed, to `target` (atomically: a reader sees the
    old file or the new one)."""
    import io

    import numpy as np
    buffer = io.BytesIO()
    np.savez(buffer, ptc=np.asarray(ident.nb_ptc), pc=np.asarray(ident.nb_pc), classes=np.array(ident.nb_classes),
             nextmove=np.asarray(ident.tk_nextmove), nextmove_type=np.array(ident.tk_nextmove.typecode),
             row=np.asarray(ident.tk_row), row_type=np.array(ident.tk_row.typecode),
             output=np.asarray(ident.tk_output, dtype=np.int64))
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, buffer.getvalue(), if_changed=False)


def _as_array(values, typecode: str) -> array.array:  # type: ignore[no-untyped-def]
    """A numpy array's items as the standard library's array of `typecode` (what py3langid's
    identifier walks), copied from its bytes."""
    out = array.array(typecode)
    if values.dtype.itemsize != out.itemsize:
        raise ValueError(f"the cached model's arrays are not of type '{typecode}'")
    out.frombytes(memoryview(values).cast("B"))
    return out


def _load(path: Path):  # type: ignore[no-untyped-def]
    import numpy as np
    from py3langid.langid import LanguageIdentifier
    with np.load(path, allow_pickle=False) as data:
        nextmove = _as_array(data["nextmove"], str(data["nextmove_type"]))
        row = _as_array(data["row"], str(data["row_type"]))
        return LanguageIdentifier(data["ptc"], data["pc"], data["classes"].tolist(), nextmove,
                                  data["output"].tolist(), norm_probs=True, tk_row=row)


@functools.lru_cache(maxsize=1)
def _identifier_of(languages: tuple[str, ...]):  # type: ignore[no-untyped-def]
    ident = new_identifier()
    ident.set_languages(list(languages))
    return ident


def identifier(languages: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The model of this process restricted to `languages` (loaded on the first call)."""
    return _identifier_of(tuple(languages))


def classify(languages: tuple[str, ...], texts: Sequence[str]) -> Verdicts:
    """(language, probability) of each text, among `languages`."""
    if not texts:
        return []
    ident = identifier(languages)
    return [ident.classify(text) for text in texts]
