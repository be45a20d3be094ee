"""``python -m coffeegames``: the same as the ``coffeegames`` command."""

import sys

from .cli import main

sys.exit(main())
