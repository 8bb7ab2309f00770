"""The termbase: the game's terminology per language, read by the check stage (terminology
checks) and the render stage (keyword links, glossary page). Pipeline position: loaded beside
the knowledge base (load -> validate), used by check and render; nothing here reads rules/.

``translations/termbase.yaml`` lists concepts (a keyword, an action or a term). Each concept has
per language its terms, the preferred one first, each with a status (preferred, admitted,
deprecated, forbidden), the inflected forms that count as the term, a grammatical gender where it
matters, the replacement of a deprecated or forbidden term and when it was retired, and the
source it was taken from (a source id of ``rules/sources.yaml``, then a colon and where in it).

`Termbase.find_terms(text, lang)` finds the terms of one language in a text: whole words,
case-insensitive, longest form first; German hyphen compounds count for their first part
("Zurückverfolgen-Fähigkeit", "Rückkauf-Kosten" are occurrences of "Zurückverfolgen" and
"Rückkauf"). Phrases listed as a term's `exceptions` ("play a land") are not occurrences. A
German separable verb ("abwerfen", `separable`) is also found in the forms the termbase need not
list: split at the end of a main clause ("Wirf eine Karte ab": an occurrence at "Wirf"), in the
zu-infinitive ("abzuwerfen") and its regular forms ("abgelegt").

`load_termbase` reads and checks the file each time (no cache: ~5 ms).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Mapping, NamedTuple

from .diagnostics import DataError, Problem, did_you_mean
from .load import Node, parse_bytes, parse_file
from .layout import LANGUAGES_FILE, SOURCES_FILE
from .schema import Reader, languages_from, sources_from

TERMBASE_FILE = "translations/termbase.yaml"

KINDS = ("keyword", "action", "term")
STATUSES = ("preferred", "admitted", "deprecated", "forbidden")
GENDERS = ("m", "f", "n")
RETIRED = re.compile(r"^(?:(?:before|after|by) )?[12][0-9]{3}(?:-[01][0-9](?:-[0-3][0-9])?)?$")

CONCEPT_FIELDS = ("id", "kind", "source", "terms")
CONCEPT_OPTIONAL = ("rule", "definition", "required", "note")
TERM_FIELDS = ("text", "status", "source")
TERM_OPTIONAL = ("forms", "gender", "replacement", "retired", "note", "note_translated", "exceptions", "only_before")


@dataclass(frozen=True)
class Term:
    """One way of saying a concept in one language."""

    text: str
    status: str                    # preferred | admitted | deprecated | forbidden
    forms: tuple[str, ...]         # the inflected forms that count as this term, `text` first
    gender: str | None             # m | f | n, where articles must agree (French)
    replacement: str | None        # what to write instead (deprecated, forbidden)
    retired: str | None            # when it left the official wording: "2009-07-11", "2020", "by 2026-01-16"
    source: str                    # "<source id>: where", e.g. "mtgjson-xln: XLN #47 Cancel (German)"
    note: str | None = None
    exceptions: tuple[str, ...] = ()  # phrases in which a form is not this term ("play a land")
    note_translated: tuple[tuple[str, str], ...] = ()   # the note in other languages, (language, text), sorted
    # a form is this term only where one of these words follows it in its clause: the old 'play' is
    # "play a spell", "play instants"; "play that card", "land plays", "continue playing" are today's words
    only_before: tuple[str, ...] = ()

    @property
    def source_id(self) -> str:
        return self.source.split(":", 1)[0].strip()

    @property
    def discouraged(self) -> bool:
        return self.status in ("deprecated", "forbidden")


@dataclass(frozen=True)
class Concept:
    id: str
    kind: str                       # keyword | action | term
    rule: str | None                # rule id in the knowledge base (keywords, actions)
    definition: Mapping[str, str]   # lang -> definition (quoted from a source)
    terms: Mapping[str, tuple[Term, ...]]  # lang -> terms, the preferred first
    source: str
    required: bool = True           # a translation of a text using the concept must use it too
    note: str | None = None
    line: int = field(default=0, compare=False)  # where it starts in translations/termbase.yaml

    def usable(self, lang: str) -> tuple[Term, ...]:
        """Preferred and admitted terms of a language."""
        return tuple(t for t in self.terms.get(lang, ()) if not t.discouraged)


class TermMatch(NamedTuple):
    """A term found in a text (a named tuple: the checks of a run with all cards make ~100,000)."""

    start: int
    end: int
    concept_id: str
    term: Term


@dataclass(frozen=True)
class _Matcher:
    pattern: re.Pattern[str] | None
    by_form: Mapping[str, tuple[str, Term] | None]  # casefolded form -> (concept, term); None: exception
    # a text's spelling of a form -> by_form's entry, made as spellings are met (the texts repeat a
    # few hundred spellings ~100,000 times)
    by_spelling: dict[str, tuple[str, Term] | None] = field(default_factory=dict, compare=False)
    # separable verbs: their finite forms that stand apart from the particle ("wirft … ab"), and
    # per casefolded form, (particle, concept, term) of each verb it is a form of
    split: re.Pattern[str] | None = None
    split_by: Mapping[str, tuple[tuple[str, str, Term], ...]] = field(default_factory=dict)


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


_WORD = r"[^\W_]"


def _trie_pattern(words: list[list[str]]) -> str:
    """A regex matching any of the token sequences, longest first, as a trie: shared
    prefixes are matched once (much faster than a flat alternation of hundreds of forms)."""
    trie: dict = {}
    for tokens in words:
        node = trie
        for ch in "\x00".join(tokens):
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        end = "" in node
        branches = []
        for ch in sorted(k for k in node if k):
            piece = r"\s+" if ch == "\x00" else re.escape(ch)
            branches.append(piece + build(node[ch]))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if end else body

    return build(trie)


def _compile(forms: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for the (casefolded) forms: any of them as a whole word, the longest first."""
    forms = list(forms)
    if not forms:
        return None
    # Whole words: no letter or digit glued before or after; a hyphen after the form is
    # allowed, so that the first part of a hyphen compound matches ("Rückkauf-Kosten").
    # The trie's optional tails are greedy, so the longest form wins; when a longer form's
    # tail is glued to a letter, the lookahead fails and the regex backtracks to a shorter one.
    body = _trie_pattern([f.split(" ") for f in forms])
    return re.compile(rf"(?<!{_WORD})(?:{body})(?!{_WORD})", re.IGNORECASE)


