"""The lecture file: the built-in one is the whole lecture, and a subset re-plans the parts."""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from common.defaults import DEFAULT_LECTURE, default
from model.config import LectureConfig
from syllabus.lecture_file import load_lecture
from syllabus.plan import load_plan


def test_the_built_in_lecture_file_is_the_whole_lecture() -> None:
    lecture = load_lecture()
    assert [c.name for c in lecture.chapters] == [c.name for c in load_plan()]
    assert lecture.config == LectureConfig()
    assert (lecture.languages, lecture.theme, lecture.quality) == (("zh-TW",), "dark", "high")


def test_print_config_is_the_built_in_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert render.main(["--print-config"]) == 0
    printed = capsys.readouterr().out
    assert printed == DEFAULT_LECTURE.read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(printed, encoding="utf-8")
    assert load_lecture(mine).chapters == load_lecture().chapters


def test_chosen_chapters_in_their_own_order_replan_the_parts(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(
        'chapters = ["summary", "office", "qkv", "why"]\nlanguages = ["en", "zh-TW"]\n'
        'theme = "light"\nquality = "low"\n[task]\nsteps = 50\n',
        encoding="utf-8",
    )
    lecture = load_lecture(mine)
    assert [(c.name, c.part) for c in lecture.chapters] == [
        ("summary", "wrap_up"),
        ("office", "mechanism"),
        ("qkv", None),
        ("why", "why"),
    ]
    assert lecture.chapters[0].parts == ("wrap_up", "mechanism", "why")
    assert (lecture.languages, lecture.theme, lecture.quality) == (("en", "zh-TW"), "light", "low")
    assert lecture.config.steps == 50


def test_flags_override_the_lecture_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('chapters = ["office", "qkv"]\nlanguages = ["en"]\n', encoding="utf-8")
    out = tmp_path / "out"
    assert render.main(["--config", str(mine), "--list", "--out", str(out)]) == 0
    listed = capsys.readouterr().out
    assert " 1. office" in listed and " 2. qkv" in listed and "Query" in listed
    assert (
        render.main(["--config", str(mine), "--list", "--lang", "zh-TW,en", "--out", str(out)]) == 0
    )
    listed = capsys.readouterr().out
    # The file's first language (en) in out/ itself, the other in out/<language>.
    assert f"[zh-TW] {out / 'zh-TW'}" in listed and f"[en] {out}\n" in listed


def test_languages_from_the_flag_replace_the_files_and_are_the_ones_checked() -> None:
    assert load_lecture(languages=["en"]).languages == ("en",)
    assert load_lecture().languages == ("zh-TW",)


def test_a_walkthrough_of_ones_own_goes_without_the_built_in_languages_own() -> None:
    """The built-in English sentence tells the built-in walkthrough's story: with a
    walkthrough of their own and none per language, English follows theirs."""
    built_in = LectureConfig()
    assert built_in.walkthrough_in("en") == built_in.walkthroughs["en"] != built_in.walkthrough
    theirs = built_in.walkthrough.model_dump() | {"tokens": list("abcde"), "other_sense": None}
    mine = LectureConfig.model_validate({"walkthrough": theirs})
    assert mine.walkthroughs == {} and mine.walkthrough_in("en").tokens == list("abcde")
    printed = LectureConfig.model_validate(  # their sentence in the printed file, the rest kept
        {"walkthrough": theirs, "walkthroughs": default("task")["walkthroughs"]}
    )
    assert printed.walkthroughs == {}
    own_en = built_in.walkthroughs["en"].model_dump() | {"tokens": list("vwxyz")}
    both = LectureConfig.model_validate(
        {"walkthrough": theirs, "walkthroughs": {"en": own_en | {"other_sense": None}}}
    )
    assert both.walkthrough_in("en").tokens == list("vwxyz")
