"""render.status: the translation-status page of each language against its golden file (refresh
with RULEKB_UPDATE_GOLDEN=1); links; the page's words from the language's catalog; every text of
the data shown literally, escaped exactly once (HTML blocks and Markdown headings alike)."""

from __future__ import annotations

import gettext
import html
import re
from dataclasses import replace

import markdown
import pytest
from babel import Locale
from conftest import golden as conftest_golden

from conftest import DATA, ROOT
from rulekb.check.driver import run_checks
from rulekb.i18n import UI, load_uis
from rulekb.models import SOURCE_LANGUAGE, KnowledgeBase
from rulekb.render.status import status_page
from rulekb.report.html import to_html
from rulekb.knowledge import load_knowledge_base

KB = DATA / "qa" / "kb"
# HTML, Markdown's inline specials, an entity and a backslash: all must show as written
EVIL = "<script>alert('x')</script> *not emphasis* _no_ [no link](https://example.com) `no code` &amp; \\<b> | # ~"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base(KB)


@pytest.fixture(scope="module")
def result(kb):
    return run_checks(kb, KB)


@pytest.fixture(scope="module")
def uis(kb):
    return load_uis(KB, kb.languages)   # the fixture has no catalogs: the page's words in English


def golden(name: str, text: str) -> None:
    conftest_golden("render/" + name, text)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_golden(kb, result, uis, lang):
    golden(f"status-{lang}.md", status_page(result, kb, uis[lang]))


def test_links_to_rules_and_cards(kb, result, uis):
    page = status_page(result, kb, uis["de"])
    assert "#### [702\\.78a](rules/retrace.md#702.78a)" in page
    assert "(cards/sa.md#" in page   # a ruling of cards only: on its first card's group page, at its id
    assert "<svg" in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_no_html_block_holds_a_blank_line(kb, result, uis):
    for lang in kb.language_codes:
        blocks = status_page(result, kb, uis[lang]).split("\n\n")
        assert all(block.strip() for block in blocks[1:]), lang


def test_the_words_come_from_the_language_catalog(kb, result):
    de = load_uis(ROOT, kb.languages)["de"]
    page = status_page(result, kb, de)
    assert de._("Translation status") != "Translation status"
    assert f"# {de._('Translation status')}: Deutsch" in page
    assert f'<span class="sev">{de._("error")}</span>' in page


def _evil_kb(kb: KnowledgeBase) -> KnowledgeBase:
    """The fixture with the English and German titles of the rule retrace set to EVIL."""
    rule = kb.rule("retrace")
    variants = dict(rule.title.variants)
    for lang in (SOURCE_LANGUAGE, "de"):
        variants[lang] = (replace(variants[lang][0], text=EVIL),) + variants[lang][1:]
    title = replace(rule.title, variants=variants)
    return replace(kb, rules=tuple(replace(r, title=title) if r.id == "retrace" else r for r in kb.rules))


