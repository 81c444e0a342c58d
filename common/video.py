"""Reading the lecture's videos, whose held pictures are stored once.

A segment stores a picture that stays on screen (a hold while a line is read) as ONE frame
lasting the whole hold, as MP4 allows (each sample has its own duration), instead of the
same frame again and again: x264 then spends nothing on the hold
(:mod:`scenes.patches.fastframes`). Every timestamp is still a whole number of frames at the
stream's frame rate (``base_rate``, 30 at 1080p30), so the video can be read at that constant
rate again: :func:`held_frames` gives each decoded picture with the frames it lasts, and
:func:`constant_rate` each frame as a constant-rate file would have it. Everything that
counts or compares frames (the gates, the benchmark, the tests) reads through these.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import av


def frame_ticks(stream: av.video.stream.VideoStream) -> int:
    """One frame's length in the stream's time base."""
    return round(1 / (stream.base_rate * stream.time_base))


def length_ticks(container: av.container.InputContainer) -> int:
    """The first video stream's length in its time base: the sum of its samples' durations
    (read from the packets, not the container's rounded duration; the file is rewound)."""
    stream = container.streams.video[0]
    ticks = sum(p.duration or 0 for p in container.demux(stream) if p.dts is not None)
    container.seek(0)
    return ticks


def seconds(container: av.container.InputContainer) -> float:
    """The first video stream's length in seconds (:func:`length_ticks`)."""
    return float(length_ticks(container) * container.streams.video[0].time_base)


def held_frames(
    container: av.container.InputContainer,
) -> Iterator[tuple[av.VideoFrame, int]]:
    """Each decoded picture of the first video stream, in order, with how many frames (at
    its frame rate) it lasts: until the next picture, the last one to the stream's end."""
    stream = container.streams.video[0]
    step = frame_ticks(stream)
    end = None if stream.duration is None else (stream.start_time or 0) + stream.duration
    previous = None
    for frame in container.decode(stream):
        if previous is not None:
            yield previous, max(1, round((frame.pts - previous.pts) / step))
        previous = frame
    if previous is not None:
        last = 1 if end is None else max(1, round((end - previous.pts) / step))
        yield previous, last


def constant_rate(container: av.container.InputContainer) -> Iterator[av.VideoFrame]:
    """Every frame of the first video stream at its constant frame rate: a held picture
    given once per frame it lasts (the same frame object each time)."""
    for frame, count in held_frames(container):
        for _ in range(count):
            yield frame


def frame_rate(container: av.container.InputContainer) -> Fraction:
    """The frames per second every timestamp of the first video stream is a multiple of."""
    return Fraction(container.streams.video[0].base_rate)
