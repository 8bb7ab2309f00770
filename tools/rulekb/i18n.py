"""The site's interface language, used by the render stage (load -> validate -> link -> check ->
render -> report): UI message catalogs and locale dates.

The UI strings of the generated pages are English msgids in the code (`ui._("Notes")`); each
language has a gettext catalog ``translations/ui/<lang>.po``. The catalogs are compiled with
Babel when the site is built (no compiled .mo file is committed) and a string a catalog lacks
falls back to its English msgid; the compiled catalog is kept in the UI catalog cache
(`compiled_catalog`), so an unchanged catalog is not compiled again. Dates are formatted per locale with Babel:
"January 19, 2018", "19. Januar 2018", "19 janvier 2018"; a month-only date of the rules
archive ("2011-06") becomes "June 2011", "Juni 2011", "juin 2011".
"""

from __future__ import annotations

import datetime as dt
import functools
import gettext
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from babel import Locale
from babel.core import UnknownLocaleError
from babel.dates import format_date, format_skeleton
from babel.numbers import format_decimal, format_percent
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

from . import cache as cache_module
from .diagnostics import DataError, Problem
from .models import SOURCE_LANGUAGE, Language

UI_FOLDER = "translations/ui"


def N_(message: str) -> str:
    """Marks a UI string for extraction where it is defined; it is translated where it is used."""
    return message


@dataclass(frozen=True)
class UI:
    """The interface strings and locale formats of one site language."""

    lang: str
    locale: Locale                       # dates
    translations: gettext.NullTranslations
    names: Locale | None = None          # language names; English while a language has no catalog
    # message -> its translation, looked up once (a page asks for the same few dozen strings)
    _looked_up: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _(self, message: str) -> str:
        found = self._looked_up.get(message)
        if found is None:
            found = self._looked_up[message] = self.translations.gettext(message)
        return found

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def percent(self, value: int) -> str:
        """A whole percentage in the locale's format: "25%", "25 %" (a no-break space in German and French)."""
        return _format_percent(value, self.locale)

    def date(self, iso: str) -> str:
        """A YYYY-MM-DD date in the long form of the locale, a YYYY-MM date as month and year
        (French: the first of a month is "1er août 2025", as French writes it)."""
        return _format_date(iso, self.locale)

    def number(self, value: int) -> str:
        """A count with the locale's thousands separator: "23.738" (de), "23 738" (fr), "23,738" (en)."""
        return _format_number(value, self.locale)

    def language_name(self, code: str) -> str:
        """The name of a language in this UI's language ("Englisch" in German)."""
        return (self.names or self.locale).languages.get(code) or code

    def capitalised(self, text: str) -> str:
        return text[:1].upper() + text[1:]


@functools.lru_cache(maxsize=512)
def _format_percent(value: int, locale: Locale) -> str:
    return format_percent(value / 100, locale=locale)


@functools.lru_cache(maxsize=4096)
def _format_date(iso: str, locale: Locale) -> str:
    if len(iso) == 7:
        return format_skeleton("yMMMM", dt.date.fromisoformat(iso + "-01"), locale=locale)
    day = dt.date.fromisoformat(iso)
    text = format_date(day, "long", locale=locale)
    if locale.language == "fr" and day.day == 1 and text.startswith("1 "):
        return "1er" + text[1:]   # Babel's CLDR pattern writes the ordinal of the first as a plain 1
    return text


@functools.lru_cache(maxsize=4096)
def _format_number(value: int, locale: Locale) -> str:
    return format_decimal(value, locale=locale)


def catalog_path(root: Path, lang: str) -> Path:
    return root / UI_FOLDER / f"{lang}.po"


_PO_STRING_LINE = re.compile(r'^\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"')
_PO_STRING_END = re.compile(r'(?<!\\)(?:\\\\)*"\s*$')


def _unterminated(text: str, display: str) -> list[Problem]:
    """Babel reads a string without its closing quote and drops its last character: refuse it."""
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if _PO_STRING_LINE.match(line) and (stripped.count('"') < 2 or not _PO_STRING_END.search(stripped)):
            problems.append(Problem(display, number, len(line) + 1, "this string has no closing double quote",
                                    'end the line with " (write \\" for a quote inside the text)'))
    return problems


def read_catalog(path: Path, display: str, data: bytes | None = None) -> Catalog:
    """Parse a .po file (its bytes `data`, when they are read already); a syntax error becomes a
    DataError naming file and line."""
    if data is None:
        data = path.read_bytes()
    try:
        problems = _unterminated(data.decode("utf-8"), display)
    except UnicodeDecodeError as exc:
        raise DataError([Problem(display, 1, 1, f"the UI catalog is not UTF-8: {exc}",
                                 "save the file as UTF-8 and declare 'Content-Type: text/plain; charset=UTF-8'")]) from None
    if problems:
        raise DataError(problems)
    try:
        return read_po(io.BytesIO(data), abort_invalid=True)
    except PoFileError as exc:
        line = (getattr(exc, "lineno", 0) or 0) + 1  # Babel counts lines from 0
        raise DataError([Problem(display, line, 1, f"the UI catalog does not parse: {exc}",
                                 "fix the entry (msgid/msgstr pairs in double quotes), as in translations/ui/de.po")]) from None
    except UnicodeDecodeError as exc:
        raise DataError([Problem(display, 1, 1, f"the UI catalog is not UTF-8: {exc}",
                                 "save the file as UTF-8 and declare 'Content-Type: text/plain; charset=UTF-8'")]) from None


