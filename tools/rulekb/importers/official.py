"""The official-terms miner (``rulekb official mine``), beside the pipeline (load -> validate ->
link -> check -> render -> report): it reads MTGJSON set files and the knowledge base's keyword
rules and glossary, and writes ``translations/official.yaml``, which the render stage reads
(`rulekb.official`).

    set files -> every printing with a German/French text (`Printed`) ->
      keywords: the keyword lines of each printing (`termalign.keyword_lines`) -> per 701.x/702.x
        rule and language: the name of the newest printings, older names as history, the reminder
        text of the newest printing and the earlier wordings with their dates
      terms: each glossary/termbase term of the English texts aligned with the printed n-gram of the
        same cards (`termalign.align_terms`), on the texts first printed in the newest
        `CURRENT_YEARS` years; before that, the term printed then as history ("bis 2021: …")
    -> `official_yaml` (sorted; the same files give the same bytes) -> write_checked (read back, then renamed)

Every name, reminder text and term is quoted with its source: the card, the set and the date of
the printing it was read from. Nothing is typed in: what the cards do not print is not in the file.
"""

from __future__ import annotations

import bisect
import json
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..diagnostics import DataError, Problem
from ..files import write_checked
from ..models import SOURCE_LANGUAGE, KnowledgeBase
from ..official import (OFFICIAL_FILE, CardRef, Keyword, KeywordName, Official, OldTerm, Reminder, Term, TermName,
                        official_from)
from ..phraseology import project_languages
from .mtgjson import read_sets, set_files
from .termalign import (MIN_CARDS, Alignment, KeywordLine, Lexicon, align_terms, function_term, keyword_lines,
                        shared_prefix, uses, words)

CURRENT_YEARS = 4       # a term is today's when the texts first printed in the newest 4 years print it
NAME_YEARS = 3          # a keyword's name: the most printed among its printings of its newest 3 years
HISTORY_SHARE = 0.1    # an older name is history when on this share of the named printings (else a misalignment)
MAX_WORDINGS = 6        # earlier reminder wordings kept per keyword and language

# Words that begin or end no game term (articles, prepositions, pronouns, conjunctions, auxiliaries):
# an n-gram beginning or ending with one is not aligned with a term.
FUNCTION_WORDS = {
    "de": frozenset("""der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner
        und oder aber als wie wenn falls bis zu zum zur von vom aus auf in an am mit für bei über unter
        vor nach um durch gegen ohne du dich dir dein deine deinen deinem deiner deines er sie es ihn ihm ihr ihre
        ihren ihrem ihrer ihres sein seine seinen seinem seiner seines jede jeder jedes jeden jedem dieser diese
        dieses diesen diesem so viele viel ist sind wird werden wurde hat haben kann kannst nicht noch auch dann
        stattdessen zusätzlich deiner wahl eines anderen andere anderen anderer anderes alle allen mehr weniger
        oder darauf dazu davon dafür daraus man sich""".split()),
    "fr": frozenset("""le la les l' un une des du de d' au aux et ou mais que qu' qui quand si à en dans sur sous
        par pour avec sans vers chez vous votre vos il elle ils elles lui leur leurs son sa ses ce cet cette ces
        chaque tout toute tous toutes est sont a ont peut pouvez ne pas plus moins autre autres ciblé ciblée
        ciblés ciblées y se s' n' c' lorsque puis ainsi tant""".split()),
}


# The particles of separable verbs, which end the clause of their stem ("fügt … Schaden zu"): an
# n-gram whose clause ends with one on most of its texts is the stem, not a term (`Lexicon.whole_phrase`).
VERB_PARTICLES = {
    "de": frozenset("""ab an auf aus bei dar dazu durch ein empor entgegen fest fort frei her heraus herbei herein
        hin hinaus hinein hinzu hoch los mit nach nieder um vor voran voraus vorbei weg weiter wieder zu zurück
        zusammen""".split()),
}

