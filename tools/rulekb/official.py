"""The official German and French names of the game's keywords and terms, as printed cards give
them, read by the render stage (keyword page titles, the "Auf deutschen Karten" box, the terms of
a rule, the keyword index, the glossary, the status page, the api), by `rulekb show` and by the PO
export. Pipeline position: loaded beside the knowledge base like the termbase (load -> validate);
nothing here reads rules/. The data is mined from MTGJSON's printed card texts by
`rulekb.importers.official` (``rulekb official mine``) into ``translations/official.yaml``;
nobody writes it by hand.

`load_official` reads the file strictly: an unknown field, a language the project does not have,
a date that is not one, a rule or term listed twice is a `DataError` naming file, line and column.
Without the file there is no official data (nothing mined yet). A file read before comes from the
per-user cache (`cache.cached`, keyed by its bytes, the languages and this module's code).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from .cache import cached
from .diagnostics import DataError
from .load import MapNode, Node, parse_bytes
from .models import SOURCE_LANGUAGE, Rule
from .schema import Reader

OFFICIAL_FILE = "translations/official.yaml"
_REGENERATE = "regenerate the file: rulekb official mine ../shared/data/mtgjson/sets/"


@dataclass(frozen=True)
class CardRef:
    """The printing a name or text was read from."""

    card: str          # its printed name
    english: str       # its English name
    set_code: str
    number: str
    date: str          # the set's release date

    def label(self) -> str:
        return f"{self.card} ({self.set_code} {self.number}, {self.date})"


@dataclass(frozen=True)
class OldTerm:
    """A name or term printed before today's, with its first and last printing."""

    text: str
    first: str
    last: str
    source: CardRef


@dataclass(frozen=True)
class Reminder:
    """A reminder text as printed, its newest printing, its first and last date, on how many
    printings; the earlier wordings (each a `Reminder` without earlier ones)."""

    text: str
    source: CardRef
    first: str
    last: str
    printed: int
    earlier: tuple["Reminder", ...] = ()


@dataclass(frozen=True)
class KeywordName:
    """A keyword's official name in one language."""

    lang: str
    name: str
    parameter: bool            # words follow the name on cards ("Affinität zu …")
    printed: int               # on how many printings
    source: CardRef            # the newest of them
    reminder: Reminder | None
    history: tuple[OldTerm, ...] = ()

    @property
    def display(self) -> str:
        return f"{self.name} …" if self.parameter else self.name


@dataclass(frozen=True)
class Keyword:
    """A keyword rule (701.x, 702.x) and its official names (none where no card prints it)."""

    rule: str                  # its number today, e.g. "702.81"
    english: str               # the rule's English title
    names: tuple[KeywordName, ...]
    line: int = field(default=0, compare=False)

    def name(self, lang: str) -> KeywordName | None:
        return next((n for n in self.names if n.lang == lang), None)


@dataclass(frozen=True)
class TermName:
    """A game term's official term in one language, with the counts that aligned it."""

    lang: str
    term: str
    cards: int                 # texts with the English term and the printed term
    with_term: int             # texts whose English uses the term
    with_printed: int          # texts that print the term
    since: str                 # its first printing for this English term
    source: CardRef            # its newest printing
    history: tuple[OldTerm, ...] = ()


@dataclass(frozen=True)
class Term:
    english: str               # lowercase, as the glossary or termbase writes it
    names: tuple[TermName, ...]
    line: int = field(default=0, compare=False)

    def name(self, lang: str) -> TermName | None:
        return next((n for n in self.names if n.lang == lang), None)


