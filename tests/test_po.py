"""Tests for rulekb.po: the translators' round trip through gettext PO catalogs (`rulekb po
export LANG`, `rulekb po import FILE`), on a writable copy of the project's data."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import denormalize, read_po, write_po

from conftest import DATA, ROOT, SEED
from test_yamledit import changed_lines, unit_span
from rulekb import yamledit
from rulekb.commands import main
from rulekb.models import SOURCE_LANGUAGE, KnowledgeBase, Status, Unit, english_hash
from rulekb.po import export
from rulekb.knowledge import load_knowledge_base

FIXTURES = DATA / "po"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A writable copy of the project's data (rules/ and translations/)."""
    root = tmp_path / "project"
    shutil.copytree(SEED / "rules", root / "rules")
    shutil.copytree(ROOT / "translations", root / "translations", ignore=shutil.ignore_patterns("*.po"))
    return root


@pytest.fixture(scope="module")
def kb(seed) -> KnowledgeBase:
    return load_knowledge_base(seed)


def run(capsys, root: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--root", str(root), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def data_files(root: Path) -> dict[str, bytes]:
    """Every data file the import may write (the catalogs themselves excluded)."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for folder in ("rules", "translations") for p in sorted((root / folder).rglob("*"))
            if p.is_file() and p.suffix != ".po"}


def messages(path: Path) -> dict[str, object]:
    with path.open("rb") as f:
        return {m.context: m for m in read_po(f) if m.id}


def previous_msgids(path: Path) -> dict[str, str]:
    """msgctxt -> the `#| msgid` before it."""
    out, pending = {}, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#| "):
            pending.append(line[3:])
        elif line.startswith("msgctxt ") and pending:
            out[denormalize(line[len("msgctxt "):])] = denormalize("\n".join(pending)[len("msgid "):])
            pending = []
    return out


def translate(src: Path, dest: Path, strings: dict[str, str] = {}, unfuzzy: tuple[str, ...] = ()) -> None:
    """What a translator's tool does: set msgstrs, clear fuzzy flags, save (Babel rewrites the file)."""
    with src.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if m.context in strings:
            m.string = strings[m.context]
        if m.context in unfuzzy:
            m.flags.discard("fuzzy")
    with dest.open("wb") as f:
        write_po(f, catalog)


def export_catalog(capsys, root: Path, lang: str) -> Path:
    code, _, err = run(capsys, root, "po", "export", lang)
    assert code == 0, err
    return root / "translations" / lang / "rules.po"


def unit(kb: KnowledgeBase, uid: str) -> Unit:
    return next(u for u in kb.units() if u.id == uid)


def fingerprints(kb: KnowledgeBase) -> dict[tuple[str, str], tuple]:
    return {(u.id, lang): tuple((v.text, v.source, v.status, v.canonical, v.translated_from, v.note) for v in vs)
            for u in kb.units() for lang, vs in u.variants.items()}


# --- export -------------------------------------------------------------------------------------

def test_export_twice_gives_identical_bytes_wherever_the_project_lies(capsys, seed, project: Path, tmp_path: Path):
    first = export_catalog(capsys, project, "de").read_bytes()
    second = export_catalog(capsys, project, "de").read_bytes()
    code, _, _ = run(capsys, seed, "po", "export", "de", "--output", str(tmp_path / "elsewhere.po"))
    assert code == 0
    assert first == second == (tmp_path / "elsewhere.po").read_bytes()


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_one_message_per_unit_with_english(kb: KnowledgeBase, tmp_path: Path, lang: str):
    path = tmp_path / f"{lang}.po"
    path.write_bytes(export(kb, lang).data)
    found = messages(path)
    with_english = [u for u in kb.units() if u.text(SOURCE_LANGUAGE)]
    assert list(found) == [u.id for u in with_english]  # in the knowledge base's order
    for u in with_english:
        m = found[u.id]
        assert m.id == u.text(SOURCE_LANGUAGE).text
        assert m.string == (u.text(lang).text if u.text(lang) else "")
        assert m.locations == [(u.pos.file, u.pos.line)]
    # Babel guesses python-(brace-)format flags from '{X}' and '%'; rule texts are no format strings
    assert "format" not in "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if line.startswith("#,"))


def test_units_without_english_are_named_not_exported(capsys, kb: KnowledgeBase, project: Path):
    missing = [u for u in kb.units() if not u.text(SOURCE_LANGUAGE)]
    assert missing  # the seed rulings that were published in German only
    code, out, _ = run(capsys, project, "po", "export", "de")
    catalog = (project / "translations/de/rules.po").read_text(encoding="utf-8")
    header = catalog.split('msgid ""')[0]
    for u in missing:
        assert f"{u.id} ({u.label})  {u.pos.file}:{u.pos.line}" in out
        assert u.id in header and f'msgctxt "{u.id}"' not in catalog


def test_stale_translation_is_fuzzy_with_the_english_it_was_made_from(kb: KnowledgeBase, tmp_path: Path):
    stale = {u.id: u for u in kb.units() if u.text("fr") and u.text(SOURCE_LANGUAGE)
             and u.text("fr").translated_from != english_hash(u.text(SOURCE_LANGUAGE).text)}
    assert "retrace.a" in stale  # seed 002 translates an older wording of 702.78a
    path = tmp_path / "fr.po"
    path.write_bytes(export(kb, "fr").data)
    found, previous = messages(path), previous_msgids(path)
    assert {ctx for ctx, m in found.items() if m.fuzzy} == set(stale)
    for uid, u in stale.items():
        older = [v.text for v in u.variants[SOURCE_LANGUAGE] if english_hash(v.text) == u.text("fr").translated_from]
        assert previous.get(uid) == (older[0] if older else None)
        assert found[uid].string == u.text("fr").text  # the stale text is kept for the translator to update
    assert previous["retrace.a"] != found["retrace.a"].id


def test_unconfirmed_and_machine_translations_are_fuzzy(capsys, project: Path):
    kb = load_knowledge_base(project)
    n1, n2 = unit(kb, "retrace.n1").text("de"), unit(kb, "retrace.n2").text("de")
    yamledit.write(project, yamledit.plan(project, [yamledit.SetFields(n2.pos.file, n2.pos.line, (("status", "machine"),))]))
    path = project / n1.pos.file
    text = path.read_text(encoding="utf-8")
    line = f"      translated_from: {n1.translated_from}\n"
    assert text.count(line) == 2  # de and fr of note 1 record the same English; de comes first
    path.write_text(text.replace(line, "", 1), encoding="utf-8")
    found = messages(export_catalog(capsys, project, "de"))
    assert found["retrace.n1"].fuzzy and found["retrace.n2"].fuzzy
    assert any("records no translated_from" in c for c in found["retrace.n1"].auto_comments)
    assert any("machine translation" in c for c in found["retrace.n2"].auto_comments)


def test_comments_carry_rule_number_sources_status_and_location(kb: KnowledgeBase, tmp_path: Path):
    path = tmp_path / "fr.po"
    path.write_bytes(export(kb, "fr").data)
    m = messages(path)["retrace.a"]
    u, fr = unit(kb, "retrace.a"), unit(kb, "retrace.a").text("fr")
    comments = " ".join(m.auto_comments)
    assert "subrule 702.78a of rule 702.78 Retrace" in comments
    assert f"English: {u.text('en').status.value}, source {u.text('en').source}" in comments
    assert f"fr: {fr.status.value}, source {fr.source}, translated from English {fr.translated_from}" in comments
    assert m.locations == [(u.pos.file, u.pos.line)]
    ruling = messages(path)["explore-creature-left-battlefield"]
    assert "de has" not in " ".join(ruling.auto_comments)  # other languages' variants are not listed in fr
    de = tmp_path / "de.po"
    de.write_bytes(export(kb, "de").data)
    other = unit(kb, "explore-creature-left-battlefield").variants["de"][1]
    assert f"{other.pos.file}:{other.pos.line}" in " ".join(messages(de)["explore-creature-left-battlefield"].auto_comments)


def test_header_is_deterministic_and_names_the_language(kb: KnowledgeBase, tmp_path: Path):
    path = tmp_path / "fr.po"
    path.write_bytes(export(kb, "fr").data)
    with path.open("rb") as f:
        catalog = read_po(f)
    headers = dict(catalog.mime_headers)
    exported = [u for u in kb.units() if u.text(SOURCE_LANGUAGE)]
    dates = {kb.sources[v.source].date for u in exported for v in (u.text("en"), u.text("fr")) if v} - {None}
    dates |= {r.release for r in kb.rules} | {r.date for r in kb.rulings if r.unit.text(SOURCE_LANGUAGE)}
    assert headers["Language"] == "fr"
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["POT-Creation-Date"] == headers["PO-Revision-Date"] == f"{max(dates)} 00:00+0000"
    assert "YEAR" not in path.read_text(encoding="utf-8") and not catalog.fuzzy


def test_msgfmt_accepts_every_catalog(kb: KnowledgeBase, tmp_path: Path):
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (GNU gettext) is not installed: apt-get install gettext")
    for lang in kb.target_languages:
        path = tmp_path / f"{lang}.po"
        result = export(kb, lang)
        path.write_bytes(result.data)
        check = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / f"{lang}.mo"), str(path)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        assert "warning" not in check.stderr, check.stderr
        assert f"{result.translated} translated message" in check.stderr
        assert f"{result.fuzzy} fuzzy" in check.stderr or result.fuzzy == 0