_FOLLOWERS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _followed(words: tuple[str, ...], text: str, end: int) -> bool:
    """Whether one of `words` follows position `end` of `text` within its clause (a term's
    `only_before`: "play a spell", "play certain instant and sorcery cards")."""
    pattern = _FOLLOWERS.get(words)
    if pattern is None:
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        pattern = _FOLLOWERS[words] = re.compile(rf"[^.;:!?()\n]{{0,40}}?(?<!{_WORD})(?:{alternatives})(?!{_WORD})",
                                                 re.IGNORECASE)
    return pattern.match(text, end) is not None


# ------------------------------------------------------------------ German separable verbs


# The particles a German verb sheds in a main clause ("abwerfen": "Wirf eine Karte ab."), longest
# first so that "zurück" is not read as "zu" + "rück". Only particles that are separable wherever
# they begin a verb: "um", "über", "unter", "durch" are also inseparable prefixes ("übernehmen").
SEPARABLE_PARTICLES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "de": ("zusammen", "zurück", "hinein", "hinaus", "herein", "heraus", "voraus", "vorbei", "weiter", "nieder",
           "fort", "fest", "nach", "hoch", "weg", "vor", "mit", "los", "hin", "her", "ein", "bei", "aus", "auf",
           "an", "ab", "zu"),
})


class Separable(NamedTuple):
    """The forms of a separable verb term that its listed forms need not spell out: `joined`, in
    one word ("abzuwerfen", "ablegt"), and `split`, the finite forms that stand apart from
    `particle` at the end of a main clause ("wirft … ab", "Decke … auf")."""

    particle: str
    joined: tuple[str, ...]
    split: tuple[str, ...]


