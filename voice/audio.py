"""Sound in and out of files, with PyAV: every decoding and every encoding of the project's
audio is here. A file's sound is read as mono float samples at :data:`SAMPLE_RATE`
(:func:`decode_stream`; a recording, checked: :func:`decode`), and float samples are
encoded into a stream frame by frame (:func:`encode_samples`).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from voice.engine import VoiceError

SAMPLE_RATE = 48_000
FORMATS = (".wav", ".flac", ".mp3")  # what a recording may be


def decode_stream(path: Path | str) -> np.ndarray | None:
    """The first audio stream of ``path`` as mono float32 samples at :data:`SAMPLE_RATE`
    (None: the file holds no audio). PyAV's errors propagate."""
    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
        for frame in container.decode(audio=0):
            chunks.extend(f.to_ndarray()[0] for f in resampler.resample(frame))
        chunks.extend(f.to_ndarray()[0] for f in resampler.resample(None))
    return np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)


def decode(path: Path) -> np.ndarray:
    """A recording as mono float samples at :data:`SAMPLE_RATE` (WAV, FLAC or MP3); one that
    cannot be read is a :class:`VoiceError` naming it."""
    if path.suffix.lower() not in FORMATS:
        raise VoiceError(f"{path}: unsupported format (use {', '.join(FORMATS)})")
    try:
        samples = decode_stream(path)
    except (av.error.FFmpegError, UnicodeDecodeError) as err:
        raise VoiceError(f"{path}: cannot be read as audio ({err})") from None
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
