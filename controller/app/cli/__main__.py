"""`python -m controller.app.cli`: the tablectl command."""

import sys

from controller.app.cli import main

sys.exit(main())
