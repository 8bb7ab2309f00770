"""The official names and terms (rulekb.official, read from translations/official.yaml) and their
miner (rulekb.importers.official, rulekb.importers.termalign): the committed file checked against
the card files it was mined from (a sample of its entries, read again from the set files), the
loader's errors, and the box `rulekb show --lang` prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT, SHARED
from rulekb.describe import official_lines
from rulekb.diagnostics import DataError
from rulekb.i18n import load_ui
from rulekb.importers.mtgjson import read_bytes, read_set
from rulekb.importers.termalign import keyword_lines, shared_prefix
from rulekb.knowledge import load_knowledge_base
from rulekb.official import OFFICIAL_FILE, official_from

SETS = SHARED / "data" / "mtgjson" / "sets"
LANGUAGES = {"German": "de", "French": "fr"}
OFFICIAL = official_from((ROOT / OFFICIAL_FILE).read_bytes(), OFFICIAL_FILE, ("en", "de", "fr"))
# a sample of the mined keyword names: every fifth of each language
SAMPLE = [(k, n) for lang in OFFICIAL.languages
          for k, n in [(k, k.name(lang)) for k in OFFICIAL.keywords if k.name(lang)][::5]]


def _printing(set_code: str, number: str, lang: str):
    path = next(SETS.glob(f"{set_code}.json*"), None) or next(SETS.glob(f"{set_code}_.json*"), None)
    if path is None:
        pytest.skip(f"no set file {set_code} under {SETS}")
    found = read_set(read_bytes(path), str(path), LANGUAGES)
    card = next(c for c in found.cards if c.set_code == set_code and c.number == number)
    return card, next(text for code, _name, text in card.foreign if code == lang)


@pytest.mark.parametrize("keyword,name", SAMPLE, ids=[f"{n.lang}-{k.rule}" for k, n in SAMPLE])
def test_a_mined_keyword_name_and_reminder_are_what_their_source_card_prints(keyword, name):
    if not SETS.is_dir():
        pytest.skip(f"the card files are not at {SETS}")
    card, printed = _printing(name.source.set_code, name.source.number, name.lang)
    lines = [k for k in keyword_lines(card.english, printed, card.keywords) if k.keyword.casefold() == keyword.english.casefold()]
    assert lines, f"{name.source.label()} has no line of {keyword.english}"
    if name.parameter:
        assert any(k.phrase.startswith(name.name + " ") for k in lines)
    else:
        assert name.name in {k.name for k in lines}
    if name.reminder:
        r = name.reminder
        card, printed = _printing(r.source.set_code, r.source.number, name.lang)
        assert r.text in printed   # (the miner strips the blanks a card prints inside the parentheses)
        assert r.first <= r.last and all(e.text != r.text for e in r.earlier)


def test_a_keyword_is_found_by_its_name_in_each_language():
    named = [k for k in OFFICIAL.keywords if k.names]
    assert named
    for k in named:
        assert OFFICIAL.find_keyword(k.english.upper()) == k
        for n in k.names:
            found = OFFICIAL.find_keyword(n.name)
            assert found is not None and found.name(n.lang) is not None and found.name(n.lang).name == n.name


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_mana_value_is_the_newest_printings_term_with_the_old_one_as_history(lang):
    """The newest printings decide: cards printed since mana value replaced converted mana cost print
    the new term; the older term is kept as history, dated before it."""
    term = OFFICIAL.term("mana value")
    assert term is not None and term.name(lang) is not None
    name = term.name(lang)
    card, printed = _printing(name.source.set_code, name.source.number, lang)
    assert name.term.casefold() in printed.casefold() and "mana value" in card.english
    assert name.history and name.history[0].last <= name.source.date
    old = name.history[0]
    _card, old_printed = _printing(old.source.set_code, old.source.number, lang)
    assert old.text.casefold() in old_printed.casefold() and name.term.casefold() not in old_printed.casefold()


def test_keyword_lines_on_a_set_file_give_names_printed_on_the_line_of_the_keyword():
    path = SETS / "M20.json.gz"
    if not path.is_file():
        pytest.skip(f"no {path}")
    found = read_set(read_bytes(path), str(path), LANGUAGES)
    seen = 0
    for card in found.cards:
        for lang, _name, text in card.foreign:
            if not text or not card.english:
                continue
            for k in keyword_lines(card.english, text, card.keywords):
                line_en = next(e for e in card.english.split("\n") if e.casefold().startswith(k.keyword.casefold())
                               or f", {k.keyword.casefold()}" in e.casefold())
                assert line_en
                if k.name:
                    assert k.name.casefold() in text.casefold()
                    seen += 1
    assert seen > 100


@pytest.mark.parametrize("phrases,prefix", [
    (["Affinität zu Artefakten", "Affinität zu Kleriker"], "Affinität zu"),
    (["Schutz vor Rot", "Schutz vor Schwarz"], "Schutz vor"),
    (["Erwecken 3 — {5}", "Erwecken 4 — {6}"], None),   # a number follows the name: no words of a parameter
    (["Vol", "Vol"], None),
    (["Eins", "Zwei"], None),
])
def test_shared_prefix(phrases, prefix):
    assert shared_prefix(phrases) == prefix


@pytest.mark.parametrize("text,message,line", [
    ("languages: [de]\nkeywords:\n  - rule: \"702.81\"\n    english: Retrace\n    names:\n      - lang: xx\n"
     "        name: Foo\n        printed: 1\n        source: {card: a, english: b, set: X, number: \"1\", date: 2020-01-01}\n"
     "terms: []\n", "lang 'xx' is not known", 6),
    ("languages: [de]\nkeywords: []\nterms:\n  - english: Mana Value\n    names: []\n", "is not lowercase", 4),
    ("languages: [de]\nkeywords:\n  - rule: \"702.81\"\n    english: A\n    names: []\n  - rule: \"702.81\"\n"
     "    english: B\n    names: []\nterms: []\n", "listed twice", 6),
    ("languages: [de]\nkeywords: []\nterms: []\nextra: 1\n", "unknown field 'extra'", 4),
])
def test_a_wrong_official_file_is_an_error_with_its_line(text, message, line):
    with pytest.raises(DataError) as exc:
        official_from(text.encode(), OFFICIAL_FILE, ("en", "de", "fr"))
    problems = exc.value.problems
    assert any(message in p.message and p.line == line and p.file == OFFICIAL_FILE for p in problems), problems


@pytest.mark.parametrize("lang,heading", [("de", "Auf deutschen Karten"), ("fr", "Sur les cartes en français")])
def test_show_prints_the_box_of_a_keyword_in_the_language_asked(seed: Path, lang, heading):
    kb = load_knowledge_base(seed)
    ui = load_ui(seed, next(x for x in kb.languages if x.code == lang))
    keyword = OFFICIAL.keyword("702.81")
    name = keyword.name(lang)
    lines = official_lines("702.81", lang, OFFICIAL, ui)
    assert lines[0].startswith(f"{heading}: {name.name} (Retrace) — {name.source.label()}")
    assert f"  ({name.reminder.text})" in lines
    assert official_lines("702.81", "en", OFFICIAL, ui) == [] and official_lines("100.1", lang, OFFICIAL, ui) == []


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_po_export_comments_give_the_official_names_and_terms_a_text_uses(lang):
    from rulekb.po import official_comments
    name = OFFICIAL.keyword("702.81").name(lang)
    term = OFFICIAL.term("mana value").name(lang)
    lines = official_comments(OFFICIAL, "Retrace appears on some cards; its mana value is 2.", lang)
    assert f"official {lang} name of Retrace (702.81): {name.name} — {name.source.label()}" in lines
    assert any(line.startswith(f"official {lang} reminder text of Retrace: ({name.reminder.text})") for line in lines)
    assert any(line.startswith(f"official {lang} term of 'mana value': {term.term} — ") for line in lines)
    assert official_comments(OFFICIAL, "Nothing of the game here.", lang) == [] and official_comments(None, "Retrace", lang) == []


# ------------------------------------------------------------------ whole phrases (the miner's precision)

def _corpus():
    """A tiny corpus of texts (English words, printed n-grams) in which "additional cost" always
    stands in "As an additional cost to cast this spell", as on the cards."""
    pairs = ([("As an additional cost to cast this spell, sacrifice a creature.",
               "En tant que coût supplémentaire pour lancer ce sort, sacrifiez une créature.")] * 5
             + [("As an additional cost to cast this spell, discard a card.",
                 "En tant que coût supplémentaire pour lancer ce sort, défaussez-vous d'une carte.")] * 5
             + [("Sacrifice a creature: Draw a card.", "Sacrifiez une créature : Piochez une carte.")] * 10
             + [("You may cast this spell from your graveyard.", "Vous pouvez lancer ce sort depuis votre cimetière.")] * 10
             + [("Pay its cost.", "Payez son coût.")] * 10
             + [("Draw a card.", "Piochez une carte.")] * 10)
    return _lexicon(pairs)


def test_an_aligned_ngram_is_kept_only_when_it_is_the_whole_phrase_of_the_term():
    from rulekb.importers.official import FUNCTION_WORDS
    from rulekb.importers.termalign import align_terms
    lex = _corpus()
    avoid = FUNCTION_WORDS["fr"]
    term = ("additional", "cost")
    cards = list(range(10))
    whole = lambda gram: lex.whole_phrase(gram, term, cards, 0, len(lex.grams), avoid)  # noqa: E731
    assert whole("coût supplémentaire")
    assert not whole("supplémentaire pour lancer ce sort")   # "lancer ce sort" is "cast this spell"
    assert not whole("supplémentaire")                       # "cost" is not printed in it
    unchecked = align_terms(cards, lex.grams, 5, avoid)
    checked = align_terms(cards, lex.grams, 5, avoid, accept=lambda a: whole(a.ngram))
    assert unchecked is not None and unchecked.ngram != "coût supplémentaire"
    assert checked is not None and checked.ngram == "coût supplémentaire"


def _lexicon(pairs):
    from rulekb.importers.termalign import Lexicon, ngrams, words
    return Lexicon.of([words(en) for en, _p in pairs], [frozenset(ngrams(p)) for _en, p in pairs])


DRAWS = [("Draw a card.", "Ziehe eine Karte.")] * 40 + [("After combat, exile a card.", "Schicke nach dem Kampf eine Karte ins Exil.")] * 10


@pytest.mark.parametrize("lang, pairs, term, gram, whole", [
    # a compound joins the term's words: "draw" goes best with "Karte" on the cards, which it does not hold
    ("de", [("After your draw step, exile a card.", "Schicke nach deinem Ziehsegment eine Karte ins Exil.")] * 5
     + [("Skip your draw step, then exile a card.", "Überspringe dein Ziehsegment, dann schicke eine Karte ins Exil.")] * 5
     + DRAWS, ("draw", "step"), "ziehsegment", True),
    # one word shorter than the term's words translates one of them, not the term
    ("fr", [("Create a Treasure token.", "Créez un jeton Trésor.")] * 5
     + [("Create a Food token.", "Créez un jeton Nourriture.")] * 5
     + [("Sacrifice a Treasure.", "Sacrifiez un Trésor.")] * 5, ("treasure", "token"), "trésor", False),
    # a negation belongs to the phrase it stands before
    ("fr", [("It deals 2 damage to any target.", "Il inflige 2 blessures à n'importe quelle cible.")] * 5
     + [("It deals 3 damage to any target.", "Il inflige 3 blessures à n'importe quelle cible.")] * 5
     + [("Destroy target creature.", "Détruisez la créature ciblée.")] * 5
     + [("It deals 3 damage to target creature.", "Il inflige 3 blessures à la créature ciblée.")] * 5,
     ("any", "target"), "importe quelle cible", False),
])
def test_a_whole_phrase_is_told_from_a_part_of_one(lang, pairs, term, gram, whole):
    from rulekb.importers.official import FUNCTION_WORDS
    from rulekb.importers.termalign import uses, words
    lex = _lexicon(pairs)
    cards = [i for i, (en, _p) in enumerate(pairs) if uses(term, words(en))]
    assert lex.whole_phrase(gram, term, cards, 0, len(pairs), FUNCTION_WORDS[lang]) is whole


def test_a_term_printed_inside_a_keyword_name_is_still_the_term():
    """"cimetière" is the term of "graveyard" though "Déluge de cimetière" (gravestorm) holds it."""
    from rulekb.importers.official import FUNCTION_WORDS
    from rulekb.importers.termalign import align_terms, ngrams, words
    pairs = ([("Return target card from your graveyard to your hand.",
               "Renvoyez une carte ciblée depuis votre cimetière dans votre main.")] * 10
             + [("Exile target card from a graveyard.", "Exilez une carte ciblée d'un cimetière.")] * 10
             + [("Return target creature to its owner's hand.", "Renvoyez la créature ciblée dans la main de son propriétaire.")] * 10
             + [("Draw a card.", "Piochez une carte.")] * 10)
    lex = _lexicon(pairs)
    cards = list(range(20))
    grams = [frozenset(ngrams(p)) for _en, p in pairs]
    found = align_terms(cards, grams, 3, FUNCTION_WORDS["fr"], taken=frozenset({"déluge de cimetière"}),
                        accept=lambda a: lex.whole_phrase(a.ngram, ("graveyard",), cards, 0, len(pairs), FUNCTION_WORDS["fr"]))
    assert found is not None and found.ngram == "cimetière"
    assert " ".join(words("Déluge de cimetière")) == "déluge de cimetière"


def test_a_keyword_of_an_activated_ability_gives_its_name():
    lines = list(keyword_lines("{3}{G}: Monstrosity 3. (If this creature isn't monstrous, put three +1/+1 counters on it.)",
                               "{3}{G} : Monstruosité 3. (Si cette créature n'est pas monstrueuse, mettez trois marqueurs "
                               "+1/+1 sur elle.)", ["Monstrosity"]))
    assert [(k.name, k.parameter) for k in lines] == [("Monstruosité", "3")]


TERM_SAMPLE = [(t, n) for lang in OFFICIAL.languages
               for t, n in [(t, t.name(lang)) for t in OFFICIAL.terms if t.name(lang)][::7]]


@pytest.mark.parametrize("term,name", TERM_SAMPLE, ids=[f"{n.lang}-{t.english}" for t, n in TERM_SAMPLE])
def test_a_mined_term_is_printed_on_its_source_card_whose_english_uses_the_term(term, name):
    if not SETS.is_dir():
        pytest.skip(f"the card files are not at {SETS}")
    from rulekb.importers.termalign import uses, words
    card, printed = _printing(name.source.set_code, name.source.number, name.lang)
    assert " ".join(words(name.term)) in " ".join(words(printed))
    assert uses(tuple(term.english.split(" ")), words(card.english))


# ------------------------------------------------------------------ what is no term (issue 29: "fügt", "Endsegments", "place")

def _lexicon(pairs):
    from rulekb.importers.termalign import Lexicon, words
    return Lexicon.of([words(en) for en, _printed in pairs], [printed for _en, printed in pairs])


# German: "deal" is printed as a separable verb ("fügt … zu"), "step" in compounds of another word
# ("Endsegments" is "end step"); the fillers give the other English words other texts
_FILLERS_DE = ([("Draw a card.", "Ziehe eine Karte.")] * 10
               + [("Target creature gets +1/+1 until end of turn.", "Eine Kreatur deiner Wahl erhält bis zum Ende des Zuges +1/+1.")] * 10
               + [("Prevent all damage that would be dealt this turn.", "Verhindere allen Schaden, der in diesem Zug zugefügt würde.")] * 5
               + [("Sacrifice a creature.", "Opfere eine Kreatur.")] * 10
               + [("At the beginning of your upkeep, you gain 1 life.", "Zu Beginn deines Versorgungssegments erhältst du 1 Lebenspunkt.")] * 10)
_DEAL = ([("This creature deals 1 damage to any target.", "Diese Kreatur fügt einem Ziel deiner Wahl 1 Schadenspunkt zu.")] * 5
         + [("Target creature deals damage equal to its power to target player.",
             "Eine Kreatur deiner Wahl fügt einem Spieler deiner Wahl Schadenspunkte in Höhe ihrer Stärke zu.")] * 5)
_RENOWNED = ([("Whenever this creature deals combat damage to a player, if it isn't renowned, put a +1/+1 counter on it.",
               "Immer wenn diese Kreatur einem Spieler Kampfschaden zufügt und falls sie nicht ruhmvoll ist, lege eine +1/+1-Marke auf sie.")] * 5
             + [("Renowned creatures you control get +1/+1.", "Kreaturen, die du kontrollierst und die ruhmvoll sind, erhalten +1/+1.")] * 5)
_STEP = ([("At the beginning of the end step, sacrifice it.", "Opfere sie zu Beginn des Endsegments.")] * 10
         + [("Skip your draw step.", "Überspringe dein Ziehsegment.")] * 2
         + [("At the beginning of your upkeep step, draw a card.", "Zu Beginn deines Versorgungssegments ziehe eine Karte.")] * 2)
_COMBAT = ([("Whenever this creature deals combat damage to a player, draw a card.",
             "Immer wenn diese Kreatur einem Spieler Kampfschaden zufügt, ziehe eine Karte.")] * 10
           + [("Prevent all combat damage that would be dealt this turn.",
               "Verhindere allen Kampfschaden, der in diesem Zug zugefügt würde.")] * 4)

WHOLE_PHRASES = [
    # (corpus, English term, printed n-gram, a whole phrase of the term)
    (_DEAL, "deal", "fügt", False),               # the stem of "fügt … zu": its particle ends the clause
    (_RENOWNED, "renowned", "ruhmvoll", True),    # "… ruhmvoll ist": an auxiliary ends it, no particle
    (_STEP, "step", "endsegments", False),        # "end step": the term's other texts print other compounds
    (_COMBAT, "combat damage", "kampfschaden", True),   # "deals combat damage", and its other texts print it too
]


@pytest.mark.parametrize("corpus,term,gram,whole", WHOLE_PHRASES, ids=[f"{t}-{g}" for _c, t, g, _w in WHOLE_PHRASES])
def test_a_separable_verb_s_stem_or_a_compound_of_a_longer_phrase_is_no_term(corpus, term, gram, whole):
    from rulekb.importers.official import FUNCTION_WORDS, VERB_PARTICLES
    lex = _lexicon(corpus + _FILLERS_DE)
    cards = list(range(len(corpus)))
    assert lex.whole_phrase(gram, tuple(term.split(" ")), cards, 0, len(lex.grams), FUNCTION_WORDS["de"],
                            VERB_PARTICLES["de"]) is whole


def test_the_stem_is_refused_for_its_particle_alone():
    """Without the particles "fügt" would pass: the particle at the clause's end is what tells."""
    from rulekb.importers.official import FUNCTION_WORDS
    lex = _lexicon(_DEAL + _FILLERS_DE)
    assert lex.whole_phrase("fügt", ("deal",), list(range(len(_DEAL))), 0, len(lex.grams), FUNCTION_WORDS["de"])


@pytest.mark.parametrize("term,function", [
    ("instead", True), ("as though", True), ("then", True),
    ("mana value", False), ("end step", False), ("deal", False), ("step", False), ("as", True),
])
def test_a_term_of_function_words_only_names_nothing(term, function):
    """"instead" is printed "à la place" / "stattdessen": no game term, and "place" is none."""
    from rulekb.importers.termalign import function_term
    assert function_term(term.split(" ")) is function


def test_the_terms_to_align_leave_out_the_function_words(seed):
    from rulekb.importers.official import english_terms
    kb = load_knowledge_base(seed)
    terms = english_terms(kb, ["instead", "as though", "mana value"], [])
    assert "mana value" in terms and "instead" not in terms and "as though" not in terms


@pytest.mark.parametrize("lang,english,wrong", [("fr", "instead", "place"), ("de", "deal", "fügt"), ("de", "step", "Endsegments"),
                                               ("fr", "as though", "comme")])
def test_the_committed_file_has_none_of_the_wrong_terms(lang, english, wrong):
    term = OFFICIAL.term(english)
    assert term is None or term.name(lang) is None or term.name(lang).term != wrong
