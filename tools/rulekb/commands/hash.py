"""`rulekb hash TEXT`: the English hash a translation records as ``translated_from``."""

from __future__ import annotations

import argparse
import sys

from ..exitcodes import Exit
from .common import Command


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", help="the English text, or - to read it from standard input")


def run(args: argparse.Namespace) -> Exit:
    from ..models import english_hash
    text = sys.stdin.read() if args.text == "-" else args.text
    print(english_hash(text))
    return Exit.OK


COMMAND = Command("hash", "print the English hash a translation records as translated_from", arguments, run)