@dataclass(frozen=True)
class Official:
    languages: tuple[str, ...]
    keywords: tuple[Keyword, ...]
    terms: tuple[Term, ...]
    _by_rule: Mapping[str, Keyword] = field(init=False, repr=False, compare=False)
    _by_term: Mapping[str, Term] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_rule", MappingProxyType({k.rule: k for k in self.keywords}))
        object.__setattr__(self, "_by_term", MappingProxyType({t.english: t for t in self.terms}))

    def keyword(self, number: str) -> Keyword | None:
        """The keyword rule of a current rule number ("702.81"), None for another rule."""
        return self._by_rule.get(number)

    def term(self, english: str) -> Term | None:
        return self._by_term.get(english.casefold())

    def find_keyword(self, name: str) -> Keyword | None:
        """The keyword of a name in English or any language ("Retrace", "zurückverfolgen",
        "Dragage"), case-insensitive; None when no keyword has it."""
        return self._names.get(name.strip().casefold())

    @functools.cached_property
    def _names(self) -> Mapping[str, Keyword]:
        found: dict[str, Keyword] = {}
        for k in self.keywords:
            found.setdefault(k.english.casefold(), k)
        for k in self.keywords:
            for n in k.names:
                found.setdefault(n.name.casefold(), k)
        return MappingProxyType(found)

    @functools.cached_property
    def _term_pattern(self) -> re.Pattern[str] | None:
        if not self.terms:
            return None
        alternatives = sorted((re.escape(t.english) for t in self.terms), key=lambda t: (-len(t), t))
        return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?:s|es)?(?![\w-])", re.IGNORECASE)

    def terms_in(self, english_text: str, lang: str) -> tuple[Term, ...]:
        """The game terms an English text uses that have an official term in `lang`, in the
        order they first occur (each once)."""
        pattern = self._term_pattern
        if pattern is None:
            return ()
        out: dict[str, Term] = {}
        for m in pattern.finditer(english_text):
            word = m.group().casefold()
            term = self._by_term.get(word) or self._by_term.get(word[:-1]) or self._by_term.get(word[:-2])
            if term is not None and term.name(lang) is not None:
                out.setdefault(term.english, term)
        return tuple(out.values())

    def keywords_in(self, english_text: str, lang: str) -> tuple[Keyword, ...]:
        """The keywords an English text names (whole words) that have an official name in `lang`."""
        pattern = self._keyword_pattern
        if pattern is None:
            return ()
        out: dict[str, Keyword] = {}
        for m in pattern.finditer(english_text):
            k = self._by_english.get(m.group().casefold())
            if k is not None and k.name(lang) is not None:
                out.setdefault(k.rule, k)
        return tuple(out.values())

    @functools.cached_property
    def _by_english(self) -> Mapping[str, Keyword]:
        return MappingProxyType({k.english.casefold(): k for k in self.keywords if k.names})

    @functools.cached_property
    def _keyword_pattern(self) -> re.Pattern[str] | None:
        names = sorted((re.escape(e) for e in self._by_english), key=lambda t: (-len(t), t))
        return re.compile(r"(?<![\w-])(?:" + "|".join(names) + r")(?![\w-])", re.IGNORECASE) if names else None


# ------------------------------------------------------------------ the keyword rules of the knowledge base

KEYWORD_RULE = re.compile(r"70[12]\.[1-9][0-9]*")   # a keyword action (701.x) or ability (702.x), not a subrule
KEYWORD_NAME_LENGTH = 60   # a keyword rule's text that is its name ("For Mirrodin!") is a line, not a sentence


def text_name(rule: Rule) -> str | None:
    """The English name of a 701/702 rule that has no title, its text being the name: 702.163
    "For Mirrodin!" (a text that is a line without a full stop); None for any other rule (701.1,
    whose text is a sentence)."""
    if rule.title is not None or rule.text is None or rule.number.split(".")[0] not in ("701", "702"):
        return None
    variant = rule.text.text(SOURCE_LANGUAGE)
    if variant is None:
        return None
    text = variant.text.strip()
    return text if text and len(text) <= KEYWORD_NAME_LENGTH and not text.endswith(".") else None


def keyword_rule_name(rule: Rule) -> str | None:
    """The English name of a keyword rule (701.x, 702.x by today's number): its title, or its text
    where that is the name (`text_name`); None for another rule."""
    if not KEYWORD_RULE.fullmatch(rule.current_number):
        return None
    title = rule.title.text(SOURCE_LANGUAGE) if rule.title is not None else None
    if title is not None and title.text.strip():
        return title.text.strip()
    return text_name(rule)