_WORDS_AFTER = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class Printed:
    """One printing of a card in one language: where (set, collector number, release date), its
    names and texts, and MTGJSON's keyword list of the card."""

    lang: str
    set_code: str
    number: str
    date: str
    name: str            # the printed name
    english_name: str
    english: str         # the English (Oracle) text
    text: str            # the printed text
    keywords: tuple[str, ...]

    def ref(self) -> CardRef:
        return CardRef(self.name, self.english_name, self.set_code, self.number, self.date)

    @property
    def order(self) -> tuple[str, str, str]:
        return (self.date, self.set_code, self.number)


@dataclass(frozen=True)
class MineReport:
    path: Path
    written: bool
    official: Official
    sets: int
    skipped: tuple[str, ...]
    seconds: float

    def lines(self) -> list[str]:
        out = [f"{OFFICIAL_FILE}: " + ("written" if self.written else "unchanged")
               + f" ({self.sets} set files, {self.seconds:.1f} s)"]
        for lang in self.official.languages:
            names = sum(1 for k in self.official.keywords if k.name(lang))
            reminders = sum(1 for k in self.official.keywords if k.name(lang) and k.name(lang).reminder)
            terms = sum(1 for t in self.official.terms if t.name(lang))
            out.append(f"  {lang}: {names} keyword names ({reminders} with reminder text), {terms} game terms")
        out += [f"  left out: {s}" for s in self.skipped]
        return out


# ------------------------------------------------------------------ reading the set files


def printings(paths: list[Path], languages: dict[str, str]) -> tuple[list[Printed], int, tuple[str, ...]]:
    """Every printing with a printed text in one of `languages` (English name -> code) and an
    English text, of the set files `paths`: (printings, set files read, what was left out)."""
    files = set_files(paths)
    out: list[Printed] = []
    skipped: list[str] = []
    problems: list[Problem] = []
    for file, found in read_sets(files, languages, problems):
        if not found.release:
            skipped.append(f"{file.name}: no release date")
            continue
        for card in found.cards:
            if not card.english:
                continue
            for lang, name, text in card.foreign:
                if text:
                    out.append(Printed(lang, card.set_code, card.number, found.release, name, card.name,
                                       card.english, text, tuple(sorted(card.keywords))))
    if problems:
        raise DataError(problems)
    out.sort(key=lambda p: (p.lang, p.order))
    return out, len(files), tuple(skipped)


# ------------------------------------------------------------------ keywords


def keyword_rules(kb: KnowledgeBase) -> dict[str, tuple[str, str]]:
    """The keyword rules of the knowledge base's rules: English title (casefolded) -> (number, title),
    keyword abilities (702.x) and keyword actions (701.x) of the current numbering."""
    out: dict[str, tuple[str, str]] = {}
    for rule in sorted(kb.rules, key=lambda r: r.number):
        if re.fullmatch(r"70[12]\.\d+", rule.number) and rule.title:
            title = rule.title.text(SOURCE_LANGUAGE)
            if title is not None and title.text.strip():
                out.setdefault(title.text.strip().casefold(), (rule.number, title.text.strip()))
    return out


def _years_before(date: str, years: int) -> str:
    return f"{int(date[:4]) - years:04d}{date[4:]}"


