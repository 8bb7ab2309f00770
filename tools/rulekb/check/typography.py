"""Check family `typography` (stage: check): the typographic conventions of each locale.

- `typography.quotes`: quotation marks of another locale (English “…” or "…", German „…“,
  French « … »), e.g. German „…“ inside an English text;
- `typography.quote-spacing` (French): « and » without a no-break space inside;
- `typography.punctuation-spacing`: French needs a space before ; : ! ? (English and German none);
  `typography.nbsp` (French): that space should be a no-break one, so that a line never starts
  with the mark;
- `typography.range-dash`: a range of rules with a hyphen ("601.2e-g") instead of an en dash;
- `typography.double-space`, `typography.lowercase-start`, `typography.mixed-apostrophes`.

The locale rules live in `LOCALE`: adding a language is one entry there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ..models import Severity, UnitKind
from .base import REFS, Check, Context, Issue, Text, quote

NBSP = "\u00a0\u202f"


@dataclass(frozen=True)
class Locale:
    quotes: str               # how quotations are written, for messages
    wrong: str                # quotation marks that do not belong to the locale
    pairs: tuple[tuple[str, str], ...]  # opening and closing marks, checked for their order
    space_before: bool        # a (no-break) space before ; : ! ? (French)
    nested: str = ""          # marks allowed inside the locale's own quotation (French “…” inside « … »)


LOCALE: dict[str, Locale] = {
    "en": Locale('“…” or "…"', "„«»", (("“", "”"),), False),
    "de": Locale("„…“", '"”«»', (("„", "“"),), False),
    "fr": Locale("« … » (with no-break spaces inside)", '"„“”', (("«", "»"),), True, nested="“”"),
}
_DEFAULT = Locale('"…"', "", (), False)

_DOUBLE_SPACE = re.compile(r"(?<=\S) {2,}(?=\S)")
_HIGH_PUNCT = re.compile(r"(\s?)([;:!?])")
_SPACE_BEFORE_LOW = re.compile(r"(?<=[^\W\d_]) +([,.])(?!\d)")
_QUOTES = re.compile('["„“”«»]')


def _locale(lang: str) -> Locale:
    return LOCALE.get(lang, _DEFAULT)


def _inside(text: str, pos: int, open_: str, close: str) -> bool:
    """Whether pos lies between an opening mark and its closing one."""
    return text.rfind(open_, 0, pos) > text.rfind(close, 0, pos)


def _wrong_quotes(text: str, loc: Locale) -> list[int]:
    bad: list[int] = []
    if not _QUOTES.search(text):
        return bad
    for m in _QUOTES.finditer(text):
        ch, pos = m.group(), m.start()
        if ch in loc.nested and loc.pairs and _inside(text, pos, *loc.pairs[0]):
            continue
        if ch in loc.wrong:
            bad.append(pos)
    for open_, close in loc.pairs if not bad else ():  # a closing mark used as an opening one („…“ vs “…”)
        if open_ in loc.wrong or close in loc.wrong or open_ == close:
            continue
        depth = 0
        for m in _QUOTES.finditer(text):
            if m.group() == open_:
                depth += 1
            elif m.group() == close:
                if depth == 0 and m.start() not in bad:
                    bad.append(m.start())
                depth = max(0, depth - 1)
        if depth > 0:  # an opening mark that is never closed
            last = text.rfind(open_)
            if last not in bad:
                bad.append(last)
    return sorted(bad)


def quotes(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        loc = _locale(t.lang)
        bad = _wrong_quotes(t.text, loc)
        if not bad:
            continue
        marks = "".join(sorted({t.text[p] for p in bad}))
        end = bad[1] + 1 if len(bad) > 1 and bad[1] - bad[0] < 60 else bad[0] + 1
        yield Issue.at(t, f"{t.label}: quotation marks {' '.join(marks)} do not belong in "
                          f"{ctx.language_name(t.lang)} text (“{quote(t.text, bad[0], end, 15)}”)",
                       f"write {ctx.language_name(t.lang)} quotation marks: {loc.quotes}")


def quote_spacing(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts([lang for lang, loc in LOCALE.items() if loc.space_before]):
        loc = _locale(t.lang)
        for open_, close in loc.pairs:
            bad = [i for i, ch in enumerate(t.text) if
                   (ch == open_ and (i + 1 >= len(t.text) or t.text[i + 1] not in NBSP)) or
                   (ch == close and (i == 0 or t.text[i - 1] not in NBSP))]
            if bad:
                yield Issue.at(t, f"{t.label}: {open_} and {close} need a no-break space inside "
                                  f"(“{quote(t.text, bad[0], bad[0] + 1, 15)}”)",
                               f"write {open_}\u00a0…\u00a0{close} with no-break spaces (U+00A0)")


def _high_punct(t: Text):
    text = t.text
    if ";" not in text and ":" not in text and "!" not in text and "?" not in text:
        return  # no such mark: no need for the regex
    for m in _HIGH_PUNCT.finditer(text):
        pos = m.start(2)
        prev = t.text[pos - 1] if pos else ""
        nxt = t.text[pos + 1] if pos + 1 < len(t.text) else ""
        if m.group(2) == ":" and (nxt == "/" or (prev.isdigit() and nxt.isdigit())):
            continue  # an address or a time
        if prev in "}]" and m.group(2) == ":":
            continue  # a cost followed by its effect: "{T}: …"
        yield pos, prev


def punctuation_spacing(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        loc = _locale(t.lang)
        for pos, prev in _high_punct(t):
            mark = t.text[pos]
            if loc.space_before and prev and not prev.isspace() and prev not in NBSP:
                yield Issue.at(t, f"{t.label}: no space before '{mark}' (“{quote(t.text, pos, pos + 1, 15)}”)",
                               f"{ctx.language_name(t.lang)} puts a no-break space before {mark}: write '\u00a0{mark}'")
                break
            if not loc.space_before and prev and (prev.isspace() or prev in NBSP):
                yield Issue.at(t, f"{t.label}: a space before '{mark}' (“{quote(t.text, pos, pos + 1, 15)}”)",
                               f"{ctx.language_name(t.lang)} puts no space before {mark}: remove it")
                break
        else:
            m = _SPACE_BEFORE_LOW.search(t.text) if " ," in t.text or " ." in t.text else None
            if m:
                yield Issue.at(t, f"{t.label}: a space before '{m.group(1)}' (“{quote(t.text, m.start(), m.end(), 15)}”)",
                               "remove the space before the comma or full stop")


def nbsp(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts([lang for lang, loc in LOCALE.items() if loc.space_before]):
        found = [(pos, prev) for pos, prev in _high_punct(t) if prev == " "]
        if found:
            marks = " ".join(sorted({t.text[p] for p, _ in found}))
            pos = found[0][0]
            yield Issue.at(t, f"{t.label}: an ordinary space before {marks} (“{quote(t.text, pos, pos + 1, 15)}”): "
                              f"a line may break before the mark",
                           "use a no-break space (U+00A0, or U+202F before ; ! ?) before the mark")


def range_dash(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        for ref in ctx.refs(t):
            if len(ref.numbers) > 1 and "-" in ref.text:
                fixed = re.sub(r"\s*-\s*", "–", ref.text)
                yield Issue.at(t, f"{t.label}: the range “{ref.text}” is written with a hyphen "
                                  f"(“{quote(t.text, ref.start, ref.end, 25)}”)",
                               f"write “{fixed}” with an en dash (U+2013)")
                break


def double_space(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        m = _DOUBLE_SPACE.search(t.text) if "  " in t.text else None
        if m:
            yield Issue.at(t, f"{t.label}: {len(m.group())} spaces in a row (“{quote(t.text, m.start(), m.end(), 15)}”)",
                           "write one space")


def lowercase_start(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        if t.unit.kind is UnitKind.TITLE:
            continue
        stripped = t.text.lstrip("„“\"«( \u00a0")
        if stripped[:1].islower():
            first = stripped.split(" ", 1)[0]
            yield Issue.at(t, f"{t.label}: the text starts with a lowercase letter (“{quote(t.text, 0, len(first), 0)}”)",
                           f"start the sentence with a capital: '{first[:1].upper() + first[1:]}'")


def mixed_apostrophes(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        if "'" not in t.text or "’" not in t.text:
            continue
        straight = re.search(r"(?<=[^\W\d_])'(?=[^\W\d_])", t.text)
        curly = re.search(r"(?<=[^\W\d_])’(?=[^\W\d_])", t.text)
        if straight and curly:
            yield Issue.at(t, f"{t.label} mixes apostrophes ’ (“{quote(t.text, curly.start(), curly.end(), 10)}”) and ' "
                              f"(“{quote(t.text, straight.start(), straight.end(), 10)}”)",
                           "use one kind of apostrophe in a text (’ as the rules releases since 2018 do)")


CHECKS = (
    Check("typography.quotes", "quotation marks of another locale", Severity.WARNING, quotes, cost=17),
    Check("typography.quote-spacing", "French « » without no-break spaces inside", Severity.INFO, quote_spacing, cost=1),
    Check("typography.punctuation-spacing", "wrong spacing before punctuation for the locale", Severity.WARNING, punctuation_spacing, cost=20),
    Check("typography.nbsp", "an ordinary space where French wants a no-break one", Severity.INFO, nbsp, cost=1),
    Check("typography.range-dash", "a rule range written with a hyphen instead of an en dash", Severity.WARNING, range_dash, cost=4, needs=(REFS,)),
    Check("typography.double-space", "several spaces in a row", Severity.WARNING, double_space, cost=6),
    Check("typography.lowercase-start", "a text that starts with a lowercase letter", Severity.WARNING, lowercase_start, cost=8),
    Check("typography.mixed-apostrophes", "’ and ' mixed in one text", Severity.INFO, mixed_apostrophes, cost=3),
)
