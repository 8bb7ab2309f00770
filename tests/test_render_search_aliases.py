"""The names a reader may type for a rule (render/search_aliases.py): the official German and
French names of keywords and terms (`official_aliases`, from a tiny official file under
tests/data/official/) lead to the rule they name, and the build hands those of the project's
translations/official.yaml to the index, where each language's part carries them."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulekb.official import OFFICIAL_FILE, load_official, official_from
from rulekb.render import render_site, search
from rulekb.render.search_aliases import official_aliases, search_aliases
from test_render import render_tree

FIXTURE = Path(__file__).parent / "data" / "official" / "official.yaml"


@pytest.fixture(scope="module")
def kb(full):
    _root, _before, kb, _result = full
    return kb


def _official():
    return official_from(FIXTURE.read_bytes(), "tests/data/official/official.yaml", ("en", "de", "fr"))


def _number(kb, rule_id: str) -> str:
    return next(r.current_number for r in kb.rules if r.id == rule_id)


def test_official_names_lead_to_the_rule_they_name(kb):
    found = {(a.text, a.lang): a.number for a in official_aliases(kb, _official())}
    retrace, dredge, explore = _number(kb, "retrace"), _number(kb, "dredge"), _number(kb, "explore")
    assert (retrace, dredge) == ("702.81", "702.52")   # the fixture's keyword rules are today's numbers
    assert found[("Zurückverfolgen", "de")] == found[("Pistage", "fr")] == retrace
    assert found[("Rückverfolgung", "de")] == retrace          # a name printed before today's
    assert found[("Ausgraben", "de")] == found[("Dragage", "fr")] == dredge
    # a term: where the glossary's entry of its English term leads ("Mana Value … See rule 202.3.")
    assert found[("Manabetrag", "de")] == found[("umgewandelten Manakosten", "de")] == "202.3"
    # a term that is a rule's title and no glossary entry's leads to that rule
    assert found[("explorer", "fr")] == explore


def test_names_of_no_rule_in_force_are_left_out(kb):
    texts = {a.text for a in official_aliases(kb, _official())}
    assert "Nirgendwo" not in texts     # 702.999: no release has it
    assert "unerhörtes Wort" not in texts   # neither a glossary entry nor a rule's title


def test_official_names_come_after_the_glossary_and_termbase_once_per_number(kb):
    import sitebuild
    from rulekb.termbase import load_termbase
    aliases = search_aliases(kb, load_termbase(sitebuild.ROOT), official_aliases(kb, _official()))
    names = [a.text for a in aliases["202.3"]]
    kinds = [a.source.split(":")[0] for a in aliases["202.3"]]
    assert "Mana Value" in names and "Manabetrag" in names
    assert kinds == sorted(kinds, key=lambda k: k == "official") and kinds[0] == "glossary"
    assert {"Zurückverfolgen", "Pistage", "Rückverfolgung"} <= {a.text for a in aliases["702.81"]}
    assert len(names) == len(set(names))


def test_the_build_gives_each_language_part_the_official_names_of_the_project(full):
    """The project's own official file (copied with translations/ into the test project): every
    name of a keyword in force is a name of its rule in every language's part of the index."""
    root, _before, kb, _result = full
    official = load_official(root, kb.language_codes)
    assert (root / OFFICIAL_FILE).is_file() and official.keywords
    _site, linked, uis, termbase = render_tree(root)
    site = render_site(linked, uis, termbase=termbase, official=official)
    in_force = {r.id: r.current_number for r in kb.rules if kb.releases[-1].date in r.releases}
    wanted = {(n.name, k.rule) for k in official.keywords for n in k.names if k.rule in in_force.values()}
    assert {name for name, _ in wanted} >= {"Zurückverfolgen", "Pistage", "Ausgraben", "Dragage"}
    for lang in kb.language_codes:
        rules = search.decode(site.files[f"{lang}/search/rules.js"])["rules"]
        named = {(name, today or number) for _id, number, today, title, _lang, aliases, _units in rules
                 for name in (title, *aliases)}     # (a name that is the title shown is not repeated)
        assert wanted <= named, (lang, sorted(wanted - named)[:5])

