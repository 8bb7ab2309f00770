"""Pipeline stage 4 of 6 (load -> validate -> link -> check -> render -> report): translation QA.

Checks are small functions, one module per family (coverage, staleness, structure, meaning, references,
numbers, terminology, phraseology, language, duplicates, typography, sources), registered explicitly
in their module's `CHECKS` with a stable code ("terminology.deprecated"), a title and a severity.
Most are by-text checks (`text.TextCheck`): a pure function of one text, its English and the
read-only shared data (`text.Data`: the termbase, the official phraseology), which the driver
(`rulekb.check.driver`) runs in one loop over the texts, keeps per data file between runs, and runs
on one English/translation pair from the command line. The others compare texts across the
knowledge base (duplicates, coverage, references to other releases, inconsistent terms, sources,
staleness) and read the run's `Context` (`base.Check`).

A check yields what it found (`Flag`, `Issue`: the span of the text, what and what to do as `M_`
messages, English msgids of the UI catalogs rendered in en/de/fr by the reports); `stamp` makes a
`Finding` of it (the issue's own severity where the check grades it; a published English text is
not reported: it asks for no change), the waivers of ``translations/qa-waivers.yaml`` apply, and
`merge_findings` merges the findings on one span of one text into one (one defect, one finding).
Named profiles select checks: ``full`` (all), ``ci`` (errors and warnings), and one per family.
Adding a check is one function in its family module plus one line in that module's `CHECKS`;
adding a language is one entry in ``translations/languages.yaml`` (and, for locale rules such as
quotation marks, one entry in the family's locale table).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Iterable, Mapping, Sequence, Union

from ..diagnostics import DataError, Problem, did_you_mean
from ..models import SOURCE_LANGUAGE, M_, Finding, Message, Severity, Status
# The vocabulary of checks, re-exported: `from rulekb.check import Context, Issue` keeps working.
from .base import Check, CheckFunction, Context, Issue, UnitText, Waived, quote  # noqa: F401
from .text import Data, Flag, Text, TextCheck  # noqa: F401

AnyCheck = Union[Check, TextCheck]


def _registry() -> tuple[AnyCheck, ...]:
    from . import (coverage, duplicates, language, meaning, meaningchecks, numbers, phraseology, references, sources,
                   staleness, structure, terminology, typography)
    checks: list[AnyCheck] = []
    for module in (coverage, staleness, structure, meaning, meaningchecks, references, numbers, terminology,
                   phraseology, language,
                   duplicates, typography, sources):
        checks.extend(module.CHECKS)
    codes = Counter(c.code for c in checks)
    dup = [code for code, n in codes.items() if n > 1]
    if dup:  # a programming error, caught by the tests
        raise AssertionError(f"check codes registered twice: {dup}")
    return tuple(checks)


FAMILIES = ("coverage", "staleness", "structure", "meaning", "references", "numbers", "terminology", "phraseology", "language",
            "duplicates", "typography", "sources", "waivers")

_CHECKS: tuple[AnyCheck, ...] | None = None


def all_checks() -> tuple[AnyCheck, ...]:
    global _CHECKS
    if _CHECKS is None:
        from .waivers import UNMATCHED
        _CHECKS = _registry() + (UNMATCHED,)
    return _CHECKS


def check(code: str) -> AnyCheck:
    for c in all_checks():
        if c.code == code:
            return c
    raise KeyError(code)


def profile_names() -> tuple[str, ...]:
    """The names of `profiles()`, without importing the checks (the command line lists them)."""
    return ("full", "ci") + FAMILIES


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


_SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_findings(findings: Iterable[Finding], languages: Sequence[str]) -> tuple[Finding, ...]:
    """The findings in report order (language, file, line, entry, severity, code, text), each
    once. The sort key holds every field of a finding: equal keys are equal findings, so the
    duplicates are the neighbours with the same key."""
    order = {code: i for i, code in enumerate(languages)}
    last = len(order)
    keyed = sorted((((order.get(f.lang, last), f.lang, f.file, f.line, f.entry, _SEVERITY_ORDER[f.severity], f.code,
                      f.message, f.suggestion), f) for f in findings), key=itemgetter(0))
    out = []
    previous = None
    for key, f in keyed:
        if key != previous:
            out.append(f)
            previous = key
    return tuple(out)


def _summary(findings: Sequence[Finding], waived: Sequence[Waived], langs: Sequence[str]) -> dict[str, object]:
    counts = Counter((f.code, f.lang, f.severity) for f in findings)  # one pass; the rest adds up these
    by_family: dict[str, dict[str, int]] = {}
    by_code: Counter[str] = Counter()
    severities: Counter[Severity] = Counter()
    for (code, lang, severity), n in counts.items():
        row = by_family.setdefault(code.split(".", 1)[0], dict.fromkeys(langs, 0))
        row[lang] = row.get(lang, 0) + n
        by_code[code] += n
        severities[severity] += n
    return {
        "findings": len(findings),
        "errors": severities[Severity.ERROR],
        "warnings": severities[Severity.WARNING],
        "info": severities[Severity.INFO],
        "waived": len(waived),
        "by_family": {k: dict(sorted(v.items())) for k, v in sorted(by_family.items())},
        "by_code": dict(sorted(by_code.items())),
        "exit_code": 1 if severities[Severity.ERROR] else 0,
    }


PUBLISHED = (Status.OFFICIAL, Status.COMMUNITY)   # kept verbatim, defects included (README, Data model)

# the families that report on a published English text: what the sources say of each other, what
# is translated; every other finding on one would ask for nothing (it is kept verbatim)
_ON_PUBLISHED_ENGLISH = ("waivers", "sources", "coverage")


def asks_nothing(lang: str, status: Status | None) -> bool:
    """Whether the by-text checks' findings on a text would ask nobody for anything: a published
    English text (official or community) is kept verbatim, its defects included. What concerns its
    translators (today's term for an old one) is a comment of its unit in the PO export
    (`rulekb.termnotes`), not a finding."""
    return lang == SOURCE_LANGUAGE and status in PUBLISHED


def stamp(ctx: Context, check: AnyCheck, issue: Issue) -> Finding | None:
    """The finding of an issue of a cross-text check (`stamp_status`, the status of the text it is on)."""
    unit = ctx.unit(issue.entry)
    texts = unit.variants.get(issue.lang, ()) if unit is not None else ()
    variant = texts[issue.index] if issue.index < len(texts) else None
    return stamp_status(check, issue, variant.status if variant is not None else None)


def stamp_status(check: AnyCheck, issue: Issue, status: Status | None) -> Finding | None:
    """The finding of an issue: the check's code, the issue's severity (else the check's); None for
    an issue on a published English text (`asks_nothing`), but for the families that report on
    one (`_ON_PUBLISHED_ENGLISH`). On a published translation, a fix that rewrites the text goes
    into a new canonical text (`edits_text`). `status`: that of the text the issue is on (None: no text)."""
    severity = issue.severity or check.severity
    fix = issue.fix
    if status in PUBLISHED and check.family not in _ON_PUBLISHED_ENGLISH:
        if asks_nothing(issue.lang, status):
            return None
        if check.edits_text and issue.index:
            fix = M_("{fix} (this published text is not the canonical one and stays as it is; should it become "
                     "canonical, make it so corrected, as a new text)", fix=fix)
        elif check.edits_text:
            fix = M_("{fix} (in a new canonical text; the published one stays as a variant with its source)", fix=fix)
    return Finding(check.code, severity, issue.lang, issue.entry, issue.file, issue.line, issue.msg.render(),
                   fix.render(), issue.msg, fix, (), issue.span, issue.spans, issue.english)


def merge_findings(findings: Sequence[Finding], order: Mapping[str, int]) -> list[Finding]:
    """One defect, one finding: the findings on one text (unit and language) whose spans overlap
    become one, under the code of the gravest (then the first registered), with every reason in
    its message and the codes of the others in `also`; its fix is the gravest one's. A finding
    that counts several occurrences ("'spielt' (4 times)") overlaps wherever one of them does
    (`Finding.spans`). On a text that lacks a sentence, what it lacks is one finding
    (`_missing_sentences`); a word the text leaves out joins the finding on the word it says in
    its place (`_said_instead`)."""
    by_text: dict[tuple[str, str], list[Finding]] = {}
    out: list[Finding] = []
    for f in _said_instead(_missing_sentences(findings, order)):
        if f.span is None:
            out.append(f)
        else:
            by_text.setdefault((f.lang, f.entry), []).append(f)
    for items in by_text.values():
        # every occurrence of every finding, in text order; overlapping ones join their findings
        spans = sorted((a, b, i) for i, f in enumerate(items) for a, b in (f.spans or (f.span,)))  # type: ignore[misc]
        root = list(range(len(items)))
        end, anchor = -1, -1
        for a, b, i in spans:
            if a < end:   # overlaps the run of occurrences so far: one defect
                root[_root(root, i)] = _root(root, anchor)
                end = max(end, b)
            else:
                end, anchor = b, i
        clusters: dict[int, list[int]] = {}
        for _a, _b, i in spans:
            members = clusters.setdefault(_root(root, i), [])
            if i not in members:
                members.append(i)
        out.extend(_merged([items[i] for i in cluster], order) for cluster in clusters.values())
    return out


# the families whose findings without a place in the text say that something of the English is
# missing from it (a negation, a number, a qualifier, a reference, a term): what a missing sentence
# explains. A stale or untranslated text, a wrong language or typography are defects of their own.
_EXPLAINED_BY_A_MISSING_SENTENCE = ("meaning", "numbers", "references", "structure", "terminology")


# a sentence may be missing; the text is far too short (which `meaning.sentences` leaves to it)
_SHORT = ("meaning.sentences", "structure.length")


def _missing_sentences(findings: Sequence[Finding], order: Mapping[str, int]) -> list[Finding]:
    """One dropped sentence, one finding: on a text where a sentence may be missing
    (`meaning.sentences`, or `structure.length`: far too short), the findings without a place in the text that say something of the
    English is missing join it (under the gravest's code, the others in `also`)."""
    short = {(f.lang, f.entry) for f in findings if f.code in _SHORT and f.span is None}
    if not short:
        return list(findings)
    joined: dict[tuple[str, str], list[Finding]] = {}
    out: list[Finding] = []
    for f in findings:
        if (f.lang, f.entry) in short and f.span is None and f.code.split(".", 1)[0] in _EXPLAINED_BY_A_MISSING_SENTENCE:
            joined.setdefault((f.lang, f.entry), []).append(f)
        else:
            out.append(f)
    out.extend(_merged(cluster, order) for cluster in joined.values())
    return out


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two spans of the English overlap or stand side by side (at most one blank between
    them: "another" and "player" of "another player")."""
    return a[0] <= b[1] + 1 and b[0] <= a[1] + 1


def _said_instead(findings: Sequence[Finding]) -> list[Finding]:
    """One substitution, one finding: a finding on words of the English that a text leaves out
    (no span in the text, its English spans known: a qualifier lost, a term missing) whose English
    words touch those of a finding on the words the text says in their place ("adversaire" for
    "another player": the lost "another"; "alternative Kosten" for "an additional cost": the
    missing term 'additional cost') takes that finding's place in the text, so that the merge
    joins them."""
    said: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        if f.span is not None and f.english:
            said.setdefault((f.lang, f.entry), []).append(f)
    if not said:
        return list(findings)
    out: list[Finding] = []
    for f in findings:
        if f.span is None and f.english and (f.lang, f.entry) in said:
            instead = next((g for g in said[(f.lang, f.entry)]
                            if any(_touch(a, b) for a in f.english for b in g.english)), None)
            if instead is not None:
                f = replace(f, span=instead.span, spans=())
        out.append(f)
    return out


def _root(root: list[int], i: int) -> int:
    """The finding that stands for the cluster of finding `i` (`merge_findings`)."""
    while root[i] != i:
        i = root[i]
    return i


def _merged(cluster: list[Finding], order: Mapping[str, int]) -> Finding:
    if len(cluster) == 1:
        return cluster[0]
    first, *others = sorted(cluster, key=lambda f: (_SEVERITY_ORDER[f.severity], order.get(f.code, len(order))))
    msg = M_("{first} — also: {others}", first=first.msg or Message(first.message),
             others=tuple(o.msg or Message(o.message) for o in others))
    if all(f.span is None for f in cluster):   # what is missing has no place (`_missing_sentences`)
        span, spans = None, ()
    else:
        span = (min(f.span[0] for f in cluster), max(f.span[1] for f in cluster))  # type: ignore[index]
        spans = tuple(sorted({s for f in cluster for s in (f.spans or (f.span,))}))  # type: ignore[misc]
    return Finding(first.code, first.severity, first.lang, first.entry, first.file, first.line, msg.render(),
                   first.suggestion, msg, first.fix, tuple(dict.fromkeys(o.code for o in others)), span,
                   spans if len(spans) > 1 else ())


from .coverage import Coverage  # noqa: E402,F811  (re-exported for type hints of CheckResult users)

__all__ = ["Check", "CheckResult", "Context", "Coverage", "Data", "Flag", "Issue", "Text", "TextCheck", "UnitText",
           "Waived", "all_checks", "check", "profiles", "quote", "resolve_profile"]
