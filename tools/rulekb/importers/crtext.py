"""Importer, step 1 of 2 for a rules release (crtext -> cr): read an official Comprehensive
Rules text release into a typed, frozen `Release`. Pure: bytes in, values out, no YAML.

The official text files come in several encodings (ASCII, UTF-8 with or without BOM, cp1252,
UTF-16 LE/BE with or without BOM) and line ends (CRLF, bare CR, LF, mixed); `decode` sniffs
the encoding and `parse_release` normalises the line ends and reads:

- the front matter (title, date, introduction, contents), kept as it is;
- the effective date ("These rules are effective as of May 1, 2011."; before 2009 "These rules
  are current as of October 1, 2008.");
- chapters ("7. Additional Rules"), sections ("702. Keyword Abilities"), rules ("702.81.
  Retrace", "400.2 Public zones ..." without the dot as in 2009), subrules ("702.81a ...");
- the lines that follow a rule or subrule without a number of their own ("Example: ..." and
  indented or hard-wrapped continuation lines) belong to it, in order;
- the glossary (a term line, then its definition lines, entries separated by blank lines;
  an indented paragraph after a blank line continues the entry above, as in 2003);
- the credits, kept as they are.

Every line of the file ends up in one of these places (each records the line numbers it took).

The official releases have quirks of their time; each is read as the text says, with a warning
naming the line and what was assumed, never a dropped line:
- a number out of order or outside its section or rule (419.8 in section 200, 432.2b after
  423.2a) stays where the text puts it and keeps its own number;
- a number twice (702.30d of 2009-09-04) keeps both texts, in order;
- no space after a number's dot ("901.4.All plane ...") or two ("201.3.  Some cards");
- a subrule without its rule's number ("306.b" in 306.3);
- a reference at the start of a hard-wrapped continuation line ("See rule" / "212.4,
  "Enchantments.")" or "103.4. If a player ..." after a line that ends mid-sentence, where
  the number does not continue the rules before it) is a continuation line;
- a glossary term without a definition line;
- a file whose effective date differs from the date in its name (the text is the authority).

What is refused (`DataError`, file:line and the reason): a text with no numbered rules (not a
rules release), a release that stops before its glossary (a cut file), a file that holds a second
release (rules, a glossary or credits after its credits) or a second, different effective date.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field

from ..diagnostics import DataError, Problem
from ..refs import SUBRULE_LETTERS

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
# "effective as of May 1, 2011"; "current as of October 1, 2008" before 2009; "June18, 2021" (sic)
EFFECTIVE = re.compile(r"\b(effective|current) as of (" + "|".join(MONTHS) + r") ?([0-9]{1,2}),? ([0-9]{4})")
FILE_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")

CHAPTER = re.compile(r"^([1-9])\. (\S.*)$")
SECTION = re.compile(r"^([1-9][0-9]{2})\. (\S.*)$")
# "702.81. Retrace", "400.2 Public zones" (2009, no dot), "702. 37a Storm" (2009: a stray space),
# "201.3.  Some cards" (two spaces), "901.4.All plane" (no space)
RULE = re.compile(r"^([1-9][0-9]{2})\.( ?)([1-9][0-9]{0,2})(\.?)( +|(?<=\.)(?=[A-Z“\"]))(\S.*)$")
SUBRULE = re.compile(r"^([1-9][0-9]{2})\.( ?)([1-9][0-9]{0,2})([a-z])(\.?)( +)(\S.*)$")
# "306.b If an effect ..." (2008-10-01): a subrule letter without its rule's number
LETTER_ONLY = re.compile(r"^([1-9][0-9]{2})\.([a-z])\.? +(\S.*)$")
NUMBERISH = re.compile(r"^[0-9]{3}\.[0-9]")
HEADING_END = re.compile(r"[.!?:;\"”’')\]]$")
# the end of a sentence (or of a quotation, a parenthesis) at the end of a line
SENTENCE_END = re.compile(r"[.!?:;\"”’)\]]$")
# a line that ends by leading into a rule number: "(See rule", "rules 409.1b and"
LEADS_INTO_NUMBER = re.compile(r"\b(rule|rules|see|and|or|through|to)$", re.IGNORECASE)
GLOSSARY, CREDITS = "Glossary", "Credits"


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
    lines_at: tuple[int, ...] = ()


@dataclass(frozen=True)
class ParsedSubrule:
    letter: str                  # "a"
    number: str                  # "702.81a": as the text gives it (432.2b under 423.2 in 2006-10-01)
    lines: tuple[str, ...]       # its own text first, then its example and continuation lines
    line: int
    lines_at: tuple[int, ...] = ()   # the line number of each of `lines`

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class ParsedRule:
    number: str                  # "702.81": as the text gives it
    section: str                 # the section the text puts it in ("510" for 501.2 of 2006-05-01)
    lines: tuple[str, ...]
    subrules: tuple[ParsedSubrule, ...]
    line: int
    lines_at: tuple[int, ...] = ()

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
    lines: tuple[str, ...]       # the definition, one item per line (none: a term without one)
    line: int
    lines_at: tuple[int, ...] = ()

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
    front: tuple[tuple[int, str], ...] = field(default=(), compare=False)    # (line, text) before the rules
    credits: tuple[tuple[int, str], ...] = field(default=(), compare=False)  # (line, text) from "Credits" on
    glossary_at: int | None = field(default=None, compare=False)             # the line of "Glossary"

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
    neither UTF-8 (with or without BOM), UTF-16 (LE/BE, with or without BOM) nor cp1252. An 8-bit
    file is cp1252 unless cp1252 reads characters no rules text has where they are and Mac OS Roman
    or the DOS code page 437 reads none (`_odd_characters`)."""
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
    failure: UnicodeDecodeError | None = None
    try:
        text: str | None = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        text, failure = None, exc
    if text is not None and not _odd_characters(text):
        return text, "cp1252"
    for codec in EIGHT_BIT_OTHERS:  # Mac OS Roman (2004-02-01), the DOS code page 437 (2013-07-11)
        other = data.decode(codec)
        if not _odd_characters(other):
            return other, codec
    if text is not None or failure is None:
        return text or "", "cp1252"
    line, col = _position(data[: failure.start].decode("cp1252", errors="replace"))
    raise DataError([Problem(path, line, col,
                             f"byte 0x{data[failure.start]:02x} is neither UTF-8 nor cp1252 (Windows-1252), and the "
                             "file reads as no Mac OS Roman or DOS (437) text",
                             "convert the file to UTF-8 (e.g. iconv -f ENCODING -t UTF-8) and import it again")])


