"""Pipeline stage 4 of 6 (load -> validate -> link -> check -> render -> report): translation QA.

Checks are small functions, one module per family (coverage, staleness, structure, meaning, references,
numbers, terminology, phraseology, language, duplicates, typography, sources). Each is registered below with
a stable code ("terminology.deprecated"), a title and a severity; a check yields `Issue`s (where,
the span of the text, what and what to do as `M_` messages: English msgids of the UI catalogs,
rendered in en/de/fr by the reports) and `run_checks` stamps them into `Finding`s (`stamp`: the
issue's own severity where the check grades it; a published English text is info and asks for no
change), applies the waivers of ``translations/qa-waivers.yaml``, merges the findings on one span
of one text into one (`merge_findings`: one defect, one finding) and computes the coverage (the
backlog as figures). Named profiles select checks: ``full`` (all), ``ci`` (errors and warnings), and one per
family. Adding a check is one function in its family module plus one `Check` line in that
module's `CHECKS`, with its cost (benchmarks/check_costs.py measures it), the shared data it
reads and, when it looks at one unit at a time, ``by_file=True`` (its findings are then kept per
data file between runs, `check.byfile`; tests/check/test_check_byfile.py holds it to that);
adding a language is one entry in ``translations/languages.yaml`` (and, for
locale rules such as quotation marks, one entry in the family's locale table).

Every check is a pure function of its `Context` (the knowledge base, the termbase, the selected
checks): nothing is written, nothing is fetched, the same input gives the same findings in the
same order, and a check can be tested on a knowledge base of one English/translation pair. So
`run_checks` may spread the checks over processes (`rulekb.parallel`), balanced by the cost
each registry entry records.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..diagnostics import DataError, Problem, did_you_mean
from ..knowledge import ProjectFiles, collection_paused
from ..models import SOURCE_LANGUAGE, M_, Finding, KnowledgeBase, Message, Severity, Status
from ..phraseology import Phraseology, load_phraseology
from ..termbase import Termbase, load_termbase
from .. import parallel
# The vocabulary of checks, re-exported: `from rulekb.check import Context, Text, Issue` keeps working.
from .base import (MODEL, REFS, TERMS, VERDICTS, Check, CheckFunction, Context, Issue,  # noqa: F401
                   Shared, Text, Waived, quote)


def _registry() -> tuple[Check, ...]:
    from . import (coverage, duplicates, language, meaning, meaningchecks, numbers, phraseology, references, sources,
                   staleness, structure, terminology, typography)
    checks: list[Check] = []
    for module in (coverage, staleness, structure, meaning, meaningchecks, references, numbers, terminology, phraseology, language,
                   duplicates, typography, sources):
        checks.extend(module.CHECKS)
    codes = Counter(c.code for c in checks)
    dup = [code for code, n in codes.items() if n > 1]
    if dup:  # a programming error, caught by the tests
        raise AssertionError(f"check codes registered twice: {dup}")
    return tuple(checks)


FAMILIES = ("coverage", "staleness", "structure", "meaning", "references", "numbers", "terminology", "phraseology", "language",
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


# From this many units on (the full Comprehensive Rules: ~6,600 texts) `run_checks` spreads the
# checks over several processes (`rulekb.parallel`); below it, starting a process costs more than
# it saves.
PARALLEL_UNITS = 2000
COVERAGE_COST = 134   # milliseconds of the coverage matrix on the complete data (made with group 0)


def plan(checks: Sequence[Check], groups: int, share: float = 1.0) -> list[tuple[Check, ...]]:
    """The checks in `groups` groups of about equal cost. Checks that read the same shared data
    (`Check.needs`, and what that is made from) are one bundle, which runs in one group: its
    data is made once (with all cards and rulings, the termbase's terms of every text cost as
    much as the eight checks that read them, which a check-by-check split made in both groups).
    The costliest bundle first, each goes into the group where the run ends soonest with it;
    group 0 also makes the coverage matrix. Within a group, the checks keep the order of
    `checks`. `share`: the part of the data files the by-file checks run on (the rest kept,
    `check.byfile`), which their costs are weighed by."""
    loads = [float(COVERAGE_COST)] + [0.0] * (max(1, groups) - 1)
    members: list[list[Check]] = [[] for _ in loads]
    order = {c.code: i for i, c in enumerate(checks)}
    for bundle, data in sorted(_bundles(checks), key=lambda b: (-_cost(*b, share), order[b[0][0].code])):
        g = min(range(len(loads)), key=lambda g: (loads[g] + _cost(bundle, data, share), g))
        loads[g] += _cost(bundle, data, share)
        members[g].extend(bundle)
    return [tuple(sorted(m, key=lambda c: order[c.code])) for m in members]


def _bundles(checks: Sequence[Check]) -> list[tuple[list[Check], frozenset[Shared]]]:
    """The checks joined by the shared data they read (a check that reads none is a bundle of
    its own), each bundle in the order of `checks`, with the data its checks read."""
    bundles: list[tuple[list[Check], frozenset[Shared]]] = []
    for c in checks:
        needs = c.shared()
        joined = [b for b in bundles if b[1] & needs]
        bundles = [b for b in bundles if not b[1] & needs]
        bundles.append(([m for b in joined for m in b[0]] + [c], needs.union(*(b[1] for b in joined))))
    order = {c.code: i for i, c in enumerate(checks)}
    return [(sorted(members, key=lambda c: order[c.code]), data) for members, data in bundles]


def _cost(bundle: Sequence[Check], data: frozenset[Shared], share: float = 1.0) -> float:
    return sum(c.cost * (share if c.by_file else 1.0) for c in bundle) + sum(s.cost for s in data)


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


KEPT_VERBATIM = M_("nothing to change here: a published text is kept verbatim, its defects included; "
                   "translations write today's usage")


PUBLISHED = (Status.OFFICIAL, Status.COMMUNITY)   # kept verbatim, defects included (README, Data model)


def stamp(ctx: Context, check: Check, issue: Issue) -> Finding:
    """The finding of an issue: the check's code, the issue's severity (else the check's). A
    finding on a published English text (official or community: kept verbatim, defects included)
    is informational and asks for no change to it; on a published translation, the fix goes into a
    new canonical text."""
    severity = issue.severity or check.severity
    fix = issue.fix
    unit = ctx.unit(issue.entry)
    texts = unit.variants.get(issue.lang, ()) if unit is not None else ()
    variant = texts[issue.index] if issue.index < len(texts) else None
    if variant is not None and variant.status in PUBLISHED and check.family not in ("waivers", "sources", "coverage"):
        if issue.lang == SOURCE_LANGUAGE:
            severity, fix = Severity.INFO, KEPT_VERBATIM
        elif issue.index:
            fix = M_("{fix} (this published text is not the canonical one and stays as it is; should it become "
                     "canonical, make it so corrected, as a new text)", fix=fix)
        else:
            fix = M_("{fix} (in a new canonical text; the published one stays as a variant with its source)", fix=fix)
    return Finding(check.code, severity, issue.lang, issue.entry, issue.file, issue.line, issue.msg.render(),
                   fix.render(), issue.msg, fix, (), issue.span, issue.spans)


def merge_findings(findings: Sequence[Finding], order: Mapping[str, int]) -> list[Finding]:
    """One defect, one finding: the findings on one text (unit and language) whose spans overlap
    become one, under the code of the gravest (then the first registered), with every reason in
    its message and the codes of the others in `also`; its fix is the gravest one's. A finding
    that counts several occurrences ("'spielt' (4 times)") overlaps wherever one of them does
    (`Finding.spans`). On a text that lacks a sentence, what it lacks is one finding
    (`_missing_sentences`)."""
    by_text: dict[tuple[str, str], list[Finding]] = {}
    out: list[Finding] = []
    for f in _missing_sentences(findings, order):
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


def _root(root: list[int], i: int) -> int:
    """The finding that stands for the cluster of finding `i` (`merge_findings`)."""
    while root[i] != i:
        i = root[i]
    return i


def _merged(cluster: list[Finding], order: Mapping[str, int]) -> Finding:
    if len(cluster) == 1:
        return cluster[0]
    first, *others = sorted(cluster, key=lambda f: (_SEVERITY_ORDER[f.severity], order.get(f.code, len(order))))
    msg = M_("{first} Also: {others}", first=first.msg or Message(first.message),
             others=tuple(o.msg or Message(o.message) for o in others))
    if all(f.span is None for f in cluster):   # what is missing has no place (`_missing_sentences`)
        span, spans = None, ()
    else:
        span = (min(f.span[0] for f in cluster), max(f.span[1] for f in cluster))  # type: ignore[index]
        spans = tuple(sorted({s for f in cluster for s in (f.spans or (f.span,))}))  # type: ignore[misc]
    return Finding(first.code, first.severity, first.lang, first.entry, first.file, first.line, msg.render(),
                   first.suggestion, msg, first.fix, tuple(dict.fromkeys(o.code for o in others)), span,
                   spans if len(spans) > 1 else ())


def run_checks(kb: KnowledgeBase, root: Path, *, profile: str = "full", langs: Iterable[str] | None = None,
               termbase: Termbase | None = None, phraseology: Phraseology | None = None,
               processes: int = 2, files: ProjectFiles | None = None) -> CheckResult:
    """Run the checks of `profile` over the knowledge base of the project at `root` (its
    termbase, phraseology and waivers are read from ``translations/``), report the findings of `langs`
    (default: every language). A large knowledge base is checked in `processes` processes, the
    checks grouped by their cost (`plan`); `processes=1` keeps to this one (the site build,
    whose other core renders the pages meanwhile). The findings do not depend on where a check
    ran. Raises DataError when the termbase, the phraseology or the waivers do not load. The
    garbage collector is paused meanwhile (`knowledge.collection_paused`: the run makes ~100,000
    objects per language beside the knowledge base's, and each of its full collections would
    walk them all). `files`: the project's files as the knowledge base was loaded from
    (`knowledge.read_files`); with them, the findings of the by-file checks are kept per data
    file between runs, and only the changed files are checked by them (`check.byfile`)."""
    with collection_paused():
        return _run_checks(kb, root, profile, langs, termbase, phraseology, processes, files)


def _run_checks(kb: KnowledgeBase, root: Path, profile: str, langs: Iterable[str] | None, termbase: Termbase | None,
                phraseology: Phraseology | None, processes: int, files: ProjectFiles | None) -> CheckResult:
    from .byfile import ByFile
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
    phraseology = phraseology if phraseology is not None else load_phraseology(root)
    waivers = load_waivers(root, kb, tuple(c.code for c in all_checks()))
    ctx = Context(kb, termbase, phraseology, root)
    selected = [c for c in all_checks() if c.code in codes and c.family != "waivers"]
    ctx.selected = frozenset(c.code for c in selected)
    # the by-file checks on the files that changed since their findings were kept (all: on ctx)
    kept = ByFile(files, kb, [c.code for c in selected if c.by_file])
    part = kept.part(ctx)
    groups = plan(selected, processes if len(ctx.units) >= PARALLEL_UNITS else 1, kept.share)

    def run_group(group: Sequence[Check]) -> dict[str, list[Finding]]:
        found = {}
        for c in group:   # a by-file check's findings in every language: they are kept so
            on = part if c.by_file else ctx
            found[c.code] = [stamp(on, c, issue) for issue in c.run(on) if c.by_file or issue.lang in wanted]
        ctx.save_memos()   # the per-text results this process made, for the next run (`check.memo`)
        return found

    # groups 1… in processes of their own (each sees the context as it is now), group 0 here
    with parallel.start([lambda group=group: run_group(group) for group in groups[1:]],
                        processes=len(groups) - 1) as others:
        coverage = compute_coverage(ctx)
        by_code = run_group(groups[0])
        for found_there in others.results():
            by_code.update(found_there)
    kept.keep({code: by_code[code] for code in kept.codes})
    for code in kept.codes:
        by_code[code] = [f for f in kept.findings(code, by_code[code]) if f.lang in wanted]
    found = [finding for c in selected for finding in by_code[c.code]]
    kept, waived, unmatched = apply_waivers(found, waivers, codes, wanted)
    if "waivers.unmatched" in codes:
        kept.extend(unmatched)
    kept = merge_findings(kept, {c.code: i for i, c in enumerate(all_checks())})
    if profile == "ci":  # the CI verdict: no informational notes, whichever check graded them so
        kept = [f for f in kept if f.severity is not Severity.INFO]
    findings = sort_findings(kept, kb.language_codes)
    waived_sorted = tuple(sorted(waived, key=lambda w: (sort_findings([w.finding], kb.language_codes), w.reason)))
    return CheckResult(findings, waived_sorted, coverage, _summary(findings, waived_sorted, wanted), profile, wanted)


from .coverage import Coverage  # noqa: E402  (re-exported for type hints of CheckResult users)

__all__ = ["Check", "CheckResult", "Context", "Coverage", "Issue", "Text", "Waived", "all_checks", "check",
           "profiles", "quote", "resolve_profile", "run_checks"]
