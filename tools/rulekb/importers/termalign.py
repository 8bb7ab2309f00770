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
  `MIN_BACK`); nothing is guessed where the counts are weak. The n-gram must be the whole printed
  phrase of the term (`Lexicon.whole_phrase`): not a part of a longer one, not a compound that
  also prints a neighbouring English word ("Endsegments" is "end step", not "step"), not the stem
  of a separable verb whose particle ends the clause ("fügt … zu" for "deal"); an English term of
  function words only ("instead": "à la place") is no game term (`function_term`).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Sequence

_REMINDER = re.compile(r"^(?P<head>.*?)\s*\((?P<reminder>[^()]+)\)\s*$")
_SYMBOLS = re.compile(r"^(?:\s*(?:\{[^{}]+\}|\d+|X))+\s*\.?$")
_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_COST = re.compile(r"^(?:\{[^{}]+\}|[,\s])+\s*:\s*")
_NUMERAL = re.compile(r"^(?:[ivx]+|\w)$")   # a chapter number (I, II, IV) or a single letter
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
        cost_en, cost = _COST.match(head_en), _COST.match(head)
        if cost_en and cost:   # an activated ability whose effect is the keyword ("{3}{G}: Monstrosity 3.")
            head_en, head = head_en[cost_en.end():], head[cost.end():]
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
# where a clause ends (a quotation or a parenthesis goes on within it: "ein Emblem mit „…“")
_SENTENCE = re.compile(r"[.,;:!?—•\n]+")


def _until_parameter(tokens: list[str]) -> list[str]:
    """The words of a phrase before a number, a cost or a dash (what follows is the parameter)."""
    for i, t in enumerate(tokens):
        if re.search(r"[\d{}—]", t):
            return tokens[:i] + ["…"]
    return tokens


def words(text: str) -> list[str]:
    """The words of a printed or English text, lowercased (numbers, symbols and punctuation left
    out); an elided article or pronoun is a word of its own ("l'Oracle": "l'", "oracle")."""
    out = []
    for w in _WORD.findall(re.sub(r"\{[^{}]*\}", " ", text)):
        w = w.casefold().replace("’", "'")
        head, apostrophe, rest = w.partition("'")
        if apostrophe and rest and len(head) <= 2:
            out += [head + "'", rest]
        else:
            out.append(w)
    return out


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
                avoid: frozenset[str] = frozenset(), taken: frozenset[str] = frozenset(),
                accept: Callable[[Alignment], bool] | None = None) -> Alignment | None:
    """The printed n-gram of an English term used on the texts `cards` (indexes into `grams`,
    the printed n-grams of every text of the same years), or None when none is reliable: on
    fewer than `MIN_CARDS` texts, on less than `MIN_COVER` of the term's texts, with the term on
    less than `MIN_BACK` of its own texts, or a Dice coefficient under `MIN_DICE`. N-grams of more
    than `longest` words, beginning or ending with a function word (`avoid`) or containing a
    keyword's official name (`taken`: another concept's name) are never a term (a part of one may be: "cimetière"
    of "Déluge de cimetière" is "graveyard"). With `accept`,
    the best n-gram it accepts (`Lexicon.whole_phrase`: a whole phrase of the term)."""
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
    ranked = []
    for gram in sorted(candidates):
        found = Alignment(gram, counts[gram], len(cards), frequency[gram])
        if found.both < MIN_BACK * found.with_ngram or found.dice < MIN_DICE:
            continue
        ranked.append(found)
    ranked.sort(key=lambda a: (-a.dice, -a.ngram.count(" "), a.ngram))
    return next((a for a in ranked if accept is None or accept(a)), None)


def _function_words(gram: str, avoid: frozenset[str]) -> bool:
    """An n-gram that begins or ends with a function word (or is one) is not a term."""
    parts = gram.split(" ")
    return parts[0] in avoid or parts[-1] in avoid


# ------------------------------------------------------------------ whole phrases