def _texts(rendered: str, tag: str) -> list[str]:
    """The visible text of each <tag> element (tags inside removed, entities decoded)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", inner))
            for inner in re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", rendered, flags=re.S)]


def test_a_title_with_markup_shows_literally_once_escaped_on_the_status_page(kb, result, uis):
    """The double escape once shown on the English status page (``\\<script>`` in a heading) is
    gone: the page, through Markdown as mkdocs renders it, shows the title as it is written."""
    evil = _evil_kb(kb)
    result = run_checks(evil, KB)
    wanted = f"702.78 {EVIL}"
    for lang in ("en", "de"):
        page = status_page(result, evil, uis[lang])
        assert "<script>" not in page
        body = markdown.markdown(page.split("---\n", 2)[2], extensions=["attr_list", "md_in_html", "tables", "toc"])
        assert "<script>" not in body
        assert any(wanted in text for text in _texts(body, "td"))    # a table cell of an HTML block
        assert any(wanted in text for text in _texts(body, "text"))  # the chart (inline SVG)
        if lang == "de":
            assert wanted in _texts(body, "h3")                      # a Markdown heading (a rule with warnings)
        # (the English page lists no findings: nothing is reported on a published English text)


def test_a_title_with_markup_shows_literally_once_escaped_in_the_html_report(kb):
    evil = _evil_kb(kb)
    report = to_html(run_checks(evil, KB), evil)
    assert "<script>" not in report
    assert f"702.78 {EVIL}" in _texts(report, "h3")
    assert any(f"702.78 {EVIL}" == text for text in _texts(report, "th"))


@pytest.mark.parametrize("lang,english", [("de", "the text in German"), ("fr", "the text in French")])
def test_the_german_and_french_pages_speak_their_language(kb, result, lang, english):
    """With the project's catalogs: the findings, the fixes and the chart in the page's language."""
    ui = load_uis(ROOT, kb.languages)[lang]
    page = status_page(result, kb, ui)
    assert english not in page and " the English " not in page
    assert f'<text x="16" y="15">{ui._("up to date")}</text>' in page     # the chart's legend
    assert f"<title>{ui._('Translation coverage per rule and language: up to date, stale, missing')}</title>" in page
    assert ui._("Untranslated") in page and ui._("Chapter") in page


def test_chart_labels_are_12px_and_the_chart_is_never_scaled_down(kb, result, uis):
    page = status_page(result, kb, uis["en"])
    assert "svg text{font:12px sans-serif}" in page
    assert '<div class="chart" tabindex="0" role="region" aria-label="Coverage">' in page and ".chart svg{max-width:none" in page


class _Pseudo(gettext.NullTranslations):
    """A catalog that marks every message it translates: ⟦…⟧ (pseudo-localisation)."""

    def gettext(self, message):
        return f"⟦{message}⟧"

    def ngettext(self, singular, plural, n):
        return f"⟦{singular if n == 1 else plural}⟧"


def _words_outside_the_catalog(page: str, kb: KnowledgeBase, lang: str) -> set[str]:
    """The words of the page (through Markdown, as mkdocs shows it) that no catalog message gave:
    what is left once the marked messages, the texts of the data (elements with their own
    language, code, the rules' titles, the units' ids) and the language names of the locale are
    taken away."""
    body = markdown.markdown(page.split("---\n", 2)[2], extensions=["attr_list", "md_in_html", "tables", "toc"])
    body = re.sub(r"<(style|code|title)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'<(td|th|span|p|div)\b[^>]*\blang="[^"]*"[^>]*>.*?</\1>', " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    while "⟦" in text:
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    data = set()
    for rule in kb.rules:
        for code in kb.language_codes:
            title = rule.title.text(code) if rule.title else None
            data |= set(re.findall(r"\w+", title.text)) if title else set()
    data |= {part for unit in kb.units() for part in re.findall(r"\w+", unit.id)}
    data |= {part for name in Locale.parse(lang).languages.values() for part in re.findall(r"\w+", name)}
    data = {word.lower() for word in data} | set(kb.language_codes)
    return {word for word in re.findall(r"[^\W\d_]{2,}", text) if word.lower() not in data}


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_word_of_the_german_and_french_pages_comes_from_the_catalog(seed, lang):
    """Pseudo-localised: each message the page asks for comes back marked, so that a word the
    code writes past the catalogs (an English label, "summary", "Rulings:", a count's noun)
    stands out."""
    kb = load_knowledge_base(seed)
    result = run_checks(kb, seed)
    language = next(language for language in kb.languages if language.code == lang)
    ui = UI(lang, Locale.parse(language.locale), _Pseudo())
    assert _words_outside_the_catalog(status_page(result, kb, ui), kb, lang) == set()


def test_the_french_page_spaces_its_punctuation_as_french_does(seed):
    """"Constats: 1 erreur" was the French page: a no-break space before the colon (and ; ! ?),
    from the catalog, everywhere the page speaks (the texts of the data are as they are written)."""
    kb = load_knowledge_base(seed)
    page = status_page(run_checks(kb, seed), kb, load_uis(ROOT, kb.languages)["fr"])
    body = markdown.markdown(page.split("---\n", 2)[2], extensions=["attr_list", "md_in_html", "tables", "toc"])
    body = re.sub(r"<(style|code|title|svg)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'<(td|th)\b[^>]*\blang="[^"]*"[^>]*>.*?</\1>', " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    text = re.sub(r"«[^»]*»|'[^']*'|\(base terminologique[^)]*\)|translated_from: \w+|\w+-\w+: ", " ", text)  # quoted data
    assert "Constats\u00a0: " in text and "État des traductions\u00a0: Français" in text
    unspaced = [text[max(0, m.start() - 30):m.end() + 10] for m in re.finditer(r"[^\u00a0\u202f\s][:;!?](?=\s)", text)]
    assert unspaced == []


def test_on_a_phone_the_texts_are_folded_and_a_long_message_shows_its_first_words(kb, result, uis):
    """The status page keeps a finding short on a phone: each text's English and translation in a
    fold (labelled in the page's language), and a message longer than a few lines cut at a word, its
    rest and its fix in a fold; a short message stays whole. The HTML report shows everything."""
    from rulekb.models import Message
    long = ("702.78a: the text in German translates an older English: " + "“Retrace appears on some instants.” " * 12)
    first = next(f for f in result.findings if f.lang == "de" and f.entry == "retrace.a")
    folded = replace(result, findings=tuple(replace(f, message=long, msg=Message(long)) if f is first else f
                                            for f in result.findings))
    de = load_uis(ROOT, kb.languages)["de"]
    page = markdown.markdown(status_page(folded, kb, de), extensions=["md_in_html", "tables"])
    assert page.count('<details class="texts"><summary>Die Texte: Englisch und Deutsch</summary><table class="parallel">') \
        == page.count('<table class="parallel">') > 0
    folds = [fold for fold in re.findall(r'<details class="finding"><summary>(.*?)</summary>(.*?)</details>', page)
             if "702.78a: the text in German" in fold[0]]
    (fold,) = folds
    summary, rest = (html.unescape(re.sub(r"<[^>]+>", "", part)) for part in fold)
    assert first.code not in summary     # the check's code is no reader's word (issue 32.4)
    fix = de._("fix: {suggestion}").split("{")[0]
    head = summary.split(" ", 1)[1].removesuffix(" …")                  # after the severity
    tail = rest.removeprefix("… ").split(fix)[0]
    assert len(summary) < 220 and fix in rest and fix not in summary
    assert f"{head} {tail}" == long                                     # cut at a word, nothing lost
    assert '<details class="finding">' not in to_html(folded, kb) and '<details class="texts">' not in to_html(folded, kb)


def test_the_info_findings_are_listed_up_to_a_limit_the_rest_counted():
    """Issue 32.3: the English status page listed 805 info findings in full (544 KB); after
    INFOS_SHOWN_MAX findings a rule shows its summary alone."""
    from types import SimpleNamespace

    from rulekb.render.status import INFOS_SHOWN_MAX, Section, _shown_infos
    def section(n, i):
        return Section(f"rule {i}", f"rules/r{i}.md", (), (), ((SimpleNamespace(findings=(object(),) * n), ""),), f"{n} info")
    sections = tuple(section(40, i) for i in range(6))
    shown = _shown_infos(sections, most=100)
    assert [bool(s.infos) for s in shown] == [True, True, False, False, False, False]
    assert [s.infos_summary for s in shown] == [s.infos_summary for s in sections]
    assert _shown_infos(sections[:3]) == sections[:3] and INFOS_SHOWN_MAX >= 120


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_no_ruling_id_or_profile_code_is_shown_as_a_name(kb, result, lang):
    """Issue 32.4: the status page said "Entscheidung explore-reveal-top-card" and "Profil: full";
    a ruling is named by its date and card in the reader's language, the profile in words."""
    page = status_page(result, kb, load_uis(ROOT, kb.languages)[lang])
    rulings = [r for r in kb.rulings if r.cards]
    assert rulings
    # the names of texts: the headings and the links' texts (a finding's message may still quote
    # a label: not yet)
    names = re.findall(r"^#### \[([^\]]*)\]", page, re.MULTILINE) + re.findall(r"<a href=[^>]*>([^<]*)</a>", page)
    assert names
    for ruling in rulings:
        assert not [n for n in names if ruling.id in n.replace("\\", "")], ruling.id
    assert "full" not in re.findall(r"\w+", page.split("</style>", 1)[1].split("</p>", 1)[0])
    assert {"de": "Profil: alle Prüfungen.", "fr": "Profil\u00a0: toutes les vérifications."}[lang] in page


def test_the_keyword_rules_are_figures_in_the_language_of_the_page(kb, result):
    """Issue 29.4: the official file of the fixture prints Retrace (702.81 today) on German cards with
    its reminder text, on no French card: the German page counts it, the French page lists it,
    linked, its English title marked English; the English page has no such part."""
    uis = load_uis(ROOT, kb.languages)
    de = status_page(result, kb, uis["de"])
    assert "### Schlüsselwortregeln" in de
    assert "<p>Offizieller Name: 1 von 1 Schlüsselwortregel<br>Offizieller Erinnerungstext: 1 von 1 Schlüsselwortregel</p>" in de
    assert "deren Namen keine Karte" not in de
    fr = status_page(result, kb, uis["fr"])
    assert "Nom officiel\u00a0: 0 sur 1 règle de mot-clé" in fr and "Texte de rappel officiel\u00a0: 0 sur 1 règle de mot-clé" in fr
    assert ("<summary>1 règle de mot-clé dont aucune carte en français n’imprime le nom\u00a0:</summary><ul class=\"unlisted\">"
            '<li><a href="rules/retrace.html">702.81 <span lang="en">Retrace</span></a></li></ul>') in fr
    assert "Keyword rules" not in status_page(result, kb, uis["en"]) and "Schlüsselwort" not in status_page(result, kb, uis["en"])
