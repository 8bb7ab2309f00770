"""Where a project's data is (`rulekb.layout`): every YAML file under rules/ and translations/ is
read, or refused with a message — a link to a folder and a name ending in '.YAML' are never
skipped without a word."""

from __future__ import annotations

import os

import pytest

from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.exitcodes import Exit
from rulekb.knowledge import load_knowledge_base
from rulekb.layout import data_files


def test_the_yaml_files_of_the_data_folders_in_order(valid_tree):
    paths, problems = data_files(valid_tree)
    rel = [p.relative_to(valid_tree).as_posix() for p in paths]
    assert problems == [] and rel == sorted(r for r in rel if r.startswith("rules/")) + sorted(
        r for r in rel if r.startswith("translations/"))
    assert "rules/comprehensive/sample.yaml" in rel and "translations/languages.yaml" in rel


def test_a_linked_folder_is_refused_by_name(valid_tree, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "other.yaml").write_text("id: other\n", "utf-8")
    os.symlink(elsewhere, valid_tree / "rules" / "comprehensive" / "linked")
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    (problem,) = err.value.problems
    assert problem.file == "rules/comprehensive/linked" and "link to a folder" in problem.message
    assert main(["--root", str(valid_tree), "validate"]) == Exit.DATA
    assert "rules/comprehensive/linked:1:1: error: " in capsys.readouterr().err


@pytest.mark.parametrize("name", ["other.YAML", "other.Yml", "other.yAml"])
def test_a_yaml_file_whose_suffix_is_not_lowercase_is_refused(valid_tree, name):
    (valid_tree / "rules" / "cards" / name).write_text("id: other\n", "utf-8")
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    (problem,) = err.value.problems
    assert problem.file == f"rules/cards/{name}" and f"ends in '.{name.split('.')[1]}'" in problem.message
    assert f"rename it to other.{name.split('.')[1].lower()}" == problem.hint


def test_other_files_are_left_alone(valid_tree):
    (valid_tree / "rules" / "README.txt").write_text("notes\n", "utf-8")
    (valid_tree / "rules" / "comprehensive" / "sample.yaml.orig").write_text("[\n", "utf-8")
    assert load_knowledge_base(valid_tree).rule("sample") is not None


def test_the_releases_are_the_dates_the_release_files_are_named_by():
    from rulekb.layout import release_dates
    paths = ["rules/releases/2026-01-16.yaml", "rules/releases/2003-03-15.yaml", "rules/releases/notes.yaml",
             "rules/releases/2026-02-30.yaml", "rules/releases/2011-06-17.yml", "rules/comprehensive/2009-05-01.yaml",
             "rules/sources.yaml"]
    assert release_dates(paths) == ("2003-03-15", "2026-01-16")
