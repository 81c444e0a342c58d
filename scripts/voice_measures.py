"""Measure the voices side by side, and write the samples a person listens to.

    .venv/bin/python scripts/voice_measures.py            # docs/voice.md, docs/voice-samples/

For each language, the narration's ``intro`` lines of eight chapters are said as a render
says them (cut into cues, numbers and symbols in words, each cue on its own) by Kokoro and
by espeak-ng, into an empty cache: cold, then again from the cache. Measured on the clips:
the speaking rate (Mandarin: syllables a second, one a Han character and one a vowel group
of a Latin word; English: words a minute, the pauses included), the pauses at the cues'
commas and full stops, loudness, peak, and CPU seconds per second of speech. The opening
line of each language is written as MP3 (64 kb/s) under docs/voice-samples/.
"""

from __future__ import annotations

import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.atomic import write_text_atomic  # noqa: E402
from common.defaults import default  # noqa: E402
from scenes.kit.planner import spoken_cues  # noqa: E402
from scenes.kit.subtitles import split_cues  # noqa: E402
from syllabus.locale import language, locale_table  # noqa: E402
from voice.audio import SAMPLE_RATE, encode_samples  # noqa: E402
from voice.clips import PAUSES, loudness, pause_after, read_wav, speak_line  # noqa: E402
from voice.engine import Speaker  # noqa: E402
from voice.engines.espeak import Espeak  # noqa: E402
from voice.engines.kokoro import KokoroVoice  # noqa: E402

TABLES = ("opening", "office", "qkv", "scoring", "softmax", "weighted_sum", "colour_task", "why")
# The built-in lecture file's voice and speed for each language.
KOKORO = {lang: (v["name"], v["speed"]) for lang, v in default("voices").items()}
QUIET = 10 ** (-40 / 20)  # a 20 ms window this far below the line's peak is a pause


def lines(lang: str) -> list[str]:
    """The ``intro`` lines of :data:`TABLES` that have no field to fill."""
    table = locale_table(lang)
    return [table[t]["intro"] for t in TABLES if "{" not in table[t].get("intro", "{")]


def said_cues(line: str, lang: str) -> list[str]:
    """The line's cues as a render says them."""
    return spoken_cues(split_cues(line, lang), lang)


def syllables(text: str) -> int:
    han = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin = sum(
        len(re.findall(r"[aeiouy]+", w.lower())) or 1 for w in re.findall(r"[A-Za-z]+", text)
    )
    return han + latin


def gap_at(clip: np.ndarray, at: float) -> float:
    """The length of the quiet around ``at`` seconds (20 ms windows below QUIET of the peak)."""
    hop = round(0.02 * SAMPLE_RATE)
    frames = clip[: len(clip) // hop * hop].reshape(-1, hop)
    quiet = np.sqrt(np.mean(frames**2, axis=1)) < QUIET * float(np.max(np.abs(clip)))
    k = min(round(at * SAMPLE_RATE) // hop, len(quiet) - 1)
    if not quiet[k]:
        return 0.0
    a = b = k
    while a > 0 and quiet[a - 1]:
        a -= 1
    while b < len(quiet) - 1 and quiet[b + 1]:
        b += 1
    return (b - a + 1) * hop / SAMPLE_RATE


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (espeak-ng runs as one)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(lang: str, engine: Speaker, cache: Path) -> dict:
    clips, commas, stops, cpu, speech_s = [], [], [], 0.0, 0.0
    words = 0
    for line in lines(lang):
        cues = said_cues(line, lang)
        t = cpu_seconds()
        result = speak_line(cues, engine, cache)
        cpu += cpu_seconds() - t
        clip = read_wav(result.clip)
        clips.append(clip)
        speech_s += len(clip) / SAMPLE_RATE
        words += syllables("".join(cues)) if lang == "zh-TW" else len(" ".join(cues).split())
        at = 0.0
        for cue, seconds in zip(cues[:-1], result.cue_seconds[:-1], strict=True):
            at += seconds
            if pause_after(cue) == PAUSES["，"]:
                commas.append(gap_at(clip, at - 0.05))
            elif pause_after(cue) == PAUSES["。"]:
                stops.append(gap_at(clip, at - 0.05))
    t = cpu_seconds()
    for line in lines(lang):
        speak_line(said_cues(line, lang), engine, cache)
    cached = cpu_seconds() - t
    sound = np.concatenate(clips)
    rate = words / speech_s if lang == "zh-TW" else words / speech_s * 60
    return {
        "rate": rate,
        "comma": statistics.median(commas) if commas else float("nan"),
        "stop": statistics.median(stops) if stops else float("nan"),
        "lufs": loudness(sound),
        "peak": 20 * np.log10(float(np.max(np.abs(sound)))),
        "cpu": cpu / speech_s,
        "cached": cached,
        "seconds": speech_s,
        "first": clips[0],
    }


def write_mp3(path: Path, samples: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w", format="mp3") as out:
        stream = out.add_stream("libmp3lame", rate=SAMPLE_RATE, layout="mono")
        stream.bit_rate = 64_000
        encode_samples(samples, stream, out, 1152)  # MP3's frame


def main() -> int:
    rows = []
    for lang in ("zh-TW", "en"):
        meta = language(lang)
        engines = {
            "Kokoro " + KOKORO[lang][0]: KokoroVoice(*KOKORO[lang]),
            "espeak-ng " + meta.voice: Espeak(meta.voice, meta.voice_speed),
        }
        for name, engine in engines.items():
            with tempfile.TemporaryDirectory() as cache:
                m = measure(lang, engine, Path(cache))
            write_mp3(ROOT / "docs" / "voice-samples" / f"{lang}-{engine.kind}.mp3", m["first"])
            unit = "syllables/s" if lang == "zh-TW" else "words/min"
            rows.append(
                f"| {lang} | {name} | {m['rate']:.1f} {unit} | {m['comma']:.2f} s | "
                f"{m['stop']:.2f} s | {m['lufs']:.1f} LUFS | {m['peak']:.1f} dBFS | "
                f"{m['cpu']:.2f} | {m['cached']:.2f} s |"
            )
            print(rows[-1], flush=True)
    table = "\n".join(
        [
            "| language | voice | speaking rate | pause at a comma | at a full stop | loudness "
            "| peak | CPU s per s of speech (cold) | all lines again, cached |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            *rows,
        ]
    )
    doc = ROOT / "docs" / "voice.md"
    text = doc.read_text(encoding="utf-8")
    opening, closing = "<!-- measures -->", "<!-- /measures -->"
    start, end = text.index(opening) + len(opening), text.index(closing)
    write_text_atomic(doc, text[:start] + "\n" + table + "\n" + text[end:])
    print(f"written: {doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