def separable(term: Term, lang: str) -> Separable | None:
    """`term` as a separable verb of `lang` (None: it is none). A verb is separable when its
    infinitive (one lowercase word) begins with one of the language's `SEPARABLE_PARTICLES` and no
    listed form shows the particle is part of the stem ("geantwortet" of "antworten"). The regular
    forms are derived (zu-infinitive "abzulegen", participle "abgelegt", present "legst … ab",
    imperative "leg … ab"); an irregular verb lists its own ("abwirfst", "abwirft", "abgeworfen"),
    and their finite forms split too ("wirfst … ab", imperative "wirf … ab")."""
    text = term.text
    particle = next((p for p in SEPARABLE_PARTICLES.get(lang, ()) if text.startswith(p)), None)
    rest = text[len(particle):] if particle else ""
    if particle is None or " " in text or len(rest) < 4 or not rest.endswith("n"):
        return None
    forms = [f for f in term.forms if f[:1].islower() and f != text]
    if any(f.startswith("ge") for f in forms):
        return None   # "geantwortet": "an" is no particle of "antworten"
    stem = rest[:-2] if rest.endswith("en") else rest[:-1]   # "werf", "lager" ("ablagern")

    def participle(tail: str) -> bool:
        return tail.startswith("ge") and (not rest.startswith("ge") or tail.startswith("gege"))

    listed = [f[len(particle):] for f in forms if f.startswith(particle)]
    finite = [tail for tail in listed if not participle(tail) and not tail.startswith("zu" + rest)
              and not tail.endswith(("end", "ende", "enden", "ender", "endes"))]
    second = [tail for tail in finite if tail.endswith("st")]   # "wirfst": "wirft" and "wirf" differ too
    regular = [stem + "e", stem + "t", rest] + ([] if second else [stem + "st"])
    joined = [particle + "zu" + rest] + [particle + tail for tail in regular]
    if not any(participle(tail) for tail in listed):
        joined.append(particle + "ge" + stem + "t")   # "abgelegt"; "abgeworfen" is listed
    split = finite + regular + [tail[:-2] for tail in second] + [stem]
    return Separable(particle, tuple(dict.fromkeys(joined)), tuple(dict.fromkeys(split)))


_CLAUSE_ENDS: dict[str, re.Pattern[str]] = {}


def _particle_follows(particle: str, text: str, end: int) -> int | None:
    """Where a verb's `particle` closes the clause that goes on at `end` ("Wirf eine Karte ab.",
    "Decke sie auf und …"): the end of the particle, None where it does not ("Lege sie auf den
    Stapel": there "auf" is a preposition)."""
    pattern = _CLAUSE_ENDS.get(particle)
    if pattern is None:
        pattern = _CLAUSE_ENDS[particle] = re.compile(
            rf"[^.,;:!?()\n]{{0,80}}?(?<!{_WORD}){re.escape(particle)}"
            rf"(?=\s*(?:[.,;:!?)»«“”\"]|$)|\s+(?:und|oder|sowie|aber|sondern)(?!{_WORD}))", re.IGNORECASE)
    m = pattern.match(text, end)
    return None if m is None else m.end()