def test_export_of_an_unknown_language_is_refused(capsys, project: Path):
    code, _, err = run(capsys, project, "po", "export", "dee")
    assert code == 2 and "'dee' is not a registered language" in err and "did you mean 'de'?" in err
    code, _, err = run(capsys, project, "po", "export", "en")
    assert code == 2 and "source language" in err


# --- import: round trips ------------------------------------------------------------------------

def test_export_then_import_without_edits_changes_no_file(capsys, project: Path):
    before = data_files(project)
    for lang in load_knowledge_base(project).target_languages:
        path = export_catalog(capsys, project, lang)
        code, out, err = run(capsys, project, "po", "import", str(path))
        assert code == 0, err
        assert "0 translation(s) written" in out and "no file changed" in out
    assert data_files(project) == before


def test_one_edited_msgstr_changes_exactly_that_unit(capsys, project: Path, tmp_path: Path):
    kb = load_knowledge_base(project)
    target = unit(kb, "retrace.n2")
    published = target.text("de")
    assert kb.sources[published.source].kind == "seed"
    before = data_files(project)
    edited = tmp_path / "de.po"
    translate(export_catalog(capsys, project, "de"), edited, {"retrace.n2": "Eine Karte mit Zurückverfolgen: neu übersetzt."})
    code, out, err = run(capsys, project, "po", "import", str(edited))
    assert code == 0, err
    after = data_files(project)
    assert [p for p in after if after[p] != before[p]] == [target.pos.file]
    # only lines of that unit changed
    old_text = before[target.pos.file].decode("utf-8")
    touched, added = changed_lines(old_text, after[target.pos.file].decode("utf-8"))
    assert touched <= set(unit_span(old_text, target))
    # the translator's text is the canonical draft; the published one stays, verbatim
    kb2 = load_knowledge_base(project)
    now = unit(kb2, "retrace.n2").variants["de"]
    assert now[0].text == "Eine Karte mit Zurückverfolgen: neu übersetzt."
    assert (now[0].status, now[0].source, now[0].canonical) == (Status.DRAFT, "translators", True)
    assert now[0].translated_from == english_hash(target.text("en").text)
    assert [(v.text, v.source, v.canonical) for v in now[1:]] == [(published.text, published.source, False)]
    old, new = fingerprints(kb), fingerprints(kb2)
    assert {k for k in old if old[k] != new[k]} == {("retrace.n2", "de")}
    assert f"new canonical retrace.n2 (702.78 note 2)  {target.pos.file}:" in out


