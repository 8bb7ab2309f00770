"""Tests for rulekb.render.official: on the de/fr pages of a keyword rule the cards print, the
official name in the title with the English after it, the box of what the cards print (card text,
not a translation), the keyword index under the official names, the rule's JSON, and the search
aliases the build gives `search_aliases(extra=…)`. The data: a tiny official file (its rule is
the seed's Retrace, by its number today)."""

from __future__ import annotations

import json

import pytest

from rulekb.i18n import load_uis
from rulekb.knowledge import load_knowledge_base
from rulekb.link import link
from rulekb.official import OFFICIAL_FILE, official_from
from rulekb.render import paths, render_site
from rulekb.render.search_aliases import official_aliases

OFFICIAL = """\
languages: [de, fr]
keywords:
  - rule: "{number}"
    english: "Retrace"
    names:
      - lang: de
        name: "Zurückverfolgen"
        printed: 3
        source: {{card: "Glühende Flammen", english: "Flame Jab", set: "EVE", number: "97", date: "2008-07-25"}}
        reminder:
          text: "Du kannst diese Karte aus deinem Friedhof wirken, indem du eine Länderkarte abwirfst."
          source: {{card: "Glühende Flammen", english: "Flame Jab", set: "EVE", number: "97", date: "2008-07-25"}}
          first: "2008-07-25"
          last: "2008-07-25"
          printed: 2
          earlier:
            - text: "Du kannst diese Karte aus deinem Friedhof spielen, indem du eine Länderkarte abwirfst."
              source: {{card: "Feuerhauch", english: "Flame Jab", set: "SHM", number: "1", date: "2008-05-02"}}
              first: "2008-05-02"
              last: "2008-05-02"
              printed: 1
      - lang: fr
        name: "Pistage"
        printed: 1
        source: {{card: "Piqûre de flammes", english: "Flame Jab", set: "EVE", number: "97", date: "2008-07-25"}}
terms:
  - english: "graveyard"
    names:
      - lang: fr
        term: "cimetière"
        cards: 9
        with_term: 10
        with_term_printed: 9
        since: "2003-10-02"
        source: {{card: "Piqûre de flammes", english: "Flame Jab", set: "EVE", number: "97", date: "2008-07-25"}}
  - english: "mana value"
    names:
      - lang: de
        term: "Manabetrag"
        cards: 9
        with_term: 10
        with_term_printed: 9
        since: "2021-04-23"
        source: {{card: "Glühende Flammen", english: "Flame Jab", set: "STX", number: "1", date: "2021-04-23"}}
        history:
          - {{text: "umgewandelte Manakosten", first: "2003-10-02", last: "2021-02-05", source: {{card: "Feuerhauch", english: "Flame Jab", set: "KHM", number: "2", date: "2021-02-05"}}}}
"""


@pytest.fixture(scope="module")
def site(seed):
    kb = load_knowledge_base(seed)
    retrace = next(r for r in kb.rules if r.id == "retrace")
    official = official_from(OFFICIAL.format(number=retrace.current_number).encode(), OFFICIAL_FILE, ("en", "de", "fr"))
    return kb, retrace, official, render_site(link(kb), load_uis(seed, kb.languages), official=official)


def test_a_keyword_rule_page_in_german_has_the_official_name_and_the_card_text_box(site):
    _kb, retrace, _official, rendered = site
    page = rendered.docs["de"][paths.rule_page(retrace.id)]
    assert '<span lang="de">Zurückverfolgen</span> <span lang="en">(Retrace)</span>' in page
    assert "Auf deutschen Karten" in page and "Kartentext wie gedruckt, keine Übersetzung der Regel" in page
    assert "(Du kannst diese Karte aus deinem Friedhof wirken, indem du eine Länderkarte abwirfst.)" in page
    assert "Glühende Flammen (EVE 97, 25. Juli 2008)" in page
    earlier = page.split('<details class="rulekb-official-earlier">', 1)[1].split("</details>", 1)[0]
    assert "Frühere Fassungen (1)" in earlier and "spielen, indem du" in earlier and "2. Mai 2008" in earlier
    assert page.startswith(f"---\ntitle: \"{retrace.number} Zurückverfolgen (Retrace)\"")


def test_a_name_printed_without_reminder_text_still_names_the_rule(site):
    _kb, retrace, _official, rendered = site
    page = rendered.docs["fr"][paths.rule_page(retrace.id)]
    assert '<span lang="fr">Pistage</span> <span lang="en">(Retrace)</span>' in page
    assert "Sur les cartes en français" in page and "Piqûre de flammes (EVE 97, 25 juillet 2008)" in page
    assert "Sur les cartes en français\u00a0: <strong>Pistage</strong>" in page   # French spacing before the colon
    assert "rulekb-card-text" not in page


