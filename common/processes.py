"""Child processes that cannot outlive render.py, nor keep its output folder's lock.

The folder lock (pipeline/lock.py) is an ``flock``, which belongs to the open file: a
child made by a bare ``fork`` shares it and keeps the folder locked after render.py is
killed. So every child of render.py is started by ``exec`` (Python's descriptors are
close-on-exec, so the child has no copy of the lock), and every child sets Linux's
parent-death signal itself, first thing, so that ``kill -9`` of render.py kills it too.
Imports nothing of the project.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from multiprocessing.context import BaseContext

_PR_SET_PDEATHSIG = 1
PARENT_PID = "RENDER_PARENT_PID"  # a worker's environment: the pid it must die with


def die_with_parent(parent: int | None = None) -> None:
    """Be killed when the parent dies, however it dies (Linux; elsewhere nothing).

    ``parent`` is the pid the caller was started by (else :data:`PARENT_PID` in the
    environment, else the parent now): when the parent has already died (the child was
    adopted by another, a subreaper too), the child exits at once.
    """
    if not sys.platform.startswith("linux"):
        return
    expected = parent or int(os.environ.get(PARENT_PID) or os.getppid())
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != expected or expected == 1:  # the parent died before the line above
        os._exit(1)


def child_context() -> BaseContext:
    """The multiprocessing context for children of render.py: ``spawn`` (fork + exec), so
    that no child holds a copy of an open lock. Start its pool with
    ``initializer=die_with_parent, initargs=(os.getpid(),)``."""
    return multiprocessing.get_context("spawn")
