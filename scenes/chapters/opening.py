"""The opening (seed 000): the title, the one-line idea, the trained map as a promise, and
the contents of the lecture, each part named as the list is read.

Render alone with ``manim -ql scenes/chapters/opening.py Opening``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Arrow,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import BrowserWindow
from scenes.kit.emphasis import outline
from scenes.kit.numbers import phrase

EAT = "tokens.eat_apple"


class Opening(LectureScene):
    """Title and idea; 蘋果 choosing what to look at; the learned map; the parts of the day.

    Variants override :attr:`teaser` (the example whose learned map is promised).
    """

    scene_key = "opening"
    reads = ("tokens.eat_apple", "training", "examples.{teaser}")
    teaser = "mixed"

    def construct(self) -> None:
        self.title = self.make_title()
        self._idea()
        self._promise()
        self._contents()

    def _idea(self) -> None:
        words, arrows = self.apple_choice()
        idea = style.text(self.words["idea"], style.TITLE_SIZE)
        picture = VGroup(idea, VGroup(arrows, words)).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(picture)
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(words, lag_ratio=0.3))
        self.say("idea_say", beats={"idea": [Write(idea)]})
        frame = self.say_apple_choice("look", words, arrows)
        block = VGroup(words, arrows, frame)
        names = VGroup(*(style.text(n, style.BODY_SIZE) for n in self.words["blocks"].split(",")))
        names.arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        moved = block.copy()
        box = SurroundingRectangle(moved, color=style.MUTED, buff=style.GROUP_BUFF)
        style.place(VGroup(VGroup(moved, box), names).arrange(RIGHT, buff=style.WIDE_BUFF * 2))
        pointers = VGroup(
            *(
                Arrow(n.get_left(), box.get_right(), buff=style.ITEM_BUFF, color=style.MUTED)
                for n in names
            )
        )
        self.say(
            "block",
            FadeOut(idea),
            Transform(block, moved),
            beats={"names": [Create(box), FadeIn(names, lag_ratio=0.3), *map(GrowArrow, pointers)]},
        )
        self.clear_below_title(self.title)

    def _promise(self) -> None:
        example = self.data.example(self.teaser)
        source = f"examples.{self.teaser}"
        grid = self.colour_map(example.colours, example.attention, f"{source}.attention", 0.55)
        steps = self.number("training.steps", 0)
        label = phrase(self.words["trained"], style.BODY_SIZE, steps=steps)
        style.place(VGroup(grid, label).arrange(RIGHT, buff=style.WIDE_BUFF))
        self.say(
            "not_hard",
            FadeIn(grid, lag_ratio=0.02),
            beats={"see": [Circumscribe(grid.cells, color=style.HIGHLIGHT)]},
            run_time=2,
        )
        self.say(
            "teaser",
            FadeIn(label),
            beats={"numbers": [outline(grid.numbers)]},
            steps=steps,
        )
        # The page beside the video trains the same model again: the map goes into a browser.
        window = BrowserWindow(grid, self.words["page"], width=grid.width * 1.6)
        style.place(window)
        self.say(
            "lab",
            FadeOut(label),
            ReplacementTransform(grid, window.get_content()),
            FadeIn(VGroup(*window[:4])),
            beats={"try": [Circumscribe(window.get_content(), color=style.HIGHLIGHT)]},
        )
        self.clear_below_title(self.title)

    def _contents(self) -> None:
        parts = self.chapter.parts if self.chapter else ()
        if not parts:
            return
        contents = self.contents()
        self.say("parts", FadeIn(contents, lag_ratio=0.1), n=str(len(parts)))
        frame = contents.frame(0)
        for k, part in enumerate(parts):
            move = Create(frame) if k == 0 else frame.animate.move_to(contents.frame(k))
            self.say(f"{part}_say", move, table="contents")