def test_unit_with_several_variants_gets_a_new_canonical_and_keeps_the_others(capsys, project: Path, tmp_path: Path):
    kb = load_knowledge_base(project)
    ruling = unit(kb, "explore-creature-left-battlefield")
    old = ruling.variants["de"]
    assert len(old) == 2 and not old[1].canonical  # the canonical one is second in the file
    edited = tmp_path / "de.po"
    translate(export_catalog(capsys, project, "de"), edited, {ruling.id: "Neue Fassung des Urteils."})
    code, _, err = run(capsys, project, "po", "import", str(edited))
    assert code == 0, err
    now = unit(load_knowledge_base(project), ruling.id).variants["de"]
    assert (now[0].text, now[0].canonical, now[0].status) == ("Neue Fassung des Urteils.", True, Status.DRAFT)
    assert sorted((v.text, v.source, v.canonical) for v in now[1:]) == sorted((v.text, v.source, False) for v in old)


def test_export_to_standard_output(capsys, project: Path):
    code, out, err = run(capsys, project, "po", "export", "fr", "--output", "-")
    assert code == 0 and out.startswith("# French (fr) translations") and "wrote standard output" in err
    assert not (project / "translations/fr/rules.po").exists()


def test_export_through_a_symlink_writes_its_target(capsys, project: Path, tmp_path: Path):
    target = tmp_path / "shared" / "fr.po"
    target.parent.mkdir()
    target.write_text("an old catalog")
    link = tmp_path / "fr-latest.po"
    link.symlink_to(target)
    code, _, _ = run(capsys, project, "po", "export", "fr", "--output", str(link))
    assert code == 0 and link.is_symlink()
    from rulekb.official import load_official
    from rulekb.termbase import load_termbase
    kb = load_knowledge_base(project)
    assert target.read_bytes() == export(kb, "fr", official=load_official(project, kb.language_codes),
                                         termbase=load_termbase(project, kb)).data