# 8-bit code pages some official files were saved in, tried when cp1252 reads characters no rules text has
EIGHT_BIT_OTHERS = ("mac-roman", "cp437")
# marks a rules text may have outside words; letters of Latin-1 inside words (card names: Dandân, Ghazbán)
TYPOGRAPHIC = frozenset("‘’“”–—…•™®©°·")


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _odd_characters(text: str) -> int:
    """How many non-ASCII characters of `text` no rules text would have where they are: a
    typographic mark, or a Latin-1 letter next to an ASCII letter (a capital one not between two
    small ones), is plausible; anything else is odd (cp1252's ƒ, ‰, Ð, ª in a file of another code page).
    Only the non-ASCII characters are visited (a loop over all ~300,000 characters of a release
    took 0.15 s, three times per 8-bit file)."""
    odd = 0
    for found in _NOT_ASCII.finditer(text):
        c, i = found.group(), found.start()
        if c in TYPOGRAPHIC:
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        latin = "\u00c0" <= c <= "\u00ff" and c.isalpha()
        near = (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())
        if not (latin and near) or (c.isupper() and before.islower() and after.islower()):
            odd += 1
    return odd


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


def _date(month: str, day: str, year: str) -> str | None:
    try:
        return dt.date(int(year), MONTHS.index(month) + 1, int(day)).isoformat()
    except ValueError:
        return None


def effective_date(text: str) -> str | None:
    """The first effective (or, before 2009, "current as of") date the text states."""
    for match in EFFECTIVE.finditer(text):
        date = _date(*match.groups()[1:])
        if date is not None:
            return date
    return None


# ---------------------------------------------------------------- parsing


@dataclass
class _Unit:
    number: str
    lines: list[str]
    line: int
    at: list[int]
    letter: str = ""


@dataclass
class _Rule(_Unit):
    section: str = ""
    subrules: list[_Unit] = field(default_factory=list)


def read_release(data: bytes, path: str) -> Release:
    """Decode and parse the bytes of a release file."""
    text, encoding = decode(data, path)
    return parse_release(text, path, encoding=encoding, sha256=hashlib.sha256(data).hexdigest())


