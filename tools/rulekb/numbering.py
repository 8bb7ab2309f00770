"""Rule numbers as each rules release printed them (a helper of stage 3, link: load -> validate
-> link -> check -> render -> report).

A text refers to rules by the numbers of its own release: the 2009-05-01 text of 217.8
("Phased-out permanents") says "rule 502.15", which was phasing then and is 702.26 today, and
nothing by 2026. `link` resolves a reference in the numbering of the text's release
(`ReleaseNumbers.resolve`), so that it lands on the rule — and the subrule — that had the
number then, rather than on whatever has it today or on an anchor its page does not have.

- `ReleaseNumbers.of(kb)`: every rule number of every imported release (the rules' number
  histories) and every subrule letter of those releases, indexed once;
- `text_release(variant, unit, owner, newest)`: the release whose numbering a text uses: the
  newest release an English text is the text of; for a translation, that of the English it was
  made from; for a text without releases, its rule's own release; None for today's numbering.

Pure functions over a `KnowledgeBase`; nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .models import SOURCE_LANGUAGE, KnowledgeBase, Rule, Ruling, Subrule, Unit, Variant, english_hash
from .refs import parse_rule_number

__all__ = ["ReleaseNumbers", "text_release"]


@dataclass(frozen=True)
class ReleaseNumbers:
    """The rules and subrules by their number in each imported release."""

    imported: frozenset[str]
    # (rule or section number, release) -> the rule that had it in that imported release
    rules: Mapping[tuple[str, str], Rule]
    # (subrule number printed under another rule's number, release) -> its rule and subrule
    printed: Mapping[tuple[str, str], tuple[Rule, Subrule]]
    # rules whose number history has spans without imported releases (from the archive, curated)
    spans: tuple[Rule, ...]

    @classmethod
    def of(cls, kb: KnowledgeBase) -> "ReleaseNumbers":
        imported = frozenset(r.date for r in kb.releases)
        rules: dict[tuple[str, str], Rule] = {}
        printed: dict[tuple[str, str], tuple[Rule, Subrule]] = {}
        spans: list[Rule] = []
        for rule in kb.rules:
            for entry in rule.history:
                for date in entry.releases:
                    rules.setdefault((entry.number, date), rule)
            if any(not entry.releases and entry.since is not None for entry in rule.history):
                spans.append(rule)
            for sub in rule.subrules + rule.former_subrules:
                for date, letter in sub.letters.items():
                    if "." in letter:
                        printed.setdefault((letter, date), (rule, sub))
        return cls(imported, MappingProxyType(rules), MappingProxyType(printed), tuple(spans))

    def rule_in(self, number: str, release: str) -> Rule | None:
        """The rule (or section) that had `number` in `release`: from the imported releases, else
        from a history span that covers the date; None when the knowledge base does not know."""
        found = self.rules.get((number, release))
        if found is not None or release in self.imported:
            return found
        for rule in self.spans:
            had = rule.number_in(release)
            if had is not None and had[0] == number:
                return rule
        return None

    def resolve(self, number: str, release: str) -> tuple[Rule, Subrule | None] | None:
        """What `number` (702.78, 702.78a, 702) named in `release`: the rule, and the subrule
        that had the letter there (current or former); None when nothing had it."""
        printed = self.printed.get((number, release))
        if printed is not None:
            return printed
        parsed = parse_rule_number(number)
        if parsed.letter is None:
            rule = self.rule_in(number, release)
            return (rule, None) if rule is not None else None
        rule = self.rule_in(str(parsed.parent), release)
        if rule is None:
            return None
        sub = rule.subrule_in(release, parsed.letter)
        return (rule, sub) if sub is not None else None


def text_release(variant: Variant, unit: Unit, owner: Rule | Ruling | None, lang: str) -> str | None:
    """The release whose numbering the text `variant` (of `unit`, in `lang`) uses: the newest
    release an English text is the text of; a translation's, that of the English it was made
    from (else of the unit's canonical English); a text without releases of a rule, the rule's
    own release; None when the text says nothing of a release (a card ruling: today's numbers)."""
    if variant.releases:
        return max(variant.releases)
    english = unit.variants.get(SOURCE_LANGUAGE, ())
    if lang != SOURCE_LANGUAGE and english:
        made_from = next((e for e in english if variant.translated_from is not None
                          and e.releases and english_hash(e.text) == variant.translated_from), None)
        source = made_from if made_from is not None else english[0]
        if source.releases:
            return max(source.releases)
    return owner.release if isinstance(owner, Rule) else None
