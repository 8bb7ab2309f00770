"""Importer, step 2 of 2 for a rules release (crtext -> cr): merge a parsed Comprehensive Rules
release into the knowledge base's YAML.

Data model (README, "Rules releases and import"):
- A release is the source ``cr-YYYY-MM-DD`` (registered in rules/sources.yaml by the import)
  and a file ``rules/releases/YYYY-MM-DD.yaml`` (its chapters and input file): "imported in full".
- A section ("601. Casting Spells") and a rule ("601.2", "702.81. Retrace") are rule files
  under rules/comprehensive/; a rule's subrules are its units; example and continuation lines
  stay with their rule or subrule, one line each. Glossary terms go to rules/glossary/.
- A text version is an English variant whose source is the release it first appeared in and
  whose ``releases`` lists every imported release with exactly that text. A release with a new
  text adds a variant; the variant of the rule's newest release is canonical; older ones stay,
  and so every de/fr translation stays: made from an older English, it becomes stale.
- The rule's ``number`` and ``release`` are those of the newest release it is in; ``history``
  says which number it had in which releases (curated spans, e.g. from the archive, keep their
  dates and list the imported releases they cover); ``letters`` records a subrule's letter
  where it is not its key (601.2e of 2011 is 601.2f in 2026).
- Identity across releases comes from `identity`; what is not matched is new, with a stable id.

Importing the same release again changes nothing: the import is a function of what the files
hold, written only where the data changed.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import itertools
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..diagnostics import DataError, Problem
from ..load import SourceFile, parse_file
from ..models import SOURCE_LANGUAGE, KnowledgeBase, Rule
from ..refs import SUBRULE_LETTERS
from ..ids import slug
from ..layout import SOURCES_FILE
from ..validate import build_knowledge_base
from . import crtext, identity
from .identity import number_key
from .store import (FlowDict, ReleaseList, Tree, check_into, open_target, plain, prepare_dataset, register_source,
                    remove_stale_temporaries_of)

RULES_DIR = "rules/comprehensive"
GLOSSARY_DIR = "rules/glossary"
RELEASES_DIR = "rules/releases"
SOURCE_KIND = "comprehensive-rules"

RULE_KEYS = ("id", "number", "release", "history", "title", "summary", "text", "subrules", "letters", "moved_from",
             "notes")
VARIANT_KEYS = ("text", "source", "status", "canonical", "releases", "translated_from", "note")
HISTORY_KEYS = ("number", "since", "until", "source", "releases")


# The modules that decide what the import of a release writes; a hash of them is the importer's
# version, recorded in each release file (`importer:`): what is read (crtext), matched
# (identity) and merged (cr), and how it is written (store: the YAML writer and the form of the
# lists of releases, with releaseranges, which writes their lines), and ids (the slugs new entries
# are named by). (yamledit, the byte-preserving editor of `po import` and `lang add`, writes
# nothing an import writes.)
IMPORTER_MODULES = ("importers/cr.py", "importers/crtext.py", "importers/identity.py", "importers/store.py",
                    "releaseranges.py", "ids.py")


@functools.lru_cache(maxsize=1)
def importer_version() -> str:
    """The version of this importer's code (`IMPORTER_MODULES`): a release file imported by it,
    from the same bytes, is imported already (`imported_already`)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in IMPORTER_MODULES:
        path = package / name
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)
# a subrule letter's place in the alphabet of subrules (no l, no o)
LETTER_INDEX = {letter: i for i, letter in enumerate(SUBRULE_LETTERS)}


def source_id(date: str) -> str:
    return f"cr-{date}"


@functools.lru_cache(maxsize=1 << 12)
def _in_order(shape: tuple[str, ...], keys: tuple[str, ...]) -> bool:
    """Whether the keys `shape` are `keys` first, in that order, then the others."""
    first = [k for k in keys if k in shape]
    return list(shape) == first + [k for k in shape if k not in first]


