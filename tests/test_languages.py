"""Tests for rulekb.languages: `rulekb lang add CODE` registers a language, and the loader and
the PO round trip pick it up; on a writable copy of the project's data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from conftest import ROOT, SEED
from rulekb.commands import main
from rulekb.languages import LanguageError, language_for
from rulekb.models import SOURCE_LANGUAGE, Language, Status, english_hash
from rulekb.knowledge import load_knowledge_base

LANGUAGES = "translations/languages.yaml"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(SEED / "rules", root / "rules")
    shutil.copytree(ROOT / "translations", root / "translations", ignore=shutil.ignore_patterns("*.po"))
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")   # validate checks the site's configuration too
    return root


def run(capsys, root: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--root", str(root), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_lang_add_registers_italian_and_keeps_the_file(capsys, project: Path):
    old = (project / LANGUAGES).read_text(encoding="utf-8")
    code, out, err = run(capsys, project, "lang", "add", "it")
    assert code == 0, err
    new = (project / LANGUAGES).read_text(encoding="utf-8")
    assert new.startswith(old)  # comments and entries untouched; the new entry ends the list
    assert new[len(old):] == "  - code: it\n    name: Italiano\n    english_name: Italian\n    locale: it_IT\n"
    kb = load_knowledge_base(project)
    assert kb.languages[-1] == Language("it", "Italiano", "Italian", "it_IT")
    assert "it" in kb.target_languages
    assert f"{LANGUAGES}:{old.count(chr(10)) + 1}" in out and "rulekb po export it" in out
    code, out, _ = run(capsys, project, "validate")
    assert code == 0 and f"(0 of {len(kb.units())} units, Italian)" in out


def test_new_language_is_exported_and_imported(capsys, project: Path, tmp_path: Path):
    assert run(capsys, project, "lang", "add", "it")[0] == 0
    code, out, err = run(capsys, project, "po", "export", "it")
    assert code == 0, err
    path = project / "translations/it/rules.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    kb = load_knowledge_base(project)
    with_english = [u for u in kb.units() if u.text(SOURCE_LANGUAGE)]
    found = [m for m in catalog if m.id]
    assert catalog.locale_identifier == "it" and len(found) == len(with_english)
    assert all(m.string == "" and not m.fuzzy for m in found)
    # a translator fills in one message; the import adds 'it' after fr in that unit
    for m in found:
        if m.context == "retrace.title":
            m.string = "Ripercorrere"
    edited = tmp_path / "it.po"
    with edited.open("wb") as f:
        write_po(f, catalog)
    code, out, err = run(capsys, project, "po", "import", str(edited))
    assert code == 0, err
    title = next(u for u in load_knowledge_base(project).units() if u.id == "retrace.title")
    it = title.text("it")
    assert (it.text, it.status, it.source) == ("Ripercorrere", Status.DRAFT, "translators")
    assert it.translated_from == english_hash(title.text("en").text)
    assert list(title.variants) == ["en", "de", "fr", "it"]


@pytest.mark.parametrize("argv,expected", [
    (("no",), Language("no", "Norsk", "Norwegian", "no")),            # 'no' must stay text, not YAML's false
    (("pt", "--locale", "pt_PT"), Language("pt", "Português", "Portuguese", "pt_PT")),
    (("tlh", "--name", "tlhIngan Hol", "--english-name", "Klingon", "--locale", "tlh"), None),
])
def test_names_and_locale_default_to_babel_and_can_be_given(capsys, project: Path, argv, expected):
    code, out, err = run(capsys, project, "lang", "add", *argv)
    if expected is None:  # Babel has no Klingon: the site could not format for it
        assert code == 2 and "has no locale 'tlh'" in err
        return
    assert code == 0, err
    assert load_knowledge_base(project).languages[-1] == expected


def test_registered_language_is_refused(capsys, project: Path):
    before = (project / LANGUAGES).read_bytes()
    line = before.decode("utf-8").splitlines().index("  - code: de") + 1
    code, _, err = run(capsys, project, "lang", "add", "de")
    assert code == 2 and f"{LANGUAGES}:{line}:1: error: 'de' (German) is registered already" in err
    assert (project / LANGUAGES).read_bytes() == before


@pytest.mark.parametrize("code,locale,what", [
    ("it-IT", None, "is not a language code"),
    ("xx", None, "Babel's locale data does not know the language 'xx'"),
    ("es", "fr_FR", "the locale 'fr_FR' is not of the language 'es'"),
])
def test_bad_languages_are_refused(code, locale, what):
    with pytest.raises(LanguageError) as err:
        language_for(code, locale=locale)
    assert what in str(err.value) and err.value.hint
