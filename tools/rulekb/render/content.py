"""The hand-written pages of ``content/<lang>/`` for every site language (render stage).

A language that lacks a hand-written page gets the English one (else the first language that
has it), marked as not yet translated, with ``lang`` on the borrowed text, so that every
language's site has the same pages at the same paths (the language switch relies on it).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from markupsafe import Markup

from ..i18n import UI
from ..models import SOURCE_LANGUAGE
from .templating import Pages


def split_front_matter(text: str) -> tuple[str, str]:
    """("---\\n...\\n---\\n", body) of a Markdown page; ("", text) without front matter."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            return text[: end + 5], text[end + 5:]
    return "", text


def mark_untranslated(text: str, shown_lang: str, pages: Pages) -> str:
    """A page of `shown_lang` on the site of the language of `pages` (``templates/pages/borrowed.md.j2``).
    Its front matter and Markdown are the maintainers' own, written as they are."""
    head, body = split_front_matter(text)
    return pages.render("pages/borrowed.md.j2", head=Markup(head), body=Markup(body.strip()), lang=shown_lang)


def localise_content(pages: Mapping[str, Mapping[str, str]], languages: Sequence[str],
                     uis: Mapping[str, UI]) -> dict[str, dict[str, str]]:
    """{lang: {path: Markdown}} for every site language, from the pages that exist."""
    every = sorted({path for lang_pages in pages.values() for path in lang_pages})
    out: dict[str, dict[str, str]] = {}
    for lang in languages:
        templates = Pages(uis[lang])
        own = pages.get(lang, {})
        result: dict[str, str] = {}
        for path in every:
            if path in own:
                result[path] = own[path]
                continue
            donor = next(l for l in (SOURCE_LANGUAGE, *languages, *sorted(pages)) if path in pages.get(l, {}))
            result[path] = mark_untranslated(pages[donor][path], donor, templates)
        out[lang] = result
    return out