def test_first_translation_of_a_unit_adds_its_language(capsys, project: Path, tmp_path: Path):
    kb = load_knowledge_base(project)
    target = unit(kb, "retrace.n3")
    assert target.text("fr") is None
    edited = tmp_path / "fr.po"
    translate(export_catalog(capsys, project, "fr"), edited, {"retrace.n3": "Pour lancer une carte avec le pistage …"})
    code, out, err = run(capsys, project, "po", "import", str(edited))
    assert code == 0, err
    fr = unit(load_knowledge_base(project), "retrace.n3").variants["fr"]
    assert [(v.text, v.status, v.source) for v in fr] == [("Pour lancer une carte avec le pistage …", Status.DRAFT, "translators")]
    text = (project / target.pos.file).read_text(encoding="utf-8")
    assert text.index("    fr:\n    - text: Pour lancer") > text.index(target.text("de").text)  # after de, in registry order
    assert "added" in out


def test_second_import_replaces_the_project_draft(capsys, project: Path, tmp_path: Path):
    for attempt in ("Zauber wirken", "Zaubersprüche wirken"):
        edited = tmp_path / "de.po"
        translate(export_catalog(capsys, project, "de"), edited, {"casting-spells.title": attempt})
        code, out, err = run(capsys, project, "po", "import", str(edited))
        assert code == 0, err
    variants = unit(load_knowledge_base(project), "casting-spells.title").variants["de"]
    assert [v.text for v in variants] == ["Zaubersprüche wirken"]
    assert "replaced" in out


def test_dry_run_reports_and_writes_nothing(capsys, project: Path, tmp_path: Path):
    edited = tmp_path / "de.po"
    translate(export_catalog(capsys, project, "de"), edited, {"casting-spells.title": "Zauber wirken"})
    before = data_files(project)
    code, out, _ = run(capsys, project, "po", "import", str(edited), "--dry-run")
    assert code == 0 and "casting-spells.title" in out and "dry run: nothing was written" in out
    assert data_files(project) == before


# --- import: fuzzy and stale --------------------------------------------------------------------

