"""meaningchecks: the comparisons of meaningpairs as `rulekb check` runs them — each class an error
under its own code, whose message says what changed with the fix in the reader's language; a
faithful translation of every row of test_check_meaningpairs draws no error from any meaning check."""

from __future__ import annotations

import re

import pytest
from qa_kb import findings, one_text, run
from rulekb.check import TextCheck, all_checks, check
from rulekb.models import Severity
from test_check_meaningpairs import (
    CONTRAST,
    DROPPED,
    EN_RETRACE,
    EN_TIMING,
    KEYWORD,
    SET_PHRASE,
)

CODES = {"cost": "meaning.cost-kind", "addition": "meaning.addition", "order": "meaning.order",
         "card-type": "meaning.card-type", "action": "meaning.action"}
MEANING = tuple(c.code for c in all_checks() if c.family == "meaning")

# every row: (lang, english, translation, the code that must find it, or None for a faithful translation)
ROWS = ([(lang, en, text, CODES[name] if said else None) for name, lang, en, text, said in CONTRAST]
        + [(lang, en, text, "meaning.dropped" if name else None) for lang, en, text, name in DROPPED]
        + [(lang, en, text, "meaning.set-phrase" if phrase else None) for lang, en, text, phrase in SET_PHRASE])


@pytest.mark.parametrize("lang,english,text,code", ROWS)
def test_a_change_of_meaning_is_an_error_and_a_faithful_translation_draws_none(lang, english, text, code):
    found = [f for f in findings(one_text(lang, text, english), MEANING) if f.lang == lang]
    errors = [f for f in found if f.severity is Severity.ERROR]
    if code is None:
        assert errors == [], [f.message for f in errors]
    else:
        assert [f.code for f in errors if f.code == code or code in f.also], [f.message for f in found]


def test_the_new_checks_are_registered_as_errors():
    for code in (*CODES.values(), "meaning.dropped", "meaning.keyword", "meaning.set-phrase"):
        assert check(code).severity is Severity.ERROR and check(code).family == "meaning"


def _ui(lang):
    from conftest import ROOT
    from rulekb.i18n import load_ui
    from rulekb.models import Language
    return load_ui(ROOT, {"de": Language("de", "Deutsch", "German", "de_DE"),
                          "fr": Language("fr", "Français", "French", "fr_FR")}[lang])


@pytest.mark.parametrize("lang,text,said,expected", [
    ("de", "Du kannst diese Karte aus deinem Friedhof wirken, indem du als alternative Kosten, um sie zu wirken, eine "
     "Landkarte abwirfst.", "von alternativen Kosten", "von zusätzlichen Kosten"),
    ("fr", "Vous pouvez lancer cette carte depuis votre cimetière en vous défaussant d'une carte de terrain en tant que "
     "coût alternatif pour la lancer.", "un coût alternatif", "un coût supplémentaire"),
])
def test_the_message_says_what_changed_in_the_readers_language(lang, text, said, expected):
    (issue,) = run("meaning.cost-kind", one_text(lang, text, EN_RETRACE))
    assert "the English says an additional cost" in issue.message and "an alternative cost" in issue.message
    message, fix = issue.msg.render(_ui(lang)), issue.fix.render(_ui(lang))
    assert said in message and expected in message and expected in fix
    assert issue.span is not None and "alternati" in text[slice(*issue.span)]


def test_keyword_names_come_from_the_rule_titles_and_the_termbase(seed):
    """The French retrace note naming buyback's French name: the names are the knowledge base's
    and the termbase's (Retrace = Pistage, Buyback = Rappel)."""
    from qa_kb import kb_of, rule
    text = KEYWORD[4][2]
    kb = kb_of(rule(title={"en": "Retrace", "fr": "Pistage"}, notes={"n2": {"en": EN_TIMING, "fr": text}}))
    (issue,) = run("meaning.keyword", kb)
    assert "“rappel”" in issue.message and "“retrace”" in issue.message.casefold() and "“buyback”" in issue.message.casefold()
    assert "pistage" in issue.fix.render(_ui("fr")).casefold()


