"""Importer support: the YAML files of a project tree as plain, ordered data (dicts, lists,
strings, booleans), and their deterministic writing.

Reading goes through the strict loader of `load` (same refusals, same positions); writing uses
PyYAML's emitter with fixed settings (key order kept, unicode as is, no line wrapping, literal
blocks for multi-line texts, one-line flow mappings for subrule letters). A text's or a
history's `releases` is a `ReleaseList` of dates in the plain data, read from and written as
one line of dates and ranges in the order of the tree's releases (`releaseranges`). A file is
written only when what it would hold changed, so importing the same data twice leaves every
byte as it was, and the files nobody touched keep their formatting and comments; a file whose
release lists are not written as the import writes them (the former YAML lists of dates) is
written again, and so is one whose ranges a release imported between their ends would change.
"""

from __future__ import annotations

import functools
import re
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

import yaml

from ..diagnostics import DataError, Problem
from ..files import WriteError, make_folder, os_problem, remove_stale_temporaries, write_all
from ..layout import DATA_FOLDERS, release_dates
from ..load import MapNode, Node, Scalar, SeqNode, SourceFile, parse_file
from ..releaseranges import ReleaseOrder

if TYPE_CHECKING:
    from ..models import KnowledgeBase

try:
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]

RELEASES_KEY = "releases"
FLOW_MAP_PARENTS = frozenset({"letters"})


class ReleaseList(list):
    """The releases (dates) of a text or of a rule's number, written as one line of dates and
    ranges in the order of the tree's releases: ``releases: 2009-07-11..2011-05-01``."""


class FlowDict(dict):
    """A mapping written on one line: ``a: {'2011-05-01': a, '2026-01-16': b}``."""


class _Writer(_Dumper):  # type: ignore[misc, valid-type]
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # PyYAML writes NEL and the Unicode line and paragraph separators raw in other styles, and
    # they are read back as line breaks: double quotes escape them.
    style = '"' if any(c in value for c in "\x85\u2028\u2029") else ("|" if "\n" in value else None)
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Writer.add_representer(str, _str)
def _flow_map(dumper: yaml.SafeDumper, value: FlowDict) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=True)


_Writer.add_representer(FlowDict, _flow_map)


def dump_pyyaml(data: Any, order: ReleaseOrder | None = None) -> str:
    """The reference: what PyYAML writes with the data files' settings (`dump` writes the same),
    each `ReleaseList` as its line in `order`."""
    return yaml.dump(_lines(data, order), Dumper=_Writer, sort_keys=False, allow_unicode=True, width=1_000_000,
                     default_flow_style=False)


def _lines(data: Any, order: ReleaseOrder | None) -> Any:
    """`data` with each `ReleaseList` as its line in `order` (the text it is written as)."""
    if isinstance(data, ReleaseList):
        return _release_line(data, order)
    if isinstance(data, dict):
        return type(data)((k, _lines(v, order)) for k, v in data.items())
    if isinstance(data, list):
        return [_lines(v, order) for v in data]
    return data


def _release_line(releases: ReleaseList, order: ReleaseOrder | None) -> str:
    if order is None:
        raise ValueError("a list of releases is written in the order of the project's releases: give it")
    return order.line(releases)


# ---------------------------------------------------------------- a fast emitter
#
# PyYAML's representer costs ~15 µs a scalar in Python; an import writes ~100,000 of them.
# `dump` writes the same bytes as `dump_pyyaml` for the data an import handles (mappings,
# lists, strings, booleans; literal blocks for multi-line text; flow lists and mappings):
# the scalar styles follow PyYAML's own analysis (ported below), block layout as PyYAML's
# (two-space indent, sequences in a mapping not indented). tests/test_import_store.py checks
# the equality on generated data and on every file of the project.

_RESOLVER = yaml.resolver.Resolver()
_STR = "tag:yaml.org,2002:str"
_BREAKS = "\n\x85\u2028\u2029"
_WHITE = "\0 \t\r\n\x85\u2028\u2029"


