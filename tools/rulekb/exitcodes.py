"""The exit codes of every `rulekb` command, in one place (used by the `commands` layer only).

0  done; for `check`: no error finding remains
1  `check`: error findings remain (a result to read, not a failure); `show`/`card`: nothing found;
   `diff`/`changes`: a release that is not imported;
   `build`: mkdocs failed or the site folder cannot be replaced (the site was not changed)
2  a data or usage problem: the input could not be read, each problem printed as
   ``file:line:column: error: …`` with a ``fix:`` line; nothing was written
3  another `rulekb build` holds the lock of this site or build folder; nothing was written
130  stopped with Ctrl-C
"""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    OK = 0
    FINDINGS = 1       # check: errors remain
    NOT_FOUND = 1      # show/diff/changes/card: no such rule, release or card
    BUILD_FAILED = 1   # build: mkdocs failed or the site cannot be replaced; the old site stays
    DATA = 2           # bad input, bad usage, an OS error on a named file
    BUSY = 3           # the build lock is held by another build
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)
