"""render.templating: the one Jinja2 environment of the pages — autoescape, the helpers the
templates use, templates shipped with the package and their UI strings in the catalog."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest
from markupsafe import Markup

from rulekb.i18n import extract_messages
from rulekb.render.markup import checked
from rulekb.render.templating import (CompiledTemplates, compiled_templates, environment, fill, front_matter, heading,
                                      make_environment, md, template)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tools" / "rulekb"
TEMPLATES = PACKAGE / "templates"
PAGE_TEMPLATES = sorted(p.relative_to(TEMPLATES).as_posix() for p in (TEMPLATES / "pages").glob("*.j2"))


def test_page_templates_exist_and_compile():
    assert "pages/root.html.j2" in PAGE_TEMPLATES
    for name in PAGE_TEMPLATES:
        assert template(name) is template(name)   # compiled once, then taken from the cache


def test_every_page_template_defines_its_page_as_the_macro_markdown():
    """render.templating.Pages calls `markdown` of each page template, once made per language
    (the .html.j2 ones are whole HTML files, not pages for mkdocs: the language picker, the
    rule-number pages, and the macros)."""
    import jinja2.nodes
    env = environment()
    for name in PAGE_TEMPLATES:
        if name.endswith(".md.j2"):
            tree = env.parse(env.loader.get_source(env, name)[0])
            assert "markdown" in {macro.name for macro in tree.find_all(jinja2.nodes.Macro)}, name
    assert any(name.endswith(".md.j2") for name in PAGE_TEMPLATES)


def test_pages_render_a_page_in_their_language(seed):
    from rulekb.i18n import load_uis
    from rulekb.render.templating import Pages
    from rulekb.knowledge import load_knowledge_base
    kb = load_knowledge_base(seed)
    pages = Pages(load_uis(seed, kb.languages)["de"])
    out = pages.render("pages/borrowed.md.j2", head=Markup("---\ntitle: x\n---\n"), body=Markup("*b*"), lang="en")
    assert out.startswith("---\ntitle: x\n---\n\n<div class=\"rulekb-badges rulekb-page-badge\">")
    assert "Englisch — noch nicht übersetzt" in out and out.endswith('<div lang="en" markdown>\n\n*b*\n\n</div>\n')


def test_every_template_is_package_data():
    """A non-editable install has only the files pyproject's package-data globs name."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["rulekb"]
    for path in TEMPLATES.rglob("*"):
        if path.is_file():
            rel = path.relative_to(PACKAGE).as_posix()
            assert any(fnmatch.fnmatch(rel, g) for g in globs), f"{rel} is not in [tool.setuptools.package-data]"


def test_a_value_from_the_data_is_escaped_by_every_page_template():
    env = environment()
    assert env.from_string("{{ x }}").render(x="<script>") == "&lt;script&gt;"   # from_string: autoescape by default
    assert all(env.autoescape(name) is True for name in PAGE_TEMPLATES)   # select_autoescape, per template name


@pytest.mark.parametrize("value", ["<b>", "A & B", "l'effet", 'say "hi"'])
def test_fill_escapes_the_message_and_plain_values_and_keeps_markup(value):
    out = fill("{a} < {b}", a=value, b=Markup("<i>kept</i>"))
    assert isinstance(out, Markup)
    assert out == Markup("{} &lt; <i>kept</i>").format(value)
    assert "<b>" not in fill("<b>{a}</b>", a="x")
    # a message that is Markup already is not escaped again (nor taken for the plain one)
    assert fill("&amp; {a}", a="<") == "&amp;amp; &lt;" and fill(Markup("&amp; {a}"), a="<") == "&amp; &lt;"


def test_md_shows_markdown_specials_literally():
    assert md("19. Januar *2018*  <x> & [y]") == r"19\. Januar \*2018\* &lt;x&gt; &amp; \[y\]"
    assert md(" Constats\u00a0:\n 1 erreur ") == "Constats\u00a0: 1 erreur"   # a no-break space is kept


@pytest.mark.parametrize("title", ["Queen's Agent", "Émissaire de l'aurore", 'Say "q" & <go>'])
def test_a_heading_reaches_the_table_of_contents_escaped_once(title):
    """Markdown's table of contents holds the heading as HTML: escaped once, as the heading is
    (quotes as `md` writes them: ``&#39;`` had its ``#`` backslash-escaped, ``&amp;#39;``)."""
    import html

    import markdown
    converter = markdown.Markdown(extensions=["toc", "attr_list"])
    page = converter.convert(f"# Page\n\n{heading(title, 2, 'x')}\n")
    entry = converter.toc_tokens[0]["children"][0]
    assert html.unescape(entry["name"]) == title
    assert html.unescape(page.split("<h2")[1].split(">", 1)[1].split("</h2>")[0]) == title


def test_front_matter_stores_the_title_escaped_as_a_json_string():
    assert front_matter('A "b" <c>') == '---\ntitle: "A &#34;b&#34; &lt;c&gt;"\n---'
    assert front_matter("Règle\t“x”\\") == '---\ntitle: "Règle\\t“x”\\\\"\n---'   # JSON, not ASCII-only
    assert front_matter("T", hide=("navigation", "toc"), search_exclude=True) == (
        '---\ntitle: "T"\nhide:\n  - navigation\n  - toc\nsearch:\n  exclude: true\n---')


def test_heading_has_its_id_and_may_stay_out_of_the_search():
    assert heading("Notes <b>", 2, "notes") == "## Notes &lt;b&gt; {#notes}"
    assert heading("19. Januar", 3, "date-2018-01-19", search=False) == r"### 19\. Januar {#date-2018-01-19 data-search-exclude}"
    assert environment().from_string('{{ "Rule"|heading(2, "rule") }}').render() == "## Rule {#rule}"


def test_a_page_with_a_blank_line_inside_a_block_is_refused():
    page = '---\ntitle: "x"\n---\n\n## A {#a}\n\n<div>one</div>\n'
    assert checked(page) is page
    with pytest.raises(ValueError, match="blank line inside a block"):
        checked('---\ntitle: "x"\n---\n\n<div>one\n\ntwo</div>\n')


def test_the_templates_ui_strings_are_in_the_catalog():
    catalog = extract_messages(PACKAGE)
    assert "Choose a language" in catalog   # written only in pages/root.html.j2


def test_compiled_templates_are_kept_and_read_by_the_next_process(tmp_path):
    folder = tmp_path / "templates"
    first = make_environment(CompiledTemplates(str(folder)))
    first.get_template("pages/rule.md.j2")
    first.get_template("pages/root.html.j2")
    kept = {p.name: p.stat().st_ino for p in folder.iterdir()}
    assert len(kept) == 2                       # one entry per template
    second = make_environment(CompiledTemplates(str(folder)))
    root = second.get_template("pages/root.html.j2")
    second.get_template("pages/rule.md.j2")
    assert {p.name: p.stat().st_ino for p in folder.iterdir()} == kept   # read, not compiled and written again
    values = dict(codes=["en"], languages=[], offline_path="offline.html", _=str)
    assert root.render(values) == make_environment(None).get_template("pages/root.html.j2").render(values)


def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = make_environment(CompiledTemplates(str(blocker / "templates")))
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    assert env.get_template("pages/root.html.j2").render(codes=[], languages=[], offline_path="offline.html", _=str)


def test_the_compiled_templates_live_in_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path))
    cache = compiled_templates()
    assert Path(cache.directory).parent == tmp_path / "templates"
    monkeypatch.setenv("RULEKB_CACHE_DIR", "")
    assert compiled_templates() is None         # caches turned off
