"""``python -m scenes.gates [scene ...] [--lang L] [--numbers]``: run the gates."""

import sys

from scenes.gates import main

sys.exit(main())
