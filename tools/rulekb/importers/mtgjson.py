"""Importer for an MTGJSON set file (e.g. XLN.json): cards and their rulings into the knowledge
base's YAML. Stages, each a pure function with its input checked at the boundary:

    read_set (JSON -> SetFile, schema-checked) -> cards_of -> rulings_of -> merge (YAML data)

- A card is one printing: set and collector number (the two faces of a double-faced card share
  one), its English name, its names in the knowledge base's other languages from
  ``foreignData`` (matched by the languages' English names, "German" -> de), its Scryfall
  oracle id. An existing card (same set and number) keeps its id and gains missing names.
- A ruling is stored once: the same (date, text) on several cards is one ruling listing all of
  them (the explore rulings of XLN stand on twelve cards). It belongs to a mechanic, the rule
  of the knowledge base whose title is a keyword its cards have (most of them) and its text
  mentions;
  a ruling with no such rule is not imported and is counted in the report (the knowledge base
  keeps rulings per mechanic). An existing ruling with the same English text is the same
  ruling: it gains the cards it lacked, its translations stay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import DataError, Problem
from ..load import SourceFile
from ..models import SOURCE_LANGUAGE, KnowledgeBase
from ..layout import SOURCES_FILE
from ..schema import UUID
from ..validate import build_knowledge_base
from .cr import slug, to_node
from .identity import fold
from .store import Tree, open_target, register_source

CARDS_DIR = "rules/cards"
RULINGS_DIR = "rules/rulings"
SOURCE_KIND = "mtgjson"


@dataclass(frozen=True)
class CardIn:
    set_code: str
    number: str
    name: str
    names: tuple[tuple[str, str], ...]   # (language code, name), other languages
    oracle_id: str
    keywords: frozenset[str]
    rulings: tuple[tuple[str, str], ...]  # (date, English text)


@dataclass(frozen=True)
class SetFile:
    code: str
    name: str
    version: str
    date: str
    cards: tuple[CardIn, ...]
    skipped: tuple[str, ...]              # why some card objects were not read


def _problem(path: str, message: str, hint: str) -> DataError:
    return DataError([Problem(path, 1, 1, message, hint)])


def _number_key(number: str) -> tuple[int, str]:
    digits = re.match(r"\d+", number)
    return (int(digits.group()) if digits else 0, number)


def read_set(data: bytes, path: str, languages: dict[str, str]) -> SetFile:
    """Parse and schema-check an MTGJSON set file. `languages`: English language name -> code
    of the knowledge base's target languages."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _problem(path, f"the file is not UTF-8 ({exc.reason} at byte {exc.start})",
                       "download the set file again from mtgjson.com") from None
    except json.JSONDecodeError as exc:
        raise DataError([Problem(path, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}",
                                 "download the set file again from mtgjson.com")]) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict) or not isinstance(doc["data"].get("cards"), list):
        raise _problem(path, "not an MTGJSON set file: it lacks data.cards",
                       "import a set file such as XLN.json (MTGJSON 5), not AllPrintings or a deck")
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    body = doc["data"]
    code = body.get("code")
    if not isinstance(code, str) or not re.match(r"^[A-Z0-9]{2,6}$", code):
        raise _problem(path, f"data.code {code!r} is not a set code", "a set code is 2 to 6 capitals or digits, e.g. XLN")
    by_printing: dict[tuple[str, str], dict[str, Any]] = {}
    skipped: list[str] = []
    problems: list[Problem] = []
    for i, card in enumerate(body["cards"]):
        where = f"data.cards[{i}]"
        if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not isinstance(card.get("number"), str):
            problems.append(Problem(path, 1, 1, f"{where} has no name or number", "check the file; it may be truncated"))
            continue
        oracle = (card.get("identifiers") or {}).get("scryfallOracleId")
        if not isinstance(oracle, str) or not UUID.match(oracle):
            skipped.append(f"{card['name']} #{card['number']}: no Scryfall oracle id")
            continue
        rulings = []
        for j, ruling in enumerate(card.get("rulings") or []):
            if not (isinstance(ruling, dict) and isinstance(ruling.get("date"), str)
                    and re.match(r"^\d{4}-\d{2}-\d{2}$", ruling["date"]) and isinstance(ruling.get("text"), str)
                    and ruling["text"].strip()):
                problems.append(Problem(path, 1, 1, f"{where}.rulings[{j}] ({card['name']}) lacks a date or text",
                                        "a ruling is {date: YYYY-MM-DD, text: ...}"))
                continue
            rulings.append((ruling["date"], ruling["text"].strip()))
        names = []
        for foreign in card.get("foreignData") or []:
            lang = languages.get(foreign.get("language")) if isinstance(foreign, dict) else None
            if lang and isinstance(foreign.get("name"), str) and foreign["name"].strip():
                names.append((lang, foreign["name"].strip()))
        keywords = frozenset(k for k in card.get("keywords") or [] if isinstance(k, str))
        key = (card.get("setCode") or code, card["number"])
        seen = by_printing.get(key)
        if seen is None:
            by_printing[key] = {"name": card["name"], "names": dict(names), "oracle": oracle,
                                "keywords": set(keywords), "rulings": list(rulings)}
        else:  # the other face of a double-faced card
            seen["keywords"] |= keywords
            seen["rulings"] += [r for r in rulings if r not in seen["rulings"]]
            for lang, name in names:
                seen["names"].setdefault(lang, name)
    if problems:
        raise DataError(problems)
    cards = tuple(CardIn(s, n, v["name"], tuple(sorted(v["names"].items())), v["oracle"], frozenset(v["keywords"]),
                         tuple(v["rulings"]))
                  for (s, n), v in sorted(by_printing.items(), key=lambda kv: (kv[0][0], _number_key(kv[0][1]))))
    return SetFile(code, str(body.get("name") or code), str(meta.get("version") or ""), str(meta.get("date") or ""),
                   cards, tuple(skipped))