def test_the_english_page_and_other_rules_have_no_box(site):
    kb, retrace, _official, rendered = site
    assert "rulekb-official" not in rendered.docs["en"][paths.rule_page(retrace.id)]
    other = next(r for r in kb.rules if r.id != retrace.id)
    assert "rulekb-official" not in rendered.docs["de"][paths.rule_page(other.id)]


def test_the_keyword_index_lists_the_official_name_with_the_english(site):
    _kb, _retrace, _official, rendered = site
    index = rendered.docs["de"][paths.KEYWORDS]
    assert '<span lang="de">Zurückverfolgen</span> <span lang="en">(Retrace)</span>' in index
    entry = index.split('<span lang="de">Zurückverfolgen</span>', 1)[1].split("</li>", 1)[0]
    assert '<span lang="en">Retrace</span>' not in entry   # the English once, in the title
    # sorted in German: under Z, not where "Retrace" sorts
    letters = [line for line in index.splitlines() if line.startswith("## ")]
    z_section = index.split(next(l for l in letters if l.startswith("## Z")), 1)[1]
    assert "Zurückverfolgen" in z_section.split("## ", 1)[0]


def test_the_rules_json_gives_the_official_names_per_language(site):
    _kb, retrace, _official, rendered = site
    data = json.loads(rendered.files[paths.api_path("de", "rules", retrace.id)])
    assert data["official"]["de"]["name"] == "Zurückverfolgen"
    assert data["official"]["de"]["reminder"]["earlier"][0]["first"] == "2008-05-02"
    assert data["official"]["fr"]["reminder"] is None


def test_the_official_names_are_search_aliases_of_the_keyword_rule(site):
    kb, retrace, official, _rendered = site
    aliases = {(a.text, a.lang, a.number) for a in official_aliases(kb, official)}
    assert aliases == {("Zurückverfolgen", "de", retrace.current_number), ("Pistage", "fr", retrace.current_number)}


def test_a_rule_page_still_in_english_lists_its_game_terms_with_todays_official_term(seed):
    """A rule whose French text is missing gets "Termes de cette règle": each game term its
    English uses, with the term the cards print; a fully translated page gets none; today's term
    comes with the older one as history ("bis 2021: …")."""
    from rulekb.render.context import Lang, Shared
    from rulekb.render.official import term_rows
    from rulekb.render.rules import rule_view
    kb = load_knowledge_base(seed)
    retrace = next(r for r in kb.rules if r.id == "retrace")
    official = official_from(OFFICIAL.format(number=retrace.current_number).encode(), OFFICIAL_FILE, ("en", "de", "fr"))
    uis = load_uis(seed, kb.languages)
    shared = Shared.of(link(kb), None, official)
    fr = rule_view(Lang(shared, uis["fr"]), retrace)
    assert fr.progress.done < fr.progress.total
    assert ("graveyard", "cimetière", None) in [(t.english, t.official, t.history) for t in fr.terms]
    de = rule_view(Lang(shared, uis["de"]), retrace)
    assert de.progress.done == de.progress.total and de.terms == ()
    rows = term_rows(official, "Its mana value is 2.", "de", uis["de"])
    assert [(t.english, t.official, t.history) for t in rows] == [
        ("mana value", "Manabetrag", "bis 2021: umgewandelte Manakosten")]
    page = render_site(link(kb), uis, official=official).docs["fr"][paths.rule_page(retrace.id)]
    assert "Termes de cette règle" in page and '<strong lang="fr">cimetière</strong>' in page


def test_the_glossary_heads_an_entry_with_todays_printed_term_over_the_termbases_older_one(seed):
    """The termbase still gives "umgewandelte Manakosten" for mana value; the cards print
    "Manabetrag" today: the glossary's German entry is headed by it, the older as history, the
    termbase's term still shown."""
    from rulekb.termbase import load_termbase
    kb = load_knowledge_base(seed)
    termbase = load_termbase(seed, kb)
    assert termbase.preferred("mana-value", "de") is None or termbase.preferred("mana-value", "de").text != "Manabetrag"
    retrace = next(r for r in kb.rules if r.id == "retrace")
    official = official_from(OFFICIAL.format(number=retrace.current_number).encode(), OFFICIAL_FILE, ("en", "de", "fr"))
    page = render_site(link(kb), load_uis(seed, kb.languages), termbase=termbase, official=official).docs["de"][paths.GLOSSARY]
    entry = page.split('<dt id="mana-value">', 1)[1].split("</dd>", 1)[0]
    assert entry.startswith('<span lang="de">Manabetrag</span>')
    assert '<strong lang="de">Manabetrag</strong> <small>(bis 2021: umgewandelte Manakosten)</small>' in entry
    assert "umgewandelte Manakosten</span>" in entry
