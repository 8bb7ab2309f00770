"""The site's offline archive, ``rulekb-site.zip`` (last step of `rulekb build`, after render).

Deflating the whole site (tens of megabytes on the full rules) is the slowest thing the build
does after mkdocs, so it is done in parts, side by side: each language's build process zips
its own language folder as soon as mkdocs has written it (`zip_folder`), the parent zips the
few files at the site root, and `merge` then joins the parts by copying their compressed
entries as they are — nothing is deflated twice.

The entries are written here, not through `zipfile.ZipFile.writestr`: one `zlib.compress`
and one `zlib.crc32` per file and the headers packed at once, which halves the time of
zipping a language (zipfile streams each entry through a file object and then seeks back to
rewrite its header). The bytes are those zipfile writes for the same entries (tested);
archives that need ZIP64 records (more than 65,535 entries or 4 GB) are left to zipfile.

Deterministic: entries sorted by name, fixed timestamps and permissions; the same files give
the same archive, whichever part an entry came from.
"""

from __future__ import annotations

import copy
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable, Sequence

DATE = (1980, 1, 1, 0, 0, 0)
LEVEL = 1   # deflate level: twice as fast as 6 on the whole rules, about 15 % larger

_LOCAL = struct.Struct("<4s5H3L2H")        # local file header, without name and extra field
_CENTRAL = struct.Struct("<4s6H3L5H2L")    # central directory header, without name
_END = struct.Struct("<4s4H2LH")           # end of central directory record
_MAX_ENTRIES = 0xFFFF                      # beyond these a zip needs ZIP64 records: then zipfile writes it
_MAX_SIZE = 0xFFFFFFFF
_VERSION = 20                              # "made by" and "needed to extract" (deflate), as zipfile says
_UNIX = 3
_UTF8 = 0x800                              # general purpose flag: the name is UTF-8
_MODE = 0o644 << 16                        # rw-r--r--
_DOS_TIME = DATE[3] << 11 | DATE[4] << 5 | DATE[5] // 2
_DOS_DATE = (DATE[0] - 1980) << 9 | DATE[1] << 5 | DATE[2]


class ArchiveError(Exception):
    """The parts cannot be joined (the same entry in two parts)."""


@dataclass(frozen=True)
class _Entry:
    """What the central directory says of an entry."""
    name: bytes
    flags: int
    compress_type: int
    time: int
    date: int
    crc: int
    compress_size: int
    file_size: int
    create: int          # "made by": version | system << 8
    extract: int
    internal_attr: int
    external_attr: int
    offset: int


def zip_files(target: Path, files: Iterable[tuple[str, Path | bytes]]) -> None:
    """An archive of `files` ((name in the archive, file on disk or its bytes)), sorted by name."""
    ordered = sorted(files, key=lambda f: f[0])
    if not _fits_plain_zip((name, len(c) if isinstance(c, bytes) else c.stat().st_size) for name, c in ordered):
        _zip_with_zipfile(target, ordered)
        return
    entries: list[_Entry] = []
    with open(target, "wb") as out:
        offset = 0
        for name, content in ordered:
            data = content if isinstance(content, bytes) else content.read_bytes()
            deflated = zlib.compress(data, LEVEL, -15)
            encoded, flags = _encoded(name)
            entry = _Entry(encoded, flags, zipfile.ZIP_DEFLATED, _DOS_TIME, _DOS_DATE, zlib.crc32(data),
                           len(deflated), len(data), _VERSION | _UNIX << 8, _VERSION, 0, _MODE, offset)
            header = _LOCAL.pack(b"PK\x03\x04", entry.extract, flags, entry.compress_type, entry.time, entry.date,
                                 entry.crc, entry.compress_size, entry.file_size, len(encoded), 0)
            out.write(header + encoded)
            out.write(deflated)
            offset += len(header) + len(encoded) + len(deflated)
            entries.append(entry)
        _write_central(out, entries, offset)


