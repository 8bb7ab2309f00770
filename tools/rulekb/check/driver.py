"""The check driver (stage: check, load -> validate -> link -> check -> render -> report): runs the
checks of a profile over a knowledge base, or the by-text checks over one English/translation pair,
in this one process.

A run: the by-text checks (`text.TextCheck`, pure functions of one `Text` and the shared `Data`) in
one loop over the texts — every variant, in knowledge-base order, each check in registry order —
then the cross-text checks over the `Context`. What a by-text check finds in a text depends on that
text, its unit's English and `Data` alone, so their findings are kept per data file between runs
(the cache ``check-files``, `cache.cached`): keyed by the file's path and SHA-256 (as
`knowledge.read_files` took them), the SHA-256 of every file that holds no rule or ruling (the
termbase, the phraseology, the languages, sources, releases and cards) and the by-text checks that
run; the code's key (`cache.code_key`) names the folder. A run after an edit of one file checks that
file's texts alone. What several checks derive from one string (its terms, references, language
verdicts) is made once per run (`Data.derived`). The result of a whole run is kept as well (the
cache ``checks``, `rulekb.check.cache`).

Two checks can see one defect: a flag says which check's finding on the same text says it already
(`Flag.covered_by`), and is dropped here when that check has one. `check_pair` runs every by-text
check on one pair through the same loop (``rulekb check --english … --translation …``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Sequence

from .. import cache as cache_module
from ..diagnostics import DataError, Problem, did_you_mean
from ..knowledge import ProjectFiles, collection_paused
from ..models import SOURCE_LANGUAGE, Finding, KnowledgeBase, Rule, Severity, UnitKind
from ..official import Official, load_official
from ..phraseology import Phraseology, load_phraseology
from ..termbase import Termbase, TermMatch, load_termbase
from . import (CheckResult, _summary, all_checks, asks_nothing, merge_findings, resolve_profile, sort_findings,
               stamp, stamp_status)
from .base import Check, Context, Issue, UnitText
from .coverage import Coverage
from .text import Data, Flag, Text, TextCheck
from .waivers import Waiver

CACHE = "check-files"
PAIR_ENTRY = "--translation"   # how the findings of a pair name the text they are on


def text_of(t: UnitText) -> Text:
    """The `Text` value of a text of the knowledge base: its English today, and the English a
    translation was made from (`staleness.source_english`)."""
    english = t.english
    source = None
    if t.lang != SOURCE_LANGUAGE and english is not None:
        found = source_english_of(t) if t.variant.translated_from else None
        source = found if found is not None else english.text
    canonical = t.unit.variants[t.lang][0].text if t.index else None
    return Text(t.unit.id, t.unit.label, t.unit.kind, t.lang, t.text, english.text if english is not None else None,
                source, t.variant.pos.file, t.variant.pos.line, t.index, canonical, t.variant.source, t.variant.status,
                t.release, bool(t.variant.releases))


def source_english_of(t: UnitText) -> str | None:
    """The older English a stale translation records, when the knowledge base keeps it."""
    from .staleness import is_stale, old_english
    if is_stale(t.unit, t.variant) and t.variant.translated_from:
        old = old_english(t.unit, t.variant.translated_from)
        if old is not None:
            return old.text
    return None


def flags_of(t: Text, checks: Sequence[TextCheck], data: Data) -> list[tuple[TextCheck, Flag]]:
    """What the by-text checks find in one text, in registry order; a flag that another check's
    finding on the text covers (`Flag.covered_by`) is dropped."""
    found = [(c, f) for c in checks for f in c.run(t, data)]
    flagged = {c.code for c, f in found if not f.covered_by}
    return [(c, f) for c, f in found if not f.covered_by or f.covered_by not in flagged]


def issue_of(t: Text, f: Flag) -> Issue:
    """The issue of a flag on a text (a text beside the canonical one has no span: the reports
    show the canonical text)."""
    return Issue(t.lang, t.entry, t.file, t.line, f.msg, f.fix, f.span if t.index == 0 else None, f.severity, t.index,
                 f.spans if t.index == 0 else (), f.english if t.index == 0 else ())


def findings_of(texts: Iterable[Text], checks: Sequence[TextCheck], data: Data) -> dict[str, list[Finding]]:
    """Check code -> the findings of the by-text checks `checks` on `texts`, in text order."""
    out: dict[str, list[Finding]] = {c.code: [] for c in checks}
    for t in texts:
        if asks_nothing(t.lang, t.status):
            continue   # a published English text: kept verbatim, nothing to report on it
        for c, f in flags_of(t, checks, data):
            found = stamp_status(c, issue_of(t, f), t.status)
            if found is not None:
                out[c.code].append(found)
    return out


def _owner_files(kb: KnowledgeBase) -> dict[str, str]:
    """Unit id -> the data file that holds its rule or ruling."""
    return {unit: owner.file if isinstance(owner, Rule) else owner.unit.pos.file for unit, owner in kb.owners.items()}


def by_text(ctx: Context, checks: Sequence[TextCheck], files: ProjectFiles | None) -> dict[str, list[Finding]]:
    """The findings of the by-text checks on every text of the knowledge base, file by file (in
    path order), each file's kept between runs when `files` gives the digests of every file."""
    owner = _owner_files(ctx.kb)
    by_file: dict[str, list[UnitText]] = {}
    for t in ctx.all_texts():
        by_file.setdefault(owner.get(t.unit.id, t.variant.pos.file), []).append(t)
    usable = files is not None and not files.problems and all(rel in files.digests for rel in by_file)
    shared: list[str] = []
    if usable:
        assert files is not None
        others = [part for rel, digest in sorted(files.digests.items()) if rel not in by_file for part in (rel, digest)]
        # the keywords' official names come from every file's rule titles (`Data.keywords`): part of each key
        shared = [cache_module.FileCache.key(*others, "codes", *(c.code for c in checks),
                                             "keywords", repr(ctx.data.keywords))]
    out: dict[str, list[Finding]] = {c.code: [] for c in checks}
    table = {(c.id, lang): terms for c in ctx.termbase.concepts for lang, terms in c.terms.items()}
    index = {id(term): i for terms in table.values() for i, term in enumerate(terms)}
    for rel in sorted(by_file):
        def make(texts: list[UnitText] = by_file[rel]) -> FileEntry:
            found = findings_of((text_of(t) for t in texts), checks, ctx.data)
            # what the cross-text checks read of each text: its terms and references
            terms = {(t.lang, t.text): tuple((m.start, m.end, m.concept_id, index[id(m.term)]) for m in ctx.terms(t))
                     for t in texts}
            refs = {t.text: held for t in texts if (held := ctx.refs(t))}
            return FileEntry(found, terms, refs)
        entry = (cache_module.cached(CACHE, (*shared, rel, files.digests[rel]), make, FileEntry)  # type: ignore[union-attr]
                 if usable else make())
        for code, items in entry.findings.items():
            out[code].extend(items)
        for (lang, text), rows in entry.terms.items():
            ctx.data.keep("terms", (lang, text), lambda rows=rows, lang=lang: tuple(
                TermMatch(a, b, concept, table[(concept, lang)][i]) for a, b, concept, i in rows))
        for text, refs in entry.refs.items():
            ctx.data.keep("refs", text, lambda refs=refs: refs)
    return out