def mo_bytes(catalog: Catalog) -> bytes:
    """A Babel catalog compiled to the bytes of a .mo file (fuzzy entries are left out)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compiled_catalog(path: Path, display: str) -> gettext.GNUTranslations:
    """The UI catalog at `path` read (`read_catalog`) and compiled (`mo_bytes`), through the UI
    catalog cache (`cache.cached`, ``<cache_dir>/ui-catalogs/``): a catalog of the same bytes,
    compiled by the same code, is loaded from the .mo bytes kept there (each build compiled both
    catalogs again: ~25-50 ms of the 'load and validate' part on the bench data, ~1 ms from the
    cache)."""
    data = path.read_bytes()
    mo = cache_module.cached("ui-catalogs", (display, data),
                             lambda: mo_bytes(read_catalog(path, display, data)), bytes)
    return gettext.GNUTranslations(io.BytesIO(mo))


def load_ui(root: Path, language: Language) -> UI:
    """The UI of one language; English, and a language without a catalog, use the msgids."""
    try:
        locale = Locale.parse(language.locale)
    except (ValueError, UnknownLocaleError) as exc:
        raise DataError([Problem("translations/languages.yaml", 1, 1,
                                 f"language '{language.code}': Babel does not know the locale '{language.locale}': {exc}",
                                 "use a locale such as de_DE or fr_FR")]) from None
    path = catalog_path(root, language.code)
    if language.code == SOURCE_LANGUAGE or not path.is_file():
        # the msgids are English: name languages in English too, so that a badge reads as one language
        return UI(language.code, locale, gettext.NullTranslations(), Locale.parse("en"))
    return UI(language.code, locale, compiled_catalog(path, f"{UI_FOLDER}/{language.code}.po"))


def load_uis(root: Path, languages: Iterable[Language]) -> dict[str, UI]:
    return {language.code: load_ui(root, language) for language in languages}


# ---------------------------------------------------------------- message extraction

EXTRACT_KEYWORDS = {"_": None, "N_": None, "M_": None, "MN_": (1, 2), "gettext": None, "ngettext": (1, 2),
                    "say": (2,), "plural": (2, 3)}   # check.view.say, check.view.plural: (speaker, message…)
# strings translated through a variable, so that no extractor sees them: the severities that the
# status page's words (check.view.Words) translate with _(severity.value)
DYNAMIC_MESSAGES = ("error", "warning", "info")
POT_FILE = f"{UI_FOLDER}/messages.pot"


# a call of `_` with a literal inside an f-string is one string token to Babel's extractor: found by this pattern
_CALL_IN_FSTRING = re.compile(r"""(?<![\w.])(?:N_|_|gettext)\((['"])((?:(?!\1)[^\\\n])*)\1\)""")


def extract_messages(package: Path) -> Catalog:
    """The UI strings of the code, of the page templates and of the theme overrides (``_``,
    ``N_``, ``ngettext``), as a template catalog."""
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="rulekb", version="", creation_date=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc),
                      msgid_bugs_address="", copyright_holder="", fuzzy=False)
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(package), method_map=[("**.py", "python"), ("templates/**.j2", "jinja2.ext:babel_extract"),
                                      ("templates/**.html", "jinja2.ext:babel_extract")],
            keywords=EXTRACT_KEYWORDS):
        catalog.add(message)
    for message in DYNAMIC_MESSAGES:
        catalog.add(message)
    for path in sorted(package.rglob("*.py")):
        for match in _CALL_IN_FSTRING.finditer(path.read_text(encoding="utf-8")):
            if match.group(2) and match.group(2) not in catalog:
                catalog.add(match.group(2))
    return catalog


POT_HEADER = """# The UI strings of the rulekb site: the template of translations/ui/<lang>.po.
# Generated from the code; regenerate it with RULEKB_UPDATE_GOLDEN=1 pytest tests/test_render_i18n.py
msgid ""
msgstr ""
"Project-Id-Version: rulekb\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

"""


def pot_text(catalog: Catalog) -> str:
    """The catalog as a .pot file: fixed header, no locations (stable across code edits), sorted."""
    from babel.messages.pofile import write_po

    buffer = io.BytesIO()
    write_po(buffer, catalog, no_location=True, omit_header=True, sort_output=True, width=0)
    return POT_HEADER + buffer.getvalue().decode("utf-8").lstrip("\n")
