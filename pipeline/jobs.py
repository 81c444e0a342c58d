"""Render scenes in parallel worker processes, each with its own Manim media folder.

A worker is a ``python -m scenes.worker render`` process, Manim's own ``manim render``
that dies with render.py (it sets that itself, see scenes/worker.py): a failing scene
cannot stop or corrupt the others, and its error comes back as a few essential lines with
the command that re-runs it alone.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from common.files import OwnFileError
from common.files import RenderTimes as TimesFile
from common.processes import PARENT_PID
from common.settings import PREFIX, Settings
from syllabus.plan import Chapter
from syllabus.presets import Preset

# x264's "veryfast" preset: about a quarter less encoding time than Manim's default
# ("medium") at 1080p, for a somewhat larger file at the same quality setting. One thread:
# the workers fill the cores. No B-frames (bf=0): a held picture is stored once, lasting the
# hold (scenes/patches/fastframes.py), and without reordering each sample's decode time is
# its presentation time, so its duration in the MP4 is how long it is shown (with B-frames
# x264 derives decode times from earlier pictures' times, and a segment's durations no
# longer add up to its length).
ENCODER_OPTIONS = ("preset=veryfast", "threads=1", "bf=0")
WORKER = "scenes.worker"  # run by name: the pipeline never imports Manim
_BOX = re.compile(r"[│╭╮╰╯─┃━]+")


# A scene's frames must not depend on the process that draws them: with Python's random
# string hashing, the summary's fade-ins differed by a level or two in a few frames from one
# process to the next (the order of some set, in Manim or the scene). Every scene process,
# here or on a cluster's worker, hashes alike.
HASH_SEED = "0"


def worker_env(settings: Settings) -> dict[str, str]:
    """A worker's environment: this process's, its ``LECTURE_*`` variables replaced by
    ``settings``, and its string hashing fixed (:data:`HASH_SEED`)."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX)}
    return {**inherited, "PYTHONHASHSEED": HASH_SEED, **settings.to_env()}


@dataclass
class Job:
    """One scene to render into one segment."""

    chapter: Chapter
    preset: Preset
    media_dir: Path
    env: dict[str, str]
    lang: str = ""  # the language it renders in (its segments')

    def command(self) -> list[str]:
        options = [arg for opt in ENCODER_OPTIONS for arg in ("--encoder-option", opt)]
        return [
            sys.executable,
            "-m",
            WORKER,
            "render",
            "-r",
            f"{self.preset.width},{self.preset.height}",
            "--fps",
            f"{self.preset.fps:g}",
            "--media_dir",
            str(self.media_dir),
            "--disable_caching",
            "--progress_bar",
            "none",
            "-v",
            "WARNING",
            *options,
            str(self.chapter.file),
            self.chapter.class_name,
        ]

    def key(self) -> str:
        """What a render time is remembered under: the scene and language (at another size
        the times differ, their order hardly)."""
        return f"{self.chapter.name} {Settings.from_env(self.env).lang}"

    def video(self) -> Path | None:
        """The finished MP4 Manim wrote, if any."""
        videos = [
            p
            for p in self.media_dir.glob(f"videos/**/{self.chapter.class_name}.mp4")
            if "partial_movie_files" not in p.parts
        ]
        return max(videos, key=lambda p: p.stat().st_mtime) if videos else None


class RenderTimes:
    """How long each scene took last time (``<out>/.cache/render-seconds.json``), so that the
    longest start first and the last scene to finish does not run alone on the machine."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.seconds: dict[str, float] = dict(TimesFile.read(path).root)
        except (OSError, OwnFileError):  # none yet, or unreadable: start afresh
            self.seconds = {}

    @classmethod
    def in_folder(cls, folder: Path) -> RenderTimes:
        """The render times kept in ``folder`` (a run's cache), under their file's own name."""
        return cls(folder / TimesFile.NAME)

    def longest_first(self, jobs: list[Job]) -> list[Job]:
        """Scenes never timed first (they may be long), then the longest; ties keep order."""
        return sorted(jobs, key=lambda job: -self.seconds.get(job.key(), math.inf))

    def record(self, results: list[JobResult]) -> None:
        if not results:
            return
        for result in results:
            if result.ok:
                self.seconds[result.job.key()] = round(result.seconds, 2)
        TimesFile(self.seconds).write(self.path)


def drop_damaged(cache: Path) -> list[Path]:
    """Delete the formulas' and texts' SVGs in a run's cache that are cut short or are not
    SVG (a crash, a full disk, a hand edit), so that they are made again, as if the cache
    had been deleted. Reads the last bytes of each file only."""
    dropped = []
    for path in sorted(cache.glob("*/*.svg")) if cache.is_dir() else ():
        whole = False
        if path.is_file():  # never opens a pipe
            with contextlib.suppress(OSError), path.open("rb") as svg:
                svg.seek(max(0, path.stat().st_size - 64))
                whole = svg.read().rstrip().endswith(b"</svg>")
        if not whole:
            with contextlib.suppress(OSError):
                path.unlink() if not path.is_dir() else shutil.rmtree(path)
            dropped.append(path)
    return dropped


@dataclass
class JobResult:
    job: Job
    ok: bool
    seconds: float
    output: str = ""
    error: list[str] = field(default_factory=list)


def essential_lines(output: str, keep: int = 6) -> list[str]:
    """The last meaningful lines of a Manim error (its rich traceback's box stripped)."""
    lines = [_BOX.sub("", line).strip() for line in output.splitlines()]
    lines = [line for line in lines if line]
    for k in range(len(lines) - 1, -1, -1):  # end at the exception line
        if re.match(r"^[\w.]+(Error|Exception|Interrupt)\b", lines[k]):
            return lines[max(0, k - keep + 1) : k + 1]
    return lines[-keep:]


class Runner:
    """Runs jobs on a pool of worker processes; Ctrl-C, SIGTERM and SIGHUP stop them all."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    @property
    def slots(self) -> int:
        """How many scenes it renders at once."""
        return self.jobs

    def _run(self, job: Job, on_start: Callable[[Job], None]) -> JobResult:
        on_start(job)
        start = time.perf_counter()
        shutil.rmtree(job.media_dir, ignore_errors=True)
        with subprocess.Popen(
            job.command(),
            env={**job.env, PARENT_PID: str(os.getpid())},  # the worker dies with this one
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            process_group=0,  # its own group, so that stop() kills what it started too
        ) as process:
            with self._lock:
                self._running.add(process)
            output, _ = process.communicate()
            with self._lock:
                self._running.discard(process)
        seconds = time.perf_counter() - start
        if process.returncode != 0 or job.video() is None:
            error = essential_lines(output) or ["manim wrote no video"]
            return JobResult(job, False, seconds, output, error)
        return JobResult(job, True, seconds, output)

    def run(
        self,
        jobs: Iterable[Job],
        on_start: Callable[[Job], None],
        on_end: Callable[[JobResult], None],
    ) -> list[JobResult]:
        results: list[JobResult] = []
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(self._run, job, on_start) for job in jobs]
            try:
                for future in as_completed(futures):
                    result = future.result()
                    on_end(result)
                    results.append(result)
            except KeyboardInterrupt:
                self.stop()
                pool.shutdown(cancel_futures=True)
                raise
        return results

    def stop(self) -> None:
        """Kill every running worker (and the processes it started)."""
        with self._lock:
            for process in self._running:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
