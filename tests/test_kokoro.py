"""The natural voice, Kokoro-82M: phonemes for mixed Mandarin and English lines, each cue
said on its own at a known time, offline, cached, at the lecture's loudness, at a speaking
rate people use; and a missing or damaged file named with the command that fixes it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from common.defaults import default
from voice.clips import (
    PEAK,
    SAMPLE_RATE,
    TARGET_LUFS,
    TRIM_MARGIN,
    loudness,
    pause_after,
    read_wav,
)
from voice.install import assemble_model
from voice.kokoro import KokoroError, check_model, check_voice, pieces, token_ids
from voice.phonemes import phonemes, runs
from voice.speech import pronounced

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.xdist_group("kokoro")

# Run in a process whose sockets cannot connect: anything that tried the network would fail.
OFFLINE = """
import json, socket, sys
def refuse(*args, **kwargs):
    raise OSError("the network was used")
socket.socket.connect = refuse
socket.create_connection = refuse
from voice import kokoro
from voice.clips import speak_line
from voice.engines.kokoro import KokoroVoice
from voice.speech import spoken
out = {}
for name, voice, speed, cues, numbers in json.loads(sys.argv[2]):
    said = [spoken(cue, numbers) for cue in cues]
    line = speak_line(said, KokoroVoice(voice, speed), __import__("pathlib").Path(sys.argv[1]))
    out[name] = {"clip": str(line.clip), "cues": line.cue_seconds}
