"""Tests for rulekb.render.versions: the "Versions" section of rule pages (the English versions
of each changed text, with word-level diffs), from the project's data (702.78a has the wording of
seed 000 and the older one quoted by seed 002) and from the project with the two synthetic
releases of tests/data/cr/ imported (Retrace's subrule changed between them)."""

from __future__ import annotations

import pytest

from conftest import data_copy
from test_import_cr import SYNTHETIC
from test_render import Elements, render_tree
from rulekb.importers.cr import import_release
from rulekb.render.versions import diff_html


def section(page: str) -> str:
    """The blocks of the Versions section of a generated rule page ("" when it has none)."""
    start = page.find("{#versions data-search-exclude}")
    if start == -1:
        return ""
    end = page.find("\n\n## ", start)
    return page[start:end]


@pytest.fixture(scope="module")
def project(seed):
    site, *_ = render_tree(seed)
    return site


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    root = data_copy(tmp_path_factory.mktemp("versions") / "kb")
    for release in SYNTHETIC:
        import_release(root, release)
    site, *_ = render_tree(root)
    return site


def test_the_diff_is_escaped_and_marks_the_changed_words():
    html = diff_html("the <b> card & his or her hand", "the <i> card & their hand")
    assert html == "the &lt;<del>b</del><ins>i</ins>&gt; card &amp; <del>his or her</del><ins>their</ins> hand"
    assert diff_html("line one\nline two", "line one\nline 2") == "line one<br>line <del>two</del><ins>2</ins>"


def test_two_english_wordings_are_shown_as_versions_with_their_sources(project):
    text = section(project.docs["en"]["rules/retrace.md"])
    assert text, "702.78a has two English versions: the rule page has a Versions section"
    assert '<details class="rulekb-versions-unit" id="versions-a">' in text and "2 versions" in text
    items = Elements(text)
    assert items.find("div", class_="rulekb-versions")[0].get("data-search-exclude") == ""
    # version 1 is seed 002's older wording, version 2 the text on the page (seed 000)
    assert "<strong>Version 1</strong>: <span lang=\"en\">Seed 002:" in text
    assert "<strong>Version 2</strong>: <span lang=\"en\">Seed 000:" in text and "(the text on this page)" in text
    diff = text[text.index('<p class="rulekb-diff" lang="en">'):]
    assert "while the card<ins> with retrace</ins> is in a player&#39;s graveyard" in diff
    assert "601.2e<del>–</del><ins>-</ins>g." in diff
    assert "<del>" not in diff.split("<ins> with retrace</ins>")[0]     # nothing before it was deleted


def test_the_versions_section_speaks_the_page_language(project):
    de = section(project.docs["de"]["rules/retrace.md"])
    fr = section(project.docs["fr"]["rules/retrace.md"])
    assert de.startswith("{#versions") and "## Fassungen {#versions" in project.docs["de"]["rules/retrace.md"]
    assert "2 Fassungen" in de and "Von Fassung 1 zu Fassung 2" in de and "(der Text auf dieser Seite)" in de
    assert "## Versions {#versions" in project.docs["fr"]["rules/retrace.md"]
    assert "2 versions" in fr and "De la version 1 à la version 2" in fr
    assert "<ins> with retrace</ins>" in de and "<ins> with retrace</ins>" in fr   # the diff is of the English


def test_a_rule_whose_texts_never_changed_has_no_versions_section(project):
    assert section(project.docs["en"]["rules/buyback.md"]) == ""
    assert "#versions" not in project.docs["en"]["rules/buyback.md"]


