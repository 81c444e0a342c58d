"""A narrated line's clip: said cue by cue by a voice engine (:mod:`voice.engines`), or an
instructor's recording; cached, trimmed, joined and normalised.

Each narrated line (one ``LectureScene.say``) gets one audio clip, mono at
:data:`SAMPLE_RATE`, normalised to :data:`TARGET_LUFS` (ITU-R BS.1770, with pyloudnorm) and
kept below :data:`PEAK`, so that lines and chapters sound equally loud. A synthesised line
is said cue by cue (:func:`speak_line`): each subtitle cue on its own, the quiet at its ends
trimmed, joined with the pause its punctuation calls for (:data:`PAUSES`), so each cue's
start in the clip is known exactly. Clips are cached by content: a cue by the hash of its
words and of everything its sound depends on (:meth:`voice.engine.Speaker.identity`: voice,
speed, model); a recording by the hash of its file. A re-render synthesises and normalises
nothing twice.

render.py passes the settings to its workers as the settings' ``voice``
(:class:`common.settings.VoiceSettings`). A recording is
``<narration>/<scene>/<nn>-<key>.<wav|flac|mp3>``:
the scene's table, the line's number in the scene (from 01) and its locale key;
``render.py --narration-script`` lists them all.
"""

from __future__ import annotations

import shutil
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.atomic import atomic_path
from common.files import inside
from voice.audio import FORMATS, SAMPLE_RATE, decode
from voice.engine import Speaker, VoiceError, digest

TARGET_LUFS = -16.0  # integrated loudness of every line, hence of every chapter
PEAK = 10 ** (-3 / 20)  # no sample above -3 dBFS (AAC overshoots a little: still below 0)
SILENT_PEAK = 10 ** (-50 / 20)  # a recording whose loudest sample is below -50 dBFS is silent
MAX_LINE_SECONDS = 45.0  # a longer recording is not one narrated line
LINE_PAUSE = 0.35  # seconds of quiet after each line


def recording_name(scene: str, index: int, key: str) -> str:
    """A line's recording, without its extension: ``qkv/03-apple_row``."""
    return f"{scene}/{index:02d}-{key}"


def find_recording(folder: Path, name: str) -> Path | None:
    """The recording ``name`` (see :func:`recording_name`) in ``folder``, in any supported
    format, if there is one."""
    found = [p for ext in FORMATS if (p := inside(folder, f"{name}{ext}")).is_file()]
    return found[0] if found else None


def check_recording(path: Path | str, samples: np.ndarray, line: str) -> None:
    """An empty, silent or over-long recording is named (its file, or what it is: a take
    not yet saved) with its line."""
    seconds = len(samples) / SAMPLE_RATE
    where = f"{path} (line: {line[:50]!r})"
    if seconds < 0.1:
        raise VoiceError(f"{where}: is empty")
    if float(np.max(np.abs(samples))) < SILENT_PEAK:
        raise VoiceError(f"{where}: is silent")
    if seconds > MAX_LINE_SECONDS:
        raise VoiceError(
            f"{where}: lasts {seconds:.0f} s, more than a line may ({MAX_LINE_SECONDS:.0f} s): "
            "split it, or cut the silence"
        )


def loudness(samples: np.ndarray) -> float:
    """Integrated loudness in LUFS (ITU-R BS.1770, gated: silence does not count)."""
    import pyloudnorm  # scipy behind it: imported by the processes that need it only

    padded = samples
    if len(samples) < SAMPLE_RATE:  # the meter needs whole 400 ms blocks; silence is gated out
        padded = np.concatenate([samples, np.zeros(SAMPLE_RATE - len(samples), np.float32)])
    return float(pyloudnorm.Meter(SAMPLE_RATE).integrated_loudness(padded.astype(np.float64)))


def limit(samples: np.ndarray) -> np.ndarray:
    """Peaks brought under :data:`PEAK` by a gain that dips around them (5 ms ahead, 50 ms
    to recover) instead of clipping them."""
    from scipy.ndimage import maximum_filter1d, minimum_filter1d, uniform_filter1d

    ahead, recover = int(0.005 * SAMPLE_RATE), int(0.05 * SAMPLE_RATE)
    envelope = maximum_filter1d(np.abs(samples), size=2 * ahead + 1)
    gain = np.minimum(1.0, PEAK / np.maximum(envelope, 1e-9))
    gain = uniform_filter1d(minimum_filter1d(gain, size=recover), size=recover)
    return np.clip(samples * gain, -PEAK, PEAK).astype(np.float32)


def normalise(samples: np.ndarray) -> np.ndarray:
    """``samples`` at :data:`TARGET_LUFS` integrated, no sample above :data:`PEAK`."""
    out = samples.astype(np.float32)
    for _ in range(6):  # limiting lowers the loudness a little: measure again
        level = loudness(out)
        if not np.isfinite(level) or abs(level - TARGET_LUFS) < 0.2:
            break
        out = limit(out * np.float32(10 ** ((TARGET_LUFS - level) / 20)))
    return out


def write_wav(path: Path, samples: np.ndarray) -> None:
    """16-bit mono WAV at :data:`SAMPLE_RATE`, written atomically."""
    pcm = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    with atomic_path(path) as tmp, wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(pcm.tobytes())


