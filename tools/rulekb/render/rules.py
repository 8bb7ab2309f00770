"""Rule pages, the parallel view of a rule, the rule index and the keyword index, for one
language's site (render stage). Each function returns one page as Markdown text: front matter,
section headings for the table of contents, and escaped HTML blocks for every data text.

The HTML is written with f-strings around `e` (`markup.e`: markupsafe's escape without its Markup
objects): every value from the data or the catalogs goes through `e`; this is also several times faster than Markup.format, which
matters with thousands of rules.
"""

from __future__ import annotations

import unicodedata

from ..releases import english_versions
from ..link import Moved
from ..models import Rule, Ruling
from . import paths
from .context import Lang
from .markup import e, front_matter, heading, page
from .text import State, Where
from .versions import diff_html, versions_section


def rule_page(c: Lang, rule: Rule) -> str:
    _ = c.ui._
    where = Where(paths.rule_page(rule.id), rule=rule.id)
    blocks: list[str] = []
    h1_id = f' id="{e(rule.number)}"' if rule.text is None else ""
    blocks.append(f'<h1{h1_id} class="rulekb-title"><span class="rulekb-number">{e(rule.number)}</span> '
                  f'{c.inline_title(rule)}</h1>')
    blocks.append(_lead(c, rule, where))
    if rule.summary is not None:
        blocks.append(f'<div class="admonition abstract rulekb-summary"><p class="admonition-title">{e(_("Summary"))}</p>\n'
                      f'{c.unit_block(rule.summary, where, anchor="summary", label=None, kind="summary")}</div>')
    if rule.text is not None or rule.subrules:
        blocks.append(heading(2, _("Rule"), "rule"))
        if rule.text is not None:
            blocks.append(c.unit_block(rule.text, where, anchor=rule.number, label=rule.number, kind="text"))
        for sub in rule.subrules:
            blocks.append(c.unit_block(sub.unit, where, anchor=sub.number, label=sub.number, kind="subrule"))
    if rule.notes:
        blocks.append(heading(2, _("Notes"), "notes"))
        for note in rule.notes:
            anchor = note.id.rsplit(".", 1)[1]
            blocks.append(c.unit_block(note, where, anchor=anchor, label=_("Note {n}").format(n=anchor[1:]), kind="note"))
    rulings = c.shared.rulings_by_mechanic.get(rule.id, ())
    if rulings:
        blocks.append(heading(2, _("Rulings"), "rulings"))
        blocks += [ruling_block(c, ruling, where) for ruling in rulings]
    moved = c.shared.linked.moved.get(rule.id, ())
    if rule.history or moved:
        blocks.append(heading(2, _("Number history"), "history", search=False))
        if rule.history:
            blocks.append(history_list(c, rule))
        if moved:
            blocks.append(moves_list(c, rule, moved, where))
    blocks += versions_section(c, rule)
    blocks.append(heading(2, _("Sources"), "sources", search=False))
    blocks.append(sources_list(c, rule))
    blocks.append(heading(2, _("Referenced by"), "referenced-by", search=False))
    blocks.append(backlinks(c, rule, where))
    return page(front_matter(c.rule_name(rule)), blocks)


def _lead(c: Lang, rule: Rule, where: Where) -> str:
    _ = c.ui._
    items = [e(_("Comprehensive Rules of {date}").format(date=c.ui.date(rule.release)))]
    if rule.current_number != rule.number:
        items.append(e(_("today {number}").format(number=rule.current_number)))
    if c.lang != "en":
        counts = c.translated_counts(rule)
        done = counts.get(State.CURRENT, 0) + counts.get(State.STALE, 0)
        status = _("{done} of {total} texts translated").format(done=done, total=len(rule.units))
        if counts.get(State.STALE):
            status += ", " + c.ui.ngettext("{n} stale", "{n} stale", counts[State.STALE]).format(n=counts[State.STALE])
        items.append(e(status))
    if has_parallel_view(c, rule):
        items.append(f'<a href="{e(paths.href(where.page, paths.parallel_page(rule.id)))}">{e(_("Parallel view"))}</a>')
    items.append(f'<a href="{e(paths.to_site_root(where.page) + paths.api_path(c.lang, "rules", rule.id))}">{e(_("JSON"))}</a>')
    return f'<p class="rulekb-lead" data-search-exclude>{" · ".join(items)}</p>'


