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
from typing import Mapping

from .diagnostics import Problem
from .load import Node, Scalar, SourceFile
from .models import EMPTY, SOURCE_LANGUAGE, Card, Pos, Printing, Ruling, UnitKind
from .schema import UUID, Context, Reader, Shape, read_unit

__all__ = ["cards_from", "rulings_from"]

CARD_FIELDS = ("id", "name", "oracle_id", "source")
CARD_OPTIONAL = ("set", "collector_number", "printings", "printed", "keywords")
CARD = Shape(CARD_FIELDS, CARD_OPTIONAL)
RULING = Shape(("id", "date", "cards", "text"), ("rules",))
SET_CODE = re.compile(r"^[A-Z0-9]{2,6}$")
PRINTING = re.compile(r"^([A-Z0-9]{2,6}) (\S(?:[^,]*\S)?)$")   # a printing: set code and collector number


def cards_from(f: SourceFile, ctx: Context) -> tuple[list[Card], list[Problem]]:
    """A card file: one card, or (as the MTGJSON import writes them, by initial) a list of cards
    under the single key ``cards``."""
    r = Reader(f.path)
    return r.entries_of(f.root, "cards", "card", lambda node, what: _card(r, ctx, node, what)), r.problems


def _card(r: Reader, ctx: Context, node: Node, what: str) -> Card | None:
    fields = r.fields(node, what, CARD)
    if fields is None:
        return None
    cid = r.slug(fields.get("id"), "card id")
    names: dict[str, str] = {}
    names_node = fields.get("name")
    found = r.fields(names_node, "card name", ctx.name_shape) if names_node else None
    for lang, value in found.items() if found else ():
        if lang in ctx.languages and (text := r.nonempty(value, f"card name {lang}")):
            names[lang] = text
    refs: list[tuple[str, str]] = []    # (set, number) of each printing, the one it is shown with first
    if fields.get("set") is not None or fields.get("collector_number") is not None:
        set_code = r.pattern(fields.get("set"), "card set", SET_CODE, "the set code, e.g. XLN")
        number = r.nonempty(fields.get("collector_number"), "card collector_number")
        if set_code and number:
            refs.append((set_code, number))
    listed = fields.get("printings")
    if listed is not None and (text := r.nonempty(listed, "card printings")) is not None:
        seen: set[tuple[str, str]] = set()
        have = set(refs)   # (a basic land lists ~600 printings: a list's `in` was quadratic)
        for ref in _refs(r, listed, text, "card printing"):
            if ref in seen:
                r.error(listed, f"card printing {ref[0]} #{ref[1]} is listed twice", "list each printing (set and number) once")
            elif ref not in have:   # the card's own `set` and `collector_number` may be listed too
                refs.append(ref)
                have.add(ref)
            seen.add(ref)
    printed = _printed(r, ctx, fields.get("printed"), set(refs)) if fields.get("printed") is not None else {}
    if not refs and cid is not None:
        r.error(node, f"card '{cid}' has no printing", "give 'printings' (SET NUMBER, …) or 'set' and 'collector_number'")
    keywords = tuple(sys.intern(k) for item in r.sequence(fields.get("keywords"), "card keywords")
                     if (k := r.nonempty(item, "card keyword")) is not None)
    oracle = r.pattern(fields.get("oracle_id"), "card oracle_id", UUID, "a lowercase UUID")
    source = r.choice(fields.get("source"), "card source", ctx.source_ids)
    if None in (cid, oracle, source) or not refs or SOURCE_LANGUAGE not in names:
        return None
    printings = []
    if printed:
        shared: dict[tuple[tuple[str, str], ...], Mapping[str, str]] = {}   # printings printed alike share their mappings

        def proxy(values: dict[str, str]) -> Mapping[str, str]:
            if not values:
                return EMPTY
            key = tuple(values.items())
            found = shared.get(key)
            if found is None:
                found = shared[key] = MappingProxyType(values)   # (`values` is _printed's own, made for this card)
            return found

        for ref in refs:
            names_, texts_ = printed.get(ref, (EMPTY, EMPTY))
            printings.append(Printing(sys.intern(ref[0]), ref[1], proxy(names_), proxy(texts_)))
    else:   # (most cards: printed in English only)
        printings = [Printing(sys.intern(code), number, EMPTY, EMPTY) for code, number in refs]
    return Card(cid, MappingProxyType(names), tuple(printings), oracle, source, Pos(r.file, node.line), keywords)  # type: ignore[arg-type]


