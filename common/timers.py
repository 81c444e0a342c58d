"""Where a render's CPU time goes: shares of it, timed where the work is done, for the
profiles (bench/profile_chapter.py, bench/profile_lecture.py).

Off unless the settings' ``profile`` names a folder (:class:`common.settings.Settings`). When
it does, a render worker installs :mod:`scenes.patches.timers`, which times Manim's parts
with :func:`timed` and writes ``<folder>/<lang>-<scene>.json`` (:func:`write`) as the worker
ends; render.py adds the shares it spends on a chapter itself (:func:`parent_share`). One
folder per run (render.py splits the assembly over the chapter files it finds there), and
this machine's workers only (a cluster's are not profiled).

Each thread keeps its own stack of shares: the CPU time of a thread is charged to the share
on top of its stack, so a share nested in another (a formula made while a scene is built)
is charged to the inner one alone, and every CPU second of the thread is charged once. The
worker's main thread also charges the CPU time of the processes it waited for (LaTeX,
dvisvgm) to the share that waited. Switched off, :func:`timed` costs one test.
"""

from __future__ import annotations

import json
import resource
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# share: what it is (the order of the tables)
SHARES = {
    "start-up": "the worker's interpreter, imports (Manim, the chapter), Manim's command line",
    "synthesis": "the voice engine making the lines' clips (none when they are cached)",
    "LaTeX and Text": "Text, MathTex: rendering, compiling (LaTeX, dvisvgm), parsing the SVG",
    "scene build": "construct's own Python, between animations; Manim's file joining",
    "drawing": "Cairo drawing each frame (Manim's camera)",
    "per-frame Python": "animations' interpolation, updaters, frame bookkeeping",
    "colour conversion": "RGBA to YUV 4:2:0, into the encoder's picture (to_picture)",
    "encoding, moving": "x264 and the container, frames that move (repeat 1)",
    "encoding, holds": "x264 and the container, held frames (repeat > 1)",
    "mixing": "render.py: the narration mixed into the segment",
    "assembly": "render.py: the lecture and its page, split over chapters by their seconds",
}
PARENT_SHARES = ("mixing", "assembly")
HOLDS, MOVING = "encoding, holds", "encoding, moving"
# A segment encoder's start, on the main thread: charged to what it encodes when it ends.
ENCODER_START = "encoder start"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class _Clock:
    """One thread's shares: the stack of shares it is in, and the CPU charged to each."""

    def __init__(self, base: str | None, children: bool) -> None:
        self.children = children  # whether the processes it waits for count as its time
        self.stack: list[str | None] = [base]  # None: a share no timer names (see report)
        self.at = self.now() if base is None else 0.0  # a base share: since the thread began
        self.cpu: dict[str | None, float] = defaultdict(float)
        self.frames: dict[str, int] = defaultdict(int)
        self.switches = 0  # what the timing itself costs is about this many clock readings

    def now(self) -> float:
        return time.thread_time() + (_children_cpu() if self.children else 0.0)

    def switch(self) -> None:
        """Charge the time since the last switch to the share on top."""
        now = self.now()
        self.cpu[self.stack[-1]] += now - self.at
        self.at = now
        self.switches += 1


_on = False
_clocks: list[_Clock] = []  # every thread's, ended threads' too (appending is atomic)
_local = threading.local()
_settled: list[tuple[str, float, str]] = []  # (from, CPU seconds, to)


def start() -> None:
    """Start timing: this thread's time so far is start-up, the processes it waits for are
    its own (a render worker's main thread), and every other thread's time is charged from
    its first timed call on."""
    global _on
    _local.clock = _Clock("start-up", children=True)
    _clocks.append(_local.clock)
    _on = True


def _clock() -> _Clock:
    clock = getattr(_local, "clock", None)
    if clock is None:
        clock = _local.clock = _Clock(None, children=False)
        _clocks.append(clock)
    return clock


@contextmanager
def timed(share: str) -> Iterator[None]:
    """Charge this thread's CPU time inside the block to ``share`` (when timing is on)."""
    if not _on:
        yield
        return
    clock = _clock()
    clock.switch()
    clock.stack.append(share)
    try:
        yield
    finally:
        clock.switch()
        clock.stack.pop()


def charged(share: str) -> float:
    """This thread's CPU time charged to ``share`` so far."""
    clock = _clock()
    clock.switch()
    return clock.cpu[share]


def settle(held: str, seconds: float, share: str) -> None:
    """Move ``seconds`` charged to ``held`` to ``share``, now known."""
    _settled.append((held, seconds, share))


def count(kind: str, frames: int) -> None:
    """Note ``frames`` frames of ``kind`` (``moving``, ``held``; ``holds``: pictures held)."""
    _clock().frames[kind] += frames


def report(fps: float) -> dict:
    """The shares so far, in CPU seconds, and the frames: every thread's time is charged to
    a share. The time of threads outside any timer (x264's own threads, the encoder threads'
    queue) is the encoders': it is split over moving frames and holds as the rest is."""
    main = _local.clock
    main.switch()
    cpu: dict[str, float] = defaultdict(float)
    frames: dict[str, int] = defaultdict(int)
    attributed = 0.0
    for clock in _clocks:
        for share, seconds in clock.cpu.items():
            if share is not None:
                cpu[share] += seconds
                attributed += seconds if clock is not main else 0.0
        for kind, n in clock.frames.items():
            frames[kind] += n
    for held, seconds, share in _settled:
        cpu[held] -= seconds
        cpu[share] += seconds
    cpu[MOVING] += cpu.pop(ENCODER_START, 0.0)  # an encoder that never ended (none should)
    others = time.process_time() - time.thread_time()  # every thread but this one, ended too
    encoding = cpu[MOVING] + cpu[HOLDS]
    rest = max(0.0, others - attributed)
    for share in (MOVING, HOLDS):
        cpu[share] += rest * (cpu[share] / encoding if encoding else 0.5)
    seconds = (frames["moving"] + frames["held"]) / fps
    process = time.process_time() + _children_cpu()
    return {
        "cpu": {share: round(cpu[share], 4) for share in SHARES if share not in PARENT_SHARES},
        "frames": dict(frames),
        "fps": fps,
        "seconds": seconds,
        "process_cpu": round(process, 4),
        "switches": sum(clock.switches for clock in _clocks),
    }


def profile_file(folder: Path, lang: str, scene: str) -> Path:
    """Where one chapter's shares are written."""
    return folder / f"{lang}-{scene}.json"


def write(path: Path, found: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


def add_parent_share(path: Path, share: str, seconds: float) -> None:
    """Add render.py's own CPU ``seconds`` of ``share`` to a chapter's file."""
    found = json.loads(path.read_text(encoding="utf-8"))
    found["cpu"][share] = found["cpu"].get(share, 0.0) + round(seconds, 4)
    write(path, found)


@contextmanager
def parent_share(share: str, paths: list[Path]) -> Iterator[None]:
    """render.py's CPU time in the block (every thread's: PyAV's own too), added to the
    files of ``paths`` that this run's workers wrote, split by their seconds of video;
    nothing timed without such files (no profile, or no chapter rendered)."""
    written = [path for path in paths if path.is_file()]
    if not written:
        yield
        return
    began = time.process_time()
    yield
    spent = time.process_time() - began
    seconds = [json.loads(path.read_text(encoding="utf-8"))["seconds"] for path in written]
    for path, s in zip(written, seconds, strict=True):
        add_parent_share(path, share, spent * s / sum(seconds))