def _ordered(d: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """`d` with `keys` first, in that order, then its other keys as they were: `d` itself when
    it is so already (the usual case: copying 1.5 million dicts was 6 % of importing 110 releases)."""
    if _in_order(tuple(d), keys):
        return d
    out = {k: d[k] for k in keys if k in d}
    out.update({k: v for k, v in d.items() if k not in out})
    return out


# ---------------------------------------------------------------- texts of one unit


@dataclass
class Counts:
    new_texts: int = 0
    same_texts: int = 0


def add_text(unit: dict[str, Any], text: str, date: str, release_sources: frozenset[str], counts: Counts) -> None:
    """Record that the English of `unit` is `text` in the release `date`."""
    variants = unit.setdefault(SOURCE_LANGUAGE, [])
    for v in variants:
        if v.get("text") == text and v.get("source") in release_sources:
            rels = set(v.get("releases", ())) | {date}
            v["releases"] = ReleaseList(sorted(rels))
            counts.same_texts += 1
            return
    variants.append({"text": text, "source": source_id(date), "status": "official", "releases": ReleaseList([date])})
    counts.new_texts += 1


def retract(unit: dict[str, Any], date: str) -> None:
    for v in unit.get(SOURCE_LANGUAGE, []) or []:
        if date in v.get("releases", ()):
            v["releases"] = ReleaseList(r for r in v["releases"] if r != date)


def finish_unit(unit: dict[str, Any], date: str, present_in: str | None) -> None:
    """Drop the English variants this release had made and no longer has; mark the canonical
    English: the text of `present_in` (the rule's newest release, when the unit is in it),
    else the curated canonical one, else the newest."""
    variants = unit.get(SOURCE_LANGUAGE)
    if not variants:
        return
    kept = [v for v in variants if not ("releases" in v and not v["releases"] and v.get("source") == source_id(date))]
    for v in kept:
        if "releases" in v and not v["releases"]:
            del v["releases"]
    if not kept:
        del unit[SOURCE_LANGUAGE]
        return
    if len(kept) == 1:
        unit[SOURCE_LANGUAGE] = [_ordered(kept[0], VARIANT_KEYS)]
        return
    canon = next((v for v in kept if present_in is not None and present_in in v.get("releases", ())), None)
    if canon is None:
        flagged = [v for v in kept if v.get("canonical") is True]
        curated = [v for v in kept if not v.get("releases")]
        if flagged:
            canon = flagged[0]
        elif present_in is not None and curated:
            canon = curated[0]  # the text the rule file gave for its release
        else:
            canon = max(kept, key=lambda v: max(v.get("releases") or [""]))
    for v in kept:
        v["canonical"] = v is canon
    unit[SOURCE_LANGUAGE] = [_ordered(v, VARIANT_KEYS) for v in kept]


def _unit_releases(unit: dict[str, Any] | None) -> set[str]:
    if not unit:
        return set()
    return set().union(*(v.get("releases", ()) for v in unit.get(SOURCE_LANGUAGE, []) or []))


# ---------------------------------------------------------------- one rule file


def _is_derived(entry: dict[str, Any]) -> bool:
    rels = entry.get("releases")
    return bool(rels) and entry.get("since") == min(rels) and entry.get("source") == source_id(entry.get("since", ""))


def _covers(entry: dict[str, Any], end: str | None, date: str) -> bool:
    since, until = entry.get("since"), entry.get("until")
    if since is not None and date < since:
        return False
    if until is not None:
        return date <= until or date.startswith(until)
    return end is None or date < end


@dataclass
class RuleState:
    """One rule file being merged: its plain data and what the imports say about it."""

    id: str
    path: str
    data: dict[str, Any]
    facts: dict[str, str]                       # imported release -> number
    letters: dict[str, dict[str, str]]          # subrule key -> {release: letter}, complete
    curated_release: str | None                 # the release the file states, when no import says it
    matched: bool = False
    renumbered_from: str | None = None
    # subrule key -> {release: number} where the release printed the subrule with another rule's
    # number (432.2b under 423.2): written into `letters` as that number (models.subrule_number)
    printed: dict[str, dict[str, str]] = field(default_factory=dict)
    # finished since its history was last made: the history is made once, at the end of the
    # import (`finish_history`), from the releases it is in by then (making it after each release,
    # from every release so far, was 13 % of importing 110 releases)
    history_due: bool = False

    @classmethod
    def new(cls, rid: str, path: str, number: str, date: str) -> "RuleState":
        return cls(rid, path, {"id": rid, "number": number, "release": date}, {}, {}, None)

    @classmethod
    def of(cls, rule: Rule, data: dict[str, Any]) -> "RuleState":
        facts = {rel: e.number for e in rule.history for rel in e.releases}
        letters: dict[str, dict[str, str]] = {}
        printed: dict[str, dict[str, str]] = {}
        for sub in rule.subrules + rule.former_subrules:
            key = sub.unit.id.split(".", 1)[1]
            letters[key] = {rel: letter[-1] for rel, letter in sub.letters.items()} or {rule.release: sub.letter}
            numbers = {rel: letter for rel, letter in sub.letters.items() if len(letter) > 1}
            if numbers:
                printed[key] = numbers
        curated = None if rule.release in facts else rule.release
        return cls(rule.id, rule.file, data, facts, letters, curated, printed=printed)

    def retract(self, date: str) -> None:
        self.facts.pop(date, None)
        for per in (*self.letters.values(), *self.printed.values()):
            per.pop(date, None)
        for unit in self._units():
            retract(unit, date)

    def _units(self) -> list[dict[str, Any]]:
        out = [self.data[k] for k in ("title", "text") if isinstance(self.data.get(k), dict)]
        out += [u for u in (self.data.get("subrules") or {}).values() if isinstance(u, dict)]
        return out

    def unit(self, name: str) -> dict[str, Any]:
        return self.data.setdefault(name, {})

    def subrule(self, key: str) -> dict[str, Any]:
        return self.data.setdefault("subrules", {}).setdefault(key, {})

    def print_number(self, key: str, date: str, rule_number: str, sub: crtext.ParsedSubrule) -> None:
        """The subrule `key` is `sub` in the release `date`: it keeps the number the release printed
        when that is not its rule's number and its letter (432.2b under the rule 423.2)."""
        if sub.number != rule_number + sub.letter:
            self.printed.setdefault(key, {})[date] = sub.number
        elif date in self.printed.get(key, {}):
            del self.printed[key][date]

    def finish(self, date: str, registered: set[str]) -> None:
        """Recompute number, release, letters, canonical texts, key order after the release
        `date`; the history is made at the end of the import (`finish_history`)."""
        old_number = self.data["number"]
        candidates = dict(self.facts)
        if self.curated_release is not None and self.curated_release != date:
            candidates.setdefault(self.curated_release, old_number)
        if candidates:
            release = max(candidates)
            self.data["release"], self.data["number"] = release, candidates[release]
        if self.curated_release is not None and self.data["release"] != self.curated_release:
            self._materialise(self.curated_release, old_number, registered)
        self.history_due = True
        release = self.data["release"]
        # subrules: their order and letters
        subrules = self.data.get("subrules")
        if subrules:
            present = {k for k, per in self.letters.items() if release in per}
            for key, unit in subrules.items():
                finish_unit(unit, date, release if key in present else None)

            def order(key: str) -> tuple:
                per = self.letters.get(key) or {release: key}
                if release in per:
                    return (0, "", SUBRULE_LETTERS.index(per[release]))
                last = max(per)
                return (1, last, SUBRULE_LETTERS.index(per[last]))
            self.data["subrules"] = {k: subrules[k] for k in sorted(subrules, key=order) if subrules[k]}
            letters = {}
            for key in self.data["subrules"]:
                own = self.letters.get(key, {})
                implicit = _unit_releases(self.data["subrules"][key])
                if not self.printed.get(key) and implicit.issuperset(own) and set(own.values()) <= {key}:
                    continue  # its own letter in every release it has a text in (most subrules)
                per = {**own, **self.printed.get(key, {})}
                explicit = {rel: letter for rel, letter in sorted(per.items())
                            if not (letter == key and rel in implicit)}
                if explicit:
                    letters[key] = FlowDict(explicit)
            if letters:
                self.data["letters"] = letters
            else:
                self.data.pop("letters", None)
        for name in ("title", "text"):
            if isinstance(self.data.get(name), dict):
                finish_unit(self.data[name], date, release)
                if not self.data[name]:
                    del self.data[name]
        moved = self.data.get("moved_from")
        if moved:  # the rule's own text first, then the subrules by letter
            self.data["moved_from"] = {k: moved[k] for k in sorted(moved, key=lambda k: (k != "text", k))}
        ordered = _ordered(self.data, RULE_KEYS)
        if ordered is not self.data:
            self.data.clear()
            self.data.update(ordered)

    def finish_history(self, newest: str) -> None:
        """Make the number history (`history`) of a rule finished by this import, once all its
        releases are merged; `newest`: the newest release imported."""
        self._history(newest)
        ordered = _ordered(self.data, RULE_KEYS)
        if ordered is not self.data:
            self.data.clear()
            self.data.update(ordered)
        self.history_due = False

    def _materialise(self, curated: str, number: str, registered: set[str]) -> None:
        """The file said the rule was `number` in `curated`; keep saying so in the history
        once `number` and `release` move to a newer release."""
        history = self.data.setdefault("history", [])
        curated_entries = [e for e in history if not _is_derived(e)]
        for i, e in enumerate(curated_entries):
            end = e.get("until") or (curated_entries[i + 1].get("since") if i + 1 < len(curated_entries) else None)
            if e.get("number") == number and _covers(e, end, curated):
                return
        if self.facts.get(curated) == number:
            return
        source = source_id(curated)
        if source not in registered:
            source = next((v["source"] for u in self._units() for v in u.get(SOURCE_LANGUAGE, []) or []), source)
        history.append({"number": number, "since": curated, "until": curated, "source": source})

    def _history(self, newest: str) -> None:
        history = [dict(e) for e in self.data.get("history", []) or [] if not _is_derived(e)]
        for e in history:
            e.pop("releases", None)
        ends = [e.get("until") or (history[i + 1].get("since") if i + 1 < len(history) else None)
                for i, e in enumerate(history)]
        facts = sorted(self.facts.items())
        runs: list[tuple[str, list[str]]] = []   # (number, the releases of a run with that number)
        if not history:  # no curated entries (most rules): the runs of the same number, at C speed
            runs = [(number, list(map(_FIRST, group))) for number, group in itertools.groupby(facts, _SECOND)]
        else:  # a release a curated entry covers joins it; the others make runs
            open_run = False
            for rel, number in facts:
                home = next((e for e, end in zip(history, ends) if e.get("number") == number and _covers(e, end, rel)),
                            None)
                if home is not None:
                    home.setdefault("releases", ReleaseList()).append(rel)
                    open_run = False
                    continue
                if open_run and runs[-1][0] == number:
                    runs[-1][1].append(rel)
                else:
                    runs.append((number, [rel]))
                    open_run = True
        last_known = max(facts[-1][0], self.data["release"]) if facts else self.data["release"]
        for number, rels in runs:
            first, last = rels[0], rels[-1]
            entry: dict[str, Any] = {"number": number, "since": first}
            if last != last_known or last < newest:
                entry["until"] = last
            entry["source"] = source_id(first)
            entry["releases"] = ReleaseList(rels)
            history.append(entry)
        history.sort(key=lambda e: (e.get("since") or "", number_key(e["number"])))
        history = [_ordered(e, HISTORY_KEYS) for e in history]
        if history:
            self.data["history"] = history
        else:
            self.data.pop("history", None)


# ---------------------------------------------------------------- the import


@dataclass(frozen=True)
class ImportReport:
    """What the import of one release found and did."""

    release: str
    source: str
    file: str
    encoding: str
    line_endings: str
    sections: int
    rules: int
    subrules: int
    glossary: int
    matched: int
    new: int
    renumbered: tuple[tuple[str, str, str], ...]   # (rule id, number before, number now)
    new_texts: int
    same_texts: int
    warnings: tuple[Problem, ...] = ()

    def lines(self) -> list[str]:
        out = [f"imported the Comprehensive Rules effective {self.release} (source {self.source})",
               f"  read {self.file}: {self.encoding}, line ends {self.line_endings}",
               f"  sections {self.sections}, rules {self.rules}, subrules {self.subrules}, glossary terms {self.glossary}",
               f"  rules and sections matched to the knowledge base: {self.matched}; new: {self.new}",
               f"  texts: {self.new_texts} new English versions, {self.same_texts} unchanged"]
        if self.renumbered:
            shown = ", ".join(f"{rid} {a} -> {b}" for rid, a, b in self.renumbered[:12])
            more = f" and {len(self.renumbered) - 12} more" if len(self.renumbered) > 12 else ""
            out.append(f"  renumbered since the nearest release the knowledge base had: {len(self.renumbered)} ({shown}{more})")
        for w in self.warnings:
            out.append(f"  warning: {w.file}:{w.line}: {w.message} ({w.hint})")
        return out


def _effective(release: crtext.Release, effective: str | None, path: str) -> str:
    if effective is not None:
        try:
            if dt.date.fromisoformat(effective).isoformat() != effective:
                raise ValueError
        except ValueError:
            raise DataError([Problem(path, 1, 1, f"--effective '{effective}' is not a date",
                                     "write it as YYYY-MM-DD, e.g. --effective 2026-01-16")]) from None
        if release.effective is not None and release.effective != effective:
            raise DataError([Problem(path, 1, 1, f"the file says it is effective as of {release.effective}, "
                                     f"--effective says {effective}",
                                     "drop --effective (the date in the file is used) or correct it")])
        return effective
    if release.effective is None:
        raise DataError([Problem(path, 1, 1, "the file does not say when it is effective "
                                 "(no line 'These rules are effective as of <Month> <day>, <year>.')",
                                 "give the date: --effective YYYY-MM-DD")])
    return release.effective


class Merge:
    """The merge of one release into one tree."""

    def __init__(self, tree: Tree, date: str, release: crtext.Release, states: dict[str, RuleState],
                 imported: set[str]):
        """`states`: every rule of the tree, as `rule_states` made them and earlier merges of
        this import left them (the merge changes them in place); `imported`: the releases
        imported before (this one too, when it is imported again)."""
        self.tree, self.date, self.release = tree, date, release
        self.counts = Counts()
        sources = tree.files[SOURCES_FILE].get("sources") or {}
        self.registered = set(sources)
        self.release_sources = frozenset(sid for sid, s in sources.items() if isinstance(s, dict) and s.get("kind") == SOURCE_KIND)
        self.newest = max(imported | {date})
        self.imported = imported
        self.moved: set[str] = set()   # rules given a `moved_from` by this merge
        self.states = states
        # files holding a list of rules (`rules:`), by path: the list, changed in place
        self.lists: dict[str, list[dict[str, Any]]] = {}
        for path, data in tree.files.items():
            if path.startswith(RULES_DIR + "/") and isinstance(data, dict) and list(data) == ["rules"]:
                self.lists[path] = data["rules"]
        self.paths = set(tree.files)
        self.repeated: list[crtext.ParsedRule] = []

    # -- identity

    def _known(self) -> tuple[list[identity.Known], dict[str, tuple[str, list[tuple[str, str, str]]]]]:
        """What the tree knows of each rule as of the release nearest to this one (read from
        the states, as the knowledge base would say it: `english_at`, `Rule.number_in`)."""
        known = []
        subs: dict[str, tuple[str, list[tuple[str, str, str]]]] = {}
        rows = []
        for rid, state in self.states.items():
            data, facts = state.data, state.facts
            release = data["release"]
            near = max(max(facts), release) if facts else release
            if near > self.date:  # an older release imported later: the nearest one before it
                rels = set(facts) | {release}
                older = [r for r in rels if r <= self.date]
                near = max(older) if older else min(rels)
            number = facts[near] if near in facts else data["number"]
            title = _english_at(data.get("title"), near, release)
            text = _english_at(data.get("text"), near, release)
            sublist = []
            for key, unit in (data.get("subrules") or {}).items():
                letter = state.letters.get(key, {}).get(near)
                if letter is None:
                    continue
                sublist.append((key, letter, _english_at(unit, near, release) or ""))
            sublist.sort(key=lambda s: LETTER_INDEX[s[1]])
            subs[rid] = (number, sublist)
            rows.append((number_key(number), rid, number, title, text or "", tuple(s[2] for s in sublist), not facts))
        rows.sort()
        for order, (_, rid, number, title, text, subtexts, curated) in enumerate(rows):
            known.append(identity.Known(rid, number, title, text, subtexts, order, curated))
        return known, subs

    def _incoming(self) -> list[tuple[identity.Incoming, Any]]:
        """The release's sections and rules in order, for identity. A number the release gives
        twice (501.2 in sections 501 and 510 of 2006-05-01) is matched once: the second is kept
        in `self.repeated` and merged as a second text of the same rule in this release."""
        out = []
        order = 0
        by_section: dict[str, list[crtext.ParsedRule]] = {}
        seen: set[str] = set()
        for rule in self.release.rules:
            if rule.number in seen:
                self.repeated.append(rule)
                continue
            seen.add(rule.number)
            by_section.setdefault(rule.section, []).append(rule)
        for section in self.release.sections:
            out.append((identity.Incoming(section.number, section.title, "\n".join(section.lines), (), order), section))
            order += 1
            for rule in by_section.get(section.number, []):
                out.append((identity.Incoming(rule.number, rule.title, rule.text or "",
                                              tuple(s.text for s in rule.subrules), order), rule))
                order += 1
        return out

    # -- ids

    def _section_file(self, section_id: str) -> str:
        """Where new rules of a section go: the list file its section rule is in."""
        state = self.states[section_id]
        if state.path in self.lists:
            return state.path
        path = f"{RULES_DIR}/{section_id}.yaml"
        if path in self.paths and path not in self.lists:
            path = f"{RULES_DIR}/{section_id}-rules.yaml"
        return path

    def _add_rule(self, state: RuleState) -> None:
        self.states[state.id] = state
        if state.path not in self.lists:
            self.lists[state.path] = []
            self.paths.add(state.path)
        self.lists[state.path].append(state.data)

    def _new_rule_id(self, item: Any) -> str:
        taken = set(self.states)
        if isinstance(item, crtext.Section):
            base = "section-" + slug(item.title)
            options = [base, f"{base}-{item.number}"]
        elif item.title:
            base = slug(item.title)
            options = [base, f"{base}-{item.number.replace('.', '-')}"]
        else:
            base = slug(" ".join(item.lines[0].split()[:7]), 40)
            options = [base]
        for option in options:
            if option not in taken and f"{RULES_DIR}/{option}.yaml" not in self.paths:
                return option
        n = 2
        while f"{options[-1]}-{n}" in taken or f"{RULES_DIR}/{options[-1]}-{n}.yaml" in self.paths:
            n += 1
        return f"{options[-1]}-{n}"

    # -- merge

    def rules(self) -> tuple[int, int, list[tuple[str, str, str]]]:
        known, known_subs = self._known()
        incoming = self._incoming()
        ids = identity.match_rules(known, [inc for inc, _ in incoming])
        had_it = set()   # the rules this release had when it was imported before
        for rid, state in self.states.items():
            if self.date in state.facts:
                had_it.add(rid)
            state.retract(self.date)
        matched = new = 0
        renumbered = []
        section_id = ""
        number_ids: dict[str, str] = {}                    # number in this release -> rule id
        ended: list[tuple[str, str, str]] = []             # (unit id, number, text): gone from this release
        started: list[tuple[str, str, str, str]] = []      # (rule id, unit key, number, text): new in it
        for (inc, item), rid in zip(incoming, ids):
            if rid is None:
                rid = self._new_rule_id(item)
                if isinstance(item, crtext.Section):
                    path = f"{RULES_DIR}/{rid}.yaml"
                    if path in self.paths:
                        path = f"{RULES_DIR}/{rid}-rules.yaml"
                else:
                    path = self._section_file(section_id)
                self._add_rule(RuleState.new(rid, path, inc.number, self.date))
                new += 1
                before, keys = None, []
            else:
                matched += 1
                before, keys = known_subs[rid]
                if before != inc.number:
                    renumbered.append((rid, before, inc.number))
            state = self.states[rid]
            state.matched = True
            state.facts[self.date] = inc.number
            number_ids[inc.number] = rid
            if isinstance(item, crtext.Section):
                section_id = rid
                add_text(state.unit("title"), item.title, self.date, self.release_sources, self.counts)
                if item.lines:
                    add_text(state.unit("text"), "\n".join(item.lines), self.date, self.release_sources, self.counts)
                continue
            if item.title:
                add_text(state.unit("title"), item.title, self.date, self.release_sources, self.counts)
            else:
                add_text(state.unit("text"), item.text, self.date, self.release_sources, self.counts)
                if before is None:
                    started.append((rid, "text", inc.number, item.text))
            kept = self._subrules(state, item, keys, started)
            ended += [(f"{rid}.{key}", f"{before}{letter}", text) for key, letter, text in keys if key not in kept]
        for rule in self.repeated:
            self._repeated(self.states[number_ids[rule.number]], rule)
        unmatched = set(known_subs) - {rid for rid in ids if rid is not None}
        for k in known:
            if k.id in unmatched and not k.is_section:
                if k.text and not k.title:
                    ended.append((f"{k.id}.text", k.number, k.text))
                ended += [(f"{k.id}.{key}", f"{k.number}{letter}", text) for key, letter, text in known_subs[k.id][1]]
        self._moves(ended, started)
        # finish the rules this release may have changed: those it has or had, those a move
        # names, the curated ones, and those of the newest release before it (which may end
        # here); the others are as the last finish left them (finishing every rule after
        # every release made importing 110 releases quadratic: 40 % of the time)
        before = max((d for d in self.imported if d != self.date), default="")
        for rid, state in self.states.items():
            if not (state.matched or rid in had_it or rid in self.moved or state.curated_release is not None
                    or not state.facts or max(state.facts) >= before):
                continue
            state.finish(self.date, self.registered)
            if state.path not in self.lists:
                self.tree.put(state.path, state.data)
            # as `RuleState.of` would make it from the data now: for the next release
            state.curated_release = None if state.data["release"] in state.facts else state.data["release"]
            state.matched = False
        for path, items in self.lists.items():
            items.sort(key=lambda d: (number_key(d["number"]), d["release"]))
            self.tree.put(path, {"rules": items})
        return matched, new, renumbered

    def _subrules(self, state: RuleState, rule: crtext.ParsedRule, keys: list[tuple[str, str, str]],
                  started: list[tuple[str, str, str, str]]) -> set[str]:
        """Merge the subrules of a matched or new rule; the keys of the known subrules that the
        release still has. New subrules are added to `started`."""
        firsts: dict[str, int] = {}
        for i, sub in enumerate(rule.subrules):
            firsts.setdefault(sub.letter, i)
        unique = [sub for i, sub in enumerate(rule.subrules) if firsts[sub.letter] == i]
        matched = dict(zip((s.letter for s in unique),
                           identity.match_subrules(keys, [(s.letter, s.text) for s in unique])))
        existing = set((state.data.get("subrules") or {}).keys()) | set(state.letters)
        found: list[str | None] = []
        given: dict[str, str] = {}   # letter -> key given in this release
        for sub in rule.subrules:
            if sub.letter in given:  # a letter twice (702.30d of 2009-09-04): a second text of the same subrule
                add_text(state.subrule(given[sub.letter]), sub.text, self.date, self.release_sources, self.counts)
                continue
            key = matched[sub.letter]
            found.append(key)
            if key is None:
                key = sub.letter
                n = 2
                while key in existing:
                    key = f"{sub.letter}-{n}"
                    n += 1
                existing.add(key)
                started.append((state.id, key, f"{rule.number}{sub.letter}", sub.text))
            given[sub.letter] = key
            add_text(state.subrule(key), sub.text, self.date, self.release_sources, self.counts)
            state.letters.setdefault(key, {})[self.date] = sub.letter
            state.print_number(key, self.date, rule.number, sub)
        return {key for key in found if key is not None}

    def _repeated(self, state: RuleState, rule: crtext.ParsedRule) -> None:
        """A rule whose number the release gave before: its texts are second texts of that
        rule in this release (the parser warned); its subrules join the rule's by letter."""
        name = "title" if rule.title else "text"
        add_text(state.unit(name), rule.title or rule.text or "", self.date, self.release_sources, self.counts)
        given = {per[self.date]: key for key, per in state.letters.items() if self.date in per}
        for sub in rule.subrules:
            key = given.get(sub.letter)
            if key is None:
                key, n = sub.letter, 2
                while key in (state.data.get("subrules") or {}) or key in state.letters:
                    key, n = f"{sub.letter}-{n}", n + 1
                given[sub.letter] = key
                state.letters.setdefault(key, {})[self.date] = sub.letter
                state.print_number(key, self.date, rule.number, sub)
            add_text(state.subrule(key), sub.text, self.date, self.release_sources, self.counts)

    def _moves(self, ended: list[tuple[str, str, str]], started: list[tuple[str, str, str, str]]) -> None:
        """Texts that moved to another rule (`identity.match_moves`): the newer unit records the
        older one in its rule's `moved_from`. An ended unit is one of the nearest known release
        that this release lacks; it moved only if all its releases are before this one (the
        usual order of imports) or all after it (an older release imported later)."""
        # a text continues in one place: one already continued (by an earlier import: a rule that
        # left the rules stays known with its subrules, release after release) is not offered again
        claimed = {previous for state in self.states.values() for previous in (state.data.get("moved_from") or {}).values()}
        ended = [u for u in ended if u[0] not in claimed]
        if not ended or not started:
            return
        spans = {}
        for uid, _, _ in ended:  # the releases of its first and of its last English version
            rid, key = uid.split(".", 1)
            data = self.states[rid].data
            unit = data.get("text") if key == "text" else (data.get("subrules") or {}).get(key)
            versions = sorted((v["releases"] for v in (unit or {}).get(SOURCE_LANGUAGE) or () if v.get("releases")),
                              key=lambda rels: rels[0])
            if versions:
                spans[uid] = (versions[0][0], versions[-1][-1])
        earlier = [u for u in ended if u[0] in spans and spans[u[0]][1] < self.date]
        later = [u for u in ended if u[0] in spans and spans[u[0]][0] > self.date]
        free = list(range(len(started)))
        for group, newer_is_started in ((earlier, True), (later, False)):
            if not group or not free:
                continue
            found = identity.match_moves(group, [(started[i][0], started[i][2], started[i][3]) for i in free])
            for i, previous in zip(list(free), found):
                if previous is None:
                    continue
                free.remove(i)
                rid, key = started[i][0], started[i][1]
                if newer_is_started:
                    self.states[rid].data.setdefault("moved_from", {})[key] = previous
                    self.moved.add(rid)
                elif f"{rid}.{key}" not in claimed:
                    old_rid, old_key = previous.split(".", 1)
                    self.states[old_rid].data.setdefault("moved_from", {}).setdefault(old_key, f"{rid}.{key}")
                    claimed.add(f"{rid}.{key}")
                    self.moved.add(old_rid)

    def glossary(self) -> None:
        """Glossary terms, one file per initial (rules/glossary/a.yaml: ``terms: [...]``)."""
        lists: dict[str, list[dict[str, Any]]] = {}
        datas: dict[str, dict[str, Any]] = {}
        for path, data in self.tree.files.items():
            if path.startswith(GLOSSARY_DIR + "/"):
                lists[path] = data.setdefault("terms", [])
                for item in lists[path]:
                    datas[item["id"]] = item
        known = []
        for gid in sorted(datas):
            term = _english_at(datas[gid].get("term"), None, None)
            if term is not None:
                known.append((gid, term))
        ids = identity.match_glossary(known, [item.term for item in self.release.glossary])
        for data in datas.values():
            for name in ("term", "definition"):
                retract(data.get(name) or {}, self.date)
        for item, gid in zip(self.release.glossary, ids):
            if gid is None:
                base = slug(item.term)
                gid, n = base, 2
                while gid in datas:
                    gid, n = f"{base}-{n}", n + 1
                datas[gid] = {"id": gid, "term": {}, "definition": {}}
                initial = gid[0] if gid[0].isalpha() else "0-9"
                lists.setdefault(f"{GLOSSARY_DIR}/{initial}.yaml", []).append(datas[gid])
            data = datas[gid]
            add_text(data["term"], item.term, self.date, self.release_sources, self.counts)
            if item.lines:  # a term without a definition (2013-02-01 stops after one) has none to add
                add_text(data["definition"], item.definition, self.date, self.release_sources, self.counts)
        for path, items in lists.items():
            for data in items:
                for name in ("term", "definition"):
                    finish_unit(data.setdefault(name, {}), self.date, None)
            kept = sorted((d for d in items if d["term"] or d["definition"]), key=lambda d: d["id"])
            if kept:
                self.tree.put(path, {"terms": kept})
            else:
                self.tree.delete(path)

    def manifest(self, file: str) -> None:
        data = {"release": self.date, "source": source_id(self.date), "file": file, "sha256": self.release.sha256,
                "importer": importer_version(),
                "encoding": self.release.encoding, "line_endings": self.release.line_endings,
                "chapters": {c.number: c.title for c in self.release.chapters}}
        if not data["chapters"]:
            del data["chapters"]
        self.tree.put(f"{RELEASES_DIR}/{self.date}.yaml", data)


def _english_at(unit: Any, release: str | None, rule_release: str | None) -> str | None:
    """`releases.english_at` on the plain data of a unit: the English text that lists the
    release, else (for the rule's own release, or None: any) the canonical one."""
    variants = (unit or {}).get(SOURCE_LANGUAGE) if isinstance(unit, dict) else None
    if not variants:
        return None
    ordered = sorted(variants, key=lambda v: v.get("canonical") is not True) if len(variants) > 1 else variants
    if release is not None:
        for v in ordered:
            if release in (v.get("releases") or ()):
                return v["text"]
    if release is None or release == rule_release:
        return ordered[0]["text"]
    return None


def rule_states(kb: KnowledgeBase, tree: Tree) -> dict[str, RuleState]:
    """A state per rule of the knowledge base, on the tree's data of that rule."""
    in_lists: dict[str, dict[str, Any]] = {}
    for path, data in tree.files.items():
        if path.startswith(RULES_DIR + "/") and isinstance(data, dict) and list(data) == ["rules"]:
            for item in data["rules"]:
                in_lists[f"{path}#{item.get('id')}"] = item
    return {rule.id: RuleState.of(rule, in_lists.get(f"{rule.file}#{rule.id}") or tree.files[rule.file])
            for rule in kb.rules}


def shared_path(root: Path, file: Path) -> str:
    """A release file as rules/sources.yaml names a source's file: relative to the reference material
    beside the project (../shared: data/comprehensive-rules/archive/2026-01-16.txt) when it lies there,
    so that a reader and the tests find it; else its name."""
    try:
        return file.resolve().relative_to((root.parent / "shared").resolve()).as_posix()
    except ValueError:
        return file.name


def _register_source(tree: Tree, root: Path, date: str, file: str, text: str | None) -> str | None:
    entry = {"title": f"Magic Comprehensive Rules, effective {date}", "kind": SOURCE_KIND, "file": file, "date": date}
    return register_source(tree, root, source_id(date), entry, text)


@dataclass(frozen=True)
class Skipped:
    """A release file imported already: its release file records the same bytes (SHA-256), the
    same place and this version of the importer, so importing it again would change nothing."""

    release: str
    file: str
    sha256: str

    def line(self) -> str:
        return (f"skipped the Comprehensive Rules effective {self.release}: imported already from {self.file} "
                f"(the same SHA-256, {self.sha256[:12]}…, and importer {importer_version()}); "
                "--force imports it again")


@dataclass(frozen=True)
class ImportResult:
    """What `import_releases` did: a report per release imported (oldest first), the releases
    skipped as imported already, the files it wrote."""

    reports: tuple[ImportReport, ...]
    root: Path
    dataset_created: bool
    added: tuple[str, ...]
    changed: tuple[str, ...]
    deleted: tuple[str, ...]
    skipped: tuple[Skipped, ...] = ()

    def lines(self) -> list[str]:
        out = [s.line() for s in self.skipped]
        for report in self.reports:
            out += report.lines()
        if self.dataset_created:
            out.append(f"created the dataset {self.root} (a copy of the project's data); "
                       f"build it with: rulekb --root {self.root} build")
        if not (self.added or self.changed or self.deleted):
            out.append("files: nothing changed (imported already)")
        else:
            out.append(f"files: {len(self.added)} added, {len(self.changed)} changed, {len(self.deleted)} removed"
                       f" under {self.root}")
        return out


def import_release(root: Path, file: Path, effective: str | None = None, into: Path | None = None,
                   force: bool = False) -> ImportResult:
    """Import the release text `file` into the project tree `root` (or into the dataset `into`,
    created from `root` when it does not exist). Raises DataError, writing nothing, on bad input."""
    return import_releases(root, [file], effective, into, force)


def import_releases(root: Path, files: Sequence[Path], effective: str | None = None,
                    into: Path | None = None, force: bool = False) -> ImportResult:
    """Import several release texts, oldest first, writing once at the end. A file imported
    already (`imported_already`) is skipped, unless `force`."""
    return _import(root, files, effective, into, force)


def imported_already(target: Path, project: Path, files: Sequence[tuple[Path, bytes]],
                     effective: str | None = None) -> dict[int, Skipped]:
    """The files (index -> what was found) that the tree `target` has imported already: a release
    file of rules/releases/ records the file's SHA-256, its place (`shared_path` of `project`) and
    the version of this importer, its release's source is registered, and `effective`, when
    given, is that release. Read from the small release files alone: nothing else is loaded."""
    folder = target / RELEASES_DIR
    by_digest: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        parsed, problems = parse_file(path, target)
        data = plain(parsed.root) if parsed is not None and not problems else None
        if isinstance(data, dict) and isinstance(data.get("sha256"), str) and path.name == f"{data.get('release')}.yaml":
            by_digest.setdefault(data["sha256"], []).append(data)
    if not by_digest:
        return {}
    sources_path = target / SOURCES_FILE
    parsed, problems = parse_file(sources_path, target) if sources_path.is_file() else (None, [])
    sources = plain(parsed.root) if parsed is not None and not problems else None
    registered = (sources or {}).get("sources") if isinstance(sources, dict) else None
    if not isinstance(registered, dict):
        return {}
    version = importer_version()
    out: dict[int, Skipped] = {}
    for i, (file, data) in enumerate(files):
        digest = hashlib.sha256(data).hexdigest()
        found = by_digest.get(digest, [])
        if len(found) != 1:
            continue
        record = found[0]
        date = record["release"]
        entry = registered.get(source_id(date))
        if (record.get("importer") == version and record.get("file") == shared_path(project, file)
                and record.get("source") == source_id(date) and (effective is None or effective == date)
                and isinstance(entry, dict) and entry.get("kind") == SOURCE_KIND):
            out[i] = Skipped(date, str(file), digest)
    return out


def _current(tree: Tree, loaded: tuple[SourceFile, ...]) -> tuple[SourceFile, ...]:
    """The tree as it would be written: parsed files where unchanged, the new data elsewhere."""
    added, changed, deleted = tree.changes()
    touched = set(added) | set(changed) | {SOURCES_FILE}
    out = [f for f in loaded if f.path not in touched and f.path not in deleted]
    out += [SourceFile(path, tree.node(path)) for path in sorted(touched)]
    return tuple(out)


def _import(root: Path, paths: Sequence[Path], effective: str | None, into: Path | None,
            force: bool = False) -> ImportResult:
    if effective is not None and len(paths) != 1:
        raise DataError([Problem(str(paths[0]) if paths else "-", 1, 1, "--effective applies to one release file",
                                 "import the files one by one, or drop --effective (each file says its date)")])
    if into is not None:
        check_into(into)   # before the release files are read: nothing is written into an --into that cannot be one
    contents = []
    for file in paths:
        try:
            contents.append((file, file.read_bytes()))
        except OSError as exc:
            raise DataError([Problem(str(file), 1, 1, f"cannot read the release file: {exc.strerror}",
                                     "give the path of a Comprehensive Rules .txt file")]) from None
    # a file imported already from the same bytes by this importer is not read again: importing
    # all 110 releases again took 128 s of processor time to change nothing (a dataset that does
    # not exist yet will be a copy of the project: the project's release files say it)
    existing = into if into is not None and (into / "rules").is_dir() else root
    skipped = {} if force else imported_already(existing, root, contents, effective)
    releases = []
    for i, (file, data) in enumerate(contents):
        if i in skipped:
            continue
        release = crtext.read_release(data, str(file))
        releases.append((_effective(release, effective, str(file)), file, release))
    dated = sorted([(r[0], r[1]) for r in releases] + [(s.release, paths[i]) for i, s in skipped.items()],
                   key=lambda r: r[0])
    for (d1, f1), (d2, f2) in zip(dated, dated[1:]):
        if d1 == d2:
            raise DataError([Problem(str(f2), 1, 1, f"{f1} and {f2} are both the release of {d1}",
                                     "import one file per release")])
    releases.sort(key=lambda r: r[0])
    passed = tuple(sorted(skipped.values(), key=lambda s: s.release))
    if not releases:
        created = prepare_dataset(root, into) if into is not None else False
        remove_stale_temporaries_of(into if into is not None else root)
        return ImportResult((), into if into is not None else root, created, (), (), (), passed)
    opened = open_target(root, into)
    target, created, loaded, kb = opened.root, opened.created, opened.files, opened.kb
    tree = Tree.from_files(target, opened.rule_files)
    sources_text: str | None = None
    reports = []
    # the merges go from release to release on the tree's plain data (`states`); the knowledge
    # base is built once, at the end, to validate what would be written: building it after each
    # release made importing many releases quadratic (110 releases: 8 minutes, 60 % of it that)
    states = rule_states(kb, tree)
    imported = {r.date for r in kb.releases}
    for date, file, release in releases:
        where = shared_path(root, file)
        sources_text = _register_source(tree, target, date, where, sources_text) or sources_text
        merge = Merge(tree, date, release, states, imported)
        matched, new, renumbered = merge.rules()
        merge.glossary()
        merge.manifest(where)
        imported.add(date)
        newest = merge.newest
        reports.append(ImportReport(date, source_id(date), str(file), release.encoding, release.line_endings,
                                    len(release.sections), len(release.rules),
                                    sum(len(r.subrules) for r in release.rules), len(release.glossary), matched, new,
                                    tuple(renumbered), merge.counts.new_texts, merge.counts.same_texts,
                                    release.warnings))
    for state in states.values():
        if state.history_due:
            state.finish_history(newest)
    try:
        build_knowledge_base(_current(tree, loaded), target)
    except DataError as exc:  # a bug of the importer: say so, write nothing
        raise DataError([Problem(p.file, p.line, p.column, f"the import would write invalid data: {p.message}",
                                 "nothing was written; please report this with the release file")
                         for p in exc.problems]) from None
    texts = {SOURCES_FILE: sources_text} if sources_text is not None else {}
    added, changed, deleted = tree.save(skip={SOURCES_FILE}, texts=texts)   # one change: all or none
    return ImportResult(tuple(reports), target, created, tuple(added), tuple(changed), tuple(deleted), passed)
