"""Measure the voices side by side, and write the samples a person listens to.

    .venv/bin/python scripts/voice_measures.py            # docs/voice.md, docs/voice-samples/
    .venv/bin/python scripts/voice_measures.py --listen   # the recogniser (pip install .[measure])

For each language, the narration's ``intro`` lines of eight chapters are said as a render
says them (cut into cues, numbers and symbols in words, each cue on its own) by Kokoro and
by espeak-ng, into an empty cache: cold, then again from the cache. Measured on the clips:
the speaking rate (Mandarin: syllables a second, one a Han character and one a vowel group
of a Latin word; English: words a minute, the pauses included), the pauses at the cues'
commas and full stops, loudness, peak, and CPU seconds per second of speech. The opening
line of each language is written as MP3 (64 kb/s) under docs/voice-samples/.

With ``--listen``, every line of the lecture (its narration script, as
``render.py --narration-script`` writes it) is said in each language by the lecture's
voices and heard by an offline recogniser (:mod:`measure.listening`): Mandarin's character
error rate, English's word error rate, the share of a Mandarin line's Latin words heard
right, the worst lines, the longest cue as said, and where terms are said by an English
voice, their pitch against their cue's and the level step at the joins. ``--before`` also
measures Mandarin with its terms said by its own voice (``terms = ""``). The tables go
into docs/voice.md between ``<!-- listening -->`` marks.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.atomic import write_text_atomic  # noqa: E402
from scenes.kit.planner import MarkedLine, say_plan, spoken_cues  # noqa: E402
from scenes.kit.subtitles import limits_for, split_cues  # noqa: E402
from syllabus.lecture_file import load_lecture  # noqa: E402
from syllabus.locale import language, locale_table  # noqa: E402
from voice.audio import SAMPLE_RATE, encode_samples  # noqa: E402
from voice.clips import PAUSES, loudness, pause_after, read_wav, speak_line  # noqa: E402
from voice.engine import Choice, Speaker  # noqa: E402
from voice.engines.espeak import Espeak  # noqa: E402
from voice.engines.kokoro import KokoroVoice  # noqa: E402
from voice.phonemes import LATIN  # noqa: E402

TABLES = ("opening", "office", "qkv", "scoring", "softmax", "weighted_sum", "colour_task", "why")


def kokoro(lang: str, **change: str | float) -> KokoroVoice:
    """The built-in lecture file's Kokoro voice of ``lang`` (with ``change``: e.g. no terms)."""
    choice = load_lecture().voices[lang].model_dump() | change
    return KokoroVoice.speaker(Choice(**choice))


QUIET = 10 ** (-40 / 20)  # a 20 ms window this far below the line's peak is a pause


def lines(lang: str) -> list[str]:
    """The ``intro`` lines of :data:`TABLES` that have no field to fill."""
    table = locale_table(lang)
    return [table[t]["intro"] for t in TABLES if "{" not in table[t].get("intro", "{")]


def said_cues(line: str, lang: str, speaker: Speaker | None = None) -> list[str]:
    """The line's cues as a render says them (with ``speaker``: a cue it says for longer
    than a cue may stay cut in two, as a render cuts it; :func:`say_plan`)."""
    plan = MarkedLine(line, split_cues(line, lang), {})
    if speaker is not None:
        plan, _ = say_plan(plan, lang, speaker, CACHE)
    return spoken_cues(plan.cues, lang)


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


def script_lines(folder: Path | None, lang: str) -> list[str]:
    """Every line of the lecture in ``lang``: its narration script in ``folder`` (the first
    language's in the folder itself, another's in its own sub-folder), else written now."""
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="script-"))
        command = [sys.executable, str(ROOT / "render.py"), "--narration-script"]
        out = folder / "out"
        subprocess.run([*command, "--narration", str(folder), "--out", str(out)], check=True)
    first = json.loads((folder / "narration.json").read_text(encoding="utf-8"))
    if first["lang"] != lang:
        first = json.loads((folder / lang / "narration.json").read_text(encoding="utf-8"))
    return [line["text"] for line in first["lines"]]


