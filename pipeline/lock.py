"""One run per output folder: an exclusive lock on ``<out>/.lock``.

The lock is an ``flock`` on a file in the folder, so it is released by the kernel however
the run ends (even ``kill -9``): a stale lock cannot stay behind, since no child keeps a
copy of it (:func:`common.processes.keep_from_children`). The file holds the pid of the
run that holds it, for the message a second run prints.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from common.processes import keep_from_children, share_with_children


class FolderInUseError(RuntimeError):
    """Another run holds the output folder."""


class FolderLock:
    """Hold ``<folder>/.lock`` exclusively while the block runs.

    Parameters
    ----------
    folder
        The output folder (created if missing).
    wait
        Block until the other run is done instead of raising :class:`FolderInUseError`.
    """

    def __init__(self, folder: Path, wait: bool = False) -> None:
        self.path = folder / ".lock"
        self.wait = wait
        self._handle: IO[str] | None = None

    def __enter__(self) -> FolderLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise FolderInUseError(
                f"output folder {self.path.parent} is in use by another render.py "
                f"(pid {holder}); wait for it, or pass --wait"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        keep_from_children(handle.fileno())  # a forked child must not hold the folder
        self._handle = handle
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            share_with_children(self._handle.fileno())
            self._handle.close()  # releases the flock
            self._handle = None