@dataclass(frozen=True)
class Termbase:
    concepts: tuple[Concept, ...]
    _by_id: Mapping[str, Concept] = field(init=False, repr=False, compare=False)
    _matchers: dict[str, _Matcher] = field(init=False, repr=False, compare=False)
    _prefilters: dict[tuple[str, frozenset[str]], re.Pattern[str] | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({c.id: c for c in self.concepts}))
        object.__setattr__(self, "_matchers", {})
        object.__setattr__(self, "_prefilters", {})

    def concept(self, concept_id: str) -> Concept | None:
        return self._by_id.get(concept_id)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted({lang for c in self.concepts for lang in c.terms}))

    def preferred(self, concept_id: str, lang: str) -> Term | None:
        """The preferred term of a concept in a language, else its first admitted one."""
        concept = self._by_id.get(concept_id)
        if concept is None:
            return None
        usable = concept.usable(lang)
        return next((t for t in usable if t.status == "preferred"), usable[0] if usable else None)

    def for_rule(self, rule_id: str) -> tuple[Concept, ...]:
        return tuple(c for c in self.concepts if c.rule == rule_id)

    def _matcher(self, lang: str) -> _Matcher:
        found = self._matchers.get(lang)
        if found is None:
            entries: dict[str, tuple[str, Term] | None] = {}
            for concept in self.concepts:
                for term in concept.terms.get(lang, ()):
                    for form in term.forms:
                        entries[_key(form)] = (concept.id, term)
            for concept in self.concepts:
                for term in concept.terms.get(lang, ()):
                    for phrase in term.exceptions:
                        entries.setdefault(_key(phrase), None)
            split: dict[str, list[tuple[str, str, Term]]] = {}
            for concept in self.concepts:
                for term in concept.terms.get(lang, ()):
                    verb = separable(term, lang)
                    if verb is None:
                        continue
                    for form in verb.joined:
                        entries.setdefault(_key(form), (concept.id, term))
                    # a discouraged verb's fix rewrites one word: it is found in its joined forms only
                    for form in verb.split if not term.discouraged else ():
                        split.setdefault(_key(form), []).append((verb.particle, concept.id, term))
            found = _Matcher(_compile(entries), MappingProxyType(entries), {}, _compile(split),
                             MappingProxyType({k: tuple(v) for k, v in split.items()}))
            self._matchers[lang] = found
        return found

    def _prefilter(self, lang: str, concepts: frozenset[str]) -> re.Pattern[str] | None:
        """A quick test for `find_terms(…, concepts=…)`: the pattern of those concepts' forms alone
        (`_compile`, as the whole search's); a text it finds nothing in has no occurrence of them
        (None: they have no form in `lang`)."""
        key = (lang, concepts)
        if key not in self._prefilters:
            matcher = self._matcher(lang)
            self._prefilters[key] = _compile([form for form, hit in matcher.by_form.items()
                                              if hit is not None and hit[0] in concepts]
                                             + [form for form, verbs in matcher.split_by.items()
                                                if any(cid in concepts for _p, cid, _t in verbs)])
        return self._prefilters[key]

    def find_terms(self, text: str, lang: str, concepts: frozenset[str] | None = None) -> tuple[TermMatch, ...]:
        """Occurrences of the termbase's terms of `lang` in `text`, in text order, non-overlapping;
        with `concepts`, those of these concepts only (the same occurrences: the others are
        dropped, not left out of the search, so a longer term of another concept still wins).
        The render stage links the few concepts that have a rule: a text that names none of
        them (most) is then passed over by their `_prefilter`, in half the time of a full search."""
        matcher = self._matcher(lang)
        if matcher.pattern is None:
            return ()
        if concepts is not None:
            quick = self._prefilter(lang, concepts)
            if quick is None or quick.search(text) is None:
                return ()
        out = []
        by_spelling, by_form = matcher.by_spelling, matcher.by_form
        for m in matcher.pattern.finditer(text):
            spelling = m.group()
            try:
                hit = by_spelling[spelling]
            except KeyError:
                hit = by_spelling[spelling] = by_form.get(_key(spelling))
            if hit is not None and (concepts is None or hit[0] in concepts):
                if hit[1].only_before and not _followed(hit[1].only_before, text, m.end()):
                    continue
                out.append(TermMatch(m.start(), m.end(), hit[0], hit[1]))
        if matcher.split is not None:
            out = _split_verbs(matcher, text, out, concepts)
        return tuple(out)


def _split_verbs(matcher: _Matcher, text: str, found: list[TermMatch],
                 concepts: frozenset[str] | None) -> list[TermMatch]:
    """`found` and the separable verbs of a text whose particle stands apart ("Wirf eine Karte
    ab."): each an occurrence at its finite verb ("Wirf"), where no other term is; in text order."""
    added = []
    for m in matcher.split.finditer(text):  # type: ignore[union-attr]
        if any(x.start < m.end() and m.start() < x.end for x in found):
            continue
        for particle, concept_id, term in matcher.split_by.get(m.group().casefold(), ()):
            if (concepts is None or concept_id in concepts) and _particle_follows(particle, text, m.end()) is not None:
                added.append(TermMatch(m.start(), m.end(), concept_id, term))
                break
    return sorted(found + added, key=lambda x: x.start) if added else found


# ------------------------------------------------------------------ loading


def _source(r: Reader, node: Node | None, what: str, sources: frozenset[str]) -> str | None:
    value = r.nonempty(node, what)
    if value is None:
        return None
    sid = value.split(":", 1)[0].strip()
    if sid not in sources:
        hint = did_you_mean(sid, sources) or f"start it with a source id of {SOURCES_FILE}: {', '.join(sorted(sources))}"
        r.error(node, f"{what} '{value}' does not start with a known source id", hint)  # type: ignore[arg-type]
        return None
    return value


def _strings(r: Reader, node: Node | None, what: str) -> tuple[str, ...]:
    out = []
    for item in r.sequence(node, what):
        value = r.nonempty(item, what)
        if value is not None:
            out.append(value)
    return tuple(out)