_W = "\\0 \\t\\r\\n\\x85\\u2028\\u2029"
_SPECIAL = re.compile("[^\\n\\x20-\\x7E\\x85\\xA0-\\uD7FF\\uE000-\\uFFFD\\U00010000-\\U0010FFFE]|\\uFEFF")
_LINE_BREAK = re.compile("[\\n\\x85\\u2028\\u2029]")
_BREAK_SPACE = re.compile("[\\n\\x85\\u2028\\u2029] ")
_SPACE_BREAK = re.compile(" [\\n\\x85\\u2028\\u2029]")
_INNER_INDICATOR = re.compile(f"(?s)(?<=.):(?:[{_W}]|\\Z)|[{_W}]#")


# A one-line text with no character or combination any style rule looks at.
_ORDINARY = re.compile("[^ -~\\xA0-\\uD7FF\\uE000-\\uFFFD]|:(?: |\\Z)| #|\\A | \\Z|\\uFEFF")
_ALL_GOOD = (True, True, True, False)


@functools.lru_cache(maxsize=1 << 16)
def _analyse(scalar: str) -> tuple[bool, bool, bool, bool]:
    """(block plain allowed, single quoted allowed, literal block allowed, multiline), as
    PyYAML's Emitter.analyze_scalar decides them with allow_unicode (regular expressions
    instead of its loop over the characters)."""
    if not scalar:
        return True, True, False, False
    first, last = scalar[0], scalar[-1]
    if (_ORDINARY.search(scalar) is None and first not in "#,[]{}&*!|>'\"%@`?:-"
            and not scalar.startswith("...")):
        return _ALL_GOOD
    followed = len(scalar) == 1 or scalar[1] in _WHITE
    block_ind = (scalar.startswith("---") or scalar.startswith("...") or first in "#,[]{}&*!|>'\"%@`"
                 or (first in "?:-" and followed) or _INNER_INDICATOR.search(scalar) is not None)
    line_breaks = _LINE_BREAK.search(scalar) is not None
    special = _SPECIAL.search(scalar) is not None
    plain = not (first == " " or last == " " or first in _BREAKS or last in _BREAKS)
    single = block = True
    if last == " ":
        block = False
    if line_breaks and _BREAK_SPACE.search(scalar):
        plain = single = False
    if special or (line_breaks and _SPACE_BREAK.search(scalar)):
        plain = single = block = False
    if line_breaks or block_ind:
        plain = False
    return plain, single, block, line_breaks


@functools.lru_cache(maxsize=65536)
def _resolves_to_str(scalar: str) -> bool:
    return _RESOLVER.resolve(yaml.ScalarNode, scalar, (True, False)) == _STR


_ESCAPES = {"\0": "0", "\x07": "a", "\x08": "b", "\x09": "t", "\x0A": "n", "\x0B": "v", "\x0C": "f",
            "\x0D": "r", "\x1B": "e", '"': '"', "\\": "\\", "\x85": "N", "\xA0": "_", "\u2028": "L", "\u2029": "P"}
_UNSAFE_BREAKS = re.compile("[\x85\u2028\u2029]")


class _Fallback(Exception):
    """A layout the fast emitter does not reproduce: the file is written by PyYAML instead."""


