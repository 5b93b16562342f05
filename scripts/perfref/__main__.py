"""``python -m perfref`` is the ``perfref`` command."""

import sys

from .cli import main

sys.exit(main())
