"""The site's front door, ``site/index.html`` (render stage): a language picker that follows the
browser's preferred languages (``navigator.languages``) and works from ``file://``. It is a
single self-contained page: inline style and script, relative links, nothing remote.
Opening ``index.html#choose`` shows the picker without moving on.
"""

from __future__ import annotations

import json
from typing import Mapping

from markupsafe import Markup

from ..i18n import UI
from ..models import KnowledgeBase
from . import paths

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;margin:0;background:#f5f5f7;color:#222}
main{max-width:40rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{margin:0 0 .25rem;font-size:1.8rem;color:#3f51b5}
p{line-height:1.5}
ul{list-style:none;padding:0}
li{margin:.5rem 0}
a.lang{display:block;padding:.8rem 1rem;border:1px solid #c5cae9;border-radius:.4rem;text-decoration:none;color:#1a237e}
a.lang:hover,a.lang:focus,a.lang.preferred{background:#e8eaf6;border-color:#3f51b5}
a.lang strong{font-size:1.15rem;display:block}
a.lang span{color:#555;font-size:.9rem}
.foot{font-size:.85rem;color:#555}
""".strip()

_SCRIPT = """
(function () {
  var have = %s;
  var prefs = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ""];
  var best = null;
  for (var i = 0; i < prefs.length && best === null; i++) {
    var code = String(prefs[i]).toLowerCase().split("-")[0];
    if (have.indexOf(code) >= 0) { best = code; }
  }
  if (best === null) { return; }
  if (location.hash !== "#choose") { location.replace(best + "/index.html"); return; }
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.querySelector('a.lang[hreflang="' + best + '"]');
    if (link) { link.className += " preferred"; link.focus(); }
  });
})();
""".strip()


def root_index(kb: KnowledgeBase, uis: Mapping[str, UI]) -> str:
    codes = list(kb.language_codes)
    alternates = Markup("\n").join(
        Markup('<link rel="alternate" hreflang="{}" href="{}/index.html">').format(code, code) for code in codes)
    items = []
    for language in kb.languages:
        ui = uis[language.code]
        items.append(Markup('<li><a class="lang" href="{}/index.html" hreflang="{}" lang="{}"><strong>{}</strong>'
                            '<span>{}</span></a></li>').format(
            language.code, language.code, language.code, language.name,
            ui._("The Magic: The Gathering rules and rulings in {language}").format(language=ui.language_name(language.code))))
    english = uis.get("en")
    choose = english._("Choose a language") if english else "Choose a language"
    archive = english._("Download the whole site as one archive") if english else "Download the whole site as one archive"
    script = _SCRIPT % json.dumps(codes)
    return (
        "<!doctype html>\n"
        + str(Markup('<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                     '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
                     "<title>rulekb</title>\n{}\n<style>{}</style>\n<script>{}</script>\n</head>\n"
                     '<body>\n<main>\n<h1>rulekb</h1>\n<p>{}</p>\n<ul>\n{}\n</ul>\n'
                     '<p class="foot"><a href="{}" download>{}</a></p>\n</main>\n</body>\n</html>\n').format(
            alternates, Markup(_STYLE), Markup(script), choose, Markup("\n").join(items), paths.ARCHIVE, archive))
    )
