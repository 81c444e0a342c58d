"""Scenes construct under dry run, read every number from the data file, and read well."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from manim import tempconfig

from common.settings import tempsettings
from scenes.gates.run import load_scene
from scenes.kit.numbers import ShownNumber, format_number, phrase
from scenes.kit.subtitles import limits_for, line_width, split_cues, visible_length, wrap
from syllabus.locale import Words, available_languages
from syllabus.plan import checked, load_plan


def _dry_run(entry, tmp_path: Path):
    with tempconfig({"dry_run": True, "media_dir": str(tmp_path), "quality": "low_quality"}):
        scene = load_scene(entry)(skip_animations=True)
        scene.render()
    return scene


def test_scene_fails_clearly_without_data(tmp_path: Path) -> None:
    with (
        tempsettings(data=tmp_path / "missing.json"),
        pytest.raises(Exception, match="data file not found"),
    ):
        _dry_run(load_plan()[0], tmp_path)


def test_every_language_has_every_key() -> None:
    languages = available_languages()
    assert {"zh-TW", "en"} <= set(languages)
    for entry in checked():
        keys = {lang: set(Words(entry.scene_key, lang)) for lang in languages}
        assert all(k == keys["zh-TW"] for k in keys.values()), keys


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_narration_splits_within_limits(lang: str) -> None:
    limits = limits_for(lang)
    numbers = defaultdict(lambda: "-0.08")
    for entry in checked():
        for text in Words(entry.scene_key, lang).values():
            for cue in split_cues(text.format_map(numbers), lang):
                lines = cue.split("\n")
                assert len(lines) <= 2
                assert all(line_width(x, lang) <= limits.chars_per_line for x in lines)


def test_splitting_never_cuts_a_number_or_word() -> None:
    cues = split_cues(
        "看第 1 列。它分給每一個大約 0.33，差不多就是 1/3，這就是 attention 的結果。", "zh-TW"
    )
    joined = " ".join(cues)
    assert "0.33" in joined.replace("\n", " ") and "1/3" in joined
    assert all("attention" in c or "atten" not in c for c in cues)
    english = split_cues("It gives each of them about 0.33, which is roughly one third. " * 3, "en")
    assert all(len(line) <= 42 for cue in english for line in cue.split("\n"))
    assert all(not line.endswith("0.") for cue in english for line in cue.split("\n"))


@pytest.mark.usefixtures("kit")
def test_phrase_keeps_numbers_traceable() -> None:
    k = ShownNumber(3, 0, "count")
    line = phrase("同色 {k} 個 → 每格約 1/{k}", k=k)
    numbers = [m for m in line if isinstance(m, ShownNumber)]
    assert len(numbers) == 2 and all(m.source == "count" and m.value == 3 for m in numbers)
    with pytest.raises(KeyError, match="needs a number for 'x'"):
        phrase("{x}")


def test_format_number_has_no_negative_zero() -> None:
    assert format_number(-0.001) == "0.00"
    assert format_number(0.125) == "0.12"  # round half to even, as Python prints
    assert format_number(-0.08) == "-0.08"


def test_lines_are_not_cut_inside_a_listed_word() -> None:
    import jieba

    cue = "甲乙丙丁戊己庚辛我加起來子丑寅卯辰巳午未"
    assert "起来" in jieba.Tokenizer().cut("我加起来"), "jieba alone cuts 我加/起來"
    lines = wrap(cue, "zh-TW").split("\n")
    assert any("加起來" in line for line in lines), lines  # listed in keep_together


def test_chinese_lines_break_between_words_never_before_punctuation() -> None:
    # jieba finds 問題 and 有個 (not in keep_together); the old cutter made "手上有 / 個問題".
    cues = split_cues("假設你在一個很大的辦公室，手上有個問題要解決：報帳流程要跑幾天？", "zh-TW")
    lines = [line for cue in cues for line in cue.split("\n")]
    assert all(not line.startswith(("個", "題", "，", "：")) for line in lines), lines
    assert any("手上有個問題" in line for line in lines), lines
    formula = split_cues("把 X 分別乘上三個矩陣 W_Q、W_K、W_V，就得到 Q、K、V。", "zh-TW")
    assert all(not line.startswith("、") for cue in formula for line in cue.split("\n"))
    assert len(formula) == 1, formula  # Latin letters are half as wide as a CJK character


def test_a_cue_never_starts_with_closing_punctuation_nor_ends_opening_a_quote() -> None:
    rule = "要輸出的答案是：跟我同顏色的那些位置（包括我自己），它們數字的平均。看第 1 個位置。"
    cues = split_cues(rule, "zh-TW")
    assert len(cues) > 1 and not any(cue.startswith(("，", "）")) for cue in cues), cues
    quoted = split_cues(
        'So what we need is this: the vector of "bass" must change with the words around it, '
        "whatever the sentence around it says.",
        "en",
    )
    assert len(quoted) > 1 and not any(cue.rstrip().endswith(' "') for cue in quoted), quoted


def test_a_sentence_is_packed_into_balanced_cues() -> None:
    cues = split_cues("把 X 分別乘上三個矩陣 W_Q、W_K、W_V，就得到 Q、K、V。" * 2, "zh-TW")
    widths = [visible_length(c, "zh-TW") for c in cues]
    assert max(widths) - min(widths) <= 8, cues  # greedy packing left "K、V。" alone


def test_a_sum_shown_says_approximately_when_its_rounded_terms_do_not_add_up() -> None:
    from scenes.kit.numbers import sum_sign

    assert sum_sign([0.536, 0.146], 0.682, 2) == "≈"  # 0.54 + 0.15 shown, total shown 0.68
    assert sum_sign([0.5, 0.25], 0.75, 2) == "="


def test_a_multiple_choice_has_one_right_answer() -> None:
    """Every language's quiz choices give two or more choices, one of them right (the same
    one in each language); a line without exactly one "*" is one clear line."""
    from types import SimpleNamespace

    from scenes.kit.base import LectureScene
    from syllabus.locale import LocaleError

    def choices(line: str, lang: str = "en") -> tuple[list[str], int]:
        scene = SimpleNamespace(words={"c": line}, lang=lang, scene_key="quiz")
        return LectureScene.choices(scene, "c")

    assert choices("Q|K|*V") == (["Q", "K", "V"], 2)
    for lang in available_languages():
        words = Words("quiz", lang)
        rights = [choices(words[f"choices_{k}"], lang)[1] for k in (1, 2, 3)]
        assert rights == [choices(Words("quiz", "zh-TW")[f"choices_{k}"])[1] for k in (1, 2, 3)]
    for bad in ("Q|K|V", "*Q|*K|V", "*V"):
        with pytest.raises(LocaleError, match=r"\[quiz\] c: write two or more choices"):
            choices(bad)
