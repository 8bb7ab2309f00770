"""Importer step 2: merging rules releases into the knowledge base (importers/cr.py), with rule
identity across renumbering (importers/identity.py) and the release view (releases.py).

Two kinds of input: the four official releases of ../shared/data (imported once per session
into a copy of the project's data: every rule line of every file must be found in the
knowledge base for its release, and the number histories must agree with the archive), and
the synthetic releases of tests/data/cr/ (a release nobody has seen, renumbered, in cp1252
and UTF-16)."""

from __future__ import annotations

import codecs
import re
import shutil
from pathlib import Path

import pytest

from conftest import DATA, RELEASES, data_copy, official_lines, release_file, rules_digest
from rulekb.commands import main
from rulekb.describe import release_lines
from rulekb.importers.cr import import_release, import_releases, importer_version
from rulekb.releases import english_at, english_versions, numbering
from rulekb.changes import compare_releases
from rulekb.models import SOURCE_LANGUAGE, english_hash
from rulekb.knowledge import load_knowledge_base

SEED_RULES = ("retrace", "buyback", "dredge", "explore", "casting-spells")


# ---------------------------------------------------------------- the official releases

@pytest.mark.parametrize("date", RELEASES)
def test_every_rule_line_of_every_release_is_in_the_knowledge_base(full, shared, date):
    _, _, kb, _ = full
    numbered, terms = official_lines(release_file(shared, date))
    names = numbering(kb, date)
    assert kb.release(date) is not None
    missing = []
    for number, text, after in numbered:
        meaning = names.get(number)
        if meaning is None:
            missing.append(f"{number}: no rule has this number in {date}")
            continue
        rule = meaning.rule
        if meaning.subrule is not None:
            units = [meaning.subrule.unit]
        else:
            units = [u for u in (rule.title, rule.text) if u is not None]
        stored = [v.text for u in units if (v := english_at(u, date, rule.release)) is not None]
        wanted = "\n".join([text] + after)
        if not any(s == wanted or s == text for s in stored):
            missing.append(f"{number}: {text[:60]!r} not among {[s[:60] for s in stored]}")
    assert not missing, f"{len(missing)} lines of {date} not found, e.g. {missing[:5]}"
    # the knowledge base knows exactly these numbers for the release: nothing more
    assert len(names) == len(numbered)
    glossary = {}
    for entry in kb.glossary:
        term = english_at(entry.term, date)
        definition = english_at(entry.definition, date)
        if term is not None:
            glossary[term.text] = definition.text if definition else None
    assert glossary == dict(terms)


# From ../shared/data/README.md, "Rule-number history, read off the archive", for our releases.
ARCHIVE = {
    "buyback": {"2009-07-11": "702.24", "2011-05-01": "702.24", "2026-01-16": "702.27"},
    "dredge": {"2009-07-11": "702.49", "2011-05-01": "702.49", "2026-01-16": "702.52"},
    "retrace": {"2009-07-11": "702.78", "2011-05-01": "702.78", "2026-01-16": "702.81"},
    "explore": {"2018-01-19": "701.38", "2026-01-16": "701.44"},
}
# 2018-01-19 lies in the archive's spans 702.26 (2013-07 .. 2021-04), 702.51, 702.80
ARCHIVE["buyback"]["2018-01-19"] = "702.26"
ARCHIVE["dredge"]["2018-01-19"] = "702.51"
ARCHIVE["retrace"]["2018-01-19"] = "702.80"
REUSED_2026 = {"702.24": "Cumulative Upkeep", "702.49": "Ninjutsu", "702.78": "Conspire", "701.38": "Vote"}


@pytest.mark.parametrize("rule_id", sorted(ARCHIVE))
def test_number_histories_computed_by_the_import_agree_with_the_archive(full, rule_id):
    _, _, kb, _ = full
    rule = kb.rule(rule_id)
    imported = {rel: entry.number for entry in rule.history for rel in entry.releases}
    assert imported == ARCHIVE[rule_id]
    assert (rule.number, rule.release) == (ARCHIVE[rule_id]["2026-01-16"], "2026-01-16")


def test_old_numbers_name_other_rules_today(full):
    _, _, kb, _ = full
    names = numbering(kb, "2026-01-16")
    for number, title in REUSED_2026.items():
        assert names[number].rule.title.text(SOURCE_LANGUAGE).text == title