def _keyword_name(lang: str, found: list[tuple[Printed, KeywordLine]], action: bool) -> KeywordName | None:
    named = [(p, k.name) for p, k in found if k.name]
    history: list[OldTerm] = []
    if named:
        newest = max(p.date for p, _n in named)
        window = _years_before(newest, NAME_YEARS)
        votes = Counter(n for p, n in named if p.date >= window)
        name, _count = min(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        source = max((p for p, n in named if n == name), key=lambda p: p.order)
        first = min(p.date for p, n in named if n == name)
        counts = Counter(n for _p, n in named)
        for other in sorted(counts):
            # an earlier name: printed at least twice, and last before today's first printing
            last = max(p.date for p, n in named if n == other)
            if other != name and counts[other] >= max(3, HISTORY_SHARE * len(named)) and last < first:
                history.append(OldTerm(other, min(p.date for p, n in named if n == other), last,
                                       max((p for p, n in named if n == other), key=lambda p: p.order).ref()))
        printed = sum(1 for _p, n in named if n == name)
        parameter = False
    elif action:
        return None   # a keyword action amid a sentence ("Manifestiere die oberste Karte"): no name to cut out
    else:
        # words follow the keyword ("Affinity for artifacts"): the name is what the phrases share
        by_parameter: dict[str, tuple[Printed, str]] = {}
        for p, k in sorted(found, key=lambda pk: pk[0].order):
            if k.keyword and not _WORDS_AFTER.search(k.parameter):
                continue
            by_parameter[re.sub(r"[\d{}X—/]+|\{[^{}]*\}", "", k.parameter).strip().casefold()] = (p, k.phrase)
        if len(by_parameter) < 2:
            return None
        newest = max(p.date for p, _k in found)
        recent = {par: pk for par, pk in by_parameter.items() if pk[0].date >= _years_before(newest, NAME_YEARS)}
        chosen = recent if len(recent) >= 2 else by_parameter
        prefix = shared_prefix([phrase for _p, phrase in chosen.values()])
        if prefix is None or prefix.endswith("…"):
            return None
        name = prefix
        source = max((p for p, _ph in chosen.values()), key=lambda p: p.order)
        printed = sum(1 for _p, k in found if k.phrase.startswith(prefix + " "))
        if printed < 2:
            return None
        parameter = True
    return KeywordName(lang, name, parameter, printed, source.ref(), _reminder(found), tuple(history))


def _reminder(found: list[tuple[Printed, KeywordLine]]) -> Reminder | None:
    """The reminder text of the newest printing with one, and the earlier wordings (of the same
    English parameter) with the dates they were printed."""
    with_reminder = [(p, k) for p, k in found if k.reminder]
    if not with_reminder:
        return None
    newest_p, newest_k = max(with_reminder, key=lambda pk: pk[0].order)
    same = [(p, k) for p, k in with_reminder if k.parameter.casefold() == newest_k.parameter.casefold()]
    spans: dict[str, list] = {}
    for p, k in same:
        span = spans.setdefault(k.reminder, [p.date, p.date, p, 0])
        span[0] = min(span[0], p.date)
        span[1] = max(span[1], p.date)
        span[2] = max(span[2], p, key=lambda q: q.order)
        span[3] += 1
    earlier = sorted((Reminder(text, span[2].ref(), span[0], span[1], span[3], ()) for text, span in spans.items()
                      if text != newest_k.reminder), key=lambda r: (r.last, r.first, r.text), reverse=True)
    current = spans[newest_k.reminder]
    return Reminder(newest_k.reminder, newest_p.ref(), current[0], current[1], current[3],
                    tuple(earlier[:MAX_WORDINGS]))


def mine_keywords(printed: Sequence[Printed], rules: dict[str, tuple[str, str]], languages: Sequence[str]) -> tuple[Keyword, ...]:
    found: dict[tuple[str, str], list[tuple[Printed, KeywordLine]]] = defaultdict(list)
    for p in printed:
        relevant = [k for k in p.keywords if k.casefold() in rules]
        if not relevant:
            continue
        for line in keyword_lines(p.english, p.text, relevant):
            found[(rules[line.keyword.casefold()][0], p.lang)].append((p, line))
    out = []
    for key, (number, title) in sorted(rules.items(), key=lambda kv: _number_key(kv[1][0])):
        names = tuple(n for lang in languages if (n := _keyword_name(lang, found.get((number, lang), []), number.startswith("701."))) is not None)
        out.append(Keyword(number, title, names))
    return tuple(out)


def _number_key(number: str) -> tuple[int, ...]:
    return tuple(int(p) for p in number.split("."))


# ------------------------------------------------------------------ game terms


def english_terms(kb: KnowledgeBase, termbase_terms: Iterable[str], keywords: Iterable[str]) -> list[str]:
    """The game terms to align: the glossary's terms (without an "(Obsolete)" or other
    parenthesis, not lists of terms) and the termbase's English terms; the keyword names are the
    keyword part's; a term of function words only ("instead", `termalign.function_term`) names nothing."""
    skip = {k.casefold() for k in keywords}
    out: set[str] = set()
    for entry in kb.glossary:
        text = entry.term.text(SOURCE_LANGUAGE)
        if text is None:
            continue
        term = text.text.strip()
        if "(" in term or "," in term or "/" in term or not term:
            continue
        out.add(term.casefold())
    out |= {t.casefold() for t in termbase_terms if t.strip()}
    return sorted(t for t in out if t not in skip and words(t) and " ".join(words(t)) == t and not function_term(t.split(" ")))


def _surface(lang_texts: Sequence[str], gram: str) -> str:
    """The form of the lowercased n-gram printed most often in `lang_texts` (its capitals)."""
    parts = gram.split(" ")
    pattern = re.compile(r"(?<!\w)" + "".join(re.escape(w) + ("" if i == len(parts) - 1 else r"\W*" if w.endswith("'") else r"\W+")
                                               for i, w in enumerate(parts)) + r"(?!\w)", re.IGNORECASE)
    forms = Counter(m.group() for t in lang_texts for m in pattern.finditer(t.replace("’", "'")))
    return min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0] if forms else gram


