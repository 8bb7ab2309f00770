"""check.coverage: the keyword rules as a figure (issue 29.4) — per language of the official file,
how many keyword rules in force have their official name and reminder text, and which no card of
the language prints; a keyword rule named by its text ("For Mirrodin!") is counted; 701.1 (a
text), a keyword rule of former releases only, another rule and a keyword rule no release has are not."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from qa_kb import LANGUAGES, SOURCES, rule, termbase, unit
from rulekb.check.base import Context
from rulekb.check.coverage import KeywordRule, compute_coverage, keyword_coverage
from rulekb.models import SOURCE_LANGUAGE, KnowledgeBase, Pos, RulesRelease, UnitKind
from rulekb.official import CardRef, Keyword, KeywordName, Official, Reminder

REF = CardRef("Karte", "Card", "XYZ", "1", "2024-01-01")
NEWEST = "2024-02-02"


def _name(lang: str, name: str, reminder: bool) -> KeywordName:
    return KeywordName(lang, name, False, 3, REF, Reminder("(…)", REF, "2020-01-01", "2024-01-01", 3) if reminder else None)


def _in(release: str, r):
    """The rule with its English texts those of `release`."""
    def moved(unit):
        english = tuple(replace(v, releases=(release,)) for v in unit.variants[SOURCE_LANGUAGE])
        return replace(unit, variants=MappingProxyType({**unit.variants, SOURCE_LANGUAGE: english}))
    return replace(r, title=moved(r.title) if r.title else None, text=moved(r.text) if r.text else None, subrules=tuple(replace(s, unit=moved(s.unit)) for s in r.subrules))


def _kb(*rules) -> KnowledgeBase:
    release = RulesRelease(NEWEST, f"cr-{NEWEST}", "cr.txt", (("7", "Additional Rules"),), Pos("rules/releases.yaml", 1))
    return KnowledgeBase(LANGUAGES, MappingProxyType(SOURCES), tuple(rules), (), (), releases=(release,))


KB = _kb(
    _in(NEWEST, rule("retrace", "702.81", NEWEST, title={"en": "Retrace"}, subrules={"a": {"en": "Retrace appears."}})),
    _in(NEWEST, rule("dredge", "702.52", NEWEST, title={"en": "Dredge"}, subrules={"a": {"en": "Dredge appears."}})),
    _in(NEWEST, rule("affinity", "702.41", NEWEST, title={"en": "Affinity"}, subrules={"a": {"en": "Affinity appears."}})),
    _in(NEWEST, rule("explore", "701.44", NEWEST, title={"en": "Explore"}, subrules={"a": {"en": "To explore, …"}})),
    _in(NEWEST, rule("tap", "701.26", NEWEST, title={"en": "Tap and Untap"}, subrules={"a": {"en": "To tap …"}})),
    # a keyword rule named by its text (702.163 "For Mirrodin!" has no title): counted
    _in(NEWEST, replace(rule("for-mirrodin", "702.163", NEWEST, subrules={"a": {"en": "For Mirrodin! is a triggered ability."}}),
                        text=unit("for-mirrodin.text", UnitKind.TEXT, "702.163", {"en": "For Mirrodin!"}))),
    # 701.1, a rule whose text is a sentence, another rule, and a keyword rule of a former release only: not counted
    _in(NEWEST, replace(rule("section-701", "701.1", NEWEST, subrules={}),
                        text=unit("section-701.text", UnitKind.TEXT, "701.1", {"en": "Most actions use the English words."}))),
    _in(NEWEST, rule("casting", "601.2", NEWEST, title={"en": "Casting Spells"}, subrules={"a": {"en": "To cast …"}})),
    _in("2009-07-11", rule("substance", "702.999", "2009-07-11", title={"en": "Substance"}, subrules={"a": {"en": "Gone."}})),
)

OFFICIAL = Official(("de", "fr"), (
    Keyword("701.26", "Tap and Untap", ()),
    Keyword("701.44", "Explore", (_name("fr", "explorer", True),)),
    Keyword("702.41", "Affinity", (_name("de", "Affinität zu", False),)),
    Keyword("702.52", "Dredge", (_name("de", "Ausgraben", True), _name("fr", "Dragage", True))),
    Keyword("702.81", "Retrace", (_name("de", "Zurückverfolgen", True), _name("fr", "Pistage", False))),
    Keyword("702.999", "Substance", (_name("de", "Substanz", True), _name("fr", "Substance", True))),
    Keyword("702.1000", "Nowhere", (_name("de", "Nirgendwo", True),)),   # no rule of the knowledge base
), ())


def test_the_keyword_rules_in_force_with_their_name_and_reminder_text_per_language():
    found = keyword_coverage(Context(KB, termbase()), OFFICIAL)
    assert sorted(found) == ["de", "fr"]
    de, fr = found["de"], found["fr"]
    assert (de.total, de.named, de.reminder) == (6, 3, 2)
    assert (fr.total, fr.named, fr.reminder) == (6, 3, 2)
    mirrodin = KeywordRule("for-mirrodin", "702.163", "For Mirrodin!")
    assert de.unprinted == (KeywordRule("tap", "701.26", "Tap and Untap"), KeywordRule("explore", "701.44", "Explore"), mirrodin)
    assert fr.unprinted == (KeywordRule("tap", "701.26", "Tap and Untap"), KeywordRule("affinity", "702.41", "Affinity"), mirrodin)


def test_a_keyword_rule_is_counted_under_its_number_today():
    renumbered = rule("retrace", "702.78", "2011-05-01", title={"en": "Retrace"}, subrules={"a": {"en": "Retrace appears."}},
                      history=(("702.78", "2009-07-11", "2011-05-01"), ("702.81", "2021-04", None)))
    found = keyword_coverage(Context(_kb(renumbered), termbase()), OFFICIAL)
    assert (found["de"].total, found["de"].named, found["de"].reminder) == (1, 1, 1)
    assert found["fr"].reminder == 0 and not found["fr"].unprinted


def test_only_the_languages_of_the_official_file_and_none_without_it():
    german = Official(("de",), OFFICIAL.keywords[:2], ())
    assert sorted(keyword_coverage(Context(KB, termbase()), german)) == ["de"]
    assert keyword_coverage(Context(KB, termbase()), Official((), (), ())) == {}
    assert compute_coverage(Context(KB, termbase())).keywords == {}


def test_the_figures_are_in_the_coverage_and_its_json():
    coverage = compute_coverage(Context(KB, termbase()), OFFICIAL)
    data = coverage.as_dict()["keywords"]
    assert list(data) == ["de", "fr"]
    assert data["fr"] == {"total": 6, "named": 3, "reminder": 2,
                          "unprinted": [{"id": "tap", "number": "701.26", "title": "Tap and Untap"},
                                        {"id": "affinity", "number": "702.41", "title": "Affinity"},
                                        {"id": "for-mirrodin", "number": "702.163", "title": "For Mirrodin!"}]}
