"""What `rulekb show` says about a rule number, as lines of text (beside link: it reads the
linked knowledge base; `releases` answers what a number was in a rules release). The command
prints these lines and decides the exit code; nothing here prints.

- `rule_lines(found, langs, kb)`: the rule or subrule a number leads to today (`link.Lookup`),
  its number history (`history_lines`), and every text of the languages asked for, its source,
  status and place in the files; a note that is an official card ruling names the ruling, its
  date and its cards (`ruling_link_lines`);
- `release_lines(kb, ref, release, langs)`: what the number was in a rules release, where the
  rules that had it are there, and the texts as they were (None as the meaning when the
  knowledge base cannot tell).
"""

from __future__ import annotations

from typing import Sequence

from .i18n import UI, N_
from .link import Lookup
from .numbering import Span, number_holders
from .models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Unit, english_hash
from .official import Official
from .releases import Meaning, english_at, explain, units_in

__all__ = ["rule_lines", "before_lines", "history_lines", "unit_lines", "ruling_link_lines", "release_lines",
           "official_lines"]


def rule_lines(found: Lookup, langs: Sequence[str], kb: KnowledgeBase,
               official: Official | None = None, ui: UI | None = None) -> list[str]:
    """How a number was found, the rule (title in the first language, else English; id, number
    today), for a keyword rule in German or French what the cards print (`official_lines`) and
    its units' texts (only the subrule's when the number is a subrule's)."""
    rule = found.target.rule
    name = f" {_title(rule, langs[0])}" if rule.title else ""
    lines = [found.explain(), f"rule {rule.number}{name} (id {rule.id}; number today: {rule.current_number})"]
    lines += before_lines(found, kb)
    if official is not None and ui is not None and len(langs) == 1:
        lines += official_lines(rule.current_number, langs[0], official, ui)
    lines += history_lines(rule)
    units = [found.target.subrule.unit] if found.target.subrule else list(rule.units)
    for unit in units:
        lines += unit_lines(unit, langs, kb)
    return lines


def _title(rule: Rule, lang: str) -> str:
    """The rule's title in `lang`, else in English (a title line is never empty)."""
    if rule.title is None:
        return ""
    title = rule.title.text(lang) or rule.title.text(SOURCE_LANGUAGE)
    return title.text if title else ""


def _span(span: Span) -> str:
    if span.first and span.last is None:
        return f"since {span.first}"
    if span.first and span.last and span.first != span.last:
        return f"from {span.first} to {span.last}"
    return span.first or f"until {span.last}"


def before_lines(found: Lookup, kb: KnowledgeBase) -> list[str]:
    """What else the number asked named, in other releases (as the site's number pages say):
    702.78a is Conspire's today, and was Retrace's from 2009-07-11 to 2011-05-01, 702.81a today."""
    number = found.asked
    holders = number_holders(kb).get(number, ())
    out = []
    for holder in holders:
        if holder.rule.id == found.target.rule.id:
            continue
        rule = holder.rule
        today = rule.current_number + (holder.subrule.letter if holder.subrule is not None else "")
        spans = ", ".join(_span(s) for s in holder.spans)
        what = f"{_title(rule, SOURCE_LANGUAGE)} (id {rule.id})".strip()
        out.append(f"{number} was {what} {spans}; it is {today} today (rulekb show {today})")
    return out


def history_lines(rule: Rule) -> list[str]:
    """The rule's number history, oldest first: each number with the releases (imported) or the
    span (from a curated history) it covers, and its source."""
    if not rule.history:
        return []
    out = ["number history:"]
    for entry, end, current in rule.history_spans():
        if entry.releases:
            first, last, n = entry.releases[0], entry.releases[-1], len(entry.releases)
            span = f"{first} … {last} ({n} release{'s' if n != 1 else ''})" if n > 1 else f"{first} (1 release)"
        else:
            span = (f"since {entry.since}" if current else f"until {end}" if entry.since is None
                    else f"{entry.since} … {end}" if end else f"{entry.since}")
        out.append(f"  {entry.number:<10} {span}; source {entry.source}")
    return out


def unit_lines(unit: Unit, langs: Sequence[str], kb: KnowledgeBase) -> list[str]:
    """A unit's label and id, then each variant of each language: its text, then its source,
    status (alternative, stale) and file:line; a language without a text says so."""
    lines = [f"{unit.label}  [{unit.id}]"]
    if unit.ruling is not None:
        lines += ruling_link_lines(unit.ruling, langs[0], kb)
    english = unit.text(SOURCE_LANGUAGE)
    for lang in langs:
        variants = unit.variants.get(lang, ())
        if not variants:
            lines.append(f"  {lang}: (missing: no {lang} text)")
            continue
        for v in variants:
            flags = [v.status.value] + ([] if v.canonical else ["alternative"])
            if v.translated_from and english and v.translated_from != english_hash(english.text):
                flags.append("stale: its English has changed")
            src = kb.sources[v.source]
            lines.append(f"  {lang}: {v.text}")
            lines.append(f"      source: {src.id} ({src.title}); status: {', '.join(flags)}; {v.pos.file}:{v.pos.line}")
    return lines


