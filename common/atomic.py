"""The one way this project writes a file: whole, or not at all.

Every output (the data file, segment records, subtitles, the lecture MP4) is written under
a temporary name unique to this process, flushed to disk, and renamed over the target.
A reader sees the old file or the new one, never half of one; an interrupted write leaves
no temporary file behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from common.text import json_text


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; rename it into place when the block ends.

    The temporary name is unique (``.<name>.<random>.tmp``), so two writers never share
    it. On any exception (Ctrl-C included) the temporary file is removed and the target
    is left as it was.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(target: str | Path, text: str) -> None:
    """Write UTF-8 text to ``target`` atomically."""
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json_atomic(target: str | Path, data: Any) -> None:
    """Write JSON (UTF-8, no NaN: :func:`common.text.json_text`) to ``target`` atomically."""
    write_text_atomic(target, json_text(data) + "\n")


def copy_atomic(source: str | Path, target: str | Path) -> None:
    """Copy ``source`` to ``target`` atomically."""
    with atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)