def _dates(lines: list[str], path: str, warnings: list[Problem]) -> str | None:
    """The effective date; a second, different one is refused (two releases in one file?)."""
    first: tuple[int, str] | None = None
    for i, line in enumerate(lines):
        if " as of " not in line:
            continue
        for match in EFFECTIVE.finditer(line):
            kind, month, day, year = match.groups()
            date = _date(month, day, year)
            if date is None:
                continue
            if first is None:
                first = (i, date)
                if kind == "current":
                    warnings.append(Problem(path, i + 1, 1, f"'current as of' read as the effective date {date}",
                                            "kept; releases before 2009 say 'current as of'"))
            elif date != first[1]:
                raise DataError([Problem(path, i + 1, match.start() + 1,
                                         f"a second effective date, {date}, differs from {first[1]} (line {first[0] + 1}): "
                                         "the file holds two releases, or a corrupted one",
                                         "import each release from its own, whole file")])
    if first is not None:
        named = FILE_DATE.search(path.replace("\\", "/").rsplit("/", 1)[-1])
        if named and named.group(0) != first[1]:
            warnings.append(Problem(path, first[0] + 1, 1, f"the file's name says {named.group(0)}, its text "
                                    f"{first[1]}: read as the release of {first[1]}",
                                    "kept; the text is the authority, the file name stays where it came from"))
    return first[1] if first else None


def _find_start(lines: list[str], path: str) -> int:
    first_rule = next((i for i, line in enumerate(lines) if RULE.match(line)), None)
    if first_rule is None:
        raise DataError([Problem(path, 1, 1, "no numbered rule ('100.1. ...') found: this is not a Comprehensive Rules text release",
                                 "import the text (.txt) version of the Comprehensive Rules")])
    start = first_rule
    for i in range(first_rule - 1, -1, -1):
        stripped = lines[i]
        if CHAPTER.match(stripped):
            start = i
            break
        if stripped and not SECTION.match(stripped):
            break
        if SECTION.match(stripped):
            start = i
    return start


def _last_text(lines: list[str], end: int) -> tuple[int, str]:
    i = end - 1
    while i > 0 and not lines[i]:
        i -= 1
    return i, lines[i]


def parse_release(text: str, path: str, encoding: str = "utf-8", sha256: str = "") -> Release:
    if text.startswith("\ufeff"):
        text = text[1:]
    text, endings = line_endings(text)
    if "\x00" in text:
        before = text[: text.index("\x00")]
        raise DataError([Problem(path, before.count("\n") + 1, len(before) - before.rfind("\n"),
                                 "the text holds NUL characters (a UTF-16 file read as 8-bit?)",
                                 "convert the file to UTF-8 and import it again")])
    raw = text.split("\n")
    lines = [line.strip() for line in raw]  # `raw` for the indentation of glossary paragraphs
    warnings: list[Problem] = []
    start = _find_start(lines, path)
    effective = _dates(lines, path, warnings)
    glossary_at = next((i for i in range(start, len(lines)) if lines[i] == GLOSSARY), None)
    if glossary_at is None:
        i, last = _last_text(lines, len(lines))
        raise DataError([Problem(path, i + 1, 1, f"the release stops at line {i + 1} ('{last[:60]}') before its "
                                 "glossary and credits: the file is incomplete (cut short?)",
                                 "import the whole release file (it ends with the glossary and the credits)")])
    credits_at = next((i for i in range(glossary_at, len(lines)) if lines[i] == CREDITS), None)
    if credits_at is None:
        i, last = _last_text(lines, len(lines))
        warnings.append(Problem(path, i + 1, 1, f"the file stops inside the glossary at line {i + 1} ('{last[:40]}'), "
                                "before the credits: its rules are whole, its glossary is not",
                                "kept; the glossary terms after this line are not in the file"))
        credits_at = len(lines)
    _second_release(lines, credits_at, path)
    problems: list[Problem] = []
    chapters, sections, rules = _body(lines, start, glossary_at, path, problems, warnings)
    glossary = _glossary(lines, raw, glossary_at + 1, credits_at, path, warnings)
    if problems:
        raise DataError(problems)
    front = tuple((i + 1, lines[i]) for i in range(start) if lines[i])
    credits = tuple((i + 1, lines[i]) for i in range(glossary_at, len(lines))
                    if lines[i] and (i >= credits_at or i == glossary_at))
    return Release(path, effective, encoding, endings, sha256, tuple(chapters), sections, rules, glossary,
                   tuple(warnings), front, credits, glossary_at + 1)


def _second_release(lines: list[str], credits_at: int, path: str) -> None:
    """After the credits there is nothing of a release: a rule, a glossary, more credits."""
    for i in range(credits_at + 1, len(lines)):
        s = lines[i]
        if s in (GLOSSARY, CREDITS) or SECTION.match(s) or RULE.match(s) or SUBRULE.match(s):
            raise DataError([Problem(path, i + 1, 1, f"'{s[:60]}' after the credits (line {credits_at + 1}): the file "
                                     "holds a second release or part of one",
                                     "import each release from its own, whole file")])


