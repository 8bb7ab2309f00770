"""Typed, frozen values that flow between the pipeline stages (load -> validate -> link ->
check -> render -> report). `validate` builds a `KnowledgeBase` out of YAML nodes; every later
stage reads it and never mutates it. `Finding` is what the QA checks produce.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import io
import pickle
import unicodedata
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import BinaryIO, Mapping, Protocol

SOURCE_LANGUAGE = "en"


class Status(str, Enum):
    """How far a text can be trusted."""

    OFFICIAL = "official"    # published by Wizards of the Coast (rules release, Gatherer/MTGJSON)
    COMMUNITY = "community"  # published by others (wikis, community summaries, fan translations)
    DRAFT = "draft"          # work in progress of this project's translators
    MACHINE = "machine"      # machine translation, not reviewed


class UnitKind(str, Enum):
    TITLE = "title"
    SUMMARY = "summary"
    TEXT = "text"        # a rule's own text (601.2 "To cast a spell is ...")
    SUBRULE = "subrule"
    NOTE = "note"
    RULING = "ruling"


_FOLD = (("“", '"'), ("”", '"'), ("„", '"'), ("«", '"'), ("»", '"'), ("‘", "'"), ("’", "'"), ("‚", "'"),
         ("–", "-"), ("—", "-"), ("\u00a0", " "), ("\u202f", " "))


def normalise(text: str) -> str:
    """The form a translation's English hash is taken of: NFC, quotes and dashes folded,
    white space collapsed. A change of typography alone does not make translations stale.
    (ASCII text is its own NFC and has nothing to fold; str.split splits at exactly the
    characters regular expressions call white space.)"""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
        for old, new in _FOLD:   # str.replace per character present: several times faster than str.translate
            if old in text:
                text = text.replace(old, new)
    return " ".join(text.split())


def english_hash(text: str) -> str:
    """16 hex digits of SHA-256 over the normalised English: recorded as `translated_from`."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Pos:
    file: str
    line: int


@dataclass(frozen=True)
class Variant:
    """One text of one unit in one language, from one source."""

    text: str
    source: str
    status: Status
    canonical: bool
    pos: Pos
    translated_from: str | None = None   # english_hash() of the English it translates
    note: str | None = None
    releases: tuple[str, ...] = ()       # the rules releases (effective dates) this English is the text of


@dataclass(frozen=True)
class Unit:
    """A translatable text unit with a stable id (e.g. ``retrace.a``) and a display label
    (``702.78a``). `variants` maps a language to its variants, the canonical one first."""

    id: str
    kind: UnitKind
    label: str
    variants: Mapping[str, tuple[Variant, ...]]
    pos: Pos
    ruling: str | None = None   # the id of the card ruling this text is (a rule note that is an official ruling)

    def text(self, lang: str) -> Variant | None:
        found = self.variants.get(lang)
        return found[0] if found else None

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted(self.variants))


@dataclass(frozen=True)
class HistoryEntry:
    """A number the rule had in a span of rules releases (dates are YYYY-MM or YYYY-MM-DD)."""

    number: str
    since: str | None
    until: str | None
    source: str
    releases: tuple[str, ...] = ()  # the imported rules releases in which the rule had this number

    def covers(self, date: str, end: str | None) -> bool:
        """Whether `date` (YYYY-MM-DD) lies in this entry's span, `end` being the span's end
        (its `until`, else the next entry's `since`; a partial YYYY-MM end counts whole)."""
        if date in self.releases:
            return True
        if self.since is not None and date < self.since:
            return False
        if end is None:
            return True
        if self.until is not None and end == self.until:
            return date <= end or date.startswith(end)
        return date < end


def subrule_number(rule_number: str, letter: str) -> str:
    """A subrule's number in a release from its rule's number there and its `letters` entry: the
    rule's number and the letter, or the number the release printed when that is not its rule's
    (432.2b under the rule 423.2 in 2006-2007: `letters` holds "432.2b")."""
    return letter if "." in letter else rule_number + letter


@dataclass(frozen=True)
class Subrule:
    letter: str
    number: str
    unit: Unit
    # rules release -> the subrule's letter in it, for every release it is known in; a full number
    # where the release printed it under another rule's number (see subrule_number)
    letters: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    release: str | None = None  # a former subrule (not in the rule's release): the last release it was in


