"""The site's front door, ``site/index.html`` (render stage): a language picker that follows the
browser's preferred languages (``navigator.languages``) and works from ``file://``. It is a
single self-contained page: inline style and script, relative links, nothing remote.
Opening ``index.html#choose`` shows the picker without moving on. Its shape is
``templates/pages/root.html.j2``.

Beside it, ``site/offline.html``: how to take the site along (`offline`). A language's offline
archive holds a picker of its language alone (`root_index` with `only`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

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


def root_index(kb: KnowledgeBase, uis: Mapping[str, UI], only: str | None = None) -> str:
    """The picker of every language, or (`only`: a language's offline archive, which holds no
    other) of that language alone, so that no link nor the preferred language's redirect leads
    to a folder the archive does not have."""
    languages = [language for language in kb.languages if only is None or language.code == only]
    choices = []
    for language in languages:
        ui = uis[language.code]
        tagline = ui._("The Magic: The Gathering rules and rulings in {language}").format(
            language=ui.language_name(language.code))
        choices.append(Choice(language.code, language.name, tagline))
    english = uis.get(SOURCE_LANGUAGE)
    return template("pages/root.html.j2").render(
        codes=[language.code for language in languages], languages=choices, offline_path=paths.OFFLINE,
        _=english._ if english else str)
