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