def test_releases_are_versions_oldest_first_with_locale_dates(released):
    text = section(released.docs["en"]["rules/retrace.md"])
    assert "<strong>Version 1</strong>: January 1, 2030</li>" in text
    assert "<strong>Version 2</strong>: June 1, 2031 <em>(the text on this page)</em>" in text
    first = text.index("From version 1 to version 2")
    diff = text[first:text.index("</p>", text.index('class="rulekb-diff"', first))]
    assert "Retrace <del>appears on some instants and sorceries. It represents</del><ins>is</ins> a static ability" in diff
    # a title identical in the releases and the seed is one version, not two
    assert 'id="versions-title"' not in text
    de = section(released.docs["de"]["rules/retrace.md"])
    assert "<strong>Fassung 1</strong>: 1. Januar 2030" in de
    # the seeds' wordings are compared with the text on the page (version 2)
    assert "From version 3 to version 2" in text and "From version 4 to version 2" in text


def test_any_two_releases_have_their_diff_the_wider_spans_folded(tmp_path):
    """Three releases: 1 -> 2 and 2 -> 3 are shown open, 1 -> 3 folded beneath them."""
    root = data_copy(tmp_path / "kb")
    later = SYNTHETIC[1].read_text(encoding="utf-8")
    assert "June 1, 2031" in later and "by discarding a land card" in later
    third = tmp_path / "release-2032-03-01.txt"
    third.write_text(later.replace("June 1, 2031", "March 1, 2032").replace("by discarding a land card",
                                                                            "by discarding a basic land card"),
                     encoding="utf-8")
    for release in (*SYNTHETIC, third):
        import_release(root, release)
    site, *_ = render_tree(root)
    text = section(site.docs["en"]["rules/retrace.md"])
    assert "<strong>Version 3</strong>: March 1, 2032 <em>(the text on this page)</em>" in text
    heads = [m for m in ("From version 1 to version 2", "From version 2 to version 3", "From version 1 to version 3")]
    positions = [text.index(h) for h in heads]
    assert positions == sorted(positions)   # consecutive first, then the span
    span = text[text.index('<details class="rulekb-diff-span">'):]
    assert span.startswith('<details class="rulekb-diff-span"><summary class="rulekb-diff-head">From version 1 to version 3')
    one_to_three = span[:span.index("</details>")]
    assert "Retrace <del>appears on some instants and sorceries. It represents</del><ins>is</ins>" in one_to_three
    assert "discarding a<ins> basic</ins> land card" in one_to_three
    two_to_three = text[text.index("From version 2 to version 3"):text.index('<details class="rulekb-diff-span">')]
    assert "appears on some instants" not in two_to_three and "<ins> basic</ins>" in two_to_three


@pytest.fixture(scope="module")
def four(full):
    root, *_ = full
    site, *_ = render_tree(root)
    return site


def test_a_moved_text_links_both_rules_in_every_language(four):
    """110.5e of 2018 is 111.6 of 2026: each page names the other number and links to it."""
    import json
    into = four.docs["de"]["rules/a-token-is-subject-to-anything-that.md"]
    out = four.docs["fr"]["rules/some-effects-put-tokens-onto-the.md"]
    assert ('<span class="rulekb-number">111.6</span> war bis 19. Januar 2018 '
            '<a href="some-effects-put-tokens-onto-the.html#history"><span class="rulekb-number">110.5e</span></a>') in into
    assert ('<span class="rulekb-number">110.5e</span> est devenu <a href="a-token-is-subject-to-anything-that.html#111.6">'
            '<span class="rulekb-number">111.6</span></a> le 16 janvier 2026') in out
    assert "Texts that moved" in four.docs["en"]["rules/a-token-is-subject-to-anything-that.md"]
    # 306.7b of 2009 became 606.5 in 2011, which is 606.6 today: the link goes to where the text is now
    planeswalker = four.docs["en"]["rules/a-player-may-activate-an-ability-of.md"]
    assert ('became <a href="a-loyalty-ability-with-a-negative.html#606.6"><span class="rulekb-number">606.5</span>'
            '</a> on May 1, 2011') in planeswalker
    # reworded on the way: the change is shown as a word diff (2018 704.5u -> 2026 704.6c)
    sba = four.docs["en"]["rules/some-variant-games-include-additional.md"]
    assert "From 704.5u to 704.6c" in sba and "<del>that’s</del><ins>who’s</ins>" in sba
    api = json.loads(four.files["api/en/rules/a-token-is-subject-to-anything-that.json"])
    assert api["moved"] == [{"from": {"rule": "some-effects-put-tokens-onto-the", "number": "110.5e", "until": "2018-01-19",
                                      "page": "en/rules/some-effects-put-tokens-onto-the.html"},
                             "to": {"rule": "a-token-is-subject-to-anything-that", "number": "111.6", "since": "2026-01-16",
                                    "page": "en/rules/a-token-is-subject-to-anything-that.html"}}]