# English words that are no game term's part (`Lexicon.whole_phrase` leaves them out of the context):
# articles, pronouns, prepositions, conjunctions, auxiliaries and the adverbs that join clauses
ENGLISH_FUNCTION_WORDS = frozenset("""a an the of to in on at by for with from as and or but if this that these
    those it its you your their they them each any all is are be been was were has have had can may than then
    into onto one instead though although also only again not no so such there where when while unless""".split())

COMPOUND_DICE = 0.9   # a printed word on (nearly) just the texts of a term
NEGATIONS = frozenset({"n'", "ne"})   # part of the phrase it stands before, though a function word
CONTEXT_SHARE = 0.3   # a word on this share of a term's texts is of its context
WHOLE_SHARE = 0.9     # a word next to the n-gram on this share of its texts belongs to the phrase
SEPARATED_SHARE = 0.75  # a verb particle ending the n-gram's clause on this share of its texts: a separable verb
OUTSIDE_MIN = 3       # a term's texts without the longer phrase, at least (else nothing tells them apart) …
OUTSIDE_SHARE = 0.15  # … and at least this share of its texts
OUTSIDE_COVER = 0.3   # the n-gram (or a form of it) printed on less than this share of them: the phrase's


def function_term(term: Sequence[str]) -> bool:
    """Whether an English term is made of function words only ("instead", "as though"): it joins
    clauses and names nothing, and the printed words aligned with it are a locution's content
    word ("place" of "à la place"), not a term."""
    return all(w in ENGLISH_FUNCTION_WORDS for w in term)


def _contains(word: str, part: str) -> bool:
    """Whether a printed word is `part` or holds it: inflected ("Kreaturen", "Kreatur"), or a
    compound of it ("Manabetrag", "Mana")."""
    if word == part:
        return True
    if len(part) >= 4 and part in word:
        return True
    common = len(_common_prefix(word, part))
    return common >= 4 and common >= min(len(word), len(part)) - 2


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


