"""What changed in a rules release (changes.py) and `rulekb changes` (commands/changes.py), on the
official releases: 2026-01-16 against 2025-11-14 (the `recent` fixture) and the four official
releases (`full`), checked against an independent line diff of the release files."""

from __future__ import annotations

import difflib

import pytest

from conftest import archive_file, official_lines, release_file
from rulekb.changes import TextChange, UnknownRelease, compare_releases
from rulekb.commands import main
from rulekb.models import normalise
from rulekb.worddiff import word_diff


def line_diff(old_file, new_file) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """The numbered lines (number, text with its continuation lines) that a line diff of the two
    release files marks as deleted from the older and inserted into the newer; a line deleted in
    one place and inserted, number and text the same, in another was moved, not changed."""
    def lines(path):
        numbered, _ = official_lines(path)
        return [(number, "\n".join([text] + after)) for number, text, after in numbered]
    old, new = lines(old_file), lines(new_file)
    deleted: set[tuple[str, str]] = set()
    inserted: set[tuple[str, str]] = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op != "equal":
            deleted.update(old[i1:i2])
            inserted.update(new[j1:j2])
    moved = deleted & inserted
    return deleted - moved, inserted - moved


def sides(found) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """The (number, English) of every text `changes` names, as it was in the older and as it is
    in the newer release."""
    changed = found.new_units + found.removed + found.renumbered + found.reworded + found.typography
    old = {(c.old_number, c.before) for c in changed if c.old_number is not None}
    new = {(c.new_number, c.after) for c in changed if c.new_number is not None}
    return old, new


def test_changes_of_2026_01_16_agree_with_a_line_diff_of_the_two_files(recent, shared):
    _, kb = recent
    found = compare_releases(kb, "2026-01-16")
    assert (found.old, found.new) == ("2025-11-14", "2026-01-16")
    deleted, inserted = line_diff(archive_file(shared, "2025-11-14"), release_file(shared, "2026-01-16"))
    assert sides(found) == (deleted, inserted)
    # what the diff shows, read as numbers: 610.5 and 701.68 (a-d) new, 702.124p no longer a number
    assert found.numbers_added == ("610.5", "701.68", "701.68a", "701.68b", "701.68c", "701.68d")
    assert found.numbers_gone == ("702.124p",)
    assert [c.new_number for c in found.new_units] == list(found.numbers_added)
    # "Friends forever" left the rules; the partner subrules after it moved up a letter
    assert [c.old_number for c in found.removed] == ["702.124k"]
    assert found.removed[0].before.startswith("“Friends forever” means")
    assert [(c.old_number, c.new_number) for c in found.renumbered] == [
        ("702.124m", "702.124k"), ("702.124n", "702.124m"), ("702.124p", "702.124n")]
    assert all(c.before == c.after for c in found.renumbered)
    reworded = {c.new_number: c for c in found.reworded}
    assert sorted(reworded) == ["115.7e", "205.3m", "207.2c", "601.2a", "702.124a", "702.124i"]
    assert ("insert", " Sorcerer,") in reworded["205.3m"].diff()
    assert found.typography == ()


def test_glossary_changes_of_2026_01_16_agree_with_a_line_diff(recent, shared):
    """The glossary entries (term, definition) a diff of the two files shows as gone and as come
    are the terms `changes` lists: Blight new, Friends Forever removed, none reworded."""
    _, kb = recent
    found = compare_releases(kb, "2026-01-16")
    _, old_terms = official_lines(archive_file(shared, "2025-11-14"))
    _, new_terms = official_lines(release_file(shared, "2026-01-16"))
    assert {g.before for g in found.glossary if g.before} == set(old_terms) - set(new_terms)
    assert {g.after for g in found.glossary if g.after} == set(new_terms) - set(old_terms)
    assert [g.term for g in found.glossary_of("new")] == ["Blight"]
    assert [g.term for g in found.glossary_of("removed")] == ["Friends Forever"]
    assert found.glossary_of("reworded") == found.glossary_of("typography") == ()


def test_changes_across_renumbering_agree_with_a_line_diff(full, shared):
    """2018-01-19 against 2011-05-01: hundreds of rules renumbered, reworded and retypeset."""
    _, _, kb, _ = full
    found = compare_releases(kb, "2018-01-19")
    assert found.old == "2011-05-01"
    deleted, inserted = line_diff(release_file(shared, "2011-05-01"), release_file(shared, "2018-01-19"))
    old, new = sides(found)
    assert old == deleted and new == inserted
    retrace = {(c.old_number, c.new_number) for c in found.renumbered if c.rule.id == "retrace"}
    assert {("702.78", "702.80"), ("702.78a", "702.80a")} <= retrace


