"""What every command module of the `rulekb` command line shares (the outermost layer, around
the pipeline load -> validate -> link -> check -> render -> report): the `Command` entry of the
registry, the `Failure` a command raises to end with a message and an exit code, and the
project root and file names as a command shows them.

The domain modules return values and raise typed errors (`DataError`, `LanguageError`,
`BuildError`, …); only the command modules print, and `rulekb.commands.main` turns an error
into its message and exit code (`rulekb.exitcodes.Exit`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..exitcodes import Exit


@dataclass(frozen=True)
class Command:
    """One `rulekb` command: its name, the one-line help (``rulekb --help`` lists it; it opens
    ``rulekb NAME --help``), the function that declares its options on its parser, and the
    function that runs it (imports what it needs, prints, returns the exit code).

    `arguments` runs only when the command's parser is used (to parse the command line or to
    print its help), so it may import what its options need (e.g. the check profiles)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Exit]


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """The `arguments` of a command without options."""


class Failure(Exception):
    """The command cannot go on: ``error: MESSAGE`` (and ``    fix: HINT`` when given) on
    standard error, and `code` as the exit code."""

    def __init__(self, message: str, code: Exit = Exit.DATA, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code
        self.hint = hint

    def __str__(self) -> str:
        return f"error: {self.message}" + (f"\n    fix: {self.hint}" if self.hint else "")


def project_root(args: argparse.Namespace) -> Path:
    """The project folder of the command line (--root, else $RULEKB_ROOT, else .), absolute."""
    return Path(args.root).resolve()


def shown(path: Path) -> str:
    """A path as a message shows it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
