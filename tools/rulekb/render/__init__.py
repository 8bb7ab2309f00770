"""Pipeline stage 5 of 6 (load -> validate -> link -> check -> render -> report): the site's
pages as text.

`render_site` is pure: from the linked knowledge base, the UI of each language, the termbase,
the translation-status pages (`status`, rendered from the QA's result), the keywords' official
names (`official`, ``translations/official.yaml``) and the hand-written
pages of ``content/``, it returns every generated Markdown page per language, the navigation
of each language, and the files at the site root (the language picker ``index.html`` and the
JSON API under ``api/``), all as {relative path: text}. Writing them and running mkdocs is the build's job (`build`).

Modules: `paths` (where pages live, relative links), `templating` (the Jinja2 environment of
the page templates, ``templates/pages/``), `markup` (the Markdown frame: blocks), `text` (a text
with its links; which language a page shows), `context` (per-language rendering context; what
a unit's block shows), `rules`, `versions`, `cards`, `glossary`, `changes` (what each page shows),
`content` (hand-written pages for every language), `status` (translation status, from the
QA's result), `api` (JSON), `root` (language picker), `offline` (offline.html, the
per-language archives, the offline mode), `numbers` (the rule numbers as URLs,
``<lang>/n/``: site-root files, beside mkdocs), `search` (the search index, prebuilt: site-root
files too). The render modules prepare typed values;
the templates give the pages their shape and escape every value (autoescape: the one escape).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..changes import ReleaseChanges
from ..diagnostics import DataError, Problem
from ..i18n import UI, N_
from ..knowledge import collection_paused
from ..link import LinkedKB
from ..timing import Clock, Part, maybe
from . import paths
from .api import api_files, api_root
from .cards import CardSite
from .content import localise_content
from .context import Lang, Shared
from .changes import INDEX as CHANGES_INDEX, all_changes, changes_pages
from .glossary import glossary_page
from .markup import checked
from .numbers import number_holders, number_pages
from .offline import offline_page, root_files as offline_files
from .root import root_index
from .rules import has_parallel_view, keyword_index, parallel_page, rule_index, rule_page
from .search import Today, language_files as search_language_files, shared_files as search_shared_files
from .search_aliases import official_aliases, search_aliases
from ..official import Official

__all__ = ["RenderedSite", "render_site", "render_pages", "with_status", "paths"]


@dataclass(frozen=True)
class RenderedSite:
    docs: Mapping[str, Mapping[str, str]]              # lang -> {docs path: Markdown}
    nav: Mapping[str, tuple[tuple[str, str], ...]]     # lang -> ((title, docs path), ...)
    files: Mapping[str, str]                           # site-root files: index.html, api/..., <lang>/n/...
    generated: Mapping[str, frozenset[str]]            # lang -> the docs paths rendered here (not content/)
    archive_files: Mapping[str, str] = field(default_factory=dict)  # site-root files the archive holds in place of `files`'s
    # lang -> the site-root files its own archive holds in place of `files`'s (its picker and offline page: that language alone)
    language_archive_files: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def render_pages(c: Lang, changes: tuple[ReleaseChanges, ...] = (), cards: CardSite | None = None) -> dict[str, str]:
    """Generated pages of one language (the status page is added by `render_site` when the QA
    has made it); `changes`: what changed in each imported release (`changes.all_changes`);
    `cards`: the card pages of every language, what they have in common made once (else made
    for this language alone)."""
    kb = c.shared.linked.kb
    docs: dict[str, str] = {}
    for rule in kb.rules:
        docs[paths.rule_page(rule.id)] = checked(rule_page(c, rule))
        if has_parallel_view(c, rule):
            docs[paths.parallel_page(rule.id)] = checked(parallel_page(c, rule))
    cards = cards or CardSite(c.shared)
    for group in cards.groups:
        docs[paths.card_group_page(group)] = checked(cards.group_page(c, group))
    docs[paths.RULE_INDEX] = checked(rule_index(c))
    docs[paths.CARD_INDEX] = checked(cards.index(c))
    docs[paths.KEYWORDS] = checked(keyword_index(c))
    docs[paths.GLOSSARY] = checked(glossary_page(c))
    docs.update({path: checked(page) for path, page in changes_pages(c, changes).items()})
    return docs


NAV = (  # (UI string, page): the short navigation of every page; rule and card pages stay out
    (N_("Home"), paths.HOME),
    (N_("Rules"), paths.RULE_INDEX),
    (N_("Keyword index"), paths.KEYWORDS),
    (N_("Cards"), paths.CARD_INDEX),
    (N_("Glossary"), paths.GLOSSARY),
    (N_("Changes"), CHANGES_INDEX),
    (N_("Translation status"), paths.STATUS),
    (N_("JSON API"), paths.API_PAGE),
    (N_("About"), paths.ABOUT),
)


def render_site(linked: LinkedKB, uis: Mapping[str, UI], *, termbase=None, official: Official | None = None,
                status: Mapping[str, str] | None = None,
                content: Mapping[str, Mapping[str, str]] | None = None,
                only: Sequence[str] | None = None, clock: Clock | None = None) -> RenderedSite:
    """Every page of every language of the knowledge base (languages from kb.languages), or of
    the languages in `only`; the site-root files always name every language. `status` (each
    language's translation-status page, `status.status_page` of the QA's result) may be left
    out and added later (`with_status`), so that the QA can run meanwhile in another process.
    With a `clock`, the processor time of the pages and of the JSON API is added to it.
    `official`: the official German and French names (translations/official.yaml), shown on the
    pages and found by the search (`search_aliases.official_aliases`).

    The cyclic garbage collector is paused meanwhile (`knowledge.collection_paused`, as for the
    load): rendering makes millions of short-lived values and keeps its pages, and every full
    collection walked the whole knowledge base and all that was kept (with all 579 sets: 6 full
    collections of ~1.1 s each, and 8.5 s of the pages' 56 s in all, for 816 objects in cycles
    left to collect when the collector resumes)."""
    with collection_paused():
        return _render_site(linked, uis, termbase, status, content, only, clock, official)


def _render_site(linked: LinkedKB, uis: Mapping[str, UI], termbase, status, content, only, clock,
                 official: Official | None = None) -> RenderedSite:
    """`render_site`, the collector paused."""
    kb = linked.kb
    languages = kb.language_codes
    with maybe(clock, Part.PAGES):
        shared = Shared.of(linked, termbase, official)
        hand = localise_content(content or {}, languages, uis)
        files: dict[str, str] = {"index.html": root_index(kb, uis), paths.OFFLINE: offline_page(kb, uis, copy=False),
                                 f"{paths.API_FOLDER}/index.json": api_root(kb), **offline_files(kb, uis)}
        archive_files = {paths.OFFLINE: offline_page(kb, uis, copy=True)}
        language_archive_files = {lang: {"index.html": root_index(kb, uis, only=lang),
                                         paths.OFFLINE: offline_page(kb, uis, copy=True, only=lang)} for lang in languages}
        contexts = {lang: Lang(shared, uis[lang]) for lang in (only or languages)}
        changes = all_changes(kb)
        cards = CardSite(shared)
        rendered = {lang: render_pages(c, changes, cards) for lang, c in contexts.items()}
    with maybe(clock, Part.API):
        for c in contexts.values():
            files.update(api_files(c))
    with maybe(clock, Part.NUMBERS):
        holders = number_holders(kb)
        for c in contexts.values():
            files.update(number_pages(c, holders))
    with maybe(clock, Part.SEARCH):
        today = Today.of(kb, holders, search_aliases(kb, shared.termbase, official_aliases(kb, shared.official)))
        files.update(search_shared_files(shared, today))
        for c in contexts.values():
            files.update(search_language_files(c, today))
    statuses = status or {}
    docs: dict[str, dict[str, str]] = {}
    generated_paths: dict[str, frozenset[str]] = {}
    nav: dict[str, tuple[tuple[str, str], ...]] = {}
    problems = []
    with maybe(clock, Part.PAGES):
        for lang, generated in rendered.items():
            ui = uis[lang]
            if lang in statuses:
                generated[paths.STATUS] = statuses[lang]
            for path in sorted((set(generated) | {paths.STATUS}) & set(hand[lang])):
                origin = next(l for l in (lang, *languages, *sorted(content or {})) if path in (content or {}).get(l, {}))
                problems.append(Problem(f"content/{origin}/{path}", 1, 1, f"the hand-written page {path} has the path of a generated page",
                                        "rename or move the hand-written page; generated: rules/, parallel/, cards/, "
                                        "changes/, keywords.md, glossary.md, status.md"))
            pages = {**hand[lang], **generated}
            docs[lang] = dict(sorted(pages.items()))
            generated_paths[lang] = frozenset(generated)
            nav[lang] = _nav(ui, pages)
    if problems:
        raise DataError(problems)
    return RenderedSite(docs, nav, dict(sorted(files.items())), generated_paths, archive_files, language_archive_files)


def _nav(ui: UI, pages: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((ui._(title), path) for title, path in NAV if path in pages)


def with_status(site: RenderedSite, status: Mapping[str, str], uis: Mapping[str, UI]) -> RenderedSite:
    """`site` with the translation-status page of each language of `status` (made by the QA,
    `status.status_page`, in another process while the other pages were rendered), its
    navigation with it. (The path is a generated page's: `render_site` refuses a hand-written
    page of that path.)"""
    docs = dict(site.docs)
    generated = dict(site.generated)
    nav = dict(site.nav)
    for lang, page in status.items():
        if lang in docs:
            docs[lang] = dict(sorted({**docs[lang], paths.STATUS: page}.items()))
            generated[lang] = generated[lang] | {paths.STATUS}
            nav[lang] = _nav(uis[lang], docs[lang])
    return RenderedSite(docs, nav, site.files, generated, site.archive_files, site.language_archive_files)
