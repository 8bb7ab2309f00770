"""Tests for rulekb.mkdocs_plugin: what its hooks do to mkdocs' files and pages, and what they
count as the pipeline's processor time. The built site (tests/test_build.py) shows the result
through mkdocs; here each hook on its own."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from rulekb.mkdocs_plugin import RulekbPlugin

LANGUAGES = [["en", "English"], ["de", "Deutsch"], ["fr", "Français"]]


def _plugin(blocks, *, lang="de", fix_html_lang=False) -> RulekbPlugin:
    plugin = RulekbPlugin()
    plugin.load_config({"lang": lang, "languages": LANGUAGES})
    plugin.provide({}, blocks, {})
    plugin._lang, plugin._languages, plugin._fix_html_lang = lang, LANGUAGES, fix_html_lang
    return plugin


class _Thing:
    """A stand-in for mkdocs' File and Page (hashable, as they are)."""

    def __init__(self, **values) -> None:
        self.__dict__.update(values)


def _page(src_uri: str, content: str | None, anchors: set[str], links=None):
    file = _Thing(src_uri=src_uri, dest_uri=src_uri.replace(".md", ".html"))
    page = _Thing(file=file, content=content, present_anchor_ids=set(anchors), links_to_anchors=links)
    file.page = page
    return page


class _Files:
    def __init__(self, pages):
        self._pages = pages

    def documentation_pages(self):
        return [p.file for p in self._pages]


def test_on_env_fills_every_page_links_the_languages_and_adds_the_anchors_a_link_needs():
    rule = _page("rules/retrace.md", "<h2 id=\"rule\">Rule</h2>\n<p>rulekb-block-0</p>", {"rule"})
    other = _page("rules/other.md", "<p>rulekb-block-0</p>", {"rule"})
    hand = _page("about.md", "<p>See <a href=\"rules/retrace.html#702.81a\">retrace</a></p>", set())
    hand.links_to_anchors = {rule.file: {"702.81a": "rules/retrace.md#702.81a"}}
    other.links_to_anchors = {other.file: {"rule": "#rule"}}   # a permalink to its own heading
    plugin = _plugin({"rules/retrace.md": ('<div id="702.81a">x</div>',), "rules/other.md": ('<div id="n1">y</div>',)})
    env = SimpleNamespace(globals={})
    plugin.on_env(env, config=None, files=_Files([rule, other, hand]))
    assert rule.content == '<h2 id="rule">Rule</h2>\n<div id="702.81a">x</div>'
    assert other.content == '<div id="n1">y</div>'
    assert hand.content == "<p>See <a href=\"rules/retrace.html#702.81a\">retrace</a></p>"   # no placeholder: unchanged
    assert rule.present_anchor_ids == {"rule", "702.81a"}   # the hand-written link's anchor is found
    assert other.present_anchor_ids == {"rule"}             # its own links are to its headings: not searched
    # each page's links to itself in every language, relative to it, its own language current
    assert sorted(env.globals["rulekb_alternates"]) == ["about.html", "rules/other.html", "rules/retrace.html"]
    assert env.globals["rulekb_alternates"]["rules/retrace.html"] == [
        {"lang": "en", "name": "English", "href": "../../en/rules/retrace.html", "current": False},
        {"lang": "de", "name": "Deutsch", "href": "../../de/rules/retrace.html", "current": True},
        {"lang": "fr", "name": "Français", "href": "../../fr/rules/retrace.html", "current": False}]
    assert env.globals["rulekb_alternates"]["about.html"][0] == {
        "lang": "en", "name": "English", "href": "../en/about.html", "current": False}


def test_a_page_without_its_blocks_is_an_error_naming_it():
    plugin = _plugin({"rules/a.md": ("<p>x</p>",)})
    for page, message in ((_page("rules/b.md", "<p>rulekb-block-0</p>", set()), "no HTML blocks"),
                          (_page("rules/a.md", "<p>rulekb-block-1</p>", set()), "do not match")):
        with pytest.raises(PluginError, match=message) as err:
            plugin.on_env(SimpleNamespace(globals={}), config=None, files=_Files([page]))
        assert page.file.src_uri in str(err.value)


def test_the_html_lang_is_set_only_when_the_theme_fell_back_to_english():
    page = '<!doctype html>\n<html lang="en" class="no-js"><body lang="en"></body></html>'
    plugin = _plugin({}, lang="xx", fix_html_lang=True)
    assert plugin.on_post_page(page, page=None, config=None) == page.replace('<html lang="en"', '<html lang="xx"')
    plugin = _plugin({}, lang="de")
    assert plugin.on_post_page(page, page=None, config=None) is page
    assert plugin.own_seconds == 0.0   # nothing done: the clock is not read


def test_the_hooks_time_is_processor_time():
    plugin = _plugin({})

    class SlowFiles(_Files):
        def documentation_pages(self):
            time.sleep(0.1)   # waiting is not the hook's processor time
            return []

    plugin.on_env(SimpleNamespace(globals={}), config=None, files=SlowFiles([]))
    assert plugin.own_seconds < 0.05