# ------------------------------------------------------------------ reading the file


def _ref(r: Reader, node: Node | None, what: str) -> CardRef | None:
    if node is None:
        return None
    m = r.mapping(node, what, ("card", "english", "set", "number", "date"))
    if m is None:
        return None
    values = [r.nonempty(m.get(k), f"{what} {k}") for k in ("card", "english", "set", "number")]
    date = r.date(m.get("date"), f"{what} date")
    if None in values or date is None:
        return None
    return CardRef(*values, date)  # type: ignore[arg-type]


def _count(r: Reader, node: Node | None, what: str) -> int | None:
    value = r.pattern(node, what, re.compile(r"^(?:0|[1-9][0-9]*)$"), "a whole number such as 12")
    return None if value is None else int(value)


def _span(r: Reader, m: MapNode, what: str) -> tuple[str, str] | None:
    first = r.date(m.get("first"), f"{what} first")
    last = r.date(m.get("last"), f"{what} last")
    if first is None or last is None:
        return None
    if first > last:
        r.error(m, f"{what}: its first printing ({first}) is after its last ({last})", _REGENERATE)
        return None
    return first, last


def _history(r: Reader, node: Node | None, what: str) -> tuple[OldTerm, ...]:
    out = []
    for i, item in enumerate(r.sequence(node, f"{what} history")):
        m = r.mapping(item, f"{what} history #{i + 1}", ("text", "first", "last", "source"))
        if m is None:
            continue
        text = r.nonempty(m.get("text"), f"{what} history #{i + 1} text")
        span = _span(r, m, f"{what} history #{i + 1}")
        source = _ref(r, m.get("source"), f"{what} history #{i + 1} source")
        if text is not None and span is not None and source is not None:
            out.append(OldTerm(text, span[0], span[1], source))
    return tuple(out)


def _reminder(r: Reader, node: Node, what: str, nested: bool) -> Reminder | None:
    m = r.mapping(node, what, ("text", "source", "first", "last", "printed"), () if nested else ("earlier",))
    if m is None:
        return None
    text = r.nonempty(m.get("text"), f"{what} text")
    source = _ref(r, m.get("source"), f"{what} source")
    span = _span(r, m, what)
    printed = _count(r, m.get("printed"), f"{what} printed")
    earlier = tuple(e for i, item in enumerate(r.sequence(m.get("earlier"), f"{what} earlier"))
                    if (e := _reminder(r, item, f"{what} earlier #{i + 1}", True)) is not None)
    if text is None or source is None or span is None or printed is None:
        return None
    return Reminder(text, source, span[0], span[1], printed, earlier)


def _keyword(r: Reader, node: Node, what: str, languages: tuple[str, ...]) -> Keyword | None:
    m = r.mapping(node, what, ("rule", "english", "names"))
    if m is None:
        return None
    rule = r.pattern(m.get("rule"), f"{what} rule", re.compile(r"^70[12]\.[1-9][0-9]*$"), 'a keyword rule number, e.g. "702.81"')
    english = r.nonempty(m.get("english"), f"{what} english")
    names: list[KeywordName] = []
    for i, item in enumerate(r.sequence(m.get("names"), f"{what} names")):
        where = f"{what} ({english}) name #{i + 1}"
        n = r.mapping(item, where, ("lang", "name", "printed", "source"), ("parameter", "reminder", "history"))
        if n is None:
            continue
        lang = r.choice(n.get("lang"), f"{where} lang", languages)
        name = r.nonempty(n.get("name"), f"{where} name")
        parameter = r.boolean(n.get("parameter"), f"{where} parameter") if n.get("parameter") is not None else False
        printed = _count(r, n.get("printed"), f"{where} printed")
        source = _ref(r, n.get("source"), f"{where} source")
        reminder = _reminder(r, n.get("reminder"), f"{where} reminder", False) if n.get("reminder") is not None else None
        history = _history(r, n.get("history"), where)
        if lang is not None and lang in {x.lang for x in names}:
            r.error(item, f"{what} ({english}) has two names in '{lang}'", "give each language one name; " + _REGENERATE)
            continue
        if None not in (lang, name, parameter, printed, source):
            names.append(KeywordName(lang, name, bool(parameter), printed, source, reminder, history))  # type: ignore[arg-type]
    if rule is None or english is None:
        return None
    return Keyword(rule, english, tuple(names), node.line)


