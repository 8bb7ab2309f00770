"""Pipeline stage 2 of 6 (load -> validate -> link -> check -> render -> report).

Checks the positioned YAML nodes of `load` against the schema (read with `schema.Reader`) and
builds the typed, frozen `KnowledgeBase`: `check_file` turns one data file into the models it
holds (a `FileContents`, the unit the knowledge cache keeps), `assemble` checks them across files
(duplicate ids and numbers, cited ids, releases, moves) and builds the knowledge base. Every
refusal names file, line and column, says what is wrong and how to fix it; all problems of a
run are raised together as one `DataError`. Where the files are: `layout`; the sequential
load -> validate -> link of a project: `knowledge`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Sequence, TypeVar

from .diagnostics import DataError, Problem, did_you_mean
from .layout import (CARDS_DIR, GLOSSARY_DIR, LANGUAGES_FILE, RELEASES_DIR, RULES_DIR, RULINGS_DIR, SOURCES_FILE, TRANSLATIONS_DIR,
                     release_dates)
from .load import MapNode, Node, SourceFile
from .models import (SOURCE_LANGUAGE, Card, GlossaryEntry, HistoryEntry, KnowledgeBase, Move, Pos, Rule, RulesRelease,
                     Ruling, Subrule, Unit, UnitKind, subrule_number)
from .refs import SUBRULE_LETTERS, sort_key
from .validate_cards import cards_from, rulings_from
from .schema import (NOTE_KEY, SHA256, SUBRULE_KEY, SUBRULE_LETTER_OR_NUMBER, UNIT_ID, Context, Project, Reader, Shape,
                     read_history, read_project, read_unit)

T = TypeVar("T")

RULE_FIELDS = ("id", "number", "release")
RULE_OPTIONAL = ("history", "title", "summary", "text", "subrules", "letters", "moved_from", "notes")
RULE = Shape(RULE_FIELDS, RULE_OPTIONAL)


def _letters(r: Reader, node: Node | None, keys: set[str]) -> dict[str, dict[str, str]]:
    """`letters`: subrule key -> {release: letter}, where an imported release gave a subrule
    another letter than its key (or the key is not a plain letter), or printed it with another
    rule's number (the whole number then: "432.2b" under 423.2)."""
    out: dict[str, dict[str, str]] = {}
    lm = r.entries(node, "letters") if node is not None else None
    for key, value in lm.items if lm else ():
        if key.value not in keys:
            hint = did_you_mean(key.value, keys) or "list only subrules of this rule"
            r.error(key, f"letters: '{key.value}' is not a subrule of this rule", hint)
            continue
        vm = r.entries(value, f"letters of '{key.value}'")
        per: dict[str, str] = {}
        for rel, letter_node in vm.items if vm else ():
            date = r.date(rel, f"letters of '{key.value}' release")
            letter = r.pattern(letter_node, f"letter of '{key.value}' in {rel.value}", SUBRULE_LETTER_OR_NUMBER,
                               "one lowercase letter, or the subrule's number as the release printed it (432.2b)")
            if letter is not None and letter[-1] in "lo":
                r.error(letter_node, f"letter of '{key.value}' in {rel.value} is '{letter}'", "the rules skip 'l' and 'o'")
            elif date and letter:
                per[date] = letter
        out[key.value] = per
    return out


def _relabel(unit: Unit, label: str) -> Unit:
    return unit if unit.label == label else Unit(unit.id, unit.kind, label, unit.variants, unit.pos, unit.ruling)


def rules_from(f: SourceFile, ctx: Context) -> tuple[list[Rule], list[Problem]]:
    """A rule file: one rule, or (as the import writes a section of the rules) a list of
    rules under the single key ``rules``."""
    r = Reader(f.path)
    return r.entries_of(f.root, "rules", "rule", lambda node, what: _rule(r, node, ctx, what)), r.problems


