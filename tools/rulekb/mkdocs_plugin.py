"""The thin mkdocs integration of the pipeline (load -> validate -> link -> check -> render ->
report): a mkdocs plugin, registered as ``rulekb`` (pyproject: mkdocs.plugins entry point) and
enabled in the per-language configs that `rulekb build` generates.

The build hands the plugin its language's pages in memory (`RulekbPlugin.provide`: generated
Markdown skeletons, their HTML blocks, the content/ assets), so no page is written to disk
before mkdocs reads it. Its hooks:
- ``on_config``: checks the plugin's options (the site language must be one of `languages`) and
  gives the toc extension's permalink (¶) its tooltip in the site language (``permalink_title``,
  from the UI catalog: material translates its own strings, not those of Markdown extensions);
- ``on_pre_build``: under `rulekb serve` (``regenerate: true``), renders the pages again from
  the YAML before each rebuild, so that an edited rule shows on reload, with the site-root files
  its pages reach (`build.served_files`: the search index and the rule numbers ``n/``, served from
  the language's root); a data problem is reported with file and line and the previous pages stay;
- ``on_files``: adds the provided pages, assets and served files (``File.generated``), and leaves out what a
  reader never loads: source maps, and material's search worker with its stemmers and word
  splitters (about 2 MB per language): the site's search is rulekb's own (an index prebuilt by
  the render stage, ``templates/partials/search.html``);
- ``on_env`` (every page rendered, links not yet checked, no page written yet), once for all the
  pages: puts the HTML blocks of each generated page in place of its placeholder paragraphs
  (`render.markup.fill_blocks`; so a plugin's ``on_page_content`` sees the placeholders);
  records the ids of the HTML blocks as anchors of a page that a Markdown link points into with
  an anchor its headings do not have (for mkdocs' anchor validation; the other pages' ids are
  never needed); and gives the theme's templates their globals: the UI strings of the site
  language (``_``, ``ngettext``, ``rulekb_ui``: a theme override writes ``{{ _("Search") | e }}``
  as the page templates do), ``rulekb_site_root`` (where the site's root is from the language's
  root: ".." in a build, "." under `rulekb serve`) and ``rulekb_alternates``, {page's dest_uri:
  its links to the same page in every language}, relative so that they work from ``file://``,
  for the language menu and its ``hreflang`` links (``templates/partials/alternate.html``);
- ``on_post_template``: writes no ``404.html``: mkdocs gives it root-absolute links (``/assets/…``),
  which are broken in a site that is opened from disk or served below a language folder;
- ``on_post_page``: sets ``<html lang>`` when material has no UI strings for the language and
  its templates fell back to English.

The processor time of the hooks that do the pipeline's work is added up in
`RulekbPlugin.own_seconds`, which the build counts as the pipeline's time, not mkdocs'
(`time.process_time`: wall-clock time would count other processes' turns). The pages' work is
done once, in ``on_env``, rather than per page, where reading the clock around every hook would
cost more than most of them did; ``on_post_page`` reads it only when it changes a page.
"""

from __future__ import annotations

import functools
import gettext
import re
import time
from pathlib import Path
from typing import Callable, Mapping, Sequence, TypeVar

from babel import Locale
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, file_sort_key

from .i18n import UI
from .render.markup import BLOCK_MARK, fill_blocks


class RulekbConfig(Config):
    lang = c.Type(str, default="")
    languages = c.Type(list, default=[])     # [[code, name], ...] in the knowledge base's order
    root = c.Type(str, default="")           # the project folder, relative to the config file
    regenerate = c.Type(bool, default=False)
    permalink_title = c.Type(str, default="")  # the tooltip of a heading's permalink, in the site language


def alternates(dest_uri: str, lang: str, languages: list[list[str]]) -> list[dict[str, str | bool]]:
    """The same page in every language: ``../de/rules/retrace.html`` from ``rules/retrace.html``."""
    up = "../" * (dest_uri.count("/") + 1)
    return [{"lang": code, "name": name, "href": f"{up}{code}/{dest_uri}", "current": code == lang}
            for code, name in languages]


# material's own search: its worker, and lunr with its stemmers and word splitters
_MATERIAL_SEARCH = re.compile(r"^assets/javascripts/(?:lunr/|workers/search\.)")


def unneeded_asset(src_uri: str) -> bool:
    """A theme file no page loads: a source map, material's search (the site searches with
    rulekb's own), a template of rulekb's own (``*.j2``: the pages and reports of the render and
    report stages, which share the folder of the theme overrides)."""
    if src_uri.endswith(".j2") or (src_uri.startswith("assets/") and src_uri.endswith(".map")):
        return True
    return _MATERIAL_SEARCH.match(src_uri) is not None


# an id attribute (after white space: not data-id=…); `\b` here would make the search several times slower
_ID = re.compile(r'\sid="([^"]+)"')

_HTML_LANG = re.compile(r'<html lang="[^"]*"')

T = TypeVar("T")


def _own_time(hook: Callable[..., T]) -> Callable[..., T]:
    """Adds the processor time of a hook to the plugin's `own_seconds` (`time.process_time`:
    the processor time of this process, which is one language's mkdocs run; the build adds up
    the languages' figures)."""
    @functools.wraps(hook)
    def timed(self: "RulekbPlugin", *args, **kwargs) -> T:
        start = time.process_time()
        try:
            return hook(self, *args, **kwargs)
        finally:
            self.own_seconds += time.process_time() - start
    return timed


