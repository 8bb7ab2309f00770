"""Check family `typography` (stage: check): the typographic conventions of each locale.

- `typography.quotes`: quotation marks of another locale (English “…” or "…", German „…“,
  French « … »), e.g. German „…“ inside an English text;
- `typography.quote-spacing` (French): « and » without a no-break space inside;
- `typography.punctuation-spacing`: French needs a space before ; : ! ? (English and German none);
  `typography.nbsp` (French): that space should be a no-break one, so that a line never starts
  with the mark;
- `typography.range-dash`: a range of rules with a hyphen ("601.2e-g") instead of an en dash;
- `typography.double-space`, `typography.lowercase-start`, `typography.mixed-apostrophes`.

Typography is style: every finding is informational (it changes nothing of what a reader
understands). The locale rules live in `LOCALE`: adding a language is one entry there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ..models import M_, Message, Severity, UnitKind
from .base import quote
from .text import Data, Flag, Text, TextCheck, flag

NBSP = "\u00a0\u202f"


@dataclass(frozen=True)
class Locale:
    quotes: str | Message     # how quotations are written, for messages
    wrong: str                # quotation marks that do not belong to the locale
    pairs: tuple[tuple[str, str], ...]  # opening and closing marks, checked for their order
    space_before: bool        # a (no-break) space before ; : ! ? (French)
    nested: str = ""          # marks allowed inside the locale's own quotation (French “…” inside « … »)


LOCALE: dict[str, Locale] = {
    "en": Locale('“…” or "…"', "„«»", (("“", "”"),), False),
    "de": Locale("„…“", '"”«»', (("„", "“"),), False),
    "fr": Locale(M_("« … » (with no-break spaces inside)"), '"„“”', (("«", "»"),), True, nested="“”"),
}
_DEFAULT = Locale('"…"', "", (), False)

_DOUBLE_SPACE = re.compile(r"(?<=\S) {2,}(?=\S)")
_HIGH_PUNCT = re.compile(r"(\s?)([;:!?])")
_SPACE_BEFORE_LOW = re.compile(r"(?<=[^\W\d_]) +([,.])(?![\d ]\.|\d)")   # not an ellipsis ". . ."
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


def quotes(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    loc = _locale(t.lang)
    bad = _wrong_quotes(t.text, loc)
    if not bad:
        return
    marks = "".join(sorted({t.text[p] for p in bad}))
    end = bad[1] + 1 if len(bad) > 1 and bad[1] - bad[0] < 60 else bad[0] + 1
    yield flag(M_("{label}: the quotation marks {marks} do not belong in a text in {lang} (“{context}”)",
                         label=t.label, marks=" ".join(marks), lang=data.lang(t.lang),
                         context=quote(t.text, bad[0], end, 15)),
                   M_("write the quotation marks of {lang}: {quotes}", lang=data.lang(t.lang), quotes=loc.quotes),
                   span=(bad[0], end))


def quote_spacing(t: Text, data: Data) -> Iterator[Flag]:
    if t.index or not _locale(t.lang).space_before:
        return
    loc = _locale(t.lang)
    for open_, close in loc.pairs:
        bad = [i for i, ch in enumerate(t.text) if
               (ch == open_ and (i + 1 >= len(t.text) or t.text[i + 1] not in NBSP)) or
               (ch == close and (i == 0 or t.text[i - 1] not in NBSP))]
        if bad:
            yield flag(M_("{label}: {open} and {close} need a no-break space inside (“{context}”)",
                                 label=t.label, open=open_, close=close,
                                 context=quote(t.text, bad[0], bad[0] + 1, 15)),
                           M_("write {open}\u00a0…\u00a0{close} with no-break spaces (U+00A0)", open=open_,
                              close=close), span=(bad[0], bad[0] + 1))


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


def punctuation_spacing(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    loc = _locale(t.lang)
    for pos, prev in _high_punct(t):
        mark = t.text[pos]
        if loc.space_before and prev and not prev.isspace() and prev not in NBSP:
            yield flag(M_("{label}: no space before '{mark}' (“{context}”)", label=t.label, mark=mark,
                                 context=quote(t.text, pos, pos + 1, 15)),
                           M_("{lang} puts a no-break space before {mark}: write '\u00a0{mark}'",
                              lang=data.lang(t.lang), mark=mark), span=(pos, pos + 1))
            break
        if not loc.space_before and prev and (prev.isspace() or prev in NBSP):
            yield flag(M_("{label}: a space before '{mark}' (“{context}”)", label=t.label, mark=mark,
                                 context=quote(t.text, pos, pos + 1, 15)),
                           M_("{lang} puts no space before {mark}: remove it", lang=data.lang(t.lang), mark=mark),
                           span=(pos, pos + 1))
            break
    else:
        m = _SPACE_BEFORE_LOW.search(t.text) if " ," in t.text or " ." in t.text else None
        if m:
            yield flag(M_("{label}: a space before '{mark}' (“{context}”)", label=t.label,
                                 mark=m.group(1), context=quote(t.text, m.start(), m.end(), 15)),
                           M_("remove the space before the comma or full stop"), span=(m.start(), m.end()))


def nbsp(t: Text, data: Data) -> Iterator[Flag]:
    if t.index or not _locale(t.lang).space_before:
        return
    found = [(pos, prev) for pos, prev in _high_punct(t) if prev == " "]
    if found:
        marks = " ".join(sorted({t.text[p] for p, _ in found}))
        pos = found[0][0]
        yield flag(M_("{label}: an ordinary space before {marks} (“{context}”): a line may break before "
                             "the mark", label=t.label, marks=marks, context=quote(t.text, pos, pos + 1, 15)),
                       M_("use a no-break space (U+00A0, or U+202F before ; ! ?) before the mark"),
                       span=(pos - 1, pos + 1))


def range_dash(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    for ref in data.refs(t.text):
        if len(ref.numbers) > 1 and "-" in ref.text:
            fixed = re.sub(r"\s*-\s*", "–", ref.text)
            yield flag(M_("{label}: the range “{range}” is written with a hyphen (“{context}”)",
                                 label=t.label, range=ref.text, context=quote(t.text, ref.start, ref.end, 25)),
                           M_("write “{fixed}” with an en dash (U+2013)", fixed=fixed), span=(ref.start, ref.end))
            break


def double_space(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    m = _DOUBLE_SPACE.search(t.text) if "  " in t.text else None
    if m:
        yield flag(M_("{label}: {n} spaces in a row (“{context}”)", label=t.label, n=len(m.group()),
                             context=quote(t.text, m.start(), m.end(), 15)),
                       M_("write one space"), span=(m.start(), m.end()))


def lowercase_start(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    if t.kind is UnitKind.TITLE:
        return
    stripped = t.text.lstrip("„“\"«( \u00a0")
    if stripped[:1].islower():
        first = stripped.split(" ", 1)[0]
        start = len(t.text) - len(stripped)
        yield flag(M_("{label}: the text starts with a lowercase letter (“{context}”)", label=t.label,
                             context=quote(t.text, 0, len(first), 0)),
                       M_("start the sentence with a capital: '{word}'", word=first[:1].upper() + first[1:]),
                       span=(start, start + len(first)))


def mixed_apostrophes(t: Text, data: Data) -> Iterator[Flag]:
    if t.index:
        return
    if "'" not in t.text or "’" not in t.text:
        return
    straight = re.search(r"(?<=[^\W\d_])'(?=[^\W\d_])", t.text)
    curly = re.search(r"(?<=[^\W\d_])’(?=[^\W\d_])", t.text)
    if straight and curly:
        yield flag(M_("{label} mixes apostrophes ’ (“{curly}”) and ' (“{straight}”)", label=t.label,
                             curly=quote(t.text, curly.start(), curly.end(), 10),
                             straight=quote(t.text, straight.start(), straight.end(), 10)),
                       M_("use one kind of apostrophe in a text (’ as the rules releases since 2018 do)"))


CHECKS = (
    TextCheck("typography.quotes", "quotation marks of another locale", Severity.INFO, quotes),
    TextCheck("typography.quote-spacing", "French « » without no-break spaces inside", Severity.INFO, quote_spacing),
    TextCheck("typography.punctuation-spacing", "wrong spacing before punctuation for the locale", Severity.INFO, punctuation_spacing),
    TextCheck("typography.nbsp", "an ordinary space where French wants a no-break one", Severity.INFO, nbsp),
    TextCheck("typography.range-dash", "a rule range written with a hyphen instead of an en dash", Severity.INFO, range_dash),
    TextCheck("typography.double-space", "several spaces in a row", Severity.INFO, double_space),
    TextCheck("typography.lowercase-start", "a text that starts with a lowercase letter", Severity.INFO, lowercase_start),
    TextCheck("typography.mixed-apostrophes", "’ and ' mixed in one text", Severity.INFO, mixed_apostrophes),
)
