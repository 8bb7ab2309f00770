"""The `rulekb` command line: validate counts, show by old and current numbers, help."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from rulekb.cli import COMMANDS, main


def run(capsys, *argv):
    code = main(["--root", str(ROOT), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_validate_prints_counts(capsys):
    code, out, _ = run(capsys, "validate")
    assert code == 0
    counts = dict(line.split()[:2] for line in out.splitlines()[1:6])
    assert counts == {"rules": "5", "subrules": "11", "notes": "14", "rulings": "6", "cards": "12"}
    assert "texts fr" in out and "texts de" in out


def test_show_french_text(capsys):
    code, out, _ = run(capsys, "show", "702.78a", "--lang", "fr")
    assert code == 0
    assert "La pistage apparaît sur certains éphémères et rituels." in out
    assert "seed-002" in out and "stale" in out  # translated from the older English wording


def test_show_current_number_finds_retrace(capsys):
    code, out, _ = run(capsys, "show", "702.81a")
    assert code == 0
    assert "702.81a is the number of retrace" in out and "the text here is 702.78a of the release of 2011-05-01" in out
    assert "Retrace appears on some instants and sorceries." in out


@pytest.mark.parametrize("number, expected", [
    ("702.24", "702.24 is 702.24 in the rules release of 2011-05-01"),
    ("702.27a", "702.27a is the number of buyback in the rules releases since 2021-04 (current)"),
    ("702.50", "702.50 is the number of dredge in the rules releases from 2011-06 until 2013-07"),
    ("701.44", "701.44 is the number of explore"),
])
def test_show_resolves_history(capsys, number, expected):
    code, out, _ = run(capsys, "show", number)
    assert code == 0 and expected in out


def test_show_all_languages_marks_missing(capsys):
    code, out, _ = run(capsys, "show", "702.24a", "--all-languages")
    assert code == 0 and "fr: (missing: no fr text)" in out and "Rückkauf erscheint" in out


@pytest.mark.parametrize("argv, message", [
    (["show", "999.1"], "no rule 999.1 in this knowledge base"),
    (["show", "702.78z"], "no rule 702.78z"),
    (["show", "seven"], "'seven' is not a rule number"),
    (["show", "702.78a", "--lang", "xx"], "unknown language 'xx'"),
])
def test_show_errors(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_help_for_every_command():
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "rulekb.cli", command.name, "--help"],
                              capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "tools")})
        assert done.returncode == 0 and command.help.split(";")[0] in done.stdout.replace("\n", " ")
