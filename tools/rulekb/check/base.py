"""The vocabulary of the check stage (load -> validate -> link -> check -> render -> report):
what a check sees (`Text`, `Context`), what it reports (`Issue`), how it is registered (`Check`,
with its cost and the `Shared` data it reads) and what a waiver accepted (`Waived`).

Every family module (coverage, staleness, …) imports these from here, and `rulekb.check` imports
the families to build the registry: the imports run one way, with no cycle through the package.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from ..models import (SOURCE_LANGUAGE, M_, Finding, KnowledgeBase, Lang, Message, Rule, Ruling, Severity, Status,
                      Unit, Variant, english_hash)
from ..refs import Reference, find_references
from ..phraseology import Phraseology
from ..termbase import Termbase, TermMatch
from .memo import TextMemo, text_key

__all__ = ["Text", "Issue", "Context", "quote", "M_", "Message", "Lang", "Shared", "TERMS", "REFS", "MODEL", "VERDICTS", "Check",
           "CheckFunction", "Waived"]

# ------------------------------------------------------------------ what a check sees


@dataclass(frozen=True)
class Text:
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

    @property
    def message(self) -> str:
        return self.msg.render()

    @property
    def suggestion(self) -> str:
        return self.fix.render()

    @classmethod
    def at(cls, text: Text, message: Message | str, suggestion: Message | str, *,
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
    """The knowledge base, the termbase, the official phraseology and per-text caches shared by
    all checks of one run."""

    def __init__(self, kb: KnowledgeBase, termbase: Termbase, phraseology: Phraseology | None = None,
                 root: Path | None = None):
        self.kb = kb
        self.root = root.resolve() if root is not None else None   # the project: its per-text results are kept
        self.termbase = termbase
        self.phraseology = phraseology if phraseology is not None else Phraseology((), ())
        self.languages: tuple[str, ...] = kb.language_codes
        self.targets: tuple[str, ...] = kb.target_languages
        # (Rule.units is a property that builds the tuple: once per rule here)
        self._rule_units: dict[str, tuple[Unit, ...]] = {rule.id: rule.units for rule in kb.rules}
        self.units: tuple[Unit, ...] = (tuple(u for units in self._rule_units.values() for u in units)
                                        + tuple(ruling.unit for ruling in kb.rulings))  # as kb.units() lists them
        # the newest rules release imported in full: a text that is not in it is history
        self.newest: str | None = kb.releases[-1].date if kb.releases else None
        self._history: frozenset[str] = frozenset(u.id for u in self.units if self._is_history(u))
        self._all: list[Text] = []
        for unit in self.units:
            rule, ruling = self.owner(unit)
            release = rule.release if rule else ruling.date if ruling else None
            history = unit.id in self._history
            for lang in self.languages:
                for i, variant in enumerate(unit.variants.get(lang, ())):
                    if history and lang == SOURCE_LANGUAGE:
                        continue  # an English text of former releases only: faithful to them, not checked
                    # a text of a rules release belongs to the last release that has it
                    self._all.append(Text(unit, lang, i, variant, rule, ruling,
                                          variant.releases[-1] if variant.releases else release))
        self._canonical: tuple[Text, ...] = tuple(t for t in self._all if t.index == 0)
        self._selections: dict[tuple[object, bool], tuple[Text, ...]] = {}
        self._names = {lang.code: lang.english_name for lang in reversed(kb.languages)}
        self._terms: dict[tuple[str, str, int], tuple[TermMatch, ...]] = {}
        self.selected: frozenset[str] = frozenset()  # the codes of the checks that run
        self.cache: dict[tuple[str, ...], object] = {}  # per-run caches of the family modules
        self._unit_by_id: dict[str, Unit] = {u.id: u for u in self.units}
        # per-text results kept between runs (`rulekb.check.memo`): by kind, made on first use
        self._memos: dict[str, TextMemo] = {}
        self._text_keys: dict[tuple[str, int], bytes] = {}   # (language, id of the variant) -> text_key

    def part(self, files: frozenset[str]) -> "Context":
        """A context over the rules and rulings that the data files `files` hold, sharing this
        one's termbase, phraseology, selected checks and kept per-text results: the by-file checks
        run on it for the files that changed (`rulekb.check.byfile`)."""
        kb = dataclasses.replace(self.kb, rules=tuple(r for r in self.kb.rules if r.file in files),
                                 rulings=tuple(r for r in self.kb.rulings if r.unit.pos.file in files))
        part = Context(kb, self.termbase, self.phraseology, self.root)
        part.selected = self.selected
        part._memos = self._memos
        part._text_keys = self._text_keys
        return part

    def memo(self, kind: str, *inputs: str) -> TextMemo:
        """The kept results of `kind` (computed from the text, its language and `inputs`) of the
        project, read from the cache on first use; `save_memos` writes back what the run computed.
        A context made without its project's `root` keeps nothing."""
        found = self._memos.get(kind)
        if found is None:
            found = self._memos[kind] = TextMemo(kind, self.root, *inputs)
        return found

    def save_memos(self) -> None:
        """Keep the per-text results this process computed (`rulekb.check.memo`) for later runs."""
        for memo in self._memos.values():
            memo.save()

    def text_key(self, t: Text) -> bytes:
        """The key of a text's results in a memo: a hash of its language and characters (made once
        per text; the variants are the knowledge base's, alive for the whole run)."""
        key = (t.lang, id(t.variant))
        found = self._text_keys.get(key)
        if found is None:
            found = self._text_keys[key] = text_key(t.lang, t.text)
        return found

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

    def published(self, t: Text) -> bool:
        """Whether a text is published (official): kept verbatim, defects included."""
        return t.variant.status is Status.OFFICIAL

    def owner(self, unit: Unit) -> tuple[Rule | None, Ruling | None]:
        """The rule or the ruling that holds `unit` (`KnowledgeBase.owner`), as (rule, None) or (None, ruling)."""
        found = self.kb.owner(unit.id)
        return (found, None) if isinstance(found, Rule) else (None, found)

    def texts(self, langs: Sequence[str] | None = None, *, variants: bool = False) -> Iterator[Text]:
        """Canonical texts (every variant with `variants`), of `langs` (default: all), in KB order."""
        if langs is None and not variants:
            return iter(self._canonical)
        key = (langs if langs is None or isinstance(langs, str) else tuple(langs), variants)
        found = self._selections.get(key)
        if found is None:
            found = tuple(t for t in (self._all if variants else self._canonical) if langs is None or t.lang in langs)
            self._selections[key] = found
        return iter(found)

    def translations(self) -> Iterator[tuple[Text, Variant]]:
        """Canonical translations that have an English text, with that English."""
        for t in self.texts(self.targets):
            english = t.english
            if english is not None:
                yield t, english

    def english_text(self, t: Text) -> Text | None:
        english = t.english
        if english is None:
            return None
        rule, ruling = self.owner(t.unit)
        return Text(t.unit, SOURCE_LANGUAGE, 0, english, rule, ruling, t.release)

    def terms(self, t: Text) -> tuple[TermMatch, ...]:
        """The termbase's terms in a text (cached; kept between runs by the text's hash, for
        this termbase: `terms_memo`)."""
        key = (t.unit.id, t.lang, t.index)
        found = self._terms.get(key)
        if found is None:
            rows = self._terms_memo().get(self.text_key(t), lambda: self._term_rows(t))
            if rows:
                table = self._term_table(t.lang)
                found = tuple(TermMatch(start, end, concept, table[concept][i]) for start, end, concept, i in rows)
            else:
                found = ()
            self._terms[key] = found
        return found

    def _terms_memo(self) -> TextMemo:
        memo = self._memos.get("terms")
        if memo is None:
            # the termbase's concepts decide what is found: their repr is their every field
            memo = self.memo("terms", repr(self.termbase.concepts))
        return memo

    def _term_table(self, lang: str) -> dict[str, tuple]:
        """Concept id -> its terms in `lang` (what a kept match's index points into)."""
        key = ("term-table", lang)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = {c.id: c.terms.get(lang, ()) for c in self.termbase.concepts}
        return found  # type: ignore[return-value]

    def _term_rows(self, t: Text) -> tuple[tuple[int, int, str, int], ...]:
        """The terms of a text as kept: (start, end, concept id, the term's index in the concept's
        terms of the language)."""
        key = ("term-index", t.lang)
        index = self.cache.get(key)
        if index is None:   # id of a term -> its place in its concept's terms of the language
            index = self.cache[key] = {id(term): i for terms in self._term_table(t.lang).values()
                                       for i, term in enumerate(terms)}
        return tuple((m.start, m.end, m.concept_id, index[id(m.term)])  # type: ignore[index]
                     for m in self.termbase.find_terms(t.text, t.lang))

    def refs(self, t: Text) -> tuple[Reference, ...]:
        """The rule references of a text (cached: several families read them; kept between runs
        by the text's hash). A reference holds a section number (three digits): the many texts
        without one are not parsed."""
        key = ("refs", t.unit.id, t.lang, str(t.index))
        found = self.cache.get(key)
        if found is None:
            if _SECTION_DIGITS.search(t.text):
                found = self.memo("refs").get(self.text_key(t), lambda: find_references(t.text))
            else:
                found = ()
            self.cache[key] = found
        return found  # type: ignore[return-value]

    def english_hash(self, unit: Unit) -> str | None:
        """english_hash() of the unit's canonical English (cached), None without English."""
        key = ("hash", unit.id)
        if key not in self.cache:
            english = unit.text(SOURCE_LANGUAGE)
            self.cache[key] = english_hash(english.text) if english else None
        return self.cache[key]  # type: ignore[return-value]

    def translated_in(self, rule: Rule, lang: str) -> int:
        """How many units of `rule` have a text in `lang`."""
        key = ("translated", rule.id, lang)
        found = self.cache.get(key)
        if found is None:
            units = self._rule_units.get(rule.id)
            found = sum(1 for u in (rule.units if units is None else units) if lang in u.variants)
            self.cache[key] = found
        return found  # type: ignore[return-value]

    def language_name(self, code: str) -> str:
        return self._names.get(code, code)


