"""Card pages and the card index, for one language's site (render stage): a card's names in
every language, its printing, its mechanic's rule and its rulings by date (dates in the
locale's long form).
"""

from __future__ import annotations

from markupsafe import Markup

from ..models import Card
from . import paths
from .context import Lang
from .markup import front_matter, heading, page
from .rules import ruling_block
from .text import Where


def card_title(c: Lang, card: Card) -> tuple[str, str]:
    """The card's name in this language (else English) and the language of that name."""
    if c.lang in card.names:
        return card.names[c.lang], c.lang
    return card.names["en"], "en"


def card_page(c: Lang, card: Card) -> str:
    _ = c.ui._
    where = Where(paths.card_page(card.id), card=card.id)
    name, name_lang = card_title(c, card)
    blocks: list[Markup | str] = []
    badge = Markup("")
    if name_lang != c.lang:
        badge = Markup(' <span data-search-exclude class="rulekb-badge rulekb-badge--untranslated">{}</span>').format(
            c.ui.capitalised(_("{language} — not yet translated").format(language=c.ui.language_name(name_lang))))
    blocks.append(Markup('<h1 class="rulekb-title"><span lang="{}">{}</span>{}</h1>').format(name_lang, name, badge))
    rows = []
    for lang in c.kb.languages:
        value = card.names.get(lang.code)
        cell = (Markup('<td lang="{}">{}</td>').format(lang.code, value) if value
                else Markup('<td class="rulekb-cell--missing">{}</td>').format(_("missing")))
        rows.append(Markup('<tr><th scope="row" lang="{}">{}</th>{}</tr>').format(lang.code, lang.name, cell))
    blocks.append(heading(2, _("Names"), "names"))
    blocks.append(Markup('<table class="rulekb-names"><tbody>{}</tbody></table>').format(Markup("").join(rows)))
    blocks.append(heading(2, _("Card"), "card"))
    facts = [
        (_("Set"), Markup("{} #{}").format(card.set_code, card.collector_number)),
        (_("Oracle ID"), Markup("<code>{}</code>").format(card.oracle_id)),
        (_("Source"), Markup('<span lang="en">{}</span>').format(c.source_title(card.source))),
    ]
    rulings = c.shared.rulings_by_card.get(card.id, ())
    mechanics = sorted({r.mechanic for r in rulings})
    for mechanic in mechanics:
        rule = c.kb.rule(mechanic)
        if rule is not None:
            facts.append((_("Mechanic"), Markup('<a href="{}"><span class="rulekb-number">{}</span> {}</a>').format(
                paths.href(where.page, paths.rule_page(rule.id)), rule.number, c.inline_title(rule))))
    blocks.append(Markup('<dl class="rulekb-facts">{}</dl>').format(
        Markup("").join(Markup("<dt>{}</dt><dd>{}</dd>").format(k, v) for k, v in facts)))
    blocks.append(heading(2, _("Rulings"), "rulings"))
    if not rulings:
        blocks.append(Markup('<p class="rulekb-none">{}</p>').format(_("No rulings for this card in this knowledge base.")))
    current_date = None
    for ruling in rulings:  # sorted by date
        if ruling.date != current_date:
            current_date = ruling.date
            blocks.append(heading(3, c.ui.date(ruling.date), f"date-{ruling.date}"))
        blocks.append(ruling_block(c, ruling, where, show_cards=False, show_date=False))
    blocks.append(Markup('<p class="rulekb-lead"><a href="{}">{}</a></p>').format(
        paths.to_site_root(where.page) + paths.api_path(c.lang, "cards", card.id), _("This card as JSON")))
    return page(front_matter(name), blocks)


def card_index(c: Lang) -> str:
    _ = c.ui._
    where = Where(paths.CARD_INDEX)
    rows = []
    for card in sorted(c.kb.cards, key=lambda k: (card_title(c, k)[0].casefold(), k.id)):
        name, name_lang = card_title(c, card)
        others = Markup(", ").join(
            Markup('<span lang="{}">{}</span>').format(code, text) for code, text in
            ((lang.code, card.names.get(lang.code)) for lang in c.kb.languages) if text and code != name_lang)
        count = len(c.shared.rulings_by_card.get(card.id, ()))
        rows.append(Markup('<tr><td><a href="{}" lang="{}">{}</a></td><td>{}</td><td>{} #{}</td><td>{}</td></tr>').format(
            paths.href(where.page, paths.card_page(card.id)), name_lang, name, others, card.set_code, card.collector_number, count))
    title = _("Cards")
    table = Markup('<table class="rulekb-index"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>').format(
        _("Card"), _("Other names"), _("Set"), _("Rulings"), Markup("\n").join(rows))
    return page(front_matter(title), [Markup("<h1>{}</h1>").format(title), table])