@pytest.mark.parametrize("rule_id", SEED_RULES)
def test_seed_rules_are_matched_not_duplicated_and_keep_their_translations(full, rule_id):
    _, before, kb, _ = full
    old, new = before.rule(rule_id), kb.rule(rule_id)
    assert new.file == old.file
    title = old.title.text(SOURCE_LANGUAGE).text if old.title else None
    if title and "." in old.number:
        same_title = [r.id for r in kb.rules if r.title and "." in r.number
                      and any(v.text == title for v in r.title.variants.get(SOURCE_LANGUAGE, ()))]
        assert same_title == [rule_id]
    old_units = {u.id: u for u in old.units}
    new_units = {u.id: u for u in new.units}
    for uid, unit in old_units.items():
        for lang, variants in unit.variants.items():
            kept = [(v.text, v.source, v.translated_from) for v in new_units[uid].variants[lang]]
            for v in variants:  # never a text dropped, English included
                assert (v.text, v.source, v.translated_from) in kept, (uid, lang)


def test_a_changed_english_makes_its_translations_stale(full):
    _, before, kb, _ = full
    german = kb.rule("retrace").subrule("a").unit
    assert german.label == "702.81a"
    de = german.text("de")
    assert de.translated_from == english_hash(before.rule("retrace").subrule("a").unit.text(SOURCE_LANGUAGE).text)
    english = german.text(SOURCE_LANGUAGE)
    assert english.source == "cr-2026-01-16" and english.releases == ("2026-01-16",)
    assert de.translated_from != english_hash(english.text)
    versions = [rels for rels, _ in english_versions(german)]
    assert versions == [("2009-07-11",), ("2011-05-01",), ("2018-01-19",), ("2026-01-16",)]


def test_casting_spells_subrules_follow_their_text_across_lettering(full):
    _, _, kb, _ = full
    rule = kb.rule("casting-spells")
    total_cost = rule.subrule_in("2011-05-01", "e")
    assert total_cost.unit.id == "casting-spells.e"
    assert total_cost.letters["2026-01-16"] == "f" and total_cost.number == "601.2f"
    assert english_at(total_cost.unit, "2026-01-16").text.startswith("The player determines the total cost")


def test_reimporting_a_release_changes_no_byte(full, shared, tmp_path):
    """Imported again in full (--force: the merge, identity and all), a release changes nothing."""
    root = tmp_path / "again"
    shutil.copytree(full[0], root)
    before = rules_digest(root)
    result = import_release(root, release_file(shared, "2011-05-01"), force=True)
    assert [r.release for r in result.reports] == ["2011-05-01"] and result.skipped == ()
    assert (result.added, result.changed, result.deleted) == ((), (), ())
    assert rules_digest(root) == before
    assert "nothing changed" in "\n".join(result.lines())


def show(kb, ref: str, release: str, lang: str | None = None) -> int:
    """What `rulekb show REF --release RELEASE` prints and its exit code."""
    lines, meaning = release_lines(kb, ref, release, (lang,) if lang else (SOURCE_LANGUAGE,))
    print("\n".join(lines))
    return 0 if meaning is not None else 1


def test_show_release_says_what_a_number_means_there(full, capsys):
    root, _, kb, _ = full
    assert main(["--root", str(root), "show", "702.78", "--release", "2026-01-16"]) == 0
    out = capsys.readouterr().out
    assert "In the rules release of 2026-01-16, 702.78 is Conspire (id conspire)." in out
    assert "702.78 was Retrace (id retrace) in the releases 2009-07-11, 2011-05-01; Retrace is 702.81 in the release of 2026-01-16." in out
    assert "702.78a  [conspire.a]" in out
    assert show(kb, "702.78a", "2011-05-01", "de") == 0
    out = capsys.readouterr().out
    assert "702.78a is Retrace (id retrace), subrule 702.78a." in out
    assert "Zurückverfolgen erscheint" in out and "made from this release's English" in out
    assert show(kb, "702.990", "2026-01-16") == 1
    assert "there is no rule 702.990" in capsys.readouterr().out


def test_show_release_with_the_curated_knowledge_base_says_what_it_does_not_know(seed, capsys):
    assert main(["--root", str(seed), "show", "702.78", "--release", "2026-01-16"]) == 1
    out = capsys.readouterr().out
    assert "cannot say which rule 702.78 is in the rules release of 2026-01-16: that release is not imported" in out
    assert "702.78 was Retrace (id retrace) from 2009-07-11 until 2011-05-01 (source cr-archive); " \
           "Retrace is 702.81 in the release of 2026-01-16 (source cr-archive)." in out
    assert "rulekb import cr" in out
    assert main(["--root", str(seed), "show", "702.78", "--release", "2031-01-01"]) == 1
    assert "knows no rules release after 2026-01-16" in capsys.readouterr().out
    assert main(["--root", str(seed), "show", "702.78", "--release", "2026-13-01"]) == 2
    assert "is not a date" in capsys.readouterr().err


# ---------------------------------------------------------------- a release nobody has seen

