"""Benchmark render.py against plain sequential ``manim``, side by side in one run.

    .venv/bin/python bench/render_bench.py [--quality medium] [--jobs N]

Renders the same scenes (the lecture's chapters and the scene template) at the same size
and frame rate twice: once with plain ``manim render``, one scene after the other (what an
instructor would type), once with ``render.py`` (parallel workers, Manim's hashing off, a
faster x264 preset). Prints render seconds per second of video for each and their ratio,
then the time of a no-op re-run and of a re-run after one scene was edited. Machines are
shared and noisy: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lecture.presets import PRESETS  # noqa: E402
from scenes.registry import checked  # noqa: E402
from scenes.video_gates import read_video  # noqa: E402


def timed(command: list[str], **kwargs) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, **kwargs)
    return time.perf_counter() - start


def write_plan(folder: Path) -> Path:
    """A lecture of every checked scene, with copies of their files (to edit one)."""
    lines = []
    for chapter in checked():
        copy = folder / chapter.file.name
        shutil.copy(chapter.file, copy)
        lines += [
            "[[chapter]]",
            f'scene = "{chapter.name}"',
            f'file = "{copy.name}"',
            f'class = "{chapter.class_name}"',
            "",
        ]
    plan = folder / "bench.toml"
    plan.write_text("\n".join(lines), encoding="utf-8")
    return plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quality", default="medium", choices=list(PRESETS))
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    preset = PRESETS[args.quality]
    work = Path(tempfile.mkdtemp(prefix="render-bench-"))
    plan = write_plan(work)
    out = work / "out"
    data = out / "data.json"
    timed([sys.executable, "-m", "model", "--out", str(data)])
    env_data = {"LECTURE_DATA": str(data)}

    plain = 0.0
    for chapter in checked():
        media = work / "plain" / chapter.name
        command = [
            sys.executable,
            "-m",
            "manim",
            "render",
            "-r",
            f"{preset.width},{preset.height}",
            "--fps",
            f"{preset.fps:g}",
            "--media_dir",
            str(media),
            str(work / chapter.file.name),
            chapter.class_name,
        ]
        plain += timed(command, env={**__import__("os").environ, **env_data})

    render = [
        sys.executable,
        "render.py",
        "--quality",
        args.quality,
        "--plan",
        str(plan),
        "--out",
        str(out),
    ] + (["--jobs", str(args.jobs)] if args.jobs else [])
    full = timed([*render, "--force"])
    video = sum(read_video(p).duration for p in (out / "segments").glob("*.mp4"))
    noop = timed(render)
    edited_file = work / checked()[0].file.name
    edited_file.write_text(edited_file.read_text() + "\n# edited for the benchmark\n")
    edited = timed(render)
    one_scene = timed([*render, "--force", "--scenes", checked()[0].name, "--jobs", "1"])

    print(f"scenes: {len(checked())}, {video:.1f} s of video at {preset}")
    print(f"plain manim, sequential : {plain:7.1f} s  {plain / video:6.3f} s per s of video")
    print(f"render.py, full         : {full:7.1f} s  {full / video:6.3f} s per s of video")
    print(f"ratio plain / render.py : {plain / full:7.2f}x  (target >= 1.8x)")
    print(f"no-op re-run            : {noop:7.1f} s  (target < 5 s)")
    print(
        f"one scene edited        : {edited:7.1f} s  = that scene alone ({one_scene:.1f} s) "
        f"+ {edited - one_scene:.1f} s  (target < 10 s)"
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