class RulekbPlugin(BasePlugin[RulekbConfig]):
    def __init__(self) -> None:
        super().__init__()
        self._pages: Mapping[str, str] = {}
        self._blocks: Mapping[str, Sequence[str]] = {}
        self._assets: Mapping[str, str] = {}
        self._served: Mapping[str, str] = {}
        self._ui: UI | None = None
        self.own_seconds = 0.0   # processor time in the hooks below
        self._lang = ""
        self._languages: list[list[str]] = []
        self._fix_html_lang = False

    def provide(self, pages: Mapping[str, str], blocks: Mapping[str, Sequence[str]], assets: Mapping[str, str],
                ui: UI | None = None, served: Mapping[str, str] | None = None) -> None:
        """The language's pages for the next build: {docs path: Markdown}, {docs path: the HTML
        blocks of its placeholders}, {docs path: absolute path of an asset file}, the UI
        strings of its language (None: the English msgids), and (`rulekb serve`) {path: text}
        of the site-root files served from the language's root."""
        self._pages, self._blocks, self._assets, self._ui = pages, blocks, assets, ui
        self._served = served or {}

    def on_config(self, config):
        codes = [entry[0] for entry in self.config.languages if isinstance(entry, list) and entry]
        if self.config.lang and self.config.lang not in codes:
            raise PluginError(f"rulekb: the site language '{self.config.lang}' is not one of the languages {codes} "
                              f"(in {config.config_file_path}); regenerate the config with `rulekb build`")
        self._lang, self._languages = self.config.lang, self.config.languages   # read on every page
        # material has no UI strings for the language: its templates say <html lang="en">
        self._fix_html_lang = bool(self._lang) and config.theme["language"] != self._lang
        if self.config.permalink_title and "toc" in config.mdx_configs:
            config.mdx_configs["toc"] = {**config.mdx_configs["toc"], "permalink_title": self.config.permalink_title}
        return config

    @_own_time
    def on_pre_build(self, config):
        if not self.config.regenerate:
            return
        from .build import language_inputs, prepare, served_files
        from .diagnostics import DataError
        root = (Path(config.config_file_path).parent / self.config.root).resolve()
        try:
            prepared = prepare(root, [self.config.lang])
        except DataError as exc:
            raise PluginError("rulekb: the knowledge base did not load; the pages were not updated:\n"
                              + "\n".join(str(p) for p in exc.problems)) from None
        inputs = language_inputs(prepared, self.config.lang)
        self.provide(inputs.pages, inputs.blocks, inputs.assets, prepared.uis[self.config.lang],
                     served_files(prepared, self.config.lang))

    @_own_time
    def on_files(self, files, config):
        for file in list(files):
            if (unneeded_asset(file.src_uri) or file.src_uri in self._pages or file.src_uri in self._assets
                    or file.src_uri in self._served):
                files.remove(file)
        # in the order of a docs folder (mkdocs' own `file_sort_key`: the search index's order)
        added = {path: {"content": text} for path, text in self._pages.items()}
        added.update((path, {"content": text}) for path, text in self._served.items())
        added.update((path, {"abs_src_path": source}) for path, source in self._assets.items())
        for file in sorted((File.generated(config, path, **spec) for path, spec in added.items()), key=file_sort_key):
            files.append(file)
        return files

    @_own_time
    def on_env(self, env, config, files):
        """Every page is rendered now, and mkdocs has yet to write them and to check the links to
        anchors. For all the pages at once: the HTML blocks in place of their placeholders, the
        ids of the blocks of a page that a link points into with an anchor that is not one of its
        headings' (the hand-written pages link into generated ones: ``rules/retrace.md#702.81a``;
        every page links to its own headings with their permalinks), and the links to each page
        in the other languages. The theme's templates, rendered next, get the UI strings of the
        site language."""
        ui = self._ui if self._ui is not None else UI(self._lang or "en", Locale("en"), gettext.NullTranslations())
        pages = [file.page for file in files.documentation_pages() if file.page is not None]
        for page in pages:
            if page.content is not None and BLOCK_MARK in page.content:
                page.content = self._with_blocks(page.content, page.file.src_uri)
        targets: dict = {}
        for page in pages:
            for target, anchors in (page.links_to_anchors or {}).items():
                present = target.page.present_anchor_ids if target.page is not None else None
                if present is not None and not present.issuperset(anchors):
                    targets[target.src_uri] = target.page
        for src_uri, target_page in targets.items():   # each page once, however many links point into it
            blocks = self._blocks.get(src_uri)
            if blocks:
                target_page.present_anchor_ids.update(_ID.findall("\n".join(blocks)))
        lang, languages = self._lang, self._languages
        env.globals.update({"_": ui._, "ngettext": ui.ngettext, "rulekb_ui": ui,
                            "rulekb_site_root": "." if self.config.regenerate else "..",
                            "rulekb_alternates": {page.file.dest_uri: alternates(page.file.dest_uri, lang, languages)
                                                  for page in pages}})
        return env

    def _with_blocks(self, html: str, src_uri: str) -> str:
        blocks = self._blocks.get(src_uri)
        if blocks is None:
            raise PluginError(f"rulekb: {src_uri} has placeholders but no HTML blocks were provided "
                              "for it; build the site with `rulekb build`")
        try:
            return fill_blocks(html, blocks)
        except IndexError:
            raise PluginError(f"rulekb: {src_uri} and its HTML blocks do not match; "
                              "build the site with `rulekb build`") from None

    def on_post_template(self, output_content, template_name, config):
        return "" if template_name == "404.html" else output_content  # empty output: mkdocs writes no file

    def on_post_page(self, output, page, config):
        if not self._fix_html_lang:   # (material has the language: nothing to do, nothing to time)
            return output
        return self._html_lang(output)

    @_own_time
    def _html_lang(self, output: str) -> str:
        return _HTML_LANG.sub(f'<html lang="{self._lang}"', output, count=1)