def ruling_block(c: Lang, ruling: Ruling, where: Where, *, show_cards: bool = True, show_date: bool = True) -> str:
    _ = c.ui._
    parts = []
    if show_date:
        parts.append(f'<p class="rulekb-ruling-date"><time datetime="{e(ruling.date)}">{e(c.ui.date(ruling.date))}</time></p>')
    parts.append(str(c.unit_block(ruling.unit, where, anchor=ruling.id, label=None, kind="ruling")))
    if show_cards and ruling.cards:
        links = ", ".join(f'<a href="{e(paths.href(where.page, paths.card_page(cid)))}">{card_name(c, cid)}</a>'
                          for cid in ruling.cards)
        label = c.ui.ngettext("Applies to {n} card", "Applies to {n} cards", len(ruling.cards)).format(n=len(ruling.cards))
        parts.append(f'<details class="rulekb-ruling-cards"><summary>{e(label)}</summary><p>{links}</p></details>')
    return '<div class="rulekb-ruling">' + "\n".join(parts) + "</div>"


def card_name(c: Lang, card_id: str) -> str:
    card = c.kb.card(card_id)
    if card is None:
        return e(card_id)
    lang = c.lang if c.lang in card.names else "en"
    return f'<span lang="{lang}">{e(card.names[lang])}</span>'


def history_list(c: Lang, rule: Rule) -> str:
    _ = c.ui._
    items = []
    for entry, end, current in rule.history_spans():
        number = f'<span class="rulekb-number">{e(entry.number)}</span>'
        start = e(c.ui.date(entry.since)) if entry.since else None
        stop = e(c.ui.date(end)) if end else None
        if current:
            text = e(_("{number} since {start} (today)")).format(number=number, start=start)
        elif start and stop:
            text = e(_("{number} from {start} to {end}")).format(number=number, start=start, end=stop)
        elif stop:
            text = e(_("{number} until {end}")).format(number=number, end=stop)
        elif start:
            text = e(_("{number} since {start}")).format(number=number, start=start)
        else:
            text = number
        if entry.number == rule.number:
            items.append(f'<li class="rulekb-history--shown">{text} <em>{e(_("(the text on this page)"))}</em></li>')
        else:
            items.append(f"<li>{text}</li>")
    sources = "; ".join(f'<span lang="en">{e(c.source_title(s))}</span>' for s in sorted({h.source for h in rule.history}))
    return f'<ul class="rulekb-history">{"".join(items)}</ul>\n<p class="rulekb-meta">{e(_("Source"))}: {sources}</p>'


def moves_list(c: Lang, rule: Rule, moved: tuple[Moved, ...], where: Where) -> str:
    """The texts that moved into this rule from another one, or out of it into another one,
    each with a link to the other rule; a text that was reworded on the way shows the change."""
    _ = c.ui._
    items = []
    for m in moved:
        if m.rule is rule:  # moved here
            other = _numbered_link(c, where, m.previous_rule, m.previous_number, "history")
            mine = f'<span class="rulekb-number">{e(m.number)}</span>'
            if m.until:
                text = e(_("{number} was {previous} until {end}")).format(number=mine, previous=other,
                                                                          end=e(c.ui.date(m.until)))
            else:
                text = e(_("{number} was {previous}")).format(number=mine, previous=other)
            old, new = (english_versions(u) for u in (m.previous, m.unit))
            if old and new and old[-1][1].text != new[0][1].text:
                head = e(_("From {old} to {new}").format(old=m.previous_number, new=m.number))
                text += (f'<p class="rulekb-diff-head">{head}</p>'
                         f'<p class="rulekb-diff" lang="en">{diff_html(old[-1][1].text, new[0][1].text)}</p>')
        else:  # moved away
            # the anchor of the text on its page today (renumbered since, or "history" if it is gone again)
            anchor = m.rule.number if m.unit is m.rule.text else next(
                (sub.number for sub in m.rule.subrules if sub.unit is m.unit), "history")
            other = _numbered_link(c, where, m.rule, m.number, anchor)
            mine = f'<span class="rulekb-number">{e(m.previous_number)}</span>'
            if m.since:
                text = e(_("{previous} became {number} on {start}")).format(previous=mine, number=other,
                                                                             start=e(c.ui.date(m.since)))
            else:
                text = e(_("{previous} became {number}")).format(previous=mine, number=other)
        items.append(f"<li>{text}</li>")
    intro = e(_("Texts that moved between this rule and another one:"))
    return f'<p class="rulekb-meta">{intro}</p><ul class="rulekb-moves">{"".join(items)}</ul>'


def _numbered_link(c: Lang, where: Where, rule: Rule, number: str, anchor: str) -> str:
    title = c.inline_title(rule)
    return (f'<a href="{e(paths.href(where.page, paths.rule_page(rule.id), anchor))}">'
            f'<span class="rulekb-number">{e(number)}</span></a>' + (f" ({title})" if title else ""))