@dataclass(frozen=True)
class Lexicon:
    """The words of one language's texts (in the order of their first printing): per text its
    English words and its printed words, and per word the texts that have it, for the Dice
    coefficient of an English and a printed word on a span of the texts."""

    english: tuple[frozenset[str], ...]
    printed: tuple[frozenset[str], ...]
    grams: tuple[frozenset[str], ...]
    en_index: Mapping[str, tuple[int, ...]]
    pr_index: Mapping[str, tuple[int, ...]]
    sequences: tuple[tuple[str, ...], ...] = ()            # per text its English words in order
    clauses: tuple[tuple[tuple[str, ...], ...], ...] = ()  # per text its printed clauses' words
    _dice: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, english: Sequence[Sequence[str]], printed: Sequence[str]) -> "Lexicon":
        """The lexicon of texts given by their English words and their printed texts."""
        grams = tuple(frozenset(ngrams(text)) for text in printed)
        en = tuple(frozenset(t) for t in english)
        # a word joined by hyphens counts as its parts too ("Megamorph-Kosten": "kosten")
        pr = tuple(frozenset(w for g in gs if " " not in g for w in (g, *(g.split("-") if "-" in g else ())) if w)
                   for gs in grams)
        clauses = tuple(tuple(tuple(found) for clause in _SENTENCE.split(text) if (found := words(clause)))
                        for text in printed)
        return cls(en, pr, grams, _index(en), _index(pr), tuple(tuple(t) for t in english), clauses)

    def texts_with(self, word: str) -> tuple[int, ...]:
        return self.en_index.get(word, ())

    def dice(self, english: str, printed: str, start: int, end: int) -> float:
        """The Dice coefficient of an English and a printed word on the texts `start` to `end`."""
        key = (english, printed, start, end)
        found = self._dice.get(key)
        if found is None:
            a = _span(self.en_index.get(english, ()), start, end)
            b = _span(self.pr_index.get(printed, ()), start, end)
            small, large = (a, self.printed) if len(a) <= len(b) else (b, self.english)
            word = printed if small is a else english
            both = sum(1 for i in small if word in large[i])
            found = self._dice[key] = 2 * both / (len(a) + len(b)) if a or b else 0.0
        return found

    def term_dice(self, cards: Sequence[int], printed: str, start: int, end: int) -> float:
        """The Dice coefficient of a term (its texts `cards`, from `start` to `end`) and a printed word."""
        b = _span(self.pr_index.get(printed, ()), start, end)
        both = sum(1 for i in cards if printed in self.printed[i])
        return 2 * both / (len(cards) + len(b)) if cards or b else 0.0

    def _compound(self, content: Sequence[str], term: Sequence[str], cards: Sequence[int], start: int, end: int) -> bool:
        """Whether the printed n-gram is one word that joins the words of a term of several
        ("Ziehsegment": "draw step", "Kampfphase": "combat phase"): longer than each of them, and
        printed on (nearly) just the term's texts. Such a word need not hold the word each English
        word goes with best elsewhere ("Karte" for "draw")."""
        words_ = [w for w in term if w not in ENGLISH_FUNCTION_WORDS]
        return (len(content) == 1 and len(words_) > 1 and len(content[0]) > max(len(w) for w in words_)
                and self.term_dice(cards, content[0], start, end) >= COMPOUND_DICE)

    def whole_phrase(self, gram: str, term: Sequence[str], cards: Sequence[int], start: int, end: int,
                     avoid: frozenset[str], particles: frozenset[str] = frozenset()) -> bool:
        """Whether the printed n-gram is a whole phrase the cards print for the English term
        (words `term`), judged on the term's texts `cards` (indexes from `start` to `end`) by
        the Dice coefficient of single words on the texts from `start` to `end`:
        - each of its words (but function words) goes with a word of the term better than with
          any other word of the term's texts (else it translates that other word: "lancer" in
          "supplémentaire pour lancer ce sort" is "cast");
        - each word of the term is printed in it: the printed word that goes best with it is
          one of its words or part of one ("Mana" of "Manabetrag"); else it is part of the
          phrase only ("valeur" for "mana value");
        - no printed word of the texts that goes best with another word of the English is part
          of it ("Karte" in "Standardland-Karte" for "basic land");
        - no word on nearly all of its texts stands next to it, nor a word of the term after a
          function word (else it is cut from a longer one: "arrive sur le champ");
        - it does not print a longer English phrase rather than the term: where the term stands in
          one phrase on nearly all of the n-gram's texts ("end step") and the term's other texts do
          not print it, the n-gram is that phrase's ("Endsegments"), not the term's (`_phrase_only`);
        - its clause does not end with one verb particle (`particles`) on most of its texts: that
          is a separable verb's, the n-gram its stem ("fügt" of "fügt … Schaden zu", `_separated`).
        """
        share = CONTEXT_SHARE * len(cards)
        en_counts = Counter(w for i in cards for w in self.english[i])
        context_en = {w for w, n in en_counts.items() if n >= share and w not in ENGLISH_FUNCTION_WORDS}
        last = term[-1]
        term_en = {w for w in term if w not in ENGLISH_FUNCTION_WORDS} | (
            {last + "s", last + "es"} & set(en_counts))
        term_en = {w for w in term_en if w in en_counts}
        if not term_en:
            return False
        # (a chapter number or a letter an apostrophe left is printed as it is: no word to compare)
        others = {w for w in context_en - term_en if not _NUMERAL.match(w)}
        pr_counts = Counter(w for i in cards for w in self.printed[i])
        context_pr = sorted(w for w, n in pr_counts.items() if n >= share and w not in avoid)
        content = [w for w in gram.split(" ") if w not in avoid]
        if not content or not context_pr:
            return False
        for w in content:
            # with the term as a whole ("Ziehsegment": "draw step") or with one of its words
            mine = max(self.term_dice(cards, w, start, end), *(self.dice(e, w, start, end) for e in term_en))
            if any(self.dice(e, w, start, end) >= mine for e in others):
                return False

        def best(e: str) -> str:
            return max(context_pr, key=lambda w: (self.dice(e, w, start, end), w))

        compound = self._compound(content, term, cards, start, end)
        for e in {w for w in term if w not in ENGLISH_FUNCTION_WORDS}:
            forms = [f for f in (e, e + "s", e + "es") if f in term_en]
            if forms and not compound and not any(_contains(w, best(f)) for f in forms for w in content):
                return False
        for e in sorted(others):
            b = best(e)
            if any(_contains(w, b) for w in content) and \
                    self.dice(e, b, start, end) > max(self.dice(t, b, start, end) for t in term_en):
                return False
        def fits(word: str) -> bool:   # a printed word that goes with the term better than with the rest
            mine = max(self.dice(e, word, start, end) for e in term_en)
            return all(self.dice(e, word, start, end) < mine for e in others)

        if self._extended(gram, cards, avoid, fits):
            return False
        return not self._separated(gram, cards, particles) and not self._phrase_only(gram, term, cards, avoid)

    def _separated(self, gram: str, cards: Sequence[int], particles: frozenset[str]) -> bool:
        """Whether the clauses that print the n-gram end with one verb particle (`particles`, not a
        word of the n-gram) on most of the term's texts that print it (`SEPARATED_SHARE`): the
        n-gram is then the stem of a separable verb ("fügt" of "fügt einem Ziel 1 Schadenspunkt zu")."""
        if not self.clauses or not particles:
            return False
        parts = tuple(gram.split(" "))
        n = len(parts)
        ends: Counter = Counter()
        texts = 0
        for i in cards:
            found = set()
            for clause in self.clauses[i]:
                at = [k for k in range(len(clause) - n + 1) if clause[k:k + n] == parts]
                if at:
                    found.add(clause[-1] if at[-1] + n < len(clause) else "")
            if found:
                texts += 1
                ends.update(found)
        return any(word in particles and word not in parts and count >= SEPARATED_SHARE * texts
                   for word, count in ends.items())

    def _phrase_only(self, gram: str, term: Sequence[str], cards: Sequence[int], avoid: frozenset[str]) -> bool:
        """Whether the n-gram prints a longer English phrase, not the term: the term stands in one
        phrase (a word before or after it, or one past a function word) on nearly all of its texts
        that print the n-gram, and its other texts (`OUTSIDE_MIN` at least) seldom print the n-gram
        or a form of it (under `OUTSIDE_COVER`): "Endsegments" is printed where the English says
        "end step", and where it says "upkeep step" or "draw step", another compound is."""
        if not self.sequences:
            return False
        with_gram = [i for i in cards if gram in self.grams[i]]
        if not with_gram:
            return False
        term = tuple(term)
        counts: Counter = Counter()
        for i in with_gram:
            counts.update(_neighbour_phrases(term, self.sequences[i]))
        content = [w for w in gram.split(" ") if w not in avoid]
        for phrase, count in counts.items():
            if count < WHOLE_SHARE * len(with_gram):
                continue
            using = self._using(term)
            outside = [i for i in using if not _says(phrase, self.sequences[i])]
            if len(outside) < max(OUTSIDE_MIN, OUTSIDE_SHARE * len(using)):
                continue
            printed = sum(1 for i in outside if gram in self.grams[i]
                          or all(any(_contains(w, part) for w in self.printed[i]) for part in content))
            if printed < OUTSIDE_COVER * len(outside):
                return True
        return False

    def _using(self, term: tuple[str, ...]) -> tuple[int, ...]:
        """Every text (of all years) whose English uses the term."""
        key = ("using", term)
        found = self._dice.get(key)
        if found is None:
            maybe = sorted({i for f in _forms(term[-1]) for i in self.en_index.get(f, ())})
            found = self._dice[key] = tuple(i for i in maybe if uses(term, self.sequences[i]))
        return found

    def _extended(self, gram: str, cards: Sequence[int], avoid: frozenset[str], fits: Callable[[str], bool]) -> bool:
        """Whether a word (not a function word) stands right before or after the n-gram on nearly
        all of the term's texts that print it, or a word that goes with the term after a
        function word ("arrive sur le champ" + "de bataille" for "enters the battlefield")."""
        with_gram = [i for i in cards if gram in self.grams[i]]
        if not with_gram:
            return True
        parts = gram.split(" ")
        first, last = parts[0], parts[-1]
        counts: Counter = Counter()
        for i in with_gram:
            found = set()
            for h in self.grams[i]:
                if h.startswith(gram + " ") and h.count(" ") == len(parts) and h.rsplit(" ", 1)[1] not in avoid:
                    found.add((h, ""))   # a word right after it
                elif h.endswith(" " + gram) and h.count(" ") == len(parts) and (
                        h.split(" ", 1)[0] not in avoid or h.split(" ", 1)[0] in NEGATIONS):
                    found.add((h, ""))   # a word right before it, or a negation ("n'importe quelle cible")
                elif h.count(" ") == 2:   # a function word and a word of the term: "champ" + "de bataille"
                    a, b, c = h.split(" ")
                    if a == last and b in avoid and c not in avoid:
                        found.add((h, c))
                    elif c == first and b in avoid and a not in avoid:
                        found.add((h, a))
            counts.update(found)
        return any(c >= WHOLE_SHARE * len(with_gram) and (not word or fits(word)) for (h, word), c in counts.items())


