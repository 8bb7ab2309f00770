"""The glossary page of one language's site, from the termbase (render stage): every concept
with its terms in this language (preferred, admitted, and the discouraged ones with what to
write instead), its terms in the other languages, its definition and its rule.
"""

from __future__ import annotations

from markupsafe import Markup

from . import paths
from .context import Lang
from .markup import front_matter, page
from .rules import _sort_key
from .text import Where


def glossary_page(c: Lang) -> str:
    _ = c.ui._
    where = Where(paths.GLOSSARY)
    title = _("Glossary")
    blocks: list[Markup | str] = [Markup("<h1>{}</h1>").format(title)]
    termbase = c.shared.termbase
    concepts = termbase.concepts if termbase is not None else ()
    if not concepts:
        blocks.append(Markup('<p class="rulekb-none">{}</p>').format(
            _("The termbase (translations/termbase.yaml) has no concepts yet.")))
        return page(front_matter(title), blocks)
    blocks.append(Markup("<p>{}</p>").format(_("The terms of the game in every language of this knowledge base, "
                                               "as the translations and the terminology checks use them.")))
    entries = []
    for concept in concepts:
        head, head_lang = _head(c, concept)
        entries.append((_sort_key(head), concept, head, head_lang))
    entries.sort(key=lambda e: (e[0], e[1].id))
    items = []
    for _key, concept, head, head_lang in entries:
        items.append(_entry(c, concept, head, head_lang, where))
    blocks.append(Markup('<dl class="rulekb-glossary">{}</dl>').format(Markup("\n").join(items)))
    return page(front_matter(title), blocks)


def _head(c: Lang, concept) -> tuple[str, str]:
    termbase = c.shared.termbase
    for lang in (c.lang, "en", *c.order):
        term = termbase.preferred(concept.id, lang)
        if term is not None:
            return term.text, lang
    return concept.id, "en"


def _entry(c: Lang, concept, head: str, head_lang: str, where: Where) -> Markup:
    _ = c.ui._
    badge = Markup("")
    if head_lang != c.lang:
        badge = Markup(' <span data-search-exclude class="rulekb-badge rulekb-badge--untranslated">{}</span>').format(
            c.ui.capitalised(_("{language} — not yet translated").format(language=c.ui.language_name(head_lang))))
    dt = Markup('<dt id="{}"><span lang="{}">{}</span>{}</dt>').format(concept.id, head_lang, head, badge)
    parts = []
    own = concept.terms.get(c.lang, ())
    usable = [t for t in own if not t.discouraged]
    forms = [f for t in usable for f in t.forms if f != head]
    if forms:
        parts.append(Markup("<p><small>{}:</small> {}</p>").format(
            _("forms"), Markup(", ").join(Markup('<span lang="{}">{}</span>').format(c.lang, f) for f in forms)))
    for term in own:
        if term.discouraged:
            instead = Markup(" → <span lang=\"{}\">{}</span>").format(c.lang, term.replacement) if term.replacement else Markup("")
            label = _("deprecated") if term.status == "deprecated" else _("do not use")
            parts.append(Markup('<p class="rulekb-term-discouraged"><s lang="{}">{}</s> <small>({})</small>{}</p>').format(
                c.lang, term.text, label, instead))
    definition = concept.definition.get(c.lang)
    def_lang = c.lang
    if definition is None and concept.definition:
        def_lang = "en" if "en" in concept.definition else sorted(concept.definition)[0]
        definition = concept.definition[def_lang]
    if definition:
        parts.append(Markup('<p class="rulekb-definition" lang="{}">{}</p>').format(def_lang, definition))
    others = []
    for lang in c.kb.languages:
        if lang.code == c.lang:
            continue
        preferred = c.shared.termbase.preferred(concept.id, lang.code)
        if preferred is not None:
            others.append(Markup('<span lang="{}">{}</span> <small>({})</small>').format(lang.code, preferred.text, lang.code))
    if others:
        parts.append(Markup("<p>{}</p>").format(Markup(" · ").join(others)))
    if concept.rule and c.kb.rule(concept.rule) is not None:
        rule = c.kb.rule(concept.rule)
        parts.append(Markup('<p>{}: <a href="{}"><span class="rulekb-number">{}</span> {}</a></p>').format(
            _("Rule"), paths.href(where.page, paths.rule_page(rule.id)), rule.number, c.inline_title(rule)))
    return dt + Markup("<dd>{}</dd>").format(Markup("").join(parts))