def _term(r: Reader, node: Node, what: str, sources: frozenset[str], languages: tuple[str, ...] = ()) -> Term | None:
    m = r.mapping(node, what, TERM_FIELDS, TERM_OPTIONAL)
    if m is None:
        return None
    text = r.nonempty(m.get("text"), f"{what} text")
    status = r.choice(m.get("status"), f"{what} status", STATUSES)
    source = _source(r, m.get("source"), f"{what} source", sources)
    forms = _strings(r, m.get("forms"), f"{what} forms")
    gender = r.choice(m.get("gender"), f"{what} gender", GENDERS) if m.get("gender") is not None else None
    replacement = r.nonempty(m.get("replacement"), f"{what} replacement") if m.get("replacement") is not None else None
    retired = None
    if m.get("retired") is not None:
        retired = r.pattern(m.get("retired"), f"{what} retired", RETIRED,
                            "a date or release such as 2009-07-11, 2020 or 'by 2026-01-16'")
    note = r.nonempty(m.get("note"), f"{what} note") if m.get("note") is not None else None
    note_translated: dict[str, str] = {}
    nm = r.entries(m.get("note_translated"), f"{what} note_translated") if m.get("note_translated") is not None else None
    if nm is not None and note is None:
        r.error(nm, f"{what} has note_translated but no note", "write the English 'note:' that it translates")
    for key, value in nm.items if nm else ():
        if key.value not in languages or key.value == "en":
            r.error(key, f"unknown language '{key.value}' in {what} note_translated",
                    did_you_mean(key.value, languages) or f"use one of {', '.join(l for l in languages if l != 'en')}")
        elif (translated := r.nonempty(value, f"{what} note_translated {key.value}")) is not None:
            note_translated[key.value] = translated
    exceptions = _strings(r, m.get("exceptions"), f"{what} exceptions")
    only_before = _strings(r, m.get("only_before"), f"{what} only_before")
    if status in ("deprecated", "forbidden") and replacement is None and m.get("replacement") is None:
        r.error(m, f"{what} is {status} but names no replacement", "add 'replacement:' with the term to use instead")
    if status in ("preferred", "admitted") and (m.get("replacement") is not None or m.get("retired") is not None):
        r.error(m, f"{what} is {status} but has a replacement or retired date",
                "only deprecated and forbidden terms are replaced; change the status or remove the field")
    if text is None or status is None or source is None:
        return None
    unique = tuple(dict.fromkeys([text, *forms]))  # exact spellings: the casing check reads them
    return Term(text, status, unique, gender, replacement, retired, source, note, exceptions,
                tuple(sorted(note_translated.items())), only_before)


def _concept(r: Reader, node: Node, languages: tuple[str, ...], sources: frozenset[str],
             positions: dict[tuple[str, str], tuple[str, int]]) -> Concept | None:
    m = r.mapping(node, "a concept", CONCEPT_FIELDS, CONCEPT_OPTIONAL)
    if m is None:
        return None
    cid = r.slug(m.get("id"), "concept id")
    kind = r.choice(m.get("kind"), "concept kind", KINDS)
    rule = r.slug(m.get("rule"), "concept rule") if m.get("rule") is not None else None
    source = _source(r, m.get("source"), "concept source", sources)
    required = r.boolean(m.get("required"), "concept required") if m.get("required") is not None else True
    note = r.nonempty(m.get("note"), "concept note") if m.get("note") is not None else None
    label = f"concept '{cid}'"
    definition: dict[str, str] = {}
    dm = r.entries(m.get("definition"), f"{label} definition") if m.get("definition") is not None else None
    for key, value in dm.items if dm else ():
        if key.value not in languages:
            r.error(key, f"unknown language '{key.value}' in {label} definition",
                    did_you_mean(key.value, languages) or f"use one of {', '.join(languages)}")
        elif (text := r.nonempty(value, f"{label} definition {key.value}")) is not None:
            definition[key.value] = text
    terms: dict[str, tuple[Term, ...]] = {}
    tm = r.entries(m.get("terms"), f"{label} terms") if m.get("terms") is not None else None
    for key, value in tm.items if tm else ():
        lang = key.value
        if lang not in languages:
            r.error(key, f"unknown language '{lang}' in {label} terms",
                    did_you_mean(lang, languages) or f"use one of {', '.join(languages)} (translations/languages.yaml)")
            continue
        items = r.sequence(value, f"{label} terms {lang}")
        found = []
        for i, item in enumerate(items):
            term = _term(r, item, f"{label} {lang} term #{i + 1}", sources, languages)
            if term is None:
                continue
            found.append(term)
            for form in term.forms + term.exceptions:
                k = (lang, _key(form))
                if k in positions and positions[k][0] != cid:
                    other, line = positions[k]
                    r.error(item, f"{lang} form '{form}' of {label} is also a form of concept '{other}' (line {line})",
                            "a form must name one concept; remove it from one of them or make the phrase longer")
                positions.setdefault(k, (cid or "", item.line))
        if sum(1 for t in found if t.status == "preferred") > 1:
            r.error(value, f"{label} has more than one preferred {lang} term", "mark one 'preferred', the others 'admitted'")
        if found:
            terms[lang] = tuple(sorted(found, key=lambda t: STATUSES.index(t.status)))
    if cid is None or kind is None or source is None or required is None:
        return None
    return Concept(cid, kind, rule, MappingProxyType(definition), MappingProxyType(terms), source, required, note,
                   m.line)


