"""A render worker: ``python -m scenes.worker render ...`` is ``manim render ...`` that dies
with the render.py that started it.

Linux's PR_SET_PDEATHSIG is set here, in the worker itself, before Manim starts: it covers
``kill -9`` of render.py alone, which no handler in render.py can see. (Setting it from the
parent's ``preexec_fn`` would run code between fork and exec in a process with threads,
which Python documents as unsafe.) Elsewhere this does nothing, and Ctrl-C, SIGTERM and
SIGHUP are still handled by render.py stopping its workers. Imports Manim only.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Be killed when the parent dies, however it dies (Linux)."""
    if sys.platform.startswith("linux"):
        parent = os.getppid()
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent or parent == 1:  # the parent died before the line above
            os._exit(1)


if __name__ == "__main__":
    die_with_parent()
    from manim.__main__ import main

    sys.argv[0] = "manim"
    main()