def test_edited_entry_still_marked_fuzzy_is_not_imported(capsys, project: Path, tmp_path: Path):
    before = data_files(project)
    edited = tmp_path / "fr.po"
    translate(export_catalog(capsys, project, "fr"), edited, {"retrace.a": "Le pistage apparaît sur …"})
    code, out, _ = run(capsys, project, "po", "import", str(edited))
    assert code == 0
    assert "still marked fuzzy" in out and "retrace.a (702.78a)" in out
    assert data_files(project) == before


def test_removing_the_fuzzy_flag_confirms_the_translation(capsys, project: Path, tmp_path: Path):
    kb = load_knowledge_base(project)
    old = unit(kb, "retrace.a")
    edited = tmp_path / "fr.po"
    translate(export_catalog(capsys, project, "fr"), edited, unfuzzy=("retrace.a",))
    code, out, err = run(capsys, project, "po", "import", str(edited))
    assert code == 0, err
    fr = unit(load_knowledge_base(project), "retrace.a").text("fr")
    assert (fr.text, fr.status, fr.source) == (old.text("fr").text, old.text("fr").status, old.text("fr").source)
    assert fr.translated_from == english_hash(old.text("en").text)  # no longer stale
    assert "confirmed" in out


def test_changed_english_is_refused_unless_accepted_as_stale(capsys, project: Path, tmp_path: Path):
    catalog = export_catalog(capsys, project, "de")
    kb = load_knowledge_base(project)
    n2 = unit(kb, "retrace.n2")
    old_english = n2.text("en").text
    # the English changes after the export
    yamledit.write(project, yamledit.plan(project, [yamledit.SetFields(
        n2.pos.file, n2.text("en").pos.line, (("text", old_english + " It keeps its timing."),))]))
    edited = tmp_path / "de.po"
    translate(catalog, edited, {"retrace.n2": "Übersetzt aus der alten Fassung."})
    before = data_files(project)
    code, _, err = run(capsys, project, "po", "import", str(edited))
    assert code == 2
    assert "'retrace.n2'" in err and "no longer the current English" in err and "--accept-stale" in err
    assert "nothing was written" in err and data_files(project) == before
    code, out, err = run(capsys, project, "po", "import", str(edited), "--accept-stale")
    assert code == 0, err
    de = unit(load_knowledge_base(project), "retrace.n2").text("de")
    assert de.text == "Übersetzt aus der alten Fassung."
    assert de.translated_from == english_hash(old_english)  # honest: what it was translated from
    assert "shows as stale" in out
    again = messages(export_catalog(capsys, project, "de"))["retrace.n2"]
    assert again.fuzzy and any("no longer stored" in c for c in again.auto_comments)


def test_untouched_entries_of_an_old_catalog_are_not_refused(capsys, project: Path):
    catalog = export_catalog(capsys, project, "de")
    n2 = unit(load_knowledge_base(project), "retrace.n2")
    yamledit.write(project, yamledit.plan(project, [yamledit.SetFields(
        n2.pos.file, n2.text("en").pos.line, (("text", n2.text("en").text + " (new)"),))]))
    before = data_files(project)
    code, out, err = run(capsys, project, "po", "import", str(catalog))
    assert code == 0, err
    assert data_files(project) == before


# --- import: refused catalogs -------------------------------------------------------------------

def refused(capsys, root: Path, *argv: str) -> str:
    before = data_files(root)
    code, _, err = run(capsys, root, "po", "import", *argv)
    assert code == 2
    assert "nothing was written" in err
    assert data_files(root) == before
    return err


def test_broken_catalog_is_refused_with_its_line(capsys, project: Path):
    err = refused(capsys, project, str(FIXTURES / "broken.po"))
    assert "broken.po:15:1: error: PO syntax error: a string is not closed" in err


