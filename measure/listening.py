"""A lecture's lines said by its voice and heard by the recogniser; terms' pitch at joins.

:func:`listen` says each line as a render says it (cut into cues, each cue said on its own
and joined, :func:`voice.clips.speak_line`, clips cached by content), transcribes the line
(:func:`measure.recogniser.transcribe`, transcripts cached by clip) and scores it
(:func:`measure.scoring.score`). :func:`joins` measures, where a Mandarin cue's English
terms are said by another voice, the median pitch of each term against that of the cue's
Chinese (parselmouth's autocorrelation pitch tracker) and the step in level across each
join (each piece's level, :func:`level`, against its neighbour's, in dB).
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.atomic import write_text_atomic
from measure.recogniser import transcribe
from measure.scoring import Score, score
from voice.audio import SAMPLE_RATE
from voice.clips import read_wav, speak_line
from voice.engine import Speaker


@dataclass(frozen=True)
class Heard:
    """One line: its score and the length of each of its cues as said."""

    score: Score
    cue_seconds: tuple[float, ...]


def listen(
    lines: Sequence[Sequence[str]],
    speaker: Speaker,
    lang: str,
    cache: Path,
    progress: Callable[[int, Heard], None] | None = None,
    texts: Sequence[str] | None = None,
) -> list[Heard]:
    """Each line (its cues, already as a voice says them) said by ``speaker`` and heard;
    scored against ``texts`` (each line as written, before ``[pronounce]`` re-spells a word
    as a homophone the voice reads right) when given, else against the cues."""
    transcripts = cache / f"heard-{lang}.json"
    known = json.loads(transcripts.read_text(encoding="utf-8")) if transcripts.exists() else {}
    out = []
    for k, cues in enumerate(lines):
        said = speak_line(cues, speaker, cache)
        if said.clip.name not in known:
            known[said.clip.name] = transcribe(read_wav(said.clip), SAMPLE_RATE, lang)
            write_text_atomic(transcripts, json.dumps(known, ensure_ascii=False))
        text = texts[k] if texts is not None else " ".join(cues)
        heard = Heard(score(text, known[said.clip.name], lang), said.cue_seconds)
        out.append(heard)
        if progress:
            progress(k, heard)
    return out


def median_pitch(samples: np.ndarray) -> float | None:
    """The median pitch (Hz) of the voiced frames, None with fewer than five."""
    import parselmouth

    sound = parselmouth.Sound(samples.astype(np.float64), SAMPLE_RATE)
    f0 = sound.to_pitch(pitch_floor=75, pitch_ceiling=600).selected_array["frequency"]
    f0 = f0[f0 > 0]
    return float(np.median(f0)) if len(f0) >= 5 else None


def level(samples: np.ndarray) -> float:
    """A piece's level in dB: the RMS of its 20 ms frames within 30 dB of its loudest (so
    the quiet at its ends and between syllables does not count)."""
    hop = round(0.02 * SAMPLE_RATE)
    frames = samples[: len(samples) // hop * hop].reshape(-1, hop)
    rms = np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1)) + 1e-12
    loud = rms[rms >= rms.max() * 10 ** (-30 / 20)]
    return 20 * float(np.log10(np.sqrt(np.mean(loud**2))))


@dataclass(frozen=True)
class Joins:
    """Terms said by another voice: each term's pitch over its cue's Chinese pitch, and
    the level step (dB) at each join of a term with the Chinese beside it."""

    pitch_ratios: tuple[float, ...]
    level_steps: tuple[float, ...]

    def summary(self) -> dict[str, float]:
        r, s = self.pitch_ratios, [abs(x) for x in self.level_steps]
        return {
            "terms": len(r),
            "pitch_median": statistics.median(r) if r else float("nan"),
            "within_15": sum(abs(x - 1) <= 0.15 for x in r) / len(r) if r else float("nan"),
            "level_step_median_db": statistics.median(s) if s else float("nan"),
        }


def joins(cues: Sequence[str], parts: Callable[[str], list[tuple[str, np.ndarray]]]) -> Joins:
    """:class:`Joins` over ``cues``, each said in pieces by ``parts``
    (:meth:`voice.engines.kokoro.KokoroVoice.parts`)."""
    ratios, steps = [], []
    for cue in cues:
        pieces = [(kind, s) for kind, s in parts(cue) if kind != "gap" and len(s)]
        han = [s for kind, s in pieces if kind == "han"]
        base = median_pitch(np.concatenate(han)) if han else None
        for (a, x), (b, y) in itertools.pairwise(pieces):
            if "term" in (a, b) and a != b:
                steps.append(level(y) - level(x))
        for kind, s in pieces:
            if kind == "term" and base and (f0 := median_pitch(s)):
                ratios.append(f0 / base)
    return Joins(tuple(ratios), tuple(steps))
