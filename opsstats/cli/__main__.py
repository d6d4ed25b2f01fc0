"""``python -m opsstats.cli``."""

import sys

from . import main

sys.exit(main())
