"""``python -m tcfg``: the ``tcfg`` command (see :mod:`tcfg.cli`)."""

import sys

from tcfg.cli import main

sys.exit(main())