@dataclass(frozen=True)
class FileEntry:
    """What the per-file cache keeps of a data file: the by-text checks' findings on its texts
    (check code -> findings), and what the cross-text checks read of each text — its terms (as
    (start, end, concept id, the term's index in the concept's terms of the language)) and its
    rule references — so that a run after an edit derives them for the edited file alone."""
    findings: dict[str, list[Finding]]
    terms: dict[tuple[str, str], tuple[tuple[int, int, str, int], ...]]
    refs: dict[str, tuple]


def run_checks(kb: KnowledgeBase, root: Path, *, profile: str = "full", langs: Iterable[str] | None = None,
               termbase: Termbase | None = None, phraseology: Phraseology | None = None,
               files: ProjectFiles | None = None, waivers: Sequence[Waiver] | None = None,
               official: Official | None = None) -> CheckResult:
    """Run the checks of `profile` over the knowledge base of the project at `root` (its termbase,
    phraseology, waivers and official names are read from ``translations/``) and report the findings of `langs`
    (default: every language). Raises DataError when the termbase, the phraseology or the waivers
    (or the official file) do not load; the commands hand them over as `inputs.load_inputs` loaded them. `files`: the project's files as the knowledge base was loaded from
    (`knowledge.read_files`); with them, the by-text checks' findings are kept per data file. The
    garbage collector is paused meanwhile (`knowledge.collection_paused`: the run makes many small
    objects, and each full collection would walk the knowledge base's too)."""
    with collection_paused():
        return _run(kb, root, profile, langs, termbase, phraseology, files, waivers, official)


