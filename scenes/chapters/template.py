"""Template for a new chapter: copy this file, rename the class and its ``scene_key``, add
its locale table and its entry in plan.toml.

Preview it with ``manim -pql scenes/chapters/template.py TemplateScene``; check it against
every quality gate with ``python -m scenes.gates template``.
"""

from __future__ import annotations

from manim import RIGHT, Circumscribe, FadeIn, VGroup

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.numbers import phrase


class TemplateScene(LectureScene):
    """One idea per scene; words in syllabus/locales/*.toml under [template]."""

    scene_key = "template"  # the scene's table in the locale files
    reads = ("training", "examples.mixed")  # the parts of the data file it shows

    def construct(self) -> None:
        title = self.make_title()
        # Every number on screen is named by its data-file path: self.number(path, decimals)
        # reads the value there, so what is shown and its source cannot disagree.
        result = phrase(
            self.words["result"],
            style.BODY_SIZE,
            val=self.number("training.val_mse", 3, notation="auto"),
            base=self.number("training.baseline_mse", 3),
        )
        # colour_map draws a colour-task map with its markers, for any number of positions:
        # the cells shrink with more, and too small for numbers, the map reads by brightness.
        example = self.data.example("mixed")
        grid = self.colour_map(example.colours, example.attention, "examples.mixed.attention", 0.6)
        # One picture fills the content area, between the title and the subtitle band.
        style.place(VGroup(grid, result).arrange(RIGHT, buff=style.WIDE_BUFF))
        # say() shows the narration as subtitles, timed for reading (or, with a voice, as
        # they are heard), while animating: every line gets its own animation (the beats
        # gate checks). A beat starts when its words do: the locale line marks the place
        # with <cues>, in every language.
        self.add(title)  # the title at once: no frame is only a title being written
        self.say(
            "intro",
            FadeIn(grid),
            beats={"cues": [Circumscribe(grid.cells, color=style.HIGHLIGHT)]},
        )
        self.say("result_say", FadeIn(result), Circumscribe(result, color=style.HIGHLIGHT))
