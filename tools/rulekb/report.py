"""Pipeline stage 6 of 6 (load -> validate -> link -> check -> render -> report): QA reports.

Turns a `CheckResult` of the check stage into what people and machines read:
- `to_text`   the terminal report, compiler-style lines (file:line: severity [code] …) grouped by
              language, with the coverage matrix and the verdict;
- `to_json`   {"findings", "waived", "coverage", "summary", …}, sorted and stable: the text of
              json.dumps(indent=2, sort_keys=True), written about three times faster
              (`json_text`; ~6,700 findings on the whole rules);
- `to_junit`  JUnit XML for CI: one test case per unit and language, failing on error findings;
- `to_html`   one standalone page (no remote assets) with the coverage chart and every finding;
- `status_markdown` the translation-status page of one language for the site: that language's
              findings grouped by rule, the English beside the translation, links to the rule
              pages, a coverage table and chart (inline SVG). Every text is escaped.
Everything here is a pure function of its input: same result, byte-identical output.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections import defaultdict
from typing import Callable, Iterable, Mapping, Sequence
from json.encoder import c_make_encoder  # type: ignore[attr-defined]
from json.encoder import encode_basestring as _json_string  # the C encoder, as json.dumps(ensure_ascii=False)
from xml.etree import ElementTree as ET

from .check import CheckResult, Waived
from .check.coverage import Cell, Coverage
from .models import SOURCE_LANGUAGE, Finding, KnowledgeBase, Rule, Ruling, Severity, Unit

FORMATS = ("text", "json", "junit", "html")

_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)


# ------------------------------------------------------------------ shared helpers


class _Index:
    """Unit id -> unit and owner, language code -> names."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.units: dict[str, Unit] = {}
        self.rule_of: dict[str, Rule] = {}
        self.ruling_of: dict[str, Ruling] = {}
        self.order: dict[str, int] = {}
        for rule in kb.rules:
            for unit in rule.units:
                self.units[unit.id] = unit
                self.rule_of[unit.id] = rule
        for ruling in kb.rulings:
            self.units[ruling.unit.id] = ruling.unit
            self.ruling_of[ruling.unit.id] = ruling
        for i, unit in enumerate(kb.units()):
            self.order[unit.id] = i
        self.names = {lang.code: lang for lang in kb.languages}

    def name(self, code: str) -> str:
        lang = self.names.get(code)
        return lang.english_name if lang else code

    def endonym(self, code: str) -> str:
        lang = self.names.get(code)
        return lang.name if lang else code

    def group(self, entry: str) -> str:
        """The rule id, or 'rulings:<mechanic>', a finding's entry belongs to."""
        if entry in self.rule_of:
            return self.rule_of[entry].id
        if entry in self.ruling_of:
            return "rulings:" + self.ruling_of[entry].mechanic
        return "?"

    def group_title(self, group: str, lang: str = SOURCE_LANGUAGE) -> str:
        if group.startswith("rulings:"):
            mechanic = group.split(":", 1)[1]
            rule = self.kb.rule(mechanic)
            return f"Rulings: {self.rule_title(rule, lang) if rule else mechanic}"
        rule = self.kb.rule(group)
        return self.rule_title(rule, lang) if rule else group

    @staticmethod
    def rule_title(rule: Rule, lang: str = SOURCE_LANGUAGE) -> str:
        title = None
        if rule.title is not None:
            title = rule.title.text(lang) or rule.title.text(SOURCE_LANGUAGE)
        return f"{rule.number} {title.text}" if title else rule.number

    def label(self, entry: str) -> str:
        unit = self.units.get(entry)
        return unit.label if unit else entry


def _counts(findings: Iterable[Finding]) -> dict[Severity, int]:
    out = {s: 0 for s in _SEVERITIES}
    for f in findings:
        out[f.severity] += 1
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("s") else "s"))


def _finding_dict(f: Finding) -> dict[str, object]:
    return {"code": f.code, "severity": f.severity.value, "lang": f.lang, "entry": f.entry, "file": f.file,
            "line": f.line, "message": f.message, "suggestion": f.suggestion}


# ------------------------------------------------------------------ JSON


_FLOAT_SPECIAL = {float("inf"): "Infinity", float("-inf"): "-Infinity"}


def _float_text(value: float) -> str:
    """A float as the json module writes it (allow_nan: NaN, Infinity, -Infinity)."""
    if value != value:
        return "NaN"
    return _FLOAT_SPECIAL.get(value) or float.__repr__(value)


