"""Check family `language` (stage: check): a sentence in the wrong language inside a text.

Identification uses py3langid (an offline n-gram model) restricted to the knowledge base's
languages, and only on sentences long enough to judge (`MIN_WORDS` words, rule numbers and
blanked out); a parenthesised passage counts as a sentence of its own, so that "(Note that
some effects target a creature, …)" inside a German ruling is judged by itself. The model takes
about a second to load: `preload` starts that in a background thread as the run begins.

Speed: py3langid walks every byte in Python, too slow for every sentence of the whole rules.
A pre-screen skips the sentences that plainly are in their text's language — those with more
distinct common function words (`FUNCTION_WORDS`) of that language than of any other; every other
sentence goes to py3langid, which alone decides. Adding a language is one entry in
`FUNCTION_WORDS` (without one, every sentence of that language is judged).
"""

from __future__ import annotations

import re
import threading
from typing import Iterator

from ..models import Severity
from . import Check, Context, Issue, Text

MIN_WORDS = 6
MIN_PROBABILITY = 0.95  # of the other language, normalised over the knowledge base's languages

# The most common function words of each language, lowercase; a pre-screen only (see above).
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the of and to is that it you your this with for its are be by as from if or "
                    "can may would was not any each their they".split()),
    "de": frozenset("der die das und ist nicht du deine deiner deinen dein mit den dem des eine ein einer "
                    "einen zu von sie auf wird werden kann falls wenn oder sich".split()),
    "fr": frozenset("le la les et est une un des du vous votre vos qui que pas sur dans ce cette il elle "
                    "peut si ou au aux son sa ses".split()),
}

_lock = threading.Lock()
_model: dict[str, object] = {}
_loader: list[threading.Thread] = []

_WORD = re.compile(r"[^\W\d_]{2,}")
_PAREN = re.compile(r"\([^()]+\)")
_BOUNDARY = re.compile(r"(?<=[.!?…])[\"“”»]?\s+(?=[\"„“«(\[]?[^\W\d_])")


def _load() -> None:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    with _lock:
        _model.setdefault("identifier", identifier)


def preload() -> None:
    """Start loading the model in the background (once per process)."""
    with _lock:
        if _model or _loader:
            return
        thread = threading.Thread(target=_load, name="rulekb-langid", daemon=True)
        _loader.append(thread)
    thread.start()


def wait_loaded() -> None:
    """Wait until the model is loaded (before forking: a child process has no threads)."""
    preload()
    _loader[0].join()


def identifier(languages: tuple[str, ...]):
    wait_loaded()
    ident = _model["identifier"]
    key = ("languages",) + languages
    if _model.get("restricted") != key:
        ident.set_languages(list(languages))  # type: ignore[attr-defined]
        _model["restricted"] = key
    return ident


def sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, words) of the sentences of a text, in text order. Each parenthesised passage
    is a sentence of its own, and is masked out of the sentence around it."""
    out = [(m.start(), m.end(), m.group()) for m in _PAREN.finditer(text)]
    masked = _PAREN.sub(lambda m: " " * len(m.group()), text)
    start = 0
    pieces = []
    for m in _BOUNDARY.finditer(masked):
        pieces.append((start, m.start()))
        start = m.end()
    pieces.append((start, len(masked)))
    for s, e in pieces:
        chunk = masked[s:e]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            end = s + len(chunk.rstrip())
            out.append((s + lead, end, masked[s + lead:end]))
    return sorted(out)


def plainly_in(words: list[str], lang: str) -> bool:
    """Whether a sentence has more distinct function words of `lang` than of any other language."""
    own = FUNCTION_WORDS.get(lang)
    if not own:
        return False
    present = {w.casefold() for w in words}
    mine = len(present & own)
    return mine >= 2 and all(len(present & other) < mine for code, other in FUNCTION_WORDS.items() if code != lang)


def _masked(text: str, refs) -> str:
    """The text with its rule references blanked out (same length, so offsets hold)."""
    for ref in refs:
        text = text[: ref.start] + " " * (ref.end - ref.start) + text[ref.end :]
    return text


def judged(ctx: Context, t: Text) -> tuple[tuple[int, int, str, float], ...]:
    """(start, end, language, probability) of the sentences of a text that are in another language."""
    key = ("language", t.unit.id, t.lang, str(t.index))
    found = ctx.cache.get(key)
    if found is None:
        out = []
        candidates = []
        for start, end, chunk in sentences(_masked(t.text, ctx.refs(t))):
            words = _WORD.findall(chunk)
            if len(words) >= MIN_WORDS and not plainly_in(words, t.lang):
                candidates.append((start, end, " ".join(words)))
        if candidates:
            ident = identifier(ctx.languages)
            for start, end, words in candidates:
                lang, prob = ident.classify(words)  # type: ignore[attr-defined]
                if lang != t.lang and prob >= MIN_PROBABILITY:
                    out.append((start, end, lang, float(prob)))
        found = tuple(out)
        ctx.cache[key] = found
    return found  # type: ignore[return-value]


def foreign_spans(ctx: Context, t: Text) -> tuple[tuple[int, int], ...]:
    return tuple((s, e) for s, e, _lang, _p in judged(ctx, t))


def wrong_language(ctx: Context) -> Iterator[Issue]:
    for t in ctx.texts():
        for start, end, lang, prob in judged(ctx, t):
            sentence = t.text[start:end]
            yield Issue.at(t, f"{t.label}: a sentence of the {ctx.language_name(t.lang)} text is in "
                              f"{ctx.language_name(lang)} (confidence {prob:.2f}): “{sentence}”",
                           f"translate the sentence into {ctx.language_name(t.lang)}")


CHECKS = (
    Check("language.wrong-language", "a sentence in another language than its text", Severity.ERROR, wrong_language),
)
