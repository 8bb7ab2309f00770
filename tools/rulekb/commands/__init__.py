"""The `rulekb` command line (the outermost layer, around the pipeline load -> validate ->
link -> check -> render -> report): one module per command, each with a `COMMAND` entry
(`Command`: name, help, options, run) listed in `COMMANDS` below. The command line is parsed
once, here; a command module parses nothing itself, prints its results and returns an
`Exit` code; the domain modules it calls return values and raise typed errors, which `main`
turns into messages:

- `DataError` (and `WriteError`): one ``file:line:column: error: …`` / ``fix: …`` per
  problem, then "N problem(s); nothing was written.", exit 2;
- `Failure`: ``error: …`` (``fix: …``) with the exit code it names;
- Ctrl-C: exit 130; a closed output pipe (``rulekb show … | head``): exit 0.

Adding a command: write ``commands/NAME.py`` with ``COMMAND = Command("NAME", "help",
arguments, run)`` — ``arguments(parser)`` declares the options, ``run(args) -> Exit`` imports
the modules it needs inside the function (so other commands do not pay for them), prints and
returns the exit code — and add it to `COMMANDS`.

Each command's options are declared when its parser is first used (`_CommandParser`), so an
``arguments`` function may import what its options need (check's imports the checks' registry
for the profile names, po's Babel) and building the command line still imports none of the
modules a command runs with: ``rulekb validate`` does not import the checks, Babel, the
importers or the site build (tests/test_cli.py says so).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .. import __version__
from ..diagnostics import DataError
from ..exitcodes import Exit
from . import build, card, changes, check, diff, hash, importing, lang, official, phrases, po, show, validate
from .common import Command, Failure

__all__ = ["COMMANDS", "Command", "Failure", "main", "parser"]

COMMANDS: tuple[Command, ...] = (
    validate.COMMAND,
    show.COMMAND,
    card.COMMAND,
    diff.COMMAND,
    changes.COMMAND,
    hash.COMMAND,
    po.COMMAND,
    lang.COMMAND,
    check.COMMAND,
    build.BUILD,
    build.SERVE,
    importing.COMMAND,
    phrases.COMMAND,
    official.COMMAND,
)


class _CommandParser(argparse.ArgumentParser):
    """The parser of one command: its options are declared (`Command.arguments`) the first
    time it parses or prints its help or usage — only the command that runs imports what its
    options need."""

    def __init__(self, *args, command: Command | None = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._command: Command | None = command

    def _declare(self) -> None:
        if self._command is not None:
            command, self._command = self._command, None
            command.arguments(self)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def]
        self._declare()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._declare()
        return super().format_usage()

    def format_help(self) -> str:
        self._declare()
        return super().format_help()


def parser() -> argparse.ArgumentParser:
    """The whole command line: the global options and one sub-parser per command."""
    p = argparse.ArgumentParser(
        prog="rulekb",
        description="The multilingual (en/de/fr) knowledge base of the Magic: The Gathering Comprehensive Rules "
                    "and card rulings: check the data, show rules, run the translation QA, build the site, "
                    "exchange PO catalogs with translators, import rules releases.",
        epilog="'rulekb COMMAND --help' describes each command. Exit codes: 0 ok, 1 QA errors found, "
               "2 the data or the options are wrong (each problem as file:line:column with a fix).")
    p.add_argument("--version", action="version", version=f"rulekb {__version__}")
    p.add_argument("--root", default=os.environ.get("RULEKB_ROOT", "."),
                   help="the project folder holding rules/ and translations/ (default: .)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_CommandParser)
    for c in COMMANDS:
        cp = sub.add_parser(c.name, help=c.help, description=c.help, command=c)
        cp.set_defaults(run=c.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: the process's); the exit code."""
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except DataError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s); nothing was written.", file=sys.stderr)
        return Exit.DATA
    except Failure as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return Exit.INTERRUPTED
    except BrokenPipeError:  # output piped into `head` and closed early
        sys.stderr.close()
        return Exit.OK