def test_a_unit_with_thirty_versions_gets_thirty_diffs_not_every_pair():
    from rulekb.models import Pos, Status, Variant
    from rulekb.render.versions import comparisons
    versions = [((f"{2000 + n}-01-01",), Variant(f"text {n}", "cr", Status.OFFICIAL, n == 29, Pos("f", n)))
                for n in range(30)]
    pairs = comparisons(versions, versions[-1][1])
    assert pairs == [(n, n + 1) for n in range(29)] + [(0, 29)]


def test_typography_alone_is_folded_marked_and_after_the_changes_of_meaning(four):
    """101.4a (the four official releases): 2011 -> 2018 changed only an apostrophe, 2018 -> 2026
    its words."""
    from rulekb.render.versions import typography_only
    page = four.docs["en"]["rules/if-multiple-players-would-make-choices.md"]
    block = section(page)
    unit = block[block.index('id="versions-a"'):]
    unit = unit[:unit.index("</details></details>") if "</details></details>" in unit else len(unit)]
    assert "<strong>Version 2</strong>: January 19, 2018 <em>(typography only)</em>" in unit
    assert "<strong>Version 3</strong>: January 16, 2026 <em>(the text on this page)</em>" in unit
    folded = unit.index('<details class="rulekb-diff-span"><summary class="rulekb-diff-head">From version 1 to '
                        'version 2 (typography only)</summary>')
    meaning = unit.index('<p class="rulekb-diff-head">From version 2 to version 3</p>')
    assert meaning < folded                     # the change of meaning first, open
    assert typography_only("player's hand", "player’s  hand") and not typography_only("his or her", "their")
    german = section(four.docs["de"]["rules/if-multiple-players-would-make-choices.md"])
    assert "(nur Typografie)" in german


def test_a_long_texts_diff_keeps_only_the_words_around_each_change():
    """Issue 32.3: the lists of subtypes (rule 205.3, ~4,000 characters, changed in most releases)
    made rules/subtypes 444 KB with their whole diff for each version; a text over LONG_TEXT
    characters shows the CONTEXT_WORDS words on each side of a change, the rest " … "."""
    from rulekb.render.diffs import CONTEXT_WORDS, LONG_TEXT, Diffs, brief_diff_html
    words = [f"Type{i:03d}" for i in range(300)]
    old = "Creature types: " + ", ".join(words) + "."
    new = old.replace("Type150,", "Type150, Zombie,")
    assert len(old) > LONG_TEXT
    brief = str(Diffs().brief(old, new))
    assert "<ins> Zombie,</ins>" in brief
    assert "Type150,<ins> Zombie,</ins> Type151," in brief
    assert "Type150," in brief and f"Type{150 - CONTEXT_WORDS + 1:03d}" in brief and "Type100" not in brief
    assert f"Type{151 + CONTEXT_WORDS - 1:03d}" in brief and "Type200" not in brief
    assert len(brief) < len(str(diff_html(old, new))) / 5
    # a short text keeps its whole diff; the texts' ends are cut too
    assert str(Diffs().brief("a b c", "a x c")) == str(diff_html("a b c", "a x c"))
    assert brief.startswith("… Type") and brief.endswith(", …")
    # the diff at the text's start keeps the words after it
    first = str(brief_diff_html(old, old.replace("Creature", "Creatures")))
    assert first.startswith("<del>Creature</del><ins>Creatures</ins>") and "Type005" in first and "Type299" not in first