SYNTHETIC = (DATA / "cr" / "release-2030-01-01.txt", DATA / "cr" / "release-2031-06-01.txt")


def write(path: Path, text: str, encoding: str, newline: str) -> Path:
    data = text.replace("\n", newline)
    raw = codecs.BOM_UTF8 + data.encode("utf-8") if encoding == "utf-8-sig" else data.encode(encoding)
    path.write_bytes(raw)
    return path


@pytest.fixture
def synthetic(tmp_path):
    """The project's data with the synthetic release of 2030 imported."""
    root = data_copy(tmp_path / "kb")
    import_release(root, SYNTHETIC[0])
    return root


@pytest.mark.parametrize("encoding, newline", [("cp1252", "\r\n"), ("utf-16-le", "\r"), ("utf-16-be", "\n"),
                                               ("utf-8-sig", "\r")])
def test_an_unseen_release_is_imported(synthetic, tmp_path, encoding, newline):
    before = load_knowledge_base(synthetic)
    file = write(tmp_path / "next.txt", SYNTHETIC[1].read_text("utf-8"), encoding, newline)
    result = import_release(synthetic, file)
    report = result.reports[0]
    assert report.release == "2031-06-01"
    kb = load_knowledge_base(synthetic)
    names = {n: (m.rule.id, m.subrule.unit.id if m.subrule else None) for n, m in numbering(kb, "2031-06-01").items()}
    old = {n: (m.rule.id, m.subrule.unit.id if m.subrule else None) for n, m in numbering(kb, "2030-01-01").items()}
    # renumbered: the same rules under new numbers
    assert names["702.3"] == old["702.2"] and names["702.4"] == old["702.3"] == ("retrace", None)
    assert names["100.3"] == old["100.2"]
    # inserted: new rules and a new subrule
    assert names["702.2"][0] not in {rid for rid, _ in old.values()}
    assert names["100.2"][0] not in {rid for rid, _ in old.values()}
    assert names["702.3c"] == old["702.2b"] and names["702.3b"][1] not in {uid for _, uid in old.values()}
    # the number history of the renumbered rule
    deathtouch = kb.rule(names["702.3"][0])
    assert {rel: e.number for e in deathtouch.history for rel in e.releases} == {"2030-01-01": "702.2", "2031-06-01": "702.3"}
    assert (deathtouch.number, deathtouch.release) == ("702.3", "2031-06-01")
    # an unchanged text gains the release, a changed one a new version that becomes canonical
    to_play = kb.rule(names["100.3"][0]).text
    assert [v.releases for v in to_play.variants[SOURCE_LANGUAGE]] == [("2030-01-01", "2031-06-01")]
    retrace_a = kb.rule("retrace").subrule("a").unit
    english = retrace_a.variants[SOURCE_LANGUAGE]
    assert english[0].source == "cr-2031-06-01" and english[0].canonical and english[0].releases == ("2031-06-01",)
    assert any(v.releases == ("2030-01-01",) for v in english[1:])
    assert retrace_a.label == "702.4a"
    # the German text stays, and is stale now
    german = retrace_a.text("de")
    assert german.text == before.rule("retrace").subrule("a").unit.text("de").text
    assert german.translated_from != english_hash(english[0].text)
    # the glossary: a new term, a changed definition
    terms = {g.term.text(SOURCE_LANGUAGE).text: g for g in kb.glossary}
    assert english_at(terms["Flying"].term, "2030-01-01") is None
    assert [v.releases for v in terms["Deathtouch"].definition.variants[SOURCE_LANGUAGE]] == [("2031-06-01",), ("2030-01-01",)]
    # the source is registered, the file's comments kept
    sources = (synthetic / "rules" / "sources.yaml").read_text("utf-8")
    assert sources.startswith("# Every source") and "  cr-2031-06-01:\n    title: Magic Comprehensive Rules, effective 2031-06-01" in sources
    assert kb.sources["cr-2031-06-01"].kind == "comprehensive-rules"


def test_the_same_release_in_any_encoding_gives_the_same_data(tmp_path):
    text = SYNTHETIC[1].read_text("utf-8")
    trees = []
    for encoding, newline in (("utf-8", "\n"), ("cp1252", "\r\n"), ("utf-16-le", "\r")):
        root = data_copy(tmp_path / encoding)
        import_release(root, SYNTHETIC[0])
        import_release(root, write(tmp_path / f"{encoding}.txt", text, encoding, newline))
        # all alike but the file name recorded with the release
        trees.append({k: v for k, v in rules_digest(root).items() if not k.startswith("rules/releases/") and k != "rules/sources.yaml"})
    assert trees[0] == trees[1] == trees[2]