def _double(text: str) -> str:
    """PyYAML's double-quoted style (Emitter.write_double_quoted with allow_unicode, no folding)."""
    out = ['"']
    for ch in text:
        if ch in '"\\\x85\u2028\u2029\uFEFF' or not ("\x20" <= ch <= "\x7E" or "\xA0" <= ch <= "\uD7FF"
                                                       or "\uE000" <= ch <= "\uFFFD"):
            if ch in _ESCAPES:
                out.append("\\" + _ESCAPES[ch])
            elif ch <= "\xFF":
                out.append(f"\\x{ord(ch):02X}")
            elif ch <= "\uFFFF":
                out.append(f"\\u{ord(ch):04X}")
            else:
                out.append(f"\\U{ord(ch):08X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


@functools.lru_cache(maxsize=1 << 16)
def _scalar(value: str, key: bool = False) -> str | None:
    """A one-line scalar as PyYAML writes it (style by its own analysis); None when it is a
    multi-line text for a literal block."""
    if _UNSAFE_BREAKS.search(value):
        return _double(value)  # as the representer asks: PyYAML loses these breaks in other styles
    plain, single, block, multiline = _analyse(value)
    if key and (len(value) >= 128 or multiline or not value):
        raise _Fallback  # not a simple key: PyYAML writes "? key"
    if plain and value and _resolves_to_str(value):
        return value
    if "\n" in value and not key:
        if block:
            return None
        return _double(value)
    if single and not multiline:
        return "'" + value.replace("'", "''") + "'"
    return _double(value)


def _literal(value: str, indent: int) -> list[str]:
    """PyYAML's literal block ("|" or "|-") for a multi-line text."""
    if value[0] in " \n":
        raise _Fallback  # needs an indentation indicator
    if value.endswith("\n"):
        if len(value) == 1 or value[-2] == "\n":
            raise _Fallback  # "|+" and a document end marker
        head, body = "|", value[:-1]
    else:
        head, body = "|-", value
    pad = " " * indent
    return [head] + [pad + line if line else "" for line in body.split("\n")]


def _value(value: Any, indent: int, out: list[str], prefix: str, order: ReleaseOrder | None) -> None:
    """Write `prefix` + value (prefix is "key:" or "-" with its indentation); a `ReleaseList` as
    its line in `order`."""
    if isinstance(value, ReleaseList):
        value = _release_line(value, order)
    if type(value) is str:
        text = _scalar(value)
        if text is None:
            lines = _literal(value, indent + 2)
            out.append(f"{prefix} {lines[0]}")
            out.extend(lines[1:])
        else:
            out.append(f"{prefix} {text}")
    elif value is True or value is False:
        out.append(f"{prefix} {'true' if value else 'false'}")
    elif isinstance(value, FlowDict):
        out.append(f"{prefix} {{" + ", ".join(f"{_flow_scalar(k)}: {_flow_scalar(v)}" for k, v in value.items()) + "}")
    elif isinstance(value, dict):
        if not value:
            out.append(f"{prefix} {{}}")
        else:
            out.append(prefix)
            _mapping(value, indent + 2, out, order)
    elif isinstance(value, list):
        if not value:
            out.append(f"{prefix} []")
        else:
            out.append(prefix)
            _sequence(value, indent if prefix.endswith(":") else indent + 2, out, order)
    else:
        raise _Fallback


@functools.lru_cache(maxsize=1 << 12)
def _flow_scalar(value: Any) -> str:
    """A scalar inside a flow list or mapping, as PyYAML writes it there."""
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is not str or _UNSAFE_BREAKS.search(value) or len(value) >= 128:
        raise _Fallback
    plain, single, _, multiline = _analyse(value)
    # flow context: also no ",?[]{}" or ":" inside, nor "?" or ":" first
    flow_plain = plain and value[:1] not in "?:" and not any(c in ",?[]{}:" for c in value[1:])
    if flow_plain and value and _resolves_to_str(value):
        return value
    if single and not multiline:
        return "'" + value.replace("'", "''") + "'"
    return _double(value)


def _key(key: Any) -> str:
    if type(key) is not str:
        raise _Fallback
    text = _scalar(key, key=True)
    if text is None:
        raise _Fallback
    return text


def _mapping(data: dict[str, Any], indent: int, out: list[str], order: ReleaseOrder | None) -> None:
    pad = " " * indent
    for k, v in data.items():
        _value(v, indent, out, f"{pad}{_key(k)}:", order)


def _sequence(items: list[Any], indent: int, out: list[str], order: ReleaseOrder | None) -> None:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict) and item and not isinstance(item, FlowDict):
            first = True
            for k, v in item.items():
                _value(v, indent + 2, out, f"{pad}- {_key(k)}:" if first else f"{pad}  {_key(k)}:", order)
                first = False
        elif isinstance(item, list) and item and not isinstance(item, ReleaseList):
            raise _Fallback  # a list directly in a list
        else:
            _value(item, indent, out, f"{pad}-", order)


def dump(data: Any, order: ReleaseOrder | None = None) -> str:
    """YAML text of plain data, byte for byte as `dump_pyyaml`, several times faster; layouts
    it does not reproduce (rare: lists in lists, texts starting with a space or ending in
    blank lines, keys that are not simple) are left to PyYAML. `order`: the releases each
    `ReleaseList` is written in (as its line)."""
    if not isinstance(data, dict) or not data:
        return dump_pyyaml(data, order)
    out: list[str] = []
    try:
        _mapping(data, 0, out, order)
    except _Fallback:
        return dump_pyyaml(data, order)
    return "\n".join(out) + "\n"


