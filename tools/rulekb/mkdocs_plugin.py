"""The thin mkdocs integration of the pipeline (load -> validate -> link -> check -> render ->
report): a mkdocs plugin, registered as ``rulekb`` (pyproject: mkdocs.plugins entry point) and
enabled in the per-language configs that `rulekb build` generates.

Hooks, each small:
- ``on_config``: checks the plugin's options (the site language must be one of `languages`);
- ``on_pre_build``: under `rulekb serve` (``regenerate: true``), renders the pages again from
  the YAML before each rebuild, so that an edited rule shows on reload; a data problem is
  reported with file and line and the previous pages stay;
- ``on_page_content``: puts the HTML blocks of a generated page (``blocks_file``, written by
  `rulekb build`) in place of their placeholder paragraphs, and records their ids as the page's
  anchors (for mkdocs' anchor validation);
- ``on_page_context``: the page's links to the same page in the other languages (relative, so
  they work from ``file://``), for the language menu and the ``hreflang`` alternates of the
  templates (``templates/partials/alternate.html``, ``templates/main.html``);
- ``on_files``: leaves out what a reader never loads: source maps and the search stemmers and
  word splitters of other languages (about 2 MB per language);
- ``on_post_template``: writes no ``404.html``: mkdocs gives it root-absolute links (``/assets/…``),
  which are broken in a site that is opened from disk or served below a language folder;
- ``on_post_page``: sets ``<html lang>`` when material has no UI strings for the language and
  its templates fell back to English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin


class RulekbConfig(Config):
    lang = c.Type(str, default="")
    languages = c.Type(list, default=[])     # [[code, name], ...] in the knowledge base's order
    root = c.Type(str, default="")           # the project folder, relative to the config file
    regenerate = c.Type(bool, default=False)
    blocks_file = c.Type(str, default="")    # {docs path: [HTML block, ...]}, relative to the config file


def alternates(dest_uri: str, lang: str, languages: list[list[str]]) -> list[dict[str, str | bool]]:
    """The same page in every language: ``../de/rules/retrace.html`` from ``rules/retrace.html``."""
    up = "../" * (dest_uri.count("/") + 1)
    return [{"lang": code, "name": name, "href": f"{up}{code}/{dest_uri}", "current": code == lang}
            for code, name in languages]


_LUNR = re.compile(r"^assets/javascripts/lunr/(?:min/lunr\.([a-z]+)\.min\.js|(tinyseg|wordcut)\.js)$")
_SEGMENTERS = {"tinyseg": "ja", "wordcut": "th"}


def unneeded_asset(src_uri: str, search_langs: set[str]) -> bool:
    """A theme file no page of this language loads: a source map, another language's stemmer."""
    if src_uri.startswith("assets/") and src_uri.endswith(".map"):
        return True
    m = _LUNR.match(src_uri)
    if m is None:
        return False
    if m.group(2):
        return _SEGMENTERS[m.group(2)] not in search_langs
    return m.group(1) not in search_langs | {"stemmer", "multi"}


_PLACEHOLDER = re.compile(r"<p>rulekb-block-(\d+)</p>")
_ID = re.compile(r'\bid="([^"]+)"')

_HTML_LANG = re.compile(r'<html lang="[^"]*"')


class RulekbPlugin(BasePlugin[RulekbConfig]):
    def on_config(self, config):
        codes = [entry[0] for entry in self.config.languages if isinstance(entry, list) and entry]
        if self.config.lang and self.config.lang not in codes:
            raise PluginError(f"rulekb: the site language '{self.config.lang}' is not one of the languages {codes} "
                              f"(in {config.config_file_path}); regenerate the config with `rulekb build`")
        return config

    def on_files(self, files, config):
        search = config.plugins.get("material/search")
        langs = set(search.config.lang or ["en"]) if search is not None else {"en"}
        for file in list(files):
            if unneeded_asset(file.src_uri, langs):
                files.remove(file)
        return files

    _blocks: dict[str, list[str]] | None = None

    def on_pre_build(self, config):
        self._blocks = None   # read again: `rulekb serve` rewrites the file before each rebuild
        if not self.config.regenerate:
            return
        from .build import prepare, write_language
        from .diagnostics import DataError
        config_dir = Path(config.config_file_path).parent
        root = (config_dir / self.config.root).resolve()
        try:
            prepared = prepare(root, [self.config.lang])
        except DataError as exc:
            raise PluginError("rulekb: the knowledge base did not load; the pages were not updated:\n"
                              + "\n".join(str(p) for p in exc.problems)) from None
        write_language(root, config_dir.parent, prepared, self.config.lang, regenerate=True)

    def on_page_content(self, html, page, config, files):
        if not self.config.blocks_file or "rulekb-block-" not in html:
            return html
        path = Path(config.config_file_path).parent / self.config.blocks_file
        if self._blocks is None:
            try:
                self._blocks = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise PluginError(f"rulekb: {page.file.src_uri} has placeholders but the blocks file {path} "
                                  f"does not load ({exc}); run `rulekb build` again") from None
        blocks = self._blocks.get(page.file.src_uri)
        if blocks is None:
            raise PluginError(f"rulekb: {page.file.src_uri} has placeholders but no blocks in {path}; "
                              "run `rulekb build` again")
        try:
            html = _PLACEHOLDER.sub(lambda m: blocks[int(m.group(1))], html)
        except IndexError:
            raise PluginError(f"rulekb: {page.file.src_uri} and its blocks file {path} do not match; "
                              "run `rulekb build` again") from None
        if page.present_anchor_ids is not None:
            for block in blocks:
                page.present_anchor_ids.update(_ID.findall(block))
        return html

    def on_page_context(self, context, page, config, nav):
        context["rulekb_alternates"] = alternates(page.file.dest_uri, self.config.lang, self.config.languages)
        return context

    def on_post_template(self, output_content, template_name, config):
        return "" if template_name == "404.html" else output_content  # empty output: mkdocs writes no file

    def on_post_page(self, output, page, config):
        lang = self.config.lang
        if lang and config.theme["language"] != lang:
            return _HTML_LANG.sub(f'<html lang="{lang}"', output, count=1)
        return output