out["model_loaded"] = kokoro.kokoro.cache_info().currsize
print(json.dumps(out))
"""
VOICES = default("voices")  # the built-in lecture file's voice and speed, per language
LINES = [
    (name, VOICES[lang]["name"], VOICES[lang]["speed"], cues, numbers)
    for name, lang, cues, numbers in (
        ("zh", "zh-TW", ["今天的主題是 self-attention，", "每個字自己決定要看哪裡。"], "zh"),
        ("en", "en", ["Each word decides,", "on its own, where to look."], "en"),
    )
]


def _say(cache: Path) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", OFFLINE, str(cache), json.dumps(LINES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_latin_terms_in_a_mandarin_line_are_read_as_english() -> None:
    line = "今天的主題是 self-attention，Q 和 K 相乘"
    assert runs(line) == [
        (False, "今天的主題是 "),
        (True, "self-attention"),
        (False, "，"),
        (True, "Q"),
        (False, " 和 "),
        (True, "K"),
        (False, " 相乘"),
    ]
    said = phonemes(line, "zh")
    assert "attention" not in said and "ɐtˈɛnʃən" in said  # English phonemes, not letters
    assert "kjˈuː" in said and "kˈA" in said
    assert len(token_ids(said)) == len(said)  # Kokoro knows every phoneme made


def test_the_pronunciation_table_and_traditional_characters() -> None:
    # Read from Traditional characters, ZHG2P would say zhǎng; converted first, cháng.
    assert "ꭧʰa↗ŋ" in phonemes("長度", "zh")
    # A row is háng: the locale's table re-spells it as a homophone the G2P reads right.
    from syllabus.locale import locale_table

    table = locale_table("zh-TW")["pronounce"]
    assert "ɕi↗ŋ" in phonemes("第一行", "zh")  # the G2P alone: xíng
    assert "xa↗ŋ" in phonemes(pronounced("第一行", table), "zh")
    assert pronounced("學得會，得到", table) == "學的會，得到"  # longest first: 得到 kept
    assert pronounced("MSE, MSEs", {"MSE": "M S E"}) == "M S E, MSEs"  # whole words only


def test_a_long_line_is_cut_between_words() -> None:
    words = ["ðɪs", "ɪz", "ɐ", "lˈɔŋ", "lˈIn"] * 40  # 200 words, far more than 510 ids
    text = ", ".join(" ".join(words[k : k + 10]) for k in range(0, 200, 10)) + "."
    cut = pieces(text, limit=120)
    assert len(cut) > 1 and all(len(token_ids(p)) <= 120 for p in cut)
    assert " ".join(cut).split() == text.split()  # nothing lost, no word cut
    assert all(p.endswith(",") or p.endswith(".") for p in cut)  # at punctuation
    with pytest.raises(KokoroError, match="cannot be said"):
        pieces("a" * 130, limit=120)


def _check_joint(clip: np.ndarray, start: float, pause: float, name: str) -> None:
    """Around the start of a line's second cue: the first cue's speech runs up to its pause
    (the model's own trailing quiet trimmed), and the second cue speaks at once."""
    k, p = round(start * SAMPLE_RATE), round(pause * SAMPLE_RATE)
    window = round((TRIM_MARGIN[1] + 0.15) * SAMPLE_RATE)
    assert np.max(np.abs(clip[k - p - window : k - p])) > 0.05, f"{name}: quiet before the pause"
    assert np.max(np.abs(clip[k : k + round(0.25 * SAMPLE_RATE)])) > 0.05, f"{name}: late start"


def test_each_cue_is_said_on_its_own_offline_and_cached(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    said = _say(cache)
    assert said["model_loaded"] == 1
    for name, _, _, cues, _ in LINES:
        clip = read_wav(Path(said[name]["clip"]))
        seconds = said[name]["cues"]
        # The clip is its cues end to end: cue 2 starts where cue 1 and its pause end.
        assert abs(sum(seconds) - len(clip) / SAMPLE_RATE) < 1e-3
        _check_joint(clip, seconds[0], pause_after(cues[0]), name)
        # Normalised as every line is; no sample near full scale.
        assert abs(loudness(clip) - TARGET_LUFS) < 0.5
        assert np.max(np.abs(clip)) <= PEAK + 1e-4
        # A speaking rate people use: Mandarin 3.5-5.5 syllables a second (lecturing is
        # about 4), English 130-200 words a minute (the pauses included).
        text = "".join(cues)
        total = len(clip) / SAMPLE_RATE
        if name == "zh":
            syllables = len(re.findall(r"[\u4e00-\u9fff]", text)) + 4  # self-at-ten-tion
            assert 3.5 <= syllables / total <= 5.5, syllables / total
        else:
            assert 130 <= len(text.split()) / total * 60 <= 200, len(text.split()) / total * 60
    # Said again: every clip from the cache, and the model not even loaded.
    files = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    again = _say(cache)
    assert again["model_loaded"] == 0
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == files


def test_a_missing_or_damaged_file_is_named_with_its_fix(tmp_path: Path) -> None:
    home = tmp_path / "kokoro"
    with pytest.raises(KokoroError, match=r"kokoro-v1\.0\.int8\.onnx: the Kokoro model is missing"):
        check_model(home)
    assemble_model(home)  # joined from the four packages and checked
    model = check_model(home)
    with model.open("r+b") as f:  # one byte changed
        f.seek(1000)
        byte = f.read(1)
        f.seek(1000)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(KokoroError, match=r"model is damaged .*make setup"):
        check_model(home)
    with pytest.raises(KokoroError, match=r"af_heart\.bin: the Kokoro voice is missing .*setup"):
        check_voice("af_heart", home)
    (home / "voices").mkdir()
    (home / "voices" / "af_heart.bin").write_bytes(b"\0" * 16)
    with pytest.raises(KokoroError, match="voice is damaged"):
        check_voice("af_heart", home)
    with pytest.raises(KokoroError, match="'zz_nobody' is not one set-up keeps"):
        check_voice("zz_nobody", home)


def test_terms_are_said_by_the_english_voice_and_the_cue_is_its_parts() -> None:
    from voice.engines.kokoro import KokoroVoice

    plain = KokoroVoice("zf_xiaobei", 1.1)
    voice = KokoroVoice("zf_xiaobei", 1.1, "af_heart", 0.5, 0.9)
    parts = voice.parts("用 Query、Key 找")
    assert [kind for kind, _ in parts] == ["han", "gap", "term", "gap", "term", "gap", "han"]
    assert len(parts[3][1]) == round(0.15 * SAMPLE_RATE)  # the 、 between the terms
    whole = voice.samples("用 Query、Key 找")
    assert len(whole) == sum(len(s) for _, s in parts)  # the cue's length is its parts'
    assert voice.identity() != plain.identity()  # a clip said otherwise is cached otherwise
    # single letters stay with the line's voice, as a Taiwanese lecturer says them
    assert [kind for kind, _ in voice.parts("看 Q 和 attention")] == ["han", "gap", "term"]
