"""Benchmark render.py against plain Manim on the whole lecture, side by side in one run.

    .venv/bin/python bench/render_bench.py [--qualities high,medium] [--scenes a,b|all]

For each size (default 1080p30 and 720p30) the benchmark's chapters (the lecture's first
four, unless ``--scenes`` names others or ``all``), silent, are rendered three ways:

- plain Manim at its defaults, what an instructor would type: ``manim render`` of one
  chapter after the other (x264's ``medium`` preset, Manim's caching on);
- plain Manim at the flags a careful user would pick: the same encoder options as render.py
  (x264 ``veryfast``, one thread), caching off, no progress bar, two chapters side by side;
- render.py ``--force --voice none``, its formula and text cache emptied first (the render times the
  previous size left there only order the work: the sizes run last to first, so that the
  first has them).

The plain runs render the same scene files with the same data file and environment, and
with this project's own speed-ups to drawing and encoding switched off
(``LECTURE_FAST_FRAMES=0``): what Manim itself does. Then, at the first size: a no-op re-run
of render.py, a re-run after one scene's file was edited (against that scene's own render
time), and every chapter's frames compared: plain Manim with and without this project's
speed-ups, both encoded losslessly (x264 ``crf=0``, so that the decoded frames are the
pictures drawn; at a lossy setting x264's own choices differ once a hold is stored as one
picture), decoded, read at the constant frame rate and hashed. Prints seconds per second of
video and the ratios. Machines are shared and noisy: read the ratios, which come from one
run.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.settings import Settings  # noqa: E402
from pipeline.jobs import ENCODER_OPTIONS, worker_env  # noqa: E402
from scenes.gates.video import compare_videos, read_video  # noqa: E402
from syllabus.lecture_file import load_lecture  # noqa: E402
from syllabus.plan import DEFAULT_PLAN, Chapter  # noqa: E402
from syllabus.presets import PRESETS, Preset  # noqa: E402

DONE = re.compile(r"done\s+(\S+) \(([\d.]+) s\)")
BENCHMARK_CHAPTERS = 4  # the lecture's first chapters: the benchmark's default
LOSSLESS = "crf=0"  # x264: the decoded frames are exactly the pictures encoded


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"bench: failed: {' '.join(command)}\n{result.stdout[-2000:]}{result.stderr}")
    return time.perf_counter() - start, result.stdout


def plain_command(
    chapter: Chapter, preset: Preset, media: Path, careful: bool, *options: str
) -> list[str]:
    command = [sys.executable, "-m", "manim", "render", "-r", f"{preset.width},{preset.height}"]
    command += ["--fps", f"{preset.fps:g}", "--media_dir", str(media / chapter.name)]
    if careful:
        command += ["--disable_caching", "--progress_bar", "none"]
        chosen = (*ENCODER_OPTIONS, *options)
        command += [arg for option in chosen for arg in ("--encoder-option", option)]
    return [*command, str(chapter.file), chapter.class_name]


def plain_video(chapter: Chapter, media: Path) -> Path:
    videos = (media / chapter.name).glob(f"videos/**/{chapter.class_name}.mp4")
    return next(v for v in videos if "partial_movie_files" not in v.parts)


def plain(
    chapters: list[Chapter], preset: Preset, media: Path, env: dict, careful: bool, *options: str
) -> float:
    """Plain Manim over every chapter: one at a time, or (careful) two side by side."""
    commands = [plain_command(c, preset, media, careful, *options) for c in chapters]
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2 if careful else 1) as pool:
        list(pool.map(lambda command: timed(command, env), commands))
    return time.perf_counter() - start


def render_py(out: Path, quality: str, scenes: str | None, *extra: str) -> tuple[float, str]:
    command = [sys.executable, "render.py", "--quality", quality, "--out", str(out), "--jobs", "2"]
    command += ["--voice", "none"]  # the picture alone: plain Manim's scenes are silent
    return timed(command + (["--scenes", scenes] if scenes else []) + list(extra))


def compare_frames(
    chapters: list[Chapter], preset: Preset, work: Path, settings: Settings
) -> dict[str, list[str]]:
    """Each chapter drawn by plain Manim and by this project's fast path, both lossless."""
    media = {fast: work / f"frames-{fast}" for fast in (False, True)}
    for fast, folder in media.items():
        env = worker_env(replace(settings, fast_frames=fast))
        plain(chapters, preset, folder, env, True, LOSSLESS)
    problems = {}
    for chapter in chapters:
        videos = (plain_video(chapter, media[fast]) for fast in (False, True))
        if found := compare_videos(*videos):
            problems[chapter.name] = found
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qualities", default="high,medium", help="render.py's --quality names")
    parser.add_argument("--scenes", help="comma-separated chapters (default: the whole lecture)")
    args = parser.parse_args()
    qualities = args.qualities.split(",")
    lecture = load_lecture(None, DEFAULT_PLAN, None)
    chosen = args.scenes.split(",") if args.scenes else []
    chapters = [c for c in lecture.chapters if args.scenes == "all" or c.name in chosen]
    chapters = chapters or lecture.chapters[:BENCHMARK_CHAPTERS]
    scenes = ",".join(c.name for c in chapters)
    work = Path(tempfile.mkdtemp(prefix="render-bench-"))
    out = work / "out"
    render_py(out, "low", "opening")  # trains the data file, renders one scene: not timed
    settings = Settings(
        lang=lecture.languages[0],
        theme=lecture.theme,
        data=out / "data.json",
        plan=DEFAULT_PLAN,
        chapters=tuple(c.name for c in lecture.chapters),
        fast_frames=False,
    )
    env = worker_env(settings)
    rows = []
    for quality in reversed(qualities):  # the first size last: it starts longest-first too
        preset = PRESETS[quality]
        shutil.rmtree(out / ".cache" / "tex", ignore_errors=True)
        shutil.rmtree(out / ".cache" / "texts", ignore_errors=True)
        ours, _ = render_py(out, quality, scenes, "--force")
        video = sum(
            read_video(out / "segments" / f"{c.name}.mp4", False).duration for c in chapters
        )
        best = plain(chapters, preset, work / f"best-{quality}", env, careful=True)
        default = plain(chapters, preset, work / f"default-{quality}", env, careful=False)
        rows.insert(0, (preset, video, default, best, ours))
        print(
            f"{preset}: {video:.0f} s of video; plain defaults {default:.0f} s, plain best "
            f"{best:.0f} s, render.py {ours:.0f} s",
            flush=True,
        )
        if quality == qualities[0]:
            noop, _ = render_py(out, quality, scenes)
            edited_file = chapters[0].file
            original = edited_file.read_text(encoding="utf-8")
            try:
                edited_file.write_text(original + "\n# edited by the benchmark\n", encoding="utf-8")
                edit, log = render_py(out, quality, scenes)
            finally:
                edited_file.write_text(original, encoding="utf-8")
            own = float(DONE.search(log).group(2))
            print(f"no-op {noop:.2f} s, edit {edit:.2f} s (own {own:.2f} s)", flush=True)
            frames = compare_frames(chapters, preset, work, settings)
        shutil.rmtree(work / f"default-{quality}", ignore_errors=True)

    print(f"{len(chapters)} chapters, silent, 2 cores; seconds of rendering per second")
    print("of video (lower is better), and how many times faster render.py is")
    columns = ("plain defaults", "plain best", "render.py")
    print(f"{'size':8} {'video':>7} " + " ".join(f"{c:>14}" for c in columns) + "  ratios")
    for preset, video, default, best, ours in rows:
        print(
            f"{preset!s:8} {video:6.0f}s {default / video:14.3f} {best / video:14.3f} "
            f"{ours / video:14.3f}  {default / ours:.2f}x plain defaults, "
            f"{best / ours:.2f}x plain best"
        )
    print(f"no-op re-run            : {noop:5.2f} s")
    print(
        f"one scene edited        : {edit:5.2f} s = its own render ({own:.2f} s) "
        f"+ {edit - own:.2f} s ({chapters[0].name})"
    )
    print(
        f"frames vs plain best    : {len(chapters) - len(frames)} of {len(chapters)} segments "
        "identical, frame by frame (lossless, at the constant rate)"
        + "".join(f"\n    {name}: {found[0]}" for name, found in frames.items())
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
