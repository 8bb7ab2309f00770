"""The committed knowledge base holds every sentence of the five seed documents verbatim, in the
right language slot (issue 2), and no translation that no source has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekb.knowledge import load_knowledge_base

# Per seed: the language of each paragraph, in order; None marks a heading that introduces a
# quotation and is not content ("La traduction française des règles a dit :").
SEED_LANGUAGES = {
    "000_e862b65f23551907.txt": ["de"] * 8 + ["en"] * 8,
    "001_25e38e423cf13d0f.txt": ["de"] * 2 + ["en"] * 9,
    "002_391c69ccb47a3028.txt": ["fr", None] + ["fr"] * 6 + [None, "en", "en"],
    "003_4ac2b2d33ba6dd7c.txt": ["de"] * 7 + ["en"] * 7,
    "004_caadccd8e35d4244.txt": ["de"] * 15,
}
NUMBER_PREFIX = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")
DATE = re.compile(r"^(\d\d)/(\d\d)/(\d{4})$")


@pytest.fixture(scope="module")
def kb(seed):
    return load_knowledge_base(seed)


def _texts(kb, lang: str) -> list[str]:
    out = [v.text for u in kb.units() for v in u.variants.get(lang, ())]
    out += [c.names[lang] for c in kb.cards if lang in c.names]
    return out


def _sentences(paragraph: str) -> list[str]:
    body = NUMBER_PREFIX.sub("", paragraph.removeprefix("• "))
    return [s for s in re.split(r"(?<=[.!?:“”])\s+(?=[A-ZÄÖÜ„“(«\"])", body) if s.strip()]


def _paragraphs(path: Path) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", path.read_text("utf-8")) if p.strip()]


@pytest.mark.parametrize("name", sorted(SEED_LANGUAGES))
def test_every_seed_sentence_is_stored_verbatim_in_its_language(kb, shared, name):
    paragraphs = _paragraphs(shared / "seeds" / name)
    languages = SEED_LANGUAGES[name]
    assert len(paragraphs) == len(languages), "the seed's paragraphs changed; update the table"
    dates = {r.date for r in kb.rulings}
    missing = []
    for paragraph, lang in zip(paragraphs, languages):
        if lang is None:
            continue
        if (m := DATE.match(paragraph)) is not None:
            assert f"{m[3]}-{m[2]}-{m[1]}" in dates, paragraph
            continue
        texts = _texts(kb, lang)
        for sentence in _sentences(paragraph):
            if not any(sentence in t for t in texts):
                missing.append((lang, sentence))
    assert missing == []


def test_no_invented_translations(kb):
    """What no source has stays missing: French exists only for Retrace (seed 002)."""
    fr_units = {u.id for u in kb.units() if "fr" in u.variants}
    assert fr_units and all(u.startswith("retrace.") for u in fr_units)
    assert "fr" not in kb.rule("buyback").subrules[0].unit.variants
    assert "fr" not in kb.rule("dredge").subrules[0].unit.variants
    english_rulings = [r for r in kb.rulings if "en" in r.unit.variants]
    assert len(english_rulings) == 3 and len(kb.rulings) == 6


def test_two_german_translations_of_one_ruling_are_kept(kb):
    ruling = next(r for r in kb.rulings if len(r.unit.variants.get("de", ())) == 2)
    first, second = ruling.unit.variants["de"]
    assert first.canonical and not second.canonical and first.text != second.text
    assert first.translated_from == second.translated_from


def test_older_english_wording_of_702_78a_is_kept_beside_the_canonical_one(kb):
    unit = kb.rule("retrace").subrule("a").unit
    canonical, older = unit.variants["en"]
    assert "card with retrace is in" in canonical.text and "the card is in a player" in older.text
    assert (canonical.source, older.source) == ("seed-000", "seed-002")


def test_shared_explore_rulings_are_stored_once_for_all_their_cards(kb, shared):
    import json
    cards = json.loads((shared / "data/mtgjson/XLN.json").read_text("utf-8"))["data"]["cards"]
    for ruling in kb.rulings:
        english = ruling.unit.text("en")
        if english is None:
            continue
        names = sorted(c["name"] for c in cards if {"date": ruling.date, "text": english.text} in c.get("rulings", []))
        assert sorted(kb.card(cid).names["en"] for cid in ruling.cards) == names
    assert len({c for r in kb.rulings for c in r.cards}) == 12


@pytest.mark.parametrize("rule_id, release", [("casting-spells", "2011-05-01"), ("explore", "2018-01-19")])
def test_cr_extracts_match_their_release(kb, shared, rule_id, release):
    raw = (shared / f"data/comprehensive-rules/MagicCompRules-{release}.txt").read_bytes().decode("utf-8-sig")
    lines = set(raw.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    rule = kb.rule(rule_id)
    for sub in rule.subrules:
        assert f"{sub.number} {sub.unit.text('en').text}" in lines