def termbase_from(rel: str, data: bytes, languages: tuple[str, ...], sources: frozenset[str]) -> Termbase:
    """Parse and check one termbase file, `rel` of the project, whose bytes are `data` (see `load_termbase`)."""
    parsed, problems = parse_bytes(rel, data)
    if parsed is None:
        raise DataError(problems)
    r = Reader(parsed.path, list(problems))
    m = r.mapping(parsed.root, "the termbase file", ("concepts",))
    concepts: list[Concept] = []
    positions: dict[tuple[str, str], tuple[str, int]] = {}
    seen: dict[str, int] = {}
    for item in r.sequence(m.get("concepts") if m else None, "concepts"):
        concept = _concept(r, item, languages, sources, positions)
        if concept is None:
            continue
        if concept.id in seen:
            r.error(item, f"duplicate concept id '{concept.id}' (first at line {seen[concept.id]})", "give each concept its own id")
            continue
        seen[concept.id] = item.line
        concepts.append(concept)
    if r.problems:
        raise DataError(r.problems)
    return Termbase(tuple(concepts))


def load_termbase(root: Path, kb=None) -> Termbase:
    """Read ``translations/termbase.yaml`` of the project at `root`, strictly (unknown fields,
    unknown languages or sources, a form claimed by two concepts: a `DataError` naming file,
    line and column). With `kb`, its languages and sources are those the termbase is checked
    against, and the rule ids the concepts name are checked against its rules."""
    path = root / TERMBASE_FILE
    if not path.is_file():
        raise DataError([Problem(TERMBASE_FILE, 1, 1, f"{TERMBASE_FILE} is missing",
                                 "create it: the terminology checks and the glossary read it")])
    problems: list[Problem] = []
    languages: tuple[str, ...] = kb.language_codes if kb is not None else ()
    sources: frozenset[str] = frozenset(kb.sources) if kb is not None else frozenset()
    # the knowledge base has read the languages and the sources already; without it, they are read here
    for name in (LANGUAGES_FILE, SOURCES_FILE) if kb is None else ():
        parsed, found = parse_file(root / name, root) if (root / name).is_file() else (None, [
            Problem(name, 1, 1, f"{name} is missing", "the termbase needs the languages and the sources registry")])
        problems += found
        if parsed is None:
            continue
        if name == LANGUAGES_FILE:
            langs, found = languages_from(parsed)
            languages = tuple(lang.code for lang in langs)
        else:
            srcs, found = sources_from(parsed)
            sources = frozenset(srcs)
        problems += found
    if problems:
        raise DataError(problems)
    # parsed every time: with the C loader the 44 KB file takes ~5 ms, a cache entry ~0.5 ms
    # (the termbase cache did not pay, benchmarks/HISTORY.md, 2026-12-05)
    termbase = termbase_from(TERMBASE_FILE, path.read_bytes(), languages, sources)
    if kb is not None:
        rule_ids = {rule.id for rule in kb.rules}
        bad = [c for c in termbase.concepts if c.rule is not None and c.rule not in rule_ids]
        if bad:
            raise DataError([Problem(TERMBASE_FILE, c.line, 1, f"concept '{c.id}' names rule '{c.rule}', which is not in rules/",
                                     did_you_mean(c.rule, rule_ids) or "correct the rule id or remove 'rule:'")  # type: ignore[arg-type]
                             for c in bad])
    return termbase


