"""How entries get their ids: a slug of a title or a name (a domain helper, not a stage: the
importers make ids with it, and `cardlookup` finds a keyword's rule by it without importing an
importer).

A rule's id is its English title as a slug (`dredge`, `explore`, `section-casting-spells`), a
card's its English name (`golgari-grabtroll`); ids never change once given, so this function's
output for a given text must not change either (it decides bytes the importers write: it is one
of the importer's version modules, `importers.cr.IMPORTER_MODULES`).
"""

from __future__ import annotations

import re
import unicodedata


def slug(text: str, limit: int = 48) -> str:
    """Lower-case ASCII words joined by '-', cut before the word that would pass `limit`
    characters ("Doesn't stop" -> "doesnt-stop"); "rule" when nothing is left."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"['’]", "", text)  # "doesn't" -> "doesnt"
    words = re.sub(r"[^a-z0-9]+", " ", text).split()
    out = ""
    for word in words:
        if out and len(out) + 1 + len(word) > limit:
            break
        out = f"{out}-{word}" if out else word[:limit]
    return out or "rule"
