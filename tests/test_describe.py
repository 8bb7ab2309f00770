"""What `rulekb show` says (rulekb.describe): the lines of a rule or subrule found by its number,
and of a number in a rules release; the command only prints them."""

from __future__ import annotations

import pytest

from rulekb.describe import release_lines, rule_lines, unit_lines
from rulekb.knowledge import load_knowledge_base
from rulekb.link import link


@pytest.fixture(scope="module")
def kb(seed):
    return load_knowledge_base(seed)


def test_a_subrule_by_its_old_number_lists_every_text_with_source_and_status(kb):
    found = link(kb).lookup("702.81a")
    lines = rule_lines(found, kb.language_codes, kb)
    assert lines[0] == found.explain()
    assert lines[1] == "rule 702.78 Retrace (id retrace; number today: 702.81)"
    assert lines[2] == "number history:" and lines[3].startswith("  502.81 ")
    assert "702.78a  [retrace.a]" in lines
    texts = [line for line in lines[lines.index("702.78a  [retrace.a]"):]
             if line.startswith("  ") and not line.startswith("      ")]
    assert [line.split(":", 1)[0] for line in texts] == ["  en", "  en", "  de", "  fr"]
    sources = [line for line in lines if line.startswith("      source: ")]
    assert "status: official, alternative" in sources[1]               # the older English wording
    assert sources[3].endswith("stale: its English has changed; rules/comprehensive/retrace.yaml:69")


def test_a_rule_lists_all_its_units_in_the_first_language_asked(kb):
    found = link(kb).lookup("702.81")
    lines = rule_lines(found, ("de",), kb)
    units = [line for line in lines if line.endswith("]") and "  [" in line]
    assert [line.split("[")[1][:-1] for line in units] == [u.id for u in found.target.rule.units]
    assert all(not line.startswith("  en:") for line in lines)


def test_a_unit_without_a_text_in_a_language_says_so(kb):
    unit = next(u for u in kb.rule("buyback").units if "fr" not in u.variants)   # no French for 702.24
    assert unit_lines(unit, ("fr",), kb) == [f"{unit.label}  [{unit.id}]", "  fr: (missing: no fr text)"]


def test_a_number_in_a_release_it_is_known_in(kb):
    lines, meaning = release_lines(kb, "702.78", "2011-05-01", ("en", "fr"))
    assert meaning is not None and meaning.rule.id == "retrace"
    assert lines[1] == "rule 702.78 Retrace (id retrace) as in the release of 2011-05-01; number today: 702.81"
    assert "702.78a  [retrace.a]" in lines
    assert any(line.startswith("      source: seed-002; status: community; made from") for line in lines)


def test_a_release_the_knowledge_base_cannot_tell_about_has_no_meaning(kb):
    lines, meaning = release_lines(kb, "702.78", "2026-01-16", ("en",))
    assert meaning is None
    assert len(lines) == 1 and "2026-01-16" in lines[0]


def test_the_title_line_falls_back_to_english(seed, capsys):
    from rulekb.commands import main
    from rulekb.knowledge import load_knowledge_base
    kb = load_knowledge_base(seed)
    rule = next(r for r in kb.rules if r.title is not None and r.title.text("fr") is None
                and r.title.text("en") is not None and r.subrules)
    assert main(["--root", str(seed), "show", rule.number, "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert f"rule {rule.number} {rule.title.text('en').text} (id {rule.id};" in out
