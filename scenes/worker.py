"""A render worker: ``python -m scenes.worker render ...`` is ``manim render ...`` that dies
with the render.py that started it.

Linux's PR_SET_PDEATHSIG is set here, in the worker itself, before Manim starts: it covers
``kill -9`` of render.py alone, which no handler in render.py can see. (Setting it from the
parent's ``preexec_fn`` would run code between fork and exec in a process with threads,
which Python documents as unsafe.) Elsewhere this does nothing, and Ctrl-C, SIGTERM and
SIGHUP are still handled by render.py stopping its workers.

The worker is also where Manim's speed-ups are installed (:func:`scenes.patches.install`,
as its settings ask), before Manim renders anything: nothing patches Manim on import.
Imports Manim, :mod:`common` and :mod:`scenes.patches` only.
"""

from __future__ import annotations

import sys

from common.processes import die_with_parent

if __name__ == "__main__":
    die_with_parent()
    from manim.__main__ import main

    from common.settings import settings
    from scenes import patches

    patches.install(settings())

    sys.argv[0] = "manim"
    main()
