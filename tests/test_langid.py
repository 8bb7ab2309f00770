"""langid: py3langid's model through its public API — the verdicts of py3langid's own loading,
from the model cache as from py3langid's file; the cache made atomically, a broken one ignored;
where the cache lives."""

from __future__ import annotations

import pytest

from rulekb import cache, langid

LANGUAGES = ("en", "de", "fr")
SENTENCES = [
    "Note that some effects target a creature and those effects would still require a legal target",
    "Der aktive Spieler hat Vorrang, nachdem der Zauberspruch verrechnet wurde",
    "Le joueur actif a la priorité après la résolution du sort",
]


@pytest.fixture(scope="module")
def reference():
    """The verdicts of py3langid's own loading (LanguageIdentifier.from_model_file)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier
    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ident.set_languages(list(LANGUAGES))
    return [ident.classify(text) for text in SENTENCES]


def _verdicts(ident) -> list:
    ident.set_languages(list(LANGUAGES))
    return [ident.classify(text) for text in SENTENCES]


def test_classify_gives_the_verdicts_of_py3langid(reference):
    assert langid.classify(LANGUAGES, SENTENCES) == reference
    assert [lang for lang, _p in reference] == ["en", "de", "fr"]
    assert langid.classify(LANGUAGES, []) == []


def test_the_cache_is_made_on_the_first_load_and_read_afterwards(tmp_path, monkeypatch, reference):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    target = langid.model_cache_file(MODEL_DIR / MODEL_FILE)
    assert target is not None and target.parent == cache.store("language-model").folder and not target.exists()
    assert _verdicts(langid.new_identifier()) == reference            # from py3langid's file …
    assert target.is_file() and target.stat().st_size > (MODEL_DIR / MODEL_FILE).stat().st_size   # … saved uncompressed
    assert [p.name for p in target.parent.iterdir()] == [target.name]   # no temporary file left
    made = target.stat().st_mtime_ns
    assert _verdicts(langid.new_identifier()) == reference            # from the cache
    assert target.stat().st_mtime_ns == made


def test_a_broken_cache_file_is_not_used(tmp_path, monkeypatch, reference):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path))
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    target = langid.model_cache_file(MODEL_DIR / MODEL_FILE)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a model")
    assert _verdicts(langid.new_identifier()) == reference


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch, reference):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(blocker / "rulekb"))
    assert _verdicts(langid.new_identifier()) == reference


def test_without_a_cache_dir_nothing_is_written(tmp_path, monkeypatch, reference):
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert _verdicts(langid.new_identifier()) == reference
    assert list(tmp_path.iterdir()) == []
