"""`rulekb hash TEXT`: the English hash a translation records as ``translated_from``."""

from __future__ import annotations

import argparse
import sys

from ..exitcodes import Exit
from .common import Command, Failure


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", help="the English text, or - to read it from standard input")


def run(args: argparse.Namespace) -> Exit:
    from ..models import english_hash
    text = _stdin() if args.text == "-" else args.text
    try:
        print(english_hash(text))
    except UnicodeEncodeError as exc:  # an argument the shell passed in another encoding
        raise Failure(f"the text is not UTF-8 (byte 0x{ord(text[exc.start]) & 0xff:02x} at character {exc.start + 1})",
                      hint="give the English text in UTF-8") from None
    return Exit.OK


def _stdin() -> str:
    """Standard input as text: UTF-8, line breaks read as text mode reads them (\r\n and \r -> \n)."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise Failure(f"standard input is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                      hint="convert the text to UTF-8, e.g. with iconv -t UTF-8") from None


COMMAND = Command("hash", "print the English hash a translation records as translated_from", arguments, run)
