"""Targeted, byte-preserving edits of the project's YAML files: a helper of the translators'
round trip (`po import`) and of `lang add`, outside the read-only pipeline (load -> validate
-> link -> check -> render -> report), which never writes data.

An edit changes one text variant's fields (`SetFields`), adds a variant to a unit
(`AddVariant`) or appends an item to a top-level list (`AppendItem`). Each edit is located by
the line `rulekb.load` reports for the node (`Variant.pos`, `Unit.pos`), turned into a few
splices of the file's text (replace one scalar, insert a few lines) and nothing else: every
other byte - comments, key order, quoting, folded lines, blank lines, line endings, the
indentation of sequences - stays as it was, by construction.

Why not dump the file again with ruamel.yaml? ruamel's round trip reproduces the files PyYAML
wrote, but only with the file's own indentation settings (translations/languages.yaml indents
its lists, the rule files do not), and it re-flows every hand-folded plain scalar and
re-escapes double-quoted ones anywhere in the file. Splicing cannot touch those lines. New
scalars and items are rendered by PyYAML's `safe_dump` with the settings the data files were
written with (unicode kept, lines never wrapped), indented like their neighbours.

Every edited text is checked before anything is written: it must parse with the strict
loader, and its data must equal the old data with exactly the requested changes applied.
`plan` returns the new texts; `write` writes them (each file atomically).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence, Union

import yaml

from .diagnostics import DataError, Problem
from .files import write_all
from .load import MapNode, Node as LoadNode, Scalar, SeqNode, parse_text

FieldValue = Union[str, bool]
Fields = tuple[tuple[str, FieldValue], ...]

# The order the data files write a variant's fields in (see validate.VARIANT_FIELDS).
VARIANT_FIELD_ORDER = ("text", "source", "status", "canonical", "translated_from", "note")
LANG_KEY = re.compile(r"^[a-z]{2,3}$")
_UNICODE_BREAKS = "\x85\u2028\u2029"


@dataclass(frozen=True)
class SetFields:
    """Set fields of the text variant whose mapping starts at `line` (`Variant.pos.line`).
    A field the variant lacks is inserted where `VARIANT_FIELD_ORDER` puts it."""

    file: str
    line: int
    fields: Fields


@dataclass(frozen=True)
class AddVariant:
    """Add a variant in `lang` to the unit whose language mapping starts at `line`
    (`Unit.pos.line`). When the unit has `lang` already, the variant becomes the first item
    of its list (the caller sets the `canonical` flags); otherwise a `lang:` key is inserted
    where `languages` (the registry order) puts it among the unit's languages."""

    file: str
    line: int
    lang: str
    fields: Fields
    languages: tuple[str, ...]


@dataclass(frozen=True)
class AppendItem:
    """Append a mapping item to the list under the top-level key `key`."""

    file: str
    key: str
    fields: Fields


Edit = Union[SetFields, AddVariant, AppendItem]


@dataclass(frozen=True)
class FileEdit:
    """The planned new content of one file; `old` and `new` are the exact file texts."""

    path: str
    old: str
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class _Doc:
    path: str
    text: str          # decoded, without a byte-order mark
    bom: str
    newline: str
    root: yaml.Node
    mappings: dict[int, list[tuple[tuple, yaml.MappingNode]]]  # by 1-based start line, outermost first


