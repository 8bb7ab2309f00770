"""`python -m rulekb …`: the same as the `rulekb` command (`rulekb.commands.main`)."""

import sys

from rulekb.commands import main

sys.exit(main())
