"""Importer, step 1 of 2 for a rules release (crtext -> cr): read an official Comprehensive
Rules text release into a typed, frozen `Release`. Pure: bytes in, values out, no YAML.

The official text files come in several encodings (ASCII, UTF-8 with or without BOM, cp1252,
UTF-16 LE/BE with or without BOM) and line ends (CRLF, bare CR, LF, mixed); `decode` sniffs
the encoding and `parse_release` normalises the line ends and reads:

- the effective date ("These rules are effective as of May 1, 2011.");
- chapters ("7. Additional Rules"), sections ("702. Keyword Abilities"), rules ("702.81.
  Retrace", "400.2 Public zones ..." without the dot as in 2009), subrules ("702.81a ...");
- the lines that follow a rule or subrule without a number of their own ("Example: ..." and
  indented continuation lines) belong to it, in order;
- the glossary (a term line, then its definition lines, entries separated by blank lines).

Every problem names the file and line and says how to fix it; nothing is dropped silently.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from ..diagnostics import DataError, Problem
from ..refs import SUBRULE_LETTERS

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
EFFECTIVE = re.compile(r"effective as of (" + "|".join(MONTHS) + r") ([0-9]{1,2}), ([0-9]{4})")

CHAPTER = re.compile(r"^([1-9])\. (\S.*)$")
SECTION = re.compile(r"^([1-9][0-9]{2})\. (\S.*)$")
# "702. 37a Storm ..." (2009): a stray space inside a number is read, with a warning.
RULE = re.compile(r"^([1-9][0-9]{2})\.(?:([1-9][0-9]{0,2})\.?|( )([1-9][0-9]{0,2})\.) (\S.*)$")
SUBRULE = re.compile(r"^([1-9][0-9]{2})\.( ?)([1-9][0-9]{0,2})([a-z])\.? (\S.*)$")
NUMBERISH = re.compile(r"^[0-9]{3}\.[0-9]")
HEADING_END = re.compile(r"[.!?:;\"”’')\]]$")


@dataclass(frozen=True)
class Chapter:
    number: str      # "7"
    title: str       # "Additional Rules"
    line: int


@dataclass(frozen=True)
class Section:
    number: str      # "702"
    title: str       # "Keyword Abilities"
    chapter: str     # "7"
    line: int
    lines: tuple[str, ...] = ()  # unnumbered lines right after the heading (rare)


@dataclass(frozen=True)
class ParsedSubrule:
    letter: str                  # "a"
    number: str                  # "702.81a"
    lines: tuple[str, ...]       # its own text first, then its example and continuation lines
    line: int

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class ParsedRule:
    number: str                  # "702.81"
    section: str                 # "702"
    lines: tuple[str, ...]
    subrules: tuple[ParsedSubrule, ...]
    line: int

    @property
    def title(self) -> str | None:
        """The heading of a titled rule ("702.81. Retrace"), None for a rule with a text."""
        if len(self.lines) == 1 and is_heading(self.lines[0]):
            return self.lines[0]
        return None

    @property
    def text(self) -> str | None:
        return None if self.title is not None else "\n".join(self.lines)


@dataclass(frozen=True)
class GlossaryItem:
    term: str
    lines: tuple[str, ...]       # the definition, one item per line
    line: int

    @property
    def definition(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Release:
    path: str
    effective: str | None        # ISO date read from the text, None when it does not say
    encoding: str                # as sniffed: "ascii", "utf-8", "utf-8-sig", "cp1252", "utf-16-le" ...
    line_endings: str            # "CRLF", "CR", "LF" or "mixed (CR 9245, CRLF 12)"
    sha256: str                  # of the file's bytes
    chapters: tuple[Chapter, ...]
    sections: tuple[Section, ...]
    rules: tuple[ParsedRule, ...]
    glossary: tuple[GlossaryItem, ...]
    warnings: tuple[Problem, ...] = ()

    def numbered_lines(self) -> int:
        return len(self.chapters) + len(self.sections) + len(self.rules) + sum(len(r.subrules) for r in self.rules)


def is_heading(text: str) -> bool:
    """A title line ("Retrace", "Single Planar Deck Option"), not a sentence."""
    return len(text.split()) <= 10 and HEADING_END.search(text) is None


# ---------------------------------------------------------------- decoding


def _sniff_utf16(data: bytes) -> str | None:
    sample = data[:8192]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > len(odd) // 3 and even.count(0) == 0:
        return "utf-16-le"
    if even.count(0) > len(even) // 3 and odd.count(0) == 0:
        return "utf-16-be"
    return None


def _position(text_before: str) -> tuple[int, int]:
    line = text_before.count("\n") + text_before.count("\r") - text_before.count("\r\n") + 1
    last = max(text_before.rfind("\n"), text_before.rfind("\r"))
    return line, len(text_before) - last


def decode(data: bytes, path: str) -> tuple[str, str]:
    """The text of a release file and the encoding it was read with; DataError when it is
    neither UTF-8 (with or without BOM), UTF-16 (LE/BE, with or without BOM) nor cp1252."""
    boms = ((b"\xef\xbb\xbf", "utf-8", "utf-8-sig"), (b"\xff\xfe", "utf-16-le", "utf-16-le (BOM)"),
            (b"\xfe\xff", "utf-16-be", "utf-16-be (BOM)"))
    for bom, codec, name in boms:
        if data.startswith(bom):
            return _strict(data[len(bom):], codec, name, path), name
    utf16 = _sniff_utf16(data)
    if utf16:
        return _strict(data, utf16, utf16, path), utf16
    try:
        text = data.decode("utf-8")
        return text, "ascii" if text.isascii() else "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as exc:
        line, col = _position(data[: exc.start].decode("cp1252", errors="replace"))
        raise DataError([Problem(path, line, col,
                                 f"byte 0x{data[exc.start]:02x} is neither UTF-8 nor cp1252 (Windows-1252)",
                                 "convert the file to UTF-8 (e.g. iconv -f ENCODING -t UTF-8) and import it again")])


def _strict(data: bytes, codec: str, name: str, path: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        good = data[: exc.start - exc.start % 2].decode(codec, errors="replace")
        line, col = _position(good)
        raise DataError([Problem(path, line, col, f"the file looks like {name} but is not valid {codec} "
                                 f"at byte {exc.start} ({exc.reason})",
                                 "re-export the release as UTF-8 and import it again")])


def line_endings(text: str) -> tuple[str, str]:
    """Normalise CRLF, CR and LF to LF; also say what the file used."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [(name, n) for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    if not kinds:
        what = "none"
    elif len(kinds) == 1:
        what = kinds[0][0]
    else:
        what = "mixed (" + ", ".join(f"{name} {n}" for name, n in sorted(kinds, key=lambda k: -k[1])) + ")"
    return text.replace("\r\n", "\n").replace("\r", "\n"), what


