"""The voice heard by an offline recogniser (the measure extra): the scoring by hand, and
two short lines said by the lecture's voices and transcribed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from measure.scoring import score, tokens

pytestmark = pytest.mark.xdist_group("kokoro")


def test_mandarin_is_scored_by_character_and_a_term_by_word() -> None:
    assert tokens("用 Soft-Max，2 個", "zh-TW") == ["用", "soft", "max", "二", "個"]
    heard = score("我們用 softmax 和 Q", "我们用soft max和Cue", "zh-TW")  # split, Simplified
    assert (heard.errors, heard.latin, heard.latin_heard) == (0, 2, 2)
    assert (heard.letters, heard.letters_heard) == (1, 1)  # Q, heard as a letter's name
    assert score("平均 零點一二", "平均0.12", "zh-TW").errors == 0  # digits, as a recogniser writes
    letter = score("看 d 和 K", "看低和", "zh-TW")
    assert (letter.latin, letter.letters, letter.letters_heard) == (2, 2, 0)
    missed = score("我們用 attention", "我們用單身", "zh-TW")
    assert missed.missed == ("attention",) and missed.errors == 2  # 單身 for one word: 1+1
    assert score("the keys match", "the key is match", "en").errors == 2


def test_two_lines_said_and_heard(tmp_path: Path) -> None:
    from measure.listening import joins, listen
    from voice.engines.kokoro import KokoroVoice

    zh = KokoroVoice("zf_xiaobei", 1.1, "af_heart", 0.5, 0.9)
    en = KokoroVoice("af_heart", 0.85)
    [heard_zh] = listen([["我們先看 attention。"]], zh, "zh-TW", tmp_path)
    [heard_en] = listen([["The query meets every key."]], en, "en", tmp_path)
    assert heard_zh.score.rate <= 0.3 and heard_en.score.rate <= 0.2, (heard_zh, heard_en)
    silence = listen([["。"]], KokoroVoice("zf_xiaobei", 1.1), "zh-TW", tmp_path / "quiet")
    assert silence[0].score.rate == 1.0 or not silence[0].score.units
    found = joins(["我們先看 attention。"], zh.parts)
    assert len(found.pitch_ratios) == 1 and 0.7 < found.pitch_ratios[0] < 1.3
    assert len(found.level_steps) == 1 and abs(found.level_steps[0]) < 10
    assert np.isfinite(found.summary()["pitch_median"])
