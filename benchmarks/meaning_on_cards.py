"""How often the `meaning` comparisons flag official translations: every (English, German) and
(English, French) card-text pair of the MTGJSON sets released since --since (default 2019-01-01)
in ../shared/data/mtgjson/sets/ goes through the pure comparisons of rulekb.check.meaning, and the
share of pairs each one flags is printed per language (with --examples N, the first N flagged
sentences of each). Every pair is an official translation, so a flag is either a real difference
of the printed card (a reminder text left out, an older wording, an erratum) or a misreading of
the check: a comparison that flags many pairs is not reliable.

    python benchmarks/meaning_on_cards.py [--sets DIR] [--since DATE] [--examples N]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

LANGUAGES = {"German": "de", "French": "fr"}


def pairs(sets: Path, since: str) -> dict[str, set[tuple[str, str]]]:
    """The distinct (English, translation) card texts per language, untranslated ones left out."""
    out: dict[str, set[tuple[str, str]]] = {lang: set() for lang in LANGUAGES.values()}
    for path in sorted(sets.glob("*.json.gz")):
        with gzip.open(path) as f:
            data = json.load(f)["data"]
        if (data.get("releaseDate") or "") < since:
            continue
        for card in data.get("cards", []):
            english = card.get("text")
            for foreign in card.get("foreignData", []) if english else ():
                lang = LANGUAGES.get(foreign.get("language"))
                if lang and foreign.get("text") and foreign["text"] != english:
                    out[lang].add((english, foreign["text"]))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", type=Path, default=ROOT.parent / "shared" / "data" / "mtgjson" / "sets")
    p.add_argument("--since", default="2019-01-01")
    p.add_argument("--examples", type=int, default=0)
    args = p.parse_args(argv)

    from rulekb.check import meaning as m

    def flags(english: str, text: str, lang: str):
        for kind, change in m.negation_changes(english, text, lang):
            yield f"negation {kind}", change
        for kind, q, change in m.qualifier_changes(english, text, lang):
            yield f"qualifier {q.name} {kind}", change
        found = m.opposite_change(english, text, lang)
        if found:
            yield f"opposite {found[0].name}", found[2]
        found_c = m.colour_change(english, text, lang)
        if found_c:
            yield "colour", found_c
        found_m = m.modality_change(english, text, lang)
        if found_m:
            yield f"modality {found_m[0]}", found_m[1]
        for name, change in (("number", m.number_change(english, text, lang)),
                             ("bound", m.bound_change(english, text, lang))):
            if change:
                yield name, change

    for lang, found in pairs(args.sets, args.since).items():
        counts: collections.Counter[str] = collections.Counter()
        examples: dict[str, list[str]] = collections.defaultdict(list)
        for english, text in sorted(found):
            for name in dict.fromkeys(n for n, _c in _each(flags(english, text, lang), examples, english, text, args)):
                counts[name] += 1
        print(f"{lang}: {len(found)} pairs")
        for name, n in sorted(counts.items()):
            print(f"  {name:32} {n:5}  {100 * n / max(len(found), 1):.2f} %")
            for line in examples[name][:args.examples]:
                print("      " + line)
    return 0


def _each(found, examples, english, text, args):
    for name, change in found:
        if args.examples:
            (a, b), (x, y) = change.sentence, change.where
            examples[name].append(f"{english[a:b][:150]!r} || {text[x:y][:150]!r}".replace("\n", " / "))
        yield name, change


if __name__ == "__main__":
    raise SystemExit(main())
