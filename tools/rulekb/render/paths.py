"""Where each generated page lives, and the relative links between pages (render stage).

Every language's site has the same pages at the same paths, so that the language switch can
lead to the same page; links are relative (``../rules/retrace.html#702.78a``) so that the site
works from ``file://`` and from any folder it is unpacked into. Page paths are the Markdown
paths in the docs folder (``rules/retrace.md``); mkdocs (with ``use_directory_urls: false``)
writes them as ``rules/retrace.html``.
"""

from __future__ import annotations

import functools

HOME = "index.md"
ABOUT = "about.md"
API_PAGE = "api.md"
RULE_INDEX = "rules/index.md"
CARD_INDEX = "cards/index.md"
KEYWORDS = "keywords.md"
GLOSSARY = "glossary.md"
STATUS = "status.md"
ARCHIVE = "rulekb-site.zip"   # the whole site as one archive, at the site root
OFFLINE = "offline.html"      # how to take the site along (another version inside the archive), at the site root
API_FOLDER = "api"            # the static JSON API, at the site root


def rule_page(rule_id: str) -> str:
    return f"rules/{rule_id}.md"


def parallel_page(rule_id: str) -> str:
    return f"parallel/{rule_id}.md"


@functools.lru_cache(maxsize=None)   # asked for every link to a card: half a million times on all cards
def card_group(card_id: str) -> str:
    """The group of cards a card's page holds: the first two letters or digits of its id
    (``queens-agent`` -> ``qu``). Some 24,000 cards in ~500 pages per language instead of one page
    each: the build stays within minutes, and a card's URL stays the same as cards are added."""
    letters = "".join(ch for ch in card_id[:8] if ch.isalnum())[:2]
    return letters or "0"


def card_page(card_id: str) -> str:
    """The page that shows a card: its group's page; the card is at the anchor of its id."""
    return f"cards/{card_group(card_id)}.md"


def card_group_page(group: str) -> str:
    return f"cards/{group}.md"


def card_href(from_page: str, card_id: str) -> str:
    """A relative link to a card: its group's page at the card's id."""
    return href(from_page, card_page(card_id), card_id)


def html_path(page: str) -> str:
    """The file mkdocs writes for a Markdown page."""
    return page[:-3] + ".html" if page.endswith(".md") else page


def href(from_page: str, to_page: str, fragment: str | None = None) -> str:
    """A relative link from one page to another (or to a place on the same page)."""
    target = html_path(to_page)
    source = html_path(from_page)
    if target == source and fragment:
        return f"#{fragment}"
    folder, _, _name = source.rpartition("/")
    if folder and target.startswith(folder + "/"):
        rel = target[len(folder) + 1:]
    else:
        rel = "../" * source.count("/") + target
    return rel + (f"#{fragment}" if fragment else "")


def from_depth_one(to_page: str, fragment: str | None = None) -> str:
    """A link to a page, from any page one folder deep (rules/, parallel/, cards/): the same
    text on all of them, so that a rendered text can be reused on each."""
    return "../" + html_path(to_page) + (f"#{fragment}" if fragment else "")


def to_site_root(from_page: str) -> str:
    """The relative path from a page of a language site to the site root (above the language)."""
    return "../" * (html_path(from_page).count("/") + 1)


def api_path(lang: str, kind: str, ident: str) -> str:
    """The JSON file of one rule, card or ruling in one language, relative to the site root."""
    return f"{API_FOLDER}/{lang}/{kind}/{ident}.json"
