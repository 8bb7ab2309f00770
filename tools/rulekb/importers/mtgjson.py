"""Importer for MTGJSON set files (e.g. XLN.json.gz, or a folder of all of them): cards and
their rulings into the knowledge base's YAML, beside the pipeline (load -> validate -> link ->
check -> render -> report): it writes YAML, the pipeline reads it. Stages, each a pure function
with its input checked at the boundary:

    read_bytes (.json, .json.gz, .json.xz, .json.bz2) -> read_set (JSON -> SetFile, checked)
    -> gather (all sets: cards by oracle id, rulings by date and text) -> merge (YAML data)

- A card is one Scryfall oracle id: its English name, its names in the knowledge base's other
  languages (``foreignData``, matched by the languages' English names, "German" -> de; from its
  newest printing that has them), its keywords, and its printings (set, collector number; the
  two faces of a double-faced card are one printing), each with its official printed names and
  texts in the other languages (older printings carry the wording of their time). An existing
  card (same oracle id) keeps its id and names and gains printings and missing names.
- A ruling is stored once: the same (date, English text) on several cards is one ruling listing
  all of them (the explore rulings of XLN stand on twelve cards). It belongs to its cards always,
  and to the rules whose title is a keyword of its cards that its text mentions (Deadeye Tracker
  explores but has no keyword in MTGJSON: the other cards decide). An existing ruling with the
  same English text is the same ruling: it gains the cards it lacked, its translations stay.
- Layout: new cards go to ``rules/cards/<initial>.yaml`` (``cards:``, sorted by id), new rulings
  to ``rules/rulings/<initial of their first card>.yaml`` (``rulings:``, sorted by id): 27 files
  each, so that a translator's change is a small diff and the loader reads a few large files.
  A card's printings are one line, its printed texts one entry per language and distinct text
  (`write_printings`): the loader's cost is per YAML node.
- Each set is a source of rules/sources.yaml, its file named as it lies in the reference
  material beside the project (``data/mtgjson/sets/XLN.json.gz``), as the rules releases are.
  A ruling's id is its first words and 8 hex digits of its date and text: the same in any import
  order. Existing files stay where they are.
- Deterministic: the sets are read in the order of their release (then code), so a card's and a
  ruling's source is the oldest set with them; files are written only where the data changed.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import re
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..diagnostics import DataError, Problem
from ..layout import CARDS_DIR, RULINGS_DIR, SOURCES_FILE
from ..load import SourceFile
from ..models import SOURCE_LANGUAGE, KnowledgeBase, normalise
from ..schema import UUID
from ..validate import build_knowledge_base
from ..ids import slug
from .cr import shared_path
from .identity import fold
from .notelinks import NoteLink, link_notes
from .store import Tree, open_target, register_source

SOURCE_KIND = "mtgjson"
SUFFIXES = (".json", ".json.gz", ".json.xz", ".json.bz2")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_REFETCH = "download the set file again (MTGJSON publishes each set as SET.json, .json.gz, .json.xz, .json.bz2)"


@dataclass(frozen=True)
class CardIn:
    """One printing of a card as a set file gives it (both faces of a double-faced card joined)."""

    set_code: str
    number: str
    name: str
    foreign: tuple[tuple[str, str, str | None], ...]   # (language code, printed name, printed text)
    oracle_id: str
    keywords: frozenset[str]
    rulings: tuple[tuple[str, str], ...]               # (date, English text)
    english: str | None = None                         # the English (Oracle) text, faces joined as the printed ones


@dataclass(frozen=True)
class SetFile:
    code: str
    name: str
    version: str
    date: str          # the MTGJSON build date
    release: str       # the set's release date ("" when the file has none)
    file: str          # the file's name
    cards: tuple[CardIn, ...]
    skipped: tuple[str, ...]              # what of the file was not read, and why

    @property
    def source(self) -> str:
        return f"mtgjson-{self.code.lower()}"


def _problem(path: str, message: str, hint: str) -> DataError:
    return DataError([Problem(path, 1, 1, message, hint)])


def _number_key(number: str) -> tuple[int, str]:
    digits = re.match(r"\d+", number)
    return (int(digits.group()) if digits else 0, number)


def set_files(paths: list[Path]) -> list[Path]:
    """The set files named: files as given, a folder's set files (sorted); DataError for a path
    that is missing, of another kind, or a folder without set files."""
    out: list[Path] = []
    problems = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(SUFFIXES))
            if not found:
                problems.append(Problem(str(path), 1, 1, "the folder holds no MTGJSON set file",
                                        "name set files or a folder of them (" + ", ".join(SUFFIXES) + ")"))
            out += found
        elif not path.exists():
            problems.append(Problem(str(path), 1, 1, "no such file or folder", "give the path of an MTGJSON set file"))
        elif not path.name.endswith(SUFFIXES):
            problems.append(Problem(str(path), 1, 1, "not an MTGJSON set file name (" + ", ".join(SUFFIXES) + ")",
                                    "import a set file such as XLN.json or XLN.json.gz, or a folder of them"))
        else:
            out.append(path)
    if problems:
        raise DataError(problems)
    return out


def read_bytes(path: Path) -> bytes:
    """The JSON bytes of a set file, decompressed by its suffix; DataError when it cannot be read
    or its compressed data is damaged or cut short."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _problem(str(path), f"cannot read the set file: {exc.strerror}", "check the path and its permissions") from None
    name = path.name
    kind, opener = next(((k, o) for s, k, o in ((".gz", "gzip", gzip.decompress), (".xz", "xz", lzma.decompress),
                                                 (".bz2", "bzip2", bz2.decompress)) if name.endswith(s)), (None, None))
    if opener is None:
        return raw
    try:
        return opener(raw)
    except (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as exc:
        raise _problem(str(path), f"the {kind} data is damaged or cut short ({exc})", _REFETCH) from None


def read_set(data: bytes, path: str, languages: dict[str, str]) -> SetFile:
    """Parse and check an MTGJSON set file. `languages`: English language name -> code of the
    knowledge base's target languages."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _problem(path, f"the file is not UTF-8 ({exc.reason} at byte {exc.start})", _REFETCH) from None
    except json.JSONDecodeError as exc:
        raise DataError([Problem(path, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}", _REFETCH)]) from None
    except RecursionError:
        raise _problem(path, "the JSON is nested too deeply to be a set file", _REFETCH) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict) or not isinstance(doc["data"].get("cards"), list):
        raise _problem(path, "not an MTGJSON set file: it lacks data.cards",
                       "import a set file such as XLN.json (MTGJSON 5), not AllPrintings or a deck")
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    body = doc["data"]
    code = body.get("code")
    if not isinstance(code, str) or not re.match(r"^[A-Z0-9]{2,6}$", code):
        raise _problem(path, f"data.code {code!r} is not a set code", "a set code is 2 to 6 capitals or digits, e.g. XLN")
    release = body.get("releaseDate") if isinstance(body.get("releaseDate"), str) and _DATE.match(body["releaseDate"]) else ""
    faces: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
    skipped: list[str] = []
    problems: list[Problem] = []
    for i, card in enumerate(body["cards"]):
        where = f"data.cards[{i}]"
        if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not isinstance(card.get("number"), str):
            problems.append(Problem(path, 1, 1, f"{where} has no name or number", "check the file; it may be truncated"))
            continue
        identifiers = card.get("identifiers") if isinstance(card.get("identifiers"), dict) else {}
        oracle = identifiers.get("scryfallOracleId")
        if not isinstance(oracle, str) or not UUID.match(oracle):
            skipped.append(f"{card['name']} #{card['number']} ({code}): no Scryfall oracle id")
            continue
        for j, ruling in enumerate(card.get("rulings") or []):
            if not (isinstance(ruling, dict) and isinstance(ruling.get("date"), str) and _DATE.match(ruling["date"])
                    and isinstance(ruling.get("text"), str)):
                problems.append(Problem(path, 1, 1, f"{where}.rulings[{j}] ({card['name']}) lacks a date or text",
                                        "a ruling is {date: YYYY-MM-DD, text: ...}"))
            elif not ruling["text"].strip():   # as in STX's Wandering Archaic: nothing to import, said so
                skipped.append(f"{code} {where}.rulings[{j}] ({card['name']}, {ruling['date']}): an empty ruling text")
        problems += _foreign_problems(card, where, path, languages)
        if "," in card["number"] or card["number"] != card["number"].strip() or not card["number"]:
            skipped.append(f"{card['name']} #{card['number']!r} ({code}): a collector number with a comma, or blank "
                           "at an end, cannot be named in a card's printings (SET NUMBER, …)")
            continue
        set_code = card.get("setCode") if isinstance(card.get("setCode"), str) and re.match(r"^[A-Z0-9]{2,6}$", card["setCode"]) else code
        side = card.get("side") if isinstance(card.get("side"), str) else ""
        faces.setdefault((set_code, card["number"]), []).append((side, card))
    if problems:
        raise DataError(problems)
    cards = []
    for (set_code, number), found in sorted(faces.items(), key=lambda kv: (kv[0][0], _number_key(kv[0][1]))):
        found.sort(key=lambda f: f[0])
        first = found[0][1]
        keywords: set[str] = set()
        rulings: list[tuple[str, str]] = []
        foreign: dict[str, tuple[str, list[str]]] = {}
        english: list[str] = []
        for _side, card in found:
            keywords |= {k for k in card.get("keywords") or [] if isinstance(k, str)}
            if isinstance(card.get("text"), str) and card["text"].strip() and card["text"].strip() not in english:
                english.append(card["text"].strip())
            for ruling in card.get("rulings") or []:
                item = (ruling["date"], ruling["text"].strip())
                if item[1] and item not in rulings:
                    rulings.append(item)
            for data in card.get("foreignData") or []:
                lang = languages.get(data.get("language")) if isinstance(data, dict) else None
                if not lang or not isinstance(data.get("name"), str) or not data["name"].strip():
                    continue
                name, texts = foreign.setdefault(lang, (data["name"].strip(), []))
                text = data.get("text")
                if isinstance(text, str) and text.strip() and text.strip() not in texts:
                    texts.append(text.strip())
        cards.append(CardIn(set_code, number, first["name"],
                            tuple((lang, name, "\n//\n".join(texts) or None) for lang, (name, texts) in sorted(foreign.items())),
                            first["identifiers"]["scryfallOracleId"], frozenset(keywords), tuple(rulings),
                            "\n//\n".join(english) or None))
    return SetFile(code, str(body.get("name") or code), str(meta.get("version") or ""), str(meta.get("date") or ""),
                   release, Path(path).name, tuple(cards), tuple(skipped))


def _foreign_problems(card: dict[str, Any], where: str, path: str, languages: dict[str, str]) -> list[Problem]:
    """The foreignData entries of the knowledge base's languages whose name or text is not text
    (a number, a list): a file to fetch again, not a name to drop without a word."""
    out = []
    entries = card.get("foreignData")
    for j, data in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(data, dict) or languages.get(data.get("language")) is None:   # type: ignore[arg-type]
            continue
        for key in ("name", "text"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                shown = json.dumps(value, ensure_ascii=False)[:40]
                out.append(Problem(path, 1, 1, f"{where}.foreignData[{j}].{key} ({card['name']}, {data['language']}) "
                                   f"is {shown}, not text", "a printed name and text are JSON strings; " + _REFETCH))
    return out


def _mentions(keyword: str, text: str) -> int | None:
    """Where the folded text mentions a keyword (any form: explore, explores, exploring), or None."""
    stem = fold(keyword)
    stem = stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem
    match = re.search(r"\b" + re.escape(stem), text)
    return match.start() if match else None


def mechanics(kb: KnowledgeBase) -> dict[str, str]:
    """English rule title (folded) -> rule id, keyword rules (701, 702) first."""
    out: dict[str, str] = {}
    for rule in sorted(kb.rules, key=lambda r: (not r.number.startswith(("701.", "702.")), r.number)):
        title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
        if title is not None and "." in rule.number:
            out.setdefault(fold(title.text), rule.id)
    return out


def initial(name: str) -> str:
    """The file a card or ruling goes to: the first letter of the (card) name, folded to a-z;
    "0" for names that start otherwise."""
    first = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()[:1]
    return first if "a" <= first <= "z" else "0"


def ruling_id(date: str, text: str) -> str:
    """A new ruling's id: its first words and 8 hex digits of its date and normalised text."""
    digest = hashlib.sha256(f"{date}\n{normalise(text)}".encode("utf-8")).hexdigest()[:8]
    return f"{slug(' '.join(text.split()[:6]), 40)}-{digest}"


@dataclass
class _Card:
    """A card gathered from all sets read: its printings oldest first."""

    oracle_id: str
    name: str
    printings: list[tuple[CardIn, SetFile]]
    keywords: set[str]


@dataclass(frozen=True)
class MtgjsonReport:
    sets: tuple[str, ...]
    root: Path
    dataset_created: bool
    cards_new: int
    cards_updated: int
    cards_same: int
    rulings_new: int
    rulings_matched: int
    rulings_cards_only: int
    by_mechanic: tuple[tuple[str, int], ...]
    skipped_cards: tuple[str, ...]
    warnings: tuple[str, ...]
    added: tuple[str, ...]
    changed: tuple[str, ...]
    notes_linked: tuple[NoteLink, ...] = ()   # rule notes found to be official rulings by this import

    def lines(self) -> list[str]:
        named = ", ".join(self.sets) if len(self.sets) <= 5 else f"{', '.join(self.sets[:5])} … ({len(self.sets)} sets)"
        out = [f"imported the MTGJSON set{'s' if len(self.sets) > 1 else ''} {named} into {self.root}"
               + (" (new dataset: a copy of the project's data)" if self.dataset_created else ""),
               f"  cards: {self.cards_new} new, {self.cards_updated} updated, {self.cards_same} unchanged",
               f"  rulings: {self.rulings_new} new, {self.rulings_matched} already in the knowledge base; "
               f"{self.rulings_cards_only} belong to their cards only (no keyword of theirs that is a rule title "
               "and that they mention)"]
        if self.by_mechanic:
            shown = ", ".join(f"{m} {n}" for m, n in self.by_mechanic[:40])
            more = f" and {len(self.by_mechanic) - 40} more" if len(self.by_mechanic) > 40 else ""
            out.append(f"  rulings per rule: {shown}{more}")
        if self.skipped_cards:
            out.append(f"  not imported ({len(self.skipped_cards)}):")
            out += [f"    {card}" for card in self.skipped_cards[:20]]
            if len(self.skipped_cards) > 20:
                out.append(f"    … and {len(self.skipped_cards) - 20} more")
        for link in self.notes_linked:
            out.append(f"  note {link.unit} is the official ruling {link.ruling} (words {link.ratio:.0%} alike)"
                       + ("; its English is now the ruling's, its translations are stale" if link.reworded else ""))
        for warning in self.warnings:
            out.append(f"  warning: {warning}")
        if not (self.added or self.changed):
            out.append("  files: nothing changed (these sets were imported already)")
        else:
            out.append(f"  files: {len(self.added)} added, {len(self.changed)} changed")
        return out


def read_sets(files: list[Path], languages: dict[str, str], problems: list[Problem]) -> Iterator[tuple[Path, SetFile]]:
    """Each readable set file of `files` with what it holds, one at a time (the importer and
    the phraseology miner read 579 of them); the problems of the others go to `problems`."""
    for file in files:
        try:
            yield file, read_set(read_bytes(file), str(file), languages)
        except DataError as exc:
            problems += exc.problems


def import_sets(root: Path, paths: list[Path], into: Path | None = None) -> MtgjsonReport:
    """Import the set files `paths` (files or folders of them) into the project `root` (or the
    dataset `into`): all or nothing, after checking that the result loads."""
    files = set_files(paths)
    opened = open_target(root, into)
    target, created, parsed, kb = opened.root, opened.created, opened.files, opened.kb
    languages = {lang.english_name: lang.code for lang in kb.languages if lang.code != SOURCE_LANGUAGE}
    sets: dict[str, SetFile] = {}
    where: dict[str, str] = {}      # set code -> its file as rules/sources.yaml names it
    problems: list[Problem] = []
    for file, found in read_sets(files, languages, problems):
        if found.code in sets:
            problems.append(Problem(str(file), 1, 1, f"the set {found.code} is also in {sets[found.code].file}",
                                    "import each set once"))
        sets[found.code] = found
        where[found.code] = shared_path(root, file)
    if problems:
        raise DataError(problems)
    ordered = sorted(sets.values(), key=lambda s: (s.release or "9999", s.code))
    tree = Tree.from_files(target, opened.rule_files)
    sources_text: str | None = None
    for set_file in ordered:
        title = f"MTGJSON {set_file.version} set file for {set_file.name} ({set_file.file}, build {set_file.date})"
        entry = {"title": " ".join(title.split()), "kind": SOURCE_KIND, "file": where[set_file.code],
                 **({"date": set_file.date} if _DATE.match(set_file.date) else {})}
        sources_text = register_source(tree, target, set_file.source, entry, sources_text) or sources_text
    merge = _Merge(kb, tree, ordered)
    merge.cards()
    merge.rulings()
    links = link_notes(tree.files)
    added, changed, _deleted = tree.changes()
    touched = set(added) | set(changed)
    if touched or sources_text is not None:   # else nothing to write: the tree loaded as it is (a re-import)
        check = [f for f in parsed if f.path not in touched and f.path != SOURCES_FILE]
        check += [SourceFile(path, tree.node(path)) for path in sorted(touched | {SOURCES_FILE})]
        try:
            build_knowledge_base(tuple(check), target)
        except DataError as exc:
            raise DataError([Problem(p.file, p.line, p.column, f"the import would write invalid data: {p.message}",
                                     "nothing was written; please report this with the set files") for p in exc.problems]) from None
        tree.save(skip={SOURCES_FILE}, texts={SOURCES_FILE: sources_text} if sources_text is not None else {})  # all or none
    if sources_text is not None:
        changed = sorted(set(changed) | {SOURCES_FILE})
    return MtgjsonReport(tuple(s.code for s in ordered), target, created, merge.new, merge.updated, merge.same,
                         merge.rulings_new, merge.rulings_matched, merge.cards_only, tuple(sorted(merge.per_rule.items())),
                         tuple(s for set_file in ordered for s in set_file.skipped), tuple(merge.warnings),
                         tuple(added), tuple(changed), links)


# ------------------------------------------------------------------ the printings of a card's YAML
#
# A card lists its printings in one text, ``printings: XLN 114, PXLN 114s`` (oldest first), and
# per other language the printings printed alike as one entry: ``printed: {de: {XLN 114, PXLN
# 114s: "Agent der Königin\nLebensverknüpfung\n…"}}`` (the printed name on the first line, the
# printed text after it). One YAML node per printing and per distinct printed text instead of a
# mapping of four to nine nodes per printing: the loader's cost is per node (figures in
# benchmarks/HISTORY.md, "Data model: layout of the imported cards and rulings").

MAX_KEY = 127   # longer keys PyYAML writes as "? key" (an explicit key): the printings of a text split in parts


def printed(card: CardIn) -> dict[str, str]:
    """A printing's printed name and text per other language, as `printed` stores them."""
    return {lang: " ".join(name.split()) + (f"\n{text}" if text else "") for lang, name, text in card.foreign}


def _ref(ref: tuple[str, str]) -> str:
    return f"{ref[0]} {ref[1]}"


def printings_of(data: dict[str, Any]) -> dict[tuple[str, str], dict[str, str]]:
    """The printings of a card's YAML data with their printed texts by language: its own printing
    (`set` and `collector_number`) first, then those of `printings`, in order."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    if data.get("set") and data.get("collector_number"):
        out[(data["set"], data["collector_number"])] = {}
    for item in str(data.get("printings") or "").split(", "):
        set_code, _, number = item.partition(" ")
        if number:
            out.setdefault((set_code, number), {})
    for lang, entries in (data.get("printed") or {}).items():
        for key, value in entries.items():
            for item in key.split(", "):
                set_code, _, number = item.partition(" ")
                out.setdefault((set_code, number), {})[lang] = value
    return out


def write_printings(data: dict[str, Any], printings: dict[tuple[str, str], dict[str, str]]) -> None:
    """Set a card's `printings` and `printed` (in place where they are, else at the end) from its
    printings (in order) with their printed texts. A card's own printing (`set` and
    `collector_number`, as a hand-written card gives it) comes first and is not listed again."""
    own = (data.get("set"), data.get("collector_number"))
    refs = ([own] if own in printings else []) + [ref for ref in printings if ref != own]
    listed = [ref for ref in refs if ref != own]
    if listed:
        data["printings"] = ", ".join(_ref(ref) for ref in listed)
    else:
        data.pop("printings", None)
    out: dict[str, dict[str, str]] = {}
    languages = sorted({lang for value in printings.values() for lang in value})
    for lang in languages:
        groups: dict[str, list[str]] = {}
        for ref in refs:
            if lang in printings[ref]:
                groups.setdefault(printings[ref][lang], []).append(_ref(ref))
        entries: list[tuple[str, str]] = []
        for value, members in groups.items():
            key = ""
            for member in members:
                if key and len(key) + 2 + len(member) > MAX_KEY:
                    entries.append((key, value))
                    key = ""
                key = f"{key}, {member}" if key else member
            entries.append((key, value))
        out[lang] = dict(entries)
    if out:
        data["printed"] = out
    else:
        data.pop("printed", None)


class _Merge:
    """The sets read, merged into the tree's card and ruling files."""

    def __init__(self, kb: KnowledgeBase, tree: Tree, ordered: list[SetFile]):
        self.kb, self.tree, self.ordered = kb, tree, ordered
        self.warnings: list[str] = []
        self.new = self.updated = self.same = 0
        self.rulings_new = self.rulings_matched = self.cards_only = 0
        self.per_rule: dict[str, int] = {}
        self.card_id: dict[str, str] = {}          # oracle id -> card id
        self.card_name: dict[str, str] = {}        # card id -> English name
        self.gathered: dict[str, _Card] = {}
        for set_file in ordered:
            for card in set_file.cards:
                found = self.gathered.get(card.oracle_id)
                if found is None:
                    found = self.gathered[card.oracle_id] = _Card(card.oracle_id, card.name, [], set())
                found.printings.append((card, set_file))
                found.keywords |= card.keywords
                found.name = card.name   # the newest printing's English name

    # ------------------------------------------------------------------ cards
    def _item(self, path: str, cid: str) -> dict[str, Any]:
        data = self.tree.files[path]
        if isinstance(data, dict) and "cards" in data and "id" not in data:
            return next(item for item in data["cards"] if item.get("id") == cid)
        return data

    def cards(self) -> None:
        existing: dict[str, Any] = {}
        for card in self.kb.cards:
            if card.oracle_id in existing and card.oracle_id in self.gathered:
                self.warnings.append(f"cards {existing[card.oracle_id].id} and {card.id} have the same oracle id; "
                                     f"the import adds to {existing[card.oracle_id].id}")
            existing.setdefault(card.oracle_id, card)
        ids = {c.id for c in self.kb.cards}
        new_files: dict[str, list[dict[str, Any]]] = {}
        for oracle, gathered in sorted(self.gathered.items(), key=lambda kv: (kv[1].name, kv[0])):
            printings = {(card.set_code, card.number): printed(card) for card, _ in gathered.printings}
            keywords = sorted(gathered.keywords)
            names = self._names(gathered)
            known = existing.get(oracle)
            if known is not None:
                data = self._item(known.pos.file, known.id)
                before = json.dumps(data, sort_keys=True)
                have = data.setdefault("name", {})
                for lang, name in names.items():
                    have.setdefault(lang, name)
                old = printings_of(data)
                old.update(printings)            # a printing read again is as the set file gives it now
                write_printings(data, old)
                if keywords or "keywords" in data:
                    data["keywords"] = sorted(set(data.get("keywords") or []) | set(keywords))
                self.card_id[oracle] = known.id
                self.card_name[known.id] = known.names[SOURCE_LANGUAGE]
                if json.dumps(data, sort_keys=True) != before:
                    self.updated += 1
                    self.tree.put(known.pos.file, self.tree.files[known.pos.file])
                else:
                    self.same += 1
                continue
            base = slug(gathered.name) if slug(gathered.name) != "rule" else "card"
            cid = base if base not in ids else f"{base}-{oracle[:8]}"
            ids.add(cid)
            self.card_id[oracle] = cid
            self.card_name[cid] = gathered.name
            data = {"id": cid, "name": {SOURCE_LANGUAGE: gathered.name, **names}, "oracle_id": oracle,
                    "source": gathered.printings[0][1].source}
            if keywords:
                data["keywords"] = keywords
            write_printings(data, printings)
            new_files.setdefault(f"{CARDS_DIR}/{initial(gathered.name)}.yaml", []).append(data)
            self.new += 1
        for path, items in sorted(new_files.items()):
            doc = self.tree.files.get(path)
            if not (isinstance(doc, dict) and isinstance(doc.get("cards"), list)):
                doc = {"cards": []}
            doc["cards"] = sorted(doc["cards"] + items, key=lambda item: str(item.get("id")))
            self.tree.put(path, doc)

    @staticmethod
    def _names(gathered: _Card) -> dict[str, str]:
        """A card's names in the other languages: those of its newest printing that has them."""
        names: dict[str, str] = {}
        for card, _ in reversed(gathered.printings):
            for lang, name, _text in card.foreign:
                names.setdefault(lang, name)
        return dict(sorted(names.items()))

    # ------------------------------------------------------------------ rulings
    def rulings(self) -> None:
        # (date, folded text) -> the first text, its set and the cards that have it (typography
        # aside: "can't" and "can’t" are one ruling)
        shared: dict[tuple[str, str], tuple[str, SetFile, dict[str, None]]] = {}
        for set_file in self.ordered:
            for card in set_file.cards:
                for date, text in card.rulings:
                    _text, _first, holders = shared.setdefault((date, fold(text)), (text, set_file, {}))
                    holders.setdefault(card.oracle_id, None)
        titles = mechanics(self.kb)
        # an existing ruling is the one with the same date and English text; else (a ruling
        # entered by hand with another date) the one with the same text that no other takes
        exact: dict[tuple[str, str], Any] = {}
        loose: dict[str, Any] = {}
        for ruling in self.kb.rulings:
            english = ruling.unit.text(SOURCE_LANGUAGE)
            if english is not None:
                exact.setdefault((ruling.date, fold(english.text)), ruling)
                loose.setdefault(fold(english.text), ruling)
        taken = {exact[key].id for key in shared if key in exact}
        ruling_ids = {r.id for r in self.kb.rulings}
        new_files: dict[str, list[dict[str, Any]]] = {}
        for (date, folded), (text, first_set, holders) in shared.items():
            cids = sorted({self.card_id[oracle] for oracle in holders})
            rules = self._rules(titles, [self.gathered[o] for o in holders], folded)
            known = exact.get((date, folded))
            if known is None and (candidate := loose.get(folded)) is not None and candidate.id not in taken:
                known = candidate
                taken.add(candidate.id)
            if known is not None:
                path = known.unit.pos.file
                doc = self.tree.files[path]
                item = next(item for item in doc["rulings"] if item.get("id") == known.id)
                item["cards"] = (item.get("cards") or []) + [c for c in cids if c not in (item.get("cards") or [])]
                missing = [r for r in rules if r not in known.rules]
                if missing:
                    item["rules"] = (item.get("rules") or []) + missing
                if known.date != date:
                    self.warnings.append(f"ruling {known.id}: dated {known.date} here and {date} in MTGJSON; kept")
                self.tree.put(path, doc)
                self.rulings_matched += 1
                rules = list(known.rules) + missing
            else:
                rid = base = ruling_id(date, text)
                n = 2
                while rid in ruling_ids:
                    rid, n = f"{base}-{n}", n + 1
                ruling_ids.add(rid)
                item = {"id": rid, "date": date, "cards": cids}
                if rules:
                    item["rules"] = rules
                item["text"] = {SOURCE_LANGUAGE: [{"text": text, "source": first_set.source, "status": "official"}]}
                new_files.setdefault(f"{RULINGS_DIR}/{initial(self.card_name[cids[0]])}.yaml", []).append(item)
                self.rulings_new += 1
            if not rules:
                self.cards_only += 1
            for rule in rules:
                self.per_rule[rule] = self.per_rule.get(rule, 0) + 1
        for path, items in sorted(new_files.items()):
            doc = self.tree.files.get(path)
            if not (isinstance(doc, dict) and isinstance(doc.get("rulings"), list) and "mechanic" not in doc):
                doc = {"rulings": []}
            doc["rulings"] = sorted(doc["rulings"] + items, key=lambda item: str(item.get("id")))
            self.tree.put(path, doc)

    @staticmethod
    def _rules(titles: dict[str, str], cards: list[_Card], folded: str) -> list[str]:
        """The rules a ruling's text is about: keywords of its cards that are rule titles and that
        it mentions, the one most of its cards have first (then the one it mentions first)."""
        having: dict[str, int] = {}
        for card in cards:
            for keyword in card.keywords:
                having[fold(keyword)] = having.get(fold(keyword), 0) + 1
        found = sorted((-n, pos, titles[k]) for k, n in having.items()
                       if k in titles and (pos := _mentions(k, folded)) is not None)
        out: list[str] = []
        for _n, _pos, rule in found:
            if rule not in out:
                out.append(rule)
        return out
