"""The Jinja2 environment of the render stage: every page and report shape is a template under
``tools/rulekb/templates/`` (HTML autoescaped, so nothing from the data reaches a page
unescaped), compiled once per process and cached by Jinja2 itself.

The site's pages are ``templates/pages/*.j2`` (macros in ``pages/_macros.html.j2``). The render
modules decide what a page shows and hand the templates plain values; a template never builds a
link or escapes by hand. Escaping is markupsafe's, through autoescape, and nothing else: a value
is escaped where it is written unless it is `Markup`, which only the render code makes, from
HTML it escaped itself (a text with its links, a word diff).

What a template has besides its values:

- ``_``, ``ngettext`` and ``ui`` of the page's language (`render`); a UI string is written
  ``{{ _("Rules") }}``, so that `rulekb.i18n.extract_messages` finds it in the template.
- the filter ``fill``: a translated message with ``{placeholders}`` filled in, the message and
  every plain value escaped, `Markup` values kept: ``{{ _("{number} since {start}")|fill(number=
  number_html, start=date) }}``.
- the filter ``md``: a text that Markdown shows literally (a heading's words).
- the filter ``yaml_string``: a front-matter value (escaped, then quoted as JSON, which is YAML).
- ``paths``: the page paths and relative links of `render.paths` (``paths.href(page, to, anchor)``).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..i18n import UI
from . import paths

__all__ = ["environment", "template", "render", "fill", "md", "yaml_string"]

# what Markdown reads as formatting inside a line of text
# (not ~: Python-Markdown without a tilde extension does not read "\~" as an escape, the backslash would show)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")


def fill(message: str, **values: Any) -> Markup:
    """`message` (a translated string with ``{name}`` placeholders) escaped, its placeholders
    filled with `values` (escaped unless they are `Markup`)."""
    return escape(message).format(**values)


@functools.lru_cache(maxsize=1024)   # the same few section headings on every page
def md(text: str) -> Markup:
    """Text that Markdown shows literally in a line: escaped for HTML (markupsafe), white space
    collapsed, Markdown's special characters backslash-escaped."""
    return Markup(_MD_SPECIAL.sub(r"\\\1", " ".join(str(escape(text)).split())))


def yaml_string(text: str) -> Markup:
    """A front-matter value: escaped (mkdocs' templates write the title unescaped), then a
    JSON string, which YAML reads as the same string."""
    return Markup(json.dumps(str(escape(text)), ensure_ascii=False))


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    """The one environment (created on first use, not at import)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulekb", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "xml", "svg", "j2"), default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,      # compiled once per process: the package's templates do not change under it
        cache_size=-1,
    )
    env.filters.update(fill=fill, md=md, yaml_string=yaml_string)
    env.globals.update(paths=paths)
    return env


def template(name: str) -> jinja2.Template:
    """The compiled template `name` (e.g. ``pages/rule.md.j2``)."""
    return environment().get_template(name)


def render(name: str, ui: UI, **values: Any) -> str:
    """Template `name` rendered in the language of `ui` with `values`."""
    return template(name).render(ui=ui, _=ui._, ngettext=ui.ngettext, **values)
