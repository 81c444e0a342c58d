"""``python -m scenes.gates [scene ...] [--lang L] [--numbers]``: run the gates."""

import sys

from scenes.gates.run import main

sys.exit(main())
