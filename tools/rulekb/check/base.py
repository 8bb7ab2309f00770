"""The vocabulary of the cross-text checks (stage: check, load -> validate -> link -> check -> render ->
report): what such a check sees (`UnitText`, `Context`: the whole knowledge base), what it reports
(`Issue`), how it is registered (`Check`) and what a waiver accepted (`Waived`). The by-text checks'
vocabulary is `rulekb.check.text`.

Every family module (coverage, staleness, …) imports these from here, and `rulekb.check` imports
the families to build the registry: the imports run one way, with no cycle through the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from ..models import (SOURCE_LANGUAGE, M_, Finding, KnowledgeBase, Lang, Message, Rule, Ruling, Severity, Status,
                      Unit, Variant, english_hash)
from ..refs import Reference
from ..phraseology import Phraseology
from ..termbase import Termbase, TermMatch
from .text import Data

__all__ = ["UnitText", "Issue", "Context", "quote", "M_", "Message", "Lang", "Check", "CheckFunction", "Waived"]

# ------------------------------------------------------------------ what a check sees


@dataclass(frozen=True)
class UnitText:
    """One text of one unit in one language (the canonical variant unless `index` > 0),
    with what the checks need to know about it."""

    unit: Unit
    lang: str
    index: int
    variant: Variant
    rule: Rule | None        # the rule the unit belongs to (None for rulings)
    ruling: Ruling | None    # the ruling, for ruling units
    release: str | None      # the rules release (date) the text belongs to

    @property
    def text(self) -> str:
        return self.variant.text

    @property
    def english(self) -> Variant | None:
        return self.unit.text(SOURCE_LANGUAGE)

    @property
    def label(self) -> str:
        return self.unit.label

    @property
    def group(self) -> str:
        """The rule id, or for a ruling its mechanic: the row of the coverage matrix."""
        if self.rule is not None:
            return self.rule.id
        return (self.ruling.mechanic or "") if self.ruling else ""


@dataclass(frozen=True)
class Issue:
    """What a check found: where (language, unit, file, line, and the span of the text it is
    about), what (`msg`), what to do (`fix`), and, where the check grades it, how bad
    (`severity`; None: the check's own)."""

    lang: str
    entry: str
    file: str
    line: int
    msg: Message
    fix: Message
    span: tuple[int, int] | None = None
    severity: Severity | None = None
    index: int = 0           # which of the unit's texts in `lang` (0: the canonical one)
    spans: tuple[tuple[int, int], ...] = ()   # every occurrence it counts, when several (the first is `span`)
    english: tuple[tuple[int, int], ...] = ()  # where in the English it is about (`Flag.english`)

    @property
    def message(self) -> str:
        return self.msg.render()

    @property
    def suggestion(self) -> str:
        return self.fix.render()

    @classmethod
    def at(cls, text: UnitText, message: Message | str, suggestion: Message | str, *,
           span: tuple[int, int] | None = None, severity: Severity | None = None,
           spans: tuple[tuple[int, int], ...] = ()) -> "Issue":
        return cls(text.lang, text.unit.id, text.variant.pos.file, text.variant.pos.line, _msg(message),
                   _msg(suggestion), span if text.index == 0 else None, severity, text.index,
                   spans if text.index == 0 else ())

    @classmethod
    def on_unit(cls, unit: Unit, lang: str, message: Message | str, suggestion: Message | str, *,
                severity: Severity | None = None) -> "Issue":
        return cls(lang, unit.id, unit.pos.file, unit.pos.line, _msg(message), _msg(suggestion), None, severity)


def _msg(value: Message | str) -> Message:
    return value if isinstance(value, Message) else Message(value)


class Context:
    """The knowledge base, the read-only data of the by-text checks (`Data`: the termbase, the
    official phraseology) and what the cross-text checks of one run read of them."""

    def __init__(self, kb: KnowledgeBase, termbase: Termbase, phraseology: Phraseology | None = None,
                 data: Data | None = None):
        self.kb = kb
        self.termbase = termbase
        self.phraseology = phraseology if phraseology is not None else Phraseology((), ())
        self.languages: tuple[str, ...] = kb.language_codes
        self.targets: tuple[str, ...] = kb.target_languages
        if data is None:
            from .keywords import keyword_table
            data = Data(termbase, self.phraseology, self.languages,
                        {lang.code: lang.english_name for lang in reversed(kb.languages)},
                        keywords=keyword_table(kb, termbase), cards=kb.cards)
        self.data = data
        # (Rule.units is a property that builds the tuple: once per rule here)
        self._rule_units: dict[str, tuple[Unit, ...]] = {rule.id: rule.units for rule in kb.rules}
        self.units: tuple[Unit, ...] = (tuple(u for units in self._rule_units.values() for u in units)
                                        + tuple(ruling.unit for ruling in kb.rulings))  # as kb.units() lists them
        # the newest rules release imported in full: a text that is not in it is history
        self.newest: str | None = kb.releases[-1].date if kb.releases else None
        self._history: frozenset[str] = frozenset(u.id for u in self.units if self._is_history(u))
        self._all: list[UnitText] = []
        for unit in self.units:
            rule, ruling = self.owner(unit)
            release = rule.release if rule else ruling.date if ruling else None
            history = unit.id in self._history
            for lang in self.languages:
                for i, variant in enumerate(unit.variants.get(lang, ())):
                    if history and lang == SOURCE_LANGUAGE:
                        continue  # an English text of former releases only: faithful to them, not checked
                    # a text of a rules release belongs to the last release that has it
                    self._all.append(UnitText(unit, lang, i, variant, rule, ruling,
                                              variant.releases[-1] if variant.releases else release))
        self._canonical: tuple[UnitText, ...] = tuple(t for t in self._all if t.index == 0)
        self._selections: dict[tuple[object, bool], tuple[UnitText, ...]] = {}
        self._names = {lang.code: lang.english_name for lang in reversed(kb.languages)}
        self._cache: dict[tuple[str, ...], object] = {}
        self._unit_by_id: dict[str, Unit] = {u.id: u for u in self.units}

    def all_texts(self) -> tuple[UnitText, ...]:
        """Every text the checks read (every variant; not the English of history), in KB order."""
        return tuple(self._all)

    def unit(self, unit_id: str) -> Unit | None:
        return self._unit_by_id.get(unit_id)

    def _is_history(self, unit: Unit) -> bool:
        english = unit.text(SOURCE_LANGUAGE)
        return (self.newest is not None and english is not None and bool(english.releases)
                and self.newest not in english.releases)

    def is_history(self, unit: Unit) -> bool:
        """Whether the unit's English is that of former rules releases only (a subrule or rule the
        newest imported release no longer has): history, which the versions section shows; it is
        neither checked in English nor counted as untranslated."""
        return unit.id in self._history

    def lang(self, code: str) -> Lang:
        """A language as a message names it (in the reader's language)."""
        return Lang(code, self.language_name(code))

    def published(self, t: UnitText) -> bool:
        """Whether a text is published (official): kept verbatim, defects included."""
        return t.variant.status is Status.OFFICIAL

    def owner(self, unit: Unit) -> tuple[Rule | None, Ruling | None]:
        """The rule or the ruling that holds `unit` (`KnowledgeBase.owner`), as (rule, None) or (None, ruling)."""
        found = self.kb.owner(unit.id)
        return (found, None) if isinstance(found, Rule) else (None, found)

    def texts(self, langs: Sequence[str] | None = None, *, variants: bool = False) -> Iterator[UnitText]:
        """Canonical texts (every variant with `variants`), of `langs` (default: all), in KB order."""
        if langs is None and not variants:
            return iter(self._canonical)
        key = (langs if langs is None or isinstance(langs, str) else tuple(langs), variants)
        found = self._selections.get(key)
        if found is None:
            found = tuple(t for t in (self._all if variants else self._canonical) if langs is None or t.lang in langs)
            self._selections[key] = found
        return iter(found)

    def translations(self) -> Iterator[tuple[UnitText, Variant]]:
        """Canonical translations that have an English text, with that English."""
        for t in self.texts(self.targets):
            english = t.english
            if english is not None:
                yield t, english

    def english_text(self, t: UnitText) -> UnitText | None:
        english = t.english
        if english is None:
            return None
        rule, ruling = self.owner(t.unit)
        return UnitText(t.unit, SOURCE_LANGUAGE, 0, english, rule, ruling, t.release)

    def terms(self, t: UnitText) -> tuple[TermMatch, ...]:
        """The termbase's terms in a text (`Data.terms`: made once per run)."""
        return self.data.terms(t.text, t.lang)

    def refs(self, t: UnitText) -> tuple[Reference, ...]:
        """The rule references of a text (`Data.refs`: made once per run)."""
        return self.data.refs(t.text)

    def english_hash(self, unit: Unit) -> str | None:
        """english_hash() of the unit's canonical English (cached), None without English."""
        key = ("hash", unit.id)
        if key not in self._cache:
            english = unit.text(SOURCE_LANGUAGE)
            self._cache[key] = english_hash(english.text) if english else None
        return self._cache[key]  # type: ignore[return-value]

    def translated_in(self, rule: Rule, lang: str) -> int:
        """How many units of `rule` have a text in `lang`."""
        key = ("translated", rule.id, lang)
        found = self._cache.get(key)
        if found is None:
            units = self._rule_units.get(rule.id)
            found = sum(1 for u in (rule.units if units is None else units) if lang in u.variants)
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def language_name(self, code: str) -> str:
        return self._names.get(code, code)


def quote(text: str, start: int = 0, end: int | None = None, width: int = 30) -> str:
    """The fragment text[start:end] with a little context, for a message: '… eine Länderkarte ab …'."""
    end = len(text) if end is None else end
    left = max(0, start - width)
    right = min(len(text), end + width)
    if left > 0:
        space = text.find(" ", left, start)
        left = space + 1 if space != -1 else left
    if right < len(text):
        space = text.rfind(" ", end, right)
        right = space if space != -1 else right
    frag = text[left:right].strip()
    return ("…" if left > 0 else "") + frag + ("…" if right < len(text) else "")


# ------------------------------------------------------------------ registry


CheckFunction = Callable[[Context], Iterable[Issue]]


@dataclass(frozen=True)
class Check:
    """A registered cross-text check: a stable code ("<family>.<name>"; waivers and CI scripts name
    it), a title, a severity and a function of the run's `Context` (the whole knowledge base)
    yielding `Issue`s."""
    code: str
    title: str
    severity: Severity
    run: CheckFunction
    # False: its fix leaves the words of the text as they are (confirm translated_from, add the
    # English original), so on a published text it asks for no new canonical text
    edits_text: bool = True

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]


@dataclass(frozen=True)
class Waived:
    finding: Finding
    reason: str
    waiver_file: str
    waiver_line: int
