"""Whether players play a lecture whose held pictures are stored once (one sample lasting
the hold), as they played the constant-rate files before:

    .venv/bin/python bench/players.py out/lecture.mp4 [--rate 8]

- FFmpeg (libavformat and libavcodec, through PyAV): every picture decodes, the samples'
  durations add up to the stream's length, and read at the constant rate the video has
  its length times its frame rate frames;
- VLC (``cvlc``, if installed: ``apt-get install vlc-bin vlc-plugin-base``), with its own MP4
  demuxer and with libavformat's: played to the end with no demuxer or decoder error, in
  the video's length divided by ``--rate`` (VLC refuses root: run as ``nobody`` then).

Chromium is checked by the tests (tests/test_page.py plays, seeks and stops the page's
lecture, whose segments store holds this way). Prints one line a player; exits 1 if any fails.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import av

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.video import constant_rate, frame_rate, seconds  # noqa: E402

FAULT = re.compile(r"(mp4|avformat|avcodec|packetizer|h264)[^\n]* error", re.IGNORECASE)


def ffmpeg(video: Path) -> str | None:
    """What is wrong when FFmpeg reads ``video`` (None: nothing)."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        length = seconds(container)
        pictures = sum(1 for _ in container.decode(stream))
    with av.open(str(video)) as container:
        frames = sum(1 for _ in constant_rate(container))
        expected = round(length * frame_rate(container))
        header = float(container.duration / av.time_base)
    if frames != expected:
        return f"{frames} frames at the constant rate, expected {expected}"
    if abs(header - length) > 0.05:
        return f"the container says {header:.3f} s, its samples {length:.3f} s"
    print(f"  ffmpeg: {pictures} pictures, {frames} frames, {length:.2f} s", flush=True)
    return None


def vlc(video: Path, demux: str | None, rate: float) -> str | None:
    """What is wrong when VLC plays ``video`` (None: nothing)."""
    with av.open(str(video)) as container:
        length = float(container.duration / av.time_base)
    command = ["cvlc", "-I", "dummy", "--vout", "dummy", "--aout", "dummy", "--play-and-exit"]
    command += ["--rate", str(rate), "-vv", *(["--demux", demux] if demux else []), str(video)]
    if os.geteuid() == 0:  # VLC refuses root
        command = ["su", "nobody", "-s", "/bin/sh", "-c", " ".join(command)]
    start = time.perf_counter()
    log = subprocess.run(command, capture_output=True, text=True, timeout=length / rate + 60)
    wall = time.perf_counter() - start
    text = log.stdout + log.stderr
    if "EOF reached" not in text:
        return "did not play to the end"
    if faults := FAULT.findall(text):
        return f"{len(faults)} errors, first from {faults[0]}"
    if wall < 0.8 * length / rate:
        return f"ended after {wall:.1f} s, before the {length:.1f} s video could play"
    late = text.count("too late to be displayed")
    print(
        f"  vlc ({demux or 'its own mp4 demuxer'}): played {length:.1f} s in {wall:.1f} s at ",
        end="",
    )
    print(f"{rate:g}x, {late} pictures shown late (CPU)", flush=True)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("--rate", type=float, default=8.0, help="VLC's playback rate")
    args = parser.parse_args()
    failed = []
    with tempfile.TemporaryDirectory() as folder:
        video = Path(folder) / args.video.name  # where the user VLC runs as can read it
        shutil.copyfile(args.video, video)
        os.chmod(folder, 0o755)
        os.chmod(video, 0o644)
        checks = {"ffmpeg": lambda: ffmpeg(video)}
        if shutil.which("cvlc"):
            checks["vlc mp4"] = lambda: vlc(video, None, args.rate)
            checks["vlc avformat"] = lambda: vlc(video, "avformat", args.rate)
        else:
            print("  vlc: not installed (apt-get install vlc-bin vlc-plugin-base)")
        for name, check in checks.items():
            if problem := check():
                failed.append(name)
                print(f"  {name}: FAILED: {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
