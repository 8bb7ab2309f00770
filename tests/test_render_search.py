"""The prebuilt search index (render/search.py): today's texts only, as each language's pages
show them (untranslated ones in English, marked), rule numbers as numbered today, the names of a
rule and of a card in every language, the numbers of older releases; deterministic parts."""

from __future__ import annotations

import json
import shutil

import pytest

import sitebuild

from rulekb.render import search
from rulekb.render.numbers import number_holders
from test_render import render_tree


@pytest.fixture(scope="module")
def seeds(seed):
    site, linked, _uis, _termbase = render_tree(seed)
    return site, linked.kb


@pytest.fixture(scope="module")
def releases(full):
    root, _, kb, _ = full
    site, *_ = render_tree(root)
    return site, kb


def part(site, path: str):
    return search.decode(site.files[path])


def rule(part_data, rule_id: str) -> dict:
    rid, number, today, title, title_lang, aliases, units = next(r for r in part_data["rules"] if r[0] == rule_id)
    return {"number": number, "today": today, "title": title, "title_lang": title_lang, "aliases": aliases,
            "units": {anchor: (kind, text, lang) for kind, anchor, text, lang, _names in units},
            "names": {anchor: names for _kind, anchor, _text, _lang, names in units}}


def test_every_language_has_its_part_and_the_shared_parts_are_once(seeds):
    site, kb = seeds
    for lang in kb.language_codes:
        assert part(site, f"{lang}/search/rules.js")["lang"] == lang
    assert {path for path in site.files if "search/" in path} == {
        *(f"{lang}/search/rules.js" for lang in kb.language_codes), "search/cards.js", "search/numbers.js",
        "search/rulings.js"}


def test_untranslated_texts_are_in_english_and_marked(seeds):
    site, _ = seeds
    de = rule(part(site, "de/search/rules.js"), "casting-spells")
    kind, text, lang = de["units"]["601.2f"]
    assert kind == "s" and lang == "en" and text.startswith("If the total cost includes a mana payment")
    retrace = rule(part(site, "de/search/rules.js"), "retrace")
    assert retrace["units"]["702.78a"][2] == ""              # German, the page's own language
    assert "Friedhof" in retrace["units"]["702.78a"][1]


def test_a_rule_is_found_by_its_name_in_every_language(seeds):
    site, _ = seeds
    de = rule(part(site, "de/search/rules.js"), "retrace")
    assert de["title"] == "Zurückverfolgen" and de["title_lang"] == ""
    assert "Retrace" in de["aliases"] and "Pistage" in de["aliases"]
    en = rule(part(site, "en/search/rules.js"), "retrace")
    assert en["title"] == "Retrace" and "Zurückverfolgen" in en["aliases"]


def test_a_rule_renumbered_since_its_text_is_found_by_todays_number(seeds):
    site, _ = seeds
    retrace = rule(part(site, "fr/search/rules.js"), "retrace")
    assert (retrace["number"], retrace["today"]) == ("702.78", "702.81")   # the page's 702.78a is 702.81a today


def test_card_names_in_every_language(seeds):
    site, kb = seeds
    cards = part(site, "search/cards.js")
    assert cards["langs"] == list(kb.language_codes)
    assert ["cards/qu.html#queens-agent", "Queen's Agent", "Agent der Königin", "Agent de la reine"] in cards["cards"]
    assert len(cards["cards"]) == len(kb.cards)


def test_a_card_leads_to_its_place_on_its_groups_page_in_every_language(seeds):
    """The worker takes a card's link as it is: each one is a page of every language's site with
    the card's heading at the anchor."""
    site, kb = seeds
    links = [c[0] for c in part(site, "search/cards.js")["cards"]]
    assert len(set(links)) == len(kb.cards)
    for link in links:
        page, _, anchor = link.partition("#")
        assert page.startswith("cards/") and page.endswith(".html") and anchor, link
        for lang in kb.language_codes:
            markdown = site.docs[lang][page[:-len(".html")] + ".md"]
            assert f"{{#{anchor}}}" in markdown, (lang, link)   # the card's heading: ## name {#id}


CARD_RULINGS = """rulings:
- id: queens-agent-own
  date: '2018-01-19'
  cards:
  - queens-agent
  text:
    en:
    - text: Queen's Agent's own ruling, on no rule.
      source: seed-000
      status: official
    de:
    - text: Eine Entscheidung nur zur Karte.
      source: seed-000
      status: official
"""


@pytest.fixture(scope="module")
def card_rulings(seed, tmp_path_factory):
    root = tmp_path_factory.mktemp("card-rulings") / "project"
    shutil.copytree(seed, root)
    (root / "rules" / "rulings" / "q.yaml").write_text(CARD_RULINGS, encoding="utf-8")
    site, linked, _uis, _termbase = render_tree(root)
    return site, linked.kb