def _mentions(keyword: str, text: str) -> int | None:
    """Where the text mentions a keyword (any form: explore, explores, exploring), or None."""
    stem = fold(keyword)
    stem = stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem
    match = re.search(r"\b" + re.escape(stem), fold(text))
    return match.start() if match else None


def mechanics(kb: KnowledgeBase) -> dict[str, str]:
    """English rule title (folded) -> rule id, keyword rules (701, 702) first."""
    out: dict[str, str] = {}
    for rule in sorted(kb.rules, key=lambda r: (not r.number.startswith(("701.", "702.")), r.number)):
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        if title is not None and "." in rule.number:
            out.setdefault(fold(title.text), rule.id)
    return out


@dataclass(frozen=True)
class MtgjsonReport:
    set_code: str
    source: str
    root: Path
    dataset_created: bool
    cards_new: int
    cards_updated: int
    cards_same: int
    rulings_new: int
    rulings_matched: int
    rulings_skipped: int
    by_mechanic: tuple[tuple[str, int], ...]
    skipped_cards: tuple[str, ...]
    warnings: tuple[str, ...]
    added: tuple[str, ...]
    changed: tuple[str, ...]

    def lines(self) -> list[str]:
        out = [f"imported the MTGJSON set {self.set_code} (source {self.source}) into {self.root}"
               + (" (new dataset: a copy of the project's data)" if self.dataset_created else ""),
               f"  cards: {self.cards_new} new, {self.cards_updated} updated, {self.cards_same} unchanged",
               f"  rulings: {self.rulings_new} new, {self.rulings_matched} already in the knowledge base"]
        if self.by_mechanic:
            out.append("  rulings per mechanic: " + ", ".join(f"{m} {n}" for m, n in self.by_mechanic))
        if self.rulings_skipped:
            out.append(f"  not imported: {self.rulings_skipped} rulings that belong to no rule of this knowledge base "
                       "(no keyword of their cards that is a rule title and that they mention); "
                       "import the Comprehensive Rules first to place keyword rulings")
        for card in self.skipped_cards:
            out.append(f"  card not imported: {card}")
        for warning in self.warnings:
            out.append(f"  warning: {warning}")
        if not (self.added or self.changed):
            out.append("  files: nothing changed (this set was imported already)")
        else:
            out.append(f"  files: {len(self.added)} added, {len(self.changed)} changed")
        return out


def import_set(root: Path, file: Path, into: Path | None = None) -> MtgjsonReport:
    return _import_set(root, file, into)


