"""Rule-reference parser, shared by the link stage (site) and the references checks (QA). Pure functions, no I/O.

Rule numbers of the Comprehensive Rules are a section ("702"), a rule ("702.78")
or a subrule ("702.78a"). Subrule letters skip "l" and "o", as the CR does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

__all__ = [
    "Reference",
    "RuleNumber",
    "expand_range",
    "find_references",
    "is_rule_number",
    "parse_rule_number",
    "referenced_numbers",
    "sort_key",
]

SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # the CR never uses "l" and "o"
MAX_RANGE = 60
_EXPECTED = "expected a section, rule or subrule such as '702', '702.78' or '702.78a'"

# The number grammar: section, optional ".rule", optional subrule letter (after a rule only).
_RULE_NUMBER = re.compile(rf"([1-9][0-9]{{2}})(?:\.([1-9][0-9]{{0,2}})([{SUBRULE_LETTERS}])?)?")

_RULE_WORDS = r"(?i:rules?|regeln?|règles?|sections?|abschnitt(?:e|en|s)?)"
_SPACE = r"[ \u00a0\u202f]?"  # one optional (no-break) space around a range dash
_DASH = r"[\-\u2010-\u2013]"  # hyphen-minus, hyphen, non-breaking hyphen, figure dash, en dash

# What a number must not be glued to (the character before it): digits, letters, dots, signs, prices.
_GLUE = r"[\w./+\-\u2010-\u2014\u2212€$£]"

# One number expression: a number, optional range end ("–g" or "–601.2g"). The scan looks for numbers
# (a pattern that begins with a digit, which the regular expression engine finds fast) and looks back
# from each for a rule word (`_WORD_BEFORE`): a pattern that began with the optional word tried the
# word's spellings at every character of every text, seven times slower (link stage).
_REFERENCE = re.compile(
    rf"""
    (?P<first>
        [1-9](?<!{_GLUE}[1-9])                     # not glued to what precedes it
        [0-9]{{2}}(?:\.[1-9][0-9]{{0,2}}[{SUBRULE_LETTERS}]?)?
    )
    (?:{_SPACE}{_DASH}{_SPACE}(?P<last>{_RULE_NUMBER.pattern}|[{SUBRULE_LETTERS}]))?
    (?!\w|\.[0-9])                                 # not followed by letters, digits or ".digit"
    """,
    re.VERBOSE,
)

# A rule word ending where the white space before a number begins ("rules 601"); `_WORD_BEFORE_LONGEST`:
# its longest spelling ("abschnitten"), how far back from there it may begin.
_WORD_BEFORE = re.compile(rf"\b{_RULE_WORDS}\Z")
_WORD_BEFORE_LONGEST = 11

# What may stand between two items of a list: "601, 602", "601 and 602", "601, 602 und 603", "601 ou 602".
_LIST_GAP = re.compile(r"\s*,?\s*(?:(?:and|or|und|oder|et|ou)\s+)?", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class RuleNumber:
    """A section (702), rule (702.78) or subrule (702.78a); orders numerically."""

    section: int = field(compare=False)
    rule: int | None = field(compare=False)
    letter: str | None = field(compare=False)
    # Ordering/equality key, so that sections, rules and subrules compare with each other.
    _key: tuple[int, int, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not is_rule_number(str(self)):
            raise ValueError(f"invalid rule number parts {self.section!r}, {self.rule!r}, {self.letter!r}; {_EXPECTED}")
        object.__setattr__(self, "_key", (self.section, self.rule or 0, self.letter or ""))

    def __str__(self) -> str:
        rule = "" if self.rule is None else f".{self.rule}"
        return f"{self.section}{rule}{self.letter or ''}"

    @property
    def parent(self) -> RuleNumber | None:
        """702.78a -> 702.78 -> 702 -> None."""
        if self.letter is not None:
            return replace(self, letter=None)
        if self.rule is not None:
            return replace(self, rule=None)
        return None


def _problem(text: str) -> str:
    """Say what is wrong with a string that is not a rule number."""
    section, dot, rest = text.partition(".")
    rule = rest[: len(rest) - len(rest.lstrip("0123456789"))]
    letters = rest[len(rule) :]
    if not text:
        return "it is empty"
    if text != text.strip():
        return "it has surrounding whitespace"
    if len(section) != 3 or not section.isascii() or not section.isdigit() or section[0] == "0":
        return f"the section {section!r} must be 3 digits from 100 to 999"
    if not rest:
        return "it ends with a dot; drop the dot or add a rule part"
    if not rule:
        return "the rule part after the dot must start with 1 to 3 digits"
    if len(rule) > 3:
        return f"the rule part {rule!r} has more than 3 digits"
    if rule[0] == "0":
        return f"the rule part {rule!r} must not start with 0"
    if len(letters) > 1:
        return f"only one subrule letter is allowed, got {letters!r}"
    if letters in ("l", "o"):
        return "the CR skips the subrule letters 'l' and 'o'"
    if letters.isupper():
        return f"the subrule letter {letters!r} must be lowercase"
    return f"unexpected {letters!r} after the rule part"


def parse_rule_number(text: str) -> RuleNumber:
    """Parse "702", "702.78" or "702.78a" strictly; raise ValueError saying what is wrong."""
    match = _RULE_NUMBER.fullmatch(text)
    if match is None:
        raise ValueError(f"invalid rule number {text!r}: {_problem(text)}; {_EXPECTED}")
    section, rule, letter = match.groups()
    return RuleNumber(int(section), None if rule is None else int(rule), letter)


def is_rule_number(text: str) -> bool:
    return isinstance(text, str) and _RULE_NUMBER.fullmatch(text) is not None


def sort_key(number: str) -> tuple[int, int, str]:
    """Numeric order: 702 < 702.9 < 702.10 < 702.78 < 702.78a < 702.78b < 702.100."""
    return parse_rule_number(number)._key


def expand_range(first: str, last: str) -> tuple[str, ...]:
    """All numbers from first to last inclusive, siblings only ("601.2e", "601.2g" -> e, f, g)."""
    start, stop = parse_rule_number(first), parse_rule_number(last)
    if start.parent != stop.parent:
        raise ValueError(f"range {first}–{last}: both ends must have the same parent")
    if stop < start:
        raise ValueError(f"range {first}–{last} is reversed")
    if start.letter is not None:
        letters = SUBRULE_LETTERS[SUBRULE_LETTERS.index(start.letter) : SUBRULE_LETTERS.index(stop.letter) + 1]
        numbers = [replace(start, letter=letter) for letter in letters]
    elif start.rule is not None:
        numbers = [replace(start, rule=rule) for rule in range(start.rule, stop.rule + 1)]
    else:
        numbers = [replace(start, section=section) for section in range(start.section, stop.section + 1)]
    if len(numbers) > MAX_RANGE:
        raise ValueError(f"range {first}–{last} has {len(numbers)} items, more than {MAX_RANGE}")
    return tuple(str(number) for number in numbers)


@dataclass(frozen=True)
class Reference:
    """A number expression in a text, e.g. "601.2e–g", with its expanded numbers."""

    start: int
    end: int
    text: str
    numbers: tuple[str, ...]


def _single(match: re.Match[str], group: str) -> Reference:
    start, end = match.span(group)
    return Reference(start, end, match[group], (match[group],))


def _references(match: re.Match[str]) -> list[Reference]:
    """The references of one matched expression: one for a number or a valid range.

    An invalid range (reversed, mixed parents, too long) keeps its endpoints as
    separate references where they are full numbers of the same kind.
    """
    first, last = match["first"], match["last"]
    if last is None:
        return [_single(match, "first")]
    if len(last) == 1:  # "601.2e–g": a letter completing the first number
        last = first[:-1] + last if first[-1].isalpha() else ""
    try:
        numbers = expand_range(first, last)
    except ValueError:
        keep_last = len(match["last"]) > 1 and ("." in match["last"] or "." not in first)
        return [_single(match, "first")] + ([_single(match, "last")] if keep_last else [])
    start, end = match.start("first"), match.end()
    return [Reference(start, end, match.string[start:end], numbers)]


def find_references(text: str) -> tuple[Reference, ...]:
    """Rule references in text order, non-overlapping.

    Bare sections ("702") count only after a rule word ("rule", "Regeln", "règles",
    "section", "Abschnitt", ...) or in a list it introduces ("rules 601 and 602").
    """
    references: list[Reference] = []
    listed = False  # inside a list introduced by a rule word
    previous_end = 0
    for match in _REFERENCE.finditer(text):
        start = match.start()
        words_end = previous_end + len(text[previous_end:start].rstrip())   # where the white space before it begins
        worded = words_end < start and _WORD_BEFORE.search(
            text, max(previous_end, words_end - _WORD_BEFORE_LONGEST), words_end) is not None
        listed = worded or (listed and _LIST_GAP.fullmatch(text, previous_end, start) is not None)
        previous_end = match.end()
        if "." in match["first"] or listed:
            references.extend(_references(match))
    return tuple(references)


def referenced_numbers(text: str) -> tuple[str, ...]:
    """All referenced numbers, expanded, deduplicated and sorted by sort_key."""
    numbers = {number for reference in find_references(text) for number in reference.numbers}
    return tuple(sorted(numbers, key=sort_key))