@dataclass(frozen=True)
class Move:
    """A text of a rule that continues a text of another rule: the rules moved it there (the
    subrule 111.1e of 2018 is the rule 111.6 of 2026; the rule 715.2 of 2018 is the subrule 723.1f)."""

    unit: str       # the unit id in this rule ("a-token-is-subject-to-anything-that.text")
    previous: str   # the unit id of the text it continues ("some-effects-put-tokens-onto-the.d")
    pos: Pos        # where the rule file says so


@dataclass(frozen=True)
class Rule:
    id: str
    number: str        # number in the release its English text comes from
    release: str       # that release's effective date
    history: tuple[HistoryEntry, ...]
    title: Unit | None
    summary: Unit | None
    text: Unit | None
    subrules: tuple[Subrule, ...]
    notes: tuple[Unit, ...]
    file: str
    # subrules that an imported release had but the rule's release has not (kept with their texts)
    former_subrules: tuple[Subrule, ...] = ()
    line: int = 1      # where the rule starts in `file` (a file may hold a section of rules)
    moves: tuple[Move, ...] = ()   # its texts that continue texts of other rules (`moved_from`)

    @functools.cached_property   # a frozen rule's units do not change; pages and checks ask for them often
    def units(self) -> tuple[Unit, ...]:
        head = tuple(u for u in (self.title, self.summary, self.text) if u is not None)
        return (head + tuple(s.unit for s in self.subrules) + self.notes
                + tuple(s.unit for s in self.former_subrules))

    @property
    def releases(self) -> tuple[str, ...]:
        """The imported rules releases the rule is in, oldest first."""
        return tuple(sorted({r for entry in self.history for r in entry.releases}))

    def number_in(self, release: str) -> tuple[str, HistoryEntry | None] | None:
        """The rule's number in a rules release and the history entry that says so: an imported
        release first, then the rule's own release (entry None), else a history span (e.g. from
        the archive) that covers the date; None when the knowledge base does not know."""
        for entry in self.history:
            if release in entry.releases:
                return entry.number, entry
        if release == self.release:
            return self.number, None
        for entry, end, _current in self.history_spans():
            if entry.since is not None and entry.covers(release, end):
                return entry.number, entry
        return None

    def history_spans(self) -> tuple[tuple[HistoryEntry, str | None, bool], ...]:
        """Each history entry with the end of its span (its `until`, else the next entry's
        `since`) and whether it is the current number (open-ended and last)."""
        out = []
        for i, entry in enumerate(self.history):
            nxt = self.history[i + 1].since if i + 1 < len(self.history) else None
            end = entry.until or nxt
            out.append((entry, end, end is None and entry.since is not None))
        return tuple(out)

    @property
    def current_number(self) -> str:
        """The number in the newest release the history knows (open-ended entry), else `number`."""
        for entry in reversed(self.history):
            if entry.until is None and entry.since is not None:
                return entry.number
        return self.number

    def subrule(self, letter: str) -> Subrule | None:
        return next((s for s in self.subrules if s.letter == letter), None)

    def subrule_in(self, release: str, letter: str) -> Subrule | None:
        """The subrule that had `letter` in a rules release (current or former)."""
        for sub in self.subrules + self.former_subrules:
            if sub.letters.get(release) == letter:
                return sub
        return self.subrule(letter) if release == self.release else None


# The empty mapping every model without entries shares (a printing without printed names or
# texts): one object, which the knowledge cache's pickles store once per file.
EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class Printing:
    """A card as printed in one set: set code, collector number, and the official names and
    texts of that printing in the knowledge base's other languages (MTGJSON's foreignData;
    older printings carry the wording of their time)."""

    set_code: str
    number: str
    names: Mapping[str, str] = field(default_factory=lambda: EMPTY)   # language -> printed name
    texts: Mapping[str, str] = field(default_factory=lambda: EMPTY)   # language -> printed text


@dataclass(frozen=True)
class Card:
    """A card (one per Scryfall oracle id) with its names, its printings (the first is the one it
    is shown with) and the keywords MTGJSON gives it."""

    id: str
    names: Mapping[str, str]
    printings: tuple[Printing, ...]
    oracle_id: str
    source: str
    pos: Pos
    keywords: tuple[str, ...] = ()

    @property
    def set_code(self) -> str:
        return self.printings[0].set_code

    @property
    def collector_number(self) -> str:
        return self.printings[0].number


