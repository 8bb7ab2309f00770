"""run_checks: profiles, languages, waivers (matched, unmatched, refused), sorting and determinism,
on the fixture project tests/data/qa/kb."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA
from rulekb.check import all_checks, profiles, sort_findings
from rulekb.check.driver import run_checks
from rulekb.diagnostics import DataError
from rulekb.models import Finding, Severity
from rulekb.knowledge import load_knowledge_base

KB = DATA / "qa" / "kb"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base(KB)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(KB, dest)
    return dest


def test_codes_are_unique_and_in_families():
    codes = [c.code for c in all_checks()]
    assert len(codes) == len(set(codes))
    families = {"coverage", "staleness", "structure", "meaning", "references", "numbers", "terminology", "phraseology",
                "language", "duplicates", "typography", "sources", "waivers"}
    assert {c.family for c in all_checks()} == families
    assert all(c.title and isinstance(c.severity, Severity) for c in all_checks())


def test_profiles():
    p = profiles()
    assert set(p["full"]) == {c.code for c in all_checks()}
    assert "terminology.old-wording" in p["full"] and "terminology.old-wording" not in p["ci"]
    assert all(code.startswith("typography.") for code in p["typography"])


def test_findings_of_the_fixture(kb):
    result = run_checks(kb, KB)
    got = {(f.code, f.entry, f.lang) for f in result.findings}
    assert got == {
        ("terminology.inconsistent", "retrace.a", "de"),
        ("terminology.deprecated", "retrace.n1", "de"),
        ("language.wrong-language", "retrace-sample-ruling", "de"),
        ("structure.extra-unit", "retrace-sample-ruling", "de"),
        ("waivers.unmatched", "retrace.n2", "de"),
        ("references.mismatch", "retrace.a", "fr"),
        ("staleness.stale", "retrace.a", "fr"),
        ("coverage.partial", "retrace.n1", "fr"),   # once for the rule: notes 1 and 2 are missing
    }
    assert [(w.finding.code, w.finding.entry, w.finding.lang) for w in result.waived] == [
        ("terminology.gender", "retrace.a", "fr")]
    # the English is history apart (its older text is a version, not a disagreement); the stale French
    # translates an English one word away from today's: a warning
    assert result.exit_code == 1 and result.summary["errors"] == 2
    assert result.summary["by_family"]["structure"] == {"de": 1, "en": 0, "fr": 0}
    # published English: kept verbatim, nothing to change in it, so nothing reported (its old 'play' and
    # its hyphen range; issue 28.4)
    assert [f for f in result.findings if f.lang == "en"] == []
    assert all("nothing to change" not in f.suggestion for f in result.findings)
    langs = [f.lang for f in result.findings]
    assert langs == sorted(langs, key=["en", "de", "fr"].index)


def test_coverage_matrix(kb):
    cov = run_checks(kb, KB).coverage
    rows = {row.id + ":" + row.kind: row for row in cov.rows}
    fr = rows["retrace:rule"].cells["fr"]
    assert (fr.total, fr.translated, fr.stale, fr.missing) == (4, 1, 1, 2)
    assert rows["retrace:rulings"].cells["en"].missing == 1
    assert cov.totals["de"].percent == 100


def test_lang_and_profile_select(kb):
    result = run_checks(kb, KB, profile="ci", langs=["fr"])
    assert {f.lang for f in result.findings} == {"fr"}
    assert all(f.severity is not Severity.INFO for f in result.findings)
    only = run_checks(kb, KB, profile="staleness")
    assert [(f.code, f.lang) for f in only.findings] == [("staleness.stale", "fr")]
    assert only.waived == ()  # the range-dash waiver is neither applied nor reported as unmatched


def test_deterministic(kb):
    assert run_checks(kb, KB) == run_checks(kb, KB)


@pytest.mark.parametrize("profile,lang,message", [
    ("fast", None, "unknown check profile 'fast'"),
    ("full", "es", "unknown language 'es'"),
])
def test_bad_options(kb, profile, lang, message):
    with pytest.raises(DataError) as err:
        run_checks(kb, KB, profile=profile, langs=[lang] if lang else None)
    assert message in str(err.value)


@pytest.mark.parametrize("waiver,message,line", [
    ("  - code: typography.rangedash\n    entry: retrace.a\n    lang: en\n    reason: r\n",
     "waiver code 'typography.rangedash'", 2),
    ("  - code: typography.range-dash\n    entry: retrace.z\n    lang: en\n    reason: r\n",
     "waiver entry 'retrace.z' is not a unit", 3),
    ("  - code: typography.range-dash\n    entry: retrace.a\n    lang: en\n", "lacks the required field 'reason'", 2),
    ("  - code: typography.range-dash\n    entry: retrace.a\n    lang: en\n    reason: r\n    until: 2030\n",
     "unknown field 'until'", 6),
])
def test_bad_waivers_are_refused_with_their_position(tree, waiver, message, line):
    (tree / "translations" / "qa-waivers.yaml").write_text("waivers:\n" + waiver, encoding="utf-8")
    with pytest.raises(DataError) as err:
        run_checks(load_knowledge_base(tree), tree)
    problem = err.value.problems[0]
    assert problem.file == "translations/qa-waivers.yaml" and message in problem.message and problem.line == line


def test_waiver_did_you_mean(tree):
    (tree / "translations" / "qa-waivers.yaml").write_text(
        "waivers:\n  - code: typography.rangedash\n    entry: retrace.a\n    lang: en\n    reason: r\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        run_checks(load_knowledge_base(tree), tree)
    assert "typography.range-dash" in err.value.problems[0].hint


def test_without_waivers_the_finding_comes_back(tree):
    (tree / "translations" / "qa-waivers.yaml").unlink()
    result = run_checks(load_knowledge_base(tree), tree)
    assert ("terminology.gender", "retrace.a", "fr") in {(f.code, f.entry, f.lang) for f in result.findings}
    assert result.waived == ()


_FINDINGS = st.lists(st.builds(Finding, code=st.sampled_from(["a.x", "b.y"]), severity=st.sampled_from(list(Severity)),
                               lang=st.sampled_from(["en", "de", "fr", "xx"]), entry=st.sampled_from(["e1", "e2"]),
                               file=st.sampled_from(["f", "g"]), line=st.integers(1, 3),
                               message=st.sampled_from(["m", "n"]), suggestion=st.sampled_from(["", "s"])), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_FINDINGS)
def test_sort_findings_orders_and_drops_duplicates(findings):
    """Report order: language (as listed, unknown last), file, line, entry, severity, code, texts; each once."""
    order = {"en": 0, "de": 1, "fr": 2}
    rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    expected = tuple(sorted(set(findings), key=lambda f: (order.get(f.lang, 3), f.lang, f.file, f.line, f.entry,
                                                         rank[f.severity], f.code, f.message, f.suggestion)))
    assert sort_findings(findings, ("en", "de", "fr")) == expected


# ------------------------------------------------------------------ the driver


def test_every_check_is_a_pure_by_text_check_or_a_cross_text_one():
    import inspect

    import rulekb.check as check
    for c in all_checks():
        assert isinstance(c, (check.TextCheck, check.Check)), c.code
        params = list(inspect.signature(c.run).parameters)
        assert params == (["t", "data"] if isinstance(c, check.TextCheck) else ["ctx"]), c.code


def test_the_findings_kept_per_file_are_those_of_a_fresh_run(tmp_path, monkeypatch):
    """The by-text findings kept per data file (check-files) give the result a run without
    caches gives: on the first run (written), on the second (read), and after an edit of one
    file (that file checked again, the others read)."""
    import shutil

    from rulekb.knowledge import read_files
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "kb"
    shutil.copytree(KB, root)

    def run():
        files = read_files(root)
        return run_checks(load_knowledge_base(root, files=files), root, files=files)

    def fresh():
        monkeypatch.setenv("RULEKB_CACHE_DIR", "")
        try:
            return run_checks(load_knowledge_base(root), root)
        finally:
            monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    first = run()
    assert list((tmp_path / "cache" / "check-files").rglob("*.pickle"))   # kept per file
    assert first == fresh()
    assert run() == first
    data = sorted((root / "rules").rglob("*.yaml"))
    edited = next(p for p in data if "Retrace" in p.read_text(encoding="utf-8") and "de:" in p.read_text(encoding="utf-8")
                  or "Zurückverfolgen" in p.read_text(encoding="utf-8"))
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text.replace("Zurückverfolgen", "Zurückverfolgen  x", 1), encoding="utf-8")
    after = run()
    assert after == fresh() and after != first


def test_a_flag_another_check_covers_is_dropped_only_when_that_check_finds_it():
    """A translation without any negation: structure.negation's finding; meaning.negation's flag
    on the lost negation says so (`covered_by`) and is dropped beside it, kept without it."""
    from qa_kb import data
    from rulekb.check import Text, check
    from rulekb.check.driver import flags_of
    from rulekb.models import UnitKind
    english = "You can't cast this spell during combat."
    t = Text("x.a", "1.1a", UnitKind.SUBRULE, "de", "Du kannst diesen Zauberspruch während des Kampfes wirken.",
             english, english)
    both = [c.code for c, _f in flags_of(t, [check("structure.negation"), check("meaning.negation")], data())]
    alone = [c.code for c, _f in flags_of(t, [check("meaning.negation")], data())]
    assert both == ["structure.negation"]
    assert alone == ["meaning.negation"]


def test_the_command_runs_in_one_process(tmp_path):
    """`rulekb check` writes the report of the run and leaves no process behind."""
    import textwrap

    from conftest import run_fresh
    from rulekb.report import to_json
    kb = load_knowledge_base(KB)
    expected = to_json(run_checks(kb, KB), kb)
    out = tmp_path / "report.json"
    script = textwrap.dedent(f"""
        import os
        from rulekb.commands import main
        code = main(["--root", {str(KB)!r}, "check", "--format", "json", "--output", {str(out)!r}])
        try:
            os.waitpid(-1, os.WNOHANG)
            left = True
        except ChildProcessError:
            left = False
        print(code, left)
    """)
    assert run_fresh(script).split() == ["1", "False"]  # exit 1 (errors found); no process left
    assert out.read_text(encoding="utf-8") == expected


def _f(code, severity, span, entry="retrace.a", lang="de", spans=()):
    from rulekb.models import Finding, Message, Severity
    return Finding(code, Severity(severity), lang, entry, "f.yaml", 1, f"{code} says", f"{code} fix",
                   Message(f"{code} says"), Message(f"{code} fix"), (), span, spans)


MERGE = [
    # (findings as (code, severity, span), the merged codes: one defect, one finding)
    ([("terminology.deprecated", "warning", (5, 12)), ("terminology.zone", "error", (0, 20))],
     [("terminology.zone", ("terminology.deprecated",))]),
    ([("terminology.deprecated", "warning", (5, 12)), ("terminology.case", "info", (30, 35))],
     [("terminology.case", ()), ("terminology.deprecated", ())]),
    ([("terminology.deprecated", "warning", (5, 12)), ("staleness.stale", "error", None)],
     [("staleness.stale", ()), ("terminology.deprecated", ())]),
    # a finding that counts several occurrences ("'spielt' (2 times)") is one defect with a finding on any of them
    ([("terminology.deprecated", "warning", (5, 12), "retrace.a", "de", ((5, 12), (40, 47))),
      ("phraseology.unofficial", "warning", (30, 47))],
     [("terminology.deprecated", ("phraseology.unofficial",))]),
    ([("terminology.deprecated", "warning", (5, 12), "retrace.a", "de", ((5, 12), (40, 47))),
      ("phraseology.unofficial", "warning", (0, 12)), ("phraseology.retired", "warning", (40, 50))],
     [("terminology.deprecated", ("phraseology.unofficial", "phraseology.retired"))]),
    ([("terminology.deprecated", "warning", (5, 12), "retrace.a", "de", ((5, 12), (40, 47))),
      ("terminology.case", "info", (20, 25))],                     # between the occurrences: another defect
     [("terminology.case", ()), ("terminology.deprecated", ())]),
    # a sentence missing: what the text lacks (no place in it) is that one defect, under the gravest code
    ([("meaning.sentences", "warning", None), ("meaning.negation", "error", None), ("meaning.number", "error", None),
      ("terminology.missing-term", "warning", None), ("references.mismatch", "error", None)],
     [("meaning.number", ("meaning.negation", "references.mismatch", "meaning.sentences", "terminology.missing-term"))]),
    ([("structure.length", "warning", None), ("structure.negation", "error", None), ("meaning.qualifier", "error", None)],
     [("structure.negation", ("meaning.qualifier", "structure.length"))]),
    # … but not a stale text, nor what has a place of its own in the text
    ([("meaning.sentences", "warning", None), ("staleness.stale", "warning", None),
      ("terminology.deprecated", "warning", (5, 12))],
     [("meaning.sentences", ()), ("staleness.stale", ()), ("terminology.deprecated", ())]),
    # without a missing sentence, what is missing stays apart
    ([("meaning.negation", "error", None), ("meaning.number", "error", None)],
     [("meaning.negation", ()), ("meaning.number", ())]),
]


@pytest.mark.parametrize("items,merged", MERGE)
def test_one_defect_one_finding(items, merged):
    from rulekb.check import all_checks, merge_findings
    order = {c.code: i for i, c in enumerate(all_checks())}
    out = merge_findings([_f(*item) for item in items], order)
    assert sorted((f.code, f.also) for f in out) == sorted(merged)
    for f in out:
        if f.also:   # every reason kept, the gravest one's fix
            assert all(f"{code} says" in f.message for code in (f.code, *f.also))
            assert f.suggestion == f"{f.code} fix"


@pytest.mark.parametrize("lang,reads", [
    ("en", "terminology.zone says — also: terminology.deprecated says"),
    ("de", "terminology.zone says — außerdem: terminology.deprecated says"),
    ("fr", "terminology.zone says — de plus\u00a0: terminology.deprecated says"),
])
def test_a_merged_finding_joins_its_reasons_as_the_reader_writes(lang, reads):
    """"… pour les terrains Aussi : …" ran two sentences together, and "Aussi" opening a French
    sentence means "therefore": the reasons are joined by a dash."""
    from conftest import ROOT
    from rulekb.check import all_checks, merge_findings
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    order = {c.code: i for i, c in enumerate(all_checks())}
    [merged] = merge_findings([_f("terminology.deprecated", "warning", (5, 12)), _f("terminology.zone", "error", (0, 20))],
                              order)
    reader = None if lang == "en" else load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    assert merged.msg.render(reader) == reads


@pytest.mark.parametrize("code,index,suffix", [
    ("staleness.stale", 0, "in a new canonical text"),          # the fix rewrites the text
    ("staleness.stale", 1, "stays as it is"),
    ("staleness.confirm", 0, None),    # confirming translated_from leaves the words as they are
    ("staleness.untracked", 0, None),
    ("structure.extra-unit", 0, None),   # "add the English original; the text stays as it is"
])
def test_a_published_text_gets_a_new_canonical_text_only_where_the_fix_rewrites_it(code, index, suffix):
    """"confirm it by setting translated_from … (in a new canonical text; …)" contradicted itself."""
    from rulekb.check import check, stamp_status
    from rulekb.check.base import Issue
    from rulekb.models import Message, Status
    issue = Issue("de", "retrace.a", "f.yaml", 1, Message("it says"), Message("do this"), index=index)
    fix = stamp_status(check(code), issue, Status.COMMUNITY).suggestion
    assert fix == "do this" if suffix is None else (fix.startswith("do this (") and suffix in fix)


def test_a_dropped_sentence_is_one_finding():
    """German and French that leave out the middle sentence (with its negation, its duration and
    three terms) gave seven findings, two of them errors: it is one error now."""
    from qa_kb import findings, one_text
    from rulekb.check import all_checks
    codes = tuple(c.code for c in all_checks() if c.family in ("meaning", "structure", "terminology", "references"))
    english = "Draw three cards. Until end of turn, you can't cast spells from your graveyard. Then discard a card."
    for lang, text in (("de", "Ziehe drei Karten. Wirf dann eine Karte ab."),
                       ("fr", "Piochez trois cartes. Puis défaussez-vous d'une carte.")):
        (f,) = [f for f in findings(one_text(lang, text, english), codes) if f.lang == lang]
        assert f.severity.value == "error" and "structure.length" in f.also and "meaning.qualifier" in f.also


def test_a_merge_is_per_text_and_language():
    from rulekb.check import all_checks, merge_findings
    order = {c.code: i for i, c in enumerate(all_checks())}
    out = merge_findings([_f("terminology.case", "info", (0, 5)), _f("terminology.case", "info", (0, 5), lang="fr"),
                          _f("terminology.gender", "warning", (0, 5), entry="retrace.b")], order)
    assert len(out) == 3


def test_the_profile_names_are_those_of_the_profiles():
    """The command line lists the profiles by `profile_names`, which imports no check."""
    from rulekb.check import profile_names, profiles
    assert profile_names() == tuple(profiles())


@pytest.mark.parametrize("lang,reads", [
    ("de", "um ihn kanonisch zu machen, ihn berichtigt als neuen Text ergänzen"),
    ("fr", "pour le rendre canonique, ajoutez-le corrigé comme nouveau texte"),
])
def test_the_fix_of_a_published_variant_reads_as_german_and_french(lang, reads):
    """"soll er kanonisch werden, dann berichtigt, als neuer Text" / "qu'il le devienne corrigé" read stiffly."""
    from conftest import ROOT
    from rulekb.check import check, stamp_status
    from rulekb.check.base import Issue
    from rulekb.i18n import load_ui
    from rulekb.models import Language, Message, Status
    issue = Issue("de", "retrace.a", "f.yaml", 1, Message("it says"), Message("do this"), index=1)
    finding = stamp_status(check("staleness.stale"), issue, Status.COMMUNITY)
    reader = load_ui(ROOT, Language(lang, lang, lang, {"de": "de_DE", "fr": "fr_FR"}[lang]))
    assert reads in finding.fix.render(reader)
