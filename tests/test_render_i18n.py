"""Tests for rulekb.i18n: the UI catalogs of the site (translations/ui/*.po, compiled with Babel
at build time) and the locale dates."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rulekb.diagnostics import DataError
from rulekb.i18n import POT_FILE, extract_messages, load_ui, pot_text, read_catalog
from rulekb.check.view import Counts, count_words
from rulekb.models import MN_, Lang, Language
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


def test_an_unchanged_catalog_comes_from_the_cache_and_an_edited_one_is_compiled_again(tmp_path, monkeypatch):
    from rulekb import i18n
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "translations" / "ui"
    folder.mkdir(parents=True)
    catalog = folder / "de.po"
    german = Language("de", "Deutsch", "German", "de_DE")
    catalog.write_text('msgid "Rules"\nmsgstr "Regeln"\n', encoding="utf-8")
    assert load_ui(tmp_path, german)._("Rules") == "Regeln"
    assert list((tmp_path / "cache" / "ui-catalogs").rglob("*.pickle"))

    def not_read(*args, **kwargs):
        raise AssertionError("the catalog was read again")

    with monkeypatch.context() as patched:
        patched.setattr(i18n, "read_po", not_read)
        assert load_ui(tmp_path, german)._("Rules") == "Regeln"

    catalog.write_text('msgid "Rules"\nmsgstr "Die Regeln"\n', encoding="utf-8")   # an edit: compiled again
    assert load_ui(tmp_path, german)._("Rules") == "Die Regeln"

    catalog.write_text('msgid "Rules"\nmsgstr "Regeln\n', encoding="utf-8")         # a problem: every time, never kept
    for _ in range(2):
        with pytest.raises(DataError, match="no closing double quote"):
            load_ui(tmp_path, german)


def test_escaped_quotes_are_read(tmp_path):
    folder = tmp_path / "translations" / "ui"
    folder.mkdir(parents=True)
    (folder / "de.po").write_text('msgid "Rules"\nmsgstr "Die \\"Regeln\\""\n', encoding="utf-8")
    assert load_ui(tmp_path, Language("de", "Deutsch", "German", "de_DE"))._("Rules") == 'Die "Regeln"'


@pytest.mark.parametrize("lang", _catalog_languages())
def test_a_catalog_holds_only_what_the_code_asks_for(lang):
    """An entry the template no longer has ("Names", "Other names") is dead weight a translator
    would keep translating: the catalog drops it when the code does."""
    catalog = read_catalog(ROOT / "translations" / "ui" / f"{lang}.po", f"{lang}.po")
    wanted = {message.id for message in extract_messages(PACKAGE) if message.id}
    assert sorted(str(m.id) for m in catalog if m.id and m.id not in wanted) == []


# msgids a language writes as English does: the word is the same (checked by a reader of the language)
SAME_WORD = {
    "de": {"JSON", "Text", "parallel", "{size} MB"},
    "fr": {"JSON", "Source", "Sources", "info", "total", "Versions", "Version {n}", "{n} version", "{n} versions",
           "section {key}", "Section {key}", "{n} info", "{page} ({n})", "Zones"},
}
# English words that no German or French sentence has (lower case; "Magic: The Gathering" and "Wizards of the
# Coast" are names)
ENGLISH = {"the", "with", "and", "of", "is", "are", "this", "that", "which", "only", "its", "has", "have", "not",
           "should", "would", "there", "their"}


def _strings(lang: str):
    catalog = read_catalog(ROOT / "translations" / "ui" / f"{lang}.po", f"{lang}.po")
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for i, text in enumerate(strings):
            yield ids[min(i, len(ids) - 1)], text


@pytest.mark.parametrize("lang", _catalog_languages())
def test_no_english_is_left_in_a_catalog(lang):
    """What a German or French page shows from its catalog is German or French: no msgstr is its
    English msgid (but for the words the language shares) and none has English words in it."""
    for msgid, text in _strings(lang):
        words = re.sub(r"\{[a-z_]+\}|`[^`]*`|Magic: The Gathering|Wizards of the Coast", " ", text)
        if re.search(r"[^\W\d_]{2,}", words) and text == msgid:
            assert msgid in SAME_WORD[lang], f"{lang}.po: {msgid!r} is left in English"
        english = set(re.findall(r"(?<![^\W\d_])[a-z]+(?![^\W\d_])", words)) & ENGLISH  # whole words: not the "and" of "Land"
        assert not english, f"{lang}.po: {text!r} has English words {sorted(english)}"


# names and notations the French strings write with a colon as they are written everywhere
_LITERAL_COLONS = re.compile(r"Magic: The Gathering|translated_from:|https?://|file://|U\+[0-9A-F]{4}")


def test_french_strings_space_their_punctuation():
    """French typography: a no-break space before the colon (U+00A0) and a narrow one before ; ! ?
    (U+202F, or U+00A0), no-break spaces inside « »; never an ordinary space there, where the line
    could break, nor none at all ("Constats: 1 erreur")."""
    for msgid, text in _strings("fr"):
        text = _LITERAL_COLONS.sub("", text)
        for m in re.finditer(r"(.)([:;!?])", text):
            if m.group(2) == ":" and m.group(1) == "{":
                continue
            assert m.group(1) in "\u00a0\u202f", f"fr.po: {text!r}: {m.group(1)!r} before {m.group(2)!r}"
        assert not re.search(r"« | »|«[^\u00a0\u202f]|[^\u00a0\u202f]»", text), f"fr.po: {text!r}: the spaces inside « »"


# the quotation marks of each language: what a German or French message quotes, it quotes as
# printed German („…“) and French (« … ») texts do, never with the ASCII quotes of the English msgids
QUOTES = {"de": re.compile(r"„[^“]*“"), "fr": re.compile(r"«\u00a0[^»]*\u00a0»")}
# a message that shows the ASCII apostrophe itself (the mixed apostrophes, the space before a mark)
_SHOWS_APOSTROPHE = re.compile(r"\(„\{straight\}“\)|\(«\u00a0\{straight\}\u00a0»\)|' \{mark\}'")


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_messages_quote_as_the_language_does(lang):
    for msgid, text in _strings(lang):
        text = _SHOWS_APOSTROPHE.sub("", QUOTES[lang].sub("", text))
        assert not re.search(r"(?<![\w’])'[^'\s][^']*'(?!\w)", text), \
            f"{lang}.po: {msgid!r} quotes with ASCII quotes: {text!r}"


@pytest.mark.parametrize("lang, zero, one, two", [
    ("de", "0 Fehler, 0 Warnungen, 0 Hinweise; 0 ausgenommen", "1 Fehler, 1 Warnung, 1 Hinweis; 1 ausgenommen",
     "2 Fehler, 2 Warnungen, 2 Hinweise; 2 ausgenommen"),
    ("fr", "0 erreur, 0 avertissement, 0 info\u202f; 0 exempté", "1 erreur, 1 avertissement, 1 info\u202f; 1 exempté",
     "2 erreurs, 2 avertissements, 2 infos\u202f; 2 exemptés"),
    ("en", "0 errors, 0 warnings, 0 info; 0 waived", "1 error, 1 warning, 1 info; 1 waived",
     "2 errors, 2 warnings, 2 info; 2 waived"),
])
def test_counts_take_the_plural_form_of_the_language(lang, zero, one, two):
    """"0 Hinweis" was German for no info finding: counts go through ngettext (French: 0 is singular)."""
    ui = load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR", "en": "en_US"}[lang]))
    assert [count_words(ui, Counts(n, n, n), n) for n in (0, 1, 2)] == [zero, one, two]


@pytest.mark.parametrize("lang, forms", [
    ("de", ["{label}: der Text auf Deutsch hat 0 Klammern", "{label}: der Text auf Deutsch hat 1 Klammer",
            "{label}: der Text auf Deutsch hat 2 Klammern"]),
    ("fr", ["{label}\u00a0: le texte en français a 0 parenthèse", "{label}\u00a0: le texte en français a 1 parenthèse",
            "{label}\u00a0: le texte en français a 2 parenthèses"]),
])
def test_a_qa_message_takes_the_plural_form_of_its_number(lang, forms):
    """A QA message with a count ("1 parenthèse(s)" before) has its plural forms in the catalog."""
    ui = load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    rendered = [MN_("{label}: the text in {lang} has {tr} parenthesised passage, the English {en}; "
                    "e.g. “({extra})” is not in the English",
                    "{label}: the text in {lang} has {tr} parenthesised passages, the English {en}; "
                    "e.g. “({extra})” is not in the English", "tr", label="{label}", lang=Lang(lang, "?"),
                    tr=n, en=0, extra="x").render(ui) for n in (0, 1, 2)]
    assert [text.split(", ")[0] for text in rendered] == forms


@pytest.mark.parametrize("locale, first, count", [
    ("en_US", "August 1, 2025", "23,738"),
    ("de_DE", "1. August 2025", "23.738"),
    ("fr_FR", "1er août 2025", "23\u202f738"),
])
def test_the_first_of_a_month_and_counts_as_the_locale_writes_them(locale, first, count):
    ui = load_ui(ROOT, Language(locale[:2], locale, locale, locale))
    assert ui.date("2025-08-01") == first
    assert ui.date("2025-08-11") != "11er août 2025"
    assert ui.number(23738) == count
    assert ui.number(999) == "999"
