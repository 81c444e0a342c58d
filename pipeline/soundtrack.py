"""A segment's sound track: its narrated lines placed where the scene said them, as AAC.

The scene writes ``<video>.lines.json`` (each line's start and clip, see
``LectureScene.tear_down``); :func:`add_narration` mixes the clips into one track exactly as
long as the video and writes the MP4 again with it (the video packets are copied, not
re-encoded). :func:`decode_track` reads a segment's track back for the lecture, which joins
the tracks sample-exactly at the chapters' frame boundaries, so they never drift. Both keep
AAC's overshoot under full scale the same way (:func:`under_peak`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import av
import numpy as np

from common.files import LinesFile, NarratedLine
from common.video import seconds as video_seconds
from voice.audio import SAMPLE_RATE, decode_stream, encode_samples
from voice.clips import cached, normalise, read_wav

AAC_BITRATE = 128_000
SAFE_PEAK = 0.97  # the loudest decoded sample a file may have
FRAME_SAMPLES = 1024  # one AAC frame


FADE = 0.005  # seconds faded in and out at each clip's ends: no click, no AAC overshoot


def mix(lines: list[NarratedLine], seconds: float) -> np.ndarray:
    """Every line's clip at its start, in a silent track of ``seconds``."""
    track = np.zeros(round(seconds * SAMPLE_RATE), np.float32)
    for line in lines:
        clip = read_wav(Path(line.clip))
        ramp = np.linspace(0.0, 1.0, min(len(clip) // 2, round(FADE * SAMPLE_RATE)), np.float32)
        if len(ramp):
            clip[: len(ramp)] *= ramp
            clip[-len(ramp) :] *= ramp[::-1]
        at = round(line.start * SAMPLE_RATE)
        part = clip[: max(0, len(track) - at)]
        track[at : at + len(part)] += part
    return track


def under_peak(encode: Callable[[float], float], target: Path) -> None:
    """Encode ``target`` with ``encode(gain)`` (the sound times ``gain``; it returns the
    file's length in seconds), turned down and encoded again while its decoded sound passes
    :data:`SAFE_PEAK` (AAC can overshoot a sharp consonant by a few dB), at most 3 times."""
    gain = 1.0
    for _ in range(3):
        seconds = encode(gain)
        peak = float(np.max(np.abs(decode_track(target, seconds))))
        if peak <= SAFE_PEAK:
            return
        gain *= SAFE_PEAK * 0.98 / peak


def write_with_audio(video: Path, track: np.ndarray, target: Path, seconds: float) -> None:
    """``video``'s picture (copied) with ``track`` as an AAC stream, into ``target``, under
    :data:`SAFE_PEAK` (:func:`under_peak`). ``seconds``: the video's length
    (:func:`common.video.seconds`)."""

    def encode(gain: float) -> float:
        _write(video, track * np.float32(gain), target)
        return seconds

    under_peak(encode, target)


def _write(video: Path, track: np.ndarray, target: Path) -> None:
    options = {"movflags": "+faststart"}
    with (
        av.open(str(video)) as source,
        av.open(str(target), "w", format="mp4", container_options=options) as output,
    ):
        picture = output.add_stream_from_template(source.streams.video[0])
        sound = output.add_stream("aac", rate=SAMPLE_RATE, layout="mono")
        sound.bit_rate = AAC_BITRATE
        for packet in source.demux(source.streams.video[0]):
            if packet.dts is None:
                continue
            packet.stream = picture
            output.mux(packet)
        encode_samples(track, sound, output, FRAME_SAMPLES)


def voiced_lines(video: Path) -> list[NarratedLine]:
    """The lines of a segment that have a clip (from ``<video>.lines.json``)."""
    sidecar = LinesFile.beside(video)
    if not sidecar.is_file():
        return []
    return [line for line in LinesFile.read(sidecar).lines if line.clip is not None]


def narration_track(video: Path, seconds: float) -> np.ndarray | None:
    """A segment's narration mixed from its clips and normalised, ``seconds`` long; None
    when it has no voice or a clip is gone or damaged (then its encoded track is what
    there is: a cache cut short costs the lecture nothing, and its scene's next render
    makes the clip again)."""
    lines = voiced_lines(video)
    if not lines or not all(cached(Path(line.clip)) for line in lines):
        return None
    return normalise(mix(lines, seconds))


def add_narration(video: Path) -> Path:
    """The video with its narration track, as a new file beside it; ``video`` itself when
    the scene said nothing with a voice."""
    with av.open(str(video)) as container:
        length = video_seconds(container)
    track = narration_track(video, length)
    if track is None:
        return video
    target = video.with_name(f"{video.stem}.voiced.mp4")
    write_with_audio(video, track, target, length)
    return target


def segment_track(video: Path, seconds: float) -> np.ndarray:
    """A segment's sound for the lecture, exactly ``seconds`` long: mixed again from its clips
    (so that the lecture's AAC is encoded from the clips once, not from a decoded AAC), else
    decoded from the segment."""
    track = narration_track(video, seconds)
    encoded = decode_track(video, seconds)
    if track is None:
        return encoded
    # The segment may have been turned down to keep AAC's overshoot under full scale.
    level = float(np.sqrt(np.mean(track**2))) or 1.0
    return track * np.float32(min(1.0, float(np.sqrt(np.mean(encoded**2))) / level))


def decode_track(path: Path, seconds: float) -> np.ndarray:
    """A segment's sound as float samples, exactly ``seconds`` long (silence if it has none)."""
    samples = np.zeros(round(seconds * SAMPLE_RATE), np.float32)
    decoded = decode_stream(path)
    if decoded is not None:
        samples[: min(len(samples), len(decoded))] = decoded[: len(samples)]
    return samples
