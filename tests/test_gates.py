"""Every scene passes every gate; and every gate fails on a scene broken its way."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path

import broken_scenes
import pytest

from model.datafile import LectureData
from scenes.gates.run import (
    GateReport,
    check_beats,
    check_colour_words,
    check_length,
    load_scene,
    main,
    run_gates,
)
from scenes.kit.numbers import Ref
from scenes.kit.seams import SEAMS
from syllabus.locale import LocaleError, available_languages
from syllabus.plan import checked

_REPORTS: dict[tuple, GateReport] = {}


def _shared_media(tmp_path: Path) -> Path:
    """The dry runs' media folder: one for the whole test session, its workers' too (its
    cache is written atomically and read by content, as a render's workers share theirs), so
    a formula or text several dry runs show is made once."""
    session = tmp_path.parent  # the session's folder, or under xdist this worker's in it
    return (session.parent if os.environ.get("PYTEST_XDIST_WORKER") else session) / "gate-media"


def _gate(scene_class, data_file: Path, tmp_path: Path, lang: str = "zh-TW") -> GateReport:
    """One dry run per scene, language and data file in this test session; the dry runs of
    one test process share their formula and text cache (by content, as a render's workers
    share theirs), so a formula both languages show is typeset once."""
    key = (scene_class, lang, data_file)
    if key not in _REPORTS:
        _REPORTS[key] = run_gates(scene_class, lang, data_file, _shared_media(tmp_path))
    return _REPORTS[key]


def _entries() -> list:
    """Every gated scene, its languages on one worker: the second language's dry run takes
    the texts and formulas both show (numbers, symbols, formulas) from the first's parse,
    about a third less time (shuffle: 12.0 s alone, 8.5 s after zh-TW). The attention map's
    dry run is shared with the listing test below (same worker, same cached report)."""
    return [pytest.param(e, id=e.name, marks=pytest.mark.xdist_group(e.name)) for e in checked()]


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize("entry", _entries())
def test_every_scene_passes_the_gates(entry, lang: str, data_file: Path, tmp_path: Path) -> None:
    scene_class = load_scene(entry)
    report = _gate(scene_class, data_file, tmp_path, lang)
    assert not report.problems, "\n".join(map(str, report.problems))
    assert report.animations >= 2 and len(report.captions) >= 2
    assert report.numbers, "a scene of this lecture shows numbers from the data"
    # A chapter of the lecture lasts 20-120 s in every language: the length gate, above.


@pytest.mark.xdist_group("attention_map")
def test_attention_map_lists_every_number_with_its_source(data_file: Path, tmp_path: Path) -> None:
    from scenes.chapters.attention_map import AttentionMap

    report = _gate(AttentionMap, data_file, tmp_path)
    ex = LectureData.from_file(data_file).example(AttentionMap.example_name)
    cells = {str(n.source) for n in report.numbers.values() if isinstance(n.source, Ref)}
    for i in range(ex.n):
        for j in range(ex.n):
            assert f"examples.mixed.attention[{i}][{j}]" in cells
    assert any("predictions[0]" in line for line in report.listing())


def _problems(scene_class, data_file: Path, tmp_path: Path, gate: str) -> list[str]:
    report = _gate(scene_class, data_file, tmp_path)
    return [str(p) for p in report.problems if p.gate == gate]


@pytest.mark.parametrize(
    ("scene_class", "gate", "message"),
    [
        (broken_scenes.OffFrame, "layout", "Text('出界了') leaves the frame"),
        (broken_scenes.OverlappingLabels, "layout", "Text('Query') overlaps Text('Key')"),
        (broken_scenes.TinyText, "layout", "Text('太小') is 11 px high at 1080p (at least 20)"),
        (broken_scenes.FastSubtitle, "subtitles", "needs 22.0 characters/s (at most 9)"),
        (broken_scenes.FastSubtitle, "subtitles", "is 22 characters wide (at most 16)"),
        (broken_scenes.LateSubtitles, "subtitles", "starts before the previous cue ends"),
        (broken_scenes.LateSubtitles, "subtitles", "ends after the scene (1.00 s)"),
        (broken_scenes.WrongNumber, "numbers", "shows 0.50, the data file says 0.33"),
        (broken_scenes.WrongSpokenNumber, "numbers", "shows 0.50, the data file says 0.33"),
        (broken_scenes.MissingSource, "numbers", "is not in the data file"),
        (broken_scenes.TypedNumber, "numbers", "writes a number that is not a ShownNumber"),
        (broken_scenes.InOneCorner, "layout", "of the content area's width or height"),
        (broken_scenes.IntoSubtitleBand, "layout", "Text('太低') reaches into the subtitle band"),
        (broken_scenes.StillLine, "beats", "line 'result_say': is narrated over a still picture"),
        (
            broken_scenes.OpensBesideTheSeam,
            "seams",
            "opens_on = 'score_table', but its first frame lacks",
        ),
        (
            broken_scenes.EndsOnMore,
            "seams",
            "last frame lacks 0% of that picture's drawn parts and shows",
        ),
    ],
    ids=lambda x: x if isinstance(x, str) else getattr(x, "__name__", None),
)
@pytest.mark.usefixtures("kit")  # a bare Scene chooses no theme of its own
def test_gate_fails_on_a_broken_scene(
    scene_class, gate: str, message: str, data_file: Path, tmp_path: Path
) -> None:
    problems = _problems(scene_class, data_file, tmp_path, gate)
    assert any(message in p for p in problems), problems
    assert all(scene_class.__name__ in p for p in problems)


def test_reading_another_chapters_words_undeclared_fails(data_file: Path, tmp_path: Path) -> None:
    with pytest.raises(LocaleError, match=r"UndeclaredTable reads the words of \[multihead\]"):
        run_gates(broken_scenes.UndeclaredTable, "zh-TW", data_file, tmp_path)


@pytest.mark.usefixtures("kit")
def test_layout_problems_name_the_animation(data_file: Path, tmp_path: Path) -> None:
    problems = _problems(broken_scenes.OverlappingLabels, data_file, tmp_path, "layout")
    assert problems == [
        "[layout] OverlappingLabels after animation 0: Text('Query') overlaps Text('Key')"
    ]


@pytest.mark.usefixtures("kit")
def test_marked_overlap_is_allowed(data_file: Path, tmp_path: Path) -> None:
    assert not _gate(broken_scenes.AllowedOverlap, data_file, tmp_path).problems


def test_gates_command_on_one_scene(data_file: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["template", "--lang", "zh-TW", "--data", str(data_file)]) == 0
    assert "template [zh-TW]" in capsys.readouterr().out
    assert main(["nope", "--data", str(data_file)]) == 2


def test_a_colour_the_lecture_does_not_use_is_never_said() -> None:
    lines = [{"index": 2, "key": "strip", "text": "一個顏色，紅、綠、藍其中一種"}]
    problems = check_colour_words(lines, ["red", "blue", "purple", "yellow"], "zh-TW", "x")
    assert [p.message for p in problems] == [
        "names the colour '綠' (green), which 'task.colours' does not hold"
    ]
    said = [{"index": 1, "key": "k", "text": "red, green or blue, not a greenhouse"}]
    assert len(check_colour_words(said, ["red", "blue"], "en", "x")) == 1
    assert check_colour_words(said, ["red", "green", "blue"], "en", "x") == []


def test_a_chapter_too_short_or_too_long_is_named() -> None:
    assert check_length(60, "x") == []
    for seconds in (12, 130):
        [problem] = check_length(seconds, "x")
        assert problem.gate == "length" and "(20-120 s)" in problem.message


def test_only_the_projects_own_lines_must_mark_their_beats() -> None:
    """A line whose beats had no markers is a problem when it is the project's own (its
    built-in text has none either), not when an instructor's sentence replaced a marked one."""
    assert check_beats([], "ColourTask", "en", [("colour_task", "intro")]) == []  # replaced
    (problem,) = check_beats([], "ColourTask", "en", [("colour_task", "all_answers")])
    assert "no <marker>" in problem.message


def test_each_seam_is_declared_on_both_sides() -> None:
    """Where a chapter of the lecture opens on a seam, the chapter before it ends on that seam
    (the gates check each side against its own frames), and every seam named is built."""
    classes = [load_scene(entry) for entry in checked()]
    pairs = list(pairwise(classes))
    for before, after in pairs:
        if after.opens_on:
            assert before.ends_on == after.opens_on, (
                f"{after.__name__} opens on a seam {before.__name__} does not end on"
            )
    named = {c.opens_on for c in classes} | {c.ends_on for c in classes}
    assert named - {""} <= set(SEAMS), named - set(SEAMS)
    assert any(after.opens_on for _, after in pairs)