def _forms(word: str) -> tuple[str, ...]:
    return (word, word + "s", word + "es")


def _occurrences(term: tuple[str, ...], tokens: Sequence[str]) -> Iterator[int]:
    """Where the English `tokens` use the term (its last word also with a plural -s)."""
    n = len(term)
    for i in range(len(tokens) - n + 1):
        if tuple(tokens[i:i + n - 1]) == term[:-1] and tokens[i + n - 1] in _forms(term[-1]):
            yield i


def _neighbour_phrases(term: tuple[str, ...], tokens: Sequence[str]) -> set[tuple[str, ...]]:
    """The longer phrases the term stands in in one English text: with the word before or after
    it, or with a word and the function word between ("enters the battlefield")."""
    out: set[tuple[str, ...]] = set()
    n = len(term)
    for i in _occurrences(term, tokens):
        before = tuple(tokens[max(0, i - 2):i])
        after = tuple(tokens[i + n:i + n + 2])
        if before and before[-1] not in ENGLISH_FUNCTION_WORDS:
            out.add(before[-1:] + term)
        elif len(before) == 2 and before[0] not in ENGLISH_FUNCTION_WORDS:
            out.add(before + term)
        if after and after[0] not in ENGLISH_FUNCTION_WORDS:
            out.add(term + after[:1])
        elif len(after) == 2 and after[1] not in ENGLISH_FUNCTION_WORDS:
            out.add(term + after)
    return out


def _says(phrase: tuple[str, ...], tokens: Sequence[str]) -> bool:
    """Whether English `tokens` hold a phrase (each of its words also with a plural -s)."""
    n = len(phrase)
    return any(all(t in _forms(w) for t, w in zip(tokens[i:i + n], phrase)) for i in range(len(tokens) - n + 1))


def _index(sets: Sequence[frozenset[str]]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for i, words_ in enumerate(sets):
        for w in words_:
            out.setdefault(w, []).append(i)
    return {w: tuple(ix) for w, ix in out.items()}


def _span(indexes: tuple[int, ...], start: int, end: int) -> tuple[int, ...]:
    return indexes[bisect.bisect_left(indexes, start):bisect.bisect_left(indexes, end)]
