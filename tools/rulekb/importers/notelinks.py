"""Rule notes that are official card rulings (beside the pipeline, part of `import mtgjson`: it
writes YAML, the pipeline reads it). The seeds' notes are card rulings in an older wording
(retrace note 1 "Playing a card by using its retrace ability …" is the Eventide ruling of
2008-08-01 "Casting a card by using its retrace ability …"). After the rulings are merged, each
note of a rule without a `ruling:` link is compared, word by word, with the rulings that belong
to its rule; the most similar one, when similar enough, is the ruling the note is:

- the note says so (``ruling: ID``, first key of the note);
- the ruling's English becomes the note's canonical English (its source the ruling's set, status
  official), unless the note's English is that text already; the note's own English stays as
  the older wording, with its source;
- its translations keep the `translated_from` they have: made from the older English, they are
  stale now, and the QA and the site show what changed (play -> cast).

Words are compared as sequences (difflib's ratio over the folded words), so a reworded ruling
(play -> cast, he or she -> they) still matches and a ruling that only shares its keyword does
not (no buyback ruling is near the buyback notes). Linking is deterministic (rulings tried by
date and id) and idempotent: a linked note is not matched again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

import cydifflib

from ..layout import RULES_DIR, RULINGS_DIR
from ..models import SOURCE_LANGUAGE
from ..schema import RULING_LINK
from .identity import fold

# the least word similarity (difflib ratio over folded words) of a note and the ruling it is
THRESHOLD = 0.6
_WORD = re.compile(r"[\w']+")


@dataclass(frozen=True)
class NoteLink:
    """A note found to be an official ruling."""

    unit: str       # the note's unit id (retrace.n1)
    ruling: str     # the ruling's id
    ratio: float    # their word similarity
    reworded: bool  # the ruling's English is not the note's (typography aside): translations turn stale


def similarity(a: str, b: str) -> float:
    """difflib's ratio of the two texts' folded word sequences (1.0: the same words)."""
    return cydifflib.SequenceMatcher(None, _WORD.findall(fold(a)), _WORD.findall(fold(b)), autojunk=False).ratio()


def _english(unit: dict[str, Any]) -> list[dict[str, Any]]:
    variants = unit.get(SOURCE_LANGUAGE)
    return [v for v in variants if isinstance(v, dict) and isinstance(v.get("text"), str)] if isinstance(variants, list) else []


def _canonical(variants: list[dict[str, Any]]) -> dict[str, Any] | None:
    if len(variants) == 1:
        return variants[0]
    return next((v for v in variants if v.get("canonical") is True), variants[0] if variants else None)


def _rules(files: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every rule's data in the tree's rule files (a rule per file, or a section's `rules:`)."""
    for path in sorted(files):
        data = files[path]
        if not (path.startswith(RULES_DIR + "/") and isinstance(data, dict)):
            continue
        if isinstance(data.get("rules"), list):
            yield from (item for item in data["rules"] if isinstance(item, dict) and "id" in item)
        elif "id" in data and "number" in data:
            yield data


@dataclass(frozen=True)
class _Ruling:
    id: str
    date: str
    rules: tuple[str, ...]
    text: str
    source: str


def _rulings(files: dict[str, Any]) -> list[_Ruling]:
    out = []
    for path in sorted(files):
        data = files[path]
        if not (path.startswith(RULINGS_DIR + "/") and isinstance(data, dict) and isinstance(data.get("rulings"), list)):
            continue
        mechanic = data.get("mechanic")
        for item in data["rulings"]:
            if not isinstance(item, dict) or not isinstance(item.get("text"), dict):
                continue
            english = _canonical(_english(item["text"]))
            if english is None:
                continue
            rules = tuple(item.get("rules") or ()) + ((mechanic,) if isinstance(mechanic, str) else ())
            out.append(_Ruling(str(item.get("id")), str(item.get("date")), rules, english["text"],
                               str(english.get("source"))))
    return sorted(out, key=lambda r: (r.date, r.id))


def link_notes(files: dict[str, Any]) -> tuple[NoteLink, ...]:
    """Link the notes of the rules in `files` (the import's tree: path -> plain data, changed in
    place) to the rulings they are. Returns the links made now."""
    rulings = _rulings(files)
    by_id = {r.id: r for r in rulings}
    by_rule: dict[str, list[_Ruling]] = {}
    for ruling in rulings:
        for rule in ruling.rules:
            by_rule.setdefault(rule, []).append(ruling)
    taken = {note[RULING_LINK] for rule in _rules(files) for note in (rule.get("notes") or {}).values()
             if isinstance(note, dict) and isinstance(note.get(RULING_LINK), str)}
    made: list[NoteLink] = []
    for rule in _rules(files):
        notes = rule.get("notes")
        if not isinstance(notes, dict):
            continue
        for key in list(notes):
            note = notes[key]
            if not isinstance(note, dict):
                continue
            english = _canonical(_english(note))
            linked = note.get(RULING_LINK)
            if isinstance(linked, str):
                ruling = by_id.get(linked)
                if ruling is not None:
                    _take_english(note, ruling)
                continue
            if english is None:
                continue
            best: tuple[float, _Ruling] | None = None
            for ruling in by_rule.get(str(rule["id"]), ()):
                if ruling.id in taken:
                    continue
                ratio = similarity(english["text"], ruling.text)
                if ratio >= THRESHOLD and (best is None or ratio > best[0]):
                    best = (ratio, ruling)
            if best is None:
                continue
            ratio, ruling = best
            taken.add(ruling.id)
            notes[key] = {RULING_LINK: ruling.id, **{k: v for k, v in note.items() if k != RULING_LINK}}
            reworded = _take_english(notes[key], ruling)
            made.append(NoteLink(f"{rule['id']}.{key}", ruling.id, round(ratio, 3), reworded))
    return tuple(made)


def _take_english(note: dict[str, Any], ruling: _Ruling) -> bool:
    """Make the ruling's English the note's canonical English, the note's own English staying as
    an older wording; True when the words differ (typography aside)."""
    variants = _english(note)
    same = next((v for v in variants if fold(v["text"]) == fold(ruling.text)), None)
    if same is not None:
        if len(variants) > 1 and same.get("canonical") is not True:
            for v in variants:
                v["canonical"] = v is same
        return False
    for v in variants:
        v["canonical"] = False
        # (the note's `ruling:` names the ruling; its id, a slug, is no reader's word: issue 32.4)
        v.setdefault("note", f"an older wording of the official ruling of {ruling.date}")
    official = {"text": ruling.text, "source": ruling.source, "status": "official", "canonical": True}
    note[SOURCE_LANGUAGE] = [official] + variants
    return True
