"""report: the text, JSON, JUnit and HTML reports and the site's status page, each against a golden
file (refresh with RULEKB_UPDATE_GOLDEN=1), plus escaping, structure and the `rulekb check` command;
the fast JSON writer against json.dumps."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA, ROOT
from rulekb.check import run_checks
from rulekb.commands import main
from rulekb.models import Finding, Severity
from rulekb.report import (_Encoded, _finding_dict, _findings_json, json_text, md_escape, render, status_markdown,
                           to_json)
from rulekb.validate import load_knowledge_base

KB = DATA / "qa" / "kb"
GOLDEN = Path(__file__).resolve().parent / "golden" / "check"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base(KB)


@pytest.fixture(scope="module")
def result(kb):
    return run_checks(kb, KB)


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("RULEKB_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.is_file(), f"{path} is missing: run the tests with RULEKB_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file (RULEKB_UPDATE_GOLDEN=1 updates it)"


@pytest.mark.parametrize("fmt,name", [("text", "report.txt"), ("json", "report.json"), ("junit", "report.junit.xml"),
                                      ("html", "report.html")])
def test_format_golden(kb, result, fmt, name):
    golden(name, render(result, kb, fmt))


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_status_page_golden(kb, result, lang):
    golden(f"status-{lang}.md", status_markdown(result, kb, lang))


def test_json_shape(result, kb):
    data = json.loads(to_json(result, kb))
    assert set(data) == {"findings", "waived", "coverage", "summary", "profile", "languages"}
    keys = {"code", "severity", "lang", "entry", "file", "line", "message", "suggestion"}
    assert all(set(f) == keys for f in data["findings"])
    stale = next(f for f in data["findings"] if f["code"] == "staleness.stale")
    assert stale["entry"] == "retrace.a" and stale["lang"] == "fr" and stale["severity"] == "error"
    assert data["coverage"]["languages"]["fr"] == {"total": 5, "translated": 1, "stale": 1, "missing": 3, "percent": 20}
    assert data["waived"][0]["reason"].startswith("The test release")


def test_junit_fails_the_cases_with_errors(result, kb):
    root = ET.fromstring(render(result, kb, "junit"))
    failed = {(s.get("name"), c.get("name")) for s in root for c in s if c.find("failure") is not None}
    assert failed == {("rulekb.check.de", "ruling retrace-sample-ruling (retrace-sample-ruling)"),
                      ("rulekb.check.fr", "702.78a (retrace.a)")}
    assert root.get("failures") == "2" and root.get("tests") == str(3 * 5)


def test_every_text_is_escaped(kb, result):
    unit = next(u for u in kb.units() if u.id == "retrace.a")
    evil = "<script>alert(1)</script> & [link](http://x) *bold*"
    bad = replace(result, findings=tuple(replace(f, message=evil) if f.entry == "retrace.a" else f for f in result.findings))
    html = render(bad, kb, "html")
    assert "<script>" not in html and "&lt;script&gt;" in html
    page = status_markdown(bad, kb, "fr")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert unit.label in page
    assert md_escape("[x](y) *z* <b>") == r"\[x\]\(y\) \*z\* \<b\>"


def test_status_page_links_to_rules_and_cards(kb, result):
    page = status_markdown(result, kb, "de", link_prefix="../")
    assert "(../rules/retrace.md#702.78a)" in page
    assert "(../cards/sample-card.md)" in page
    assert "<svg" in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


# ---------------------------------------------------------------- the command


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_exit_1_when_errors_remain(capsys):
    code, out, _ = run(capsys, "--root", str(KB), "check")
    assert code == 1 and "FAILED: 3 errors" in out


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
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["errors"] == 3


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


def test_real_data_fails_on_its_seed_defects(capsys):
    code, out, _ = run(capsys, "--root", str(ROOT), "check", "--profile", "ci")
    assert code == 1 and "[staleness.stale] retrace.a (fr)" in out


# ---------------------------------------------------------------- the JSON writer


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from('"\\\n\t\x00\x1f/'))
_LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | _TEXT)
_KEYS = _TEXT | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
_JSON = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=3).map(tuple)
                     | st.dictionaries(_TEXT, inner, max_size=5), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_json_text_is_json_dumps(value):
    """json_text writes exactly what json.dumps(ensure_ascii=False, indent=2, sort_keys=True) writes."""
    assert json_text(value) == _dumps(value)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_KEYS, _LEAVES, max_size=6), st.integers(min_value=0, max_value=4))
def test_json_text_converts_keys_as_json_dumps_does(value, indent):
    try:
        expected = json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=True)
    except TypeError:  # keys of different types do not sort: the same error
        with pytest.raises(TypeError):
            json_text(value, indent)
        return
    assert json_text(value, indent) == expected


@pytest.mark.parametrize("value", [[], {}, "", [[]], {"a": {}}, {"a": [{}, [], {"b": []}]}, 0, -1.5, 1e300, "\u2028é\"\\"])
def test_json_text_edge_cases(value):
    assert json_text(value) == _dumps(value)


@pytest.mark.parametrize("value, error", [
    ({"a": {1, 2}}, TypeError),
    ([object()], TypeError),
    ({(1, 2): "tuple key"}, TypeError),
])
def test_json_text_refuses_what_json_refuses(value, error):
    with pytest.raises(error):
        _dumps(value)
    with pytest.raises(error):
        json_text(value)


def test_json_text_refuses_circular_data():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        json_text({"x": loop})


_FINDING = st.builds(Finding, code=_TEXT, severity=st.sampled_from(list(Severity)), lang=_TEXT, entry=_TEXT,
                     file=_TEXT, line=st.integers(), message=_TEXT, suggestion=_TEXT)


@settings(max_examples=200, deadline=None)
@given(st.lists(_FINDING, max_size=6))
def test_findings_are_written_as_their_dicts(findings):
    """The findings' fast template writes exactly the JSON of their `_finding_dict`s."""
    expected = _dumps({"findings": [_finding_dict(f) for f in findings]})
    assert json_text({"findings": _Encoded(_findings_json(findings, "\n  "))}) == expected


def test_a_finding_that_is_not_plain_is_written_the_general_way():
    odd = [Finding("c", Severity.ERROR, "en", "e", "f", True, "m", "s"), Finding("c", Severity.INFO, "de", "e", "f", 3, None, "s")]  # type: ignore[arg-type]
    assert json_text({"x": _Encoded(_findings_json(odd, "\n  "))}) == _dumps({"x": [_finding_dict(f) for f in odd]})


def test_report_json_is_json_dumps_of_its_data(result, kb):
    data = json.loads(to_json(result, kb))
    assert to_json(result, kb) == _dumps(data) + "\n"