def ruling_link_lines(ruling_id: str, lang: str, kb: KnowledgeBase) -> list[str]:
    """The official ruling a note is: its date and the cards it stands on, by their names in
    `lang` (else English)."""
    ruling = kb.ruling(ruling_id)
    if ruling is None:
        return []
    names = sorted((card.names.get(lang) or card.names["en"] for cid in ruling.cards
                    if (card := kb.card(cid)) is not None), key=str.casefold)
    count = f"{len(names)} card{'' if len(names) == 1 else 's'}"
    return [f"  the official ruling {ruling.id} of {ruling.date}, on {count}: {', '.join(names)}"]


def release_lines(kb: KnowledgeBase, ref: str, release: str,
                  langs: Sequence[str]) -> tuple[list[str], Meaning | None]:
    """What `ref` is in the release (`releases.explain`, as one line of text, empty when it has
    nothing to say), then — when the knowledge base knows what it means there — the rule as it
    was in that release: each unit's English of that release, and each translation with
    whether it was made from that English. The meaning comes back too (None: not known)."""
    answer = explain(kb, ref, release)
    lines = ["\n".join(answer.lines)]
    meaning = answer.meaning
    if meaning is None:
        return lines, None
    rule = meaning.rule
    letter = meaning.number[-1] if meaning.subrule is not None else None
    title = english_at(rule.title, release, rule.release) if rule.title else None
    lines.append(f"rule {meaning.number if letter is None else meaning.number[:-1]}"
                 f"{' ' + title.text if title else ''} (id {rule.id}) as in the release of {release}; "
                 f"number today: {rule.current_number}")
    for label, unit in units_in(rule, release, letter):
        english = english_at(unit, release, rule.release)
        lines.append(f"{label}  [{unit.id}]")
        for lang in langs:
            if lang == SOURCE_LANGUAGE:
                if english is None:
                    lines.append(f"  {lang}: (no English text known for this release)")
                    continue
                src = kb.sources[english.source]
                lines.append(f"  {lang}: {english.text}")
                lines.append(f"      source: {src.id} ({src.title}); {english.pos.file}:{english.pos.line}")
                continue
            variant = unit.text(lang)
            if variant is None:
                lines.append(f"  {lang}: (missing: no {lang} text)")
                continue
            made_from = ("made from this release's English" if english is not None and variant.translated_from
                         == english_hash(english.text) else "made from another English version")
            lines.append(f"  {lang}: {variant.text}")
            lines.append(f"      source: {variant.source}; status: {variant.status.value}; {made_from}; "
                         f"{variant.pos.file}:{variant.pos.line}")
    return lines, meaning


ON_CARDS = N_("On German cards")          # the box's heading per language (msgid per language: the
ON_CARDS_FR = N_("On French cards")       # catalogs give "Auf deutschen Karten", "Sur les cartes en français")
CARD_TEXT = N_("Card text as printed, not a translation of the rule")
EARLIER = N_("Earlier wordings")


def official_lines(number: str, lang: str, official: Official, ui: UI) -> list[str]:
    """The box "Auf deutschen Karten" / "Sur les cartes en français" of a keyword rule in `lang`:
    the official name, the reminder text of the newest printing (card, set, date) and the earlier
    wordings with their dates; nothing for another rule or language."""
    keyword = official.keyword(number)
    name = keyword.name(lang) if keyword else None
    if keyword is None or name is None:
        return []
    box = ON_CARDS if lang == "de" else ON_CARDS_FR
    heading = ui._(box)
    lines = [f"{heading}: {name.display} ({keyword.english}) — {name.source.label()}"]
    if name.reminder:
        r = name.reminder
        lines += [f"  {ui._(CARD_TEXT)}:", f"  ({r.text})", f"      {r.source.label()}; {r.first} … {r.last}"]
        if r.earlier:
            lines.append(f"  {ui._(EARLIER)}:")
            lines += [f"    {e.first} … {e.last}: ({e.text}) — {e.source.label()}" for e in r.earlier]
    lines += [f"  {h.first} … {h.last}: {h.text} — {h.source.label()}" for h in name.history]
    return lines
