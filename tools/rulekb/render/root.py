"""The site's front door, ``site/index.html`` (render stage): a language picker that follows the
browser's preferred languages (``navigator.languages``) and works from ``file://``. It is a
single self-contained page: inline style and script, relative links, nothing remote.
Opening ``index.html#choose`` shows the picker without moving on. Its shape is
``templates/pages/root.html.j2``.

Beside it, ``site/offline.html``: how to take the site along (the archive, unpacking, what works
without a connection), in every language. The archive holds another version of it, which says
that it is the offline copy and links no archive: an unpacked copy has none beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from markupsafe import Markup

from ..i18n import UI
from ..models import SOURCE_LANGUAGE, KnowledgeBase
from . import paths
from .templating import template


@dataclass(frozen=True)
class Choice:
    """One language of the picker, described in that language."""

    code: str
    name: str
    tagline: str


def root_index(kb: KnowledgeBase, uis: Mapping[str, UI]) -> str:
    choices = []
    for language in kb.languages:
        ui = uis[language.code]
        tagline = ui._("The Magic: The Gathering rules and rulings in {language}").format(
            language=ui.language_name(language.code))
        choices.append(Choice(language.code, language.name, tagline))
    english = uis.get(SOURCE_LANGUAGE)
    return template("pages/root.html.j2").render(
        codes=list(kb.language_codes), languages=choices, offline_path=paths.OFFLINE,
        _=english._ if english else str)


def offline_page(kb: KnowledgeBase, uis: Mapping[str, UI], *, copy: bool) -> str:
    """``offline.html`` of the published site (`copy` false: the archive's link and how to
    unpack it), or of the archive (`copy` true)."""
    section = template("pages/offline-section.html.j2")
    sections = [Markup(section.render(lang=language.code, name=language.name, copy=copy, archive_path=paths.ARCHIVE,
                                      home=f"{language.code}/index.html", _=uis[language.code]._))
                for language in kb.languages]
    english = uis.get(SOURCE_LANGUAGE)
    title = english._("Use the site offline") if english else "Use the site offline"
    return template("pages/offline.html.j2").render(sections=sections, title=f"rulekb — {title}")
