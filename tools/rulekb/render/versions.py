"""The "Versions" section of a rule page (render stage): for every unit of the rule with two or
more distinct English versions, the releases (or source) of each version and word-level diffs
between any two of its releases: each release against the next, shown open, and every wider
span (version 1 to 3, 1 to 4, 2 to 4 …) folded beneath them; each English text known only from
its source (e.g. an older wording quoted by a seed) against the text shown on the page.

No script: the diffs are made here, once per pair of distinct texts (a text unchanged over
several releases is one version), and only for the texts that changed — a rule whose texts
never changed gets no section. Each unit is folded in a ``<details>``, and the section is kept
out of the search index like the number history. `rulekb diff NUMBER OLD NEW` prints the same
diffs in the terminal.
"""

from __future__ import annotations

from functools import lru_cache

from ..worddiff import word_diff
from ..releases import english_versions
from ..models import SOURCE_LANGUAGE, Rule, Unit, Variant
from .context import Lang
from .markup import e, heading

_TAG = {"delete": "del", "insert": "ins"}


def unit_versions(unit: Unit) -> list[tuple[tuple[str, ...], Variant]]:
    """The distinct English versions of a unit: (releases, variant). First the versions of
    official releases, oldest first; then the texts known only from their source (releases
    empty) whose wording differs from every other version, the canonical one last."""
    versions = [(tuple(sorted(releases)), variant) for releases, variant in english_versions(unit)]
    texts = {v.text for _r, v in versions}
    others = sorted((v for v in unit.variants.get(SOURCE_LANGUAGE, ()) if not v.releases), key=lambda v: v.canonical)
    for variant in others:
        if variant.text not in texts:
            texts.add(variant.text)
            versions.append(((), variant))
    return versions


def comparisons(versions: list[tuple[tuple[str, ...], Variant]], shown: Variant | None) -> list[tuple[int, int]]:
    """The pairs of versions (indexes) whose diff is shown: consecutive releases, then every wider
    span of releases (older first); each text known only from its source against the text on
    the page (or, when it is that text, the newest release against it)."""
    released = [i for i, (releases, _v) in enumerate(versions) if releases]
    pairs = list(zip(released, released[1:]))
    pairs += [(old, new) for k, old in enumerate(released) for new in released[k + 2:]]
    page = next((i for i, (_r, v) in enumerate(versions) if v is shown or (shown is not None and v.text == shown.text)),
                None)
    for i, (releases, _v) in enumerate(versions):
        if releases:
            continue
        if page is not None and i != page:
            pairs.append((i, page))
        elif i == page and released:
            pairs.append((released[-1], i))
    return pairs


@lru_cache(maxsize=16384)
def diff_html(old: str, new: str) -> str:
    """The word-level diff as escaped HTML: deleted words in <del>, inserted ones in <ins>.
    (Cached: every language's page shows the same English diff.)"""
    out = []
    for op, text in word_diff(old, new):
        html = e(text).replace("\n", "<br>")
        tag = _TAG.get(op)
        out.append(f"<{tag}>{html}</{tag}>" if tag else html)
    return "".join(out)


def versions_section(c: Lang, rule: Rule) -> list[str]:
    """The section's blocks (heading and one folded block per changed unit), or none."""
    _ = c.ui._
    units = [(unit, unit_versions(unit)) for unit in rule.units]
    units = [(unit, versions) for unit, versions in units if len(versions) >= 2]
    if not units:
        return []
    intro = e(_("The English texts of this rule that changed, version by version: deleted words are struck "
                "through, added words are underlined."))
    items = [_unit_block(c, unit, versions) for unit, versions in units]
    return [heading(2, _("Versions"), "versions", search=False),
            f'<div class="rulekb-versions" data-search-exclude><p class="rulekb-meta">{intro}</p>{"".join(items)}</div>']


def _unit_block(c: Lang, unit: Unit, versions: list[tuple[tuple[str, ...], Variant]]) -> str:
    _ = c.ui._
    shown = unit.text(SOURCE_LANGUAGE)
    rows = []
    for n, (releases, variant) in enumerate(versions, 1):
        if releases:
            where = ", ".join(e(c.ui.date(r)) for r in releases)
        else:
            where = f'<span lang="en">{e(c.source_title(variant.source))}</span>'
        mark = f' <em>{e(_("(the text on this page)"))}</em>' if shown is not None and variant.text == shown.text else ""
        rows.append(f'<li><strong>{e(_("Version {n}").format(n=n))}</strong>: {where}{mark}</li>')
    diffs = []
    released = [i for i, (releases, _v) in enumerate(versions) if releases]
    for i, j in comparisons(versions, shown):
        head = e(_("From version {old} to version {new}").format(old=i + 1, new=j + 1))
        body = f'<p class="rulekb-diff" lang="en">{diff_html(versions[i][1].text, versions[j][1].text)}</p>'
        if i in released and j in released and released.index(j) - released.index(i) > 1:   # a wider span: folded
            diffs.append(f'<details class="rulekb-diff-span"><summary class="rulekb-diff-head">{head}</summary>{body}</details>')
        else:
            diffs.append(f'<p class="rulekb-diff-head">{head}</p>{body}')
    count = c.ui.ngettext("{n} version", "{n} versions", len(versions)).format(n=len(versions))
    anchor = f"versions-{unit.id.rsplit('.', 1)[1]}"
    return (f'<details class="rulekb-versions-unit" id="{e(anchor)}"><summary>'
            f'<span class="rulekb-number">{e(c.unit_name(unit, short=True))}</span> — {e(count)}</summary>'
            f'<ul class="rulekb-version-list">{"".join(rows)}</ul>{"".join(diffs)}</details>')