def _rule(r: Reader, node: Node, ctx: Context, what: str) -> Rule | None:
    fields = r.fields(node, what, RULE)
    if fields is None:
        return None
    m: MapNode = node  # type: ignore[assignment]
    rid = r.slug(fields.get("id"), "rule id")
    number = r.rule_number(fields.get("number"), "rule number")
    release = r.date(fields.get("release"), "rule release")
    if rid is None or number is None:
        return None
    head = {}
    for kind in (UnitKind.TITLE, UnitKind.SUMMARY, UnitKind.TEXT):
        node = fields.get(kind.value)
        head[kind] = read_unit(r, ctx, node, f"{rid}.{kind.value}", kind, f"{number} {kind.value}") if node else None
    history = read_history(r, ctx, fields.get("history"))
    subrules, former = _subrules(r, ctx, m, rid, number, release, history)
    notes = []
    notes_node = fields.get("notes")
    if notes_node is not None:
        nm = r.entries(notes_node, "notes")
        for key, value in nm.items if nm else ():
            if not NOTE_KEY.match(key.value):
                r.error(key, f"note key '{key.value}' is not a note id", "name notes n1, n2, … (never reuse a retired id)")
                continue
            unit = read_unit(r, ctx, value, f"{rid}.{key.value}", UnitKind.NOTE, f"{number} note {key.value[1:]}")
            if unit:
                notes.append(unit)
    if release is None:
        return None
    moves = _moved_from(r, fields.get("moved_from"), rid, head[UnitKind.TEXT], subrules + former)
    return Rule(rid, number, release, history, head[UnitKind.TITLE], head[UnitKind.SUMMARY],
                head[UnitKind.TEXT], tuple(subrules), tuple(notes), r.file, tuple(former), m.line, moves)


def _moved_from(r: Reader, node: Node | None, rid: str, text: Unit | None, subrules: list[Subrule]) -> tuple[Move, ...]:
    """`moved_from`: a unit key of this rule ('text' or a subrule key) -> the id of the unit of
    another rule it continues (checked across files by `_moves_cross`)."""
    mm = r.entries(node, "moved_from") if node is not None else None
    if not mm:
        return ()
    mine = {sub.unit.id.split(".", 1)[1]: sub.unit.id for sub in subrules}
    if text is not None:
        mine["text"] = text.id
    out = []
    for key, value in mm.items:
        if key.value not in mine:
            hint = did_you_mean(key.value, mine) or ("name the rule's own text ('text') or one of its subrule keys: "
                                                     + (", ".join(mine) or "this rule has neither"))
            r.error(key, f"moved_from: '{key.value}' is not a text of this rule", hint)
            continue
        previous = r.pattern(value, f"moved_from of '{key.value}'", UNIT_ID,
                             "the id of a unit of another rule: RULE-ID.text or RULE-ID.SUBRULE-KEY")
        if previous is not None:
            out.append(Move(mine[key.value], previous, Pos(r.file, value.line)))
    return tuple(out)


def _subrules(r: Reader, ctx: Context, m: MapNode, rid: str, number: str, release: str | None,
              history: tuple[HistoryEntry, ...]) -> tuple[list[Subrule], list[Subrule]]:
    """The subrules of the rule's release (by letter) and its former subrules.

    A subrule is in the releases its English texts list plus those of its `letters` entry; its
    letter in a release is the `letters` entry, else its key. A subrule with no release at all
    (curated data) is in the rule's release under its key."""
    subrules: list[Subrule] = []
    former: list[Subrule] = []
    sub_node = m.get("subrules")
    sm = r.entries(sub_node, "subrules") if sub_node is not None else None
    keys = {k.value for k, _ in sm.items} if sm else set()
    letters = _letters(r, m.get("letters"), keys)
    taken: dict[tuple[str, str], str] = {}
    numbers = {rel: e.number for e in history for rel in e.releases}
    for key, value in sm.items if sm else ():
        k = key.value
        if not SUBRULE_KEY.match(k) or k[0] in "lo":
            r.error(key, f"subrule key '{k}' is not a subrule letter",
                    "use the subrule's letter as in the rules (a, b, c …; the rules skip l and o)")
            continue
        unit = read_unit(r, ctx, value, f"{rid}.{k}", UnitKind.SUBRULE, f"{number}{k[0]}")
        if unit is None:
            continue
        plain_letter = k if len(k) == 1 else None
        known: dict[str, str | None] = {rel: plain_letter for v in unit.variants.get(SOURCE_LANGUAGE, ())
                                        for rel in v.releases}
        known.update(letters.get(k, {}))
        if not known and release is not None:  # curated: in the rule's release, under its key
            known[release] = plain_letter
        lacking = sorted(rel for rel, letter in known.items() if letter is None)
        if lacking or not known:
            r.error(key, f"subrule '{k}' has no letter for the release(s) {', '.join(lacking) or '(none listed)'}",
                    f"add 'letters: {{{k}: {{RELEASE: LETTER}}}}' for each release the subrule is in")
            continue
        for rel, letter in sorted(known.items()):
            if (rel, letter) in taken:  # type: ignore[comparison-overlap]
                r.error(key, f"subrules '{taken[(rel, letter)]}' and '{k}' both have the letter '{letter}' in {rel}",  # type: ignore[index]
                        "correct the 'letters' entries: one subrule per letter and release")
            taken[(rel, letter)] = k  # type: ignore[index]
        if release in known:
            letter = known[release]
            label = subrule_number(number, letter)  # type: ignore[arg-type]
            subrules.append(Subrule(letter[-1], label, _relabel(unit, label),  # type: ignore[index]
                                    MappingProxyType(dict(sorted(known.items())))))  # type: ignore[arg-type]
        else:
            last = max(known)
            if last not in numbers:
                for i, entry in enumerate(history):
                    end = entry.until or (history[i + 1].since if i + 1 < len(history) else None)
                    if entry.since is not None and entry.covers(last, end):
                        numbers[last] = entry.number
            if last not in numbers:
                r.error(key, f"subrule '{k}' is in the release {last}, but the rule's history gives no number for it",
                        f"add {last} to the 'releases' of the history entry with the rule's number in that release")
                continue
            label = subrule_number(numbers[last], known[last])  # type: ignore[arg-type]
            former.append(Subrule(known[last][-1], label, _relabel(unit, label),  # type: ignore[arg-type]
                                  MappingProxyType(dict(sorted(known.items()))), last))  # type: ignore[arg-type]
    subrules.sort(key=lambda s: SUBRULE_LETTERS.index(s.letter))
    return subrules, former


