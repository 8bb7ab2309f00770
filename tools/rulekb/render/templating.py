"""The Jinja2 environment of the render stage: every page and report shape is a template under
``tools/rulekb/templates/`` (HTML autoescaped, so nothing from the data reaches a page
unescaped), compiled once per process and cached by Jinja2 itself, and the compiled code kept
in the per-user cache (`CompiledTemplates`) for the next process.

The site's pages are ``templates/pages/*.md.j2``, each defining its page as the macro
``markdown`` (`Pages`), with the shared pieces as macros in ``pages/_macros.html.j2``; the
language picker at the site root is the plain template ``pages/root.html.j2``. The render
modules decide what a page shows and hand the templates plain values; a template never builds a
link or escapes by hand. Escaping is markupsafe's, through autoescape, and nothing else: a value
is escaped where it is written unless it is `Markup`, which only the render code makes, from
HTML it escaped itself (a text with its links, a word diff).

What a template has besides its values:

- ``_``, ``ngettext`` and ``ui`` of the page's language (`Pages`); a UI string is written
  ``{{ _("Rules") }}``, so that `rulekb.i18n.extract_messages` finds it in the template.
- ``m``: the macros of ``pages/_macros.html.j2`` in the page's language (made once per
  language by `Pages`, rather than imported by each page again).
- the filter ``fill``: a translated message with ``{placeholders}`` filled in, the message and
  every plain value escaped, `Markup` values kept: ``{{ _("{number} since {start}")|fill(number=
  number_html, start=date) }}``.
- the filter ``md``: a text that Markdown shows literally (a heading's words).
- the filter ``heading``: ``{{ _("Notes")|heading(2, "notes") }}`` is the Markdown heading
  ``## Notes {#notes}`` (its words through ``md``; ``search=false`` keeps its section out of
  the search index: ``{#notes data-search-exclude}``). A filter, not a macro: the same few
  headings are on thousands of pages, and a filter's result is kept.
- the filter ``front_matter``: ``{{ title|front_matter }}`` is a page's YAML front matter
  (``hide=(…)``: parts of the theme to hide; ``search_exclude=true``: left out of the search).
  A filter rather than a macro: it is YAML for mkdocs, not the page's shape, and every page
  has one (as a macro it cost 0.09 s of processor time over the 3,909 rule pages of the bench).
"""

from __future__ import annotations

import functools
import json
import os
import re
from typing import Any, Iterable

import jinja2
import jinja2.bccache
from markupsafe import Markup, escape

from .. import cache
from ..i18n import UI

__all__ = ["environment", "make_environment", "compiled_templates", "CompiledTemplates", "template", "Pages", "fill", "md", "heading", "front_matter"]

MACROS = "pages/_macros.html.j2"

# what Markdown reads as formatting inside a line of text
# (not ~: Python-Markdown without a tilde extension does not read "\~" as an escape, the backslash would show)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")
_BREAKING_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def fill(message: str, **values: Any) -> Markup:
    """`message` (a translated string with ``{name}`` placeholders) escaped, its placeholders
    filled with `values` (escaped unless they are `Markup`): ``Markup.format`` for plain
    ``{name}`` fields, in a third of its time (it is on every rule page)."""
    # a plain message (the catalog's) escaped once; a Markup one is kept as it is
    escaped = _escaped(message) if type(message) is str else str(escape(message))
    return Markup(escaped.format_map({k: escape(v) for k, v in values.items()}))


@functools.lru_cache(maxsize=1024)   # the same few dozen messages on every page
def _escaped(message: str) -> str:
    return str(escape(message))


@functools.lru_cache(maxsize=1024)   # the same few section headings on every page
def md(text: str) -> Markup:
    """Text that Markdown shows literally in a line: escaped for HTML (markupsafe), white space
    collapsed (the line-breaking kind only: a no-break space stays, as French writes it before a
    colon), Markdown's special characters backslash-escaped. Quotes stay quotes: outside an
    attribute they need no escaping, and markupsafe's ``&#39;``/``&#34;`` would have their ``#``
    backslash-escaped, which the heading survives but not the table of contents Markdown makes
    of it (``Queen&amp;#39;s Agent``, issue 31.5)."""
    escaped = str(escape(text)).replace("&#39;", "'").replace("&#34;", '"')
    return Markup(_MD_SPECIAL.sub(r"\\\1", _BREAKING_SPACE.sub(" ", escaped).strip(" ")))