@dataclass(frozen=True)
class Ruling:
    """An official card ruling, stored once for every card it stands on; it belongs to its
    cards always and to `rules` (rule ids, the mechanics its text is about) when it has any."""

    id: str
    date: str
    rules: tuple[str, ...]  # rule ids the ruling belongs to (none: the ruling of its cards only)
    cards: tuple[str, ...]  # card ids it applies to
    unit: Unit

    @property
    def mechanic(self) -> str | None:
        """The rule it is shown under first (its first rule), None for a ruling of cards only."""
        return self.rules[0] if self.rules else None


@dataclass(frozen=True)
class GlossaryEntry:
    """A term of the Comprehensive Rules' glossary and its definition."""

    id: str
    term: Unit
    definition: Unit
    file: str
    line: int = 1

    @property
    def units(self) -> tuple[Unit, ...]:
        return (self.term, self.definition)


@dataclass(frozen=True)
class RulesRelease:
    """A Comprehensive Rules release imported in full: every number it has is known."""

    date: str                              # effective date, YYYY-MM-DD
    source: str                            # its source id, cr-YYYY-MM-DD
    file: str                              # the text file it was imported from
    chapters: tuple[tuple[str, str], ...]  # ("7", "Additional Rules")
    pos: Pos


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    kind: str
    file: str | None
    date: str | None


@dataclass(frozen=True)
class Language:
    code: str
    name: str          # endonym: "Deutsch"
    english_name: str  # "German"
    locale: str        # Babel locale: "de_DE"