def _body(lines: list[str], start: int, end: int, path: str, problems: list[Problem],
          warnings: list[Problem]) -> tuple[list[Chapter], tuple[Section, ...], tuple[ParsedRule, ...]]:
    chapters: list[Chapter] = []
    sections: list[Section] = []
    section_lines: dict[str, tuple[list[str], list[int]]] = {}
    rules: list[_Rule] = []
    seen: dict[str, int] = {}
    chapter = ""
    section = ""
    current: _Unit | None = None  # where unnumbered lines go

    def warn(i: int, message: str, hint: str = "kept as the text has it") -> None:
        warnings.append(Problem(path, i + 1, 1, message, hint))

    def twice(number: str, i: int) -> None:
        if number in seen:
            warn(i, f"{number} appears twice (first at line {seen[number] + 1}): both texts kept, in order",
                 "kept; the second is a second text of the same number in this release")
        else:
            seen[number] = i

    def last_rule() -> _Rule | None:
        return rules[-1] if rules and rules[-1].section == section else None

    def fits(kind: str, m: re.Match[str]) -> bool:
        """Does the number continue the rules before it (the next section, rule or subrule)?"""
        if kind == "section":
            return not section or int(m.group(1)) > int(section)
        if kind == "chapter":
            return not chapter or int(m.group(1)) == int(chapter) + 1
        rule = last_rule()
        if m.group(1) != section:
            return False
        if kind == "rule":
            return rule is None or int(m.group(3)) > int(rule.number.split(".")[1])
        if rule is None or rule.number != f"{m.group(1)}.{m.group(3)}":
            return False
        return not rule.subrules or SUBRULE_LETTERS.index(m.group(4)) > SUBRULE_LETTERS.index(rule.subrules[-1].letter)

    def add_line(i: int, s: str) -> None:
        if current is not None:
            current.lines.append(s)
            current.at.append(i + 1)
        elif section:
            section_lines[section][0].append(s)
            section_lines[section][1].append(i + 1)
        else:
            problems.append(Problem(path, i + 1, 1, f"text before the first section: '{s[:60]}'",
                                    "the rules start with a chapter ('1. Game Concepts') and a section ('100. General')"))

    previous = ""  # the line before, "" when blank
    for i in range(start, end):
        s = lines[i]
        before, previous = previous, s
        if not s:
            continue
        kind, m = None, None
        if m := SUBRULE.match(s):
            kind = "subrule"
        elif m := RULE.match(s):
            kind = "rule"
        elif m := SECTION.match(s):
            kind = "section"
        elif m := CHAPTER.match(s):
            kind = "chapter"
        if kind is not None and m is not None and before and not SENTENCE_END.search(before) and current is not None \
                and (LEADS_INTO_NUMBER.search(before) or not fits(kind, m)):
            warn(i, f"'{s[:30]}' after a line that ends mid-sentence ('…{before[-25:]}'): read as a continuation "
                 "line (a reference), not a new number", "kept as a line of the text above")
            add_line(i, s)
            continue
        if kind == "subrule" and m is not None:
            sec, space, rule_no, letter, dot, spaces, rest = m.groups()
            number = f"{sec}.{rule_no}{letter}"
            if space:
                warn(i, f"'{s[:12]}' has a space inside the number; read as {number}")
            if len(spaces) > 1:
                warn(i, f"{len(spaces)} spaces after {number}; read as one")
            if letter not in SUBRULE_LETTERS:
                problems.append(Problem(path, i + 1, 1, f"subrule {number}: the rules never use the letter '{letter}'",
                                        "subrules skip 'l' and 'o'; correct the letter"))
                continue
            rule = last_rule()
            if rule is None:
                problems.append(Problem(path, i + 1, 1, f"subrule {number} comes before any rule of section {section or '(none)'}",
                                        f"add the line '{sec}.{rule_no}. ...' before it or correct the number"))
                continue
            if rule.number != f"{sec}.{rule_no}":
                warn(i, f"subrule {number} is under rule {rule.number} (after "
                     f"{rule.subrules[-1].number if rule.subrules else rule.number}): kept there, with its own number")
            elif rule.subrules and number != rule.subrules[-1].number and \
                    SUBRULE_LETTERS.index(letter) <= SUBRULE_LETTERS.index(rule.subrules[-1].letter):
                warn(i, f"subrule {number} follows {rule.subrules[-1].number}: out of order")
            twice(number, i)
            current = _Unit(number, [rest], i + 1, [i + 1], letter)
            rule.subrules.append(current)
        elif kind == "rule" and m is not None:
            sec, space, rule_no, dot, spaces, rest = m.groups()
            number = f"{sec}.{rule_no}"
            if space:
                warn(i, f"'{s[:12]}' has a space inside the number; read as {number}")
            if not spaces:
                warn(i, f"no space after '{number}.': read as rule {number}, '{rest[:30]}'")
            elif len(spaces) > 1:
                warn(i, f"{len(spaces)} spaces after {number}{dot}; read as one")
            if not section:
                problems.append(Problem(path, i + 1, 1, f"rule {number} comes before any section",
                                        f"add the heading line '{sec}. ...' before it or correct the number"))
                continue
            rule = last_rule()
            if sec != section:
                warn(i, f"rule {number} is in section {section} (after {rule.number if rule else section}): "
                     "kept there, with its own number")
            elif rule is not None and int(rule_no) <= int(rule.number.split(".")[1]):
                warn(i, f"rule {number} follows {rule.number}: out of order")
            twice(number, i)
            current = _Rule(number, [rest], i + 1, [i + 1], section=section)
            rules.append(current)  # type: ignore[arg-type]
        elif kind == "section" and m is not None:
            number, title = m.groups()
            if number in seen:
                problems.append(Problem(path, i + 1, 1, f"section {number} appears twice (first at line {seen[number] + 1})",
                                        "a section is one heading: correct the number, or import each release on its own"))
                continue
            seen[number] = i
            section = number
            sections.append(Section(number, title, chapter, i + 1))
            section_lines[number] = ([], [])
            current = None
        elif kind == "chapter" and m is not None:
            chapter = m.group(1)
            chapters.append(Chapter(chapter, m.group(2), i + 1))
            current = None
        elif (m := LETTER_ONLY.match(s)) and m.group(1) == section and (rule := last_rule()) is not None \
                and m.group(2) in SUBRULE_LETTERS:
            number = f"{rule.number}{m.group(2)}"
            warn(i, f"'{s[:8]}' has no rule number: read as subrule {number} of the rule above")
            twice(number, i)
            current = _Unit(number, [m.group(3)], i + 1, [i + 1], m.group(2))
            rule.subrules.append(current)
        else:
            if NUMBERISH.match(s):
                warn(i, f"'{s[:30]}' starts with a number but is no rule or subrule line: read as a line of the "
                     f"text above ({current.number if current else 'section ' + section})", "kept as a line of the text above")
            add_line(i, s)
    sections_out = tuple(Section(s.number, s.title, s.chapter, s.line, tuple(section_lines[s.number][0]),
                                 tuple(section_lines[s.number][1])) for s in sections)
    rules_out = tuple(ParsedRule(r.number, r.section, tuple(r.lines),
                                 tuple(ParsedSubrule(u.letter, u.number, tuple(u.lines), u.line, tuple(u.at))
                                       for u in r.subrules), r.line, tuple(r.at)) for r in rules)
    return chapters, sections_out, rules_out


