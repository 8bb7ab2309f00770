"""Tests for rulekb.yamledit: an edit changes the requested fields of one variant (or adds
one) and leaves every other byte of the file as it was."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA, ROOT, SEED, seed_project
from rulekb import yamledit
from rulekb.diagnostics import DataError
from rulekb.load import MapNode, parse_text
from rulekb.models import Unit
from rulekb.knowledge import load_knowledge_base

HANDWRITTEN = DATA / "po" / "handwritten-rule.yaml"
LANGS = ("en", "de", "fr")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A writable copy of the project's data."""
    shutil.copytree(SEED / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "translations", tmp_path / "translations", ignore=shutil.ignore_patterns("*.po"))
    return tmp_path


def changed_lines(old: str, new: str) -> tuple[set[int], list[str]]:
    """1-based lines of `old` that the edit replaced or deleted (an insertion counts as the
    line it goes after), and the new lines."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    touched: set[int] = set()
    added: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        touched |= set(range(i1 + 1, i2 + 1)) if i2 > i1 else {i1}
        added += b[j1:j2]
    return touched, added


def unit_span(text: str, unit: Unit) -> range:
    """The lines of a unit: from its key line to the last line of its last value."""
    root = yaml.compose(text)
    for node in _mappings(root):
        if node.start_mark.line + 1 == unit.pos.line and all(isinstance(v, yaml.SequenceNode) for _, v in node.value):
            last = node
            while isinstance(last, (yaml.MappingNode, yaml.SequenceNode)) and last.value:
                last = last.value[-1][1] if isinstance(last, yaml.MappingNode) else last.value[-1]
            return range(unit.pos.line - 1, last.end_mark.line + 2)
    raise AssertionError(f"unit {unit.id} not found")


def _mappings(node):
    if isinstance(node, yaml.MappingNode):
        yield node
        for _, v in node.value:
            yield from _mappings(v)
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            yield from _mappings(v)


def variant_node(text: str, path: tuple) -> MapNode:
    node, problems = parse_text("t.yaml", text)
    assert not problems, problems
    for step in path:
        node = node.items[step] if isinstance(step, int) else node.get(step)
    return node


# --- set fields: on every text variant of the seed data -----------------------------------------

def all_variants():
    kb = load_knowledge_base(seed_project())
    return [(u, lang, i) for u in kb.units() for lang in u.languages for i in range(len(u.variants[lang]))]


@pytest.mark.parametrize("unit,lang,index", all_variants(), ids=lambda x: x.id if isinstance(x, Unit) else str(x))
def test_set_text_of_any_variant_touches_only_that_variant(unit: Unit, lang: str, index: int):
    variant = unit.variants[lang][index]
    old = (seed_project() / variant.pos.file).read_text(encoding="utf-8")
    text = "Neu: „zitiert“ – it's #1 {X}"
    fields = (("text", text), ("status", "draft"))
    if lang != "en":
        fields += (("translated_from", "0123456789abcdef"),)
    new = yamledit.edit_text(variant.pos.file, old, [yamledit.SetFields(variant.pos.file, variant.pos.line, fields)])
    touched, _ = changed_lines(old, new)
    span = range(variant.pos.line, variant.pos.line + 12)
    assert touched and touched <= set(unit_span(old, unit)) and min(touched) in span
    assert not parse_text(variant.pos.file, new)[1]
    # the edited variant reads back with the new values, at the same line
    root = yaml.compose(new)
    found = [n for n in _mappings(root) if n.start_mark.line + 1 == variant.pos.line]
    values = {k.value: v.value for k, v in found[-1].value}
    assert values["text"] == text and values["status"] == "draft"
    if lang != "en":
        assert values["translated_from"] == "0123456789abcdef"


def test_setting_the_value_a_field_has_changes_nothing(seed):
    kb = load_knowledge_base(seed)
    for unit in kb.units():
        for variants in unit.variants.values():
            for v in variants:
                old = (seed / v.pos.file).read_text(encoding="utf-8")
                fields = (("text", v.text), ("status", v.status.value))
                assert yamledit.edit_text(v.pos.file, old, [yamledit.SetFields(v.pos.file, v.pos.line, fields)]) == old


# --- a hand-written file ------------------------------------------------------------------------

def test_hand_written_file_keeps_comments_folds_quotes_and_escapes():
    old = HANDWRITTEN.read_text(encoding="utf-8")
    new = yamledit.edit_text("h.yaml", old, [
        yamledit.SetFields("h.yaml", 13, (("text", "Von Hand geschrieben"), ("status", "draft"))),
        yamledit.AddVariant("h.yaml", 8, "fr", (("text", "Écrit à la main"), ("source", "seed-002"),
                                                 ("status", "draft")), LANGS),
    ])
    de_before = ('    - text: "Handgeschrieben"\n      source: seed-000\n      status: community\n'
                 '      translated_from: 0123456789abcdef  # hand-copied hash\n')
    de_after = ('    - text: Von Hand geschrieben\n      source: seed-000\n      status: draft\n'
                '      translated_from: 0123456789abcdef  # hand-copied hash\n')
    fr_block = '  fr:\n    - text: Écrit à la main\n      source: seed-002\n      status: draft\n'  # indented like this file
    assert old.count(de_before) == 1
    assert new == old.replace(de_before, de_after + fr_block)  # every other byte as it was


def test_block_scalar_is_replaced_and_the_next_field_kept():
    old = HANDWRITTEN.read_text(encoding="utf-8")
    line = next(i for i, l in enumerate(old.splitlines(), 1) if l.strip() == "- text: |")
    new = yamledit.edit_text("h.yaml", old, [yamledit.SetFields("h.yaml", line, (("text", "One line now."),))])
    touched, added = changed_lines(old, new)
    assert touched == {line, line + 1} and added == ["  - text: One line now.\n"]
    assert variant_node(new, ("text", "en", 0)).get("source").value == "seed-000"


def test_missing_field_is_inserted_in_field_order():
    old = HANDWRITTEN.read_text(encoding="utf-8")
    line = next(i for i, l in enumerate(old.splitlines(), 1) if "Ein Text." in l)
    new = yamledit.edit_text("h.yaml", old, [
        yamledit.SetFields("h.yaml", line, (("translated_from", "00000000000000aa"), ("canonical", True)))])
    touched, added = changed_lines(old, new)
    assert added == ["    canonical: true\n", "    translated_from: 00000000000000aa\n"]
    assert touched == {line + 2}  # both go after 'status:', the variant's last line
    assert list(variant_node(new, ("text", "de", 0)).keys()) == ["text", "source", "status", "canonical", "translated_from"]


def test_crlf_file_keeps_its_line_breaks():
    old = HANDWRITTEN.read_text(encoding="utf-8").replace("\n", "\r\n")
    new = yamledit.edit_text("h.yaml", old, [
        yamledit.SetFields("h.yaml", 13, (("text", "a\nb"),)),
        yamledit.AddVariant("h.yaml", 8, "fr", (("text", "x"), ("source", "seed-002"), ("status", "draft")), LANGS)])
    assert "\n" not in new.replace("\r\n", "")
    assert variant_node(new, ("title", "de", 0)).get("text").value == "a\nb"


def test_byte_order_mark_is_kept():
    old = "\ufeff" + HANDWRITTEN.read_text(encoding="utf-8")
    new = yamledit.edit_text("h.yaml", old, [yamledit.SetFields("h.yaml", 13, (("text", "x"),))])
    assert new.startswith("\ufeff") and new.count("\ufeff") == 1


# --- add a variant ------------------------------------------------------------------------------

UNIT = """\
title:
  en:
  - text: Old
    source: s
    status: official
  fr:
  - text: Vieux
    source: s
    status: community
