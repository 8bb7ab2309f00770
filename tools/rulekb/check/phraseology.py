"""Check family `phraseology` (stage: check), driven by ``translations/phraseology.yaml``: how the
official German and French card texts write the game's recurring phrases (`rulekb.phraseology`,
mined by ``rulekb phrases mine``).

- `phraseology.unofficial`: a translation writes a phrase in a way official texts never or hardly
  use where they consistently use another ("von deinem Friedhof" where German cards write "aus
  deinem Friedhof" 1,588 times and "von" 3 times, last in 1998; "in deine Hand" for "auf deine
  Hand"; "welche du kontrollierst" for "die du kontrollierst");
- `phraseology.retired`: a translation writes a phrase official texts used once and no longer
  print ("en jeu", "jouez un sort", "Zauberspruch spielen"), with what they write today where
  the frame says it;
- `phraseology.reminder`: the English quotes a keyword's reminder text as cards print it
  ("You may cast this card from your graveyard by discarding a land card in addition to paying
  its other costs.") and the translation does not quote the official translation of it.

Each finding quotes the official form and how often official texts use it. The verdict is the
data's (`Phraseology.verdict`); this module finds the phrases in the canonical translations
(`rulekb.phraseology.patterns`, compiled once per process) and words the findings.
"""

from __future__ import annotations

from typing import Iterator

from ..models import M_, SOURCE_LANGUAGE, Message, Number, QuotedEach, Severity
from ..phraseology import OPEN_SLOTS, RETIRED_YEARS, Frame, Occurrence, Variant, Verdict, fold, patterns
from .base import quote
from .text import Data, Flag, Text, TextCheck, flag

Found = tuple[tuple[Occurrence, Verdict, tuple[Occurrence, ...]], ...]


def _verdicts(t: Text, data: Data) -> Found:
    """The phrases of a canonical translation that official texts would write otherwise: each
    phrase's first occurrence in the text, its verdict and every occurrence of it in the text
    (made once per text for both checks)."""
    if t.index or t.lang == SOURCE_LANGUAGE or data.phraseology.corpus_of(t.lang) is None:
        return ()
    return data.derived("phrase-verdicts", (t.lang, t.text), lambda: _find(t.text, t.lang, data))


def _find(text: str, lang: str, data: Data) -> Found:
    compiled = patterns(lang)
    if compiled is None:
        return ()
    seen: dict[tuple[str, str, str], list] = {}
    for occ in compiled.find(text):
        k = (occ.family, occ.frame, occ.filler)
        if k in seen:
            seen[k][2].append(occ)
            continue
        verdict = data.phraseology.verdict(lang, occ)
        if verdict is not None:
            seen[k] = [occ, verdict, [occ]]
    return tuple((o, v, tuple(all_)) for o, v, all_ in seen.values())


def _spans(occurrences: tuple[Occurrence, ...]) -> tuple[tuple[int, int], ...]:
    """Every occurrence a finding counts ("(2 times)"), for the merge; () for one."""
    return tuple((o.start, o.end) for o in occurrences) if len(occurrences) > 1 else ()


def _times(n: int) -> Message:
    return M_("{n}×", n=Number(n))


def _year(v: Variant) -> str:
    return v.last[:4]


def _usual(verdict: Verdict) -> QuotedEach:
    """The official forms to quote: "'Zauberspruch wirkst' (534×), 'Zauberspruch zu wirken' (220×)"."""
    forms = (verdict.usual, *verdict.also)
    return QuotedEach(tuple(v.phrase for v in forms), tuple(v.texts for v in forms))


def _times_in_text(n: int) -> Message | str:
    return M_(" ({n} times)", n=n) if n > 1 else ""


def unofficial(t: Text, data: Data) -> Iterator[Flag]:
    for occ, verdict, occurrences in _verdicts(t, data):
        n = len(occurrences)
        if verdict.kind != "unofficial":
            continue
        lang = data.lang(t.lang)
        written = occ.phrase(t.text)
        if verdict.found is None:
            how = M_("never '{written}'", written=written)
        else:
            how = M_("and '{found}' only {count} (last printed {year})", found=verdict.found.phrase,
                     count=_times(verdict.found.texts), year=_year(verdict.found))
        if verdict.frame.family not in OPEN_SLOTS:   # words of one meaning: the official one is the fix
            fix = M_("write it as official cards in {lang} do: '{usual}' (translations/phraseology.yaml line {line})",
                     lang=lang, usual=verdict.usual.phrase, line=verdict.frame.line)
        else:   # the verb depends on what the text means: say which verbs are official, prescribe none
            fix = M_("check the meaning and use a verb that official cards in {lang} use with this noun "
                     "(translations/phraseology.yaml line {line} lists them with their counts)",
                     lang=lang, line=verdict.frame.line)
        yield flag(M_("{label} writes '{written}'{times} (“{context}”): official cards in {lang} write "
                             "{usual}, {how}", label=t.label, written=written, times=_times_in_text(n),
                             context=quote(t.text, occ.start, occ.end), lang=lang, usual=_usual(verdict), how=how),
                       fix, span=(occ.start, occ.end), spans=_spans(occurrences))