def _key_text(key: object) -> str:
    """A dict key as the json module writes it: str as is, float/bool/None/int converted."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float_text(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


_SCALARS = frozenset({str, int, float, bool, type(None)})


@functools.lru_cache(maxsize=None)
def _flat_encoder(separator: str) -> Callable[[object, int], Sequence[str]]:
    """The json module's C encoder with the item separator of one depth (',' + newline and
    indentation): it writes a container without nested ones exactly as json.dumps(indent=…)."""
    if c_make_encoder is None:  # pragma: no cover - CPython always has it
        return lambda o, _level: list(json.JSONEncoder(ensure_ascii=False, sort_keys=True,
                                                       separators=(separator, ": ")).iterencode(o))
    return c_make_encoder({}, _not_serializable, _json_string, None, ": ", separator, True, False, True)


def _not_serializable(o: object) -> object:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


class _Encoded:
    """A value already written as JSON, for its place in `json_text`'s output (at that depth)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _findings_json(findings: Sequence[Finding], newline: str) -> str:
    """The JSON array of the findings' `_finding_dict`s as `json_text` writes it at the depth of
    `newline`, one template per finding (most of a report: ~6,700 findings on the whole rules).
    A finding whose fields are not plain text and a plain int line is written the general way."""
    if not findings:
        return "[]"
    item = newline + "  "
    field = "," + item + "  "
    string = _json_string
    out = []
    for f in findings:
        try:
            if type(f.line) is not int:
                raise TypeError(f.line)
            out.append(f'{{{item}  "code": {string(f.code)}{field}"entry": {string(f.entry)}{field}'
                       f'"file": {string(f.file)}{field}"lang": {string(f.lang)}{field}"line": {int.__repr__(f.line)}'
                       f'{field}"message": {string(f.message)}{field}"severity": {string(f.severity.value)}'
                       f'{field}"suggestion": {string(f.suggestion)}{item}}}')
        except (TypeError, AttributeError):
            out.append(_json_at(_finding_dict(f), item))
    return "[" + item + ("," + item).join(out) + newline + "]"


def _json_at(value: object, newline: str) -> str:
    """json_text of `value` as it is written inside a container, at the depth of `newline`."""
    return json_text(value).replace("\n", newline)


def json_text(value: object, indent: int = 2) -> str:
    """Exactly ``json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=True)``, faster:
    with `indent` the json module runs its pure-Python encoder (a generator per container, a
    yield per token); this writes the same tokens into one list, strings through the json
    module's own C string encoder, and a container without nested containers (a finding, a
    coverage cell) through its C encoder with the separators of its depth. Same separators
    (',' and ': '), same key order (the items sorted before their keys are converted), same
    errors for circular data and values JSON cannot hold. An `_Encoded` value is inserted as
    it is. (tests/test_report.py compares it with json.dumps on generated data.)"""
    out: list[str] = []
    put = out.append
    string = _json_string
    seen: set[int] = set()

    def encode(o: object, newline: str) -> None:
        if isinstance(o, str):
            put(string(o))
        elif o is None:
            put("null")
        elif o is True:
            put("true")
        elif o is False:
            put("false")
        elif isinstance(o, int):
            put(int.__repr__(o))
        elif isinstance(o, float):
            put(_float_text(o))
        elif isinstance(o, (list, tuple)):
            if not o:
                put("[]")
                return
            marker = id(o)
            if marker in seen:
                raise ValueError("Circular reference detected")
            seen.add(marker)
            inner = newline + pad
            put("[" + inner)
            first = True
            for item in o:
                if first:
                    first = False
                else:
                    put("," + inner)
                encode(item, inner)
            put(newline + "]")
            seen.discard(marker)
        elif type(o) is _Encoded:
            put(o.text)
        elif isinstance(o, dict):
            if not o:
                put("{}")
                return
            inner = newline + pad
            if _SCALARS.issuperset(map(type, o.values())):
                # no nested container: the C encoder writes it with this depth's separators
                flat = _flat_encoder("," + inner)(o, 0)
                put("{" + inner + "".join(flat)[1:-1] + newline + "}")
                return
            marker = id(o)
            if marker in seen:
                raise ValueError("Circular reference detected")
            seen.add(marker)
            put("{" + inner)
            first = True
            for key, item in sorted(o.items()):
                if first:
                    first = False
                else:
                    put("," + inner)
                put(string(_key_text(key)) + ": ")
                encode(item, inner)
            put(newline + "}")
            seen.discard(marker)
        else:
            raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")

    pad = " " * indent
    encode(value, "\n")
    return "".join(out)


