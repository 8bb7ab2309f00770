"""Where each generated page lives, and the relative links between pages (render stage).

Every language's site has the same pages at the same paths, so that the language switch can
lead to the same page; links are relative (``../rules/retrace.html#702.78a``) so that the site
works from ``file://`` and from any folder it is unpacked into. Page paths are the Markdown
paths in the docs folder (``rules/retrace.md``); mkdocs (with ``use_directory_urls: false``)
writes them as ``rules/retrace.html``.
"""

from __future__ import annotations

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


def card_page(card_id: str) -> str:
    return f"cards/{card_id}.md"


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
