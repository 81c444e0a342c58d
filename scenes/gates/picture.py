"""What a viewer sees frame by frame (issue 44's measures): still frames, long stills and
frames with next to nothing in the picture. Imports no Manim.

Each frame is shrunk :data:`SHRINK` times in grey. A frame is *still* when its mean absolute
difference from the frame before is at most :data:`STILL_LEVEL` of 255 (a faint, slow fade
counts as still); a *long still* is a run of still frames lasting :data:`LONG_STILL` seconds
or more. A frame is *near-empty* when, between the title band and the subtitle band
(:data:`BAND` of the height), under :data:`EMPTY_SHARE` of its pixels differ from the
background by more than :data:`EMPTY_LEVEL`; a chapter's first :data:`OPENING` seconds
are not counted. :mod:`scenes.gates.motion` is the cue-by-cue measure the gates hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from common.video import frame_rate, held_frames

SHRINK = 8
STILL_LEVEL = 0.02  # grey levels of 255, mean over the frame
LONG_STILL = 3.0  # seconds
BAND = (0.15, 0.84)  # of the height: below the title, above the subtitles
EMPTY_LEVEL = 25  # grey levels from the background
EMPTY_SHARE = 0.004
OPENING = 0.5  # seconds at a chapter's start not counted as near-empty


@dataclass(frozen=True)
class Picture:
    """One video's frames: how many are still, its long stills, its near-empty time."""

    name: str
    fps: float
    frames: int
    still_frames: int
    long_stills: tuple[float, ...]  # seconds, each a run of still frames of LONG_STILL or more
    near_empty_frames: int
    long_still_starts: tuple[float, ...] = ()  # when each long still begins (seconds)

    @property
    def seconds(self) -> float:
        return self.frames / self.fps

    @property
    def still_share(self) -> float:
        return self.still_frames / self.frames if self.frames else 0.0

    @property
    def long_still_seconds(self) -> float:
        return sum(self.long_stills)

    @property
    def longest_still(self) -> float:
        return max(self.long_stills, default=0.0)

    @property
    def near_empty_seconds(self) -> float:
        return self.near_empty_frames / self.fps


def _grey(background: str) -> float:
    """The grey level (0 to 255, BT.601 luma as FFmpeg's gray) of a hex colour."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def measure(video: Path, background: str) -> Picture:
    """The frames of ``video``, drawn on ``background`` (a hex colour: the theme's)."""
    level = _grey(background)
    still = empty = frames = 0
    runs: list[int] = []
    begins: list[int] = []  # the frame each run begins on
    run = 0
    previous = None
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        fps = float(frame_rate(container))
        width = max(1, stream.codec_context.width // SHRINK)
        height = max(1, stream.codec_context.height // SHRINK)
        top, bottom = (round(height * edge) for edge in BAND)
        for frame, count in held_frames(container):  # a held picture: the same grey each frame
            grey = frame.reformat(width=width, height=height, format="gray").to_ndarray()
            grey = grey.astype(np.float32)
            bare = bool((np.abs(grey[top:bottom] - level) > EMPTY_LEVEL).mean() < EMPTY_SHARE)
            for k in range(count):
                if frames >= OPENING * fps:
                    empty += bare
                if k or (
                    previous is not None and float(np.abs(grey - previous).mean()) <= STILL_LEVEL
                ):
                    still += 1
                    run += 1
                else:
                    runs.append(run)
                    begins.append(frames - run)
                    run = 1  # a still run counts the frame it began on
                frames += 1
            previous = grey
    runs.append(run)
    begins.append(frames - run)
    long = [(b, n) for b, n in zip(begins, runs, strict=True) if n / fps >= LONG_STILL]
    long_stills = tuple(n / fps for _, n in long)
    starts = tuple(b / fps for b, _ in long)
    return Picture(video.stem, fps, frames, still, long_stills, empty, starts)