@pytest.mark.parametrize("entry,line,what", [
    ('msgctxt "retrace.title"\nmsgid "Retrace"\nmsgstr "Zur\\xfcck"\n', 9, "unsupported escape '\\x'"),
    ('msgctxt "retrace.title"\nmsgid "Retrace"\n\nmsgctxt "retrace.n1"\n', 8, "the entry has no msgstr"),
    ('msgstr "Zurückverfolgen"\n', 7, "'msgstr' is out of place"),
    ('msgctxt "retrace.title"\nmsgid "Retrace"\nmsgtxt "x"\n', 9, "unknown keyword 'msgtxt'"),
    ('"Zurückverfolgen"\n', 7, "a string outside an entry"),
])
def test_syntax_errors_are_refused_with_their_line(capsys, project: Path, tmp_path: Path, entry, line, what):
    path = tmp_path / "de.po"
    path.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n# x\n'
                    + entry, encoding="utf-8")
    err = refused(capsys, project, str(path))
    assert f"de.po:{line}:1: error:" in err and what in err


def test_catalog_for_an_unregistered_language_is_refused(capsys, project: Path):
    err = refused(capsys, project, str(FIXTURES / "foreign.po"))
    assert "language 'it' is not a registered language" in err and "rulekb lang add it" in err


def test_catalog_whose_language_contradicts_its_place_is_refused(capsys, project: Path):
    french = export_catalog(capsys, project, "fr")
    misplaced = project / "translations" / "de" / "rules.po"
    misplaced.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(french, misplaced)
    err = refused(capsys, project, str(misplaced))
    assert "Language: fr, but its file name says 'de'" in err
    err = refused(capsys, project, str(french), "--lang", "de")
    assert "is for 'fr' (French), not 'de'" in err


def test_catalog_under_an_unregistered_folder_is_refused_unless_its_language_is_confirmed(capsys, project: Path):
    """translations/it/rules.po whose header says Language: de must not overwrite the German
    texts: neither its folder nor its name says German (issue 20, 6)."""
    misplaced = project / "translations" / "it" / "rules.po"
    misplaced.parent.mkdir(parents=True)
    translate(export_catalog(capsys, project, "de"), misplaced, {"retrace.n2": "Eine italienische Übersetzung?"})
    before = data_files(project)
    code, out, err = run(capsys, project, "po", "import", str(misplaced))
    line = next(i for i, text in enumerate(misplaced.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith('"Language:'))
    assert code == 2 and out == "" and f"rules.po:{line}:1: error: the catalog says Language: de" in err
    assert "neither its folder (it) nor its file name (rules) names a registered language" in err
    assert "rulekb lang add it" in err and "--lang de" in err
    assert data_files(project) == before
    code, out, err = run(capsys, project, "po", "import", str(misplaced), "--lang", "de")  # the translator says so
    assert code == 0 and "1 translation(s) written" in out, err


def test_a_full_disk_during_the_import_writes_nothing_and_leaves_no_temporary_file(capsys, project: Path,
                                                                                   tmp_path: Path, monkeypatch):
    """Issue 20, 8: the import writes two YAML files; the disk fills while the second is
    written: a file:line error with its fix, exit 2, every file as it was, nothing left behind."""
    import errno
    import os

    from rulekb import files
    edited = tmp_path / "de.po"
    translate(export_catalog(capsys, project, "de"), edited,
              {"retrace.n2": "Neu übersetzt.", "buyback.a": "Rückkauf, neu übersetzt."})
    before = data_files(project)
    synced: list[int] = []
    real_fsync = os.fsync

    def fills_up(fd: int) -> None:
        synced.append(fd)
        if len(synced) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)
    monkeypatch.setattr(files.os, "fsync", fills_up)
    code, out, err = run(capsys, project, "po", "import", str(edited))
    assert code == 2 and "Traceback" not in err
    assert ".yaml:1:1: error: cannot write " in err and "No space left on device" in err
    assert "fix: free some disk space, then run the command again" in err
    assert len(synced) == 2 and data_files(project) == before
    assert [p.name for p in project.rglob("*.rulekb-tmp")] == []


def test_english_or_languageless_catalog_is_refused(capsys, project: Path, tmp_path: Path):
    for header, what in (('"Language: en\\n"\n', "for English, the source language"), ("", "no Language header")):
        path = tmp_path / "x.po"
        path.write_text(f'msgid ""\nmsgstr ""\n{header}\nmsgctxt "retrace.title"\nmsgid "Retrace"\nmsgstr "R"\n',
                        encoding="utf-8")
        assert what in refused(capsys, project, str(path))