def _term(r: Reader, node: Node, what: str, languages: tuple[str, ...]) -> Term | None:
    m = r.mapping(node, what, ("english", "names"))
    if m is None:
        return None
    english = r.nonempty(m.get("english"), f"{what} english")
    names: list[TermName] = []
    for i, item in enumerate(r.sequence(m.get("names"), f"{what} names")):
        where = f"{what} ({english}) name #{i + 1}"
        n = r.mapping(item, where, ("lang", "term", "cards", "with_term", "with_term_printed", "since", "source"),
                      ("history",))
        if n is None:
            continue
        lang = r.choice(n.get("lang"), f"{where} lang", languages)
        term = r.nonempty(n.get("term"), f"{where} term")
        counts = [_count(r, n.get(k), f"{where} {k}") for k in ("cards", "with_term", "with_term_printed")]
        since = r.date(n.get("since"), f"{where} since")
        source = _ref(r, n.get("source"), f"{where} source")
        history = _history(r, n.get("history"), where)
        if None not in counts and (counts[0] > counts[1] or counts[0] > counts[2]):  # type: ignore[operator]
            r.error(item, f"{where}: cards ({counts[0]}) is more than with_term or with_term_printed",
                    "cards counts texts with both; " + _REGENERATE)
            continue
        if lang is not None and lang in {x.lang for x in names}:
            r.error(item, f"{what} ({english}) has two terms in '{lang}'", "give each language one term; " + _REGENERATE)
            continue
        if None not in (lang, term, since, source, *counts):
            names.append(TermName(lang, term, *counts, since, source, history))  # type: ignore[arg-type]
    if english is None:
        return None
    if english != english.casefold():
        r.error(m.get("english"), f"{what} english '{english}' is not lowercase", _REGENERATE)  # type: ignore[arg-type]
        return None
    return Term(english, tuple(names), node.line)


def official_from(data: bytes, rel: str, languages: tuple[str, ...]) -> Official:
    """Parse and check the official file's bytes (`rel`: its path as messages name it)."""
    parsed, problems = parse_bytes(rel, data)
    if parsed is None:
        raise DataError(problems)
    r = Reader(parsed.path, list(problems))
    m = r.mapping(parsed.root, "the official file", ("languages", "keywords", "terms"))
    langs = tuple(lang for item in r.sequence(m.get("languages") if m else None, "languages")
                  if (lang := r.choice(item, "languages", languages)) is not None)
    keywords: list[Keyword] = []
    rules: dict[str, int] = {}
    for i, item in enumerate(r.sequence(m.get("keywords") if m else None, "keywords")):
        k = _keyword(r, item, f"keyword #{i + 1}", langs)
        if k is None:
            continue
        if k.rule in rules:
            r.error(item, f"keyword rule {k.rule} is listed twice (first at line {rules[k.rule]})", "list each rule once")
            continue
        rules[k.rule] = item.line
        keywords.append(k)
    terms: list[Term] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(r.sequence(m.get("terms") if m else None, "terms")):
        t = _term(r, item, f"term #{i + 1}", langs)
        if t is None:
            continue
        if t.english in seen:
            r.error(item, f"term '{t.english}' is listed twice (first at line {seen[t.english]})", "list each term once")
            continue
        seen[t.english] = item.line
        terms.append(t)
    if r.problems:
        raise DataError(r.problems)
    return Official(langs, tuple(keywords), tuple(terms))


def load_official(root: Path, languages: tuple[str, ...]) -> Official:
    """Read ``translations/official.yaml`` of the project at `root` (see the module's docstring);
    `languages`: the project's language codes."""
    path = root / OFFICIAL_FILE
    if not path.is_file():
        return Official((), (), ())
    data = path.read_bytes()
    return cached("official", (data, *languages), lambda: official_from(data, OFFICIAL_FILE, languages), Official)
