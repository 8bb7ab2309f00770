"""Importer: rule identity across rules releases (used by `cr` between parsing and merging).

The Comprehensive Rules renumber: Retrace was 702.78 in 2009, 702.81 in 2026, and 702.78 is
Conspire now. A rule's id in the knowledge base must follow the rule, not the number. Pure
functions: the caller describes what the knowledge base knows (`Known`, as of the release
nearest to the one imported) and what the release has (`Incoming`); `match_rules` says which
known rule each incoming one is, in phases, each taking only what is still free:

1. sections by title (then by number with a similar title);
2. keyword-style rules ("702.81. Retrace") by title, nearest number first;
3. the same text (normalised: quotes, dashes and white space folded), the same section and
   number first: whole sections get renumbered (613 Replacement Effects became 614 in 2010);
4. the rest, section by section (an incoming section's rules against those of the known
   section it matched, whatever its number): text similarity (bags of words of the whole rule;
   of its own text alone for a curated rule that holds only some subrules), with a small bonus
   for the same number and for a neighbour that was matched to the neighbour;
5. a rule that shares at least two subrules word for word, and half of its subrules, with a
   known rule in any section (a rule that moved to another section with its own text reworded).

`match_subrules` does the same for the subrules of one matched rule (exact text, then
half the content words in common under any letter (a subrule moved and reworded), then
similarity with bonuses for the same letter and a matched neighbour, then neighbours: an old
and a new subrule left over in the same place between matched ones, sharing some words). `match_glossary` pairs
glossary terms by their term. What is not matched is new.

`match_moves` then pairs what is left across rules: a text unit (a rule's own text or a
subrule) that ended with the known release and a new one of the imported release with the same
text, or most of its content words (the subrule 111.1e of 2018 is the rule 111.6 of 2026; the
rule 715.2 of 2018 is the subrule 723.1f). The two stay apart, each in its own rule; the newer one
records the older as what it continues (`moved_from`).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..models import normalise
from ..refs import sort_key

# `refs.sort_key` remembered: an import of all 110 releases asks it ~700,000 times for a few
# thousand numbers (8 % of its time parsing them again)
number_key = functools.lru_cache(maxsize=None)(sort_key)

RULE_THRESHOLD = 0.65
SUBRULE_THRESHOLD = 0.6
MOVED_THRESHOLD = 0.5    # content words in common: the same subrule of the same rule, whatever its letter
MOVED_ACROSS_THRESHOLD = 0.7  # content words in common: a text that moved to another rule, reworded
MOVED_ACROSS_WORDS = 8   # ... with at least this many content words (short texts match by chance)
SECTION_THRESHOLD = 0.5
GAP_THRESHOLD = 0.25
SAME_NUMBER_BONUS = 0.1
NEIGHBOUR_BONUS = 0.1


@dataclass(frozen=True)
class Known:
    """A rule of the knowledge base as of the release nearest to the imported one."""

    id: str
    number: str                # its number in that release
    title: str | None          # English title, if any
    text: str                  # English own text ("" when none)
    subrules: tuple[str, ...]  # English subrule texts, in order
    order: int                 # position in that release (for the neighbour bonus)
    curated: bool = False      # written by hand, not imported: may hold only some subrules

    @property
    def is_section(self) -> bool:
        return "." not in self.number

    @property
    def section(self) -> str:
        return self.number.split(".")[0]


@dataclass(frozen=True)
class Incoming:
    number: str
    title: str | None
    text: str
    subrules: tuple[str, ...]
    order: int

    @property
    def is_section(self) -> bool:
        return "." not in self.number

    @property
    def section(self) -> str:
        return self.number.split(".")[0]


@functools.lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    return normalise(text).casefold()


# The bags of words are remembered by text (the same texts come back release after release:
# 110 releases, ~14,000 distinct texts); they are shared, so nobody changes a bag.
@functools.lru_cache(maxsize=1 << 16)
def words(text: str) -> Counter[str]:
    """The bag of words of a text (case, quotes, dashes and white space folded)."""
    return Counter(fold(text).split())


# the most frequent words of the rules, which any two texts share
STOPWORDS = frozenset("a an and any are as at be by for from has have if in is it its of on or that the their "
                      "them then they this to was were which with".split())


@functools.lru_cache(maxsize=1 << 16)
def content_words(text: str) -> Counter[str]:
    """The bag of words without the words every rule has ("the", "of", "player" stays)."""
    return Counter({word: n for word, n in words(text).items() if word not in STOPWORDS})


def similarity(a: Counter[str], b: Counter[str]) -> float:
    """Dice similarity of two bags of words, 0 to 1: the share of words the texts have in
    common. Order-blind and linear; rules are matched within a section, where that is enough
    (a renumbered rule keeps most of its words, "his or her" -> "their" changes a few)."""
    total = a.total() + b.total()
    if not total:
        return 1.0
    if len(a) > len(b):
        a, b = b, a
    common = 0
    for word, n in a.items():   # the multiset intersection (a & b) without making it
        m = b.get(word)
        if m:
            common += n if n < m else m
    return 2.0 * common / total


def _whole(title: str | None, text: str, subrules: Sequence[str]) -> Counter[str]:
    return words(" ".join(p for p in (title or "", text, *subrules) if p))


def _distance(a: str, b: str) -> tuple:
    ka, kb = number_key(a), number_key(b)
    return (ka[0] != kb[0], abs(ka[1] - kb[1]), a)


def _exact(known: Sequence[tuple[str, str]], incoming: Sequence[str | None], taken: set[str],
           rank: Callable[[int, str], Any]) -> dict[int, str]:
    """Incoming index -> known id of the same text: the very same text first, then the same
    folded text (typography and white space aside); among several, the lowest `rank(i, id)`."""
    found: dict[int, str] = {}
    for folded in (False, True):
        pool: dict[str, list[str]] = {}
        for kid, text in known:
            if kid not in taken and text:
                pool.setdefault(fold(text) if folded else text, []).append(kid)
        if not pool:
            break
        for i, text in enumerate(incoming):
            if i in found or not text:
                continue
            ids = [kid for kid in pool.get(fold(text) if folded else text, ()) if kid not in taken]
            if ids:
                kid = min(ids, key=lambda k: rank(i, k))
                found[i] = kid
                taken.add(kid)
    return found


def _upper_bound(na: int, nb: int) -> float:
    """The best Dice similarity two bags of na and nb words can have."""
    return 2.0 * min(na, nb) / (na + nb) if na + nb else 1.0


def match_rules(known: Sequence[Known], incoming: Sequence[Incoming]) -> list[str | None]:
    """For each incoming rule (in order), the id of the known rule it is, or None (new)."""
    result: list[str | None] = [None] * len(incoming)
    taken: set[str] = set()
    by_id = {k.id: k for k in known}

    def take(i: int, kid: str) -> None:
        result[i] = kid
        taken.add(kid)

    # 1 and 2: by title (sections among sections, titled rules among rules), nearest number first
    titled: dict[tuple[bool, str], list[Known]] = {}
    for k in known:
        if k.title:
            titled.setdefault((k.is_section, fold(k.title)), []).append(k)
    for i, inc in enumerate(incoming):
        if not inc.title:
            continue
        pool = [k for k in titled.get((inc.is_section, fold(inc.title)), []) if k.id not in taken]
        if pool:
            take(i, min(pool, key=lambda k: _distance(k.number, inc.number)).id)

    # sections renamed: same number, similar title
    sections_by_number = {k.number: k for k in known if k.is_section}
    for i, inc in enumerate(incoming):
        if result[i] is None and inc.is_section and inc.title:
            same = sections_by_number.get(inc.number)
            if (same is not None and same.id not in taken
                    and similarity(words(same.title or ""), words(inc.title)) >= SECTION_THRESHOLD):
                take(i, same.id)

    # 3: the same text, the same section and number first (whole sections move: 613 -> 614)
    texts = [None if result[i] is not None or inc.is_section else inc.text for i, inc in enumerate(incoming)]
    found = _exact([(k.id, k.text) for k in known if not k.is_section], texts, taken,
                   lambda i, kid: _distance(by_id[kid].number, incoming[i].number))
    for i, kid in found.items():
        result[i] = kid

    # 4: similarity within a section, greedy by score; the section as matched above, not its
    # number: when a section is inserted, the ones after it move up (2010: 612 Interaction of
    # Continuous Effects became 613, and its reworded rules must be looked for in the old 612)
    known_section = {inc.number: by_id[result[i]].number for i, inc in enumerate(incoming)  # type: ignore[index]
                     if inc.is_section and result[i] is not None}
    position = {k.id: k.order for k in known}
    order_known = sorted(known, key=lambda k: k.order)
    previous_known = {k.id: (order_known[j - 1].id if j else None) for j, k in enumerate(order_known)}
    pools: dict[str, list[Known]] = {}
    for k in known:
        if not k.is_section and k.id not in taken:
            pools.setdefault(k.section, []).append(k)
    sections: dict[str, list[int]] = {}
    for i, inc in enumerate(incoming):
        if result[i] is None and not inc.is_section:
            sections.setdefault(inc.section, []).append(i)
    reach = RULE_THRESHOLD - SAME_NUMBER_BONUS - NEIGHBOUR_BONUS
    for section, indexes in sorted(sections.items()):
        pool = [k for k in pools.get(known_section.get(section, section), []) if k.id not in taken]
        if not pool:
            continue
        # the whole rule (title, text, subrules); for a curated rule, which may hold only some
        # subrules (601.2 of the seed has b, e, f, g), its own text alone when that is closer
        own = {k.id: words(k.text) for k in pool if k.text and k.curated}
        whole = {k.id: _whole(k.title, k.text, k.subrules) for k in pool}
        pairs = []
        for i in indexes:
            inc = incoming[i]
            mine_own = words(inc.text) if inc.text else None
            mine_whole = _whole(inc.title, inc.text, inc.subrules)
            for k in pool:
                tries = [(mine_whole, whole[k.id])]
                if mine_own is not None and k.id in own:
                    tries.append((mine_own, own[k.id]))
                score = max((similarity(a, b) for a, b in tries
                             if _upper_bound(sum(a.values()), sum(b.values())) >= reach), default=0.0)
                if score >= reach:
                    pairs.append((score, i, k.id))
        while pairs:
            scored = []
            for score, i, kid in pairs:
                bonus = SAME_NUMBER_BONUS if by_id[kid].number == incoming[i].number else 0.0
                prev = result[i - 1] if i > 0 else None
                if prev is not None and previous_known.get(kid) == prev:
                    bonus += NEIGHBOUR_BONUS
                if score + bonus >= RULE_THRESHOLD:
                    scored.append((score + bonus, -i, -position[kid], i, kid))
            if not scored:
                break
            _, _, _, i, kid = max(scored)
            take(i, kid)
            pairs = [(s, j, k) for s, j, k in pairs if j != i and k != kid]

    # 5: the same subrules, in any section: a rule whose own text was reworded and that moved to
    # another section keeps its subrules (700.6 of 2018, "Some cards refer to cards with a name
    # originally printed in …", is 206.3 of 2026 with the same three subrules)
    _same_subrules(known, incoming, result, taken)
    return result


def _same_subrules(known: Sequence[Known], incoming: Sequence[Incoming], result: list[str | None],
                   taken: set[str]) -> None:
    """Unmatched rules that share at least two subrules, word for word (typography aside), and
    at least half of the subrules of the one that has fewer, greedy by how many they share."""
    owners: dict[str, list[Known]] = {}
    for k in known:
        if k.id not in taken and not k.is_section and len(k.subrules) >= 2:
            for text in set(map(fold, k.subrules)):
                owners.setdefault(text, []).append(k)
    count_of = {k.id: len(k.subrules) for k in known}
    candidates = []
    for i, inc in enumerate(incoming):
        if result[i] is not None or inc.is_section or len(inc.subrules) < 2:
            continue
        shared: Counter[str] = Counter()
        for text in set(map(fold, inc.subrules)):
            for k in owners.get(text, ()):
                shared[k.id] += 1
        for kid, count in shared.items():
            fewer = min(len(inc.subrules), count_of[kid])
            if count >= 2 and 2 * count >= fewer:
                candidates.append((count, -i, kid, i))
    for count, _, kid, i in sorted(candidates, reverse=True):
        if result[i] is None and kid not in taken:
            result[i] = kid
            taken.add(kid)


def match_subrules(known: Sequence[tuple[str, str, str]], incoming: Sequence[tuple[str, str]]) -> list[str | None]:
    """Pair the subrules of one rule. `known`: (key, letter in the nearest release, text);
    `incoming`: (letter, text). For each incoming subrule, the key it is, or None (new)."""
    result: list[str | None] = [None] * len(incoming)
    if not known:
        return result
    if len(known) == len(incoming) and all(text and (letter, text) == new
                                           for (_, letter, text), new in zip(known, incoming)):
        # the same texts under the same letters (most rules, release after release): what the
        # exact match below finds, each the one of its own letter
        return [key for key, _, _ in known]
    taken: set[str] = set()
    place = {key: (j, letter) for j, (key, letter, _) in enumerate(known)}
    found = _exact([(key, text) for key, _, text in known], [text for _, text in incoming], taken,
                   lambda i, key: (place[key][1] != incoming[i][0], abs(place[key][0] - i), key))
    for i, key in found.items():
        result[i] = key
    rest = [i for i in range(len(incoming)) if result[i] is None]
    free = [(j, key, letter, text) for j, (key, letter, text) in enumerate(known) if key not in taken]
    if not rest or not free:
        return result
    known_words = {key: words(text) for _, key, _, text in free}
    known_content = {key: content_words(text) for _, key, _, text in free}
    sizes = {key: sum(bag.values()) for key, bag in known_words.items()}
    reach = SUBRULE_THRESHOLD - SAME_NUMBER_BONUS - NEIGHBOUR_BONUS
    pairs = []
    for i in rest:
        mine = words(incoming[i][1])
        mine_content = content_words(incoming[i][1])
        size = sum(mine.values())
        for j, key, letter, _ in free:
            if _upper_bound(size, sizes[key]) < reach:
                continue
            score = similarity(mine, known_words[key])
            if score >= reach:
                pairs.append((score, i, key, j, letter, similarity(mine_content, known_content[key])))

    def greedy(candidates: list, bonus_needed: bool) -> None:
        while candidates:
            scored = []
            for score, i, key, j, letter, _content in candidates:
                bonus = SAME_NUMBER_BONUS if letter == incoming[i][0] else 0.0
                prev = result[i - 1] if i > 0 else None
                if prev is not None and j > 0 and known[j - 1][0] == prev:
                    bonus += NEIGHBOUR_BONUS
                if not bonus_needed or score + bonus >= SUBRULE_THRESHOLD:
                    scored.append((score + bonus, -i, -j, i, key))
            if not scored:
                return
            _, _, _, i, key = max(scored)
            result[i] = key
            taken.add(key)
            candidates = [p for p in candidates if p[1] != i and p[2] != key]

    # first the pairs that share half their content words wherever they stand (a subrule moved
    # and reworded: 2009 806.9b "If an effect would set the life total of each player on a team to
    # a number, the result is …" is 810.9d of 2011 "… that team chooses one of its members", not
    # the 806.9d that stood in that place and shares fewer words with it), then the weaker ones
    # that the same letter or a matched neighbour carries over the threshold
    greedy([p for p in pairs if p[5] >= MOVED_THRESHOLD], bonus_needed=False)
    greedy([p for p in pairs if result[p[1]] is None and p[2] not in taken], bonus_needed=True)
    _fill_gaps(known, incoming, result, taken)
    return result


def _fill_gaps(known: Sequence[tuple[str, str, str]], incoming: Sequence[tuple[str, str]],
               result: list[str | None], taken: set[str]) -> None:
    """Neighbours: between two matched subrules (or a matched one and the end), an unmatched old
    subrule and an unmatched new one in the same place are the same subrule reworded when they
    still share some words (601.2g "The player pays the total cost in any order." of 2011 is
    601.2h "The player pays the total cost. First, ..." of 2026)."""
    index_of = {key: j for j, (key, _, _) in enumerate(known)}
    anchors = [(-1, -1)] + sorted((index_of[k], i) for i, k in enumerate(result) if k is not None) + [(len(known), len(incoming))]
    for (j1, i1), (j2, i2) in zip(anchors, anchors[1:]):
        if j2 <= j1 or i2 <= i1:
            continue  # crossing matches: no gap to speak of
        old = [j for j in range(j1 + 1, j2) if known[j][0] not in taken]
        new = [i for i in range(i1 + 1, i2) if result[i] is None]
        if not old or not new:
            continue
        scored = sorted(((similarity(content_words(known[j][2]), content_words(incoming[i][1])), j, i)
                         for j in old for i in new), reverse=True)
        chosen: list[tuple[int, int]] = []
        for score, j, i in scored:
            if score < GAP_THRESHOLD:
                break
            if any(j == cj or i == ci or (j < cj) != (i < ci) for cj, ci in chosen):
                continue  # one each, in order
            chosen.append((j, i))
            result[i] = known[j][0]
            taken.add(known[j][0])


def match_moves(ended: Sequence[tuple[str, str, str]], started: Sequence[tuple[str, str, str]]) -> list[str | None]:
    """Texts that moved to another rule. `ended`: (unit id "RULE-ID.KEY", its number, text) of
    the known units that the imported release no longer has; `started`: (rule id, number, text)
    of the imported release's new units (of new rules, and new subrules of matched ones). For
    each started unit, the id of the ended unit of another rule it continues, or None. First the
    same text (typography and white space folded), the nearest number first; then the pairs that
    share MOVED_ACROSS_THRESHOLD of their content words, at least MOVED_ACROSS_WORDS of them, the
    most similar pair first."""
    result: list[str | None] = [None] * len(started)
    taken: set[str] = set()
    number_of = {uid: number for uid, number, _ in ended}
    owner = {uid: uid.split(".", 1)[0] for uid, _, _ in ended}
    # a unit of the same rule is the subrule matcher's to pair, not a move: ranked out
    found = _exact([(uid, text) for uid, _, text in ended], [text for _, _, text in started], taken,
                   lambda i, uid: (owner[uid] == started[i][0], _distance(number_of[uid], started[i][1])))
    for i, uid in found.items():
        if owner[uid] == started[i][0]:
            taken.discard(uid)
        else:
            result[i] = uid
    # the ended texts with enough content words, by their number of words
    free = []
    for uid, number, text in ended:
        bag = content_words(text)
        if uid not in taken and bag.total() >= MOVED_ACROSS_WORDS:
            free.append((uid, number, bag, bag.total()))
    pairs = []
    for i, (rid, number, text) in enumerate(started):
        if result[i] is not None:
            continue
        mine = content_words(text)
        size = mine.total()
        if size < MOVED_ACROSS_WORDS:
            continue
        for uid, old_number, bag, other in free:
            if owner[uid] == rid or _upper_bound(size, other) < MOVED_ACROSS_THRESHOLD:
                continue
            score = similarity(mine, bag)
            if score >= MOVED_ACROSS_THRESHOLD:
                pairs.append((-score, _distance(old_number, number), i, uid))
    for _, _, i, uid in sorted(pairs):
        if result[i] is None and uid not in taken:
            result[i] = uid
            taken.add(uid)
    return result


def match_glossary(known: Sequence[tuple[str, str]], terms: Sequence[str]) -> list[str | None]:
    """Glossary entries by term (case and typography folded). `known`: (id, English term)."""
    by_term: dict[str, list[str]] = {}
    for gid, term in known:
        by_term.setdefault(fold(term), []).append(gid)
    result: list[str | None] = []
    taken: set[str] = set()
    for term in terms:
        gid = next((g for g in by_term.get(fold(term), []) if g not in taken), None)
        if gid is not None:
            taken.add(gid)
        result.append(gid)
    return result