def plain(node: Node, order: ReleaseOrder | None = None) -> Any:
    """Nodes of `load` as plain data; unquoted true/false become booleans, every other scalar
    stays text (as the schema reads it); given the releases' `order`, each `releases` is a
    `ReleaseList` (as `Tree` reads them)."""
    return _Plain(order).value(node, "")


@dataclass
class _Plain:
    """Plain data of a file's nodes, each `releases` (a line, or the former YAML list of dates)
    as a `ReleaseList` when `order` is given; notes whether the file has release lists and
    whether one of them is not written as the import writes it."""

    order: ReleaseOrder | None
    releases: bool = False     # the file has a list of releases
    rewrite: bool = False      # … not as `dump` writes it in `order`

    def value(self, node: Node, key: str) -> Any:
        if key == RELEASES_KEY and self.order is not None:
            return self.release_list(node)
        if isinstance(node, Scalar):
            if not node.quoted and node.value in ("true", "false"):
                return node.value == "true"
            return node.value
        if isinstance(node, MapNode):
            if key in FLOW_MAP_PARENTS:
                return {k.value: FlowDict(self.value(v, "")) if isinstance(v, MapNode) else self.value(v, k.value)
                        for k, v in node.items}
            return {k.value: self.value(v, k.value) for k, v in node.items}
        return [self.value(item, "") for item in node.items]

    def release_list(self, node: Node) -> Any:
        order = self.order
        assert order is not None
        self.releases = True
        if isinstance(node, Scalar):
            found = order.expand(node.value)
            if found is None:   # a flawed line: kept as it is (the validator names the flaw)
                return node.value
            if order.line(found) != node.value:
                self.rewrite = True
            return ReleaseList(found)
        if isinstance(node, SeqNode) and all(isinstance(item, Scalar) for item in node.items):
            self.rewrite = True   # the former form, a YAML list of dates
            return ReleaseList(item.value for item in node.items)  # type: ignore[union-attr]
        return self.value(node, "")


def to_node(data: Any, order: ReleaseOrder | None = None, line: int = 1) -> Node:
    """Plain data as positioned nodes, for validating what an import would write (a
    `ReleaseList` as its line in `order`)."""
    if isinstance(data, ReleaseList):
        return Scalar(_release_line(data, order), line, 1, True)
    if type(data) is str:
        return Scalar(data, line, 1, True)
    if isinstance(data, dict):
        return MapNode(tuple([(Scalar(k, line, 1, False), to_node(v, order, line)) for k, v in data.items()]), line, 1)
    if isinstance(data, list):
        return SeqNode(tuple([to_node(v, order, line) for v in data]), line, 1)
    value = ("true" if data else "false") if isinstance(data, bool) else str(data)
    return Scalar(value, line, 1, not isinstance(data, bool))


