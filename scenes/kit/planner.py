"""A narrated line's plan, without Manim: its cues and beats, and when each starts.

:meth:`scenes.kit.base.LectureScene.say` plays it: the planner reads a locale line's beat
markers (:func:`mark_beats`), gives each cue its time on screen, read or said
(:func:`silent_durations`, :func:`voiced_durations`; a cue said for longer than a cue
may stay is cut and said again, :func:`say_plan`), places the cues and the beats on the
line's clock (:func:`timing`, a :class:`Timing`) and says how long an animation under the
words plays (:func:`paced`); the voice hears the cues as :func:`spoken_cues` spells them.
Imports ``syllabus``, ``voice`` and :mod:`scenes.kit.subtitles`; no Manim.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from scenes.kit.subtitles import cue_seconds, fit, halves, limits_for, split_cues, unwrapped
from syllabus.locale import (
    BEAT_MARK,
    LocaleError,
    check_marks,
    language,
    locale_path,
    locale_table,
)
from voice import speech
from voice.clips import SpokenLine, speak_line
from voice.engine import Speaker

HOLD = 1.5  # the longest the picture waits, unmoving, under the words before the next beat
STRETCH = 2.0  # the longest a beat's animations may be drawn out to shorten that wait: a
# fade drawn out further is a still picture by another name (issue 44); a longer wait is a
# cue that wants a picture of its own


@dataclass(frozen=True)
class MarkedLine:
    """A locale line read for its beats: ``line`` without its ``<name>`` markers, its
    ``cues`` (a cue begins at each marker) and the cue each beat starts with."""

    line: str
    cues: list[str]
    beat_cues: dict[str, int]
    unplaced: tuple[str, ...] = ()  # beats of a line with no markers (an instructor's own)


@dataclass(frozen=True)
class Timing:
    """A line on its own clock (seconds from the line's start): each cue's ``durations``,
    ``starts`` (each cue's start, then the last cue's end), the line's ``end`` (voiced:
    after its pause, on a frame) and the ``timeline`` of its beats (start, name), in order."""

    durations: list[float]
    starts: list[float]
    end: float
    timeline: list[tuple[float, str]]

    @property
    def first_beat(self) -> float:
        """When the first beat starts (the line's end when it has none): the line's own
        animations play before it."""
        return self.timeline[0][0] if self.timeline else self.end

    def until(self, k: int) -> float:
        """When beat ``k``'s window closes: the next beat's start, or the line's end."""
        return self.timeline[k + 1][0] if k + 1 < len(self.timeline) else self.end


def mark_beats(marked: str, beats: Collection[str], lang: str, table: str, key: str) -> MarkedLine:
    """The line ``key`` of the locale table ``table`` (``marked``: formatted, markers and
    all) read for the scene's ``beats``; a marker without a beat, or a beat without a
    marker, is a LocaleError naming the file and the line. A line with no marker at all (an
    instructor's own sentence in place of a marked one) keeps the scene's beats
    ``unplaced``: they play in order after the line's own animations, so the picture still
    comes, though not on given words (the gates ask the project's own lines for markers)."""
    parts = BEAT_MARK.split(marked)
    pieces, names = parts[0::2], parts[1::2]
    where = f"{locale_path(lang)}: [{table}] {key}"
    if not names and beats:
        return MarkedLine(marked.strip(), split_cues(marked.strip(), lang), {}, tuple(beats))
    check_marks(where, names, sorted(beats))
    joiner = " " if language(lang).spaces else ""
    cues: list[str] = []
    beat_cues: dict[str, int] = {}
    for name, piece in zip([None, *names], pieces, strict=True):
        if name is not None:
            beat_cues[name] = len(cues)
        if piece.strip():
            cues += split_cues(piece.strip(), lang)
    line = joiner.join(piece.strip() for piece in pieces if piece.strip())
    if any(k >= len(cues) for k in beat_cues.values()):
        raise LocaleError(f"{where}: a <marker> ends the line; put it before its words")
    return MarkedLine(line, cues, beat_cues)


def split_said(plan: MarkedLine, said: Sequence[float], lang: str) -> MarkedLine | None:
    """``plan`` with every cue that was said for longer than a cue may stay on screen
    (``said``: each cue's seconds in the voice's clip) cut in two at its best break, its
    beats moved with it; None when no cue is too long or none of them can be cut. The
    voice then says the halves again: a cue's length is bounded by its reading time and,
    voiced, by its speaking time."""
    limit = limits_for(lang).max_seconds
    cues: list[str] = []
    moved: dict[int, int] = {}  # a cue's index in plan.cues -> its (first half's) new index
    for k, (cue, seconds) in enumerate(zip(plan.cues, said, strict=True)):
        moved[k] = len(cues)
        cut = halves(cue, lang) if seconds > limit else None
        cues += [cue] if cut is None else [c for half in cut for c in fit(half, lang)]
    if len(cues) == len(plan.cues):
        return None
    beat_cues = {name: moved[k] for name, k in plan.beat_cues.items()}
    return MarkedLine(plan.line, cues, beat_cues, plan.unplaced)


def say_plan(
    plan: MarkedLine, lang: str, speaker: Speaker, cache: Path
) -> tuple[MarkedLine, SpokenLine]:
    """The plan's cues said by ``speaker`` (:func:`voice.clips.speak_line`), and any cue
    said for too long cut (:func:`split_said`) and said again, until none is: the plan
    that was said, and its clip."""
    while True:
        spoken = speak_line(spoken_cues(plan.cues, lang), speaker, cache)
        shorter = split_said(plan, spoken.cue_seconds, lang)
        if shorter is None:
            return plan, spoken
        plan = shorter


def silent_durations(cues: Sequence[str], lang: str, fps: float) -> list[float]:
    """Silent: each cue stays as long as reading it takes (whole frames)."""
    return [cue_seconds(cue, lang, fps) for cue in cues]


def voiced_durations(
    cues: Sequence[str], seconds: float, said: Sequence[float] | None, fps: float
) -> list[float]:
    """Voiced: the line's audio (``seconds`` long) sets its time, and a cue starts when it
    is said (``said``: each cue's time in the clip; None for a recording, over which the
    cues are spread by their length)."""
    return _spread(cues, seconds, fps) if said is None else _frames(said, fps)


def _spread(cues: Sequence[str], seconds: float, fps: float) -> list[float]:
    """Cue durations (whole frames) sharing ``seconds`` in proportion to their length."""
    total = sum(len(cue) for cue in cues) or 1
    ends = [
        math.ceil(seconds * sum(len(c) for c in cues[: k + 1]) / total * fps)
        for k in range(len(cues))
    ]
    frames = [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    return [max(f, 1) / fps for f in frames]


def _frames(seconds: Sequence[float], fps: float) -> list[float]:
    """Durations (whole frames) whose running sums fall on the frames nearest to those of
    ``seconds``: each cue starts within half a frame of its words (a cue of less than a
    frame still gets one, and the next starts a frame later)."""
    ends: list[int] = []
    for k in range(len(seconds)):
        ends.append(max(round(sum(seconds[: k + 1]) * fps), (ends[-1] if ends else 0) + 1))
    return [(b - a) / fps for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def timing(
    durations: Sequence[float], beat_cues: Mapping[str, int], fps: float, pause: float | None
) -> Timing:
    """The line's clock: its cues one after another, each beat at its cue's start, and its
    end (with a voice, ``pause`` seconds of quiet after the words, to the next frame)."""
    starts = list(accumulate(durations, initial=0.0))
    end = starts[-1]
    if pause is not None:
        end = math.ceil((end + pause) * fps - 1e-6) / fps
    timeline = sorted((starts[k], name) for name, k in beat_cues.items())
    return Timing(list(durations), starts, end, timeline)


def paced(run_time: float, window: float, steps: int = 1) -> float:
    """How long one of ``steps`` animations, one after another in a ``window`` of the words,
    plays: ``run_time`` when the picture then waits at most :data:`HOLD` before the next
    beat, else drawn out (to at most :data:`STRETCH`) so that it does; never past the
    window. The picture moves while the words that it answers are said."""
    share = window / steps
    drawn_out = (window - HOLD) / steps
    return min(share, max(run_time, min(drawn_out, STRETCH)))


def spoken_cues(cues: Sequence[str], lang: str) -> list[str]:
    """Subtitle cues as a voice says them: one line each, the locale's ``[pronounce]`` words
    re-spelled, numbers and symbols (``[speech]``) in words."""
    meta, table = language(lang), locale_table(lang)
    return [
        speech.spoken(
            unwrapped(cue, lang),
            meta.numbers,
            table.get("speech", {}),
            table.get("pronounce", {}),
        )
        for cue in cues
    ]
