"""QA waivers (stage: check): findings a maintainer has accepted, with the reason.

``translations/qa-waivers.yaml`` lists waivers, each naming a finding by check code, entry (the
unit's stable id) and language, and giving the reason. A waived finding leaves the verdict and is
listed apart in the reports; a waiver that matches no finding of the run is itself reported
(`waivers.unmatched`), so that waivers do not outlive their defect.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..diagnostics import DataError, did_you_mean
from ..load import parse_file
from ..models import M_, Finding, KnowledgeBase, Severity
from ..schema import Reader
from .base import Check, Waived

WAIVERS_FILE = "translations/qa-waivers.yaml"

UNMATCHED = Check("waivers.unmatched", "a waiver that matches no finding", Severity.WARNING, lambda ctx: ())


@dataclass(frozen=True)
class Waiver:
    code: str
    entry: str
    lang: str
    reason: str
    file: str
    line: int


def load_waivers(root: Path, kb: KnowledgeBase, codes: Sequence[str]) -> tuple[Waiver, ...]:
    """The waivers of the project (none when the file does not exist); DataError on bad entries.
    `codes`: the registered check codes a waiver may name."""
    path = root / WAIVERS_FILE
    if not path.is_file():
        return ()
    parsed, problems = parse_file(path, root)
    if parsed is None:
        raise DataError(problems)
    r = Reader(parsed.path, list(problems))
    m = r.mapping(parsed.root, "the waivers file", ("waivers",))
    codes = tuple(codes)
    entries = tuple(u.id for u in kb.units())
    out: list[Waiver] = []
    seen: dict[tuple[str, str, str], int] = {}
    node = m.get("waivers") if m else None
    for item in r.sequence(node, "waivers") if node is not None and not (hasattr(node, "value") and node.value == "") else ():
        wm = r.mapping(item, "a waiver", ("code", "entry", "lang", "reason"))
        if wm is None:
            continue
        code = r.choice(wm.get("code"), "waiver code", codes)
        entry = r.text(wm.get("entry"), "waiver entry")
        if entry is not None and entry not in entries:
            r.error(wm.get("entry"), f"waiver entry '{entry}' is not a unit of the knowledge base",  # type: ignore[arg-type]
                    did_you_mean(entry, entries) or "write the unit's id as the findings show it, e.g. 'retrace.a'")
            entry = None
        lang = r.choice(wm.get("lang"), "waiver lang", kb.language_codes)
        reason = r.nonempty(wm.get("reason"), "waiver reason")
        if None in (code, entry, lang, reason):
            continue
        key = (code, entry, lang)
        if key in seen:
            r.error(item, f"a second waiver for {code} {entry} {lang} (first at line {seen[key]})", "remove one")  # type: ignore[str-bytes-safe]
            continue
        seen[key] = item.line
        out.append(Waiver(code, entry, lang, reason, parsed.path, item.line))  # type: ignore[arg-type]
    if r.problems:
        raise DataError(r.problems)
    return tuple(out)


def apply_waivers(findings: Iterable[Finding], waivers: Sequence[Waiver], codes: Iterable[str],
                  langs: Sequence[str]) -> tuple[list[Finding], list[Waived], list[Finding]]:
    """(kept findings, waived findings, findings about waivers that matched nothing). Waivers of
    checks or languages this run does not cover are neither applied nor reported."""
    by_key = {(w.code, w.entry, w.lang): w for w in waivers}
    used: set[tuple[str, str, str]] = set()
    kept: list[Finding] = []
    waived: list[Waived] = []
    for f in findings:
        w = by_key.get((f.code, f.entry, f.lang))
        if w is None:
            kept.append(f)
        else:
            used.add((f.code, f.entry, f.lang))
            waived.append(Waived(f, w.reason, w.file, w.line))
    active = set(codes)
    fix = M_("remove the waiver, or correct its code, entry or lang")
    unmatched = []
    for w in waivers:
        if (w.code, w.entry, w.lang) in used or w.code not in active or w.lang not in langs:
            continue
        msg = M_("the waiver of {code} for {entry} ({lang}) matches no finding: the defect is gone or the waiver "
                 "names it wrongly", code=w.code, entry=w.entry, lang=w.lang)
        unmatched.append(Finding(UNMATCHED.code, UNMATCHED.severity, w.lang, w.entry, w.file, w.line, msg.render(),
                                 fix.render(), msg, fix))
    return kept, waived, unmatched


__all__ = ["WAIVERS_FILE", "Waiver", "apply_waivers", "load_waivers", "UNMATCHED"]
