"""`python -m rulekb …`: the same as the `rulekb` command (see rulekb.early)."""

import sys

from rulekb.early import main

sys.exit(main())