def test_the_seeds_mise_en_jeu_is_reported(seed):
    """702.78 note 2 in French says "règles normales de mise en jeu" where the English says "normal
    timing rules": the set phrase is right only where the English means putting onto the battlefield."""
    from rulekb.check.driver import run_checks
    from rulekb.knowledge import load_knowledge_base
    result = run_checks(load_knowledge_base(seed), seed, profile="meaning")
    (f,) = [f for f in result.findings if (f.entry, f.lang) == ("retrace.n2", "fr")]
    assert "meaning.set-phrase" in (f.code, *f.also) and f.severity is Severity.ERROR and "mise en jeu" in f.message


# ------------------------------------------------------------------ one substitution, one finding

BY_TEXT = tuple(c.code for c in all_checks() if isinstance(c, TextCheck))
EN_ANOTHER = "Another player may cast that card this turn."
EN_TARGET = "Target opponent sacrifices a creature."
EN_COST = "As an additional cost to cast this spell, sacrifice a creature."

# (lang, english, translation, the finding's code and the codes merged into it; None: a faithful translation)
SAID_INSTEAD = [
    ("fr", EN_ANOTHER, "Un adversaire peut lancer cette carte ce tour-ci.", ("meaning.player", {"meaning.qualifier"})),
    ("fr", EN_ANOTHER, "Un autre joueur peut lancer cette carte ce tour-ci.", None),
    ("de", EN_ANOTHER, "Ein Gegner kann diese Karte in diesem Zug wirken.", ("meaning.player", {"meaning.qualifier"})),
    ("de", EN_ANOTHER, "Ein anderer Spieler kann diese Karte in diesem Zug wirken.", None),
    ("fr", EN_TARGET, "Le joueur ciblé sacrifie une créature.", ("meaning.player", {"meaning.qualifier"})),
    ("fr", EN_TARGET, "L’adversaire ciblé sacrifie une créature.", None),
    ("de", EN_TARGET, "Ein Spieler deiner Wahl opfert eine Kreatur.", ("meaning.player", {"meaning.qualifier"})),
    ("de", EN_TARGET, "Ein Gegner deiner Wahl opfert eine Kreatur.", None),
    ("de", EN_COST, "Opfere als alternative Kosten, um diesen Zauberspruch zu wirken, eine Kreatur.",
     ("meaning.cost-kind", {"terminology.missing-term"})),
    ("de", EN_COST, "Opfere als zusätzliche Kosten, um diesen Zauberspruch zu wirken, eine Kreatur.", None),
    ("fr", EN_COST, "En tant que coût alternatif pour lancer ce sort, sacrifiez une créature.",
     ("meaning.cost-kind", {"terminology.missing-term"})),
    ("fr", EN_COST, "En tant que coût supplémentaire pour lancer ce sort, sacrifiez une créature.", None),
]


@pytest.mark.parametrize("lang,english,text,expected", SAID_INSTEAD)
def test_a_word_said_in_place_of_another_is_one_finding(lang, english, text, expected):
    """"adversaire" for "another player" leaves out "another" and names another player: one defect,
    one finding (the other codes under `also`); an alternative cost for an additional one is also
    the missing term 'additional cost'. A faithful translation draws neither."""
    found = [f for f in findings(one_text(lang, text, english), BY_TEXT)
             if f.lang == lang and f.severity is not Severity.INFO]
    if expected is None:
        assert found == [], [f.message for f in found]
        return
    code, also = expected
    assert [(f.code, f.severity) for f in found] == [(code, Severity.ERROR)], [f.message for f in found]
    assert also <= set(found[0].also) and found[0].span is not None


@pytest.mark.parametrize("lang,text,reads", [
    ("en", "Opfere eine Kreatur.", "says whose control it is under (“you control”); the text in German leaves it out"),
    ("de", "Opfere eine Kreatur.", "sagt, wer es kontrolliert („you control“); der Text auf Deutsch lässt das weg"),
    ("fr", "Sacrifiez une créature.", "dit qui le contrôle (« you control ») ; le texte en français l’omet"),
])
def test_a_dropped_qualifier_names_the_english_words_once(lang, text, reads):
    """The label said "(“you control”)" and the message quoted the English words again: "(„you control“) („you control“)"."""
    target = "de" if lang == "en" else lang
    (issue,) = run("meaning.dropped", one_text(target, text, "Sacrifice a creature you control."))
    written = issue.msg.render(None if lang == "en" else _ui(lang)).replace("\u00a0", " ").replace("\u202f", " ")
    assert reads in written and len(re.findall(r"\([“„«] ?you control", written)) == 1, written