def _import_set(root: Path, file: Path, into: Path | None) -> MtgjsonReport:
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise _problem(str(file), f"cannot read the set file: {exc.strerror}", "give the path of an MTGJSON set file") from None
    opened = open_target(root, into)
    target, created, files, kb = opened.root, opened.created, opened.files, opened.kb
    languages = {lang.english_name: lang.code for lang in kb.languages if lang.code != SOURCE_LANGUAGE}
    set_file = read_set(raw, str(file), languages)
    tree = Tree.from_files(target, opened.rule_files)
    sid = f"mtgjson-{set_file.code.lower()}"
    sources_text = register_source(tree, target, sid, {
        "title": f"MTGJSON {set_file.version} set file for {set_file.name} ({file.name}, build {set_file.date})".replace("  ", " "),
        "kind": SOURCE_KIND, "file": file.name, **({"date": set_file.date} if re.match(r"^\d{4}-\d{2}-\d{2}$", set_file.date) else {})})
    warnings: list[str] = []

    # cards
    by_printing = {(c.set_code, c.collector_number): c for c in kb.cards}
    ids = {c.id for c in kb.cards}
    card_id: dict[tuple[str, str], str] = {}
    new = updated = same = 0
    for card in set_file.cards:
        key = (card.set_code, card.number)
        known = by_printing.get(key)
        if known is not None:
            path = known.pos.file
            data = tree.files[path]
            names = data.setdefault("name", {})
            before = dict(names)
            for lang, name in card.names:
                if lang not in names:
                    names[lang] = name
                elif names[lang] != name:
                    warnings.append(f"{known.id}: the {lang} name is '{names[lang]}' here and '{name}' in {file.name}; kept")
            if known.oracle_id != card.oracle_id:
                warnings.append(f"{known.id}: oracle id {known.oracle_id} here, {card.oracle_id} in {file.name}; kept")
            card_id[key] = known.id
            if names != before:
                updated += 1
            else:
                same += 1
            continue
        base = slug(card.name)
        cid = base if base not in ids else f"{base}-{slug(card.number)}"
        n = 2
        while cid in ids:
            cid, n = f"{base}-{slug(card.number)}-{n}", n + 1
        ids.add(cid)
        card_id[key] = cid
        data = {"id": cid, "name": {SOURCE_LANGUAGE: card.name, **{lang: name for lang, name in card.names}},
                "set": card.set_code, "collector_number": card.number, "oracle_id": card.oracle_id, "source": sid}
        tree.put(f"{CARDS_DIR}/{cid}.yaml", data)
        new += 1

    # rulings: each (date, text) once, with every card that has it
    shared: dict[tuple[str, str], list[CardIn]] = {}
    for card in set_file.cards:
        for ruling in card.rulings:
            shared.setdefault(ruling, []).append(card)
    titles = mechanics(kb)
    files_by_mechanic: dict[str, str] = {}
    for path, data in tree.files.items():
        if path.startswith(RULINGS_DIR + "/") and isinstance(data, dict) and isinstance(data.get("mechanic"), str):
            files_by_mechanic.setdefault(data["mechanic"], path)
    existing = {}
    for ruling in kb.rulings:
        english = ruling.unit.text(SOURCE_LANGUAGE)
        if english is not None:
            existing[fold(english.text)] = ruling
    ruling_ids = {r.id for r in kb.rulings}
    counts: dict[str, int] = {}
    matched = new_rulings = skipped = 0
    for (date, text), cards in shared.items():
        # the mechanic: a keyword of its cards that names a rule and that the text mentions; the
        # one most of its cards have (MTGJSON misses some: Deadeye Tracker explores, keywordless)
        having: dict[str, int] = {}
        for c in cards:
            for k in c.keywords:
                having[k] = having.get(k, 0) + 1
        found = sorted((-n, pos, fold(k)) for k, n in having.items()
                       if fold(k) in titles and (pos := _mentions(k, text)) is not None)
        cids = [card_id[(c.set_code, c.number)] for c in cards]
        known_ruling = existing.get(fold(text))
        if known_ruling is not None:
            mechanic = known_ruling.mechanic
            data = next(item for item in tree.files[known_ruling.unit.pos.file]["rulings"] if item.get("id") == known_ruling.id)
            missing = [c for c in cids if c not in data.setdefault("cards", [])]
            data["cards"] = data["cards"] + missing
            if known_ruling.date != date:
                warnings.append(f"ruling {known_ruling.id}: dated {known_ruling.date} here and {date} in {file.name}; kept")
            matched += 1
        elif found:
            mechanic = titles[found[0][2]]
            path = files_by_mechanic.get(mechanic) or f"{RULINGS_DIR}/{mechanic}.yaml"
            files_by_mechanic[mechanic] = path
            doc = tree.files.setdefault(path, {"mechanic": mechanic, "rulings": []})
            base = f"{mechanic}-{slug(' '.join(text.split()[:6]), 40)}"
            rid, n = base, 2
            while rid in ruling_ids:
                rid, n = f"{base}-{n}", n + 1
            ruling_ids.add(rid)
            doc.setdefault("rulings", []).append({"id": rid, "date": date, "cards": cids,
                                                  "text": {SOURCE_LANGUAGE: [{"text": text, "source": sid, "status": "official"}]}})
            tree.put(path, doc)
            new_rulings += 1
        else:
            skipped += 1
            continue
        counts[mechanic] = counts.get(mechanic, 0) + 1

    added, changed, deleted = tree.changes()
    touched = set(added) | set(changed)
    check = [f for f in files if f.path not in touched and f.path != SOURCES_FILE]
    check += [SourceFile(path, to_node(tree.files[path])) for path in sorted(touched | {SOURCES_FILE})]
    try:
        build_knowledge_base(tuple(check), target)
    except DataError as exc:
        raise DataError([Problem(p.file, p.line, p.column, f"the import would write invalid data: {p.message}",
                                 "nothing was written; please report this with the set file") for p in exc.problems]) from None
    tree.save(skip={SOURCES_FILE}, texts={SOURCES_FILE: sources_text} if sources_text is not None else {})  # all or none
    if sources_text is not None:
        changed = sorted(set(changed) | {SOURCES_FILE})
    return MtgjsonReport(set_file.code, sid, target, created, new, updated, same, new_rulings, matched, skipped,
                         tuple(sorted(counts.items())), set_file.skipped, tuple(warnings), tuple(added), tuple(changed))