@dataclass
class Tree:
    """The YAML files of one project tree, as plain data by relative path, with the changes
    an import makes to them; `save` writes what changed. Its releases are the files of
    rules/releases/ (`order`): as read (`read_order`, what the files' ranges stand for), and as
    they will be written."""

    root: Path
    files: dict[str, Any] = field(default_factory=dict)
    original: dict[str, Any] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    read_order: ReleaseOrder = ReleaseOrder(())
    with_releases: set[str] = field(default_factory=set)   # the files with lists of releases
    rewrite: set[str] = field(default_factory=set)         # … one of them not as `dump` writes it

    @classmethod
    def read(cls, root: Path, folders: tuple[str, ...]) -> "Tree":
        problems: list[Problem] = []
        parsed_files = []
        for folder in folders:
            base = root / folder
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*.yaml")):
                parsed, found = parse_file(path, root)
                problems += found
                if parsed is not None:
                    parsed_files.append(parsed)
        if problems:
            raise DataError(problems)
        return cls.from_files(root, parsed_files)

    @classmethod
    def from_files(cls, root: Path, files: list[SourceFile]) -> "Tree":
        """A tree of files parsed already (by `load.load_files`)."""
        order = ReleaseOrder(release_dates(f.path for f in files))
        tree = cls(root, read_order=order)
        for f in files:  # two copies: one to change, one to compare with
            reading = _Plain(order)
            tree.files[f.path] = reading.value(f.root, "")
            tree.original[f.path] = _Plain(order).value(f.root, "")
            if reading.releases:
                tree.with_releases.add(f.path)
            if reading.rewrite:
                tree.rewrite.add(f.path)
        return tree

    def order(self) -> ReleaseOrder:
        """The releases of the tree as it will be written (those read, and those imported since)."""
        dates = release_dates(self.files)
        return self.read_order if dates == self.read_order.dates else ReleaseOrder(dates)

    def node(self, path: str) -> Node:
        """The file `path` as it would be written, as positioned nodes (to validate it)."""
        return to_node(self.files[path], self.order())

    def under(self, folder: str) -> dict[str, Any]:
        prefix = folder.rstrip("/") + "/"
        return {path: data for path, data in self.files.items() if path.startswith(prefix)}

    def put(self, path: str, data: Any) -> None:
        self.files[path] = data
        self.deleted.discard(path)

    def delete(self, path: str) -> None:
        self.files.pop(path, None)
        if path in self.original:
            self.deleted.add(path)

    def changes(self) -> tuple[list[str], list[str], list[str]]:
        """(added, changed, deleted) paths, sorted. Changed: a file whose data changed, or whose
        release lists are to be written anew (not written as `dump` writes them; or their ranges
        stand for other releases once a release is imported between their ends)."""
        added, changed = [], []
        order, before = self.order(), self.read_order
        # releases imported after all others leave every range as it was; one between them may not
        shifted = order.dates[:len(before.dates)] != before.dates
        for path, data in sorted(self.files.items()):
            if path not in self.original:
                added.append(path)
            elif data != self.original[path] or path in self.rewrite:
                changed.append(path)
            elif shifted and path in self.with_releases and dump(data, order) != dump(self.original[path], before):
                changed.append(path)
        return added, changed, sorted(self.deleted)

    def save(self, skip: set[str] = frozenset(), texts: Mapping[str, str] = MappingProxyType({})
             ) -> tuple[list[str], list[str], list[str]]:
        """Write the added and changed files (not those in `skip`) and the files whose `texts`
        are given as they are (rules/sources.yaml with its comments) as one change: all or none,
        so a full disk leaves the dataset as it was (WriteError). Then remove the deleted ones."""
        added, changed, deleted = self.changes()
        order = self.order()
        writes = [(self.root / path, dump(self.files[path], order).encode("utf-8"))
                  for path in added + changed if path not in skip]
        writes += [(self.root / path, text.encode("utf-8")) for path, text in texts.items()]
        for folder in sorted({target.parent for target, _ in writes}):
            make_folder(folder)
        write_all(writes)
        for path in deleted:
            try:
                (self.root / path).unlink(missing_ok=True)
            except OSError as error:
                raise WriteError([os_problem(self.root / path, error, "cannot remove")]) from None
        return added, changed, deleted


SOURCES_FILE = "rules/sources.yaml"


def register_source(tree: Tree, root: Path, sid: str, entry: dict[str, str], text: str | None = None) -> str | None:
    """Register a source in rules/sources.yaml: in the tree's data (for validation) and as the
    file's text (`text`, else the file's) with the entry appended, so that its comments stay.
    Returns that text, or None when `sid` is registered already; DataError when it is
    registered with another kind."""
    data = tree.files[SOURCES_FILE]
    sources = data.setdefault("sources", {})
    if sid in sources:
        kind = sources[sid].get("kind") if isinstance(sources[sid], dict) else None
        if kind != entry["kind"]:
            raise DataError([Problem(SOURCES_FILE, 1, 1, f"the source '{sid}' is registered with kind '{kind}'",
                                     f"it must have kind '{entry['kind']}': correct rules/sources.yaml")])
        return None
    sources[sid] = entry
    if text is None:
        text = (root / SOURCES_FILE).read_text("utf-8")
    if len(sources) == 1:
        head = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
        return head + dump(data)
    indent = next((m.group(1) for m in re.finditer(r"(?m)^( +)[^\s#][^:]*:\s*$", text)), "  ")
    block = "".join(indent + line + "\n" for line in dump({sid: entry}).splitlines())
    return text + ("" if text.endswith("\n") else "\n") + block


# Top-level entries of a project that a dataset copy (``--into DIR``) leaves out: code, tests,
# generated output, caches. Everything else (rules/, translations/, content/, mkdocs.yml,
# theme overrides ...) is what a build of the copy needs.
NOT_COPIED = frozenset({".git", ".venv", "venv", "build", "site", "reports", "dist", "tests", "tools", ".ci",
                        ".pytest_cache", ".hypothesis", "__pycache__", "node_modules", "benchmarks"})


