"""The importers' YAML reading and writing (importers/store.py): the fast emitter writes the very
bytes PyYAML writes with the data files' settings, and what it writes loads back as it was."""

from __future__ import annotations

from conftest import disk_fills_at


from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA, ROOT, SEED
from rulekb.importers.store import FlowDict, ReleaseList, Tree, dump, dump_pyyaml, plain
from rulekb.layout import release_dates
from rulekb.load import parse_file, parse_text
from rulekb.releaseranges import ReleaseOrder

# texts with what makes YAML quoting hard: indicators, ": ", " #", quotes, leading/trailing
# spaces, line breaks, non-printable characters, YAML 1.1 booleans and numbers, unicode
TRICKY = st.one_of(
    st.sampled_from(["yes", "No", "on", "~", "null", "702.80", "0x1F", "1:30", "2009-07-11", "2009-05", "-", "- a",
                     "? x", ": y", "a: b", "a #b", "#c", "'q'", '"d"', "„Retrace“", "it's", "---", "...", "|", ">",
                     "@x", "`y", "%z", "!t", "&a", "*b", "a:", " lead", "trail ", "two\nlines", "ends\n", "\n",
                     "tab\there", "bell\x07", "\ufeffbom", "\x85nel", "line\u2028sep", "é", "", " ", "a  b"]),
    st.text(alphabet=st.sampled_from(list("ab :#-'\"\n\t,[]{}&*!|>%@`?.0123“”„’é\x85\u2028")), max_size=12),
)
KEYS = st.sampled_from(["text", "source", "a", "b-2", "2009-07-11", "n1", "yes", "702.78"])
ORDER = ReleaseOrder(("2008-07-15", "2009-02-01", "2009-07-11", "2011-05-01", "2026-01-16"))
LEAF = st.one_of(TRICKY, st.booleans())


def data_strategy():
    return st.recursive(
        LEAF,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(KEYS, children, max_size=3),
            st.lists(st.sampled_from(ORDER.dates + ("2010-01-01",)), min_size=1, max_size=5).map(ReleaseList),
            st.dictionaries(KEYS, st.sampled_from(["a", "b", "c"]), max_size=2).map(FlowDict),
        ),
        max_leaves=8,
    )


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, data_strategy(), min_size=1, max_size=4))
def test_the_fast_emitter_writes_what_pyyaml_writes(data):
    assert dump(data, ORDER) == dump_pyyaml(data, ORDER)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(KEYS, data_strategy(), min_size=1, max_size=4))
def test_what_is_written_loads_back_the_same(data):
    node, problems = parse_text("x.yaml", dump(data, ORDER))
    assert problems == []
    assert plain(node) == _loaded(data)


