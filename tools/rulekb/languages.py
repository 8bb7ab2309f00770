"""Adding a language (`rulekb lang add CODE`, see `rulekb.commands.lang`). Beside the pipeline (load -> validate -> link
-> check -> render -> report), which reads the languages from translations/languages.yaml
(`kb.languages`): registering a language there is all the loader, the QA, the site and the
PO export need to pick it up. The entry is appended with `yamledit`, so the file's comments
and layout stay as they are; names and locale default to Babel's locale data (CLDR).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from babel import Locale, UnknownLocaleError
from babel.core import get_global, parse_locale

from . import yamledit
from .diagnostics import DataError, Problem
from .load import SourceFile, load_files, parse_text
from .models import Language
from .knowledge import load_knowledge_base
from .layout import LANGUAGES_FILE
from .schema import LANG_CODE
from .validate import build_knowledge_base

TERRITORY = re.compile(r"^[A-Z]{2}$")


class LanguageError(ValueError):
    """A language the command cannot register, with how to fix it."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def _capitalised(name: str) -> str:
    # CLDR writes most endonyms in lower case ("italiano"); a language menu starts them
    # with a capital, as the registered ones are ("Deutsch", "Français").
    return name[:1].upper() + name[1:]


def defaults(code: str) -> Language:
    """The language `code` as Babel's locale data names it: endonym, English name and the
    locale of its most likely territory (it -> Italiano, Italian, it_IT)."""
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        raise LanguageError(f"Babel's locale data does not know the language '{code}'",
                            "give --name, --english-name and --locale yourself") from None
    return Language(code=code, name=_capitalised(locale.get_display_name(locale) or code),
                    english_name=locale.get_display_name("en") or code, locale=_likely_locale(code))


def _likely_locale(code: str) -> str:
    """language_TERRITORY of the territory CLDR finds most likely (it -> it_IT), when Babel
    has data for that locale; else the bare code (eo: the "territory" is the world, 001)."""
    likely = get_global("likely_subtags").get(code)
    territory = parse_locale(likely)[1] if likely else None
    if territory and TERRITORY.match(territory):
        try:
            Locale.parse(f"{code}_{territory}")
            return f"{code}_{territory}"
        except (UnknownLocaleError, ValueError):
            pass
    return code


def defaults_hint(code: str) -> str:
    try:
        return defaults(code).locale
    except LanguageError:
        return "it_IT"


def language_for(code: str, name: str | None = None, english_name: str | None = None,
                 locale: str | None = None) -> Language:
    """The entry to register: the given values, the rest from Babel's locale data."""
    if not LANG_CODE.match(code):
        raise LanguageError(f"'{code}' is not a language code",
                            "use the two-letter ISO 639-1 code (three letters when there is none), e.g. 'it'")
    base = defaults(code) if None in (name, english_name, locale) else None
    chosen = Language(code, name or base.name, english_name or base.english_name, locale or base.locale)  # type: ignore[union-attr]
    try:
        parsed = Locale.parse(chosen.locale)
    except (UnknownLocaleError, ValueError):
        raise LanguageError(f"Babel's locale data (CLDR) has no locale '{chosen.locale}'",
                            "the site formats dates and sorts with it: give a locale Babel knows, "
                            f"written language_TERRITORY (e.g. {defaults_hint(code)})") from None
    if parsed.language != code:
        raise LanguageError(f"the locale '{chosen.locale}' is not of the language '{code}'",
                            f"use a locale that starts with '{code}_'")
    for what, value in (("name", chosen.name), ("English name", chosen.english_name)):
        if not value.strip():
            raise LanguageError(f"the {what} is empty", f"give the language's {what}")
    return chosen


@dataclass(frozen=True)
class Added:
    language: Language
    file: str
    line: int


def add(root: Path, language: Language, *, write: bool = True) -> Added:
    """Append `language` to translations/languages.yaml (checked before it is written)."""
    kb = load_knowledge_base(root)
    existing = next((lang for lang in kb.languages if lang.code == language.code), None)
    if existing is not None:
        raise DataError([Problem(LANGUAGES_FILE, _line_of(root, language.code), 1,
                                 f"'{language.code}' ({existing.english_name}) is registered already",
                                 f"translate it: rulekb po export {language.code}")])
    edit = yamledit.AppendItem(LANGUAGES_FILE, "languages", (
        ("code", language.code), ("name", language.name),
        ("english_name", language.english_name), ("locale", language.locale)))
    (planned,) = yamledit.plan(root, [edit])
    node, problems = parse_text(LANGUAGES_FILE, planned.new.lstrip("\ufeff"))
    if problems or node is None:
        raise DataError(problems)
    files = tuple(SourceFile(f.path, node) if f.path == LANGUAGES_FILE else f for f in load_files(root))
    after = build_knowledge_base(files, root)
    if after.languages[-1] != language or after.languages[:-1] != kb.languages:
        raise DataError([Problem(LANGUAGES_FILE, 1, 1, "internal error: the new entry does not read back as given",
                                 "nothing was written; please report this")])
    if write:
        yamledit.write(root, [planned])
    return Added(language, LANGUAGES_FILE, _line_of_text(planned.new, language.code))


def _line_of_text(text: str, code: str) -> int:
    root = yaml.compose(text.lstrip("\ufeff"), Loader=yaml.SafeLoader)
    for key, value in root.value:
        if key.value == "languages":
            for item in value.value:
                for k, v in item.value:
                    if k.value == "code" and v.value == code:
                        return item.start_mark.line + 1
    return 1


def _line_of(root: Path, code: str) -> int:
    return _line_of_text((root / LANGUAGES_FILE).read_text(encoding="utf-8"), code)
