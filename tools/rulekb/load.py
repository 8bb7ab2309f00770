"""Pipeline stage 1 of 6 (load -> validate -> link -> check -> render -> report).

Reads the YAML files of a project tree into positioned nodes, strictly: every scalar stays a
string with its line and column (YAML 1.1 would turn ``702.80`` into the float 702.8 and
``no`` into False), and the loader refuses what PyYAML would silently accept and lose:
duplicate keys, anchors and aliases, explicit tags, several documents in one file, bytes
that are not UTF-8. All problems of all files are collected into one `DataError`.

Speed comes from the parser: when the C extension `_yamlnodes` is built (libyaml, optional), it
turns a file's bytes straight into the same nodes, and returns None for anything beyond the
simple YAML the project writes (anchors, aliases, tags, duplicate keys, several documents, too
deep, a syntax error): only such a file is read again by the positioned loader below, which
names each problem at its line and column. Without the extension every file is read that way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, NamedTuple, Union

import yaml

from .diagnostics import DataError, Problem
from .layout import data_files

try:  # the optional C fast path (setup.py builds it when a compiler and libyaml are there)
    from . import _yamlnodes
except ImportError:  # pragma: no cover - depends on the installation
    _yamlnodes = None  # type: ignore[assignment]

try:  # libyaml's event parser is ~10x faster; the pure-Python one gives the same events
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class Scalar(NamedTuple):
    """A scalar's text, where it starts (line and column, from 1) and whether it was quoted. A
    named tuple: immutable and typed like the other nodes, and made ~2x faster than a frozen
    dataclass (the complete rules have ~770,000 scalars)."""

    value: str
    line: int
    column: int
    quoted: bool = False


@dataclass(frozen=True, slots=True)   # (no dict per node: ~225,000 mappings in the complete data)
class MapNode:
    items: tuple[tuple[Scalar, "Node"], ...]
    line: int
    column: int

    def keys(self) -> tuple[str, ...]:
        return tuple(k.value for k, _ in self.items)

    def get(self, key: str) -> "Node | None":
        for k, v in self.items:
            if k.value == key:
                return v
        return None

    def fields(self) -> dict[str, "Node"]:
        """Key -> value, for reading several fields (the first of a key, as `get` finds it)."""
        out: dict[str, Node] = {}
        for k, v in self.items:
            out.setdefault(k.value, v)
        return out

    def key_node(self, key: str) -> Scalar | None:
        for k, _ in self.items:
            if k.value == key:
                return k
        return None


@dataclass(frozen=True, slots=True)
class SeqNode:
    items: tuple["Node", ...]
    line: int
    column: int


Node = Union[Scalar, MapNode, SeqNode]


@dataclass(frozen=True)
class SourceFile:
    """One parsed YAML file: `path` is relative to the project root, with forward slashes."""

    path: str
    root: Node


def _pos(mark: yaml.Mark) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


_ScalarEvent, _SequenceStart, _SequenceEnd = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.SequenceEndEvent
_MappingStart, _MappingEnd, _AliasEvent = yaml.MappingStartEvent, yaml.MappingEndEvent, yaml.AliasEvent


def _plain(event: yaml.ScalarEvent) -> Scalar:
    """The scalar of a scalar event without anchor or tag (nearly all of them: the builder's
    loops handle these inline, without the general `_Builder._node`)."""
    mark = event.start_mark
    style = event.style
    return Scalar(event.value, mark.line + 1, mark.column + 1, style is not None and style != "")


# How deep a file's values may nest (mappings and lists in each other). The data files need fewer
# than ten levels; a file nested hundreds deep (by mistake, or made to) is refused at the line and
# column where it passes the limit, before the nesting could exhaust Python's stack.
MAX_DEPTH = 64


class _Builder:
    """Turns PyYAML events into nodes, collecting problems instead of stopping at the first."""

    def __init__(self, path: str):
        self.path = path
        self.problems: list[Problem] = []

    def problem(self, mark: yaml.Mark, message: str, hint: str) -> None:
        line, col = _pos(mark)
        self.problems.append(Problem(self.path, line, col, message, hint))

    def build(self, events: Iterator[yaml.Event]) -> Node | None:
        first = event = next(events, None)
        roots: list[Node] = []
        while event is not None:
            if isinstance(event, yaml.DocumentStartEvent):
                roots.append(self._node(next(events), events, 1))
            event = next(events, None)
        if len(roots) > 1:
            self.problem(first.start_mark, "the file holds several YAML documents ('---')",  # type: ignore[union-attr]
                         "keep one document per file; move the others into files of their own")
        return roots[0] if roots else None

    def _check_anchor_tag(self, event: yaml.NodeEvent) -> None:
        if getattr(event, "anchor", None):
            self.problem(event.start_mark, f"YAML anchor '&{event.anchor}' is not allowed",
                         "write the value out in full; anchors and aliases are refused "
                         "(they hide shared text and allow alias bombs)")
        tag = getattr(event, "tag", None)
        if tag and tag != "!":
            self.problem(event.start_mark, f"explicit YAML tag '{tag}' is not allowed",
                         "remove the tag; every value is read as text and typed by the schema")

    def _node(self, event: yaml.Event, it, depth: int) -> Node:
        kind = type(event)
        if kind is _ScalarEvent and event.anchor is None and event.tag is None:  # type: ignore[attr-defined]
            return _plain(event)  # the common case, first
        if kind is _AliasEvent:
            self.problem(event.start_mark, f"YAML alias '*{event.anchor}' is not allowed",
                         "write the value out in full; anchors and aliases are refused")
            line, col = _pos(event.start_mark)
            return Scalar("", line, col)
        if event.anchor is not None or (event.tag and event.tag != "!"):  # type: ignore[attr-defined]
            self._check_anchor_tag(event)  # type: ignore[arg-type]
        mark = event.start_mark
        line, col = mark.line + 1, mark.column + 1
        if kind is _ScalarEvent:
            style = event.style  # type: ignore[attr-defined]
            return Scalar(event.value, line, col, style is not None and style != "")  # type: ignore[attr-defined]
        if depth > MAX_DEPTH and (kind is _SequenceStart or kind is _MappingStart):
            self.problem(mark, f"the values nest more than {MAX_DEPTH} levels deep here",
                         "the data files need a few levels of nesting: look for indentation, '[' or '{' "
                         "that runs deeper than intended, and remove it")
            _skip(it)
            return Scalar("", line, col)
        if kind is _SequenceStart:
            items = []
            for child in it:
                child_kind = type(child)
                if child_kind is _SequenceEnd:
                    break
                if child_kind is _ScalarEvent and child.anchor is None and child.tag is None:
                    items.append(_plain(child))
                else:
                    items.append(self._node(child, it, depth + 1))
            return SeqNode(tuple(items), line, col)
        if kind is _MappingStart:
            return self._mapping(line, col, it, depth)
        raise AssertionError(f"unexpected YAML event {event!r}")  # the parser guarantees this

    def _mapping(self, line: int, col: int, it, depth: int) -> MapNode:
        items: list[tuple[Scalar, Node]] = []
        seen: dict[str, Scalar] = {}
        for child in it:
            child_kind = type(child)
            if child_kind is _MappingEnd:
                break
            if child_kind is _ScalarEvent and child.anchor is None and child.tag is None:
                key = _plain(child)
            else:
                key = self._node(child, it, depth + 1)
            child = next(it)
            if type(child) is _ScalarEvent and child.anchor is None and child.tag is None:
                value = _plain(child)
            else:
                value = self._node(child, it, depth + 1)
            if type(key) is not Scalar:
                self.problem_at(key, "a mapping key must be plain text",
                                "use a text key such as 'en' or 'text'")
                continue
            if key.value in seen:
                first = seen[key.value]
                self.problems.append(Problem(
                    self.path, key.line, key.column,
                    f"duplicate key '{key.value}' (first at line {first.line})",
                    "PyYAML would keep only the last one and lose the other text: "
                    "remove one of them or give it its own key"))
                continue
            seen[key.value] = key
            items.append((key, value))
        return MapNode(tuple(items), line, col)

    def problem_at(self, node: Node, message: str, hint: str) -> None:
        self.problems.append(Problem(self.path, node.line, node.column, message, hint))


def _skip(it) -> None:  # type: ignore[no-untyped-def]
    """Consume the events of the collection whose start event was just read."""
    level = 1
    for event in it:
        kind = type(event)
        if kind is _SequenceStart or kind is _MappingStart:
            level += 1
        elif kind is _SequenceEnd or kind is _MappingEnd:
            level -= 1
            if level == 0:
                return


def _decode(path: str, data: bytes) -> tuple[str | None, list[Problem]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(path, line, col,
                              f"the file is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                              "re-save the file as UTF-8 (e.g. iconv -f cp1252 -t utf-8)")]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


def parse_text(path: str, text: str) -> tuple[Node | None, list[Problem]]:
    """Parse YAML text into nodes; returns (root or None, problems)."""
    builder = _Builder(path)
    loader = None
    try:
        loader = _Loader(text)  # (the pure-Python loader checks the characters here already)
        # The parser's events as list(yaml.parse(text)) gives them, pulled from the parser as the
        # nodes are built (no generator, no check_event call, no list: ~125,000 events in the rules).
        root = builder.build(iter(loader.get_event, None))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _pos(mark) if mark else (1, 1)
        what = exc.problem or exc.context or "invalid YAML"
        return None, [Problem(path, line, col, f"YAML syntax error: {what}",
                              "check the indentation and quoting around this line")]
    except yaml.reader.ReaderError:
        return None, [_bad_character(path, text)]
    except yaml.YAMLError as exc:
        return None, [Problem(path, 1, 1, f"YAML error: {exc}", "check the file's YAML syntax")]
    finally:
        if loader is not None:
            loader.dispose()
    return root, builder.problems


# The characters YAML refuses in a file (its printable set's complement: both of PyYAML's
# parsers refuse the same); the C parser reports where in bytes, the pure-Python one in
# characters: the text itself says which character and where.
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def _bad_character(path: str, text: str) -> Problem:
    """The problem of the first character YAML does not allow, at its line and column."""
    found = _NOT_PRINTABLE.search(text)
    offset = found.start() if found else 0
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    code = f"U+{ord(text[offset]):04X}" if found else "a character"
    name = " (NUL)" if found and text[offset] == "\0" else ""
    return Problem(path, line, column, f"the file holds {code}{name}, a control character YAML does not allow",
                   "remove it; inside double quotes a control character can be written as an escape, e.g. \"\\t\"")


def parse_bytes(rel: str, data: bytes) -> tuple[SourceFile | None, list[Problem]]:
    """Parse the bytes of the file `rel` (its path relative to the project root)."""
    text, problems = _decode(rel, data)
    if text is None:
        return None, problems
    if _yamlnodes is not None:  # the same nodes, or None when the file is not simple: then read as below
        fast = _yamlnodes.parse(data[3:] if data.startswith(b"\xef\xbb\xbf") else data, Scalar, MapNode, SeqNode,
                                MAX_DEPTH)
        if fast is not None:
            return SourceFile(rel, fast), []
    node, problems = parse_text(rel, text)
    if node is None:
        if not problems:
            problems = [Problem(rel, 1, 1, "the file is empty", "add its content or delete the file")]
        return None, problems
    return SourceFile(rel, node), problems


def parse_file(path: Path, root: Path) -> tuple[SourceFile | None, list[Problem]]:
    return parse_bytes(path.relative_to(root).as_posix(), path.read_bytes())


def load_files(root: Path) -> tuple[SourceFile, ...]:
    """Parse every YAML file of the project `root` (`layout.data_files`); raise DataError with
    all problems."""
    files: list[SourceFile] = []
    paths, problems = data_files(root)
    for path in paths:
        parsed, found = parse_file(path, root)
        problems.extend(found)
        if parsed is not None:
            files.append(parsed)
    if problems:
        raise DataError(problems)
    return tuple(files)
