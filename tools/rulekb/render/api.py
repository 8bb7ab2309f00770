"""The static JSON API (render stage): every rule, ruling and card per language under
``api/<lang>/``, an index per language and ``api/index.json``. A rule is a file; cards and rulings
are files per group of cards (`paths.card_group`: ``api/en/cards/qu.json`` holds the cards whose
ids start with "qu", ``api/en/rulings/qu.json`` the rulings whose first card does), so that the
24,000 cards and 24,600 rulings of all MTGJSON sets are ~900 files per language, not 48,000. Deterministic: sorted keys,
compact separators (json's C encoder: fast with thousands of rules), UTF-8, a final newline. Paths inside are relative to the site root. The
format is documented on the API page of the site (content/<lang>/api.md).
"""

from __future__ import annotations

import json
from typing import Any

from ..models import Card, Rule, Ruling, Unit
from . import paths
from .context import Lang
from .official import official_json
from .rules import has_parallel_view
from .text import State

API_VERSION = 2   # 2: cards and rulings in files per group of cards


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def _page(lang: str, page: str, anchor: str | None = None) -> str:
    return f"{lang}/{paths.html_path(page)}" + (f"#{anchor}" if anchor else "")


def text_object(c: Lang, unit: Unit) -> dict[str, Any]:
    shown = c.choose(unit)
    out: dict[str, Any] = {"unit": unit.id, "label": unit.label, "state": shown.state.value, "lang": shown.lang}
    variant = shown.variant
    if variant is None:
        out.update(text=None, source=None, status=None)
        return out
    out.update(text=variant.text, source=variant.source, status=variant.status.value,
               translated_from=variant.translated_from, note=variant.note)
    if shown.state is State.STALE and shown.english is not None:
        out["english"] = shown.english.text
    links = c.shared.links.get((unit.id, shown.lang, 0), ())
    out["references"] = [{
        "text": link.reference.text,
        "numbers": list(link.reference.numbers),
        "targets": [None if t is None else {"rule": t.rule.id, "number": t.number,
                                            "page": _page(c.lang, paths.rule_page(t.rule.id), t.anchor)}
                    for t in link.targets],
    } for link in links]
    out["other_versions"] = [{"text": v.text, "source": v.source, "status": v.status.value, "note": v.note,
                              "translated_from": v.translated_from}
                             for v in unit.variants.get(shown.lang, ())[1:]]  # type: ignore[arg-type]
    return out


def rule_json(c: Lang, rule: Rule) -> dict[str, Any]:
    places = c.shared.places
    return {
        "id": rule.id,
        "lang": c.lang,
        "number": rule.number,
        "release": rule.release,
        "current_number": rule.current_number,
        "page": _page(c.lang, paths.rule_page(rule.id)),
        "parallel_page": _page(c.lang, paths.parallel_page(rule.id)) if has_parallel_view(c, rule) else None,
        "history": [{"number": e.number, "since": e.since, "until": e.until, "end": end, "current": current, "source": e.source}
                    for e, end, current in rule.history_spans()],
        "moved": [{"from": {"rule": m.previous_rule.id, "number": m.previous_number, "until": m.until,
                            "page": _page(c.lang, paths.rule_page(m.previous_rule.id))},
                   "to": {"rule": m.rule.id, "number": m.number, "since": m.since,
                          "page": _page(c.lang, paths.rule_page(m.rule.id))}}
                  for m in c.shared.linked.moved.get(rule.id, ())],
        "title": text_object(c, rule.title) if rule.title else None,
        "summary": text_object(c, rule.summary) if rule.summary else None,
        "text": text_object(c, rule.text) if rule.text else None,
        "subrules": [dict(text_object(c, s.unit), number=s.number, letter=s.letter, anchor=s.number) for s in rule.subrules],
        "notes": [dict(text_object(c, n), id=n.id.rsplit(".", 1)[1]) for n in rule.notes],
        "rulings": [r.id for r in c.shared.rulings_by_mechanic.get(rule.id, ())],
        "official": official_json(c.shared.official, rule),
        "referenced_by": [{"unit": uid, "label": places[uid].label, "page": _page(c.lang, places[uid].page, places[uid].anchor)}
                          for uid in c.shared.linked.backlinks.get(rule.id, ()) if uid in places],
    }


def ruling_json(c: Lang, ruling: Ruling) -> dict[str, Any]:
    place = c.shared.places[ruling.unit.id]
    return dict(text_object(c, ruling.unit), id=ruling.id, date=ruling.date, mechanic=ruling.mechanic,
                cards=list(ruling.cards), page=_page(c.lang, place.page, ruling.id))


def card_json(c: Lang, card: Card) -> dict[str, Any]:
    name_lang = c.lang if c.lang in card.names else "en"
    return {
        "id": card.id, "lang": c.lang, "name": card.names[name_lang], "name_lang": name_lang,
        "names": dict(card.names), "set": card.set_code, "collector_number": card.collector_number,
        "oracle_id": card.oracle_id, "source": card.source, "page": _page(c.lang, c.shared.card_pages.page(card.id), card.id),
        "rulings": [r.id for r in c.shared.rulings_by_card.get(card.id, ())],
    }


def ruling_group(ruling: Ruling) -> str:
    """The file of a ruling: the group of its first card."""
    return paths.card_group(ruling.cards[0]) if ruling.cards else "0"


def api_files(c: Lang) -> dict[str, str]:
    """The JSON files of one language, {path relative to the site root: content}."""
    files: dict[str, str] = {}
    index: dict[str, Any] = {"lang": c.lang, "version": API_VERSION, "rules": [], "cards": [], "rulings": []}
    for rule in c.kb.rules:
        path = paths.api_path(c.lang, "rules", rule.id)
        files[path] = dump(rule_json(c, rule))
        index["rules"].append({"id": rule.id, "number": rule.number, "title": c.titles.get(rule.id) or None, "json": path,
                               "page": _page(c.lang, paths.rule_page(rule.id))})
    cards: dict[str, dict[str, Any]] = {}
    for card in c.kb.cards:
        path = paths.api_path(c.lang, "cards", paths.card_group(card.id))
        cards.setdefault(path, {})[card.id] = card_json(c, card)
        index["cards"].append({"id": card.id, "name": card.names.get(c.lang, card.names["en"]), "json": path,
                               "page": _page(c.lang, c.shared.card_pages.page(card.id), card.id)})
    rulings: dict[str, dict[str, Any]] = {}
    for ruling in c.kb.rulings:
        path = paths.api_path(c.lang, "rulings", ruling_group(ruling))
        rulings.setdefault(path, {})[ruling.id] = ruling_json(c, ruling)
        index["rulings"].append({"id": ruling.id, "date": ruling.date, "mechanic": ruling.mechanic, "json": path})
    for path, found in cards.items():
        files[path] = dump({"lang": c.lang, "cards": found})
    for path, found in rulings.items():
        files[path] = dump({"lang": c.lang, "rulings": found})
    files[f"{paths.API_FOLDER}/{c.lang}/index.json"] = dump(index)
    return files


def api_root(kb) -> str:
    return dump({
        "version": API_VERSION,
        "source_language": "en",
        "languages": [{"code": l.code, "name": l.name, "english_name": l.english_name, "locale": l.locale,
                       "index": f"{paths.API_FOLDER}/{l.code}/index.json"} for l in kb.languages],
        "sources": {s.id: {"title": s.title, "kind": s.kind, "date": s.date} for s in kb.sources.values()},
    })
