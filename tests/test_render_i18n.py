"""Tests for rulekb.i18n: the UI catalogs of the site (translations/ui/*.po, compiled with Babel
at build time) and the locale dates."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rulekb.diagnostics import DataError
from rulekb.i18n import POT_FILE, extract_messages, load_ui, pot_text, read_catalog
from rulekb.models import Language
from rulekb.knowledge import load_knowledge_base

from conftest import ROOT, seed_project

PACKAGE = ROOT / "tools" / "rulekb"
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def test_the_message_template_is_up_to_date():
    """translations/ui/messages.pot is what the code asks for (RULEKB_UPDATE_GOLDEN=1 rewrites it)."""
    expected = pot_text(extract_messages(PACKAGE))
    path = ROOT / POT_FILE
    if os.environ.get("RULEKB_UPDATE_GOLDEN") == "1":
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected, \
        "the UI strings changed: run RULEKB_UPDATE_GOLDEN=1 pytest tests/test_render_i18n.py and translate the new ones"


def _catalog_languages() -> list[str]:
    kb = load_knowledge_base(seed_project())
    return [code for code in kb.target_languages if (ROOT / "translations" / "ui" / f"{code}.po").is_file()]


@pytest.mark.parametrize("lang", _catalog_languages())
def test_every_ui_string_is_translated_with_the_same_placeholders(lang):
    catalog = read_catalog(ROOT / "translations" / "ui" / f"{lang}.po", f"{lang}.po")
    template = extract_messages(PACKAGE)
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        assert found is not None and not found.fuzzy, f"{lang}.po lacks {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        assert all(strings), f"{lang}.po has an empty msgstr for {message.id!r}"
        wanted = set(PLACEHOLDER.findall(ids[0]))
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) == wanted, f"{lang}.po: {text!r} must use {sorted(wanted)}"


@pytest.mark.parametrize("locale, date, month", [
    ("en_US", "January 19, 2018", "June 2011"),
    ("de_DE", "19. Januar 2018", "Juni 2011"),
    ("fr_FR", "19 janvier 2018", "juin 2011"),
])
def test_dates_per_locale(locale, date, month):
    ui = load_ui(ROOT, Language(locale[:2], locale, locale, locale))
    assert ui.date("2018-01-19") == date
    assert ui.date("2011-06") == month


def test_catalogs_are_compiled_and_plurals_follow_the_language():
    de = load_ui(ROOT, Language("de", "Deutsch", "German", "de_DE"))
    fr = load_ui(ROOT, Language("fr", "Français", "French", "fr_FR"))
    assert de._("Rules") == "Regeln" and fr._("Rules") == "Règles"
    plural = ("{n} other version of this text", "{n} other versions of this text")
    assert fr.ngettext(*plural, 1).format(n=1) == "1 autre version de ce texte"
    assert fr.ngettext(*plural, 0).format(n=0) == "0 autre version de ce texte"   # French: 0 is singular
    assert de.ngettext(*plural, 0).format(n=0) == "0 weitere Fassungen dieses Textes"
    assert de.language_name("en") == "Englisch" and fr.language_name("en") == "anglais"


def test_a_language_without_catalog_uses_the_english_strings(tmp_path):
    it = load_ui(tmp_path, Language("it", "Italiano", "Italian", "it_IT"))
    assert it._("Rules") == "Rules"
    assert it.language_name("de") == "German"       # names match the (English) UI strings
    assert it.date("2018-01-19") == "19 gennaio 2018"  # dates follow the locale


@pytest.mark.parametrize("text, line", [
    ('msgid "Rules"\nmsgstr "Regeln"\n\nmsgid "Notes"\nmsgstr "Anmerkungen\n', 5),      # Babel would drop the "n"
    ('msgid "Rules"\nmsgstr "Regeln"\n\nmsgid "Notes"\nmsgstr "Anmerkungen \\"x\\"\n', 5),
    ('msgid "Rules"\nmsgstr "Regeln"\n\nmsgid "Notes"\nAnmerkungen\nmsgstr "x"\n', 5),
])
def test_a_broken_catalog_is_a_data_error_with_file_and_line(tmp_path, text, line):
    folder = tmp_path / "translations" / "ui"
    folder.mkdir(parents=True)
    (folder / "de.po").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_ui(tmp_path, Language("de", "Deutsch", "German", "de_DE"))
    problem = err.value.problems[0]
    assert (problem.file, problem.line) == ("translations/ui/de.po", line)


def test_escaped_quotes_are_read(tmp_path):
    folder = tmp_path / "translations" / "ui"
    folder.mkdir(parents=True)
    (folder / "de.po").write_text('msgid "Rules"\nmsgstr "Die \\"Regeln\\""\n', encoding="utf-8")
    assert load_ui(tmp_path, Language("de", "Deutsch", "German", "de_DE"))._("Rules") == 'Die "Regeln"'