# Every rule reference holds a section number: three digits, the first not 0 (refs._RULE_NUMBER).
_SECTION_DIGITS = re.compile(r"[1-9][0-9][0-9]")


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
class Shared:
    """Data of a run that several checks read (cached in the `Context`): made once in each
    process that runs one of those checks. `cost`: milliseconds on the whole rules, like a
    check's; `needs`: the shared data it is made from."""
    name: str
    cost: float
    needs: tuple["Shared", ...] = ()

    def closure(self) -> frozenset["Shared"]:
        return frozenset({self}).union(*(n.closure() for n in self.needs))


# Costs measured with benchmarks/check_costs.py on the complete data (every rules release, all
# cards and rulings: where the checks run in two processes); only their ratios matter: they
# balance the checks over the processes of a run (`plan`).
TERMS = Shared("the termbase's terms found in every text (Context.terms)", 215)
REFS = Shared("the rule references of every text (Context.refs)", 90)
# The model loads (236 ms) only for a text whose verdicts are not kept (`check.memo`): none in a run
# after an edit that added no sentence the pre-screen leaves to it, the run these figures balance.
MODEL = Shared("the language model, loaded (rulekb.langid, numpy's import)", 1)
VERDICTS = Shared("the language of every sentence the pre-screen leaves (language._judge_all)", 47, (REFS, MODEL))


@dataclass(frozen=True)
class Check:
    """A registered check: a pure function of the run's `Context` (the knowledge base, the
    termbase, the selected checks) yielding `Issue`s, with what it costs to run."""
    code: str            # "<family>.<name>", stable: waivers and CI scripts name it
    title: str
    severity: Severity
    run: CheckFunction
    cost: float = 1.0                  # milliseconds on the whole rules, the shared data made (see TERMS)
    needs: tuple[Shared, ...] = ()     # the shared data it reads
    # True: what it finds in a text depends only on the data file that holds the text's rule or ruling
    # and on the files that hold none (termbase, languages, sources, releases, cards): it reads no
    # other unit, rule or ruling, nor which other checks run (`Context.selected`). Its findings are kept
    # per file between runs (`rulekb.check.byfile`).
    by_file: bool = False

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]

    def shared(self) -> frozenset[Shared]:
        return frozenset().union(*(n.closure() for n in self.needs))


@dataclass(frozen=True)
class Waived:
    finding: Finding
    reason: str
    waiver_file: str
    waiver_line: int
