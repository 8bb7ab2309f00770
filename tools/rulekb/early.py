"""The entry point of the `rulekb` command (pyproject's console script) and of `python -m rulekb`:
`main` starts, for `rulekb check …`, what should run before the rest of rulekb is imported (a
third of a second on one core), so that the second core has work from the first moment: the
helper process that loads the language model (`langid.start_helper`) and the child process that
reads a part of the YAML files (`validate.read_early`); then it imports `cli` and runs the
command. Importing this module has no side effects. The check command takes both up — `load_knowledge_base` of the same
root, the language check — or ends them; so does the end of the process.

Only `check` starts them: it reads the files and writes none, so an early read cannot miss what
the command itself writes (as `rulekb import` would).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # (typing is not imported: this module runs before anything else)
if TYPE_CHECKING:
    from typing import Sequence


def check_root(argv: Sequence[str]) -> str | None:
    """The project root of a `rulekb check` command line (its --root, else $RULEKB_ROOT, else
    '.'); None for any other command line, or one asking for help or the version."""
    root = os.environ.get("RULEKB_ROOT", ".")
    args = iter(argv)
    for arg in args:
        if arg == "--root":
            root = next(args, root)
        elif arg.startswith("--root="):
            root = arg.split("=", 1)[1]
        elif arg.startswith("-"):
            if arg in ("-h", "--help", "--version"):
                return None
        else:
            rest = list(args)
            return root if arg == "check" and "-h" not in rest and "--help" not in rest else None
    return None


def main() -> int:
    """`rulekb …`: the early start, then the command line of `cli`."""
    import sys
    start(sys.argv[1:])
    from .cli import main as cli_main
    return cli_main()


def start(argv: Sequence[str]) -> None:
    """Start the language model's helper and the early read, when `argv` runs `rulekb check`."""
    root = check_root(argv)
    if root is None:
        return
    import atexit

    from . import langid
    if langid.start_helper():
        atexit.register(langid.stop_helper)  # e.g. when the options turn out wrong
    from pathlib import Path

    from .validate import read_early
    read_early(Path(root))