def to_json(result: CheckResult, kb: KnowledgeBase | None = None) -> str:
    data = {
        "profile": result.profile,
        "languages": list(result.langs),
        "findings": _Encoded(_findings_json(result.findings, "\n  ")),
        "waived": [dict(_finding_dict(w.finding), reason=w.reason, waiver_file=w.waiver_file,
                        waiver_line=w.waiver_line) for w in result.waived],
        "coverage": result.coverage.as_dict(),
        "summary": result.summary,
    }
    return json_text(data) + "\n"


# ------------------------------------------------------------------ text


def _text_finding(f: Finding, label: str) -> list[str]:
    lines = [f"{f.file}:{f.line}: {f.severity.value} [{f.code}] {f.entry} ({f.lang}): {f.message}"]
    if f.suggestion:
        lines.append(f"    fix: {f.suggestion}")
    return lines


_GROUPED = {"coverage.missing": "have no {lang} text", "structure.missing-unit": "are missing in {lang} (other texts of the rule are translated)"}


def _grouped_missing(findings: Sequence[Finding], ix: _Index) -> tuple[list[Finding], dict[tuple[str, str, str], list[Finding]]]:
    """Split the missing-text findings of one rule (3 or more) off into one block each."""
    by_group: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in findings:
        if f.code in _GROUPED and not ix.group(f.entry).startswith("rulings:"):
            by_group[(f.code, f.lang, ix.group(f.entry))].append(f)
    blocks = {k: v for k, v in by_group.items() if len(v) >= 3}
    grouped = {id(f) for v in blocks.values() for f in v}
    return [f for f in findings if id(f) not in grouped], blocks


def _coverage_table(coverage: Coverage, langs: Sequence[str], ix: _Index) -> list[str]:
    head = ["rule / rulings"] + [f"{lang} ok/stale/missing" for lang in langs]
    rows = []
    for row in coverage.rows:
        title = ix.group_title(row.id if row.kind == "rule" else "rulings:" + row.id)
        rows.append([title] + [f"{c.translated}/{c.stale}/{c.missing}" for c in (row.cells[lang] for lang in langs)])
    rows.append(["total"] + [f"{c.translated}/{c.stale}/{c.missing} ({c.percent}%)" for c in
                             (coverage.totals[lang] for lang in langs)])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(head)] + [fmt(r) for r in rows]


def to_text(result: CheckResult, kb: KnowledgeBase) -> str:
    ix = _Index(kb)
    out = [f"rulekb check — profile '{result.profile}', languages {', '.join(result.langs)}"]
    for lang in result.langs:
        findings = result.for_lang(lang)
        counts = _counts(findings)
        out.append("")
        out.append(f"== {ix.name(lang)} ({lang}): {_plural(counts[Severity.ERROR], 'error')}, "
                   f"{_plural(counts[Severity.WARNING], 'warning')}, {counts[Severity.INFO]} info ==")
        if not findings:
            out.append("no findings")
            continue
        single, blocks = _grouped_missing(findings, ix)
        for (code, block_lang, group), items in sorted(blocks.items(), key=lambda kv: (ix.order.get(kv[1][0].entry, 0), kv[0])):
            labels = ", ".join(ix.label(f.entry) for f in items)
            first = items[0]
            what = _GROUPED[code].format(lang=ix.name(block_lang))
            out.append(f"{first.file}:{first.line}: {first.severity.value} [{code}] {group}.* ({block_lang}): "
                       f"{ix.group_title(group)}: {len(items)} texts {what}: {labels}")
            out.append("    fix: translate them (`rulekb check --format json` gives each one's English and translated_from)")
        for f in single:
            out.extend(_text_finding(f, ix.label(f.entry)))
    if result.waived:
        out.append("")
        out.append(f"== waived ({len(result.waived)}) ==")
        for w in result.waived:
            f = w.finding
            out.append(f"{f.file}:{f.line}: waived [{f.code}] {f.entry} ({f.lang}): {f.message}")
            out.append(f"    reason ({w.waiver_file}:{w.waiver_line}): {w.reason}")
    out.append("")
    out.append("== coverage (texts up to date / stale / missing) ==")
    out.extend(_coverage_table(result.coverage, result.coverage.languages, ix))
    out.append("")
    out.append("== findings per family and language ==")
    by_family = result.summary.get("by_family", {})
    assert isinstance(by_family, dict)
    families = sorted(by_family)
    if families:
        width = max(len(f) for f in families + ["family"])
        out.append("family".ljust(width) + "".join(f"{lang:>6}" for lang in result.langs))
        for family in families:
            out.append(family.ljust(width) + "".join(f"{by_family[family].get(lang, 0):>6}" for lang in result.langs))
    else:
        out.append("none")
    counts = _counts(result.findings)
    verdict = "FAILED" if result.exit_code else "passed"
    out.append("")
    out.append(f"{verdict}: {_plural(counts[Severity.ERROR], 'error')}, {_plural(counts[Severity.WARNING], 'warning')}, "
               f"{counts[Severity.INFO]} info, {len(result.waived)} waived (exit code {result.exit_code}; "
               f"errors fail the check)")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ JUnit


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _xml(text: str) -> str:
    return _XML_BAD.sub("\ufffd", text)


