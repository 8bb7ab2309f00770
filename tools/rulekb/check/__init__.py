"""Pipeline stage 4 of 6 (load -> validate -> link -> check -> render -> report): translation QA.

Checks are small functions, one module per family (coverage, staleness, structure, references,
numbers, terminology, language, duplicates, typography, sources). Each is registered below with
a stable code ("terminology.deprecated"), a title and a severity; a check yields `Issue`s (where,
what, what to do) and `run_checks` stamps them into `Finding`s with the check's code and
severity, applies the waivers of ``translations/qa-waivers.yaml`` and computes the coverage
matrix. Named profiles select checks: ``full`` (all), ``ci`` (errors and warnings), and one per
family. Adding a check is one function in its family module plus one `Check` line in that
module's `CHECKS`; adding a language is one entry in ``translations/languages.yaml`` (and, for
locale rules such as quotation marks, one entry in the family's locale table).

Every check reads the knowledge base and the termbase only: nothing is written, nothing is
fetched, and the same input gives the same findings in the same order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ..diagnostics import DataError, Problem, did_you_mean
from ..models import (SOURCE_LANGUAGE, Finding, KnowledgeBase, Rule, Ruling, Severity, Unit, Variant,
                      english_hash)
from ..refs import Reference, find_references
from ..termbase import Termbase, TermMatch, load_termbase
from .workers import run_split


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
        return self.ruling.mechanic if self.ruling else ""


@dataclass(frozen=True)
class Issue:
    """What a check found: where (language, unit, file, line), what, and what to do."""

    lang: str
    entry: str
    file: str
    line: int
    message: str
    suggestion: str

    @classmethod
    def at(cls, text: Text, message: str, suggestion: str) -> "Issue":
        return cls(text.lang, text.unit.id, text.variant.pos.file, text.variant.pos.line, message, suggestion)

    @classmethod
    def on_unit(cls, unit: Unit, lang: str, message: str, suggestion: str) -> "Issue":
        return cls(lang, unit.id, unit.pos.file, unit.pos.line, message, suggestion)


class Context:
    """The knowledge base, the termbase and per-text caches shared by all checks of one run."""

    def __init__(self, kb: KnowledgeBase, termbase: Termbase):
        self.kb = kb
        self.termbase = termbase
        self.languages: tuple[str, ...] = kb.language_codes
        self.targets: tuple[str, ...] = kb.target_languages
        owners: dict[str, tuple[Rule | None, Ruling | None]] = {}
        for rule in kb.rules:
            for unit in rule.units:
                owners[unit.id] = (rule, None)
        for ruling in kb.rulings:
            owners[ruling.unit.id] = (None, ruling)
        self._owners = owners
        self.units: tuple[Unit, ...] = kb.units()
        self._all: list[Text] = []
        for unit in self.units:
            rule, ruling = owners[unit.id]
            release = rule.release if rule else ruling.date if ruling else None
            for lang in self.languages:
                for i, variant in enumerate(unit.variants.get(lang, ())):
                    self._all.append(Text(unit, lang, i, variant, rule, ruling, release))
        self._terms: dict[tuple[str, str, int], tuple[TermMatch, ...]] = {}
        self.selected: frozenset[str] = frozenset()  # the codes of the checks that run
        self.cache: dict[tuple[str, ...], object] = {}  # per-run caches of the family modules

    def owner(self, unit: Unit) -> tuple[Rule | None, Ruling | None]:
        return self._owners[unit.id]

    def texts(self, langs: Sequence[str] | None = None, *, variants: bool = False) -> Iterator[Text]:
        """Canonical texts (every variant with `variants`), of `langs` (default: all), in KB order."""
        for t in self._all:
            if (variants or t.index == 0) and (langs is None or t.lang in langs):
                yield t

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
        key = (t.unit.id, t.lang, t.index)
        found = self._terms.get(key)
        if found is None:
            found = self.termbase.find_terms(t.text, t.lang)
            self._terms[key] = found
        return found

    def refs(self, t: Text) -> tuple[Reference, ...]:
        """The rule references of a text (cached: several families read them)."""
        key = ("refs", t.unit.id, t.lang, str(t.index))
        found = self.cache.get(key)
        if found is None:
            found = find_references(t.text)
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
            found = sum(1 for u in rule.units if lang in u.variants)
            self.cache[key] = found
        return found  # type: ignore[return-value]

    def language_name(self, code: str) -> str:
        return next((lang.english_name for lang in self.kb.languages if lang.code == code), code)


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
    code: str            # "<family>.<name>", stable: waivers and CI scripts name it
    title: str
    severity: Severity
    run: CheckFunction

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]


def _registry() -> tuple[Check, ...]:
    from . import (coverage, duplicates, language, numbers, references, sources, staleness, structure,
                   terminology, typography)
    checks: list[Check] = []
    for module in (coverage, staleness, structure, references, numbers, terminology, language,
                   duplicates, typography, sources):
        checks.extend(module.CHECKS)
    codes = Counter(c.code for c in checks)
    dup = [code for code, n in codes.items() if n > 1]
    if dup:  # a programming error, caught by the tests
        raise AssertionError(f"check codes registered twice: {dup}")
    return tuple(checks)


FAMILIES = ("coverage", "staleness", "structure", "references", "numbers", "terminology", "language",
            "duplicates", "typography", "sources", "waivers")

_CHECKS: tuple[Check, ...] | None = None


def all_checks() -> tuple[Check, ...]:
    global _CHECKS
    if _CHECKS is None:
        from .waivers import UNMATCHED
        _CHECKS = _registry() + (UNMATCHED,)
    return _CHECKS


def check(code: str) -> Check:
    for c in all_checks():
        if c.code == code:
            return c
    raise KeyError(code)


def profiles() -> Mapping[str, tuple[str, ...]]:
    """Named selections of check codes: full, ci, and one per family."""
    checks = all_checks()
    out: dict[str, tuple[str, ...]] = {
        "full": tuple(c.code for c in checks),
        "ci": tuple(c.code for c in checks if c.severity is not Severity.INFO),
    }
    for family in FAMILIES:
        out[family] = tuple(c.code for c in checks if c.family == family)
    return out


PROFILE_HELP = {
    "full": "every check, informational ones included",
    "ci": "the checks of error and warning severity (the CI verdict; no informational notes)",
}


def resolve_profile(name: str) -> tuple[str, ...]:
    known = profiles()
    if name not in known:
        raise DataError([Problem("<command line>", 1, 1, f"unknown check profile '{name}'",
                                 did_you_mean(name, known) or f"use one of {', '.join(known)}")])
    return known[name]


# ------------------------------------------------------------------ running


@dataclass(frozen=True)
class Waived:
    finding: Finding
    reason: str
    waiver_file: str
    waiver_line: int


@dataclass(frozen=True)
class CheckResult:
    findings: tuple[Finding, ...]          # after waivers, sorted
    waived: tuple[Waived, ...]             # the findings the waivers accepted, sorted
    coverage: "Coverage"
    summary: Mapping[str, object]
    profile: str
    langs: tuple[str, ...]                 # the languages reported

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0

    def for_lang(self, lang: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.lang == lang)


# From this many units on (the full Comprehensive Rules: ~6,600), `run_checks` runs the families
# of WORKER_FAMILIES in a second process (see workers.py): about half of the checks' time.
# `terminology.untranslated` reads the language family's verdicts, so they run together.
PARALLEL_UNITS = 2000
WORKER_FAMILIES = frozenset({"language", "terminology"})

_SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_findings(findings: Iterable[Finding], languages: Sequence[str]) -> tuple[Finding, ...]:
    order = {code: i for i, code in enumerate(languages)}
    return tuple(sorted(set(findings), key=lambda f: (order.get(f.lang, len(order)), f.lang, f.file, f.line,
                                                       f.entry, _SEVERITY_ORDER[f.severity], f.code,
                                                       f.message, f.suggestion)))


def _summary(findings: Sequence[Finding], waived: Sequence[Waived], langs: Sequence[str]) -> dict[str, object]:
    by_family: dict[str, dict[str, int]] = {}
    for f in findings:
        family = f.code.split(".", 1)[0]
        row = by_family.setdefault(family, {lang: 0 for lang in langs})
        row[f.lang] = row.get(f.lang, 0) + 1
    return {
        "findings": len(findings),
        "errors": sum(1 for f in findings if f.severity is Severity.ERROR),
        "warnings": sum(1 for f in findings if f.severity is Severity.WARNING),
        "info": sum(1 for f in findings if f.severity is Severity.INFO),
        "waived": len(waived),
        "by_family": {k: dict(sorted(v.items())) for k, v in sorted(by_family.items())},
        "by_code": dict(sorted(Counter(f.code for f in findings).items())),
        "exit_code": 1 if any(f.severity is Severity.ERROR for f in findings) else 0,
    }


def run_checks(kb: KnowledgeBase, root: Path, *, profile: str = "full", langs: Iterable[str] | None = None,
               termbase: Termbase | None = None) -> CheckResult:
    """Run the checks of `profile` over the knowledge base of the project at `root` (its
    termbase and waivers are read from ``translations/``), report the findings of `langs`
    (default: every language). Raises DataError when the termbase or waivers do not load."""
    from .coverage import compute_coverage
    from .waivers import apply_waivers, load_waivers

    codes = set(resolve_profile(profile))
    wanted = tuple(kb.language_codes) if langs is None else tuple(langs)
    unknown = [lang for lang in wanted if lang not in kb.language_codes]
    if unknown:
        raise DataError([Problem("<command line>", 1, 1, f"unknown language '{unknown[0]}'",
                                 did_you_mean(unknown[0], kb.language_codes) or
                                 f"use one of {', '.join(kb.language_codes)}")])
    termbase = termbase if termbase is not None else load_termbase(root, kb)
    waivers = load_waivers(root, kb)
    ctx = Context(kb, termbase)
    selected = [c for c in all_checks() if c.code in codes and c.family != "waivers"]
    ctx.selected = frozenset(c.code for c in selected)
    parallel = len(ctx.units) >= PARALLEL_UNITS
    if any(c.family == "language" for c in selected):
        from .language import preload, wait_loaded
        preload()  # the language model loads in the background while the other checks run
        if parallel:
            wait_loaded()  # the forked worker needs it loaded

    def findings_of(c: Check) -> list[Finding]:
        return [Finding(c.code, c.severity, issue.lang, issue.entry, issue.file, issue.line, issue.message,
                        issue.suggestion) for issue in c.run(ctx) if issue.lang in wanted]

    found = run_split(sorted(selected, key=lambda c: c.family == "language"),  # the model's family last
                      findings_of, lambda c: c.family in WORKER_FAMILIES, fork=parallel)
    kept, waived, unmatched = apply_waivers(found, waivers, codes, wanted)
    if "waivers.unmatched" in codes:
        kept.extend(unmatched)
    findings = sort_findings(kept, kb.language_codes)
    waived_sorted = tuple(sorted(waived, key=lambda w: (sort_findings([w.finding], kb.language_codes), w.reason)))
    coverage = compute_coverage(ctx)
    return CheckResult(findings, waived_sorted, coverage, _summary(findings, waived_sorted, wanted), profile, wanted)


from .coverage import Coverage  # noqa: E402  (re-exported for type hints of CheckResult users)

__all__ = ["Check", "CheckResult", "Context", "Coverage", "Issue", "Text", "Waived", "all_checks", "check",
           "profiles", "quote", "resolve_profile", "run_checks"]