@dataclass(frozen=True)
class _Text:
    """A distinct printed text: its newest printing, its printings' first date, its English words."""

    printed: Printed
    first: str
    tokens_en: tuple[str, ...]


def _texts(printed: Sequence[Printed], lang: str) -> tuple[list[_Text], Lexicon]:
    """The distinct printed texts of a language, in the order of their first printing, and
    their words (`termalign.Lexicon`)."""
    by_text: dict[str, list[Printed]] = {}
    for p in printed:
        if p.lang == lang:
            by_text.setdefault(p.text, []).append(p)
    out = []
    for text, ps in sorted(by_text.items()):
        newest = max(ps, key=lambda p: p.order)
        out.append(_Text(newest, min(p.date for p in ps), tuple(words(newest.english))))
    out.sort(key=lambda t: t.first)
    return out, Lexicon.of([t.tokens_en for t in out], [t.printed.text for t in out])


TERM_YEARS = (1, 2, 4, 8, 50)   # the newest years of a term's texts tried in turn, until MIN_CARDS texts


def _using(term_words: tuple[str, ...], texts: Sequence[_Text], lex: Lexicon) -> list[int]:
    """The texts (indexes, in order) whose English uses the term."""
    first = term_words[0] if len(term_words) > 1 else None
    if first is not None:
        maybe = lex.texts_with(first)
    else:
        last = term_words[-1]
        maybe = tuple(sorted({i for f in (last, last + "s", last + "es") for i in lex.texts_with(f)}))
    return [i for i in maybe if uses(term_words, texts[i].tokens_en)]


def _aligned(lex: Lexicon, term_words: tuple[str, ...], cards: list[int], start: int, end: int, longest: int,
             avoid: frozenset[str], taken: frozenset[str], particles: frozenset[str] = frozenset()) -> Alignment | None:
    """The printed n-gram of the term on the texts `start` to `end` (`cards`: those of them
    whose English uses it): the best aligned that is a whole phrase of the term."""
    return align_terms([i - start for i in cards], lex.grams[start:end], longest, avoid, taken,
                       lambda a: lex.whole_phrase(a.ngram, term_words, cards, start, end, avoid, particles))