def _loaded(data):
    """Plain data as the strict loader reads it back: every scalar text, booleans booleans, a
    list of releases its line."""
    if isinstance(data, ReleaseList):
        return ORDER.line(data)
    if isinstance(data, dict):
        return {k: _loaded(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_loaded(v) for v in data]
    return data


def test_the_project_s_files_are_written_back_byte_for_byte():
    """Every file of the seed project and of translations/, and of the committed complete data
    (~45 MB: not all of it in every test run) the first file of each folder by name."""
    files = sorted(p for p in (SEED / "rules").rglob("*.yaml")) + sorted((ROOT / "translations").rglob("*.yaml"))
    folders = sorted({p.parent for p in (ROOT / "rules").rglob("*.yaml")})
    files += [min(folder.glob("*.yaml")) for folder in folders]   # rules/sources.yaml, cards/0.yaml …
    files += [ROOT / "rules" / "comprehensive" / "retrace.yaml"]
    assert len(folders) >= 5
    order = ReleaseOrder(release_dates(f"rules/releases/{p.name}" for p in (ROOT / "rules" / "releases").glob("*.yaml")))
    for path in files:
        parsed, problems = parse_file(path, path.parent)
        assert not problems
        text = path.read_text("utf-8")
        if text.lstrip().startswith("#") or "\n#" in text:
            continue  # comments are not data: files with comments are never rewritten, only appended to
        assert dump(plain(parsed.root, order), order) == text, path


def test_a_tree_writes_only_what_changed(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.yaml").write_text("id: a\nflag: true\n# a comment\n", "utf-8")
    (tmp_path / "rules" / "b.yaml").write_text("id: b\n", "utf-8")
    tree = Tree.read(tmp_path, ("rules",))
    assert tree.changes() == ([], [], [])
    tree.files["rules/b.yaml"]["text"] = "x: y"
    tree.put("rules/c.yaml", {"id": "c", "releases": ReleaseList(["2026-01-16"])})
    added, changed, deleted = tree.save()
    assert (added, changed, deleted) == (["rules/c.yaml"], ["rules/b.yaml"], [])
    assert (tmp_path / "rules" / "a.yaml").read_text("utf-8") == "id: a\nflag: true\n# a comment\n"
    assert (tmp_path / "rules" / "b.yaml").read_text("utf-8") == "id: b\ntext: 'x: y'\n"
    assert (tmp_path / "rules" / "c.yaml").read_text("utf-8") == "id: c\nreleases: '2026-01-16'\n"
    assert not list((tmp_path / "rules").glob("*tmp"))


def test_a_full_disk_while_saving_changes_no_file(tmp_path, monkeypatch):
    """The disk fills while the last of three files (two of the tree, sources.yaml as its text)
    is written: none changes (an import is all or nothing), the error names the file and the
    fix, no temporary file stays."""
    from rulekb.files import WriteError
    (tmp_path / "rules").mkdir()
    for name in ("a", "b"):
        (tmp_path / "rules" / f"{name}.yaml").write_text(f"id: {name}\n", "utf-8")
    tree = Tree.read(tmp_path, ("rules",))
    tree.files["rules/a.yaml"]["text"] = "new a"
    tree.files["rules/b.yaml"]["text"] = "new b"
    disk_fills_at(monkeypatch, 3)
    with pytest.raises(WriteError) as caught:
        tree.save(texts={"rules/sources.yaml": "sources: {}\n"})
    assert caught.value.problems[0].file == str(tmp_path / "rules" / "sources.yaml")
    assert "free some disk space" in caught.value.problems[0].hint
    assert [(tmp_path / "rules" / f"{n}.yaml").read_text("utf-8") for n in "ab"] == ["id: a\n", "id: b\n"]
    assert sorted(p.name for p in (tmp_path / "rules").iterdir()) == ["a.yaml", "b.yaml"]


@pytest.mark.parametrize("value, written", [
    ("Retrace", "Retrace"), ("702.78", "'702.78'"), ("2009-07-11", "'2009-07-11'"), ("2009-05", "2009-05"),
    ("yes", "'yes'"), ("a: b", "'a: b'"), ("it's", "it's"), ("two\nlines", "|-\n  two\n  lines"),
    ("„Retrace“ means", "„Retrace“ means"),
])
def test_scalars_are_quoted_only_when_needed(value, written):
    assert dump({"k": value}) == f"k: {written}\n"


def _releases_tree(tmp_path, dates, text):
    (tmp_path / "rules" / "releases").mkdir(parents=True)
    for date in dates:
        (tmp_path / "rules" / "releases" / f"{date}.yaml").write_text(f"release: '{date}'\n", "utf-8")
    (tmp_path / "rules" / "t.yaml").write_text(text, "utf-8")
    return Tree.read(tmp_path, ("rules",))


def test_a_tree_reads_lists_of_releases_as_dates_and_writes_them_as_ranges(tmp_path):
    tree = _releases_tree(tmp_path, ("2009-02-01", "2009-07-11", "2011-05-01", "2026-01-16"),
                          "releases: 2009-02-01..2011-05-01\nnumbers:\n- releases: '2026-01-16'\n")
    assert tree.files["rules/t.yaml"] == {"releases": ["2009-02-01", "2009-07-11", "2011-05-01"],
                                          "numbers": [{"releases": ["2026-01-16"]}]}
    assert tree.changes() == ([], [], [])
    tree.files["rules/t.yaml"]["releases"].append("2026-01-16")
    tree.files["rules/t.yaml"]["numbers"][0]["releases"].remove("2026-01-16")
    tree.files["rules/t.yaml"]["numbers"][0]["releases"] += ["2009-02-01", "2011-05-01"]
    assert tree.save() == ([], ["rules/t.yaml"], [])
    assert (tmp_path / "rules" / "t.yaml").read_text("utf-8") == (
        "releases: 2009-02-01..2026-01-16\nnumbers:\n- releases: 2009-02-01, 2011-05-01\n")


def test_the_former_lists_of_dates_are_written_as_ranges(tmp_path):
    """A file of the former form is written again (its data unchanged): the import's form."""
    tree = _releases_tree(tmp_path, ("2009-02-01", "2009-07-11", "2011-05-01"),
                          "releases: ['2009-02-01', '2009-07-11']\nother: ['2011-05-01']\n")
    assert tree.changes() == ([], ["rules/t.yaml"], [])
    tree.save()
    assert (tmp_path / "rules" / "t.yaml").read_text("utf-8") == "releases: 2009-02-01..2009-07-11\nother:\n- '2011-05-01'\n"
    assert Tree.read(tmp_path, ("rules",)).changes() == ([], [], [])


def test_a_release_between_a_ranges_ends_splits_the_range(tmp_path):
    """A release imported after all others leaves every range as it was; one imported between the
    ends of a range the text is not in splits it (the data is the same, the line is not)."""
    text = "releases: 2009-02-01..2011-05-01\n"
    tree = _releases_tree(tmp_path, ("2009-02-01", "2011-05-01"), text)
    tree.put("rules/releases/2026-01-16.yaml", {"release": "2026-01-16"})
    assert tree.changes() == (["rules/releases/2026-01-16.yaml"], [], [])
    tree.put("rules/releases/2010-01-01.yaml", {"release": "2010-01-01"})
    assert tree.changes() == (["rules/releases/2010-01-01.yaml", "rules/releases/2026-01-16.yaml"], ["rules/t.yaml"], [])
    tree.save()
    assert (tmp_path / "rules" / "t.yaml").read_text("utf-8") == "releases: 2009-02-01, 2011-05-01\n"


# --into: only a new or empty folder, or a dataset of an earlier --into (issue 31.4)

def _into_args(project, into, what="cr"):
    from conftest import DATA
    source = DATA / "cr" / "release-2030-01-01.txt" if what == "cr" else DATA / "mtgjson"
    return ["--root", str(project), "import", what, str(source), "--into", str(into)]


@pytest.mark.parametrize("what", ["cr", "mtgjson"])
@pytest.mark.parametrize("kind", ["fifo", "file", "site"])
def test_import_into_what_cannot_be_a_dataset_is_a_message_and_writes_nothing(tmp_path, capsys, what, kind):
    import os

    from conftest import data_copy, rules_digest
    from rulekb.commands import main
    project = data_copy(tmp_path / "project")
    before = rules_digest(project)
    into = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(into)
        expected = f"--into {into} is a FIFO, not a folder"
    elif kind == "file":
        into.write_text("notes\n", "utf-8")
        expected = f"--into {into} is a file, not a folder"
    else:   # a built site: a folder with something in it, but no rules/
        (into / "assets").mkdir(parents=True)
        (into / "index.html").write_text("<p>site</p>", "utf-8")
        expected = f"--into {into} is a folder that holds 2 entries (assets, index.html) but no dataset (no rules/)"
    listing = sorted(p.name for p in into.rglob("*")) if into.is_dir() else None
    assert main(_into_args(project, into, what)) == 2
    err = capsys.readouterr().err
    assert f"{into}:1:1: error: {expected}" in err and "fix: name a new or empty folder" in err
    assert "Traceback" not in err
    assert rules_digest(project) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "project"]
    assert (sorted(p.name for p in into.rglob("*")) if into.is_dir() else None) == listing


def test_import_into_standard_output_is_refused_and_creates_no_folder(tmp_path, capsys, monkeypatch):
    from conftest import data_copy
    from rulekb.commands import main
    project = data_copy(tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    for what in ("cr", "mtgjson"):
        assert main(_into_args(project, "-", what)) == 2
        err = capsys.readouterr().err
        assert "-:1:1: error: --into names the folder of a dataset; '-' (standard output) is not one" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_import_into_an_empty_folder_makes_the_dataset_there(tmp_path, capsys):
    from conftest import data_copy
    from rulekb.commands import main
    project = data_copy(tmp_path / "project")
    into = tmp_path / "empty"
    into.mkdir()
    assert main(_into_args(project, into)) == 0
    assert (into / "rules").is_dir() and "created the dataset" in capsys.readouterr().out


def test_a_dataset_copy_that_fails_leaves_no_half_copy(tmp_path, monkeypatch):
    import errno
    import os

    from conftest import data_copy
    from rulekb.files import WriteError
    from rulekb.importers import store
    project = data_copy(tmp_path / "project")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(store.shutil, "copytree", full)
    into = tmp_path / "new" / "dataset"
    with pytest.raises(WriteError) as caught:
        store.prepare_dataset(project, into)
    assert "No space left on device" in str(caught.value) and "free some disk space" in str(caught.value)
    assert not into.exists()


# temporary files of a killed import (issue 31.7)

def test_a_later_import_removes_the_temporary_files_of_dead_processes_only(tmp_path, capsys):
    import subprocess
    import sys

    from conftest import data_copy
    from rulekb import files
    from rulekb.commands import main
    project = data_copy(tmp_path / "project")
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()            # its pid is free now: the process of a killed import
    host = files._host()
    folder = project / "rules" / "comprehensive"
    dead = folder / f".702-keyword-abilities.yaml.{host}.{ended.pid}.k3x9q_2a.rulekb-tmp"
    live = folder / f".702-keyword-abilities.yaml.{host}.{__import__('os').getpid()}.abcdefgh.rulekb-tmp"
    other = project / "translations" / f".de.po.another-machine.{ended.pid}.abcdefgh.rulekb-tmp"
    for path in (dead, live, other):
        path.write_text("half a file", "utf-8")
    from conftest import DATA
    assert main(["--root", str(project), "import", "mtgjson", str(DATA / "mtgjson")]) == 0
    assert not dead.exists() and live.exists() and other.exists()


def test_a_temporary_file_names_its_machine_and_process_and_git_ignores_it(tmp_path, monkeypatch):
    import os
    import subprocess

    from conftest import ROOT
    from rulekb import files
    seen = []
    real = files.os.replace

    def spy(src, dst):
        seen.append(Path(src).name)
        return real(src, dst)
    monkeypatch.setattr(files.os, "replace", spy)
    files.write_atomic(tmp_path / "a.yaml", b"a: 1\n")
    assert len(seen) == 1 and seen[0].startswith(f".a.yaml.{files._host()}.{os.getpid()}.")
    assert seen[0].endswith(".rulekb-tmp") and files._TEMPORARY.match(seen[0])
    ignored = subprocess.run(["git", "check-ignore", "-q", f"rules/comprehensive/{seen[0]}"], cwd=ROOT)
    assert ignored.returncode == 0


def _export_de(root: Path) -> list[str]:
    """`po import` of the German catalog as `po export de` wrote it (nothing to change)."""
    from rulekb.commands import main
    assert main(["--root", str(root), "po", "export", "de"]) == 0
    return ["po", "import", str(root / "translations" / "de" / "rules.po")]


# every command that writes into rules/ or translations/ (issue 31.7), with what it needs
WRITERS = {
    "import-cr": lambda root: ["import", "cr", str(DATA / "cr" / "release-2030-01-01.txt")],
    "import-mtgjson": lambda root: ["import", "mtgjson", str(DATA / "mtgjson")],
    "official-mine": lambda root: ["official", "mine", str(DATA / "phrases")],
    "phrases-mine": lambda root: ["phrases", "mine", str(DATA / "phrases")],
    "po-import": _export_de,
    "lang-add": lambda root: ["lang", "add", "it"],
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_removes_the_temporary_files_a_killed_writer_left(writer, tmp_path, capsys):
    """What a writer killed with kill -9 leaves in rules/ and translations/ (its temporary files,
    named by machine and process) the next writer removes, whichever command it is; a live
    process's and another machine's stay; git ignores the name."""
    import os
    import subprocess
    import sys

    from conftest import ROOT, data_copy
    from rulekb import files
    from rulekb.commands import main
    project = data_copy(tmp_path / "project")
    argv = WRITERS[writer](project)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()            # its pid is free now: the process of a killed writer
    host = files._host()
    dead = [project / "rules" / "comprehensive" / f".702-keyword-abilities.yaml.{host}.{ended.pid}.k3x9q_2a.rulekb-tmp",
            project / "translations" / f".phraseology.yaml.{host}.{ended.pid}.abcdefgh.rulekb-tmp",
            project / "translations" / f".official.yaml.{host}.{ended.pid}.abcdefgh.rulekb-tmp",
            project / "rules" / "cards" / f".a.yaml.{host}.{ended.pid}.abcdefgh.rulekb-tmp"]
    live = project / "translations" / f".languages.yaml.{host}.{os.getpid()}.abcdefgh.rulekb-tmp"
    other = project / "translations" / f".de.po.another-machine.{ended.pid}.abcdefgh.rulekb-tmp"
    for path in (*dead, live, other):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half a file", "utf-8")
    code = main(["--root", str(project), *argv])
    assert code == 0, capsys.readouterr().err
    assert [path.name for path in dead if path.exists()] == [] and live.exists() and other.exists()
    for path in (*dead, live):
        rel = path.relative_to(project).as_posix()
        assert subprocess.run(["git", "check-ignore", "-q", "--no-index", rel], cwd=ROOT, check=False).returncode == 0, rel
    # nothing else the writer made is left beside the data but what it meant to write
    assert sorted(p.name for p in project.rglob(".*") if p.is_file() and p not in (live, other)) == []


@pytest.mark.parametrize("miner", ["phrases", "official"])
def test_a_mined_file_is_read_back_from_its_temporary_file_only(miner, tmp_path, monkeypatch):
    """The miners check that the file reads back before it replaces the old one; the file they
    read is the temporary file that is then renamed (a name the next writer removes and git
    ignores), never a second copy under a name of its own that a kill -9 would leave behind."""
    from conftest import data_copy
    from rulekb import files
    project = data_copy(tmp_path / "project")
    made: list[str] = []
    real = files.tempfile.mkstemp

    def spy(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        made.append(Path(name).name)
        return fd, name
    monkeypatch.setattr(files.tempfile, "mkstemp", spy)
    seen: list[str] = []
    real_replace = files.os.replace
    monkeypatch.setattr(files.os, "replace", lambda src, dst: (seen.append(Path(dst).name), real_replace(src, dst)))
    if miner == "phrases":
        from rulekb.importers.phrases import mine_into
    else:
        from rulekb.importers.official import mine_into
    (project / "translations" / f"{'phraseology' if miner == 'phrases' else 'official'}.yaml").unlink()
    mine_into(project, [DATA / "phrases"])
    assert made and all(files._TEMPORARY.match(name) for name in made), made
    assert seen == [f"{'phraseology' if miner == 'phrases' else 'official'}.yaml"]   # renamed into place, once
    assert [p.name for p in project.rglob(".*") if p.is_file()] == []