def _glossary(lines: list[str], raw: list[str], begin: int, end: int, path: str, warnings: list[Problem]) -> tuple[GlossaryItem, ...]:
    """Entries separated by blank lines: a term line, its definition lines. A paragraph that is
    indented (2003: the list of expansion symbols) continues the entry above."""
    entries: list[_Unit] = []
    bare: list[_Unit] = []       # terms with no definition line under them
    indented: dict[int, int] = {}  # entry index -> paragraphs it gained
    block: list[int] = []
    for i in range(begin, end + 1):
        if i < end and lines[i]:
            block.append(i)
            continue
        if not block:
            continue
        if raw[block[0]][:1].isspace() and entries:
            entries[-1].lines += [lines[j] for j in block]
            entries[-1].at += [j + 1 for j in block]
            indented[len(entries) - 1] = indented.get(len(entries) - 1, 0) + 1
        else:
            entry = _Unit(lines[block[0]], [lines[j] for j in block[1:]], block[0] + 1,
                          [j + 1 for j in block[1:]])
            entries.append(entry)
            if len(block) == 1:
                bare.append(entry)
        block = []
    for index, count in sorted(indented.items()):
        e = entries[index]
        warnings.append(Problem(path, e.line, 1, f"glossary entry '{e.number}': {count} indented paragraph(s) after "
                                "blank lines read as part of its definition", "kept as lines of its definition"))
    for e in bare:
        assumed = "the indented paragraphs after it read as its definition" if e.lines else "kept as a term with no definition"
        warnings.append(Problem(path, e.line, 1, f"glossary term '{e.number}' has no definition line: {assumed}",
                                "kept as the text has it"))
    return tuple(GlossaryItem(e.number, tuple(e.lines), e.line, tuple(e.at)) for e in entries)
