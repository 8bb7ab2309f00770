"""The phraseology miner (``rulekb phrases mine``), beside the pipeline (load -> validate -> link
-> check -> render -> report): it reads MTGJSON set files and writes ``translations/phraseology.yaml``,
which the check stage reads (`rulekb.phraseology`).

    set files -> read_set (the importer's reader, checked) -> distinct printed texts per language,
    each with its oldest and newest printing -> the families' phrases (`Patterns.find`) -> per
    frame and filler: texts, recent texts, weight, first and last printing, the form printed most
    -> `phraseology_yaml` (sorted; the same files give the same bytes) -> write_checked (read back, then renamed)

A text printed in several sets counts once, dated by its newest printing for the weight and
`recent`; a set without a release date is left out and said so. The languages are the project's
target languages that MTGJSON's ``foreignData`` has (by English name: German, French).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import DataError, Problem
from ..files import write_checked
from ..models import SOURCE_LANGUAGE
from ..phraseology import (HALF_LIFE, PHRASEOLOGY_FILE, RETIRED_YEARS, Corpus, Frame, Phraseology, Variant,
                           fold, patterns, phraseology_from, project_languages, reminders, weight)
from .mtgjson import read_sets, set_files

MIN_TEXTS = 3   # a frame used in fewer distinct official texts is left out of the file (it decides nothing)
REMINDER_MIN_TEXTS = 5   # the same for a keyword's reminder text (long lines: only the keywords printed often)


@dataclass
class _Tally:
    texts: int = 0
    recent: int = 0
    weight: float = 0.0
    first: str = "9999-12-31"
    last: str = "0000-01-01"
    phrases: Counter = field(default_factory=Counter)


@dataclass(frozen=True)
class MineReport:
    path: Path
    written: bool
    phraseology: Phraseology
    sets: int
    skipped: tuple[str, ...]
    seconds: float

    def lines(self) -> list[str]:
        out = [f"{PHRASEOLOGY_FILE}: " + ("written" if self.written else "unchanged")
               + f" ({self.sets} set files, {self.seconds:.1f} s)"]
        for c in self.phraseology.corpus:
            frames = [f for f in self.phraseology.frames if f.lang == c.lang]
            by_family = Counter(f.family for f in frames)
            out.append(f"  {c.lang}: {c.texts} distinct official texts (newest printing {c.newest}); "
                       f"{len(frames)} frames (" + ", ".join(f"{k} {n}" for k, n in sorted(by_family.items()))
                       + f"), {sum(len(f.variants) for f in frames)} variants")
        out += [f"  left out: {s}" for s in self.skipped]
        return out


def _years_before(date: str, years: int) -> str:
    return f"{int(date[:4]) - years:04d}{date[4:]}"


def mine(paths: list[Path], languages: dict[str, str], min_texts: int = MIN_TEXTS,
         min_reminder_texts: int = REMINDER_MIN_TEXTS) -> tuple[Phraseology, int, tuple[str, ...]]:
    """The phraseology of the set files `paths` (files or folders) for `languages` (English
    name -> code, e.g. {"German": "de"}), frames of at least `min_texts` texts (reminder texts:
    `min_reminder_texts`): (the data, how many set files were read, what was left out)."""
    files = set_files(paths)
    # text -> [first printing, last printing, the card's English text]
    dated: dict[str, dict[str, list]] = {code: {} for code in languages.values()}
    skipped: list[str] = []
    problems: list[Problem] = []
    for file, found in read_sets(files, languages, problems):
        if not found.release:
            skipped.append(f"{file.name}: no release date")
            continue
        for card in found.cards:
            for lang, _name, text in card.foreign:
                if not text:
                    continue
                span = dated[lang].get(text)
                if span is None:
                    dated[lang][text] = [found.release, found.release, card.english]
                else:
                    span[0] = min(span[0], found.release)
                    span[1] = max(span[1], found.release)
    if problems:
        raise DataError(problems)
    corpus: list[Corpus] = []
    frames: list[Frame] = []
    for lang in sorted(dated):
        texts = dated[lang]
        compiled = patterns(lang)
        if not texts or compiled is None:
            continue
        newest = max(last for _first, last, _english in texts.values())
        recent_from = _years_before(newest, RETIRED_YEARS)
        corpus.append(Corpus(lang, len(texts), newest, len(files) - len(skipped)))
        tallies: dict[tuple[str, str], dict[str, _Tally]] = {}
        for text in sorted(texts):
            first, last, english = texts[text]
            w = weight(last, newest)
            seen: set[tuple[str, str, str]] = set()
            found_reminders = [occ for _en, occ in reminders(english, text)] if english else []
            for occ in [*compiled.find(text), *found_reminders]:
                tally = tallies.setdefault((occ.family, occ.frame), {}).setdefault(occ.filler, _Tally())
                tally.phrases[occ.phrase(text)] += 1
                if (occ.family, occ.frame, occ.filler) in seen:
                    continue
                seen.add((occ.family, occ.frame, occ.filler))
                tally.texts += 1
                tally.recent += last >= recent_from
                tally.weight += w
                tally.first = min(tally.first, first)
                tally.last = max(tally.last, last)
        for (family, frame), fillers in sorted(tallies.items()):
            if sum(t.texts for t in fillers.values()) < (min_reminder_texts if family == "reminder" else min_texts):
                continue
            variants = tuple(sorted(
                (Variant(filler, min(t.phrases.items(), key=lambda kv: (-kv[1], kv[0]))[0], t.texts, t.recent,
                         round(t.weight, 1), t.first, t.last) for filler, t in fillers.items()),
                key=lambda v: (-v.weight, -v.texts, v.filler)))
            frames.append(Frame(family, lang, frame, variants))
    return Phraseology(tuple(corpus), tuple(frames), HALF_LIFE), len(files), tuple(skipped)


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)   # a JSON string is a YAML double-quoted scalar


_HEADER = f"""\
# How the official German and French printed card texts (MTGJSON foreignData) write the game's
# recurring phrases. Generated: do not edit by hand; regenerate with
#     rulekb phrases mine ../shared/data/mtgjson/sets/
# and review the diff. The phraseology checks of `rulekb check` read it.
#
# A frame is a phrase with one slot: family `zone`, a preposition before a determiner and a zone
# (frame "deinem friedhof", fillers "aus", "in", …; "∅" where no determiner stands: "en exil");
# family `verb`, a verb and the noun it takes (frame "manakosten", fillers "bezahlen", …);
# family `relative`, a relative pronoun and its clause's subject and verb (frame "du kontrollierst");
# family `reminder`, a keyword's reminder text (frame: the English, fillers: the printed ones).
# Per filler: `texts` distinct official texts with it, `recent` those printed in the last
# {RETIRED_YEARS} years before the newest set, `weight` the texts weighted by how recent their newest
# printing is (half of it per `half_life` years), `first`/`last` its oldest and newest printing,
# `phrase` the form printed most often (the filler is left out where it is the phrase itself). Frames with fewer than {MIN_TEXTS} texts ({REMINDER_MIN_TEXTS} for
# reminder texts) are left out.
"""


def phraseology_yaml(data: Phraseology) -> str:
    """The data file's text: the header, the corpus, the frames sorted by language, family and
    frame, each frame's variants by weight (then texts, then filler)."""
    out = [_HEADER, f"half_life: {data.half_life}", "corpus:"]
    for c in sorted(data.corpus, key=lambda c: c.lang):
        out.append(f"  - {{lang: {c.lang}, texts: {c.texts}, newest: {_q(c.newest)}, sets: {c.sets}}}")
    out.append("frames:" if data.frames else "frames: []")
    for f in sorted(data.frames, key=lambda f: (f.lang, f.family, f.frame)):
        out += [f"  - lang: {f.lang}", f"    family: {f.family}", f"    frame: {_q(f.frame)}", "    variants:"]
        for v in f.variants:
            filler = f"filler: {_q(v.filler)}, " if v.filler != fold(v.phrase) else ""
            out.append(f"      - {{{filler}phrase: {_q(v.phrase)}, texts: {v.texts}, recent: {v.recent}, "
                       f"weight: {v.weight}, first: {_q(v.first)}, last: {_q(v.last)}}}")
    return "\n".join(out) + "\n"


def mine_into(root: Path, paths: list[Path]) -> MineReport:
    """Mine the set files `paths` and write the project's ``translations/phraseology.yaml``
    (only when its bytes change), after checking that the file reads back."""
    started = time.perf_counter()
    langs = project_languages(root)
    languages = {lang.english_name: lang.code for lang in langs if lang.code != SOURCE_LANGUAGE}
    data, sets, skipped = mine(paths, languages)
    text = phraseology_yaml(data)
    path = root / PHRASEOLOGY_FILE
    # the file must read back as it was mined before it replaces the old one: its temporary file
    # (a name the next writer removes when this one is killed, issue 31.7) is read, then renamed
    written = write_checked(path, text.encode("utf-8"),
                            lambda staged: phraseology_from(root, staged, tuple(lang.code for lang in langs)))
    return MineReport(path, written, data, sets, skipped, time.perf_counter() - started)
