"""What every lecture scene shares: the data, the words, the style and narration."""

from __future__ import annotations

import math
import os
from functools import cache
from pathlib import Path

from manim import Animation, Scene, config

from model.datafile import LectureData
from scenes import style
from scenes.locale import Words, colour_label, current_language
from scenes.subtitles import cue_seconds, split_cues

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "out" / "data.json"


def data_path() -> Path:
    """The data file scenes read: ``LECTURE_DATA`` or ``out/data.json`` in the project."""
    return Path(os.environ.get("LECTURE_DATA", DEFAULT_DATA))


def lecture_data() -> LectureData:
    """The validated data file at :func:`data_path` (each file loaded once per process)."""
    return _load(data_path().resolve())


@cache
def _load(path: Path) -> LectureData:
    return LectureData.from_file(path)


class LectureScene(Scene):
    """Base of every chapter: sets the background, loads data and words, narrates.

    Subclasses set :attr:`scene_key` (their table in the locale files) and write
    ``construct`` with :meth:`say`, which shows narration as subtitles and gives each
    cue the time it needs to be read.
    """

    scene_key: str = ""

    def setup(self) -> None:
        self.camera.background_color = style.BACKGROUND
        self.lang = current_language()
        self.data = lecture_data()
        self.words = Words(self.scene_key, self.lang)

    def colour_label(self, colour_index: int) -> str:
        return colour_label(self.data.colour_names[colour_index], self.lang)

    def say(self, key: str, *animations: Animation, run_time: float = 1.0, **fields) -> None:
        """Narrate the locale string ``key`` (formatted with ``fields``) while animating.

        The narration is cut into cues; the animations play first (at most ``run_time``
        seconds, and never longer than the narration), then the scene holds until the
        last cue has been on screen long enough to read. Cue times are whole frames, so
        consecutive cues never overlap.
        """
        fps = config.frame_rate
        cues = split_cues(self.words[key].format(**fields), self.lang)
        start = self.renderer.time
        offset = 0.0
        for cue in cues:
            seconds = cue_seconds(cue, self.lang, fps)
            self.add_subcaption(cue, duration=seconds, offset=offset)
            offset += seconds
        if animations:
            self.play(*animations, run_time=min(run_time, offset))
        self.hold_until(start + offset)

    def hold_until(self, end: float) -> None:
        """Wait until the scene's clock reaches ``end`` (in whole frames, never short)."""
        remaining = end - self.renderer.time
        if remaining > 1e-6:
            frames = math.ceil(remaining * config.frame_rate - 1e-6)
            self.wait(frames / config.frame_rate)