def read_wav(path: Path) -> np.ndarray:
    """A clip this module wrote, as float samples."""
    with wave.open(str(path), "rb") as clip:
        pcm = np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2")
    return pcm.astype(np.float32) / 32767


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as clip:
        return clip.getnframes() / clip.getframerate()


def cached(clip: Path) -> bool:
    """Whether ``clip`` is a whole clip of the cache (a damaged or cut one is made again)."""
    if not clip.is_file():
        return False
    try:
        with wave.open(str(clip), "rb") as wav:
            expected = wav.getnframes() * wav.getsampwidth() * wav.getnchannels()
            whole = wav.getframerate() == SAMPLE_RATE and len(wav.readframes(wav.getnframes()))
            return bool(expected) and whole == expected
    except (OSError, EOFError, wave.Error):
        return False


def open_cache(cache: Path) -> Path:
    """The voice cache folder, made if it is not there. What stands in its place and is no
    folder (a file, a pipe, a dead link) is damage to the cache, which is the run's own
    (deleting any of it is safe): it is removed, and the folder made again."""
    if not cache.is_dir() and (cache.is_symlink() or cache.exists()):
        cache.unlink()
    cache.mkdir(parents=True, exist_ok=True)
    return cache


def make_room(clip: Path) -> Path:
    """``clip``'s place in the cache, cleared of a folder standing there (a file, a pipe
    or a link is renamed over; a folder would stop the clip being written for ever)."""
    if clip.is_dir() and not clip.is_symlink():
        shutil.rmtree(clip)
    return clip


# cut inside a clause, where a speaker would hardly stop).
PAUSES = {"。": 0.45, ".": 0.45, "！": 0.45, "!": 0.45, "？": 0.45, "?": 0.45, "：": 0.3,
          ":": 0.3, "；": 0.3, ";": 0.3, "，": 0.2, ",": 0.2, "、": 0.15, "…": 0.3}  # fmt: skip
NO_MARK_PAUSE = 0.08
CLOSERS = "」』）)\"'”’"  # a closing quote or bracket after the mark does not hide it
TRIM_BELOW = 10 ** (-40 / 20)  # relative to a clip's peak: quiet at its ends is cut...
TRIM_MARGIN = (0.03, 0.08)  # ...keeping this much before the first sound and after the last


def pause_after(cue: str) -> float:
    """Seconds of quiet after a cue, as its punctuation calls for."""
    end = cue.rstrip().rstrip(CLOSERS)
    return PAUSES.get(end[-1:], NO_MARK_PAUSE)


def trim(samples: np.ndarray) -> np.ndarray:
    """``samples`` without the quiet a synthesiser leaves at their ends."""
    if not len(samples):
        return samples
    loud = np.flatnonzero(np.abs(samples) > TRIM_BELOW * max(float(np.max(np.abs(samples))), 1e-9))
    if not len(loud):
        return samples[:0]
    first = max(0, loud[0] - round(TRIM_MARGIN[0] * SAMPLE_RATE))
    return samples[first : loud[-1] + round(TRIM_MARGIN[1] * SAMPLE_RATE)]


@dataclass(frozen=True)
class SpokenLine:
    """A synthesised line: its clip, each cue's time in it (its pause included), and the
    cues' own clips it was joined from (all in the cache)."""

    clip: Path
    cue_seconds: tuple[float, ...]
    parts: tuple[Path, ...]


def speak_line(cues: Sequence[str], speaker: Speaker, cache: Path) -> SpokenLine:
    """The line of ``cues`` (each already in words, :mod:`voice.speech`), every cue said on
    its own and joined with the pause its punctuation calls for, normalised as one line.
    Cues and lines said before come from the cache."""
    open_cache(cache)
    identity = speaker.identity()
    clips = []
    for cue in cues:
        clip = cache / f"{speaker.kind}-cue-{digest(cue, *identity)}.wav"
        if not cached(clip):
            write_wav(make_room(clip), trim(speaker.samples(cue)))
        clips.append(clip)
    pauses = [pause_after(cue) for cue in cues[:-1]] + [0.0]
    seconds = tuple(wav_seconds(c) + p for c, p in zip(clips, pauses, strict=True))
    line = cache / f"{speaker.kind}-line-{digest(*(c.name for c in clips), *map(str, pauses))}.wav"
    if not cached(line):
        parts = []
        for clip, pause in zip(clips, pauses, strict=True):
            parts += [read_wav(clip), np.zeros(round(pause * SAMPLE_RATE), np.float32)]
        joined = np.concatenate(parts)
        if not len(joined) or float(np.max(np.abs(joined))) < SILENT_PEAK:
            raise VoiceError(f"{speaker.kind}: said nothing for {' '.join(cues)[:50]!r}")
        write_wav(make_room(line), normalise(joined))
    return SpokenLine(line, seconds, tuple(clips))


def recorded(path: Path, line: str, cache: Path) -> Path:
    """A recording, checked and normalised, from the cache when this file was used before."""
    clip = cache / f"take-{digest(path.read_bytes())}.wav"
    if cached(clip):
        return clip
    samples = decode(path, MAX_LINE_SECONDS)
    check_recording(path, samples, line)
    write_wav(make_room(open_cache(cache) / clip.name), normalise(samples))
    return clip
