"""Where one chapter's render time goes: CPU seconds per share, per second of video.

    .venv/bin/python bench/profile_chapter.py qkv [--quality high] [--before]

Renders the chapter in this process, as a render.py worker would (same flags, same encoder
options), with timers around the parts of Manim that make a video, and prints the split of
the process's CPU time: start-up, scene build, LaTeX and Text, drawing, Manim's per-frame
Python, colour conversion, encoding, and static holds (frames that repeat the one before,
most of them holds while a line is read: their conversion and encoding). The main thread is
timed with its own CPU clock; the encoder's work is read from the CPU clocks of every other
thread (Manim's encoder thread and x264's own threads), around each frame handed over.

``--before`` profiles the pipeline as it was before the speed work: Manim's own drawing
(every outline traced on every frame) and way of handing frames over (a copy and a colour
conversion for every frame of a hold), x264's default threads, and no cache shared between
renders.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

START = time.thread_time()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARES = (
    ("start-up", "importing Manim and the scene's modules"),
    ("scene build", "construct's own Python, between animations"),
    ("LaTeX and Text", "Text, MathTex: rendering, compiling, parsing the SVG"),
    ("drawing", "Cairo drawing each frame (Manim's camera)"),
    ("per-frame Python", "animations' interpolation, updaters, frame bookkeeping"),
    ("colour conversion", "RGBA to YUV 4:2:0, with the copy into the encoder's frame"),
    ("encoding", "x264, frames that move"),
    ("static holds", "frames that repeat the one before: conversion and encoding"),
)
_TICK = os.sysconf("SC_CLK_TCK")
cpu = defaultdict(float)
frames = defaultdict(int)
_main = threading.main_thread().native_id


def other_threads_cpu() -> float:
    """CPU seconds of this process outside its main thread (threads that ended included)."""
    fields = Path(f"/proc/self/task/{_main}/stat").read_text().rsplit(")", 1)[1].split()
    return time.process_time() - (int(fields[11]) + int(fields[12])) / _TICK


def timed_main(cls: type, name: str, share: str) -> None:
    """Add the main thread's CPU time inside ``cls.name`` to ``share`` (outermost call only)."""
    original = getattr(cls, name)
    depth = {"n": 0}

    def wrapper(*args, **kwargs):
        depth["n"] += 1
        start = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            depth["n"] -= 1
            if depth["n"] == 0:
                cpu[share] += time.thread_time() - start

    setattr(cls, name, wrapper)


def instrument(before: bool) -> None:
    """Time the encoder's frames (converted the old way with ``before``) and Manim's parts."""
    from fractions import Fraction

    import av
    from manim import MathTex, SingleStringMathTex, Tex, Text
    from manim.renderer.cairo_renderer import CairoRenderer
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    others = {"at": other_threads_cpu()}

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        rate = self.spec.frame_rate
        time_base = Fraction(rate.denominator, rate.numerator)
        conversion, now = 0.0, time.thread_time()
        frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
        if repeat > 1 and not before:
            frame = frame.reformat(format=self.spec.pixel_format)
        conversion += time.thread_time() - now
        for _ in range(repeat):
            now = time.thread_time()
            if before:  # Manim's own: a copy, and the encoder's conversion, for every frame
                frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
                frame = frame.reformat(format=self.spec.pixel_format)
            elif repeat == 1:
                frame = frame.reformat(format=self.spec.pixel_format)
            conversion += time.thread_time() - now
            frame.pts, frame.time_base = self._next_pts, time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
        spent = other_threads_cpu()
        work, others["at"] = spent - others["at"], spent
        frames["held" if repeat > 1 else "moving"] += repeat
        if repeat > 1:
            cpu["static holds"] += work
        else:
            cpu["colour conversion"] += conversion
            cpu["encoding"] += work - conversion

    VideoSegmentEncoder.write_frame = write_frame
    timed_main(CairoRenderer, "update_frame", "drawing")
    timed_main(CairoRenderer, "get_frame", "drawing")
    timed_main(CairoRenderer, "freeze_current_frame", "holds (main thread)")
    timed_main(CairoRenderer, "play", "play")
    for cls in (Text, MathTex, Tex, SingleStringMathTex):
        timed_main(cls, "__init__", "LaTeX and Text")


def main() -> None:
    from common.defaults import default

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene", help="a chapter's name, as in scenes/chapters/plan.toml")
    parser.add_argument("--quality", default=default("quality"))
    parser.add_argument("--lang", default=default("languages")[0])
    parser.add_argument("--before", action="store_true", help="the pipeline before the speed work")
    args = parser.parse_args()

    from common.settings import Settings
    from model.config import LectureConfig
    from model.datafile import is_current
    from pipeline.jobs import ENCODER_OPTIONS, Job
    from syllabus.plan import DEFAULT_PLAN, load_plan
    from syllabus.presets import PRESETS

    work = Path(tempfile.mkdtemp(prefix="profile-"))
    data = ROOT / "out" / "data.json"
    if not is_current(data, LectureConfig()):
        sys.exit(f"{data} is missing or stale: run `make data` first")
    chapters = load_plan(DEFAULT_PLAN)
    chapter = next(c for c in chapters if c.name == args.scene)
    os.environ |= Settings(
        lang=args.lang,
        data=data,
        plan=DEFAULT_PLAN,
        chapters=tuple(c.name for c in chapters),
        fast_frames=not args.before,  # before: Manim's own drawing and encoding
        cache=None if args.before else work / "cache",
    ).to_env()
    command = Job(chapter, PRESETS[args.quality], work / "media", {}).command()[3:]
    if args.before:
        options = [i for i, arg in enumerate(command) if arg == "--encoder-option"]
        command = [a for i, a in enumerate(command) if i - 1 not in options and i not in options]
        command[-2:-2] = ["--encoder-option", ENCODER_OPTIONS[0]]
    imported = time.thread_time()
    from manim.__main__ import main as manim_main

    from common.settings import settings
    from scenes import patches

    patches.install(settings())  # as a worker does, before the timers are put in
    __import__(chapter.module)
    cpu["start-up"] = time.thread_time() - imported + (imported - START)
    instrument(args.before)
    main_start = time.thread_time()
    manim_main(command, standalone_mode=False)
    main_cpu = time.thread_time() - main_start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    holds_main, text_main = cpu.pop("holds (main thread)"), cpu["LaTeX and Text"]
    cpu["LaTeX and Text"] += children.ru_utime + children.ru_stime  # latex, dvisvgm
    cpu["static holds"] += holds_main
    play = cpu.pop("play")
    cpu["per-frame Python"] = play - cpu["drawing"] - holds_main
    cpu["scene build"] = main_cpu - play - text_main
    report(args, frames["moving"] + frames["held"])


def report(args: argparse.Namespace, total_frames: int) -> None:
    from syllabus.presets import PRESETS

    seconds = total_frames / PRESETS[args.quality].fps
    total = sum(cpu.values())
    label = "before the speed work" if args.before else "now"
    print(f"{args.scene}, {PRESETS[args.quality]}, {label}: {seconds:.1f} s of video, ", end="")
    print(f"{frames['held'] / total_frames:.0%} of its frames held")
    print(f"{'share':20} {'CPU s':>7} {'%':>5} {'CPU s per s':>12}")
    for share, what in SHARES:
        value = cpu[share]
        print(f"{share:20} {value:7.2f} {value / total:5.0%} {value / seconds:12.3f}  {what}")
    print(f"{'total':20} {total:7.2f} {1:5.0%} {total / seconds:12.3f}")


if __name__ == "__main__":
    main()
