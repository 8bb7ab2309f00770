"""`rulekb check --lang L --english TEXT --translation TEXT`: every by-text check on one pair, through
the same driver as the full run (`rulekb.check.driver.check_pair`), printed as the full report
prints findings; exit 1 on errors, 0 without, 2 for missing or contradicting options."""

from __future__ import annotations

import json

import pytest

from conftest import DATA, ROOT
from rulekb.commands import main

KB = DATA / "qa" / "kb"
EN = "You may pay {2} as an additional cost to cast this spell."


def run(capsys, *argv):
    code = main(["--root", str(ROOT), "check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_changed_meaning_is_an_error_printed_as_the_report_prints_it(capsys):
    code, out, err = run(capsys, "--lang", "de", "--english", EN,
                         "--translation", "Du musst {3} als zusätzliche Kosten bezahlen, um diesen Zauberspruch zu wirken.")
    assert code == 1 and err == ""
    assert "[meaning.modality]" in out and "[numbers.mismatch]" in out
    assert "FEHLGESCHLAGEN: 2 Fehler" in out   # --lang de: the report speaks German, as the full one does


def test_a_faithful_pair_passes(capsys):
    code, out, _ = run(capsys, "--lang", "de", "--english", EN,
                       "--translation", "Du kannst {2} als zusätzliche Kosten bezahlen, um diesen Zauberspruch zu wirken.")
    assert code == 0
    assert "0 Fehler" in out and "[meaning." not in out and "[numbers." not in out


def test_json_holds_the_findings_with_their_codes(capsys):
    code, out, _ = run(capsys, "--lang", "fr", "--format", "json", "--english", "Exile target creature you control.",
                       "--translation", "Exilez une créature ciblée qu'un adversaire contrôle.")
    report = json.loads(out)
    codes = {f["code"] for f in report["findings"]}
    assert code == 1 and "meaning.player" in codes
    assert report["summary"]["errors"] >= 1 and report["summary"]["exit_code"] == 1
    assert {f["lang"] for f in report["findings"]} == {"fr"}


def test_the_pair_runs_the_by_text_checks_of_the_full_run():
    """What the pair command finds is what the full run finds on the same text in a knowledge base."""
    from qa_kb import kb_of, rule, run as run_check
    from rulekb.check import TextCheck, all_checks
    from rulekb.check.driver import check_pair
    translation = "Du musst {3} als zusätzliche Kosten bezahlen, um diesen Zauberspruch zu wirken."
    result, _kb = check_pair(ROOT, "de", EN, translation)
    kb = kb_of(rule(subrules={"a": {"en": EN, "de": translation}}))
    codes = {c.code for c in all_checks() if isinstance(c, TextCheck)
             if any(i.lang == "de" for i in run_check(c.code, kb, tuple(x.code for x in all_checks())))}
    assert {f.code for f in result.findings} | {a for f in result.findings for a in f.also} == codes


@pytest.mark.parametrize("argv,message", [
    (("--lang", "de", "--english", EN), "--english needs --translation"),
    (("--lang", "de", "--translation", "Text"), "--translation needs --english"),
    (("--english", EN, "--translation", "Text"), "a pair needs the language of its translation"),
    (("--lang", "de", "--lang", "fr", "--english", EN, "--translation", "Text"), "one language"),
    (("--lang", "xx", "--english", EN, "--translation", "Text"), "--lang xx: not a language"),
    (("--lang", "en", "--english", EN, "--translation", "Text"), "--lang en: not a language"),
    (("--lang", "de", "--profile", "ci", "--english", EN, "--translation", "Text"), "--profile ci selects"),
    (("--lang", "de", "--reports", "out", "--english", EN, "--translation", "Text"), "--reports writes"),
    (("--lang", "de", "--english", EN, "--translation", "  "), "--translation is empty"),
])
def test_missing_or_contradicting_options_are_refused_with_a_precise_error(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("lang,english,translation,coverage", [
    ("fr", "Another player may cast that card this turn.", "Un adversaire peut lancer cette carte ce tour-ci.",
     "== Couverture"),
    ("de", "Another player may cast that card this turn.", "Ein Gegner kann diese Karte in diesem Zug wirken.",
     "== Abdeckung"),
])
def test_the_pair_report_names_the_translation_once_and_shows_no_coverage(capsys, lang, english, translation,
                                                                          coverage):
    """Each finding line names "--translation" once (its message, and those merged into it, do not
    repeat it); a pair has no knowledge base, so the report shows no coverage table (issue 28.7)."""
    code, out, _ = run(capsys, "--lang", lang, "--english", english, "--translation", translation)
    lines = [line for line in out.splitlines() if line.startswith("<command line>:1:")]
    assert code == 1 and lines and all(line.count("--translation") == 1 for line in lines), lines
    assert coverage.split()[1] not in out and "ok/" not in out
    _code, html, _ = run(capsys, "--lang", lang, "--format", "html", "--english", english, "--translation", translation)
    assert 'class="coverage"' not in html and "rulekb-qa-chart" not in html