def to_junit(result: CheckResult, kb: KnowledgeBase) -> str:
    ix = _Index(kb)
    by_case: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in result.findings:
        by_case[(f.lang, f.entry)].append(f)
    waived: dict[tuple[str, str], list[Waived]] = defaultdict(list)
    for w in result.waived:
        waived[(w.finding.lang, w.finding.entry)].append(w)
    units = kb.units()
    root = ET.Element("testsuites", {"name": "rulekb check"})
    total = failures = 0
    for lang in result.langs:
        suite = ET.SubElement(root, "testsuite", {"name": f"rulekb.check.{lang}"})
        tests = fails = 0
        for unit in units:
            findings = by_case.get((lang, unit.id), [])
            tests += 1
            rule = ix.rule_of.get(unit.id)
            group = rule.id if rule else "rulings." + ix.ruling_of[unit.id].mechanic
            variant = unit.text(lang)
            pos = variant.pos if variant else unit.pos
            case = ET.SubElement(suite, "testcase", {"classname": f"rulekb.{lang}.{group}",
                                                     "name": f"{unit.label} ({unit.id})",
                                                     "file": pos.file, "line": str(pos.line)})
            errors = [f for f in findings if f.severity is Severity.ERROR]
            if errors:
                fails += 1
                failure = ET.SubElement(case, "failure", {"type": errors[0].code, "message": _xml(errors[0].message)})
                failure.text = _xml("\n".join(f"{f.severity.value} [{f.code}] {f.message}\n  fix: {f.suggestion}"
                                              for f in errors))
            notes = [f"{f.severity.value} [{f.code}] {f.message}\n  fix: {f.suggestion}" for f in findings
                     if f.severity is not Severity.ERROR]
            notes += [f"waived [{w.finding.code}] {w.finding.message}\n  reason: {w.reason}" for w in waived.get((lang, unit.id), [])]
            if notes:
                ET.SubElement(case, "system-out").text = _xml("\n".join(notes))
        extra = [f for f in result.findings if f.lang == lang and f.entry not in ix.units]
        for f in extra:  # findings about things that are not units (none today; kept visible)
            tests += 1
            case = ET.SubElement(suite, "testcase", {"classname": f"rulekb.{lang}", "name": f.entry,
                                                     "file": f.file, "line": str(f.line)})
            if f.severity is Severity.ERROR:
                fails += 1
                ET.SubElement(case, "failure", {"type": f.code, "message": _xml(f.message)}).text = _xml(f.suggestion)
            else:
                ET.SubElement(case, "system-out").text = _xml(f"{f.severity.value} [{f.code}] {f.message}\n  fix: {f.suggestion}")
        suite.set("tests", str(tests))
        suite.set("failures", str(fails))
        suite.set("errors", "0")
        suite.set("skipped", "0")
        total += tests
        failures += fails
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ------------------------------------------------------------------ HTML building blocks


def esc(text: str) -> str:
    return html.escape(text, quote=True)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>&~])")


def md_escape(text: str) -> str:
    """Text safe inside Markdown (headings, link texts): Markdown punctuation backslash-escaped."""
    return _MD_SPECIAL.sub(r"\\\1", text)


COLORS = {"translated": "#2e7d32", "stale": "#f9a825", "missing": "#c62828"}
CSS = (".rulekb-qa table{border-collapse:collapse;margin:.5em 0}"
       ".rulekb-qa th,.rulekb-qa td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}"
       ".rulekb-qa .parallel td{width:50%}"
       ".rulekb-qa .sev{font-weight:bold;text-transform:uppercase;font-size:.8em}"
       ".rulekb-qa .error .sev{color:#c62828}.rulekb-qa .warning .sev{color:#b26a00}.rulekb-qa .info .sev{color:#1565c0}"
       ".rulekb-qa .fix{color:#555}.rulekb-qa .missing-text{color:#777;font-style:italic}"
       ".rulekb-qa svg text{font:12px sans-serif}")