def test_unknown_msgctxt_is_refused_with_did_you_mean(capsys, project: Path):
    err = refused(capsys, project, str(FIXTURES / "unknown-context.po"), "--lang", "de")
    assert "unknown-context.po:9:1: error: unknown msgctxt 'retrace.titel'" in err
    assert "did you mean 'retrace.title'?" in err


def test_duplicate_msgctxt_is_refused(capsys, project: Path, tmp_path: Path):
    path = tmp_path / "de.po"
    text = export_catalog(capsys, project, "de").read_text(encoding="utf-8")
    path.write_text(text + '\nmsgctxt "retrace.title"\nmsgid "Retrace"\nmsgstr "Noch einmal"\n', encoding="utf-8")
    err = refused(capsys, project, str(path))
    assert "msgctxt 'retrace.title' appears twice (first at line" in err


def test_catalog_that_is_not_utf8_is_refused(capsys, project: Path, tmp_path: Path):
    path = tmp_path / "de.po"
    path.write_bytes('msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgctxt "retrace.title"\nmsgid "Retrace"\nmsgstr "Zurück"\n'
                     .encode("latin-1"))
    err = refused(capsys, project, str(path))
    assert "de.po:7:1: error: the catalog is not UTF-8" in err and "msgconv" in err


def test_every_problem_is_reported_at_once(capsys, project: Path, tmp_path: Path):
    path = tmp_path / "de.po"
    path.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
                    'msgctxt "retrace.titel"\nmsgid "Retrace"\nmsgstr "A"\n\n'
                    'msgctxt "retrace.summery"\nmsgid "x"\nmsgstr "B"\n', encoding="utf-8")
    err = refused(capsys, project, str(path))
    assert "'retrace.titel'" in err and "'retrace.summery'" in err and "2 problem(s)" in err


def test_a_catalog_of_other_messages_is_refused_as_a_whole(capsys, project: Path, tmp_path: Path):
    path = tmp_path / "de.po"
    path.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Search"\nmsgstr "Suche"\n\n'
                    'msgid "Next"\nmsgstr "Weiter"\n', encoding="utf-8")
    err = refused(capsys, project, str(path))
    assert "de.po:5:1: error: no entry of this catalog names a text unit" in err and "1 problem(s)" in err


# ---------------------------------------------------------------- parts of the catalog


def test_export_a_part_or_a_set_and_import_it_back(capsys, project):
    code, out, _ = run(capsys, project, "po", "export", "de", "--part", "rulings")
    assert code == 0 and "translations/de/rulings.po" in out
    rulings = messages(project / "translations/de/rulings.po")
    kb = load_knowledge_base(project)
    assert set(rulings) == {r.id for r in kb.rulings if r.unit.text(SOURCE_LANGUAGE)}
    code, out, _ = run(capsys, project, "po", "export", "de", "--part", "rules")
    rules = messages(project / "translations/de/rules-only.po")
    assert set(rules) == {u.id for r in kb.rules for u in r.units if u.text(SOURCE_LANGUAGE)}
    # the rulings of the cards printed in one set: Queen's Agent's German explore rulings are XLN's
    code, out, _ = run(capsys, project, "po", "export", "de", "--set", "xln")
    xln = messages(project / "translations/de/rulings-xln.po")
    assert "explore-creature-left-battlefield" in xln and xln["explore-creature-left-battlefield"].string
    # a catalog of a part imports like the whole one: nothing to write when nothing was edited
    before = data_files(project)
    for name in ("rulings.po", "rules-only.po", "rulings-xln.po"):
        assert run(capsys, project, "po", "import", str(project / "translations/de" / name))[0] == 0
    assert data_files(project) == before


def test_export_of_a_set_no_card_is_printed_in_is_refused(capsys, project):
    code, out, err = run(capsys, project, "po", "export", "de", "--set", "ZZZ")
    assert code == 2 and "no card of the knowledge base is printed in the set 'ZZZ'" in out + err
    assert not (project / "translations/de/rulings-zzz.po").exists()
