"""The lecture's voice: numbers read in words, the natural voice (Kokoro), the draft voice
(espeak-ng) and recordings standing in for an instructor's, each driving the picture's
timing, in AAC, at -16 LUFS."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import av
import numpy as np
import pytest

from common.defaults import default
from common.video import seconds
from scenes.gates.motion import changes
from voice.clips import (
    SAMPLE_RATE,
    TARGET_LUFS,
    loudness,
    pause_after,
    read_wav,
    speak_line,
)
from voice.engines.espeak import Espeak
from voice.speech import spoken

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "scenes" / "chapters" / "template.py"
PLAN = (
    '[[chapter]]\nscene = "template"\nfile = "{file}"\nclass = "TemplateScene"\n\n'
    '[[chapter]]\nscene = "template_again"\nfile = "{file}"\nclass = "TemplateScene"\n'
)


SUBSET_PLAN = (
    '[[chapter]]\nscene = "first"\nfile = "{first}"\nclass = "First"\npart = "why"\n\n'
    '[[chapter]]\nscene = "template"\nfile = "{file}"\nclass = "TemplateScene"\n'
)


@pytest.mark.parametrize(
    ("line", "numbers", "said"),
    [
        ("0.83", "zh", "零點八三"),
        ("786,432 個", "zh", "七十八萬六千四百三十二 個"),
        ("1.1×10⁻¹⁶", "zh", "一點一乘以十的負十六次方"),
        ("約 1/4", "zh", "約 四分之一"),
        ("-0.50 與 12 與 105", "zh", "負零點五零 與 十二 與 一百零五"),
        ("0.83", "en", "zero point eight three"),
        ("786,432", "en", "seven hundred eighty-six thousand four hundred thirty-two"),
        ("4.4×10⁻¹⁶", "en", "four point four times ten to the minus sixteen"),
        ("about 1/3", "en", "about one over three"),
        ("2017 年《論文》", "zh", "二零一七 年《論文》"),  # a year, digit by digit
        ("（2017）", "zh", "（二零一七）"),
        ("共 2017 個", "zh", "共 二千零一十七 個"),  # a count stays a number
        ("有5個，平均0.12", "zh", "有五個，平均零點一二"),  # right after a Chinese character
        ("x1 和 W_2", "zh", "x1 和 W_2"),  # but not inside a Latin word
    ],
)
def test_numbers_are_read_as_the_language_says_them(line: str, numbers: str, said: str) -> None:
    assert spoken(line, numbers) == said


def test_symbols_are_read_from_the_locale() -> None:
    assert spoken("√d", "en", {"√": "root "}) == "root d"


def _render(tmp: Path, out: Path, *flags: str, chapters: int = 2) -> subprocess.CompletedProcess:
    """render.py on a plan of the template scene, once or twice (two chapters); with
    ``chapters=0``, a lecture file that picks the template alone from a plan whose first
    part begins with another scene, so that the template begins that part (and says its
    entry line first)."""
    plan = tmp / "plan.toml"
    text = PLAN.format(file=TEMPLATE)
    english = tmp / "english.toml"  # an English lecture: its lecture is out/ itself
    english.write_text('languages = ["en"]\n', encoding="utf-8")
    flags = flags if "--config" in flags else ("--config", str(english), *flags)
    if chapters == 0:
        first = ROOT / "tests" / "lecture_scenes" / "first.py"
        text = SUBSET_PLAN.format(first=first, file=TEMPLATE)
        lecture = tmp / "lecture.toml"
        lecture.write_text('chapters = ["template"]\nlanguages = ["en"]\n', encoding="utf-8")
        flags = ("--config", str(lecture), *flags[2:])  # in place of the English one
    elif chapters == 1:
        text = text.split("\n\n")[0] + "\n"
    plan.write_text(text, encoding="utf-8")
    command = [sys.executable, str(ROOT / "render.py"), "--plan", str(plan), *flags]
    command += ["--quality", "low", "--out", str(out)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)


def _audio(path: Path) -> np.ndarray:
    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    chunks = []
    with av.open(str(path)) as container:
        for frame in container.decode(audio=0):
            chunks.extend(f.to_ndarray()[0] for f in resampler.resample(frame))
    return np.concatenate(chunks)


def _streams(path: Path) -> tuple[float, float, float]:
    """The video's duration, the audio's, and one frame."""
    with av.open(str(path)) as container:
        video, audio = container.streams.video[0], container.streams.audio[0]
        assert audio.codec_context.name == "aac"
        return (
            seconds(container),  # its samples' durations: a hold is one sample
            float(audio.duration * audio.time_base),
            float(1 / video.base_rate),
        )


def _cue_starts(srt: Path) -> list[float]:
    starts = []
    for line in srt.read_text(encoding="utf-8").splitlines():
        if "-->" in line:
            h, m, s = line.split(" --> ")[0].replace(",", ".").split(":")
            starts.append(int(h) * 3600 + int(m) * 60 + float(s))
    return starts


def _check_timing(segment: Path) -> list[dict]:
    """Each line's first cue starts where its audio does (within 100 ms), and the audio is
    heard there; with a synthesised voice, every cue starts where its words do."""
    lines = json.loads(segment.with_suffix(".lines.json").read_text(encoding="utf-8"))["lines"]
    lines = [line for line in lines if "clip" in line]
    cues = _cue_starts(segment.with_suffix(".srt"))
    sound = _audio(segment)
    for line in lines:
        assert min(abs(c - line["start"]) for c in cues) < 0.1, line["key"]
        at = round(line["start"] * SAMPLE_RATE)
        window = sound[at : at + round(0.3 * SAMPLE_RATE)]
        assert np.max(np.abs(window)) > 0.05, f"{line['key']}: no sound where it starts"
    return lines


def _check_cues(segment: Path, lines: list[dict]) -> None:
    """Every cue of a synthesised line is shown from the frame its words start: quiet just
    before it (the pause its punctuation calls for), speech just after."""
    shown = _cue_starts(segment.with_suffix(".srt"))
    said = [line["start"] + c for line in lines for c in line["cues"]]
    assert shown == pytest.approx(said, abs=2e-3)  # each cue's subtitle where it is said
    sound = _audio(segment)
    later = [(line, start) for line in lines for start in line["cues"][1:]]
    assert later, "no line of more than one cue to check"
    for line, start in later:
        at = line["start"] + start
        k = round(at * SAMPLE_RATE)
        before = sound[k - round(0.1 * SAMPLE_RATE) : k - round(0.03 * SAMPLE_RATE)]
        after = sound[k : k + round(0.3 * SAMPLE_RATE)]
        assert np.sqrt(np.mean(before**2)) < 0.3 * np.sqrt(np.mean(after**2)), line["key"]


def _check_beat(segment: Path, line: dict) -> None:
    """The template's intro marks <cues> before its second cue: the picture holds still
    just before that cue is heard and moves on the frame it starts."""
    moved, fps = changes(segment)
    k = round((line["start"] + line["cues"][1]) * fps)
    assert not moved[k - round(0.5 * fps) : k].any(), "the picture moved before the beat"
    assert moved[k : k + 2].any(), "the beat did not start when its words did"


def test_the_draft_voice_says_each_cue_on_its_own(tmp_path: Path) -> None:
    cues = ["zero point eight three,", "then one."]
    line = speak_line(cues, Espeak("en-us", 165), tmp_path)
    clip = read_wav(line.clip)
    assert abs(sum(line.cue_seconds) - len(clip) / SAMPLE_RATE) < 1e-3
    # The first cue speaks until its comma's pause; the second at once after it.
    k, pause = round(line.cue_seconds[0] * SAMPLE_RATE), round(pause_after(cues[0]) * SAMPLE_RATE)
    assert np.max(np.abs(clip[k - pause - round(0.2 * SAMPLE_RATE) : k - pause])) > 0.05
    assert np.max(np.abs(clip[k : k + round(0.2 * SAMPLE_RATE)])) > 0.05
    assert abs(loudness(clip) - TARGET_LUFS) < 0.5


@pytest.mark.render
def test_the_natural_voice_drives_the_picture(tmp_path: Path, data_file: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")  # the same model: no training again
    # The lecture file's voice (Kokoro) for the first chapter, and the second one silent.
    lecture = tmp_path / "lecture.toml"
    lecture.write_text(
        'languages = ["en"]\n[chapter_voices]\ntemplate_again = "none"\n', encoding="utf-8"
    )
    result = _render(tmp_path, out, "--config", str(lecture))
    assert result.returncode == 0, result.stderr[-2000:]
    with av.open(str(out / "segments" / "template_again.mp4")) as silent:
        assert not silent.streams.audio  # a chapter of its own silence
    segment = out / "segments" / "template.mp4"
    video, audio, frame = _streams(segment)
    assert abs(video - audio) <= frame
    lines = _check_timing(segment)
    assert [line["key"] for line in lines] == ["intro", "result_say"]
    _check_cues(segment, lines)
    _check_beat(segment, lines[0])
    record = json.loads(segment.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["voice"]["voice"][:2] == ["kokoro", default("voices")["en"]["name"]]
    # The lecture decodes in full, picture and sound, at the target loudness.
    lecture_video, lecture_audio, frame = _streams(out / "lecture.mp4")
    assert abs(lecture_video - lecture_audio) <= frame
    sound = _audio(out / "lecture.mp4")
    assert abs(loudness(sound) - TARGET_LUFS) <= 1.0
    assert np.max(np.abs(sound)) < 1.0  # no clipping
    # --list knows a segment by its voice: current as voiced, stale for a silent lecture.
    listed = _render(tmp_path, out, "--voice", "kokoro", "--list").stdout
    assert re.search(r"template\s+current", listed), listed
    listed = _render(tmp_path, out, "--voice", "none", "--list").stdout
    assert re.search(r"template\s+stale", listed), listed
    # A second render synthesises nothing: every clip comes from the cache.
    cache = out / "voice-cache"
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    again = _render(tmp_path, out, "--voice", "kokoro", "--force", chapters=1)
    assert again.returncode == 0, again.stderr[-2000:]
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before


def _tone(path: Path, seconds: float, amplitude: float = 0.3) -> None:
    """A stand-in for a recorded line: a tone that fades in and out."""
    t = np.arange(round(seconds * 22050)) / 22050
    envelope = np.minimum(1, np.minimum(t, seconds - t) / 0.05)
    samples = amplitude * envelope * np.sin(2 * np.pi * 220 * t)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes((samples * 32767).astype("<i2").tobytes())


@pytest.mark.render
def test_recordings_set_the_timing_and_bad_ones_are_named(tmp_path: Path, data_file: Path) -> None:
    """The script of a lecture that picks its chapters lists exactly the lines the render
    says, under the names it looks for (the part entry line too); recorded as listed, the
    takes set the lines' times, and bad ones are named."""
    rec, out = tmp_path / "rec", tmp_path / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")
    script = _render(tmp_path, out, "--narration", str(rec), "--narration-script", chapters=0)
    assert script.returncode == 0, script.stderr[-2000:]
    listed = json.loads((rec / "narration.json").read_text(encoding="utf-8"))["lines"]
    names = ["template/01-enter", "template/02-intro", "template/03-result_say"]
    assert [line["file"] for line in listed] == names
    assert (rec / "script.html").is_file() and "template/02-intro.wav" in (
        rec / "script.txt"
    ).read_text(encoding="utf-8")
    # One line not recorded yet: named, nothing rendered.
    _tone(rec / "template" / "01-enter.wav", 1.5)
    _tone(rec / "template" / "02-intro.wav", 2.5)
    missing = _render(tmp_path, out, "--narration", str(rec), "--voice", "none", chapters=0)
    assert missing.returncode == 2 and "template/03-result_say.wav" in missing.stderr
    assert not (out / "segments").exists()
    # With a voice (the draft one here: Kokoro has tests above), it says the line not
    # recorded yet.
    drafted = _render(tmp_path, out, "--narration", str(rec), "--voice", "espeak", chapters=0)
    assert drafted.returncode == 0, drafted.stderr[-2000:]
    assert "1 line(s) not recorded yet, said by espeak: template/03-result_say" in drafted.stdout
    clips = [line["clip"] for line in _check_timing(out / "segments" / "template.mp4")]
    assert "take-" in clips[0] and "take-" in clips[1] and "espeak-line-" in clips[2]
    # A broken, a silent and an over-long recording: each named with its line.
    take = rec / "template" / "03-result_say.wav"
    for content, problem in (
        (b"RIFF\x00\x00not audio", "cannot be read as audio"),
        (None, "is silent"),
        ("long", "more than a line may"),
    ):
        if content is None:
            _tone(take, 1.0, amplitude=0.0)
        elif content == "long":
            _tone(take, 50.0)
        else:
            take.write_bytes(content)
        bad = _render(tmp_path, out, "--narration", str(rec), chapters=0)
        assert bad.returncode == 2, bad.stderr
        assert str(take) in bad.stderr and problem in bad.stderr, bad.stderr
    # All recorded, as the script listed them: no voice needed, and their lengths set the
    # lines' times.
    _tone(take, 3.0)
    result = _render(tmp_path, out, "--narration", str(rec), "--voice", "none", chapters=0)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = _check_timing(out / "segments" / "template.mp4")
    assert [line["text"] for line in lines] == [line["text"] for line in listed]
    assert [round(line["seconds"], 2) for line in lines] == [1.5, 2.5, 3.0]
    # The next line waits for the one before to end, and a short pause (in whole frames).
    assert lines[2]["start"] == pytest.approx(lines[1]["start"] + 2.5 + 0.35, abs=2 / 15 + 1e-6)
    # A new take re-renders the scene that says it.
    _tone(take, 2.0)
    redo = _render(tmp_path, out, "--narration", str(rec), "--voice", "none", chapters=0)
    assert redo.returncode == 0 and "1 rendered" in redo.stdout, redo.stdout


def test_a_cue_wrapped_between_latin_words_keeps_its_space() -> None:
    from scenes.kit.planner import spoken_cues

    said = spoken_cues(["這叫 permutation\nequivariance", "注意\n力 attention"], "zh-TW")
    assert said == ["這叫 permutation equivariance", "注意力 attention"]
