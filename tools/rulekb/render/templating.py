"""The Jinja2 environment of the render stage: every page and report shape is a template under
``tools/rulekb/templates/`` (HTML autoescaped, so nothing from the data reaches a page
unescaped), compiled once per process and cached by Jinja2 itself.
"""

from __future__ import annotations

import functools

import jinja2

__all__ = ["environment", "template"]


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    """The one environment (created on first use, not at import)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("rulekb", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "xml", "svg", "j2"), default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def template(name: str) -> jinja2.Template:
    """The compiled template `name` (e.g. ``pages/rule.html.j2``)."""
    return environment().get_template(name)
