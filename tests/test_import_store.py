"""The importers' YAML reading and writing (importers/store.py): the fast emitter writes the very
bytes PyYAML writes with the data files' settings, and what it writes loads back as it was."""

from __future__ import annotations

from conftest import disk_fills_at


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, SEED
from rulekb.importers.store import FlowDict, FlowList, Tree, dump, dump_pyyaml, plain
from rulekb.load import parse_file, parse_text

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
LEAF = st.one_of(TRICKY, st.booleans())


def data_strategy():
    return st.recursive(
        LEAF,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(KEYS, children, max_size=3),
            st.lists(TRICKY, max_size=3).map(FlowList),
            st.dictionaries(KEYS, st.sampled_from(["a", "b", "c"]), max_size=2).map(FlowDict),
        ),
        max_leaves=8,
    )


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, data_strategy(), min_size=1, max_size=4))
def test_the_fast_emitter_writes_what_pyyaml_writes(data):
    assert dump(data) == dump_pyyaml(data)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(KEYS, data_strategy(), min_size=1, max_size=4))
def test_what_is_written_loads_back_the_same(data):
    node, problems = parse_text("x.yaml", dump(data))
    assert problems == []
    assert plain(node) == _loaded(data)


def _loaded(data):
    """Plain data as the strict loader reads it back: every scalar text, booleans booleans."""
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
    assert len(folders) >= 5
    for path in files:
        parsed, problems = parse_file(path, path.parent)
        assert not problems
        text = path.read_text("utf-8")
        if text.lstrip().startswith("#") or "\n#" in text:
            continue  # comments are not data: files with comments are never rewritten, only appended to
        assert dump(plain(parsed.root)) == text, path


def test_a_tree_writes_only_what_changed(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.yaml").write_text("id: a\nflag: true\n# a comment\n", "utf-8")
    (tmp_path / "rules" / "b.yaml").write_text("id: b\n", "utf-8")
    tree = Tree.read(tmp_path, ("rules",))
    assert tree.changes() == ([], [], [])
    tree.files["rules/b.yaml"]["text"] = "x: y"
    tree.put("rules/c.yaml", {"id": "c", "releases": FlowList(["2026-01-16"])})
    added, changed, deleted = tree.save()
    assert (added, changed, deleted) == (["rules/c.yaml"], ["rules/b.yaml"], [])
    assert (tmp_path / "rules" / "a.yaml").read_text("utf-8") == "id: a\nflag: true\n# a comment\n"
    assert (tmp_path / "rules" / "b.yaml").read_text("utf-8") == "id: b\ntext: 'x: y'\n"
    assert (tmp_path / "rules" / "c.yaml").read_text("utf-8") == "id: c\nreleases: ['2026-01-16']\n"
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
