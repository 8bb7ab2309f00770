"""rulekb.inputs: every input of a project loaded and checked once, so that `rulekb validate`
refuses whatever `check` or `build` refuses, with the same message (issue 31.8)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

from conftest import data_copy
from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.exitcodes import Exit
from rulekb.inputs import GENERATED_FOLDERS, GENERATED_PAGES, load_inputs, read_content, site_config_problems


def _edit(root: Path, rel: str, old: str, new: str) -> int:
    """Replace the first `old` in the file by `new`; the line where it was."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return text.count("\n", 0, at) + 1


def _append(root: Path, rel: str, text: str) -> int:
    """Append `text` to the file; the line it starts on."""
    path = root / rel
    old = path.read_text(encoding="utf-8")
    if not old.endswith("\n"):
        old += "\n"
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def _renamed_rule_in_termbase(root: Path) -> str:
    line = _edit(root, "translations/termbase.yaml", "    rule: retrace\n", "    rule: retraced\n")
    text = (root / "translations/termbase.yaml").read_text(encoding="utf-8").splitlines()
    start = max(i for i in range(line) if text[i].lstrip().startswith("- id:")) + 1   # the concept's line
    return f"translations/termbase.yaml:{start}:1: error: concept 'retrace' names rule 'retraced', which is not in rules/"


def _termbase_field(root: Path) -> str:
    line = _edit(root, "translations/termbase.yaml", "    rule: retrace\n", "    rule: retrace\n    colour: blue\n")
    return f"translations/termbase.yaml:{line + 1}:"


def _phraseology(root: Path) -> str:
    line = _append(root, "translations/phraseology.yaml", "extra: 1\n")
    return f"translations/phraseology.yaml:{line}:"


def _official(root: Path) -> str:
    line = _append(root, "translations/official.yaml", "extra: 1\n")
    return f"translations/official.yaml:{line}:"


def _waivers(root: Path) -> str:
    line = _edit(root, "translations/qa-waivers.yaml", "waivers: []\n",
                 "waivers:\n  - code: typography.no-such-check\n    entry: retrace.a\n    lang: de\n    reason: because\n")
    return f"translations/qa-waivers.yaml:{line + 1}:"


def _ui_catalog(root: Path) -> str:
    line = _append(root, "translations/ui/de.po", '\nmsgid "Home page\nmsgstr "Startseite"\n')
    return f"translations/ui/de.po:{line + 1}:"


def _locale(root: Path) -> str:
    _edit(root, "translations/languages.yaml", "locale: fr_FR", "locale: qq_QQ")
    return "translations/languages.yaml:1:1: error: language 'fr': Babel does not know the locale 'qq_QQ'"


def _page_not_utf8(root: Path) -> str:
    (root / "content/de/about.md").write_bytes(b"# About\n\nCaf\xe9\n")
    return "content/de/about.md:3:1: error: not UTF-8"


def _page_at_a_generated_path(root: Path) -> str:
    (root / "content/en/keywords.md").write_text("# Keywords\n", encoding="utf-8")
    return "content/en/keywords.md:1:1: error: the hand-written page keywords.md has the path of a generated page"


def _site_config(root: Path) -> str:
    line = _append(root, "mkdocs.yml", "site_url: x\n  bad: [\n")
    return f"mkdocs.yml:{line + 1}:6: error: mkdocs.yml is not valid YAML"


BROKEN: dict[str, Callable[[Path], str]] = {
    "termbase-names-a-renamed-rule": _renamed_rule_in_termbase,
    "termbase-unknown-field": _termbase_field,
    "phraseology": _phraseology,
    "official-names": _official,
    "waivers": _waivers,
    "ui-catalog": _ui_catalog,
    "locale": _locale,
    "page-not-utf8": _page_not_utf8,
    "page-at-a-generated-path": _page_at_a_generated_path,
    "mkdocs-yml": _site_config,
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_validate_check_and_build_refuse_a_broken_input_with_the_same_message(kind, tmp_path, capsys):
    root = data_copy(tmp_path / "project")
    expected = BROKEN[kind](root)
    errors = {}
    for command in (["validate"], ["check", "--output", str(tmp_path / "qa.txt")],
                    ["build", "--site-dir", str(tmp_path / "site")]):
        code = main(["--root", str(root), *command])
        err = capsys.readouterr().err
        assert code == Exit.DATA, (command, err)
        errors[command[0]] = [line for line in err.splitlines() if re.match(r"^\S+:\d+:\d+: error: ", line)]
        assert any(line.startswith(expected) for line in errors[command[0]]), (command, expected, err)
    assert errors["validate"] == errors["check"] == errors["build"]
    assert not (tmp_path / "site").exists() and not (tmp_path / "qa.txt").exists()


def test_a_cached_check_result_still_refuses_a_broken_catalog_page_or_site_config(tmp_path, capsys, monkeypatch):
    """What a check result does not depend on (UI catalogs, pages, mkdocs.yml) is checked on every
    run, also when the result comes from the check cache."""
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    root = data_copy(tmp_path / "project")
    assert main(["--root", str(root), "check", "--output", str(tmp_path / "qa.txt")]) in (Exit.OK, Exit.FINDINGS)
    capsys.readouterr()
    expected = _page_at_a_generated_path(root)
    assert main(["--root", str(root), "check", "--output", str(tmp_path / "qa.txt")]) == Exit.DATA
    assert expected in capsys.readouterr().err


def test_the_seed_project_loads_every_input(seed):
    inputs = load_inputs(seed)
    assert inputs.kb.language_codes == ("en", "de", "fr")
    assert {"de", "fr"} <= set(inputs.uis) and inputs.termbase.concepts and inputs.official.keywords
    assert sorted(inputs.content.pages) == ["de", "en", "fr"] and "index.md" in inputs.content.pages["en"]


def test_the_checks_need_no_site_config_and_the_site_does(tmp_path):
    root = data_copy(tmp_path / "project")
    (root / "mkdocs.yml").unlink()
    assert site_config_problems(root, required=False) == []
    (problem,) = site_config_problems(root, required=True)
    assert (problem.file, problem.line) == ("mkdocs.yml", 1) and "missing" in problem.message
    with pytest.raises(DataError) as err:
        load_inputs(root)
    assert [p.file for p in err.value.problems] == ["mkdocs.yml"]
    load_inputs(root, site=False)


def test_the_site_config_may_use_mkdocs_own_tags(tmp_path):
    root = tmp_path
    (root / "mkdocs.yml").write_text("site_name: !ENV [SITE, rulekb]\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
                                     "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n", encoding="utf-8")
    assert site_config_problems(root, required=True) == []
    (root / "mkdocs.yml").write_text("- a list\n", encoding="utf-8")
    (problem,) = site_config_problems(root, required=True)
    assert "mapping" in problem.message


def test_every_generated_page_lies_where_a_hand_written_page_is_refused(seed):
    """The paths `read_content` refuses cover every page the build generates (its list and the
    render's cannot drift apart)."""
    from rulekb.build import prepare
    site = prepare(seed).site
    for lang, generated in site.generated.items():
        outside = [path for path in generated
                   if not (("/" in path and path.split("/", 1)[0] in GENERATED_FOLDERS) or path in GENERATED_PAGES)]
        assert outside == [], lang
    assert read_content(seed).pages["en"]