next: 1
"""


@pytest.mark.parametrize("lang,after", [("de", "  en:"), ("it", "  fr:")])
def test_new_language_goes_where_the_registry_order_puts_it(lang, after):
    new = yamledit.edit_text("t.yaml", UNIT, [
        yamledit.AddVariant("t.yaml", 2, lang, (("text", "Neu"), ("source", "s"), ("status", "draft")),
                            ("en", "de", "fr", "it"))])
    keys = list(variant_node(new, ("title",)).keys())
    assert keys == ["en", "de", "fr"] if lang == "de" else keys == ["en", "fr", "it"]
    block = f"  {lang}:\n  - text: Neu\n    source: s\n    status: draft\n"
    assert block in new and new.replace(block, "") == UNIT
    assert new.index(block) > new.index(after)


def test_language_ranked_first_goes_before_the_others():
    new = yamledit.edit_text("t.yaml", UNIT.replace("  en:\n  - text: Old\n    source: s\n    status: official\n", ""), [
        yamledit.AddVariant("t.yaml", 2, "en", (("text", "Old"), ("source", "s"), ("status", "official")), LANGS)])
    assert list(variant_node(new, ("title",)).keys()) == ["en", "fr"]


def test_variant_added_to_an_existing_language_comes_first():
    new = yamledit.edit_text("t.yaml", UNIT, [
        yamledit.AddVariant("t.yaml", 2, "fr", (("text", "Neuf"), ("source", "s"), ("status", "draft"),
                                                ("canonical", True)), LANGS),
        yamledit.SetFields("t.yaml", 7, (("canonical", False),))])
    fr = variant_node(new, ("title", "fr"))
    assert [(v.get("text").value, v.get("canonical").value) for v in fr.items] == [("Neuf", "true"), ("Vieux", "false")]
    touched, _ = changed_lines(UNIT, new)
    assert touched <= {6, 9}


def test_two_new_languages_in_one_unit_keep_registry_order():
    edits = [yamledit.AddVariant("t.yaml", 2, lang, (("text", lang), ("source", "s"), ("status", "draft")),
                                 ("en", "de", "fr", "it", "es")) for lang in ("it", "es", "de")]
    new = yamledit.edit_text("t.yaml", UNIT, edits)
    assert list(variant_node(new, ("title",)).keys()) == ["en", "de", "fr", "it", "es"]


def test_append_item_keeps_the_languages_file_comments(project: Path):
    edit = yamledit.AppendItem("translations/languages.yaml", "languages",
                               (("code", "no"), ("name", "Norsk"), ("english_name", "Norwegian"), ("locale", "nb_NO")))
    (planned,) = yamledit.plan(project, [edit])
    assert planned.new.startswith(planned.old)  # the list ends the file: the item is appended
    assert planned.new[len(planned.old):] == "  - code: 'no'\n    name: Norsk\n    english_name: Norwegian\n    locale: nb_NO\n"
    yamledit.write(project, [planned])
    assert (project / "translations/languages.yaml").read_text(encoding="utf-8") == planned.new


# --- any text survives the trip ----------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1))
def test_any_text_reads_back_as_written(text: str):
    new = yamledit.edit_text("t.yaml", UNIT, [
        yamledit.SetFields("t.yaml", 7, (("text", text),)),
        yamledit.AddVariant("t.yaml", 2, "de", (("text", text), ("source", "s"), ("status", "draft")), LANGS)])
    assert variant_node(new, ("title", "fr", 0)).get("text").value == text
    assert variant_node(new, ("title", "de", 0)).get("text").value == text
    assert new.endswith("next: 1\n")


# --- refusals -----------------------------------------------------------------------------------

def test_line_without_a_variant_is_refused():
    with pytest.raises(DataError) as err:
        yamledit.edit_text("t.yaml", UNIT, [yamledit.SetFields("t.yaml", 4, (("text", "x"),))])
    assert "t.yaml:4:1" in str(err.value) and "no text variant starts at line 4" in str(err.value)


def test_flow_style_is_refused():
    text = "title:\n  en: [{text: Old, source: s, status: official}]\n"
    with pytest.raises(DataError) as err:
        yamledit.edit_text("t.yaml", text, [yamledit.AddVariant(
            "t.yaml", 2, "de", (("text", "x"), ("source", "s"), ("status", "draft")), LANGS)])
    assert "flow style" in str(err.value)


def test_two_edits_of_the_same_text_are_refused():
    with pytest.raises(DataError) as err:
        yamledit.edit_text("t.yaml", UNIT, [yamledit.SetFields("t.yaml", 7, (("text", "a"),)),
                                            yamledit.SetFields("t.yaml", 7, (("text", "b"),))])
    assert "two edits change the same text" in str(err.value)


def test_plan_writes_nothing_and_write_touches_only_changed_files(project: Path):
    kb = load_knowledge_base(project)
    unit = next(u for u in kb.units() if u.id == "retrace.n3")
    de = unit.text("de")
    before = {p: p.read_bytes() for p in project.rglob("*.yaml")}
    planned = yamledit.plan(project, [yamledit.SetFields(de.pos.file, de.pos.line, (("text", "Neu"),))])
    assert {p: p.read_bytes() for p in project.rglob("*.yaml")} == before
    yamledit.write(project, planned)
    after = {p: p.read_bytes() for p in project.rglob("*.yaml")}
    assert [p for p in after if after[p] != before[p]] == [project / de.pos.file]
    assert not list(project.rglob("*.rulekb-tmp"))