def mine_terms(printed: Sequence[Printed], terms: Sequence[str], languages: Sequence[str],
               taken: dict[str, frozenset[str]]) -> tuple[Term, ...]:
    """Each English term's printed term per language: aligned on the texts first printed in the
    newest years of that term's texts (the newest printings decide), kept only when it is a whole
    phrase the cards print for the term (`Lexicon.whole_phrase`); the term the older texts
    print, where another, as history. `taken`: per language the keywords' names (no term)."""
    names: dict[str, list[TermName]] = defaultdict(list)
    for lang in languages:
        avoid = FUNCTION_WORDS.get(lang, frozenset())
        particles = VERB_PARTICLES.get(lang, frozenset())
        texts, lex = _texts(printed, lang)
        if not texts:
            continue
        firsts = [t.first for t in texts]
        kept = taken.get(lang, frozenset())
        for term in terms:
            term_words = tuple(term.split(" "))
            longest = len(term_words) if lang == "de" else 2 * len(term_words) + 1
            with_term = _using(term_words, texts, lex)
            if len(with_term) < MIN_CARDS:
                continue
            newest = texts[with_term[-1]].first
            found = None
            start = 0
            for years in TERM_YEARS:
                start = bisect.bisect_left(firsts, _years_before(newest, years))
                cards = [i for i in with_term if i >= start]
                if len(cards) >= MIN_CARDS:
                    found = _aligned(lex, term_words, cards, start, len(texts), longest, avoid, kept, particles)
                    break
            if found is None:
                continue
            with_gram = [texts[i] for i in with_term if i >= start and found.ngram in lex.grams[i]]
            source = max(with_gram, key=lambda t: t.printed.order).printed
            since = min(texts[i].first for i in with_term if found.ngram in lex.grams[i])
            end = bisect.bisect_left(firsts, since)
            history: tuple[OldTerm, ...] = ()
            old_cards = [i for i in with_term if i < end]
            old = _aligned(lex, term_words, old_cards, 0, end, longest, avoid, kept, particles) \
                if len(old_cards) >= MIN_CARDS else None
            if old is not None and old.ngram not in found.ngram and found.ngram not in old.ngram:
                old_with = [texts[i] for i in old_cards if old.ngram in lex.grams[i]]
                last = max(old_with, key=lambda t: t.printed.order).printed
                history = (OldTerm(_surface([t.printed.text for t in old_with], old.ngram),
                                   min(t.first for t in old_with), last.date, last.ref()),)
            names[term].append(TermName(lang, _surface([t.printed.text for t in with_gram], found.ngram),
                                        found.both, found.with_term, found.with_ngram, since, source.ref(), history))
    return tuple(Term(term, tuple(found)) for term, found in sorted(names.items()))


# ------------------------------------------------------------------ the file


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)   # a JSON string is a YAML double-quoted scalar


def _ref(ref: CardRef) -> str:
    return (f"{{card: {_q(ref.card)}, english: {_q(ref.english)}, set: {_q(ref.set_code)}, "
            f"number: {_q(ref.number)}, date: {_q(ref.date)}}}")


_HEADER = f"""\
# The official German and French names of the game's keywords and terms, as printed cards give
# them (MTGJSON foreignData). Generated: do not edit by hand; regenerate with
#     rulekb official mine ../shared/data/mtgjson/sets/
# and review the diff. The site's de/fr pages, `rulekb show --lang` and the PO export read it.
#
# keywords: per keyword rule (701.x actions, 702.x abilities) and language the printed name (the
# most printed of its newest {NAME_YEARS} years; `parameter: true` where words follow it on cards,
# "Affinität zu …"), `printed` how many printings print it, `source` the newest of them; the
# reminder text of the newest printing with one, its `first`/`last` printing and the earlier
# wordings (of the same parameter, newest first, at most {MAX_WORDINGS}); `history` older names.
# terms: per English game term and language the printed term of the texts first printed in the
# newest {CURRENT_YEARS} years (`cards` with both, `with_term` cards whose English uses the term,
# `with_term_printed` cards printing the term), `since` its first printing for that English term;
# `history` the term printed before.
"""