def glossary_from(f: SourceFile, ctx: Context) -> tuple[list[GlossaryEntry], list[Problem]]:
    """A glossary file: ``terms``, a list of {id, term, definition}."""
    r = Reader(f.path)
    m = r.mapping(f.root, "a glossary file", ("terms",))
    out: list[GlossaryEntry] = []
    for item in r.sequence(m.get("terms"), "terms") if m else ():
        em = r.mapping(item, "a glossary term", ("id", "term", "definition"))
        if em is None:
            continue
        gid = r.slug(em.get("id"), "glossary id")
        if gid is None or em.get("term") is None or em.get("definition") is None:
            continue
        term = read_unit(r, ctx, em.get("term"), f"glossary.{gid}.term", UnitKind.TITLE, f"glossary {gid} term")  # type: ignore[arg-type]
        definition = read_unit(r, ctx, em.get("definition"), f"glossary.{gid}.definition", UnitKind.TEXT,  # type: ignore[arg-type]
                           f"glossary {gid}")
        if term is not None and definition is not None:
            out.append(GlossaryEntry(gid, term, definition, f.path, em.line))
    return out, r.problems


def release_from(f: SourceFile, ctx: Context) -> tuple[RulesRelease | None, list[Problem]]:
    r = Reader(f.path)
    m = r.mapping(f.root, "a release file", ("release", "source", "file", "sha256"),
                  ("importer", "encoding", "line_endings", "chapters"))
    if m is None:
        return None, r.problems
    date = r.date(m.get("release"), "release date")
    source = r.choice(m.get("source"), "release source", ctx.source_ids)
    file = r.nonempty(m.get("file"), "release file")
    r.pattern(m.get("sha256"), "release sha256", SHA256, "the 64 hex digits of the file's SHA-256")
    for name in ("importer", "encoding", "line_endings"):
        if m.get(name) is not None:
            r.nonempty(m.get(name), f"release {name}")
    chapters = []
    cm = r.entries(m.get("chapters"), "chapters") if m.get("chapters") is not None else None
    for key, value in cm.items if cm else ():
        if not re.match(r"^[1-9]$", key.value):
            r.error(key, f"chapter '{key.value}' is not a chapter number", "chapters are numbered 1 to 9")
        elif (title := r.nonempty(value, f"chapter {key.value}")) is not None:
            chapters.append((key.value, title))
    if date is not None and f.path.rsplit("/", 1)[-1] != f"{date}.yaml":
        r.error(m.get("release"), f"the release {date} is in {f.path}",  # type: ignore[arg-type]
                f"name the file rules/releases/{date}.yaml")
    if date is None or source is None or file is None:
        return None, r.problems
    return RulesRelease(date, source, file, tuple(chapters), Pos(f.path, m.line)), r.problems