@dataclass(frozen=True)
class KnowledgeBase:
    languages: tuple[Language, ...]
    sources: Mapping[str, Source]
    rules: tuple[Rule, ...]
    cards: tuple[Card, ...]
    rulings: tuple[Ruling, ...]
    _rule_by_id: Mapping[str, Rule] = field(init=False, repr=False, compare=False)
    _card_by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)
    glossary: tuple[GlossaryEntry, ...] = ()
    releases: tuple[RulesRelease, ...] = ()   # imported in full, oldest first

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rule_by_id", MappingProxyType({r.id: r for r in self.rules}))
        object.__setattr__(self, "_card_by_id", MappingProxyType({c.id: c for c in self.cards}))

    @property
    def language_codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)

    @property
    def target_languages(self) -> tuple[str, ...]:
        return tuple(c for c in self.language_codes if c != SOURCE_LANGUAGE)

    def rule(self, rule_id: str) -> Rule | None:
        return self._rule_by_id.get(rule_id)

    def card(self, card_id: str) -> Card | None:
        return self._card_by_id.get(card_id)

    @functools.cached_property
    def owners(self) -> Mapping[str, Rule | Ruling]:
        """Unit id -> the rule or the ruling it belongs to (its rules' and rulings' units, not the
        glossary's); built on first use and kept on this knowledge base."""
        found: dict[str, Rule | Ruling] = {u.id: r for r in self.rules for u in r.units}
        found.update((r.unit.id, r) for r in self.rulings)
        return MappingProxyType(found)

    @functools.cached_property
    def _ruling_by_id(self) -> Mapping[str, Ruling]:
        return MappingProxyType({r.id: r for r in self.rulings})

    def ruling(self, ruling_id: str) -> Ruling | None:
        return self._ruling_by_id.get(ruling_id)

    def owner(self, unit_id: str) -> Rule | Ruling | None:
        """The rule or ruling that holds the unit `unit_id` (None for a glossary or unknown unit)."""
        return self.owners.get(unit_id)

    def units(self) -> tuple[Unit, ...]:
        """The units of the rules and rulings (the glossary's are `glossary_units`)."""
        return tuple(u for r in self.rules for u in r.units) + tuple(r.unit for r in self.rulings)

    def glossary_units(self) -> tuple[Unit, ...]:
        """The units of the imported glossary: each term and its definition."""
        return tuple(u for g in self.glossary for u in g.units)

    def release(self, date: str) -> RulesRelease | None:
        return next((r for r in self.releases if r.date == date), None)

    def rulings_for(self, *, mechanic: str | None = None, card: str | None = None) -> tuple[Ruling, ...]:
        return tuple(r for r in self.rulings
                     if (mechanic is None or mechanic in r.rules) and (card is None or card in r.cards))


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Speaker(Protocol):
    """Who renders a `Message`: a UI's language, gettext and names of languages (`rulekb.i18n.UI`)."""

    lang: str

    def _(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def percent(self, value: int) -> str: ...

    def language_name(self, code: str) -> str: ...


@dataclass(frozen=True)
class Lang:
    """A language named in a message: rendered in the reader's language ("German", "Deutsch", "allemand")."""

    code: str
    english: str


@dataclass(frozen=True)
class Named:
    """A game concept named in a message: rendered as the reader's own term ("'cast'", "'wirken'",
    "'lancer'"), quoted; the English term where the reader's language has none. A message about the
    English text names the English word as plain text instead."""

    english: str
    terms: tuple[tuple[str, str], ...] = ()     # (language, the termbase's term), sorted

    def render(self, speaker: Speaker | None) -> str:
        lang = speaker.lang if speaker is not None else SOURCE_LANGUAGE
        return quoted(dict(self.terms).get(lang, self.english), lang)


# how each language quotes a word in running text: German „…“ and French « … » (no-break spaces
# inside), as printed texts do; English (the msgids) in single quotes
QUOTATION_MARKS = {"de": ("„", "“"), "fr": ("«\u00a0", "\u00a0»")}


def quoted(text: str, lang: str) -> str:
    """`text` in the quotation marks of `lang` ("'cast'", "„wirken“", "« lancer »")."""
    opening, closing = QUOTATION_MARKS.get(lang, ("'", "'"))
    return f"{opening}{text}{closing}"


@dataclass(frozen=True)
class Quoted:
    """A word or text quoted in a message, in the reader's quotation marks (`quoted`)."""

    text: str

    def render(self, speaker: Speaker | None) -> str:
        return quoted(self.text, speaker.lang if speaker is not None else SOURCE_LANGUAGE)


@dataclass(frozen=True)
class QuotedEach:
    """Several words quoted in a message, each in the reader's quotation marks, joined by commas;
    with `counts`, each followed by how often it occurs ("« lancez un sort » (1 234×)")."""

    texts: tuple[str, ...]
    counts: tuple[int, ...] = ()

    def render(self, speaker: Speaker | None) -> str:
        lang = speaker.lang if speaker is not None else SOURCE_LANGUAGE
        if not self.counts:
            return ", ".join(quoted(text, lang) for text in self.texts)
        return ", ".join(f"{quoted(text, lang)} ({_format_number(n, 0, lang)}×)" for text, n in zip(self.texts, self.counts))


@dataclass(frozen=True)
class Number:
    """A number in a message, written as the reader's language writes it (Babel): "2.1" / "2,1",
    "1,234" / "1.234" / "1 234"."""

    value: float
    digits: int = 0         # digits after the decimal sign

    def render(self, speaker: Speaker | None) -> str:
        return _format_number(self.value, self.digits, speaker.lang if speaker is not None else SOURCE_LANGUAGE)


@dataclass(frozen=True)
class Percent:
    """A share (0..1) in a message as a whole percentage in the reader's format ("85%", "85 %")."""

    share: float

    def render(self, speaker: Speaker | None) -> str:
        whole = round(self.share * 100)
        return speaker.percent(whole) if speaker is not None else f"{whole}%"


@functools.lru_cache(maxsize=1024)
def _format_number(value: float, digits: int, lang: str) -> str:
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=lang)


@dataclass(frozen=True)
class InLanguages:
    """A text of the data given in several languages (a termbase note): rendered in the reader's
    language where it has one, else in English."""

    english: str
    texts: tuple[tuple[str, str], ...] = ()     # (language, text), sorted

    def render(self, speaker: Speaker | None) -> str:
        return dict(self.texts).get(speaker.lang, self.english) if speaker is not None else self.english


