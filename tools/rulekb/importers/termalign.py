"""Alignment of printed German/French card texts with the English (Oracle) text of the same card,
for the official-terms miner (`rulekb.importers.official`, ``rulekb official mine``), beside the
pipeline (it writes ``translations/official.yaml``, which the render stage reads).

Two alignments, both from the card files only:

- `keyword_lines`: a card's lines, English and printed, paired line by line (only texts of the
  same number of lines). A line that is a keyword (with a mana cost, a number or a dash cost after
  it, and a reminder text in parentheses or not) gives the printed name of the keyword and its
  printed reminder text; a line of keywords only ("Flying, vigilance") gives each name when the
  printed line has as many parts. A keyword with words after it ("Affinity for artifacts",
  "Enchant creature") gives only its printed phrase; the name is what the phrases of several
  parameters share (`shared_prefix`).
- `align_terms`: a game term of the English texts and the printed n-gram that goes with it on the
  same cards: the n-gram (1 to 4 words) with the highest Dice coefficient between the cards whose
  English uses the term and the cards whose printed text has the n-gram, kept only when it is
  found on most of the term's cards and the term on most of the n-gram's cards (`MIN_COVER`,
  `MIN_BACK`); nothing is guessed where the counts are weak.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

_REMINDER = re.compile(r"^(?P<head>.*?)\s*\((?P<reminder>[^()]+)\)\s*$")
_SYMBOLS = re.compile(r"^(?:\s*(?:\{[^{}]+\}|\d+|X))+\s*\.?$")
_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_BAD_NAME = re.compile(r"[{}()\d:;]|^\W|\s—|—\s")

MIN_CARDS = 8        # a term aligned on fewer cards (with it and the n-gram) is left out
MIN_COVER = 0.6      # the n-gram is on at least this share of the cards whose English uses the term …
MIN_BACK = 0.6       # … and the term in at least this share of the English of the n-gram's cards
MAX_WORDS = 5        # the longest printed n-gram considered
MIN_DICE = 0.7       # the least Dice coefficient of a term and its n-gram


@dataclass(frozen=True)
class KeywordLine:
    """One keyword line of a card: the English keyword (as MTGJSON names it), what follows it in
    English (a cost, a number, words, or ""), the printed name (None where words follow the
    keyword), the printed line without its reminder, and both reminder texts (or None)."""

    keyword: str
    parameter: str
    name: str | None
    phrase: str
    english_reminder: str | None
    reminder: str | None


def _split(line: str) -> tuple[str, str | None]:
    m = _REMINDER.match(line.strip())
    return (m.group("head").strip(), m.group("reminder").strip()) if m else (line.strip(), None)


def _starts_with(head: str, keyword: str) -> bool:
    h, k = head.casefold(), keyword.casefold()
    return h.startswith(k) and (len(h) == len(k) or h[len(k)] in " —{.")


def _good(name: str) -> str | None:
    name = name.strip().rstrip(".").strip()
    if not name or len(name) > 48 or _BAD_NAME.search(name):
        return None
    return name[0].upper() + name[1:]


def keyword_lines(english: str, printed: str, keywords: Iterable[str]) -> Iterator[KeywordLine]:
    """The keyword lines of one card (`keywords`: MTGJSON's keyword list of the card)."""
    en_lines, lines = english.split("\n"), printed.split("\n")
    if len(en_lines) != len(lines):
        return
    ordered = sorted(set(keywords), key=lambda k: (-len(k), k))
    lowered = {k.casefold(): k for k in ordered}
    for en, line in zip(en_lines, lines):
        head_en, rem_en = _split(en)
        head, rem = _split(line)
        if not head_en or not head:
            continue
        if rem_en is None or rem is None:   # a reminder text on one side only: the name still aligns
            rem_en = rem = None
        parts_en = head_en.split(", ")
        if rem is None and len(parts_en) > 1 and all(p.casefold() in lowered for p in parts_en):
            parts = head.split(", ")
            if len(parts) == len(parts_en):
                for p_en, p in zip(parts_en, parts):
                    name = _good(p)
                    if name:
                        yield KeywordLine(lowered[p_en.casefold()], "", name, p, None, None)
            continue
        keyword = next((k for k in ordered if _starts_with(head_en, k)), None)
        if keyword is None:
            continue
        parameter = head_en[len(keyword):].strip()
        name: str | None = None
        if not parameter or parameter == ".":
            name = _good(head)
        elif _SYMBOLS.match(parameter):
            bare = parameter.rstrip(".").replace(" ", "")
            squeezed = head.rstrip(".").replace(" ", "")
            if squeezed.endswith(bare):
                # cut the parameter off the printed line, whatever spaces it has there
                cut, seen = len(head.rstrip(".")), 0
                while seen < len(bare) and cut > 0:
                    cut -= 1
                    seen += head[cut] != " "
                name = _good(head[:cut])
            else:
                continue
        elif parameter.startswith("—"):
            if "—" not in head:
                continue
            name = _good(head.split("—", 1)[0])
        yield KeywordLine(keyword, parameter.rstrip("."), name, head, rem_en, rem)


def shared_prefix(phrases: Sequence[str]) -> str | None:
    """The words that all `phrases` begin with ("Affinität zu Artefakten", "Affinität zu
    Kleriker" -> "Affinität zu"), None when they share none."""
    split = [_until_parameter(p.rstrip(".").split()) for p in phrases]
    out: list[str] = []
    for words in zip(*split):
        if len(set(words)) != 1:
            break
        out.append(words[0])
    # a prefix that is a whole phrase leaves no room for the parameter
    if not out or any(len(s) == len(out) for s in split):
        return None
    return " ".join(out)


_CLAUSE = re.compile(r"[.,;:!?()\[\]\"„“”«»—•\n]+")


def _until_parameter(tokens: list[str]) -> list[str]:
    """The words of a phrase before a number, a cost or a dash (what follows is the parameter)."""
    for i, t in enumerate(tokens):
        if re.search(r"[\d{}—]", t):
            return tokens[:i] + ["…"]
    return tokens


def words(text: str) -> list[str]:
    """The words of a printed or English text, lowercased (numbers, symbols and punctuation left out)."""
    return [w.casefold().replace("’", "'") for w in _WORD.findall(re.sub(r"\{[^{}]*\}", " ", text))]


def ngrams(text: str, longest: int = MAX_WORDS) -> set[str]:
    """The n-grams of 1 to `longest` words of a printed text, each as its words joined by spaces;
    none runs over punctuation (a clause's end, a parenthesis, a quotation mark)."""
    out: set[str] = set()
    for clause in _CLAUSE.split(text):
        tokens = words(clause)
        out |= {" ".join(tokens[i:i + n]) for n in range(1, longest + 1) for i in range(len(tokens) - n + 1)}
    return out


def uses(term_words: tuple[str, ...], tokens: Sequence[str]) -> bool:
    """Whether the English `tokens` use the term (its last word also with a plural -s)."""
    n = len(term_words)
    last = term_words[-1]
    for i in range(len(tokens) - n + 1):
        if tuple(tokens[i:i + n - 1]) == term_words[:-1] and tokens[i + n - 1] in (last, last + "s", last + "es"):
            return True
    return False


@dataclass(frozen=True)
class Alignment:
    """A printed n-gram aligned with an English term: the n-gram (lowercased words), on how many
    of the term's cards (`both`), of how many cards with the term and with the n-gram."""

    ngram: str
    both: int
    with_term: int
    with_ngram: int

    @property
    def dice(self) -> float:
        return 2 * self.both / (self.with_term + self.with_ngram)


def align_terms(cards: Sequence[int], grams: Sequence[frozenset[str]], longest: int,
                avoid: frozenset[str] = frozenset(), taken: frozenset[str] = frozenset()) -> Alignment | None:
    """The printed n-gram of an English term used on the texts `cards` (indexes into `grams`,
    the printed n-grams of every text of the same years), or None when none is reliable: on
    fewer than `MIN_CARDS` texts, on less than `MIN_COVER` of the term's texts, with the term on
    less than `MIN_BACK` of its own texts, or a Dice coefficient under `MIN_DICE`. N-grams of more
    than `longest` words, beginning or ending with a function word (`avoid`) or containing a
    keyword's official name (`taken`: another concept's name) are never a term."""
    if len(cards) < MIN_CARDS:
        return None
    counts: Counter = Counter()
    for i in cards:
        counts.update(g for g in grams[i] if g.count(" ") < longest)
    floor = max(MIN_CARDS, MIN_COVER * len(cards))
    candidates = {g for g, n in counts.items() if n >= floor and not _function_words(g, avoid)
                  and not any(f" {t} " in f" {g} " for t in taken)}
    if not candidates:
        return None
    frequency: Counter = Counter()
    for g in grams:
        frequency.update(candidates & g)
    best: Alignment | None = None
    for gram in sorted(candidates):
        found = Alignment(gram, counts[gram], len(cards), frequency[gram])
        if found.both < MIN_BACK * found.with_ngram or found.dice < MIN_DICE:
            continue
        if best is None or (found.dice, gram.count(" ")) > (best.dice, best.ngram.count(" ")):
            best = found
    return best


def _function_words(gram: str, avoid: frozenset[str]) -> bool:
    """An n-gram that begins or ends with a function word (or is one) is not a term."""
    parts = gram.split(" ")
    return parts[0] in avoid or parts[-1] in avoid