def test_typography_alone_is_apart_from_changes_of_meaning(full):
    _, _, kb, _ = full
    found = compare_releases(kb, "2018-01-19", "2011-05-01")
    assert found.typography and found.reworded
    for c in found.typography:
        assert c.before != c.after and normalise(c.before) == normalise(c.after)
        assert c.text is TextChange.TYPOGRAPHY and c not in found.reworded
    for c in found.reworded:
        assert normalise(c.before) != normalise(c.after)
    apostrophe = next(c for c in found.typography if c.new_number == "102.2")
    assert ("delete", "player's") in word_diff(apostrophe.before, apostrophe.after)


def test_since_compares_with_an_older_release(full, shared):
    _, _, kb, _ = full
    step = compare_releases(kb, "2026-01-16")
    wide = compare_releases(kb, "2026-01-16", "2009-07-11")
    assert (step.old, wide.old) == ("2018-01-19", "2009-07-11")
    buyback = [(c.old_number, c.new_number) for c in wide.renumbered if c.unit.id == "buyback.title"]
    assert buyback == [("702.24", "702.27")]
    assert sides(wide) == line_diff(release_file(shared, "2009-07-11"), release_file(shared, "2026-01-16"))


def test_an_unknown_release_names_the_imported_ones(full):
    _, _, kb, _ = full
    with pytest.raises(UnknownRelease) as err:
        compare_releases(kb, "2026-01-15")
    assert "2026-01-15 is not imported" in err.value.message
    assert err.value.hint.startswith("did you mean '2026-01-16'?")
    assert "2009-07-11, 2011-05-01, 2018-01-19, 2026-01-16" in err.value.hint
    with pytest.raises(ValueError, match="not older"):
        compare_releases(kb, "2011-05-01", "2018-01-19")


# ---------------------------------------------------------------- rulekb changes

def test_command_prints_each_kind_apart(recent, capsys):
    root, _ = recent
    assert main(["--root", str(root), "changes", "2026-01-16"]) == 0
    out = capsys.readouterr().out
    parts = out.split("\n\n")
    assert parts[0] == "Changes of the rules release 2026-01-16 against 2025-11-14 (English texts)"
    new = next(p for p in parts if p.startswith("New (6):"))
    assert "\n  701.68  Blight\n" in new + "\n"
    removed = next(p for p in parts if p.startswith("Removed (1):"))
    assert "702.124k  “Friends forever” means" in removed
    assert "  702.124p -> 702.124n  If an effect refers to a partner ability by name" in out
    reworded = next(p for p in parts if p.startswith("Reworded (6):"))
    assert "Soltari,{+ Sorcerer,+} Spawn" in reworded
    # a text of several lines keeps its lines indented under the number
    assert "\n    Example: Arc Trail is a sorcery" in reworded
    assert "that 2026-01-16 no longer has (1): 702.124p" in out
    glossary = next(p for p in parts if p.startswith("Glossary, new terms (1):"))
    assert "\n  Blight  A keyword action. To blight N means" in glossary
    assert "Glossary, removed terms (1):\n  Friends Forever  A variant of the partner ability" in out
    assert out.rstrip().endswith("6 new, 1 removed, 3 renumbered, 6 reworded, 0 typography only; glossary: "
                                 "1 new, 1 removed, 0 reworded, 0 typography (2025-11-14 -> 2026-01-16)")


@pytest.mark.parametrize("argv, code, message", [
    (["changes", "2026-01-15"], 1, "error: the release 2026-01-15 is not imported in this knowledge base\n"
                                   "    fix: did you mean '2026-01-16'? imported releases (2): 2025-11-14, 2026-01-16"),
    (["changes", "2025-11-14"], 1, "error: 2025-11-14 is the oldest imported release"),
    (["changes", "2026-01-16", "--since", "2025-11-15"], 1, "error: the older release 2025-11-15 is not imported"),
    (["changes", "2025-11-14", "--since", "2026-01-16"], 2, "error: --since 2026-01-16 is not older than 2025-11-14"),
    (["changes", "2026-1-16"], 2, "error: RELEASE '2026-1-16' is not a date\n    fix: write a release as YYYY-MM-DD"),
    (["changes", "2026-01-16", "--since", "last"], 2, "error: --since 'last' is not a date"),
])
def test_command_errors(recent, capsys, argv, code, message):
    root, _ = recent
    assert main(["--root", str(root), *argv]) == code
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_command_on_the_seed_data_says_no_release_is_imported(seed, capsys):
    assert main(["--root", str(seed), "changes", "2026-01-16"]) == 1
    assert "no release is imported: rulekb import cr FILE" in capsys.readouterr().err
