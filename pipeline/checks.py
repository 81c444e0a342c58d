"""What a run checks of its output folder and its page before anything renders, and the
one line a full disk gets after."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pipeline.options import UsageError

DISK_FULL = ("No space left on device", "[Errno 28]", "ENOSPC", "Disk quota exceeded")
LEAST_FREE = 64 * 2**20  # bytes: with less free, a failed scene is taken for a full disk


def check_writable(folder: Path, what: str = "output folder", fix: str = "") -> None:
    """``folder`` made if need be, and a file written in it, else one line (``what`` names
    the folder, ``fix`` ends the line)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as err:
        raise UsageError(f"{what} {folder} is not writable ({err.strerror}){fix}") from None


def check_page_library() -> None:
    """Before anything renders: the page's TensorFlow.js is there and whole (the lab
    trains with it), else one line naming it and the command that installs it."""
    from pipeline.vendor import VendorError, library

    try:
        library()
    except VendorError as err:
        raise UsageError(str(err)) from None


def disk_full(out: Path, outputs: list[str]) -> str | None:
    """The one line to print when scenes failed because the disk of ``out`` is full (their
    output says so, or hardly any space is left); None otherwise."""
    if not outputs:
        return None
    free = shutil.disk_usage(out).free
    said = any(sign in output for output in outputs for sign in DISK_FULL)
    if not said and free >= LEAST_FREE:
        return None
    return (
        f"the disk of {out} is full ({free / 2**20:.0f} MiB free): {len(outputs)} scene(s) "
        "could not be written; free some space and run again (finished segments are kept)"
    )
