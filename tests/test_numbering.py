"""Rule numbers as each release printed them (numbering.py), and the links of older texts that
land where their number pointed then (link.py; issue 29.7)."""

from __future__ import annotations

import pytest

from conftest import DATA, data_copy
from rulekb.importers.cr import import_releases
from rulekb.knowledge import load_knowledge_base
from rulekb.link import Target, link
from rulekb.models import SOURCE_LANGUAGE
from rulekb.numbering import ReleaseNumbers, text_release

SYNTHETIC = (DATA / "cr" / "release-2030-01-01.txt", DATA / "cr" / "release-2031-06-01.txt")


@pytest.fixture(scope="module")
def renumbered(tmp_path_factory):
    """The seed with two synthetic releases: in 2031 Flying comes in as 702.2, so Deathtouch
    (702.2 in 2030) becomes 702.3 and Retrace (702.3) 702.4."""
    root = data_copy(tmp_path_factory.mktemp("numbering") / "kb")
    import_releases(root, list(SYNTHETIC))
    return load_knowledge_base(root, cache=False)


def _read(release_file, number):
    """The title the release file prints for a rule number (read here, not from the importer)."""
    for line in release_file.read_text("utf-8").splitlines():
        if line.startswith(number + ". "):
            return line[len(number) + 2:].strip()
    raise AssertionError(number)


@pytest.mark.parametrize("release, file", [("2030-01-01", SYNTHETIC[0]), ("2031-06-01", SYNTHETIC[1])])
@pytest.mark.parametrize("number", ["702.2", "702.3"])
def test_a_number_names_the_rule_its_release_printed_under_it(renumbered, release, file, number):
    numbers = ReleaseNumbers.of(renumbered)
    rule, sub = numbers.resolve(number, release)
    assert sub is None and rule.title.text(SOURCE_LANGUAGE).text == _read(file, number)


def test_a_subrule_number_names_the_subrule_that_had_the_letter_then(renumbered):
    numbers = ReleaseNumbers.of(renumbered)
    rule, sub = numbers.resolve("702.2b", "2030-01-01")       # deathtouch's b of 2030 ...
    assert rule.id == "deathtouch" and sub.letters["2030-01-01"] == "b"
    assert sub.letters["2031-06-01"] == "c"                    # ... is its c of 2031
    target = Target(rule, sub)
    assert target.anchor == sub.number
    assert numbers.resolve("702.2b", "2031-06-01") is None      # Flying has no b in 2031
    assert numbers.resolve("702.9", "2030-01-01") is None
    # a release that is not imported and that no history span names: the knowledge base cannot tell
    assert numbers.resolve("702.2", "1999-01-01") is None


def test_an_english_text_uses_its_newest_release_and_a_translation_that_of_its_english(renumbered):
    unit = renumbered.rule("deathtouch").subrule_in("2030-01-01", "b").unit
    owner = renumbered.owner(unit.id)
    english = unit.variants[SOURCE_LANGUAGE]
    assert text_release(english[0], unit, owner, SOURCE_LANGUAGE) == max(english[0].releases)
    from rulekb.models import Pos, Status, Variant, english_hash
    old = next(v for v in english if "2030-01-01" in v.releases)
    german = Variant("Text", "x", Status.COMMUNITY, True, Pos("f", 1), translated_from=english_hash(old.text))
    assert text_release(german, unit, owner, "de") == max(old.releases)


def test_a_former_subrule_is_linked_at_its_rule(renumbered):
    for rule in renumbered.rules:
        for sub in rule.former_subrules:
            assert Target(rule, sub).anchor == rule.number
        for sub in rule.subrules:
            assert Target(rule, sub).anchor == sub.number


def test_links_of_the_newest_texts_keep_the_stored_numbers(renumbered):
    linked = link(renumbered)
    newest = max(r.date for r in renumbered.releases)
    for found in linked.links:
        unit = next(u for u in renumbered.units() if u.id == found.unit)
        variant = unit.variants[found.lang][found.variant]
        if variant.releases and max(variant.releases) == newest:
            assert found.targets == tuple(linked.resolve(n) for n in found.reference.numbers)


def test_a_former_subrule_s_place_is_its_rule(renumbered):
    """Referenced-by links of a former subrule land on its rule (the page has no element for it)."""
    import dataclasses

    from rulekb.render.context import unit_anchor
    rule = renumbered.rule("deathtouch")
    gone = rule.subrules[-1]
    former = dataclasses.replace(rule, subrules=rule.subrules[:-1], former_subrules=(gone,))
    assert unit_anchor(rule, gone.unit) == gone.unit.label
    assert unit_anchor(former, gone.unit) == former.number