def _refs(r: Reader, node: Node, text: str, what: str) -> list[tuple[str, str]]:
    """The printings a scalar names, ``SET NUMBER, SET NUMBER, …`` (``XLN 114, PXLN 114s``)."""
    out = []
    for item in text.split(", "):
        found = PRINTING.match(item)
        if found is None:
            r.error(node, f"{what} '{item}' is not a set code and a collector number",
                    "write each printing as SET NUMBER (e.g. XLN 114), printings separated by ', '")
        else:
            out.append(found.groups())
    return out


def _printed(r: Reader, ctx: Context, node: Node, refs: set[tuple[str, str]]
             ) -> dict[tuple[str, str], tuple[dict[str, str], dict[str, str]]]:
    """`printed`: per other language, the printings (``SET NUMBER, …``) -> the card as printed
    there: its printed name on the first line, its printed text on the lines after it. Returns
    printing -> (names, texts) by language."""
    shape = ctx.printed_shape
    out: dict[tuple[str, str], tuple[dict[str, str], dict[str, str]]] = {}
    found = r.fields(node, "card printed", shape)
    for lang, value in found.items() if found else ():
        if lang not in shape.allowed:
            continue
        what = f"card printed {lang}"   # (once per language, not per printing)
        lm = r.entries(value, what)
        for key, text_node in lm.items if lm else ():
            if type(text_node) is Scalar and text_node.value.strip():
                text = text_node.value
            elif (text := r.nonempty(text_node, f"card printed {lang} {key.value}")) is None:
                continue
            name, _, body = text.partition("\n")
            if not name.strip():
                r.error(text_node, f"card printed {lang} {key.value} has no name on its first line",
                        "write the printed name on the first line, the printed text on the lines after it")
                continue
            for ref in _refs(r, key, key.value, what):
                if ref not in refs:
                    r.error(key, f"card printed {lang}: {ref[0]} {ref[1]} is not one of the card's printings",
                            "add it to 'printings', or correct its set code and number")
                    continue
                names, texts = out.setdefault(ref, ({}, {}))
                if lang in names:
                    r.error(key, f"card printed {lang}: {ref[0]} {ref[1]} is given twice",
                            "give each printing's printed name and text once per language")
                    continue
                names[lang] = name
                if body.strip():
                    texts[lang] = body
    return out


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
        fields = r.fields(item, "a ruling", RULING)
        if fields is None:
            continue
        rid = r.slug(fields.get("id"), "ruling id")
        date = r.date(fields.get("date"), "ruling date")
        cards = []
        for c in r.sequence(fields.get("cards"), "ruling cards"):
            if (cid := r.slug(c, "ruling card")) is not None:
                cards.append(cid)
                cites.append((c, "card:" + cid))  # type: ignore[arg-type]
        rules = [mechanic] if mechanic else []
        for node in r.sequence(fields.get("rules"), "ruling rules"):
            if (rule := r.slug(node, "ruling rule")) is not None and rule not in rules:
                rules.append(rule)
                cites.append((node, "rule:" + rule))  # type: ignore[arg-type]
        if rid is not None and not cards and not rules:
            r.error(item, f"ruling '{rid}' belongs to no card and no rule", "list the cards it stands on under 'cards'")
        if rid is None or fields.get("text") is None:
            continue
        unit = read_unit(r, ctx, fields["text"], rid, UnitKind.RULING, f"ruling {rid}")
        if unit and date:
            out.append(Ruling(rid, date, tuple(rules), tuple(cards), unit))
    return out, r.problems, cites
