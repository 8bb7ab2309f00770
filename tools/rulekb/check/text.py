"""The vocabulary of the by-text checks (stage: check, load -> validate -> link -> check -> render ->
report): what such a check sees (`Text`, one text with its English, and `Data`, the read-only data
every text is checked against), what it reports (`Flag`) and how it is registered (`TextCheck`).

A by-text check is a pure function ``check(t: Text, data: Data) -> Iterator[Flag]``: what it finds
in a text depends on that text, its English and `Data` alone — not on the knowledge base, not on
any other text, not on which other checks run. So the driver (`rulekb.check.driver`) can run every
such check in one loop over the texts, keep their findings per data file between runs, and run
them on a single English/translation pair from the command line (``rulekb check --english …
--translation …``); and a test calls one with two strings.

Where two checks would report one defect twice, a check says so on its flag (`Flag.covered_by`:
the code of the check whose finding on the same text says it already); the driver drops such a
flag when that check runs and has a finding on the text. The check itself never asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Hashable, Iterable, Mapping, TypeVar

from ..cardnames import CardNames
from ..models import SOURCE_LANGUAGE, Lang, Message, Severity, Status, UnitKind
from ..phraseology import Phraseology
from ..refs import Reference, find_references
from ..termbase import Termbase, TermMatch

T = TypeVar("T")

__all__ = ["Text", "Data", "Flag", "TextCheck", "TextCheckFunction"]


@dataclass(frozen=True)
class Text:
    """One text of one unit in one language, with the English it is compared with. A value: two
    equal texts get the same findings."""

    entry: str                # the unit's id
    label: str                # how a message names the unit ("702.78a", "ruling 7")
    kind: UnitKind
    lang: str
    text: str
    english: str | None       # the unit's canonical English today (None: the unit has none)
    source: str | None        # a translation's English as it was made from it: the older English a stale
                              # translation records when the knowledge base keeps it, else `english`
    file: str = "<command line>"
    line: int = 1
    index: int = 0            # which of the unit's texts in `lang` (0: the canonical one)
    canonical: str | None = None  # the canonical text in `lang`, for a text beside it (index > 0)
    origin: str = ""          # the source of the text (sources.yaml), for a message on a variant
    status: Status = Status.DRAFT
    release: str | None = None    # the rules release (date) the text belongs to
    in_release: bool = False  # an English text of a rules release (that release's wording by definition)

    @property
    def is_translation(self) -> bool:
        """A canonical translation with an English to compare it with."""
        return self.lang != SOURCE_LANGUAGE and self.index == 0 and self.english is not None


# Every rule reference holds a section number: three digits, the first not 0 (refs._RULE_NUMBER).
_SECTION_DIGITS = re.compile(r"[1-9][0-9][0-9]")


@dataclass(frozen=True)
class Data:
    """The read-only data every text is checked against: the termbase, the official phraseology,
    the project's languages (codes, and their English names for messages). `official_names` is
    reserved for the official names of cards and keywords (None: not loaded).

    What is derived from one string alone (the termbase's terms in it, its rule references, the
    language model's verdicts) is computed once per run and string (`derived`): several checks read
    it, and a translation's English is read by each of its languages."""

    termbase: Termbase
    phraseology: Phraseology
    languages: tuple[str, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    official_names: object | None = None
    keywords: tuple = ()      # the keywords' official names (`meaningchecks.keyword_table`)
    cards: tuple = field(default=(), compare=False, repr=False)   # the knowledge base's cards (`card_names`)
    _derived: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple(code for code in self.languages if code != SOURCE_LANGUAGE)

    def lang(self, code: str) -> Lang:
        """A language as a message names it (in the reader's language)."""
        return Lang(code, self.names.get(code, code))

    def derived(self, kind: str, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, computed once per run for `kind` and `key` (a pure function of them)."""
        k = (kind, key)
        found = self._derived.get(k, _MISSING)
        if found is _MISSING:
            found = self._derived[k] = make()
        elif isinstance(found, _Kept):
            found = self._derived[k] = found.make()
        return found  # type: ignore[no-any-return]

    def keep(self, kind: str, key: Hashable, make: Callable[[], object]) -> None:
        """Take `make()` as what `derived(kind, key, …)` makes, made when first asked for (the
        driver's per-file cache kept what it is made from)."""
        self._derived.setdefault((kind, key), _Kept(make))

    def terms(self, text: str, lang: str) -> tuple[TermMatch, ...]:
        """The termbase's terms in a text of `lang`."""
        return self.derived("terms", (lang, text), lambda: tuple(self.termbase.find_terms(text, lang)))

    def card_names(self, text: str, lang: str) -> tuple[tuple[int, int], ...]:
        """Where a text names a card (`cardnames.CardNames`: the cards' names of several words)."""
        names = self.derived("card-names", lang, lambda: CardNames.of(self.cards, (lang,)))
        return self.derived("card-names-in", (lang, text), lambda: names.spans(text, lang))

    def refs(self, text: str) -> tuple[Reference, ...]:
        """The rule references of a text (a text without a section number holds none)."""
        if not _SECTION_DIGITS.search(text):
            return ()
        return self.derived("refs", text, lambda: tuple(find_references(text)))


_MISSING = object()


@dataclass(frozen=True)
class _Kept:
    make: Callable[[], object]


@dataclass(frozen=True)
class Flag:
    """What a by-text check found in a text: what (`msg`), what to do (`fix`), the span of the text
    it is about (and every occurrence it counts, `spans`), how bad where the check grades it
    (`severity`; None: the check's own), the check whose finding on the same text would say it
    already (`covered_by`; "" none), and the spans of the English it is about (`english`: the words
    the translation replaced, or left out). A flag on what the translation leaves out has no span in
    it; with `english`, the merge joins it to the flag on the word said in its place ("adversaire"
    for "another player": the "another" left out is that one defect)."""

    msg: Message
    fix: Message
    span: tuple[int, int] | None = None
    spans: tuple[tuple[int, int], ...] = ()
    severity: Severity | None = None
    covered_by: str = ""
    english: tuple[tuple[int, int], ...] = ()


def flag(message: Message | str, fix: Message | str, *, span: tuple[int, int] | None = None,
         spans: tuple[tuple[int, int], ...] = (), severity: Severity | None = None, covered_by: str = "",
         english: tuple[tuple[int, int], ...] = ()) -> Flag:
    return Flag(_msg(message), _msg(fix), span, spans, severity, covered_by, english)


def _msg(value: Message | str) -> Message:
    return value if isinstance(value, Message) else Message(value)


TextCheckFunction = Callable[[Text, Data], Iterable[Flag]]


@dataclass(frozen=True)
class TextCheck:
    """A registered by-text check: a stable code ("<family>.<name>"; waivers and CI scripts name
    it), a title, a severity and the pure function."""
    code: str
    title: str
    severity: Severity
    run: TextCheckFunction
    # False: its fix leaves the words of the text as they are (confirm translated_from, add the
    # English original), so on a published text it asks for no new canonical text
    edits_text: bool = True

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]