def test_a_ruling_of_cards_only_is_indexed_once_with_its_texts_at_its_place_on_its_cards_page(card_rulings):
    site, kb = card_rulings
    found = part(site, "search/rulings.js")["rulings"]
    cards = part(site, "search/cards.js")["cards"]
    assert found == [["cards/qu.html#queens-agent-own", [cards.index(next(c for c in cards if c[1] == "Queen's Agent"))],
                      "Queen's Agent's own ruling, on no rule.", {"de": "Eine Entscheidung nur zur Karte."}]]
    assert cards[found[0][1][0]][0] == "cards/qu.html#queens-agent"   # its card, by its place in the card part
    for lang in kb.language_codes:   # the place is the ruling's block on the card's page
        assert 'id="queens-agent-own"' in site.docs[lang]["cards/qu.md"]
    # a ruling of a rule is searched with its rule (the rules part), not a second time here
    assert "explore-reveal-top-card" in {u[1] for r in part(site, "en/search/rules.js")["rules"] for u in r[6]}
    assert not any("explore-reveal-top-card" in entry[0] for entry in found)


def test_only_todays_texts(releases):
    """No older wording, no source, no rule that left the rules; their numbers lead to n/."""
    site, kb = releases
    en = part(site, "en/search/rules.js")
    retrace = rule(en, "retrace")
    current = next(s for s in kb.rule("retrace").subrules if s.letter == "a").unit.text("en").text
    assert retrace["units"]["702.81a"][1] == " ".join(current.split())
    raw = json.dumps(en, ensure_ascii=False)
    assert "functions while the card is in a player's graveyard" not in raw   # 702.78a of 2009
    assert not any(source.title in raw for source in kb.sources.values() if len(source.title) > 12)
    newest = kb.releases[-1].date
    left = [r for r in kb.rules if r.releases and newest not in r.releases]
    assert left, "the releases fixture has rules that left the rules"
    indexed = {r[0] for r in en["rules"]}
    assert not indexed & {r.id for r in left}
    assert {r.id for r in kb.rules} - {r.id for r in left} == indexed
    numbers = part(site, "search/numbers.js")["numbers"]
    assert "702.78" in numbers            # Conspire today, Retrace until 2011: its page says so
    assert "100.1" not in numbers         # the same rule since 2009: its own hit is enough
    assert set(numbers) < set(number_holders(kb))
    assert all(f"en/n/{n}.html" in site.files for n in numbers)


def test_the_parts_are_deterministic_and_decode():
    data = {"lang": "de", "rules": [["x", "1", "", "Zurückverfolgen", "", [], []]], "glossary": []}
    script = search.encode("rules", data)
    assert script == search.encode("rules", data)
    assert script.startswith(f'rulekbSearchPart({search.FORMAT},"rules","') and script.endswith('");\n')
    assert search.decode(script) == data
    with pytest.raises(ValueError):
        search.decode("var x = 1;")


def _named(part_data, number: str) -> list[str]:
    """The names the index gives to the rule or subrule numbered `number` today (a rule's title too)."""
    for _id, num, today, title, _lang, aliases, units in part_data["rules"]:
        if number in (num, today):
            return [title, *aliases]
        for _kind, anchor, _text, _ulang, names in units:
            if anchor == number or (today and today + anchor[len(num):] == number):
                return names
    raise AssertionError(f"no rule or subrule {number} in the index")


def test_a_term_leads_to_the_rule_that_defines_it_in_every_language(releases):
    """The glossary's "Mana Value … See rule 202.3." names 202.3; the termbase's graveyard (a
    glossary concept) gives 404 Graveyard its German and French terms, on every site."""
    site, kb = releases
    for lang in kb.language_codes:
        rules = part(site, f"{lang}/search/rules.js")
        assert "Mana Value" in _named(rules, "202.3"), lang
        assert {"Graveyard", "Friedhof", "cimetière"} <= set(_named(rules, "404")), lang


def test_more_aliases_plug_in_as_records(releases):
    """The official names of another source are records handed to search_aliases: each lands
    under its number, after the glossary's and the termbase's, once per name."""
    from rulekb.render.search_aliases import SearchAlias, search_aliases
    from rulekb.termbase import load_termbase
    _site, kb = releases
    termbase = load_termbase(sitebuild.ROOT)
    extra = [SearchAlias("Manabetrag", "de", "202.3", "official: test"),
             SearchAlias("Mana Value", "en", "202.3", "official: test")]
    found = search_aliases(kb, termbase, extra)
    assert [a.text for a in found["202.3"]].count("Mana Value") == 1
    assert found["202.3"][-1] == extra[0]
    assert "cimetière" in [a.text for a in found["404"]]
