"""Tests for rulekb.render: the generated pages and JSON of each language, from the project's
own data (rules/) and from a small hostile tree (tests/data/site/hostile: markup in texts, a
language with no texts, stale and missing translations)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulekb.diagnostics import DataError
from rulekb.i18n import load_uis
from rulekb.link import link
from rulekb.render import paths, render_site
from rulekb.render.context import Lang, Shared
from rulekb.render.content import localise_content
from rulekb.render.text import Where
from rulekb.termbase import load_termbase
from rulekb.knowledge import load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "data" / "site" / "hostile"


def render_tree(root: Path, content: dict | None = None):
    kb = load_knowledge_base(root)
    linked = link(kb)
    uis = load_uis(root, kb.languages)
    termbase = load_termbase(root, kb)
    return render_site(linked, uis, termbase=termbase, content=content), linked, uis, termbase


@pytest.fixture(scope="module")
def project(seed):
    site, linked, uis, termbase = render_tree(seed)
    return site


@pytest.fixture(scope="module")
def hostile():
    site, linked, uis, termbase = render_tree(HOSTILE)
    return site


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside each element with an id."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text_parts: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data):
        self.text_parts.append(data)

    def find(self, tag: str | None = None, **attrs: str) -> list[dict[str, str]]:
        want = {k.rstrip("_"): v for k, v in attrs.items()}
        return [a for t, a in self.tags if (tag is None or t == tag) and all(
            (v in a.get(k, "").split() if k == "class" else a.get(k) == v) for k, v in want.items())]

    @property
    def text(self) -> str:
        return "".join(self.text_parts)


def element_html(page: str, element_id: str) -> str:
    """The HTML of the block that has the id (a generated block is one element)."""
    start = page.index(f'id="{element_id}"')
    start = page.rindex("<", 0, start)
    end = page.find("\n\n", start)
    return page[start:end if end != -1 else None]


# ---------------------------------------------------------------- rule pages


def test_every_subrule_is_anchored_by_its_number(project):
    page = project.docs["de"]["rules/retrace.md"]
    assert Elements(page).find(id="702.78a")
    for lang in ("en", "de", "fr"):
        casting = Elements(project.docs[lang]["rules/casting-spells.md"])
        for letter in "befg":
            assert casting.find(id=f"601.2{letter}"), (lang, letter)


def test_references_link_to_the_exact_subrule_anchor_ranges_included(project):
    page = Elements(project.docs["de"]["rules/retrace.md"])
    hrefs = [a["href"] for a in page.find("a", class_="rulekb-ref")]
    # "601.2b und 601.2e–g": 601.2b, and the range's two ends
    assert hrefs == ["../rules/casting-spells.html#601.2b", "../rules/casting-spells.html#601.2e",
                     "../rules/casting-spells.html#601.2g"]
    # the range's links name every number it stands for
    titles = [a["title"] for a in page.find("a", class_="rulekb-ref")]
    assert "601.2f" in titles[1] and "601.2f" in titles[2]


def test_a_number_not_in_the_knowledge_base_is_marked_never_linked(project):
    for lang, words in (("en", "not in this knowledge base"), ("de", "nicht in dieser Wissensbasis"),
                        ("fr", "absente de cette base de connaissances")):
        page = Elements(project.docs[lang]["rules/casting-spells.md"])
        missing = page.find("span", class_="rulekb-ref--missing")
        assert {m["data-number"] for m in missing} >= {"716", "700.2", "702.44", "117.8", "117.9", "107.3", "605"}
        assert all(words in m["title"] for m in missing)
        assert not [a for a in page.find("a") if "716" in a.get("href", "") or "700.2" in a.get("href", "")]


def test_backlinks_list_the_texts_that_refer_to_a_rule(project):
    page = project.docs["de"]["rules/casting-spells.md"]
    backlinks = page[page.index('class="rulekb-backlinks"'):]
    assert '<a href="retrace.html#702.78a">702.78a</a>' in backlinks
    assert '<a href="buyback.html#702.24a">702.24a</a>' in backlinks


def test_the_number_history_has_locale_dates_and_today(project):
    expected = {"en": ("702.78 from July 11, 2009 to May 1, 2011", "702.81 since April 2021 (today)"),
                "de": ("702.78: 11. Juli 2009 bis 1. Mai 2011", "702.81: seit April 2021 (heute)"),
                "fr": ("702.78\u00a0: 11 juillet 2009 – 1er mai 2011", "702.81\u00a0: depuis avril 2021 (aujourd’hui)")}
    for lang, parts in expected.items():
        text = Elements(project.docs[lang]["rules/retrace.md"]).text
        for part in parts:
            assert part in text, (lang, part)


def test_a_rule_page_names_the_sources_of_its_texts(project):
    text = Elements(project.docs["en"]["rules/retrace.md"]).text
    assert "Seed 000: Retrace" in text and "Seed 002: Retrace in French" in text
    explore = Elements(project.docs["en"]["rules/explore.md"]).text
    assert "Magic Comprehensive Rules, effective 2018-01-19" in explore
    assert "MTGJSON 5.2.0 set file for Ixalan" in explore  # the rulings shown on the page


# ---------------------------------------------------------------- translation states


def test_a_missing_translation_shows_the_english_marked_with_lang_en(project):
    page = project.docs["de"]["rules/explore.md"]
    block = element_html(page, "701.38a")
    assert "Englisches Original — noch nicht übersetzt" in block
    assert Elements(block).find("p", class_="rulekb-text", lang="en")
    french = element_html(project.docs["fr"]["rules/explore.md"], "701.38a")
    assert "Original anglais — pas encore traduit" in french and 'lang="en"' in french
    assert "l’original anglais est affiché" in french   # the tooltip says it, in French


def test_a_text_with_only_a_german_version_is_marked_on_the_english_page(project):
    page = project.docs["en"]["rules/explore.md"]
    block = element_html(page, "explore-reveal-top-card")
    assert "Only in German: no English original" in block
    assert Elements(block).find("p", class_="rulekb-text", lang="de")


def test_a_french_page_shows_the_english_ruling_not_the_german_and_marks_german_only_texts(project):
    """A ruling with an English text and a German translation is shown in English on the French
    card page; a ruling nobody wrote in English is shown in German, saying so in French. (A
    ruling of several cards has its anchor at the first of them: Emissary of Sunrise, cards/em.)"""
    translated = element_html(project.docs["fr"]["cards/em.md"], "explore-creature-left-battlefield")
    assert Elements(translated).find("p", class_="rulekb-text", lang="en")
    assert not Elements(translated).find("p", class_="rulekb-text", lang="de")
    assert "Original anglais — pas encore traduit" in translated
    german_only = element_html(project.docs["fr"]["cards/qu.md"], "explore-reveal-top-card")   # Queen's Agent's
    assert Elements(german_only).find("p", class_="rulekb-text", lang="de")
    assert "Uniquement en allemand\u00a0: pas d’original anglais" in german_only


def test_source_tooltips_are_in_the_page_language(project):
    """The tooltip of a text's number names its source and status in the page's language (the
    source's English title is data: it is listed, marked lang="en", under Sources)."""
    german = Elements(element_html(project.docs["de"]["rules/retrace.md"], "702.78a"))
    assert german.find("a", class_="rulekb-num", title="Quelle: Ausgangsdokument (seed-000) · Text der Community")
    explore = project.docs["fr"]["rules/explore.md"]
    assert "Source\u00a0: Règles complètes du 19 janvier 2018 · texte officiel" in explore   # French spacing
    assert "(Règles complètes)" in Elements(explore).text   # the kind of each listed source


def test_a_stale_translation_is_marked_with_the_english_it_should_match(project):
    block = element_html(project.docs["fr"]["rules/retrace.md"], "702.78a")
    assert "Obsolète\u00a0: le texte anglais a changé" in block
    english = Elements(block).find("p", class_="rulekb-text", lang="en")
    assert english, "the current English is shown beside a stale translation"
    assert "while the card with retrace is in a player" in block
    current = element_html(project.docs["de"]["rules/retrace.md"], "702.78a")
    assert "rulekb-badge--stale" not in current


def test_other_published_versions_are_kept_and_shown_folded(project):
    block = element_html(project.docs["en"]["rules/retrace.md"], "702.78a")
    assert "1 other version of this text" in block
    assert "while the card is in a player" in block  # the older wording of seed 002
    ruling = element_html(project.docs["de"]["rules/explore.md"], "explore-creature-left-battlefield")
    assert "1 weitere Fassung dieses Textes" in ruling and "das Spiel verlassen hat" in ruling


# ---------------------------------------------------------------- links in texts


def test_keyword_terms_link_to_their_rule_german_compounds_included(hostile):
    page = Elements(hostile.docs["de"]["rules/casting.md"])
    terms = page.find("a", class_="rulekb-term")
    assert [t["href"] for t in terms] == ["../rules/shield.html"]
    assert ">Schild</a>-Kosten" in hostile.docs["de"]["rules/casting.md"]
    # no link from a rule to itself
    assert not Elements(hostile.docs["de"]["rules/shield.md"]).find("a", class_="rulekb-term")


def test_card_names_in_any_language_link_to_the_card_page(hostile):
    de = Elements(hostile.docs["de"]["rules/casting.md"])
    assert [a["href"] for a in de.find("a", class_="rulekb-card")] == ["../cards/te.html#testers-agent"]
    note = element_html(hostile.docs["en"]["rules/shield.md"], "n1")
    links = Elements(note).find("a", class_="rulekb-card")
    assert [a["href"] for a in links] == ["../cards/te.html#testers-agent"]  # first mention per text


def test_inline_links_for_the_real_data(seed, project):
    site, linked, uis, termbase = render_tree(seed)
    c = Lang(Shared.of(linked, termbase), uis["de"])
    html = c.inline.html("Die Zurückverfolgen-Fähigkeit und die Rückkauf-Kosten von Agent der Königin.",
                         "x", "de", 0, Where(paths.rule_page("explore"), rule="explore"))
    links = Elements(html).find("a")
    assert [a["href"] for a in links] == ["../rules/retrace.html", "../rules/buyback.html", "../cards/qu.html#queens-agent"]
    assert "Zurückverfolgen</a>-Fähigkeit" in html


# ---------------------------------------------------------------- escaping


def test_every_text_is_escaped(hostile):
    for lang, pages in hostile.docs.items():
        for path, page in pages.items():
            assert "<script>" not in page, (lang, path)
            assert "<i>" not in page and "<b>bold" not in page, (lang, path)
    page = hostile.docs["en"]["rules/shield.md"]
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    # Markdown never sees the texts: they are inside one-line HTML blocks
    block = element_html(page, "702.9a")
    assert "*not emphasis* _not_ [not a link](https://example.com) &amp; `code` costs {X}" in block
    assert "\n\n" not in block
    assert 'title: "702.9 Shield &lt;i&gt;"' in page  # front matter: mkdocs' templates do not escape


# ---------------------------------------------------------------- languages


def test_a_language_without_texts_or_catalog_renders_english_marked(hostile):
    assert set(hostile.docs) == {"en", "de", "it"}
    page = hostile.docs["it"]["rules/shield.md"]
    block = element_html(page, "702.9b")
    assert "English original — not yet translated" in block and 'lang="en"' in block
    assert "702.11: since June 2011 (today)" not in page  # dates are Italian ...
    assert "giugno 2011" in page                           # ... the UI strings English
    assert set(hostile.docs["it"]) == set(hostile.docs["en"])


def test_every_language_has_the_same_pages(project, hostile):
    for site in (project, hostile):
        first = set(next(iter(site.docs.values())))
        assert all(set(pages) == first for pages in site.docs.values())


def test_hand_written_pages_missing_in_a_language_are_borrowed_and_marked(hostile):
    uis = load_uis(ROOT, load_knowledge_base(HOSTILE).languages)  # the project's catalogs: German UI
    content = {"en": {"about.md": "---\ntitle: About\n---\n\n# About\n\nText.\n"}, "de": {}}
    out = localise_content(content, ("en", "de", "it"), uis)
    page = out["de"]["about.md"]
    assert page.startswith("---\ntitle: About\n---\n")
    assert "Englisch — noch nicht übersetzt" in page
    assert '<div lang="en" markdown>' in page and "Text." in page


def test_a_hand_written_page_may_not_take_a_generated_path():
    kb = load_knowledge_base(HOSTILE)
    uis = load_uis(HOSTILE, kb.languages)
    with pytest.raises(DataError) as err:
        render_site(link(kb), uis, content={"en": {"rules/shield.md": "# mine\n"}})
    assert err.value.problems[0].file == "content/en/rules/shield.md"


# ---------------------------------------------------------------- other pages


def test_parallel_view_aligns_units_and_shows_missing(project):
    page = project.docs["fr"]["parallel/retrace.md"]
    rows = re.findall(r"<tr id=\"p-[^\"]+\">.*?</tr>", page)
    assert len(rows) == 8  # title, summary, a, n1 … n5
    for row in rows:
        assert row.count("<td") == 3  # en | de | fr
    note3 = next(r for r in rows if 'id="p-n3"' in r)
    assert "rulekb-cell--missing" in note3 and "manquant" in note3
    stale = next(r for r in rows if 'id="p-a"' in r)
    assert "rulekb-cell--stale" in stale
    assert [h for h in re.findall(r'<th scope="col" lang="(\w+)"', page)] == ["en", "de", "fr"]


def card_section(page: str, card_id: str) -> str:
    """A card's part of its group's page: from its heading to the next card's."""
    start = page.index("{#" + card_id + "}")
    end = page.find("\n## ", start)
    return page[start:end if end != -1 else None]


def test_card_page_has_names_in_every_language_and_rulings_by_locale_date(project):
    for lang, date in (("en", "January 19, 2018"), ("de", "19. Januar 2018"), ("fr", "19 janvier 2018")):
        page = project.docs[lang]["cards/qu.md"]   # the group of cards whose ids start with "qu"
        section = card_section(page, "queens-agent")
        text = Elements(section).text
        assert "Queen's Agent" in text and "Agent der Königin" in text and "Agent de la reine" in text
        assert '<a href="../rules/explore.html">' in section
        assert section.count(f">{date}</time>") == 6   # six rulings, each with its date in the locale's form
        assert len(Elements(section).find("div", class_="rulekb-ruling")) == 6


def test_each_language_has_its_own_card_pages_though_what_they_share_is_made_once(tmp_path):
    """A card's names table, printing, source and rules are the same on every language's site and
    made once (render.cards.CardSite, by the first language rendered): the card pages of each
    language are those it renders alone, with its own words; a card without a French name says
    so in each page's language."""
    from conftest import data_copy
    root = data_copy(tmp_path)
    card = root / "rules" / "cards" / "queens-agent.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("  fr: Agent de la reine\n", ""), encoding="utf-8")
    site, linked, uis, termbase = render_tree(root)
    for lang, missing in (("en", "missing"), ("de", "fehlt"), ("fr", "manquant")):
        section = card_section(site.docs[lang]["cards/qu.md"], "queens-agent")
        assert f'<td class="rulekb-cell--missing">{missing}</td>' in section and 'lang="fr">Agent' not in section
        alone = render_site(linked, uis, termbase=termbase, only=[lang])
        pages = [path for path in site.docs[lang] if path.startswith("cards/")]
        assert len(pages) > 1 and all(alone.docs[lang][path] == site.docs[lang][path] for path in pages)
    assert card_section(site.docs["fr"]["cards/em.md"], "emissary-of-sunrise").count('<td lang="fr">') == 1


def test_a_ruling_of_several_cards_links_every_card_it_names_but_the_one_it_is_shown_with(tmp_path):
    """A ruling of twelve cards is on each of their sections, its anchor on the first one's
    (Emissary of Sunrise); its text names two of them, each linked everywhere but on its own
    section; on a card it does not name the block is the same on every page (made once)."""
    from conftest import data_copy
    root = data_copy(tmp_path)
    rulings = root / "rules" / "rulings" / "explore.yaml"
    text = "trigger if appropriate."
    rulings.write_text(rulings.read_text(encoding="utf-8").replace(
        text, text + " Queen's Agent and Siren Lookout explore this way too.", 1), encoding="utf-8")
    site, _linked, _uis, _termbase = render_tree(root)
    pages = site.docs["en"]

    def block(page: str, card_id: str) -> str:
        return next(b for b in card_section(pages[page], card_id).split('<div class="rulekb-ruling">')
                    if "explore this way too" in b)

    def linked(html: str) -> list[str]:
        return [a["href"] for a in Elements(html).find("a", class_="rulekb-card")]

    first = block("cards/em.md", "emissary-of-sunrise")
    assert 'id="explore-creature-left-battlefield"' in first
    both = ["../cards/qu.html#queens-agent", "../cards/si.html#siren-lookout"]
    assert linked(first) == both
    assert linked(block("cards/qu.md", "queens-agent")) == both[1:]
    assert linked(block("cards/si.md", "siren-lookout")) == both[:1]
    others = {block(page, card) for page, card in (("cards/de.md", "deadeye-tracker"), ("cards/br.md", "brazen-buccaneers"),
                                                   ("cards/ix.md", "ixallis-diviner"))}
    assert len(others) == 1
    other = others.pop()
    assert linked(other) == both and "explore-creature-left-battlefield" not in other


def test_cards_are_grouped_by_the_first_letters_of_their_ids_with_stable_anchors(project):
    pages = paths.CardPages.of(["queens-agent", "0-1-2-3", "brazen-buccaneers"])
    assert paths.card_group("queens-agent") == "qu" and pages.page("queens-agent") == "cards/qu.md"
    assert pages.href("rules/explore.md", "queens-agent") == "../cards/qu.html#queens-agent"
    assert paths.card_group("0-1-2-3") == "01" and pages.page("0-1-2-3") == "cards/01.md"
    for lang in ("en", "de", "fr"):
        index = project.docs[lang]["cards/index.md"]
        assert 'href="qu.html"' in index and 'href="br.html"' in index
        # a ruling of several cards links each card at its anchor on its group's page
        explore = project.docs[lang]["rules/explore.md"]
        assert 'href="../cards/qu.html#queens-agent"' in explore


def test_a_large_group_of_cards_is_cut_into_pages_of_at_most_90_cards_at_their_next_letters():
    # 480 cards beginning "ma" (as on all MTGJSON sets): 130 "mar…" (more than a page: cut at
    # their fourth letter), 40 each of "maa" … "mai", 30 "mas"; and a small group "qu" beside them
    ids = [f"mar{chr(97 + i % 4)}-{i}" for i in range(130)]
    ids += [f"ma{third}-card-{i}" for third in "abcdefghi" for i in range(40)] + [f"mas-{i}" for i in range(30)]
    ids += ["queens-agent", "quest-for-the-holy-relic"]
    pages = paths.CardPages.of(reversed(ids))   # the order given does not matter
    shown: dict[str, list[str]] = {}
    for card_id in ids:
        shown.setdefault(pages.group(card_id), []).append(card_id)
    assert all(len(cards) <= paths.MAX_CARDS_PER_PAGE for cards in shown.values())
    assert shown["qu"] == ["queens-agent", "quest-for-the-holy-relic"]   # a small group keeps its page
    # runs of whole three-letter groups, each page named after its first: maa+mab, mac+mad …
    assert paths.MAX_CARDS_PER_PAGE == 90   # cards/thea, 100 cards with 365 rulings, was 412 KB (issue 32.3)
    assert sorted(shown) == ["maa", "mac", "mae", "mag", "mai", "mara", "marc", "mas", "qu"]
    assert shown["mai"] == [f"mai-card-{i}" for i in range(40)]
    assert {card_id[:4] for card_id in shown["mara"]} == {"mara", "marb"}
    assert pages.href("cards/qu.md", "mas-3") == "mas.html#mas-3"
    assert paths.CardPages.of(ids) == pages   # the same cards, the same pages


def test_keyword_index_lists_names_in_every_language(project):
    text = Elements(project.docs["fr"]["keywords.md"]).text
    for name in ("Pistage", "Zurückverfolgen", "Retrace", "Buyback", "Rückkauf"):
        assert name in text
    assert "Casting Spells" not in text  # 601.2 is not a keyword


def test_glossary_lists_the_termbase(project):
    page = project.docs["de"]["glossary.md"]
    assert 'id="retrace"' in page and "Zurückverfolgen" in page
    assert "Zurückverfolgungsfähigkeit" in page and "veraltet" in page


def test_navigation_is_short_and_lists_no_rule_pages(project):
    for lang, nav in project.nav.items():
        assert all(not p.startswith(("rules/", "parallel/", "cards/")) or p.endswith("index.md") for _, p in nav)
        assert len(nav) <= 8
    assert ("Regeln", "rules/index.md") in project.nav["de"]


# ---------------------------------------------------------------- site-root files


def test_root_index_follows_the_browser_and_links_every_language(project):
    page = project.files["index.html"]
    assert "navigator.languages" in page
    for code in ("en", "de", "fr"):
        assert f'href="{code}/index.html" hreflang="{code}"' in page
    assert "http://" not in page and "https://" not in page


def test_json_api_has_every_rule_ruling_and_card_per_language(seed, project):
    kb = load_knowledge_base(seed)
    for lang in kb.language_codes:
        for rule in kb.rules:
            assert paths.api_path(lang, "rules", rule.id) in project.files
        for card in kb.cards:   # in the file of its group, under its id
            found = json.loads(project.files[paths.api_path(lang, "cards", paths.card_group(card.id))])
            assert found["cards"][card.id]["names"] == dict(card.names)
        for ruling in kb.rulings:   # in the file of its first card's group
            found = json.loads(project.files[paths.api_path(lang, "rulings", paths.card_group(ruling.cards[0]))])
            assert found["rulings"][ruling.id]["cards"] == list(ruling.cards)
        assert not [p for p in project.files if p.startswith(f"api/{lang}/cards/queens-agent")]
    text = project.files["api/de/rules/casting-spells.json"]
    data = json.loads(text)
    assert text == json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    refs = data["text"]["references"]
    assert data["text"]["state"] == "untranslated" and data["text"]["lang"] == "en"
    assert any(r["numbers"] == ["716"] and r["targets"] == [None] for r in refs)
    retrace = json.loads(project.files["api/fr/rules/retrace.json"])
    a = retrace["subrules"][0]
    assert a["state"] == "stale" and "english" in a and a["anchor"] == "702.78a"
    ref = a["references"][0]["targets"][0]
    assert ref == {"rule": "casting-spells", "number": "601.2b", "page": "fr/rules/casting-spells.html#601.2b"}


def test_rendering_is_deterministic(seed):
    first, *_ = render_tree(seed)
    second, *_ = render_tree(seed)
    assert first == second


# ---------------------------------------------------------------- the rule index


def test_the_rule_index_groups_rules_by_chapter_and_section_in_number_order(project):
    page = project.docs["de"]["rules/index.md"]
    html = Elements(page)
    assert [a["id"] for a in html.find("details", class_="rulekb-index-chapter")] == ["chapter-6", "chapter-7"]
    assert [a["id"] for a in html.find("details", class_="rulekb-index-section")] == ["section-601", "section-701", "section-702"]
    section = page[page.index('id="section-702"'):]
    section = section[:section.index("</details>")]
    assert [n for n in re.findall(r'<tr><td>([\d.]+)</td>', section)] == ["702.24", "702.49", "702.78"]
    assert "Kapitel 7" in page and "(3 Regeln)" in section
    # five rules: nothing to fold
    assert all("open" in a for a in html.find("details"))


def test_a_long_rule_index_is_folded_and_sections_are_headed_by_their_own_rule(seed):
    from rulekb.render.rules import FOLD_OVER, IndexRow, index_chapters, rule_index
    from markupsafe import Markup
    kb = load_knowledge_base(seed)
    c = Lang(Shared.of(link(kb)), load_uis(seed, kb.languages)["fr"])
    rows = tuple(IndexRow(f"r{n}", number, f"r{n}.html", Markup(f"T{n}"), number, 1, None, None)
                 for n, number in enumerate(["702.10", "702", "702.9", "100.1", "101", "702.100"]))
    chapters = index_chapters(c, rows)
    assert [(ch.number, [(s.number, s.href, [r.number for r in s.rows]) for s in ch.sections], ch.rules) for ch in chapters] == [
        ("1", [("100", None, ["100.1"]), ("101", "r4.html", [])], 1),
        ("7", [("702", "r1.html", ["702.9", "702.10", "702.100"])], 3)]
    assert len(c.kb.rules) <= FOLD_OVER and ' open' in rule_index(c)
    folded = c.pages.render("pages/rules.md.j2", chapters=chapters, folded=True)
    assert "<details" in folded and " open" not in folded
    # a chapter's title comes from the newest release, in the page's language (the catalog's), its words from the catalog
    from rulekb.render.rules import IndexChapter
    titled = c.pages.render("pages/rules.md.j2", chapters=(IndexChapter("7", "Règles additionnelles", "fr", (), 0),), folded=True)
    assert 'Chapitre 7\u00a0: Règles additionnelles <small>(0 règle)</small>' in titled
