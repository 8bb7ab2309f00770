"""Check family `references` (stage: check): rule references of a translation and of any text.

`references.mismatch`: the rule numbers a translation refers to (ranges expanded with the shared
parser of `refs`) differ from those of the English it was made from (a stale translation's older
English: a reference the English changed since is the stale finding's). The other two checks use what the knowledge
base knows of rule numbers, and say nothing where it knows nothing (a reference to a rule that is
not in the knowledge base is not an error): `references.other-release` flags a number that is the
number of a knowledge-base rule only in another rules release than the text's own (e.g. a 2011
text citing Retrace as 702.81, its number since 2021), when the text names that rule's keyword
(else the number may be another rule's in the text's release);
`references.unknown-subrule` flags a subrule the knowledge base's copy of that rule, from the
text's own release and complete from subrule a on, does not have.
"""

from __future__ import annotations

from typing import Iterator

from ..models import M_, KnowledgeBase, Rule, Severity
from ..refs import SUBRULE_LETTERS, parse_rule_number, sort_key
from .base import Check, Context, Issue, UnitText, quote
from .text import Data, Flag, Text, TextCheck, flag


def _within(date: str, since: str | None, end: str | None) -> bool:
    """since <= date <= end, comparing dates of different precision (2011-06 vs 2011-06-10) on their common prefix."""
    if since is not None and date[: len(since)] < since[: len(date)]:
        return False
    if end is not None and date[: len(end)] > end[: len(date)]:
        return False
    return True


def number_at(rule: Rule, date: str) -> str | None:
    """The rule's number in the rules release in force on `date`, when its history says."""
    if date == rule.release:
        return rule.number
    found = None
    for entry, end, _current in rule.history_spans():
        if _within(date, entry.since, end):
            found = entry.number  # the last matching entry: the newest at a boundary month
    return found


def _spans(rule: Rule) -> str:
    parts = []
    for entry, end, current in rule.history_spans():
        when = f"since {entry.since}" if current else " ".join(
            p for p in (f"from {entry.since}" if entry.since else "", f"until {end}" if end else "") if p)
        parts.append(f"{entry.number} {when}".strip())
    return ", ".join(parts)


def _numbers(refs) -> tuple[str, ...]:
    """Referenced numbers, expanded, deduplicated and sorted (as refs.referenced_numbers)."""
    return tuple(sorted({n for r in refs for n in r.numbers}, key=sort_key))


def _compact(numbers: tuple[str, ...]) -> str:
    return ", ".join(numbers) if numbers else "none"


def mismatch(t: Text, data: Data) -> Iterator[Flag]:
    if not t.is_translation or t.source is None:
        return
    en_refs, tr_refs = data.refs(t.source), data.refs(t.text)
    en, tr = _numbers(en_refs), _numbers(tr_refs)
    if en == tr:
        return
    lacking = tuple(n for n in en if n not in tr)
    extra = tuple(n for n in tr if n not in en)
    refs = [r.text for r in tr_refs]
    if lacking and extra:
        what = M_("it lacks {lacking} and adds {extra}", lacking=_compact(lacking), extra=_compact(extra))
    elif lacking:
        what = M_("it lacks {lacking}", lacking=_compact(lacking))
    else:
        what = M_("it adds {extra}", extra=_compact(extra))
    yield flag(M_("{label}: the text in {lang} refers to {refs} where the English refers to {english}: {what}",
                         label=t.label, lang=data.lang(t.lang), refs=", ".join(refs) if refs else M_("no rule"),
                         english=", ".join(r.text for r in en_refs) or M_("no rule"), what=what),
                   M_("cite the same rules as the English: {numbers}", numbers=_compact(en)) if en
                   else M_("cite no rule, as the English"),
                   span=(tr_refs[0].start, tr_refs[-1].end) if tr_refs else None)


def _keyword_rules(ctx: Context, t: UnitText) -> set[str]:
    """Ids of the rules whose keyword (per the termbase) the text names: what the text is about."""
    ids = {m.concept_id for m in ctx.terms(t)}
    return {c.rule for c in ctx.termbase.concepts if c.id in ids and c.rule}


def _index(kb: KnowledgeBase) -> dict[str, list[Rule]]:
    """Rule-level number -> knowledge-base rules that have had that number."""
    out: dict[str, list[Rule]] = {}
    for rule in kb.rules:
        for number in {rule.number, *(h.number for h in rule.history)}:
            out.setdefault(number, []).append(rule)
    return out


def other_release(ctx: Context) -> Iterator[Issue]:
    index = _index(ctx.kb)
    for t in ctx.texts():
        if t.release is None:
            continue
        about = None
        for ref in ctx.refs(t):
            for number in ref.numbers:
                parsed = parse_rule_number(number)
                rule_part = str(parsed.parent) if parsed.letter else number
                rules = index.get(rule_part, [])
                if not rules or any(number_at(r, t.release) == rule_part for r in rules):
                    continue
                about = _keyword_rules(ctx, t) if about is None else about
                for rule in rules:
                    then = number_at(rule, t.release)
                    if rule.id not in about or then is None:
                        continue
                    fixed = then + (parsed.letter or "")
                    title = rule.title.text("en").text if rule.title and rule.title.text("en") else rule.id
                    yield Issue.at(t, M_("{label} cites {number} (“{context}”), but {rule_part} is the number of "
                                         "{title} in other releases ({spans}); in the {release} rules this text "
                                         "belongs to, {title} is {then}", label=t.label, number=number,
                                         context=quote(t.text, ref.start, ref.end, 20), rule_part=rule_part,
                                         title=title, spans=_spans(rule), release=t.release, then=then),
                                   M_("write {fixed}, the number of the text's own rules release", fixed=fixed),
                                   span=(ref.start, ref.end))


def unknown_subrule(ctx: Context) -> Iterator[Issue]:
    by_number = {r.number: r for r in ctx.kb.rules}
    for t in ctx.texts():
        if t.release is None:
            continue
        for ref in ctx.refs(t):
            for number in ref.numbers:
                parsed = parse_rule_number(number)
                if parsed.letter is None:
                    continue
                rule = by_number.get(str(parsed.parent))
                if rule is None or rule.release != t.release or not rule.subrules:
                    continue
                letters = [s.letter for s in rule.subrules]
                complete = letters == list(SUBRULE_LETTERS[: len(letters)])
                if not complete or parsed.letter in letters:
                    continue
                have = f"{rule.number}{letters[0]}" + (f"–{letters[-1]}" if len(letters) > 1 else "")
                yield Issue.at(t, M_("{label} cites {number} (“{context}”), which is not in the {release} rule "
                                     "{rule} as the knowledge base holds it ({have})", label=t.label, number=number,
                                     context=quote(t.text, ref.start, ref.end, 20), release=t.release,
                                     rule=rule.number, have=have),
                               M_("correct the reference to one of {numbers}, or add {number} to {file} if the "
                                  "{release} release has it",
                                  numbers=", ".join(sorted((s.number for s in rule.subrules), key=sort_key)),
                                  number=number, file=rule.file, release=t.release),
                               span=(ref.start, ref.end))


CHECKS = (
    TextCheck("references.mismatch", "a translation cites other rules than its English", Severity.ERROR, mismatch),
    Check("references.other-release", "a rule cited by its number of another rules release", Severity.WARNING, other_release),
    Check("references.unknown-subrule", "a cited subrule that the rule of that release does not have", Severity.WARNING, unknown_subrule),
)
