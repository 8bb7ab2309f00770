"""langid: py3langid's model in a helper process or in this process (the same verdicts either way,
no process left behind, a failed helper falls back to this process), and the model cache."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import threading

import pytest

from conftest import run_fresh
from rulekb import langid

LANGUAGES = ("en", "de", "fr")
SENTENCES = [
    "Note that some effects target a creature and those effects would still require a legal target",
    "Der aktive Spieler hat Vorrang, nachdem der Zauberspruch verrechnet wurde",
    "Le joueur actif a la priorité après la résolution du sort",
]

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is not available on this platform")


@pytest.fixture(scope="module")
def reference():
    """The verdicts of py3langid's own loading (LanguageIdentifier.from_model_file)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier
    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ident.set_languages(list(LANGUAGES))
    return [ident.classify(text) for text in SENTENCES]


_PRELUDE = """
import json, os, signal, sys
from rulekb import langid

def gone(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False
"""


def _fresh_process(code: str) -> dict:
    """Run `code` in a new Python process (as `rulekb check` starts: one thread, no model loaded;
    a test process may run other threads, from which no helper is forked) and return the JSON
    it prints."""
    return json.loads(run_fresh(textwrap.dedent(_PRELUDE) + textwrap.dedent(code)))


def test_the_helper_judges_as_this_process_would(reference):
    got = _fresh_process(f"""
        started = langid.start_helper()
        pid = langid.helper_of_this_process().pid
        verdicts = langid.classify({LANGUAGES!r}, {SENTENCES!r})
        print(json.dumps({{"started": started, "verdicts": verdicts, "gone": gone(pid),
                          "left": langid.helper_of_this_process() is not None,
                          "numpy here": "numpy" in sys.modules, "model here": bool(langid._model)}}))
    """)
    assert got["started"] and got["gone"] and not got["left"]  # it answers once and is collected
    assert not got["numpy here"] and not got["model here"]  # numpy and the model stayed in the helper
    assert [tuple(v) for v in got["verdicts"]] == reference


def test_a_failed_helper_falls_back_to_this_process(reference):
    got = _fresh_process(f"""
        langid.start_helper()
        pid = langid.helper_of_this_process().pid
        os.kill(pid, signal.SIGKILL)
        verdicts = langid.classify({LANGUAGES!r}, {SENTENCES!r})
        print(json.dumps({{"verdicts": verdicts, "gone": gone(pid), "model here": bool(langid._model)}}))
    """)
    assert got["gone"] and got["model here"]
    assert [tuple(v) for v in got["verdicts"]] == reference


def test_model_helper_ends_an_unused_helper():
    got = _fresh_process(f"""
        langid.start_helper()
        first = langid.helper_of_this_process().pid
        with langid.model_helper(start=False) as running:  # e.g. a profile without the language check
            ended = not running and langid.helper_of_this_process() is None
        with langid.model_helper() as running:
            second = langid.helper_of_this_process().pid
        print(json.dumps({{"ended": ended, "first gone": gone(first), "running": running,
                          "second gone": gone(second), "left": langid.helper_of_this_process() is not None}}))
    """)
    assert got == {"ended": True, "first gone": True, "running": True, "second gone": True, "left": False}


def test_a_forked_child_does_not_use_its_parents_helper():
    got = _fresh_process("""
        langid.start_helper()
        pid = os.fork()
        if pid == 0:
            os._exit(0 if langid.helper_of_this_process() is None else 1)
        _pid, status = os.waitpid(pid, 0)
        print(json.dumps({"child saw none": status == 0, "parent has it": langid.helper_of_this_process() is not None}))
        langid.stop_helper()
    """)
    assert got == {"child saw none": True, "parent has it": True}


def test_no_helper_is_forked_from_a_process_with_other_threads(monkeypatch):
    monkeypatch.setattr(langid, "_model", {})
    monkeypatch.setattr(langid, "_loader", [])
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not langid.start_helper() and langid.helper_of_this_process() is None
    finally:
        stop.set()
        thread.join()


def test_the_cache_holds_the_decompressed_model(tmp_path, monkeypatch, reference):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    target = langid.model_cache_file(MODEL_DIR / MODEL_FILE)
    assert target is not None and target.parent == tmp_path / "cache" and not target.exists()
    langid.new_identifier()  # in this process: the cache is read, not made
    assert not target.exists()
    ident = langid.new_identifier(make_cache=True)  # as the helper process: makes the cache file on the way
    assert target.is_file() and target.stat().st_size > (MODEL_DIR / MODEL_FILE).stat().st_size
    assert [p.name for p in target.parent.iterdir()] == [target.name]  # no temporary file left
    ident.set_languages(list(LANGUAGES))
    assert [ident.classify(text) for text in SENTENCES] == reference
    again = langid.new_identifier()  # from the cache
    again.set_languages(list(LANGUAGES))
    assert [again.classify(text) for text in SENTENCES] == reference


def test_a_broken_cache_file_is_not_used(tmp_path, monkeypatch, reference):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path))
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    target = langid.model_cache_file(MODEL_DIR / MODEL_FILE)
    target.write_bytes(b"not a model")
    ident = langid.new_identifier(make_cache=True)
    ident.set_languages(list(LANGUAGES))
    assert [ident.classify(text) for text in SENTENCES] == reference


@pytest.mark.parametrize("env, expected", [
    ({"RULEKB_CACHE_DIR": ""}, None),
    ({"RULEKB_CACHE_DIR": "/x/y"}, "/x/y"),
    ({"XDG_CACHE_HOME": "/c"}, "/c/rulekb"),
    ({"HOME": "/h"}, "/h/.cache/rulekb"),
])
def test_cache_dir(monkeypatch, env, expected):
    for name in ("RULEKB_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found = langid.cache_dir()
    assert (None if found is None else found.as_posix()) == expected
