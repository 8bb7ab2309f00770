"""Tests for rulekb.render.rules: what the rule index and the keyword index name each rule by
(never its id: a title, a keyword's English name or "Rule 100.1"), and the chapter headings
in the page's language (issue 32.4)."""

from __future__ import annotations

import re
import shutil

import pytest

from rulekb.i18n import load_uis
from rulekb.knowledge import load_knowledge_base
from rulekb.link import link
from rulekb.render import paths, render_site
from rulekb.render.context import Lang, Shared
from rulekb.render.rules import IndexChapter, chapter_title

UNTITLED_KEYWORD = """\
id: for-mirrodin
number: '702.163'
release: '2011-05-01'
text:
  en:
  - text: For Mirrodin!
    source: seed-000
    status: official
subrules:
  a:
    en:
    - text: For Mirrodin! is a triggered ability.
      source: seed-000
      status: official
"""

UNTITLED_RULE = """\
id: these-magic-rules-apply-to-any-magic
number: '100.1'
release: '2011-05-01'
text:
  en:
  - text: These Magic rules apply to any Magic game with two or more players.
    source: seed-000
    status: official
"""


@pytest.fixture(scope="module")
def untitled(seed, tmp_path_factory):
    """The seed project with two rules without a title: a keyword whose text is its name, and a
    rule whose text is a sentence; rendered in every language."""
    root = tmp_path_factory.mktemp("untitled") / "project"
    shutil.copytree(seed, root)
    (root / "rules" / "comprehensive" / "for-mirrodin.yaml").write_text(UNTITLED_KEYWORD, encoding="utf-8")
    (root / "rules" / "comprehensive" / "these-magic-rules-apply-to-any-magic.yaml").write_text(UNTITLED_RULE, encoding="utf-8")
    kb = load_knowledge_base(root)
    return render_site(link(kb), load_uis(root, kb.languages))


def link_texts(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", text) for text in re.findall(r"<a [^>]*>(.*?)</a>", page)]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_untitled_rules_are_named_by_their_keyword_or_number_never_their_id(untitled, lang):
    index = untitled.docs[lang][paths.RULE_INDEX]
    keywords = untitled.docs[lang][paths.KEYWORDS]
    shown = link_texts(index) + link_texts(keywords)
    assert "for-mirrodin" not in shown and "these-magic-rules-apply-to-any-magic" not in shown
    assert "For Mirrodin!" in link_texts(keywords) and "For Mirrodin!" in link_texts(index)
    rule = {"en": "Rule 100.1", "de": "Regel 100.1", "fr": "Règle 100.1"}[lang]
    assert rule in link_texts(index)
    if lang != "en":   # the English name on a German or French page is marked as English
        assert '<span lang="en">For Mirrodin!</span>' in keywords


def test_the_keyword_name_titles_its_rule_page(untitled):
    page = untitled.docs["de"][paths.rule_page("for-mirrodin")]
    assert re.search(r"^title: .*702\.163 For Mirrodin!", page, re.M), page[:300]


@pytest.mark.parametrize("lang, title, heading", [
    ("de", "Additional Rules", "Kapitel 7: Zusätzliche Regeln"),
    ("fr", "Additional Rules", "Chapitre 7\u00a0: Règles additionnelles"),
    ("en", "Additional Rules", "Chapter 7: Additional Rules"),
    ("de", "The Game", "Kapitel 7: The Game"),   # an older release's chapter: no translation, marked English
])
def test_chapter_headings_are_in_the_page_language(seed_langs, lang, title, heading):
    c = seed_langs[lang]
    shown, shown_lang = chapter_title(c, title)
    page = c.pages.render("pages/rules.md.j2", chapters=(IndexChapter("7", shown, shown_lang, (), 0),), folded=False)
    summary = re.search(r'<details class="rulekb-index-chapter"[^>]*><summary>(.*?)</summary>', page)[1]
    assert re.sub(r"<[^>]+>", "", summary).startswith(heading), summary
    assert ('<span lang="en">' in summary) == (shown_lang == "en" and lang != "en")


@pytest.fixture(scope="module")
def seed_langs(seed):
    kb = load_knowledge_base(seed)
    shared = Shared.of(link(kb), None)
    return {lang: Lang(shared, ui) for lang, ui in load_uis(seed, kb.languages).items()}


def test_a_rule_with_more_rulings_than_shown_lists_their_cards_and_places_each_ruling_with_its_card(seed):
    """Issue 32.3: a rule with more rulings than a page shows (rules/enchant: 575 Aura cards'
    rulings, 762 KB in French) lists the cards they stand on, each with its count; the rulings'
    ids stay on the page (on their card's line: old links land) and their place is their first
    card's section, which has the ruling's anchor."""
    from rulekb.render.cards import CardSite
    from rulekb.render.rules import rule_page
    kb = load_knowledge_base(seed)
    linked = link(kb)
    uis = load_uis(seed, kb.languages)
    explore = kb.rule("explore")
    rulings = [r for r in kb.rulings if "explore" in r.rules and r.id not in {n.ruling for n in explore.notes}]
    assert len(rulings) >= 2 and all(r.cards for r in rulings)
    shown = Shared.of(linked)
    listing = Shared.of(linked, rulings_shown_max=1)
    assert "explore" not in shown.listing_cards and "explore" in listing.listing_cards
    full = rule_page(Lang(shown, uis["de"]), explore)
    short = rule_page(Lang(listing, uis["de"]), explore)
    assert 'class="rulekb-ruling"' in full and 'class="rulekb-ruling"' not in short
    assert "rulekb-ruling-card-list" in short and "rulekb-ruling-card-list" not in full
    assert len(short) < len(full)
    assert f"Diese Regel hat {len(rulings)} Kartenentscheidungen: Jede steht bei ihrer Karte." in short
    site = CardSite(listing)
    for ruling in rulings:
        assert f'<span id="{ruling.id}"></span>' in short           # the old anchor is still on the page
        place = listing.places[ruling.unit.id]
        first = ruling.cards[0]
        assert (place.page, place.anchor, place.rule) == (listing.card_pages.page(first), ruling.id, "explore")
        assert shown.places[ruling.unit.id].page == paths.rule_page("explore")
        card_href = paths.href(paths.rule_page("explore"), listing.card_pages.page(first), first)
        line = short.split(f'<span id="{ruling.id}"></span>', 1)[1].split("</li>", 1)[0]
        assert f'<a href="{card_href}">' in line
        group = site.group_page(Lang(listing, uis["de"]), listing.card_pages.group(first))
        assert f'id="{ruling.id}"' in group                        # where the ruling is shown
