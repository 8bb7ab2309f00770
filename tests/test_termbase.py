"""termbase: strict loading, term search (German compounds, longest form, exceptions, word
boundaries), and the evidence behind the project's termbase (every quoted source checked
against ../shared)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml

from conftest import DATA, ROOT
from rulekb.diagnostics import DataError
from rulekb.knowledge import load_knowledge_base
from rulekb.termbase import Concept, Term, Termbase, load_termbase, separable


@pytest.fixture(scope="module")
def tb(seed):
    return load_termbase(seed, load_knowledge_base(seed))


# ---------------------------------------------------------------- the project's termbase


def test_official_keyword_names_of_the_data_readme(tb, shared):
    """README: 'Buyback = Rückkauf = Rappel; Dredge = Ausgraben = Dragage; …'."""
    readme = (shared / "data" / "README.md").read_text(encoding="utf-8")
    line = readme[readme.index("Official keyword names"):]
    triples = re.findall(r"(\w+) = (\w+) = (\w+)", line)
    assert len(triples) == 4
    for en, de, fr in triples:
        concept = next(c for c in tb.concepts if tb.preferred(c.id, "en") and tb.preferred(c.id, "en").text.casefold() == en.casefold())
        assert tb.preferred(concept.id, "de").text.casefold() == de.casefold()
        assert tb.preferred(concept.id, "fr").text.casefold() == fr.casefold()
        assert concept.rule == en.casefold()


def test_every_entry_has_a_known_source(tb):
    sources = set(yaml.safe_load((ROOT / "rules" / "sources.yaml").read_text(encoding="utf-8"))["sources"])
    for concept in tb.concepts:
        assert concept.source.split(":")[0] in sources
        for terms in concept.terms.values():
            for term in terms:
                assert term.source_id in sources, (concept.id, term.text)
                if term.discouraged:
                    assert term.replacement, (concept.id, term.text)


_QUOTE = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=\())'(.+?)'(?=[\s;,)]|$)")
_CARD = re.compile(r"XLN #(\d+)")
_LANGUAGE = re.compile(r"\((German|French)\b")


def _evidence(shared: Path):
    sources = yaml.safe_load((ROOT / "rules" / "sources.yaml").read_text(encoding="utf-8"))["sources"]
    files = {}
    for sid, src in sources.items():
        if src.get("file"):
            raw = (shared / src["file"]).read_bytes()
            files[sid] = raw.decode("utf-8-sig", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    cards: dict[str, list] = {}
    for card in json.loads(files["mtgjson-xln"])["data"]["cards"]:
        cards.setdefault(card["number"], []).append(card)  # both faces of a double-faced card
    return files, cards


def _card_text(faces, language):
    if language is None:
        return "\n".join(f"{card['name']}\n{card.get('text', '')}" for card in faces)
    return "\n".join(f"{f.get('name', '')}\n{f.get('text', '')}" for card in faces
                     for f in card.get("foreignData", []) if f["language"] == language)


def test_quoted_evidence_is_in_the_sources(tb, shared):
    """Every 'quotation' in a source of the termbase is in the cited file (for XLN.json: in the cited
    card's text in the cited language); "none 'x'" / "never 'x'" claims are checked as absences."""
    files, cards = _evidence(shared)
    checked = 0
    for concept in tb.concepts:
        citations = [concept.source] + [t.source for ts in concept.terms.values() for t in ts]
        for citation in citations:
            for part in re.split(r";\s+(?=[a-z0-9-]+:)", citation):
                sid, _, where = part.partition(":")
                if sid.strip() not in files:
                    continue
                for m in _QUOTE.finditer(where):
                    before = where[: m.start()].rstrip()
                    text = files[sid.strip()]
                    card = [c for c in _CARD.finditer(before)]
                    if sid.strip() == "mtgjson-xln" and card:
                        language = _LANGUAGE.search(before, card[-1].end())
                        text = _card_text(cards[card[-1].group(1)], language.group(1) if language else None)
                    text = " ".join(text.split())
                    for piece in m.group(1).split(" … "):
                        piece = " ".join(piece.strip(" …").split())
                        if not piece:
                            continue
                        checked += 1
                        if before.endswith(("none", "never")):
                            assert piece not in text, f"{concept.id}: {sid} should not contain {piece!r}"
                        else:
                            assert piece in text, f"{concept.id}: {piece!r} not found in {sid} ({where.strip()[:80]})"
    assert checked > 80


# ---------------------------------------------------------------- find_terms


@pytest.mark.parametrize("lang,text,expected", [
    ("de", "Das Bezahlen der Rückkauf-Kosten eines Zauberspruchs",
     [("Bezahlen", "pay"), ("Rückkauf", "buyback"), ("Zauberspruchs", "spell")]),
    ("de", "indem man dessen Zurückverfolgen-Fähigkeit nutzt", [("Zurückverfolgen", "retrace"), ("Fähigkeit", "ability")]),
    ("de", "eine Nichtlandkarte und eine Länderkarte", [("Nichtlandkarte", "nonland-card"), ("Länderkarte", "land-card")]),
    ("de", "eine +1/+1-Marke auf die Kreatur", [("+1/+1-Marke", "plus-one-counter"), ("Kreatur", "creature")]),
    ("de", "Spiele Ausrüsten wie eine Hexerei", [("Hexerei", "sorcery")]),
    ("de", "ganz aus dem Spiel entfernt", [("aus dem Spiel entfernt", "exile")]),
    ("en", "a player plays a spell and discards a land card",
     [("plays", "cast"), ("spell", "spell"), ("discards", "discard"), ("land card", "land-card")]),
    ("en", "You may play a land.", []),
    ("en", "its converted mana cost", [("converted mana cost", "mana-value")]),
    ("en", "counter target spell; it is countered; a +1/+1 counter",
     [("counter target spell", "counter-spell"), ("countered", "counter-spell"), ("+1/+1 counter", "plus-one-counter")]),
    ("fr", "les sorts d'éphémère et de rituel", [("sorts", "spell"), ("éphémère", "instant"), ("rituel", "sorcery")]),
    ("fr", "une CARTE DE TERRAIN", [("CARTE DE TERRAIN", "land-card")]),
])
def test_find_terms(tb, lang, text, expected):
    found = [(text[m.start:m.end], m.concept_id) for m in tb.find_terms(text, lang)]
    assert found == expected



@pytest.mark.parametrize("lang,text,concepts,expected", [
    # the same occurrences as the whole search, those of the concepts asked for
    ("de", "Das Bezahlen der Rückkauf-Kosten eines Zauberspruchs", {"buyback"}, [("Rückkauf", "buyback")]),
    ("de", "Das Bezahlen der Rückkauf-Kosten eines Zauberspruchs", {"buyback", "spell"},
     [("Rückkauf", "buyback"), ("Zauberspruchs", "spell")]),
    ("de", "indem man dessen Zurückverfolgen-Fähigkeit nutzt", {"buyback", "dredge"}, []),
    ("en", "Retrace appears on some instants; RETRACE again", {"retrace"}, [("Retrace", "retrace"), ("RETRACE", "retrace")]),
    # a longer term of another concept still wins its words: "land card" is not "land"
    ("en", "discards a land card", {"land-card"}, [("land card", "land-card")]),
    ("en", "counter target spell", {"spell"}, []),
    # a form inside a longer word is not an occurrence, whether asked for or not
    ("en", "Redredge", {"dredge"}, []),
    ("en", "a spell", frozenset(), []),
])
def test_find_terms_of_some_concepts(tb, lang, text, concepts, expected):
    """What the render stage asks for (the concepts a text links to): the occurrences of those
    concepts that the whole search finds, and only those."""
    found = [(text[m.start:m.end], m.concept_id) for m in tb.find_terms(text, lang, frozenset(concepts))]
    assert found == expected
    whole = [(text[m.start:m.end], m.concept_id) for m in tb.find_terms(text, lang) if m.concept_id in concepts]
    assert found == whole

# ---------------------------------------------------------------- German separable verbs


def _verb(text, *forms, status="preferred"):
    return Term(text, status, (text, *forms), None, "abwerfen" if status == "deprecated" else None, None,
                "test: made in the test")


@pytest.mark.parametrize("text,forms,particle", [
    ("abwerfen", ("abwirfst", "abwirft", "abgeworfen"), "ab"),
    ("zurückbringen", (), "zurück"),   # not "zu" + "rückbringen"
    ("ablegen", (), "ab"),
    ("aufdecken", ("aufdeckst", "aufgedeckt"), "auf"),
    ("antworten", ("geantwortet",), None),   # the participle shows "an" belongs to the stem
    ("bezahlen", (), None),
    ("offenbaren", (), None),   # "offen" is no particle: "offenbart"
    ("ins Exil schicken", (), None),
    ("Ausgraben", (), None),   # a keyword, a noun
])
def test_which_terms_are_separable_verbs(text, forms, particle):
    found = separable(_verb(text, *forms), "de")
    assert (found.particle if found else None) == particle
    assert separable(_verb(text, *forms), "fr") is None


def test_the_forms_of_a_separable_verb():
    """Irregular forms come from the termbase ("abwirft"), regular ones are derived."""
    strong = separable(_verb("abwerfen", "abwirfst", "abwirft", "abgeworfen"), "de")
    assert {"wirfst", "wirft", "wirf", "werfen"} <= set(strong.split)
    assert "abzuwerfen" in strong.joined and not any(f.startswith("abge") for f in strong.joined)
    weak = separable(_verb("ablegen"), "de")
    assert {"lege", "legst", "legt", "leg", "legen"} <= set(weak.split)
    assert {"abzulegen", "abgelegt", "ablegt"} <= set(weak.joined)


SEPARABLE_TB = Termbase((
    Concept("discard", "action", None, MappingProxyType({}), MappingProxyType({
        "de": (_verb("abwerfen", "abwirfst", "abwirft", "abgeworfen"),)}), "test: made in the test"),
    Concept("return", "action", None, MappingProxyType({}), MappingProxyType({
        "de": (_verb("zurückbringen", "zurückgebracht"),)}), "test: made in the test"),
    Concept("put-down", "action", None, MappingProxyType({}), MappingProxyType({
        "de": (_verb("ablegen"),)}), "test: made in the test"),
    Concept("reveal", "action", None, MappingProxyType({}), MappingProxyType({
        "de": (_verb("aufdecken"), _verb("vorzeigen", "vorgezeigt", status="deprecated"))}), "test: made in the test"),
))


@pytest.mark.parametrize("text,expected", [
    # the verb split at the end of a main clause, with or without more after it
    ("Wirf eine Karte ab.", [("Wirf", "discard")]),
    ("Er wirft zwei Karten ab und zieht dann.", [("wirft", "discard")]),
    ("Du wirfst sie ab, dann ziehst du.", [("wirfst", "discard")]),
    ("Bringe die Kreatur auf die Hand ihres Besitzers zurück.", [("Bringe", "return")]),
    ("Er bringt sie zurück", [("bringt", "return")]),
    ("Lege eine Karte ab.", [("Lege", "put-down")]),
    ("Decke die oberste Karte deiner Bibliothek auf.", [("Decke", "reveal")]),
    # joined: zu-infinitive, participle, subordinate clause
    ("um eine Karte abzuwerfen", [("abzuwerfen", "discard")]),
    ("Die Karte wurde abgeworfen.", [("abgeworfen", "discard")]),
    ("um sie zurückzubringen", [("zurückzubringen", "return")]),
    ("nachdem sie abgelegt wurde", [("abgelegt", "put-down")]),
    ("wenn er eine Karte ablegt", [("ablegt", "put-down")]),
    # a different verb, or the verb without its particle, is not the term
    ("Zieh eine Karte ab.", []),
    ("Er wirft eine Karte in die Luft.", []),
    ("Lege die Karte auf den Stapel.", []),   # "auf" is a preposition here
    ("Wirf eine Karte weg.", []),
    ("Er wirft eine Karte. Dann legt er ab.", [("legt", "put-down")]),   # "ab" is not in the clause of "wirft"
    ("Bringe sie auf die Hand, zurück bleibt nichts.", []),
    # a discouraged verb is found joined only: its fix rewrites one word
    ("Zeige die Karte vor.", []),
    ("um sie vorzuzeigen", [("vorzuzeigen", "reveal")]),
])
def test_find_separable_verbs(text, expected):
    assert [(text[m.start:m.end], m.concept_id) for m in SEPARABLE_TB.find_terms(text, "de")] == expected
    # asked for these concepts only, the same occurrences
    some = frozenset(c for _s, c in expected)
    assert [(text[m.start:m.end], m.concept_id) for m in SEPARABLE_TB.find_terms(text, "de", some)] == expected


def test_preferred(tb):
    assert tb.preferred("land-card", "de").text == "Länderkarte"
    assert tb.preferred("priority", "de").status == "admitted"  # no preferred one: the first admitted
    assert tb.preferred("nonland-card", "de").text == "Nichtland-Karte"  # as official cards print it (88 texts)
    assert tb.preferred("reveal", "de").text == "aufdecken"
    assert tb.preferred("no-such-concept", "de") is None
    assert tb.preferred("replacement-effect", "fr") is None


# ---------------------------------------------------------------- strictness


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(DATA / "qa" / "kb", dest)
    return dest


def _write(tree: Path, text: str) -> None:
    (tree / "translations" / "termbase.yaml").write_text(text, encoding="utf-8")


ENTRY = """concepts:
  - id: graveyard
    kind: term
    source: "test-rules: 404"
    terms:
      en:
        - text: graveyard
          status: preferred
          source: "test-rules: 404"
"""


@pytest.mark.parametrize("text,line,message,hint", [
    (ENTRY.replace("    kind: term\n", "    kind: term\n    colour: red\n"), 4, "unknown field 'colour'", ""),
    (ENTRY.replace("source: \"test-rules: 404\"\n    terms", "sorce: \"test-rules: 404\"\n    terms"), 4,
     "unknown field 'sorce'", "did you mean 'source'?"),
    (ENTRY.replace("      en:\n", "      es:\n"), 6, "unknown language 'es'", "use one of en, de, fr"),
    (ENTRY.replace('          source: "test-rules: 404"', '          source: "rules-test: 404"'), 9,
     "does not start with a known source id", "test-rules"),
    (ENTRY.replace("status: preferred", "status: deprecated"), 7, "is deprecated but names no replacement", ""),
    (ENTRY.replace("status: preferred", "status: preferred\n          retired: soon"), 9,
     "retired 'soon' is not valid", ""),
    (ENTRY.replace("kind: term", "kind: noun"), 3, "concept kind 'noun'", "keyword, action, term"),
    (ENTRY + ENTRY.split("concepts:\n")[1], 10, "duplicate concept id 'graveyard'", ""),
    (ENTRY + """  - id: cemetery
    kind: term
    source: "test-rules: 404"
    terms:
      en:
        - text: Graveyard
          status: preferred
          source: "test-rules: 404"
""", 15, "form 'Graveyard' of concept 'cemetery' is also a form of concept 'graveyard'", ""),
    (ENTRY + """        - text: yard
          status: preferred
          source: "test-rules: 404"
""", 7, "more than one preferred en term", ""),
    (ENTRY + """          note: why
          note_translated:
            es: por qué
""", 12, "unknown language 'es' in concept 'graveyard' en term #1 note_translated", "use one of de, fr"),
    (ENTRY + """          note_translated:
            de: warum
""", 11, "has note_translated but no note", "write the English 'note:'"),
])
def test_refused(tree, text, line, message, hint):
    _write(tree, text)
    with pytest.raises(DataError) as err:
        load_termbase(tree)
    problem = next(p for p in err.value.problems if message in p.message)
    assert problem.file == "translations/termbase.yaml" and problem.line == line
    assert hint in problem.hint


def test_missing_file(tree):
    (tree / "translations" / "termbase.yaml").unlink()
    with pytest.raises(DataError) as err:
        load_termbase(tree)
    assert "translations/termbase.yaml is missing" in str(err.value)


def test_rule_must_exist_in_the_kb(tree):
    _write(tree, ENTRY.replace("    kind: term\n", "    kind: term\n    rule: retrase\n"))
    with pytest.raises(DataError) as err:
        load_termbase(tree, load_knowledge_base(tree))
    assert "names rule 'retrase'" in str(err.value) and "did you mean 'retrace'?" in str(err.value)


def test_every_note_of_a_term_reads_in_german_and_french_too(tb):
    """A note is quoted in the QA's message about a deprecated or forbidden term: a German or French
    reader reads it in their language (`note_translated`)."""
    for concept in tb.concepts:
        for lang, terms in concept.terms.items():
            for term in terms:
                if term.note:
                    assert {code for code, _text in term.note_translated} == {"de", "fr"}, (concept.id, term.text)


def test_an_edited_termbase_is_read_again_and_a_problem_is_reported_every_time(tree, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    _write(tree, ENTRY)
    first = load_termbase(tree)
    assert first.preferred("graveyard", "en").text == "graveyard"
    assert [t.concept_id for t in first.find_terms("the graveyard", "en")] == ["graveyard"]
    assert not (tmp_path / "cache" / "termbase").exists()   # no termbase cache: it did not pay
    _write(tree, ENTRY.replace("text: graveyard", "text: cemetery"))   # an edit: read again
    assert load_termbase(tree).preferred("graveyard", "en").text == "cemetery"
    _write(tree, ENTRY.replace("kind: term", "kind: noun"))            # a problem: reported every time
    for _ in range(2):
        with pytest.raises(DataError, match="concept kind 'noun'"):
            load_termbase(tree)
