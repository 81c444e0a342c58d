"""Child processes that cannot outlive render.py, nor keep its output folder's lock.

The folder lock (pipeline/lock.py) is an ``flock``, which belongs to the open file: a
forked child shares it, and would keep the folder locked after render.py is killed. So
every forked child gives up its copy the moment it exists (:func:`keep_from_children`,
through ``os.register_at_fork``), a child started by ``exec`` has none (Python's
descriptors are close-on-exec), and every child sets Linux's parent-death signal itself,
first thing (:func:`die_with_parent`), so that ``kill -9`` of render.py ends it too.
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
_KEPT: set[int] = set()  # descriptors no child may share (the folder lock's)


def keep_from_children(fd: int) -> None:
    """Let no forked child share ``fd``: in the child it is replaced by /dev/null at once
    (the same number stays valid, so nothing of the child's closes another file)."""
    _KEPT.add(fd)


def share_with_children(fd: int) -> None:
    """Undo :func:`keep_from_children` (the descriptor is about to be closed)."""
    _KEPT.discard(fd)


def _in_child() -> None:
    if not _KEPT:
        return
    null = os.open(os.devnull, os.O_RDWR)
    for fd in _KEPT:
        os.dup2(null, fd)
    os.close(null)
    _KEPT.clear()


os.register_at_fork(after_in_child=_in_child)


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
    """The multiprocessing context for children of render.py: ``fork`` (no second import
    of torch), safe for the lock by :func:`keep_from_children`. Start its pool with
    ``initializer=die_with_parent, initargs=(os.getpid(),)``."""
    return multiprocessing.get_context("fork")