def _read(root: Path, path: str) -> str:
    """The file's text (UTF-8, BOM kept) or DataError."""
    full = root / path
    try:
        data = full.read_bytes()
    except OSError as exc:
        raise DataError([Problem(path, 1, 1, f"cannot read the file: {exc.strerror}",
                                 "check that the project root is right (--root)")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError([Problem(path, line, 1, "the file is not UTF-8",
                                 "re-save it as UTF-8; 'rulekb validate' shows the exact byte")]) from None
    return text


def _compose(path: str, text: str) -> _Doc:
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    try:
        node = yaml.compose(body, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise DataError([Problem(path, line, 1, f"cannot edit the file: it is not valid YAML ({exc})",
                                 "run 'rulekb validate' and fix the file first")]) from None
    if node is None:
        raise DataError([Problem(path, 1, 1, "cannot edit the file: it is empty", "restore its content")])
    newline = "\r\n" if "\r\n" in body else "\n"
    mappings: dict[int, list[tuple[tuple, yaml.MappingNode]]] = {}
    for p, n in _walk(node):
        if isinstance(n, yaml.MappingNode):
            mappings.setdefault(n.start_mark.line + 1, []).append((p, n))
    return _Doc(path, body, bom, newline, node, mappings)


def _walk(node: yaml.Node, path: tuple = ()) -> Iterator[tuple[tuple, yaml.Node]]:
    yield path, node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _walk(value, path + (key.value,))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _walk(item, path + (i,))


def _get(node: yaml.MappingNode, key: str) -> tuple[yaml.ScalarNode, yaml.Node] | None:
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None


def _is_flow(doc: _Doc, node: yaml.Node) -> bool:
    return doc.text[node.start_mark.index: node.start_mark.index + 1] in ("[", "{")


def _problem(doc: _Doc, line: int, message: str, hint: str) -> DataError:
    return DataError([Problem(doc.path, line, 1, message, hint)])


def _find_mapping(doc: _Doc, line: int, accept, what: str) -> tuple[tuple, yaml.MappingNode]:
    found = [(p, n) for p, n in doc.mappings.get(line, ()) if accept(n)]
    if not found:
        raise _problem(doc, line, f"no {what} starts at line {line}",
                       "the file changed since it was read; run the command again")
    path, node = found[-1]  # the innermost one
    if _is_flow(doc, node):
        raise _problem(doc, line, f"the {what} at line {line} is written in flow style ({{...}})",
                       "write it in block style (one 'key: value' per line) so it can be edited in place")
    return path, node


def _is_variant(node: yaml.MappingNode) -> bool:
    return _get(node, "text") is not None


def _is_unit(node: yaml.MappingNode) -> bool:
    return bool(node.value) and all(isinstance(k, yaml.ScalarNode) and LANG_KEY.match(k.value)
                                    and isinstance(v, yaml.SequenceNode) for k, v in node.value)


# ---------------------------------------------------------------- rendering


def _loaded(value: FieldValue) -> str:
    """A value as the strict loader reads it back (every scalar is text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _render_value(key: str, value: FieldValue, indent: int) -> list[str]:
    """The lines of `key: value` as PyYAML writes the data files, continuation lines indented
    for a mapping at column `indent` (the first line carries no indentation)."""
    if isinstance(value, str) and any(c in value for c in _UNICODE_BREAKS):
        # PyYAML writes NEL/LS/PS raw in single-quoted scalars and reads them back as line
        # breaks; double quotes escape them (\N, \L, \P) and keep the text on one line.
        scalar = yaml.safe_dump(value, allow_unicode=True, width=float("inf"), default_style='"')
        return [f"{key}: {scalar.rstrip(chr(10))}"]
    dumped = yaml.safe_dump({key: value}, allow_unicode=True, width=float("inf"), sort_keys=False,
                            default_flow_style=False)
    lines = dumped.rstrip("\n").split("\n")
    return [lines[0]] + [(" " * indent + line) if line else line for line in lines[1:]]


def _render_item(fields: Fields, dash_col: int, map_col: int) -> list[str]:
    out: list[str] = []
    for i, (key, value) in enumerate(fields):
        lines = _render_value(key, value, map_col)
        lead = " " * dash_col + "-" + " " * (map_col - dash_col - 1) if i == 0 else " " * map_col
        out += [lead + lines[0]] + lines[1:]
    return out


def _scalar_text(key: str, value: FieldValue, indent: int) -> str:
    lines = _render_value(key, value, indent)
    first = lines[0]
    assert first.startswith(f"{key}:"), first  # PyYAML writes short plain keys as they are
    return "\n".join([first[len(key) + 1:].lstrip(" ")] + lines[1:])


# ---------------------------------------------------------------- splices


@dataclass(frozen=True)
class _Splice:
    start: int
    end: int
    text: str
    order: tuple[int, ...]  # among splices at one index: field lines first, new languages by rank


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _after_line(text: str, index: int) -> tuple[int, str]:
    """The index where a new line can go after the line holding `index`, and the text to
    put before it (a line break, when the file does not end with one)."""
    if index > 0 and text[index - 1] == "\n":
        return index, ""
    nl = text.find("\n", index)
    if nl == -1:
        return len(text), "\n"
    return nl + 1, ""


def _last_leaf(node: yaml.Node) -> yaml.Node:
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    return node


def _lines(lines: list[str], newline: str) -> str:
    return "".join(line + newline for line in lines)


class _Planner:
    """Turns edits into splices of one file's text and applies the same edits to the file's
    data (`self.data`), which the edited text must load back as."""

    def __init__(self, doc: _Doc):
        self.doc = doc
        self.splices: list[_Splice] = []
        self.data = _plain(doc.root)
        self.counter = 0

    def splice(self, start: int, end: int, text: str, rank: int = -1) -> None:
        self.counter += 1
        text = text.replace("\r\n", "\n").replace("\n", self.doc.newline)  # the file's line breaks
        self.splices.append(_Splice(start, end, text, (rank, self.counter)))

    def insert_lines(self, index: int, lines: list[str], rank: int = -1) -> None:
        at, prefix = _after_line(self.doc.text, index)
        self.splice(at, at, prefix + _lines(lines, "\n"), rank)

    # ---- locating (before any edit changes the data)

    def locate(self, edit: Edit) -> tuple[yaml.Node, dict]:
        if isinstance(edit, SetFields):
            path, node = _find_mapping(self.doc, edit.line, _is_variant, "text variant")
            return node, _at(self.data, path)
        if isinstance(edit, AddVariant):
            path, node = _find_mapping(self.doc, edit.line, _is_unit, "unit (a mapping of languages)")
            return node, _at(self.data, path)
        root = self.doc.root
        found = _get(root, edit.key) if isinstance(root, yaml.MappingNode) else None
        if found is None or not isinstance(found[1], yaml.SequenceNode):
            raise _problem(self.doc, 1, f"the file has no list '{edit.key}:'", f"add '{edit.key}:' with its items")
        return found[1], self.data

    # ---- the edits

    def set_fields(self, edit: SetFields, node: yaml.MappingNode, target: dict) -> None:
        col = node.start_mark.column
        for key, value in edit.fields:
            found = _get(node, key)
            target[key] = _loaded(value)
            if found is not None:
                knode, vnode = found
                if not isinstance(vnode, yaml.ScalarNode):
                    raise _problem(self.doc, vnode.start_mark.line + 1, f"'{key}' is not a single value",
                                   f"write '{key}:' as one value")
                if vnode.value == _loaded(value) and vnode.tag != "tag:yaml.org,2002:null":
                    continue
                self._replace_scalar(knode, vnode, key, value, col)
            else:
                self._insert_field(node, key, value, col)
        _reorder(target, [k.value for k, _ in node.value], [k for k, _ in edit.fields])

    def _replace_scalar(self, knode: yaml.Node, vnode: yaml.ScalarNode, key: str, value: FieldValue, col: int) -> None:
        start, end = vnode.start_mark.index, vnode.end_mark.index
        if start == end:  # an empty value ('key:'): write after the colon
            start = end = self.doc.text.find(":", knode.end_mark.index) + 1
            new = " " + _scalar_text(key, value, col)
        else:
            new = _scalar_text(key, value, col)
            if vnode.style in ("|", ">"):  # block scalars own their final line breaks
                old = self.doc.text[start:end]
                new += old[len(old.rstrip("\r\n")):]
        self.splice(start, end, new)

    def _insert_field(self, node: yaml.MappingNode, key: str, value: FieldValue, col: int) -> None:
        present = [k.value for k, _ in node.value]
        if key in VARIANT_FIELD_ORDER:
            before = [k for k in VARIANT_FIELD_ORDER[: VARIANT_FIELD_ORDER.index(key)] if k in present]
        else:
            before = present
        anchor_key = before[-1] if before else present[-1]
        _, anchor = _get(node, anchor_key)  # type: ignore[misc]
        lines = _render_value(key, value, col)
        # fields inserted at one place go in field order, before any new language block
        rank = VARIANT_FIELD_ORDER.index(key) - len(VARIANT_FIELD_ORDER) - 1 if key in VARIANT_FIELD_ORDER else -1
        self.insert_lines(_last_leaf(anchor).end_mark.index, [" " * col + lines[0]] + lines[1:], rank)

    def add_variant(self, edit: AddVariant, node: yaml.MappingNode, target: dict) -> None:
        item = {k: _loaded(v) for k, v in edit.fields}
        found = _get(node, edit.lang)
        if found is not None:
            _, seq = found
            if _is_flow(self.doc, seq) or not seq.value:
                raise _problem(self.doc, seq.start_mark.line + 1, f"the '{edit.lang}' list is in flow style or empty",
                               "write it as a block list ('- text: ...')")
            dash_col, map_col = seq.start_mark.column, seq.value[0].start_mark.column
            at = _line_start(self.doc.text, seq.start_mark.index)
            self.splice(at, at, _lines(_render_item(edit.fields, dash_col, map_col), "\n"))
            target[edit.lang].insert(0, item)
            return
        key_col = node.start_mark.column
        sib_key, sib_seq = node.value[0]
        if _is_flow(self.doc, sib_seq):
            raise _problem(self.doc, sib_seq.start_mark.line + 1, "the unit's lists are in flow style",
                           "write them as block lists ('- text: ...')")
        dash_col = key_col + (sib_seq.start_mark.column - sib_key.start_mark.column)
        map_col = dash_col + (sib_seq.value[0].start_mark.column - sib_seq.start_mark.column)
        lines = [" " * key_col + f"{edit.lang}:"] + _render_item(edit.fields, dash_col, map_col)
        rank = {code: i for i, code in enumerate(edit.languages)}
        mine = rank.get(edit.lang, len(rank))
        # in the file: after the last language ranked before this one, else before the first
        earlier = [i for i, (k, _) in enumerate(node.value) if rank.get(k.value, len(rank)) <= mine]
        if earlier:
            _, after = node.value[earlier[-1]]
            self.insert_lines(_last_leaf(after).end_mark.index, lines, rank=mine)
        else:
            at = _line_start(self.doc.text, node.value[0][0].start_mark.index)
            self.splice(at, at, _lines(lines, "\n"), rank=mine)
        # in the data: the same place, counting languages other edits have added
        items = list(target.items())
        position = max((i + 1 for i, (k, _) in enumerate(items) if rank.get(k, len(rank)) <= mine), default=0)
        items.insert(position, (edit.lang, [item]))
        target.clear()
        target.update(items)

    def append_item(self, edit: AppendItem, seq: yaml.SequenceNode, data: dict) -> None:
        if _is_flow(self.doc, seq) or not seq.value:
            raise _problem(self.doc, seq.start_mark.line + 1, f"the '{edit.key}' list is in flow style or empty",
                           "write it as a block list ('- key: value')")
        dash_col, map_col = seq.start_mark.column, seq.value[0].start_mark.column
        self.insert_lines(_last_leaf(seq).end_mark.index, _render_item(edit.fields, dash_col, map_col))
        data[edit.key].append({k: _loaded(v) for k, v in edit.fields})

    # ---- result

    def result(self) -> str:
        ordered = sorted(self.splices, key=lambda s: (s.start, s.order))
        for a, b in zip(ordered, ordered[1:]):
            if b.start < a.end or (a.start < a.end and b.start == a.start):
                line = self.doc.text.count("\n", 0, b.start) + 1
                raise _problem(self.doc, line, "two edits change the same text",
                               "give each variant at most one change per run")
        text = self.doc.text
        for s in reversed(ordered):
            text = text[: s.start] + s.text + text[s.end:]
        return text


def _reorder(target: dict, file_keys: list[str], edited: list[str]) -> None:
    """Keep the expected data's key order as the splices produce it: inserted fields go to
    their place in VARIANT_FIELD_ORDER among the keys the file has."""
    if all(k in file_keys for k in target):
        return
    order: list[str] = list(file_keys)
    for key in edited:
        if key in order:
            continue
        if key in VARIANT_FIELD_ORDER:
            before = [k for k in VARIANT_FIELD_ORDER[: VARIANT_FIELD_ORDER.index(key)] if k in order]
            order.insert(order.index(before[-1]) + 1 if before else len(order), key)
        else:
            order.append(key)
    items = [(k, target[k]) for k in order]
    target.clear()
    target.update(items)


# ---------------------------------------------------------------- verification


def _plain(node: yaml.Node):
    if isinstance(node, yaml.MappingNode):
        return {k.value: _plain(v) for k, v in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [_plain(v) for v in node.value]
    return node.value


def _plain_loaded(node: LoadNode):
    if isinstance(node, MapNode):
        return {k.value: _plain_loaded(v) for k, v in node.items}
    if isinstance(node, SeqNode):
        return [_plain_loaded(v) for v in node.items]
    assert isinstance(node, Scalar)
    return node.value


def _ordered(data):
    """Data with the order of mapping keys made part of equality."""
    if isinstance(data, dict):
        return tuple((k, _ordered(v)) for k, v in data.items())
    if isinstance(data, list):
        return [_ordered(v) for v in data]
    return data


def _at(data, path: tuple):
    for step in path:
        data = data[step]
    return data


def edit_text(path: str, text: str, edits: Sequence[Edit]) -> str:
    """The file text `text` (of project file `path`) with `edits` applied, verified."""
    doc = _compose(path, text)
    planner = _Planner(doc)
    located = [(edit, *planner.locate(edit)) for edit in edits]
    for edit, node, target in located:
        if isinstance(edit, SetFields):
            planner.set_fields(edit, node, target)
        elif isinstance(edit, AddVariant):
            planner.add_variant(edit, node, target)
        else:
            planner.append_item(edit, node, target)
    new_body = planner.result()
    node, problems = parse_text(path, new_body)
    if problems or node is None:
        detail = "; ".join(p.message for p in problems) or "it would be empty"
        raise _problem(doc, 1, f"internal error: the edited file would not load ({detail})",
                       "nothing was written; please report this with the input that caused it")
    if _ordered(_plain_loaded(node)) != _ordered(planner.data):
        raise _problem(doc, 1, "internal error: the edit would change more than the requested fields",
                       "nothing was written; please report this with the input that caused it")
    return doc.bom + new_body


def plan(root: Path, edits: Sequence[Edit]) -> tuple[FileEdit, ...]:
    """The new texts of the files the edits touch (nothing is written). Raises DataError."""
    by_file: dict[str, list[Edit]] = {}
    for edit in edits:
        by_file.setdefault(edit.file, []).append(edit)
    out = []
    problems: list[Problem] = []
    for path in sorted(by_file):
        try:
            old = _read(root, path)
            out.append(FileEdit(path, old, edit_text(path, old, by_file[path])))
        except DataError as exc:
            problems += exc.problems
    if problems:
        raise DataError(problems)
    return tuple(out)


def write(root: Path, edits: Sequence[FileEdit]) -> None:
    """Write the planned texts as one change (`files.write_all`): every file is replaced
    atomically, and an error (a full disk) while writing any of them changes none; unchanged
    files are not touched."""
    write_all((root / edit.path, edit.new.encode("utf-8")) for edit in edits if edit.changed)