@functools.lru_cache(maxsize=1024)
def heading(text: str, level: int, anchor: str, search: bool = True) -> Markup:
    """A Markdown heading with a fixed id (it appears in the page's table of contents); with
    `search=False` its section (up to the next heading) stays out of the search index
    (material's ``data-search-exclude``)."""
    attrs = f"#{escape(anchor)}" if search else f"#{escape(anchor)} data-search-exclude"
    return Markup(f"{'#' * level} {md(text)} {{{attrs}}}")


def front_matter(title: str, hide: Iterable[str] = (), search_exclude: bool = False) -> Markup:
    """A page's YAML front matter. The title is stored escaped (mkdocs' templates write it
    unescaped) as a JSON string, which YAML reads as the same string."""
    lines = ["---", f"title: {_JSON.encode(str(escape(title)))}"]
    hidden = list(hide)
    if hidden:
        lines.append("hide:")
        lines += [f"  - {escape(item)}" for item in hidden]
    if search_exclude:
        lines += ["search:", "  exclude: true"]
    lines.append("---")
    return Markup("\n".join(lines))


_JSON = json.JSONEncoder(ensure_ascii=False)   # json.dumps(…, ensure_ascii=False), its encoder made once


class CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja2's compiled templates kept on disk, under ``<cache dir>/templates/<version>/``
    (`rulekb.cache.cache_dir`): a process then reads the compiled code of a template (a few
    milliseconds for all pages) instead of compiling it (0.2 s). Jinja2 keys each entry by the
    template's name and checks the checksum of its source; the folder's name is a hash of this
    module and Jinja2's version, which decide how a template compiles. A cache that cannot be
    written (read-only, disk full) or read is left alone: it only ever saves time."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError:
            pass

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def compiled_templates() -> CompiledTemplates | None:
    """The cache of compiled templates (None when ``RULEKB_CACHE_DIR`` is set empty)."""
    store = cache.store("templates")
    return None if store is None else CompiledTemplates(str(store.folder))


def make_environment(compiled: jinja2.BytecodeCache | None) -> jinja2.Environment:
    """The render stage's environment, keeping compiled templates in `compiled` if any."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulekb", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "xml", "svg", "j2"), default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,      # compiled once per process: the package's templates do not change under it
        cache_size=-1,
        bytecode_cache=compiled,
    )
    env.filters.update(fill=fill, md=md, heading=heading, front_matter=front_matter)
    return env


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    """The one environment (created on first use, not at import)."""
    return make_environment(compiled_templates())


def template(name: str) -> jinja2.Template:
    """The compiled template `name` (e.g. ``pages/rule.md.j2``)."""
    return environment().get_template(name)


class Pages:
    """The page templates in the language of `ui`. A page template defines its page as the
    macro ``markdown`` (its parameters: the values it shows); each template is compiled once
    per process and made into a module once per language here, with ``ui``, ``_``,
    ``ngettext`` and ``m`` (the macros of ``pages/_macros.html.j2``) of that language. A page
    is then one macro call: a third less time than rendering the template for each of the
    thousands of rule pages, whose context would be made again each time."""

    def __init__(self, ui: UI):
        self.ui = ui
        names = {"ui": ui, "_": ui._, "ngettext": ui.ngettext, "num": ui.number}
        self.macros = template(MACROS).make_module(names)
        self._names = {**names, "m": self.macros}
        self._modules: dict[str, Any] = {}

    def module(self, name: str) -> Any:
        """Template `name` made into a module in this language: its macros (the page is
        ``markdown``; a page template may define the pieces its render module keeps, as
        ``pages/card.md.j2`` does)."""
        module = self._modules.get(name)
        if module is None:
            module = self._modules[name] = template(name).make_module(self._names)
        return module

    def render(self, name: str, **values: Any) -> str:
        """The page of template `name` (``pages/rule.md.j2``) with `values`."""
        return str(self.module(name).markdown(**values))