def coverage_svg(coverage: Coverage, titles: Mapping[str, str], languages: Sequence[str] | None = None) -> str:
    """An inline SVG chart: per rule (row) one stacked bar per language, translated / stale /
    missing, with a legend. `titles` maps a row id to its label."""
    langs = tuple(languages or coverage.languages)
    label_w, bar_w, bar_h, gap, lang_w = 230, 300, 12, 3, 28
    row_h = len(langs) * (bar_h + gap) + 10
    height = 30 + row_h * len(coverage.rows)
    width = label_w + lang_w + bar_w + 10
    parts = [f'<svg class="rulekb-qa-chart" xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}"><title>Translation coverage per rule and '
             f'language: up to date, stale, missing</title>']
    x = label_w + lang_w
    for name in ("translated", "stale", "missing"):
        parts.append(f'<rect x="{x}" y="4" width="10" height="10" fill="{COLORS[name]}"/>'
                     f'<text x="{x + 14}" y="13">{esc("up to date" if name == "translated" else name)}</text>')
        x += 95
    y = 26
    for row in coverage.rows:
        key = row.id if row.kind == "rule" else "rulings:" + row.id
        parts.append(f'<text x="0" y="{y + bar_h}">{esc(titles.get(key, row.id))}</text>')
        for i, lang in enumerate(langs):
            cell = row.cells[lang]
            by = y + i * (bar_h + gap)
            parts.append(f'<text x="{label_w}" y="{by + bar_h - 2}">{esc(lang)}</text>')
            bx = label_w + lang_w
            for name in ("translated", "stale", "missing"):
                n = getattr(cell, name)
                if not n or not cell.total:
                    continue
                w = bar_w * n / cell.total
                parts.append(f'<rect x="{bx:.1f}" y="{by}" width="{w:.1f}" height="{bar_h}" fill="{COLORS[name]}">'
                             f'<title>{esc(f"{lang}: {n} of {cell.total} {name}")}</title></rect>')
                bx += w
        y += row_h
    parts.append("</svg>")
    return "".join(parts)


def _parallel(unit: Unit | None, lang: str, ix: _Index, gettext: Callable[[str], str]) -> str:
    """English beside the translation (one column on the English page), on one line."""
    if unit is None:
        return ""
    english = unit.text(SOURCE_LANGUAGE)
    en_cell = (f'<td lang="en">{esc(english.text)}</td>' if english else
               f'<td class="missing-text">{esc(gettext("no English text"))}</td>')
    if lang == SOURCE_LANGUAGE:
        return (f'<table class="parallel"><thead><tr><th>{esc(ix.endonym(SOURCE_LANGUAGE))}</th></tr></thead>'
                f'<tbody><tr>{en_cell}</tr></tbody></table>')
    variant = unit.text(lang)
    tr_cell = (f'<td lang="{esc(lang)}">{esc(variant.text)}</td>' if variant else
               f'<td class="missing-text">{esc(gettext("not translated"))}</td>')
    return (f'<table class="parallel"><thead><tr><th>{esc(ix.endonym(SOURCE_LANGUAGE))}</th>'
            f'<th>{esc(ix.endonym(lang))}</th></tr></thead><tbody><tr>{en_cell}{tr_cell}</tr></tbody></table>')


def _finding_items(findings: Sequence[Finding], gettext: Callable[[str], str]) -> str:
    items = []
    for f in findings:
        items.append(f'<li class="{f.severity.value}"><span class="sev">{esc(gettext(f.severity.value))}</span> '
                     f'<code>{esc(f.code)}</code> {esc(f.message)}'
                     + (f'<br><span class="fix">{esc(gettext("fix"))}: {esc(f.suggestion)}</span>' if f.suggestion else "")
                     + "</li>")
    return f'<ul class="findings">{"".join(items)}</ul>'


