"""Where each generated page lives, and the relative links between pages (render stage).

Every language's site has the same pages at the same paths, so that the language switch can
lead to the same page; links are relative (``../rules/retrace.html#702.78a``) so that the site
works from ``file://`` and from any folder it is unpacked into. Page paths are the Markdown
paths in the docs folder (``rules/retrace.md``); mkdocs (with ``use_directory_urls: false``)
writes them as ``rules/retrace.html``.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

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


# a group page of 90 cards is ~0.2 MB, at most ~370 KB with their rulings (with 100, cards/thea
# was 412 KB: a phone opens 400 KB at most at once, issue 32.3)
MAX_CARDS_PER_PAGE = 90


def _letters(card_id: str) -> str:
    return "".join(ch for ch in card_id if ch.isalnum())


@functools.lru_cache(maxsize=None)   # asked for every card of the JSON API, in every language
def card_group(card_id: str) -> str:
    """The group of cards of a card's JSON file (``api/<lang>/cards/qu.json``): the first two
    letters or digits of its id (``queens-agent`` -> ``qu``)."""
    return _letters(card_id)[:2] or "0"


def card_group_page(group: str) -> str:
    return f"cards/{group}.md"


@dataclass(frozen=True)
class CardPages:
    """Which page shows each card: ``cards/<group>.html``, the card at the anchor of its id.

    A group is the cards whose ids begin with the same two letters or digits (``qu``: Queen's
    Agent …), as long as they are at most `MAX_CARDS_PER_PAGE`; a larger group (``ma``: 480
    cards of all MTGJSON sets) is cut at its three-letter groups into consecutive runs of at most
    that many, each page named after the first three letters of its run (``mac``, ``mag``,
    ``mar`` …), and a three-letter group larger than that at its four letters, and so on. Some
    24,000 cards are then ~520 pages per language (a page per card would be 72,000 mkdocs pages,
    ~25 minutes of building on two cores), none larger than 90 cards. A card keeps its page as
    cards are added unless its group grows past the limit or its run is cut anew."""

    groups: Mapping[str, str]    # card id -> the group of its page

    @classmethod
    def of(cls, card_ids: Iterable[str]) -> "CardPages":
        ordered = sorted(card_ids, key=lambda cid: (_letters(cid), cid))
        groups: dict[str, str] = {}
        for key, found in itertools.groupby(ordered, key=card_group):
            _place(list(found), key, 2, groups)
        return cls(MappingProxyType(groups))

    def group(self, card_id: str) -> str:
        found = self.groups.get(card_id)
        return found if found is not None else card_group(card_id)

    def page(self, card_id: str) -> str:
        """The Markdown path of the page that shows a card (``cards/qu.md``)."""
        return card_group_page(self.group(card_id))

    def href(self, from_page: str, card_id: str) -> str:
        """A relative link to a card: its page at the card's id."""
        return href(from_page, self.page(card_id), card_id)


def _place(cards: list[str], name: str, depth: int, groups: dict[str, str]) -> None:
    """Give `cards` (ids sharing their first `depth` letters, in order) the page `name`, or cut
    them at their next letter into runs of pages (`CardPages`)."""
    if len(cards) <= MAX_CARDS_PER_PAGE:
        groups.update((cid, name) for cid in cards)
        return
    sub = [(key, list(found)) for key, found in
           itertools.groupby(cards, key=lambda cid: _letters(cid)[:depth + 1] or "0")]
    if len(sub) == 1 and len(sub[0][0]) <= depth:   # the ids have no more letters to cut at
        groups.update((cid, name) for cid in cards)
        return
    run: list[str] = []
    run_name = ""
    for key, found in sub:
        if len(found) > MAX_CARDS_PER_PAGE:
            if run:
                groups.update((cid, run_name) for cid in run)
                run = []
            _place(found, key, depth + 1, groups)
            continue
        if run and len(run) + len(found) > MAX_CARDS_PER_PAGE:
            groups.update((cid, run_name) for cid in run)
            run = []
        if not run:
            run_name = key
        run += found
    if run:
        groups.update((cid, run_name) for cid in run)


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
