"""Training (seed 000): the loss curve falling, the time it took, validation vs guessing 0.

Render alone with ``manim -ql scenes/chapters/training.py Training``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Circumscribe,
    Create,
    FadeIn,
    Flash,
    Indicate,
    MathTex,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import LossPlot
from scenes.kit.numbers import phrase

CURVE_POINTS = 250  # points drawn of the loss curve (every k-th step)


class Training(LectureScene):
    """The run that produced the data file, measured."""

    scene_key = "training"
    reads = ("training",)

    def construct(self) -> None:
        tr = self.data.training
        title = self.make_title()
        plot = LossPlot(tr.loss_curve, "training.steps", self.words["x_axis"], CURVE_POINTS)
        n = {  # every number of the chapter, shown and said
            "steps": self.number("training.steps", 0),
            "ms": self.number("training.train_ms", 0),
            "first": self.number("training.loss_curve[0]", 3),
            "last": self.number(f"training.loss_curve[{tr.steps - 1}]", 3, notation="auto"),
            "val_size": self.number("training.val_size", 0),
            "val": self.number("training.val_mse", 3, notation="auto"),
            "base": self.number("training.baseline_mse", 3),
        }
        run = phrase(self.words["run_line"], steps=n["steps"], ms=n["ms"])
        first = phrase(self.words["first_line"], loss=n["first"])
        last = phrase(self.words["last_line"], loss=n["last"])
        val = phrase(self.words["val_line"], n=n["val_size"], mse=n["val"])
        base = phrase(self.words["base_line"], style.LABEL_SIZE, style.MUTED, mse=n["base"])
        formula = MathTex(
            r"\text{loss} = \tfrac{1}{n}\sum_i (\hat{y}_i - y_i)^2", font_size=36, color=style.MUTED
        )
        side = VGroup(formula, run, first, last, val, base).arrange(
            DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF
        )
        style.place(VGroup(plot, side).arrange(RIGHT, buff=style.WIDE_BUFF))

        self.add(title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(plot.frame))
        self.say(
            "loss",
            Write(formula),
            beats={
                "batch": [FadeIn(first)],
                "adam": [Indicate(formula, color=style.HIGHLIGHT, scale_factor=1.05)],
            },
        )
        self.say(
            "curve",
            Create(plot.curve),
            FadeIn(last),
            run_time=4,
            first=n["first"],
            last=n["last"],
        )
        self.say("run", FadeIn(run), steps=n["steps"])  # a time is shown, never said: it varies
        self.say("val", FadeIn(val), n=n["val_size"], mse=n["val"])
        self.say("base", FadeIn(base), mse=n["base"])
        self.say(
            "meaning",
            Indicate(base, color=style.HIGHLIGHT),
            beats={
                "unseen": [
                    Circumscribe(val, color=style.HIGHLIGHT),
                    Indicate(plot.curve, color=style.HIGHLIGHT),
                ]
            },
        )
        self.say("outro", Flash(plot.get_end(), color=style.HIGHLIGHT, flash_radius=0.4))
