"""The `rulekb check` command on the QA fixture project: exit codes, --output, --reports, the
real data's seed defects."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from conftest import DATA
from rulekb.commands import main

KB = DATA / "qa" / "kb"

def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_exit_1_when_errors_remain(capsys):
    code, out, _ = run(capsys, "--root", str(KB), "check")
    assert code == 1 and "FAILED: 2 errors" in out


def test_exit_0_when_no_error_remains(capsys):
    code, out, _ = run(capsys, "--root", str(KB), "check", "--lang", "en")
    assert code == 0 and "passed: 0 errors" in out


def test_exit_2_when_the_data_does_not_load(capsys, tmp_path):
    tree = tmp_path / "kb"
    shutil.copytree(KB, tree)
    (tree / "translations" / "termbase.yaml").write_text("concepts:\n  - id: x\n    kind: keyword\n    sauce: y\n",
                                                         encoding="utf-8")
    code, out, err = run(capsys, "--root", str(tree), "check")
    assert code == 2 and out == ""
    assert "translations/termbase.yaml:4:5: error: unknown field 'sauce'" in err and "did you mean 'source'?" in err


def test_exit_2_on_an_unknown_profile(capsys):
    code, _, err = run(capsys, "--root", str(KB), "check", "--profile", "cii")
    assert code == 2 and "unknown check profile 'cii'" in err and "did you mean 'ci'?" in err


def test_output_file(capsys, tmp_path):
    target = tmp_path / "out" / "qa.json"
    code, out, err = run(capsys, "--root", str(KB), "check", "--format", "json", "--output", str(target))
    assert code == 1 and out == "" and f"wrote {target}" in err
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["errors"] == 2


def test_reports_writes_every_format_of_one_run(capsys, tmp_path):
    folder = tmp_path / "reports"
    code, out, err = run(capsys, "--root", str(KB), "check", "--reports", str(folder))
    assert code == 1 and out == "" and f"wrote {folder / 'qa.txt'}" in err
    assert sorted(p.name for p in folder.iterdir()) == ["qa.html", "qa.json", "qa.txt", "qa.xml"]
    for fmt, name in (("text", "qa.txt"), ("json", "qa.json"), ("junit", "qa.xml"), ("html", "qa.html")):
        single = tmp_path / f"single-{name}"
        assert run(capsys, "--root", str(KB), "check", "--format", fmt, "--output", str(single))[0] == 1
        assert (folder / name).read_bytes() == single.read_bytes(), name   # the same report as --format alone


def test_reports_and_output_together_are_refused(capsys, tmp_path):
    code, _, err = run(capsys, "--root", str(KB), "check", "--reports", str(tmp_path), "--output", str(tmp_path / "x"))
    assert code == 2 and "not both" in err and not any(tmp_path.iterdir())


def test_real_data_fails_on_its_seed_defects(seed, capsys):
    code, out, _ = run(capsys, "--root", str(seed), "check", "--profile", "ci")
    assert code == 1 and "[staleness.stale] retrace.a (fr)" in out




def _project_with_catalogs(tmp_path):
    """The QA fixture project with the project's UI catalogs (German and French)."""
    import conftest
    project = tmp_path / "kb"
    shutil.copytree(KB, project)
    shutil.copytree(conftest.ROOT / "translations" / "ui", project / "translations" / "ui", dirs_exist_ok=True)
    return project


def test_check_lang_de_speaks_german(capsys, tmp_path):
    project = _project_with_catalogs(tmp_path)
    code, out, _ = run(capsys, "--root", str(project), "check", "--lang", "de")
    assert code == 1
    assert "== Befunde je Familie und Sprache ==" in out and "Abhilfe:" in out
    findings = [line for line in out.splitlines() if "(de): " in line and not line.startswith("==")]
    assert findings and all(" Fehler [" in line or " Warnung [" in line or " Hinweis [" in line for line in findings)
    assert any("auf Deutsch" in line for line in findings) and not any(" the text in " in line for line in findings)


def test_check_lang_fr_speaks_french(capsys, tmp_path):
    project = _project_with_catalogs(tmp_path)
    code, out, _ = run(capsys, "--root", str(project), "check", "--lang", "fr")
    assert "== Couverture (textes à jour / périmés / manquants) ==" in out
    assert "le texte en français" in out and " the text in " not in out


@pytest.mark.parametrize("lang, said", [
    ("de", r"qa\.txt geschrieben: \d+ Befunde? \(\d+ Fehler\), \d+ ausgenommen; Exit-Code 1"),
    ("fr", r"rapport écrit dans .*\u00a0: \d+ constats? \(\d+ erreurs?\), \d+ exemptés?\u202f; code de sortie 1"),
])
def test_the_summary_of_a_written_report_speaks_the_language_of_the_report(capsys, tmp_path, lang, said):
    project = _project_with_catalogs(tmp_path)
    code, _, err = run(capsys, "--root", str(project), "check", "--lang", lang, "--output", str(tmp_path / "qa.txt"))
    assert code == 1 and re.search(said, err), err
    _, _, english = run(capsys, "--root", str(project), "check", "--output", str(tmp_path / "all.txt"))
    assert re.search(r"wrote .*: \d+ findings? \(\d+ errors?\), \d+ waived; exit code 1", english), english


def test_the_json_keeps_codes_and_english_and_adds_the_language_of_the_report(capsys, tmp_path):
    project = _project_with_catalogs(tmp_path)
    code, out, _ = run(capsys, "--root", str(project), "check", "--lang", "de", "--format", "json")
    data = json.loads(out)
    assert data["findings"][0]["severity"] == "error"   # the top of the report first
    assert all(f["localised"]["lang"] == "de" for f in data["findings"])
    assert any("auf Deutsch" in f["localised"]["message"] and "in German" in f["message"] for f in data["findings"])
