"""Faults with real processes: render.py killed with -9 while it trains, and the folder lock.

No handler runs on ``kill -9``. The promise is that the kernel's release of the lock is
enough: no child of render.py keeps a copy of the lock or outlives its parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.lock import FolderInUseError, FolderLock

ROOT = Path(__file__).resolve().parent.parent
KILL_AFTER = (0.0, 2.5)  # seconds after the training pool starts: starting, mid-run
RUN = ("--scenes", "office", "--quality", "low", "--voice", "none")
GRACE = 5.0  # seconds for the kernel to end the children and release the lock


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` now (from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
def test_kill_9_while_training_leaves_no_lock_and_no_child(tmp_path: Path) -> None:
    runs = []
    for k, delay in enumerate(KILL_AFTER):
        out = tmp_path / f"out{k}"
        process = subprocess.Popen(
            [sys.executable, "render.py", *RUN, "--out", str(out)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        runs.append((process, out, delay))
    survivors: dict[Path, set[int]] = {}
    for process, out, delay in runs:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("data: training"), line
        start = time.monotonic()
        while not _children(process.pid) and time.monotonic() - start < 60:
            time.sleep(0.05)  # torch is imported, then the four-head trainer starts
        time.sleep(delay)
        children = _children(process.pid)
        assert children, "the training pool should be running by now"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stdout.close()
        survivors[out] = children
    deadline = time.monotonic() + GRACE
    for out, children in survivors.items():
        while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        orphans = [pid for pid in children if _alive(pid)]
        for pid in orphans:  # leave no trainer running after a failure
            os.kill(pid, signal.SIGKILL)
        assert not orphans, f"{out}: a child outlived render.py"
        try:
            with FolderLock(out):  # not refused: nobody holds the folder
                pass
        except FolderInUseError as err:
            pytest.fail(f"the lock outlived the run killed {out.name}: {err}")