@dataclass(frozen=True)
class FileContents:
    """What one data file holds, schema-checked: its models, the rule and card ids it cites
    (checked across files by `assemble`) and its problems. A pure function of the file's path,
    its nodes and the `Context` (the knowledge cache keeps it under that key)."""

    path: str
    rules: tuple[Rule, ...] = ()
    cards: tuple[Card, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    releases: tuple[RulesRelease, ...] = ()
    # where each cited id is (line, column) and "rule:ID" or "card:ID" (numbers, not nodes: a
    # rulings file cites ~2,000 cards, and a node pickles at ten times the cost of two ints)
    cites: tuple[tuple[int, int, str], ...] = ()
    problems: tuple[Problem, ...] = ()


def reads_releases(path: str) -> bool:
    """Whether `check_file` reads lists of rules releases in the file `path` (rules and glossary
    terms), whose contents then depend on the project's releases (`Context.releases`)."""
    return path.startswith((RULES_DIR + "/", GLOSSARY_DIR + "/"))


def check_file(f: SourceFile, ctx: Context) -> FileContents:
    """Schema-check one parsed data file (by the folder it is in) into its models."""
    path = f.path
    if path.startswith(RULES_DIR + "/"):
        rules, found = rules_from(f, ctx)
        return FileContents(path, rules=tuple(rules), problems=tuple(found))
    if path.startswith(CARDS_DIR + "/"):
        cards, found = cards_from(f, ctx)
        return FileContents(path, cards=tuple(cards), problems=tuple(found))
    if path.startswith(RULINGS_DIR + "/"):
        rulings, found, cited = rulings_from(f, ctx)
        return FileContents(path, rulings=tuple(rulings), cites=tuple((node.line, node.column, what) for node, what in cited),
                            problems=tuple(found))
    if path.startswith(GLOSSARY_DIR + "/"):
        entries, found = glossary_from(f, ctx)
        return FileContents(path, glossary=tuple(entries), problems=tuple(found))
    if path.startswith(RELEASES_DIR + "/"):
        rel, found = release_from(f, ctx)
        return FileContents(path, releases=(rel,) if rel else (), problems=tuple(found))
    if path in (LANGUAGES_FILE, SOURCES_FILE) or path.startswith(TRANSLATIONS_DIR + "/"):
        return FileContents(path)  # the context files (`schema.read_project`), the termbase, the waivers, …
    return FileContents(path, problems=(Problem(path, 1, 1, "this YAML file is in no known folder",
                                                "rules go in rules/comprehensive/, cards in rules/cards/, rulings in "
                                                "rules/rulings/, glossary terms in rules/glossary/, imported releases "
                                                "in rules/releases/"),))


def build_knowledge_base(files: Sequence[SourceFile], root: Path = Path(".")) -> KnowledgeBase:
    """Schema-check parsed files (a whole project, as `load.load_files` gives it) and build the
    KnowledgeBase, or raise DataError. (`knowledge.load_knowledge_base` reads a project from disk.)"""
    by_path = {f.path: f for f in files}
    project = read_project(by_path.get(LANGUAGES_FILE), by_path.get(SOURCES_FILE), root, release_dates(by_path))
    ctx = project.context
    return assemble(project, [check_file(f, ctx) for f in files])


def assemble(project: Project, contents: Sequence[FileContents]) -> KnowledgeBase:
    """The cross-file checks over the files' contents (in path order), and the KnowledgeBase."""
    problems: list[Problem] = list(project.problems)
    rules: list[Rule] = []
    cards: list[Card] = []
    rulings: list[Ruling] = []
    glossary: list[GlossaryEntry] = []
    releases: list[RulesRelease] = []
    cites: list[tuple[str, int, int, str]] = []
    for c in contents:
        rules += c.rules
        cards += c.cards
        rulings += c.rulings
        glossary += c.glossary
        releases += c.releases
        cites += [(c.path, line, column, what) for line, column, what in c.cites]
        problems += c.problems
    problems += _cross_file(rules, cards, rulings, cites)
    problems += _releases_cross(rules)
    # Rules of older releases may share a number with a rule of a newer one (702.78 was Retrace,
    # is Conspire): for the same number the newest release comes last.
    kb = KnowledgeBase(project.languages, project.sources,
                         tuple(sorted(rules, key=lambda r: (sort_key(r.number), r.release))),
                         tuple(sorted(cards, key=lambda c: c.id)),
                         tuple(sorted(rulings, key=lambda r: (r.rules, r.date, r.unit.pos.file, r.unit.pos.line))),
                         glossary=tuple(sorted(glossary, key=lambda g: g.id)),
                         releases=tuple(sorted(releases, key=lambda r: r.date)))
    problems += _moves_cross(rules, kb)
    if problems:
        raise DataError(problems)
    return kb


def _duplicates(items: list[T], key: Callable[[T], str], pos: Callable[[T], Pos], what: str, hint: str) -> list[Problem]:
    seen: dict[str, T] = {}
    out = []
    for item in items:
        first = seen.setdefault(key(item), item)
        if first is not item:
            p, at = pos(item), pos(first)
            out.append(Problem(p.file, p.line, 1, f"duplicate {what} '{key(item)}' (also at {at.file}:{at.line})", hint))
    return out


def _cross_file(rules: list[Rule], cards: list[Card], rulings: list[Ruling],
                cites: list[tuple[str, int, int, str]]) -> list[Problem]:
    rule_pos = lambda r: Pos(r.file, r.line)  # noqa: E731 - the id is on the rule's first line
    problems = _duplicates(rules, lambda r: r.id, rule_pos, "rule id", "give each rule its own id")
    seen_numbers: dict[tuple[str, str], Rule] = {}
    for rule in rules:  # a number names one rule per release (702.78 was Retrace, is Conspire)
        first = seen_numbers.setdefault((rule.number, rule.release), rule)
        if first is not rule:
            problems.append(Problem(rule.file, rule.line, 1, f"duplicate rule number '{rule.number}' in the release "
                                    f"{rule.release} (also at {first.file}:{first.line})",
                                    "one rule per number: merge the files or correct the number"))
    problems += _duplicates(cards, lambda c: c.id, lambda c: c.pos, "card id", "give each card its own id")
    problems += _duplicates(rulings, lambda r: r.id, lambda r: r.unit.pos, "ruling id", "give each ruling its own id")
    rule_ids = {r.id for r in rules}
    card_ids = {c.id for c in cards}
    ruling_ids = {r.id for r in rulings}
    for rule in rules:  # a note that is a card ruling names it
        for note in rule.notes:
            if note.ruling is not None and note.ruling not in ruling_ids:
                problems.append(Problem(note.pos.file, note.pos.line, 1, f"{note.label}: unknown ruling id '{note.ruling}'",
                                        did_you_mean(note.ruling, ruling_ids) or "name a ruling of rules/rulings/"))
    for path, line, column, what in cites:
        kind, ident = what.split(":", 1)
        known = rule_ids if kind == "rule" else card_ids
        if ident not in known:
            hint = did_you_mean(ident, known) or f"add rules/{'comprehensive' if kind == 'rule' else 'cards'}/{ident}.yaml"
            problems.append(Problem(path, line, column, f"unknown {kind} id '{ident}'", hint))
    return problems


def _moves_cross(rules: list[Rule], kb: KnowledgeBase) -> list[Problem]:
    """Each `moved_from` (of `rules`, in file order) names a text or subrule of another rule, and
    each text moved to one place."""
    problems = []
    claimed: dict[str, Move] = {}
    for rule in rules:
        for move in rule.moves:
            owner = kb.owner(move.previous)
            if not isinstance(owner, Rule):
                problems.append(Problem(move.pos.file, move.pos.line, 1, f"moved_from: no rule has the text '{move.previous}'",
                                        did_you_mean(move.previous, [u for u in kb.owners if UNIT_ID.match(u)]) or
                                        "name a unit as RULE-ID.text or RULE-ID.SUBRULE-KEY of a rule of rules/comprehensive/"))
            elif owner is rule:
                problems.append(Problem(move.pos.file, move.pos.line, 1,
                                        f"moved_from: '{move.previous}' is a text of the same rule",
                                        "a subrule that changed its letter is recorded in 'letters', not 'moved_from'"))
            elif move.previous in claimed:
                first = claimed[move.previous]
                problems.append(Problem(move.pos.file, move.pos.line, 1,
                                        f"moved_from: '{move.previous}' is continued twice ({first.unit} at "
                                        f"{first.pos.file}:{first.pos.line}, and {move.unit})",
                                        "a text moves to one place: keep one of the two"))
            else:
                claimed[move.previous] = move
    return problems


def _releases_cross(rules: list[Rule]) -> list[Problem]:
    """In each release a number names one rule and a rule has one number. (That each release a
    text or a history names has its file of rules/releases/ is checked per file: `read_releases`.)"""
    problems: list[Problem] = []
    owner: dict[tuple[str, str], Rule] = {}
    for rule in rules:
        mine: dict[str, str] = {}
        for entry in rule.history:
            for rel in entry.releases:
                if rel in mine and mine[rel] != entry.number:
                    problems.append(Problem(rule.file, rule.line, 1, f"rule {rule.id} has two numbers in the release {rel}: "
                                            f"{mine[rel]} and {entry.number}", "keep the release in one history entry"))
                mine[rel] = entry.number
                other = owner.setdefault((rel, entry.number), rule)
                if other is not rule:
                    problems.append(Problem(rule.file, rule.line, 1, f"{entry.number} is both {other.id} ({other.file}) and "
                                            f"{rule.id} in the release {rel}",
                                            "one rule per number and release: correct one history entry"))
    return problems
