"""Rule numbers as URLs (render stage): ``<lang>/n/<number>.html`` for every number of every
imported release (rules and subrules) and every number the rules' histories name, a small page
that leads to the rule's page today, at the subrule's anchor.

- a number that means the same rule (or subrule) today leads there at once (meta refresh and a
  visible link: it works from ``file://``; relative URLs);
- a number that now means another rule leads to today's rule and says what the number meant
  before, with a link (702.78: Conspire today; Retrace from 2009-07-11 to 2011-05-01); it waits
  `WAIT` seconds before it moves on, so that the reader can see which rule they came for;
- a number that no longer exists leads to the rule that had it last (502.16: Buyback, today
  702.27) and says so.

The pages are many (every number × every language) and need no theme: they are site-root files
(`RenderedSite.files`), written beside mkdocs' output, not mkdocs pages. Their shape is
``templates/pages/number.html.j2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..numbering import Holder, number_holders  # noqa: F401  (number_holders: the render package takes it from here)
from . import paths
from .context import Lang
from .templating import fill, template

FOLDER = "n"
WAIT = 10          # seconds before a number that meant another rule moves on to today's rule
TEMPLATE = "pages/number.html.j2"


def number_page(number: str) -> str:
    """The page of a number, relative to a language's site (``n/702.78a.html``)."""
    return f"{FOLDER}/{number}.html"


@dataclass(frozen=True)
class Other:
    """Another rule that had the number: a link to it and when."""

    href: str
    name: str
    spans: str


def _name(c: Lang, holder: Holder) -> str:
    """"702.81 Retrace" or "702.81a (Retrace)" in the reader's language, as it is numbered today
    (`Rule.current_number`; a rule that left the rules: as it was last)."""
    rule = holder.rule
    title = c.titles.get(rule.id, "")
    if holder.subrule is None:
        return f"{rule.current_number} {title}".strip()
    number = rule.current_number + holder.subrule.letter
    return f"{number} ({title})" if title else number


def _spans(c: Lang, holder: Holder) -> str:
    _ = c.ui._
    parts = []
    for span in holder.spans:
        first = c.ui.date(span.first) if span.first else None
        last = c.ui.date(span.last) if span.last else None
        if first and span.last is None:
            parts.append(_("since {first}").format(first=first))
        elif first and last and first != last:
            parts.append(_("{first} … {last}").format(first=first, last=last))
        elif first or last:
            parts.append(first or _("until {last}").format(last=last))
    return ", ".join(parts)


def number_pages(c: Lang, holders: dict[str, tuple[Holder, ...]]) -> dict[str, str]:
    """The pages of one language, by path relative to the site root (``en/n/702.78.html``)."""
    _ = c.ui._
    page = template(TEMPLATE)
    out: dict[str, str] = {}
    for number, found in holders.items():
        here = number_page(number)
        target, others = found[0], found[1:]
        href = paths.href(here, paths.rule_page(target.rule.id), target.anchor)
        link = Markup('<a href="{}">{}</a>').format(href, _name(c, target))
        if target.today:
            lead = fill(_("Today, {number} is {target}."), number=number, target=link)
        else:
            lead = fill(_("{number} is no longer a rule number; it was the number of {target} ({spans})."),
                        number=number, target=link, spans=_spans(c, target))
        before = [fill(_("Before, {number} was the number of {other} ({spans})."), number=number,
                       other=Markup('<a href="{}">{}</a>').format(
                           paths.href(here, paths.rule_page(h.rule.id), h.anchor), _name(c, h)), spans=_spans(c, h))
                  for h in others]
        out[f"{c.lang}/{here}"] = page.render(
            lang=c.lang, title=_("Rule {number}").format(number=number), href=href, lead=lead, before=before,
            wait=WAIT if others else 0)
    return out