def effective_date(text: str) -> str | None:
    match = EFFECTIVE.search(text)
    if match is None:
        return None
    month, day, year = match.groups()
    try:
        return dt.date(int(year), MONTHS.index(month) + 1, int(day)).isoformat()
    except ValueError:
        return None


# ---------------------------------------------------------------- parsing


@dataclass
class _Unit:
    number: str
    lines: list[str]
    line: int


@dataclass
class _Rule(_Unit):
    section: str
    subrules: list[_Unit]


def read_release(data: bytes, path: str) -> Release:
    """Decode and parse the bytes of a release file."""
    text, encoding = decode(data, path)
    return parse_release(text, path, encoding=encoding, sha256=hashlib.sha256(data).hexdigest())


def parse_release(text: str, path: str, encoding: str = "utf-8", sha256: str = "") -> Release:
    if text.startswith("\ufeff"):
        text = text[1:]
    text, endings = line_endings(text)
    problems: list[Problem] = []
    warnings: list[Problem] = []
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise DataError([Problem(path, line, 1, "the text holds NUL characters (a UTF-16 file read as 8-bit?)",
                                 "convert the file to UTF-8 and import it again")])
    lines = [line.rstrip() for line in text.split("\n")]
    first_rule = next((i for i, line in enumerate(lines) if RULE.match(line.strip())), None)
    if first_rule is None:
        raise DataError([Problem(path, 1, 1, "no numbered rule ('100.1. ...') found: this is not a Comprehensive Rules text release",
                                 "import the text (.txt) version of the Comprehensive Rules")])
    start = first_rule
    for i in range(first_rule - 1, -1, -1):
        stripped = lines[i].strip()
        if CHAPTER.match(stripped):
            start = i
            break
        if stripped and not SECTION.match(stripped):
            break
        if SECTION.match(stripped):
            start = i
    glossary_at = next((i for i in range(start, len(lines)) if lines[i].strip() == "Glossary"), None)
    credits_at = next((i for i in range((glossary_at or start), len(lines)) if lines[i].strip() == "Credits"), len(lines))
    body_end = glossary_at if glossary_at is not None else credits_at

    chapters: list[Chapter] = []
    sections: list[Section] = []
    section_lines: dict[str, list[str]] = {}
    rules: list[_Rule] = []
    seen: dict[str, int] = {}
    chapter = ""
    section = ""
    current: _Unit | None = None  # where unnumbered lines go
    current_is_section = False

    def problem(i: int, message: str, hint: str) -> None:
        problems.append(Problem(path, i + 1, 1, message, hint))

    def first_seen(number: str, i: int) -> bool:
        if number in seen:
            problem(i, f"{number} appears twice (first at line {seen[number] + 1})",
                    "a number names one rule: correct the number in the file, then import it again")
            return False
        seen[number] = i
        return True

    for i in range(start, body_end):
        raw = lines[i]
        s = raw.strip()
        if not s:
            continue
        if m := SUBRULE.match(s):
            sec, space, rule_no, letter, rest = m.groups()
            number = f"{sec}.{rule_no}{letter}"
            if space:
                warnings.append(Problem(path, i + 1, 1, f"'{s[:12]}' has a space inside the number; read as {number}",
                                        "kept; the official file has this typo"))
            parent = f"{sec}.{rule_no}"
            if letter not in SUBRULE_LETTERS:
                problem(i, f"subrule {number}: the rules never use the letter '{letter}'",
                        "subrules skip 'l' and 'o'; correct the letter")
                continue
            if not rules or rules[-1].number != parent:
                problem(i, f"subrule {number} is not under its rule {parent} "
                        f"(the rule before it is {rules[-1].number if rules else 'none'})",
                        f"add the line '{parent}. ...' before it or correct the number")
                continue
            if not first_seen(number, i):
                continue
            subs = rules[-1].subrules
            if subs and SUBRULE_LETTERS.index(letter) <= SUBRULE_LETTERS.index(subs[-1].number[-1]):
                warnings.append(Problem(path, i + 1, 1, f"subrule {number} follows {subs[-1].number}: out of order",
                                        "kept as it is; check the release file"))
            current = _Unit(number, [rest], i + 1)
            subs.append(current)
            current_is_section = False
        elif m := RULE.match(s):
            sec, rule_no, space, spaced_no, rest = m.groups()
            rule_no = rule_no or spaced_no
            number = f"{sec}.{rule_no}"
            if space:
                warnings.append(Problem(path, i + 1, 1, f"'{s[:12]}' has a space inside the number; read as {number}",
                                        "kept; the official file has this typo"))
            if sec != section:
                problem(i, f"rule {number} is not under its section {sec} (the section before it is {section or 'none'})",
                        f"add the heading line '{sec}. ...' before it or correct the number")
                continue
            if not first_seen(number, i):
                continue
            if rules and rules[-1].section == sec and int(rule_no) <= int(rules[-1].number.split(".")[1]):
                warnings.append(Problem(path, i + 1, 1, f"rule {number} follows {rules[-1].number}: out of order",
                                        "kept as it is; check the release file"))
            current = _Rule(number, [rest], i + 1, sec, [])
            rules.append(current)  # type: ignore[arg-type]
            current_is_section = False
        elif m := SECTION.match(s):
            number, title = m.groups()
            if not first_seen(number, i):
                continue
            section = number
            sections.append(Section(number, title, chapter, i + 1))
            section_lines[number] = []
            current = None
            current_is_section = True
        elif m := CHAPTER.match(s):
            chapter = m.group(1)
            chapters.append(Chapter(chapter, m.group(2), i + 1))
            current = None
            current_is_section = False
        elif NUMBERISH.match(s):
            problem(i, f"'{s[:40]}' looks like a rule number but is not one",
                    "write rules as '702.81. Title' or '702.81 text' and subrules as '702.81a text'")
        elif current is not None:
            current.lines.append(s)
        elif current_is_section:
            section_lines[section].append(s)
        else:
            problem(i, f"text before the first section: '{s[:60]}'",
                    "the rules start with a chapter ('1. Game Concepts') and a section ('100. General')")

    glossary: list[GlossaryItem] = []
    if glossary_at is not None:
        block: list[tuple[int, str]] = []
        for i in range(glossary_at + 1, credits_at + 1):
            s = lines[i].strip() if i < credits_at else ""
            if s:
                block.append((i, s))
                continue
            if not block:
                continue
            if len(block) < 2:
                problems.append(Problem(path, block[0][0] + 1, 1, f"glossary entry '{block[0][1]}' has no definition",
                                        "a glossary entry is a term line followed by its definition lines"))
            else:
                glossary.append(GlossaryItem(block[0][1], tuple(s for _, s in block[1:]), block[0][0] + 1))
            block = []

    if problems:
        raise DataError(problems)
    sections_out = tuple(Section(s.number, s.title, s.chapter, s.line, tuple(section_lines.get(s.number, ())))
                         for s in sections)
    rules_out = tuple(ParsedRule(r.number, r.section, tuple(r.lines),
                                 tuple(ParsedSubrule(u.number[-1], u.number, tuple(u.lines), u.line) for u in r.subrules),
                                 r.line) for r in rules)
    return Release(path, effective_date(text), encoding, endings, sha256, tuple(chapters), sections_out,
                   rules_out, tuple(glossary), tuple(warnings))
