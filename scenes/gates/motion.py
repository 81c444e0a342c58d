"""How much of a video plays over a still picture: per subtitle cue, and in long stills.

A frame *changes* when any pixel of its grey image, shrunk to :data:`GRID` pixels wide,
moves by more than :data:`LEVELS` grey levels from the frame before. A cue is *still* when
no frame changes while it is on screen; a *long still* is a picture that lasts longer than
:data:`LONG_STILL` seconds, from the frame it appears on to the next change. The lecture's
targets (issue 29): at most 10% of cues still, at most 15% of the time in long stills.
Subtitles are a soft track, so they never count as motion. Imports no Manim.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
import srt

from common.video import frame_rate, held_frames

GRID = 160  # the grey image's width, in pixels, before frames are compared
LEVELS = 2  # a pixel that moves by more than this many grey levels (of 255) changes
LONG_STILL = 3.0  # seconds


@dataclass(frozen=True)
class Motion:
    """A video's stills: how many cues are still, and the time in long stills."""

    name: str
    seconds: float
    cues: int
    still_cues: tuple[int, ...]  # the cues (from 0) over a picture that never changes
    long_still_seconds: float

    @property
    def still_share(self) -> float:
        return len(self.still_cues) / self.cues if self.cues else 0.0

    @property
    def long_still_share(self) -> float:
        return self.long_still_seconds / self.seconds if self.seconds else 0.0


def changes(video: Path) -> tuple[np.ndarray, float]:
    """For each frame, whether it differs from the one before; and the frame rate."""
    moved: list[bool] = []
    previous = None
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        fps = float(frame_rate(container))
        height = max(1, round(GRID * stream.codec_context.height / stream.codec_context.width))
        for frame, count in held_frames(container):  # a held picture: no change after its first
            grey = frame.reformat(width=GRID, height=height, format="gray").to_ndarray()
            grey = grey.astype(np.int16)
            moved.append(previous is None or bool(np.max(np.abs(grey - previous)) > LEVELS))
            moved += [False] * (count - 1)
            previous = grey
    return np.array(moved, dtype=bool), fps


def measure(video: Path, subtitles: Path | None = None) -> Motion:
    """The stills of ``video``, its cues read from ``subtitles`` (default: the .srt beside)."""
    moved, fps = changes(video)
    subtitles = subtitles or video.with_suffix(".srt")
    cues = list(srt.parse(subtitles.read_text(encoding="utf-8"))) if subtitles.is_file() else []
    still = []
    for k, cue in enumerate(cues):
        first = int(cue.start.total_seconds() * fps) + 1  # the frames after its first
        last = max(first, int(cue.end.total_seconds() * fps))
        if not moved[first:last].any():
            still.append(k)
    # A picture lasts from the frame it appears on to the next change (or the end).
    lasting = np.diff([*np.flatnonzero(moved), len(moved)])
    long_frames = int(lasting[lasting / fps > LONG_STILL].sum())
    return Motion(video.stem, len(moved) / fps, len(cues), tuple(still), long_frames / fps)
