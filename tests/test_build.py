"""Tests for rulekb.build (and the mkdocs plugin): the built site, one mkdocs-material site per
language; offline (nothing remote), search per language, language switch per page, the archive,
deterministic and atomic builds, reuse of unchanged languages, `rulekb build` and `rulekb serve`."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import os
import shutil
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

import sitebuild
from served import fetch, rulekb_serve
from conftest import data_copy
from rulekb import commands
from rulekb.build import SITE_MARKER, BuildError, build_site
from rulekb.diagnostics import DataError
from rulekb.render.search import decode

ROOT = sitebuild.ROOT
HOSTILE = Path(__file__).resolve().parent / "data" / "site" / "hostile"
LANGS = ("en", "de", "fr")


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    return sitebuild.built_site(tmp_path_factory)


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def html_files(site: Path, lang: str) -> list[Path]:
    return sorted((site / lang).rglob("*.html"))


def project_copy(tmp_path: Path, source: Path | None = None) -> Path:
    """The parts of a project the build reads, copied into tmp_path/project: the seed project's,
    or those of `source` (with the project's mkdocs.yml)."""
    dest = tmp_path / "project"
    if source is None:
        return data_copy(dest)
    for name in ("rules", "translations", "content"):
        if (source / name).is_dir():
            shutil.copytree(source / name, dest / name)
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return dest


# ---------------------------------------------------------------- what a reader gets


def test_the_build_shows_progress_and_says_where_to_open_the_site(built):
    assert "[1/5]" in built.log and "[5/5]" in built.log
    for lang in LANGS:
        assert re.search(rf"^\s+{lang}: \d+ pages in [\d.]+ s$", built.log, re.M), built.log
    last = built.log.strip().splitlines()[-1]
    assert last.startswith("open ") and (built.site / "index.html").as_uri() in last


def test_one_site_per_language_with_its_html_lang(built):
    assert (built.site / "index.html").is_file()
    for lang in LANGS:
        pages = html_files(built.site, lang)
        assert len(pages) >= 30
        for page in pages:
            head = page.read_text(encoding="utf-8")[:300]
            assert f'<html lang="{lang}"' in head, page


def test_the_same_pages_exist_in_every_language(built):
    sets = [{p.relative_to(built.site / lang).as_posix() for p in html_files(built.site, lang)} for lang in LANGS]
    assert sets[0] == sets[1] == sets[2]
    assert {"rules/retrace.html", "parallel/retrace.html", "cards/qu.html", "cards/index.html", "keywords.html",
            "glossary.html", "status.html", "api.html", "about.html", "index.html"} <= sets[0]


def test_language_switch_and_hreflang_lead_to_the_same_page(built):
    page = (built.site / "de" / "rules" / "retrace.html").read_text(encoding="utf-8")
    for lang in LANGS:
        href = f"../../{lang}/rules/retrace.html"
        assert re.search(rf'<a href="{re.escape(href)}" hreflang="{lang}" lang="{lang}" class="md-select__link', page)
    home = (built.site / "fr" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="../de/index.html" hreflang="de" lang="de" class="md-select__link', home)
    # no <link rel="alternate">: material's script fetches a sitemap.xml beside each (404s, blocked from file://)
    assert 'rel="alternate"' not in page and 'rel="alternate"' not in home


_THEME_STRING = re.compile(r'^\s*"([a-z.]+)": "(.*)",?$', re.M)
# what a reader sees of the interface outside the text: tooltips, names of controls, the footer
_INTERFACE = re.compile(r'\s(?:title|aria-label|placeholder|alt)="([^"]*)"|<div class="md-copyright__highlight">\s*([^<]*?)\s*</div>')


def _theme_strings(lang: str) -> dict[str, str]:
    import material
    path = Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{lang}.html"
    return dict(_THEME_STRING.findall(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_german_and_french_pages_have_no_english_interface_text(built, lang):
    """Tooltips, control names and the footer come from the UI catalog or the theme's own
    translation; the one English left is data (a rule title or a card name nobody translated)."""
    from rulekb.i18n import read_catalog
    from rulekb.knowledge import load_knowledge_base
    catalog = read_catalog(ROOT / "translations" / "ui" / f"{lang}.po", f"{lang}.po")
    english = {m.id for m in catalog if isinstance(m.id, str) and m.id and m.string and m.string != m.id}
    theme, own = _theme_strings("en"), _theme_strings(lang)
    english |= {text for key, text in theme.items() if own.get(key, text) != text}
    titles = [s.title for s in load_knowledge_base(built.site.parent / "project").sources.values()]
    seen = 0
    # (status.html, the QA's findings, words its own, is the QA's to translate: not checked here)
    for page in [p for p in html_files(built.site, lang) if p.name != "status.html"]:
        for match in _INTERFACE.finditer(page.read_text(encoding="utf-8")):
            value = html.unescape(match.group(1) or match.group(2) or "")
            parts = {value, *re.split(r": | · ", value)}
            assert not parts & english, f"{page.relative_to(built.site)}: English interface text {value!r}"
            assert not any(title in value for title in titles), f"{page.relative_to(built.site)}: {value!r}"
            seen += 1
    assert seen > 300   # every page has some: the check reads what it should


@pytest.mark.parametrize("lang, heading, summary", [
    ("de", "Übersetzungsstand: Deutsch", "Befunde: "),
    ("fr", "État des traductions\u00a0: Français", "Constats\u00a0: "),
])
def test_the_german_and_french_status_pages_label_their_contents_in_their_language(built, lang, heading, summary):
    """The built status page as a reader sees it: its table of contents names the texts in the
    page's language ("702.78 remarque 1", not "702.78 note 1"; "Regelentscheidungen: …", not
    "Rulings: …"), its heading and counts are spaced as the language writes them."""
    page = (built.site / lang / "status.html").read_text(encoding="utf-8")
    toc = page[page.index("md-nav--secondary"):]
    toc = toc[:toc.index('class="md-content"')]
    labels = [" ".join(html.unescape(label).split()) for label in re.findall(r'<span class="md-ellipsis">(.*?)</span>', toc, re.S)]
    assert len(labels) > 5
    english = [label for label in labels if re.search(r"\b(summary|note|title|text|ruling|Rulings|Findings|Coverage)\b", label)]
    assert english == []
    assert any(re.fullmatch(r"\d+\.\d+ (Anmerkung|remarque) \d+", label) for label in labels)
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", re.sub(r'<a class="headerlink".*?</a>', "", h1))).strip() == heading
    assert summary in html.unescape(page)


def test_one_search_index_per_language_and_the_shared_parts(built):
    """The prebuilt index (render.search) is in the site: each language's rules part in its
    language, the card names and older numbers once for all; material's search is not."""
    for lang, word in (("de", "Friedhof"), ("fr", "cimetière"), ("en", "graveyard")):
        part = decode((built.site / lang / "search" / "rules.js").read_text(encoding="utf-8"))
        assert part["lang"] == lang
        retrace = next(rule for rule in part["rules"] if rule[0] == "retrace")
        assert any(word in unit[2] for unit in retrace[6]), (lang, word)
    cards = decode((built.site / "search" / "cards.js").read_text(encoding="utf-8"))
    assert ["cards/qu.html#queens-agent", "Queen's Agent", "Agent der Königin", "Agent de la reine"] in cards["cards"]
    assert "702.81a" not in decode((built.site / "search" / "numbers.js").read_text(encoding="utf-8"))["numbers"]
    for lang in LANGS:
        page = (built.site / lang / "rules" / "retrace.html").read_text(encoding="utf-8")
        assert 'src="../assets/javascripts/rulekb-search.js"' in page and 'data-rules="../search/rules.js"' in page
        assert not (built.site / lang / "assets" / "javascripts" / "lunr").exists()
        assert not list((built.site / lang / "assets" / "javascripts").glob("workers/search.*"))
        assert not (built.site / lang / "search" / "search_index.json").exists()


def test_the_sections_the_search_never_reads_are_on_the_pages_and_not_in_the_index(built):
    """The blocks of the number history, versions, sources and backlinks reach mkdocs after the
    search has read the page (`render.markup.split_blocks`, the plugin's on_post_page): they are
    on the page where they belong, no placeholder is left, and the search (its index is made from
    the knowledge base, render.search) does not know them."""
    for lang in LANGS:
        page = (built.site / lang / "rules" / "retrace.html").read_text(encoding="utf-8")
        history = page.index('id="history"')
        assert history < page.index('<ul class="rulekb-history">') < page.index('id="versions"')
        assert page.index('id="versions"') < page.index('<div class="rulekb-versions"') < page.index('id="sources"')
        index = json.dumps(decode((built.site / lang / "search" / "rules.js").read_text(encoding="utf-8")),
                           ensure_ascii=False)
        assert "rulekb-deferred-" not in index and "rulekb-block-" not in index
        assert "history" not in index and "versions-" not in index
    for path in built.site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "rulekb-deferred-" not in text and "rulekb-block-" not in text, path


REMOTE_ASSET = re.compile(r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=["']?(?:https?:)?//"""
                          r"""|<link\b[^>]*\bhref=["']?(?:https?:)?//""", re.I)


def test_no_page_loads_anything_remote(built):
    """No remote script, stylesheet, font, image or worker: pages, CSS and scripts."""
    for path in sorted(built.site.rglob("*")):
        if path.suffix == ".html":
            text = path.read_text(encoding="utf-8")
            assert not REMOTE_ASSET.search(text), (path, REMOTE_ASSET.search(text).group(0))
            assert "fonts.googleapis" not in text and "fonts.gstatic" not in text and "unpkg.com" not in text, path
        elif path.suffix == ".css":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", text), path
            assert not re.search(r"@import\s+(?:url\()?['\"]?(?:https?:)?//", text), path
        elif path.suffix == ".js":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"(?:importScripts|new Worker)\(\s*['\"`](?:https?:)?//", text), path


def test_the_site_holds_no_template_source(built):
    """rulekb's page and report templates share their folder with the theme overrides; mkdocs
    would copy them as theme files, the plugin leaves them out."""
    assert not [p for p in built.site.rglob("*.j2")]
    with zipfile.ZipFile(built.site / "rulekb-site.zip") as z:
        assert not [name for name in z.namelist() if name.endswith(".j2")]


def test_the_whole_site_is_one_deterministic_archive(built):
    archive = built.site / "rulekb-site.zip"
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in z.infolist())
        # (the language archives and the offline mode's lists are made after it, of the site it holds)
        files = {p.relative_to(built.site).as_posix() for p in built.site.rglob("*") if p.is_file() and p != archive
                 and not (p.name.startswith("rulekb-") and p.name.endswith(".zip")) and p.parent.name != "offline"}
        assert {n.removeprefix("rulekb-site/") for n in names} == files
        assert z.read("rulekb-site/de/rules/retrace.html") == (built.site / "de" / "rules" / "retrace.html").read_bytes()
    assert 'href="../offline.html#de"' in (built.site / "de" / "index.html").read_text(encoding="utf-8")


def test_the_unpacked_copy_links_no_archive_and_says_it_is_the_offline_copy(built):
    """The published site's offline.html links the archive and says how to unpack it; inside the
    archive (where no archive lies beside it) offline.html says that it is the offline copy, and
    no page of the copy links rulekb-site.zip."""
    site_page = (built.site / "offline.html").read_text(encoding="utf-8")
    assert 'href="rulekb-site.zip" download' in site_page and "Entpacke es" in site_page
    assert (built.site / "index.html").read_text(encoding="utf-8").count('href="offline.html"') == 1
    with zipfile.ZipFile(built.site / "rulekb-site.zip") as z:
        copy = z.read("rulekb-site/offline.html").decode("utf-8")
        assert "You are reading the offline copy" in copy and "Vous lisez la copie hors ligne" in copy
        linking = [n for n in z.namelist() if n.endswith(".html")
                   and re.search(rb'href="[^"]*rulekb-site\.zip', z.read(n))]
    assert linking == []


def test_the_json_api_is_in_the_site(built):
    index = json.loads((built.site / "api" / "index.json").read_text(encoding="utf-8"))
    assert [l["code"] for l in index["languages"]] == list(LANGS)
    for lang in LANGS:
        listing = json.loads((built.site / "api" / lang / "index.json").read_text(encoding="utf-8"))
        for entry in listing["rules"] + listing["cards"] + listing["rulings"]:
            assert (built.site / entry["json"]).is_file()
        for entry in listing["rules"] + listing["cards"]:
            page, _, anchor = entry["page"].partition("#")
            assert (built.site / page).is_file()
            assert not anchor or f'id="{anchor}"' in (built.site / page).read_text(encoding="utf-8")


# ---------------------------------------------------------------- how it builds


def test_two_builds_are_byte_identical(built, tmp_path):
    # another copy of the seed project, laid out as the first (the build folder names the project relatively)
    again = sitebuild.build(data_copy(tmp_path / "project"), tmp_path / "site", tmp_path / "build")
    assert "reused" not in again.log  # a fresh build folder: mkdocs ran again
    first, second = digest(built.site), digest(again.site)
    assert first.keys() == second.keys()
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, differ[:20]


def test_unchanged_languages_are_not_built_again(built, tmp_path):
    page = built.work / "de" / "site" / "rules" / "retrace.html"   # mkdocs' output, kept for the next build
    mtime = page.stat().st_mtime_ns
    again = sitebuild.build(built.site.parent / "project", tmp_path / "site", built.work)
    for lang in LANGS:
        assert re.search(rf"^\s+{lang}: unchanged since the last build, reused", again.log, re.M)
    assert "0 config(s) changed" in again.log
    assert page.stat().st_mtime_ns == mtime
    assert digest(again.site) == digest(built.site)


def test_a_language_is_built_again_when_anything_its_output_depends_on_changes(tmp_path, monkeypatch):
    """A language's key (`reuse.language_key`) follows its pages, its mkdocs.yml, its UI catalog,
    the root mkdocs.yml, the build date and the code's key (`cache.code_key`: every file of the
    package, so the plugin, the templates and everything they call, and the libraries)."""
    from rulekb import cache
    from rulekb.build import reuse
    project = data_copy(tmp_path / "project")
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "mkdocs.yml").write_text("INHERIT: ../project/mkdocs.yml\n", encoding="utf-8")
    key = reuse.language_key(folder, project, "de", "pages", 1)
    assert key == reuse.language_key(folder, project, "de", "pages", 1)
    assert reuse.language_key(folder, project, "de", "other pages", 1) != key
    assert reuse.language_key(folder, project, "de", "pages", 2) != key
    assert reuse.language_key(folder, project, "fr", "pages", 1) != key
    edits = [folder / "mkdocs.yml", project / "mkdocs.yml", project / "translations" / "ui" / "de.po"]
    for path in edits:
        original = path.read_bytes()
        path.write_bytes(original + b"\n# edited\n")
        assert reuse.language_key(folder, project, "de", "pages", 1) != key, path
        path.write_bytes(original)
    assert reuse.language_key(folder, project, "de", "pages", 1) == key
    monkeypatch.setattr(cache, "code_key", lambda: "another version of the code")
    assert reuse.language_key(folder, project, "de", "pages", 1) != key


def test_a_failed_build_leaves_the_previous_site_whole(built, tmp_path):
    project = project_copy(tmp_path)
    site = project / "site"
    shutil.copytree(built.site, site)
    before = digest(site)
    config = project / "mkdocs.yml"  # mkdocs fails on an unknown Markdown extension
    text = config.read_text(encoding="utf-8")
    assert "  - tables\n" in text
    config.write_text(text.replace("  - tables\n", "  - tables\n  - no_such_markdown_extension\n"), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        build_site(project, site, out=io.StringIO())
    assert "mkdocs failed" in str(err.value)
    assert digest(site) == before
    assert sorted(p.name for p in project.iterdir()) == ["build", "content", "mkdocs.yml", "rules", "site", "translations"]


def test_bad_data_stops_the_build_before_anything_is_written(built, tmp_path):
    project = project_copy(tmp_path)
    site = project / "site"
    shutil.copytree(built.site, site)
    before = digest(site)
    path = project / "rules" / "comprehensive" / "retrace.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("release: '2011-05-01'", "release: 'someday'"), encoding="utf-8")
    with pytest.raises(DataError) as err:
        build_site(project, site, out=io.StringIO())
    assert err.value.problems[0].file == "rules/comprehensive/retrace.yaml"
    assert digest(site) == before


def test_a_folder_that_is_not_a_site_is_never_replaced(seed, tmp_path):
    victim = tmp_path / "documents"
    victim.mkdir()
    (victim / "thesis.txt").write_text("precious", encoding="utf-8")
    with pytest.raises(BuildError) as err:
        build_site(seed, victim, work=tmp_path / "build", out=io.StringIO())
    assert SITE_MARKER in str(err.value)
    assert (victim / "thesis.txt").read_text(encoding="utf-8") == "precious"


def test_rulekb_build_with_a_new_language_and_hostile_texts(tmp_path, capsys):
    """`rulekb build --site-dir`: a language (it) with no texts and no UI catalog builds, showing
    the English marked; texts with markup show as text."""
    project = project_copy(tmp_path, HOSTILE)
    code = commands.main(["--root", str(project), "build", "--site-dir", "public"])
    out = capsys.readouterr().out
    assert code == 0, out
    site = project / "public"
    assert "open public/index.html" in out or (site / "index.html").as_uri() in out
    page = (site / "it" / "rules" / "shield.html").read_text(encoding="utf-8")
    assert '<html lang="it"' in page
    assert "English original — not yet translated" in page and 'lang="en"' in page
    assert "giugno 2011" in page
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<i>" not in text, path
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in (site / "en" / "rules" / "shield.html").read_text("utf-8")
    title = re.search(r"<title>(.*?)</title>", (site / "en" / "rules" / "shield.html").read_text("utf-8")).group(1)
    assert title.startswith("702.9 Shield &lt;i&gt;")
    # the German status page (the English texts have no findings: a published text is not the translator's to
    # change) quotes the hostile English beside the German, escaped once (no "&amp;lt;", no "\\<i>")
    status = (site / "de" / "status.html").read_text("utf-8")
    assert '<td lang="en">Shield &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; *not emphasis*' in status
    assert "&amp;lt;" not in status and "\\&lt;" not in status
    assert decode((site / "it" / "search" / "rules.js").read_text(encoding="utf-8"))["lang"] == "it"


def _wait_for(url: str, text: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = fetch(url)
        if page is not None and text in page.decode("utf-8"):
            return True
        time.sleep(0.3)
    return False


def test_rulekb_serve_rebuilds_when_a_yaml_file_changes(tmp_path):
    project = project_copy(tmp_path, HOSTILE)
    with rulekb_serve(project, "de") as served:
        url = f"{served}/rules/shield.html"
        assert _wait_for(url, "Schild erschien auf einigen Spontanzaubern.", 60), "the page was not served"
        rule = project / "rules" / "comprehensive" / "shield.yaml"
        rule.write_text(rule.read_text(encoding="utf-8").replace("auf einigen", "auf manchen"), encoding="utf-8")
        assert _wait_for(url, "Schild erschien auf manchen Spontanzaubern.", 60), "the page was not rebuilt"


# ---------------------------------------------------------------- the language processes


def run_calls(function, calls, at_once, done, meanwhile=lambda: None):
    """The calls in processes of `rulekb.pool`, their results taken as the build takes its
    languages' (`build.collect`)."""
    from rulekb.build import collect
    collect(function, calls, at_once, done, meanwhile)


def test_calls_report_their_results_in_this_process():
    got, meanwhile = {}, []
    run_calls(str, [(1,), ("a",), (None,)], 2, got.__setitem__, lambda: meanwhile.append(os.getpid()))
    assert got == {0: "1", 1: "a", 2: "None"}
    assert meanwhile == [os.getpid()]   # once, in this process


@pytest.mark.parametrize("at_once", [1, 2])
def test_a_failing_call_fails_the_build_with_its_reason(at_once):
    import operator
    got = {}
    with pytest.raises(BuildError, match=re.compile(r"a build process failed:\n.*Traceback.*ZeroDivisionError", re.S)):
        run_calls(operator.truediv, [(1, 1), (1, 0)], at_once, got.__setitem__)
    assert 1 not in got


def test_a_build_error_of_a_language_is_raised_as_it_is(tmp_path):
    """mkdocs failing for a language in its process (here: no pages were handed over) is the
    language's error, not a traceback."""
    from rulekb.build.languages import build_handed_over
    from rulekb.models import Language
    (tmp_path / "de").mkdir()
    with pytest.raises(DataError, match="cannot read .*pages.pickle"):
        run_calls(build_handed_over, [(tmp_path / "de", tmp_path, Language("de", "Deutsch", "German", "de_DE"), 0)] * 2, 2,
                  lambda i, r: None)


def test_a_process_that_dies_without_a_result_fails_the_build():
    with pytest.raises(BuildError, match="a build process ended without a result"):
        run_calls(os._exit, [(7,), (7,)], 2, lambda i, r: None)


def test_no_process_runs_before_its_work_exists_and_each_language_gets_its_own_pages(seed, tmp_path):
    """Issue 13's memory and issue 30's pool: the QA's process has ended when the pages are
    rendered, and no mkdocs process has started yet (they start once the pages are handed over,
    spawned: holding only their own language); the pages a language is handed are those
    rendered, split as the plugin wants them."""
    import multiprocessing
    import pickle

    from rulekb.build import hand_over, language_pages, split_pages
    from rulekb.render.markup import split_blocks
    seen = {}

    def after_render(prepared):
        seen["processes"] = multiprocessing.active_children()
        handed = hand_over(seed, tmp_path / "work", prepared, ("de", "fr"))
        seen["handed"] = {lang: pickle.loads((tmp_path / "work" / lang / "pages.pickle").read_bytes())
                          for lang in handed.todo}
        seen["pages"] = {lang: language_pages(prepared, lang) for lang in ("de", "fr")}
        seen["docs"] = prepared.site.docs

    sitebuild.build(seed, tmp_path / "site", tmp_path / "build", after_render=after_render)
    assert seen["processes"] == []
    assert seen["handed"] == seen["pages"]
    de, fr = seen["handed"]["de"], seen["handed"]["fr"]
    assert de.lang == "de" and set(de.docs) == set(seen["docs"]["de"]) and de.digest != fr.digest
    inputs = split_pages(de)
    page = "rules/retrace.md"
    assert page in de.generated
    skeleton, blocks = split_blocks(seen["docs"]["de"][page])
    assert inputs.pages[page] == skeleton and inputs.blocks[page] == tuple(blocks)
    # once built, a language's pages are not kept in the build folder
    assert not list((tmp_path / "build").glob("*/pages.pickle"))


def test_pages_handed_over_travel_as_utf8_and_the_rendered_pages_keep_no_utf8_copy():
    """The hand-over pickles a language's pages as UTF-8 bytes, each page encoded once for its
    digest and the pipe: pickling the rendered str itself would leave a UTF-8 copy of every
    non-ASCII page with it in the build process until the end (CPython keeps the str's UTF-8
    form once asked for). The digest (the language's fingerprint: rebuilt or reused) follows
    every page's text and whether it is generated."""
    import pickle
    import sys as _sys
    from types import SimpleNamespace

    from rulekb.build import language_pages, split_pages
    from rulekb.models import dumps

    def handed(texts, generated=frozenset({"rules/retrace.md"})):
        prepared = SimpleNamespace(site=SimpleNamespace(docs={"de": texts}, generated={"de": generated}),
                                   assets={}, kb=SimpleNamespace(language_codes=("de",)))
        return language_pages(prepared, "de")

    texts = {"rules/retrace.md": "# 702.81 Zurückverfolgen\n\n<p>Rückverfolgung → Friedhof</p>", "index.md": "# Startseite"}
    sizes = {path: _sys.getsizeof(text) for path, text in texts.items()}
    pages = handed(texts)
    there = pickle.loads(dumps(pages))
    assert there.docs == {path: text.encode("utf-8") for path, text in texts.items()} and type(there.docs) is dict
    assert {path: _sys.getsizeof(text) for path, text in texts.items()} == sizes   # no UTF-8 copy kept here
    assert split_pages(there) == split_pages(pages)
    assert split_pages(there).blocks["rules/retrace.md"] == ("<p>Rückverfolgung → Friedhof</p>",)
    assert split_pages(there).pages["index.md"] == "# Startseite"
    assert handed(dict(texts)).digest == pages.digest
    assert handed({**texts, "index.md": "# Start"}).digest != pages.digest
    assert handed(texts, frozenset()).digest != pages.digest



def test_the_hand_over_holds_one_language_s_encoded_pages_at_a_time(seed, tmp_path, monkeypatch):
    """Issue 13's memory: a language's pages, encoded to UTF-8 for its mkdocs process, are let go
    once they are written for its mkdocs process, before the next language's are encoded (holding two made the complete
    build's largest process 76 MB larger)."""
    import gc
    import weakref

    from rulekb import build as build_module

    prepared = build_module.prepare(seed, ["en", "de", "fr"])
    made: list[weakref.ref] = []
    alive_when_next_made: list[bool] = []
    encode = build_module.language_pages

    def language_pages(prepared, lang):
        gc.collect()
        alive_when_next_made.extend(ref() is not None for ref in made)
        pages = encode(prepared, lang)
        made.append(weakref.ref(pages))
        return pages

    monkeypatch.setattr(build_module, "language_pages", language_pages)
    handed = build_module.hand_over(seed, tmp_path / "work", prepared, ("en", "de", "fr"))
    assert handed.todo == ("en", "de", "fr")   # an empty build folder: nothing reusable
    assert all((tmp_path / "work" / lang / "pages.pickle").is_file() for lang in handed.todo)
    assert len(made) == 3 and alive_when_next_made == [False, False, False]

def test_the_build_accounts_for_its_processor_time_by_part(built):
    """How the processor time is accounted, not how much there is (that depends on the machine
    and on what the caches hold: a warm knowledge cache loads in next to no time)."""
    from rulekb.timing import PAGE_PIPELINE, Part
    result = built.result
    assert list(result.parts) == list(Part)
    assert all(isinstance(seconds, float) for seconds in result.parts.values())
    # every second of the build is either mkdocs' or one of the parts'
    assert sum(result.parts.values()) + result.mkdocs_cpu == pytest.approx(result.cpu, abs=1e-6)
    assert result.pipeline_cpu == pytest.approx(sum(result.parts.values()), abs=1e-6)
    assert result.page_pipeline_cpu == pytest.approx(sum(result.parts[p] for p in PAGE_PIPELINE))
    assert [b.lang for b in result.languages] == list(LANGS) and not any(b.reused for b in result.languages)
    assert result.parts[Part.HOOKS] == pytest.approx(sum(b.hooks_cpu for b in result.languages))


@pytest.mark.parametrize(("anchor", "builds"), [("702.78a", True), ("702.78z", False)])
def test_a_hand_written_link_into_a_rule_is_checked_against_the_rules_anchors(tmp_path, anchor, builds):
    """mkdocs checks the anchors of Markdown links (strict: a missing one fails the build); the
    anchors of a generated page are the ids of its HTML blocks, which the plugin records for the
    pages such links point into."""
    project = project_copy(tmp_path)
    (project / "content" / "en" / "links.md").write_text(
        f"# Links\n\nSee [Retrace](rules/retrace.md#{anchor}) and [Dredge](rules/dredge.md).\n", encoding="utf-8")
    out = io.StringIO()
    if builds:
        build_site(project, tmp_path / "site", work=tmp_path / "build", languages=["en"], out=out)
        page = (tmp_path / "site" / "en" / "links.html").read_text(encoding="utf-8")
        assert f'href="rules/retrace.html#{anchor}"' in page
    else:
        with pytest.raises(BuildError, match=f"does not contain an anchor '#{re.escape(anchor)}'"):
            build_site(project, tmp_path / "site", work=tmp_path / "build", languages=["en"], out=out)


def test_a_build_with_nothing_changed_keeps_the_site_folder_as_it_is(tmp_path):
    project = project_copy(tmp_path)
    site, work = tmp_path / "site", tmp_path / "build"
    first = sitebuild.build(project, site, work, languages=["de"])
    inode, before = site.stat().st_ino, digest(site)
    again = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed since the last build" in again.log
    assert site.stat().st_ino == inode and digest(site) == before      # not replaced, not touched
    assert (again.result.files, again.result.size) == (first.result.files, first.result.size)
    assert [b.reused for b in again.result.languages] == [True]
    # recognised before anything is loaded: the build folder's record names the same inputs
    assert "[1/5] nothing changed since the last build" in again.log and "[2/5]" not in again.log
    # a hand-written page changed: the inputs differ, the language is built again
    page = project / "content" / "de" / "about.md"
    original = page.read_bytes()
    page.write_bytes(original + b"\n\nMehr.\n")
    changed = sitebuild.build(project, site, work, languages=["de"])
    assert "[2/5]" in changed.log and "de: unchanged" not in changed.log
    # and changed back: the pages are those of the language's last-but-one build, which its key
    # no longer names, so mkdocs runs again; the site is the first one, byte for byte
    page.write_bytes(original)
    back = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed" not in back.log and digest(site) == before
    # a file of the site gone: built again
    (site / "index.html").unlink()
    third = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed" not in third.log and digest(site) == before
    # a changed text: built again, the change in the site
    path = project / "rules" / "comprehensive" / "dredge.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Ausgraben ist eine statische", "Ausgraben ist eine sehr statische", 1),
                    encoding="utf-8")
    fourth = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed" not in fourth.log
    assert "sehr statische" in (site / "de" / "rules" / "dredge.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- two builds at once, full disks


def _files_left(folder: Path, *patterns: str) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for pattern in patterns for p in folder.rglob(pattern))


def test_a_second_build_while_one_runs_is_refused_and_the_site_ends_whole(tmp_path, capsys):
    """Two `rulekb build`s of one project at once (two terminals, a save hook): the second is
    refused at once (exit 3, a message naming the first, no traceback, nothing written); the first
    ends with the whole site; the next build works."""
    from rulekb.exitcodes import Exit
    project = project_copy(tmp_path)
    site, work = project / "site", project / "build"
    ready, go = tmp_path / "ready", tmp_path / "go"
    first = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import io, time
        from pathlib import Path
        from rulekb.build import build_site
        def pause(prepared):   # holding the locks, before mkdocs runs
            Path({str(ready)!r}).touch()
            while not Path({str(go)!r}).exists():
                time.sleep(0.05)
        build_site(Path({str(project)!r}), Path({str(site)!r}), work=Path({str(work)!r}), languages=["de"],
                   after_render=pause, out=io.StringIO())
    """)], env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tools"), os.environ.get("PYTHONPATH", "")])))
    try:
        deadline = time.monotonic() + 120
        while not ready.exists():
            assert first.poll() is None and time.monotonic() < deadline, "the first build did not start"
            time.sleep(0.05)
        code = commands.main(["--root", str(project), "build"])
        err = capsys.readouterr().err
        assert code == Exit.BUSY == 3
        assert f"another `rulekb build` (process {first.pid}) is building {work} right now" in err
        assert "fix: wait until it has ended" in err and "Traceback" not in err
        assert not site.exists()
    finally:
        go.touch()
        assert first.wait(timeout=300) == 0
    assert (site / "index.html").is_file() and (site / "api" / "index.json").is_file()
    assert (site / "de" / "index.html").is_file() and (site / "rulekb-site.zip").is_file()
    assert _files_left(project, ".*.lock", ".site.new*", "*.rulekb-tmp") == []
    again = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed since the last build" in again.log


def test_a_full_disk_while_assembling_is_one_clear_error_and_the_site_stays_whole(built, tmp_path, monkeypatch):
    """The disk fills while the archive is written (an injected ENOSPC: a test cannot fill a
    real disk): a WriteError naming the file and the fix, the previous site whole, no staging
    folder or temporary file left."""
    import errno

    from rulekb import archive
    from rulekb.files import WriteError
    project = project_copy(tmp_path)
    site = project / "site"
    shutil.copytree(built.site, site)
    before = digest(site)

    def full_disk(folder, target, prefix, replace=None):
        target.write_bytes(b"PK\x03\x04 half an archive")
        raise OSError(errno.ENOSPC, "No space left on device", str(target))
    monkeypatch.setattr(archive, "zip_folder", full_disk)
    with pytest.raises(WriteError) as failed:
        build_site(project, site, languages=["de"], out=io.StringIO())
    (problem,) = failed.value.problems
    assert problem.file.endswith("rulekb-site.zip") and "No space left on device" in problem.message
    assert problem.hint.startswith("free some disk space")
    assert digest(site) == before
    assert _files_left(project, ".site.*", "*.rulekb-tmp", "*.tmp") == []


def test_a_full_disk_in_a_language_build_ends_in_one_message_exit_2(built, tmp_path, monkeypatch, capsys):
    """mkdocs meets a full disk in a language's process (an injected ENOSPC in its page writer):
    `rulekb build` prints file, error and fix, exits 2, no traceback; the site stays whole."""
    import errno

    import mkdocs.utils
    project = project_copy(tmp_path)
    site = project / "site"
    shutil.copytree(built.site, site)
    before = digest(site)

    path = project / "rules" / "comprehensive" / "dredge.yaml"   # a change: the site is built again
    path.write_text(path.read_text(encoding="utf-8").replace("Ausgraben ist eine statische", "Ausgraben ist eine sehr statische", 1),
                    encoding="utf-8")

    def full_disk(content, output_path):
        raise OSError(errno.ENOSPC, "No space left on device", output_path)
    monkeypatch.setattr(mkdocs.utils, "write_file", full_disk)   # one language at a time: in this process
    code = commands.main(["--root", str(project), "build", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.search(r"^\S+/build/(en|de|fr)/site/\S+:1:1: error: cannot write \S+: No space left on device$", err, re.M), err
    assert "fix: free some disk space, then run the command again" in err and "Traceback" not in err
    assert digest(site) == before
    assert _files_left(project, ".site.*", "*.rulekb-tmp", "*.tmp") == []


def test_a_previous_site_that_cannot_be_removed_is_a_clear_error_and_the_next_build_recovers(built, tmp_path,
                                                                                           monkeypatch, capsys):
    """A read-only or half-removable previous site (an injected EACCES on its removal: root, as
    the tests run in CI, removes read-only folders all the same): the new site is in place, the
    build says what could not be removed and how to fix it (exit 2, no traceback); the next build
    removes the leftover and works."""
    import errno

    from rulekb import sitefolder
    project = project_copy(tmp_path)
    site, work = project / "site", project / "build"
    sitebuild.build(project, site, work, languages=["de"])
    path = project / "rules" / "comprehensive" / "dredge.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Ausgraben ist eine statische", "Ausgraben ist eine sehr statische", 1),
                    encoding="utf-8")
    real = shutil.rmtree

    def refuse(folder, *args, **kwargs):
        if ".site.old" in Path(folder).parts:
            raise PermissionError(errno.EACCES, "Permission denied", str(folder))
        return real(folder, *args, **kwargs)
    monkeypatch.setattr(shutil, "rmtree", refuse)
    with pytest.raises(DataError) as failed:
        build_site(project, site, work=work, languages=["de"], out=io.StringIO())
    (problem,) = failed.value.problems
    assert "cannot remove" in problem.message and "Permission denied" in problem.message
    assert "the new one is in place" in problem.message and "the next build removes it" in problem.hint
    assert "sehr statische" in (site / "de" / "rules" / "dredge.html").read_text(encoding="utf-8")
    assert sitefolder.ours(sitefolder.old_folder(site))
    monkeypatch.undo()
    again = sitebuild.build(project, site, work, languages=["de"])
    assert "nothing changed since the last build" in again.log
    assert not sitefolder.old_folder(site).exists()


# ---------------------------------------------------------------- killed builds, read-only and full disks


def _session(leader: int) -> list[int]:
    """The processes of the session `leader` started (`setsid`), the leader too while it runs."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z" and int(fields[3]) == leader:
                found.append(int(entry.name))
    return found


def _workers(leader: int) -> list[int]:
    def cmdline(pid):
        try:
            return (Path("/proc") / str(pid) / "cmdline").read_bytes()
        except OSError:
            return b""
    return [pid for pid in _session(leader) if pid != leader and b"spawn_main" in cmdline(pid)]


def _rulekb_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tools"), os.environ.get("PYTHONPATH", "")]))


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs /proc to see the build's processes")
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM", "SIGHUP"])
def test_a_killed_build_leaves_no_process_behind_and_the_next_build_works(tmp_path, signal_name):
    """Issue 31: `setsid rulekb build`, then the build killed (kill -9, kill, a closed terminal)
    while its worker processes run: they end with it, nothing holds its locks, and the next
    build works. Every process the test started is ended by it."""
    import signal
    project = project_copy(tmp_path)
    build = subprocess.Popen([sys.executable, "-m", "rulekb", "--root", str(project), "build"],
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_rulekb_env())
    left: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not _workers(build.pid):
            assert build.poll() is None and time.monotonic() < deadline, "the build ended before it had started a worker"
            time.sleep(0.02)
        os.kill(build.pid, getattr(signal, signal_name))
        build.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _session(build.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _session(build.pid)
    finally:
        for pid in [build.pid, *_session(build.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        build.wait()
    assert left == [], f"processes of the killed build still run: {left}"
    again = sitebuild.build(project, project / "site", project / "build")
    assert (again.site / "de" / "index.html").is_file()
    assert _files_left(project, ".*.lock", ".site.new*", ".site.old") == []


def _drop_privileges(*capabilities: str) -> list[str]:
    """A command prefix that runs a command as this (root) user without the capabilities that let
    root ignore file permissions: as an ordinary user owning the files."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the build without root's overrides of file permissions")
    return ["setpriv", f"--bounding-set={','.join('-' + c for c in capabilities)}", "--"]


def _edit_dredge(project: Path) -> None:
    path = project / "rules" / "comprehensive" / "dredge.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Ausgraben ist eine statische", "Ausgraben ist eine sehr statische", 1),
                    encoding="utf-8")


def _chmod_tree(folder: Path, files: int, folders: int) -> None:
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, folders if path.is_dir() else files)


def test_a_read_only_site_of_ones_own_is_replaced_and_nothing_is_left_behind(tmp_path):
    """Issue 31: `chmod -R a-w site`, then a build as an ordinary user (no root overrides): the
    build swapped the new site in, failed on removing the old one and left ``.site.old``, which
    blocked every later build. Now the user's own read-only site is replaced and removed."""
    prefix = _drop_privileges("dac_override", "dac_read_search")
    project = project_copy(tmp_path)
    site = project / "site"
    sitebuild.build(project, site, project / "build")
    _edit_dredge(project)
    _chmod_tree(site, 0o444, 0o555)
    done = subprocess.run([*prefix, sys.executable, "-m", "rulekb", "--root", str(project), "build"],
                          capture_output=True, text=True, env=_rulekb_env())
    assert done.returncode == 0, done.stderr
    assert "sehr statische" in (site / "de" / "rules" / "dredge.html").read_text(encoding="utf-8")
    assert _files_left(project, ".site.old", ".site.new*") == []
    again = subprocess.run([*prefix, sys.executable, "-m", "rulekb", "--root", str(project), "build"],
                           capture_output=True, text=True, env=_rulekb_env())
    assert again.returncode == 0 and "nothing changed since the last build" in again.stdout, again.stderr


def test_a_read_only_site_of_another_user_is_refused_before_anything_moves(tmp_path):
    """A read-only site the user may not make writable (another user's): refused before
    anything is written, naming the folder and the fix; the site as it was, nothing left; once
    it is writable, the next build works."""
    prefix = _drop_privileges("dac_override", "dac_read_search", "fowner", "chown")
    project = project_copy(tmp_path)
    site = project / "site"
    sitebuild.build(project, site, project / "build", languages=["de"])
    _edit_dredge(project)
    before = digest(site)
    nobody = 65534
    for path in [site, *site.rglob("*")]:
        os.chown(path, nobody, nobody, follow_symlinks=False)
    _chmod_tree(site, 0o444, 0o555)
    done = subprocess.run([*prefix, sys.executable, "-m", "rulekb", "--root", str(project), "build"],
                          capture_output=True, text=True, env=_rulekb_env())
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot replace {site}: {site}" in done.stderr and "is neither writable for you nor yours" in done.stderr
    assert "fix: make" in done.stderr and "Traceback" not in done.stderr
    assert digest(site) == before
    assert _files_left(project, ".site.old", ".site.new*") == []
    for path in [site, *site.rglob("*")]:   # the user's own again
        os.chown(path, os.geteuid(), os.getegid(), follow_symlinks=False)
    done = subprocess.run([*prefix, sys.executable, "-m", "rulekb", "--root", str(project), "build"],
                          capture_output=True, text=True, env=_rulekb_env())
    assert done.returncode == 0, done.stderr
    assert "sehr statische" in (site / "de" / "rules" / "dredge.html").read_text(encoding="utf-8")


def test_a_full_disk_under_the_site_folder_names_the_site_not_the_build_folder(built, tmp_path, monkeypatch):
    """Issue 31: on another disk the language sites are copied, not linked; when that disk is
    full, the file named is the one in the site folder (on the full disk), not the file of
    build/ it was copied from (an ENOSPC of the copy, injected at the system call: os.link fails
    across disks, os.sendfile on the full one)."""
    import errno

    from rulekb.files import WriteError

    def across_disks(source, target, *args, **kwargs):
        raise OSError(errno.EXDEV, "Invalid cross-device link", source, target)

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")
    project = project_copy(tmp_path)
    sitebuild.build(project, project / "site", project / "build", languages=["de"])   # mkdocs' output, reused below
    site = tmp_path / "other-disk" / "site"
    monkeypatch.setattr(os, "link", across_disks)
    monkeypatch.setattr(os, "sendfile", full)
    with pytest.raises(WriteError) as failed:
        build_site(project, site, work=project / "build", languages=["de"], out=io.StringIO())
    (problem,) = failed.value.problems
    assert problem.file.startswith(f"{site}/de/") and "No space left on device" in problem.message
    assert problem.hint.startswith("free some disk space")
    assert not site.exists() and _files_left(site.parent, ".site.*") == []


def test_a_full_disk_under_the_site_folder_through_the_command(built, tmp_path):
    """The same on a real full disk: a small tmpfs, mounted in a mount namespace of the
    command's own (gone with it)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to mount a small file system")
    project = project_copy(tmp_path)
    disk = tmp_path / "disk"
    disk.mkdir()
    root_files = [p for p in built.site.iterdir() if p.name not in LANGS and p.name != "rulekb-site.zip"]
    root_files += [p for lang in LANGS for part in ("n", "search") for p in [built.site / lang / part]]
    size = sum(-(-f.stat().st_size // 4096) * 4096 + 4096
               for top in root_files for f in ([top] if top.is_file() else top.rglob("*"))) + 256 * 1024
    command = (f"mount -t tmpfs -o size={size} tmpfs {disk} && exec {sys.executable} -m rulekb --root {project} "
               f"build --site-dir {disk}/site")
    done = subprocess.run(["unshare", "-m", "sh", "-c", command], capture_output=True, text=True, env=_rulekb_env())
    if "mount" in done.stderr and done.returncode != 2:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    assert done.returncode == 2, done.stdout + done.stderr
    named = re.search(r"^(\S+):1:1: error: cannot write (\S+): No space left on device$", done.stderr, re.M)
    assert named, done.stderr
    assert named.group(1).startswith(f"{disk}/site") and "/build/" not in named.group(1)
    assert "fix: free some disk space" in done.stderr and "Traceback" not in done.stderr


def test_the_published_site_follows_the_umask(tmp_path):
    """Issue 31: every build left the site folder at 0700 (mkdtemp's mode): a web server running
    as another user could not read it. With umask 022, others can read every folder and file."""
    import stat
    project = project_copy(tmp_path)
    previous = os.umask(0o022)
    try:
        built = sitebuild.build(project, project / "site", project / "build", languages=["de"])
    finally:
        os.umask(previous)
    assert stat.S_IMODE(built.site.stat().st_mode) == 0o755
    for path in built.site.rglob("*"):
        mode = path.stat().st_mode
        assert mode & stat.S_IROTH and (not path.is_dir() or mode & stat.S_IXOTH), path
