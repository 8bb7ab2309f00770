"""Helpers of the QA tests: build a small knowledge base in memory and run one check on it.

`kb_of(...)` makes a KnowledgeBase from plain dicts (lang -> text); a translation records the
hash of its unit's English unless the test says otherwise. `run(code, kb)` runs one registered
check with the project's real termbase (translations/termbase.yaml) and official phraseology
(translations/phraseology.yaml) and returns its issues.
"""

from __future__ import annotations

from types import MappingProxyType

from conftest import ROOT
from rulekb.check import Context, Data, Text, TextCheck, all_checks, check
from rulekb.check.driver import flags_of, issue_of, text_of
from rulekb.models import (SOURCE_LANGUAGE, HistoryEntry, KnowledgeBase, Language, Pos, Rule, Ruling, Source, Status,
                           Subrule, Unit, UnitKind, Variant, english_hash)
from rulekb.phraseology import load_phraseology
from rulekb.termbase import load_termbase

LANGUAGES = (Language("en", "English", "English", "en_US"), Language("de", "Deutsch", "German", "de_DE"),
             Language("fr", "Français", "French", "fr_FR"))
SOURCES = {"test": Source("test", "Test", "project", None, None)}
FILE = "rules/comprehensive/test.yaml"


def variant(text: str, lang: str, english: str | None, line: int, **over) -> Variant:
    status = over.pop("status", Status.OFFICIAL if lang == SOURCE_LANGUAGE else Status.COMMUNITY)
    translated_from = over.pop("translated_from", english_hash(english) if english and lang != SOURCE_LANGUAGE else None)
    return Variant(text=text, source=over.pop("source", "test"), status=status, canonical=over.pop("canonical", True),
                   pos=Pos(FILE, line), translated_from=translated_from, note=over.pop("note", None))


def unit(uid: str, kind: UnitKind, label: str, texts: dict, line: int = 1) -> Unit:
    """texts: lang -> text, or lang -> [text, …] (variants, canonical first), or lang -> (text, overrides)."""
    english = texts.get(SOURCE_LANGUAGE)
    english = english[0] if isinstance(english, list) else english[0] if isinstance(english, tuple) else english
    variants = {}
    for i, (lang, spec) in enumerate(texts.items()):
        items = spec if isinstance(spec, list) else [spec]
        out = []
        for j, item in enumerate(items):
            text, over = (item if isinstance(item, tuple) else (item, {}))
            out.append(variant(text, lang, english, line + i * 3 + j, canonical=j == 0, **dict(over)))
        variants[lang] = tuple(out)
    return Unit(uid, kind, label, MappingProxyType(variants), Pos(FILE, line))


def rule(rid: str = "retrace", number: str = "702.78", release: str = "2011-05-01", *, title: dict | None = None,
         subrules: dict | None = None, notes: dict | None = None, history: tuple = ()) -> Rule:
    line = 10
    title_unit = unit(f"{rid}.title", UnitKind.TITLE, f"{number} title", title, 2) if title else None
    subs = []
    for letter, texts in (subrules or {}).items():
        subs.append(Subrule(letter, f"{number}{letter}", unit(f"{rid}.{letter}", UnitKind.SUBRULE, f"{number}{letter}", texts, line)))
        line += 20
    note_units = []
    for key, texts in (notes or {}).items():
        note_units.append(unit(f"{rid}.{key}", UnitKind.NOTE, f"{number} note {key[1:]}", texts, line))
        line += 20
    hist = tuple(HistoryEntry(n, since, until, "test") for n, since, until in history)
    return Rule(rid, number, release, hist, title_unit, None, None, tuple(subs), tuple(note_units), FILE)


def ruling(rid: str, texts: dict, mechanic: str = "explore", date: str = "2018-01-19") -> Ruling:
    return Ruling(rid, date, (mechanic,), (), unit(rid, UnitKind.RULING, f"ruling {rid}", texts))


def kb_of(*rules: Rule, rulings: tuple = ()) -> KnowledgeBase:
    return KnowledgeBase(LANGUAGES, MappingProxyType(SOURCES), tuple(rules), (), tuple(rulings))


_TERMBASE = None


def termbase():
    global _TERMBASE
    if _TERMBASE is None:
        _TERMBASE = load_termbase(ROOT)
    return _TERMBASE


_PHRASEOLOGY = None


def phraseology():
    global _PHRASEOLOGY
    if _PHRASEOLOGY is None:
        _PHRASEOLOGY = load_phraseology(ROOT)
    return _PHRASEOLOGY


def _issues(ctx: Context, code: str, selected: tuple[str, ...]) -> list:
    """The issues of check `code` as the driver makes them, with the checks `selected` beside it
    (a flag another selected check covers is dropped)."""
    c = check(code)
    if not isinstance(c, TextCheck):
        return list(c.run(ctx))
    checks = [x for x in all_checks() if x.code in set(selected) | {code} and isinstance(x, TextCheck)]
    out = []
    for u in ctx.all_texts():
        t = text_of(u)
        out += [issue_of(t, f) for x, f in flags_of(t, checks, ctx.data) if x.code == code]
    return out


def run(code: str, kb: KnowledgeBase, selected: tuple[str, ...] = (), tb=None) -> list:
    ctx = Context(kb, tb if tb is not None else termbase(), phraseology())
    return _issues(ctx, code, selected or (code,))


def flags(code: str, text: str, lang: str, english: str | None = None, **fields) -> list:
    """The flags of the by-text check `code` on one text (a translation into `lang` of `english`),
    called directly: a pure function of the text and the shared data."""
    t = Text("test.a", "702.78a", fields.pop("kind", UnitKind.SUBRULE), lang, text,
             english if lang != SOURCE_LANGUAGE else text, english if lang != SOURCE_LANGUAGE else None, **fields)
    return list(check(code).run(t, data()))


_DATA = None


def data() -> Data:
    global _DATA
    if _DATA is None:
        _DATA = Data(termbase(), phraseology(), tuple(x.code for x in LANGUAGES),
                     {x.code: x.english_name for x in LANGUAGES})
    return _DATA


def findings(kb: KnowledgeBase, codes: tuple[str, ...]) -> list:
    """The findings of the checks `codes` as `run_checks` makes them: stamped (severity, published
    texts) and merged (one defect, one finding)."""
    from rulekb.check import all_checks, merge_findings, stamp
    ctx = Context(kb, termbase())
    found = [f for code in codes for issue in _issues(ctx, code, codes) if (f := stamp(ctx, check(code), issue))]
    return merge_findings(found, {c.code: i for i, c in enumerate(all_checks())})


def one_text(lang: str, text: str, english: str = "Retrace appears on some instants and sorceries.") -> KnowledgeBase:
    """A KB whose rule 702.78 has one subrule: `text` in `lang` (with `english` beside it for de/fr)."""
    texts = {"en": text} if lang == SOURCE_LANGUAGE else {"en": english, lang: text}
    return kb_of(rule(subrules={"a": texts}))


__all__ = ["kb_of", "rule", "ruling", "run", "one_text", "unit", "findings", "flags", "data"]