@dataclass(frozen=True)
class Message:
    """A QA message or suggestion in any UI language: `template` is the English msgid of the UI
    catalogs (``translations/ui/*.po``) with ``{named}`` fields, `args` their values (text,
    numbers, a `Number` or `Percent` (written as the reader writes numbers), a `Quoted` word, a `Lang`, a `Named` concept, an `InLanguages` text, or another `Message`, or a tuple of them joined by "; ").
    With `plural` (its English plural msgid), the number `args[count]` chooses the form (ngettext:
    "1 parenthèse", "0 parenthèse", "2 parenthèses")."""

    template: str
    args: tuple[tuple[str, object], ...] = ()
    plural: str = ""
    count: str = ""

    def _english(self) -> str:
        if not self.plural:
            return self.template
        return self.template if dict(self.args).get(self.count) == 1 else self.plural

    def render(self, speaker: Speaker | None = None) -> str:
        """The message in the speaker's language (None: English, the msgids)."""
        english = self._english()
        if speaker is None or not self.template:
            template = english
        elif self.plural:
            n = dict(self.args).get(self.count)
            template = speaker.ngettext(self.template, self.plural, n if isinstance(n, int) else 2)
        else:
            template = speaker._(self.template)
        values = {key: _rendered(value, speaker) for key, value in self.args}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a catalog entry with a wrong field: the English
            return english.format(**values)

    def __str__(self) -> str:
        return self.render()


def _rendered(value: object, speaker: Speaker | None) -> object:
    if isinstance(value, Message):
        return value.render(speaker)
    if isinstance(value, Lang):
        return speaker.language_name(value.code) if speaker is not None else value.english
    if isinstance(value, (Named, InLanguages, Quoted, QuotedEach, Number, Percent)):
        return value.render(speaker)
    if isinstance(value, tuple):
        parts = [str(_rendered(v, speaker)) for v in value]
        if speaker is None or len(parts) < 2:
            return "; ".join(parts)
        # the separator from the catalog: French sets a narrow no-break space before the semicolon
        joined = parts[0]
        for part in parts[1:]:
            joined = speaker._("{first}; {then}").format(first=joined, then=part)
        return joined
    return value


def message(template: str, **args: object) -> Message:
    """`Message(template, args)`; `template` is a literal, extracted into the catalogs as `M_`."""
    return Message(template, tuple(sorted(args.items())))


def plural_message(singular: str, plural: str, count: str, **args: object) -> Message:
    """A `Message` whose form follows the number `args[count]` (extracted as `MN_`, like ngettext)."""
    return Message(singular, tuple(sorted(args.items())), plural, count)


MN_ = plural_message
M_ = message


@dataclass(frozen=True, order=True)
class Finding:
    """One QA result about one text unit in one language. `message` and `suggestion` are the
    English texts (stable, for tools); `msg` and `fix` the same as `Message`s, rendered in a
    reader's language by `localised`; `also` the codes of the findings merged into it (one
    defect, one finding)."""

    code: str
    severity: Severity
    lang: str
    entry: str
    file: str
    line: int
    message: str
    suggestion: str = ""
    msg: Message | None = field(default=None, compare=False)
    fix: Message | None = field(default=None, compare=False)
    also: tuple[str, ...] = field(default=(), compare=False)
    span: tuple[int, int] | None = field(default=None, compare=False)   # in the text, when known
    # every occurrence the finding counts ("'spielt' (4 times)"), when more than `span`: what the merge sees
    spans: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    # where in the English the finding is about (what the translation replaced or left out), when known:
    # what lets the merge join a word left out to the word said in its place
    english: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def localised(self, speaker: Speaker | None) -> tuple[str, str]:
        """(message, suggestion) in the speaker's language (English without one)."""
        if speaker is None:
            return self.message, self.suggestion
        return (self.msg.render(speaker) if self.msg is not None else self.message,
                self.fix.render(speaker) if self.fix is not None else self.suggestion)


def _mapping_proxy(items: dict) -> MappingProxyType:
    return MappingProxyType(items)


class _Pickler(pickle.Pickler):
    """Pickles the frozen models, whose mappings are read-only proxies (which pickle refuses)."""

    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[MappingProxyType] = lambda proxy: (_mapping_proxy, (dict(proxy),))


def dumps(value: object) -> bytes:
    """`value` (models included) pickled, for the knowledge cache and the results of worker
    processes; `pickle.loads` reads it back."""
    buffer = io.BytesIO()
    dump(value, buffer)
    return buffer.getvalue()


def dump(value: object, file: BinaryIO) -> None:
    """`value` (models included) pickled into `file` as it goes (the pickle's frames written
    one by one, never all of it in memory); `pickle.load` reads it back."""
    _Pickler(file, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