def listened(
    lang: str, speaker: Speaker, cues: list[list[str]], cache: Path, texts: list[str]
) -> dict:
    from measure.listening import listen

    def show(k: int, heard: object) -> None:
        if k % 25 == 0:
            print(f"  {lang} {k}/{len(cues)}", flush=True)

    heard = listen(cues, speaker, lang, cache, show, texts)
    units = sum(h.score.units for h in heard)
    errors = sum(h.score.errors for h in heard)
    latin = sum(h.score.latin for h in heard)
    worst = sorted(heard, key=lambda h: h.score.rate, reverse=True)[:WORST]
    seconds = [c for h in heard for c in h.cue_seconds]
    plain = [h.score for h in heard if not h.score.latin]  # the recogniser's own floor
    return {
        "lines": len(heard),
        "rate": errors / units,
        "plain": sum(s.errors for s in plain) / max(sum(s.units for s in plain), 1),
        "letters": (sum(h.score.letters_heard for h in heard), sum(h.score.letters for h in heard)),
        "latin": (sum(h.score.latin_heard for h in heard) / latin) if latin else None,
        "terms": latin,
        "longest": max(seconds),
        "over": sum(c > limits_for(lang).max_seconds for c in seconds),
        "worst": [(h.score.rate, h.score.said, h.score.heard) for h in worst],
        "missed": Counter(m for h in heard for m in h.score.missed).most_common(12),
    }


WORST = 5
JOIN_CUES = 80  # Mandarin cues with terms whose joins are measured (spread over the lecture)


def listening(folder: Path | None, before: bool, every: int, langs: list[str]) -> str:
    from measure.listening import joins

    rows, notes = [], []
    for lang in langs:
        lines = script_lines(folder, lang)[::every]
        speakers = {"": kokoro(lang)}
        if before and lang == "zh-TW":
            speakers["before: terms by the Mandarin voice"] = kokoro(lang, terms="")
        for note, speaker in speakers.items():
            cues = [said_cues(line, lang, speaker) for line in lines]
            m = listened(lang, speaker, cues, CACHE, lines)
            said = f"Kokoro {speaker.voice}" + (f", terms {speaker.terms}" if speaker.terms else "")
            latin = "" if m["latin"] is None else f"{m['latin']:.0%} of {m['terms']}"
            heard_letters, letters = m["letters"]
            if letters:
                latin += f" (letters alone: {heard_letters / letters:.0%} of {letters})"
            floor = f" ({m['plain']:.1%} on lines with no Latin word)" if m["latin"] else ""
            unit = "CER" if lang == "zh-TW" else "WER"
            rows.append(
                f"| {lang} | {said} {note} | {m['lines']} | {unit} {m['rate']:.1%}{floor} "
                f"| {latin} | {m['longest']:.1f} s | {m['over']} |"
            )
            print(rows[-1], flush=True)
            notes.append(f"\n**{lang}, {said} {note}**: the worst lines, as said and as heard:\n")
            notes += [f"- {r:.0%}: {a} → {b}" for r, a, b in m["worst"]]
            if m["missed"]:
                notes.append(
                    "- terms most often missed: " + ", ".join(f"{w} ({n})" for w, n in m["missed"])
                )
            if speaker.terms:
                with_terms = [c for cue in cues for c in cue if LATIN.search(c)]
                step = max(1, len(with_terms) // JOIN_CUES)
                sample = with_terms[::step][:JOIN_CUES]
                j = joins(sample, speaker.parts).summary()
                notes.append(
                    f"- the same speaker: {j['terms']} terms of {len(sample)}"
                    f" cues; their median pitch is {j['pitch_median']:.2f}× their cue's "
                    f"Chinese, {j['within_15']:.0%} within 15 %; the level steps "
                    f"{j['level_step_median_db']:.1f} dB (median) across a join"
                )
                print(notes[-1], flush=True)
    head = [
        "| language | voice | lines | error rate | Latin words heard right | longest cue "
        "| cues over 7 s |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    return "\n".join([*head, *rows, *notes])


CACHE = ROOT / ".voice-measures"  # the clips and transcripts, kept between runs


def write_between(mark: str, body: str) -> None:
    doc = ROOT / "docs" / "voice.md"
    text = doc.read_text(encoding="utf-8")
    opening, closing = f"<!-- {mark} -->", f"<!-- /{mark} -->"
    start, end = text.index(opening) + len(opening), text.index(closing)
    write_text_atomic(doc, text[:start] + "\n" + body + "\n" + text[end:])
    print(f"written: {doc}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listen", action="store_true", help="the recogniser's measures")
    parser.add_argument("--before", action="store_true", help="also terms = '' in Mandarin")
    parser.add_argument("--script", type=Path, help="a narration script's folder to read")
    parser.add_argument("--every", type=int, default=1, help="every Nth line only")
    parser.add_argument("--lang", default="zh-TW,en", help="languages, comma-separated")
    args = parser.parse_args()
    if args.listen:
        for lang in args.lang.split(","):
            found = listening(args.script, args.before, args.every, [lang])
            write_between(f"listening {lang}", found)
        return 0
    rows = []
    for lang in ("zh-TW", "en"):
        meta = language(lang)
        engines = {
            "Kokoro " + kokoro(lang).voice: kokoro(lang),  # its terms too
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
    write_between("measures", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