def retired(t: Text, data: Data) -> Iterator[Flag]:
    for occ, verdict, occurrences in _verdicts(t, data):
        n = len(occurrences)
        if verdict.kind != "retired" or verdict.found is None:
            continue
        lang = data.lang(t.lang)
        old = verdict.found
        corpus = data.phraseology.corpus_of(t.lang)
        since = int(corpus.newest[:4]) - RETIRED_YEARS if corpus else 0
        today: Message | str = ""
        if verdict.usual is not old:
            today = M_("; today they write {usual}", usual=_usual(verdict))
            if verdict.frame.family in OPEN_SLOTS:
                fix = M_("check the meaning; where it is the same, write it as today's official cards in {lang} "
                         "do: '{usual}' (translations/phraseology.yaml line {line})",
                         lang=lang, usual=verdict.usual.phrase, line=verdict.frame.line)
            else:
                fix = M_("write it as today's official cards in {lang} do: '{usual}' "
                         "(translations/phraseology.yaml line {line})",
                         lang=lang, usual=verdict.usual.phrase, line=verdict.frame.line)
        else:
            fix = M_("reword it as today's official cards in {lang} word it; the phrase is retired "
                     "(translations/phraseology.yaml line {line})", lang=lang, line=verdict.frame.line)
        fields: dict[str, object] = {
            "label": t.label, "written": occ.phrase(t.text), "times": _times_in_text(n), "lang": lang,
            "context": quote(t.text, occ.start, occ.end), "old": old.phrase, "texts": Number(old.texts),
            "since": since, "today": today}
        if old.recent:
            said = M_("{label} writes '{written}'{times} (“{context}”): official cards in {lang} wrote '{old}' in "
                      "{texts} texts, only {recent} of them printed since {since}{today}", recent=Number(old.recent),
                      **fields)
        else:   # "only 0 of them" reads as a slip
            said = M_("{label} writes '{written}'{times} (“{context}”): official cards in {lang} wrote '{old}' in "
                      "{texts} texts, none of them printed since {since}{today}", **fields)
        yield flag(said, fix, span=(occ.start, occ.end), spans=_spans(occurrences))


def _reminder_frames(data: Data, lang: str) -> tuple[Frame, ...]:
    return data.derived("reminder-frames", lang,
                        lambda: tuple(f for f in data.phraseology.frames if f.lang == lang and f.family == "reminder"))


def reminder(t: Text, data: Data) -> Iterator[Flag]:
    if t.index or t.lang == SOURCE_LANGUAGE or t.english is None:
        return
    code = t.lang
    frames = _reminder_frames(data, code)
    english = t.english
    en = fold(english)
    own = None
    for frame in frames:
        if frame.frame not in en:
            continue
        own = fold(t.text) if own is None else own
        # what cards print today: the variants printed in the last years (all, if none is)
        current = [v for v in frame.variants if v.recent > 0] or list(frame.variants)
        if any(v.filler in own for v in current):
            continue
        lang = data.lang(code)
        usual = current[0]
        old = next((v for v in frame.variants if v.filler in own), None)
        at = english.casefold().find(frame.frame)
        quoted = english[at:at + len(frame.frame)] if at >= 0 else frame.frame
        how = (M_("this text has the wording of older cards ('{old}', {count}, last printed {year})",
                  old=old.phrase, count=_times(old.texts), year=_year(old)) if old
               else M_("this text words it otherwise"))
        yield flag(M_("{label}: the English quotes a keyword's reminder text as cards print it "
                             "(“{english}”); official cards in {lang} print it as '{usual}' ({count}, last "
                             "printed {year}); {how}", label=t.label, english=quote(quoted, 0, 60, 0),
                             lang=lang, usual=usual.phrase, count=_times(usual.texts), year=_year(usual),
                             how=how),
                       M_("quote the official reminder text in {lang} where the text quotes it "
                          "(translations/phraseology.yaml line {line})", lang=lang, line=frame.line))


CHECKS = (
    TextCheck("phraseology.unofficial", "a phrasing official card texts never use where they consistently use another",
              Severity.WARNING, unofficial),
    TextCheck("phraseology.retired", "a phrasing official card texts no longer print", Severity.WARNING, retired),
    TextCheck("phraseology.reminder", "a keyword's reminder text quoted otherwise than official cards print it",
              Severity.WARNING, reminder),
)