def sources_list(c: Lang, rule: Rule) -> str:
    """Every source of the rule's texts and of the rulings on its page, with the languages and
    texts it gives."""
    by_source: dict[str, dict[str, list[str]]] = {}
    units = list(rule.units) + [r.unit for r in c.shared.rulings_by_mechanic.get(rule.id, ())]
    for unit in units:
        for lang, variants in unit.variants.items():
            for variant in variants:
                by_source.setdefault(variant.source, {}).setdefault(lang, []).append(c.unit_name(unit, short=True))
    order = {code: i for i, code in enumerate(c.order)}
    items = []
    for source_id in sorted(by_source, key=lambda s: (c.source_title(s), s)):
        detail = "; ".join(f"{e(c.ui.language_name(lang))}: {e(', '.join(dict.fromkeys(labels)))}"
                           for lang, labels in sorted(by_source[source_id].items(), key=lambda kv: order.get(kv[0], 99)))
        source = c.kb.sources.get(source_id)
        kind = f" <small>({e(source.kind)})</small>" if source else ""
        items.append(f'<li><span lang="en">{e(c.source_title(source_id))}</span>{kind}<br><small>{detail}</small></li>')
    return f'<ul class="rulekb-sources">{"".join(items)}</ul>'


def backlinks(c: Lang, rule: Rule, where: Where) -> str:
    _ = c.ui._
    units = c.shared.linked.backlinks.get(rule.id, ())
    items = []
    for unit_id in units:
        place = c.shared.places.get(unit_id)
        unit = c.shared.units.get(unit_id)
        if place is None or unit is None:
            continue
        owner = c.kb.rule(place.rule)
        title = c.inline_title(owner) if owner else ""
        owner_name = f" — {title}" if title else ""
        items.append(f'<li><a href="{e(paths.href(where.page, place.page, place.anchor))}">{e(c.unit_name(unit))}</a>{owner_name}</li>')
    if not items:
        return f'<p class="rulekb-none">{e(_("No other text in this knowledge base refers to this rule."))}</p>'
    return f'<ul class="rulekb-backlinks">{"".join(items)}</ul>'


# ---------------------------------------------------------------- parallel view


def has_parallel_view(c: Lang, rule: Rule) -> bool:
    """Whether the rule has a parallel-view page (`context.parallel_view_rules`)."""
    return rule.id in c.shared.parallel


def parallel_page(c: Lang, rule: Rule) -> str:
    """The rule's texts side by side, one column per language, one row per unit."""
    _ = c.ui._
    where = Where(paths.parallel_page(rule.id), rule=rule.id)
    languages = c.kb.languages
    head_cells = "".join(f'<th scope="col" lang="{lang.code}">{e(lang.name)}</th>' for lang in languages)
    missing = e(_("missing"))
    rows = []
    for unit in rule.units:
        cells = []
        for lang in languages:
            variants = unit.variants.get(lang.code, ())
            if not variants:
                cells.append(f'<td class="rulekb-cell rulekb-cell--missing">{missing}</td>')
                continue
            shown = c.choose(unit, lang.code)
            stale, badge = "", ""
            if shown.state is State.STALE:
                stale, badge = " rulekb-cell--stale", f'<div class="rulekb-badges">{c.badge(shown)}</div>'
            more = ""
            if len(variants) > 1:
                n = len(variants) - 1
                more = (f'<p class="rulekb-meta">'
                        f'{e(c.ui.ngettext("{n} other version of this text", "{n} other versions of this text", n).format(n=n))}</p>')
            cells.append(f'<td class="rulekb-cell{stale}" lang="{lang.code}">{badge}{c.text_html(shown, where)}{more}</td>')
        anchor = c.shared.places[unit.id].anchor
        label = f'<a href="{e(paths.href(where.page, paths.rule_page(rule.id), anchor))}">{e(c.unit_name(unit, short=True))}</a>'
        rows.append(f'<tr id="p-{e(unit.id.rsplit(".", 1)[1])}"><th scope="row">{label}</th>{"".join(cells)}</tr>')
    intro = f'<p class="rulekb-lead"><a href="{e(paths.href(where.page, paths.rule_page(rule.id)))}">{e(_("Back to the rule page"))}</a></p>'
    title = _("{rule} — parallel view").format(rule=c.rule_name(rule))
    h1 = (f'<h1 class="rulekb-title"><span class="rulekb-number">{e(rule.number)}</span> {c.inline_title(rule)} '
          f'<small>{e(_("parallel view"))}</small></h1>')
    table = (f'<div class="rulekb-parallel-wrap"><table class="rulekb-parallel"><thead><tr><th scope="col">{e(_("Text"))}</th>'
             f'{head_cells}</tr></thead><tbody>' + "\n".join(rows) + "</tbody></table></div>")
    return page(front_matter(title, hide=("navigation", "toc"), search_exclude=True), [h1, intro, table])


