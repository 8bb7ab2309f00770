"""Pipeline stage 2 of 6 (load -> validate -> link -> check -> render -> report), the cards and
rulings part: the per-file readers of ``rules/cards/*.yaml`` and ``rules/rulings/*.yaml`` (a card
with its names, printings and keywords; a ruling with its date, rules, cards and texts). Called
by `validate.check_file`; the checks across files (cited card ids, notes that are rulings) stay
in `validate`.
"""

from __future__ import annotations

import re
import sys
from types import MappingProxyType

from .diagnostics import Problem
from .load import MapNode, Node, Scalar, SourceFile
from .models import EMPTY, SOURCE_LANGUAGE, Card, Pos, Printing, Ruling, UnitKind
from .schema import UUID, Context, Reader, read_unit

__all__ = ["cards_from", "rulings_from"]

CARD_FIELDS = ("id", "name", "oracle_id", "source")
CARD_OPTIONAL = ("set", "collector_number", "printings", "keywords")
PRINTING_FIELDS = ("set", "number")
SET_CODE = re.compile(r"^[A-Z0-9]{2,6}$")


def cards_from(f: SourceFile, ctx: Context) -> tuple[list[Card], list[Problem]]:
    """A card file: one card, or (as the MTGJSON import writes them, by initial) a list of cards
    under the single key ``cards``."""
    r = Reader(f.path)
    if isinstance(f.root, MapNode) and f.root.keys() == ("cards",):
        items = r.sequence(f.root.get("cards"), "cards")
        return [c for i, item in enumerate(items) if (c := _card(r, ctx, item, f"card #{i + 1}")) is not None], r.problems
    card = _card(r, ctx, f.root, "a card file")
    return ([card] if card else []), r.problems


def _card(r: Reader, ctx: Context, node: Node, what: str) -> Card | None:
    m = r.mapping(node, what, CARD_FIELDS, CARD_OPTIONAL)
    if m is None:
        return None
    fields = m.fields()
    cid = r.slug(fields.get("id"), "card id")
    names: dict[str, str] = {}
    names_node = fields.get("name")
    nm = r.mapping(names_node, "card name", (SOURCE_LANGUAGE,), ctx.languages) if names_node else None
    for key, value in nm.items if nm else ():
        if key.value in ctx.languages and (text := r.nonempty(value, f"card name {key.value}")):
            names[key.value] = text
    printings: list[Printing] = []
    own: tuple[str, str] | None = None   # `set` and `collector_number`: the printing the card is shown with
    if fields.get("set") is not None or fields.get("collector_number") is not None:
        set_code = r.pattern(fields.get("set"), "card set", SET_CODE, "the set code, e.g. XLN")
        number = r.nonempty(fields.get("collector_number"), "card collector_number")
        if set_code and number:
            own = (set_code, number)
            printings.append(Printing(sys.intern(set_code), number))
    seen: set[tuple[str, str]] = set()
    for item in r.sequence(fields.get("printings"), "card printings"):
        printing = _printing(r, ctx, item)
        if printing is None:
            continue
        key = (printing.set_code, printing.number)
        if key in seen:
            r.error(item, f"card printing {printing.set_code} #{printing.number} is listed twice",
                    "list each printing (set and number) once")
        elif key == own:
            printings[0] = printing   # the list describes the card's own printing
        else:
            printings.append(printing)
        seen.add(key)
    if not printings and cid is not None:
        r.error(m, f"card '{cid}' has no printing", "give 'printings' (set and number of each) or 'set' and 'collector_number'")
    keywords = tuple(sys.intern(k) for item in r.sequence(fields.get("keywords"), "card keywords")
                     if (k := r.nonempty(item, "card keyword")) is not None)
    oracle = r.pattern(fields.get("oracle_id"), "card oracle_id", UUID, "a lowercase UUID")
    source = r.choice(fields.get("source"), "card source", ctx.source_ids)
    if None in (cid, oracle, source) or not printings or SOURCE_LANGUAGE not in names:
        return None
    return Card(cid, MappingProxyType(names), tuple(printings), oracle, source, Pos(r.file, m.line), keywords)  # type: ignore[arg-type]


def _printing(r: Reader, ctx: Context, node: Node) -> Printing | None:
    """A printing: set, number and, per other language, its printed name and text."""
    targets = tuple(code for code in ctx.languages if code != SOURCE_LANGUAGE)
    m = r.mapping(node, "a card printing", PRINTING_FIELDS, targets)
    if m is None:
        return None
    set_code = r.pattern(m.get("set"), "printing set", SET_CODE, "the set code, e.g. XLN")
    number = r.nonempty(m.get("number"), "printing number")
    names: dict[str, str] = {}
    texts: dict[str, str] = {}
    for lang in targets:
        lm = r.mapping(m.get(lang), f"printing {lang}", ("name",), ("text",)) if m.get(lang) is not None else None
        if lm is None:
            continue
        if (name := r.nonempty(lm.get("name"), f"printing {lang} name")) is not None:
            names[lang] = name
        if lm.get("text") is not None and (text := r.nonempty(lm.get("text"), f"printing {lang} text")) is not None:
            texts[lang] = text
    if set_code is None or number is None:
        return None
    return Printing(sys.intern(set_code), number, MappingProxyType(names) if names else EMPTY,
                    MappingProxyType(texts) if texts else EMPTY)


def rulings_from(f: SourceFile, ctx: Context) -> tuple[list[Ruling], list[Problem], list[tuple[Scalar, str]]]:
    """Rulings of one file, plus (node, id) pairs of the cards and rules they cite, checked later.
    A file of one mechanic says so once (``mechanic: explore``: every ruling in it belongs to that
    rule); any ruling may name (further) rules it belongs to in ``rules``."""
    r = Reader(f.path)
    cites: list[tuple[Scalar, str]] = []
    m = r.mapping(f.root, "a rulings file", ("rulings",), ("mechanic",))
    if m is None:
        return [], r.problems, cites
    mechanic = r.slug(m.get("mechanic"), "rulings mechanic") if m.get("mechanic") is not None else None
    if mechanic:
        cites.append((m.get("mechanic"), "rule:" + mechanic))  # type: ignore[arg-type]
    out = []
    for item in r.sequence(m.get("rulings"), "rulings"):
        rm = r.mapping(item, "a ruling", ("id", "date", "cards", "text"), ("rules",))
        if rm is None:
            continue
        rid = r.slug(rm.get("id"), "ruling id")
        date = r.date(rm.get("date"), "ruling date")
        cards = []
        for c in r.sequence(rm.get("cards"), "ruling cards"):
            if (cid := r.slug(c, "ruling card")) is not None:
                cards.append(cid)
                cites.append((c, "card:" + cid))  # type: ignore[arg-type]
        rules = [mechanic] if mechanic else []
        for node in r.sequence(rm.get("rules"), "ruling rules"):
            if (rule := r.slug(node, "ruling rule")) is not None and rule not in rules:
                rules.append(rule)
                cites.append((node, "rule:" + rule))  # type: ignore[arg-type]
        if rid is not None and not cards and not rules:
            r.error(rm, f"ruling '{rid}' belongs to no card and no rule", "list the cards it stands on under 'cards'")
        if rid is None or rm.get("text") is None:
            continue
        unit = read_unit(r, ctx, rm.get("text"), rid, UnitKind.RULING, f"ruling {rid}")  # type: ignore[arg-type]
        if unit and date:
            out.append(Ruling(rid, date, tuple(rules), tuple(cards), unit))
    return out, r.problems, cites