def test_reimport_of_an_unseen_release_changes_no_byte(synthetic):
    import_release(synthetic, SYNTHETIC[1])
    before = rules_digest(synthetic)
    result = import_releases(synthetic, list(SYNTHETIC), force=True)
    assert [r.release for r in result.reports] == ["2030-01-01", "2031-06-01"]
    assert (result.added, result.changed, result.deleted) == ((), (), ())
    assert rules_digest(synthetic) == before


def test_a_release_imported_already_is_skipped_unless_forced(synthetic, capsys):
    """A file whose release file records its SHA-256, its place and this importer's version is
    imported already: skipped, and said so; --force imports it again (and changes nothing)."""
    import_release(synthetic, SYNTHETIC[1])
    manifest = (synthetic / "rules" / "releases" / "2031-06-01.yaml").read_text("utf-8")
    assert f"importer: {importer_version()}\n" in manifest
    before = rules_digest(synthetic)
    files = [str(f) for f in SYNTHETIC]
    assert main(["--root", str(synthetic), "import", "cr", *files]) == 0
    out = capsys.readouterr().out
    assert out.count("skipped the Comprehensive Rules effective") == 2 and "--force imports it again" in out
    assert "imported the Comprehensive Rules" not in out and "files: nothing changed" in out
    assert rules_digest(synthetic) == before
    assert main(["--root", str(synthetic), "import", "cr", "--force", *files]) == 0
    out = capsys.readouterr().out
    assert "skipped" not in out and out.count("imported the Comprehensive Rules effective") == 2
    assert rules_digest(synthetic) == before


def test_a_release_is_imported_again_when_its_file_or_the_importer_changed(synthetic, tmp_path):
    """Not skipped: a file whose bytes differ from those recorded (the same release in another
    encoding: the same data, another SHA-256), and a release imported by another version of the
    importer (its release file says which): both are imported, the release file then says so."""
    manifest = synthetic / "rules" / "releases" / "2030-01-01.yaml"
    recoded = write(tmp_path / "release-2030-01-01.txt", SYNTHETIC[0].read_text("utf-8"), "cp1252", "\r\n")
    result = import_release(synthetic, recoded)
    assert [r.release for r in result.reports] == ["2030-01-01"] and result.skipped == ()
    assert result.changed == ("rules/releases/2030-01-01.yaml",)
    assert "encoding: cp1252" in manifest.read_text("utf-8")
    older = manifest.read_text("utf-8").replace(f"importer: {importer_version()}", "importer: 0123456789abcdef01234567")
    manifest.write_text(older, "utf-8")
    result = import_release(synthetic, recoded)
    assert [r.release for r in result.reports] == ["2030-01-01"] and result.changed == ("rules/releases/2030-01-01.yaml",)
    assert f"importer: {importer_version()}\n" in manifest.read_text("utf-8")
    assert import_release(synthetic, recoded).skipped[0].release == "2030-01-01"


def test_an_older_release_imported_later_keeps_the_newest_canonical(tmp_path):
    root = data_copy(tmp_path / "kb")
    import_release(root, SYNTHETIC[1])
    import_release(root, SYNTHETIC[0])
    kb = load_knowledge_base(root)
    retrace = kb.rule("retrace")
    assert (retrace.number, retrace.release) == ("702.4", "2031-06-01")
    assert retrace.subrule("a").unit.text(SOURCE_LANGUAGE).releases == ("2031-06-01",)
    assert {rel: e.number for e in retrace.history for rel in e.releases} == {"2030-01-01": "702.3", "2031-06-01": "702.4"}


def _release_as(tmp_path: Path, source: Path, date: str, said: str) -> Path:
    """A synthetic release's text as the release of `date` (its first lines say `said`)."""
    text = source.read_text("utf-8")
    text = re.sub(r"effective as of [A-Z][a-z]+ \d+, \d{4}\.", f"effective as of {said}.", text)
    return write(tmp_path / f"release-{date}.txt", text, "utf-8", "\n")


