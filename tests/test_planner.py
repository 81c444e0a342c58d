"""A narrated line's plan (scenes/kit/planner.py), without Manim: beats, cue times, pacing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest

from scenes.kit.planner import (
    HOLD,
    STRETCH,
    mark_beats,
    paced,
    say_plan,
    silent_durations,
    split_said,
    timing,
    voiced_durations,
)
from scenes.kit.subtitles import cue_seconds, limits_for, unwrapped
from syllabus.locale import LocaleError
from voice.engines.espeak import Espeak

ROOT = Path(__file__).resolve().parent.parent


def test_the_planner_imports_no_manim() -> None:
    code = "import sys, scenes.kit.planner; print('manim' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_beat_needs_its_marker_in_every_language() -> None:
    marked = mark_beats("One. <b>Two.", {"b"}, "en", "template", "intro")
    assert marked.line == "One. Two." and marked.cues == ["One.", "Two."]
    assert marked.beat_cues == {"b": 1}
    for line, beats, problem in (
        ("One. <b>Two.", set(), "marks <b> but the scene has no such beat"),
        ("One. <c>Two.", {"b", "c"}, "has no <b> marker"),
        ("One. <b>Two. <b>Three.", {"b"}, "marks <b> twice"),
        ("One. Two.<b>", {"b"}, "a <marker> ends the line"),
    ):
        with pytest.raises(LocaleError, match=problem):
            mark_beats(line, beats, "en", "template", "intro")


def test_a_line_with_no_markers_keeps_its_beats_unplaced() -> None:
    """An instructor's own sentence in place of a marked line: the beats still play (after
    the line's animations, in the scene's order), and the line reads as written."""
    marked = mark_beats("Our own line. Two sentences.", {"b": 1, "a": 2}, "en", "template", "intro")
    assert marked.line == "Our own line. Two sentences."
    assert marked.beat_cues == {} and marked.unplaced == ("b", "a")
    assert " ".join(marked.cues) == marked.line


def test_a_line_without_spaces_is_joined_without_them() -> None:
    marked = mark_beats("第一句。<b>第二句。", {"b"}, "zh-TW", "template", "intro")
    assert marked.line == "第一句。第二句。" and marked.beat_cues == {"b": 1}


def test_a_beat_is_drawn_out_to_its_words() -> None:
    """A beat plays in its run_time when the picture then waits at most HOLD; longer words
    draw it out (to at most STRETCH), never past its window, shared by steps in turn."""
    assert paced(1.0, 2.5) == 1.0  # 1.5 s of wait: short enough
    assert paced(1.0, 0.5) == 0.5  # never past the window
    assert paced(1.0, 3.0) == 3.0 - HOLD  # the wait cut to HOLD
    assert paced(1.0, 20.0) == STRETCH  # drawn out no further
    assert paced(1.0, 4.5, steps=2) == (4.5 - HOLD) / 2  # two groups share the window
    assert paced(1.0, 8.0, steps=2) == STRETCH  # each drawn out no further
    assert paced(2.0, 3.0) == 2.0  # a longer run_time of the scene's own is kept


def test_silent_cues_stay_as_long_as_reading_takes() -> None:
    cues = ["One short cue.", "And a second, rather longer cue to read."]
    durations = silent_durations(cues, "en", 15)
    assert durations == [cue_seconds(cue, "en", 15) for cue in cues]
    assert durations[0] < durations[1]
    assert all(abs(d * 15 - round(d * 15)) < 1e-9 for d in durations)  # whole frames


def test_a_recording_is_shared_by_its_cues_by_their_length() -> None:
    # 1 s at 15 fps over cues of 2 and 4 characters: ends at frames ceil(5) and ceil(15)
    assert voiced_durations(["ab", "abcd"], 1.0, None, 15) == [5 / 15, 10 / 15]
    assert voiced_durations(["a", "b" * 99], 0.1, None, 10) == [1 / 10, 1 / 10]  # a frame each


def test_a_said_cue_starts_on_the_frame_nearest_its_words() -> None:
    assert voiced_durations(["a", "b"], 1.0, [0.52, 0.45], 10) == [5 / 10, 5 / 10]
    # a cue said in less than a frame still gets one; the next starts a frame later
    assert voiced_durations(["a", "b", "c"], 1.0, [0.5, 0.01, 0.49], 10) == [0.5, 0.1, 0.4]


def test_the_line_s_clock() -> None:
    silent = timing([1.0, 2.0, 0.5], {"late": 2, "early": 1}, 15, None)
    assert silent.starts == [0.0, 1.0, 3.0, 3.5] and silent.end == 3.5
    assert silent.timeline == [(1.0, "early"), (3.0, "late")]
    assert silent.first_beat == 1.0 and silent.until(0) == 3.0 and silent.until(1) == 3.5
    voiced = timing([1.0, 2.0], {}, 10, 0.35)
    assert voiced.end == 3.4  # the pause after the words, to the next whole frame
    assert voiced.first_beat == voiced.end and voiced.timeline == []


def test_a_cue_said_too_long_is_cut_and_its_beats_move_with_it() -> None:
    marked = mark_beats(
        "One. <a>A cue that the voice says far too slowly, on and on. <b>Three.",
        {"a", "b"}, "en", "template", "intro",
    )  # fmt: skip
    assert len(marked.cues) == 3 and marked.beat_cues == {"a": 1, "b": 2}
    assert split_said(marked, [1.0, 6.9, 1.0], "en") is None  # none over the limit
    cut = split_said(marked, [1.0, limits_for("en").max_seconds + 0.1, 1.0], "en")
    assert cut is not None and len(cut.cues) == 4 and cut.line == marked.line
    assert " ".join(cut.cues[1:3]) == unwrapped(marked.cues[1], "en")  # the same words, in two
    assert cut.beat_cues == {"a": 1, "b": 3}


def test_no_voiced_cue_outlasts_the_limit() -> None:
    """A slow voice says a full cue in more than the 7 s a cue may stay on screen: the cue
    is cut where its words allow and said again, until every cue is short enough."""
    slow = Espeak("en-us", 80)  # words a minute
    line = "Each position decides how much of every other value it carries home with it."
    marked = mark_beats(line, set(), "en", "template", "intro")
    assert len(marked.cues) == 1
    with TemporaryDirectory() as cache:
        said, spoken = say_plan(marked, "en", slow, Path(cache))
    limit = limits_for("en").max_seconds
    assert len(said.cues) > 1 and max(spoken.cue_seconds) <= limit
    assert " ".join(unwrapped(cue, "en") for cue in said.cues) == line