def _fits_plain_zip(entries: Iterable[tuple[str, int]]) -> bool:
    """Whether entries of these names and sizes fit a zip without ZIP64 records, their deflated
    data at its largest (deflate adds 5 bytes per 16 kB block to data it cannot compress)."""
    count = total = 0
    for name, size in entries:
        count += 1
        total += size + (size // 16384 + 1) * 5 + _LOCAL.size + _CENTRAL.size + 2 * len(name.encode("utf-8"))
    return count <= _MAX_ENTRIES and total + _END.size <= _MAX_SIZE


def _encoded(name: str) -> tuple[bytes, int]:
    try:
        return name.encode("ascii"), 0
    except UnicodeEncodeError:
        return name.encode("utf-8"), _UTF8


def _zip_with_zipfile(target: Path, ordered: Sequence[tuple[str, Path | bytes]]) -> None:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=LEVEL, allowZip64=True) as archive:
        for name, content in ordered:
            info = zipfile.ZipInfo(name, date_time=DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = _MODE
            info.create_system = _UNIX
            data = content if isinstance(content, bytes) else content.read_bytes()
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=LEVEL)


def _write_central(out: BinaryIO, entries: Sequence[_Entry], start: int) -> None:
    central = bytearray()
    for e in entries:
        central += _CENTRAL.pack(b"PK\x01\x02", e.create, e.extract, e.flags, e.compress_type, e.time, e.date, e.crc,
                                 e.compress_size, e.file_size, len(e.name), 0, 0, 0, e.internal_attr, e.external_attr,
                                 e.offset)
        central += e.name
    out.write(central)
    out.write(_END.pack(b"PK\x05\x06", 0, 0, len(entries), len(entries), len(central), start, 0))


def zip_folder(folder: Path, target: Path, prefix: str) -> None:
    """Every file below `folder` as ``<prefix><path relative to folder>``."""
    zip_files(target, ((prefix + p.relative_to(folder).as_posix(), p) for p in folder.rglob("*") if p.is_file()))


def merge(target: Path, parts: Sequence[Path]) -> None:
    """One archive holding the entries of all `parts`, sorted by name, their compressed data
    copied unchanged. Raises ArchiveError when two parts hold the same name."""
    archives = [zipfile.ZipFile(part) for part in parts]
    try:
        entries = sorted(((info.filename, i, info) for i, z in enumerate(archives) for info in z.infolist()),
                         key=lambda e: e[0])
        for (a, _, _), (b, _, _) in zip(entries, entries[1:]):
            if a == b:
                raise ArchiveError(f"'{a}' is in two parts of the archive {target.name}")
        if not _fits_plain_zip((name, info.compress_size) for name, _, info in entries):
            _merge_with_zipfile(target, entries, archives)
            return
        sources = [open(part, "rb") for part in parts]
        try:
            with open(target, "wb") as out:
                _copy_entries(out, entries, sources)
        finally:
            for f in sources:
                f.close()
    finally:
        for z in archives:
            z.close()


def _copy_entries(out: BinaryIO, entries: list[tuple[str, int, zipfile.ZipInfo]], sources: list[BinaryIO]) -> None:
    written: list[_Entry] = []
    for name, part, info in entries:
        offset = out.tell()
        source = sources[part]
        source.seek(info.header_offset)
        header = source.read(_LOCAL.size)
        name_length, extra_length = struct.unpack("<2H", header[26:30])
        out.write(header)
        out.write(source.read(name_length + extra_length + info.compress_size))
        dt = info.date_time
        encoded, flags = _encoded(name)
        written.append(_Entry(encoded, info.flag_bits | flags, info.compress_type,
                              dt[3] << 11 | dt[4] << 5 | dt[5] // 2, (dt[0] - 1980) << 9 | dt[1] << 5 | dt[2],
                              info.CRC, info.compress_size, info.file_size,
                              info.create_version | info.create_system << 8, info.extract_version,
                              info.internal_attr, info.external_attr, offset))
    _write_central(out, written, out.tell())


def _merge_with_zipfile(target: Path, entries, archives) -> None:
    """The slow way, for archives that need ZIP64: every entry read and deflated again."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=LEVEL, allowZip64=True) as out:
        for _name, part, info in entries:
            data = archives[part].read(info)
            out.writestr(copy.copy(info), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=LEVEL)