def _run(kb: KnowledgeBase, root: Path, profile: str, langs: Iterable[str] | None, termbase: Termbase | None,
         phraseology: Phraseology | None, files: ProjectFiles | None, waivers: Sequence[Waiver] | None,
         official: Official | None) -> CheckResult:
    from .coverage import compute_coverage
    from .waivers import load_waivers

    codes = set(resolve_profile(profile))
    wanted = tuple(kb.language_codes) if langs is None else tuple(langs)
    unknown = [lang for lang in wanted if lang not in kb.language_codes]
    if unknown:
        raise DataError([Problem("<command line>", 1, 1, f"unknown language '{unknown[0]}'",
                                 did_you_mean(unknown[0], kb.language_codes) or
                                 f"use one of {', '.join(kb.language_codes)}")])
    termbase = termbase if termbase is not None else load_termbase(root, kb)
    phraseology = phraseology if phraseology is not None else load_phraseology(root)
    if waivers is None:
        waivers = load_waivers(root, kb, tuple(c.code for c in all_checks()))
    official = official if official is not None else load_official(root, kb.language_codes)
    ctx = Context(kb, termbase, phraseology)
    selected = [c for c in all_checks() if c.code in codes and c.family != "waivers"]
    by_code = by_text(ctx, [c for c in selected if isinstance(c, TextCheck)], files)
    coverage = compute_coverage(ctx, official)
    for c in selected:
        if isinstance(c, Check):
            by_code[c.code] = [f for issue in c.run(ctx) if issue.lang in wanted
                               if (f := stamp(ctx, c, issue)) is not None]
    found = [f for c in selected for f in by_code[c.code] if f.lang in wanted]
    return _result(found, waivers, codes, wanted, profile, kb.language_codes, coverage)


def _result(found: list[Finding], waivers: Sequence[Waiver], codes: set[str], wanted: tuple[str, ...], profile: str,
            languages: Sequence[str], coverage: Coverage) -> CheckResult:
    from .waivers import apply_waivers
    kept, waived, unmatched = apply_waivers(found, waivers, codes, wanted)
    if "waivers.unmatched" in codes:
        kept.extend(unmatched)
    kept = merge_findings(kept, {c.code: i for i, c in enumerate(all_checks())})
    if profile == "ci":  # the CI verdict: no informational notes, whichever check graded them so
        kept = [f for f in kept if f.severity is not Severity.INFO]
    findings = sort_findings(kept, languages)
    waived_sorted = tuple(sorted(waived, key=lambda w: (sort_findings([w.finding], languages), w.reason)))
    return CheckResult(findings, waived_sorted, coverage, _summary(findings, waived_sorted, wanted), profile, wanted)


# ------------------------------------------------------------------ one pair


def pair_data(root: Path) -> tuple[KnowledgeBase, Data]:
    """What one pair is checked against: the project's languages and sources (a knowledge base
    without rules, which the reports name the languages by), its termbase and phraseology."""
    from ..layout import LANGUAGES_FILE, SOURCES_FILE
    from ..load import parse_file
    from ..schema import languages_from, sources_from
    problems: list[Problem] = []
    languages: tuple = ()
    sources: dict = {}
    for name in (LANGUAGES_FILE, SOURCES_FILE):
        if not (root / name).is_file():
            problems.append(Problem(name, 1, 1, f"{name} is missing", "a pair is checked against the project's "
                                    "languages and sources: run the command in the project folder (or give --root)"))
            continue
        parsed, found = parse_file(root / name, root)
        problems += found
        if parsed is not None:
            if name == LANGUAGES_FILE:
                languages, found = languages_from(parsed)
            else:
                sources, found = sources_from(parsed)
            problems += found
    if problems:
        raise DataError(problems)
    kb = KnowledgeBase(tuple(languages), MappingProxyType(dict(sources)), (), (), ())
    from .keywords import keyword_table
    termbase = load_termbase(root)
    data = Data(termbase, load_phraseology(root), kb.language_codes,
                {lang.code: lang.english_name for lang in reversed(kb.languages)},
                keywords=keyword_table(None, termbase))
    return kb, data


def check_pair(root: Path, lang: str, english: str, translation: str) -> tuple[CheckResult, KnowledgeBase]:
    """Every by-text check on one pair (an English text and its translation into `lang`), as a
    result the reports print (no coverage: there is no knowledge base), with the knowledge base
    of the project's languages the reports read."""
    from .coverage import Cell, Coverage
    kb, data = pair_data(root)
    targets = kb.target_languages
    if lang not in targets:
        raise DataError([Problem("<command line>", 1, 1, f"--lang {lang}: not a language a text is translated into",
                                 did_you_mean(lang, targets) or f"use one of {', '.join(targets)}")])
    checks = [c for c in all_checks() if isinstance(c, TextCheck)]
    text = Text(PAIR_ENTRY, PAIR_ENTRY, UnitKind.SUBRULE, lang, translation, english, english)
    by_code = findings_of((text,), checks, data)
    found = [f for c in checks for f in by_code[c.code]]
    coverage = Coverage((lang,), (), MappingProxyType({lang: Cell(0, 0, 0, 0)}))
    return _result(found, (), {c.code for c in checks}, (lang,), "pair", kb.language_codes, coverage), kb

