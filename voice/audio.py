"""Sound in and out of files, with PyAV: every decoding and every encoding of the project's
audio is here. A file's sound is read as mono float samples at :data:`SAMPLE_RATE`
(:func:`decode_stream`; a recording, checked: :func:`decode`), and float samples are
encoded into a stream frame by frame (:func:`encode_samples`).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import chain
from pathlib import Path
from typing import BinaryIO

import av
import numpy as np

from voice.engine import VoiceError

SAMPLE_RATE = 48_000
FORMATS = (".wav", ".flac", ".mp3")  # what a recording may be


class TooLongError(VoiceError):
    """A stream longer than it may be, known from its header (before any decoding) or from
    decoding it up to the bound."""

    def __init__(self, limit: float, declared: float | None = None) -> None:
        how = f"lasts {declared:.0f} s by its header" if declared else "lasts longer"
        super().__init__(
            f"{how}, more than a line may ({limit:.0f} s): split it, or cut the silence"
        )


def decode_stream(
    source: Path | str | BinaryIO, max_seconds: float | None = None, format: str | None = None
) -> np.ndarray | None:
    """The first audio stream of ``source`` (a path, or bytes in memory) as mono float32
    samples at :data:`SAMPLE_RATE` (None: it holds no audio); ``format``: its demuxer, not
    guessed. With ``max_seconds``, a longer stream is :class:`TooLongError`: refused from the
    length its container's header states, before anything is decoded, else as decoding
    passes the bound, so a small file that decodes to hours (silence compresses well) never
    fills the memory. PyAV's errors propagate."""
    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    limit = None if max_seconds is None else round(max_seconds * SAMPLE_RATE)
    held = 0
    with av.open(str(source) if isinstance(source, Path) else source, format=format) as container:
        if not container.streams.audio:
            return None
        stream = container.streams.audio[0]
        if max_seconds is not None:
            declared = _declared_seconds(container, stream)
            if declared > max_seconds:
                raise TooLongError(max_seconds, declared)
        for frame in chain(container.decode(stream), [None]):  # None: the resampler's rest
            for piece in resampler.resample(frame):
                chunks.append(piece.to_ndarray()[0])
                held += len(chunks[-1])
            if limit is not None and held > limit:
                raise TooLongError(max_seconds)
    return np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)


def _declared_seconds(container: av.container.InputContainer, stream: av.AudioStream) -> float:
    """How long the header says the stream lasts (0: it does not say): FLAC's STREAMINFO,
    WAV's data size, MP3's Xing frame or bitrate, a WebM's or MP4's duration."""
    stated = [container.duration / av.time_base if container.duration else 0.0]
    if stream.duration and stream.time_base:
        stated.append(float(stream.duration * stream.time_base))
    return max(stated)


def decode(path: Path, max_seconds: float | None = None) -> np.ndarray:
    """A recording as mono float samples at :data:`SAMPLE_RATE` (WAV, FLAC or MP3); one that
    cannot be read, or lasts more than ``max_seconds``, is a :class:`VoiceError` naming it."""
    if path.suffix.lower() not in FORMATS:
        raise VoiceError(f"{path}: unsupported format (use {', '.join(FORMATS)})")
    try:
        samples = decode_stream(path, max_seconds)
    except (av.error.FFmpegError, UnicodeDecodeError) as err:
        raise VoiceError(f"{path}: cannot be read as audio ({err})") from None
    except TooLongError as err:
        raise VoiceError(f"{path}: {err}") from None
    if samples is None:
        raise VoiceError(f"{path}: holds no audio")
    return samples


def encode_samples(
    samples: np.ndarray,
    stream: av.audio.stream.AudioStream,
    output: av.container.OutputContainer,
    frame_samples: int,
) -> None:
    """Encode mono float ``samples`` into ``stream`` of ``output``, ``frame_samples`` at a
    time (AAC takes 1024, MP3 1152), and flush it."""
    for at in range(0, len(samples), frame_samples):
        chunk = samples[at : at + frame_samples]
        frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="fltp", layout="mono")
        frame.sample_rate = SAMPLE_RATE
        frame.pts = at
        frame.time_base = stream.time_base or Fraction(1, SAMPLE_RATE)  # MP3's is set later
        for packet in stream.encode(frame):
            output.mux(packet)
    for packet in stream.encode(None):
        output.mux(packet)