def official_yaml(data: Official) -> str:
    out = [_HEADER, "languages: [" + ", ".join(data.languages) + "]", "keywords:" if data.keywords else "keywords: []"]
    for k in data.keywords:
        out += [f"  - rule: {_q(k.rule)}", f"    english: {_q(k.english)}"]
        if not k.names:
            out.append("    names: []")
            continue
        out.append("    names:")
        for n in k.names:
            out += [f"      - lang: {n.lang}", f"        name: {_q(n.name)}"]
            if n.parameter:
                out.append("        parameter: true")
            out += [f"        printed: {n.printed}", f"        source: {_ref(n.source)}"]
            if n.reminder:
                r = n.reminder
                out += ["        reminder:", f"          text: {_q(r.text)}", f"          source: {_ref(r.source)}",
                        f"          first: {_q(r.first)}", f"          last: {_q(r.last)}", f"          printed: {r.printed}"]
                if r.earlier:
                    out.append("          earlier:")
                    for e in r.earlier:
                        out += [f"            - text: {_q(e.text)}", f"              source: {_ref(e.source)}",
                                f"              first: {_q(e.first)}", f"              last: {_q(e.last)}",
                                f"              printed: {e.printed}"]
            out += _history(n.history, "        ")
    out.append("terms:" if data.terms else "terms: []")
    for t in data.terms:
        out += [f"  - english: {_q(t.english)}", "    names:"]
        for n in t.names:
            out += [f"      - lang: {n.lang}", f"        term: {_q(n.term)}",
                    f"        cards: {n.cards}", f"        with_term: {n.with_term}",
                    f"        with_term_printed: {n.with_printed}", f"        since: {_q(n.since)}",
                    f"        source: {_ref(n.source)}"]
            out += _history(n.history, "        ")
    return "\n".join(out) + "\n"


def _history(history: tuple[OldTerm, ...], indent: str) -> list[str]:
    if not history:
        return []
    out = [f"{indent}history:"]
    for h in history:
        out.append(f"{indent}  - {{text: {_q(h.text)}, first: {_q(h.first)}, last: {_q(h.last)}, source: {_ref(h.source)}}}")
    return out


def mine(paths: list[Path], kb: KnowledgeBase, termbase_terms: Iterable[str], languages: dict[str, str]
         ) -> tuple[Official, int, tuple[str, ...]]:
    """The official names and terms of the set files `paths` for `languages` (English name ->
    code): (the data, how many set files were read, what was left out)."""
    printed, sets, skipped = printings(paths, languages)
    codes = tuple(sorted(languages.values()))
    rules = keyword_rules(kb)
    keywords = mine_keywords(printed, rules, codes)
    taken = {lang: frozenset(" ".join(words(n.name)) for k in keywords for n in k.names if n.lang == lang)
             for lang in codes}
    terms = mine_terms(printed, english_terms(kb, termbase_terms, [t for _n, t in rules.values()]), codes, taken)
    return Official(codes, keywords, terms), sets, skipped


def mine_into(root: Path, paths: list[Path]) -> MineReport:
    """Mine the set files `paths` and write the project's ``translations/official.yaml`` (only
    when its bytes change), after checking that the file reads back."""
    from ..knowledge import load_knowledge_base
    from ..termbase import load_termbase
    started = time.perf_counter()
    langs = project_languages(root)
    languages = {lang.english_name: lang.code for lang in langs if lang.code != SOURCE_LANGUAGE}
    kb = load_knowledge_base(root)
    termbase = load_termbase(root, kb)
    english = [t.text for c in termbase.concepts for t in c.terms.get(SOURCE_LANGUAGE, ())]
    data, sets, skipped = mine(paths, kb, english, languages)
    text = official_yaml(data)
    path = root / OFFICIAL_FILE
    codes = tuple(lang.code for lang in langs)
    # the file must read back as it was mined before it replaces the old one: its temporary file
    # is read, then renamed (a kill -9 leaves only a temporary file, which the next writer removes)
    written = write_checked(path, text.encode("utf-8"), lambda staged: official_from(staged.read_bytes(), OFFICIAL_FILE, codes))
    return MineReport(path, written, data, sets, skipped, time.perf_counter() - started)