@dataclass(frozen=True)
class Target:
    """The tree an import writes into, loaded: the project itself or a dataset copy of it."""

    root: Path
    created: bool                      # the dataset was copied from the project just now
    files: tuple[SourceFile, ...]      # its parsed YAML files (rules/ and translations/)
    kb: "KnowledgeBase"

    @property
    def rule_files(self) -> list[SourceFile]:
        return [f for f in self.files if f.path.startswith("rules/")]


def open_target(project: Path, into: Path | None) -> Target:
    """Load the tree an import writes into: `into` (created from `project` when missing) or
    the project itself. Raises DataError when its data does not load."""
    from ..load import load_files
    from ..validate import build_knowledge_base

    created = prepare_dataset(project, into) if into is not None else False
    root = into if into is not None else project
    remove_stale_temporaries_of(root)
    files = load_files(root)
    return Target(root, created, files, build_knowledge_base(files, root))


_INTO_FIX = "name a new or empty folder (it becomes a copy of the project's data), or a dataset made by an earlier --into"


def check_into(into: Path) -> None:
    """Refuse an `--into` that is not a folder a dataset can be in, before anything is written:
    ``-`` (there is no standard output for a tree of files), a file, a FIFO or a device, and a
    folder that holds something but no dataset (no rules/: a built site, a home folder), into
    which the project's data would be copied among what is there."""
    where = str(into)
    if where == "-":
        raise DataError([Problem("-", 1, 1, "--into names the folder of a dataset; '-' (standard output) is not one",
                                 _INTO_FIX)])
    try:
        if (into / "rules").is_dir():
            return
        if not into.exists():
            if into.is_symlink():
                raise DataError([Problem(where, 1, 1, f"--into {where} is a symbolic link to a missing target",
                                         _INTO_FIX)])
            return
        if not into.is_dir():
            raise DataError([Problem(where, 1, 1, f"--into {where} is {_kind(into)}, not a folder", _INTO_FIX)])
        inside = sorted(entry.name for entry in into.iterdir())
    except OSError as error:
        raise DataError([os_problem(into, error, "cannot read")]) from None
    if inside:
        shown = ", ".join(inside[:3]) + (" …" if len(inside) > 3 else "")
        raise DataError([Problem(where, 1, 1, f"--into {where} is a folder that holds {len(inside)} "
                                 f"entr{'y' if len(inside) == 1 else 'ies'} ({shown}) but no dataset (no rules/)",
                                 _INTO_FIX)])


def _kind(path: Path) -> str:
    mode = path.stat().st_mode
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


def remove_stale_temporaries_of(root: Path) -> tuple[Path, ...]:
    """Remove the temporary files an import, a catalog import or a build killed on this machine
    left under the tree's rules/ and translations/ (`files.remove_stale_temporaries`)."""
    return remove_stale_temporaries([root / folder for folder in DATA_FOLDERS])


def prepare_dataset(project: Path, into: Path) -> bool:
    """Make `into` a dataset tree: a copy of the project's data and site sources, unless it
    already holds one (then later imports add to it). True when it was created now. An `into`
    that cannot be one is refused first (`check_into`); a copy that fails (a full disk) removes
    what it copied and ends in a WriteError."""
    check_into(into)
    if (into / "rules").is_dir():
        return False
    if into.resolve() == project.resolve():
        return False
    existed = into.is_dir()
    try:
        into.mkdir(parents=True, exist_ok=True)
        for entry in sorted(project.iterdir()):
            name = entry.name
            if name in NOT_COPIED or name.endswith(".egg-info") or entry.resolve() == into.resolve():
                continue
            if entry.is_dir():
                shutil.copytree(entry, into / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif name.startswith("mkdocs") and name.endswith((".yml", ".yaml")):
                shutil.copy2(entry, into / name)
    except (OSError, shutil.Error) as error:
        _remove_copy(into, existed)
        failed = error if isinstance(error, OSError) else OSError(0, str(error))
        raise WriteError([os_problem(into, failed, "cannot copy the project's data into")]) from None
    return True


def _remove_copy(into: Path, existed: bool) -> None:
    """Undo a dataset copy that failed: the folder's contents (it was empty), or the folder."""
    if not existed:
        shutil.rmtree(into, ignore_errors=True)
        return
    for entry in into.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