# ---------------------------------------------------------------- indexes


def rule_index(c: Lang) -> str:
    _ = c.ui._
    where = Where(paths.RULE_INDEX)
    rows = []
    for rule in c.kb.rules:
        total = len(rule.units)
        if c.lang == "en":
            state = str(total)
        else:
            counts = c.translated_counts(rule)
            state = f"{counts.get(State.CURRENT, 0) + counts.get(State.STALE, 0)} / {total}"
            if counts.get(State.STALE):
                state += " " + str(c._badge("stale", c.ui.ngettext("{n} stale", "{n} stale", counts[State.STALE]).format(
                    n=counts[State.STALE])))
        rows.append(f'<tr><td><span class="rulekb-number">{e(rule.number)}</span></td>'
                    f'<td><a href="{e(paths.href(where.page, paths.rule_page(rule.id)))}">{c.inline_title(rule) or e(rule.id)}</a></td>'
                    f'<td>{e(rule.current_number)}</td><td>{state}</td>'
                    f'<td>{_parallel_link(c, where, rule, _("parallel"))}</td></tr>')
    header = "".join(f"<th>{e(h)}</th>" for h in (_("Number"), _("Rule"), _("Number today"),
                                                   _("Texts") if c.lang == "en" else _("Translated"), _("Parallel view")))
    table = f'<table class="rulekb-index"><thead><tr>{header}</tr></thead><tbody>' + "\n".join(rows) + "</tbody></table>"
    intro = f'<p>{e(_("The rules of this knowledge base, by their number in the rules release their English text comes from."))}</p>'
    title = _("Rules")
    return page(front_matter(title), [f"<h1>{e(title)}</h1>", intro, table])


def _parallel_link(c: Lang, where: Where, rule: Rule, label: str) -> str:
    if not has_parallel_view(c, rule):
        return ""
    return f'<a href="{e(paths.href(where.page, paths.parallel_page(rule.id)))}">{e(label)}</a>'


def _sort_key(text: str) -> tuple[str, str]:
    base = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return base.casefold(), text


def keyword_rules(c: Lang) -> list[Rule]:
    """The keyword abilities (702) and keyword actions (701) of the knowledge base."""
    return [r for r in c.kb.rules if r.number.split(".")[0] in ("701", "702") and "." in r.number]


def keyword_index(c: Lang) -> str:
    """Keywords alphabetically in this language, with their names in the other languages and
    the forms of the termbase, so that any name leads to the rule."""
    _ = c.ui._
    where = Where(paths.KEYWORDS)
    entries: list[tuple[tuple[str, str], str]] = []
    for rule in keyword_rules(c):
        name = c.titles.get(rule.id) or rule.id
        others = []
        if rule.title is not None:
            for lang in c.kb.languages:
                variant = rule.title.text(lang.code)
                if lang.code != c.lang and variant is not None:
                    others.append(f'<span lang="{lang.code}">{e(variant.text)}</span> <small>({lang.code})</small>')
        forms = _term_forms(c, rule.id)
        extra = ""
        if forms:
            extra = f'<br><small>{e(_("also written"))}: ' + ", ".join(
                f'<span lang="{c.lang}">{e(f)}</span>' for f in forms) + "</small>"
        entries.append((_sort_key(name), f'<li><a href="{e(paths.href(where.page, paths.rule_page(rule.id)))}">'
                                         f'{c.inline_title(rule) or e(name)}</a> <span class="rulekb-number">{e(rule.number)}</span>'
                                         f'{" — " + ", ".join(others) if others else ""}{extra}</li>'))
    entries.sort(key=lambda item: item[0])
    groups: dict[str, list[str]] = {}
    for key, item in entries:
        groups.setdefault(key[0][:1].upper() or "#", []).append(item)
    title = _("Keyword index")
    blocks: list[str] = [f"<h1>{e(title)}</h1>",
                         f'<p>{e(_("Keyword abilities and keyword actions, with their names in every language."))}</p>']
    if not groups:
        blocks.append(f'<p class="rulekb-none">{e(_("This knowledge base has no keyword rules yet."))}</p>')
    for letter, items in groups.items():
        blocks.append(heading(2, letter, f"letter-{ord(letter)}"))
        blocks.append(f'<ul class="rulekb-keywords">{"".join(items)}</ul>')
    return page(front_matter(title), blocks)


def _term_forms(c: Lang, rule_id: str) -> list[str]:
    termbase = c.shared.termbase
    if termbase is None:
        return []
    title = (c.titles.get(rule_id) or "").casefold()
    out: list[str] = []
    for concept in termbase.for_rule(rule_id):
        for term in concept.usable(c.lang):
            for form in term.forms:
                if form.casefold() != title and form not in out:
                    out.append(form)
    return out