def _by_group(findings: Sequence[Finding], ix: _Index) -> list[tuple[str, list[tuple[str, list[Finding]]]]]:
    """[(group, [(entry, findings)])] in knowledge-base order."""
    groups: dict[str, dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
    for f in findings:
        groups[ix.group(f.entry)][f.entry].append(f)
    def key(entry: str) -> int:
        return ix.order.get(entry, len(ix.order))
    out = []
    for group, entries in groups.items():
        ordered = sorted(entries.items(), key=lambda kv: key(kv[0]))
        out.append((group, ordered))
    out.sort(key=lambda g: key(g[1][0][0]))
    return out


def _coverage_cells_html(cell: Cell) -> str:
    return (f"<td>{cell.translated}</td><td>{cell.stale}</td><td>{cell.missing}</td>"
            f"<td>{cell.percent}%</td>")


# ------------------------------------------------------------------ standalone HTML


def to_html(result: CheckResult, kb: KnowledgeBase) -> str:
    ix = _Index(kb)
    gettext: Callable[[str], str] = lambda s: s  # noqa: E731
    titles = {(row.id if row.kind == "rule" else "rulings:" + row.id):
              ix.group_title(row.id if row.kind == "rule" else "rulings:" + row.id) for row in result.coverage.rows}
    counts = _counts(result.findings)
    body = [f"<h1>Translation QA</h1><p>Profile <code>{esc(result.profile)}</code>, languages "
            f"{esc(', '.join(result.langs))}: {counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warnings, "
            f"{counts[Severity.INFO]} info, {len(result.waived)} waived. "
            f"{'The check fails (errors remain).' if result.exit_code else 'The check passes.'}</p>",
            "<h2>Coverage</h2>", coverage_svg(result.coverage, titles)]
    head = "".join(f'<th colspan="4">{esc(ix.endonym(lang))}</th>' for lang in result.coverage.languages)
    sub = "".join("<th>up to date</th><th>stale</th><th>missing</th><th>%</th>" for _ in result.coverage.languages)
    rows = []
    for row in result.coverage.rows:
        key = row.id if row.kind == "rule" else "rulings:" + row.id
        rows.append(f"<tr><th>{esc(titles[key])}</th>"
                    + "".join(_coverage_cells_html(row.cells[lang]) for lang in result.coverage.languages) + "</tr>")
    rows.append("<tr><th>total</th>" + "".join(_coverage_cells_html(result.coverage.totals[lang])
                                               for lang in result.coverage.languages) + "</tr>")
    body.append(f'<table class="coverage"><thead><tr><th rowspan="2">rule</th>{head}</tr><tr>{sub}</tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>')
    for lang in result.langs:
        findings = result.for_lang(lang)
        c = _counts(findings)
        body.append(f'<h2 id="lang-{esc(lang)}">{esc(ix.endonym(lang))} ({esc(lang)}): {c[Severity.ERROR]} errors, '
                    f'{c[Severity.WARNING]} warnings, {c[Severity.INFO]} info</h2>')
        for group, entries in _by_group(findings, ix):
            body.append(f"<h3>{esc(ix.group_title(group, lang))}</h3>")
            for entry, items in entries:
                unit = ix.units.get(entry)
                body.append(f'<h4 id="{esc(lang)}-{esc(entry)}">{esc(ix.label(entry))} <small>({esc(entry)}, '
                            f'{esc(items[0].file)}:{items[0].line})</small></h4>')
                body.append(_parallel(unit, lang, ix, gettext))
                body.append(_finding_items(items, gettext))
    if result.waived:
        body.append("<h2>Waived findings</h2><ul>" + "".join(
            f"<li><code>{esc(w.finding.code)}</code> {esc(ix.label(w.finding.entry))} ({esc(w.finding.lang)}): "
            f"{esc(w.finding.message)}<br><em>reason:</em> {esc(w.reason)}</li>" for w in result.waived) + "</ul>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>rulekb translation QA</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{CSS}</style></head>'
            f'<body class="rulekb-qa">{"".join(body)}</body></html>\n')


# ------------------------------------------------------------------ site page


def _link(ix: _Index, entry: str, prefix: str) -> str:
    """The docs-relative target of a unit: rules/<id>.md#<number>, or cards/<card>.md for a ruling."""
    rule = ix.rule_of.get(entry)
    if rule is not None:
        sub = next((s for s in rule.subrules if s.unit.id == entry), None)
        anchor = f"#{sub.number}" if sub else ""
        return f"{prefix}rules/{rule.id}.md{anchor}"
    ruling = ix.ruling_of.get(entry)
    if ruling is not None and ruling.cards:
        return f"{prefix}cards/{ruling.cards[0]}.md"
    if ruling is not None:
        return f"{prefix}rules/{ruling.mechanic}.md"
    return ""


def _group_link(ix: _Index, group: str, prefix: str) -> str:
    mechanic = group.split(":", 1)[1] if group.startswith("rulings:") else group
    return f"{prefix}rules/{mechanic}.md" if ix.kb.rule(mechanic) else ""


def _row_key(row) -> str:
    return row.id if row.kind == "rule" else "rulings:" + row.id


def _has_text(cell: Cell) -> bool:
    """Whether a language has any text (up to date or stale) in a row of the coverage."""
    return bool(cell.translated or cell.stale)


def _translated_rows(coverage: Coverage) -> Coverage:
    """The coverage of the rows that some target language has a text in: the chart of the
    status page. The rows nobody has translated yet (most of an imported rules release) are
    listed apart, as links (`_untouched_list`)."""
    targets = [lang for lang in coverage.languages if lang != SOURCE_LANGUAGE]
    rows = tuple(row for row in coverage.rows if any(_has_text(row.cells[lang]) for lang in targets))
    return Coverage(coverage.languages, rows, coverage.totals)


def _untouched_list(rows: Sequence, lang: str, ix: _Index, titles: Mapping[str, str], link_prefix: str,
                    _: Callable[[str], str]) -> list[str]:
    """The rules without any text in `lang`, folded: one link each, not a table row each."""
    if not rows:
        return []
    links = []
    for row in rows:
        key = _row_key(row)
        target = _group_link(ix, key, link_prefix)
        label = esc(titles[key])
        links.append(f'<a href="{esc(target[:-3] + ".html" if target.endswith(".md") else target)}">{label}</a>'
                     if target else label)
    summary = _("Without any text in this language: {n}").format(n=len(rows))
    return [f'<div class="rulekb-qa"><details><summary>{esc(summary)}</summary><p>{", ".join(links)}</p></details></div>', ""]


def _coverage_section(result: CheckResult, lang: str, ix: _Index, link_prefix: str,
                      _: Callable[[str], str]) -> tuple[list[str], set[str]]:
    """The coverage chart (rows with a translation), the table of the rows with a text in this
    language, and the folded list of the others; with the keys (`_row_key`) of those others."""
    titles = {_row_key(row): ix.group_title(_row_key(row), lang) for row in result.coverage.rows}
    out = [f"## {md_escape(_('Coverage'))}", ""]
    chart = _translated_rows(result.coverage)
    if chart.rows:
        out += [f'<div class="rulekb-qa">{coverage_svg(chart, titles)}</div>', ""]
    header = [_("Rule"), _("up to date"), _("stale"), _("missing"), "%"]
    out.append("| " + " | ".join(md_escape(h) for h in header) + " |")
    out.append("|" + "---|" * len(header))
    untouched = []
    for row in result.coverage.rows:
        cell = row.cells[lang]
        if not _has_text(cell) and cell.total:
            untouched.append(row)
            continue
        key = _row_key(row)
        target = _group_link(ix, key, link_prefix)
        name = md_escape(titles[key])
        label = f"[{name}]({target})" if target else name
        out.append(f"| {label} | {cell.translated} | {cell.stale} | {cell.missing} | {cell.percent}% |")
    total = result.coverage.totals[lang]
    out.append(f"| **{md_escape(_('total'))}** | {total.translated} | {total.stale} | {total.missing} | {total.percent}% |")
    out.append("")
    return out + _untouched_list(untouched, lang, ix, titles, link_prefix, _), {_row_key(row) for row in untouched}


def _missing_block(findings: Sequence[Finding], ix: _Index, link_prefix: str, _: Callable[[str], str]) -> str:
    """The missing-text findings of one rule (3 or more, `_grouped_missing`) as one line of links."""
    first = findings[0]
    links = []
    for f in sorted(findings, key=lambda f: ix.order.get(f.entry, len(ix.order))):
        target = _link(ix, f.entry, link_prefix)
        href = target.replace(".md", ".html", 1) if target else ""
        label = esc(ix.label(f.entry))
        links.append(f'<a href="{esc(href)}">{label}</a>' if href else label)
    return (f'<div class="rulekb-qa"><ul class="findings"><li class="{first.severity.value}"><span class="sev">'
            f'{esc(_(first.severity.value))}</span> <code>{esc(first.code)}</code> '
            f'{esc(_("{n} texts").format(n=len(findings)))}: {", ".join(links)}'
            + (f'<br><span class="fix">{esc(_("fix"))}: {esc(first.suggestion)}</span>' if first.suggestion else "")
            + "</li></ul></div>")


def _findings_section(findings: Sequence[Finding], ix: _Index, lang: str, link_prefix: str,
                      _: Callable[[str], str], untouched: set[str] = frozenset()) -> list[str]:
    """The findings by rule and text, the English beside the translation; a rule's many missing
    texts as one line of links, not one block each. The missing texts of the rules without any
    text in the language (`untouched`, listed under the coverage) are not repeated here."""
    out = [f"## {md_escape(_('Findings'))}", ""]
    if not findings:
        return out + [md_escape(_("No findings.")), ""]
    findings = [f for f in findings if not (f.code == "coverage.missing" and ix.group(f.entry) in untouched)]
    single, grouped = _grouped_missing(findings, ix)
    by_rule: dict[str, list[list[Finding]]] = defaultdict(list)
    for (_code, _lang, group), items in sorted(grouped.items()):
        by_rule[group].append(items)
    listed = {g for g, _entries in _by_group(single, ix)}
    for group in by_rule:
        if group not in listed:
            single.append(by_rule[group][0][0])   # gives the rule its place in the order below
    for group, entries in _by_group(single, ix):
        target = _group_link(ix, group, link_prefix)
        title = md_escape(ix.group_title(group, lang))
        out += [f"### [{title}]({target})" if target else f"### {title}", ""]
        for items in by_rule.get(group, ()):
            out += [_missing_block(items, ix, link_prefix, _), ""]
        grouped_ids = {id(f) for items in by_rule.get(group, ()) for f in items}
        for entry, items in entries:
            items = [f for f in items if id(f) not in grouped_ids]
            if not items:
                continue
            target = _link(ix, entry, link_prefix)
            label = md_escape(ix.label(entry))
            out += [f"#### [{label}]({target})" if target else f"#### {label}", ""]
            out += [f'<div class="rulekb-qa">{_parallel(ix.units.get(entry), lang, ix, _)}'
                    f'{_finding_items(items, _)}</div>', ""]
    return out


def status_markdown(result: CheckResult, kb: KnowledgeBase, lang: str, *, link_prefix: str = "",
                    gettext: Callable[[str], str] | None = None) -> str:
    """The translation-status page of one language (Markdown with one-line HTML blocks).

    Links point to the rule pages (``rules/<rule-id>.md#<subrule number>``) and, for rulings, to
    the first card's page (``cards/<card-id>.md``), relative to the docs root; pass `link_prefix`
    (e.g. "../") when the page is not at the docs root. `gettext` translates the page's own words.
    Sized for the whole rules: the chart shows the rules with a translation, the rules without
    any text in the language are one folded list, and a rule's missing texts one line.
    """
    _ = gettext or (lambda s: s)
    ix = _Index(kb)
    findings = result.for_lang(lang)
    counts = _counts(findings)
    waived = [w for w in result.waived if w.finding.lang == lang]
    out = [f"# {md_escape(_('Translation status'))}: {md_escape(ix.endonym(lang))}", ""]
    errors, warnings = counts[Severity.ERROR], counts[Severity.WARNING]
    out.append(f'<div class="rulekb-qa"><style>{CSS}</style><p>'
               f'{esc(_("Findings"))}: {errors} {esc(_("error") if errors == 1 else _("errors"))}, '
               f'{warnings} {esc(_("warning") if warnings == 1 else _("warnings"))}, {counts[Severity.INFO]} '
               f'{esc(_("info"))}; {len(waived)} {esc(_("waived"))}. {esc(_("Profile"))}: '
               f'<code>{esc(result.profile)}</code>.</p></div>')
    out.append("")
    coverage, untouched = _coverage_section(result, lang, ix, link_prefix, _)
    out += coverage
    out += _findings_section(findings, ix, lang, link_prefix, _, untouched)
    if waived:
        out.append(f"## {md_escape(_('Waived findings'))}")
        out.append("")
        out.append('<div class="rulekb-qa"><ul>' + "".join(
            f"<li><code>{esc(w.finding.code)}</code> {esc(ix.label(w.finding.entry))}: {esc(w.finding.message)}"
            f"<br><em>{esc(_('reason'))}:</em> {esc(w.reason)}</li>" for w in waived) + "</ul></div>")
        out.append("")
    return "\n".join(out)


def render(result: CheckResult, kb: KnowledgeBase, fmt: str) -> str:
    if fmt == "json":
        return to_json(result, kb)
    if fmt == "junit":
        return to_junit(result, kb)
    if fmt == "html":
        return to_html(result, kb)
    return to_text(result, kb)


__all__ = ["FORMATS", "coverage_svg", "md_escape", "render", "status_markdown", "to_html", "to_json", "to_junit",
           "to_text"]
