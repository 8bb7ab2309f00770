"""A card, its rulings and the rules of its keywords, read from the project's files without
loading the whole knowledge base (load -> validate of only what one card needs; used by
`rulekb card`). With all MTGJSON sets imported the data is ~45 MB of YAML, which takes seconds
to load; finding one card must take well under a second.

How: a data file holds entries (cards, rulings, rules) either one per file or as a list under
one key (`- id: …` items, as the importers write them). Each file is cut into its entries by
their `- id:` lines; an entry is read — parsed by `load` and schema-checked by `validate`,
the same code as a full load, at its own line numbers — only when it can hold what is looked
for: a card name, a card id in a ruling, a rule id. A card file is searched as text: its lines
folded (case, accents and punctuation spacing aside), the entries holding the name's lines read.
(A cached name index of each card file did not pay: `rulekb card` took the same processor time
with and without it on all 579 sets, benchmarks/HISTORY.md, 2026-12-05.) Cross-file checks are `rulekb validate`'s; this reads what it finds.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .diagnostics import DataError, Problem
from .ids import slug
from .layout import CARDS_DIR, LANGUAGES_FILE, RELEASES_DIR, RULES_DIR, RULINGS_DIR, SOURCES_FILE, YAML_SUFFIXES, release_dates
from .load import SourceFile, parse_bytes, parse_text
from .models import SOURCE_LANGUAGE, Card, Rule, Ruling
from .schema import Context, read_project
from .validate import rules_from
from .validate_cards import cards_from, rulings_from

_LIGATURES = (("æ", "ae"), ("œ", "oe"), ("ø", "o"), ("ð", "d"), ("þ", "th"), ("ł", "l"), ("đ", "d"))
_ENTRY = re.compile(r"^( *)- id: ", re.M)


def fold_lines(text: str) -> str:
    """Case folded, accents and ligatures off; every line stays a line ("Königin" -> "konigin")."""
    text = text.casefold()
    if not text.isascii():
        for old, new in _LIGATURES:
            if old in text:
                text = text.replace(old, new)
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return text


def fold(text: str) -> str:
    """A name as the search compares it: `fold_lines`, white space collapsed ("Agent de la
    Reine" = "agent  de la reine")."""
    return " ".join(fold_lines(text).split())


@dataclass(frozen=True)
class Entry:
    """One entry of a data file: the file's head (what comes before its list, e.g. `mechanic:`)
    and the entry's text, with the line it starts on."""

    path: str
    head: str
    text: str
    line: int

    def last_line(self) -> int:
        """The line the entry ends on (its text ends with a line break, or at the end of the file)."""
        return self.line + self.text.count("\n") - (1 if self.text.endswith("\n") else 0)

    def source(self) -> str:
        """The YAML text that reads as the file with only this entry, at its own lines."""
        head_lines = self.head.count("\n")
        return self.head + "\n" * (self.line - 1 - head_lines) + self.text


def entries(path: str, text: str) -> Iterator[Entry]:
    """The entries of a data file: its `- id:` items (those at the indentation of the first),
    or the whole file when it has none."""
    first = _ENTRY.search(text)
    if first is None:
        yield Entry(path, "", text, 1)
        return
    starts = [m.start() for m in re.finditer(rf"^{first.group(1)}- id: ", text, re.M)]
    head = text[:starts[0]]
    line = head.count("\n") + 1
    for start, end in zip(starts, starts[1:] + [len(text)]):
        chunk = text[start:end]
        yield Entry(path, head, chunk, line)
        line += chunk.count("\n")


# a block scalar (`LRW 248: |-`): its first line, then the lines indented at least as deep (or blank)
_BLOCK = re.compile(r"(: [|>][-+0-9]*\n( +)[^\n]*\n)((?:\2[^\n]*\n|[ ]*\n)*)")


def name_lines(text: str) -> str:
    """The lines of a card file that can hold a name, the others blank (the lines stay lines): a
    block scalar keeps its first line only. A card's names are one-line scalars and a printing's
    printed name is the first line of its printed block; the rest of a block is printed rules
    text, about half of a card file, which the name search need not fold."""
    return _BLOCK.sub(lambda m: m.group(1) + "\n" * m.group(3).count("\n"), text)


def _holding(path: str, text: str, query: str) -> list[Entry]:
    """The entries of a file whose name lines hold the folded `query` (one pass over the folded
    file: folding keeps the lines)."""
    folded = fold_lines(name_lines(text))
    hits: set[int] = set()
    line, counted, at = 1, 0, folded.find(query)
    while at >= 0:
        line += folded.count("\n", counted, at)
        counted = at
        hits.add(line)
        at = folded.find(query, at + 1)
    if not hits:
        return []
    return [entry for entry in entries(path, text) if any(entry.line <= hit <= entry.last_line() for hit in hits)]


@dataclass(frozen=True)
class CardInfo:
    """What `rulekb card` prints: the card, its rulings (by date) and the rules of its keywords
    and of its rulings."""

    card: Card
    rulings: tuple[Ruling, ...]
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Found:
    """The cards a name finds: exact (a name of theirs is the name, folded) or, when none is,
    those with a name containing it."""

    cards: tuple[Card, ...]
    exact: bool


def card_names(card: Card) -> tuple[str, ...]:
    """Every name of a card, folded: in each language and as each printing printed it."""
    return tuple(sorted({fold(n) for n in card.names.values()} | {fold(n) for p in card.printings for n in p.names.values()}))


class Lookup:
    """The project's data files, read entry by entry on demand."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.ctx = self._context()
        self._data: dict[str, bytes] = {}
        self._texts: dict[str, str] = {}

    def _context(self) -> Context:
        parsed: dict[str, SourceFile | None] = {}
        problems: list[Problem] = []
        for rel in (LANGUAGES_FILE, SOURCES_FILE):
            path = self.root / rel
            found, issues = parse_bytes(rel, path.read_bytes()) if path.is_file() else (None, [])
            parsed[rel] = found
            problems += issues
        if problems:
            raise DataError(problems)
        # the releases the rules' lists name: the names of the files of rules/releases/ (not read)
        folder = self.root / RELEASES_DIR
        releases = release_dates(p.relative_to(self.root).as_posix() for p in folder.rglob("*.yaml")) if folder.is_dir() else ()
        project = read_project(parsed[LANGUAGES_FILE], parsed[SOURCES_FILE], self.root, releases)
        if project.problems:
            raise DataError(project.problems)
        return project.context

    def _files(self, folder: str) -> list[str]:
        """The data files under `folder` (paths relative to the root), their bytes read once."""
        base = self.root / folder
        out = []
        for path in sorted(p for p in base.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file()) if base.is_dir() else ():
            rel = path.relative_to(self.root).as_posix()
            if rel not in self._data:
                self._data[rel] = path.read_bytes()
            out.append(rel)
        return out

    def _text(self, rel: str) -> str:
        """A file's text (decoded when first needed: most files only have their bytes searched)."""
        if rel not in self._texts:
            data = self._data[rel]
            try:
                self._texts[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                raise DataError(parse_bytes(rel, data)[1]) from None   # names the byte
        return self._texts[rel]

    def _read(self, entry: Entry) -> SourceFile:
        node, problems = parse_text(entry.path, entry.source())
        if problems or node is None:
            raise DataError(problems or [Problem(entry.path, entry.line, 1, "the entry is empty", "remove the '- id:' line")])
        return SourceFile(entry.path, node)

    def _checked(self, found: tuple[list, list[Problem]]) -> list:
        items, problems = found
        if problems:
            raise DataError(problems)
        return items

    def find(self, name: str) -> Found:
        """The cards with the name `name` in any language (any printing's name too)."""
        query = fold(name)
        if not query:
            return Found((), False)
        exact: list[Card] = []
        partial: list[Card] = []
        for path in self._files(CARDS_DIR):
            for entry in _holding(path, self._text(path), query):
                for card in self._checked(cards_from(self._read(entry), self.ctx)):
                    names = card_names(card)
                    if query in names:
                        exact.append(card)
                    elif any(query in n for n in names):
                        partial.append(card)
        key = lambda c: (c.names[SOURCE_LANGUAGE].casefold(), c.id)  # noqa: E731
        return Found(tuple(sorted(exact, key=key)), True) if exact else Found(tuple(sorted(partial, key=key)), False)

    def rulings_of(self, card_id: str) -> tuple[Ruling, ...]:
        mention = re.compile(rf"(?<![\w-]){re.escape(card_id)}(?![\w-])")
        out: list[Ruling] = []
        for path in self._files(RULINGS_DIR):
            if card_id.encode("utf-8") not in self._data[path]:
                continue
            for entry in entries(path, self._text(path)):
                if mention.search(entry.text):
                    rulings, problems, _cites = rulings_from(self._read(entry), self.ctx)
                    if problems:
                        raise DataError(problems)
                    out += [r for r in rulings if card_id in r.cards]
        return tuple(sorted(out, key=lambda r: (r.date, r.id)))

    def rules(self, ids: list[str], keywords: tuple[str, ...]) -> tuple[Rule, ...]:
        """The rules with these ids, and those whose English title is one of the keywords (a
        keyword rule's id is its title as a slug: `dredge`, `explore`)."""
        titles = {fold(k) for k in keywords}
        wanted = set(ids) | {slug(k) for k in keywords}
        out: dict[str, Rule] = {}
        is_wanted = re.compile(rf"^\s*(?:- )?id: (?:{'|'.join(re.escape(rid) for rid in sorted(wanted))})\s*$", re.M)
        for path in self._files(RULES_DIR):
            if not any(f"id: {rid}".encode("utf-8") in self._data[path] for rid in wanted):
                continue
            for entry in entries(path, self._text(path)):
                if not is_wanted.search(entry.text):
                    continue
                for rule in self._checked(rules_from(self._read(entry), self.ctx)):
                    title = rule.title.text(SOURCE_LANGUAGE) if rule.title else None
                    if rule.id in ids or (title is not None and fold(title.text) in titles):
                        out[rule.id] = rule
        order = {rid: i for i, rid in enumerate(ids)}
        return tuple(sorted(out.values(), key=lambda r: (order.get(r.id, len(order)), r.number)))

    def info(self, card: Card) -> CardInfo:
        rulings = self.rulings_of(card.id)
        rule_ids: list[str] = []
        for ruling in rulings:
            rule_ids += [r for r in ruling.rules if r not in rule_ids]
        return CardInfo(card, rulings, self.rules(rule_ids, card.keywords))