def _releases_line(path: Path, text: str) -> str:
    """The `releases:` line of the English variant with the text `text` in the file `path`."""
    lines = path.read_text("utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() in (f"- text: {text}", f"text: {text}"))
    return next(line.strip() for line in lines[at:] if line.strip().startswith("releases:"))


def test_a_new_release_extends_the_ranges_of_the_texts(synthetic, tmp_path):
    """The files list each text's releases as ranges: a text that continues in a new release
    extends its range to it, one that stops keeps its range, one that comes back gets a new
    range; a release imported later between others splits a range the text is not in. Each
    state loads, and importing all again changes no byte."""
    import_release(synthetic, SYNTHETIC[1])
    section = synthetic / "rules" / "comprehensive" / "section-keyword-abilities.yaml"
    retrace = synthetic / "rules" / "comprehensive" / "retrace.yaml"
    old_a = english_versions(load_knowledge_base(synthetic).rule("retrace").subrule("a").unit)
    (old_text, _), (new_text, _) = [(v.text, v.releases) for _, v in old_a][-2:]
    assert _releases_line(retrace, old_text) == "releases: '2030-01-01'"
    assert _releases_line(retrace, new_text) == "releases: '2031-06-01'"
    assert _releases_line(section, "Deathtouch") == "releases: 2030-01-01..2031-06-01"
    # 2032: the text of 2030 again (Retrace's subrule a as it was then), then 2030-06-01 (as 2031)
    import_release(synthetic, _release_as(tmp_path, SYNTHETIC[0], "2032-01-01", "January 1, 2032"))
    assert _releases_line(retrace, old_text) == "releases: 2030-01-01, 2032-01-01"       # back again
    assert _releases_line(retrace, new_text) == "releases: '2031-06-01'"                 # stopped
    assert _releases_line(section, "Deathtouch") == "releases: 2030-01-01..2032-01-01"   # continued
    import_release(synthetic, _release_as(tmp_path, SYNTHETIC[1], "2030-06-01", "June 1, 2030"))
    assert _releases_line(retrace, new_text) == "releases: 2030-06-01..2031-06-01"
    assert _releases_line(retrace, old_text) == "releases: 2030-01-01, 2032-01-01"
    assert _releases_line(section, "Deathtouch") == "releases: 2030-01-01..2032-01-01"   # holds 2030-06-01 now
    kb = load_knowledge_base(synthetic, cache=False)
    english = {v.text: v.releases for v in kb.rule("retrace").subrule("a").unit.variants[SOURCE_LANGUAGE]}
    assert english[old_text] == ("2030-01-01", "2032-01-01")
    assert english[new_text] == ("2030-06-01", "2031-06-01")
    before = rules_digest(synthetic)
    files = [SYNTHETIC[0], tmp_path / "release-2030-06-01.txt", SYNTHETIC[1], tmp_path / "release-2032-01-01.txt"]
    result = import_releases(synthetic, files, force=True)
    assert (result.added, result.changed, result.deleted) == ((), (), ())
    assert rules_digest(synthetic) == before


def test_a_release_between_two_others_splits_the_ranges_of_texts_not_in_it(synthetic, tmp_path):
    """2030-01-01 and 2031-06-01 imported, then 2030-06-01 (2030's text with Deathtouch's 702.2a
    reworded): the wording of 702.2a of both releases around it is in two ranges now."""
    import_release(synthetic, SYNTHETIC[1])
    section = synthetic / "rules" / "comprehensive" / "section-keyword-abilities.yaml"
    assert _releases_line(section, "Deathtouch is a static ability.") == "releases: 2030-01-01..2031-06-01"
    middle = _release_as(tmp_path, SYNTHETIC[0], "2030-06-01", "June 1, 2030")
    middle.write_text(middle.read_text("utf-8").replace("702.2a Deathtouch is a static ability.",
                                                        "702.2a Deathtouch is a static keyword ability."), "utf-8")
    result = import_release(synthetic, middle)
    assert "rules/comprehensive/section-keyword-abilities.yaml" in result.changed
    assert _releases_line(section, "Deathtouch is a static ability.") == "releases: 2030-01-01, 2031-06-01"
    assert _releases_line(section, "Deathtouch is a static keyword ability.") == "releases: '2030-06-01'"
    assert _releases_line(section, "Deathtouch") == "releases: 2030-01-01..2031-06-01"   # in all three
    kb = load_knowledge_base(synthetic, cache=False)
    unit = kb.rule("deathtouch").subrule("a").unit
    assert [v.releases for v in unit.variants[SOURCE_LANGUAGE]] == [("2030-01-01", "2031-06-01"), ("2030-06-01",)]


def test_import_into_a_dataset_leaves_the_project_alone(tmp_path, capsys):
    project = data_copy(tmp_path / "project")
    (project / "mkdocs.yml").write_text("site_name: test\n", "utf-8")
    (project / "content" / "index.md").write_text("# Home\n", "utf-8")
    before = rules_digest(project)
    dataset = tmp_path / "project" / "build" / "fullcr"
    assert main(["--root", str(project), "import", "cr", str(SYNTHETIC[0]), "--into", str(dataset)]) == 0
    out = capsys.readouterr().out
    assert "created the dataset" in out and f"rulekb --root {dataset} build" in out
    assert rules_digest(project) == before
    assert (dataset / "mkdocs.yml").is_file() and (dataset / "content" / "index.md").is_file()
    assert not (dataset / "build").exists()
    assert main(["--root", str(project), "import", "cr", str(SYNTHETIC[1]), "--into", str(dataset)]) == 0
    assert "created the dataset" not in capsys.readouterr().out
    kb = load_knowledge_base(dataset)
    assert [r.date for r in kb.releases] == ["2030-01-01", "2031-06-01"]


@pytest.mark.parametrize("argv, fragment", [
    (["--effective", "2030-02-01"], "the file says it is effective as of 2031-06-01, --effective says 2030-02-01"),
    (["--effective", "2030-02-30"], "--effective '2030-02-30' is not a date"),
])
def test_wrong_effective_dates_are_refused(synthetic, capsys, argv, fragment):
    before = rules_digest(synthetic)
    assert main(["--root", str(synthetic), "import", "cr", str(SYNTHETIC[1]), *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "nothing was written" in err and "Traceback" not in err
    assert rules_digest(synthetic) == before


def test_a_release_that_does_not_say_its_date_needs_effective(synthetic, tmp_path, capsys):
    text = SYNTHETIC[1].read_text("utf-8").replace("These rules are effective as of June 1, 2031.", "")
    file = write(tmp_path / "undated.txt", text, "utf-8", "\n")
    assert main(["--root", str(synthetic), "import", "cr", str(file)]) == 2
    err = capsys.readouterr().err
    assert "does not say when it is effective" in err and "--effective YYYY-MM-DD" in err
    assert main(["--root", str(synthetic), "import", "cr", str(file), "--effective", "2031-06-01"]) == 0
    assert load_knowledge_base(synthetic).release("2031-06-01").file == "undated.txt"


def test_a_missing_file_is_a_clear_error(synthetic, capsys):
    assert main(["--root", str(synthetic), "import", "cr", str(synthetic / "nope.txt")]) == 2
    assert "cannot read the release file" in capsys.readouterr().err


def test_show_release_of_an_unseen_release(synthetic, capsys):
    import_release(synthetic, SYNTHETIC[1])
    kb = load_knowledge_base(synthetic)
    assert show(kb, "702.2b", "2030-01-01") == 0
    out = capsys.readouterr().out
    assert "In the rules release of 2030-01-01, 702.2b is Deathtouch (id deathtouch), subrule 702.2b." in out
    assert "702.2 was Flying (id flying) in the release 2031-06-01; Flying is not in the release of 2030-01-01." in out
    assert "702.2b  [deathtouch.b]" in out and "is destroyed as a state-based action." in out
    assert show(kb, "702.3b", "2031-06-01") == 0
    assert "702.3b  [deathtouch.b-2]" in capsys.readouterr().out


# ---------------------------------------------------------------- rulekb diff NUMBER OLD NEW


@pytest.mark.parametrize("argv, expected", [
    # 702.78 of 2011 is Retrace (Conspire today): its subrule a, renumbered, changed
    (["702.78", "2011-05-01", "2026-01-16"],
     ["Retrace (id retrace): 702.78 in the release of 2011-05-01, 702.81 in the release of 2026-01-16",
      "702.78a -> 702.81a  [retrace.a]",
      "Retrace [-appears on some instants and sorceries. It represents-]{+is+} a static ability",
      "1 changed, 1 unchanged, 0 added, 0 removed (texts of 2011-05-01 -> 2026-01-16)"]),
    # the subrule is followed by its identity: 601.2e of 2011 is lettered f today
    (["601.2e", "2011-05-01", "2026-01-16"],
     ["601.2e -> 601.2f  [casting-spells.e]", "The player determines the total cost of the spell.",
      "1 changed, 0 unchanged"]),
    # a number of the older release names the rule it had then (702.81 of 2018 is Devour, 702.82 now)
    (["702.81", "2018-01-19", "2026-01-16"],
     ["Devour (id devour): 702.81 in the release of 2018-01-19, 702.82 in the release of 2026-01-16",
      "enters[- the battlefield-], you may sacrifice", "702.82c  [devour.c]: new in the release of 2026-01-16"]),
])
def test_diff_shows_the_word_changes_between_any_two_releases(full, capsys, argv, expected):
    root, *_ = full
    assert main(["--root", str(root), "diff", *argv]) == 0
    out = capsys.readouterr().out
    for line in expected:
        assert line in out, (line, out)


def test_diff_of_a_release_the_knowledge_base_does_not_hold_says_so(seed, capsys):
    assert main(["--root", str(seed), "diff", "702.78", "2011-05-01", "2026-01-16"]) == 1
    out = capsys.readouterr().out
    assert "no English text of this rule for the release of 2026-01-16" in out and "rulekb import cr" in out
    assert main(["--root", str(seed), "diff", "702.990", "2011-05-01", "2026-01-16"]) == 1
    assert "no rule 702.990" in capsys.readouterr().err
    assert main(["--root", str(seed), "diff", "702.78", "2011-5-1", "2026-01-16"]) == 2
    assert "'2011-5-1' is not a date" in capsys.readouterr().err


# ---------------------------------------------------------------- texts that moved to another rule


def _units_by_number(kb, release: str) -> dict[str, object]:
    from rulekb.releases import numbering
    out = {}
    for number, meaning in numbering(kb, release).items():
        out[number] = meaning.subrule.unit if meaning.subrule is not None else meaning.rule.text
    return out


@pytest.mark.parametrize(("old", "new"), [
    (("2018-01-19", "110.5e"), ("2026-01-16", "111.6")),     # a subrule became a rule of its own
    (("2018-01-19", "715.2"), ("2026-01-16", "723.1f")),     # a rule became a subrule of another one
    (("2018-01-19", "704.5s"), ("2026-01-16", "704.6a")),    # a state-based action moved to the variants' rule
    (("2009-07-11", "306.7b"), ("2011-05-01", "606.5")),     # reworded on the way: planeswalker -> loyalty ability
])
def test_a_text_that_moved_to_another_rule_is_linked_to_where_it_was(full, old, new):
    from rulekb.link import link
    _, _, kb, _ = full
    before = _units_by_number(kb, old[0])[old[1]]
    after = _units_by_number(kb, new[0])[new[1]]
    (moved,) = [m for m in link(kb).moved[after.id.split(".")[0]] if m.unit is after]
    assert moved.previous is before and (moved.previous_number, moved.until) == (old[1], old[0])
    assert (moved.number, moved.since) == (new[1], new[0])


def test_no_text_ends_and_reappears_word_for_word_in_another_rule_unlinked(full):
    """Every English text that an imported release no longer has under its unit, and a later
    release has word for word under another rule's unit, is recorded as moved."""
    from rulekb.importers.identity import fold
    from rulekb.releases import english_versions
    from rulekb.link import link
    _, _, kb, _ = full
    moved = {(m.previous.id, m.unit.id) for ms in link(kb).moved.values() for m in ms}
    owner = {u.id: r.id for r in kb.rules for u in r.units}
    ends, starts = {}, {}
    for rule in kb.rules:
        for unit in rule.units:
            versions = english_versions(unit)
            if versions:
                ends.setdefault(fold(versions[-1][1].text), []).append((versions[-1][0][-1], unit.id))
                starts.setdefault(fold(versions[0][1].text), []).append((versions[0][0][0], unit.id))
    unlinked = [(a, b) for text, enders in ends.items() for last, a in enders for first, b in starts.get(text, ())
                if first > last and owner[a] != owner[b] and (a, b) not in moved]
    assert unlinked == []
    assert len(moved) >= 12  # 110.5e-g -> 111.6-8, 704.5s/t/v -> 704.6a/b/e, 715.2-3 -> 723.1e-f, …


def test_show_says_where_a_moved_text_went_and_came_from(full):
    _, _, kb, _ = full
    from rulekb.releases import explain
    lines = explain(kb, "110.5e", "2018-01-19").lines
    assert lines[1] == ("Its text moved to another rule: since the release of 2026-01-16, it is 111.6, "
                        "rule id a-token-is-subject-to-anything-that.")
    lines = explain(kb, "723.1f", "2026-01-16").lines
    assert lines[1] == ("Its text moved here from another rule: until the release of 2018-01-19, it was 715.2, "
                        "rule id no-player-gets-priority-during-this.")
    lines = explain(kb, "111.6", "2018-01-19").lines
    assert ("The text of 111.6 was 110.5e (rule id some-effects-put-tokens-onto-the) in the release of 2018-01-19."
            in lines)


def test_moves_are_the_same_when_the_older_release_is_imported_later(full, shared, tmp_path):
    from rulekb.link import moves

    def pairs(kb, releases):
        return sorted((m.previous_number, m.until, m.number, m.since) for rid, ms in moves(kb).items() for m in ms
                      if m.rule.id == rid and m.since in releases and m.until in releases)
    root = data_copy(tmp_path / "kb")
    import_release(root, release_file(shared, "2011-05-01"))
    import_release(root, release_file(shared, "2009-07-11"))
    found = pairs(load_knowledge_base(root), RELEASES[:2])
    assert ("306.7b", "2009-07-11", "606.5", "2011-05-01") in found
    assert found == pairs(full[2], RELEASES[:2])


# ---------------------------------------------------------------- quirks and incomplete files


def test_a_number_twice_is_one_unit_with_both_texts_of_that_release(tmp_path):
    """702.30d of 2009-09-04 and 501.2 of 2006-05-01: the second text of a number is a second
    English version of the same unit in the same release, never dropped."""
    text = SYNTHETIC[0].read_text("utf-8")
    text = text.replace("702.2b A creature", "702.2a A creature", 1)
    text = text.replace("702.1. Most abilities", "100.2. Most abilities", 1)   # 100.2 in section 702 too
    root = data_copy(tmp_path / "kb")
    report = import_release(root, write(tmp_path / "twice.txt", text, "utf-8", "\n")).reports[0]
    assert sum("appears twice" in w.message for w in report.warnings) == 2
    kb = load_knowledge_base(root)
    numbers = numbering(kb, "2030-01-01")
    deathtouch_a = numbers["702.2a"].subrule.unit
    texts = [v.text for v in deathtouch_a.variants[SOURCE_LANGUAGE] if "2030-01-01" in v.releases]
    assert texts[0] == "Deathtouch is a static ability." and texts[1].startswith("A creature with toughness")
    to_play = numbers["100.2"].rule.text
    texts = [v.text for v in to_play.variants[SOURCE_LANGUAGE] if "2030-01-01" in v.releases]
    assert texts[0].startswith("To play") and texts[1].startswith("Most abilities")
    assert "702.1" not in numbers
    assert import_release(root, write(tmp_path / "twice.txt", text, "utf-8", "\n")).changed == ()


def test_a_glossary_term_without_definition_is_imported(tmp_path):
    text = SYNTHETIC[0].read_text("utf-8")
    cut = text[: text.index("Retrace\nA keyword") + len("Retrace")]   # the archive's 2013-02-01 stops so
    root = data_copy(tmp_path / "kb")
    report = import_release(root, write(tmp_path / "cut.txt", cut, "utf-8", "\n")).reports[0]
    assert any("stops inside the glossary" in w.message for w in report.warnings)
    terms = {g.term.text(SOURCE_LANGUAGE).text: g for g in load_knowledge_base(root).glossary}
    assert english_at(terms["Retrace"].term, "2030-01-01") is not None
    assert english_at(terms["Retrace"].definition, "2030-01-01") is None


@pytest.mark.parametrize("make, fragment", [
    (lambda t, n: t[: t.index("702.3a Retrace") + 40], "before its glossary and credits"),   # cut short
    (lambda t, n: t + n, "a second effective date, 2031-06-01"),                              # cat a b
    (lambda t, n: t + t, "holds a second release"),                                           # cat a a
])
def test_an_incomplete_or_double_release_is_refused_over_a_full_import(synthetic, tmp_path, capsys, make, fragment):
    """Issue 20: the first 100 KB of a release, or two releases in one file, imported over the
    full import of that release: exit 2 with file:line and the reason, nothing written."""
    text, following = SYNTHETIC[0].read_text("utf-8"), SYNTHETIC[1].read_text("utf-8")
    bad = write(tmp_path / "bad.txt", make(text, following), "utf-8", "\n")
    before = rules_digest(synthetic)
    assert main(["--root", str(synthetic), "import", "cr", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and fragment in err and "Traceback" not in err
    assert rules_digest(synthetic) == before


def test_a_subrule_printed_with_another_rules_number_keeps_that_number_in_its_release(tmp_path):
    """2006-2007 printed 423.2b as 432.2b under the rule 423.2: the subrule stays where the text puts
    it and keeps its own number in that release (its rule's letter in the others)."""
    text = SYNTHETIC[0].read_text(encoding="utf-8")
    assert "\n702.2b A creature" in text
    misprinted = write(tmp_path / "release-2030-01-01.txt", text.replace("\n702.2b A creature", "\n720.2b A creature"),
                       "utf-8", "\n")
    root = data_copy(tmp_path / "kb")
    result = import_releases(root, [misprinted, SYNTHETIC[1]])
    assert any("subrule 720.2b is under rule 702.2" in w.message for w in result.reports[0].warnings)
    kb = load_knowledge_base(root)
    old, new = numbering(kb, "2030-01-01"), numbering(kb, "2031-06-01")
    assert "720.2b" in old and "702.2b" not in old
    deathtouch = old["720.2b"].rule
    assert old["720.2b"].subrule.unit.text(SOURCE_LANGUAGE).text.startswith("A creature with toughness")
    assert new["702.3c"].subrule.unit.id == old["720.2b"].subrule.unit.id and new["702.3c"].rule is deathtouch
    found = compare_releases(kb, "2031-06-01")
    assert ("720.2b", "702.3c") in {(c.old_number, c.new_number) for c in found.renumbered}
    again = rules_digest(root)
    import_releases(root, [misprinted])
    assert rules_digest(root) == again
