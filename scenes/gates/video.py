"""Gates on the file a viewer gets: codec, pixel format, size, frame rate, determinism.

Both read the MP4 with PyAV (which Manim already installs) and decode every frame.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import av

from common.video import frame_rate, held_frames


@dataclass(frozen=True)
class VideoFacts:
    """What a decoder finds in a video file."""

    codec: str
    pix_fmt: str
    width: int
    height: int
    fps: float
    frames: int
    frame_hashes: tuple[str, ...]

    @property
    def duration(self) -> float:
        return self.frames / self.fps


def read_video(path: str | Path, hashes: bool = True) -> VideoFacts:
    """Decode every frame of the first video stream (errors propagate from PyAV).

    With ``hashes``, each decoded picture is also hashed (to compare renders); without,
    frames are only decoded and counted, which is several times faster.
    """
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        digests: list[str] = []
        for frame, count in held_frames(container):  # at the constant rate: holds repeated
            digest = hashlib.sha256(frame.to_ndarray(format="rgb24").tobytes()) if hashes else None
            digests += [digest.hexdigest() if digest else ""] * count
        return VideoFacts(
            codec=stream.codec_context.name,
            pix_fmt=stream.codec_context.pix_fmt or "",
            width=stream.width,
            height=stream.height,
            fps=float(frame_rate(container)),
            frames=len(digests),
            frame_hashes=tuple(digests),
        )


def check_video(path: str | Path, width: int, height: int, fps: float) -> list[str]:
    """Problems that would stop the file playing everywhere, one line each."""
    try:
        facts = read_video(path, hashes=False)
    except (av.FFmpegError, OSError, IndexError) as err:
        return [f"{path}: cannot be decoded ({err})"]
    problems = []
    if facts.codec != "h264":
        problems.append(f"{path}: codec {facts.codec}, expected h264")
    if facts.pix_fmt != "yuv420p":
        problems.append(f"{path}: pixel format {facts.pix_fmt}, expected yuv420p")
    if (facts.width, facts.height) != (width, height):
        problems.append(f"{path}: size {facts.width}x{facts.height}, expected {width}x{height}")
    if abs(facts.fps - fps) > 0.01:
        problems.append(f"{path}: {facts.fps:.3f} frames/s, expected {fps:g}")
    if facts.frames == 0:
        problems.append(f"{path}: no frames")
    return problems


def compare_videos(a: str | Path, b: str | Path) -> list[str]:
    """Where two renders differ, decoded frame by decoded frame."""
    fa, fb = read_video(a), read_video(b)
    if fa.frames != fb.frames:
        return [f"{a} has {fa.frames} frames, {b} has {fb.frames}"]
    return [
        f"frame {i} differs between {a} and {b}"
        for i, (x, y) in enumerate(zip(fa.frame_hashes, fb.frame_hashes, strict=True))
        if x != y
    ]
